"""No receipt or record entry tells what a game keeps secret, for every game: a record entry holds each
seat's orders only as a receipt (a hash), a report reveals another seat's orders only in a game whose
rules tell them to everyone once the step resolves, and docs/secrets.md agrees with each game's
declaration (a game that keeps something secret for ever, or has hidden information, never shows one
seat's orders to another)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pbem.core import GameRng
from pbem.core.chain import BLOCK_END, BLOCK_START
from pbem.games import GAMES, find_game
from pbem.sandbox.demo import robot_orders
from pbem.service.api import GameService
from pbem.service.owing import owing_seats
from pbem.service.record import reveals_orders

ROOT = Path(__file__).resolve().parents[2]
STEPS = 6
HASH = re.compile(r"[0-9a-f]{64}")


def secrets_table() -> dict[str, list[str]]:
    """docs/secrets.md's table: a game's title -> its cells."""
    rows = [line.split("|") for line in (ROOT / "docs" / "secrets.md").read_text().splitlines()
            if line.startswith("| ") and not line.startswith("| Game") and not line.startswith("| ---")]
    return {cells[1].strip(): [cell.strip() for cell in cells[1:-1]] for cells in rows}


def record_lines(report: str) -> list[dict[str, object]]:
    """The JSON lines of a report's record block."""
    lines = report.split("\n")
    if BLOCK_START not in lines:
        return []
    start = lines.index(BLOCK_START)
    end = lines.index(BLOCK_END, start + 1)
    return [json.loads(line) for line in lines[start + 1:end]]


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_docs_secrets_agrees_with_which_games_reveal_their_orders(kind: str) -> None:
    rules = find_game(kind)
    row = secrets_table()[rules.title]
    secret_now, told, seed = row[1], row[2], row[3]
    if "never" in told or "kept secret" in seed or getattr(rules, "has_hidden_information", False):
        assert not reveals_orders(rules), f"{kind} keeps secrets its orders may name"
    if reveals_orders(rules):
        assert secret_now.startswith("nothing") or "to everyone" in told, (kind, row)


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_no_report_shows_another_seats_orders_before_the_rules_do(kind: str, runner: GameService) -> None:
    rules = find_game(kind)
    seats = {seat: f"p{seat.lower()}@example.org" for seat in rules.seat_names(rules.min_players)}
    runner.create_game(kind, "g", seats=seats, seed=3, options=dict(getattr(rules, "quick_options", {})))
    robots = GameRng(5)
    public = reveals_orders(rules)
    for _ in range(STEPS):
        info = runner.info("g")
        if info.outcome is not None:
            break
        sent: dict[str, list[str]] = {}
        for seat in owing_seats(info):
            result = runner.submit("g", seat, robot_orders(runner, "g", seat, robots))
            if result.version is not None:
                assert result.receipt is not None and HASH.fullmatch(result.receipt)
                assert not any(order in result.render().split("Receipt for game")[1]
                               for order in map(str, result.accepted) if len(order) > 3)
                sent[seat] = [str(order) for order in result.accepted]
        runner.resolve("g", reason="gm")
        for reader in (None, *seats):
            report = runner.report_text("g", reader)
            for item in record_lines(report):
                if "prev" in item:  # an entry: receipts only, no seat's orders in the clear
                    assert all(HASH.fullmatch(str(value)) for value in dict(item.get("orders", {})).values()), item
                    line = json.dumps(item)
                    assert not any(f'"{order}"' in line for orders in sent.values() for order in orders), item
                else:  # orders revealed with their nonce
                    assert public or item["seat"] == reader, (kind, reader, item)
