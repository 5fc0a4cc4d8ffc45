"""The email command language: a cleaned mail body to a :class:`Script`.

A mail is read line by line. Between blocks every non-blank line is a
command (``#`` lines are comments). Some commands open a block:

* ``SIGNON game seat password`` opens a seat session; a token reply
  (``token_seat=True``) starts inside one, unless its first line is a
  command whose word is not reserved. In a session, a line whose first word
  is one of :data:`RESERVED_WORDS` is a command, every other line is an
  order line. ``CHECK`` on the first line of the session makes it a check.
* ``CHECK kind`` opens a syntax-check block: order lines as in a session.
* ``GM game password`` and ``CREATE kind game ...`` open a GM session, in
  which every line is a command and the GM commands are allowed.
* ``PRESS seat...`` (in a seat or GM session) takes the lines that follow,
  blank ones too, as the message, up to a line ``ENDPRESS`` or ``SIGNOFF``.

``SIGNOFF``, another opening command, or the end of the mail closes a block.
Command lines are parsed one at a time with ``grammars/commands.lark`` and the
fragments of the commands in :mod:`pbem.mail.commands.registry` (each one module); order
lines are kept as raw text with their line numbers for the game's own
grammar. A bad command line becomes a :class:`CommandProblem` (line, column,
what was expected); the other lines are still read. A block whose opening
line is bad still swallows its lines, so that one typo gives one problem.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta, timezone
from functools import cache
from typing import Any, Literal

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, VisitError

from pbem import budget
from pbem.addresses import checked_address
from pbem.clock import FIRST_YEAR, LAST_YEAR, in_years
from pbem.core import InvalidInput, PbemError
from pbem.mail.commands.spec import ParsedCommand
from pbem.orders import describe_syntax_error, keyword_word
from pbem.resources import grammar_dir
from pbem.zones import BadZone, read_zone

MAX_GAME_NAME = 20
"""Longest game name CREATE accepts (reply addresses must stay under 64 characters)."""

MAX_EXTENSION = timedelta(days=365)
"""Longest duration EXTEND accepts."""

RESERVED_WORDS = frozenset(
    {"SIGNON", "SIGNOFF", "CHECK", "ORDERS", "READY", "NOORDERS", "RESIGN", "PRESS", "ENDPRESS", "HELP", "STATUS",
     "GM", "ABSENT", "BACK", "REPORT", "DRAW", "NODRAW", "CONCEDE"}
)
"""First words that make a line among orders a command: no game's orders may start with one."""

OPENING_WORDS = frozenset({"JOIN", "LEAGUE", "CREATE", "SIGNON", "GM", "HELP", "STATUS", "CHECK", "SALT", "VERIFY",
                           "VIEWJSON", "SET", "OBSERVE", "UNOBSERVE", "STANDBY", "ACCEPT", "DECLINE", "REGISTER", "WHOIS",
                           "REPORT", "MYDATA", "FORGET"})
"""Commands that may open a mail outside any session. A reply to a game mail whose first line starts
with one of these that is not also in :data:`RESERVED_WORDS` is read as an ordinary command mail;
any other first line is orders (so an order word such as Harvest Day's REVEAL, which is also a game
master's command inside a GM session, starts the orders of a reply). No game's orders may start
with one of these either."""


class BadDuration(PbemError):
    """A duration that is not like ``2d``, ``12h``, ``1d6h`` or ``30m``, or is zero or too long."""


class BadDateTime(PbemError):
    """A date-time that is not like ``2026-11-25 18:00`` or ``2026-11-25T18:00Z``, or does not exist."""


_DURATION = re.compile(r"(?:(\d{1,6})w)?(?:(\d{1,6})d)?(?:(\d{1,6})h)?(?:(\d{1,6})m)?", re.I)


def parse_duration(text: str) -> timedelta:
    """Return the duration written as weeks, days, hours and minutes, in that order: ``1d6h``, ``30m``, ``2w``.

    Raises :class:`BadDuration` naming the text when it has another form,
    is zero, or is longer than :data:`MAX_EXTENSION`.
    """
    found = _DURATION.fullmatch(text.strip())
    if found is None or not any(found.groups()):
        raise BadDuration(f'"{text}" is not a duration: write for example 2d, 12h, 1d6h or 30m')
    weeks, days, hours, minutes = (int(value or 0) for value in found.groups())
    duration = timedelta(weeks=weeks, days=days, hours=hours, minutes=minutes)
    if duration <= timedelta(0):
        raise BadDuration(f'"{text}" is no time at all: give a duration longer than zero')
    if duration > MAX_EXTENSION:
        raise BadDuration(f'"{text}" is too long: at most {MAX_EXTENSION.days} days')
    return duration


_WHEN = re.compile(
    r"(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})"
    r"(?:(?:T|\s+)(?P<hour>\d{1,2}):(?P<minute>\d{2})(?::(?P<second>\d{2}))?)?"
    r"\s*(?P<zone>Z|UTC|GMT|[+-]\d{2}:?\d{2}|[A-Za-z][A-Za-z0-9_+-]*/[A-Za-z0-9_+/-]+)?",
    re.I,
)


def parse_when(text: str) -> datetime:
    """Return the moment written as an ISO-like date and time, in UTC.

    Accepts ``2026-11-25 18:00`` (UTC), ``2026-11-25T18:00Z``, seconds, and
    a zone ``Z``, ``UTC``, ``GMT``, ``+01:00`` or an IANA name such as
    ``Europe/Berlin`` (the local time there on that day, daylight saving
    time included; converted to UTC). Raises :class:`BadDateTime` naming the
    text when it has another form, has no time of day, names a day or time
    that does not exist (also a local time skipped when the clocks go
    forward), a local time that happens twice (when they go back: the
    message asks for the offset), or an unknown zone.
    """
    found = _WHEN.fullmatch(text.strip())
    if found is None:
        raise BadDateTime(
            f'"{text}" is not a date and time: write for example 2026-11-25 18:00 (UTC) or 2026-11-25T18:00Z'
        )
    year, month, day = int(found["year"]), int(found["month"]), int(found["day"])
    if not in_years(year):
        raise BadDateTime(f'"{text}": give a date in the years {FIRST_YEAR} to {LAST_YEAR}')
    try:
        date(year, month, day)
    except ValueError:
        raise BadDateTime(f'"{text}": there is no day {year}-{month:02}-{day:02}') from None
    if found["hour"] is None:
        raise BadDateTime(f'"{text}" has no time of day: write for example {year}-{month:02}-{day:02} 18:00')
    hour, minute, second = int(found["hour"]), int(found["minute"]), int(found["second"] or 0)
    if hour > 23 or minute > 59 or second > 59:
        raise BadDateTime(f'"{text}": there is no time of day {hour:02}:{minute:02}:{second:02}')
    zone = found["zone"]
    if zone is not None and "/" in zone:
        return _local_time(text, datetime(year, month, day, hour, minute, second), zone)
    return datetime(year, month, day, hour, minute, second, tzinfo=_zone(text, zone)).astimezone(UTC)


def _local_time(text: str, local: datetime, zone_name: str) -> datetime:
    """The UTC moment of the wall-clock time ``local`` in the IANA zone ``zone_name``, refusing a time
    that does not exist there or happens twice."""
    try:
        zone = read_zone(zone_name)
    except BadZone as error:
        raise BadDateTime(f'"{text}": {error}') from None
    first, second = local.replace(tzinfo=zone, fold=0), local.replace(tzinfo=zone, fold=1)
    moment = first.astimezone(UTC)
    if moment.astimezone(zone).replace(tzinfo=None) != local:
        raise BadDateTime(f'"{text}": there is no {local:%H:%M} on {local:%Y-%m-%d} in {zone.key} (the clocks '
                          "go forward then)")
    if first.utcoffset() != second.utcoffset():
        offsets = " or ".join(_offset(d) for d in (first, second))
        raise BadDateTime(f'"{text}": {local:%H:%M} happens twice on {local:%Y-%m-%d} in {zone.key} (the clocks '
                          f"go back then); write the offset instead of the zone: {offsets}")
    return moment


def _offset(moment: datetime) -> str:
    offset = moment.utcoffset()
    assert offset is not None
    minutes = int(offset.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    return f"{moment:%Y-%m-%d %H:%M} {sign}{abs(minutes) // 60:02}:{abs(minutes) % 60:02}"


def _zone(text: str, zone: str | None) -> timezone:
    if zone is None or zone.upper() in ("Z", "UTC", "GMT"):
        return UTC
    sign = -1 if zone[0] == "-" else 1
    digits = zone[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:])
    if hours > 14 or minutes > 59:
        raise BadDateTime(f'"{text}": there is no time zone {zone}')
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


# --- what a script is made of --------------------------------------------------------------


@dataclass(frozen=True)
class TextLine:
    """A line of free text (an order or a line of press) and its line number in the mail."""

    number: int
    text: str


@dataclass(frozen=True)
class TextBlock:
    """Lines of free text in mail order."""

    lines: tuple[TextLine, ...] = ()

    @property
    def is_empty(self) -> bool:
        """True when the block has no lines."""
        return not self.lines

    @property
    def text(self) -> str:
        """The lines joined with newlines."""
        return "\n".join(line.text for line in self.lines)

    @property
    def numbered_text(self) -> str:
        """The lines as one text whose line k is line k of the mail (other lines blank).

        Parse this with the game's order parser and its line numbers are the
        numbers the player sees in the mail.
        """
        numbered = [""] * (self.lines[-1].number if self.lines else 0)
        for line in self.lines:
            numbered[line.number - 1] = line.text
        return "\n".join(numbered)


@dataclass(frozen=True)
class SetZone:
    """SET ZONE <IANA name>: deadlines in mail to the sender's address are shown in that zone, with UTC beside."""

    line: int
    zone: str


@dataclass(frozen=True)
class SetPreference:
    """SET DIGEST|TEXTONLY|PRESS ON|OFF: how mail to the sender's address is made (report digests,
    text only, press from other players)."""

    line: int
    name: str  # digest | textonly | press
    on: bool


@dataclass(frozen=True)
class Observe:
    """OBSERVE <game> | UNOBSERVE <game>: follow a game's public reports (``on``), or stop."""

    line: int
    game: str
    on: bool = True


@dataclass(frozen=True)
class Absent:
    """ABSENT <from> [<to>] (after SIGNON): the seat is away on those days (whole days, in the sender's
    time zone); without <to>, one day. Dates as YYYY-MM-DD."""

    line: int
    starts: date
    ends: date


@dataclass(frozen=True)
class Back:
    """BACK (after SIGNON): the seat's absences end now."""

    line: int


@dataclass(frozen=True)
class Preview:
    """PREVIEW (GM): a dry run of the current turn, every seat's report mailed to the GM."""

    line: int


@dataclass(frozen=True)
class Rollback:
    """ROLLBACK <turn> [<code>] (GM): without the code, ask for one (mailed to the GM's address); with
    it, return the game to the start of that turn."""

    line: int
    turn: int
    code: str | None


@dataclass(frozen=True)
class Status:
    """STATUS [game]: the state of a game (in a session, the session's game by default)."""

    line: int
    game: str | None


@dataclass(frozen=True)
class Report:
    """REPORT [<game>] [<turn>]: the reader's newest report (or the one that told ``turn``) mailed again, as
    it was sent (in a session, or with the subject's tag, the game can be left out)."""

    line: int
    game: str | None
    turn: int | None


@dataclass(frozen=True)
class Salt:
    """SALT <text>: a player's entropy, mixed into the seed of a forming game at START."""

    line: int
    text: str


@dataclass(frozen=True)
class Verify:
    """VERIFY <game>: recompute every draw of a game whose seed is revealed."""

    line: int
    game: str


@dataclass(frozen=True)
class Reveal:
    """REVEAL (GM): end the game and reveal its seed."""

    line: int


@dataclass(frozen=True)
class Secrets:
    """SECRETS (GM): mail the GM every seat's view of the current turn (logged)."""

    line: int


@dataclass(frozen=True)
class Help:
    """HELP [kind]: the command reference, or a game kind's order syntax (in a session: the session's game)."""

    line: int
    kind: str | None


@dataclass(frozen=True)
class ShowOrders:
    """ORDERS: send back the seat's current orders."""

    line: int


@dataclass(frozen=True)
class Ready:
    """READY: the seat's standing orders (none: an empty set) are final; the turn need not wait for it."""

    line: int


@dataclass(frozen=True)
class NoOrders:
    """NOORDERS: withdraw the seat's orders for this turn on purpose (it holds)."""

    line: int


@dataclass(frozen=True)
class Resign:
    """RESIGN: leave the game."""

    line: int


@dataclass(frozen=True)
class Draw:
    """DRAW: propose a draw among the seats still playing, or agree to the one proposed (secretly)."""

    line: int


@dataclass(frozen=True)
class NoDraw:
    """NODRAW: withdraw the seat's DRAW (or CONCEDE) of this turn."""

    line: int


@dataclass(frozen=True)
class Concede:
    """CONCEDE: in a cooperative game, propose that the team gives up, or agree to it (secretly)."""

    line: int


@dataclass(frozen=True)
class Press:
    """PRESS seat... | PRESS ALL: relay ``text``, tagged with the sender's seat (or GM)."""

    line: int
    to: tuple[str, ...]
    text: TextBlock = TextBlock()

    @property
    def is_broadcast(self) -> bool:
        """True for PRESS ALL."""
        return self.to == ("all",)


@dataclass(frozen=True)
class StartGame:
    """START: start the game."""

    line: int


@dataclass(frozen=True)
class SetDeadline:
    """DEADLINE when: the deadline of the current turn, in UTC."""

    line: int
    when: datetime


@dataclass(frozen=True)
class Extend:
    """EXTEND duration: move the current deadline later."""

    line: int
    by: timedelta


@dataclass(frozen=True)
class Pause:
    """PAUSE: stop the clock; no deadline passes until RESUME."""

    line: int


@dataclass(frozen=True)
class Resume:
    """RESUME: restart the clock after PAUSE."""

    line: int


@dataclass(frozen=True)
class Replace:
    """REPLACE seat address: hand a seat to a new player; the old player's reply addresses stop working."""

    line: int
    seat: str
    address: str


@dataclass(frozen=True)
class AssignSeat:
    """SEAT seat address: give an open seat to a player before the start."""

    line: int
    seat: str
    address: str


@dataclass(frozen=True)
class SetOptions:
    """SET option=value ...: change game options before the start."""

    line: int
    options: Mapping[str, str]


@dataclass(frozen=True)
class ProcessTurn:
    """PROCESS: resolve the current turn now, with default orders for the missing."""

    line: int


@dataclass(frozen=True)
class ShowLog:
    """LOG (GM): the game's audit log, every GM action and automatic decision with time and actor."""

    line: int


@dataclass(frozen=True)
class EndGame:
    """END: end the game now."""

    line: int


SessionCommand = (ShowOrders | Ready | NoOrders | Resign | Absent | Back | Press | Help | Status | Report | Draw | NoDraw
                  | Concede)
"""What a seat session may hold besides its orders."""

GmCommand = (
    StartGame
    | SetDeadline
    | Extend
    | Pause
    | Resume
    | Replace
    | AssignSeat
    | SetOptions
    | ProcessTurn
    | EndGame
    | Reveal
    | Secrets
    | ShowLog
    | Preview
    | Rollback
    | SetZone
    | SetPreference
    | Press
    | Help
    | Status
    | Report
)
"""What a GM session may hold."""


@dataclass(frozen=True)
class SeatSession:
    """SIGNON game seat password, or a reply to a reply-token address, and what follows it.

    For a token reply ``line`` is 0 and ``game``, ``seat`` and ``password``
    are ``None`` (the token says who it is). ``orders`` replace the seat's
    orders when the session has any and ``check`` is false; with ``check``
    they are only checked. ``commands`` run in mail order.
    """

    line: int
    game: str | None
    seat: str | None
    password: str | None
    check: bool = False
    orders: TextBlock = TextBlock()
    commands: tuple[SessionCommand, ...] = ()
    check_line: TextLine | None = None
    """The CHECK line of a session with ``check``: in a game whose rule book uses CHECK as an
    order word, a session whose only line it is holds that order instead."""

    @property
    def is_token_reply(self) -> bool:
        """True when the seat comes from the reply token, not from a SIGNON line."""
        return self.game is None


@dataclass(frozen=True)
class CheckOrders:
    """CHECK kind and the order lines after it: a syntax check against a game kind, for anyone."""

    line: int
    kind: str
    orders: TextBlock = TextBlock()


@dataclass(frozen=True)
class GmSession:
    """GM game password and the GM commands after it."""

    line: int
    game: str
    password: str
    commands: tuple[GmCommand, ...] = ()


@dataclass(frozen=True)
class CreateGame:
    """CREATE kind game [option=value ...] and the GM commands after it, run as the new game's GM."""

    line: int
    kind: str
    game: str
    options: Mapping[str, str]
    commands: tuple[GmCommand, ...] = ()


Command = SetZone | SetPreference | Observe | ParsedCommand | Status | Help | SeatSession | CheckOrders | GmSession | CreateGame | Salt | Verify | Report
"""What a script holds at its top level."""


@dataclass(frozen=True)
class CommandProblem:
    """A command line that could not be read or is not allowed where it stands."""

    line: int
    column: int
    text: str
    message: str


MAX_COMMANDS = 100
"""Commands read from one mail (each command line counts, GM and session commands too)."""
MAX_PROBLEMS = 25
"""Bad command lines reported from one mail; reading stops at the next one."""
MAX_ORDER_LINES = 300
"""Order (and CHECK) lines read for one session."""
MAX_REPORT_TURN = 999_999
"""Highest turn number REPORT reads (no game gets near it)."""
MAX_LINE_LENGTH = 1000
"""Longest line read, in characters; a longer line is refused unread."""


@dataclass(frozen=True)
class Script:
    """The commands of one mail in mail order, and the problems of its bad command lines.

    ``stopped`` says why reading stopped before the end of the mail (one of
    the per-mail limits above was reached), or is empty when it was read whole.
    """

    commands: tuple[Command, ...]
    problems: tuple[CommandProblem, ...]
    stopped: str = ""

    @property
    def has_problems(self) -> bool:
        """True when any command line had a problem."""
        return bool(self.problems)

    @property
    def is_empty(self) -> bool:
        """True when the mail held neither commands nor problems (nothing to act on)."""
        return not self.commands and not self.problems


# --- reading a mail ------------------------------------------------------------------------


_BLANK = re.compile(r"[^\S\n]")


def parse_script(body: str, *, token_seat: bool = False, game: str | None = None,
                 is_order: Callable[[str], bool] | None = None) -> Script:
    """Read a cleaned mail body into a :class:`Script`; never raises for bad input.

    With ``token_seat`` (the mail answers a reply-token address) the body
    starts inside a seat session, so it is orders, unless its first line is
    a command that opens a mail (:data:`OPENING_WORDS`) and is not one of
    :data:`RESERVED_WORDS`; an empty token
    session is left out. ``game`` is the game the subject names with a tag
    such as ``[tc-1]``: it stands in for the game name that a ``STATUS`` or
    a ``SIGNON <seat> <password>`` line leaves out. Line numbers count the
    lines of ``body`` from 1; any blank other than a newline (tab, no-break
    space, ...) counts as a space, so columns stay where they are.
    ``is_order`` says whether a line is an order of the tagged game: such a
    line outside a session, which is no command that may stand there, is
    refused with the hint of where orders go (also when its first word is a
    command word too, such as Harvest Day's REVEAL).
    """
    lines = _BLANK.sub(" ", body.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    first = next((line.strip() for line in lines if line.strip()), "")
    first_word = _keyword_of(first)
    starts_in_session = token_seat and (first_word not in OPENING_WORDS or first_word in RESERVED_WORDS)
    builder = _ScriptBuilder(token_session=starts_in_session, game=game, is_order=is_order)
    for number, line in enumerate(lines, start=1):
        budget.check()
        builder.feed(number, line)
        if builder.stopped:
            break
    return builder.finish()


@cache
def keywords() -> frozenset[str]:
    """Return every command keyword of the grammar, upper case."""
    names = (terminal.name for terminal in _parser().terminals)
    return frozenset(name[1:] for name in names if name.startswith("_") and name[1:].isalpha())


@cache
def help_text() -> str:
    """Return the command reference sent in reply to HELP without a game kind. A registered command's
    lines stand where the text marks its place (``{rule}``), else with the other registered commands
    at the end of the players' list (``{registered}``), in the registry's order."""
    from pbem.mail.commands.registry import COMMANDS

    text, unplaced = _HELP, []
    for command in COMMANDS:
        place = "{" + command.rule + "}"
        if place in text:
            text = text.replace(place, command.help)
        else:
            unplaced.append(command.help)
    return text.replace("{registered}", "".join(unplaced))


def report_help() -> str:
    """Return the answer to HELP REPORT: what REPORT sends, to whom, and its bounds."""
    return _REPORT_HELP


_REPORT_HELP = """\
REPORT: a report of your game mailed to you again, made as it was sent: the
same text, pictures and attachments, your own view (your secrets, nobody
else's). A seat's holder gets the seat's report; the GM and observers get the
public report.

  REPORT                 in a reply to a game mail, or after SIGNON <game>
                         <seat> <password>: your newest report
  REPORT <n>             the report that told turn n (0: the opening report);
                         a turn not played yet is refused, naming the turns
                         there are
  REPORT <game> [<n>]    from the address that holds the seat (or the GM's or
                         an observer's address); in a mail whose subject names
                         the game as [game], REPORT alone will do

The report goes to the reader's own address in a mail of its own; the reply
says so. One REPORT is answered per mail: a second one in the same mail is
refused on its line. An older report shows no deadline (its deadline is gone);
replying to it with orders is refused as stale: reply to the newest one.
"""


_HELP = """\
pbem commands: one per line, in any letter case.

Players
{join}  SIGNON <game> <seat> <password>  the lines after it, up to SIGNOFF or the end of the mail,
                                   are your orders for this turn; they replace those sent before
  CHECK                            on the line right after SIGNON: check the orders, store nothing
  CHECK <kind>                     check the lines after it against a game kind's order syntax
  ORDERS                           (after SIGNON) send back your current orders
  READY                            (after SIGNON) your orders are final: the turn need not wait
                                   for you (even a game that resolves only at its deadline)
  NOORDERS                         (after SIGNON) withdraw your orders for this turn: you hold
  PRESS <seat> [<seat> ...]        (after SIGNON) the lines after it, up to ENDPRESS or SIGNOFF,
  PRESS ALL                        are sent to those players (or all), signed with your seat
                                   (refused while a phase forbids press between players); the
                                   GM gets a copy unless the game has gm_press=none (HELP PRESS)
  RESIGN                           (after SIGNON) leave the game
  DRAW                             (after SIGNON) propose a draw among the seats still playing, or
                                   agree to the one proposed: when all agree within one turn the
                                   game ends as a draw. Votes are secret; the others hear only that
                                   a draw was proposed. Not in a game whose rules forbid it (HELP
                                   <kind> says, HELP GAMES lists them)
  CONCEDE                          (after SIGNON) in a cooperative game: propose that the team gives
                                   up, or agree to it: when the whole team agrees within one turn,
                                   the game ends as a defeat
  NODRAW                           (after SIGNON) withdraw your DRAW (or CONCEDE) of this turn
  ABSENT <from> [<to>]             (after SIGNON) you are away those days (2026-12-20 2026-12-28,
                                   in your zone): deadlines falling in them move to a day after
                                   your return, up to the game's absence_days
  BACK                             (after SIGNON) you are back: your absences end now
{standby}{accept}{decline}  STATUS <game>                    the state of a game (after SIGNON: of your game; in a team
                                   step also your teammates' stored orders, as in the reply
                                   to your orders)
  SALT <text>                      before the start, from a seat's address: your entropy, mixed
                                   into the game's seed at START (game from the subject tag
                                   or the one forming game you joined)
  VERIFY <game>                    after the seed is revealed: recompute every die and draw
  REPORT [<n>]                     (in a reply to a game mail, or after SIGNON) your newest report
                                   mailed again, as it was sent; REPORT <n>: the report of turn n
  REPORT <game> [<n>]              the same from your address (the game from the subject's tag
                                   may be left out); HELP REPORT tells more
  HELP [<kind>]                    this text, or the order syntax of a game kind
  HELP GAMES                       the game kinds hosted, and the games that are not (and why)
  HELP PRESS                       press between players, and who reads it
{view_json}  SET ZONE <zone>                  show deadlines in mail to your address in this time zone
                                   (an IANA name such as Europe/Berlin), with UTC beside;
                                   SET ZONE UTC for UTC alone
  SET DIGEST ON | OFF              ON: a turn report only when you owe orders, at the end, or
                                   once the game's digest_hours passed, covering every turn
                                   since your last; OFF: every report (either overrides the
                                   game's reports= choice)
  SET TEXTONLY ON | OFF            ON: mail to you is plain text, no HTML part and no picture
  SET PRESS OFF | ON               OFF: no press from other players (the GM's still arrives)
  OBSERVE <game>                   follow a game's public reports (UNOBSERVE <game> stops it)
{registered}  SIGNOFF                          end of your orders (or of a GM session)

pbem writes only to addresses that wrote to it. An address a GM seats that
never wrote gets one invitation: a reply to it (or JOIN <game>) accepts, and
DECLINE (or DECLINE <game>) leaves the seat open for another player.

Replying to a mail of your game that asks for orders (a turn report, a
reminder, the reply that checked your orders) signs you on: the text of your
reply is your orders. Start it with CHECK to have them checked and not stored.
A plain reply to a notice goes to the GM as press, to a press mail back to its
author, never as orders.
Among orders, a line starting with SIGNON, SIGNOFF, CHECK, ORDERS, READY,
NOORDERS, RESIGN, DRAW, NODRAW, CONCEDE, PRESS, ENDPRESS, HELP, STATUS, REPORT,
ABSENT, BACK or GM is a command; every other line is an order. A mail none of whose order lines is accepted changes
nothing: your earlier orders stand.

Leagues (docs/leagues.md)
{league}
Game masters
  CREATE <kind> <game> [<option>=<value> ...]  create a game; the reply gives its GM password
  GM <game> <gm-password>          sign on as the game's GM; GM commands follow
  SEAT <seat> <address>            give a seat to a player before the start
  SET <option>=<value> ...         change how the service runs the game, before the start or
                                   during it: turn_hours, resolve=early|deadline, delay_minutes,
                                   reminder_hours, grace_hours, reports=each|digest, digest_hours,
                                   gm_press=copy|none (whether you get a copy of press between
                                   players; the players are told)
  START                            start the game
  DEADLINE <date> <time> [<zone>]  the deadline of this turn, in UTC (2026-11-25 18:00 or
                                   2026-11-25T18:00Z), or local time in a zone:
                                   2026-11-25 19:00 Europe/Berlin
  EXTEND <duration>                move the deadline later: 2d, 12h, 1d6h, 30m
  PAUSE                            stop the clock
  RESUME                           restart the clock
  PROCESS                          resolve the turn now
  REPLACE <seat> <address>         hand a seat to a new player
  PRESS <seat> ... | PRESS ALL     a message to players, signed GM (always goes through)
  END                              end the game now
  REVEAL                           end the game and reveal its seed, so players can VERIFY it
                                   (a game that keeps its seed secret only ends)
  SECRETS                          mail the GM's address every seat's view of this turn, its
                                   secrets included (logged; your other mail shows only the
                                   public report)
  LOG                              the game's audit log: every GM action and automatic decision
  PREVIEW                          a dry run of this turn (standing orders, NMR defaults, the
                                   real dice): every seat's report mailed to you, nothing changed
  ROLLBACK <turn> [<code>]         return the game to the start of that turn: without the code,
                                   a confirmation code is mailed to you; send it to confirm

Lines starting with # between commands are comments.
"""


@cache
def _parser() -> Lark:
    """The command grammar: pbem/grammars/commands.lark and the fragment of every registered command."""
    from pbem.mail.commands.registry import COMMANDS

    path = grammar_dir() / "commands.lark"
    fragments = "".join(f"\n%extend command: {command.rule}\n{command.grammar}" for command in COMMANDS)
    return Lark(path.read_text(encoding="utf-8") + fragments, parser="lalr", cache=True, source_path=str(path))


@cache
def _transformer() -> type[_LineTransformer]:
    """The line transformer with a method for every registered command's rule (its ``build``)."""
    from pbem.mail.commands.registry import COMMANDS

    return type("_RegisteredLineTransformer", (_LineTransformer,),
                {command.rule: _built_by(command.build) for command in COMMANDS})


def _built_by(build: Callable[[int, list[Token]], ParsedCommand]) -> Callable[[_LineTransformer, list[Token]], _Parsed]:
    def method(self: _LineTransformer, children: list[Token]) -> _Parsed:
        return build(self.number, children)

    return method


_FIRST_WORD = re.compile(r"[A-Za-z]+(?![A-Za-z0-9_-])")


def _keyword_of(text: str) -> str | None:
    """The command keyword a (stripped) line starts with, upper case, or None."""
    found = _FIRST_WORD.match(text)
    word = found.group(0).upper() if found else None
    return word if word in keywords() else None


@dataclass(frozen=True)
class _Marker:
    """A command line that only steers the reading: SIGNOFF, ENDPRESS, or CHECK without a kind."""

    line: int
    word: str


class LineError(Exception):
    """A command line that parsed but holds a bad value, or did not parse: the message and its column."""

    def __init__(self, message: str, column: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


_Parsed = Command | SessionCommand | GmCommand | _Marker


class _LineTransformer(Transformer[Token, _Parsed]):
    """Builds the command of one line; bad values raise :class:`LineError` with their column."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number

    def start(self, children: list[_Parsed]) -> _Parsed:
        return children[0]

    def signon(self, children: list[Token]) -> SeatSession:
        game, seat, password = children
        return SeatSession(self.number, _name(game), _name(seat), str(password))

    def signoff(self, children: list[Token]) -> _Marker:
        return _Marker(self.number, "SIGNOFF")

    def check(self, children: list[Token]) -> CheckOrders | _Marker:
        return CheckOrders(self.number, _name(children[0])) if children else _Marker(self.number, "CHECK")

    def status(self, children: list[Token]) -> Status:
        return Status(self.number, _name(children[0]) if children else None)

    def orders(self, children: list[Token]) -> ShowOrders:
        return ShowOrders(self.number)

    def salt(self, children: list[Token]) -> Salt:
        return Salt(self.number, str(children[0]).strip())

    def report(self, children: list[Token]) -> Report:
        words = [str(child) for child in children]
        turn = int(words.pop()) if words and words[-1].isdigit() else None
        if words and words[0].isdigit():
            raise LineError("write REPORT [<game>] [<turn>]: the game first, then the turn", children[0].column)
        if len(words) > 1:
            raise LineError(f'"{words[1]}" is not a turn number', children[1].column)
        if turn is not None and turn > MAX_REPORT_TURN:
            raise LineError(f"there is no turn {turn}", children[-1].column)
        return Report(self.number, _name(children[0]) if words else None, turn)

    def verify(self, children: list[Token]) -> Verify:
        return Verify(self.number, _name(children[0]))

    def reveal(self, children: list[Token]) -> Reveal:
        return Reveal(self.number)

    def secrets(self, children: list[Token]) -> Secrets:
        return Secrets(self.number)

    def set_zone(self, children: list[Token]) -> SetZone:
        try:
            return SetZone(self.number, read_zone(str(children[0])).key)
        except BadZone as error:
            raise LineError(str(error), children[0].column) from None

    def set_preference(self, children: list[Token]) -> SetPreference:
        return SetPreference(self.number, str(children[0]).lower(), str(children[1]).lower() == "on")

    def observe(self, children: list[Token]) -> Observe:
        return Observe(self.number, _name(children[0]))

    def unobserve(self, children: list[Token]) -> Observe:
        return Observe(self.number, _name(children[0]), on=False)

    def absent(self, children: list[Token]) -> Absent:
        days = str(children[0]).split()
        try:
            if len(days) > 2:
                raise ValueError
            starts, ends = (date.fromisoformat(day) for day in (days[0], days[-1]))
        except ValueError:
            raise LineError(f'"{children[0]}": give the first and last day away, such as 2026-12-20 2026-12-28',
                             children[0].column) from None
        if not (in_years(starts.year) and in_years(ends.year)):
            raise LineError(f'"{children[0]}": give days in the years {FIRST_YEAR} to {LAST_YEAR}', children[0].column)
        if ends < starts:
            raise LineError("the last day away comes before the first", children[0].column)
        return Absent(self.number, starts, ends)

    def back(self, children: list[Token]) -> Back:
        return Back(self.number)

    def preview(self, children: list[Token]) -> Preview:
        return Preview(self.number)

    def rollback(self, children: list[Token]) -> Rollback:
        return Rollback(self.number, int(children[0]), str(children[1]).lower() if len(children) > 1 else None)

    def log(self, children: list[Token]) -> ShowLog:
        return ShowLog(self.number)

    def help(self, children: list[Token]) -> Help:
        return Help(self.number, _name(children[0]) if children else None)

    def ready(self, children: list[Token]) -> Ready:
        return Ready(self.number)

    def noorders(self, children: list[Token]) -> NoOrders:
        return NoOrders(self.number)

    def resign(self, children: list[Token]) -> Resign:
        return Resign(self.number)

    def draw(self, children: list[Token]) -> Draw:
        return Draw(self.number)

    def nodraw(self, children: list[Token]) -> NoDraw:
        return NoDraw(self.number)

    def concede(self, children: list[Token]) -> Concede:
        return Concede(self.number)

    def press(self, children: list[Token]) -> Press:
        targets = tuple(_name(target) for target in children)
        if "all" in targets and len(targets) > 1:
            raise LineError("PRESS ALL goes to everyone: name no seats beside ALL", children[0].column)
        if len(set(targets)) < len(targets):
            raise LineError("a seat is named twice", children[0].column)
        return Press(self.number, targets)

    def endpress(self, children: list[Token]) -> _Marker:
        return _Marker(self.number, "ENDPRESS")

    def gm(self, children: list[Token]) -> GmSession:
        game, password = children
        return GmSession(self.number, _name(game), str(password))

    def create(self, children: list[Any]) -> CreateGame:
        kind, game, *options = children
        if len(game) > MAX_GAME_NAME:
            raise LineError(f'the game name "{game}" is too long: at most {MAX_GAME_NAME} characters', game.column)
        return CreateGame(self.number, _name(kind), _name(game), _options(options))

    def start_game(self, children: list[Token]) -> StartGame:
        return StartGame(self.number)

    def deadline(self, children: list[Token]) -> SetDeadline:
        try:
            return SetDeadline(self.number, parse_when(children[0]))
        except BadDateTime as error:
            raise LineError(str(error), children[0].column) from None

    def extend(self, children: list[Token]) -> Extend:
        try:
            return Extend(self.number, parse_duration(children[0]))
        except BadDuration as error:
            raise LineError(str(error), children[0].column) from None

    def pause(self, children: list[Token]) -> Pause:
        return Pause(self.number)

    def resume(self, children: list[Token]) -> Resume:
        return Resume(self.number)

    def replace(self, children: list[Token]) -> Replace:
        return Replace(self.number, _name(children[0]), _address(children[1]))

    def process(self, children: list[Token]) -> ProcessTurn:
        return ProcessTurn(self.number)

    def end(self, children: list[Token]) -> EndGame:
        return EndGame(self.number)

    def seat(self, children: list[Token]) -> AssignSeat:
        return AssignSeat(self.number, _name(children[0]), _address(children[1]))

    def set(self, children: list[tuple[Token, Token]]) -> SetOptions:
        return SetOptions(self.number, _options(children))

    def option(self, children: list[Token]) -> tuple[Token, Token]:
        return children[0], children[1]


def _name(token: Token) -> str:
    return str(token).lower()


def _address(token: Token) -> str:
    return address_text(str(token), token.column)


def address_text(text: str, column: int | None) -> str:
    """A mail address on a command line, checked (see :func:`pbem.addresses.checked_address`); raises
    :class:`LineError` at ``column`` for one pbem does not take."""
    try:
        return checked_address(text.strip("<>"))
    except InvalidInput as error:
        raise LineError(str(error), column) from None


def _options(pairs: list[tuple[Token, Token]]) -> dict[str, str]:
    options: dict[str, str] = {}
    for key, value in pairs:
        name = str(key).lower()
        if name in options:
            raise LineError(f'the option "{name}" is given twice', key.column)
        options[name] = str(value)
    return options


def _parse_line(number: int, text: str) -> _Parsed:
    """The command on one line; raises :class:`LineError` when it cannot be read."""
    try:
        tree = _parser().parse(text)
        return _transformer()(number).transform(tree)
    except UnexpectedInput as error:
        problem = describe_syntax_error(error, text, _terminal_word)
        raise LineError(problem.message, problem.column) from None
    except VisitError as error:
        if isinstance(error.orig_exc, LineError):
            raise error.orig_exc from None
        raise


_TERMINAL_WORDS: Mapping[str, str] = {
    "GAME": "a game name such as tc-1",
    "SEAT": "a seat",
    "KIND": "a game kind such as turkey-chase",
    "TARGET": "a seat or ALL",
    "PLAYER": "a player name such as alice",
    "SWITCH": "ON or OFF",
    "PASSWORD": "a password",
    "WHEN": "a date and time such as 2026-11-25 18:00",
    "DURATION": "a duration such as 2d or 12h",
    "ADDRESS": "a mail address",
    "SALT_TEXT": "some text of your own",
    "ZONE_NAME": "a time zone such as Europe/Berlin",
    "TURN": "a turn number",
    "REPORT_ARG": "a game name or a turn number",
    "CODE": "the confirmation code mailed to you",
    "PREFERENCE": "DIGEST, TEXTONLY or PRESS",
    "OPTION": "an option such as players=4",
    "LEAGUE_VERB": "CREATE, JOIN, START, STANDINGS, REPLACE, DROP or END",
    "LEAGUE_WORD": "a league name",
    "VALUE": "a value after =",
    "EQUAL": '"="',
}


def _terminal_word(name: str) -> str:
    """Name a terminal of commands.lark: its word, or a keyword (``_JOIN``) as ``JOIN``."""
    return _TERMINAL_WORDS.get(name, keyword_word(name.lstrip("_")))


_Mode = Literal["seat", "check", "gm"]


@dataclass
class _Block:
    """A block being read. ``head`` is None when its opening line was bad: its lines are dropped."""

    mode: _Mode
    head: SeatSession | CheckOrders | GmSession | CreateGame | None
    index: int
    orders: list[TextLine] = field(default_factory=list)
    commands: list[SessionCommand | GmCommand] = field(default_factory=list)
    check: TextLine | None = None
    fresh: bool = True


@dataclass
class _PressBlock:
    """A PRESS being read, and the session it belongs to; both None when the PRESS line was bad or not allowed."""

    head: Press | None
    owner: _Block | None
    text: str
    lines: list[TextLine] = field(default_factory=list)


_SHORT_SIGNON = re.compile(r"signon\s+([a-z0-9][a-z0-9-]*)\s+(\S+)", re.I)
"""``SIGNON <seat> <password>``: the game comes from the subject tag."""


class _ScriptBuilder:
    """The line-by-line reader behind :func:`parse_script`."""

    def __init__(self, *, token_session: bool, game: str | None, is_order: Callable[[str], bool] | None) -> None:
        self.game = game
        self.is_order = is_order
        self.commands: list[Command | None] = []
        self.problems: list[CommandProblem] = []
        self.block: _Block | None = None
        self.press: _PressBlock | None = None
        self.stopped = ""
        self._command_count = 0
        if token_session:
            self._open("seat", SeatSession(0, None, None, None))

    def feed(self, number: int, line: str) -> None:
        text = line.rstrip()
        stripped = text.strip()
        if len(stripped) > MAX_LINE_LENGTH:
            self._problem(number, None, text[:80], f"the line is {len(stripped):,} characters long; lines of more "
                                                   f"than {MAX_LINE_LENGTH:,} are not read")
            return
        if self.press is not None:
            self._press_line(self.press, number, text, stripped.upper())
            return
        if not stripped:
            return
        word = _keyword_of(stripped)
        block = self.block
        if block is not None and block.mode != "gm" and word not in RESERVED_WORDS:
            if len(block.orders) >= MAX_ORDER_LINES:
                self._stop(f"line {number}: more than {MAX_ORDER_LINES} order lines; the rest of the mail was not read")
                return
            block.orders.append(TextLine(number, text))
            block.fresh = False
            return
        if stripped.startswith("#"):
            return
        if word is None:
            self._unknown(number, text)
            return
        self._command_count += 1
        if self._command_count > MAX_COMMANDS:
            self._stop(f"line {number}: more than {MAX_COMMANDS} commands in one mail; the rest was not read")
            return
        short = _SHORT_SIGNON.fullmatch(stripped) if self.game is not None else None
        try:
            parsed = SeatSession(number, self.game, short[1].lower(), short[2]) if short else _parse_line(number, text)
        except LineError as error:
            if self._is_stray_order(text):
                self._problem(number, None, text, self._order_hint(text))
                return
            self._problem(number, error.column, text, error.message)
            self._open_dropped(word, text)
            return
        self._apply(parsed, word, text)
        if block is not None and block is self.block:
            block.fresh = False

    def finish(self) -> Script:
        if self.press is not None:
            self._close_press()
        self._close()
        return Script(tuple(command for command in self.commands if command is not None), tuple(self.problems),
                      self.stopped)

    def _stop(self, reason: str) -> None:
        """Stop reading the mail: a per-mail limit was reached."""
        self.stopped = reason

    def _apply(self, parsed: _Parsed, word: str, text: str) -> None:
        block = self.block
        mode = block.mode if block is not None else None
        line = parsed.line
        match parsed:
            case SeatSession():
                self._open("seat", parsed)
            case CheckOrders():
                self._open("check", parsed)
            case GmSession() | CreateGame():
                self._open("gm", parsed)
            case _Marker(word="SIGNOFF"):
                self._close()
            case _Marker(word="ENDPRESS"):
                self._problem(line, None, text, "ENDPRESS without a PRESS before it")
            case _Marker(word="CHECK"):
                self._bare_check(line, text)
            case Observe() | ParsedCommand():
                self._close()
                self.commands.append(parsed)
            case SetZone() | SetPreference() if block is None:
                self.commands.append(parsed)
            case Status() | Help() | Report() if block is not None and mode in ("seat", "gm"):
                block.commands.append(parsed)
            case Status(game=None) | Report(game=None) if self.game is None:
                self._problem(line, None, text, f"{word} needs a game name here, for example {word} tc-1")
            case Status() | Help() | Verify() | Salt() | Report():
                self.commands.append(parsed)
            case (ShowOrders() | Ready() | NoOrders() | Resign() | Absent() | Back() | Draw() | NoDraw()
                  | Concede()) if block is not None and mode == "seat":
                block.commands.append(parsed)
            case ShowOrders() | Ready() | NoOrders() | Resign() | Absent() | Back() | Draw() | NoDraw() | Concede():
                self._problem(line, None, text, f"{word} needs SIGNON <game> <seat> <password> before it")
            case Press() if block is not None and mode in ("seat", "gm"):
                self.press = _PressBlock(parsed, block, text)
            case Press():
                self._problem(line, None, text, "PRESS needs SIGNON (or GM) before it")
                self.press = _PressBlock(None, None, text)
            case _ if block is not None and mode == "gm":
                block.commands.append(parsed)  # type: ignore[arg-type]
            case _ if self._is_stray_order(text):
                self._problem(line, None, text, self._order_hint(text))
            case _:
                self._problem(line, None, text, f"{word} is a game master command: send GM <game> <password> before it")

    def _bare_check(self, line: int, text: str) -> None:
        if self.block is None or self.block.mode != "seat":
            self._problem(line, None, text, "CHECK needs a game kind (CHECK turkey-chase), or goes right after SIGNON")
            return
        if not self.block.fresh:
            message = "CHECK belongs on the line right after SIGNON; these orders are only checked, not stored"
            self._problem(line, None, text, message)
        self.block.check = TextLine(line, text)

    def _open(self, mode: _Mode, head: SeatSession | CheckOrders | GmSession | CreateGame | None) -> None:
        self._close()
        self.block = _Block(mode, head, len(self.commands))
        self.commands.append(None)

    def _open_dropped(self, word: str, text: str) -> None:
        """After a bad opening line, read its block anyway so that its lines cause no further problems."""
        if word == "PRESS":
            self.press = _PressBlock(None, None, text)
        elif word == "SIGNON" or (word == "CHECK" and (self.block is None or self.block.mode != "seat")):
            self._open("check" if word == "CHECK" else "seat", None)
        elif word in ("GM", "CREATE"):
            self._open("gm", None)

    def _close(self) -> None:
        block, self.block = self.block, None
        if block is None or block.head is None:
            return
        orders = TextBlock(tuple(block.orders))
        head = block.head
        if isinstance(head, SeatSession):
            if head.is_token_reply and orders.is_empty and not block.commands and block.check is None:
                return
            commands = tuple(block.commands)
            closed: Command = replace(head, check=block.check is not None, orders=orders,  # type: ignore[arg-type]
                                           commands=commands, check_line=block.check)  # type: ignore[arg-type]
        elif isinstance(head, CheckOrders):
            closed = replace(head, orders=orders)
        else:
            closed = replace(head, commands=tuple(block.commands))  # type: ignore[arg-type]
        self.commands[block.index] = closed

    def _press_line(self, press: _PressBlock, number: int, text: str, upper: str) -> None:
        if upper in ("ENDPRESS", "SIGNOFF"):
            self._close_press()
            if upper == "SIGNOFF":
                self._close()
        elif len(press.lines) >= MAX_ORDER_LINES:
            self._close_press()
            self._stop(f"line {number}: a PRESS of more than {MAX_ORDER_LINES} lines; the rest of the mail was not read")
        else:
            press.lines.append(TextLine(number, text))

    def _close_press(self) -> None:
        press, self.press = self.press, None
        if press is None or press.head is None or press.owner is None:
            return
        lines = press.lines
        while lines and not lines[-1].text.strip():
            lines.pop()
        while lines and not lines[0].text.strip():
            lines.pop(0)
        if not lines:
            message = "PRESS has no text: write the message on the lines after it"
            self._problem(press.head.line, None, press.text, message)
        else:
            press.owner.commands.append(replace(press.head, text=TextBlock(tuple(lines))))

    def _is_stray_order(self, text: str) -> bool:
        """True for a line outside any session that is an order of the game the subject's tag names."""
        return self.block is None and self.game is not None and self.is_order is not None and self.is_order(text)

    def _order_hint(self, text: str) -> str:
        """The refusal of an order line outside a session: where orders of the tagged game go."""
        return (f'"{text.split()[0]}" starts an order of game {self.game}, not a command here: '
                + self._where_orders_go())

    def _where_orders_go(self) -> str:
        return (f"reply to your newest report from game {self.game} (REPORT {self.game} has it mailed to you "
                f"again), or put SIGNON {self.game} <seat> <password> above your orders")

    def _unknown(self, number: int, text: str) -> None:
        if self._is_stray_order(text):
            self._problem(number, None, text, self._order_hint(text))
            return
        word = text.split()[0]
        guess = difflib.get_close_matches(word.upper(), sorted(keywords()), n=1, cutoff=0.7)
        if guess:
            hint = f"did you mean {guess[0]}?"
        elif self.block is None and self.game is not None:
            hint = f"if these are orders for game {self.game}, {self._where_orders_go()}"
        elif self.block is None:
            hint = "orders go after SIGNON <game> <seat> <password>; send HELP for the commands"
        else:
            hint = "send HELP for the commands"
        self._problem(number, None, text, f'unknown command "{word}"; {hint}')

    def _problem(self, line: int, column: int | None, text: str, message: str) -> None:
        """Record a problem; without a column it points at the line's first word."""
        column = column if column is not None else len(text) - len(text.lstrip()) + 1
        if len(self.problems) >= MAX_PROBLEMS:
            self._stop(f"line {line}: more than {MAX_PROBLEMS} bad lines; the rest of the mail was not read")
            return
        self.problems.append(CommandProblem(line, column, text.strip(), message))
