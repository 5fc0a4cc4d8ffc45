"""The Kentucksea Derby (Gateway Island, game 10) as a play-by-email game.

Six racers, one per colour, run 2 laps (3-4 players) or 3 laps (5-6 players)
of 24 spaces. With betting, every player first sends a sealed bet against his
rival (the racer above his own in the speed column). Each round: sealed bids
for turn order (ties re-bid among the tied seats only); then, in reverse turn
order, each player with shells may move one racer in the speed column; then,
in turn order, the service rolls once per player and every running racer
moves by the speed table. The round in which a racer finishes ends the race.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import choice_option, window_hours_description, window_hours_option
from pbem.core.protocol import SILENCE_PASS, Score
from pbem.games.kentucksea_derby.bidding import MAX_BID, Group, order_of, places, split_group
from pbem.games.kentucksea_derby.orders import Bet, Bid, DerbyOrder, Speed, SpeedPass
from pbem.games.kentucksea_derby.racing import (
    COLOURS,
    LAP,
    MULTIPLIERS,
    PLACE_POINTS,
    SPEED_TABLE,
    final_order,
    moved_to,
    player_score,
    rival_of,
    roll_racers,
)
from pbem.games.kentucksea_derby.state import (
    STAGE_BET,
    STAGE_BID,
    STAGE_OVER,
    STAGE_REBID,
    STAGE_SPEED,
    DerbyState,
)

BETTING = "betting"
REBID_HOURS = "rebid_hours"
REBID_HOURS_DEFAULT = 24
SHELLS_WITH_BETTING = 40
SHELLS_WITHOUT_BETTING = 20
RIVAL_PLAYER_BET_BONUS = 5
RIVALLED_SHELL_BONUS = 10


class KentuckseaDerby(BaseGame[DerbyState, DerbyOrder]):
    """The Kentucksea Derby game object (stateless; every method is pure)."""

    name: ClassVar[str] = "kentucksea-derby"
    title: ClassVar[str] = "The Kentucksea Derby"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 6
    turn_shape: ClassVar[TurnShape] = TurnShape.MIXED
    has_chance: ClassVar[bool] = True
    default_reports: ClassVar[str] = "digest"
    declared_options: ClassVar[Mapping[str, str]] = {
        BETTING: "yes (default: 40 shells and a sealed bet against your rival) or no (20 shells, no bets)",
        REBID_HOURS: window_hours_description("a tie re-bid (silence bids 1)", REBID_HOURS_DEFAULT),
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "SHELLS": "a number of shells such as 3",
        "COLOUR": "a racer colour (red, blue, green, yellow, black or white)",
        "ROW": "a row of the speed column, 1 (top) to 6",
    }
    transformer_class: ClassVar[str] = "pbem.games.kentucksea_derby.grammar:DerbyTransformer"
    state_class: ClassVar[type] = DerbyState

    # --- set up --------------------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> DerbyState:
        """Return the start: the speed column drawn from the bag, the rivals fixed; then the sealed bets,
        or (without betting) the first round's bids.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        betting = choice_option(checked, BETTING, ("yes", "no"), "yes") == "yes"
        rebid_hours = window_hours_option(checked, REBID_HOURS, REBID_HOURS_DEFAULT)
        column, _ = Bag.filled(COLOURS, 1).draw(len(COLOURS), rng)
        shells = SHELLS_WITH_BETTING if betting else SHELLS_WITHOUT_BETTING
        state = DerbyState(
            seats=tuple(seats),
            betting=betting,
            laps=2 if len(seats) <= 4 else 3,
            column=column,
            rivals=tuple(rival_of(column, COLOURS[i]) for i in range(len(seats))),
            shells=tuple(shells for _ in seats),
            bets=tuple(0 for _ in seats),
            stage=STAGE_BET,
            round=1,
            order=tuple(seats),
            rebid_hours=rebid_hours,
        )
        if betting:
            return state
        state, _ = _advance(_open_round(state)[0], rng)
        return state

    # --- asking for orders -----------------------------------------------------------------

    def phase(self, state: DerbyState) -> Phase:
        """Return the sealed bets, the sealed bids, a tie re-bid (a short answer window for the tied
        seats only), or one seat's speed column move, in reverse turn order."""
        if state.stage == STAGE_BET:
            return Phase("bet", state.seats, "Before the race: send a sealed BET n against your rival "
                                             f"(0 to your {SHELLS_WITH_BETTING} shells).")
        if state.stage == STAGE_BID:
            return Phase("bid", _bidders(state), f"Round {state.round}: send a sealed BID n for the turn order "
                                                 f"(1 to {MAX_BID}, at most your shells; paid at once).")
        if state.stage == STAGE_REBID:
            tied = "; ".join(f"seats {', '.join(g.seats)} for places {first}-{last}"
                             for first, last, g in places(state.standing()) if g.is_tied)
            return Phase("rebid", state.tied_seats(),
                         f"Round {state.round}, tie re-bid ({tied}): send a sealed BID n again (1 to {MAX_BID}, "
                         "at most your shells; paid at once). Silence bids 1.",
                         deadline_hours=state.rebid_hours, silence=SILENCE_PASS)
        return Phase("speed", state.speakers[:1], f"Round {state.round}: move one racer in the speed column "
                                                  "(SPEED <colour> <row>, row 1 is the top) or SPEED PASS.")

    def validate(self, state: DerbyState, seat: str, orders: Sequence[DerbyOrder]) -> list[OrderProblem]:
        """Return the problems of a submission: one BET (0 to your shells) before the race; one BID
        (1 to 5, at most your shells) or none in a bid or re-bid; one SPEED move or SPEED PASS."""
        if problems := self.turn_problems(state, seat):
            return problems
        if state.stage in (STAGE_BID, STAGE_REBID) and not orders:
            return []  # no bid: the minimum, 1, is paid
        expected = {STAGE_BET: "BET n", STAGE_BID: "BID n", STAGE_REBID: "BID n",
                    STAGE_SPEED: "SPEED <colour> <row> or SPEED PASS"}[state.stage]
        if len(orders) != 1:
            return [OrderProblem(None, f"send one order now: {expected}")]
        problem = _order_problem(state, seat, orders[0], expected)
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: DerbyState, seat: str) -> list[DerbyOrder]:
        """Return the NMR play: BET 0; no bid (BID 1 is paid); SPEED PASS."""
        if state.stage == STAGE_BET:
            return [Bet(0)]
        if state.stage == STAGE_SPEED:
            return [SpeedPass()]
        return []

    def sample_orders(self, state: DerbyState, seat: str, rng: GameRng) -> list[DerbyOrder]:
        """Return a random legal order of the stage."""
        shells = state.shells_of(seat)
        if state.stage == STAGE_BET:
            return [Bet(rng.randint(0, shells))]
        if state.stage in (STAGE_BID, STAGE_REBID):
            return [Bid(rng.randint(1, min(MAX_BID, shells)))]
        if rng.random() < 0.25:
            return [SpeedPass()]
        colour = rng.choice(COLOURS)
        row = rng.choice([r for r in range(1, len(COLOURS) + 1) if r != state.column.index(colour) + 1])
        return [Speed(colour, row)]

    def order_choices(self, state: DerbyState, seat: str) -> list[list[DerbyOrder]] | None:
        """Return, when few, every BID the seat can pay (1 to 5; a bet of 0 to 40 shells and the 31 speed
        moves are too many)."""
        shells = state.shells_of(seat)
        if state.stage in (STAGE_BID, STAGE_REBID):
            return few_choices(single_orders(Bid(n) for n in range(1, min(MAX_BID, shells) + 1)))
        if state.stage == STAGE_BET:
            return few_choices(single_orders(Bet(n) for n in range(shells + 1)))
        moves = (Speed(colour, row) for colour in COLOURS for row in range(1, len(COLOURS) + 1)
                 if row != state.column.index(colour) + 1)
        return few_choices(single_orders([SpeedPass(), *moves]))

    def submission_summary(self, state: DerbyState, seat: str, orders: Sequence[DerbyOrder]) -> str:
        """Return what a valid order does, e.g. "You will have 37 shells left."."""
        if not orders:
            return ""
        shells = state.shells_of(seat)
        order = orders[0]
        if isinstance(order, Bet):
            bet, left, notes = _adjusted(state, state.index(seat), order.shells, "your")
            why = f": {' and '.join(notes)}" if notes else ""
            return f"Your bet will stand at {bet} and you will have {left} shell{'' if left == 1 else 's'} left{why}."
        if isinstance(order, Bid):
            return f"You will have {shells - order.shells} shell{'' if shells - order.shells == 1 else 's'} left."
        if isinstance(order, Speed):
            return "The speed column will read: " + ", ".join(moved_to(state.column, order.colour, order.row)) + "."
        return "The speed column stays as it is."

    # --- resolving ----------------------------------------------------------------------------

    def resolve(self, state: DerbyState, orders: Mapping[str, Sequence[DerbyOrder]],
                rng: GameRng) -> Resolution[DerbyState]:
        """Reveal the bets (and adjust them), the bids or re-bids, or make a speed move; then go on to the
        next step, rolling the race dice of the round in turn order when the speed moves are done.

        Raises GameError when the game is over or an owing seat has no entry, IllegalOrder for an order
        that breaks a rule.
        """
        if state.is_over:
            raise GameError("the race is over")
        given = self.owed_orders(state, orders)
        if state.stage == STAGE_BET:
            state, events = _bets(state, {seat: entry[0].shells for seat, entry in given.items()})  # type: ignore[union-attr]
            state, opened = _open_round(state)
            state, raced = _advance(state, rng)
            return Resolution(state, events + opened + raced)
        if state.stage == STAGE_SPEED:
            (seat, entry), = given.items()
            state, events = _speed_move(state, seat, entry[0])  # type: ignore[arg-type]
            state, raced = _advance(state, rng)
            return Resolution(state, events + raced)
        bids = {seat: entry[0].shells if entry else 1 for seat, entry in given.items()}  # type: ignore[union-attr]
        silent = frozenset(seat for seat, entry in given.items() if not entry)
        state, events = _bidding(state, bids, silent)
        state, raced = _advance(state, rng)
        return Resolution(state, events + raced)

    def outcome(self, state: DerbyState) -> Outcome | None:
        """Return the winner once the race is over (:meth:`standing_outcome`), else None."""
        return self.standing_outcome(state) if state.is_over else None

    def standing_outcome(self, state: DerbyState) -> Outcome:
        """Return the winner by the scores as the race stands: the highest score, ties to the racer higher
        in the speed column."""
        scores = self.scores(state)
        best = max(scores.values())
        tied = sorted((s for s in state.seats if scores[s] == best), key=state.row_of)
        if len(tied) == 1:
            return Outcome((tied[0],), f"Seat {tied[0]} has the highest score, {best}.")
        names = sorted(tied)
        return Outcome((tied[0],), f"Seats {', '.join(names[:-1])} and {names[-1]} have {best} points each; seat {tied[0]} wins: "
                                   f"its racer, {state.racer(tied[0])}, is highest in the speed column.")

    def scores(self, state: DerbyState) -> dict[str, Score]:
        """Return each seat's score as if the race ended now: its racer's place points, its bet times its
        rival's multiplier, its shells (the final score once the race is over)."""
        ranking = _ranking(state)
        return {seat: player_score(ranking.index(state.racer(seat)), ranking.index(state.rivals[i]),
                                   state.bets[i], state.shells[i])
                for i, seat in enumerate(state.seats)}

    # --- showing --------------------------------------------------------------------------------

    def view(self, state: DerbyState, seat: str | None) -> dict[str, Any]:
        """Return everything (bets and bids are sealed only until their step is resolved, and the state
        holds none before): the speed column and table, the race, the players, the turn order."""
        finish = state.laps * LAP.size
        ranking = _ranking(state)
        scores = self.scores(state)
        progress = dict(zip(COLOURS, state.progress, strict=True))
        return {
            "you": seat if seat in state.seats else None,
            "seats": list(state.seats),
            "betting": state.betting,
            "laps": state.laps,
            "lap": LAP.size,
            "finish": finish,
            "stage": state.stage,
            "over": state.is_over,
            "round": state.round,
            "column": [{"row": row, "colour": colour, "owner": state.owner(colour), "speeds": list(speeds)}
                       for row, (colour, speeds) in enumerate(zip(state.column, SPEED_TABLE, strict=True), start=1)],
            "racers": [
                {
                    "colour": colour,
                    "owner": state.owner(colour),
                    "progress": progress[colour],
                    "lap": min(progress[colour] // LAP.size + 1, state.laps),
                    "space": progress[colour] % LAP.size if colour not in state.finished else None,
                    "finished": state.finished.index(colour) + 1 if colour in state.finished else None,
                    "rank": ranking.index(colour) + 1,
                }
                for colour in ranking
            ],
            "players": [
                {
                    "seat": s,
                    "you": s == seat,
                    "colour": state.racer(s),
                    "rival": state.rivals[i],
                    "rival_owner": state.owner(state.rivals[i]),
                    "shells": state.shells[i],
                    "bet": state.bets[i],
                    "spent": state.spent[i] if state.spent else 0,
                    "score": scores[s],
                }
                for i, s in enumerate(state.seats)
            ],
            "order": list(state.order),
            "groups": [{"first": first, "last": last, "seats": list(g.seats), "tied": g.is_tied, "ties": g.ties}
                       for first, last, g in places(state.standing())],
            "speakers": list(state.speakers),
            "rolls": list(state.rolls),
            "table": [{"place": p + 1, "points": PLACE_POINTS[p], "multiplier": MULTIPLIERS[p]}
                      for p in range(len(COLOURS))],
        }


# --- the steps of a round ---------------------------------------------------------------------------


def _bidders(state: DerbyState) -> tuple[str, ...]:
    return tuple(seat for seat in state.seats if state.shells_of(seat) > 0)


def _order_problem(state: DerbyState, seat: str, order: DerbyOrder, expected: str) -> str | None:
    shells = state.shells_of(seat)
    if state.stage == STAGE_BET:
        if not isinstance(order, Bet):
            return f"{order}: the bets come first; send {expected}"
        if order.shells > shells:
            return f"{order}: you have {shells} shells"
        return None
    if state.stage in (STAGE_BID, STAGE_REBID):
        if not isinstance(order, Bid):
            return f"{order}: send {expected} for the turn order"
        top = min(MAX_BID, shells)
        if not 1 <= order.shells <= top:
            return f"{order}: bid from 1 to {top} ({MAX_BID} at most, and you have {shells} shells)"
        return None
    if isinstance(order, Speed):
        if state.column.index(order.colour) + 1 == order.row:
            return f"{order}: the {order.colour} racer is on row {order.row} already; send SPEED PASS to leave " \
                   "the column as it is"
        return None
    if not isinstance(order, SpeedPass):
        return f"{order}: send {expected}"
    return None


def _bets(state: DerbyState, bets: Mapping[str, int]) -> tuple[DerbyState, list[Event]]:
    """Reveal the bets, pay them, and make the adjustments for rivals that are (or are not) players."""
    label = "Bets"
    listed = ", ".join(f"seat {s} bets {bets[s]}" for s in state.seats)
    events = [Event("bets", f"Bets revealed: {listed}.", label, data={"bets": dict(bets)})]
    shells, adjusted = [], []
    for i, seat in enumerate(state.seats):
        bet, left, notes = _adjusted(state, i, bets[seat])
        shells.append(left)
        adjusted.append(bet)
        if notes:
            events.append(Event("adjust", f"Seat {seat}: {' and '.join(notes)}.", label, seat=seat))
    return replace(state, shells=tuple(shells), bets=tuple(adjusted)), events


def _adjusted(state: DerbyState, i: int, bet: int, whose: str = "its") -> tuple[int, int, list[str]]:
    """Return seat ``i``'s bet and shells after betting ``bet`` and the adjustments [R], and the
    adjustments made, worded for ``whose`` ("its" for everyone, "your" for the seat itself), e.g.
    "its bet gains 5 (its rival blue is seat 2's)"."""
    rival_owner = state.owner(state.rivals[i])
    rivalled = {state.owner(rival) for rival in state.rivals} - {None}
    left = state.shells[i] - bet
    notes = []
    if rival_owner is not None:
        bet += RIVAL_PLAYER_BET_BONUS
        notes.append(f"{whose} bet gains {RIVAL_PLAYER_BET_BONUS} ({whose} rival {state.rivals[i]} is seat "
                     f"{rival_owner}'s)")
    if state.seats[i] in rivalled:
        left += RIVALLED_SHELL_BONUS
        gains = "you gain" if whose == "your" else "it gains"
        notes.append(f"{gains} {RIVALLED_SHELL_BONUS} shells ({whose} racer is a player's rival)")
    return bet, left, notes


def _open_round(state: DerbyState) -> tuple[DerbyState, list[Event]]:
    """Open the bids of the round; with nobody holding shells, keep the turn order and go to the race."""
    state = replace(state, stage=STAGE_BID, spent=tuple(0 for _ in state.seats), groups=(), ties=(), speakers=())
    if _bidders(state):
        return state, []
    event = Event("no-bids", "Nobody has shells left to bid or to move the speed column: the turn order stays "
                             f"{', '.join(state.order)}.", f"Round {state.round}")
    return _to_speed(state), [event]


def _to_speed(state: DerbyState) -> DerbyState:
    """Ask the seats with shells for their speed moves, the last in turn order first."""
    speakers = tuple(seat for seat in reversed(state.order) if state.shells_of(seat) > 0)
    return replace(state, stage=STAGE_SPEED, speakers=speakers)


def _advance(state: DerbyState, rng: GameRng) -> tuple[DerbyState, list[Event]]:
    """Race every round whose speed moves are done, opening the next, until somebody owes orders or the
    race is over."""
    events: list[Event] = []
    while state.stage == STAGE_SPEED and not state.speakers:
        state, raced = _race_round(state, rng)
        events += raced
        if state.is_over:
            break
        state, opened = _open_round(state)
        events += opened
    return state, events


def _bidding(state: DerbyState, bids: Mapping[str, int], silent: frozenset[str]) -> tuple[DerbyState, list[Event]]:
    """Pay the bids of the bidders (or re-bidders) and split their groups; once no group is tied the
    turn order is settled and the speed moves begin."""
    label = f"Round {state.round}"
    shells = list(state.shells)
    spent = list(state.spent)
    for seat, bid in bids.items():
        i = state.index(seat)
        shells[i] -= bid
        spent[i] += bid
    left = dict(zip(state.seats, shells, strict=True))
    rank = {seat: state.row_of(seat) for seat in state.seats}
    what = "Re-bids" if state.stage == STAGE_REBID else "Bids"
    told = ", ".join(f"seat {s} {'no bid (1)' if s in silent else bids[s]}" for s in bids)
    events = [Event("bids", f"{what} revealed: {told}.", label, data={"bids": dict(bids), "silent": sorted(silent)})]
    if state.stage == STAGE_BID:
        before: tuple[Group, ...] = (Group(tuple(bids)),)
        tail = tuple(Group((seat,)) for seat in state.order if seat not in bids)
    else:
        before, tail = state.standing(), ()
    groups: list[Group] = []
    for group in before:
        if state.stage == STAGE_REBID and not group.is_tied:
            groups.append(group)
            continue
        split = split_group(group.seats, group.ties, bids, silent, left, state.order, rank)
        groups.extend(split.groups)
        events.extend(Event("tie-rule", note, label) for note in split.notes)
    if tail:
        many = len(tail) > 1
        events.append(Event("no-shells", f"Seat{'s' if many else ''} {', '.join(order_of(tail))} without shells "
                                         f"take{'' if many else 's'} the last place{'s' if many else ''}.", label))
    groups.extend(tail)
    state = replace(state, shells=tuple(shells), spent=tuple(spent))
    if any(group.is_tied for group in groups):
        ties = "; ".join(f"seats {', '.join(g.seats)} tie for places {first}-{last}"
                         for first, last, g in places(groups) if g.is_tied)
        events.append(Event("tie", f"{ties.capitalize()}: they re-bid.", label))
        return replace(state, stage=STAGE_REBID, groups=tuple(g.seats for g in groups),
                       ties=tuple(g.ties for g in groups)), events
    order = order_of(groups)
    events.append(Event("order", f"Turn order: {', '.join(order)}.", label, data={"order": list(order)}))
    return _to_speed(replace(state, order=order, groups=(), ties=())), events


def _speed_move(state: DerbyState, seat: str, order: Speed | SpeedPass) -> tuple[DerbyState, list[Event]]:
    label = f"Round {state.round}"
    if isinstance(order, SpeedPass):
        event = Event("speed", f"Seat {seat} leaves the speed column as it is.", label, seat=seat)
        return replace(state, speakers=state.speakers[1:]), [event]
    column = moved_to(state.column, order.colour, order.row)
    event = Event("speed", f"Seat {seat} moves the {order.colour} racer to row {order.row}: the speed column "
                           f"reads {', '.join(column)}.", label, seat=seat,
                  data={"colour": order.colour, "row": order.row, "column": list(column)})
    return replace(state, column=column, speakers=state.speakers[1:]), [event]


def _race_round(state: DerbyState, rng: GameRng) -> tuple[DerbyState, list[Event]]:
    """Roll once per player in turn order, moving every running racer; the round in which a racer
    finished ends the race with the final order."""
    label = f"Round {state.round}"
    events: list[Event] = []
    progress = dict(zip(COLOURS, state.progress, strict=True))
    finished = list(state.finished)
    rolls = []
    for seat in state.order:
        die = rng.roll(6)
        rolls.append(die)
        progress, roll = roll_racers(state.column, progress, finished, state.laps, die)
        finished.extend(roll.finished)
        moves = ", ".join(f"{colour} +{steps}" for colour, steps in roll.moves)
        notes = [f"{colour} starts lap {lap + 1}" for colour, lap in roll.laps_done]
        notes += [f"{colour} crosses the line and finishes {_ordinal(finished.index(colour) + 1)}"
                  for colour in roll.finished]
        extra = f"; {'; '.join(notes)}" if notes else ""
        events.append(Event("roll", f"Seat {seat} rolls {die}: {moves}{extra}.", label, seat=seat,
                            data={"die": die, "moves": [list(m) for m in roll.moves], "finished": list(roll.finished)}))
    state = replace(state, progress=tuple(progress[c] for c in COLOURS), finished=tuple(finished), rolls=tuple(rolls))
    if not finished:
        return replace(state, round=state.round + 1), events
    ranking = final_order(state.column, progress, finished)
    places_text = ", ".join(f"{_ordinal(p + 1)} {c}" for p, c in enumerate(ranking))
    events.append(Event("final-order", f"The race is over. Final order: {places_text}.", "The end",
                        data={"order": list(ranking)}))
    return replace(state, stage=STAGE_OVER), events


def _ranking(state: DerbyState) -> tuple[str, ...]:
    return final_order(state.column, dict(zip(COLOURS, state.progress, strict=True)), state.finished)


def _ordinal(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n, 'th') }"
