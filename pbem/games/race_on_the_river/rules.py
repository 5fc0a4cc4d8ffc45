"""Race on the River (Gateway Island, game 1) as a play-by-email game.

Every round the service rolls the die. On a 1 every player takes back one
discarded stamina cube and the round ends at once (the service rolls again in
the same resolution, no orders are asked). On 2..6 every player sends a sealed
``BID n``; the highest bidders move their jockey the rolled number of spaces,
the other players who bid at least one cube move one space, and every bid
cube is discarded. The first jockey over the finish line wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.games.race_on_the_river.orders import Bid
from pbem.games.race_on_the_river.state import RIVER_SPACES, STAMINA, RaceState

_OPTION_LIMITS: Mapping[str, tuple[int, int, int]] = {
    # name: (default, lowest, highest)
    "spaces": (RIVER_SPACES, 1, 40),
    "stamina": (STAMINA, 1, 30),
}


class RaceOnTheRiver(BaseGame[RaceState, Bid]):
    """The Race on the River game object (stateless; every method is pure)."""

    name = "race-on-the-river"
    title = "Race on the River"
    min_players, max_players = 2, 6
    turn_shape = TurnShape.SIMULTANEOUS
    has_chance = True
    declared_options = {
        "spaces": "river spaces between start and finish line, {1} to {2}; default {0}".format(*_OPTION_LIMITS["spaces"]),
        "stamina": "stamina cubes per player, {1} to {2}; default {0}".format(*_OPTION_LIMITS["stamina"]),
    }
    terminal_words = {"CUBES": "a number of stamina cubes such as 3"}
    rules_version = 2  # 2: a roll of 1 no longer takes a round number of its own: round N is turn N

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> RaceState:
        """Return the start: jockeys on 0, full hands, the first round's die rolled.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        seats = self.check_seats(seats)
        values = _parse_options(self.check_options(options))
        state = RaceState(
            seats=tuple(seats),
            positions=tuple(0 for _ in seats),
            hands=tuple(values["stamina"] for _ in seats),
            round=0,
            roll=0,
            spaces=values["spaces"],
            stamina=values["stamina"],
        )
        state, _ = _next_round(state, rng)
        return state

    # --- asking for orders ------------------------------------------------

    def phase(self, state: RaceState) -> Phase:
        """Return the bidding phase: every seat owes one sealed bid."""
        return Phase("bid", state.seats, _prompt(state))

    def validate(self, state: RaceState, seat: str, orders: Sequence[Bid]) -> list[OrderProblem]:
        """Return the problems of a seat's submission: exactly one BID within its hand."""
        if problems := self.turn_problems(state, seat):
            return problems
        if len(orders) != 1:
            return [OrderProblem(None, "a round is exactly one order: send one BID, e.g. BID 2")]
        problem = _bid_problem(state, seat, orders[0])
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: RaceState, seat: str) -> list[Bid]:
        """Return the NMR default: BID 0."""
        return [Bid(0)]

    def forced_orders(self, state: RaceState, seat: str) -> list[Bid] | None:
        """Return [BID 0] for a seat with no cube in hand (its only bid), else None."""
        return [Bid(0)] if state.hand(seat) == 0 else None

    def order_choices(self, state: RaceState, seat: str) -> list[list[Bid]] | None:
        """Return every bid the seat can pay, BID 0 to the cubes in its hand (at most 10)."""
        return few_choices(single_orders(Bid(cubes) for cubes in range(state.hand(seat) + 1)))

    def submission_summary(self, state: RaceState, seat: str, orders: Sequence[Bid]) -> str:
        """Return e.g. "You bid 3 of the 7 stamina cubes in your hand." for a valid bid."""
        if len(orders) != 1 or seat not in state.seats:
            return ""
        return f"You bid {orders[0].cubes} of the {state.hand(seat)} stamina cubes in your hand."

    def sample_orders(self, state: RaceState, seat: str, rng: GameRng) -> list[Bid]:
        """Return a random legal bid, 0..cubes in hand."""
        return [Bid(rng.randint(0, state.hand(seat)))]

    # --- resolving ------------------------------------------------------

    def resolve(self, state: RaceState, orders: Mapping[str, Sequence[Bid]], rng: GameRng) -> Resolution[RaceState]:
        """Reveal the bids, move the jockeys, discard, decide the winner or roll the next round.
        An empty entry (the seat held with NOORDERS) bids the NMR default.

        Raises GameError when the race is over or a seat's orders are
        missing, and IllegalOrder for a bid the seat cannot pay.
        """
        given = self.owed_orders(state, orders)
        bids = tuple(given[seat][0].cubes for seat in state.seats)
        label = f"Round {state.round}"
        events = [_bids_event(state, bids, label)]
        state, crossers, move_events = _advance(state, bids, label)
        events += move_events
        state = replace(
            state,
            hands=tuple(h - b for h, b in zip(state.hands, bids, strict=True)),
            last_bids=bids,
        )
        winners, reason = _winners(state, bids, crossers)
        if winners:
            state = replace(state, winners=winners, end_reason=reason)
            events.append(Event("win", reason, label, data={"winners": list(winners)}))
            return Resolution(state, events)
        state, roll_events = _next_round(state, rng)
        return Resolution(state, events + roll_events)

    def outcome(self, state: RaceState) -> Outcome | None:
        """Return the winners once a jockey crossed (or all stamina is spent), else None."""
        if not state.is_over:
            return None
        return Outcome(state.winners, state.end_reason)

    def standing_outcome(self, state: RaceState) -> Outcome:
        """Return the winners as the race stands: the most advanced jockey, ties broken by the highest bid
        of the last round (as when the stamina runs out)."""
        if state.is_over:
            return Outcome(state.winners, state.end_reason)
        furthest = max(state.positions)
        leaders = [s for s in state.seats if state.position(s) == furthest]
        winners = _best_bidders(state, leaders, state.last_bids or tuple(0 for _ in state.seats))
        return Outcome(winners, _win_text(winners, "the most advanced jockey wins", len(leaders) > 1))

    def scores(self, state: RaceState) -> dict[str, int]:
        """Return each seat's jockey position (spaces advanced)."""
        return dict(zip(state.seats, state.positions, strict=True))

    # --- showing ----------------------------------------------------------

    def view(self, state: RaceState, seat: str | None) -> dict[str, Any]:
        """Return the river, the die and every player's cubes (hands are public, bids never
        appear before they are revealed); ``you`` holds the reader's own cubes."""
        jockeys = [
            {
                "seat": s,
                "position": state.positions[i],
                "crossed": state.positions[i] >= state.finish,
                "in_hand": state.hands[i],
                "discarded": state.stamina - state.hands[i],
                "last_bid": state.last_bids[i] if state.last_bids is not None else None,
                "you": s == seat,
            }
            for i, s in enumerate(state.seats)
        ]
        you = None
        if seat in state.seats:
            you = {"seat": seat, "in_hand": state.hand(seat), "discarded": state.discarded(seat)}
        return {
            "round": state.round,
            "roll": state.roll,
            "ones_before": state.ones_before,
            "spaces": state.spaces,
            "finish": state.finish,
            "stamina": state.stamina,
            "river": _river(state),
            "jockeys": jockeys,
            "you": you,
            "last_bids": dict(zip(state.seats, state.last_bids, strict=True)) if state.last_bids is not None else None,
            "over": state.is_over,
            "winners": list(state.winners),
        }


# --- helpers ---------------------------------------------------------------


def _parse_options(options: Mapping[str, str]) -> dict[str, int]:
    values: dict[str, int] = {}
    for name, (default, low, high) in _OPTION_LIMITS.items():
        raw = options.get(name)
        if raw is None:
            values[name] = default
            continue
        text = str(raw).strip()
        if not text.isdigit() or not low <= int(text) <= high:
            raise GameError(f"option {name}={raw}: give a whole number from {low} to {high}")
        values[name] = int(text)
    return values


def _prompt(state: RaceState) -> str:
    ones = ""
    if state.ones_before == 1:
        ones = " (after a 1, which gave every player back one discarded cube)"
    elif state.ones_before > 1:
        ones = f" (after {state.ones_before} rolls of 1, each giving every player back one discarded cube)"
    return (
        f"Round {state.round}: the die shows {state.roll}{ones}. "
        "Send BID n, n from 0 to the stamina cubes in your hand."
    )


def _bid_problem(state: RaceState, seat: str, order: Bid) -> str | None:
    if not isinstance(order, Bid):
        return f"{order}: send a BID"
    hand = state.hand(seat)
    if order.cubes > hand:
        cubes = "cube" if hand == 1 else "cubes"
        return f"{order}: you have only {hand} stamina {cubes} in hand"
    return None


def _bids_event(state: RaceState, bids: tuple[int, ...], label: str) -> Event:
    listed = ", ".join(f"seat {s} bid {b}" for s, b in zip(state.seats, bids, strict=True))
    return Event(
        "bids",
        f"Bids revealed (the die shows {state.roll}): {listed}.",
        label,
        data={"roll": state.roll, "bids": dict(zip(state.seats, bids, strict=True))},
    )


def _advance(state: RaceState, bids: tuple[int, ...], label: str) -> tuple[RaceState, list[list[str]], list[Event]]:
    """Move the highest bidders by the roll, then the other bidders by one.

    Returns the new state, the seats that crossed in each of the two moves
    (in that order) and the events.
    """
    top = max(bids)
    if top == 0:
        return state, [[], []], [Event("no-move", "Nobody bid any stamina: no jockey moves.", label)]
    positions = list(state.positions)
    events: list[Event] = []
    crossers: list[list[str]] = [[], []]
    steps = [(0, state.roll, lambda b: b == top), (1, 1, lambda b: 0 < b < top)]
    for group, distance, chosen in steps:
        for i, seat in enumerate(state.seats):
            if not chosen(bids[i]):
                continue
            start, positions[i] = positions[i], positions[i] + distance
            crossed = positions[i] >= state.finish
            if crossed:
                crossers[group].append(seat)
            events.append(_move_event(state, seat, bids[i], start, positions[i], distance, group, crossed, label))
    return replace(state, positions=tuple(positions)), crossers, events


def _move_event(
    state: RaceState, seat: str, bid: int, start: int, end: int, distance: int, group: int, crossed: bool, label: str
) -> Event:
    who = f"bid the most, {bid}," if group == 0 else f"bid {bid}, less than the most,"
    spaces = "space" if distance == 1 else "spaces"
    where = "over the finish line" if crossed else f"to space {end}"
    text = f"Seat {seat} {who} and moves {distance} {spaces}, from space {start} {where}."
    return Event(
        "move",
        text,
        label,
        seat=seat,
        data={"from": start, "to": end, "distance": distance, "bid": bid, "crossed": crossed},
    )


def _best_bidders(state: RaceState, candidates: Sequence[str], bids: tuple[int, ...]) -> tuple[str, ...]:
    best = max(bids[state.index(s)] for s in candidates)
    return tuple(s for s in candidates if bids[state.index(s)] == best)


def _winners(state: RaceState, bids: tuple[int, ...], crossers: list[list[str]]) -> tuple[tuple[str, ...], str]:
    """Return the winners and the reason, or ((), "") while the race goes on."""
    for group in crossers:
        if group:
            winners = _best_bidders(state, group, bids)
            return winners, _win_text(winners, "crossed the finish line first", len(group) > 1)
    if any(state.hands):
        return (), ""
    furthest = max(state.positions)
    leaders = [s for s in state.seats if state.position(s) == furthest]
    winners = _best_bidders(state, leaders, bids)
    reason = "every stamina cube is discarded; the most advanced jockey wins"
    return winners, _win_text(winners, reason, len(leaders) > 1)


def _win_text(winners: tuple[str, ...], how: str, tied: bool) -> str:
    tie = " (tie broken by the highest bid of the last round)" if tied and len(winners) == 1 else ""
    if len(winners) == 1:
        return f"Seat {winners[0]} wins: {how}{tie}."
    names = ", ".join(winners[:-1]) + " and " + winners[-1]
    return f"Seats {names} share the victory: {how}, with equal bids."


def _next_round(state: RaceState, rng: GameRng) -> tuple[RaceState, list[Event]]:
    """Start the next round: roll until 2..6. A 1 gives every player back one discarded cube and ends the
    rule book's round without bids; the die is rolled again in the same numbered round, so that round N
    is always the round of turn N's bids."""
    state = replace(state, round=state.round + 1)
    label = f"Round {state.round}"
    events: list[Event] = []
    ones = 0
    while True:
        state = replace(state, roll=rng.roll(6))
        if state.roll != 1:
            text = f"The die shows {state.roll}: send your bids."
            events.append(Event("roll", text, label, data={"roll": state.roll}))
            return replace(state, ones_before=ones), events
        ones += 1
        takers = [s for s, h in zip(state.seats, state.hands, strict=True) if h < state.stamina]
        state = replace(state, hands=tuple(min(h + 1, state.stamina) for h in state.hands))
        took = _took_text(takers)
        events.append(
            Event(
                "roll-one",
                f"The die shows 1: every player takes back one discarded stamina cube ({took}); nobody bids "
                "on a 1, the die is rolled again.",
                label,
                data={"roll": 1, "recovered": takers},
            )
        )


def _took_text(takers: Sequence[str]) -> str:
    if not takers:
        return "nobody has a discarded cube to take back"
    if len(takers) == 1:
        return f"seat {takers[0]} takes one back"
    return f"seats {', '.join(takers)} take one back each"


def _river(state: RaceState) -> list[dict[str, Any]]:
    """Return the river's cells for drawing: spaces 0..spaces, then the far side of the finish."""
    cells = []
    for space in range(state.finish + 1):
        if space < state.finish:
            here = [s for s in state.seats if state.position(s) == space]
            label = str(space)
        else:
            here = [s for s in state.seats if state.position(s) >= state.finish]
            label = f"{state.finish}+"
        text = ",".join(here)
        width = max(3, len(text), len(label))
        cells.append({"space": space, "label": label, "seats": here, "text": text, "width": width})
    return cells
