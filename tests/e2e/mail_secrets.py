"""Helpers for the end-to-end tests that read every mail of a game for secrets: a game created and
joined by mail (and started, with a curious outsider), the text a reader sees in a mail, a person's
mailbox and newest turn report, and the draws a game sealed, which no mail may list (not a test
module)."""

from __future__ import annotations

import asyncio
import html
import re
from dataclasses import dataclass
from typing import Any

from mail_games import eventually
from mail_harness import MailHarness, Person

from pbem.core import Game, GameRng
from pbem.sandbox.mailclient import ReceivedMail, read_mail
from pbem.orders import OrderParser

MAIL_TIMEOUT = 10.0
DRAWS = re.compile(r"^Draws \(counter:range=result\): (.*)$", re.MULTILINE)


@dataclass
class GameByMail:
    """A game created and joined by mail: its GM with his password, and each seat's player with his."""

    gm: Person
    gm_password: str
    seats: dict[str, tuple[Person, str]]


@dataclass
class MailTable:
    """The people of a game started by mail: its GM, the player of each seat and an outsider."""

    gm: Person
    seats: dict[str, Person]
    outsider: Person


async def create_and_join(service: MailHarness, kind: str, name: str, players: int, options: str,
                          timeout: float = MAIL_TIMEOUT) -> GameByMail:
    """The GM (gm.<name>@example.org) creates the game with ``options`` (``name=value`` words) and
    ``players`` players (p0.<name>@example.org, ...) join it; the game is not started."""
    gm = service.person(f"gm.{name}@example.org")
    await gm.send(f"CREATE {kind} {name} players={players} {options}\n")
    created = await gm.last(timeout=timeout)
    gm_password = re.search(r"GM password is (\S+):", created.body)
    assert gm_password is not None, created.body
    seats: dict[str, tuple[Person, str]] = {}
    for number in range(players):
        person = service.person(f"p{number}.{name}@example.org")
        await person.send(f"JOIN {name}\n")
        joined = await person.last(timeout=timeout)
        found = re.search(rf"You joined game {name} \(.*\) as seat (\S+)\.\s+Your password is (\S+) ", joined.body)
        assert found is not None, joined.body
        seats[found.group(1)] = (person, found.group(2))
    return GameByMail(gm, gm_password.group(1), seats)


async def start_by_mail(service: MailHarness, kind: str, name: str, players: int, seed: int,
                        timeout: float = MAIL_TIMEOUT) -> MailTable:
    """A GM creates game ``name`` by mail, ``players`` people join it by mail, an outsider asks HELP for
    the kind, and the GM starts it; return once the game waits for its first orders."""
    opened = await create_and_join(service, kind, name, players, f"seed={seed}", timeout)
    outsider = service.person("nosy@outside.test")
    await outsider.send(f"HELP {kind}\n")
    await outsider.last(timeout=timeout)
    await opened.gm.send(f"GM {name} {opened.gm_password}\nSTART\n")
    await eventually(lambda: service.runner.info(name).phase is not None)
    return MailTable(opened.gm, {seat: person for seat, (person, _) in opened.seats.items()}, outsider)


CHOICES = re.compile(r'<p class="choices">.*?</p>', re.S)
"""The buttons of the reader's own legal orders in an HTML report (made from its own view)."""


def readable(mail: ReceivedMail, help_text: str, *, without_choices: bool = False) -> str:
    """The text a reader sees in a mail: the plain part and the HTML part without its tags, with the
    game's rules (its HELP text, which names the pieces and gives example orders) taken out; with
    ``without_choices``, also without the buttons of the reader's own choices."""
    page = CHOICES.sub("", mail.html or "") if without_choices else mail.html or ""
    shown = html.unescape(re.sub(r"<[^>]+>", "", page))
    text = (mail.body + "\n" + shown).replace("\r\n", "\n")
    return text.replace(help_text, "")


async def mailbox(service: MailHarness, person: Person) -> list[ReceivedMail]:
    """Every mail ``person`` received so far, oldest first."""
    return [read_mail(m.raw) for m in await service.servers.inbox(person.address)]


async def newest_report(service: MailHarness, person: Person, game: str, turn: int,
                        timeout: float = MAIL_TIMEOUT) -> ReceivedMail:
    """Wait for the report of ``turn`` of ``game`` in ``person``'s mailbox and return it."""
    subject = f"[{game}] Turn {turn}"
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = [m for m in await mailbox(service, person) if m.subject == subject]
        if found:
            return found[-1]
        assert loop.time() < deadline, f"{person.address} got no mail {subject!r}"
        await asyncio.sleep(0.05)


def sealed_counters(service: MailHarness, name: str, game: Game[Any, Any]) -> set[int]:
    """Replay game ``name`` from its seed and its stored options and return the counters of its sealed
    draws (the deals of secrets); the replay must reach the stored state."""
    info = service.runner.info(name)
    parser = OrderParser(game)
    rng = GameRng(info.row.seed)
    state = game.setup(info.seat_names, info.row.options, rng)
    for record in service.runner.history(name):
        orders = {seat: parser.parse("\n".join(texts)).orders for seat, texts in record.orders.items()}
        state = game.resolve(state, orders, rng).state
    assert state == info.state, "the replay from the seed differs"
    return {counter for counter, _, _ in rng.sealed_draws}


def listed_counters(text: str) -> set[int]:
    """The counters of the draws a mail lists ("Draws (counter:range=result): ...")."""
    return {int(word.split(":")[0]) for listed in DRAWS.findall(text) for word in listed.split()}
