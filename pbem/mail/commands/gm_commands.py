"""What a GM does by mail, each by one call to the service: CREATE, and in a GM session START,
SEAT, SET, DEADLINE, EXTEND, PAUSE, RESUME, PROCESS, REPLACE, REVEAL, SECRETS, END, PRESS, HELP, STATUS.
Players hear of what concerns them."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from pbem import budget
from pbem.commands import (
    AssignSeat,
    CreateGame,
    EndGame,
    Extend,
    GmCommand,
    GmSession,
    Help,
    Pause,
    Press,
    Preview,
    ProcessTurn,
    Replace,
    Report,
    Resume,
    Reveal,
    Rollback,
    Secrets,
    SetDeadline,
    SetOptions,
    SetPreference,
    SetZone,
    ShowLog,
    StartGame,
    Status,
)
from pbem.core import GameError, InvalidInput, PbemError
from pbem.games import find_game
from pbem.mail.answering import consent as consent_mail
from pbem.mail.answering.answers import commitment_line, help_for
from pbem.mail.answering.conversation import Conversation
from pbem.mail.answering.signon import check_gm
from pbem.mail.commands import report_again, seat_commands
from pbem.mail.commands.press import send_press
from pbem.mail.commands.seat_commands import show_status
from pbem.reports import render_report
from pbem.service import audit, control, creation, digests, gm_secrets, queries, resolution, rewind, seats, seeds
from pbem.service.consent import InvitationLimit, StoppedAddress
from pbem.store.tables import GameRow, GameStatus
from pbem.zones import mark

LOG_LINES = 200
"""Most entries of the audit log a LOG reply lists (the newest)."""
MAX_CREATIONS_PER_MAIL = 3
MAX_CREATIONS_PER_DAY = 10
"""Games one address may create in one mail, and in 24 hours."""


def create(conv: Conversation, command: CreateGame) -> None:
    """CREATE: a new forming game whose GM is the sender, then the GM commands after it."""
    handled, sender = conv.handled, conv.mail.sender
    if handled.created >= MAX_CREATIONS_PER_MAIL:
        raise PbemError(f"CREATE {command.game}: at most {MAX_CREATIONS_PER_MAIL} games are created per mail")
    since = conv.desk.clock() - timedelta(days=1)
    if queries.games_created_since(conv.unit.session, sender, since) >= MAX_CREATIONS_PER_DAY:
        raise PbemError(f"CREATE {command.game}: at most {MAX_CREATIONS_PER_DAY} games are created per address "
                        "in 24 hours")
    options = dict(command.options)
    conv.unit.actor = f"gm {sender}"
    kind = find_game(command.kind)
    players = _whole_number("players", options.pop("players", str(kind.max_players)), 2**31)
    seed_text = options.pop("seed", None)
    seed = _whole_number("seed", seed_text, 2**63) if seed_text is not None else None
    info, password = creation.create_for_gm(conv.unit, command.kind, command.game, gm_address=sender,
                                            players=players, options=options, seed=seed)
    handled.created += 1
    conv.reply.secret, conv.reply.tag_game = True, command.game
    conv.reply.add(
        f"Created {kind.title} game {info.name} for {players} players; you are its GM.\n"
        f"Your GM password is {password}: start GM mails with GM {info.name} {password}.\n"
        f"Players join with: JOIN {info.name}" + commitment_line(info.row)
    )
    _run_gm_commands(conv, info.row, command.commands)


def gm_session(conv: Conversation, command: GmSession) -> None:
    """GM <game> <password>: the GM commands after it, once the password is right."""
    check_gm(conv, command)
    conv.unit.actor = f"gm {conv.mail.sender}"
    _run_gm_commands(conv, conv.unit.game(command.game), command.commands)


def _run_gm_commands(conv: Conversation, row: GameRow, commands: tuple[GmCommand, ...]) -> None:
    """Carry out each GM command for the game; a refused one does not stop the others."""
    for command in commands:
        budget.check()
        conv.reply.line = command.line
        try:
            _GM_COMMANDS[type(command)](conv, row, command)
        except (PbemError, ValueError) as error:
            conv.reply.refuse(command.line, error)
        conv.carried_out(command)


def _start(conv: Conversation, row: GameRow, command: StartGame) -> None:
    unit, name = conv.unit, row.name
    info = creation.start(unit, name)  # first: a START refused gives out no password
    conv.notifier.open_game(unit, info)
    conv.reply.add(f"Game {name} started; the opening report went to every seat.")


def _set_deadline(conv: Conversation, row: GameRow, command: SetDeadline) -> None:
    when = control.set_deadline(conv.unit, row.name, command.when)
    _announce(conv, row, f"The GM set the deadline of turn {row.turn} to {mark(when)}.", calendar=True)
    conv.reply.add(f"Deadline set to {mark(when)}.")


def _extend(conv: Conversation, row: GameRow, command: Extend) -> None:
    when = control.extend(conv.unit, row.name, command.by)
    _announce(conv, row, f"The GM extended the deadline of turn {row.turn} to {mark(when)}.", calendar=True)
    conv.reply.add(f"Deadline extended to {mark(when)}.")


def _pause(conv: Conversation, row: GameRow, command: Pause) -> None:
    control.pause(conv.unit, row.name)
    _announce(conv, row, f"The GM paused game {row.name}; no deadline runs until it resumes.")
    conv.reply.add(f"Game {row.name} paused.")


def _resume(conv: Conversation, row: GameRow, command: Resume) -> None:
    when = control.resume(conv.unit, row.name)
    deadline = f" The deadline is {mark(when)}." if when else ""
    _announce(conv, row, f"The GM resumed game {row.name}.{deadline}", calendar=True)
    conv.reply.add(f"Game {row.name} resumed.{deadline}")


def _replace(conv: Conversation, row: GameRow, command: Replace) -> None:
    unit, name = conv.unit, row.name
    seat = unit.seat(row, command.seat)
    old = seat.address
    if row.status == GameStatus.FINISHED:
        raise GameError(f"game {name} is finished")
    waits = consent_mail.invite(conv, row, seat.name, command.address)
    joined = seats.replace(unit, name, command.seat, command.address.lower())
    conv.notifier.welcome(unit, row, seat, joined.password, old, "", "The GM")
    if waits:
        conv.reply.add(f"Seat {seat.name} of {name} now belongs to {seat.address}, who never wrote to pbem: they are "
                       "invited, and get nothing more until they accept (a reply, or JOIN).")
        return
    conv.reply.add(f"Seat {seat.name} of {name} now belongs to {seat.address}; they were told.")


def _assign_seat(conv: Conversation, row: GameRow, command: AssignSeat) -> None:
    seat = seats.assign(conv.unit, row.name, command.seat, command.address)
    try:
        waits = consent_mail.invite(conv, row, seat.name, seat.address or command.address)
    except (InvitationLimit, StoppedAddress):
        seat.address = None  # the seat stays open
        conv.unit.add(seat)
        raise
    if waits:
        conv.reply.add(f"Seat {seat.name} of {row.name} is assigned to {seat.address}, who never wrote to pbem: they "
                       f"are invited, and START waits until they accept (a reply to the invitation, or JOIN {row.name}).")
        return
    conv.reply.add(f"Seat {seat.name} of {row.name} is assigned to {seat.address}; they get their password at START.")


def _set_options(conv: Conversation, row: GameRow, command: SetOptions) -> None:
    options = dict(command.options)
    control.set_options(conv.unit, row.name, options)
    conv.reply.add("Options set: " + ", ".join(f"{k}={v}" for k, v in options.items()) + ".")


def _process(conv: Conversation, row: GameRow, command: ProcessTurn) -> None:
    resolved = resolution.resolve(conv.unit, row.name, reason="gm")
    turns = ", ".join(str(t.record.turn) for t in resolved.turns)
    conv.reply.add(f"Resolved turn(s) {turns} of {row.name}; the reports went out.")


def _reveal(conv: Conversation, row: GameRow, command: Reveal) -> None:
    unit = conv.unit
    seeds.reveal(unit, row.name)
    _send_final(conv, row)
    kept = seeds.kept_secret_reason(row)
    if kept is not None:
        conv.reply.add(f"Game {row.name} ended; its seed is not revealed: {kept}. The final report went to "
                       "every seat.")
        return
    conv.reply.add(f"Game {row.name} ended and its seed revealed: secret {row.secret}. "
                   "The final report went to every seat; players can now VERIFY it.")


def _secrets(conv: Conversation, row: GameRow, command: Secrets) -> None:
    """SECRETS: every seat's view of the turn, in a mail of its own to the GM's address (never to another
    sender that knows the GM password), its text not kept once sent; the look is recorded."""
    if not row.gm_address:
        raise GameError(f"game {row.name} has no GM address to mail the views to")
    if (earlier := conv.handled.answered("SECRETS", row.name)) is not None:  # one mail per game and mail
        conv.reply.add(earlier)
        return
    views = gm_secrets.seat_views(conv.unit, row.name)
    parts = [f"=== Seat {seat} ===\n\n{render_report(report, seat)}" for seat, report in views.reports]
    text = (f"Every seat's view of game {row.name} at turn {views.turn}, as each seat reads it in its newest "
            "report, its secrets included. Keep it to yourself; your look at it is recorded in the game's log.\n\n" + "\n".join(parts))
    conv.notifier.tell_address(conv.unit, row, row.gm_address, f"Secrets of turn {views.turn}", text, secret=True)
    conv.reply.add(conv.handled.remember("SECRETS", row.name, (
        f"SECRETS: every seat's view of turn {views.turn} of {row.name} went to {row.gm_address} in a mail of its "
        "own; your look is recorded.")))


def _end(conv: Conversation, row: GameRow, command: EndGame) -> None:
    unit = conv.unit
    control.end(unit, row.name)
    _send_final(conv, row)
    conv.reply.add(f"Game {row.name} ended; the final report went to every seat.")


def _send_final(conv: Conversation, row: GameRow) -> None:
    """Mail every reader the final report of a game the GM ended, telling all it was not told yet."""
    info = conv.unit.snapshot(row)
    conv.notifier.send_reports(conv.unit, info, digests.take_reports(conv.unit, info, everyone=True))




def _show_log(conv: Conversation, row: GameRow, command: ShowLog) -> None:
    entries = audit.entries(conv.unit, row.name, last=LOG_LINES)
    lines = "\n".join(entry.line() for entry in entries)
    more = f" (the newest {LOG_LINES}; pbem log {row.name} prints all)" if len(entries) == LOG_LINES else ""
    conv.reply.add(f"Audit log of {row.name}{more}:\n{lines}")


def _preview(conv: Conversation, row: GameRow, command: Preview) -> None:
    unit = conv.unit
    if (earlier := conv.handled.answered("PREVIEW", row.name)) is not None:  # one mail per game and mail
        conv.reply.add(earlier)
        return
    dry = rewind.preview(unit, row.name)
    info = unit.snapshot(row)
    parts = [f"PREVIEW of turn {row.turn} of {row.name}: a dry run with the standing orders, NMR defaults for "
             f"{', '.join(dry.nmr) or 'nobody'} and the game's real dice. Nothing was changed; the turn resolves "
             "as usual.", "===== public report =====\n" + render_report(dry.report, None)]
    if info.rules.has_hidden_information:
        parts.append("The seats' own reports are left out: they hold secrets that reach only their holders.")
    else:
        parts += [f"===== seat {seat} =====\n" + render_report(dry.report, seat) for seat in info.seat_names]
    if row.gm_address:
        conv.notifier.tell_address(unit, row, row.gm_address, f"Preview of turn {row.turn}", "\n\n".join(parts))
    conv.reply.add(conv.handled.remember(
        "PREVIEW", row.name, f"PREVIEW: the reports of a dry run of turn {row.turn} went to {row.gm_address or 'nobody'}."))


def _rollback(conv: Conversation, row: GameRow, command: Rollback) -> None:
    unit = conv.unit
    if command.code is None:
        code = rewind.request_rollback(unit, row.name, command.turn)
        if row.gm_address:
            conv.notifier.tell_address(unit, row, row.gm_address, f"Rollback to turn {command.turn}: confirmation code",
                                       f"To return game {row.name} to the start of turn {command.turn}, send within "
                                       f"24 hours:\n\nGM {row.name} <gm-password>\nROLLBACK {command.turn} {code}\n",
                                       secret=True)
        conv.reply.add(f"ROLLBACK {command.turn}: a confirmation code went to {row.gm_address}; send "
                       f"ROLLBACK {command.turn} <code> to roll back.")
        return
    done = rewind.confirm_rollback(unit, row.name, command.turn, command.code)
    conv.reply.add(f"ROLLBACK: game {row.name} is back at the start of turn {done.turn} ({done.undone} turn(s) "
                   "undone); the players were told and their orders kept.")


def _announce(conv: Conversation, row: GameRow, text: str, *, calendar: bool = False) -> None:
    """Tell every player of the game what the GM did (the GM's address too, when another address sent
    the GM session: the reply tells the sender); with ``calendar`` (the deadline moved) the seats that
    owe orders get their calendar update."""
    conv.notifier.tell_players(conv.unit, conv.unit.snapshot(row), text, calendar=calendar, actor=conv.mail.sender)


def _whole_number(name: str, text: str, below: int) -> int:
    """``text`` as a whole number from 0 to ``below`` - 1; raises InvalidInput quoting it otherwise."""
    value = text.strip()
    if not value.isascii() or not value.isdigit() or len(value) > 20 or int(value) >= below:
        raise InvalidInput(f"option {name}={text!r}: give a whole number from 0 to {below - 1}")
    return int(value)


_GM_COMMANDS: Mapping[type, Callable[[Conversation, GameRow, Any], None]] = {
    StartGame: _start,
    Report: report_again.in_gm_session,
    SetDeadline: _set_deadline,
    Extend: _extend,
    Pause: _pause,
    Resume: _resume,
    Replace: _replace,
    AssignSeat: _assign_seat,
    SetOptions: _set_options,
    ProcessTurn: _process,
    Reveal: _reveal,
    Secrets: _secrets,
    EndGame: _end,
    ShowLog: _show_log,
    Preview: _preview,
    Rollback: _rollback,
    SetZone: lambda conv, row, command: seat_commands.zone(conv, command),
    SetPreference: lambda conv, row, command: seat_commands.preference(conv, command),
    Press: lambda conv, row, command: send_press(conv, row, "GM", command),
    Help: lambda conv, row, command: conv.reply.add(help_for(command.kind)),
    Status: lambda conv, row, command: show_status(conv, command.game or row.name,
                                                   gm=(command.game or row.name).lower() == row.name.lower()),
}
"""What each GM command does, given the GM's game."""
