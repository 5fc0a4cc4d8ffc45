"""Whole plays: every legal way to play a roll or a bonus queue, and checking a submission.

A *play* is the ordered list of orders a player sends for one roll (``MOVE``
and ``ENTER``) or for the pending bonuses (``BONUS``). The rules that judge
a play as a whole:

* each 5 must bring a maggot out of the carcass while one waits there and
  the entry square is open (counted first),
* then as much of the roll as possible must be used (so, when only one die
  can be used, the higher one),
* with a doublet and every maggot out of the carcass the four values (the
  dice and their opposite faces, 14 in all) are moved completely or not at
  all, and no maggot may reach HOME with part of them;
* bonuses are used in the order earned, each whole by one maggot whenever
  some maggot can; an unusable bonus is forfeited. While the turn goes on
  (after a doublet) a 10 bonus earned for reaching HOME is held for the end of
  the turn instead (``defer``).

:func:`roll_plays` and :func:`bonus_plays` enumerate the distinct legal
outcomes (a breadth-first search over partial plays, merged by position),
each with the shortest order list that reaches it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import TypeVar

from pbem.core import IllegalOrder, OrderProblem
from pbem.core.dice import describe_dice, is_doublet, opposite_face
from pbem.games.farm_cheesi.board import (
    HOME_BONUS,
    Side,
    Step,
    can_move,
    enter_maggot,
    move_maggot,
    side_of,
    start_pairs,
)
from pbem.games.farm_cheesi.orders import Bonus, Enter, FarmOrder, Move
from pbem.games.farm_cheesi.state import CARCASS, FINISH, MAGGOTS, FarmState, Pos

N = TypeVar("N", bound=Hashable)


@dataclass(frozen=True)
class RollContext:
    """What a roll allows: the mover, the dice, the values to move, the start-of-roll blockades."""

    side: Side
    teams: bool
    dice: tuple[int, ...]
    fourteen: bool
    values: tuple[int, ...]
    pairs: frozenset[frozenset[int]]

    def describe(self) -> str:
        """Return the values to move as words: ``"3 and 5"`` or ``"6, 6, 1 and 1"``."""
        return describe_dice(self.values)


def roll_context(state: FarmState) -> RollContext:
    """Return the :class:`RollContext` of the current seat's pending roll.

    With a doublet and no maggot of the mover in the carcass the opposite
    faces are added (four values totalling 14).
    """
    side = side_of(state, state.current)
    row = state.maggots[side.me]
    dice = state.roll
    fourteen = is_doublet(dice) and CARCASS not in row
    values = dice + tuple(opposite_face(v) for v in dice) if fourteen else dice
    return RollContext(side, state.teams, dice, fourteen, tuple(sorted(values)), start_pairs(side, state.maggots))


@dataclass(frozen=True)
class Node:
    """A partial play of a roll: the position so far, the values left, who moved,
    the bonuses earned, how many 5s entered a maggot, how many pips were used."""

    pos: Pos
    remaining: tuple[int, ...]
    movers: frozenset[int]
    bonuses: tuple[int, ...]
    fives: int
    used: int

    def score(self) -> tuple[int, int]:
        """Return what "the most" means for a play: 5s used to enter first, then pips used."""
        return (self.fives, self.used)


@dataclass(frozen=True)
class Applied:
    """One order applied to a partial play: the new node, the move made, the dice spent."""

    node: Node
    step: Step
    spent: tuple[int, ...]


def root(ctx: RollContext, pos: Pos) -> Node:
    """Return the empty play of a roll from ``pos``."""
    return Node(pos, ctx.values, frozenset(), (), 0, 0)


def _without(values: tuple[int, ...], spent: Iterable[int]) -> tuple[int, ...]:
    left = list(values)
    for value in spent:
        left.remove(value)
    return tuple(left)


def _unused_text(ctx: RollContext, node: Node) -> str:
    rolled = f"you rolled {describe_dice(ctx.dice)}"
    if ctx.fourteen:
        rolled += f" and move {ctx.describe()}"
    if not node.remaining:
        return rolled + "; all of it is used"
    return rolled + f"; still unused: {describe_dice(node.remaining)}"


def apply_roll_order(ctx: RollContext, node: Node, order: FarmOrder) -> Applied:
    """Apply one order of a roll's play to ``node``.

    Raises :class:`~pbem.core.IllegalOrder` with the reason (without the
    order text) when the order is not allowed at this point of the play.
    """
    if isinstance(order, Bonus):
        raise IllegalOrder("no bonus is waiting: bonuses are used after the roll's moves")
    if isinstance(order, Enter):
        return _apply_enter(ctx, node)
    return _apply_move(ctx, node, order)


def _apply_enter(ctx: RollContext, node: Node) -> Applied:
    if CARCASS not in node.pos[ctx.side.me]:
        raise IllegalOrder("no maggot of yours is in the carcass")
    if 5 in node.remaining:
        spent: tuple[int, ...] = (5,)
    elif len(node.remaining) == 2 and sum(node.remaining) == 5 and not ctx.fourteen:
        spent = node.remaining
    else:
        raise IllegalOrder(f"entering needs a 5 or two dice summing to 5 ({_unused_text(ctx, node)})")
    step = enter_maggot(ctx.side, node.pos)
    fives = node.fives + (1 if spent == (5,) else 0)
    new = Node(
        step.pos,
        _without(node.remaining, spent),
        node.movers | {step.maggot},
        node.bonuses + ((step.bonus,) if step.bonus else ()),
        fives,
        node.used + sum(spent),
    )
    return Applied(new, step, spent)


def _apply_move(ctx: RollContext, node: Node, order: Move) -> Applied:
    if order.steps not in node.remaining:
        raise IllegalOrder(f"there is no unused {order.steps} ({_unused_text(ctx, node)})")
    maggot = order.maggot - 1
    step = move_maggot(ctx.side, node.pos, maggot, order.steps, pairs=ctx.pairs, teams=ctx.teams)
    if ctx.fourteen and step.end == FINISH and (len(node.remaining) != 1 or not node.movers <= {maggot}):
        raise IllegalOrder(
            f"maggot {order.maggot} may reach HOME with a doublet only by moving all 14 itself (the doublets cannot be split)"
        )
    new = Node(
        step.pos,
        _without(node.remaining, (order.steps,)),
        node.movers | {maggot},
        node.bonuses + ((step.bonus,) if step.bonus else ()),
        node.fives,
        node.used + order.steps,
    )
    return Applied(new, step, (order.steps,))


def _roll_candidates(ctx: RollContext, node: Node) -> list[FarmOrder]:
    orders: list[FarmOrder] = []
    if not ctx.fourteen:
        orders.append(Enter())
    for maggot in range(1, MAGGOTS + 1):
        for value in sorted(set(node.remaining), reverse=True):
            orders.append(Move(maggot, value))
    return orders


def explore(start: N, children: Callable[[N], Iterable[tuple[FarmOrder, N]]]) -> dict[N, tuple[FarmOrder, ...]]:
    """Return every node reachable from ``start`` with the shortest order list reaching it
    (breadth first; the first found on a tie), in the order found."""
    seen: dict[N, tuple[FarmOrder, ...]] = {start: ()}
    queue: deque[N] = deque([start])
    while queue:
        node = queue.popleft()
        for order, child in children(node):
            if child not in seen:
                seen[child] = seen[node] + (order,)
                queue.append(child)
    return seen


def _roll_children(ctx: RollContext) -> Callable[[Node], list[tuple[FarmOrder, Node]]]:
    def children(node: Node) -> list[tuple[FarmOrder, Node]]:
        found = []
        for order in _roll_candidates(ctx, node):
            try:
                found.append((order, apply_roll_order(ctx, node, order).node))
            except IllegalOrder:
                continue
        return found

    return children


@dataclass(frozen=True)
class Play:
    """One legal outcome: the orders that reach it and the position (and bonus queue) it leaves."""

    orders: tuple[FarmOrder, ...]
    pos: Pos
    bonuses: tuple[int, ...]

    def text(self) -> str:
        """Return the orders as words: ``"MOVE 1 3 and MOVE 2 5"`` (``"no move"`` when empty)."""
        words = [str(order) for order in self.orders]
        if not words:
            return "no move"
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _complete_roll_nodes(ctx: RollContext, nodes: Sequence[Node]) -> list[Node]:
    if ctx.fourteen:
        full = [n for n in nodes if not n.remaining]
        return full if full else [nodes[0]]
    best = max(n.score() for n in nodes)
    return [n for n in nodes if n.score() == best]


def _distinct(pairs: Iterable[tuple[tuple[FarmOrder, ...], Pos, tuple[int, ...]]]) -> list[Play]:
    plays: dict[tuple[Pos, tuple[int, ...]], Play] = {}
    for orders, pos, bonuses in pairs:
        plays.setdefault((pos, bonuses), Play(orders, pos, bonuses))
    return list(plays.values())


@dataclass(frozen=True)
class RollSpace:
    """Every partial play of a roll (with the shortest orders reaching it) and the whole legal ones."""

    seen: Mapping[Node, tuple[FarmOrder, ...]]
    legal: tuple[Node, ...]


@lru_cache(maxsize=256)
def roll_space(ctx: RollContext, pos: Pos) -> RollSpace:
    """Return the :class:`RollSpace` of the roll from ``pos`` (memoised: a pure function of its arguments)."""
    seen = explore(root(ctx, pos), _roll_children(ctx))
    return RollSpace(MappingProxyType(seen), tuple(_complete_roll_nodes(ctx, list(seen))))


def roll_plays(ctx: RollContext, pos: Pos) -> list[Play]:
    """Return the distinct legal outcomes of the roll from ``pos`` (never empty: when nothing
    can move, the one play is the empty one)."""
    space = roll_space(ctx, pos)
    return _distinct((space.seen[n], n.pos, n.bonuses) for n in space.legal)


def is_complete_roll(ctx: RollContext, pos: Pos, node: Node) -> bool:
    """True when ``node`` (reached by legal steps from ``pos``) is a whole legal play."""
    return node in roll_space(ctx, pos).legal


def check_roll_orders(ctx: RollContext, pos: Pos, orders: Sequence[FarmOrder]) -> list[OrderProblem]:
    """Return the problems of a roll's submission: one per refused order, then one with
    index None when the accepted orders do not make a whole legal play."""
    problems: list[OrderProblem] = []
    node = root(ctx, pos)
    for index, order in enumerate(orders):
        try:
            node = apply_roll_order(ctx, node, order).node
        except IllegalOrder as error:
            problems.append(OrderProblem(index, f"{order}: {error}"))
    space = roll_space(ctx, pos)
    seen, legal = space.seen, list(space.legal)
    if node in legal:
        return problems
    accepted = tuple(o for i, o in enumerate(orders) if i not in {p.index for p in problems})
    example = _example(ctx, node, accepted, legal, seen)
    problems.append(OrderProblem(None, _shortfall(ctx, node, legal[0], example)))
    return problems


def _example(
    ctx: RollContext, node: Node, accepted: tuple[FarmOrder, ...], legal: list[Node], seen: Mapping[Node, tuple[FarmOrder, ...]]
) -> Play:
    """Prefer a legal play that continues the player's accepted orders; else the first legal play."""
    onward = explore(node, _roll_children(ctx))
    wanted = set(legal)
    for reached, more in onward.items():
        if reached in wanted:
            return Play(accepted + more, reached.pos, reached.bonuses)
    first = legal[0]
    return Play(seen[first], first.pos, first.bonuses)


def _shortfall(ctx: RollContext, node: Node, best: Node, example: Play) -> str:
    legal = f"{example.text()} is a legal play"
    if ctx.fourteen:
        if best.remaining:
            return f"you cannot move all 14 ({ctx.describe()}), so nothing moves: send no moves"
        return f"with a doublet and its opposite faces you move all 14 ({ctx.describe()}) or nothing: {legal}"
    if node.fives < best.fives:
        return f"each 5 must bring a maggot out of the carcass while one waits there and the entry is open: {legal}"
    if node.used == 0:
        return f"you must play your roll of {ctx.describe()}: {legal}"
    if best.used == sum(ctx.values):
        both = "both dice" if len(ctx.values) == 2 else "the whole roll"
        return f"you must use {both}: {legal}"
    if len(ctx.values) == 2 and best.used in ctx.values:
        return f"only one die can be used, so it must be the higher one ({best.used}): {legal}"
    return f"you must use as much of the roll as possible ({best.used}, not {node.used}): {legal}"


# --- bonuses -------------------------------------------------------------------


@dataclass(frozen=True)
class BonusNode:
    """A partial bonus play: the position, the bonuses still to use (first one first)
    and the 10 bonuses its moves earned that wait for the end of the turn."""

    pos: Pos
    queue: tuple[int, ...]
    held: tuple[int, ...] = ()


def held_back(earned: tuple[int, ...], defer: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Split bonuses just earned into (to use now, to hold for the end of the turn):
    with ``defer`` (the turn goes on after a doublet) the 10s for reaching HOME wait."""
    if not defer:
        return earned, ()
    return tuple(b for b in earned if b != HOME_BONUS), tuple(b for b in earned if b == HOME_BONUS)


def usable(side: Side, teams: bool, pos: Pos, amount: int) -> bool:
    """True when some maggot of the mover can move ``amount`` whole."""
    return any(can_move(side, pos, m, amount, teams=teams) for m in range(MAGGOTS))


def settle(side: Side, teams: bool, pos: Pos, queue: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Drop the leading bonuses no maggot can use; return (queue left, bonuses forfeited)."""
    forfeited: list[int] = []
    while queue and not usable(side, teams, pos, queue[0]):
        forfeited.append(queue[0])
        queue = queue[1:]
    return queue, tuple(forfeited)


@dataclass(frozen=True)
class BonusApplied:
    """One BONUS order applied: the new node, the move made, the amount, the bonuses then forfeited."""

    node: BonusNode
    step: Step
    amount: int
    forfeited: tuple[int, ...]


def apply_bonus_order(side: Side, teams: bool, node: BonusNode, order: FarmOrder, defer: bool = False) -> BonusApplied:
    """Apply one order of a bonus play; with ``defer`` a 10 bonus the move earns is held
    for the end of the turn. Raises :class:`~pbem.core.IllegalOrder` with the reason."""
    if not isinstance(order, Bonus):
        raise IllegalOrder("your roll is played; use your bonus first with BONUS <maggot>")
    if not node.queue:
        raise IllegalOrder("no bonus is left to use")
    amount = node.queue[0]
    step = move_maggot(side, node.pos, order.maggot - 1, amount, teams=teams)
    now, held = held_back((step.bonus,) if step.bonus else (), defer)
    queue, forfeited = settle(side, teams, step.pos, node.queue[1:] + now)
    return BonusApplied(BonusNode(step.pos, queue, node.held + held), step, amount, forfeited)


def _bonus_children(side: Side, teams: bool, defer: bool) -> Callable[[BonusNode], list[tuple[FarmOrder, BonusNode]]]:
    def children(node: BonusNode) -> list[tuple[FarmOrder, BonusNode]]:
        found: list[tuple[FarmOrder, BonusNode]] = []
        if not node.queue:
            return found
        for maggot in range(1, MAGGOTS + 1):
            try:
                found.append((Bonus(maggot), apply_bonus_order(side, teams, node, Bonus(maggot), defer).node))
            except IllegalOrder:
                continue
        return found

    return children


@lru_cache(maxsize=64)
def bonus_plays(side: Side, teams: bool, node: BonusNode, defer: bool = False) -> tuple[Play, ...]:
    """Return the distinct legal ways to use the whole (settled) bonus queue of ``node``,
    each with the 10 bonuses it holds for the end of the turn (with ``defer``) as its
    ``bonuses`` (memoised: a pure function of its arguments)."""
    seen = explore(node, _bonus_children(side, teams, defer))
    return tuple(_distinct((orders, n.pos, n.held) for n, orders in seen.items() if not n.queue))


def _choices(side: Side, teams: bool, node: BonusNode, defer: bool) -> str:
    options = [str(order) for order, _ in _bonus_children(side, teams, defer)(node)]
    return options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]


def check_bonus_orders(
    side: Side, teams: bool, node: BonusNode, orders: Sequence[FarmOrder], defer: bool = False
) -> list[OrderProblem]:
    """Return the problems of a bonus submission: one per refused order, then one with index
    None when a bonus pending at the start that some maggot can use is left unused.

    Bonuses earned by the submission's own bonus moves may be used in the same
    submission or left for the next bonus phase (with ``defer``, a 10 bonus so
    earned waits for the end of the turn).
    """
    problems: list[OrderProblem] = []
    pending, consumed = len(node.queue), 0
    for index, order in enumerate(orders):
        try:
            applied = apply_bonus_order(side, teams, node, order, defer)
        except IllegalOrder as error:
            problems.append(OrderProblem(index, f"{order}: {error}"))
            continue
        node = applied.node
        consumed += 1 + len(applied.forfeited)
    if node.queue and consumed < pending:
        problems.append(
            OrderProblem(None, f"you must use your {node.queue[0]} bonus with one maggot: "
                               f"{_choices(side, teams, node, defer)}")
        )
    return problems


# --- choosing among plays --------------------------------------------------------


def advance_key(start: Sequence[int], end: Sequence[int]) -> tuple[int, ...]:
    """Return how far each maggot moved, the most advanced maggot (at the start) first.

    The NMR default is the play with the greatest key: it moves the most
    advanced maggot furthest, then the next one, and so on. Maggots in the
    carcass count as least advanced; maggots already HOME are left out.
    """
    order = sorted((m for m in range(len(start)) if start[m] != FINISH), key=lambda m: (-start[m], m))
    return tuple(end[m] - start[m] for m in order)


def default_play(plays: Sequence[Play], start: Sequence[int], me: int) -> Play:
    """Return the play that moves the most advanced maggot furthest (the first such on a tie)."""
    return max(plays, key=lambda play: advance_key(start, play.pos[me]))
