"""Helpers for the end-to-end tests that read every mail of a game for secrets: opening a game by
mail, the text a reader sees in a mail, and the draws a mail may never list (not a test module)."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass

from mail_harness import MailHarness, Person

from pbem.core import Game, GameRng
from pbem.mail.mailclient import ReceivedMail
from pbem.orders import OrderParser

MAIL_TIMEOUT = 10.0
DRAWS = re.compile(r"^Draws \(counter:range=result\): (.*)$", re.MULTILINE)


@dataclass
class GameByMail:
    """A game created and joined by mail: its GM with his password, and each seat's player with his."""

    gm: Person
    gm_password: str
    seats: dict[str, tuple[Person, str]]


async def create_and_join(service: MailHarness, kind: str, name: str, players: int, options: str) -> GameByMail:
    """The GM (gm.<name>@example.org) creates the game with ``options`` (``name=value`` words) and
    ``players`` players (p0.<name>@example.org, ...) join it; the game is not started."""
    gm = service.person(f"gm.{name}@example.org")
    await gm.send(f"CREATE {kind} {name} players={players} {options}\n")
    created = await gm.last(timeout=MAIL_TIMEOUT)
    gm_password = re.search(r"GM password is (\S+):", created.body)
    assert gm_password is not None, created.body
    seats: dict[str, tuple[Person, str]] = {}
    for number in range(players):
        person = service.person(f"p{number}.{name}@example.org")
        await person.send(f"JOIN {name}\n")
        joined = await person.last(timeout=MAIL_TIMEOUT)
        found = re.search(rf"You joined game {name} \(.*\) as seat (\S+)\.\s+Your password is (\S+) ", joined.body)
        assert found is not None, joined.body
        seats[found.group(1)] = (person, found.group(2))
    return GameByMail(gm, gm_password.group(1), seats)


def readable(mail: ReceivedMail, help_text: str) -> str:
    """The text a reader sees in a mail: the plain part and the HTML part without its tags, with the
    game's rules (its HELP text, which names colours freely) taken out."""
    shown = html.unescape(re.sub(r"<[^>]+>", "", mail.html or ""))
    text = (mail.body + "\n" + shown).replace("\r\n", "\n")
    return text.replace(help_text, "")


def sealed_counters(service: MailHarness, name: str, game: Game[object, object], options: Mapping[str, str]
                    ) -> set[int]:
    """Replay the game from its seed and return the counters of its sealed draws (the draws that
    dealt a secret), checking that the replay ends in the stored state."""
    info = service.runner.info(name)
    parser = OrderParser(game)
    rng = GameRng(info.row.seed)
    state = game.setup(game.seat_names(len(info.seats)), options, rng)
    for record in service.runner.history(name):
        orders = {seat: parser.parse("\n".join(texts)).orders for seat, texts in record.orders.items()}
        state = game.resolve(state, orders, rng).state
    assert state == info.state, "the replay from the seed differs"
    return {counter for counter, _, _ in rng.sealed_draws}


def listed_counters(text: str) -> set[int]:
    """The counters of the draws a mail lists ("Draws (counter:range=result): ...")."""
    return {int(word.split(":")[0]) for listed in DRAWS.findall(text) for word in listed.split()}
