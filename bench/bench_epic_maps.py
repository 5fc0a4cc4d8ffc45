"""The Epic Quest's map check, measured and cross-checked against the hosting plan (section 4.21).

The plan's exhaustive search found no 11- or 12-card layout in 3 x 4 that meets the rule book,
and 1,984 valid assignments of 11 cards in 3 x 5. This enumerates every connected set of cards in
a grid, every entrance and every set of three portal cells (colours not told apart), and counts
the layouts :func:`map_problems` accepts; it prints the counts, the time, and the time of one
check of the default map.

    python bench/bench_epic_maps.py [--grids 4x3:11,4x3:12,5x3:11]

A forest card that ends a branch is never essential, so every cell with one neighbour must be the
entrance or a portal: layouts breaking that are skipped before the check (they would fail it).
"""

from __future__ import annotations

import argparse
import itertools
import time

from pbem.core.cardmap import HOLE, CardMap
from pbem.games.epic_quest.questmap import DEFAULT_MAP, KINDS, map_problems

Cell = tuple[int, int]


def _layout(width: int, height: int, letters: dict[Cell, str]) -> CardMap:
    return CardMap(tuple("".join(letters.get((c, r), HOLE) for c in range(width)) for r in range(height)))


def count_valid(width: int, height: int, cards: int) -> tuple[int, int]:
    """Return (connected card sets, valid layouts with unordered portals) for ``cards`` cards."""
    cells = [(c, r) for r in range(height) for c in range(width)]
    sets = valid = 0
    for chosen in itertools.combinations(cells, cards):
        shape = _layout(width, height, dict.fromkeys(chosen, "F"))
        if not shape.is_connected():
            continue
        sets += 1
        ends = {cell for cell in chosen if len(shape.neighbours(cell)) == 1}
        if len(ends) > 4:
            continue
        for gate in chosen:
            for portals in itertools.combinations([c for c in chosen if c != gate], 3):
                if not ends <= {gate, *portals}:
                    continue
                letters = dict.fromkeys(chosen, "F") | {gate: "E"} | dict(zip(portals, "GBY", strict=True))
                if not map_problems(_layout(width, height, letters)):
                    valid += 1
    return sets, valid


def main() -> None:
    """Run the enumerations asked for and print what they found."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", default="4x3:11,4x3:12,5x3:11", help="WIDTHxHEIGHT:CARDS, comma separated")
    args = parser.parse_args()
    start = time.perf_counter()
    rounds = 200
    for _ in range(rounds):
        map_problems(CardMap.parse(DEFAULT_MAP, kinds=KINDS))
    print(f"one check of the default map: {(time.perf_counter() - start) / rounds * 1e6:,.0f} us")
    for grid in args.grids.split(","):
        size, cards = grid.split(":")
        width, height = (int(n) for n in size.split("x"))
        start = time.perf_counter()
        sets, valid = count_valid(width, height, int(cards))
        print(f"{height} x {width}, {cards} cards: {sets} connected sets, {valid} valid layouts "
              f"({valid * 6} with the portal colours told apart) in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
