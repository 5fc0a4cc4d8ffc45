"""Adding a mail command is one module and one line in the registry: a small new command, written to a
module of its own outside pbem and registered, is parsed (with the friendly errors of the others),
answered through the real mail handler, and listed by HELP; one at the top of a mail, and one that
stands inside a seat's session."""

from __future__ import annotations

import importlib
import re
import textwrap
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import pytest
from sqlmodel import select

from pbem.mail.commands import grammar, reference, registry, script
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

    from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand


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
    for gathered in (grammar.parser, grammar.transformer, grammar.keywords, reference.help_text,
                     script.reserved_words, script.opening_words):
        gathered.cache_clear()


def _registered(source: str, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The command module ``source``, written as ``name``.py to a folder outside pbem and registered by one line."""
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module(name)
    monkeypatch.setattr(registry, "COMMANDS", [*registry.COMMANDS, module.COMMAND])
    _forget_what_was_gathered()
    yield module
    monkeypatch.undo()
    _forget_what_was_gathered()


@pytest.fixture
def ping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The PING command in a module of its own, registered by one line."""
    yield from _registered(PING_MODULE, "ping_command", tmp_path, monkeypatch)


def test_a_new_command_is_parsed_with_the_friendly_errors_of_the_others(ping: ModuleType) -> None:
    read = script.parse_script("PING hello\nping x\nPIGN hello\nPING all\nPING\n")
    assert read.commands == (ping.Ping(1, "hello"), ping.Ping(2, "x"))
    assert [(p.line, p.message) for p in read.problems] == [
        (3, 'unknown command "PIGN"; did you mean PING?'),
        (4, "PING goes to the game master alone"),
        (5, "expected a game name such as tc-1, found the end of the line"),
    ]
    assert "PING" in grammar.keywords()
    # it may stand at the top of a mail: it opens a reply to a game mail too, which is then no orders
    assert "PING" in script.opening_words()
    assert script.parse_script("PING hello\n", token_seat=True).commands == (ping.Ping(1, "hello"),)


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
    [problem] = script.parse_script("PING hello\n").problems
    assert problem.message.startswith('unknown command "PING"')
    assert "PING <word>" not in reference.help_text()


LEFT_MODULE = '''
    """LEFT (in a seat's session): how many days are left before the turn's deadline."""

    from dataclasses import dataclass
    from typing import ClassVar

    from pbem.mail.commands.spec import MailCommand, ParsedCommand, keyword_grammar


    @dataclass(frozen=True)
    class Left(ParsedCommand):
        """LEFT: the days left before the seat's deadline."""

        asks_only: ClassVar[bool] = True


    def in_seat(conv, row, seat, command):
        """Answer how long the seat has left."""
        left = (row.deadline - conv.desk.clock()).days if row.deadline else None
        conv.reply.add(f"LEFT: seat {seat.name} of {row.name} has {left} days left.")


    COMMAND = MailCommand(
        rule="left",
        parsed_form=Left,
        grammar=keyword_grammar("left", "LEFT"),
        help="  LEFT                             (after SIGNON) the days left before the deadline\\n",
        in_seat=in_seat,
    )
'''


@pytest.fixture
def left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The LEFT command, which stands only in a seat's session, in a module of its own registered by one line."""
    yield from _registered(LEFT_MODULE, "left_command", tmp_path, monkeypatch)


def test_a_new_seat_command_is_read_in_a_seat_session_and_among_orders_only_there(left: ModuleType) -> None:
    read = script.parse_script("SIGNON tc-1 red pw\nLEFT\nmove north\nLEFT\nSIGNOFF\nLEFT\nLEFTY\n")
    [session] = read.commands
    assert session.commands == (left.Left(2), left.Left(4)) and session.orders.text == "move north"
    assert [(p.line, p.message) for p in read.problems] == [
        (6, "LEFT needs SIGNON <game> <seat> <password> before it"),
        (7, 'unknown command "LEFTY"; did you mean LEFT?'),
    ]
    assert "LEFT" in script.reserved_words()  # no game's orders may start with it now
    assert "LEFT" not in script.opening_words()  # it cannot open a mail, nor a reply


def test_a_new_seat_command_is_answered_in_a_real_seat_session_and_listed_by_help(left: ModuleType,
                                                                                  db: Database) -> None:
    service = GameService(db, clock=lambda: NOW)
    service.create_game("turkey-chase", "tc-1", players=4, gm_address=GM)
    joined = service.join("tc-1", "ann@players.test")
    for other in ("bob", "cid", "dan"):
        service.join("tc-1", f"{other}@players.test")
    service.start("tc-1")
    body = f"SIGNON tc-1 {joined.seat} {joined.password}\nLEFT\nSIGNOFF\nHELP\n"
    raw = plain_mail("ann@players.test", GM, "left", body).as_bytes()
    inbound = InboundStore(db).store(None, raw)
    assert inbound is not None
    handled = MailHandler(service, address=GM, tokens=ReplyTokens(b"k" * 32), clock=lambda: NOW).handle(inbound)
    with db.session() as session:
        [sent] = session.exec(select(OutboundMessageRow).where(OutboundMessageRow.inbound_id == inbound)).all()
    text = read_mail(sent.raw).body
    assert re.search(rf"LEFT: seat {joined.seat} of tc-1 has \d+ days left\.", text)
    assert "  LEFT                             (after SIGNON) the days left before the deadline\n  SIGNOFF " in text
    assert handled.done == ["orders", "HELP"] and handled.seat == joined.seat
