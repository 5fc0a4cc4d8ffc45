"""The Epic Quest (Gateway Island, game 21) as a play-by-email game: cooperative, 1 to 4 players.

Four adventurers (Warrior, Knight, Archer, Cleric) must seal three portals
and escape through the entrance. Each round the adventurers take two actions
each, in action steps: every player whose adventurers have actions left sends
orders at once, the step is resolved and reported, and the next step lets
the team react to the dice. Then the service plays the enemies' phase:
invaders spawn, move and attack, the Magic Meanie comes and attacks; the
players' standing policies answer its choices. The team wins together or
loses together (any adventurer dying, or the round cap).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pbem.core import GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag
from pbem.core.game import BaseGame, TurnShape

from . import questmap
from .orders import Action, Done, QuestOrder
from .robots import sample_step
from .state import (
    ACTIONS_PER_ROUND,
    ADVENTURERS,
    DEFAULT_MAX_ROUNDS,
    PORTALS,
    Adventurer,
    Meanie,
    QuestState,
    default_lose_order,
    dump_state,
    full_equipment_bag,
    load_state,
    starting_life,
)
from .steps import owing_seats, resolve_step, running_order
from .validation import submission_problems
from .view import quest_view

MAX_ROUNDS_LIMIT = 100

CONTROLLERS: Mapping[int, tuple[str, ...]] = {
    1: ("1", "1", "1", "1"),
    2: ("1", "2", "1", "2"),
    4: ("1", "2", "3", "4"),
}
"""Who plays the Warrior, Knight, Archer and Cleric, by player count (3 players: see ``fourth``)."""


class EpicQuest(BaseGame[QuestState, QuestOrder]):
    """The Epic Quest: a cooperative dungeon crawl for 1 to 4 players."""

    name: ClassVar[str] = "epic-quest"
    title: ClassVar[str] = "The Epic Quest"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    turn_shape: ClassVar[TurnShape] = TurnShape.SIMULTANEOUS
    has_chance: ClassVar[bool] = True
    is_cooperative: ClassVar[bool] = True
    declared_options: ClassVar[Mapping[str, str]] = {
        "map": f"the map, rows top to bottom separated by '/': E entrance, F forest, G/B/Y the green, blue and "
               f"yellow portals, '.' no card (default {questmap.DEFAULT_MAP})",
        "fourth": "with 3 players, the seat that plays the fourth adventurer, the Cleric (1 to 3; default 1)",
        "max_rounds": f"the rounds the team has, 1 to {MAX_ROUNDS_LIMIT}; after the last the quest is lost "
                      f"(default {DEFAULT_MAX_ROUNDS})",
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "CARD": "a card such as b1",
        "SLOT": "a step slot such as @1 (@1 to @99)",
    }
    transformer_class: ClassVar[str] = f"{__package__}.grammar:QuestTransformer"

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> QuestState:
        """Return the start: every adventurer on the entrance with six life cubes and two actions,
        the Magic Meanie on space 1, every portal's disc on 12/8, a full equipment bag.

        Raises GameError for a bad player count or a bad or unknown option.
        """
        self.seat_names(len(seats))
        chosen = self.check_options(options)
        card_map = questmap.quest_map(chosen.get("map", questmap.DEFAULT_MAP))
        gate = questmap.entrance(card_map)
        adventurers = tuple(
            Adventurer(key=key, card=gate, life=starting_life(key), backpack=Bag(), actions=ACTIONS_PER_ROUND,
                       lose=default_lose_order(key))
            for key in ADVENTURERS
        )
        return QuestState(
            seats=tuple(seats),
            controllers=_controllers(tuple(seats), chosen.get("fourth")),
            map_text=card_map.text,
            round=1,
            step=1,
            adventurers=adventurers,
            invaders=(),
            meanie=Meanie(),
            portals=tuple(0 for _ in PORTALS),
            bag=full_equipment_bag(),
            max_rounds=_max_rounds(chosen.get("max_rounds")),
        )

    # --- asking for orders ------------------------------------------------

    def phase(self, state: QuestState) -> Phase:
        """Return the action step: every seat whose adventurers have actions left, as a team."""
        seats = owing_seats(state)
        left = ", ".join(f"the {a.name} {a.actions} (seat {state.controller(a.key)})"
                         for a in state.adventurers if a.actions > 0 and not a.escaped)
        if len(state.seats) > 1:
            ways = ("Send actions such as WARRIOR MOVE b1 (with @1, @2 ... to interleave with the team), "
                    "NOORDERS to wait for your teammates' dice, or DONE.")
        else:
            ways = "Send actions such as WARRIOR MOVE b1 (@1, @2 ... set their order), or DONE to end the round."
        prompt = f"Round {state.round}, step {state.step}; actions left: {left}. {ways}"
        return Phase("step", seats, prompt, shared_orders=True)

    def validate(self, state: QuestState, seat: str, orders: Sequence[QuestOrder]) -> list[OrderProblem]:
        """Return the problems of a seat's step orders (see :mod:`.validation`)."""
        if problems := self.turn_problems(state, seat):
            return problems
        return submission_problems(state, questmap.quest_map(state.map_text), seat, orders)

    def default_orders(self, state: QuestState, seat: str) -> list[QuestOrder]:
        """Return the NMR default: DONE (the seat's adventurers take no more actions this round)."""
        return [Done()]

    def submission_summary(self, state: QuestState, seat: str, orders: Sequence[QuestOrder]) -> str:
        """Return what the step will spend, e.g. ``This step: the Warrior uses 2 of 2 actions, the
        Archer waits (2 left).``, the order the seat's actions will run in, and whether DONE ends
        the seat's round."""
        parts = []
        for key in state.controlled_by(seat):
            adventurer = state.adventurer(key)
            if adventurer.escaped or adventurer.actions == 0:
                continue
            used = sum(1 for o in orders if isinstance(o, Action) and o.adventurer == key and o.costs_action)
            parts.append(f"the {adventurer.name} waits ({adventurer.actions} left)" if not used else
                         f"the {adventurer.name} uses {used} of {adventurer.actions} action"
                         f"{'s' if adventurer.actions > 1 else ''}")
        running = [str(s.order) for s in running_order({seat: orders}, [seat])]
        order = f" Your actions run in this order: {', then '.join(running)}." if len(running) > 1 else ""
        done = " Then DONE: the rest of your actions this round are forfeited." \
            if any(isinstance(o, Done) for o in orders) else ""
        return ("This step: " + ", ".join(parts) + "." + order + done) if parts else ""

    def is_wait(self, state: QuestState, seat: str, orders: Sequence[QuestOrder]) -> bool:
        """Return True when the orders spend no action and forfeit none (NOORDERS, or POLICY lines alone)."""
        return not any(isinstance(o, Done) or (isinstance(o, Action) and o.costs_action) for o in orders)

    def all_waited_warning(self, state: QuestState) -> str | None:
        """Return what a step in which everyone waits costs: the adventurers' phase of the round ends and
        the team's remaining actions are lost."""
        left = sum(a.actions for a in state.adventurers if not a.escaped)
        return (f"If every player waits in this step, the adventurers' phase of round {state.round} ends and the "
                f"team's {left} remaining action{'s' if left != 1 else ''} are lost.")

    def sample_orders(self, state: QuestState, seat: str, rng: GameRng) -> list[QuestOrder]:
        """Return a random legal step for ``seat`` (robots and property tests)."""
        return sample_step(state, questmap.quest_map(state.map_text), seat, rng)

    # --- resolving ------------------------------------------------------

    def resolve(self, state: QuestState, orders: Mapping[str, Sequence[QuestOrder]],
                rng: GameRng) -> Resolution[QuestState]:
        """Run the step; when the round's actions are all used, play the enemies' phase and
        open the next round. Raises GameError once the quest is over."""
        if state.is_over:
            raise GameError("the quest is over")
        state, events = resolve_step(state, questmap.quest_map(state.map_text), orders, rng)
        return Resolution(state, events)

    def outcome(self, state: QuestState) -> Outcome | None:
        """Return a win shared by every seat after a victory, a loss for everyone after a defeat."""
        if state.result == "victory":
            return Outcome(state.seats, state.end_reason)
        if state.result == "defeat":
            return Outcome.loss(state.end_reason)
        return None

    def scores(self, state: QuestState) -> dict[str, int]:
        """Return the team's score for every seat: the portals sealed."""
        return {seat: state.sealed_count for seat in state.seats}

    # --- showing ----------------------------------------------------------

    def view(self, state: QuestState, seat: str | None) -> dict[str, Any]:
        """Return the whole position (nothing is secret); ``you`` marks the reader's adventurers."""
        return quest_view(state, questmap.quest_map(state.map_text), seat)

    def dump(self, state: QuestState) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> QuestState:
        """Rebuild a state from :meth:`dump` output."""
        return load_state(data)


def _controllers(seats: tuple[str, ...], fourth: str | None) -> tuple[str, ...]:
    """Return the seat playing each adventurer W, K, A, C; raises GameError for a bad ``fourth``."""
    if len(seats) != 3:
        if fourth is not None:
            raise GameError(f"option fourth={fourth}: only a 3-player game has a fourth adventurer to give; "
                            f"this game has {len(seats)} player{'s' if len(seats) > 1 else ''}")
        return tuple(seats[int(n) - 1] for n in CONTROLLERS[len(seats)])
    chosen = (fourth or seats[0]).strip()
    if chosen not in seats:
        raise GameError(f"option fourth={fourth}: give the seat that plays the Cleric, one of {', '.join(seats)}")
    return (seats[0], seats[1], seats[2], chosen)


def _max_rounds(text: str | None) -> int:
    """Return the round cap; raises GameError naming the option for a bad value."""
    if text is None:
        return DEFAULT_MAX_ROUNDS
    value = text.strip()
    if not value.isdigit() or not 1 <= int(value) <= MAX_ROUNDS_LIMIT:
        raise GameError(f"option max_rounds={text}: give a whole number from 1 to {MAX_ROUNDS_LIMIT}")
    return int(value)

