"""A whole game of Meanies in our Midst by real mail, and every mail anybody got, read for secrets.

Five players join by mail and play to the end by replying to their reports; in the first mission one
explorer stays silent, so the service plays his NMR default at the deadline. An outsider asks HELP and
STATUS along the way. At the end every mail each seat, the GM and the outsider received (plain text and
HTML) is read, and none may hold a secret it should not:

- a faction is named only to its holder ("Your faction: ...") until the final report reveals them all;
- a mission hand is named only to its holder ("You draw ...", "Your mission cubes: ..."), ever;
- who kept or gave which cubes is named to nobody, ever: no KEEP or GIVE order but the reader's own
  (in the answers to his own mails), no sentence that ties a seat to cubes given or kept;
- the draws listed in the mails are never the sealed draws of a deal or of a mission.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import mailbox, newest_report, readable, sealed_counters, start_by_mail
from own_orders import without_own_orders

from pbem.core import GameRng
from pbem.games import find_game
from pbem.sandbox.mailclient import ReceivedMail

NAME = "meanies-1"
SEED = 12
ROBOT_SEED = 1012
PLAYERS = 5
GAME_SECONDS = 120.0
MAIL_TIMEOUT = 10.0
MAX_STEPS = 20

GAME = find_game("meanies-in-our-midst")

_C = "(?:white|black|blue|yellow)"
HAND = re.compile(rf"\b{_C}, {_C}, {_C}, {_C}\b")
OWN_FACTION = re.compile(r"Your faction: (Minutian|Meanie)\b")
FACTION_OF = re.compile(r"\bseat (\d+)(?: \(you\))?:? (Minutian|Meanie)\b")
REVEALED = re.compile(r"faction cubes are revealed|The factions:|the (?:Meanies|Minutians) were seat", re.IGNORECASE)
ORDER = re.compile(rf"\b(?:KEEP|GIVE)[ \t]+{_C}[ \t]+{_C}\b", re.IGNORECASE)
GIFT = re.compile(rf"\bseat \d+[^.\n]*\b(?:gives?|gave|keeps?|kept)\b[^.\n]*\b{_C}\b", re.IGNORECASE)
DRAWS = re.compile(r"^Draws \(counter:range=result\): (.*)$", re.MULTILINE)
NAMES = {"minutian": "Minutian", "meanie": "Meanie"}


def knowledge(service: MailHarness) -> dict[str, Any]:
    """What the stored game says: each seat's faction, the hands it drew and its own mission orders."""
    info = service.runner.info(NAME)
    hands: dict[str, set[str]] = defaultdict(set)
    orders: dict[str, set[str]] = defaultdict(set)
    nmr: set[str] = set()
    for record in service.runner.history(NAME):
        for event in record.events:
            if event["kind"] == "draw":
                hands[event["seats"][0]].add(", ".join(event["data"]["cubes"]))
        if any(event["kind"] == "collected" for event in record.events):
            nmr |= set(record.nmr)
            for seat, texts in record.orders.items():
                orders[seat] |= {text.upper() for text in texts}
    factions = {s: NAMES[f] for s, f in zip(info.state.seats, info.state.factions, strict=True)}
    return {"factions": factions, "hands": hands, "orders": orders, "nmr": nmr}


def assert_no_secret(who: str, seat: str | None, mails: list[ReceivedMail], known: dict[str, Any],
                     sealed: set[int], help_text: str) -> None:
    """No mail of ``who`` (the holder of ``seat``, or None for the GM and the outsider) holds a faction,
    a hand, a contribution or a sealed draw it should not."""
    assert mails, f"{who} got no mail"
    for mail in mails:
        # The buttons offer the reader's own possible mission orders, made from its own hand: not sent ones.
        text = without_own_orders(readable(mail, help_text, without_choices=True), seat)
        where = f"{who}, {mail.subject!r}"
        assert seat is not None or 'class="choices"' not in (mail.html or ""), f"{where}: buttons to a non-player"
        final = mail.subject == f"[{NAME}] Final report"
        for faction in OWN_FACTION.findall(text):
            assert seat is not None and faction == known["factions"][seat], f"{where}: 'your' faction {faction}"
        for owner, faction in FACTION_OF.findall(text):
            assert final, f"{where}: seat {owner}'s faction named before the end"
            assert faction == known["factions"][owner], f"{where}: seat {owner} named {faction}"
        assert final or not REVEALED.search(text), f"{where}: factions revealed before the end"
        for hand in HAND.findall(text):
            assert seat is not None and hand in known["hands"][seat], f"{where}: a hand not the reader's: {hand}"
        for order in ORDER.findall(text):
            assert seat is not None and re.sub(r"\s+", " ", order).upper() in known["orders"][seat], \
                f"{where}: a mission order not the reader's own: {order}"
        assert not GIFT.search(text), f"{where}: who gave what: {GIFT.search(text)}"
        for listed_draws in DRAWS.findall(text):
            counters = {int(word.split(":")[0]) for word in listed_draws.split()}
            assert not counters & sealed, f"{where}: sealed draws listed: {sorted(counters & sealed)}"


async def reply_for(service: MailHarness, person: Person, seat: str, turn: int, robots: GameRng) -> None:
    """Answer the seat's report of ``turn`` with a robot's legal orders (robots may peek at the state)."""
    report = await newest_report(service, person, NAME, turn, MAIL_TIMEOUT)
    state = service.runner.info(NAME).state
    await person.reply(report, "\n".join(str(o) for o in GAME.sample_orders(state, seat, robots)) + "\n")


async def final_report(service: MailHarness, person: Person) -> None:
    """Wait (up to MAIL_TIMEOUT) until the game's final report is in ``person``'s mailbox."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAIL_TIMEOUT
    while not any(m.subject == f"[{NAME}] Final report" for m in await mailbox(service, person)):
        if loop.time() >= deadline:
            raise TimeoutError(f"no final report reached {person.address} in {MAIL_TIMEOUT} s")
        await asyncio.sleep(0.05)


def test_no_mail_of_a_whole_game_holds_a_faction_a_hand_or_a_gift_it_should_not(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            table = await start_by_mail(service, "meanies-in-our-midst", NAME, PLAYERS, SEED, MAIL_TIMEOUT)
            gm, seats, outsider = table.gm, table.seats, table.outsider

            robots = GameRng(ROBOT_SEED)
            silent = None
            for step in range(MAX_STEPS):
                info = service.runner.info(NAME)
                if info.outcome is not None:
                    break
                turn, owing = info.row.turn, info.phase.seats
                quiet = None
                if info.phase.name == "mission" and silent is None:
                    silent = quiet = owing[-1]  # an explorer who never answers: his NMR default at the deadline
                for seat in owing:
                    if seat != quiet:
                        await reply_for(service, seats[seat], seat, turn, robots)
                if quiet is not None:
                    await eventually(lambda: service.runner.missing_seats(NAME) == [quiet], timeout=MAIL_TIMEOUT)
                    service.clock.advance(hours=49)
                await eventually(lambda before=turn: service.runner.info(NAME).row.turn > before, timeout=MAIL_TIMEOUT)
                if step % 3 == 0:
                    await outsider.send(f"STATUS {NAME}\n")
                    status = await outsider.last(timeout=MAIL_TIMEOUT)
                    assert NAME in status.body
            info = service.runner.info(NAME)
            assert info.outcome is not None, f"the game did not end in {MAX_STEPS} steps"
            await final_report(service, gm)  # the replies to the last orders may come before it
            await service.settle(0.5)

            known = knowledge(service)
            assert silent in known["nmr"], "the silent explorer's NMR default was not played"
            sealed = sealed_counters(service, NAME, GAME)
            assert len(sealed) >= PLAYERS + 3 * 3 * 4
            help_text = GAME.help()
            people = [(f"seat {s}", s, p) for s, p in seats.items()] + [("the GM", None, gm),
                                                                         ("the outsider", None, outsider)]
            for who, seat, person in people:
                assert_no_secret(who, seat, await mailbox(service, person), known, sealed, help_text)
            for seat, person in seats.items():
                mine = "\n".join(readable(m, help_text) for m in await mailbox(service, person))
                assert f"Your faction: {known['factions'][seat]}" in mine
                assert all(hand in mine for hand in known["hands"][seat]), f"seat {seat} was not told its cubes"
            finals = [m for m in await mailbox(service, gm) if m.subject == f"[{NAME}] Final report"]
            assert finals and set(FACTION_OF.findall(readable(finals[-1], help_text))) == set(known["factions"].items())

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))
