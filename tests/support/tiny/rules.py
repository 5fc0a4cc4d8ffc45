"""A tiny sequential game: players take turns adding 1-3 to a running total;
whoever makes it reach the target wins. ``ADD n`` is the only order; at total
target-1 the only legal play is ``ADD 1`` (a forced play). NMR default: ADD 1.

Everything not written here comes from BaseGame's defaults: seat names 1..N,
the option check (``check_options``), the turn guards (``turn_problems``),
dump/load of the state class (``TinyState``, named in ``BaseGame[TinyState, Add]``),
the transformer (the one in ``grammar.py``), the grammar file (``grammar.lark``),
help (``HELP.txt``), no hidden information (``hidden_variant`` returns the state)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape

from .orders import Add
from .state import TinyState


class TinyGame(BaseGame[TinyState, Add]):
    """Add 1-3 in turn; reach the target to win."""

    name = "tiny"  # the kind: the key of the game's line in pbem.games.GAMES
    title = "Tiny"
    min_players, max_players = 2, 3
    turn_shape = TurnShape.SEQUENTIAL  # the default, written out: one seat at a time
    has_chance = True  # the first player is drawn
    declared_options = {"target": "the total to reach (default 10)"}
    quick_options = {"target": "6"}  # a short game, for demos and the end-to-end test
    terminal_words = {"INT": "a number from 1 to 3"}

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> TinyState:
        """Return total 0 and a drawn first player; raises GameError for bad seats, an
        unknown option or a target that is not a whole number from 2 to 99."""
        seats = self.check_seats(seats)
        target = self.check_options(options).get("target", "10").strip()
        if not (target.isdigit() and 2 <= int(target) <= 99):
            raise GameError(f"target={target!r}: give a whole number from 2 to 99")
        return TinyState(seats, 0, int(target), rng.randint(0, len(seats) - 1))

    def phase(self, state: TinyState) -> Phase:
        """Return the one seat to move."""
        return Phase("play", (state.seats[state.to_move],), f"The total is {state.total}.")

    def _legal(self, state: TinyState) -> list[int]:
        return [n for n in (1, 2, 3) if state.total + n <= state.target]

    def validate(self, state: TinyState, seat: str, orders: Sequence[Add]) -> list[OrderProblem]:
        """Refuse anything but one ADD that keeps the total within the target."""
        if problems := self.turn_problems(state, seat):
            return problems
        if len(orders) != 1:
            return [OrderProblem(None, "a turn is exactly one ADD")]
        if orders[0].amount not in self._legal(state):
            return [OrderProblem(0, f"{orders[0]}: the total may not pass {state.target}")]
        return []

    def default_orders(self, state: TinyState, seat: str) -> list[Add]:
        """NMR: ADD 1."""
        return [Add(1)]

    def forced_orders(self, state: TinyState, seat: str) -> list[Add] | None:
        """Return the only legal ADD when there is one."""
        legal = self._legal(state)
        return [Add(legal[0])] if len(legal) == 1 else None

    def submission_summary(self, state: TinyState, seat: str, orders: Sequence[Add]) -> str:
        """Say what the total will be."""
        return f"The total will be {state.total + sum(o.amount for o in orders)}."

    def sample_orders(self, state: TinyState, seat: str, rng: GameRng) -> list[Add]:
        """Return a random legal ADD."""
        return [Add(rng.choice(self._legal(state)))]

    def resolve(self, state: TinyState, orders: Mapping[str, Sequence[Add]], rng: GameRng) -> Resolution[TinyState]:
        """Add the mover's amount and pass the turn on."""
        seat = state.seats[state.to_move]
        amount = orders[seat][0].amount if orders[seat] else 1
        new = replace(state, total=state.total + amount, to_move=(state.to_move + 1) % len(state.seats), last=seat)
        return Resolution(new, [Event("add", f"Seat {seat} added {amount}; the total is {new.total}.", seat=seat)])

    def outcome(self, state: TinyState) -> Outcome | None:
        """The seat that reached the target wins."""
        return Outcome((state.last,)) if state.total >= state.target and state.last else None

    def scores(self, state: TinyState) -> dict[str, int]:
        """1 for the winner, 0 for the others."""
        return {s: int(s == state.last and state.total >= state.target) for s in state.seats}

    def view(self, state: TinyState, seat: str | None) -> dict[str, object]:
        """Everything is public: the seats, the total, the target, who moves next and who moved last."""
        over = self.outcome(state) is not None
        return {"seats": list(state.seats), "total": state.total, "target": state.target,
                "to_move": None if over else state.seats[state.to_move], "last": state.last}
