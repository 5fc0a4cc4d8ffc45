"""Consent by mail: who asked for pbem's mail (every sender of a mail pbem reads), the invitations a
GM's SEAT and REPLACE send to addresses that never wrote, accepting them (any mail from the invited
address, a reply or JOIN), and STOP (the command, and the List-Unsubscribe mailto: a mail whose
subject is ``STOP <token>``). The rules are the service's (:mod:`pbem.service.consent`)."""

from __future__ import annotations

import re

from pbem.commands import Decline
from pbem.core import PbemError
from pbem.mail.answering.conversation import Conversation
from pbem.mail.outbound.notices import NEWEST_REPORT_FOLLOWS
from pbem.mail.outbound.tokens import TokenError, token_game
from pbem.mail.reading.parse import subject_tag
from pbem.service import access, consent, seats
from pbem.store.tables import GameRow, GameStatus

_STOP_SUBJECT = re.compile(r"\s*(?:re\s*:\s*)*stop\s+(?P<token>[a-z2-7]{1,520}\.[a-z2-7]{16})\s*", re.I)


def stop_token_of(subject: str) -> str | None:
    """The token of a List-Unsubscribe mail's subject (``STOP <token>``), or None for any other subject."""
    found = _STOP_SUBJECT.fullmatch(subject)
    return found["token"] if found else None


def invite(conv: Conversation, row: GameRow, seat: str, address: str) -> bool:
    """Send ``address`` its invitation to ``seat`` when it never wrote to pbem (once per game); return
    True when it has not asked for pbem's mail, so its seat waits for its acceptance. Raises
    :class:`~pbem.service.consent.InvitationLimit` past the sender's daily bound."""
    invited = consent.invite(conv.unit, row, seat, address, by=conv.mail.sender)
    if invited is not None:
        conv.notifier.invite(conv.unit, row, invited)
    return not consent.may_mail(conv.unit.session, address)


def accept_invitations(conv: Conversation) -> None:
    """The sender asked for pbem's mail just now: tell it the seats it was invited to and holds are its
    own (a game under way gives it a fresh password, and its reply address), and tell their GMs. A mail of
    commands (not to a reply address) that says STOP accepts none, one that says DECLINE <game> not that
    game's: the command answers."""
    unit, sender = conv.unit, conv.mail.sender
    declined = _declined_games(conv.mail.body) if conv.token_address is None else set()
    for row, seat in consent.invitations_of(unit, sender):
        if ALL_GAMES in declined or row.name_key in declined:
            continue
        info = unit.snapshot(row)
        text = f"You accepted seat {seat.name} of game {row.name} ({info.rules.title})."
        conv.reply.tag_game = row.name
        if row.status == GameStatus.FORMING:
            text += f" The game starts when the GM sends START; STATUS {row.name} shows where it stands."
        else:
            password = seats.renew_password(unit, seat)
            conv.reply.row, conv.reply.seat, conv.reply.secret = row, seat, True
            text += (f" The game is under way: your password is {password} (SIGNON {row.name} {seat.name} "
                     f"{password}); a reply to this mail signs you on. {NEWEST_REPORT_FOLLOWS}")
            conv.notifier.send_newest_report(unit, row, seat)
        conv.reply.add(text)
        conv.notifier.tell_gm(unit, info, f"{sender} accepted seat {seat.name} of {row.name}." + _still_open(conv, row))
        conv.handled.acted = True


class NotAnInvitation(PbemError):
    """A mail to an invitation's reply address that pbem did not make for its sender: forged, expired,
    revoked (the seat changed hands), or the invitation of another address."""


def check_invitation(conv: Conversation) -> None:
    """Return when the mail's reply address is a genuine invitation address of its sender: signed by pbem,
    not expired, for a seat the sender holds. Raises :class:`NotAnInvitation` saying why not."""
    unit, sender = conv.unit, conv.mail.sender
    assert conv.token_address is not None
    how = f"to accept an invitation, reply to the invitation mail itself or send JOIN <game> to {conv.desk.address}"
    try:
        game, seat = conv.desk.tokens.verify(conv.token_address, lambda g, s: access.key_version(unit, g, s),
                                             conv.desk.clock().date())
    except TokenError as error:
        raise NotAnInvitation(f"{error}; nothing was changed: {how}") from None
    if (unit.seat(unit.game(game), seat).address or "").lower() != sender:
        raise NotAnInvitation(f"the invitation to seat {seat} of game {game} was not sent to {sender}; nothing was "
                              f"changed: {how}")


def answer_invitation(conv: Conversation, *, accepted_now: bool) -> None:
    """A genuine reply to an invitation (see :func:`check_invitation`): STOP on its first line stops all
    mail to the sender (its seats of games not started are open again), DECLINE leaves the seat it was
    invited to; any other reply accepted the invitation (``accepted_now``: this mail was the sender's
    first), or had done so before."""
    first = next((line.strip() for line in conv.mail.body.splitlines() if line.strip()), "")
    word = first.split()[0].upper() if first else ""
    if first.upper() == "STOP":
        stop(conv, conv.mail.sender)
    elif word == "DECLINE":
        game = token_game(conv.token_address or "") or subject_tag(conv.mail.subject) or ""
        try:
            decline(conv, Decline(0, game))
        except PbemError as error:
            conv.reply.refuse(0, error)
    elif accepted_now:
        accept_invitations(conv)
    else:
        conv.reply.add("You accepted the invitation before: the game's mail comes to you. Reply to the game's "
                       "mails (or send HELP) for what to do next.")


def _still_open(conv: Conversation, row: GameRow) -> str:
    """For a forming game: which seats START still waits for, or that it may start."""
    if row.status != GameStatus.FORMING:
        return ""
    waiting = [s.name for s in conv.unit.seats(row) if not s.address] + [
        s.name for s in consent.unaccepted(conv.unit, row)]
    return f" Seats still open or not accepted: {', '.join(waiting)}." if waiting else " Send START to begin."


def decline(conv: Conversation, command: Decline) -> None:
    """DECLINE <game>: the sender leaves its seat of a game not started yet; the seat is open again and
    the GM is told (through the service's news)."""
    seat = seats.decline(conv.unit, command.game, conv.mail.sender)
    row = conv.unit.game(command.game)
    conv.reply.tag_game = row.name
    conv.reply.add(f"DECLINE: you left seat {seat.name} of game {row.name}; it is open again, and the GM was told. "
                   f"pbem sends you nothing more for {row.name}.")
    conv.handled.acted = True


ALL_GAMES = "*"
"""In :func:`_declined_games`: the mail says STOP, which declines every invitation."""
_DECLINING = re.compile(r"^[ \t]*(?:decline[ \t]+(?P<game>[a-z0-9][a-z0-9-]{0,40})|(?P<stop>stop))[ \t]*$",
                        re.I | re.M)


def _declined_games(body: str) -> set[str]:
    """The games a mail declines with DECLINE <game> lines (lower case), with :data:`ALL_GAMES` when a
    line of it is STOP."""
    return {match["game"].lower() if match["game"] else ALL_GAMES for match in _DECLINING.finditer(body)}


def stop(conv: Conversation, address: str) -> None:
    """STOP for ``address``: pbem sends it nothing more until it writes again (the GM of each game it
    holds a seat in is told); the reply confirms it. It rests on no seat, so the mail still counts
    toward its sender's rate limit: STOP is always carried out, its answer only within the limit."""
    consent.stop(conv.unit, address)  # the GMs hear of it through the service's news
    conv.reply.add(f"STOP: pbem sends {address} no more mail after this one, until you write to it again.")


def stop_by_token(conv: Conversation, token: str) -> None:
    """A List-Unsubscribe mail: STOP for the address its signed ``token`` names (whoever sent it).
    Raises PbemError for a token that is not pbem's."""
    try:
        address = conv.desk.tokens.verify_stop(token)
    except TokenError as error:
        raise PbemError(f"{error}; send STOP in a mail of its own to stop mail to your address") from None
    stop(conv, address)
