"""What players do by mail, each by one call to the service: JOIN, SALT, VERIFY, CHECK, STATUS,
HELP, VIEWJSON, and a seat's session (orders, READY, NOORDERS, ORDERS, RESIGN, PRESS)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC
from typing import Any

from pbem import budget
from pbem.commands import (
    Absent,
    Accept,
    Back,
    CheckOrders,
    Help,
    Join,
    NoOrders,
    Observe,
    Press,
    Ready,
    Report,
    Resign,
    Salt,
    SeatSession,
    SetPreference,
    SetZone,
    ShowOrders,
    Standby,
    Status,
    TextBlock,
    TextLine,
    Verify,
    ViewJson,
)
from pbem.core import PbemError, StaleTurn
from pbem.games import find_game
from pbem.mail.answering.answers import commitment_line, help_for, status_text, verify_text
from pbem.mail.answering.conversation import Conversation
from pbem.mail.answering.signon import signed_on_seat
from pbem.mail.commands.press import send_press
from pbem.mail.commands.report_again import in_session as report_in_session
from pbem.mail.outbound.preferences import set_preference, set_view_json, set_zone, zone_of
from pbem.service import absences, observers, owing, replay, seats, seeds, standby, status, submissions
from pbem.service.checking import check_syntax
from pbem.store.tables import GameRow, GameStatus, SeatRow, SubmissionRow
from pbem.zones import format_moment, mark, read_zone

# The turn a game mail's subject names: "[tc-1] Turn 3", "[tc-1] Reminder: turn 3 orders due".
_SUBJECT_TURN = re.compile(r"\][^\[\]]*?\bturn\s+(\d{1,9})\b", re.I)  # 9 digits: int() stays cheap and total


def join(conv: Conversation, command: Join) -> None:
    """JOIN: take a seat of a forming game; the GM is told."""
    sender = conv.mail.sender
    held = seats.seat_of_address(conv.unit, command.game, sender)
    if held is not None and conv.unit.game(command.game).status == GameStatus.FORMING:
        conv.reply.tag_game = conv.unit.game(command.game).name  # an invited holder's JOIN: its mail accepted
        conv.reply.add(f"You hold seat {held.name} of {command.game}; the game starts when the GM sends START.")
        return
    joined = seats.join(conv.unit, command.game, sender, command.seat)
    info = joined.info
    seat = conv.unit.seat(info.row, joined.seat)
    conv.reply.row, conv.reply.seat, conv.reply.secret, conv.reply.tag_game = info.row, seat, True, info.name
    conv.reply.add(
        f"You joined game {joined.game} ({info.rules.title}) as seat {joined.seat}.\n"
        f"Your password is {joined.password} (for SIGNON {joined.game} {joined.seat} {joined.password}); "
        "you rarely need it: a plain reply to your turn report or a reminder from this game signs you on "
        "(a plain reply to a notice or a press mail goes as press, never as orders).\n"
        "The game starts when the GM sends START." + commitment_line(info.row)
    )
    if joined.open_seats:
        conv.notifier.tell_gm(conv.unit, info, f"{sender} joined {info.name} as seat {joined.seat}; "
                                               f"open seats: {', '.join(joined.open_seats)}.")
    else:
        conv.notifier.tell_gm(conv.unit, info, f"{sender} joined {info.name} as seat {joined.seat}; "
                                               "every seat is taken. Send START to begin.")


def view_json(conv: Conversation, command: ViewJson) -> None:
    """VIEWJSON ON|OFF: whether turn reports to the sender carry the seat's view as JSON."""
    sender = conv.mail.sender
    set_view_json(conv.unit.session, sender, on=command.on, now=conv.desk.clock())
    conv.reply.add(f"VIEWJSON {'ON' if command.on else 'OFF'}: turn reports to {sender} "
                   + ("will carry your seat's view as a JSON attachment, view.json." if command.on
                      else "will no longer carry your seat's view as JSON."))


def zone(conv: Conversation, command: SetZone) -> None:
    """SET ZONE <name>: deadlines in mail to the sender are shown in that zone, with UTC beside."""
    sender = conv.mail.sender
    chosen = read_zone(command.zone)
    set_zone(conv.unit.session, sender, chosen, now=conv.desk.clock())
    example = format_moment(conv.desk.clock(), chosen)
    conv.reply.add(f"SET ZONE {chosen.key}: deadlines in mail to {sender} are shown in {chosen.key}, with UTC "
                   f"beside (now is {example}).")


_PREFERENCE_WORDS = {
    ("digest", True): "turn reports come only when you owe orders, at the end, or once a game's digest_hours "
                      "passed since the first turn you were not told of, each covering every turn since your last",
    ("digest", False): "every turn report comes to you, whatever a game's reports= option says",
    ("textonly", True): "mail to you is plain text only: no HTML part, no picture",
    ("textonly", False): "mail to you has its HTML part and picture again",
    ("press", False): "no press from other players reaches you (the GM's still does); they are told",
    ("press", True): "press from other players reaches you again",
}


def preference(conv: Conversation, command: SetPreference) -> None:
    """SET DIGEST|TEXTONLY|PRESS ON|OFF: how mail to the sender is made."""
    sender = conv.mail.sender
    set_preference(conv.unit.session, sender, command.name, on=command.on, now=conv.desk.clock())
    conv.reply.add(f"SET {command.name.upper()} {'ON' if command.on else 'OFF'}: "
                   f"{_PREFERENCE_WORDS[(command.name, command.on)]} ({sender}).")


def observe(conv: Conversation, command: Observe) -> None:
    """OBSERVE | UNOBSERVE <game>: the sender follows the game's public reports, or stops."""
    sender = conv.mail.sender
    if command.on:
        row = observers.observe(conv.unit, command.game, sender)
        conv.reply.tag_game = row.name
        conv.reply.add(f"You observe game {row.name}: its public reports (never a player's secrets) come to "
                       f"{sender}. UNOBSERVE {row.name} stops them.")
    elif observers.unobserve(conv.unit, command.game, sender):
        conv.reply.add(f"You no longer observe game {command.game}.")
    else:
        conv.reply.add(f"{sender} does not observe game {command.game}.")


def standby_list(conv: Conversation, command: Standby) -> None:
    """STANDBY <kind> | STANDBY OFF: the sender goes on a kind's standby list, or off every one."""
    sender = conv.mail.sender
    if command.kind is None:
        left = standby.leave_lists(conv.unit, sender)
        conv.reply.add(f"STANDBY OFF: {sender} is on no standby list now"
                       + (f" (was on: {', '.join(left)})." if left else "."))
        return
    kind = standby.join_list(conv.unit, sender, command.kind)
    conv.reply.add(f"STANDBY {kind}: {sender} is on the standby list of {kind}. When a seat of a {kind} game "
                   "is free (its player resigned or missed deadlines), it may be offered to you by mail; reply "
                   "ACCEPT to take it. STANDBY OFF takes you off.")


def accept_offer(conv: Conversation, command: Accept) -> None:
    """ACCEPT [<game>]: the sender takes the seat offered to them."""
    offer = standby.accept(conv.unit, conv.mail.sender, command.game or conv.tag)
    row = conv.unit.session.get(GameRow, offer.game_id)
    assert row is not None
    waits = ("it is yours now; your password comes in a separate mail" if offer.status == "taken"
             else "the GM was asked to confirm; you hear from the game once they have")
    conv.reply.add(f"ACCEPT: you accepted seat {offer.seat} of game {row.name}; {waits}.")


def show_status(conv: Conversation, name: str | None, *, gm: bool = False, seat: str | None = None) -> None:
    """STATUS of the game called ``name`` (with ``gm``, in the game's GM session: the absences too; asked
    by ``seat`` of that game, signed on: its teammates' stored orders in a team step too)."""
    if name is None:
        raise PbemError("STATUS needs a game name")
    key = f"{name}|{'GM' if gm else seat or ''}|{conv.handled.changes}"
    if (earlier := conv.handled.answered("STATUS", key)) is None:  # asked again with nothing changed: folded
        earlier = conv.handled.remember("STATUS", key, status_text(status.status_view(conv.unit, name, seat, gm=gm),
                                                                   gm=gm))
    conv.reply.add(earlier)


def _session_status(conv: Conversation, row: GameRow, seat: SeatRow, command: Status) -> None:
    """STATUS in a seat's session: of its own game (or the one named), as that seat when it is its own."""
    name = command.game or row.name
    own = conv.unit.game(name).id == row.id
    show_status(conv, name, seat=seat.name if own else None)


def salt(conv: Conversation, command: Salt) -> None:
    """SALT: a player's entropy for the seed of the one forming game the sender holds a seat of
    (the one in the subject's tag when there are several)."""
    held = seats.forming_seats_of(conv.unit, conv.mail.sender, conv.tag)
    if len(held) != 1:
        where = f"game {conv.tag}" if conv.tag else "a forming game"
        raise PbemError(f"SALT is taken from a seat of {where} before its start; send it from the address "
                        "you joined with (with the game in the subject as [game] if you joined several)")
    info, seat = held[0]
    salts = seeds.add_salt(conv.unit, info.name, seat.name, command.text)
    conv.reply.add(f"Your salt for {info.name} is noted ({len(salts)} so far); it is mixed into the seed at "
                   "START and named in the first report.")


def verify(conv: Conversation, command: Verify) -> None:
    """VERIFY: recompute every draw of a game whose seed is revealed."""
    conv.reply.add(verify_text(replay.verify(conv.unit, command.game)))


def check_kind(conv: Conversation, command: CheckOrders) -> None:
    """CHECK <kind>: the syntax of the lines after it, against a game kind, without any game."""
    result = check_syntax(command.kind, command.orders.numbered_text)
    intro = f"Syntax check against {result.kind} (nothing stored):"
    conv.reply.add(f"{intro}\n" + result.render(), check=result, intro=intro)


def seat_session(conv: Conversation, command: SeatSession) -> None:
    """A seat's session (a reply to a game mail, or SIGNON): its orders, then its commands."""
    row, seat = signed_on_seat(conv, command)
    conv.unit.actor = f"seat {seat.name} {conv.mail.sender}"
    command = _check_as_order(row, command)
    conv.handled.by_reply_address = conv.handled.by_reply_address or command.is_token_reply
    conv.reply.row, conv.reply.seat = row, seat
    if not command.orders.is_empty:
        _orders(conv, row, seat, command)
        conv.carried_out(command)
    conv.handled.acted = conv.handled.acted or bool(conv.handled.accepted) or bool(command.commands) or command.check
    for sub in command.commands:
        budget.check()
        conv.reply.line = sub.line
        try:
            _SESSION_COMMANDS[type(sub)](conv, row, seat, sub)
        except (PbemError, ValueError) as error:
            conv.reply.refuse(sub.line, error)
        conv.carried_out(sub)
    if conv.handled.submitted and not command.check:
        _warn_of_waiting(conv, row, seat)


def _warn_of_waiting(conv: Conversation, row: GameRow, seat: SeatRow) -> None:
    """After orders or NOORDERS that only wait, in a game where everyone waiting costs something (The
    Epic Quest): say what, and whether the step now waits for actions or READY."""
    info = conv.unit.snapshot(row)
    if info.phase is not None:
        warning = owing.wait_warning(conv.unit, info, seat.name)
        if warning is not None:
            conv.reply.add(warning)


def _check_as_order(row: GameRow, command: SeatSession) -> SeatSession:
    """A session whose only line is CHECK, in a game whose rule book uses CHECK as an order word
    (Shelloker), holds that order; CHECK followed by orders stays the check without storing."""
    line = command.check_line
    if line is None or not command.orders.is_empty or "CHECK" not in getattr(find_game(row.kind), "command_words_as_orders", ()):
        return command
    return replace(command, check=False, orders=TextBlock((TextLine(line.number, line.text),)), check_line=None)


def _orders(conv: Conversation, row: GameRow, seat: SeatRow, command: SeatSession) -> None:
    """The orders of a seat session: checked, and stored unless the session is a CHECK. Orders
    answering a game mail of an earlier turn are refused as stale."""
    wanted = _SUBJECT_TURN.search(conv.mail.subject)
    try:
        result = submissions.submit(
            conv.unit, row.name, seat.name, command.orders.numbered_text, store=not command.check,
            turn=int(wanted.group(1)) if wanted is not None else None, source=conv.source,
        )
    except StaleTurn as stale:
        raise StaleTurn(stale.game, stale.turn, stale.current, message=(
            f"these orders answer turn {stale.turn} of {stale.game}, but the game is at turn {stale.current}; "
            "they were refused as stale. Send REPORT (a reply holding only that word) to have the newest report "
            "mailed again, and reply to it with orders for the current turn.")) from stale
    result.show_time = mark
    intro = "CHECK only, nothing stored:" if command.check else ""
    conv.reply.add((f"{intro}\n" if intro else "") + result.render(), check=result, intro=intro)
    if result.version is not None:
        conv.handled.submitted.append((row.name, seat.name))
        conv.handled.accepted += len(result.accepted)


def _ready_or_not(conv: Conversation, row: GameRow, seat: SeatRow, command: Ready | NoOrders) -> None:
    """READY (the seat's orders are final) or NOORDERS (withdrawn: it holds)."""
    ready = isinstance(command, Ready)
    had = submissions.current_orders(conv.unit, row.name, seat.name) if ready else None
    version = submissions.withdraw(conv.unit, row.name, seat.name, ready=ready, source=conv.source)
    conv.handled.submitted.append((row.name, seat.name))
    if ready:
        conv.reply.add(f"READY: {_final_orders(had, version, f'turn {row.turn} of {row.name}')}; the turn does "
                       "not wait for you.")
    else:
        conv.reply.add(f"NOORDERS: your orders for turn {row.turn} of {row.name} are withdrawn (v{version} is "
                       "an empty set: you hold). Send orders again to replace it.")


def _final_orders(had: SubmissionRow | None, version: int, turn: str) -> str:
    """What READY made final for ``turn`` ("turn 4 of tc-1"), in the reader's terms: the orders they sent
    (their version), an empty set they sent (NOORDERS), or nothing (they hold)."""
    if had is None:
        return f"you sent no orders for {turn}, so you hold this turn"
    if not had.orders:
        return f"you hold {turn} (your orders v{version} are an empty set)"
    return f"your orders v{version} for {turn} are final"


def _show_orders(conv: Conversation, row: GameRow, seat: SeatRow, command: ShowOrders) -> None:
    """ORDERS: the seat's current orders."""
    current = submissions.current_orders(conv.unit, row.name, seat.name)
    if current is None:
        conv.reply.add(f"You have no orders for turn {row.turn} of {row.name} yet.")
    else:
        lines = "\n".join(current.orders) or "(an empty set of orders: you hold)"
        conv.reply.add(f"Your orders v{current.version} for turn {row.turn} of {row.name}:\n{lines}")


def _resign(conv: Conversation, row: GameRow, seat: SeatRow, command: Resign) -> None:
    """RESIGN: the seat leaves the game; the GM is told."""
    seats.resign(conv.unit, row.name, seat.name)
    conv.notifier.tell_gm(conv.unit, conv.unit.snapshot(row),
                          f"Seat {seat.name} ({conv.mail.sender}) resigned from {row.name}. "
                          "It gets NMR defaults until you REPLACE it.")
    conv.reply.add(f"You resigned seat {seat.name} of {row.name}. The GM was told.")


def _absent(conv: Conversation, row: GameRow, seat: SeatRow, command: Absent) -> None:
    """ABSENT <from> [<to>]: whole days in the sender's zone; the GM and the other seats hear of a moved deadline."""
    zone = zone_of(conv.unit.session, conv.mail.sender) or UTC
    starts, ends = absences.whole_days(command.starts, command.ends, zone)
    absences.announce(conv.unit, row.name, seat.name, starts, ends)
    conv.notifier.tell_gm(conv.unit, conv.unit.snapshot(row), f"Seat {seat.name} ({conv.mail.sender}) of {row.name} "
                          f"announced an absence from {mark(starts)} to {mark(ends)}.")
    moves = (f"A deadline falling in it moves to a day after your return, for at most {row.absence_days:g} days in "
             f"this game ({seat.absence_used_hours / 24:.1f} used)." if row.absence_days > 0 else
             "This game grants no extensions for absences (absence_days=0): its deadlines stay where they are.")
    conv.reply.add(f"ABSENT: seat {seat.name} of {row.name} is away from {mark(starts)} to {mark(ends)}. {moves} "
                   "BACK ends it early.")


def _back(conv: Conversation, row: GameRow, seat: SeatRow, command: Back) -> None:
    ended = absences.back(conv.unit, row.name, seat.name)
    conv.reply.add(f"BACK: welcome back; {ended} absence(s) of seat {seat.name} of {row.name} ended."
                   if ended else f"BACK: seat {seat.name} of {row.name} had no absence announced.")


_SESSION_COMMANDS: Mapping[type, Callable[[Conversation, GameRow, SeatRow, Any], None]] = {
    Ready: _ready_or_not,
    NoOrders: _ready_or_not,
    ShowOrders: _show_orders,
    Resign: _resign,
    Absent: _absent,
    Back: _back,
    Press: lambda conv, row, seat, command: send_press(conv, row, seat.name, command),
    Help: lambda conv, row, seat, command: conv.reply.add(help_for(command.kind)),
    Status: _session_status,
    Report: report_in_session,
}
"""What each command of a seat's session does, given the session's game and seat."""
