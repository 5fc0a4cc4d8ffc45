"""Feaster Island (Gateway Island, game 11) as a play-by-email game.

At the start of each turn the service rolls the die and draws that many dish
cubes from the bag. The player puts each drawn cube on a different table
column and takes every cube of one column. When the bag holds fewer cubes than
the roll, they are discarded and every player, the roller first, may take one
more column; then each dish's single majority scores its value and its single
minority loses it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import choice_option
from pbem.core.protocol import Score
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.games.feaster_island.orders import FeasterOrder, Pass, Place, Take
from pbem.games.feaster_island.scoring import dish_results, majorities, totals, winners
from pbem.games.feaster_island.state import (
    COLOURS,
    COLUMNS,
    STAGE_LAST,
    STAGE_OVER,
    STAGE_TURN,
    FeasterState,
    counts_of,
    full_bag,
)

SIDE = "side"


class FeasterIsland(BaseGame[FeasterState, FeasterOrder]):
    """The Feaster Island game object (stateless; every method is pure)."""

    name: ClassVar[str] = "feaster-island"
    title: ClassVar[str] = "Feaster Island"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_chance: ClassVar[bool] = True
    declared_options: ClassVar[Mapping[str, str]] = {
        SIDE: "the island card's side: a (blue 5 ... white 10, default) or b (blue 10 ... white 5)",
        START: START_DESCRIPTION,
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "COLOUR": "a dish colour (red, blue, green, yellow, black or white)",
        "COLUMN": "a table column from 1 to 6",
    }
    transformer_class: ClassVar[str] = "pbem.games.feaster_island.grammar:FeasterTransformer"
    state_class: ClassVar[type] = FeasterState

    # --- set up ---------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> FeasterState:
        """Return the start: one random dish on each column, the first player's roll and draw made.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        side = choice_option(checked, SIDE, ("a", "b"), "a")
        first = first_player(seats, checked.get(START), rng)
        starters, bag = full_bag().draw(COLUMNS, rng)
        state = FeasterState(
            seats=tuple(seats),
            side=side,
            bag=counts_of(bag),
            columns=tuple((cube,) for cube in starters),
            plates=tuple(tuple(0 for _ in COLOURS) for _ in seats),
            current=first,
            stage=STAGE_TURN,
            rolled=0,
            drawn=(),
            turn=0,
        )
        state, _ = _start_turn(state, first, rng)
        return state

    # --- asking for orders ------------------------------------------------------

    def phase(self, state: FeasterState) -> Phase:
        """Return the turn of the seat to play: its placements and take, or its last take."""
        if state.stage == STAGE_LAST:
            return Phase("last-take", (state.seat,), "Last round: TAKE one column or PASS.")
        return Phase(
            "turn",
            (state.seat,),
            f"You rolled {state.rolled} and drew {cube_words(state.drawn)}. "
            "PLACE each drawn cube on a different column, then TAKE one column.",
        )

    def validate(self, state: FeasterState, seat: str, orders: Sequence[FeasterOrder]) -> list[OrderProblem]:
        """Return the problems of a submission: a turn is PLACE lines for every drawn cube (each on
        its own column) and one TAKE of a column with cubes; a last take is one TAKE or PASS.
        A faulty play is refused as a whole."""
        if problems := self.turn_problems(state, seat):
            return problems
        if state.stage == STAGE_LAST:
            return _last_take_problems(state, orders)
        return _turn_problems(state, orders)

    def default_orders(self, state: FeasterState, seat: str) -> list[FeasterOrder]:
        """Return the NMR play: the drawn cubes on the lowest columns, in drawing order, then TAKE the
        column with the most cubes (the lowest on a tie); in the last round that TAKE, or PASS."""
        if state.stage == STAGE_LAST:
            column = _fullest(state.columns)
            return [Take(column)] if column is not None else [Pass()]
        place = Place(tuple((cube, column) for column, cube in enumerate(state.drawn, start=1)))
        column = _fullest(_placed(state.columns, place.placements))
        assert column is not None  # a cube was just placed
        return [place, Take(column)]

    def forced_orders(self, state: FeasterState, seat: str) -> list[FeasterOrder] | None:
        """Return PASS for a last take with every column empty, else None."""
        if state.stage == STAGE_LAST and not any(state.columns):
            return [Pass()]
        return None

    def order_choices(self, state: FeasterState, seat: str) -> list[list[FeasterOrder]] | None:
        """Return the last take's choices, TAKE of each column holding cubes or PASS; None for a turn
        (its placements of the drawn cubes make too many plays)."""
        if state.stage != STAGE_LAST:
            return None
        takes: list[FeasterOrder] = [Take(n) for n, cubes in enumerate(state.columns, start=1) if cubes]
        return few_choices(single_orders([*takes, Pass()]))

    def submission_summary(self, state: FeasterState, seat: str, orders: Sequence[FeasterOrder]) -> str:
        """Return e.g. "You will take 3 cubes from column 5: 1 red and 2 white." for a valid play,
        "You take no column." for a PASS, and nothing when no order was accepted."""
        placements = tuple(p for order in orders if isinstance(order, Place) for p in order.placements)
        take = next((order for order in orders if isinstance(order, Take)), None)
        if take is None:
            return "You take no column." if any(isinstance(order, Pass) for order in orders) else ""
        cubes = _placed(state.columns, placements)[take.column - 1]
        return f"You will take {len(cubes)} cube{'' if len(cubes) == 1 else 's'} from column {take.column}: " \
               f"{cube_words(cubes)}."

    def sample_orders(self, state: FeasterState, seat: str, rng: GameRng) -> list[FeasterOrder]:
        """Return a random legal play: the drawn cubes on random columns and a random take
        (in the last round a random take or PASS)."""
        if state.stage == STAGE_LAST:
            choices: list[FeasterOrder] = [Take(n) for n, cubes in enumerate(state.columns, start=1) if cubes]
            return [rng.choice([*choices, Pass()])]
        columns = rng.sample(list(range(1, COLUMNS + 1)), len(state.drawn))
        place = Place(tuple(zip(state.drawn, columns, strict=True)))
        after = _placed(state.columns, place.placements)
        take = rng.choice([n for n, cubes in enumerate(after, start=1) if cubes])
        return [place, Take(take)]

    # --- resolving ----------------------------------------------------------------

    def resolve(
        self, state: FeasterState, orders: Mapping[str, Sequence[FeasterOrder]], rng: GameRng
    ) -> Resolution[FeasterState]:
        """Play the seat's turn (placements, then the take) and roll for the next seat; or play a last
        take and, after the last one, discard the table and score.

        Raises GameError when the game is over or the seat to play has no entry, IllegalOrder for a
        play that breaks a rule.
        """
        seat = state.seat
        given = self.owed_orders(state, orders)[seat]
        if state.stage == STAGE_LAST:
            return _resolve_last_take(state, given)
        label = f"Turn {state.turn}"
        placements = tuple(p for order in given if isinstance(order, Place) for p in order.placements)
        columns = _placed(state.columns, placements)
        events = [_place_event(seat, placements, label)]
        take = next(order for order in given if isinstance(order, Take))
        state, event = _take(replace(state, columns=columns, drawn=()), take.column, label)
        state, roll_events = _start_turn(state, (state.current + 1) % len(state.seats), rng)
        return Resolution(state, [*events, event, *roll_events])

    def outcome(self, state: FeasterState) -> Outcome | None:
        """Return the winners once the game is scored, else None."""
        return self.standing_outcome(state) if state.is_over else None

    def standing_outcome(self, state: FeasterState) -> Outcome:
        """Return the winners by the dishes as they score now, tie-breaks applied as the rules say."""
        won, reason = winners(state.seats, dish_results(state.seats, state.plates, state.values))
        return Outcome(won, reason)

    def scores(self, state: FeasterState) -> dict[str, Score]:
        """Return each seat's score as if the game ended now (the final score once it has)."""
        return dict(totals(state.seats, dish_results(state.seats, state.plates, state.values)))

    # --- showing --------------------------------------------------------------------

    def view(self, state: FeasterState, seat: str | None) -> dict[str, Any]:
        """Return everything (every dish cube is public): the columns, the bag, the drawn cubes,
        every player's dishes, and how each dish would score now."""
        results = dish_results(state.seats, state.plates, state.values)
        score = totals(state.seats, results)
        held = majorities(state.seats, results)
        return {
            "you": seat if seat in state.seats else None,
            "seats": list(state.seats),
            "side": state.side.upper(),
            "values": [{"colour": colour, "value": state.values[colour]} for colour in COLOURS],
            "stage": state.stage,
            "over": state.is_over,
            "turn": state.turn,
            "current": state.seat if not state.is_over else None,
            "rolled": state.rolled,
            "drawn": list(state.drawn),
            "drawn_text": cube_words(state.drawn),
            "last_left": state.last_left,
            "bag": sum(state.bag),
            "bag_counts": dict(zip(COLOURS, state.bag, strict=True)),
            "discarded": state.discarded,
            "columns": [{"column": n, "cubes": list(cubes)} for n, cubes in enumerate(state.columns, start=1)],
            "height": max((len(cubes) for cubes in state.columns), default=0),
            "players": [
                {
                    "seat": s,
                    "you": s == seat,
                    "to_play": s == state.seat and not state.is_over,
                    "plate": dict(zip(COLOURS, state.plates[i], strict=True)),
                    "cubes": sum(state.plates[i]),
                    "score": score[s],
                    "majorities": held[s],
                }
                for i, s in enumerate(state.seats)
            ],
            "dishes": [
                {"colour": r.colour, "value": r.value, "most": r.most, "fewest": r.fewest} for r in results
            ],
        }


# --- helpers -------------------------------------------------------------------------


def cube_words(cubes: Sequence[str]) -> str:
    """Return cubes as words in colour order: ``"1 red and 2 white"``; ``"no cubes"`` for none."""
    counted = Counter(cubes)
    parts = [f"{counted[colour]} {colour}" for colour in COLOURS if counted[colour]]
    if not parts:
        return "no cubes"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _placed(columns: tuple[tuple[str, ...], ...], placements: Sequence[tuple[str, int]]) -> tuple[tuple[str, ...], ...]:
    added = {column: colour for colour, column in placements}
    return tuple(cubes + (added[n],) if n in added else cubes for n, cubes in enumerate(columns, start=1))


def _fullest(columns: Sequence[Sequence[str]]) -> int | None:
    """Return the column (1..6) with the most cubes, the lowest on a tie; None when all are empty."""
    most = max(len(cubes) for cubes in columns)
    if most == 0:
        return None
    return next(n for n, cubes in enumerate(columns, start=1) if len(cubes) == most)


def _turn_problems(state: FeasterState, orders: Sequence[FeasterOrder]) -> list[OrderProblem]:
    left = Counter(state.drawn)
    used: set[int] = set()
    problems: list[OrderProblem] = []
    takes: list[int] = []
    for index, order in enumerate(orders):
        if isinstance(order, Pass):
            problems.append(OrderProblem(index, "PASS is only for the last round: this turn you TAKE a column"))
        elif isinstance(order, Take):
            takes.append(index)
        else:
            problem = _placement_problem(state, order, left, used)
            if problem is not None:
                problems.append(OrderProblem(index, problem))
    general: list[str] = []
    for index in takes[1:]:
        problems.append(OrderProblem(index, "you take one column a turn: this is a second TAKE"))
    if takes:
        column = orders[takes[0]].column  # type: ignore[union-attr]
        if not state.columns[column - 1] and column not in used:
            problems.append(OrderProblem(takes[0], f"column {column} is empty and gets no cube from you"))
    else:
        general.append("send TAKE <column> to take the cubes of one column")
    missing = +left
    if missing and not problems:
        general.append(f"place every drawn cube: {cube_words(list(missing.elements()))} not placed yet")
    if problems or general:
        general.append(f"a turn is one whole play: PLACE each drawn cube ({cube_words(state.drawn)}) on a "
                       "different column and TAKE one column; nothing is stored until the play is complete")
    return problems + [OrderProblem(None, message) for message in general]


def _placement_problem(state: FeasterState, order: Place, left: Counter[str], used: set[int]) -> str | None:
    """Check ``order``'s placements against the cubes still to place; consume them when they fit."""
    for colour, column in order.placements:
        if left[colour] == 0:
            drawn = state.drawn.count(colour)
            if drawn == 0:
                return f"{colour}:{column}: you drew no {colour} cube (you drew {cube_words(state.drawn)})"
            return f"{colour}:{column}: you drew only {drawn} {colour} cube{'' if drawn == 1 else 's'}"
        if column in used:
            return f"{colour}:{column}: column {column} already gets a cube; each cube goes on a different column"
        left[colour] -= 1
        used.add(column)
    return None


def _last_take_problems(state: FeasterState, orders: Sequence[FeasterOrder]) -> list[OrderProblem]:
    if len(orders) != 1:
        return [OrderProblem(None, "the last round is one order: TAKE <column> or PASS")]
    order = orders[0]
    if isinstance(order, Place):
        return [OrderProblem(0, "no cubes are drawn in the last round: TAKE <column> or PASS")]
    if isinstance(order, Take) and not state.columns[order.column - 1]:
        return [OrderProblem(0, f"column {order.column} is empty")]
    return []


def _place_event(seat: str, placements: Sequence[tuple[str, int]], label: str) -> Event:
    parts = [f"{colour} on column {column}" for colour, column in placements]
    listed = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return Event("place", f"Seat {seat} placed {listed}.", label, seat=seat,
                 data={"placements": [[colour, column] for colour, column in placements]})


def _take(state: FeasterState, column: int, label: str) -> tuple[FeasterState, Event]:
    """Move every cube of ``column`` to the current seat's dishes."""
    seat = state.seat
    cubes = state.columns[column - 1]
    taken = Counter(cubes)
    plates = list(state.plates)
    plates[state.current] = tuple(count + taken[colour] for colour, count in zip(COLOURS, plates[state.current],
                                                                              strict=True))
    columns = tuple(() if n == column else c for n, c in enumerate(state.columns, start=1))
    event = Event("take", f"Seat {seat} took column {column}: {cube_words(cubes)}.", label, seat=seat,
                  data={"column": column, "cubes": list(cubes)})
    return replace(state, columns=columns, plates=tuple(plates)), event


def _start_turn(state: FeasterState, index: int, rng: GameRng) -> tuple[FeasterState, list[Event]]:
    """Roll for seat ``index`` and draw its cubes; when the bag holds too few, discard them and
    begin the last round with that seat."""
    seat = state.seats[index]
    roll = rng.roll(6)
    bag = state.bag_of_cubes()
    if roll > bag.size:
        text = (f"Seat {seat} rolled {roll}, but the bag holds only {bag.size} cube{'' if bag.size == 1 else 's'}: "
                f"{'they are' if bag.size != 1 else 'it is'} discarded. Last round: every player, seat {seat} "
                "first, may take one more column.")
        state = replace(state, current=index, stage=STAGE_LAST, rolled=roll, drawn=(), bag=tuple(0 for _ in COLOURS),
                        last_left=len(state.seats), discarded=state.discarded + bag.size)
        return state, [Event("end", text, "Last round", seat=seat, data={"roll": roll, "discarded": bag.size})]
    drawn, bag = bag.draw(roll, rng)
    turn = state.turn + 1
    state = replace(state, current=index, stage=STAGE_TURN, rolled=roll, drawn=drawn, bag=counts_of(bag), turn=turn)
    text = f"Seat {seat} rolled {roll} and drew {cube_words(drawn)}."
    return state, [Event("roll", text, f"Turn {turn}", seat=seat, data={"roll": roll, "drawn": list(drawn)})]


def _resolve_last_take(state: FeasterState, given: Sequence[FeasterOrder]) -> Resolution[FeasterState]:
    label = "Last round"
    order = given[0]
    if isinstance(order, Take):
        state, event = _take(state, order.column, label)
    else:
        event = Event("pass", f"Seat {state.seat} took no column.", label, seat=state.seat)
    events = [event]
    left = state.last_left - 1
    if left:
        return Resolution(replace(state, last_left=left, current=(state.current + 1) % len(state.seats)), events)
    leftover = sum(len(cubes) for cubes in state.columns)
    if leftover:
        events.append(Event("discard", f"The {leftover} cube{'' if leftover == 1 else 's'} left on the table "
                                       f"{'are' if leftover != 1 else 'is'} discarded.", label,
                            data={"discarded": leftover}))
    state = replace(state, last_left=0, stage=STAGE_OVER, columns=tuple(() for _ in state.columns),
                    discarded=state.discarded + leftover)
    return Resolution(state, events + _scoring_events(state))


def _scoring_events(state: FeasterState) -> list[Event]:
    results = dish_results(state.seats, state.plates, state.values)
    events = []
    for result in results:
        most = f"seat {result.most} has the most (+{result.value})" if result.most else "a tie for the most scores nothing"
        fewest = (f"seat {result.fewest} has the fewest (-{result.value})" if result.fewest
                  else "a tie for the fewest costs nothing")
        counts = ", ".join(f"seat {s} {n}" for s, n in zip(state.seats, result.counts, strict=True))
        events.append(Event("dish", f"{result.colour.capitalize()} ({result.value} points; {counts}): {most}; {fewest}.",
                            "Scoring", data={"colour": result.colour, "most": result.most, "fewest": result.fewest}))
    final = totals(state.seats, results)
    listed = ", ".join(f"seat {s} {final[s]}" for s in state.seats)
    events.append(Event("score", f"Final scores: {listed}.", "Scoring", data={"scores": final}))
    return events
