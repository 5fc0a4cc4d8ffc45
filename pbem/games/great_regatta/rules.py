"""The Great Regatta (Gateway Island, game 7) as a play-by-email game.

On his turn a player launches a NEW boat on the start or spends a supply cube
to ADVANCE one of his boats; the service rolls and moves it, covering the
rolled number. Then he pushes his luck (the boat moves the roll plus one and
that number is covered too; a number already covered loses the boat) or
stops. A boat ending a move on an occupied space must push: the service rolls
it without asking. ``ROLL UNTIL <space>`` is a plan carried out in one go.
After five turns each, the boats' spaces are the scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import window_hours_description, window_hours_option
from pbem.core.protocol import SILENCE_PASS, Score
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.games.great_regatta.orders import Advance, New, RegattaOrder, Roll, RollUntil, Stop
from pbem.games.great_regatta.state import (
    COURSE,
    LAST_SPACE,
    RESULTS,
    STAGE_OVER,
    STAGE_PUSH,
    STAGE_START,
    SUPPLY,
    RegattaState,
)

WHOLE_DECISION = "a decision goes together: send the whole decision again"
"""Why the other lines of a decision with a refused line are refused too (whether an earlier decision stands
is the service's to say: only it knows whether one was stored)."""
PUSH_HOURS = "push_hours"
PUSH_HOURS_DEFAULT = 24


class GreatRegatta(BaseGame[RegattaState, RegattaOrder]):
    """The Great Regatta game object (stateless; every method is pure)."""

    name: ClassVar[str] = "great-regatta"
    title: ClassVar[str] = "The Great Regatta"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_chance: ClassVar[bool] = True
    default_reports: ClassVar[str] = "digest"
    declared_options: ClassVar[Mapping[str, str]] = {
        PUSH_HOURS: window_hours_description("a push decision (ROLL, STOP or ROLL UNTIL; silence is STOP)",
                                             PUSH_HOURS_DEFAULT),
        START: START_DESCRIPTION,
    }
    terminal_words: ClassVar[Mapping[str, str]] = {"SPACE": "a space of the course, 0 to 18"}
    transformer_class: ClassVar[str] = "pbem.games.great_regatta.grammar:RegattaTransformer"
    state_class: ClassVar[type] = RegattaState

    # --- set up -----------------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> RegattaState:
        """Return the start: five boats in every supply, none on the course, the first player to start.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        push_hours = window_hours_option(checked, PUSH_HOURS, PUSH_HOURS_DEFAULT)
        first = first_player(seats, checked.get(START), rng)
        return RegattaState(
            seats=tuple(seats),
            supply=tuple(SUPPLY for _ in seats),
            boats=tuple(() for _ in seats),
            current=first,
            stage=STAGE_START,
            push_hours=push_hours,
        )

    # --- asking for orders ------------------------------------------------------------------

    def phase(self, state: RegattaState) -> Phase:
        """Return the turn's start (NEW or ADVANCE, with an optional continuation), or a push decision:
        a short answer window in which silence means STOP."""
        seat = state.seat
        if state.stage == STAGE_PUSH:
            return Phase("push", (seat,), _push_prompt(state), deadline_hours=state.push_hours,
                         silence=SILENCE_PASS)
        boats = state.boats_of(seat)
        advance = f" or ADVANCE <space> (your boats: {_spaces(boats)})" if boats else ""
        return Phase(
            "start",
            (seat,),
            f"Your turn ({state.supply[state.current]} boat cube{'' if state.supply[state.current] == 1 else 's'} "
            f"in your supply): NEW{advance}, then ROLL, STOP or ROLL UNTIL <space> for after the first roll "
            "(or nothing, to decide once you see it).",
        )

    def validate(self, state: RegattaState, seat: str, orders: Sequence[RegattaOrder]) -> list[OrderProblem]:
        """Return the problems of a submission, refused as a whole: at the start of a turn one NEW or
        ADVANCE and at most one of ROLL, STOP, ROLL UNTIL; in a push decision exactly one of those."""
        if problems := self.turn_problems(state, seat):
            return problems
        problems = _start_problems(state, orders) if state.stage == STAGE_START else _push_problems(state, orders)
        if problems:
            problems.append(OrderProblem(None, WHOLE_DECISION))
        return problems

    def default_orders(self, state: RegattaState, seat: str) -> list[RegattaOrder]:
        """Return the NMR play: NEW then STOP at the start of a turn; STOP in a push decision."""
        if state.stage == STAGE_PUSH:
            return [Stop()]
        return [New(), Stop()]

    def sample_orders(self, state: RegattaState, seat: str, rng: GameRng) -> list[RegattaOrder]:
        """Return a random legal decision (every kind of order appears)."""
        if state.stage == STAGE_PUSH:
            return [rng.choice(_continuations(rng, state.moving or 0, state.passed_start))]
        boats = state.boats_of(seat)
        action: New | Advance = New() if not boats or rng.random() < 0.4 else Advance(rng.choice(boats))
        start = action.space if isinstance(action, Advance) else 0
        continuation = rng.choice([*_continuations(rng, start, False), None])
        return [action] if continuation is None else [action, continuation]

    def order_choices(self, state: RegattaState, seat: str) -> list[list[RegattaOrder]] | None:
        """Return NEW and ADVANCE of each of the seat's boats at the start of a turn, ROLL and STOP in a
        push decision; a plan for after the roll (ROLL UNTIL) is the optional extra left out."""
        if state.stage == STAGE_PUSH:
            return [[Roll()], [Stop()]]
        advances = (Advance(space) for space in dict.fromkeys(state.boats_of(seat)))
        return few_choices(single_orders([New(), *advances]))

    def submission_summary(self, state: RegattaState, seat: str, orders: Sequence[RegattaOrder]) -> str:
        """Return what the service will do with the decision, e.g. "The service rolls until ..."."""
        plan = next((o for o in orders if isinstance(o, (Roll, Stop, RollUntil))), None)
        if isinstance(plan, RollUntil):
            return (f"The service will keep rolling until your boat stands on {plan.space} or beyond, passes the "
                    "start, or is lost (a roll onto an occupied space is pushed in any case).")
        if isinstance(plan, Stop) and state.stage == STAGE_PUSH:
            return f"Your turn ends; your boat stays on {state.moving}."
        if isinstance(plan, Stop):
            return "The service will stop after the first roll (unless your boat lands on an occupied space)."
        if isinstance(plan, Roll):
            return "The service will roll once more, then ask you again."
        return "After the first roll the service will ask you whether to push."

    # --- resolving ----------------------------------------------------------------------------

    def resolve(
        self, state: RegattaState, orders: Mapping[str, Sequence[RegattaOrder]], rng: GameRng
    ) -> Resolution[RegattaState]:
        """Carry out the seat's decision: launch or advance a boat and roll, then push as ordered (and as
        occupied spaces force); end the turn on a stop or a lost boat, and the game after the last turn.

        Raises GameError when the game is over or the seat to play has no entry, IllegalOrder for a
        decision that breaks a rule.
        """
        given = self.owed_orders(state, orders)[state.seat]
        sail = _Sail(state, rng)
        if state.stage == STAGE_START:
            action = next(o for o in given if isinstance(o, (New, Advance)))
            sail.launch(action)
            if not sail.roll(push=False):
                return sail.finish()
        continuation = next((o for o in given if isinstance(o, (Roll, Stop, RollUntil))), None)
        sail.carry_out(continuation)
        return sail.finish()

    def outcome(self, state: RegattaState) -> Outcome | None:
        """Return the winners once the last turn has ended, else None."""
        return self.standing_outcome(state) if state.is_over else None

    def standing_outcome(self, state: RegattaState) -> Outcome:
        """Return the winners by the points now: the most points, ties to the most advanced boat."""
        return Outcome(*_winners(state))

    def scores(self, state: RegattaState) -> dict[str, Score]:
        """Return each seat's points: the sum of its boats' spaces (the boat being sailed included)."""
        return {seat: sum(_all_boats(state, seat)) for seat in state.seats}

    # --- showing -------------------------------------------------------------------------------

    def view(self, state: RegattaState, seat: str | None) -> dict[str, Any]:
        """Return everything (nothing is hidden): the course, the result circles, the boats and supplies."""
        scores = self.scores(state)
        course = []
        for space in range(COURSE.size):
            here = state.holders(space)
            if state.moving == space and not state.is_over:
                here.append(state.seat)
            course.append({"space": space, "boats": here, "moving": state.moving == space and not state.is_over})
        return {
            "you": seat if seat in state.seats else None,
            "seats": list(state.seats),
            "seat_turn": state.seat_turn if not state.is_over else None,
            "turns": SUPPLY,
            "stage": state.stage,
            "over": state.is_over,
            "current": state.seat if not state.is_over else None,
            "moving": state.moving,
            "origin": state.origin,
            "rolls": list(state.rolls),
            "covered": list(state.covered),
            "results": [{"number": n, "covered": n in state.covered} for n in RESULTS],
            "passed_start": state.passed_start,
            "course": course,
            "push_hours": state.push_hours,
            "players": [
                {
                    "seat": s,
                    "you": s == seat,
                    "to_play": s == state.seat and not state.is_over,
                    "supply": state.supply[i],
                    "boats": list(state.boats[i]),
                    "score": scores[s],
                    "best": max(_all_boats(state, s), default=None),
                }
                for i, s in enumerate(state.seats)
            ],
        }


# --- the sailing of one decision ----------------------------------------------------------------


class _Sail:
    """One resolution in progress: the state as it changes, the events, the dice."""

    def __init__(self, state: RegattaState, rng: GameRng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self.seat = state.seat
        self.label = f"Seat {state.seat}, voyage {state.seat_turn} of {SUPPLY}"
        self.ended = False

    def _say(self, kind: str, text: str, **data: Any) -> None:
        self.events.append(Event(kind, text, self.label, seat=self.seat, data=data))

    def launch(self, action: New | Advance) -> None:
        """Spend a supply cube and take up the boat to sail: a new one on the start, or one on the course."""
        state = self.state
        supply = list(state.supply)
        supply[state.current] -= 1
        boats = list(state.boats)
        if isinstance(action, New):
            start = 0
            self._say("new", f"Seat {self.seat} puts a new boat on the start.", space=0)
        else:
            start = action.space
            mine = list(boats[state.current])
            mine.remove(start)
            boats[state.current] = tuple(mine)
            self._say("advance", f"Seat {self.seat} discards a boat cube to advance the boat on {start}.", space=start)
        self.state = replace(state, supply=tuple(supply), boats=tuple(boats), moving=start, origin=start,
                             stage=STAGE_PUSH)

    def roll(self, *, push: bool) -> bool:
        """Roll once (a push moves the roll plus one and loses the boat on a covered number), then make
        every push an occupied space forces. Return False when the boat was lost (the turn is over)."""
        if not self._move(push=push):
            return False
        while blockers := self.state.holders(self.state.moving or 0):
            whose = "another boat of" if blockers[0] == self.seat else "a boat of"
            self._say("must-push", f"Space {self.state.moving} holds {whose} seat {blockers[0]}: seat {self.seat} "
                                   "must push, and the service rolls.", space=self.state.moving)
            if not self._move(push=True):
                return False
        return True

    def _move(self, *, push: bool) -> bool:
        state = self.state
        die = self.rng.roll(6)
        start = state.moving
        assert start is not None
        rolls = (*state.rolls, die)
        if push and die in state.covered:
            self.state = replace(state, rolls=rolls, moving=None)
            self._say("lost", f"Seat {self.seat} pushes and rolls {die}, already covered: the boat on {start} "
                              "is lost and the turn ends.", roll=die, space=start)
            self.ended = True
            return False
        steps = die + 1 if push else die
        end = COURSE.forward(start, steps)
        wrapped = COURSE.crossings(start, steps) > 0
        self.state = replace(state, rolls=rolls, moving=end, covered=tuple(sorted({*state.covered, die})),
                             passed_start=state.passed_start or wrapped)
        how = f"pushes and rolls {die}: the boat moves {steps}" if push else f"rolls {die}: the boat moves {steps}"
        past = " past the start" if wrapped else ""
        self._say("roll", f"Seat {self.seat} {how}{past}, from {start} to {end} ({die} covered).",
                  roll=die, steps=steps, space=end, passed_start=wrapped)
        return True

    def carry_out(self, continuation: Roll | Stop | RollUntil | None) -> None:
        """Follow the decision after a roll: stop, push once, push by the plan, or (None) ask."""
        if isinstance(continuation, Stop):
            self._stop("stops")
        elif isinstance(continuation, Roll):
            self.roll(push=True)
        elif isinstance(continuation, RollUntil):
            target = continuation.space
            self._say("plan", f"Seat {self.seat} rolls until the boat stands on {target} or beyond.", target=target)
            while not self._plan_done(target):
                if not self.roll(push=True):
                    return
            self._stop("has carried out the plan and stops")

    def _plan_done(self, target: int) -> bool:
        """The plan's stopping rule on the wrapping course [D]: on the target or beyond, or past the start."""
        return (self.state.moving or 0) >= target or self.state.passed_start

    def _stop(self, how: str) -> None:
        space = self.state.moving
        self._say("stop", f"Seat {self.seat} {how}: the boat stays on {space}.", space=space)
        self.ended = True

    def finish(self) -> Resolution[RegattaState]:
        """Return the resolution: the turn goes on (a push decision), or it ends and the next begins."""
        if not self.ended:
            return Resolution(self.state, self.events)
        state = self.state
        boats = list(state.boats)
        if state.moving is not None:
            boats[state.current] = tuple(sorted((*boats[state.current], state.moving)))
        state = replace(state, boats=tuple(boats), moving=None, origin=None, rolls=(), covered=(),
                        passed_start=False)
        if not any(state.supply):
            state = replace(state, stage=STAGE_OVER)
            scores = ", ".join(f"seat {s} {sum(state.boats_of(s))}" for s in state.seats)
            self.events.append(Event("end", f"Every boat cube is used: the regatta is over. Scores: {scores}.",
                                     "The end", data={"scores": {s: sum(state.boats_of(s)) for s in state.seats}}))
            return Resolution(state, self.events)
        state = replace(state, stage=STAGE_START, current=(state.current + 1) % len(state.seats))
        return Resolution(state, self.events)


# --- helpers -------------------------------------------------------------------------------------


def _spaces(spaces: Sequence[int]) -> str:
    return ", ".join(str(s) for s in spaces)


def _all_boats(state: RegattaState, seat: str) -> tuple[int, ...]:
    index = state.seats.index(seat)
    moving = (state.moving,) if state.moving is not None and index == state.current and not state.is_over else ()
    return state.boats[index] + moving


def _push_prompt(state: RegattaState) -> str:
    rolls = " and ".join(str(r) for r in state.rolls)
    passed = " It has passed the start this turn." if state.passed_start else ""
    return (f"Your boat stands on {state.moving} (from {state.origin}; rolled {rolls}; covered: "
            f"{_spaces(state.covered)}).{passed} Push your luck? ROLL, STOP or ROLL UNTIL <space>; "
            "silence is STOP.")


def _target_problem(order: RollUntil, space: int, passed_start: bool) -> str | None:
    if not 1 <= order.space <= LAST_SPACE:
        return f"{order}: name a space from 1 to {LAST_SPACE}"
    if passed_start:
        return f"{order}: your boat has passed the start this turn, so a plan would stop at once; send ROLL or STOP"
    if order.space <= space:
        return f"{order}: your boat stands on {space} already; name a space beyond it, or send ROLL or STOP"
    return None


def _start_problems(state: RegattaState, orders: Sequence[RegattaOrder]) -> list[OrderProblem]:
    problems: list[OrderProblem] = []
    actions = [i for i, o in enumerate(orders) if isinstance(o, (New, Advance))]
    plans = [i for i, o in enumerate(orders) if not isinstance(o, (New, Advance))]
    mine = state.boats_of(state.seat)
    start = 0
    for i in actions[1:]:
        problems.append(OrderProblem(i, "one boat a turn: NEW or ADVANCE, not both or twice"))
    if actions:
        order = orders[actions[0]]
        if isinstance(order, Advance):
            start = order.space
            if order.space not in mine:
                where = f"your boats are on {_spaces(mine)}" if mine else "you have no boat on the course; send NEW"
                problems.append(OrderProblem(actions[0], f"{order}: you have no boat on {order.space} ({where})"))
    else:
        problems.append(OrderProblem(None, "a turn starts with NEW or ADVANCE <space>"))
    for i in plans[1:]:
        problems.append(OrderProblem(i, "one of ROLL, STOP or ROLL UNTIL only: the service asks again after a ROLL"))
    if plans and isinstance(orders[plans[0]], RollUntil):
        problem = _target_problem(orders[plans[0]], start, False)  # type: ignore[arg-type]
        if problem is not None:
            problems.append(OrderProblem(plans[0], problem))
    return problems


def _push_problems(state: RegattaState, orders: Sequence[RegattaOrder]) -> list[OrderProblem]:
    if len(orders) != 1:
        return [OrderProblem(None, "a push decision is one order: ROLL, STOP or ROLL UNTIL <space>")]
    order = orders[0]
    if isinstance(order, (New, Advance)):
        return [OrderProblem(0, f"{order}: your boat is already sailing this turn; send ROLL, STOP or ROLL UNTIL")]
    if isinstance(order, RollUntil):
        problem = _target_problem(order, state.moving or 0, state.passed_start)
        if problem is not None:
            return [OrderProblem(0, problem)]
    return []


def _continuations(rng: GameRng, space: int, passed_start: bool) -> list[Roll | Stop | RollUntil]:
    """Return ROLL, STOP and (when a plan could run) ROLL UNTIL a random space beyond ``space``."""
    found: list[Roll | Stop | RollUntil] = [Roll(), Stop()]
    if not passed_start and space < LAST_SPACE:
        found.append(RollUntil(rng.randint(space + 1, LAST_SPACE)))
    return found


def _winners(state: RegattaState) -> tuple[tuple[str, ...], str]:
    scores = {seat: sum(state.boats_of(seat)) for seat in state.seats}
    best = max(scores.values())
    tied = [seat for seat in state.seats if scores[seat] == best]
    if len(tied) == 1:
        return (tied[0],), f"Seat {tied[0]} has the most points, {best}."
    furthest = {seat: max(state.boats_of(seat), default=-1) for seat in tied}
    top = max(furthest.values())
    leaders = tuple(seat for seat in tied if furthest[seat] == top)
    names = "Seats " + ", ".join(tied[:-1]) + " and " + tied[-1]
    if len(leaders) == 1:
        return leaders, f"{names} have {best} points each; seat {leaders[0]} has the most advanced boat, on {top}."
    where = f"each has the most advanced boat on {top}" if top >= 0 else "none of them has a boat on the course"
    return leaders, f"{names} have {best} points each and {where}: they share the victory."
