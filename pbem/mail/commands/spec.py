"""What one mail command is, as the command registry (:mod:`pbem.mail.commands.registry`) lists it: its
grammar fragment, its parsed form, its line in HELP and its handling, in one module of its own.

A command module defines its parsed form as a :class:`ParsedCommand` and one :class:`MailCommand`
named ``COMMAND``; one line in the registry adds it. The command grammar gathers the fragments
(:func:`pbem.commands.parse_script`), HELP lists the commands' lines in the registry's order, and the
handler runs ``handle`` for the parsed form at the top of a mail.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from lark import Token

    from pbem.mail.answering.conversation import Conversation


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

    def log_word(self) -> str:
        """The command as the log names it: its class's name in upper case (``WHOIS``)."""
        return type(self).__name__.upper()


@dataclass(frozen=True)
class MailCommand:
    """One mail command that stands at the top of a mail (outside any session)."""

    rule: str
    """The name of its grammar rule (lower case)."""
    parsed_form: type[ParsedCommand]
    """The class of its parsed form."""
    grammar: str
    """Its lark fragment: the rule ``rule`` and its keyword terminals; the shared terminals (GAME, SEAT,
    PLAYER, CODE, ...) come from pbem/grammars/commands.lark."""
    build: Callable[[int, list[Token]], ParsedCommand]
    """The parsed form of a line: from its line number and the rule's tokens. Raises
    :class:`pbem.commands.LineError` (with the column) for a value the grammar let through but the
    command refuses."""
    help: str
    """Its lines in the command list HELP sends, each indented two spaces."""
    handle: Callable[[Conversation, Any], None]
    """Carries the command out for the mail's sender and words the answer in the conversation's reply;
    raises :class:`pbem.core.PbemError` (or ValueError) to refuse it on its line."""
