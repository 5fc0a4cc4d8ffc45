"""The command grammar, read one line at a time: pbem/grammars/commands.lark (the lines that only steer
the reading, SIGNOFF and ENDPRESS, and the terminals the commands share) and the fragment of every
command in :mod:`pbem.mail.commands.registry`, each built into its parsed form by its module."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, VisitError

from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand
from pbem.orders import describe_syntax_error, keyword_word
from pbem.resources import grammar_dir


@dataclass(frozen=True)
class Marker:
    """A command line that only steers the reading: SIGNOFF, ENDPRESS, or CHECK without a kind."""

    line: int
    word: str


Parsed = ParsedCommand | Marker
"""What one command line is read into."""


@cache
def parser() -> Lark:
    """The command grammar: pbem/grammars/commands.lark and the fragment of every registered command."""
    from pbem.mail.commands.registry import COMMANDS

    path = grammar_dir() / "commands.lark"
    fragments = "".join(f"\n%extend command: {command.rule}\n{command.grammar}" for command in COMMANDS)
    return Lark(path.read_text(encoding="utf-8") + fragments, parser="lalr", cache=True, source_path=str(path))


class _LineTransformer(Transformer[Token, Parsed]):
    """Builds the command of one line; bad values raise :class:`LineError` with their column."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number

    def start(self, children: list[Parsed]) -> Parsed:
        return children[0]

    def signoff(self, children: list[Token]) -> Marker:
        return Marker(self.number, "SIGNOFF")

    def endpress(self, children: list[Token]) -> Marker:
        return Marker(self.number, "ENDPRESS")

    def option(self, children: list[Token]) -> tuple[Token, Token]:
        return children[0], children[1]


@cache
def transformer() -> type[_LineTransformer]:
    """The line transformer with a method for every registered command's rule (its module's build)."""
    from pbem.mail.commands.registry import COMMANDS

    return type("_RegisteredLineTransformer", (_LineTransformer,),
                {command.rule: _built_by(command) for command in COMMANDS})


def _built_by(command: MailCommand) -> Callable[[_LineTransformer, list[Token]], Parsed]:
    def method(self: _LineTransformer, children: list[Token]) -> Parsed:
        return command.parse(self.number, children)

    return method


def parse_line(number: int, text: str) -> Parsed:
    """The command on line ``number`` of a mail; raises :class:`LineError` when it cannot be read."""
    try:
        tree = parser().parse(text)
        return transformer()(number).transform(tree)
    except UnexpectedInput as error:
        problem = describe_syntax_error(error, text, _terminal_word)
        raise LineError(problem.message, problem.column) from None
    except VisitError as error:
        if isinstance(error.orig_exc, LineError):
            raise error.orig_exc from None
        raise


@cache
def keywords() -> frozenset[str]:
    """Return every command keyword of the grammar, upper case."""
    names = (terminal.name for terminal in parser().terminals)
    return frozenset(name[1:] for name in names if name.startswith("_") and name[1:].isalpha())


def leading_keywords(rules: set[str]) -> frozenset[str]:
    """The keywords the grammar rules named ``rules`` start with, upper case (``{"orders"}``: ``ORDERS``)."""
    firsts = (rule.expansion[0] for rule in parser().rules if rule.origin.name in rules and rule.expansion)
    return frozenset(symbol.name[1:] for symbol in firsts if symbol.is_term and symbol.name.startswith("_"))


_FIRST_WORD = re.compile(r"[A-Za-z]+(?![A-Za-z0-9_-])")


def keyword_of(text: str) -> str | None:
    """The command keyword a (stripped) line starts with, upper case, or None."""
    found = _FIRST_WORD.match(text)
    word = found.group(0).upper() if found else None
    return word if word in keywords() else None


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
    """Name a terminal of the command grammar: its word, or a keyword (``_JOIN``) as ``JOIN``."""
    return _TERMINAL_WORDS.get(name, keyword_word(name.lstrip("_")))
