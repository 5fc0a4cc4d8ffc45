"""LEAGUE commands by mail, each by one call to :mod:`pbem.service.leagues`: anyone's JOIN and STANDINGS
(the sender's own row marked; the GM sees every member's address beside its name),
CREATE (the sender becomes the league's GM and gets its password), and the GM's START, REPLACE, DROP and
END: from the GM's own address (resting on the From, like CREATE: refused when the receiving server
found it forged), or from any address with the league's password on the line. START and END answer at once;
the work that grows with the league (creating its games, ending them) is the clock's, in steps
(:mod:`pbem.service.league_steps`), and the GM is told when the round is seated."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func
from sqlmodel import select

from pbem.commands import LeagueCommand
from pbem.core import PbemError
from pbem.mail.answering.conversation import Conversation
from pbem.service import consent, leagues
from pbem.service.access import LockedOut, NotAuthorised
from pbem.store.tables import LeagueRow

MAX_LEAGUES_PER_DAY = 3
"""Leagues one address may create in 24 hours."""


class LeagueRefused(PbemError):
    """A LEAGUE command that is not carried out as asked (too many leagues, an address that never wrote)."""


def league(conv: Conversation, command: LeagueCommand) -> None:
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
