"""The Great Battle (Gateway Island, game 15) as a play-by-email game.

Two generals, the Minutians (seat 1: red and blue units, bases a9 and e9)
and the Meanies (seat 2: green and yellow units, bases i1 and e1), on a hex
island of 61 hexes. After the setup (the first player places 2 units, the
second 3) the generals take turns: each moves his disc to an action space
holding neither disc and carries the action out: move, spawn, upgrade,
sabotage or attack. Entering an enemy base wins at once; a general with no
unit left on the island loses (both at once: a draw). After ``turn_limit``
actions the higher total unit level wins; equal is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag
from pbem.core.game import BaseGame, TurnShape
from pbem.core.hexgrid import HexCell
from pbem.core.options import int_option
from pbem.core.protocol import Score
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.core.words import plural
from pbem.games.great_battle.board import (
    BASES,
    COLOURS,
    CUBES,
    GRID,
    SIDE_COLOURS,
    SIDES,
    base_colour,
    hex_name,
    next_to_base,
)
from pbem.games.great_battle.orders import Action, BattleOrder, Place, Spawn
from pbem.games.great_battle.state import (
    SETUP,
    SETUP_UNITS,
    TURN_LIMIT,
    BattleState,
    Unit,
    dump_state,
    load_state,
)
from pbem.games.great_battle.turn import SPACES, TurnPlay, free_spaces

TURN_LIMIT_RANGE = (2, 400)


class GreatBattle(BaseGame[BattleState, BattleOrder]):
    """The Great Battle game object (stateless; every method is pure)."""

    name: ClassVar[str] = "great-battle"
    title: ClassVar[str] = "The Great Battle"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    declared_options: ClassVar[Mapping[str, str]] = {
        START: START_DESCRIPTION + "; seat 1 always commands the Minutians",
        "turn_limit": (f"actions at most, {TURN_LIMIT_RANGE[0]} to {TURN_LIMIT_RANGE[1]}; default {TURN_LIMIT} "
                       "(30 each); then the higher total unit level wins, equal is a draw"),
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "SPACE": "an action space (MOVE3, MOVE1X2, SPAWN, UPGRADE, SABOTAGE or ATTACK)",
        "HEX": "a hex such as b8",
        "COLOUR": "a colour (red, blue, green or yellow)",
        "DASH": 'a dash, as in "b8-c6"',
    }
    transformer_class: ClassVar[str] = f"{__package__}.grammar:BattleTransformer"

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> BattleState:
        """Return the empty island, full supplies and the first player to place his units.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        turn_limit = int_option(checked, "turn_limit", *TURN_LIMIT_RANGE, TURN_LIMIT)
        first = first_player(seats, checked.get(START), rng)
        supply = tuple(Bag.filled(colours, CUBES) for colours in SIDE_COLOURS)
        return BattleState(tuple(seats), first, SETUP, 0, (), supply, turn_limit=turn_limit)

    # --- asking for orders ------------------------------------------------

    def phase(self, state: BattleState) -> Phase:
        """Return the setup placement or the action of the general to play."""
        who = state.side_name(state.mover, capital=True)
        if state.stage == SETUP:
            count = _setup_count(state)
            colours = SIDE_COLOURS[state.mover]
            around = "; ".join(f"{colour} base {hex_name(BASES[colour])}: "
                               f"{', '.join(hex_name(cell) for cell in next_to_base(colour))}" for colour in colours)
            return Phase("setup", (state.to_play,), f"Setup: {who} places {count} units (PLACE colour hex), each "
                         f"on an empty hex next to the base of its colour ({around}).")
        return Phase("action", (state.to_play,), f"Action {state.turns + 1} of at most {state.turn_limit}: {who} "
                     f"chooses a free action space ({', '.join(free_spaces(state))}) and its lines.")

    def validate(self, state: BattleState, seat: str, orders: Sequence[BattleOrder]) -> list[OrderProblem]:
        """Play the submission line by line on a copy of the island: each line that breaks a
        rule is refused (and left out); a turn without its ACTION, or a setup without the
        right number of units, is refused as a whole."""
        if problems := self.turn_problems(state, seat):
            return problems
        play = TurnPlay(state)
        problems = [OrderProblem(i, message) for i, order in enumerate(orders)
                    if (message := play.play(order)) is not None]
        if state.stage == SETUP:
            count = _setup_count(state)
            if play.lines != count:
                problems.append(OrderProblem(None, f"the setup is {count} PLACE lines; {play.lines} of yours "
                                                   "can be placed"))
        elif play.action is None and any(isinstance(order, Action) for order in orders):
            problems.append(OrderProblem(None, "without its ACTION the turn cannot stand: nothing is stored"))
        elif play.action is None:
            problems.append(OrderProblem(None, "a turn starts with ACTION and a free space, e.g. ACTION "
                                               f"{free_spaces(state)[0]}"))
        return problems

    def default_orders(self, state: BattleState, seat: str) -> list[BattleOrder]:
        """Return the NMR turn: in the setup the first free hexes in name order, one unit of
        each colour in turn; later SPAWN one unit of each colour with supply on the first free
        hex next to its base when SPAWN is free and something can spawn, else the first free
        action of MOVE3, MOVE1X2, SPAWN, UPGRADE, SABOTAGE, ATTACK with no lines."""
        play = TurnPlay(state)
        colours = SIDE_COLOURS[state.mover]
        if state.stage == SETUP:
            orders: list[BattleOrder] = []
            for k in range(_setup_count(state)):
                colour = colours[k % 2]
                cell = next(c for c in next_to_base(colour) if play.problem(Place(colour, hex_name(c))) is None)
                orders.append(Place(colour, hex_name(cell)))
                play.play(orders[-1])
            return orders
        if "SPAWN" in free_spaces(state):
            spawns: list[BattleOrder] = []
            play.play(Action("SPAWN"))
            for colour in colours:
                line = next((Spawn(colour, hex_name(c)) for c in next_to_base(colour)
                             if play.problem(Spawn(colour, hex_name(c))) is None), None)
                if line is not None:
                    play.play(line)
                    spawns.append(line)
            if spawns:
                return [Action("SPAWN"), *spawns]
        return [Action(free_spaces(state)[0])]

    def sample_orders(self, state: BattleState, seat: str, rng: GameRng) -> list[BattleOrder]:
        """Return a random legal turn: a random free action with a random number of its legal
        lines (moves favour entering an enemy base when one is in reach); a random setup."""
        play = TurnPlay(state)
        orders: list[BattleOrder] = []
        wanted = _setup_count(state) if state.stage == SETUP else 1 + rng.randint(0, 4)
        while len(orders) < wanted:
            options = play.open_lines()
            if not options:
                break
            winning = [o for o in options if hasattr(o, "end") and base_colour(GRID.parse(o.end)) is not None]
            order = rng.choice(winning or options)
            play.play(order)
            orders.append(order)
        return orders

    def submission_summary(self, state: BattleState, seat: str, orders: Sequence[BattleOrder]) -> str:
        """Return how an action ends: the units left on each side, or that it wins the battle."""
        play = TurnPlay(state)
        if state.stage == SETUP or any(play.play(order) is not None for order in orders):
            return ""
        after, _ = play.finish()
        if after.winners == (seat,):
            return "This turn wins the battle."
        if after.drawn:
            return "This turn ends the battle in a draw."
        return (f"After this turn: {SIDES[0]} {plural(len(after.units_of(0)), 'unit')} (total level "
                f"{after.strength(0)}), {SIDES[1]} {plural(len(after.units_of(1)), 'unit')} (total level "
                f"{after.strength(1)}).")

    # --- resolving ------------------------------------------------------

    def resolve(self, state: BattleState, orders: Mapping[str, Sequence[BattleOrder]],
                rng: GameRng) -> Resolution[BattleState]:
        """Play the general's turn line by line, then hand over or end the battle.

        Raises GameError when the battle is over or the general to play sent no entry, and
        IllegalOrder for a line the rules refuse.
        """
        given = self.owed_orders(state, orders)[state.to_play]
        play = TurnPlay(state)
        for order in given:
            play.play(order)
        label = "Setup" if state.stage == SETUP else f"Action {state.turns + 1}"
        mover = state.to_play
        after, texts = play.finish()
        if state.stage == SETUP:
            texts = [f"{state.side_name(state.mover, capital=True)} places {len(given)} units.", *texts]
        return Resolution(after, [Event("battle", text, label, seat=mover) for text in texts])

    def outcome(self, state: BattleState) -> Outcome | None:
        """Return the winner, a draw, or None while the battle goes on."""
        if state.winners:
            return Outcome(state.winners, state.end_reason)
        if state.drawn:
            return Outcome.draw(state.end_reason)
        return None

    def scores(self, state: BattleState) -> dict[str, Score]:
        """Return each general's total unit level on the island."""
        return {seat: state.strength(i) for i, seat in enumerate(state.seats)}

    # --- showing ----------------------------------------------------------

    def view(self, state: BattleState, seat: str | None) -> dict[str, Any]:
        """Return the whole battle (nothing is hidden): every hex with its unit or base, the
        supplies and the cubes lost, the discs and the free action spaces."""
        board = {unit.cell: unit for unit in state.units}
        rows = [[_hex_view(state, cell, board.get(cell)) for cell in row] for row in GRID.rows()]
        armies = []
        for i, army_seat in enumerate(state.seats):
            on_island = {c: sum(u.level for u in state.units_of(i) if u.colour == c) for c in SIDE_COLOURS[i]}
            armies.append({
                "seat": army_seat, "side": SIDES[i], "you": army_seat == seat, "to_play": not state.is_over
                and i == state.mover, "colours": list(SIDE_COLOURS[i]), "disc": state.discs[i] or None,
                "supply": {c: state.supply[i].count(c) for c in SIDE_COLOURS[i]},
                "lost": {c: CUBES - state.supply[i].count(c) - on_island[c] for c in SIDE_COLOURS[i]},
                "units": [{"hex": hex_name(u.cell), "colour": u.colour, "level": u.level} for u in state.units_of(i)],
                "strength": state.strength(i)})
        return {
            "stage": state.stage,
            "action": state.turns + 1 if state.stage != SETUP else 0,
            "turn_limit": state.turn_limit,
            "to_play": None if state.is_over else state.to_play,
            "first": state.seats[state.first],
            "map": rows,
            "bases": {colour: hex_name(cell) for colour, cell in BASES.items()},
            "armies": armies,
            "spaces": [{"name": space, "disc": next((state.seats[i] for i in (0, 1) if state.discs[i] == space),
                                                     None)} for space in SPACES],
            "free_spaces": [] if state.is_over or state.stage == SETUP else free_spaces(state),
            "over": state.is_over,
            "winners": list(state.winners),
            "drawn": state.drawn,
            "colours": list(COLOURS),
        }

    def dump(self, state: BattleState) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> BattleState:
        """Rebuild a state from :meth:`dump` output."""
        return load_state(data)


def _hex_view(state: BattleState, cell: HexCell, unit: Unit | None) -> dict[str, Any]:
    """One hex of the map for the views: its name, place, base and unit (with its owner)."""
    return {"name": hex_name(cell), "column": cell[0], "row": cell[1], "base": base_colour(cell),
            "unit": {"colour": unit.colour, "level": unit.level, "seat": state.seats[unit.side]} if unit else None}


def _setup_count(state: BattleState) -> int:
    """Units the general to play places in the setup: 2 for the first player, 3 for the second."""
    return SETUP_UNITS[0 if state.mover == state.first else 1]
