"""Meanies in our Midst (Gateway Island, game 20) as a play-by-email game.

The service deals every player a secret faction cube: green for the Minutians,
red for the Meanies (who do not learn each other). Each round it rolls the
guide's dice; the mission table turns them into the mission cubes required.
The guide CHOOSEs his explorers; the guide and every explorer each draw 4
mission cubes that only they see; at once and sealed, the guide KEEPs 2 and
every explorer GIVEs 2. Only the cubes collected are shown, never who gave
which, not even at the end. If they hold every required cube the Minutians
score, else the Meanies; the first faction to 3 wins and the factions are
revealed. Otherwise the guide names the next guide after a debrief.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag, redeal
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.seats import START, START_DESCRIPTION, first_player

from .orders import Choose, Give, Guide, Keep, MeaniesOrder
from .state import (
    COLOURS,
    CONTRIBUTION,
    DICE_BY_PLAYERS,
    EXPLORERS_BY_PLAYERS,
    FACTION_CUBES,
    FACTIONS_BY_PLAYERS,
    GOAL,
    HAND_SIZE,
    MEANIE,
    MINUTIAN,
    MISSION_TABLE,
    STAGE_CHOOSE,
    STAGE_MISSION,
    STAGE_NEXT_GUIDE,
    STAGE_OVER,
    MeaniesState,
    Mission,
    describe,
    dump_state,
    full_bag,
    listed,
    load_state,
)

FACTION_NAMES: Mapping[str, str] = {MINUTIAN: "Minutian", MEANIE: "Meanie"}
FACTION_PLURALS: Mapping[str, str] = {MINUTIAN: "Minutians", MEANIE: "Meanies"}


class MeaniesInOurMidst(BaseGame[MeaniesState, MeaniesOrder]):
    """The Meanies in our Midst game object (stateless; every method is pure)."""

    name: ClassVar[str] = "meanies-in-our-midst"
    title: ClassVar[str] = "Meanies in our Midst"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 9
    turn_shape: ClassVar[TurnShape] = TurnShape.MIXED
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    reveals_seed: ClassVar[bool] = False
    """This game's secrets outlive it: who gave which cubes is never told, and the seed recomputes every
    mission hand (its sealed draws). The service must keep this game's seed secret after the end too."""
    secrets_withheld: ClassVar[str] = (
        "who gave which cubes is never shown, not to the GM either: the state does not hold it, and the "
        "mission hands every seat's view would show could tell it")
    declared_options: ClassVar[Mapping[str, str]] = {START: START_DESCRIPTION + " (the first guide)"}
    terminal_words: ClassVar[Mapping[str, str]] = {
        "SEAT": "a seat number",
        "COLOUR": "a mission cube colour (white, black, blue or yellow)",
    }
    transformer_class: ClassVar[str] = f"{__package__}.grammar:MeaniesTransformer"

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> MeaniesState:
        """Return round 1: every seat dealt a secret faction (sealed draws, in seat order), the first
        guide chosen, his dice rolled.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        greens, reds = FACTIONS_BY_PLAYERS[len(seats)]
        with rng.sealed():  # the factions are every seat's secret: their draws stay out of the reports
            cubes, _ = Bag.from_counts({MINUTIAN: greens, MEANIE: reds}).draw(len(seats), rng)
        guide = first_player(seats, checked.get(START), rng)
        return MeaniesState(seats=tuple(seats), factions=cubes, guide=guide, dice=_roll(len(seats), rng),
                            bag=full_bag(), hands=tuple(Bag() for _ in seats))

    # --- asking for orders ------------------------------------------------

    def phase(self, state: MeaniesState) -> Phase:
        """Return the guide's choice of explorers, the sealed mission of the guide and his explorers (no
        press between players while it runs), or the guide's naming of the next guide."""
        guide = state.seats[state.guide]
        if state.stage == STAGE_CHOOSE:
            count = EXPLORERS_BY_PLAYERS[len(state.seats)]
            return Phase("choose", (guide,), f"Round {state.round}: the dice show {_dice_text(state.dice)}: needed "
                                             f"{describe(state.needed)}. CHOOSE {count} explorers among the other "
                                             "players.")
        if state.stage == STAGE_MISSION:
            return Phase("mission", tuple(state.seats[i] for i in state.members),
                         f"On the mission, sealed and silent: the guide KEEPs {CONTRIBUTION} of his {HAND_SIZE} cubes, "
                         f"each explorer GIVEs {CONTRIBUTION} of his (your cubes are in your report); needed "
                         f"{describe(state.needed)}.", press_open=False)
        return Phase("next-guide", (guide,), "The debrief: name the next guide, another player (GUIDE n).")

    def validate(self, state: MeaniesState, seat: str, orders: Sequence[MeaniesOrder]) -> list[OrderProblem]:
        """Return the problems of a submission, refused as a whole: the guide's CHOOSE of the right
        number of other seats, a mission member's KEEP (the guide) or GIVE (an explorer) of two of his
        own cubes, or the guide's GUIDE naming another seat."""
        if problems := self.turn_problems(state, seat):
            return problems
        if len(orders) != 1:
            return [OrderProblem(None, f"send exactly one order: {_expected(state, seat)}")]
        problem = _problem(state, state.index(seat), orders[0])
        return [] if problem is None else [OrderProblem(None, problem)]

    def default_orders(self, state: MeaniesState, seat: str) -> list[MeaniesOrder]:
        """Return the NMR play: the explorers are the next seats clockwise from the guide; on the mission
        the first two of one's cubes in the order white, black, blue, yellow (it depends on the hand, never
        on the faction, and nobody sees it); the next guide is the next seat clockwise."""
        i = state.index(seat)
        n = len(state.seats)
        if state.stage == STAGE_CHOOSE:
            count = EXPLORERS_BY_PLAYERS[n]
            return [Choose(tuple(state.seats[(i + k) % n] for k in range(1, count + 1)))]
        if state.stage == STAGE_MISSION:
            first = listed(state.hands[i])[:CONTRIBUTION]
            return [Keep(first) if i == state.guide else Give(first)]
        return [Guide(state.seats[(i + 1) % n])]

    def forced_orders(self, state: MeaniesState, seat: str) -> list[MeaniesOrder] | None:
        """Return None: the service never plays for a player. The guide always has several teams and
        successors to choose from, and a mission hand of one colour is not played automatically, since
        doing so would tell everybody what it held."""
        return None

    def order_choices(self, state: MeaniesState, seat: str) -> list[list[MeaniesOrder]] | None:
        """Return, when few, every team the guide may CHOOSE, every pair of his own cubes a mission member
        may KEEP or GIVE (each pair of colours once), or every next GUIDE."""
        i = state.index(seat)
        others = [s for s in state.seats if s != seat]
        if state.stage == STAGE_CHOOSE:
            teams = combinations(others, EXPLORERS_BY_PLAYERS[len(state.seats)])
            return few_choices(single_orders(Choose(team) for team in teams))
        if state.stage == STAGE_MISSION:
            pairs = sorted(set(combinations(listed(state.hands[i]), CONTRIBUTION)))
            return few_choices(single_orders(Keep(pair) if i == state.guide else Give(pair) for pair in pairs))
        return few_choices(single_orders(Guide(other) for other in others))

    def submission_summary(self, state: MeaniesState, seat: str, orders: Sequence[MeaniesOrder]) -> str:
        """Return, to the sender only, what his mission order does with his cubes, or ``""``."""
        order = orders[0] if len(orders) == 1 else None
        if state.stage != STAGE_MISSION or not isinstance(order, Keep | Give):
            return ""
        back = state.hands[state.index(seat)].remove(order.cubes)
        verb = "keep" if isinstance(order, Keep) else "give the guide"
        return f"You {verb} {', '.join(order.cubes)}; {', '.join(listed(back))} go back to the bag. Nobody will " \
               "learn who gave which cubes."

    def sample_orders(self, state: MeaniesState, seat: str, rng: GameRng) -> list[MeaniesOrder]:
        """Return a random legal submission."""
        i = state.index(seat)
        others = [s for s in state.seats if s != seat]
        if state.stage == STAGE_CHOOSE:
            chosen = rng.sample(others, EXPLORERS_BY_PLAYERS[len(state.seats)])
            return [Choose(tuple(sorted(chosen, key=state.seats.index)))]
        if state.stage == STAGE_MISSION:
            cubes = tuple(rng.sample(listed(state.hands[i]), CONTRIBUTION))
            return [Keep(cubes) if i == state.guide else Give(cubes)]
        return [Guide(rng.choice(others))]

    # --- resolving ------------------------------------------------------

    def resolve(self, state: MeaniesState, orders: Mapping[str, Sequence[MeaniesOrder]],
                rng: GameRng) -> Resolution[MeaniesState]:
        """Carry out the step: the explorers chosen and every member's 4 cubes drawn (sealed); the
        mission's cubes collected and only their sum shown, then scored; or the next guide named and his
        dice rolled.

        Raises GameError when the game is over or an owing seat sent no entry, IllegalOrder for a
        submission validate refuses.
        """
        given = self.owed_orders(state, orders)
        label = f"Round {state.round}"
        if state.stage == STAGE_CHOOSE:
            (choose,) = given[state.seats[state.guide]]
            assert isinstance(choose, Choose)
            return Resolution(*_send_out(state, choose, rng, label))
        if state.stage == STAGE_MISSION:
            return Resolution(*_bring_back(state, given, label))
        (named,) = given[state.seats[state.guide]]
        assert isinstance(named, Guide)
        return Resolution(*_next_round(state, named, rng, label))

    def outcome(self, state: MeaniesState) -> Outcome | None:
        """Return the winning faction's seats once its counter reached the goal."""
        if not state.is_over:
            return None
        winners = tuple(s for s, f in zip(state.seats, state.factions, strict=True) if f == state.winner)
        plural = FACTION_PLURALS[state.winner]
        losers = [s for s in state.seats if s not in winners]
        other = FACTION_PLURALS[MEANIE if state.winner == MINUTIAN else MINUTIAN]
        won = f"seats {', '.join(winners)} win" if len(winners) > 1 else f"seat {winners[0]} wins"
        lost = f"seats {', '.join(losers)}" if len(losers) > 1 else f"seat {losers[0]}"
        return Outcome(winners, f"The {plural} reach {GOAL} first: {won}; the {other} were {lost}.")

    def scores(self, state: MeaniesState) -> dict[str, int]:
        """Return 0 for everyone while the game runs (a seat's score would tell its faction); at the end
        each seat scores its faction's counter."""
        if not state.is_over:
            return {seat: 0 for seat in state.seats}
        counters = {MINUTIAN: state.minutians, MEANIE: state.meanies}
        return {s: counters[f] for s, f in zip(state.seats, state.factions, strict=True)}

    # --- hidden information -------------------------------------------------

    def hidden_variant(self, state: MeaniesState, keep: str | None, rng: GameRng) -> MeaniesState:
        """Return ``state`` with the factions of every seat but ``keep`` dealt again among them and, while a
        mission runs, every other member's hand and the bag redealt from the cubes they hold together;
        nothing once the game is over (the factions are public then, and no hand is left)."""
        if state.is_over:
            return state
        others = [i for i, s in enumerate(state.seats) if s != keep]
        pool = [state.factions[i] for i in others]
        rng.shuffle(pool)
        factions = list(state.factions)
        for i, faction in zip(others, pool, strict=True):
            factions[i] = faction
        hands = list(state.hands)
        bag = state.bag
        if state.stage == STAGE_MISSION:
            members = [i for i in state.members if state.seats[i] != keep]
            *dealt, bag = redeal([state.hands[i] for i in members] + [state.bag], rng)
            for i, hand in zip(members, dealt, strict=True):
                hands[i] = hand
        return replace(state, factions=tuple(factions), hands=tuple(hands), bag=bag)

    # --- showing ----------------------------------------------------------

    def view(self, state: MeaniesState, seat: str | None) -> dict[str, Any]:
        """Return the counters, the mission table, the dice and what they require, the team, and the record
        of every mission (what it needed and collected, never who gave what) for everyone; a seat's own
        faction, and its own cubes while on a mission, for that seat; every faction once the game is over."""
        reader = state.index(seat) if seat in state.seats else None
        over = state.is_over
        on_mission = state.members if state.stage == STAGE_MISSION else ()
        players = [
            {"seat": s, "you": i == reader, "guide": i == state.guide and not over,
             "explorer": i in state.explorers and state.stage == STAGE_MISSION,
             "faction": _faction_view(state.factions[i]) if over or i == reader else None}
            for i, s in enumerate(state.seats)
        ]
        hand = None
        if reader is not None and reader in on_mission:
            cubes = listed(state.hands[reader])
            hand = {"cubes": list(cubes), "text": ", ".join(cubes)}
        greens, reds = FACTIONS_BY_PLAYERS[len(state.seats)]
        return {
            "round": state.round,
            "over": over,
            "stage": state.stage,
            "goal": GOAL,
            "minutians": state.minutians,
            "meanies": state.meanies,
            "winner": _faction_view(state.winner) if state.winner else None,
            "guide": state.seats[state.guide],
            "dice": list(state.dice),
            "needed": {"cubes": list(listed(state.needed)), "text": describe(state.needed)},
            "explorer_count": EXPLORERS_BY_PLAYERS[len(state.seats)],
            "explorers": [state.seats[i] for i in state.explorers],
            "on_mission": [state.seats[i] for i in on_mission],
            "mission_table": [{"die": die, "cubes": list(cubes)} for die, cubes in MISSION_TABLE.items()],
            "factions_in_play": {"minutians": greens, "meanies": reds},
            "players": players,
            "you": None if reader is None else {"seat": state.seats[reader],
                                                "faction": _faction_view(state.factions[reader])},
            "hand": hand,
            "missions": [
                {"round": m.round, "guide": m.guide, "explorers": list(m.explorers), "dice": list(m.dice),
                 "needed": describe(Bag.of(c for d in m.dice for c in MISSION_TABLE[d])),
                 "collected": describe(m.collected), "success": m.success}
                for m in state.missions
            ],
            "bag_count": state.bag.size,
        }

    def dump(self, state: MeaniesState) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> MeaniesState:
        """Rebuild a state from :meth:`dump` output."""
        return load_state(data)


# --- the steps of a round -------------------------------------------------------------------------


def _roll(players: int, rng: GameRng) -> tuple[int, ...]:
    """The guide's dice: 2 with 4-5 players, 3 with 6-7, 4 with 8-9 [R]; rolled by the service, public."""
    return tuple(rng.roll() for _ in range(DICE_BY_PLAYERS[players]))


def _dice_text(dice: Sequence[int]) -> str:
    return ", ".join(f"{die} ({' + '.join(MISSION_TABLE[die])})" for die in dice)


def _send_out(state: MeaniesState, choose: Choose, rng: GameRng,
              label: str) -> tuple[MeaniesState, list[Event]]:
    """[R] The explorers join the guide; each member draws 4 mission cubes, seen only by himself [D: all
    draws first, so the book's clockwise order tells nothing]."""
    explorers = tuple(sorted(state.index(s) for s in choose.seats))
    state = replace(state, explorers=explorers, stage=STAGE_MISSION)
    guide = state.seats[state.guide]
    team = " and ".join(", ".join(state.seats[i] for i in state.members[1:]).rsplit(", ", 1))
    events = [Event("choose", f"Seat {guide}, the guide, takes seats {team} on the mission. Each of the "
                              f"{len(state.members)} draws {HAND_SIZE} mission cubes, seen by nobody else.", label,
                    seat=guide, data={"explorers": [state.seats[i] for i in explorers]})]
    hands = list(state.hands)
    bag = state.bag
    with rng.sealed():  # every hand is its holder's secret: these draws stay out of the reports
        for i in state.members:
            drawn, bag = bag.draw(HAND_SIZE, rng)
            hands[i] = Bag.of(drawn)
            seat = state.seats[i]
            cubes = ", ".join(listed(hands[i]))
            events.append(Event("draw", f"You draw {cubes}.", label, seat=seat, data={"cubes": cubes.split(", ")},
                                seats=(seat,)))
    return replace(state, hands=tuple(hands), bag=bag), events


def _bring_back(state: MeaniesState, given: Mapping[str, Sequence[MeaniesOrder]],
                label: str) -> tuple[MeaniesState, list[Event]]:
    """[R] The guide's kept cubes and the explorers' given ones are revealed together, as one heap; the
    requirement decides which faction scores. Who gave which is dropped here for good [D]."""
    collected = Bag()
    for i in state.members:
        (order,) = given[state.seats[i]]
        assert isinstance(order, Keep | Give)
        collected = collected.add(order.cubes)
    needed = state.needed
    success = collected.contains(needed)
    minutians, meanies = state.minutians + success, state.meanies + (not success)
    record = Mission(state.round, state.seats[state.guide], tuple(state.seats[i] for i in state.explorers), state.dice,
                     collected, success)
    events = [Event("collected", f"The mission brings back {describe(collected)} ({collected.size} cubes).", label,
                    data={"collected": collected.to_json()})]
    if success:
        text = f"Every needed cube ({describe(needed)}) is there: the Minutians score ({minutians} of {GOAL})."
    else:
        short = ", ".join(f"{needed.count(c) - collected.count(c)} {c}" for c in COLOURS
                          if needed.count(c) > collected.count(c))
        text = f"Needed {describe(needed)}, short of {short}: the Meanies score ({meanies} of {GOAL})."
    events.append(Event("result", text, label, data={"success": success, "needed": needed.to_json()}))
    state = replace(state, minutians=minutians, meanies=meanies, missions=(*state.missions, record), bag=full_bag(),
                    hands=tuple(Bag() for _ in state.seats), stage=STAGE_NEXT_GUIDE)
    reached = MINUTIAN if minutians >= GOAL else MEANIE if meanies >= GOAL else ""
    if reached:
        factions = ", ".join(f"seat {s} {FACTION_NAMES[f]}" for s, f in zip(state.seats, state.factions, strict=True))
        events.append(Event("reveal", f"The {FACTION_PLURALS[reached]} reach {GOAL} and win. The faction cubes are "
                                      f"revealed: {factions}.", label,
                            data={"factions": dict(zip(state.seats, state.factions, strict=True))}))
        return replace(state, stage=STAGE_OVER, winner=reached), events
    events.append(Event("debrief", f"Every cube goes back to the bag. The debrief: seat {state.seats[state.guide]} "
                                   "names the next guide.", label))
    return state, events


def _next_round(state: MeaniesState, named: Guide, rng: GameRng, label: str) -> tuple[MeaniesState, list[Event]]:
    """[R] The guide names another player the new guide; the service rolls his dice for the next mission."""
    old = state.seats[state.guide]
    state = replace(state, guide=state.index(named.seat), round=state.round + 1, dice=_roll(len(state.seats), rng),
                    explorers=(), stage=STAGE_CHOOSE)
    return state, [
        Event("guide", f"Seat {old} names seat {named.seat} the next guide.", label, seat=old,
              data={"guide": named.seat}),
        Event("dice", f"Seat {named.seat}, the new guide, rolls {_dice_text(state.dice)}: needed "
                      f"{describe(state.needed)}.", f"Round {state.round}", data={"dice": list(state.dice)}),
    ]


# --- checking orders ----------------------------------------------------------------------------------


def _expected(state: MeaniesState, seat: str) -> str:
    """The order a seat owes now, as an example."""
    if state.stage == STAGE_CHOOSE:
        return f"CHOOSE and {EXPLORERS_BY_PLAYERS[len(state.seats)]} seats"
    if state.stage == STAGE_MISSION:
        return "KEEP and two of your cubes" if state.index(seat) == state.guide else "GIVE and two of your cubes"
    return "GUIDE and a seat"


def _problem(state: MeaniesState, i: int, order: MeaniesOrder) -> str | None:
    """Why seat i may not send ``order`` now; None when he may."""
    guide = i == state.guide
    if state.stage == STAGE_CHOOSE:
        return _choose_problem(state, order) if isinstance(order, Choose) else \
            f"{order}: the guide now chooses his explorers: {_expected(state, state.seats[i])}"
    if state.stage == STAGE_MISSION:
        wanted = Keep if guide else Give
        if not isinstance(order, wanted):
            role = "the guide KEEPs" if guide else "an explorer GIVEs"
            return f"{order}: on the mission {role} two of his cubes, e.g. {wanted(listed(state.hands[i])[:2])}"
        if not state.hands[i].contains(order.cubes):
            return f"{order}: you have only {', '.join(listed(state.hands[i]))}"
        return None
    if not isinstance(order, Guide):
        return f"{order}: name the next guide: GUIDE and a seat"
    if order.seat not in state.seats:
        return f"{order}: there is no seat {order.seat} (seats {state.seats[0]} to {state.seats[-1]})"
    if order.seat == state.seats[i]:
        return f"{order}: the next guide is another player"
    return None


def _choose_problem(state: MeaniesState, order: Choose) -> str | None:
    count = EXPLORERS_BY_PLAYERS[len(state.seats)]
    unknown = [s for s in order.seats if s not in state.seats]
    if unknown:
        return f"{order}: there is no seat {', '.join(unknown)} (seats {state.seats[0]} to {state.seats[-1]})"
    if state.seats[state.guide] in order.seats:
        return f"{order}: you go as the guide; choose {count} other players"
    twice = sorted({s for s in order.seats if order.seats.count(s) > 1})
    if twice:
        return f"{order}: seat {', '.join(twice)} is named twice"
    if len(order.seats) != count:
        return f"{order}: choose exactly {count} explorers, not {len(order.seats)}"
    return None


def _faction_view(faction: str) -> dict[str, str]:
    return {"faction": faction, "name": FACTION_NAMES[faction], "cube": FACTION_CUBES[faction]}
