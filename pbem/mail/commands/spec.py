"""What one mail command is, as the command registry (:mod:`pbem.mail.commands.registry`) lists it: its
grammar fragment, its parsed form, its lines in HELP, where it may stand in a mail and its handling there,
in one module of its own.

A command module defines its parsed form as a :class:`ParsedCommand` and one :class:`MailCommand`
named ``COMMAND``; one line in the registry adds it. The command grammar gathers the fragments
(:mod:`pbem.mail.commands.grammar`), HELP lists the commands' lines (:mod:`pbem.mail.commands.reference`),
the script reader (:func:`pbem.mail.commands.script.parse_script`) puts each command where its
:attr:`MailCommand.places` say it may stand, and the handler runs the handling of that place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation
    from pbem.store.tables import GameRow, SeatRow


class Place(Enum):
    """Where in a mail a command may stand."""

    TOP = "the top of a mail"
    SEAT = "inside a seat's session"
    GM = "inside a GM's session"


SessionKind = Literal["seat", "check", "gm"]
"""The blocks a command line may open: a seat's session (SIGNON, or a reply to a game mail), a syntax
check (CHECK <kind>) and a GM's session (GM, CREATE)."""


class LineError(Exception):
    """A command line that parsed but holds a bad value, or did not parse: the message and its column."""

    def __init__(self, message: str, column: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column


@dataclass(frozen=True)
class ParsedCommand:
    """A command line read into its parsed form: the mail's line number, then the command's own fields.
    What the mail floor must know of a command that is not its own module's business is said by the
    class attributes below."""

    line: int

    asks_only: ClassVar[bool] = False
    """It only asks, changing no game: carrying it out does not count as acting for a seat."""
    limited_as_query: ClassVar[bool] = False
    """A mail of such commands alone (and other queries) counts toward the query rate limit."""
    rests_on_from: ClassVar[bool] = False
    """It rests on the From address alone: refused when the receiving server found the From forged."""
    opens: ClassVar[SessionKind | None] = None
    """The block it opens: the lines after it, up to SIGNOFF or the next opening line, are its own."""
    takes_text: ClassVar[bool] = False
    """The lines after it, blank ones too, up to ENDPRESS or SIGNOFF, are its text (PRESS)."""
    keeps_session_open: ClassVar[bool] = False
    """Read inside a session where it may not stand, it runs at the top of the mail after that session,
    which goes on; without this it ends that session."""

    def log_word(self) -> str:
        """The command as the log names it: its class's name in upper case (``WHOIS``)."""
        return type(self).__name__.upper()

    def needs_tagged_game(self) -> bool:
        """True when, at the top of a mail, it names no game and so needs the one the subject's tag names
        (without a tag the line is refused)."""
        return False

    def counts_as_query(self) -> bool:
        """True when a mail of such commands alone only asks (see :attr:`limited_as_query`)."""
        return self.limited_as_query


TopHandler = Callable[["Conversation", Any], None]
"""Carries a command out at the top of a mail: the conversation, the parsed form."""
SeatHandler = Callable[["Conversation", "GameRow", "SeatRow", Any], None]
"""Carries a command out in a seat's session: the conversation, the session's game and seat, the parsed form."""
GmHandler = Callable[["Conversation", "GameRow", Any], None]
"""Carries a command out in a GM's session: the conversation, the GM's game, the parsed form."""


@dataclass(frozen=True, kw_only=True)
class MailCommand:
    """One mail command: how it is written, read, listed by HELP, and carried out where it may stand.
    A handler raises :class:`pbem.core.PbemError` (or ValueError) to refuse the command on its line."""

    rule: str
    """The name of its grammar rule (lower case)."""
    parsed_form: type[ParsedCommand]
    """The class of its parsed form."""
    grammar: str
    """Its lark fragment: the rule ``rule`` and its keyword terminals (see :func:`keyword_grammar`); the
    shared terminals (GAME, SEAT, PLAYER, CODE, ...) come from pbem/grammars/commands.lark."""
    build: Callable[[int, list[Token]], ParsedCommand] | None = None
    """The parsed form of a line: from its line number and the rule's tokens. Raises :class:`LineError`
    (with the column) for a value the grammar let through but the command refuses. Without it, the
    parsed form of a command without arguments: ``parsed_form(line)``."""
    help: str
    """Its lines in the command list HELP sends, each indented two spaces."""
    gm_help: str = ""
    """Its lines in the game masters' part of that list, if it has any there besides ``help``."""
    handle: TopHandler | None = None
    """Its handling at the top of a mail (None: it may not stand there)."""
    in_seat: SeatHandler | None = None
    """Its handling inside a seat's session (None: it may not stand there)."""
    in_gm: GmHandler | None = None
    """Its handling inside a GM's session (None: it may not stand there)."""
    opens_reply: bool = True
    """For a command that may stand at the top of a mail: a reply to a game mail whose first line starts with
    its keyword is read as a mail of commands, not as the seat's orders (see
    :func:`pbem.mail.commands.script.opening_words`). False for a word that some game's orders start with."""

    @property
    def places(self) -> frozenset[Place]:
        """Where in a mail it may stand: the places it has a handling for."""
        handlers = {Place.TOP: self.handle, Place.SEAT: self.in_seat, Place.GM: self.in_gm}
        return frozenset(place for place, handler in handlers.items() if handler is not None)

    def parse(self, line: int, children: list[Token]) -> ParsedCommand:
        """The parsed form of the command on ``line`` (see :attr:`build`)."""
        return self.parsed_form(line) if self.build is None else self.build(line, children)


def as_at_top_in_seat(handle: TopHandler) -> SeatHandler:
    """The handling in a seat's session of a command that does there what it does at the top of a mail."""

    def in_seat(conv: Conversation, row: GameRow, seat: SeatRow, command: Any) -> None:
        handle(conv, command)

    return in_seat


def as_at_top_in_gm(handle: TopHandler) -> GmHandler:
    """The handling in a GM's session of a command that does there what it does at the top of a mail."""

    def in_gm(conv: Conversation, row: GameRow, command: Any) -> None:
        handle(conv, command)

    return in_gm


def keyword_grammar(rule: str, written: str) -> str:
    """The grammar fragment of a command ``written`` as its keyword, then its arguments as lark symbols
    (``"JOIN GAME SEAT?"``): the rule ``rule`` and the keyword's terminal, a whole word in any letter case."""
    keyword, _, arguments = written.partition(" ")
    return f"{rule}: _{keyword} {arguments}\n_{keyword}: /{keyword.lower()}\\b/i\n"
