"""All in a Day's Work (Gateway Island, game 19) as a play-by-email game.

Two players, white (seat 1) and black (seat 2), each with 3 discs and 8
buildings. In the day the players take turns placing a disc on a free action
space and carry it out at once: take resources, climb the temple, feast on
their huts, or build a hut in the village or a shop space in the town square.
At night both score their huts. The game ends after the night in which a
player has built all 8 buildings, or after ``max_rounds`` rounds; the higher
score wins, a tie is a draw. The card is the one designed in the hosting plan.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import int_option
from pbem.core.protocol import Score
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.games.days_work.actions import (
    apply_placement,
    describe_resources,
    hut_points,
    legal_placements,
    place_problem,
    who,
)
from pbem.games.days_work.actions import (
    points as points_text,
)
from pbem.games.days_work.card import (
    BUILD_FEE,
    BUILDINGS,
    CELLS,
    DISCS,
    RESOURCES,
    SHOPS,
    SPACES,
    SUPPLY_EACH,
    TAKE,
    TEMPLE_COSTS,
    TEMPLE_POINTS,
)
from pbem.games.days_work.orders import Place
from pbem.games.days_work.state import MAX_ROUNDS, DayState, dump_state, load_state

MAX_ROUNDS_LIMIT = 100


class DaysWork(BaseGame[DayState, Place]):
    """The All in a Day's Work game object (stateless; every method is pure)."""

    name: ClassVar[str] = "all-in-a-days-work"
    title: ClassVar[str] = "All in a Day's Work"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    default_reports: ClassVar[str] = "digest"
    declared_options: ClassVar[Mapping[str, str]] = {
        START: START_DESCRIPTION + "; the first player takes 1 yellow, the second 1 green",
        "max_rounds": f"rounds at most, 1 to {MAX_ROUNDS_LIMIT}; default {MAX_ROUNDS}; then the higher score wins",
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "SPACE": "an action space (BUILD1, BUILD2, BUILD3, TEMPLE, FEAST, RED, YELLOW, GREEN or BLUE)",
        "CELL": "a village cell a1 to d3",
        "SHOP": "a shop (FISH, MARKET or JEWELS)",
    }
    transformer_class: ClassVar[str] = f"{__package__}.grammar:DaysWorkTransformer"

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> DayState:
        """Return round 1: empty card, scores 0, the first player with 1 yellow, the second with 1 green.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        max_rounds = int_option(checked, "max_rounds", 1, MAX_ROUNDS_LIMIT, MAX_ROUNDS)
        first = first_player(seats, checked.get(START), rng)
        hands = [Bag(), Bag()]
        hands[first], hands[1 - first] = Bag.of(("yellow",)), Bag.of(("green",))
        supply = Bag.filled(RESOURCES, SUPPLY_EACH) - Bag.of(("yellow", "green"))
        return DayState(tuple(seats), first, 1, 0, (), (0, 0), (0, 0), tuple(hands), supply, max_rounds=max_rounds)

    # --- asking for orders ------------------------------------------------

    def phase(self, state: DayState) -> Phase:
        """Return the placement of the seat to play, with the free spaces in the prompt."""
        seat = state.to_play
        free = [space for space in SPACES if state.disc_on(space) is None]
        disc = DISCS - state.discs_left(seat) + 1
        prompt = (f"Round {state.round} of at most {state.max_rounds}, day: {who(state, seat)} places disc "
                  f"{disc} of {DISCS}. Free spaces: {', '.join(free)}.")
        return Phase("place", (seat,), prompt)

    def validate(self, state: DayState, seat: str, orders: Sequence[Place]) -> list[OrderProblem]:
        """Return the problems of a submission: one legal PLACE (nothing only when no space is
        legal: a pass)."""
        if problems := self.turn_problems(state, seat):
            return problems
        if not orders:
            if legal_placements(state, seat):
                return [OrderProblem(None, "a turn is one PLACE; you may pass only when no space is open to you")]
            return []
        if len(orders) != 1:
            return [OrderProblem(None, "a turn is exactly one order: one PLACE")]
        problem = place_problem(state, seat, orders[0])
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: DayState, seat: str) -> list[Place]:
        """Return the NMR placement: the first legal of RED, YELLOW, GREEN, BLUE, FEAST, TEMPLE,
        then the first legal building on BUILD1, BUILD2, BUILD3 (cells a1..d3 in card order,
        then FISH, MARKET, JEWELS); a pass when there is none."""
        return legal_placements(state, seat)[:1]

    def forced_orders(self, state: DayState, seat: str) -> list[Place] | None:
        """Return the only legal placement when there is exactly one, [] (a pass) when there is none."""
        plays = legal_placements(state, seat)
        return plays if len(plays) <= 1 else None

    def order_choices(self, state: DayState, seat: str) -> list[list[Place]] | None:
        """Return every legal placement when there are few."""
        return few_choices(single_orders(legal_placements(state, seat)))

    def sample_orders(self, state: DayState, seat: str, rng: GameRng) -> list[Place]:
        """Return a random legal placement: each free legal space as likely, then a random
        building on a build space; a pass when nothing is legal."""
        plays = legal_placements(state, seat)
        if not plays:
            return []
        spaces = sorted({play.space for play in plays}, key=SPACES.index)
        space = rng.choice(spaces)
        return [rng.choice([play for play in plays if play.space == space])]

    def submission_summary(self, state: DayState, seat: str, orders: Sequence[Place]) -> str:
        """Return what the placement leaves in hand and the score it reaches."""
        if len(orders) != 1 or place_problem(state, seat, orders[0]) is not None:
            return ""
        after, _ = apply_placement(state, seat, orders[0])
        i = state.index(seat)
        return (f"You will hold {describe_resources(after.hands[i])} and have {points_text(after.scores[i])} "
                "before the night.")

    # --- resolving ------------------------------------------------------

    def resolve(self, state: DayState, orders: Mapping[str, Sequence[Place]],
                rng: GameRng) -> Resolution[DayState]:
        """Carry out the seat's placement (or its pass); after the round's last placement
        score the night, then end the game or start the next round with the other first player.

        Raises GameError when the game is over or the seat to play sent no entry, and
        IllegalOrder for an illegal placement.
        """
        seat = state.to_play
        given = self.owed_orders(state, orders)[seat]
        label = f"Round {state.round}"
        if given:
            state, text = apply_placement(state, seat, given[0])
            events = [Event("place", text, label, seat=seat, data={"order": str(given[0])})]
        else:
            state = replace(state, placed=state.placed + 1)
            events = [Event("pass", f"{who(state, seat).capitalize()} has no space open to a disc and passes.", label, seat=seat)]
        if state.placed < state.turns_per_round:
            return Resolution(state, events)
        state, night = _night(state)
        return Resolution(state, [*events, *night])

    def outcome(self, state: DayState) -> Outcome | None:
        """Return the higher score's win, a draw on equal scores, or None while the game goes on."""
        if not state.finished:
            return None
        standing = self.standing_outcome(state)
        return replace(standing, reason=f"{state.end_reason} {standing.reason}")

    def standing_outcome(self, state: DayState) -> Outcome:
        """Return the higher score's win as the scores stand, a draw on equal scores."""
        best = max(state.scores)
        leaders = [s for s, score in zip(state.seats, state.scores, strict=True) if score == best]
        if len(leaders) > 1:
            return Outcome.draw(f"Both players have {points_text(best)}: the game is a draw.")
        return Outcome((leaders[0],), f"{who(state, leaders[0]).capitalize()} wins with "
                                      f"{points_text(best)} to {min(state.scores)}.")

    def scores(self, state: DayState) -> dict[str, Score]:
        """Return each seat's place on the score track."""
        return dict(zip(state.seats, state.scores, strict=True))

    # --- showing ----------------------------------------------------------

    def view(self, state: DayState, seat: str | None) -> dict[str, Any]:
        """Return the whole game (nothing is hidden): the action spaces and their discs, the
        temple, the village, the town square, each player's resources and score, the supply,
        and the placements open to the seat to play."""
        to_play = None if state.finished else state.to_play
        return {
            "round": state.round,
            "max_rounds": state.max_rounds,
            "over": state.finished,
            "first": state.seats[state.first],
            "to_play": to_play,
            "to_play_colour": state.colour(to_play) if to_play else None,
            "spaces": [_space_view(state, space) for space in SPACES],
            "temple": {"steps": [{"step": n + 1, "points": TEMPLE_POINTS[n], "cost": list(TEMPLE_COSTS[n]),
                                  "cubes": [state.colour(s) for s, t in zip(state.seats, state.temple, strict=True)
                                            if t == n + 1]} for n in range(len(TEMPLE_POINTS))],
                       "start": [state.colour(s) for s, t in zip(state.seats, state.temple, strict=True) if t == 0]},
            "village": [_cell_view(state, n) for n in range(len(CELLS))],
            "shops": [{"name": shop.name, "cost": describe_resources(shop.cost), "points": shop.points,
                       "spaces": [state.colour(s) for s in state.shops[k]] + [None] * (shop.spaces - len(state.shops[k]))}
                      for k, shop in enumerate(SHOPS)],
            "players": [_player_view(state, s, seat) for s in state.seats],
            "supply": {colour: state.supply.count(colour) for colour in RESOURCES},
            "options": _options_view(state, to_play) if to_play else None,
        }

    def dump(self, state: DayState) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> DayState:
        """Rebuild a state from :meth:`dump` output."""
        return load_state(data)


# --- helpers ---------------------------------------------------------------


def _night(state: DayState) -> tuple[DayState, list[Event]]:
    """Score both players' huts, then end the game or start the next round."""
    label = f"Round {state.round}, night"
    points = [hut_points(state, s) for s in state.seats]
    state = replace(state, scores=tuple(a + b for a, b in zip(state.scores, points, strict=True)))
    text = "Night: " + "; ".join(f"{who(state, s)} scores {points_text(p)} for huts ({state.scores[i]} in all)"
                                 for i, (s, p) in enumerate(zip(state.seats, points, strict=True))) + "."
    events = [Event("night", text, label, data={"points": dict(zip(state.seats, points, strict=True))})]
    done = [s for s in state.seats if state.buildings_left(s) == 0]
    if done:
        names = " and ".join(who(state, s) for s in done)
        reason = f"{names.capitalize()} built all {BUILDINGS} buildings: the game ends after the night."
    elif state.round >= state.max_rounds:
        reason = f"Round {state.round} was the last one allowed (max_rounds={state.max_rounds}): the game ends."
    else:
        first = (state.first + 1) % len(state.seats)
        state = replace(state, round=state.round + 1, first=first, placed=0, discs=())
        events.append(Event("round", f"The discs come back; {who(state, state.seats[first])} places first.",
                            f"Round {state.round}"))
        return state, events
    state = replace(state, finished=True, end_reason=reason)
    return state, [*events, Event("end", reason, label)]


def _space_view(state: DayState, space: str) -> dict[str, Any]:
    holder = state.disc_on(space)
    if space in BUILD_FEE:
        effect = "build" if not BUILD_FEE[space] else f"pay {BUILD_FEE[space]} yellow, build"
    elif space == "TEMPLE":
        effect = "climb the temple"
    elif space == "FEAST":
        effect = "score your huts"
    else:
        effect = f"take {TAKE} {space.lower()}"
    return {"name": space, "effect": effect, "disc": state.colour(holder) if holder else None}


def _cell_view(state: DayState, index: int) -> dict[str, Any]:
    cell = CELLS[index]
    owner = state.huts[index]
    return {"name": cell.name, "cost": describe_resources(cell.cost, empty="free"), "value": cell.value,
            "bonus": cell.bonus, "owner": state.colour(owner) if owner else None}


def _player_view(state: DayState, seat: str, reader: str | None) -> dict[str, Any]:
    i = state.index(seat)
    return {"seat": seat, "colour": state.colour(seat), "you": seat == reader, "score": state.scores[i],
            "temple": state.temple[i], "resources": {c: state.hands[i].count(c) for c in RESOURCES},
            "resources_text": describe_resources(state.hands[i]), "huts_score": hut_points(state, seat),
            "buildings_left": state.buildings_left(seat), "discs_left": 0 if state.finished else state.discs_left(seat),
            "first": i == state.first and not state.finished, "to_play": seat == state.to_play and not state.finished}


def _options_view(state: DayState, seat: str) -> list[dict[str, Any]]:
    """The legal placements of the seat to play, grouped by space (builds list their buildings)."""
    plays = legal_placements(state, seat)
    grouped: dict[str, list[str]] = {}
    for play in plays:
        grouped.setdefault(play.space, [])
        if play.building is not None:
            grouped[play.space].append(play.building)
    return [{"space": space, "builds": builds} for space, builds in sorted(grouped.items(),
                                                                          key=lambda item: SPACES.index(item[0]))]
