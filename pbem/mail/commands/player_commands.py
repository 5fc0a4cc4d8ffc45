"""What players do by mail about themselves rather than a game: REGISTER a name, WHOIS a player."""

from __future__ import annotations

from pbem.commands import Register, Whois
from pbem.mail.answering.conversation import Conversation
from pbem.service import players


def register(conv: Conversation, command: Register) -> None:
    """REGISTER <name> [<code>]: the sender takes a name, renames itself, joins a name with its code, or
    (from an address of the name) is given a code that joins one more address."""
    done = players.register(conv.unit, conv.mail.sender, command.name, command.code)
    if done.how == "registered":
        text = (f"REGISTER: you are {done.name}. Your record across games (games, outcomes, deadlines met) is "
                f"shown under this name to anyone who asks (WHOIS {done.name}), never your address.")
    elif done.how == "renamed":
        text = f"REGISTER: your name is {done.name} now (it was {done.old_name}); your record goes with it."
    elif done.how == "joined":
        text = (f"REGISTER: this address is joined to {done.name}, which has {done.addresses} addresses now; "
                "their records count together.")
    else:
        conv.reply.secret = True  # the code joins an address to the name: the copy kept loses its body once sent
        text = (f"REGISTER: you are {done.name} already ({done.addresses} address"
                f"{'es' if done.addresses != 1 else ''}). To join another address of yours to {done.name}, send "
                f"from it, within 7 days:\nREGISTER {done.name} {done.link_code}\n"
                "(The code works once; a new REGISTER gives a new one.)")
    conv.reply.add(text)


def whois(conv: Conversation, command: Whois) -> None:
    """WHOIS <name>: a registered player's record, with its reliability."""
    summary = players.profile_of(conv.unit.session, command.name).summary
    conv.reply.add(players.record_text(summary.name, summary.record))

