"""Resolving a Turkey Chase turn: the seven phases, each simultaneous for all players.

1 FEED, 2 DESTROY, 3 farmers' first MOVE, 4 birds' MOVE, 5 farmers' second
MOVE, 6 BUILD, 7 NEW. Every order is checked again when its phase comes; one
that has become impossible (its bird was captured earlier in the turn) fails
with an event, and its points stay spent. Orders beyond a player's 5 points
(possible only for orders that skipped validation) fail unpaid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pbem.core import Event
from pbem.core.grid import Cell, Fence
from pbem.core.protocol import format_score
from pbem.games.turkey_chase.board import (
    BUDGET,
    COST_BUILD_ELSEWHERE,
    GAP_NAMES,
    GAPS,
    NAME,
    NEW_FROM_TURN,
    PHASE_LABELS,
    SEATS,
)
from pbem.games.turkey_chase.orders import Build, Move, TurkeyOrder
from pbem.games.turkey_chase.planning import (
    BIRD_MOVE,
    BUILD_PHASE,
    DESTROY_PHASE,
    FEED_PHASE,
    FIRST_MOVE,
    FIXED_COST,
    NEW_PHASE,
    SECOND_MOVE,
    build_cost,
    fence_form_problem,
    move_phases,
    step_problem,
)
from pbem.games.turkey_chase.state import TurkeyState

Entry = tuple[int, int, Any]
"""(seat index, line index, order) of one order waiting for its phase."""

L_FEED, L_DESTROY, L_BIRD, L_BUILD, L_NEW = (PHASE_LABELS[p] for p in (1, 2, 4, 6, 7))

_COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _birds_text(owner: int, count: int) -> str:
    if count == 1:
        return f"{SEATS[owner]}'s bird"
    return f"{_COUNT_WORDS.get(count, str(count))} of {SEATS[owner]}'s birds"


def _seats_text(seat_indexes: Sequence[int], suffix: str = "") -> str:
    """``A``, ``A and B``, ``A, B and C`` (each name followed by ``suffix``, e.g. "'s")."""
    names = [SEATS[i] + suffix for i in seat_indexes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _farmers_text(catchers: Sequence[int], what: str) -> str:
    """``A's farmer``, ``A's farmers`` (two of A's), ``A's and B's farmers``."""
    plural = "s" if len(catchers) > 1 else ""
    owners = _seats_text(sorted(set(catchers)), "'s")
    return f"{owners} {what}{plural}"


def _failed(label: str, seat_index: int, order: TurkeyOrder, reason: str) -> Event:
    seat = SEATS[seat_index]
    return Event(
        "failed",
        f"{seat}: {order} failed: {reason}",
        label,
        seat,
        {"order": str(order), "reason": reason},
    )


class _Turn:
    """The mutable working copy of one turn's resolution."""

    def __init__(self, state: TurkeyState) -> None:
        self.state = state
        self.corn = list(state.corn)
        self.fences: frozenset[Fence] = state.fences
        self.farmers = [list(cells) for cells in state.farmers]
        self.birds = [list(cells) for cells in state.birds]
        self.scores = list(state.scores)
        # events and orders by phase number (1..7), so that events come out in phase order
        self.out: list[list[Event]] = [[] for _ in range(8)]
        self.phases: list[list[Entry]] = [[] for _ in range(8)]
        self.moved_farmers: set[int] = set()
        self.moved_birds: set[int] = set()

    # -- planning ---------------------------------------------------------

    def plan(self, orders: Mapping[str, Sequence[TurkeyOrder]]) -> None:
        """Sort every seat's orders into phases, failing those beyond the budget."""
        for si, seat in enumerate(SEATS):
            seat_orders = orders.get(seat, ())
            if not seat_orders:
                continue
            phases = move_phases(self.state.farmers[si], seat_orders)
            unpaid = self._unpaid(si, seat_orders, phases)
            for index, (order, phase) in enumerate(zip(seat_orders, phases, strict=True)):
                if index in unpaid:
                    self.out[phase].append(_failed(PHASE_LABELS[phase], si, order, unpaid[index]))
                else:
                    self.phases[phase].append((si, index, order))

    def _unpaid(self, si: int, orders: Sequence[TurkeyOrder], phases: list[int]) -> dict[int, str]:
        """Return the orders (by index) that do not fit in the budget, paid in line order."""
        rough = sum(COST_BUILD_ELSEWHERE if p == BUILD_PHASE else FIXED_COST[p] for p in phases)
        if rough <= BUDGET:
            return {}
        positions = list(self.state.farmers[si])
        for order, phase in zip(orders, phases, strict=True):
            if isinstance(order, Move) and phase != BIRD_MOVE and order.src in positions:
                positions[positions.index(order.src)] = order.dst
        costs = [
            build_cost((order.a, order.b), positions) if isinstance(order, Build) else FIXED_COST[phase]
            for order, phase in zip(orders, phases, strict=True)
        ]
        total, spent, unpaid = sum(costs), 0, {}
        for index, cost in enumerate(costs):
            if spent + cost > BUDGET:
                unpaid[index] = f"not enough points: these orders cost {total} of your {BUDGET} points"
            else:
                spent += cost
        return unpaid

    # -- phases -------------------------------------------------------------

    def feed(self) -> None:
        """Phase 1: birds feed; players feeding on one square share its corn equally."""
        entries = self.phases[FEED_PHASE]
        if not entries:
            return
        eaters: dict[Cell, list[int]] = {}
        done: list[Entry] = []
        for si, index, order in entries:
            square = order.square
            if square not in self.birds[si]:
                self.out[FEED_PHASE].append(_failed(L_FEED, si, order, f"no bird of yours on {NAME[square]}"))
            elif si in eaters.get(square, ()):
                self.out[FEED_PHASE].append(_failed(L_FEED, si, order, f"you already fed on {NAME[square]} this turn"))
            else:
                eaters.setdefault(square, []).append(si)
                done.append((si, index, order))
        values: dict[Cell, int] = {}
        for square in eaters:
            position = square[1] * 11 + square[0]
            values[square] = self.corn[position]
            self.corn[position] = 0
        for si, _, order in done:
            square = order.square
            value, sharers = values[square], eaters[square]
            share: Fraction | int = value if len(sharers) == 1 else Fraction(value, len(sharers))
            self.scores[si] += share
            text = f"{SEATS[si]} fed on {NAME[square]} for {value} point{'' if value == 1 else 's'}"
            if len(sharers) > 1:
                others = [o for o in sharers if o != si]
                text += f" (shared with {_seats_text(others)}: {format_score(Fraction(share))} each)"
            data = {"square": NAME[square], "value": value, "sharers": [SEATS[o] for o in sharers]}
            self.out[FEED_PHASE].append(Event("feed", text, L_FEED, SEATS[si], data))

    def destroy(self) -> None:
        """Phase 2: fences bordering one of the player's pieces are pulled down."""
        entries = self.phases[DESTROY_PHASE]
        if not entries:
            return
        gone: dict[Fence, list[int]] = {}
        for si, _, order in entries:
            reason = fence_form_problem(order)
            the_fence = order.fence
            if reason is None:
                if the_fence not in self.fences:
                    reason = f"there is no fence between {NAME[order.a]} and {NAME[order.b]}"
                elif si in gone.get(the_fence, ()):
                    reason = f"you already destroyed {order.fence_text} this turn"
                elif not self._stands_beside(si, order.a, order.b):
                    reason = f"none of your birds or farmers stands on {NAME[order.a]} or {NAME[order.b]}"
            if reason is not None:
                self.out[DESTROY_PHASE].append(_failed(L_DESTROY, si, order, reason))
                continue
            gone.setdefault(the_fence, []).append(si)
            text = f"{SEATS[si]} destroyed the fence {order.fence_text}"
            self.out[DESTROY_PHASE].append(Event("destroy", text, L_DESTROY, SEATS[si], {"fence": order.fence_text}))
        if gone:
            self.fences = self.fences - gone.keys()

    def _stands_beside(self, si: int, a: Cell, b: Cell) -> bool:
        pieces = self.farmers[si] + self.birds[si]
        return a in pieces or b in pieces

    def farmers_move(self, phase: int, first_ends: dict[tuple[int, Cell], int] | None) -> dict[tuple[int, Cell], int]:
        """Phases 3 and 5: farmers move one square; birds where they arrive are captured.

        For the second move (``first_ends`` given) the farmer must have made its
        first move onto the square it leaves. Returns where first moves ended.
        """
        label = PHASE_LABELS[phase]
        entries = self.phases[phase]
        ends: dict[tuple[int, Cell], int] = {}
        if not entries:
            return ends
        out = self.out[phase]
        moved: list[tuple[int, Any]] = []
        used: dict[tuple[int, Cell], int] = {}
        for si, _, order in entries:
            src = order.src
            key = (si, src)
            have = self.farmers[si].count(src) if first_ends is None else first_ends.get(key, 0)
            taken = used.get(key, 0)
            if have > taken:
                reason = step_problem(src, order.dst, self.fences)
            elif first_ends is None:
                reason = f"no farmer of yours on {NAME[src]}"
            else:
                reason = f"no farmer of yours moved onto {NAME[src]} earlier this turn"
            if reason is not None:
                out.append(_failed(label, si, order, reason))
                continue
            used[key] = taken + 1
            moved.append((si, order))
        arrivals: dict[Cell, list[int]] = {}
        for si, order in moved:
            cells = self.farmers[si]
            dst = order.dst
            cells[cells.index(order.src)] = dst
            self.moved_farmers.add(si)
            ends[(si, dst)] = ends.get((si, dst), 0) + 1
            arrivals.setdefault(dst, []).append(si)
            step = f"{NAME[order.src]}-{NAME[dst]}"
            text = f"{SEATS[si]}'s farmer moved {step}"
            out.append(Event("move", text, label, SEATS[si], {"order": "MOVE " + step, "piece": "farmer"}))
        self._captures(arrivals, phase, "farmer")
        return ends

    def _captures(self, arrivals: dict[Cell, list[int]], phase: int, what: str) -> None:
        """Capture the birds on every square where farmers arrived."""
        occupied = {cell for cells in self.birds for cell in cells}
        for square, catchers in arrivals.items():
            if square in occupied:
                self._capture_on(square, catchers, phase, what)

    def _capture_on(self, square: Cell, catchers: list[int], phase: int, what: str) -> None:
        """Capture every bird on ``square`` (farmers of ``catchers`` arrived there)."""
        label = PHASE_LABELS[phase]
        for owner, cells in enumerate(self.birds):
            count = cells.count(square)
            if not count:
                continue
            self.birds[owner] = [c for c in cells if c != square]
            self.moved_birds.add(owner)
            unique = sorted(set(catchers))
            text = f"{_farmers_text(catchers, what)} captured {_birds_text(owner, count)} on {NAME[square]}"
            data = {"square": NAME[square], "owner": SEATS[owner], "count": count, "by": [SEATS[c] for c in unique]}
            self.out[phase].append(Event("capture", text, label, SEATS[unique[0]], data))

    def birds_move(self, start_birds: tuple[tuple[Cell, ...], ...]) -> None:
        """Phase 4: birds move one square; a bird that lands on a farmer is captured."""
        entries = self.phases[BIRD_MOVE]
        if not entries:
            return
        used: dict[tuple[int, Cell], int] = {}
        moved: list[tuple[int, Any]] = []
        for si, _, order in entries:
            src = order.src
            key = (si, src)
            taken = used.get(key, 0)
            reason: str | None
            if self.birds[si].count(src) <= taken:
                if start_birds[si].count(src) > taken:
                    reason = f"no bird of yours on {NAME[src]} any more"
                else:
                    reason = f"no bird of yours on {NAME[src]}"
            else:
                reason = step_problem(src, order.dst, self.fences)
            if reason is not None:
                self.out[BIRD_MOVE].append(_failed(L_BIRD, si, order, reason))
                continue
            used[key] = taken + 1
            moved.append((si, order))
        for si, order in moved:
            cells = self.birds[si]
            cells[cells.index(order.src)] = order.dst
            self.moved_birds.add(si)
            text = f"{SEATS[si]}'s bird moved {NAME[order.src]}-{NAME[order.dst]}"
            self.out[BIRD_MOVE].append(Event("move", text, L_BIRD, SEATS[si], {"order": str(order), "piece": "bird"}))
        for si, order in moved:
            dst = order.dst
            count = self.birds[si].count(dst)
            if not count:
                continue  # already captured with another bird of this player
            catchers = [fi for fi, cells in enumerate(self.farmers) for cell in cells if cell == dst]
            if not catchers:
                continue
            self.birds[si] = [c for c in self.birds[si] if c != dst]
            birds = _birds_text(si, count)
            text = (
                f"{birds[0].upper()}{birds[1:]} moved onto {_farmers_text(catchers, 'farmer')} on {NAME[dst]}"
                f" and {'was' if count == 1 else 'were'} captured"
            )
            catchers = sorted(set(catchers))
            data = {"square": NAME[dst], "owner": SEATS[si], "count": count, "by": [SEATS[c] for c in catchers]}
            self.out[BIRD_MOVE].append(Event("capture", text, L_BIRD, SEATS[si], data))

    def build(self) -> None:
        """Phase 6: fences are built on empty borders (several builders of one fence all succeed)."""
        entries = self.phases[BUILD_PHASE]
        if not entries:
            return
        new: dict[Fence, list[int]] = {}
        for si, _, order in entries:
            reason = fence_form_problem(order)
            the_fence = order.fence
            if reason is None:
                if the_fence in self.fences:
                    reason = f"there is already a fence between {NAME[order.a]} and {NAME[order.b]}"
                elif si in new.get(the_fence, ()):
                    reason = f"you already built {order.fence_text} this turn"
            if reason is not None:
                self.out[BUILD_PHASE].append(_failed(L_BUILD, si, order, reason))
                continue
            new.setdefault(the_fence, []).append(si)
            text = f"{SEATS[si]} built the fence {order.fence_text}"
            self.out[BUILD_PHASE].append(Event("build", text, L_BUILD, SEATS[si], {"fence": order.fence_text}))
        if new:
            self.fences = self.fences | new.keys()

    def new_farmers(self) -> None:
        """Phase 7: new farmers arrive at the gaps and capture the birds there."""
        entries = self.phases[NEW_PHASE]
        if not entries:
            return
        arrivals: dict[Cell, list[int]] = {}
        for si, _, order in entries:
            square = order.square
            if self.state.turn < NEW_FROM_TURN:
                reason: str | None = f"new farmers arrive only from turn {NEW_FROM_TURN} on"
            elif square not in GAPS:
                reason = f"new farmers arrive only on {GAP_NAMES}"
            else:
                reason = None
            if reason is not None:
                self.out[NEW_PHASE].append(_failed(L_NEW, si, order, reason))
                continue
            self.farmers[si].append(square)
            self.moved_farmers.add(si)
            arrivals.setdefault(square, []).append(si)
            text = f"{SEATS[si]}'s new farmer arrived on {NAME[square]}"
            self.out[NEW_PHASE].append(Event("new", text, L_NEW, SEATS[si], {"square": NAME[square]}))
        self._captures(arrivals, NEW_PHASE, "new farmer")

    def finish(self) -> TurkeyState:
        """Return the state after the turn."""
        state = self.state
        return TurkeyState(
            turn=state.turn + 1,
            corn=tuple(self.corn),
            fences=self.fences,
            farmers=tuple(
                tuple(sorted(cells)) if si in self.moved_farmers else state.farmers[si]
                for si, cells in enumerate(self.farmers)
            ),
            birds=tuple(
                tuple(sorted(cells)) if si in self.moved_birds else state.birds[si]
                for si, cells in enumerate(self.birds)
            ),
            scores=tuple(s if type(s) is Fraction else Fraction(s) for s in self.scores),
            nmr=state.nmr,
        )


def resolve_turn(state: TurkeyState, orders: Mapping[str, Sequence[TurkeyOrder]]) -> tuple[TurkeyState, list[Event]]:
    """Resolve one turn for all seats at once; return the new state and the events."""
    turn = _Turn(state)
    turn.plan(orders)
    turn.feed()
    turn.destroy()
    first_ends = turn.farmers_move(FIRST_MOVE, None)
    turn.birds_move(state.birds)
    turn.farmers_move(SECOND_MOVE, first_ends)
    turn.build()
    turn.new_farmers()
    events = [event for phase_events in turn.out for event in phase_events]
    return turn.finish(), events
