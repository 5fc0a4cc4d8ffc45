"""The nudge ``pbem deliver`` gives the daemon serving the same database (pbem.mail.intake.wake)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pbem.mail.intake.wake import LEAST_INTERVAL, WakeListener, nudge, wake_address
from pbem.store import open_database


def test_the_wake_address_names_the_database_not_the_path_it_was_opened_by(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "games")
    one = open_database(str(tmp_path / "games" / "pbem.db"))
    same = open_database(str(tmp_path / "link" / "pbem.db"))
    other = open_database(str(tmp_path / "other.db"))
    try:
        assert wake_address(one) == wake_address(same) != wake_address(other)
        assert wake_address(one) is not None and wake_address(one).startswith(b"\0pbem-wake-")  # type: ignore[union-attr]
    finally:
        for db in (one, same, other):
            db.close()


def test_a_nudge_reaches_the_listening_daemon_of_that_database_only(tmp_path: Path) -> None:
    db, other = open_database(str(tmp_path / "pbem.db")), open_database(str(tmp_path / "other.db"))

    async def scenario() -> None:
        woken = asyncio.Event()
        assert not nudge(db)  # nobody listens yet: no error, no nudge
        listener = WakeListener(db, woken.set)
        assert listener.start()
        try:
            assert not WakeListener(db, woken.set).start()  # the name is taken: a second listener is refused
            assert not nudge(other)
            await asyncio.sleep(0.05)
            assert not woken.is_set()
            assert nudge(db) and nudge(db) and nudge(db)
            await asyncio.wait_for(woken.wait(), 5)
            await asyncio.sleep(0.05)
            assert listener.nudges == 3
        finally:
            listener.stop()
        assert not nudge(db)  # stopped: the name is free, nobody listens

    try:
        asyncio.run(scenario())
    finally:
        db.close()
        other.close()


def test_a_stream_of_nudges_makes_the_daemon_look_at_most_once_per_interval(tmp_path: Path) -> None:
    db = open_database(str(tmp_path / "pbem.db"))

    async def scenario() -> None:
        looks: list[float] = []
        loop = asyncio.get_running_loop()
        listener = WakeListener(db, lambda: looks.append(loop.time()))
        assert listener.start()
        try:
            sent = 0
            for _ in range(20):  # 20 bursts of 50 over about 0.1 s
                sent += sum(nudge(db) for _ in range(50))
                await asyncio.sleep(0.005)
            await asyncio.sleep(LEAST_INTERVAL * 3)
            assert listener.nudges == sent >= 20  # a full queue (a few datagrams) refuses the rest: never an error
            assert 2 <= len(looks) == listener.wakes
            assert all(later - earlier >= LEAST_INTERVAL * 0.9 for earlier, later in zip(looks, looks[1:]))
            assert len(looks) <= (looks[-1] - looks[0]) / LEAST_INTERVAL + 1
        finally:
            listener.stop()

    try:
        asyncio.run(scenario())
    finally:
        db.close()
