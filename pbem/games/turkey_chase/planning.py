"""Which phase each order of a player belongs to, what it costs, and the checks
made when orders are submitted.

Orders are checked against the state at the start of the turn plus the
player's own orders of earlier phases (a bird may move through a fence its
owner destroys in phase 2). Other players' orders are unknown at submission;
what they change is settled at resolution (see :mod:`resolution`).

Which piece ``MOVE X-Y`` moves is decided line by line (see :func:`move_phases`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from pbem.core import OrderProblem
from pbem.core.grid import Cell, Fence
from pbem.games.turkey_chase.board import (
    BUDGET,
    COST_BIRD_MOVE,
    COST_BUILD_ELSEWHERE,
    COST_BUILD_NEAR,
    COST_DESTROY,
    COST_FARMER_MOVE,
    COST_FEED,
    COST_NEW,
    COST_SECOND_MOVE,
    GAP_NAMES,
    GAPS,
    NAME,
    NEIGHBOURS,
    NEW_FROM_TURN,
)
from pbem.games.turkey_chase.orders import Build, Destroy, Feed, Move, New, TurkeyOrder
from pbem.games.turkey_chase.state import TurkeyState

FEED_PHASE, DESTROY_PHASE, FIRST_MOVE, BIRD_MOVE, SECOND_MOVE, BUILD_PHASE, NEW_PHASE = range(1, 8)

FIXED_PHASE: dict[type, int] = {Feed: FEED_PHASE, Destroy: DESTROY_PHASE, Build: BUILD_PHASE, New: NEW_PHASE}
FIXED_COST: dict[int, int] = {
    FEED_PHASE: COST_FEED,
    DESTROY_PHASE: COST_DESTROY,
    FIRST_MOVE: COST_FARMER_MOVE,
    BIRD_MOVE: COST_BIRD_MOVE,
    SECOND_MOVE: COST_SECOND_MOVE,
    NEW_PHASE: COST_NEW,
}


def move_phases(farmers: Iterable[Cell], orders: Sequence[TurkeyOrder]) -> list[int]:
    """Return the phase of every order (by index), deciding what each MOVE moves.

    Going through the orders in line order, ``MOVE X-Y`` is
    1. the second move (phase 5) of a farmer whose first move, on an earlier
       line, ended on X and that has no second move yet; else
    2. the first move (phase 3) of one of the player's farmers standing on X at
       the start of the turn that has no first move yet; else
    3. the move (phase 4) of one of the player's birds on X.
    A bird and a farmer never share a square between turns, so this is the only
    reading that can succeed.
    """
    free = list(farmers)
    open_ends: list[Cell] = []
    phases = []
    for order in orders:
        if type(order) is Move:
            src = order.src
            if src in open_ends:
                open_ends.remove(src)
                phases.append(SECOND_MOVE)
            elif src in free:
                free.remove(src)
                open_ends.append(order.dst)
                phases.append(FIRST_MOVE)
            else:
                phases.append(BIRD_MOVE)
        else:
            phases.append(FIXED_PHASE[type(order)])
    return phases


def build_cost(fence_cells: tuple[Cell, Cell], farmers_at_build: Iterable[Cell]) -> int:
    """Return the cost of BUILD X/Y: 1 when X or Y holds one of the player's
    farmers in phase 6, else 2."""
    return COST_BUILD_NEAR if any(f in fence_cells for f in farmers_at_build) else COST_BUILD_ELSEWHERE


def step_problem(src: Cell, dst: Cell, fences: frozenset[Fence] | set[Fence]) -> str | None:
    """Return why a one-square move src-dst is impossible with these fences, or None."""
    if src not in NEIGHBOURS or dst not in NEIGHBOURS:
        return "a piece may not leave the field"
    if dst not in NEIGHBOURS[src]:
        return f"{NAME[dst]} is not next to {NAME[src]}"
    if frozenset((src, dst)) in fences:
        return f"a fence stands between {NAME[src]} and {NAME[dst]}"
    return None


def fence_form_problem(order: Destroy | Build) -> str | None:
    """Return why X/Y does not name a fence between two neighbouring squares, or None."""
    if order.fence is None:
        if order.a == order.b:
            return f"{order.fence_text} is not a fence: name two neighbouring squares"
        return f"{NAME[order.a]} and {NAME[order.b]} are not next to each other"
    return None


@dataclass
class Check:
    """The outcome of the rule checks on one player's orders (budget aside):
    ``problems`` by index for refused orders, ``phases`` and ``costs`` by index
    for accepted ones."""

    problems: dict[int, str]
    phases: dict[int, int]
    costs: dict[int, int]


def check_orders(state: TurkeyState, seat_index: int, orders: Sequence[TurkeyOrder]) -> Check:
    """Check every order against the start of the turn and the player's own
    earlier-phase orders (not against the budget)."""
    farmers = state.farmers[seat_index]
    birds = state.birds[seat_index]
    own_squares = set(farmers) | set(birds)
    problems: dict[int, str] = {}
    phases: dict[int, int] = {}
    costs: dict[int, int] = {}

    def refuse(index: int, message: str) -> None:
        problems[index] = f"{orders[index]}: {message}"

    fed: set[Cell] = set()
    destroyed: set[Fence] = set()
    moves: list[int] = []
    builds: list[int] = []
    for index, order in enumerate(orders):
        message: str | None
        if isinstance(order, Feed):
            message = _feed_problem(state, order, birds, fed)
            if message is None:
                fed.add(order.square)
                phases[index], costs[index] = FEED_PHASE, COST_FEED
        elif isinstance(order, Destroy):
            message = _destroy_problem(state, order, own_squares, destroyed)
            if message is None and order.fence is not None:
                destroyed.add(order.fence)
                phases[index], costs[index] = DESTROY_PHASE, COST_DESTROY
        elif isinstance(order, New):
            message = _new_problem(state, order)
            if message is None:
                phases[index], costs[index] = NEW_PHASE, COST_NEW
        elif isinstance(order, Move):
            moves.append(index)
            continue
        elif isinstance(order, Build):
            builds.append(index)
            continue
        else:
            message = "not a Turkey Chase order"
        if message is not None:
            refuse(index, message)

    fences = state.fences - destroyed
    positions = _check_moves(orders, moves, farmers, birds, fences, refuse, phases, costs)
    built: set[Fence] = set()
    for index in builds:
        order = orders[index]
        assert isinstance(order, Build)
        message = fence_form_problem(order)
        if message is None:
            if order.fence in fences:
                message = f"there is already a fence between {NAME[order.a]} and {NAME[order.b]}"
            elif order.fence in built:
                message = f"you already build {order.fence_text} this turn"
        if message is not None or order.fence is None:
            refuse(index, message or "not a fence")
            continue
        built.add(order.fence)
        phases[index], costs[index] = BUILD_PHASE, build_cost((order.a, order.b), positions)
    return Check(problems, phases, costs)


def _feed_problem(state: TurkeyState, order: Feed, birds: tuple[Cell, ...], fed: set[Cell]) -> str | None:
    square = order.square
    if square not in birds:
        return f"no bird of yours on {NAME[square]}"
    if square in fed:
        return f"you already feed on {NAME[square]} this turn"
    if state.corn_at(square) == 0:
        return f"{NAME[square]} has no corn left"
    return None


def _destroy_problem(state: TurkeyState, order: Destroy, own_squares: set[Cell], destroyed: set[Fence]) -> str | None:
    message = fence_form_problem(order)
    if message is not None:
        return message
    if order.fence not in state.fences:
        return f"there is no fence between {NAME[order.a]} and {NAME[order.b]}"
    if order.fence in destroyed:
        return f"you already destroy {order.fence_text} this turn"
    if order.a not in own_squares and order.b not in own_squares:
        return f"none of your birds or farmers stands on {NAME[order.a]} or {NAME[order.b]}"
    return None


def _new_problem(state: TurkeyState, order: New) -> str | None:
    if state.turn < NEW_FROM_TURN:
        return f"new farmers arrive only from turn {NEW_FROM_TURN} on (this is turn {state.turn})"
    if order.square not in GAPS:
        return f"new farmers arrive only on {GAP_NAMES}"
    return None


def _check_moves(
    orders: Sequence[TurkeyOrder],
    moves: list[int],
    farmers: tuple[Cell, ...],
    birds: tuple[Cell, ...],
    fences: frozenset[Fence],
    refuse: Callable[[int, str], None],
    phases: dict[int, int],
    costs: dict[int, int],
) -> list[Cell]:
    """Classify and check the MOVE orders; return where the player's farmers stand in phase 6."""
    free = Counter(farmers)
    open_ends: Counter[Cell] = Counter()
    first_ends: Counter[Cell] = Counter()
    second_ends: Counter[Cell] = Counter()
    positions = list(farmers)
    bird_moves: list[int] = []
    for index in moves:
        order = orders[index]
        assert isinstance(order, Move)
        src, dst = order.src, order.dst
        if open_ends[src]:
            phase, cost = SECOND_MOVE, COST_SECOND_MOVE
        elif free[src]:
            phase, cost = FIRST_MOVE, COST_FARMER_MOVE
        else:
            bird_moves.append(index)
            continue
        message = step_problem(src, dst, fences)
        if message is not None:
            refuse(index, message)
            continue
        if phase == SECOND_MOVE:
            open_ends[src] -= 1
            second_ends[dst] += 1
        else:
            free[src] -= 1
            open_ends[dst] += 1
            first_ends[dst] += 1
        positions[positions.index(src)] = dst
        phases[index], costs[index] = phase, cost

    bird_count = Counter(birds)
    for index in bird_moves:
        order = orders[index]
        assert isinstance(order, Move)
        src, dst = order.src, order.dst
        message = None
        if src not in birds:
            if first_ends[src]:
                message = "write a farmer's second move after its first move"
            elif second_ends[src]:
                message = "a farmer moves at most twice a turn"
            else:
                message = f"no bird or farmer of yours on {NAME[src]}"
        elif first_ends[src]:
            message = f"your own farmer moves onto {NAME[src]} in phase 3 and captures your bird there first"
        elif not bird_count[src]:
            message = f"a bird moves at most once a turn, and every bird of yours on {NAME[src]} already moves"
        else:
            message = step_problem(src, dst, fences)
        if message is not None:
            refuse(index, message)
            continue
        bird_count[src] -= 1
        phases[index], costs[index] = BIRD_MOVE, COST_BIRD_MOVE
    return positions


def validate_orders(state: TurkeyState, seat_index: int, orders: Sequence[TurkeyOrder]) -> list[OrderProblem]:
    """Return a problem for every refused order; the others form a valid submission.

    Rule problems first; then the budget: orders are paid in line order and an
    order that does not fit in the points left is refused ("these orders cost 7
    of your 5 points"), later cheaper orders may still fit. Refusing an order
    can make another impossible (a move through a fence whose DESTROY was
    refused) or dearer (a BUILD no longer beside a farmer), so this repeats
    until the accepted orders pass every check on their own.
    """
    problems: dict[int, str] = {}
    alive = list(range(len(orders)))
    while True:
        subset = [orders[i] for i in alive]
        check = check_orders(state, seat_index, subset)
        for local, message in check.problems.items():
            problems[alive[local]] = message
        accepted = [local for local in range(len(subset)) if local not in check.problems]
        total = sum(check.costs[local] for local in accepted)
        spent = 0
        over: list[int] = []
        for local in accepted:
            cost = check.costs[local]
            if spent + cost > BUDGET:
                over.append(local)
            else:
                spent += cost
        for local in over:
            problems[alive[local]] = f"{subset[local]}: these orders cost {total} of your {BUDGET} points"
        if not check.problems and not over:
            break
        alive = [alive[local] for local in accepted if local not in over]
    return [OrderProblem(index, problems[index]) for index in sorted(problems)]


def orders_cost(state: TurkeyState, seat_index: int, orders: Sequence[TurkeyOrder]) -> int:
    """Return the points the accepted part of a submission costs."""
    check = check_orders(state, seat_index, orders)
    return sum(check.costs.values())
