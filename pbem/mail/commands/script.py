"""The email command language: a cleaned mail body to a :class:`Script`.

A mail is read line by line. Between blocks every non-blank line is a
command (``#`` lines are comments). Some commands open a block:

* ``SIGNON game seat password`` opens a seat session; a token reply
  (``token_seat=True``) starts inside one, unless its first line is a
  command whose word is not reserved. In a session, a line whose first word
  is one of :func:`reserved_words` is a command, every other line is an
  order line. ``CHECK`` on the first line of the session makes it a check.
* ``CHECK kind`` opens a syntax-check block: order lines as in a session.
* ``GM game password`` and ``CREATE kind game ...`` open a GM session, in
  which every line is a command and the GM commands are allowed.
* ``PRESS seat...`` (in a seat or GM session) takes the lines that follow,
  blank ones too, as the message, up to a line ``ENDPRESS`` or ``SIGNOFF``.

``SIGNOFF``, another opening command, or the end of the mail closes a block.
Command lines are parsed one at a time (:mod:`pbem.mail.commands.grammar`: the
fragments of the commands in :mod:`pbem.mail.commands.registry`, each one
module); each command stands where its registration says it may
(:attr:`pbem.mail.commands.spec.MailCommand.places`). Order lines are kept as
raw text with their line numbers for the game's own grammar. A bad command
line becomes a :class:`CommandProblem` (line, column, what was expected); the
other lines are still read. A block whose opening line is bad still swallows
its lines, so that one typo gives one problem.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cache

from pbem import budget
from pbem.mail.commands import registry
from pbem.mail.commands.grammar import Marker, Parsed, keyword_of, keywords, leading_keywords, parse_line
from pbem.mail.commands.registry import command_for
from pbem.mail.commands.seats.session import SeatSession
from pbem.mail.commands.spec import LineError, ParsedCommand, Place, SessionKind
from pbem.mail.commands.values import TextBlock, TextLine

STEERING_WORDS = frozenset({"SIGNON", "SIGNOFF", "CHECK", "ENDPRESS", "GM"})
"""The words that open or close a block, read as commands among orders too."""


@cache
def reserved_words() -> frozenset[str]:
    """First words that make a line among orders a command, so that no game's orders may start with one:
    :data:`STEERING_WORDS` and the keyword of every registered command that may stand in a seat's session."""
    in_seat = {command.rule for command in registry.COMMANDS if Place.SEAT in command.places}
    return STEERING_WORDS | leading_keywords(in_seat)


@cache
def opening_words() -> frozenset[str]:
    """Commands that may open a mail outside any session and open a reply too (the registry's
    :attr:`~pbem.mail.commands.spec.MailCommand.opens_reply`). A reply to a game mail whose first line starts
    with one of these that is not also in :func:`reserved_words` is read as an ordinary command mail; any
    other first line is orders (so an order word such as Harvest Day's REVEAL, which is also a game master's
    command inside a GM session, starts the orders of a reply). No game's orders may start with one of
    these either."""
    opening = {command.rule for command in registry.COMMANDS if Place.TOP in command.places and command.opens_reply}
    return leading_keywords(opening)


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
MAX_LINE_LENGTH = 1000
"""Longest line read, in characters; a longer line is refused unread."""


@dataclass(frozen=True)
class Script:
    """The commands of one mail in mail order, and the problems of its bad command lines.

    ``stopped`` says why reading stopped before the end of the mail (one of
    the per-mail limits above was reached), or is empty when it was read whole.
    """

    commands: tuple[ParsedCommand, ...]
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
    a command that opens a mail (:func:`opening_words`) and is not one of
    :func:`reserved_words`; an empty token
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
    first_word = keyword_of(first)
    starts_in_session = token_seat and (first_word not in opening_words() or first_word in reserved_words())
    builder = _ScriptBuilder(token_session=starts_in_session, game=game, is_order=is_order)
    for number, line in enumerate(lines, start=1):
        budget.check()
        builder.feed(number, line)
        if builder.stopped:
            break
    return builder.finish()


@dataclass
class _Block:
    """A block being read. ``head`` is None when its opening line was bad: its lines are dropped."""

    mode: SessionKind
    head: ParsedCommand | None
    index: int
    orders: list[TextLine] = field(default_factory=list)
    commands: list[ParsedCommand] = field(default_factory=list)
    check: TextLine | None = None
    fresh: bool = True


@dataclass
class _PressBlock:
    """A PRESS being read, and the session it belongs to; both None when the PRESS line was bad or not allowed."""

    head: ParsedCommand | None
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
        self.commands: list[ParsedCommand | None] = []
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
        word = keyword_of(stripped)
        block = self.block
        if block is not None and block.mode != "gm" and word not in reserved_words():
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
            parsed = SeatSession(number, self.game, short[1].lower(), short[2]) if short else parse_line(number, text)
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

    def _apply(self, parsed: Parsed, word: str, text: str) -> None:
        if isinstance(parsed, Marker):
            self._steer(parsed, text)
        elif parsed.opens is not None:
            self._open(parsed.opens, parsed)
        else:
            self._place(parsed, word, text)

    def _steer(self, marker: Marker, text: str) -> None:
        """A line that only steers the reading: SIGNOFF, ENDPRESS, or CHECK without a kind."""
        if marker.word == "SIGNOFF":
            self._close()
        elif marker.word == "ENDPRESS":
            self._problem(marker.line, None, text, "ENDPRESS without a PRESS before it")
        else:
            self._bare_check(marker.line, text)

    def _place(self, parsed: ParsedCommand, word: str, text: str) -> None:
        """Put a command where it stands: in the open session when it may stand there, else at the top of
        the mail when it may stand there, else refused with what it needs before it."""
        block = self.block
        places = command_for(parsed).places
        session = {"seat": Place.SEAT, "gm": Place.GM}.get(block.mode) if block is not None else None
        if block is not None and session in places:
            if parsed.takes_text:
                self.press = _PressBlock(parsed, block, text)
            else:
                block.commands.append(parsed)
        elif Place.TOP in places:
            if parsed.needs_tagged_game() and self.game is None:
                self._problem(parsed.line, None, text, f"{word} needs a game name here, for example {word} tc-1")
                return
            if not parsed.keeps_session_open:
                self._close()
            self.commands.append(parsed)
        elif Place.SEAT not in places:
            message = f"{word} is a game master command: send GM <game> <password> before it"
            self._problem(parsed.line, None, text, self._order_hint(text) if self._is_stray_order(text) else message)
        elif Place.GM in places:
            self._problem(parsed.line, None, text, f"{word} needs SIGNON (or GM) before it")
            if parsed.takes_text:
                self.press = _PressBlock(None, None, text)
        else:
            self._problem(parsed.line, None, text, f"{word} needs SIGNON <game> <seat> <password> before it")

    def _bare_check(self, line: int, text: str) -> None:
        if self.block is None or self.block.mode != "seat":
            self._problem(line, None, text, "CHECK needs a game kind (CHECK turkey-chase), or goes right after SIGNON")
            return
        if not self.block.fresh:
            message = "CHECK belongs on the line right after SIGNON; these orders are only checked, not stored"
            self._problem(line, None, text, message)
        self.block.check = TextLine(line, text)

    def _open(self, mode: SessionKind, head: ParsedCommand | None) -> None:
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
        closed: ParsedCommand
        if block.mode == "seat":
            if isinstance(head, SeatSession) and head.is_token_reply and orders.is_empty and not block.commands \
                    and block.check is None:
                return
            closed = replace(head, check=block.check is not None, orders=orders,  # type: ignore[call-arg]
                             commands=tuple(block.commands), check_line=block.check)
        elif block.mode == "check":
            closed = replace(head, orders=orders)  # type: ignore[call-arg]
        else:
            closed = replace(head, commands=tuple(block.commands))  # type: ignore[call-arg]
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
            press.owner.commands.append(replace(press.head, text=TextBlock(tuple(lines))))  # type: ignore[call-arg]

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
