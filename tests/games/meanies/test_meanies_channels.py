"""A whole game of Meanies in our Midst through the real runner and database, then every channel that
shows a game read for secrets: the reports of every seat and the GM's public one, ``pbem show --json`` (as
the public and as each seat) and ``pbem replay`` run as the installed command, and every page and picture
of the web archive, public and private. No channel shows a seat another seat's mission cubes, ever, and
none shows anybody who kept or gave which cubes, not even after the end."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import pytest
from databases import database_url
from meanies_builders import GAME
from own_orders import without_own_orders

from pbem.core import GameError, GameRng
from pbem.mail.running.daemon import reply_tokens
from pbem.service.api import GameService
from pbem.store import open_database
from pbem.web.archive import Archive

KIND = "meanies-in-our-midst"
NAME = "m-1"
SEATS = ("1", "2", "3", "4", "5")
SEED = 31
PBEM = Path(sys.executable).with_name("pbem")

_C = "(?:white|black|blue|yellow)"
HAND = re.compile(rf"\b{_C}, {_C}, {_C}, {_C}\b")
ORDER = re.compile(rf"\b(?:KEEP|GIVE)\s+{_C}\s+{_C}", re.IGNORECASE)
GIFT = re.compile(rf"seat \d+[^.\n]*\b(?:gives?|gave|keeps?|kept)\b[^.\n]*\b{_C}", re.IGNORECASE)


def _play(runner: GameService) -> None:
    runner.create_game(KIND, NAME, seats={s: f"p{s}@example.org" for s in SEATS}, seed=SEED,
                       options={"turn_hours": "0"})
    robots = GameRng(SEED + 1)
    for _ in range(20):
        info = runner.info(NAME)
        if info.outcome is not None:
            return
        for seat in info.phase.seats:
            if seat != "5":  # seat 5 never answers: the service plays its NMR default
                runner.submit(NAME, seat, "\n".join(str(o) for o in GAME.sample_orders(info.state, seat, robots)))
        runner.resolve(NAME)
    pytest.fail("the game did not end in 20 steps")


def _hands(runner: GameService) -> dict[str, set[str]]:
    """Every hand each seat drew, as the text of its own draw events."""
    hands: dict[str, set[str]] = defaultdict(set)
    for record in runner.history(NAME):
        for event in record.events:
            if event["kind"] == "draw":
                hands[event["seats"][0]].add(", ".join(event["data"]["cubes"]))
    return hands


def _pbem(db: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
    done = subprocess.run([str(PBEM), *args, "--db", str(db)], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _archive(runner: GameService, reader: str | None) -> str:
    archive = Archive(runner, reply_tokens(runner.db), clock=lambda: datetime.now(UTC))
    info = archive.info(NAME)
    window = archive.window(info, None)
    assert window.pages == 1
    pages = archive.pages(info, reader, window, lambda turn: f"/board/{turn}", lambda turn: f"/own/{turn}")
    steps = [archive.step(info, page.turn) for page in pages]
    pictures = [archive.board_svg(step) for step in steps] + [archive.own_svg(step, reader) or "" for step in steps]
    return "\n".join([page.report_text for page in pages] + [p.alt for page in pages for p in page.pictures]
                     + pictures)


def test_no_channel_shows_another_seats_cubes_or_who_gave_which(tmp_path: Path) -> None:
    db_path = database_url(tmp_path)
    db = open_database(db_path)
    try:
        runner = GameService(db)
        _play(runner)
        hands = _hands(runner)
        assert hands and set(hands) <= set(SEATS)
        missions = [r for r in runner.history(NAME) if any(e["kind"] == "collected" for e in r.events)]
        assert len(missions) >= 3 and any("5" in r.nmr for r in missions)
        gifts = {text for r in missions for texts in r.orders.values() for text in texts}
        assert gifts and all(ORDER.fullmatch(text) for text in gifts)
        shown: dict[str | None, list[str]] = {}
        for reader in (None, *SEATS):
            as_seat = ["--as", reader] if reader else []
            shown[reader] = [
                without_own_orders(runner.report_text(NAME, reader), reader),
                _pbem(db_path, "show", NAME, "--json", *as_seat),
                _archive(runner, reader),
            ]
        shown[None].append(_pbem(db_path, "replay", NAME))
    finally:
        db.close()
    for reader, texts in shown.items():
        text = "\n".join(texts)
        for hand in HAND.findall(text):
            assert reader is not None and hand in hands[reader], f"{reader}: a hand not its own: {hand}"
        assert not ORDER.search(text), f"{reader}: a mission order: {ORDER.search(text)}"
        assert not GIFT.search(text), f"{reader}: who gave what: {GIFT.search(text)}"
        assert "Missions so far:" in text and "The factions: seat 1" in text
    for seat in SEATS:
        if hands[seat]:
            assert any(hand in "\n".join(shown[seat]) for hand in hands[seat]), f"seat {seat} never saw its cubes"


def test_the_seed_of_a_finished_game_stays_secret(tmp_path: Path) -> None:
    """The seed recomputes every sealed mission draw, so this game never reveals it (HELP)."""
    db = open_database(database_url(tmp_path))
    try:
        runner = GameService(db)
        _play(runner)
        info = runner.info(NAME)
        assert info.outcome is not None and info.row.secret
        for reader in (None, *SEATS):  # the secret is the seed's text, "31": a plain search would find digits
            assert "Seed revealed" not in runner.report_text(NAME, reader)
        assert runner.last_report(NAME).fairness.secret is None
        assert runner.status(NAME).revealed_secret is None
        with pytest.raises(GameError, match="keeps its seed secret even after the end"):
            runner.verify(NAME)
    finally:
        db.close()
