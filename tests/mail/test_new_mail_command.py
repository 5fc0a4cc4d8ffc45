"""Adding a mail command is one module and one line in the registry: a small new command, written to a
module of its own outside pbem and registered, is parsed (with the friendly errors of the others),
answered through the real mail handler, and listed by HELP."""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest
from sqlmodel import select

from pbem import commands
from pbem.mail.commands import registry
from pbem.mail.handling.handler import MailHandler
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.reading.mailstore import InboundStore
from pbem.sandbox.mailclient import plain_mail, read_mail
from pbem.service.api import GameService
from pbem.store import Database
from pbem.store.tables import OutboundMessageRow

GM = "gm@pbem.test"
NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)

PING_MODULE = '''
    """PING <word>: the game master answers PONG <word>."""

    from dataclasses import dataclass

    from pbem.commands import LineError
    from pbem.mail.commands.spec import MailCommand, ParsedCommand


    @dataclass(frozen=True)
    class Ping(ParsedCommand):
        """PING <word>."""

        word: str


    def build(line, children):
        """The parsed PING line; PING ALL is refused on its word."""
        if str(children[0]).lower() == "all":
            raise LineError("PING goes to the game master alone", children[0].column)
        return Ping(line, str(children[0]).lower())


    def handle(conv, command):
        """Answer PONG <word>."""
        conv.reply.add(f"PONG {command.word}")


    COMMAND = MailCommand(
        rule="ping",
        parsed_form=Ping,
        grammar="""
    ping: _PING GAME
    _PING: /ping\\\\b/i
    """,
        build=build,
        help="  PING <word>                      the game master answers PONG <word>\\n",
        handle=handle,
    )
'''


def _forget_what_was_gathered() -> None:
    for gathered in (commands._parser, commands._transformer, commands.keywords, commands.help_text):
        gathered.cache_clear()


@pytest.fixture
def ping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The PING command in a module of its own (in a folder outside pbem), registered by one line."""
    (tmp_path / "ping_command.py").write_text(textwrap.dedent(PING_MODULE))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("ping_command")
    monkeypatch.setattr(registry, "COMMANDS", [*registry.COMMANDS, module.COMMAND])
    _forget_what_was_gathered()
    yield module
    monkeypatch.undo()
    _forget_what_was_gathered()


def test_a_new_command_is_parsed_with_the_friendly_errors_of_the_others(ping: ModuleType) -> None:
    script = commands.parse_script("PING hello\nping x\nPIGN hello\nPING all\nPING\n")
    assert script.commands == (ping.Ping(1, "hello"), ping.Ping(2, "x"))
    assert [(p.line, p.message) for p in script.problems] == [
        (3, 'unknown command "PIGN"; did you mean PING?'),
        (4, "PING goes to the game master alone"),
        (5, "expected a game name such as tc-1, found the end of the line"),
    ]
    assert "PING" in commands.keywords()


def test_a_new_command_is_answered_by_the_real_handler_and_listed_by_help(ping: ModuleType, db: Database) -> None:
    raw = plain_mail("ann@players.test", GM, "hello", "PING hello\nHELP\n").as_bytes()
    inbound = InboundStore(db).store(None, raw)
    assert inbound is not None
    handled = MailHandler(GameService(db, clock=lambda: NOW), address=GM, tokens=ReplyTokens(b"k" * 32),
                          clock=lambda: NOW).handle(inbound)
    with db.session() as session:
        [sent] = session.exec(select(OutboundMessageRow).where(OutboundMessageRow.inbound_id == inbound)).all()
    text = read_mail(sent.raw).body
    assert "PONG hello" in text
    # with the registered commands HELP's text marks no place for: at the end of the players' list
    assert "  PING <word>                      the game master answers PONG <word>\n  SIGNOFF " in text
    assert handled.done == ["PING", "HELP"]


def test_without_the_new_command_its_word_is_unknown() -> None:
    _forget_what_was_gathered()
    [problem] = commands.parse_script("PING hello\n").problems
    assert problem.message.startswith('unknown command "PING"')
    assert "PING <word>" not in commands.help_text()
