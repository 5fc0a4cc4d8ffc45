"""Farm-cheesi, the "Game of Flies": a Parcheesi race of maggots round a carcass board.

The service rolls every die. A turn is a chain of phases for the seat to move:

* ``move``: the roll is shown ("You rolled 3 and 5."); the player sends the
  whole play of the roll (``MOVE``/``ENTER`` lines);
* ``bonus``: after a play that captured (20), the player sends ``BONUS
  <maggot>`` for each pending bonus, first earned first; a 10 for reaching
  HOME is used at the end of the turn (after the last re-roll a doublet gives,
  or after the third-doublet penalty), in a bonus phase of its own if need be;
* after a doublet the service rolls again for the same seat (a new ``move``
  phase, same turn); the third doublet of a turn is a penalty and ends it.

A phase with only one legal outcome (or none) is played by the service.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.core import Event, GameError, GameRng, IllegalOrder, OrderProblem, Outcome, Phase, Resolution
from pbem.core.dice import describe_dice, is_doublet, opposite_faces, roll_dice
from pbem.core.game import BaseGame, few_choices
from pbem.core.options import yes_no_option
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.games.farm_cheesi.board import (
    ALL_SEATS,
    BOARD,
    ENTRY,
    EXIT,
    SAFE,
    Step,
    is_blockade,
    most_advanced,
    occupancy,
    side_of,
    square_key,
    where,
)
from pbem.games.farm_cheesi.orders import FarmOrder
from pbem.games.farm_cheesi.plays import (
    BonusNode,
    Play,
    apply_bonus_order,
    apply_roll_order,
    bonus_plays,
    check_bonus_orders,
    check_roll_orders,
    default_play,
    held_back,
    is_complete_roll,
    roll_context,
    roll_plays,
    root,
    settle,
)
from pbem.games.farm_cheesi.state import CARCASS, FINISH, MAGGOTS, STAGE_BONUS, STAGE_MOVE, STAGE_OVER, FarmState

SEATS_BY_COUNT: dict[int, tuple[str, ...]] = {2: ("1", "3"), 3: ("1", "2", "3"), 4: ALL_SEATS}


class FarmCheesi(BaseGame[FarmState, FarmOrder]):
    """The Farm-cheesi game (kind ``farm-cheesi``): see HELP.txt for the rules as played."""

    name = "farm-cheesi"
    title = "Farm-cheesi"
    rules_version = 2  # 2: the 10 bonus for reaching HOME waits for the end of the turn
    min_players, max_players = 2, 4
    has_chance = True
    declared_options = {
        "teams": "yes for team play, seats 1+3 against 2+4 (4 players only); default no",
        START: START_DESCRIPTION,
    }
    terminal_words = {"MAGGOT": "a maggot number 1-4", "DIE": "a die value 1-6"}

    # --- set-up -------------------------------------------------------------

    def seat_names(self, players: int) -> tuple[str, ...]:
        """Return the playing seats: ("1", "3") for 2, ("1", "2", "3") for 3, "1".."4" for 4.

        Raises GameError for any other number of players.
        """
        try:
            return SEATS_BY_COUNT[players]
        except KeyError:
            raise GameError(f"Farm-cheesi is played by 2, 3 or 4 players, not {players}") from None

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> FarmState:
        """Return the opening state with the first roll made.

        Raises GameError for seats that are not a supported line-up, unknown
        options or bad option values.
        """
        seats = self.check_seats(seats)
        options = self.check_options(options)
        teams = yes_no_option(options, "teams", False)
        if teams and len(seats) != 4:
            raise GameError("teams=yes needs 4 players (seats 1+3 against 2+4)")
        first = seats[first_player(seats, options.get(START), rng)]
        state = FarmState(
            seats=seats,
            teams=teams,
            maggots=tuple((CARCASS,) * MAGGOTS for _ in seats),
            current=first,
            stage=STAGE_MOVE,
            roll=(),
            doublets=0,
            bonuses=(),
            turn=0,
        )
        events: list[Event] = []
        return _begin_turn(state, first, rng, events)

    # --- asking ---------------------------------------------------------------

    def phase(self, state: FarmState) -> Phase:
        """Return the phase: ``move`` (play the roll) or ``bonus`` for the seat to play."""
        if state.stage == STAGE_OVER:
            return Phase("over", ())
        if state.stage == STAGE_BONUS:
            return Phase(STAGE_BONUS, (state.current,), _bonus_prompt(state))
        return Phase(STAGE_MOVE, (state.current,), _roll_prompt(state))

    def validate(self, state: FarmState, seat: str, orders: Sequence[FarmOrder]) -> list[OrderProblem]:
        """Check a seat's whole play against every legal play of the roll (or bonus queue)."""
        if problems := self.turn_problems(state, seat):
            return problems
        if state.stage == STAGE_BONUS:
            side = side_of(state, seat)
            return check_bonus_orders(side, state.teams, BonusNode(state.maggots, state.bonuses), orders,
                                      _turn_goes_on(state))
        return check_roll_orders(roll_context(state), state.maggots, orders)

    def legal_plays(self, state: FarmState) -> list[Play]:
        """Return the distinct legal outcomes of the current phase, each with orders reaching it."""
        if state.stage == STAGE_BONUS:
            side = side_of(state, state.current)
            return list(bonus_plays(side, state.teams, BonusNode(state.maggots, state.bonuses), _turn_goes_on(state)))
        if state.stage == STAGE_MOVE:
            return roll_plays(roll_context(state), state.maggots)
        return []

    def default_orders(self, state: FarmState, seat: str) -> list[FarmOrder]:
        """NMR: the legal play that moves the most advanced maggot furthest (nothing when not owed)."""
        if state.stage == STAGE_OVER or seat != state.current:
            return []
        me = state.index(seat)
        return list(default_play(self.legal_plays(state), state.maggots[me], me).orders)

    def forced_orders(self, state: FarmState, seat: str) -> list[FarmOrder] | None:
        """Return the play when every legal play gives the same result ([] when nothing can move)."""
        if state.stage == STAGE_OVER or seat != state.current:
            return None
        plays = self.legal_plays(state)
        return list(plays[0].orders) if len(plays) == 1 else None

    def order_choices(self, state: FarmState, seat: str) -> list[list[FarmOrder]] | None:
        """Return the play of each distinct legal outcome of the phase (the whole play of a roll, or the
        bonus moves) when there are few."""
        return few_choices(play.orders for play in self.legal_plays(state))

    def submission_summary(self, state: FarmState, seat: str, orders: Sequence[FarmOrder]) -> str:
        """Return a line saying what the play does to the moving seat's maggots."""
        if state.stage != STAGE_MOVE or seat != state.current:
            return ""
        ctx = roll_context(state)
        node = root(ctx, state.maggots)
        try:
            for order in orders:
                node = apply_roll_order(ctx, node, order).node
        except IllegalOrder:
            return ""
        return f"This play uses {node.used} of the roll's {sum(ctx.values)}."

    def sample_orders(self, state: FarmState, seat: str, rng: GameRng) -> list[FarmOrder]:
        """Return a random legal play (one of the distinct outcomes, picked evenly)."""
        if state.stage == STAGE_OVER or seat != state.current:
            return []
        return list(rng.choice(self.legal_plays(state)).orders)

    # --- resolving ------------------------------------------------------------

    def resolve(self, state: FarmState, orders: Mapping[str, Sequence[FarmOrder]], rng: GameRng) -> Resolution[FarmState]:
        """Play the current seat's orders, then roll on (again after a doublet, else for the next seat).

        Raises GameError when the game is over. An illegal play (which
        validate would have refused) is replaced by the NMR default, with an event.
        """
        if state.stage == STAGE_OVER:
            raise GameError("the game is over")
        seat = state.current
        submitted = list(orders.get(seat, ()))
        events: list[Event] = []
        if self.validate(state, seat, submitted):
            events.append(_event("refused", f"Seat {seat}'s orders were not a legal play; the default play was made.", state))
            submitted = self.default_orders(state, seat)
        if state.stage == STAGE_BONUS:
            new = _play_bonuses(state, submitted, events)
        else:
            new = _play_roll(state, submitted, events)
        return Resolution(_carry_on(new, rng, events), events)

    # --- reading ----------------------------------------------------------------

    def outcome(self, state: FarmState) -> Outcome | None:
        """Return the winners once a player (or a team) has every maggot HOME."""
        if not state.winners:
            return None
        if len(state.winners) == 1:
            return Outcome(state.winners, f"Seat {state.winners[0]} brought all four maggots HOME: Farm-cheesi!")
        return Outcome(state.winners, f"Seats {' and '.join(state.winners)} brought all their maggots HOME: Farm-cheesi!")

    def scores(self, state: FarmState) -> dict[str, int]:
        """Return each seat's number of maggots HOME."""
        return {seat: sum(1 for p in state.of(seat) if p == FINISH) for seat in state.seats}

    def view(self, state: FarmState, seat: str | None) -> dict[str, Any]:
        """Return the whole (public) position, shaped for the report: nothing in Farm-cheesi is secret."""
        return _view(state, seat)


# --- helpers: options, prompts, events ----------------------------------------------


def _event(kind: str, text: str, state: FarmState, **data: Any) -> Event:
    return Event(kind, text, phase=f"Seat {state.current}", seat=state.current, data=data)


def _roll_prompt(state: FarmState) -> str:
    ctx = roll_context(state)
    text = f"You rolled {describe_dice(state.roll)}."
    if ctx.fourteen:
        faces = describe_dice(opposite_faces(state.roll))
        text += f" A doublet with every maggot out: you also move the opposite faces {faces}, 14 in all or nothing."
    if is_doublet(state.roll):
        text += f" Doublet number {state.doublets} this turn: you roll again after this play."
    return text + " Send MOVE <maggot> <die> and ENTER lines." + _held_text(state)


def _bonus_prompt(state: FarmState) -> str:
    amounts = describe_dice(state.bonuses)
    text = f"You have a bonus of {amounts} to use, each whole with one maggot: send BONUS <maggot>."
    return text + _held_text(state)


def _held_text(state: FarmState) -> str:
    if not state.held:
        return ""
    return f" Your HOME bonus of {describe_dice(state.held)} waits for the end of your turn."


def _step_text(state: FarmState, seat: str, step: Step, spent: tuple[int, ...]) -> str:
    maggot = step.maggot + 1
    if step.start == CARCASS:
        how = "the 5" if spent == (5,) else describe_dice(spent)
        text = f"Seat {seat} entered maggot {maggot} on {where(seat, 0)} with {how}"
    else:
        text = f"Seat {seat} moved maggot {maggot} from {where(seat, step.start)} to {where(seat, step.end)} with the {sum(spent)}"
    return text + _aftermath(state, step) + "."


def _aftermath(state: FarmState, step: Step) -> str:
    if step.captured is not None:
        index, other = step.captured
        return f", capturing seat {state.seats[index]}'s maggot {other + 1} (back to its carcass; bonus 20)"
    if step.bonus:
        return f" (bonus {step.bonus})"
    return ""


def _forfeit_events(state: FarmState, forfeited: tuple[int, ...], events: list[Event]) -> None:
    for amount in forfeited:
        events.append(_event("forfeit", f"Seat {state.current}'s {amount} bonus cannot be used and is forfeited.", state))


# --- helpers: the turn sequence --------------------------------------------------------


def _play_roll(state: FarmState, orders: Sequence[FarmOrder], events: list[Event]) -> FarmState:
    """Apply a legal roll play; leave the state at stage bonus if bonuses wait, else at the roll's end."""
    seat = state.current
    ctx = roll_context(state)
    node = root(ctx, state.maggots)
    for order in orders:
        applied = apply_roll_order(ctx, node, order)
        node = applied.node
        events.append(_event("move", _step_text(state, seat, applied.step, applied.spent), state, order=str(order)))
    assert is_complete_roll(ctx, state.maggots, node)
    if not orders:
        why = f"could not move all 14 ({ctx.describe()})" if ctx.fourteen else f"could not use {describe_dice(state.roll)}"
        events.append(_event("no-move", f"Seat {seat} {why} and moved nothing.", state))
    elif node.remaining:
        events.append(_event("forfeit", f"Seat {seat} could not use {describe_dice(node.remaining)}.", state))
    goes_on = _turn_goes_on(state)
    now, held = held_back(node.bonuses, goes_on)
    if goes_on:
        held = state.held + held
    else:  # the end of the turn: the held 10s come first, as they were earned first
        now, held = state.held + now, ()
    queue, forfeited = settle(ctx.side, state.teams, node.pos, now)
    _forfeit_events(state, forfeited, events)
    return replace(state, maggots=node.pos, bonuses=queue, held=held, stage=STAGE_BONUS if queue else STAGE_MOVE)


def _play_bonuses(state: FarmState, orders: Sequence[FarmOrder], events: list[Event]) -> FarmState:
    seat = state.current
    side = side_of(state, seat)
    node = BonusNode(state.maggots, state.bonuses, state.held)
    for order in orders:
        applied = apply_bonus_order(side, state.teams, node, order, _turn_goes_on(state))
        node = applied.node
        step = applied.step
        text = (
            f"Seat {seat} used the {applied.amount} bonus: maggot {step.maggot + 1} from "
            f"{where(seat, step.start)} to {where(seat, step.end)}{_aftermath(state, step)}."
        )
        events.append(_event("bonus", text, state, order=str(order)))
        _forfeit_events(state, applied.forfeited, events)
    return replace(state, maggots=node.pos, bonuses=node.queue, held=node.held,
                   stage=STAGE_BONUS if node.queue else STAGE_MOVE)


def _turn_goes_on(state: FarmState) -> bool:
    """True while the seat will roll again this turn: its roll is a doublet (the first or
    second; a third one ended the turn with the penalty)."""
    return is_doublet(state.roll) and state.doublets < 3


def _carry_on(state: FarmState, rng: GameRng, events: list[Event]) -> FarmState:
    """After a play: declare a win, wait for bonuses, roll again after a doublet, or pass the turn."""
    winners = _winners(state)
    if winners:
        for seat in winners:
            events.append(_event("win", f"Seat {seat} has all four maggots HOME: Farm-cheesi!", replace(state, current=seat)))
        return replace(state, winners=winners, stage=STAGE_OVER, roll=(), bonuses=())
    if state.stage == STAGE_BONUS:
        return state
    if _turn_goes_on(state) and not state.is_done(state.current):
        return _roll(state, rng, events)
    return _end_turn(state, rng, events)


def _end_turn(state: FarmState, rng: GameRng, events: list[Event]) -> FarmState:
    """Ask for the held HOME bonuses (forfeiting those no maggot can use), else begin the next turn."""
    if state.held:
        queue, forfeited = settle(side_of(state, state.current), state.teams, state.maggots, state.held)
        _forfeit_events(state, forfeited, events)
        state = replace(state, held=(), bonuses=queue)
        if queue:
            return replace(state, stage=STAGE_BONUS)
    return _begin_turn(state, _next_seat(state), rng, events)


def _winners(state: FarmState) -> tuple[str, ...]:
    seat = state.current
    if not state.is_done(seat):
        return ()
    partner = state.partner(seat)
    if partner is None:
        return (seat,)
    if state.is_done(partner):
        return tuple(s for s in state.seats if s in (seat, partner))
    return ()


def _next_seat(state: FarmState) -> str:
    count = len(state.seats)
    start = state.index(state.current)
    for k in range(1, count + 1):
        seat = state.seats[(start + k) % count]
        if not state.is_done(seat):
            return seat
    raise GameError("no seat is left to play")  # pragma: no cover - the game is over before this


def _begin_turn(state: FarmState, seat: str, rng: GameRng, events: list[Event]) -> FarmState:
    state = replace(state, current=seat, turn=state.turn + 1, doublets=0, bonuses=(), held=(), stage=STAGE_MOVE)
    return _roll(state, rng, events)


def _roll(state: FarmState, rng: GameRng, events: list[Event]) -> FarmState:
    """Roll two dice for the current seat; a third doublet in the turn is punished and ends the turn."""
    dice = roll_dice(rng, 2)
    seat = state.current
    doublets = state.doublets + (1 if is_doublet(dice) else 0)
    if doublets >= 3:
        return _penalty(replace(state, roll=dice, doublets=doublets), rng, events)
    state = replace(state, roll=dice, doublets=doublets, stage=STAGE_MOVE, bonuses=())
    text = f"Seat {seat} rolled {describe_dice(dice)}"
    if is_doublet(dice):
        text += f" (doublet number {doublets} this turn)"
    events.append(_event("roll", text + ".", state, dice=list(dice)))
    return state


def _penalty(state: FarmState, rng: GameRng, events: list[Event]) -> FarmState:
    seat = state.current
    me = state.index(seat)
    row = state.maggots[me]
    maggot = most_advanced(row)
    text = f"Seat {seat} rolled {describe_dice(state.roll)}, a third doublet in one turn"
    if maggot is None:
        text += ": no maggot is on the board to send back, and the turn ends."
    else:
        text += f": maggot {maggot + 1} goes back from {where(seat, row[maggot])} to the carcass, and the turn ends."
        new_row = tuple(CARCASS if m == maggot else p for m, p in enumerate(row))
        state = state.with_pos(tuple(new_row if i == me else r for i, r in enumerate(state.maggots)))
    events.append(_event("penalty", text, state, dice=list(state.roll)))
    return _end_turn(state, rng, events)


# --- the view ----------------------------------------------------------------------------


def _cell_label(seats: tuple[str, ...], here: list[tuple[int, int]]) -> str:
    if not here:
        return "."
    if is_blockade(here):
        return f"={seats[here[0][0]]}="
    return "+".join(seats[i] for i, _ in sorted(here))


def _view(state: FarmState, seat: str | None) -> dict[str, Any]:
    occ = occupancy(state.seats, state.maggots)
    rows = []
    for first in range(1, BOARD.length + 1, 17):
        cells = []
        for square in range(first, first + 17):
            here = occ.get(square_key(square), [])
            cells.append(
                {
                    "square": square,
                    "safe": square in SAFE,
                    "label": _cell_label(state.seats, here),
                    "maggots": [[state.seats[i], m + 1] for i, m in sorted(here)],
                    "blockade": is_blockade(here),
                }
            )
        rows.append({"first": first, "last": first + 16, "cells": cells})
    players = [_player_view(state, s, occ) for s in state.seats]
    blockades = [
        {
            "where": where(state.seats[here[0][0]], state.maggots[here[0][0]][here[0][1]]),
            "seat": state.seats[here[0][0]],
            "maggots": sorted(m + 1 for _, m in here),
        }
        for _, here in sorted(occ.items())
        if is_blockade(here)
    ]
    ctx = roll_context(state) if state.stage == STAGE_MOVE else None
    return {
        "you": seat,
        "seats": list(state.seats),
        "teams": [[s for s in ("1", "3")], [s for s in ("2", "4")]] if state.teams else [],
        "current": state.current if state.stage != STAGE_OVER else None,
        "stage": state.stage,
        "turn": state.turn,
        "roll": list(state.roll),
        "doublet": is_doublet(state.roll),
        "doublets": state.doublets,
        "move_values": list(ctx.values) if ctx else [],
        "fourteen": bool(ctx and ctx.fourteen),
        "bonuses": list(state.bonuses),
        "held": list(state.held),
        "winners": list(state.winners),
        "safe": sorted(SAFE),
        "rows": rows,
        "blockades": blockades,
        "players": players,
    }


def _player_view(state: FarmState, seat: str, occ: Mapping[Any, list[tuple[int, int]]]) -> dict[str, Any]:
    row = state.of(seat)
    index = state.index(seat)
    path = []
    for k in range(1, BOARD.home_length + 1):
        progress = BOARD.lap(seat) + k
        here = [m + 1 for m, p in enumerate(row) if p == progress]
        path.append({"name": f"H{k}", "maggots": here, "blockade": len(here) == 2})
    return {
        "seat": seat,
        "entry": ENTRY[seat],
        "exit": EXIT[seat],
        "partner": state.partner(seat),
        "carcass": [m + 1 for m, p in enumerate(row) if p == CARCASS],
        "home": [m + 1 for m, p in enumerate(row) if p == FINISH],
        "track": [
            {"maggot": m + 1, "where": where(seat, p), "to_home": FINISH - p}
            for m, p in enumerate(row)
            if CARCASS < p <= BOARD.lap(seat)
        ],
        "maggots": [{"maggot": m + 1, "where": where(seat, p), "progress": p} for m, p in enumerate(row)],
        "path": path,
        "to_move": state.current == seat and state.stage != STAGE_OVER,
        "index": index,
    }
