"""Harvest Day (Gateway Island, game 5) as a play-by-email game.

Two farmers with 10 workers each dispute six territories (0..5). Each round
both send a sealed ``REVEAL n`` and place a worker on territory n. On an even
sum each places a second worker there (the service does it); on an odd sum
each moves one of his own workers to an adjacent territory, the lower
revealer first (``MOVE a-b``). Rounds go on while each still holds 2 or more
workers. Then each territory where a farmer has strictly more workers scores
him a point; ties go to the higher sum of controlled territory numbers, then
to the single highest controlled territory, then the win is shared.

The reveal is sealed by the service (orders are secret until their phase
resolves); the state itself holds no secret, so the game declares no hidden
information.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import choice_option

from .orders import HarvestOrder, Move, Reveal
from .state import SIDES, TERRITORIES, WORKERS, HarvestState, neighbours

SIDE = "side"


class HarvestDay(BaseGame[HarvestState, HarvestOrder]):
    """The Harvest Day game object (stateless; every method is pure)."""

    name: ClassVar[str] = "harvest-day"
    title: ClassVar[str] = "Harvest Day"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    turn_shape: ClassVar[TurnShape] = TurnShape.MIXED
    declared_options: ClassVar[Mapping[str, str]] = {
        SIDE: "the side of the island card: a (a line 0-1-2-3-4-5, the default) or b (a ring: 5 also next to 0)",
    }
    terminal_words: ClassVar[Mapping[str, str]] = {"TERRITORY": "a territory number from 0 to 5"}
    transformer_class: ClassVar[str] = f"{__package__}.grammar:HarvestTransformer"
    state_class: ClassVar[type] = HarvestState

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> HarvestState:
        """Return the start: empty territories, 10 workers in each farmer's hand.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        side = choice_option(self.check_options(options), SIDE, SIDES, "a")
        return HarvestState(seats=tuple(seats), side=side, workers=tuple((0,) * len(TERRITORIES) for _ in seats),
                            unplaced=tuple(WORKERS for _ in seats))

    # --- asking for orders ------------------------------------------------

    def phase(self, state: HarvestState) -> Phase:
        """Return the sealed reveal (both farmers), or the move of the farmer to move."""
        if state.movers:
            lower, higher = sorted(state.reveals)
            order = "the lower revealer moves first" if state.movers[0] == _lower_seat(state) else \
                "the other farmer has moved"
            return Phase("move", (state.movers[0],),
                         f"Round {state.round}: the numbers {lower} and {higher} make an odd sum, so each farmer "
                         f"moves one of his workers to an adjacent territory ({order}): MOVE a-b.")
        return Phase("reveal", state.seats,
                     f"Round {state.round}: reveal a number from 0 to 5 (REVEAL n); your worker goes on "
                     "that territory.")

    def validate(self, state: HarvestState, seat: str, orders: Sequence[HarvestOrder]) -> list[OrderProblem]:
        """Return the problems of a submission: one REVEAL 0..5 in a reveal, one MOVE of an own
        worker to an adjacent territory in a move."""
        if problems := self.turn_problems(state, seat):
            return problems
        wanted = "MOVE a-b, e.g. MOVE 1-0" if state.movers else "REVEAL n, e.g. REVEAL 3"
        if len(orders) != 1:
            return [OrderProblem(None, f"send exactly one order: {wanted}")]
        problem = _order_problem(state, seat, orders[0])
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: HarvestState, seat: str) -> list[HarvestOrder]:
        """Return the NMR default (CLARIFICATIONS): REVEAL 0; on a move, the worker on the
        lowest-numbered territory, to its lowest neighbour."""
        if not state.movers:
            return [Reveal(0)]
        return [legal_moves(state, seat)[0]]

    def forced_orders(self, state: HarvestState, seat: str) -> list[HarvestOrder] | None:
        """Return the only legal move when a move has exactly one (e.g. every worker on
        territory 0 of side A); a reveal is never forced."""
        if not state.movers or state.movers[0] != seat:
            return None
        moves = legal_moves(state, seat)
        return [moves[0]] if len(moves) == 1 else None

    def order_choices(self, state: HarvestState, seat: str) -> list[list[HarvestOrder]] | None:
        """Return REVEAL 0 to REVEAL 5, or on a move every legal MOVE (when few)."""
        if not state.movers:
            return few_choices(single_orders(Reveal(number) for number in TERRITORIES))
        return few_choices(single_orders(legal_moves(state, seat)))

    def submission_summary(self, state: HarvestState, seat: str, orders: Sequence[HarvestOrder]) -> str:
        """Return what the order does, e.g. "Your worker goes on territory 2 (a second one too if
        the sum is even)."."""
        if len(orders) != 1 or seat not in state.seats:
            return ""
        order = orders[0]
        if isinstance(order, Reveal):
            return f"Your worker goes on territory {order.number} (a second one too if the sum is even)."
        after = state.on(seat, order.target) + 1
        return f"You will have {after} worker{'' if after == 1 else 's'} on territory {order.target}."

    def sample_orders(self, state: HarvestState, seat: str, rng: GameRng) -> list[HarvestOrder]:
        """Return a random reveal, or a random legal move."""
        if not state.movers:
            return [Reveal(rng.randint(0, len(TERRITORIES) - 1))]
        return [rng.choice(legal_moves(state, seat))]

    # --- resolving ------------------------------------------------------

    def resolve(self, state: HarvestState, orders: Mapping[str, Sequence[HarvestOrder]],
                rng: GameRng) -> Resolution[HarvestState]:
        """Resolve the reveal (place the workers, a second one each on an even sum) or one move;
        end the round when nobody is left to move, and the game when a farmer holds fewer than 2.

        Raises GameError when the game is over or an owing seat sent no entry, IllegalOrder
        for an order the rules refuse.
        """
        given = {seat: submission[0] for seat, submission in self.owed_orders(state, orders).items()}
        label = f"Round {state.round}"
        if state.movers:
            seat = state.movers[0]
            move = given[seat]
            assert isinstance(move, Move)
            state = _add(state, seat, move.source, -1)
            state = _add(state, seat, move.target, 1)
            events = [Event("move", f"Seat {seat} moves a worker from territory {move.source} to {move.target}.",
                            label, seat=seat, data={"from": move.source, "to": move.target})]
            state = replace(state, movers=state.movers[1:])
        else:
            state, events = _reveal(state, {s: o.number for s, o in given.items() if isinstance(o, Reveal)}, label)
        if not state.movers:
            state, end_events = _end_round(state, label)
            events += end_events
        return Resolution(state, events)

    def outcome(self, state: HarvestState) -> Outcome | None:
        """Return the winner once the last round is over (:meth:`standing_outcome`), else None."""
        return self.standing_outcome(state) if state.finished else None

    def standing_outcome(self, state: HarvestState) -> Outcome:
        """Return the winner by the territories controlled now: most territories, then the higher sum
        of controlled territory numbers, then the single highest controlled territory; a shared
        win when all three tie."""
        keys = {seat: _rank(state, seat) for seat in state.seats}
        best = max(keys.values())
        winners = tuple(s for s in state.seats if keys[s] == best)
        first, second = state.seats
        if len(winners) == 2:
            tied = keys[first]
            return Outcome(winners, f"Both farmers control {_count(tied[0])} with the same sum ({tied[1]}) and "
                                    "the same highest territory: they share the victory.")
        winner = winners[0]
        won, lost = keys[winner], keys[second if winner == first else first]
        if won[0] != lost[0]:
            why = f"controls {_count(won[0])} against {lost[0]}"
        elif won[1] != lost[1]:
            why = f"ties on {_count(won[0])} and wins the tie-break with a sum of {won[1]} against {lost[1]}"
        else:
            why = (f"ties on {_count(won[0])} and on the sum {won[1]}, and holds the highest territory, "
                   f"{won[2]}, against {lost[2] if lost[2] >= 0 else 'none'}")
        return Outcome((winner,), f"Seat {winner} {why}.")

    def scores(self, state: HarvestState) -> dict[str, int]:
        """Return the territories each farmer controls now (strictly more workers)."""
        return {seat: len(state.controlled(seat)) for seat in state.seats}

    # --- showing ----------------------------------------------------------

    def view(self, state: HarvestState, seat: str | None) -> dict[str, Any]:
        """Return the whole board (nothing in the state is secret; the reveal of a round is
        sealed by the service until both are in), and for the farmer to move his legal moves."""
        reader = seat if seat in state.seats else None
        territories = [
            {
                "number": t,
                "workers": {s: state.on(s, t) for s in state.seats},
                "counts": [state.on(s, t) for s in state.seats],
                "controller": state.controller(t),
                "neighbours": list(neighbours(state.side, t)),
            }
            for t in TERRITORIES
        ]
        to_move = state.movers[0] if state.movers and not state.finished else None
        return {
            "round": state.round,
            "over": state.finished,
            "side": state.side,
            "ring": state.side == "b",
            "seats": list(state.seats),
            "territories": territories,
            "farmers": [
                {"seat": s, "you": s == reader, "unplaced": state.unplaced[i],
                 "placed": sum(state.workers[i]), "controlled": list(state.controlled(s))}
                for i, s in enumerate(state.seats)
            ],
            "reveals": dict(zip(state.seats, state.reveals, strict=True)) if state.reveals else None,
            "to_move": to_move,
            "moves": [str(m) for m in legal_moves(state, reader)] if reader is not None and reader == to_move else None,
        }


def legal_moves(state: HarvestState, seat: str) -> list[Move]:
    """Return every move of one of ``seat``'s workers to an adjacent territory, in the NMR order:
    the lowest territory first, then its lowest neighbour."""
    return [Move(t, n) for t in TERRITORIES if state.on(seat, t) for n in neighbours(state.side, t)]


def _order_problem(state: HarvestState, seat: str, order: HarvestOrder) -> str | None:
    if state.movers:
        if not isinstance(order, Move):
            return f"{order}: the reveal of this round is over; now move a worker: MOVE a-b, e.g. MOVE 1-0"
        if order.source not in TERRITORIES or order.target not in TERRITORIES:
            return f"{order}: the territories are 0 to 5"
        if state.on(seat, order.source) == 0:
            return f"{order}: you have no worker on territory {order.source}"
        if order.target not in neighbours(state.side, order.source):
            close = " and ".join(str(n) for n in neighbours(state.side, order.source))
            return f"{order}: territory {order.target} is not next to {order.source} (its neighbours: {close})"
        return None
    if not isinstance(order, Reveal):
        return f"{order}: this is the reveal; send REVEAL n with n from 0 to 5"
    if order.number not in TERRITORIES:
        return f"{order}: reveal a number from 0 to 5"
    return None


def _add(state: HarvestState, seat: str, territory: int, count: int) -> HarvestState:
    i = state.index(seat)
    row = list(state.workers[i])
    row[territory] += count
    workers = list(state.workers)
    workers[i] = tuple(row)
    return replace(state, workers=tuple(workers))


def _lower_seat(state: HarvestState) -> str:
    return state.seats[0] if state.reveals[0] < state.reveals[1] else state.seats[1]


def _reveal(state: HarvestState, numbers: Mapping[str, int], label: str) -> tuple[HarvestState, list[Event]]:
    """Place the revealed workers; a second one each on an even sum, the movers on an odd one."""
    reveals = tuple(numbers[s] for s in state.seats)
    total = sum(reveals)
    listed = ", ".join(f"seat {s} reveals {n}" for s, n in zip(state.seats, reveals, strict=True))
    per = 2 if total % 2 == 0 else 1
    for seat, number in zip(state.seats, reveals, strict=True):
        state = _add(state, seat, number, per)
    state = replace(state, reveals=reveals,
                    unplaced=tuple(u - per for u in state.unplaced))
    if per == 2:
        text = f"{listed[0].upper()}{listed[1:]}: the sum {total} is even, so each places two workers there."
        return state, [Event("reveal", text, label, data={"reveals": dict(numbers), "sum": total})]
    lower = _lower_seat(state)
    higher = state.seats[1] if lower == state.seats[0] else state.seats[0]
    state = replace(state, movers=(lower, higher))
    text = (f"{listed[0].upper()}{listed[1:]}: the sum {total} is odd, so each places one worker there and then "
            f"moves a worker to an adjacent territory, seat {lower} (the lower number) first.")
    return state, [Event("reveal", text, label, data={"reveals": dict(numbers), "sum": total})]


def _end_round(state: HarvestState, label: str) -> tuple[HarvestState, list[Event]]:
    """Start the next round while each farmer holds 2 or more workers; end the game otherwise."""
    if min(state.unplaced) >= 2:
        return replace(state, round=state.round + 1, reveals=()), []
    held = state.unplaced[0]
    control = "; ".join(f"seat {s} controls {_territories(state.controlled(s))}" for s in state.seats)
    text = f"Each farmer holds {held} worker{'' if held == 1 else 's'}, fewer than 2: the game ends. " \
           f"{control[0].upper()}{control[1:]}."
    return replace(state, finished=True), [Event("end", text, label)]


def _territories(numbers: Sequence[int]) -> str:
    if not numbers:
        return "no territory"
    return f"territor{'y' if len(numbers) == 1 else 'ies'} {', '.join(str(n) for n in numbers)}"


def _count(territories: int) -> str:
    """Return e.g. "1 territory" or "2 territories"."""
    return f"{territories} territor{'y' if territories == 1 else 'ies'}"


def _rank(state: HarvestState, seat: str) -> tuple[int, int, int]:
    """The comparison key of the end [R]: territories, their sum, the highest one (-1: none)."""
    controlled = state.controlled(seat)
    return len(controlled), sum(controlled), max(controlled, default=-1)
