"""Order text to order objects, with a problem per bad line.

The only module that catches lark's errors on order text, and the one place
that puts a lark error into words (:func:`describe_syntax_error`, which
pbem.mail.commands.grammar uses for command lines too). Each game's grammar accepts a
whole submission (one order per line, ``#`` comments, blank lines); text that
parses as a whole takes the fast path, one LALR parse with the game's
transformer inline. Only text with a bad line is parsed again line by line, so
that every bad line gets its own line, column and expected words.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import count
from typing import Any

from lark import Lark
from lark.lexer import ContextualLexer, LexerThread
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from pbem.core import Game
from pbem.resources import grammar_dir

_GENERIC_WORDS: Mapping[str, str] = {
    "INT": "a number",
    "NUMBER": "a number",
}


@dataclass(frozen=True, slots=True)
class LineProblem:
    """A problem found on one line: where, and what was wrong or expected."""

    message: str
    column: int | None = None
    whole: bool = False
    """The problem is the submission's as a whole (it refused this line, which had none of its own)."""


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


def lalr_parse(parser: Lark) -> Callable[[str], Any]:
    """Return a function that parses text with ``parser`` (an LALR parser with its standard lexer) as
    ``parser.parse`` does, raising the same errors, without the work lark repeats on every call to check
    its arguments, pick its start rule and lexer and set up its parse tables (a tenth of parsing a two-line
    submission): that is done once, here. Falls back to ``parser.parse`` when lark's insides are not laid
    out as in the lark versions pbem knows (1.2 and 1.3)."""
    try:
        from lark.parsers.lalr_parser_state import ParseConf, ParserState

        frontend = parser.parser
        lalr = frontend.parser.parser
        lexer = frontend.lexer
        (start,) = frontend.parser_conf.start
        plugins = frontend.options._plugins if frontend.options is not None else {}  # noqa: SLF001
        conf = ParseConf(lalr.parse_table, lalr.callbacks, start)
        run = lalr.parse_from_state
    except (ImportError, AttributeError, ValueError, KeyError):
        return parser.parse
    if not isinstance(lexer, ContextualLexer) or plugins:
        return parser.parse
    from_text = LexerThread.from_text

    def parse(text: str) -> Any:
        return run(ParserState(conf, from_text(lexer, text)))

    return parse


def _order_lines(text: str, orders: Sequence[Any]) -> list[OrderLine]:
    """Pair the content lines of ``text`` (as :func:`content_lines` finds them) with ``orders``, one order each
    in line order, as the grammar parsed the whole text (it makes one order of each content line). Most
    submissions have neither blank lines nor comments: as many lines as orders, and no ``#``, so every line
    holds its order, and they are paired without looking at each line. Otherwise each line is looked at, and
    ValueError is raised when the counts differ (a grammar that does not make one order per line)."""
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()  # the text's last line break ends the last line
    if len(lines) == len(orders) and "#" not in text:  # as many lines as orders: each line holds one
        return list(map(OrderLine, count(1), map(str.rstrip, lines), orders))
    content = content_lines(text)
    if len(content) != len(orders):
        raise ValueError(f"{len(orders)} orders for {len(content)} content lines: the grammar must make one a line")
    return [OrderLine(number, line, order) for (number, line), order in zip(content, orders)]


class OrderParser:
    """Parses order text for one game with the game's grammar and transformer."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        self._parser = Lark.open(
            game.grammar,
            parser="lalr",
            import_paths=[str(grammar_dir())],
            transformer=game.transformer(),
            cache=True,
            maybe_placeholders=False,
        )
        self._parse = lalr_parse(self._parser)
        self._words = {**_GENERIC_WORDS, **game.terminal_words}
        self.keywords = sorted({
            str(terminal.pattern.value).upper() for terminal in self._parser.terminals
            if terminal.pattern.type == "str" and str(terminal.pattern.value).isalpha()
        })
        """The words that start or appear in orders (FEED, MOVE, ...), upper case."""

    def parse(self, text: str) -> ParsedOrders:
        """Parse a whole submission. Never raises for bad input: problems are per line."""
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        try:
            orders = self._parse(text + "\n")
        except (UnexpectedInput, VisitError):
            parsed = ParsedOrders([self._parse_line(number, line) for number, line in content_lines(text)])
            self._mark_signature(parsed)
            return parsed
        return ParsedOrders(_order_lines(text, orders))

    def _parse_line(self, number: int, line: str) -> OrderLine:
        try:
            orders = self._parser.parse(line + "\n")
        except UnexpectedInput as error:
            return OrderLine(number, line, problem=describe_syntax_error(error, line, self._word, self.keywords))
        except VisitError as error:
            return OrderLine(number, line, problem=LineProblem(str(error.orig_exc), 1))
        if len(orders) != 1:
            return OrderLine(number, line, problem=LineProblem("expected one order on the line", 1))
        return OrderLine(number, line, orders[0])

    def _mark_signature(self, parsed: ParsedOrders) -> None:
        """Say so when the last bad lines look like a signature (a name such as "Carol" or "Carol B.")."""
        for line in reversed(parsed.lines):
            if line.problem is None or not _looks_like_name(line.text, self.keywords):
                return
            line.problem = LineProblem(
                f"this looks like a signature, not an order; put a line \"-- \" before your signature, or end "
                f"your orders with SIGNOFF ({line.problem.message})", line.problem.column)

    def _word(self, terminal: str) -> str:
        """Name a terminal of the game's grammar: the game's word, a keyword in quotes, or its name."""
        if terminal in self._words:
            return self._words[terminal]
        try:
            pattern = self._parser.get_terminal(terminal).pattern
        except KeyError:
            return terminal.lower()
        if pattern.type == "str":
            return keyword_word(pattern.value)
        return terminal.lower().replace("_", " ")


def _looks_like_name(text: str, keywords: Sequence[str]) -> bool:
    """True for one or two capitalised words of letters (an initial may end in a dot), none an order word."""
    words = text.split()
    return 0 < len(words) <= 2 and all(
        w.rstrip(".").isalpha() and w[0].isupper() and (w[1:].rstrip(".").islower() or len(w.rstrip(".")) == 1)
        and w.rstrip(".").upper() not in keywords for w in words)


def _whole_word(line: str, column: int) -> tuple[str, int]:
    """The word of letters, digits and ``_`` around 1-based ``column`` of ``line`` and the column it starts at
    (the lexer stops inside a word: in "K77" it reads the square K7 and trips on the second 7)."""
    start = end = column - 1
    if not _is_word_char(line[start]):
        return line[start], column
    while start > 0 and _is_word_char(line[start - 1]):
        start -= 1
    while end < len(line) and _is_word_char(line[end]):
        end += 1
    return (line[start:end], start + 1) if end > start else (line[column - 1:column], column)


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def describe_syntax_error(error: UnexpectedInput, line: str, word: Callable[[str], str],
                          keywords: Sequence[str] = ()) -> LineProblem:
    """Return, in words, what a line that lark could not parse expected and what it found.

    ``line`` is the text that was parsed (one line, without its line break);
    ``word`` names a terminal of the grammar for people (``SQUARE`` -> ``a square
    such as e5``). The message is ``expected <words>, found <what>`` (or
    ``unexpected <what>`` when lark expected nothing nameable), where <what> is
    the whole word the error stands in (``"K77"``, not ``"7"``), followed by
    ``did you mean FEED?`` when the word is close to one of ``keywords``; the
    column is 1-based (the start of that word), and the end of the line is the
    column after its last non-blank.
    Shared by the order parser here and the command parser in pbem.mail.commands.grammar;
    never raises.
    """
    end = len(line.rstrip()) + 1
    bad = ""
    if isinstance(error, UnexpectedEOF):
        expected, column, found = set(error.expected), end, "the end of the line"
    elif isinstance(error, UnexpectedToken):
        at_end = error.token.type in ("_NL", "$END")
        expected = set(error.expected)
        # $END carries the position of the token before it; a line break has its own.
        column = end if error.token.type == "$END" else error.column
        if not at_end and 0 < column <= len(line):
            bad, column = _whole_word(line, column)
        found = "the end of the line" if at_end else f'"{bad or error.token}"'
    elif isinstance(error, UnexpectedCharacters):
        expected, column = set(error.allowed or ()), error.column
        if 0 < column <= len(line):
            bad, column = _whole_word(line, column)
        found = f'"{bad}"' if bad else "an unexpected character"
    else:  # pragma: no cover - lark has no other kind today
        return LineProblem(str(error), None)
    words = sorted({word(name) for name in expected - _LINE_ENDS})
    choices = [_or_list(words)] if words else []
    if expected & _LINE_ENDS:  # the line may end here
        choices.append("nothing more on this line")
    message = f"expected {', or '.join(choices)}, found {found}" if choices else f"unexpected {found}"
    guess = difflib.get_close_matches(bad.upper(), keywords, n=1, cutoff=0.6) if bad.isalpha() else []
    if guess and guess[0] != bad.upper():
        message += f"; did you mean {guess[0]}?"
    return LineProblem(message, column)


_LINE_ENDS = frozenset({"_NL", "$END", "<END-OF-FILE>"})
"""Terminals that stand for the end of a line: "nothing more on this line" is expected."""


def keyword_word(keyword: str) -> str:
    """Name a keyword of a grammar in an expected-words message: a word as the player types it (``BID``),
    a sign in quotes (``"-"``), so that "expected BID or PASS" and "expected "-"" both read plainly."""
    return keyword.upper() if keyword.replace(" ", "").isalpha() else f'"{keyword}"'


def _or_list(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@cache
def parser_for(game_name: str) -> OrderParser:
    """Return the (cached) order parser of a registered game kind."""
    from pbem.games import find_game

    return OrderParser(find_game(game_name))
