"""Turkey Chase (Allan Stagg, from an idea by Paul Scott) for four players by mail.

Rule book: shared/rules/turkey-chase.md; CLARIFICATIONS "Turkey Chase" wins
where they disagree. The decisions taken where both are silent are written
in :data:`HELP` (sent in reply to HELP) and tested.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from pbem.core import GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape
from pbem.games.turkey_chase.board import BUDGET, CELLS, FENCE_NAME, NAME, NEW_FROM_TURN, SEAT_INDEX, SEATS
from pbem.games.turkey_chase.orders import Feed, TurkeyOrder
from pbem.games.turkey_chase.planning import orders_cost, validate_orders
from pbem.games.turkey_chase.resolution import resolve_turn
from pbem.games.turkey_chase.sampling import sample_orders
from pbem.games.turkey_chase.state import NMR_MODES, TurkeyState, dump_state, load_state, start_state

if TYPE_CHECKING:
    from pbem.games.turkey_chase.grammar import TurkeyChaseTransformer

HELP = """\
TURKEY CHASE - orders

Each turn you have 5 points; points you do not spend are lost. Write one order
per line (any letter case; '#' starts a comment):

  FEED F6        one of your birds on F6 feeds there ............. 2 points
  DESTROY A6/B6  pull down the fence between A6 and B6 ........... 2 points
  MOVE F7-F8     a farmer or bird of yours on F7 moves to F8 ..... 1 point
  MOVE F8-G8     the same farmer's second move (after MOVE F7-F8)  2 points
  BUILD H1/H2    build a fence between H1 and H2 ................. 1 point
                 if one of your farmers stands on H1 or H2 after the
                 farmers' moves, else ............................ 2 points
  NEW A6         a new farmer arrives on A6, F1, F11 or K6 ....... 4 points
                 (from turn 4 on)

Squares are A..K (west to east) and 1..11 (north to south). A fence lies
between two neighbouring squares and is written X/Y (B6/A6 is the same fence;
A6-B6 is not a fence). The outer fence can be neither pulled down nor built.

A turn is resolved in seven phases, each for all players at once:
  1 birds feed, 2 fences are destroyed, 3 farmers' first moves, 4 birds move,
  5 farmers' second moves, 6 fences are built, 7 new farmers arrive.

Which piece a MOVE X-Y moves, decided line by line:
  1. if an earlier line of yours moved a farmer onto X (its first move) and
     that farmer has no second move yet, it is that farmer's second move;
  2. else, if one of your farmers stands on X at the start of the turn and has
     no first move yet, it is that farmer's first move;
  3. else it is the move of one of your birds on X.
So write a farmer's second move after its first move. Two birds of yours on one
square: each MOVE from that square moves one of them. A bird moves at most once
a turn, a farmer at most twice; moves are one square up, down, left or right,
never across a fence, never off the field.

Captures: a bird that moves onto a farmer (anyone's) is captured; a farmer that
moves onto birds captures all of them (anyone's, your own too); a new farmer
placed on birds captures them. Captured birds leave the game.

Feeding: you score the square's corn and the square drops to 0. Players who
feed on the same square in the same turn share its corn equally (scores are
exact; reports show two decimals). You may feed on a square once a turn.

Checking: your orders are checked when they arrive, against the position at the
start of the turn plus your own orders of earlier phases (a bird of yours may
move through a fence you destroy in phase 2). Orders are paid in line order: an
order that does not fit in the points you have left is refused, and a later,
cheaper order may still fit. At resolution an order that has become impossible
(its bird was captured earlier in the turn) fails, and its points are spent.

Decisions where the rules are silent:
  - FEED on a square without corn is refused (2 points for nothing).
  - DESTROY needs one of your birds or farmers on either side of the fence when
    the turn starts; the same fence may be destroyed by several players in one
    turn (all pay). Several players building the same fence in phase 6 all
    succeed and all pay: the fence stands once.
  - BUILD of a fence that stands when the turn starts is refused, unless your
    own DESTROY of it comes first in the same turn.
  - Your farmer moving onto a square where your bird stands captures it, so a
    MOVE of that bird is refused (written after the farmer's first move, that
    MOVE is the farmer's second move).
  - Players without birds go on playing (their farmers can still catch birds).
  - NMR: by default nothing is done for you (birds and farmers stay). A game
    created with nmr=feed makes each of your birds feed where it stands instead
    (once per square, squares with corn only).

The game ends when every bird is captured, or after a turn in which only one
player still has birds and that player's score is strictly the highest. The
highest score wins; equal highest scores share the win.
"""


class TurkeyChase(BaseGame[Any, Any]):
    """The Turkey Chase game object (stateless; every method is pure)."""

    turn_shape: ClassVar[TurnShape] = TurnShape.SIMULTANEOUS
    has_chance: ClassVar[bool] = False
    has_hidden_information: ClassVar[bool] = False

    name: ClassVar[str] = "turkey-chase"
    title: ClassVar[str] = "Turkey Chase"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    grammar: ClassVar[str] = "turkey-chase.lark"
    terminal_words: ClassVar[Mapping[str, str]] = {"SQUARE": "a square such as F6"}

    def transformer(self) -> TurkeyChaseTransformer:
        """Return the transformer that turns a parse tree into a list of orders."""
        from pbem.games.turkey_chase.grammar import TurkeyChaseTransformer  # lazily: the grammar needs lark

        return TurkeyChaseTransformer()

    def seat_names(self, players: int) -> tuple[str, ...]:
        """Return ``("A", "B", "C", "D")``; raises GameError unless ``players`` is 4."""
        if players != len(SEATS):
            raise GameError(f"Turkey Chase is played by exactly 4 players, not {players}")
        return SEATS

    def options(self) -> Mapping[str, str]:
        """Return the creator options: only ``nmr``."""
        return {
            "nmr": "what a player who sends no orders does: 'nothing' (default, the rule book) "
            "or 'feed' (each of his birds feeds where it stands)",
        }

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> TurkeyState:
        """Return the position of turn 1.

        Raises GameError for seats other than A, B, C, D, an unknown option or a
        bad ``nmr`` value.
        """
        if tuple(seats) != SEATS:
            raise GameError(f"Turkey Chase seats are A, B, C and D, not {', '.join(seats) or 'none'}")
        unknown = sorted(set(options) - {"nmr"})
        if unknown:
            raise GameError(f"Turkey Chase has no option {unknown[0]!r}; its only option is 'nmr'")
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
        if seat not in SEAT_INDEX:
            return [OrderProblem(None, f"there is no seat {seat} in Turkey Chase; seats are A, B, C and D")]
        if self.outcome(state) is not None:
            return [OrderProblem(None, "the game is over: no more orders")]
        return validate_orders(state, SEAT_INDEX[seat], orders)

    def default_orders(self, state: TurkeyState, seat: str) -> list[TurkeyOrder]:
        """NMR: nothing, or with ``nmr=feed`` a FEED on each square with corn holding the seat's birds."""
        if state.nmr != "feed":
            return []
        squares = sorted(set(state.birds[self._seat(seat)]))
        return [Feed(square) for square in squares if state.corn_at(square) > 0]

    def forced_orders(self, state: TurkeyState, seat: str) -> list[TurkeyOrder] | None:
        """Always None: a player may always choose to do nothing or something."""
        return None

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

    def dump(self, state: TurkeyState) -> dict[str, Any]:
        """Return the state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> TurkeyState:
        """Rebuild a state from :meth:`dump` output; raises GameError for bad data."""
        return load_state(data)

    def help(self) -> str:
        """Return the order syntax, examples and the decisions where the rules are silent."""
        return HELP
