"""A random robot player for Turkey Chase (robots and property tests).

It proposes orders of every kind - feeding, fences pulled down and built,
birds wandering towards corn, farmers (first and second moves) chasing the
nearest bird of another player, new farmers from turn 4 - in a random line
order, and keeps what validation accepts, so the result is always legal and
within the budget. Farmers chase on purpose so that random games end.
"""

from __future__ import annotations

from collections import deque

from pbem.core import GameRng
from pbem.core.grid import Cell, Fence
from pbem.games.turkey_chase.board import BORDERS, GAPS, NEIGHBOURS, NEW_FROM_TURN
from pbem.games.turkey_chase.orders import Build, Destroy, Feed, Move, New, TurkeyOrder
from pbem.games.turkey_chase.planning import validate_orders
from pbem.games.turkey_chase.state import TurkeyState


def _chase_path(start: Cell, targets: set[Cell], fences: frozenset[Fence]) -> list[Cell]:
    """Return the squares of a shortest fence-free path from ``start`` to a target
    (``start`` excluded), or [] when none is reachable."""
    if not targets:
        return []
    came: dict[Cell, Cell | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell in targets and cell != start:
            path = []
            step: Cell | None = cell
            while step is not None and step != start:
                path.append(step)
                step = came[step]
            return path[::-1]
        for nxt in NEIGHBOURS[cell]:
            if nxt not in came and frozenset((cell, nxt)) not in fences:
                came[nxt] = cell
                queue.append(nxt)
    return []


def _nearest_by_air(start: Cell, targets: set[Cell]) -> Cell | None:
    if not targets:
        return None
    return min(targets, key=lambda t: (abs(t[0] - start[0]) + abs(t[1] - start[1]), t))


def _farmer_orders(state: TurkeyState, si: int, rng: GameRng) -> list[list[TurkeyOrder]]:
    """Chasing plans, one group of orders per farmer (first move, maybe second move)."""
    targets = {cell for oi, cells in enumerate(state.birds) if oi != si for cell in cells}
    groups: list[list[TurkeyOrder]] = []
    for farmer in state.farmers[si]:
        path = _chase_path(farmer, targets, state.fences) if rng.random() < 0.6 else []
        group: list[TurkeyOrder] = []
        if path:
            group.append(Move(farmer, path[0]))
            if len(path) > 1 and rng.random() < 0.4:
                group.append(Move(path[0], path[1]))
        else:
            target = _nearest_by_air(farmer, targets)
            options = list(NEIGHBOURS[farmer])
            if target is not None and rng.random() < 0.7:
                options.sort(key=lambda c: abs(c[0] - target[0]) + abs(c[1] - target[1]))
                options = options[:1]
            dst = rng.choice(options)
            blocking = frozenset((farmer, dst))
            if blocking in state.fences:
                group.append(Destroy(farmer, dst))
            group.append(Move(farmer, dst))
        groups.append(group)
    return groups


def _bird_orders(state: TurkeyState, si: int, rng: GameRng) -> list[list[TurkeyOrder]]:
    """Feeding and wandering plans for the player's birds: a bird near a farmer
    mostly runs, others feed or wander towards corn."""
    groups: list[list[TurkeyOrder]] = []
    farmers = {cell for cells in state.farmers for cell in cells}

    def danger(cell: Cell) -> int:
        return min((abs(cell[0] - f[0]) + abs(cell[1] - f[1]) for f in farmers), default=99)

    fed: set[Cell] = set()
    for bird in state.birds[si]:
        corn = state.corn_at(bird)
        threatened = danger(bird) <= 2 and rng.random() < 0.5
        if not threatened and bird not in fed and corn and rng.random() < 0.3 + 0.06 * corn:
            fed.add(bird)
            groups.append([Feed(bird)])
        elif threatened or rng.random() < 0.6:
            options = [n for n in NEIGHBOURS[bird] if n not in farmers or rng.random() < 0.05]
            if options:
                if threatened:
                    options.sort(key=lambda c: -danger(c))
                    options = options[:1]
                elif rng.random() < 0.5:
                    options.sort(key=lambda c: -state.corn_at(c))
                    options = options[:2]
                dst = rng.choice(options)
                group: list[TurkeyOrder] = []
                if frozenset((bird, dst)) in state.fences:
                    group.append(Destroy(bird, dst))
                group.append(Move(bird, dst))
                groups.append(group)
    return groups


def _fence_orders(state: TurkeyState, si: int, rng: GameRng) -> list[list[TurkeyOrder]]:
    """Occasional fence building and pulling down."""
    groups: list[list[TurkeyOrder]] = []
    own = list(state.farmers[si]) + list(state.birds[si])
    if own and rng.random() < 0.1:
        standing = [f for cell in own for f in BORDERS[cell] if f in state.fences]
        if standing:
            a, b = sorted(rng.choice(standing))
            groups.append([Destroy(a, b)])
    if rng.random() < 0.15:
        if state.farmers[si] and rng.random() < 0.7:
            cell = rng.choice(state.farmers[si])
        else:
            cell = (rng.randint(0, 10), rng.randint(0, 10))
        empty = [f for f in BORDERS[cell] if f not in state.fences]
        if empty:
            a, b = sorted(rng.choice(empty))
            groups.append([Build(a, b)])
    return groups


def sample_orders(state: TurkeyState, si: int, rng: GameRng) -> list[TurkeyOrder]:
    """Return a random legal submission for seat index ``si`` (validation accepts all of it)."""
    chase = _farmer_orders(state, si, rng)
    others = _bird_orders(state, si, rng) + _fence_orders(state, si, rng)
    if state.turn >= NEW_FROM_TURN and rng.random() < 0.12:
        others.append([New(rng.choice(sorted(GAPS)))])
    if rng.random() < 0.7:  # farmers first most of the time: the chase is what ends games
        rng.shuffle(chase)
        rng.shuffle(others)
        groups = chase + others
    else:
        groups = chase + others
        rng.shuffle(groups)
    candidates = [order for group in groups for order in group]
    refused = {problem.index for problem in validate_orders(state, si, candidates)}
    return [order for index, order in enumerate(candidates) if index not in refused]
