"""Report digests by real mail: a whole game of Shelloker (which defaults to ``reports=digest``, and
tells each seat its own hand in events only that seat sees) played by mail through the real daemon and
the embedded IMAP and SMTP servers.

The GM creates the game and three players join, all by mail; one of them asks for every report
(``SET DIGEST OFF``, which overrides the game's choice for that address). At each step the seats that
owe a choice answer the report that asks them (a plain reply); a digest reader that owes nothing gets
no mail for that step. Once, the clock moves on by ``digest_hours`` and the waiting seats and the GM get their
digest without any resolution. Midway the GM refuses a bad ``digest_hours`` and switches the game to
``reports=each`` by mail, after which every seat and the GM get every step, and back to digest. The
final report goes out to everybody at once, with the turns each was not told yet. At the end, for
every seat and the GM, the turns its reports tell (``Turn N results``, a digest's ``Turns N to M
results``) are every resolved turn once, at least one digest told several, and the event lines of all
the reports in its mailbox are exactly the events of the game it may see: none lost, none twice,
none it may not see."""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path

from mail_games import eventually
from mail_harness import MailHarness, Person, running_service
from mail_secrets import create_and_join, mailbox, newest_report

from pbem.core import Event, GameRng
from pbem.games import find_game

NAME = "shell"
KIND = "shelloker"
SEED = 8
GAME = find_game(KIND)
MAIL_TIMEOUT = 10.0
GAME_SECONDS = 150.0
MAX_STEPS = 60


TOLD_TURNS = re.compile(r"^Turns? (\d+)(?: to (\d+))? results$", re.MULTILINE)


async def told_turns(service: MailHarness, person: Person) -> list[tuple[int, int]]:
    """The turns each report in ``person``'s mailbox tells (first, last), in the order they came."""
    told = []
    for mail in await mailbox(service, person):
        if mail.subject.startswith(f"[{NAME}] Turn ") or mail.subject == f"[{NAME}] Final report":
            found = TOLD_TURNS.search(mail.body.replace("\r\n", "\n"))
            if found is not None:  # the opening report tells no turn
                told.append((int(found.group(1)), int(found.group(2) or found.group(1))))
    return told


def report_events(body: str, known: set[str]) -> Counter[str]:
    """The event lines of a report (``  - <text>``) whose text is one of the game's events."""
    lines = (line[4:] for line in body.replace("\r\n", "\n").split("\n") if line.startswith("  - "))
    return Counter(line for line in lines if line in known)


async def told_events(service: MailHarness, person: Person, known: set[str]) -> Counter[str]:
    """The event lines of every report in ``person``'s mailbox."""
    told: Counter[str] = Counter()
    for mail in await mailbox(service, person):
        if mail.subject.startswith(f"[{NAME}] Turn ") or mail.subject == f"[{NAME}] Final report":
            told += report_events(mail.body, known)
    return told


async def reports_of(service: MailHarness, person: Person) -> int:
    """How many reports of the game ``person`` got so far."""
    return sum(1 for mail in await mailbox(service, person)
               if mail.subject.startswith(f"[{NAME}] Turn ") or mail.subject == f"[{NAME}] Final report")


async def mail_saying(service: MailHarness, person: Person, needle: str) -> str:
    """Wait for a mail to ``person`` whose text holds ``needle``; return its text."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAIL_TIMEOUT
    while True:
        for mail in await mailbox(service, person):
            if needle in mail.body:
                return mail.body
        assert loop.time() < deadline, f"{person.address} got no mail saying {needle!r}"
        await asyncio.sleep(0.05)


async def assert_reports(service: MailHarness, people: list[Person], counts: dict[str, int], why: str) -> None:
    """Wait until every person got the reports ``counts`` says (by address), then make sure no more came."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAIL_TIMEOUT
    for person in people:
        while await reports_of(service, person) < counts[person.address]:
            assert loop.time() < deadline, f"{why}: {person.address} did not get report {counts[person.address]}"
            await asyncio.sleep(0.05)
    await service.settle(0.3)
    got = {person.address: await reports_of(service, person) for person in people}
    assert got == counts, (why, got, counts)


def test_no_event_is_lost_from_anybodys_digests(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            opened = await create_and_join(service, KIND, NAME, 3, f"seed={SEED} turn_hours=0")
            gm, password = opened.gm, opened.gm_password
            seats = {seat: person for seat, (person, _) in opened.seats.items()}
            people = [*seats.values(), gm]
            every = seats[sorted(seats)[-1]]  # reads every report, whatever the game says
            await every.send("SET DIGEST OFF\n")
            await mail_saying(service, every, "SET DIGEST OFF: every turn report comes to you")
            await gm.send(f"GM {NAME} {password}\nSTART\n")
            await eventually(lambda: service.runner.info(NAME).phase is not None)
            assert service.runner.info(NAME).row.reports == "digest"
            counts = {p.address: 1 for p in people}  # the opening report goes to everybody
            await assert_reports(service, people, counts, "the opening")

            robots = GameRng(SEED + 1000)
            timed = switched = back = False
            for step in range(MAX_STEPS):
                info = service.runner.info(NAME)
                if info.outcome is not None:
                    break
                choosing = [s for s in info.phase.seats if GAME.forced_orders(info.state, s) is None]
                for seat in choosing:
                    asking = await newest_report(service, seats[seat], NAME, info.row.turn)
                    orders = "\n".join(str(o) for o in GAME.sample_orders(info.state, seat, robots))
                    await seats[seat].reply(asking, orders + "\n")
                await eventually(lambda turn=info.row.turn: service.runner.info(NAME).row.turn > turn,
                                 timeout=MAIL_TIMEOUT)
                after = service.runner.info(NAME)
                if after.outcome is not None or after.row.reports == "each":
                    told = list(people)
                else:
                    owing = [s for s in after.phase.seats if GAME.forced_orders(after.state, s) is None]
                    told = [seats[s] for s in owing] + ([] if every in (seats[s] for s in owing) else [every])
                for person in told:
                    counts[person.address] += 1
                await assert_reports(service, people, counts, f"step {step} ({after.row.reports})")

                waiting = [p for p in people if p not in told]
                if not timed and waiting and after.outcome is None:
                    timed = True  # the clock, not a resolution, tells the waiting readers
                    service.clock.advance(hours=24)
                    for person in waiting:
                        counts[person.address] += 1
                    await assert_reports(service, people, counts, "the digests after 24 hours")
                    assert service.runner.info(NAME).row.turn == after.row.turn
                elif timed and not switched and after.outcome is None:
                    switched = True
                    await gm.send(f"GM {NAME} {password}\nSET digest_hours=0.5\nSET reports=each\n")
                    answer = await mail_saying(service, gm, "Options set: reports=each.")
                    assert "option digest_hours='0.5': give a number from 1 to 720" in answer, answer
                elif switched and after.row.reports == "each":
                    back = True
                    await gm.send(f"GM {NAME} {password}\nSET reports=digest\n")
                    await mail_saying(service, gm, "Options set: reports=digest.")
            final = service.runner.info(NAME)
            assert final.outcome is not None, f"the game did not end in {MAX_STEPS} steps"
            assert timed and switched and back

            history = service.runner.history(NAME)
            resolved = [record.turn for record in history]
            assert resolved == list(range(1, final.row.turn))
            several = False
            for person in people:
                spans = await told_turns(service, person)
                turns = [turn for first, last in spans for turn in range(first, last + 1)]
                assert turns == resolved, (person.address, spans)  # every turn once, in order
                several = several or any(last > first for first, last in spans)
                if person is every:
                    assert len(spans) == len(history) - sum(r.reason == "forced" for r in history), spans
            assert several, "no digest told several turns"
            events = [Event.from_json(data) for record in history for data in record.events]
            assert any(event.seats is not None for event in events), "no private event to check"
            known = {event.text for event in events}
            for seat, person in [*seats.items(), (None, gm)]:
                expected = Counter(event.text for event in events if event.is_visible_to(seat))
                told = await told_events(service, person, known)
                assert told == expected, (seat, expected - told, told - expected)

    asyncio.run(asyncio.wait_for(scenario(), timeout=GAME_SECONDS))
