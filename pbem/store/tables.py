"""The database tables (sqlmodel). Schema changes go through the migrations beside this file.

Times are aware UTC datetimes. JSON columns hold game states (``Game.dump`` output),
orders as canonical order text, events as ``Event.to_json`` data.
"""

from __future__ import annotations

import enum
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, ForeignKey, Index, Integer, LargeBinary, String, Text, UniqueConstraint, event, text
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel


class GameStatus(enum.StrEnum):
    """Where a game is in its life; stored as its value (``forming``, ``active``, ...)."""

    FORMING = "forming"  # created, waiting for JOINs and START
    ACTIVE = "active"  # running: turns take orders and resolve
    PAUSED = "paused"  # running, with the clock stopped
    FINISHED = "finished"  # over (by its rules, or ended by the GM)


class SeatStatus(enum.StrEnum):
    """Whether a seat's holder plays on; stored as its value."""

    ACTIVE = "active"
    RESIGNED = "resigned"  # gets NMR defaults until the GM replaces the player


class _StatusColumn(TypeDecorator[enum.StrEnum]):
    """A text column holding the value of one of the status enums, read back as the enum member."""

    impl = String
    cache_ok = True

    def __init__(self, kind: type[enum.StrEnum]) -> None:
        super().__init__()
        self.kind = kind

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else self.kind(value).value

    def process_result_value(self, value: Any, dialect: Dialect) -> enum.StrEnum | None:
        return None if value is None else self.kind(value)


def _big_id() -> Any:
    """A primary key column that holds 64-bit ids on every engine (SQLite's INTEGER PRIMARY KEY
    already does, and must stay INTEGER to remain the rowid)."""
    return Field(default=None, sa_column=Column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True))


class GameRow(SQLModel, table=True):
    """One hosted game: its kind, seed, current state and turn, and how it is run.

    ``wake_at`` is when the turn clock must look at the game next (None: nothing can
    come due by time alone). It is kept by :func:`wake_time` each time the row is
    written, from the deadline, the reminder, the newest orders
    (``orders_at``), the oldest unreported absence (``absent_at``) and the oldest
    news a digest reader waits for (``news_since``), so that a pass of the clock
    reads only the games that are due, through an index.
    """

    __tablename__ = "game"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    name_key: str = Field(default="", index=True, unique=True)
    """The name in lower case: games are found by it (names differ in more than case)."""
    kind: str
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))  # 63 bits (pbem.core.rng.derive_seed)
    status: GameStatus = Field(default=GameStatus.ACTIVE,
                               sa_column=Column(_StatusColumn(GameStatus), nullable=False))
    turn: int = 1  # the turn awaiting orders; resolved turns are 1..turn-1
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime
    deadline: datetime | None = None
    opened_at: datetime | None = None
    """When the turn awaiting orders opened (its report went out), moved later by the time a pause stopped
    the clock; None for a turn opened before this was kept. A reminder never comes in the first half of the
    turn nor within an hour of it (:func:`reminder_time`)."""
    turn_hours: float = 48.0  # time allowed per turn once a turn resolves
    resolve_when: str = "early"  # early: as soon as all orders are in | deadline: only at the deadline
    early_delay_minutes: float = 0.0  # wait this long after the last orders before an early resolution
    reminder_hours: float = 12.0  # remind seats without orders this long before the deadline
    grace_hours: float = 24.0  # report a seat absent this long after its deadline passed
    reports: str = "each"  # each: a report to every reader after every step | digest: see pbem.service.digests
    digest_hours: float = 24.0  # under digest: the longest a reader's news wait before they are mailed
    gm_reported_turn: int = 0  # the last turn whose events the GM's public copies told (0: none yet)
    reminded_turn: int = 0
    nmr_streak: int = 0  # deadline resolutions in a row with every owing seat NMR
    gm_address: str | None = Field(default=None, index=True)
    gm_password_hash: str | None = None
    gm_failed_logins: int = 0  # wrong GM passwords in a row (see pbem.lockout)
    gm_locked_until: datetime | None = None  # no GM password is checked before this time
    paused_at: datetime | None = None
    ended_by_gm: bool = False
    agreed_end: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    """How the players ended the game by agreement (see :mod:`pbem.service.endings`):
    ``{"kind": "draw" | "concede", "seats": [...], "turn": N}``; None for any other end."""
    secret: str | None = None  # committed seed text (SHA-256 of name + secret is published); None: legacy game
    salts: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))  # players' SALT texts
    rng_version: int = 2  # pbem.core.rng generator version, fixed at creation
    rules_version: int = 1  # the game's rules version, recorded at creation, bumped by rules changes
    setup_draws: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    """The draws made while the game was set up at START, listed in its first report."""
    orders_at: datetime | None = None
    """When orders last arrived for the turn and the clock has not looked at them yet."""
    absent_at: datetime | None = None
    """The oldest ``absent_since`` of a seat whose absence the GM was not told about yet."""
    news_since: datetime | None = None
    """When the oldest turn a reader was not told of yet resolved (see :mod:`pbem.service.digests`)."""
    absence_days: float = 14.0  # most days of deadline extensions per player per game for absences (0: none)
    replace_after: float = 2.0  # offer a seat to a standby after this many missed deadlines in a row (0: never)
    replace_mode: str = "confirm"  # confirm: the GM confirms a standby's ACCEPT | auto: handed over at once
    rollback_turn: int | None = None  # a ROLLBACK waiting for its confirmation code
    rollback_code_hash: str | None = None
    rollback_requested_at: datetime | None = None
    observers: str = "yes"  # yes: anyone may OBSERVE the game (public reports only) | no: the GM forbids it
    calendar_sequence: int = 0  # SEQUENCE of the game's deadline events (raised when the deadline moves)
    calendar_deadline: datetime | None = None  # the deadline the last calendar attachment carried
    wake_at: datetime | None = Field(default=None, index=True)
    min_reliability: float = 0.0  # JOIN is refused to a player whose reliability is known and lower (0: anyone)
    gm_press: str = "copy"  # copy: the GM gets a copy of press between players | none: such press is private
    version: int = Field(default=0, sa_column=Column(BigInteger, nullable=False, server_default="0"))
    """Raised by the database on every write of this row or of one of the game's seats (migration 0026): a
    game's rows read at one version are current for as long as its version stays (see
    :mod:`pbem.service.row_cache`). Never written by pbem; as read with the row, not after the unit's own
    writes."""


QUIET_AFTER_OPENING = timedelta(hours=1)
"""No reminder comes within this time after the report that opened the turn."""


def reminder_time(row: GameRow) -> datetime | None:
    """When the seats without orders are reminded of the turn awaiting orders: ``reminder_hours`` before
    its deadline, but never in the first half of the time from the turn's opening to its deadline and
    never within :data:`QUIET_AFTER_OPENING` of it (so a short turn, ``turn_hours=8`` with the default
    ``reminder_hours=12``, is reminded halfway, 4 hours before its deadline); None when there is no
    deadline, or no such time comes before it (a turn of an hour or less gets no reminder)."""
    if row.deadline is None:
        return None
    when = row.deadline - timedelta(hours=row.reminder_hours)
    if row.opened_at is not None:
        when = max(when, row.opened_at + (row.deadline - row.opened_at) / 2, row.opened_at + QUIET_AFTER_OPENING)
    return when if when < row.deadline else None


def wake_time(row: GameRow) -> datetime | None:
    """When the turn clock must next look at the game of ``row``: the earliest of its deadline, its
    reminder (not yet sent this turn), its newest orders (after the early resolution's delay), its
    oldest unreported absence (after the grace) and its readers' oldest news (after ``digest_hours``,
    of a paused game too); None for a game that is over or waits for nothing. Never later than
    anything that can come due by time alone; it may be earlier (the clock then finds nothing to do
    and the row's next write moves it on)."""
    if row.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return None
    times: list[datetime] = []
    try:
        if row.news_since is not None:
            times.append(row.news_since + timedelta(hours=row.digest_hours))
        if row.status != GameStatus.ACTIVE:
            return min(times) if times else None
        if row.deadline is not None:
            times.append(row.deadline)
            reminder = reminder_time(row) if row.reminded_turn < row.turn else None
            if reminder is not None:
                times.append(reminder)
        if row.orders_at is not None:
            delay = row.early_delay_minutes if row.resolve_when == "early" else 0.0
            times.append(row.orders_at + timedelta(minutes=delay))
        if row.absent_at is not None:
            times.append(row.absent_at + timedelta(hours=row.grace_hours))
    except (OverflowError, ValueError):  # a value stored before options were checked: look at it now
        return row.created_at
    return min(times) if times else None


@event.listens_for(GameRow, "before_insert")
@event.listens_for(GameRow, "before_update")
def _schedule(_mapper: Any, _connection: Any, row: GameRow) -> None:
    """Keep ``name_key`` and ``wake_at`` in step with every write of a game row through the ORM."""
    row.name_key = row.name.lower()
    row.wake_at = wake_time(row)


class GameRngRow(SQLModel, table=True):
    """The random generator's state of a game, apart from the game row that every mail reads
    (a legacy generator's state is 7 KB)."""

    __tablename__ = "game_rng"

    game_id: int = Field(sa_column=Column(Integer, ForeignKey("game.id"), primary_key=True))
    state: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))


class SeatRow(SQLModel, table=True):
    """A seat of a game and who holds it."""

    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    name: str
    position: int  # turn order, 0-based
    address: str | None = None
    password_hash: str | None = None
    key_version: int = 1  # bumped on REPLACE so old reply tokens stop working
    status: SeatStatus = Field(default=SeatStatus.ACTIVE, sa_column=Column(_StatusColumn(SeatStatus), nullable=False))
    absent_since: datetime | None = None  # the deadline this seat missed, while it stays silent
    absence_reported: bool = False  # the GM was told this seat is absent
    failed_logins: int = 0  # wrong SIGNON passwords in a row (see pbem.lockout)
    locked_until: datetime | None = None  # no SIGNON password is checked before this time
    missed_deadlines: int = 0  # deadlines in a row this seat sent no orders for (reset by any submission)
    absence_used_hours: float = 0.0  # deadline extensions granted for its announced absences
    last_reported_turn: int = 0  # the newest turn a report to this seat covered (digests cover the turns since)


class SubmissionRow(SQLModel, table=True):
    """Every submission as received: its text, the accepted orders, the problems, and when."""

    __tablename__ = "submission"
    __table_args__ = (UniqueConstraint("game_id", "seat", "turn", "version"),)  # serves look-ups by game too

    id: int | None = _big_id()
    game_id: int = Field(foreign_key="game.id")
    seat: str
    turn: int
    version: int
    text: str
    orders: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    problems: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    received_at: datetime
    source: str = "cli"  # cli | mail:<message-id> | forced
    ready: bool = False  # READY: the seat is done with the turn (it need not be waited for, even at a deadline)
    rolled_back: bool = False  # for a turn the GM rolled back: kept, no longer standing
    nonce: str | None = None  # the random nonce of its receipt (pbem.core.chain.receipt); None before 0024


class EndVoteRow(SQLModel, table=True):
    """A seat's secret vote to end its game by agreement (DRAW, or CONCEDE in a cooperative game) in the
    turn ``turn``; NODRAW withdraws it (``agrees`` False: the turn still had a proposal, whose lapse its
    report tells). Votes of a turn lapse when it resolves (see :mod:`pbem.service.agreed_endings`);
    nobody is told who voted."""

    __tablename__ = "end_vote"

    game_id: int = Field(sa_column=Column(Integer, ForeignKey("game.id"), primary_key=True))
    seat: str = Field(primary_key=True)
    kind: str  # draw | concede
    turn: int
    voted_at: datetime
    agrees: bool = True


class TurnRecordRow(SQLModel, table=True):
    """One resolved turn: the orders applied (NMR defaults included), RNG state, events, result."""

    __tablename__ = "turn_record"
    __table_args__ = (UniqueConstraint("game_id", "turn"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    turn: int
    phase: str
    orders: dict[str, list[str]] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    nmr: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    passed: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    """Seats that sent nothing in an answer window (a phase whose silence means PASS): not NMR."""
    rng_state: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    events: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    table_events: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    """What the table did besides the rules, told in the turn's report (``Event.to_json`` data): a proposal
    to end the game by agreement that lapsed with the turn. Apart from ``events``, which replaying the
    rules reproduces."""
    state: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    reason: str  # deadline | all-in | gm | forced
    draws: list[list[int]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))  # [counter, n, result]
    rules_version: int = 1  # the rules version this turn was resolved under
    resolved_at: datetime
    nonces: dict[str, str] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    """The nonce of each seat's receipt of the orders resolved (an NMR seat's default orders get one too)."""

    @property
    def reported_events(self) -> list[dict[str, Any]]:
        """Every event the turn's report tells: the rules' events, then the table's."""
        return [*self.events, *self.table_events]


class TurnArchiveRow(SQLModel, table=True):
    """Everything a compacted finished game kept per turn (its turn records, submissions and record entries),
    compressed together (:mod:`pbem.service.compaction`): those rows leave their tables, and every reader gets
    them back whole from here (``compaction.archive_of``)."""

    __tablename__ = "turn_archive"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    compacted_at: datetime
    addresses: str = Field(default="", sa_column=Column(Text, nullable=False, server_default=""))
    """The mail addresses its rows quote (submission texts may), lower case, each between spaces
    (``compaction.quoted_addresses``): forgetting an address reads only the archives that name it."""


class RecordEntryRow(SQLModel, table=True):
    """One entry of a game's record, the hash chain players check (:mod:`pbem.service.record`): its
    canonical line exactly as hashed and mailed, its hash, and the newest audit entry it covers."""

    __tablename__ = "record_entry"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seq: int
    turn: int  # the last turn played as the game stands after this entry
    kind: str  # start | turn | rollback | end
    line: str  # the canonical JSON of the entry (pbem.core.chain.canonical)
    digest: str  # SHA-256 of ``line``
    audit_upto: int = 0  # the id of the newest audit entry whose GM action this or an earlier entry holds


class InboundMessageRow(SQLModel, table=True):
    """A mail taken from the mailbox, stored before it is flagged on the server.

    A daemon handles a ``new`` mail in one transaction that holds the row's lock
    (taken with SKIP LOCKED, so other daemons pass it by) and marks it handled.
    A try that failed is counted in ``attempts`` and the mail waits until
    ``next_attempt_at``; after the last try it is ``failed``, and a mail whose
    handling ran over the time budget is ``set_aside`` (see :mod:`pbem.mail.running.retries`).
    """

    __tablename__ = "inbound_message"
    __table_args__ = (Index("ix_inbound_message_new", "id", sqlite_where=text("status = 'new'"),
                            postgresql_where=text("status = 'new'")),
                      Index("ix_inbound_message_new_by_sender", "sender", "id", sqlite_where=text("status = 'new'"),
                            postgresql_where=text("status = 'new'")),
                      Index("ix_inbound_message_kept", "handled_at", sqlite_where=text("length(raw) > 0"),
                            postgresql_where=text("length(raw) > 0")),
                      Index("ix_inbound_message_handled_at", "handled_at"))

    id: int | None = _big_id()
    message_id: str = Field(index=True, unique=True)
    uid: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))  # IMAP UIDs are 32-bit unsigned
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))  # redacted or emptied after handling
    size: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    """The size of the mail as received, when ``raw`` holds only part of it."""
    received_at: datetime
    sender: str = ""  # the From address in lower case: one sender's mail is handled in arrival order
    subject: str | None = None
    """Its Subject field as stored (:attr:`~pbem.mail.reading.identity.StoredIdentity.subject`); None for mail
    stored before it was kept."""
    status: str = "new"  # new | handled | failed | set_aside
    error: str | None = None
    handled_at: datetime | None = None
    attempts: int = Field(default=0, sa_column=Column(Integer, nullable=False, server_default="0"))
    """Tries of this mail that failed (rolled back)."""
    next_attempt_at: datetime | None = None
    """When a mail whose try failed is tried again (None: as soon as its turn comes)."""


class OutboundMessageRow(SQLModel, table=True):
    """A mail waiting to be sent, or sent; drained by the SMTP sender.

    A sender claims queued mail for ``lease_until``, as ``lease_owner``: other senders
    pass it by until the lease ends (its holder renews it while it lives), and take it
    over when its holder died without recording it.
    Replies (``priority`` 0) are claimed before reports and notices (1).
    """

    __tablename__ = "outbound_message"
    __table_args__ = (Index("ix_outbound_message_queue", "priority", "next_attempt_at", "id",
                            sqlite_where=text("status = 'queued'"), postgresql_where=text("status = 'queued'")),
                      Index("ix_outbound_message_created_at", "created_at"),
                      Index("ix_outbound_message_sent_at", "sent_at"),
                      Index("ix_outbound_message_inbound_id", "inbound_id"))

    id: int | None = _big_id()
    created_at: datetime
    sender: str
    recipients: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    status: str = "queued"  # queued | sent | failed (the queue's statements name 'queued': its partial index)
    attempts: int = 0
    next_attempt_at: datetime
    last_error: str | None = None
    sent_at: datetime | None = None
    inbound_id: int | None = Field(default=None, sa_column=Column(BigInteger, ForeignKey("inbound_message.id"),
                                                                nullable=True))
    purpose: str = "reply"  # reply | report | report-again | reminder | notice | invitation
    secret: bool = False  # holds a password: its body is removed as soon as it is sent
    priority: int = 1  # 0: a reply to a mail, sent first; 1: reports, reminders, notices
    lease_until: datetime | None = None  # claimed by a sender until then
    lease_owner: str | None = None  # the claiming sender (DatabaseOutbox.owner): only it renews or records


class SettingRow(SQLModel, table=True):
    """Installation-wide settings, e.g. the secret that signs reply tokens."""

    __tablename__ = "setting"

    key: str = Field(primary_key=True)
    value: str


class AddressPreferenceRow(SQLModel, table=True):
    """What one mail address asked for in its reports (VIEWJSON ON/OFF): keyed by the lower-case address."""

    __tablename__ = "address_preference"

    address: str = Field(primary_key=True)
    view_json: bool = False  # attach the seat's view as JSON to every turn report
    updated_at: datetime
    zone: str | None = None  # IANA time zone deadlines are shown in (with UTC beside); None: UTC
    digest: bool | None = None  # SET DIGEST ON/OFF: reports only when orders are owed (None: the game's choice)
    text_only: bool = False  # SET TEXTONLY ON: no HTML part, no picture
    press_off: bool = False  # SET PRESS OFF: no press from other players (the GM's still arrives)


class AuditEntryRow(SQLModel, table=True):
    """One step in a game's audit log: a GM action or a decision the service took by itself, with
    when and by whom (``gm <address>``, ``seat B <address>``, ``service``, ``command line``)."""

    __tablename__ = "audit_entry"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)  # None: a league's step
    league_id: int | None = Field(default=None, foreign_key="league.id", index=True)  # a step of a league
    at: datetime
    actor: str
    action: str  # a word: EXTEND, RESOLVE, ROLLBACK, ABSENT, ...
    text: str  # what happened, in words
    data: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))


class ObserverRow(SQLModel, table=True):
    """An address that follows a game's public reports (OBSERVE)."""

    __tablename__ = "observer"

    game_id: int = Field(foreign_key="game.id", primary_key=True)
    address: str = Field(primary_key=True)  # lower case
    since: datetime
    last_reported_turn: int = 0  # the newest turn a report to this observer covered (digests cover the turns since)


class AbsenceRow(SQLModel, table=True):
    """An absence a seat announced (ABSENT): deadlines falling in it are extended, up to the game's limit."""

    __tablename__ = "absence"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str
    starts: datetime
    ends: datetime  # BACK ends it now
    announced_at: datetime


class StandbyRow(SQLModel, table=True):
    """An address on the standby list of a game kind (STANDBY <kind>), first come first offered."""

    __tablename__ = "standby"

    address: str = Field(primary_key=True)
    kind: str = Field(primary_key=True)
    since: datetime


class SeatOfferRow(SQLModel, table=True):
    """A seat offered to a standby: open, accepted (waiting for the GM), taken or withdrawn."""

    __tablename__ = "seat_offer"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str
    address: str = Field(index=True)
    offered_at: datetime
    accepted_at: datetime | None = None
    status: str = "open"  # open | accepted | taken | withdrawn


class AddressConsentRow(SQLModel, table=True):
    """Whether pbem may write to one mail address: it asked (wrote to pbem, or accepted an invitation;
    or the operator seated it from the command line), whether it said STOP since, and whether mail to it
    came back as undeliverable since."""

    __tablename__ = "address_consent"

    address: str = Field(primary_key=True)  # lower case
    asked_at: datetime | None = None  # the last time it wrote to pbem (or was seated by the operator)
    stopped_at: datetime | None = None  # STOP: nothing goes to it until it writes again
    undeliverable_at: datetime | None = None  # a hard bounce or SMTP 5xx: nothing goes to it until it writes again
    undeliverable_reason: str | None = None  # what the mail server said (its first 300 characters)


class InvitationRow(SQLModel, table=True):
    """The one invitation an address that never wrote to pbem gets for a game (SEAT or REPLACE by mail)."""

    __tablename__ = "invitation"
    __table_args__ = (UniqueConstraint("game_id", "address"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    address: str  # lower case
    seat: str
    invited_by: str = Field(index=True)  # the GM address that seated it (the daily bound counts per inviter)
    invited_at: datetime


class PlayerRow(SQLModel, table=True):
    """A player: one name chosen by REGISTER, shared by the addresses joined to it."""

    __tablename__ = "player"

    id: int | None = Field(default=None, primary_key=True)
    name: str
    name_key: str = Field(index=True, unique=True)  # the name in lower case: names are unique in any case
    look_key: str = Field(default="", index=True)  # how the name looks (pbem.lookalikes.lookalike_keys)
    look_key_folded: str = Field(default="", index=True)  # how it looks in lower case: no new name shares either
    registered_at: datetime
    link_code_hash: str | None = None  # the code that joins one more address (REGISTER <name> <code>)
    link_code_until: datetime | None = None
    link_failures: int = 0  # wrong codes sent since the last one was given: past a few the code is void


class PlayerAddressRow(SQLModel, table=True):
    """An address joined to a player (each address belongs to one player at most)."""

    __tablename__ = "player_address"

    address: str = Field(primary_key=True)  # lower case
    player_id: int = Field(foreign_key="player.id", index=True)
    joined_at: datetime


class PlayerEventRow(SQLModel, table=True):
    """One entry of the players' record, written as the game goes: a deadline a seat's holder met or
    missed, a seat's share of a game's outcome, a seat given up (resigned) or taken away (replaced).
    Kept by address, so an address's record counts from before its owner registered."""

    __tablename__ = "player_event"
    __table_args__ = (UniqueConstraint("game_id", "seat", "turn", "kind", "address"),
                      Index("ix_player_event_address_at", "address", "at"))

    id: int | None = _big_id()
    address: str  # lower case: the seat's holder at the time
    game_id: int = Field(foreign_key="game.id", index=True)
    seat: str
    turn: int  # the turn it happened in (resolved, left, or the game's last)
    kind: str  # met | missed | win | shared | draw | loss | defeat | resigned | replaced
    at: datetime
class LeagueStatus(enum.StrEnum):
    """Where a league is in its life; stored as its value."""

    FORMING = "forming"  # created, taking LEAGUE JOINs until the GM starts it
    ACTIVE = "active"  # rounds being played
    FINISHED = "finished"  # every round played, or ended by the GM


class LeagueRow(SQLModel, table=True):
    """A league: players of one game kind meeting over rounds of tables, seated by its format
    (see :mod:`pbem.leagues` and :mod:`pbem.service.leagues`)."""

    __tablename__ = "league"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True)
    name_key: str = Field(index=True, unique=True)  # the name in lower case
    kind: str  # the game kind every table plays
    format: str  # swiss | roundrobin | knockout
    rounds: int  # rounds to play (a knockout may end sooner)
    table_size: int  # players at a full table
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))  # every table's
    points: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))  # kind -> points
    status: LeagueStatus = Field(default=LeagueStatus.FORMING,
                                 sa_column=Column(_StatusColumn(LeagueStatus), nullable=False))
    round: int = 0  # the round being played (0: not started)
    gm_address: str | None = None
    gm_password_hash: str | None = None
    gm_failed_logins: int = 0  # wrong league passwords in a row (see pbem.lockout)
    gm_locked_until: datetime | None = None
    created_at: datetime
    ended_at: datetime | None = None
    ended_early: bool = False  # LEAGUE END before the last round
    step_at: datetime | None = Field(default=None, index=True)
    """When the clock takes the league's next step (pairing a round, creating a few of its tables, mailing the
    standings to a few members, ending a few tables after LEAGUE END; see :mod:`pbem.service.league_steps`);
    None: no work waits."""
    tell_round: int | None = None  # the round whose standings are being mailed (None: none)
    told_through: int = 0  # the members told so far: every one with a smaller or equal id


class LeagueMemberRow(SQLModel, table=True):
    """A player of a league: its place (its id), held by one canonical address at a time (LEAGUE REPLACE
    hands the place, with its points, to another)."""

    __tablename__ = "league_member"
    __table_args__ = (UniqueConstraint("league_id", "address"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    address: str  # canonical (pbem.addresses.checked_address)
    joined_at: datetime
    dropped: bool = False  # LEAGUE DROP: seated no more; its results stay in the standings


class LeagueTableRow(SQLModel, table=True):
    """One table of one round of a league and its game (table 0 holds the round's byes, without a game; a
    table waiting for the clock to create its game has none yet). Unique per league, round and table: two
    daemons racing to seat a round seat it once."""

    __tablename__ = "league_table"
    __table_args__ = (UniqueConstraint("league_id", "round", "table_number"),)

    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(foreign_key="league.id", index=True)
    round: int
    table_number: int
    game_id: int | None = Field(default=None, foreign_key="game.id", index=True)
    seats: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))  # seat -> member id
    places: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    """Once its game is over: member id -> {"kind": result kind, "score": score}."""
    finished_at: datetime | None = None


class ForgetRequestRow(SQLModel, table=True):
    """A FORGET asked for by mail, waiting for its confirmation code (see :mod:`pbem.service.privacy`): keyed
    by the SHA-256 of the address, so that it holds no address itself."""

    __tablename__ = "forget_request"

    address_key: str = Field(primary_key=True)
    code_hash: str  # the code sent to the address (salted scrypt); it works once, within a day
    requested_at: datetime
    failures: int = 0  # wrong codes sent in a row (see pbem.lockout)
    locked_until: datetime | None = None
