"""The values of command lines shared by several commands: free text in mail order (orders, press),
names, mail addresses and ``option=value`` pairs, each read from its token or refused with a
:class:`~pbem.mail.commands.spec.LineError` at its column."""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token

from pbem.addresses import checked_address
from pbem.core import InvalidInput
from pbem.mail.commands.spec import LineError


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


def name(token: Token) -> str:
    """A name on a command line (a game, a seat, a kind), in lower case."""
    return str(token).lower()


def address(token: Token) -> str:
    """The mail address a token holds, checked (see :func:`address_text`)."""
    return address_text(str(token), token.column)


def address_text(text: str, column: int | None) -> str:
    """A mail address on a command line, checked (see :func:`pbem.addresses.checked_address`); raises
    :class:`LineError` at ``column`` for one pbem does not take."""
    try:
        return checked_address(text.strip("<>"))
    except InvalidInput as error:
        raise LineError(str(error), column) from None


def options(pairs: list[tuple[Token, Token]]) -> dict[str, str]:
    """The ``option=value`` pairs of a line (the grammar's ``option`` rule), the names in lower case;
    raises :class:`LineError` at a name given twice."""
    found: dict[str, str] = {}
    for key, value in pairs:
        option = str(key).lower()
        if option in found:
            raise LineError(f'the option "{option}" is given twice', key.column)
        found[option] = str(value)
    return found
