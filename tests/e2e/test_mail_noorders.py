"""NOORDERS by real mail in the two games that once failed on it: in Race on the River both players
hold with a plain reply ``NOORDERS`` and the round resolves with their NMR bids; in The Three Pyramids
the player to play holds and the service plays his NMR default. Each answer says the seat holds, and
the next report goes out."""

from __future__ import annotations

import asyncio
from pathlib import Path

from mail_games import eventually
from mail_harness import running_service
from mail_secrets import create_and_join, newest_report


def test_holding_by_mail_resolves_the_turn(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            for kind, name in (("race-on-the-river", "race"), ("three-pyramids", "pyr")):
                opened = await create_and_join(service, kind, name, 2, "seed=4")
                await opened.gm.send(f"GM {name} {opened.gm_password}\nSTART\n")
                await eventually(lambda n=name: service.runner.info(n).phase is not None)
                info = service.runner.info(name)
                seats = {seat: person for seat, (person, _) in opened.seats.items()}
                for seat in info.phase.seats:
                    report = await newest_report(service, seats[seat], name, 1)
                    await seats[seat].reply(report, "NOORDERS\n")
                await eventually(lambda n=name: service.runner.info(n).row.turn == 2, timeout=10)
                [record] = service.runner.history(name)
                assert all(record.orders[seat] == [] for seat in info.phase.seats), record.orders
                assert record.nmr == []
                for seat, person in seats.items():
                    await newest_report(service, person, name, 2)
                for seat in info.phase.seats:
                    bodies = "\n".join(m.body for m in await seats[seat].inbox.all_mail())
                    assert "you hold" in bodies, bodies

    asyncio.run(asyncio.wait_for(scenario(), timeout=60))
