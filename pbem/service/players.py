"""Players: one identity across games, and the record every address earns.

A player is a name chosen by ``REGISTER <name>``, shared by the addresses joined to it. A second
address joins a name with a code that only the name's own addresses are given (``REGISTER <name>``
sent from one of them answers with it), so nobody can take over another's record.

The record is written as games go (``player_event``, one row per fact, in the transaction that
made the fact): a deadline a seat's holder met or missed, a seat's share of a game's outcome, a
seat given up or taken away. It is kept by address, so it counts from before its owner
registered, and a rolled-back turn takes its facts with it.

Reliability is the share of deadlines met over the last :data:`RELIABILITY_WINDOW` owed: a turn's
deadline counts as met for every owing seat whose holder sent orders before the turn resolved
(at its deadline or earlier, once all orders were in), and as missed for every owing seat whose
holder sent nothing by the deadline. Turns the game played by itself, answer windows (silence
there means PASS) and turns a GM resolved early count for nobody who had not sent orders yet.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, or_, select
from sqlmodel import Session

from pbem.core import GameError, InvalidInput, Outcome, OutcomeKind
from pbem.lookalikes import lookalike_keys
from pbem.passwords import check_password, hash_password
from pbem.service.snapshot import GameInfo
from pbem.service.unit import Unit
from pbem.store.tables import (
    GameRow,
    GameStatus,
    PlayerAddressRow,
    PlayerEventRow,
    PlayerRow,
    SeatRow,
    SeatStatus,
    SubmissionRow,
)

NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{1,23}")
"""A player's name: 2 to 24 letters, digits, '-' and '_', starting with a letter."""
RELIABILITY_WINDOW = 50
"""Reliability is the share of deadlines met among this many most recent ones owed."""
LINK_CODE_VALID = timedelta(days=7)
"""How long a code for joining another address to a name stays good."""
MAX_LINK_FAILURES = 5
"""Wrong codes for a name before its code is void (its owner asks for a new one)."""
DEADLINE_KINDS = ("met", "missed")
OUTCOME_KINDS = ("win", "shared", "draw", "loss", "defeat")
"""A seat's share of a game's outcome: the one winner, one of several winners, a draw, a loss while
someone else won, or the defeat everyone shares (a cooperative game lost)."""
SHARE_WORDS = {"win": "won", "shared": "shared the win", "draw": "draw", "loss": "lost",
               "defeat": "lost together (cooperative defeat)"}
"""Each of :data:`OUTCOME_KINDS` as a player page and ``pbem player`` say it."""
LEFT_KINDS = ("resigned", "replaced")


class PlayerError(InvalidInput):
    """A REGISTER or WHOIS that cannot be done; the message says why and what to send instead."""


class BadPlayerName(PlayerError):
    """A name that is not 2 to 24 letters, digits, '-' or '_' starting with a letter."""


class NameTaken(PlayerError):
    """A name another player holds, asked for without its code."""


class LookAlikeName(PlayerError):
    """A new name that looks like another player's (:mod:`pbem.lookalikes`): ``AIice`` beside ``Alice``."""


class UnknownPlayer(PlayerError):
    """No player has that name."""


class WrongLinkCode(PlayerError):
    """A code for joining an address to a name that is wrong, expired or void."""


class TooUnreliable(GameError):
    """A JOIN from a player whose reliability is below the game's ``min_reliability``."""


@dataclass(frozen=True)
class Registration:
    """What a REGISTER did: the player's name, how it came about, its addresses now, and (sent from an
    address of the name) a fresh code that joins one more address to it."""

    name: str
    how: str  # registered | renamed | joined | again
    addresses: int
    link_code: str | None = None
    old_name: str | None = None


@dataclass(frozen=True)
class PlayerRecord:
    """What an address (or all addresses of a player) did in pbem's games."""

    played: int = 0
    finished: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)  # OUTCOME_KINDS to counts (kinds never had: absent)
    met: int = 0
    missed: int = 0
    resigned: int = 0
    replaced: int = 0
    recent_met: int = 0  # among the last RELIABILITY_WINDOW deadlines owed
    recent_owed: int = 0

    @property
    def reliability(self) -> float | None:
        """The share of deadlines met among the last :data:`RELIABILITY_WINDOW` owed; None before any."""
        return self.recent_met / self.recent_owed if self.recent_owed else None

    def reliability_text(self) -> str:
        """The reliability in words: ``92% (46 of the last 50 deadlines met)``, or that there is none yet."""
        if self.reliability is None:
            return "no deadlines owed yet"
        return f"{self.reliability:.0%} ({self.recent_met} of the last {self.recent_owed} deadlines met)"

    def outcome_text(self) -> str:
        """The outcomes in words: ``2 wins, 1 shared win, 3 losses`` (``none yet`` before any)."""
        words = {"win": ("win", "wins"), "shared": ("shared win", "shared wins"), "draw": ("draw", "draws"),
                 "loss": ("loss", "losses"), "defeat": ("cooperative defeat", "cooperative defeats")}
        parts = [f"{n} {words[kind][n != 1]}" for kind in OUTCOME_KINDS if (n := self.outcomes.get(kind, 0))]
        return ", ".join(parts) or "none yet"


@dataclass(frozen=True)
class PlayerSummary:
    """A registered player as ``pbem players`` and the web archive list them."""

    name: str
    registered_at: datetime
    record: PlayerRecord

    def to_json(self) -> dict[str, Any]:
        """The player as JSON: name, registered_at, reliability (0 to 1, or null) and the record."""
        return {"name": self.name, "registered_at": self.registered_at.isoformat(),
                "reliability": self.record.reliability, "record": record_json(self.record)}


@dataclass(frozen=True)
class PlayedGame:
    """A started game a player held a seat in: its name, kind, status, and the player's share of its
    outcome once it ended with one."""

    name: str
    kind: str
    status: str
    share: str | None

    @property
    def share_text(self) -> str:
        """The player's share in words (``won``, ``shared the win``, ...), or ``-`` without an outcome."""
        return SHARE_WORDS.get(self.share or "", "-")


@dataclass(frozen=True)
class PlayerProfile:
    """A registered player in full: what the web page shows (its games and record), and for the
    operator its addresses."""

    summary: PlayerSummary
    games: list[PlayedGame]
    addresses: list[str]

    def to_json(self, *, with_addresses: bool) -> dict[str, Any]:
        """The profile as JSON (the summary's keys, ``games``, and ``addresses`` when asked)."""
        data = self.summary.to_json()
        data["games"] = [{"game": g.name, "kind": g.kind, "status": g.status, "share": g.share} for g in self.games]
        if with_addresses:
            data["addresses"] = self.addresses
        return data


def record_json(record: PlayerRecord) -> dict[str, Any]:
    """A record as JSON: played, finished, outcomes (by kind), met, missed, resigned, replaced, and the
    deadlines counted for reliability (recent_met of recent_owed)."""
    return {"played": record.played, "finished": record.finished,
            "outcomes": {kind: record.outcomes.get(kind, 0) for kind in OUTCOME_KINDS},
            "met": record.met, "missed": record.missed, "resigned": record.resigned, "replaced": record.replaced,
            "recent_met": record.recent_met, "recent_owed": record.recent_owed}


# --- names and addresses -----------------------------------------------------------------------


def checked_name(name: str) -> str:
    """Return ``name`` when it may be a player's name; raise :class:`BadPlayerName` otherwise."""
    if not NAME_PATTERN.fullmatch(name):
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise BadPlayerName(f'"{shown}" cannot be a player name: give 2 to 24 letters, digits, "-" or "_", '
                            "starting with a letter")
    return name


def player_of(session: Session, address: str) -> PlayerRow | None:
    """The player ``address`` is joined to, or None."""
    link = session.get(PlayerAddressRow, address.lower())
    return session.get(PlayerRow, link.player_id) if link is not None else None


def find_player(session: Session, name: str) -> PlayerRow:
    """The player called ``name`` (in any letter case); raises :class:`UnknownPlayer`."""
    found = session.execute(select(PlayerRow).where(PlayerRow.name_key == name.lower())).scalars().first()
    if found is None:
        raise UnknownPlayer(f"no player is called {name[:40]}; names are chosen with REGISTER <name>")
    return found


def addresses_of(session: Session, player: PlayerRow) -> list[str]:
    """The addresses joined to ``player``, in the order they joined."""
    query = select(PlayerAddressRow.address).where(PlayerAddressRow.player_id == player.id) \
        .order_by(PlayerAddressRow.joined_at, PlayerAddressRow.address)
    return list(session.execute(query).scalars())


def display_name(session: Session, address: str) -> str:
    """How ``address`` is shown where others read: its player's name, or for an address without one a
    stand-in made from a hash of it (``player-3f9a1c``); never the address itself."""
    player = player_of(session, address)
    if player is not None:
        return player.name
    return "player-" + hashlib.sha256(address.lower().encode()).hexdigest()[:6]


def register(unit: Unit, address: str, name: str, code: str | None = None) -> Registration:
    """REGISTER ``name`` [``code``] from ``address``.

    A free name is taken (or, for an address that has a name, becomes its new name); the same name
    again answers with a fresh code for joining another address; a name another player holds is
    joined only with that player's valid code. Raises :class:`BadPlayerName`, :class:`NameTaken`
    (no code given), :class:`LookAlikeName` (a new name that looks like another player's, named),
    :class:`WrongLinkCode`, or PlayerError for an address joined to another name already.
    """
    checked_name(name)
    address = address.lower()
    session = unit.session
    own = player_of(session, address)
    holder = session.execute(select(PlayerRow).where(PlayerRow.name_key == name.lower())).scalars().first()
    if holder is not None and own is not None and holder.id == own.id:
        return Registration(own.name, "again", len(addresses_of(session, own)), _new_link_code(unit, own))
    if holder is None:
        _check_not_lookalike(session, name, own)
        if own is not None:
            old = own.name
            _set_name(own, name)
            unit.add(own)
            return Registration(name, "renamed", len(addresses_of(session, own)), old_name=old)
        player = PlayerRow(registered_at=unit.now())
        _set_name(player, name)
        unit.add(player)
        session.flush()
        unit.add(PlayerAddressRow(address=address, player_id=player.id, joined_at=unit.now()))
        return Registration(name, "registered", 1)
    if own is not None:
        raise PlayerError(f"{address} is registered as {own.name}; an address belongs to one player, and the "
                          f"name {holder.name} is another's")
    if code is None:
        raise NameTaken(f"the name {holder.name} is taken. If it is yours, send REGISTER {holder.name} from an "
                        f"address registered as {holder.name}: the reply gives a code; then send "
                        f"REGISTER {holder.name} <code> from this address")
    _use_link_code(unit, holder, code)
    unit.add(PlayerAddressRow(address=address, player_id=holder.id, joined_at=unit.now()))
    session.flush()
    return Registration(holder.name, "joined", len(addresses_of(session, holder)))


def _check_not_lookalike(session: Session, name: str, own: PlayerRow | None) -> None:
    """Raise :class:`LookAlikeName`, naming the other name, when ``name`` looks like the name of a player
    other than ``own`` (one lookup in the two indexed keys of every name)."""
    keys = lookalike_keys(name)
    query = select(PlayerRow.name).where(or_(PlayerRow.look_key.in_(keys),  # type: ignore[attr-defined]
                                             PlayerRow.look_key_folded.in_(keys)))  # type: ignore[attr-defined]
    if own is not None:
        query = query.where(PlayerRow.id != own.id)
    other = session.execute(query.limit(1)).scalars().first()
    if other is not None:
        raise LookAlikeName(f"the name {name} looks too much like {other}, another player's name (letters such as "
                            "capital I and small l, 0 and O, rn and m look alike); choose another name")


def _set_name(player: PlayerRow, name: str) -> None:
    """Name ``player`` ``name``, with the keys that find it in any case and among names that look alike."""
    player.name, player.name_key = name, name.lower()
    player.look_key, player.look_key_folded = lookalike_keys(name)


def _new_link_code(unit: Unit, player: PlayerRow) -> str:
    """Give ``player`` a fresh joining code (the one before is void); return it (shown once)."""
    code = secrets.token_hex(4)
    player.link_code_hash = hash_password(code)
    player.link_code_until = unit.now() + LINK_CODE_VALID
    player.link_failures = 0
    unit.add(player)
    return code


def _use_link_code(unit: Unit, player: PlayerRow, code: str) -> None:
    """Spend ``player``'s joining code when ``code`` is it; raise :class:`WrongLinkCode` otherwise (past
    :data:`MAX_LINK_FAILURES` wrong ones the code is void)."""
    unit.session.refresh(player, with_for_update=unit.lock or None)
    valid = (player.link_code_hash is not None and player.link_code_until is not None
             and unit.now() <= player.link_code_until and player.link_failures < MAX_LINK_FAILURES)
    if valid and check_password(code.strip().lower(), player.link_code_hash or ""):
        player.link_code_hash = player.link_code_until = None
        player.link_failures = 0
        unit.add(player)
        return
    if valid:
        player.link_failures += 1
        unit.add(player)
    raise WrongLinkCode(f"the code for joining {player.name} is wrong, expired or used up; send REGISTER "
                        f"{player.name} from an address registered as {player.name} for a new one")


# --- the record --------------------------------------------------------------------------------


def record_text(name: str, record: PlayerRecord) -> str:
    """A player's record in words, as WHOIS and ``pbem player`` give it."""
    return (f"{name}: {record.played} game{'s' if record.played != 1 else ''} played, {record.finished} finished; "
            f"outcomes: {record.outcome_text()}.\n"
            f"Deadlines: {record.met} met, {record.missed} missed; reliability {record.reliability_text()}.\n"
            f"Seats left: {record.resigned} resigned, {record.replaced} replaced.")


def _played_game_ids(session: Session, keys: Sequence[str]) -> set[int]:
    """The started games the addresses ``keys`` (lower case) held a seat in: those with a fact of their
    record (written only once a game runs), and those whose seats they hold now."""
    events = PlayerEventRow.__table__  # type: ignore[attr-defined]
    ids = set(session.execute(select(events.c.game_id).where(events.c.address.in_(keys)).distinct()).scalars())
    ids |= set(session.execute(
        select(SeatRow.game_id).join(GameRow, GameRow.id == SeatRow.game_id)  # type: ignore[arg-type]
        .where(func.lower(SeatRow.address).in_(keys), GameRow.status != GameStatus.FORMING)).scalars())
    return ids


def record_of(session: Session, addresses: Sequence[str]) -> PlayerRecord:
    """The record of ``addresses`` together (a player's, or one address's)."""
    keys = [a.lower() for a in addresses]
    if not keys:
        return PlayerRecord()
    events = PlayerEventRow.__table__  # type: ignore[attr-defined]
    counts = Counter({kind: n for kind, n in session.execute(
        select(events.c.kind, func.count()).where(events.c.address.in_(keys)).group_by(events.c.kind))})
    games = _played_game_ids(session, keys)
    finished = session.execute(select(func.count(events.c.game_id.distinct())).where(
        events.c.address.in_(keys), events.c.kind.in_(OUTCOME_KINDS))).scalar_one()
    recent = list(session.execute(
        select(events.c.kind).where(events.c.address.in_(keys), events.c.kind.in_(DEADLINE_KINDS))
        .order_by(events.c.at.desc(), events.c.id.desc()).limit(RELIABILITY_WINDOW)).scalars())
    return PlayerRecord(
        played=len(games), finished=finished,
        outcomes={kind: counts[kind] for kind in OUTCOME_KINDS if counts[kind]},
        met=counts["met"], missed=counts["missed"], resigned=counts["resigned"], replaced=counts["replaced"],
        recent_met=recent.count("met"), recent_owed=len(recent),
    )


def record_of_address(session: Session, address: str) -> PlayerRecord:
    """The record of ``address``: of all its player's addresses when it is registered."""
    player = player_of(session, address)
    return record_of(session, addresses_of(session, player) if player is not None else [address])


def registered_players(session: Session) -> list[PlayerSummary]:
    """Every registered player with its record, by name."""
    rows = session.execute(select(PlayerRow).order_by(PlayerRow.name_key)).scalars().all()
    return [PlayerSummary(p.name, p.registered_at, record_of(session, addresses_of(session, p))) for p in rows]


def profile_of(session: Session, name: str) -> PlayerProfile:
    """The player called ``name`` in full: record, the started games its addresses held seats in (newest
    first, with its share of each outcome), and its addresses. Raises :class:`UnknownPlayer`."""
    player = find_player(session, name)
    keys = addresses_of(session, player)
    events = PlayerEventRow.__table__  # type: ignore[attr-defined]
    shares = dict(session.execute(select(events.c.game_id, events.c.kind).where(
        events.c.address.in_(keys), events.c.kind.in_(OUTCOME_KINDS))).all())
    ids = _played_game_ids(session, keys)
    rows = session.execute(select(GameRow).where(GameRow.id.in_(ids))  # type: ignore[attr-defined]
                           .order_by(GameRow.created_at.desc())).scalars().all() if ids else []
    games = [PlayedGame(g.name, g.kind, g.status.value, shares.get(g.id)) for g in rows]
    summary = PlayerSummary(player.name, player.registered_at, record_of(session, keys))
    return PlayerProfile(summary, games, keys)


def check_may_join(session: Session, row: GameRow, address: str) -> None:
    """Raise :class:`TooUnreliable` when ``row`` asks a reliability ``address``'s record is known to be
    below; an address without a deadline owed yet may join."""
    if row.min_reliability <= 0:
        return
    record = record_of_address(session, address)
    if record.reliability is not None and record.reliability < row.min_reliability:
        raise TooUnreliable(f"game {row.name} asks its players to have met at least {row.min_reliability:.0%} of "
                            f"their recent deadlines; yours: {record.reliability_text()}")


def most_reliable_first(session: Session, addresses: Iterable[str], *, minimum: float = 0.0) -> list[str]:
    """``addresses`` ordered by reliability, highest first, those without any deadline owed yet after
    the others (each group keeps the order given); those known to be below ``minimum`` are left out."""
    known = {a: record_of_address(session, a).reliability for a in addresses}
    kept = [a for a, r in known.items() if r is None or r >= minimum]
    return sorted(kept, key=lambda a: (known[a] is None, -(known[a] or 0.0)))


# --- writing the record as games go ------------------------------------------------------------


def note_turn(unit: Unit, info: GameInfo, turn: int, owing: Iterable[str], silent: Sequence[str],
              reason: str) -> None:
    """Record, for the turn ``turn`` of ``info``'s game just resolved for ``reason``, which owing seats'
    holders met its deadline (sent orders of their own) and which missed it (sent nothing by the
    deadline). ``silent`` are the owing seats that sent nothing. Answer windows and turns the game
    played by itself record nothing."""
    assert info.phase is not None
    if reason == "forced" or info.phase.is_window:
        return
    holders = {s.name: s for s in info.seats if s.address and s.status == SeatStatus.ACTIVE}
    sources = _newest_sources(unit.session, info.row, turn)
    for seat in owing:
        holder = holders.get(seat)
        if holder is None or holder.address is None:
            continue
        if seat in silent:
            kind = "missed" if reason == "deadline" else None
        else:
            kind = "met" if sources.get(seat, "forced") != "forced" else None
        if kind is not None:
            unit.add(PlayerEventRow(address=holder.address.lower(), game_id=info.row.id, seat=seat, turn=turn,
                                    kind=kind, at=unit.now()))


def _newest_sources(session: Session, row: GameRow, turn: int) -> dict[str, str]:
    """Each seat's newest standing submission's source for ``turn``."""
    query = select(SubmissionRow.seat, SubmissionRow.source).where(
        SubmissionRow.game_id == row.id, SubmissionRow.turn == turn,
        SubmissionRow.rolled_back == False).order_by(SubmissionRow.version)  # type: ignore[arg-type]  # noqa: E712
    return {seat: source for seat, source in session.execute(query)}


def note_outcome(unit: Unit, info: GameInfo, turn: int, outcome: Outcome) -> None:
    """Record each held seat's share of the game's ``outcome`` (reached at ``turn``)."""
    for seat in info.seats:
        if seat.address:
            unit.add(PlayerEventRow(address=seat.address.lower(), game_id=info.row.id, seat=seat.name, turn=turn,
                                    kind=share_of(outcome, seat.name), at=unit.now()))


def share_of(outcome: Outcome, seat: str) -> str:
    """What ``outcome`` is for ``seat``: one of :data:`OUTCOME_KINDS`."""
    if outcome.kind is OutcomeKind.DRAW:
        return "draw" if outcome.shares_draw(seat) else "loss"
    if not outcome.winners:
        return "defeat"
    if seat not in outcome.winners:
        return "loss"
    return "win" if outcome.kind is OutcomeKind.WIN else "shared"


def note_left(unit: Unit, row: GameRow, seat: SeatRow, kind: str) -> None:
    """Record that ``seat``'s holder left a started game: ``resigned`` or ``replaced`` (once per turn)."""
    assert kind in LEFT_KINDS
    if row.status == GameStatus.FORMING or not seat.address:
        return
    address = seat.address.lower()
    events = PlayerEventRow.__table__  # type: ignore[attr-defined]
    known = unit.session.execute(select(events.c.id).where(
        events.c.game_id == row.id, events.c.seat == seat.name, events.c.turn == row.turn,
        events.c.kind == kind, events.c.address == address)).first()
    if known is None:
        unit.add(PlayerEventRow(address=address, game_id=row.id, seat=seat.name, turn=row.turn, kind=kind,
                                at=unit.now()))


def forget_from_turn(unit: Unit, row: GameRow, turn: int) -> None:
    """Drop the deadline and outcome facts of ``row``'s turns from ``turn`` on (they were rolled back)."""
    events = PlayerEventRow.__table__  # type: ignore[attr-defined]
    unit.session.execute(delete(events).where(events.c.game_id == row.id, events.c.turn >= turn,
                                              events.c.kind.in_(DEADLINE_KINDS + OUTCOME_KINDS)))
