"""Order text to order objects, with a problem per bad line.

The only module that catches lark's errors on order text, and the one place
that puts a lark error into words (:func:`describe_syntax_error`, which
pbem.commands uses for command lines too). Each game's grammar accepts a
whole submission (one order per line, ``#`` comments, blank lines); text that
parses as a whole takes the fast path, one LALR parse with the game's
transformer inline. Only text with a bad line is parsed again line by line, so
that every bad line gets its own line, column and expected words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from lark import Lark, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from pbem.core import Game
from pbem.resources import grammar_dir

_GENERIC_WORDS: Mapping[str, str] = {
    "_NL": "the end of the line",
    "$END": "the end of the line",
    "INT": "a number",
    "NUMBER": "a number",
}


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A problem found on one line: where, and what was wrong or expected."""

    message: str
    column: int | None = None


@dataclass(slots=True)
class OrderLine:
    """One non-blank line of a submission: its number, its text, and what became of it."""

    number: int
    text: str
    order: Any = None
    problem: LineProblem | None = None

    @property
    def is_ok(self) -> bool:
        """True when the line parsed (and, once validated, was accepted)."""
        return self.problem is None


@dataclass(slots=True)
class ParsedOrders:
    """A parsed submission: every order-bearing line, in order."""

    lines: list[OrderLine] = field(default_factory=list)

    @property
    def orders(self) -> list[Any]:
        """The orders of the lines that have no problem, in line order."""
        return [line.order for line in self.lines if line.problem is None]

    @property
    def has_problems(self) -> bool:
        """True when any line has a problem."""
        return any(line.problem is not None for line in self.lines)


def content_lines(text: str) -> list[tuple[int, str]]:
    """Return ``(line number, line)`` for every line of ``text`` (newline-separated)
    that holds more than blanks and a comment."""
    return [
        (number, line.rstrip())
        for number, line in enumerate(text.split("\n"), start=1)
        if line.partition("#")[0].strip(" \t")
    ]


class OrderParser:
    """Parses order text for one game with the game's grammar and transformer."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        path = grammar_dir() / game.grammar
        self._parser = Lark.open(
            str(path),
            parser="lalr",
            transformer=game.transformer(),
            cache=True,
            maybe_placeholders=False,
        )
        self._words = {**_GENERIC_WORDS, **game.terminal_words}

    def parse(self, text: str) -> ParsedOrders:
        """Parse a whole submission. Never raises for bad input: problems are per line."""
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        lines = content_lines(text)
        try:
            orders = self._parser.parse(text + "\n")
        except (UnexpectedInput, VisitError):
            return ParsedOrders([self._parse_line(number, line) for number, line in lines])
        return ParsedOrders([OrderLine(number, line, order) for (number, line), order in zip(lines, orders, strict=True)])

    def _parse_line(self, number: int, line: str) -> OrderLine:
        try:
            orders = self._parser.parse(line + "\n")
        except UnexpectedInput as error:
            return OrderLine(number, line, problem=describe_syntax_error(error, line, self._word))
        except VisitError as error:
            return OrderLine(number, line, problem=LineProblem(str(error.orig_exc), 1))
        if len(orders) != 1:
            return OrderLine(number, line, problem=LineProblem("expected one order on the line", 1))
        return OrderLine(number, line, orders[0])

    def _word(self, terminal: str) -> str:
        """Name a terminal of the game's grammar: the game's word, a keyword in quotes, or its name."""
        if terminal in self._words:
            return self._words[terminal]
        try:
            pattern = self._parser.get_terminal(terminal).pattern
        except KeyError:
            return terminal.lower()
        if pattern.type == "str":
            return f'"{pattern.value.upper()}"'
        return terminal.lower().replace("_", " ")


def describe_syntax_error(error: UnexpectedInput, line: str, word: Callable[[str], str]) -> LineProblem:
    """Return, in words, what a line that lark could not parse expected and what it found.

    ``line`` is the text that was parsed (one line, without its line break);
    ``word`` names a terminal of the grammar for people (``SQUARE`` -> ``a square
    such as e5``). The message is ``expected <words>, found <what>`` (or
    ``unexpected <what>`` when lark expected nothing nameable); the column is
    1-based, and the end of the line is the column after its last non-blank.
    Shared by the order parser here and the command parser in pbem.commands;
    never raises.
    """
    end = len(line.rstrip()) + 1
    if isinstance(error, UnexpectedEOF):
        expected, column, found = set(error.expected), end, "the end of the line"
    elif isinstance(error, UnexpectedToken):
        at_end = error.token.type in ("_NL", "$END")
        expected, found = set(error.expected), "the end of the line" if at_end else f'"{error.token}"'
        # $END carries the position of the token before it; a line break has its own.
        column = end if error.token.type == "$END" else error.column
    elif isinstance(error, UnexpectedCharacters):
        expected, column = set(error.allowed or ()), error.column
        found = f'"{line[column - 1:column]}"' if 0 < column <= len(line) else "an unexpected character"
    else:  # pragma: no cover - lark has no other kind today
        return LineProblem(str(error), None)
    words = sorted({word(name) for name in expected})
    if not words:
        return LineProblem(f"unexpected {found}", column)
    return LineProblem(f"expected {_or_list(words)}, found {found}", column)


def _or_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@cache
def parser_for(game_name: str) -> OrderParser:
    """Return the (cached) order parser of a registered game kind."""
    from pbem.games import find_game

    return OrderParser(find_game(game_name))


class OrdersTransformer(Transformer):  # type: ignore[type-arg]
    """Base for the games' transformers: ``start`` yields the list of orders."""

    def start(self, children: list[Any]) -> list[Any]:
        """Return the orders of a submission, in line order."""
        return list(children)
