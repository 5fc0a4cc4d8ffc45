"""The worked example of docs/fair-play.md: a real two-seat Race on the River played by the service with
the seed 11, seat 1 bidding 2 and seat 2 bidding 1 while their hands allow, and what seat 1 keeps of it
(the receipt of its first bid and the record part of each report it got). ``python
tests/support/fair_play_example.py DB`` prints them in the doc's layout; tests/test_fair_play_doc.py checks
that the doc's example verifies."""

from __future__ import annotations

import sys

from pbem.core.chain import BLOCK_END, RECORD_HEADING
from pbem.service.api import GameService
from pbem.store import open_database

NAME = "fp"
BIDS = {"1": ("BID 2", "BID 1", "BID 0"), "2": ("BID 1", "BID 0")}


def record_part(report: str, *, final: bool) -> str:
    """The lines of a report a checker needs: the record part, after ``Seed revealed`` in the final report."""
    lines = report.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith(RECORD_HEADING))
    end = lines.index(BLOCK_END, start)
    revealed = [line for line in lines[:start] if line.startswith("Seed revealed:") and final]
    return "\n".join([*revealed, *lines[start:end + 1]]) + "\n"


def play(service: GameService) -> tuple[str, list[str]]:
    """Play the example game; return seat 1's first receipt line and the record part of each of its reports."""
    service.create_game("race-on-the-river", NAME, seats={"1": "rosa@example.org", "2": "otto@example.org"}, seed=11)
    receipt = ""
    for _ in range(20):
        info = service.info(NAME)
        if info.outcome is not None or info.phase is None:
            break
        for seat in info.phase.seats:
            for bid in BIDS[seat]:
                result = service.submit(NAME, seat, bid)
                if result.version is not None:
                    break
            if seat == "1" and not receipt:
                receipt = next(line for line in result.render().splitlines() if line.startswith("Receipt for"))
        service.resolve(NAME, reason="gm")
    last = service.history(NAME)[-1].turn
    return receipt, [record_part(service.report_text(NAME, "1", turn), final=turn == last) for turn in range(last + 1)]


if __name__ == "__main__":
    database = open_database(sys.argv[1])
    first, parts = play(GameService(database))
    print(f"```text\n{first}\n```\n")
    for number, part in enumerate(parts):
        print(f"Report {number}:\n\n```text\n{part}```\n")
