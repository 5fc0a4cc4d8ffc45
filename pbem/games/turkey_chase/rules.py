"""Turkey Chase (Allan Stagg, from an idea by Paul Scott) for four players by mail.

Rule book: shared/rules/turkey-chase.md; CLARIFICATIONS "Turkey Chase" wins
where they disagree. The decisions taken where both are silent are written
in HELP.txt (sent in reply to HELP) and tested.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pbem.core import GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape
from pbem.games.turkey_chase.board import BUDGET, CELLS, FENCE_NAME, NAME, NEW_FROM_TURN, SEAT_INDEX, SEATS
from pbem.games.turkey_chase.orders import Feed, TurkeyOrder
from pbem.games.turkey_chase.planning import orders_cost, validate_orders
from pbem.games.turkey_chase.resolution import resolve_turn
from pbem.games.turkey_chase.sampling import sample_orders
from pbem.games.turkey_chase.state import NMR_MODES, TurkeyState, start_state


class TurkeyChase(BaseGame[TurkeyState, TurkeyOrder]):
    """The Turkey Chase game object (stateless; every method is pure)."""

    name = "turkey-chase"
    title = "Turkey Chase"
    min_players = max_players = 4
    turn_shape = TurnShape.SIMULTANEOUS
    declared_options = {
        "nmr": "what a player who sends no orders does: 'nothing' (default, the rule book) "
        "or 'feed' (each of his birds feeds where it stands)",
    }
    terminal_words = {"SQUARE": "a square such as F6"}

    def seat_names(self, players: int) -> tuple[str, ...]:
        """Return ``("A", "B", "C", "D")``; raises GameError unless ``players`` is 4."""
        if players != len(SEATS):
            raise GameError(f"Turkey Chase is played by exactly 4 players, not {players}")
        return SEATS

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> TurkeyState:
        """Return the position of turn 1.

        Raises GameError for seats other than A, B, C, D, an unknown option or a
        bad ``nmr`` value.
        """
        self.check_seats(seats)
        options = self.check_options(options)
        nmr = str(options.get("nmr", "nothing")).strip().lower()
        if nmr not in NMR_MODES:
            raise GameError(f"nmr={options['nmr']!r} is not an NMR mode; use nmr=nothing or nmr=feed")
        return start_state(nmr)

    def phase(self, state: TurkeyState) -> Phase:
        """Every turn all four players order at once."""
        prompt = f"Send your orders for turn {state.turn}; you have {BUDGET} points to spend."
        if state.turn < NEW_FROM_TURN:
            prompt += f" New farmers may arrive from turn {NEW_FROM_TURN} on."
        return Phase("orders", SEATS, prompt)

    def _seat(self, seat: str) -> int:
        try:
            return SEAT_INDEX[seat]
        except KeyError:
            raise GameError(f"Turkey Chase has no seat {seat!r}; seats are A, B, C and D") from None

    def validate(self, state: TurkeyState, seat: str, orders: Sequence[TurkeyOrder]) -> list[OrderProblem]:
        """Return a problem per refused order; the rest is a valid submission (see HELP)."""
        if problems := self.turn_problems(state, seat):
            return problems
        return validate_orders(state, SEAT_INDEX[seat], orders)

    def default_orders(self, state: TurkeyState, seat: str) -> list[TurkeyOrder]:
        """NMR: nothing, or with ``nmr=feed`` a FEED on each square with corn holding the seat's birds."""
        if state.nmr != "feed":
            return []
        squares = sorted(set(state.birds[self._seat(seat)]))
        return [Feed(square) for square in squares if state.corn_at(square) > 0]

    def submission_summary(self, state: TurkeyState, seat: str, orders: Sequence[TurkeyOrder]) -> str:
        """Return ``"These orders cost N of your 5 points."``."""
        cost = orders_cost(state, self._seat(seat), orders)
        return f"These orders cost {cost} of your {BUDGET} points."

    def sample_orders(self, state: TurkeyState, seat: str, rng: GameRng) -> list[TurkeyOrder]:
        """Return random legal orders using every kind of order, within the budget."""
        return sample_orders(state, self._seat(seat), rng)

    def resolve(
        self, state: TurkeyState, orders: Mapping[str, Sequence[TurkeyOrder]], rng: GameRng
    ) -> Resolution[TurkeyState]:
        """Resolve the turn's seven phases for all seats at once (no chance involved)."""
        new_state, events = resolve_turn(state, orders)
        return Resolution(new_state, events)

    def outcome(self, state: TurkeyState) -> Outcome | None:
        """The game ends when no bird is left, or when only one player has birds
        and that player's score is strictly the highest; highest scores win."""
        with_birds = [si for si, cells in enumerate(state.birds) if cells]
        best = max(state.scores)
        leaders = tuple(SEATS[si] for si, score in enumerate(state.scores) if score == best)
        if not with_birds:
            return Outcome(leaders, "Every bird has been captured.")
        if len(with_birds) == 1:
            survivor = with_birds[0]
            if len(leaders) == 1 and leaders[0] == SEATS[survivor]:
                return Outcome(
                    leaders,
                    f"Only {SEATS[survivor]} still has birds, and {SEATS[survivor]}'s score is the highest.",
                )
        return None

    def scores(self, state: TurkeyState) -> dict[str, Fraction]:
        """Return each seat's score (exact fractions)."""
        return dict(zip(SEATS, state.scores, strict=True))

    def view(self, state: TurkeyState, seat: str | None) -> dict[str, Any]:
        """Return the whole (public) position: corn of every square, fences,
        farmers and birds per seat, and the turn being ordered."""
        return {
            "corn": {NAME[cell]: value for cell, value in zip(CELLS, state.corn, strict=True)},
            "fences": sorted(FENCE_NAME[f] for f in state.fences),
            "farmers": {s: [NAME[c] for c in cells] for s, cells in zip(SEATS, state.farmers, strict=True)},
            "birds": {s: [NAME[c] for c in cells] for s, cells in zip(SEATS, state.birds, strict=True)},
            "turn": state.turn,
        }
