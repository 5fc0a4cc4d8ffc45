"""Who sits at which table in a round of a league: pure functions of the players (ids), their order
and who met whom before.

- Swiss: the players in standings order; each table is opened by the best player not yet seated and
  filled with the players next in the standings, unless that makes players meet again who met before:
  then the arrangement with the fewest repeat meetings wins (searched with a bounded search; among
  equally good ones the first in standings order).
- Round robin: with tables of 2 the circle method, in which everyone meets everyone exactly once in
  ``n - 1`` rounds (``n`` rounded up to even; the odd one out has a bye); with larger tables each round
  seats the players (turned by one place a round) so that the fewest pairs meet again, which keeps the
  meetings even: 9 players at tables of 3 meet each other exactly once in 4 rounds, and 8 at tables of
  4 each other exactly 3 times in 7.
- Knockout: one player goes on from each table (the winner; without a single winner the best result,
  then the best score, then the better seed), and the next round seats those in seed order.

Tables have ``size`` players when the count allows, else as equal as they can be and never fewer
than the game's ``min_players``; when that cannot be, the players left over get a bye (the ones
lowest in the order that had the fewest byes; in a knockout the best seeds).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, islice
from math import ceil

from pbem.core.errors import GameError
from pbem.leagues.results import Place, ResultKind

Meetings = Counter[frozenset[int]]
"""How often each pair of players sat at one table."""

SEARCH_WORK = 300_000
"""Most pairs of players the seating search of one round looks up (bounded work): past it, the best
arrangement found so far is taken (the search's first, top-down arrangement is always completed)."""
WINDOW = 3
"""The search picks a table's companions among the next ``WINDOW * size`` players in the order."""
OPTIONS = 500
"""Most ways to fill one table the search weighs (the first in the order: bounded work at large tables)."""


class NotEnoughPlayers(GameError):
    """Too few players for a table of the league's game."""


@dataclass(frozen=True)
class Round:
    """A round's seating: its tables (players in seat order) and the players with a bye."""

    tables: tuple[tuple[int, ...], ...]
    byes: tuple[int, ...] = ()


def table_sizes(players: int, size: int, min_players: int) -> tuple[list[int], int]:
    """The sizes of a round's tables for ``players`` players, and how many get a bye: tables of
    ``size`` or as equal as they can be, each at least ``min_players``; else tables of ``size`` and
    byes for the rest. Raises NotEnoughPlayers when no table can be formed."""
    if players < min_players or players < 2:
        raise NotEnoughPlayers(f"{players} player(s) cannot fill a table: the game needs {min_players}")
    count = ceil(players / size)
    base, extra = divmod(players, count)
    sizes = [base + 1] * extra + [base] * (count - extra)
    if sizes[-1] >= min_players:
        return sizes, 0
    count = players // size
    return [size] * count, players - count * size


def meetings_of(tables: Iterable[Sequence[int]]) -> Meetings:
    """How often each pair of players sat at one of ``tables``."""
    met: Meetings = Counter()
    for table in tables:
        for pair in combinations(table, 2):
            met[frozenset(pair)] += 1
    return met


def swiss(order: Sequence[int], *, size: int, min_players: int, meetings: Meetings,
          byes_had: Mapping[int, int] | None = None) -> Round:
    """A Swiss round: ``order`` is the standings, best first (see the module docstring)."""
    sizes, bye_count = table_sizes(len(order), size, min_players)
    byes = _byes(order, bye_count, byes_had or {})
    seated = [player for player in order if player not in byes]
    return Round(_search(seated, sizes, meetings), byes)


def round_robin(players: Sequence[int], round_number: int, *, size: int, min_players: int,
                meetings: Meetings, byes_had: Mapping[int, int] | None = None) -> Round:
    """Round ``round_number`` (from 1) of a round robin of ``players`` (in join order). Tables of 2: the
    circle method's round (everyone meets everyone once in :func:`round_robin_rounds` rounds). Larger
    tables: the players, turned by one place each round, seated so that the fewest pairs meet again
    (so over the rounds the meetings stay even)."""
    if size == 2:
        return _circle(players, round_number)
    turn = (round_number - 1) % max(len(players), 1)
    rotated = [*players[turn:], *players[:turn]]
    sizes, bye_count = table_sizes(len(players), size, min_players)
    byes = _byes(rotated, bye_count, byes_had or {})
    return Round(_search([p for p in rotated if p not in byes], sizes, meetings), byes)


def round_robin_rounds(players: int, size: int) -> int:
    """The rounds in which each player can meet every other: ``n - 1`` for tables of 2 (``n`` rounded up
    to even), else enough rounds for each player to sit with ``players - 1`` others."""
    if size == 2:
        return players - 1 if players % 2 == 0 else players
    return max(1, ceil((players - 1) / (size - 1)))


def knockout_rounds(players: int, size: int, min_players: int) -> int:
    """The rounds of a knockout of ``players`` (one goes on from each table, the byes too) until fewer
    are left than a table needs."""
    rounds = 0
    while players >= max(min_players, 2):
        sizes, byes = table_sizes(players, size, min_players)
        players, rounds = len(sizes) + byes, rounds + 1
    return rounds


def knockout(seeds: Sequence[int], *, size: int, min_players: int) -> Round:
    """A knockout round of the players still in, in seed order (best first): the best seeds get the
    byes, the others sit at tables in seed order."""
    sizes, bye_count = table_sizes(len(seeds), size, min_players)
    byes = tuple(seeds[:bye_count])
    rest = list(seeds[bye_count:])
    tables: list[tuple[int, ...]] = []
    for table_size in sizes:
        tables.append(tuple(rest[:table_size]))
        rest = rest[table_size:]
    return Round(tuple(tables), byes)


_KIND_RANK = {ResultKind.WIN: 0, ResultKind.SHARED: 1, ResultKind.DRAW: 2, ResultKind.DEFEAT: 3,
              ResultKind.LOSS: 4, ResultKind.BYE: 5}


def advancing(places: Mapping[int, Place], seed_rank: Mapping[int, int]) -> int:
    """The one player of a knockout table who goes on: the best result kind (a sole winner first), then
    the best score, then the better seed (lower ``seed_rank``)."""
    return min(places, key=lambda p: (_KIND_RANK[places[p].kind], -places[p].score, seed_rank.get(p, 0), p))


def _byes(order: Sequence[int], count: int, byes_had: Mapping[int, int]) -> tuple[int, ...]:
    """The ``count`` players to sit out: those with the fewest byes so far, lowest in ``order`` first."""
    if count == 0:
        return ()
    from_bottom = list(reversed(order))
    chosen = sorted(from_bottom, key=lambda p: (byes_had.get(p, 0), from_bottom.index(p)))[:count]
    return tuple(p for p in order if p in chosen)


def _circle(players: Sequence[int], round_number: int) -> Round:
    """The circle method's round ``round_number``: the first player stays, the others turn one place a round."""
    circle: list[int | None] = [*players, None] if len(players) % 2 else list(players)
    n = len(circle)
    turn = (round_number - 1) % (n - 1)
    rest = circle[1:]
    arranged = [circle[0], *rest[-turn:], *rest[:-turn]] if turn else circle
    tables, byes = [], []
    for i in range(n // 2):
        a, b = arranged[i], arranged[n - 1 - i]
        if a is None or b is None:
            byes.append(b if a is None else a)
        else:
            tables.append((a, b))
    return Round(tuple(tables), tuple(p for p in byes if p is not None))


def _search(order: Sequence[int], sizes: Sequence[int], meetings: Meetings) -> tuple[tuple[int, ...], ...]:
    """Seat ``order`` at tables of ``sizes``: the arrangement with the fewest repeat meetings found
    within :data:`SEARCH_WORK`; each table is opened by the first unseated player in ``order``
    and its companions tried in order, so that with no repeats the first arrangement is top-down."""
    best: list[tuple[int, ...]] = []
    best_cost = [float("inf")]
    work = [0]

    def cost_of(table: Sequence[int]) -> int:
        return sum(meetings.get(frozenset(pair), 0) for pair in combinations(table, 2))

    def place(remaining: list[int], depth: int, tables: list[tuple[int, ...]], cost: int) -> None:
        if depth == len(sizes):
            if cost < best_cost[0]:
                best_cost[0], best[:] = cost, tables
            return
        if best and work[0] >= SEARCH_WORK:
            return
        head, others = remaining[0], remaining[1:]
        window = others[:WINDOW * sizes[depth]]
        options = sorted(((cost_of((head, *mates)), mates)
                          for mates in islice(combinations(window, sizes[depth] - 1), OPTIONS)),
                         key=lambda option: option[0])
        work[0] += len(options) * sizes[depth] * (sizes[depth] - 1) // 2
        for added, mates in options:
            if cost + added >= best_cost[0] or best_cost[0] == 0 or (best and work[0] >= SEARCH_WORK):
                return
            left = [p for p in others if p not in mates]
            place(left, depth + 1, [*tables, (head, *mates)], cost + added)

    place(list(order), 0, [], 0)
    return tuple(best)
