"""A tiny sequential game for testing the runner: players take turns adding 1-3
to a running total; whoever makes it reach the target wins. ``ADD n`` is the
only order; at total target-1 the only legal play is ``ADD 1`` (a forced play).
NMR default: ADD 1."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.transformer import OrdersTransformer


@dataclass(frozen=True)
class Add:
    amount: int

    def __str__(self) -> str:
        return f"ADD {self.amount}"


@dataclass(frozen=True)
class TinyState:
    seats: tuple[str, ...]
    total: int
    target: int
    to_move: int
    last: str | None = None


class TinyTransformer(OrdersTransformer):
    def add(self, children: list[Any]) -> Add:
        return Add(int(children[0]))


class TinyGame:
    name: ClassVar[str] = "tiny"
    title: ClassVar[str] = "Tiny"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 3
    grammar: ClassVar[str] = str(Path(__file__).with_name("tiny.lark"))
    terminal_words: ClassVar[Mapping[str, str]] = {"INT": "a number from 1 to 3"}

    def transformer(self) -> Any:
        return TinyTransformer()

    def seat_names(self, players: int) -> tuple[str, ...]:
        return tuple(str(i) for i in range(1, players + 1))

    def options(self) -> Mapping[str, str]:
        return {"target": "the total to reach (default 10)"}

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> TinyState:
        target = options.get("target", "10")
        if not target.isdigit():
            raise GameError(f"target={target!r}: expected a number")
        return TinyState(tuple(seats), 0, int(target), rng.randint(0, len(seats) - 1))

    def phase(self, state: TinyState) -> Phase:
        return Phase("play", (state.seats[state.to_move],), f"The total is {state.total}.")

    def _legal(self, state: TinyState) -> list[int]:
        return [n for n in (1, 2, 3) if state.total + n <= state.target]

    def validate(self, state: TinyState, seat: str, orders: Sequence[Add]) -> list[OrderProblem]:
        if len(orders) != 1:
            return [OrderProblem(None, "a turn is exactly one ADD")]
        if orders[0].amount not in self._legal(state):
            return [OrderProblem(0, f"{orders[0]}: the total may not pass {state.target}")]
        return []

    def default_orders(self, state: TinyState, seat: str) -> list[Add]:
        return [Add(1)]

    def forced_orders(self, state: TinyState, seat: str) -> list[Add] | None:
        legal = self._legal(state)
        return [Add(legal[0])] if len(legal) == 1 else None

    def submission_summary(self, state: TinyState, seat: str, orders: Sequence[Add]) -> str:
        return f"The total will be {state.total + sum(o.amount for o in orders)}."

    def sample_orders(self, state: TinyState, seat: str, rng: GameRng) -> list[Add]:
        return [Add(rng.choice(self._legal(state)))]

    def resolve(self, state: TinyState, orders: Mapping[str, Sequence[Add]], rng: GameRng) -> Resolution[TinyState]:
        seat = state.seats[state.to_move]
        amount = orders[seat][0].amount if orders[seat] else 1
        new = replace(state, total=state.total + amount, to_move=(state.to_move + 1) % len(state.seats), last=seat)
        return Resolution(new, [Event("add", f"Seat {seat} added {amount}; the total is {new.total}.", seat=seat)])

    def outcome(self, state: TinyState) -> Outcome | None:
        return Outcome((state.last,)) if state.total >= state.target and state.last else None

    def scores(self, state: TinyState) -> dict[str, int]:
        return {s: int(s == state.last and state.total >= state.target) for s in state.seats}

    def view(self, state: TinyState, seat: str | None) -> dict[str, Any]:
        return {"total": state.total, "target": state.target}

    def dump(self, state: TinyState) -> dict[str, Any]:
        return {"seats": list(state.seats), "total": state.total, "target": state.target,
                "to_move": state.to_move, "last": state.last}

    def load(self, data: Mapping[str, Any]) -> TinyState:
        return TinyState(tuple(data["seats"]), data["total"], data["target"], data["to_move"], data["last"])

    def help(self) -> str:
        return "ADD n  (n = 1, 2 or 3)"
