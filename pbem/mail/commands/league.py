"""LEAGUE commands by mail, each by one call to :mod:`pbem.service.leagues`: anyone's JOIN and STANDINGS
(the sender's own row marked; the GM sees every member's address beside its name),
CREATE (the sender becomes the league's GM and gets its password), and the GM's START, REPLACE, DROP and
END: from the GM's own address (resting on the From, like CREATE: refused when the receiving server
found it forged), or from any address with the league's password on the line. START and END answer at once;
the work that grows with the league (creating its games, ending them) is the clock's, in steps
(:mod:`pbem.service.league_steps`), and the GM is told when the round is seated."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, ClassVar

from sqlalchemy import func
from sqlmodel import select

from pbem.core import PbemError
from pbem.mail.answering.conversation import Conversation
from pbem.mail.commands.spec import LineError, MailCommand, ParsedCommand
from pbem.mail.commands.values import address_text
from pbem.service import consent, leagues
from pbem.service.access import LockedOut, NotAuthorised
from pbem.store.tables import LeagueRow

if TYPE_CHECKING:
    from lark import Token

MAX_LEAGUES_PER_DAY = 3
"""Leagues one address may create in 24 hours."""


@dataclass(frozen=True)
class LeagueCommand(ParsedCommand):
    """LEAGUE <verb> <league> ...: ``verb`` one of CREATE, JOIN, START, STANDINGS, REPLACE, DROP, END (upper
    case); ``kind`` and ``options`` for CREATE, ``addresses`` for REPLACE (old, new) and DROP, and the
    league's ``password`` when the GM's START, REPLACE, DROP or END gives it (without it, only mail from
    the league GM's own address is obeyed)."""

    verb: str
    league: str
    kind: str | None = None
    options: Mapping[str, str] = field(default_factory=dict)
    addresses: tuple[str, ...] = ()
    password: str | None = None

    rests_on_from: ClassVar[bool] = True

    def log_word(self) -> str:
        """LEAGUE and the verb: ``LEAGUE JOIN``."""
        return f"LEAGUE {self.verb}"


LEAGUE_USAGE = {
    "CREATE": "LEAGUE CREATE <league> <kind> [format=swiss|roundrobin|knockout] [rounds=N] [table=K] "
              "[points=win:3,...] [<game option>=<value> ...]",
    "JOIN": "LEAGUE JOIN <league>",
    "START": "LEAGUE START <league> [<league-password>]",
    "STANDINGS": "LEAGUE STANDINGS <league>",
    "REPLACE": "LEAGUE REPLACE <league> <old-address> <new-address> [<league-password>]",
    "DROP": "LEAGUE DROP <league> <address> [<league-password>]",
    "END": "LEAGUE END <league> [<league-password>]",
}
"""How each LEAGUE command is written (quoted when one is written wrong)."""


def build(line: int, children: list[Token]) -> LeagueCommand:
    """The parsed LEAGUE line: the verb's own words checked (how many, the league's name, CREATE's options,
    the addresses of REPLACE and DROP); raises :class:`~pbem.mail.commands.spec.LineError` naming the form to write."""
    verb, words = str(children[0]).upper(), [str(word) for word in children[1:]]
    column = children[0].column
    plain = [w for w in words if "=" not in w]
    given = {"CREATE": 2, "JOIN": 1, "STANDINGS": 1, "START": 1, "END": 1, "DROP": 2, "REPLACE": 3}[verb]
    by_gm = verb in ("START", "END", "DROP", "REPLACE")  # the league's password may follow
    if not given <= len(plain) <= given + by_gm or (verb != "CREATE" and len(plain) != len(words)):
        raise LineError(f"write it as {LEAGUE_USAGE[verb]}", column)
    name = plain[0].lower()
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", name):
        raise LineError(f'"{plain[0]}" is no league name: letters, digits and "-"', column)
    if verb == "CREATE":
        options: dict[str, str] = {}
        for word in (w for w in words if "=" in w):
            key, _, value = word.partition("=")
            key = key.lower()
            if not re.fullmatch(r"[a-z][a-z0-9_-]*", key) or not value:
                raise LineError(f'"{word}": write options as name=value', column)
            if key in options:
                raise LineError(f'the option "{key}" is given twice', column)
            options[key] = value
        return LeagueCommand(line, verb, name, kind=plain[1].lower(), options=options)
    addresses = tuple(address_text(word, column) for word in plain[1:given])
    password = plain[given] if len(plain) > given else None
    return LeagueCommand(line, verb, name, addresses=addresses, password=password)


class LeagueRefused(PbemError):
    """A LEAGUE command that is not carried out as asked (too many leagues, an address that never wrote)."""


def handle(conv: Conversation, command: LeagueCommand) -> None:
    """Carry out one LEAGUE command for the mail's sender."""
    if command.verb == "CREATE":
        _create(conv, command)
    elif command.verb == "JOIN":
        _join(conv, command)
    elif command.verb == "STANDINGS":
        row = leagues.league_row(conv.unit, command.league)
        conv.reply.add(leagues.view(conv.unit, row.name, leagues.reader_of(row, conv.mail.sender)).text())
    else:
        _as_gm(conv, command)


def _create(conv: Conversation, command: LeagueCommand) -> None:
    sender, unit = conv.mail.sender, conv.unit
    since = conv.desk.clock() - timedelta(days=1)
    made = unit.session.exec(select(func.count()).select_from(LeagueRow).where(  # type: ignore[call-overload]
        LeagueRow.gm_address == sender, LeagueRow.created_at >= since)).one()
    if made >= MAX_LEAGUES_PER_DAY:
        raise LeagueRefused(f"LEAGUE CREATE {command.league}: at most {MAX_LEAGUES_PER_DAY} leagues are created per "
                            "address in 24 hours")
    unit.actor = f"gm {sender}"
    assert command.kind is not None
    row, password = leagues.create_for_gm(unit, command.league, command.kind, command.options, gm_address=sender)
    conv.reply.secret = True
    conv.reply.add(
        f"Created league {row.name}: {row.kind}, {row.format}, tables of {row.table_size}, "
        f"{row.rounds or 'automatic'} rounds; you are its GM.\n"
        f"Your league password is {password}. It is also the GM password of every game of the league.\n"
        f"Players join with: LEAGUE JOIN {row.name}\n"
        f"Start it with: LEAGUE START {row.name} <password>")


def _join(conv: Conversation, command: LeagueCommand) -> None:
    sender = conv.mail.sender
    member = leagues.join(conv.unit, command.league, sender)
    row = leagues.league_row(conv.unit, command.league)
    count = sum(not m.dropped for m in leagues.members_of(conv.unit, row))
    conv.reply.add(f"You ({member.address}) joined league {row.name} ({row.kind}); {count} player(s) so far. "
                   "When the GM starts it, each round's game comes to you by mail, and the standings after "
                   "every round.")


def _as_gm(conv: Conversation, command: LeagueCommand) -> None:
    unit, sender = conv.unit, conv.mail.sender
    if conv.handled.password_failed:
        raise NotAuthorised(f"LEAGUE {command.verb} {command.league} not checked: a password earlier in this mail "
                            "was wrong")
    if command.password is None:
        row = leagues.league_row(unit, command.league)
        if (row.gm_address or "").lower() != sender:
            raise NotAuthorised(f"LEAGUE {command.verb} {row.name}: only the league's GM may; from another address "
                                "than the GM's, add the league password to the line")
    else:
        try:
            row = leagues.check_gm(unit, command.league, command.password)
        except LockedOut:
            raise
        except NotAuthorised:
            conv.handled.password_failed = True
            raise
    unit.actor = f"gm {sender}"
    if command.verb == "START":
        tables = leagues.start(unit, row.name)
        conv.reply.add(f"League {row.name} starting: {tables} tables are being seated; you will be told when every "
                       "table is seated. Every player gets its seat and first report by mail as its table is "
                       "created.")
    elif command.verb == "REPLACE":
        old, new = command.addresses
        if not consent.may_mail(unit.session, new):
            raise LeagueRefused(f"{new} never wrote to pbem (or asked for no more mail): ask them to write first, "
                                f"for example LEAGUE JOIN {row.name}; then send LEAGUE REPLACE again")
        handed = leagues.replace(unit, row.name, old, new)
        conv.reply.add(f"{new} takes {old}'s place in league {row.name}"
                       + (f", and its seats in {', '.join(handed)}" if handed else "") + ".")
    elif command.verb == "DROP":
        leagues.drop(unit, row.name, command.addresses[0])
        conv.reply.add(f"{command.addresses[0]} is seated in no further round of league {row.name}.")
    else:
        ending = leagues.end(unit, row.name)
        conv.reply.add(f"League {row.name} ended" + (f"; its games {', '.join(ending)} end now too" if ending else "")
                       + ". The final standings go to every player.")


COMMAND = MailCommand(
    rule="league",
    parsed_form=LeagueCommand,
    grammar="""
// LEAGUE CREATE|JOIN|START|STANDINGS|REPLACE|DROP|END <league> ...; build checks the words after the verb
league: _LEAGUE LEAGUE_VERB LEAGUE_WORD*
_LEAGUE: /league\\b/i
LEAGUE_VERB: /(create|join|start|standings|replace|drop|end)\\b/i
LEAGUE_WORD: /\\S+/
""",
    build=build,
    help="""\
  LEAGUE JOIN <league>             join a league before it starts; its games' mail comes to you
  LEAGUE STANDINGS <league>        the standings (points, record, rating mu ± sigma) and tables
  LEAGUE CREATE <league> <kind> [format=swiss|roundrobin|knockout] [rounds=N] [table=K]
        [points=win:3,shared:2,draw:1,loss:0,defeat:0,bye:1] [<game option>=<value> ...]
                                   create a league (you are its GM; the reply gives its password)
  LEAGUE START <league> [<password>]  seat round 1 and start its games
  LEAGUE REPLACE <league> <old> <new> [<password>]  hand a player's place to another address
  LEAGUE DROP <league> <address> [<password>]       seat a player in no further round
  LEAGUE END <league> [<password>]   end the league now
                                   (the GM's four: from the league GM's own address, or with the
                                   league password from any address)
""",
    handle=handle,
)
