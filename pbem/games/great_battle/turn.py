"""A general's turn of The Great Battle, played line by line on a working copy of the island.

The whole turn is deterministic, so a submission is checked by playing it:
:class:`TurnPlay` takes the lines in the order written, refuses each line
that breaks a rule (and leaves it out) and carries out the others, exactly
as the resolution will. The same play lists the lines still open at each
point (:meth:`TurnPlay.open_lines`), for the robots.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pbem.core.bag import Bag
from pbem.core.hexgrid import BadHexName, HexCell, distance
from pbem.core.words import plural
from pbem.games.great_battle.board import (
    ATTACKS,
    BASE_CELLS,
    BASES,
    GRID,
    RANGE,
    SIDE_COLOURS,
    SPEED,
    base_colour,
    hex_name,
    next_to_base,
    parse_hex,
    side_of,
)
from pbem.games.great_battle.orders import Action, Attack, BattleOrder, Move, Place, Sabotage, Spawn, Upgrade
from pbem.games.great_battle.state import ACTIONS, SETUP, SETUP_UNITS, BattleState, Unit, in_reading_order

SPACES = ("MOVE3", "MOVE1X2", "SPAWN", "UPGRADE", "SABOTAGE", "ATTACK")
"""The six action spaces, in the order the NMR default tries them."""

LINE_KIND: dict[str, type] = {"MOVE3": Move, "MOVE1X2": Move, "SPAWN": Spawn, "UPGRADE": Upgrade,
                              "SABOTAGE": Sabotage, "ATTACK": Attack}
"""The kind of line each action takes."""

MOST_LINES: dict[str, int] = {"MOVE3": 3, "MOVE1X2": 2, "SPAWN": 2, "UPGRADE": 1, "SABOTAGE": 1}
"""The most lines an action takes (ATTACK: as many as the units' attacks)."""


class TurnProblem(ValueError):
    """A line of a turn that breaks a rule; the message names the line and the rule."""


def free_spaces(state: BattleState) -> list[str]:
    """Return the action spaces holding neither disc, in :data:`SPACES` order."""
    return [space for space in SPACES if space not in state.discs]


@dataclass
class TurnPlay:
    """One general's turn being played on working copies of the units and supplies."""

    state: BattleState

    def __post_init__(self) -> None:
        self.index = self.state.mover
        self.board: dict[HexCell, Unit] = {unit.cell: unit for unit in self.state.units}
        self.supply: list[Bag] = list(self.state.supply)
        self.action: str | None = None
        self.texts: list[str] = []
        self.lines = 0
        self.moved: set[HexCell] = set()
        self.chain_end: HexCell | None = None
        self.attacks: dict[HexCell, int] = {}
        self.entered: HexCell | None = None

    # --- checking ---------------------------------------------------------

    def problem(self, order: BattleOrder) -> str | None:
        """Return why ``order`` cannot be the next line of this turn, or None."""
        try:
            self._check(order)
        except (TurnProblem, BadHexName) as error:
            return f"{order}: {error}"
        return None

    def _check(self, order: BattleOrder) -> None:
        if self.entered is not None:
            raise TurnProblem(f"the battle is won by entering {hex_name(self.entered)}; nothing follows")
        if self.state.stage == SETUP:
            if not isinstance(order, Place):
                raise TurnProblem("the setup takes PLACE lines only, e.g. PLACE red b8")
            return self._check_place(order)
        if isinstance(order, Action):
            return self._check_action(order)
        if self.action is None:
            raise TurnProblem("a turn starts with ACTION and the space, e.g. ACTION MOVE3")
        kind = LINE_KIND[self.action]
        if not isinstance(order, kind):
            raise TurnProblem(f"your action is {self.action}, which takes {kind.__name__.upper()} lines")
        most = MOST_LINES.get(self.action)
        if most is not None and self.lines >= most:
            raise TurnProblem(f"{self.action} takes at most {most} line{'' if most == 1 else 's'}")
        if isinstance(order, Move):
            self._check_move(order)
        elif isinstance(order, Spawn):
            self._check_entry(order.colour, order.hex, "spawn")
        elif isinstance(order, Upgrade):
            unit = self._own_unit(order.hex)
            if not self.supply[self.index].count(unit.colour):
                raise TurnProblem(f"you have no {unit.colour} cube left in your supply")
        elif isinstance(order, Sabotage):
            self._check_sabotage(order)
        elif isinstance(order, Attack):
            self._check_attack(order)

    def _check_action(self, order: Action) -> None:
        if self.action is not None:
            raise TurnProblem("one ACTION a turn")
        if order.space in self.state.discs:
            whose = "your" if self.state.discs[self.index] == order.space else "the other general's"
            raise TurnProblem(f"{whose} disc is on {order.space}; free spaces: {', '.join(free_spaces(self.state))}")

    def _check_place(self, order: Place) -> None:
        wanted = SETUP_UNITS[0 if self.index == self.state.first else 1]
        if self.lines >= wanted:
            raise TurnProblem(f"you place {wanted} units in the setup")
        self._check_entry(order.colour, order.hex, "place")

    def _check_entry(self, colour: str, name: str, verb: str) -> None:
        """A unit of ``colour`` entering play on hex ``name`` (PLACE in the setup, SPAWN later)."""
        if colour not in SIDE_COLOURS[self.index]:
            raise TurnProblem(f"{colour} is not your colour; yours are {' and '.join(SIDE_COLOURS[self.index])}")
        if not self.supply[self.index].count(colour):
            raise TurnProblem(f"you have no {colour} cube left in your supply")
        cell = parse_hex(name)
        if cell not in next_to_base(colour):
            places = ", ".join(hex_name(c) for c in next_to_base(colour))
            raise TurnProblem(f"a {colour} unit must {verb} next to the {colour} base {hex_name(BASES[colour])} "
                              f"({places})")
        if cell in self.board:
            raise TurnProblem(f"a unit stands on {name}")

    def _own_unit(self, name: str) -> Unit:
        cell = parse_hex(name)
        unit = self.board.get(cell)
        if unit is None:
            raise TurnProblem(f"no unit stands on {name}")
        if unit.side != self.index:
            raise TurnProblem(f"the unit on {name} is the enemy's")
        return unit

    def _check_move(self, order: Move) -> None:
        unit = self._own_unit(order.start)
        start, end = unit.cell, parse_hex(order.end)
        if self.action == "MOVE1X2" and self.chain_end is not None and start != self.chain_end:
            raise TurnProblem(f"MOVE1X2 moves one unit: the second move starts where the first ended, "
                              f"{hex_name(self.chain_end)}")
        if self.action == "MOVE3" and start in self.moved:
            raise TurnProblem(f"the unit on {order.start} has moved already; MOVE3 moves different units")
        if end == start:
            raise TurnProblem("a move goes to another hex")
        if end in self.board:
            raise TurnProblem(f"a unit stands on {order.end}")
        colour = base_colour(end)
        if colour is not None and side_of(colour) == self.index:
            raise TurnProblem(f"{order.end} is your own {colour} base")
        speed = SPEED[unit.colour]
        if GRID.path_steps(start, end, speed, self._passable) is None:
            far = distance(start, end)
            why = f"{order.end} is {plural(far, 'hex')} away" if far > speed else "units and bases are in the way"
            raise TurnProblem(f"a {unit.colour} unit moves up to {plural(speed, 'hex')} through empty hexes; {why}")

    def _passable(self, cell: HexCell) -> bool:
        return cell not in self.board and cell not in BASE_CELLS

    def _check_sabotage(self, order: Sabotage) -> None:
        enemy = 1 - self.index
        if order.colour not in SIDE_COLOURS[enemy]:
            raise TurnProblem(f"sabotage one of the enemy's colours: {' or '.join(SIDE_COLOURS[enemy])}")
        if not self.supply[enemy].count(order.colour):
            raise TurnProblem(f"the enemy has no {order.colour} cube left in his supply")

    def _check_attack(self, order: Attack) -> None:
        attacker = self._own_unit(order.attacker)
        cell = parse_hex(order.target)
        target = self.board.get(cell)
        if target is None:
            raise TurnProblem(f"no unit stands on {order.target}")
        if target.side == self.index:
            raise TurnProblem(f"the unit on {order.target} is your own")
        used = self.attacks.get(attacker.cell, 0)
        if used >= ATTACKS[attacker.colour]:
            times = "once" if ATTACKS[attacker.colour] == 1 else "twice"
            raise TurnProblem(f"a {attacker.colour} unit attacks {times} an action")
        if distance(attacker.cell, cell) > RANGE:
            raise TurnProblem(f"{order.target} is {distance(attacker.cell, cell)} hexes away; the range is {RANGE}")
        if target.level > attacker.level:
            raise TurnProblem(f"a unit of level {attacker.level} cannot target one of level {target.level}")

    # --- carrying out -----------------------------------------------------

    def play(self, order: BattleOrder) -> str | None:
        """Carry out ``order`` when it is legal; return the problem (and change nothing) when not."""
        problem = self.problem(order)
        if problem is None:
            self._apply(order)
        return problem

    def _apply(self, order: BattleOrder) -> None:
        if isinstance(order, Action):
            self.action = order.space
            self.texts.append(f"{self.state.side_name(self.index, capital=True)} takes {order.space}.")
            return
        self.lines += 1
        if isinstance(order, (Place, Spawn)):
            cell = parse_hex(order.hex)
            self.board[cell] = Unit(cell, order.colour)
            self.supply[self.index] = self.supply[self.index] - Bag.of((order.colour,))
            self.texts.append(f"A {order.colour} unit enters play on {order.hex}.")
        elif isinstance(order, Move):
            self._apply_move(order)
        elif isinstance(order, Upgrade):
            unit = self.board[parse_hex(order.hex)]
            self.board[unit.cell] = replace(unit, level=unit.level + 1)
            self.supply[self.index] = self.supply[self.index] - Bag.of((unit.colour,))
            self.texts.append(f"The {unit.colour} unit on {order.hex} rises to level {unit.level + 1}.")
        elif isinstance(order, Sabotage):
            self.supply[1 - self.index] = self.supply[1 - self.index] - Bag.of((order.colour,))
            self.texts.append(f"A {order.colour} cube of the enemy's supply is destroyed.")
        elif isinstance(order, Attack):
            self._apply_attack(order)

    def _apply_move(self, order: Move) -> None:
        unit = self.board.pop(parse_hex(order.start))
        end = parse_hex(order.end)
        self.board[end] = replace(unit, cell=end)
        self.moved.add(end)
        self.chain_end = end
        colour = base_colour(end)
        if colour is not None:
            self.entered = end
            self.texts.append(f"The {unit.colour} unit moves {order.start}-{order.end} into the enemy's "
                              f"{colour} base.")
        else:
            self.texts.append(f"The {unit.colour} unit moves {order.start}-{order.end}.")

    def _apply_attack(self, order: Attack) -> None:
        attacker = self.board[parse_hex(order.attacker)]
        target = self.board[parse_hex(order.target)]
        self.attacks[attacker.cell] = self.attacks.get(attacker.cell, 0) + 1
        del self.board[target.cell]
        what = (f"The {attacker.colour} unit on {order.attacker} (level {attacker.level}) attacks the "
                f"{target.colour} unit on {order.target} (level {target.level}): ")
        if target.level == attacker.level:
            del self.board[attacker.cell]
            self.texts.append(what + "equal levels, both are removed.")
        else:
            self.texts.append(what + f"the {target.colour} unit is removed.")

    # --- what is open -------------------------------------------------------

    def open_lines(self) -> list[BattleOrder]:
        """Return every line that could come next (for robots): the free ACTIONs before the
        action is chosen, then the action's legal lines; PLACE lines in the setup."""
        if self.entered is not None:
            return []
        mine = [unit for unit in self.board.values() if unit.side == self.index]
        if self.state.stage == SETUP or self.action == "SPAWN":
            kind = Place if self.state.stage == SETUP else Spawn
            candidates: list[BattleOrder] = [kind(colour, hex_name(cell)) for colour in SIDE_COLOURS[self.index]
                                             for cell in next_to_base(colour)]
        elif self.action is None:
            candidates = [Action(space) for space in SPACES]
        elif self.action in ("MOVE3", "MOVE1X2"):
            candidates = [Move(hex_name(unit.cell), hex_name(end)) for unit in mine
                          for end in GRID.reachable(unit.cell, SPEED[unit.colour], self._passable)]
        elif self.action == "UPGRADE":
            candidates = [Upgrade(hex_name(unit.cell)) for unit in mine]
        elif self.action == "SABOTAGE":
            candidates = [Sabotage(colour) for colour in SIDE_COLOURS[1 - self.index]]
        else:
            enemies = [unit for unit in self.board.values() if unit.side != self.index]
            candidates = [Attack(hex_name(a.cell), hex_name(t.cell)) for a in mine for t in enemies
                          if distance(a.cell, t.cell) <= RANGE]
        return [order for order in candidates if self.problem(order) is None]

    # --- the result -----------------------------------------------------------

    def finish(self) -> tuple[BattleState, list[str]]:
        """Return the state after the turn and the sentences for the report (the end of
        the battle included). Call once, after the lines."""
        state = self.state
        discs = list(state.discs)
        if self.action is not None:
            discs[self.index] = self.action
        state = replace(state, units=in_reading_order(self.board.values()), supply=tuple(self.supply),
                        discs=tuple(discs), turns=state.turns + 1)
        if state.stage == SETUP:
            if state.turns == 2:
                state = replace(state, stage=ACTIONS, turns=0)
            return state, self.texts
        reason = _end_reason(state, self.index, self.entered)
        if reason is None:
            return state, self.texts
        winner, text = reason
        state = replace(state, winners=(state.seats[winner],) if winner is not None else (),
                        drawn=winner is None, end_reason=text)
        return state, [*self.texts, text]


def _end_reason(state: BattleState, mover: int, entered: HexCell | None) -> tuple[int | None, str] | None:
    """Return (the winning seat index or None for a draw, the reason) when the battle ends now."""
    if entered is not None:
        colour = base_colour(entered)
        return mover, (f"{state.side_name(mover, capital=True)} takes the enemy's {colour} base "
                       f"{hex_name(entered)} and wins.")
    alive = [bool(state.units_of(index)) for index in (0, 1)]
    if not any(alive):
        return None, "Both armies lost their last units at once: the battle is a draw."
    if not all(alive):
        winner = alive.index(True)
        return winner, (f"{state.side_name(1 - winner, capital=True)} has no unit left on the island: "
                        f"{state.side_name(winner)} wins.")
    if state.turns >= state.turn_limit:
        strengths = (state.strength(0), state.strength(1))
        limit = f"The turn limit of {state.turn_limit} actions is reached (turn_limit={state.turn_limit})"
        if strengths[0] == strengths[1]:
            return None, f"{limit}; both armies have a total unit level of {strengths[0]}: the battle is a draw."
        winner = 0 if strengths[0] > strengths[1] else 1
        return winner, (f"{limit}; {state.side_name(winner)} wins with a total unit level of "
                        f"{max(strengths)} to {min(strengths)}.")
    return None
