"""What pbem keeps about one mail address, and forgetting it (MYDATA, FORGET, ``pbem forget``).

:func:`data_of` gathers everything stored about an address: its seats and
the games it runs, its player name and record, its preferences and consent,
its leagues, and the mail from and to it not yet purged.

:func:`forget` erases the address: it first leaves what still runs (its seats
of running games resign as RESIGN does, its seats of forming games are freed,
its league places dropped, the games and leagues it runs lose their GM), then
every trace of it is replaced by a pseudonym that no one without the
installation's key can link to it (``forgotten-3f9a1c2b7d``): seats of finished
games, the audit log, players' records, league tables, the envelope of stored
mail, the submissions kept in finished games' archives. The rows that only
describe the address (preferences, consent, standby, observing, invitations,
its player name when it has no other address) are
deleted, and the text of stored mail from or to it is purged. What a report
or a game's record hashes never held an address, so every game's record and
dice stay verifiable.

A FORGET by mail is confirmed by a code sent to the address itself
(:func:`request_forget`, :func:`confirm_forget`): a forged From gets the code
to the real owner, never to the forger.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, Column, String, Table, Text, TypeDecorator, cast, delete, func, select, text, update
from sqlmodel import SQLModel

from pbem.core import PbemError
from pbem.lockout import is_locked, record_failure
from pbem.passwords import check_password, hash_password, new_password
from pbem.service import compaction, players, seats
from pbem.service.unit import Unit
from pbem.store.tables import (
    AddressConsentRow,
    AddressPreferenceRow,
    ForgetRequestRow,
    GameRow,
    GameStatus,
    InboundMessageRow,
    InvitationRow,
    LeagueMemberRow,
    LeagueRow,
    LeagueStatus,
    ObserverRow,
    OutboundMessageRow,
    PlayerAddressRow,
    PlayerEventRow,
    PlayerRow,
    SeatOfferRow,
    SeatRow,
    SeatStatus,
    SettingRow,
    StandbyRow,
    TurnArchiveRow,
)

FORGET_CODE_HOURS = 24
"""How long the code a FORGET mail sends stays good."""
PSEUDONYM_KEY = "forget_pseudonym_key"
"""The setting that keys forgotten addresses' pseudonyms (made at the first forget)."""


class ForgetRefused(PbemError):
    """A FORGET code that is wrong, spent or too old (or one asked for too often)."""


@dataclass
class PersonalData:
    """Everything pbem holds about one address, in words a person reads (see :func:`data_of`)."""

    address: str
    seats: list[str] = field(default_factory=list)
    games_run: list[str] = field(default_factory=list)
    player: list[str] = field(default_factory=list)
    preferences: list[str] = field(default_factory=list)
    consent: list[str] = field(default_factory=list)
    leagues: list[str] = field(default_factory=list)
    following: list[str] = field(default_factory=list)
    mail: list[str] = field(default_factory=list)

    def sections(self) -> Iterator[tuple[str, list[str]]]:
        """Each part's heading and lines, in the order a reader expects."""
        yield "Seats", self.seats
        yield "Games you run as GM", self.games_run
        yield "Player name and record", self.player
        yield "Preferences", self.preferences
        yield "Permission to write to you", self.consent
        yield "Leagues", self.leagues
        yield "Observing, standby lists, invitations and seat offers", self.following
        yield "Mail kept (its text is purged after the retention time)", self.mail

    def as_text(self) -> str:
        """The whole account as plain text."""
        parts = [f"What pbem holds about {self.address}:"]
        for heading, lines in self.sections():
            parts.append(f"\n{heading}:\n" + ("\n".join(f"  {line}" for line in lines) or "  (none)"))
        return "\n".join(parts)

    def as_json(self) -> dict[str, Any]:
        """The whole account as a JSON object (``pbem mydata --json``)."""
        return {"address": self.address, **{heading: lines for heading, lines in self.sections()}}


def data_of(unit: Unit, address: str) -> PersonalData:
    """Everything stored about ``address`` (any case), read in ``unit``."""
    address = address.strip().lower()
    session, data = unit.session, PersonalData(address)
    for seat, game in session.execute(select(SeatRow, GameRow).join(GameRow, SeatRow.game_id == GameRow.id)
                                      .where(func.lower(SeatRow.address) == address).order_by(GameRow.id)):
        data.seats.append(f"game {game.name} ({game.kind}, {game.status}), seat {seat.name} ({seat.status})")
    for game in session.execute(select(GameRow).where(func.lower(GameRow.gm_address) == address)
                                .order_by(GameRow.id)).scalars():
        data.games_run.append(f"game {game.name} ({game.kind}, {game.status})")
    player = players.player_of(session, address)
    if player is not None:
        data.player.append(f"registered name {player.name} since {player.registered_at:%Y-%m-%d}")
    events = session.execute(select(PlayerEventRow.kind, func.count()).where(PlayerEventRow.address == address)
                             .group_by(PlayerEventRow.kind).order_by(PlayerEventRow.kind)).all()
    if events:
        data.player.append("record: " + ", ".join(f"{kind} {count}" for kind, count in events))
    prefs = session.get(AddressPreferenceRow, address)
    if prefs is not None:
        data.preferences.append(f"time zone {prefs.zone or 'UTC'}; JSON views {'on' if prefs.view_json else 'off'}; "
                                f"digest {'game default' if prefs.digest is None else 'on' if prefs.digest else 'off'}; "
                                f"text only {'on' if prefs.text_only else 'off'}; press {'off' if prefs.press_off else 'on'}")
    consent = session.get(AddressConsentRow, address)
    if consent is not None:
        data.consent += [line for line in (
            f"you last wrote to pbem on {consent.asked_at:%Y-%m-%d %H:%M} UTC" if consent.asked_at else "",
            f"you said STOP on {consent.stopped_at:%Y-%m-%d %H:%M} UTC" if consent.stopped_at else "",
            f"mail to you could not be delivered on {consent.undeliverable_at:%Y-%m-%d %H:%M} UTC"
            if consent.undeliverable_at else "") if line]
    for member, league in session.execute(select(LeagueMemberRow, LeagueRow)
                                          .join(LeagueRow, LeagueMemberRow.league_id == LeagueRow.id)
                                          .where(func.lower(LeagueMemberRow.address) == address)):
        data.leagues.append(f"league {league.name} ({league.status}){', dropped' if member.dropped else ''}")
    for league in session.execute(select(LeagueRow).where(func.lower(LeagueRow.gm_address) == address)).scalars():
        data.leagues.append(f"league {league.name}: you are its GM")
    data.following += [f"observing game {name}" for name in session.execute(
        select(GameRow.name).join(ObserverRow, ObserverRow.game_id == GameRow.id).where(ObserverRow.address == address))
        .scalars()]
    data.following += [f"on the standby list of {kind}" for kind in session.execute(
        select(StandbyRow.kind).where(StandbyRow.address == address)).scalars()]
    data.following += [f"invited to seat {seat} of game {name}" for seat, name in session.execute(
        select(InvitationRow.seat, GameRow.name).join(GameRow, InvitationRow.game_id == GameRow.id)
        .where(InvitationRow.address == address))]
    data.following += [f"offered seat {seat} of game {name} ({status})" for seat, name, status in session.execute(
        select(SeatOfferRow.seat, GameRow.name, SeatOfferRow.status).join(GameRow, SeatOfferRow.game_id == GameRow.id)
        .where(SeatOfferRow.address == address))]
    for row in session.execute(select(InboundMessageRow).where(InboundMessageRow.sender == address)
                               .order_by(InboundMessageRow.id)).scalars():
        kept = "its text kept" if row.raw else "its text purged"
        data.mail.append(f"from you, {row.received_at:%Y-%m-%d %H:%M} UTC, {row.status}, {kept}")
    for row in _outbound_to(unit, address):
        kept = "its text kept" if row.raw else "its text purged"
        data.mail.append(f"to you, {row.created_at:%Y-%m-%d %H:%M} UTC, {row.purpose}, {row.status}, {kept}")
    return data


def request_forget(unit: Unit, address: str) -> str:
    """Start forgetting ``address``: return a new confirmation code (good for :data:`FORGET_CODE_HOURS`
    hours, once; a new request voids the one before). Only its hash is stored."""
    address = address.strip().lower()
    code = new_password(12)
    row = unit.session.get(ForgetRequestRow, _address_key(address))
    if row is not None and is_locked(row.locked_until, unit.now()):
        raise ForgetRefused("FORGET: too many wrong codes lately; ask again in an hour")
    row = row or ForgetRequestRow(address_key=_address_key(address), code_hash="", requested_at=unit.now())
    row.code_hash, row.requested_at = hash_password(code), unit.now()
    unit.add(row)
    return code


def confirm_forget(unit: Unit, address: str, code: str) -> Forgotten:
    """Forget ``address`` when ``code`` is the one its last FORGET was sent, in time. Raises ForgetRefused
    otherwise (a wrong code counts toward a pause)."""
    address = address.strip().lower()
    row = unit.session.get(ForgetRequestRow, _address_key(address))
    now = unit.now()
    if row is None or not row.code_hash:
        raise ForgetRefused("FORGET: no code was asked for from this address; send FORGET alone first")
    if is_locked(row.locked_until, now):
        raise ForgetRefused("FORGET: too many wrong codes lately; ask again in an hour")
    if now - row.requested_at > timedelta(hours=FORGET_CODE_HOURS):
        raise ForgetRefused(f"FORGET: that code is older than {FORGET_CODE_HOURS} hours; send FORGET alone for a new one")
    if not check_password(code, row.code_hash):
        failure = record_failure(row.failures, now)
        row.failures, row.locked_until = failure.count, failure.locked_until
        unit.add(row)
        raise ForgetRefused("FORGET: that is not the code sent to this address")
    unit.session.delete(row)
    return forget(unit, address)


@dataclass(frozen=True)
class Forgotten:
    """What forgetting an address did."""

    pseudonym: str
    resigned: tuple[tuple[str, str], ...]  # (game, seat) of running games left
    freed: tuple[tuple[str, str], ...]  # (game, seat) of forming games freed
    gm_left: tuple[str, ...]  # games and leagues that lost their GM
    rows: int  # rows changed or deleted


def forget(unit: Unit, address: str) -> Forgotten:
    """Erase ``address`` from everything stored (see the module's description), in ``unit``; return what was
    done. Callers tell the GMs of the games it left (:attr:`Forgotten.resigned`)."""
    address = address.strip().lower()
    session = unit.session
    pseudonym = pseudonym_of(unit, address)
    resigned, freed, gm_left = [], [], []
    for seat, game in list(session.execute(select(SeatRow, GameRow).join(GameRow, SeatRow.game_id == GameRow.id)
                                           .where(func.lower(SeatRow.address) == address))):
        if game.status == GameStatus.FORMING:
            seat.address, seat.password_hash = None, None
            unit.add(seat)
            freed.append((game.name, seat.name))
        elif game.status != GameStatus.FINISHED and seat.status == SeatStatus.ACTIVE:
            seats.resign(unit, game.name, seat.name)
            resigned.append((game.name, seat.name))
    for game in list(session.execute(select(GameRow).where(func.lower(GameRow.gm_address) == address)).scalars()):
        if game.status != GameStatus.FINISHED:
            game.gm_address, game.gm_password_hash = None, None
            unit.add(game)
            gm_left.append(game.name)
    for league in list(session.execute(select(LeagueRow).where(func.lower(LeagueRow.gm_address) == address)).scalars()):
        if league.status != LeagueStatus.FINISHED:
            league.gm_address, league.gm_password_hash = None, None
            unit.add(league)
            gm_left.append(f"league {league.name}")
    for member in session.execute(select(LeagueMemberRow).where(func.lower(LeagueMemberRow.address) == address)).scalars():
        member.dropped = True
        unit.add(member)
    player = players.player_of(session, address)
    changed = 0
    for table in (AddressPreferenceRow, AddressConsentRow, ObserverRow, StandbyRow, InvitationRow, PlayerAddressRow):
        changed += session.execute(delete(table).where(table.address == address)).rowcount or 0
    changed += session.execute(delete(SeatOfferRow).where(SeatOfferRow.address == address,
                                                          SeatOfferRow.status == "open")).rowcount or 0
    if player is not None and not players.addresses_of(session, player):
        session.delete(player)
    session.flush()
    changed += session.execute(update(InboundMessageRow).where(InboundMessageRow.sender == address)
                               .values(raw=b"", sender=pseudonym)).rowcount or 0
    for row in _outbound_to(unit, address):
        if row.status == "queued":
            session.delete(row)
        else:
            row.raw = b""
            unit.add(row)
        changed += 1
    session.flush()
    changed += _purge_mail_naming(unit, address)
    # the archives first: what they quote is found by their addresses column, which the replacing would rewrite
    changed += compaction.rewrite_archives(session, address, lambda row: _replaced(row, address, pseudonym))
    changed += _replace_everywhere(unit, address, pseudonym)
    return Forgotten(pseudonym, tuple(resigned), tuple(freed), tuple(gm_left), changed)


def pseudonym_of(unit: Unit, address: str) -> str:
    """The stand-in of a forgotten ``address``: the same for the same address, and not to be linked to it
    without the installation's key."""
    key_row = unit.session.get(SettingRow, PSEUDONYM_KEY)
    if key_row is None:
        key_row = SettingRow(key=PSEUDONYM_KEY, value=secrets.token_hex(32))
        unit.add(key_row)
        unit.session.flush()
    digest = hmac.new(bytes.fromhex(key_row.value), address.strip().lower().encode(), hashlib.sha256).hexdigest()
    return f"forgotten-{digest[:10]}"


def _address_key(address: str) -> str:
    """The key of an address's FORGET request: its hash, so the request itself holds no address."""
    return hashlib.sha256(address.encode()).hexdigest()


def _outbound_to(unit: Unit, address: str) -> list[OutboundMessageRow]:
    """The stored mails to ``address`` (its recipients are a JSON list: matched as text, then checked)."""
    query = select(OutboundMessageRow).where(
        func.lower(cast(OutboundMessageRow.recipients, Text)).contains(address, autoescape=True))
    return [row for row in unit.session.execute(query).scalars()
            if address in (recipient.lower() for recipient in row.recipients)]


def _purge_mail_naming(unit: Unit, address: str) -> int:
    """Empty the kept text of other people's mail that names ``address`` (a GM's SEAT line, a notice that
    quoted it): handled inbound mail and sent outbound mail, whose text is kept only until the retention
    time. Mail still to be handled or sent keeps it until then. Return the rows emptied."""
    needle, emptied = address.encode(), 0
    for model, done in ((InboundMessageRow, InboundMessageRow.status != "new"),
                        (OutboundMessageRow, OutboundMessageRow.status != "queued")):
        query = select(model.id, model.raw).where(done, func.length(model.raw) > 0).execution_options(yield_per=200)
        named = [row_id for row_id, raw in unit.session.execute(query) if needle in bytes(raw).lower()]
        if named:
            emptied += unit.session.execute(update(model).where(model.id.in_(named)).values(raw=b"")).rowcount or 0
    return emptied


def _replace_everywhere(unit: Unit, address: str, pseudonym: str) -> int:
    """Replace ``address`` (any case) by ``pseudonym`` in every text and JSON column of every table; return
    the rows changed. What is left after the rows above were dealt with: seats of finished games, the audit
    log's actors and texts, players' events, league places, outgoing mail's recipients, games' and
    events' texts that quote it. One query a table finds the rows; the session's rows are read afresh after."""
    session, changed = unit.session, 0
    session.flush()
    for table, keys, columns, row in _rows_naming(unit, address):
        values = {column.name: _replaced(value, address, pseudonym) for column, value in zip(columns, row[len(keys):])}
        where = [key == value for key, value in zip(keys, row[:len(keys)])]
        session.execute(update(table).where(*where).values(values))
        changed += 1
    session.expire_all()
    return changed


def traces_of(unit: Unit, address: str) -> list[tuple[str, tuple[Any, ...]]]:
    """Where ``address`` (any case) still stands in a text or JSON column of any table, or in a compacted game's
    archive: (table, the row's primary key) each; empty once it is forgotten (but for the answer that confirmed it, until sent and
    purged)."""
    address = address.strip().lower()
    archived = [(TurnArchiveRow.__tablename__, (stored.game_id,))
                for stored in compaction.archives_holding(unit.session, address)]
    return [(table.name, tuple(row[:len(keys)])) for table, keys, columns, row in _rows_naming(unit, address)
            if any(_names_in(value, address) for value in row)] + archived


def _rows_naming(unit: Unit, address: str) -> Iterator[tuple[Table, list[Column[Any]], list[Column[Any]], Any]]:
    """Each row of pbem's tables that may hold ``address`` in a text or JSON column (matched as text: a
    superset), with its table, its key columns, its other text columns, and the row (keys, then those). The
    statements are written out (one a table, typed by the table's columns), not compiled from expressions:
    compiling two dozen wide selects cost most of a FORGET's time."""
    quote = unit.session.get_bind().dialect.identifier_preparer.quote
    pattern = "%" + address.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    for table in SQLModel.metadata.sorted_tables:
        texts = [column for column in table.columns if _holds_text(column)]
        if not texts:
            continue
        keys = list(table.primary_key.columns)
        columns = [column for column in texts if not column.primary_key]
        chosen = ", ".join(quote(column.name) for column in [*keys, *columns])
        naming = " OR ".join(f"lower(CAST({quote(column.name)} AS TEXT)) LIKE :pattern ESCAPE '\\'"
                             for column in texts)
        query = text(f"SELECT {chosen} FROM {quote(table.name)} WHERE {naming}").columns(*keys, *columns)
        for row in unit.session.execute(query, {"pattern": pattern}).all():
            yield table, keys, columns, row


def _names_in(value: Any, address: str) -> bool:
    """True when ``value`` (a text, or JSON) holds ``address`` in any case."""
    return _replaced(value, address, "") != value


def _holds_text(column: Column[Any]) -> bool:
    """True for a column of text or JSON (also behind a type decorator, as sqlmodel's strings are)."""
    kind = column.type.impl if isinstance(column.type, TypeDecorator) else column.type
    return isinstance(kind, (String, JSON))


def _replaced(value: Any, address: str, pseudonym: str) -> Any:
    """``value`` (a text, or JSON made of dicts, lists and texts) with ``address`` replaced in any case."""
    if isinstance(value, str):
        lowered, out, start = value.lower(), [], 0
        while (found := lowered.find(address, start)) >= 0:
            out += [value[start:found], pseudonym]
            start = found + len(address)
        return "".join(out) + value[start:]
    if isinstance(value, list):
        return [_replaced(item, address, pseudonym) for item in value]
    if isinstance(value, dict):
        return {_replaced(key, address, pseudonym): _replaced(item, address, pseudonym) for key, item in value.items()}
    return value
