"""The Three Pyramids (Gateway Island, game 17) as a play-by-email game.

Three rounds. Each round every player draws 10 cubes from the bag into a
hidden hand; then, in turn, each plays one or two cubes to his own side of one
of the three pyramids. A player who cannot play passes for the rest of the
round (the service passes him by itself: a pass is public by the rules; a
seat with a single legal play is still asked for it, since playing it for him
would tell the table about his hidden hand). When everybody has passed each
pyramid is scored: 12 points for the most cubes on it (all tied players), one
point a cube for the others. All cubes then go back into the bag.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag, redeal
from pbem.core.game import BaseGame, few_choices, single_orders
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.games.three_pyramids.orders import Play
from pbem.games.three_pyramids.state import (
    COLOURS,
    HAND_SIZE,
    MAJORITY_POINTS,
    PYRAMIDS,
    ROUNDS,
    SIDES_BY_PLAYERS,
    PyramidsState,
    empty_pyramids,
    full_bag,
)

REDEAL_TRIES = 100
"""How often :meth:`ThreePyramids.hidden_variant` deals again to keep the seat to play able to play."""


class ThreePyramids(BaseGame[PyramidsState, Play]):
    """The Three Pyramids game object (stateless; every method is pure)."""

    name = "three-pyramids"
    title = "The Three Pyramids"
    min_players, max_players = 2, 4
    has_chance = True
    has_hidden_information = True
    reveals_seed: ClassVar[bool] = False
    """This game's secrets outlive it: cubes left in the hands at the end of a round go back into the bag
    unseen (rule book), and the seed recomputes every hand. The service keeps this game's seed secret
    after the end too."""
    declared_options = {START: f"{START_DESCRIPTION}; rounds 2 and 3 start with the lowest score"}
    terminal_words = {
        "PYRAMID": "a pyramid (LEFT, CENTER or RIGHT)",
        "COLOUR": "a colour (red, blue, green, yellow, black or white)",
    }

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> PyramidsState:
        """Return the start of round 1: hands drawn, the first player to play.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        seats = self.check_seats(seats)
        first = first_player(seats, self.check_options(options).get(START), rng)
        state = _new_round_state(tuple(seats), 1, tuple(0 for _ in seats), first)
        state, _ = _deal(state, rng)
        return state

    # --- asking for orders ------------------------------------------------

    def phase(self, state: PyramidsState) -> Phase:
        """Return the turn of the seat to play (one seat at a time)."""
        seat = state.seat_to_play
        return Phase("play", (seat,), f"Round {state.round} of {ROUNDS}: seat {seat} to play.")

    def validate(self, state: PyramidsState, seat: str, orders: Sequence[Play]) -> list[OrderProblem]:
        """Return the problems of a submission: one legal PLAY by the seat to play.

        An empty submission is accepted only from a seat that cannot play (a pass).
        """
        if problems := self.turn_problems(state, seat):
            return problems
        if not orders:
            if legal_plays(state, seat):
                return [OrderProblem(None, "a turn is exactly one PLAY order; you may not pass while you can play")]
            return []
        if len(orders) != 1:
            return [OrderProblem(None, "a turn is exactly one order; send one PLAY")]
        problem = play_problem(state, seat, orders[0])
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: PyramidsState, seat: str) -> list[Play]:
        """Return the NMR default: the first legal play (pyramid, then colours alphabetically), or a pass ([])."""
        plays = legal_plays(state, seat)
        return plays[:1]

    def forced_orders(self, state: PyramidsState, seat: str) -> list[Play] | None:
        """Return [] (a pass) for a seat that cannot play, else None: the pass is public by
        the rules, but playing a seat's only legal play for it would tell everyone about
        its hidden hand, so the seat is asked even then."""
        return None if legal_plays(state, seat) else []

    def order_choices(self, state: PyramidsState, seat: str) -> list[list[Play]] | None:
        """Return every legal play of the seat's hand when there are few (late in a round)."""
        return few_choices(single_orders(legal_plays(state, seat)))

    def submission_summary(self, state: PyramidsState, seat: str, orders: Sequence[Play]) -> str:
        """Return what stays in the hand after the play, e.g. "7 cubes stay in your hand"."""
        if len(orders) != 1 or seat not in state.seats:
            return ""
        left = state.hand(seat).size - len(orders[0].colours)
        return f"{left} cube{'' if left == 1 else 's'} will stay in your hand."

    def sample_orders(self, state: PyramidsState, seat: str, rng: GameRng) -> list[Play]:
        """Return a random legal play, or [] (a pass) when there is none."""
        plays = legal_plays(state, seat)
        return [rng.choice(plays)] if plays else []

    # --- resolving ------------------------------------------------------

    def resolve(
        self, state: PyramidsState, orders: Mapping[str, Sequence[Play]], rng: GameRng
    ) -> Resolution[PyramidsState]:
        """Play the cubes (or pass), move to the next player; pass players who cannot
        play; score and start the next round when everybody has passed. An empty entry
        (the seat held with NOORDERS) plays the NMR default.

        Raises GameError when the game is over or the seat to play sent no
        entry, IllegalOrder for an illegal play or a pass while a play exists.
        """
        seat = state.seat_to_play
        given = self.owed_orders(state, orders)[seat]
        label = f"Round {state.round}"
        if given:
            state, event = _apply_play(state, seat, given[0], label)
        else:
            state, event = _pass(state, seat, label)
        state, events = _next_turn(state, rng)
        return Resolution(state, [event, *events])

    def outcome(self, state: PyramidsState) -> Outcome | None:
        """Return the highest score(s) once round 3 is scored, else None."""
        if not state.finished:
            return None
        best = max(state.scores)
        winners = tuple(s for s, v in zip(state.seats, state.scores, strict=True) if v == best)
        if len(winners) == 1:
            reason = f"Seat {winners[0]} has the highest score, {best}."
        else:
            reason = f"Seats {', '.join(winners)} share the highest score, {best}."
        return Outcome(winners, reason)

    def scores(self, state: PyramidsState) -> dict[str, int]:
        """Return each seat's place on the score track."""
        return dict(zip(state.seats, state.scores, strict=True))

    # --- hidden information -------------------------------------------------

    def hidden_variant(self, state: PyramidsState, keep: str | None, rng: GameRng) -> PyramidsState:
        """Return ``state`` with every hand but ``keep``'s dealt again from the cubes
        ``keep`` cannot see (those hands and the bag), each hand its size.

        What the table knows stays true: the seat to play can play (else the
        service would have passed it), so a redeal that leaves it none is drawn
        again (at most ``REDEAL_TRIES`` times, then the hands stay as they are); a
        seat that passed keeps its hand (at most one cube, which its pass showed
        to fit no pyramid then).
        """
        hidden = [i for i, seat in enumerate(state.seats) if seat != keep and not state.passed[i]]
        for _ in range(REDEAL_TRIES):
            bag, *dealt = redeal([state.bag, *(state.hands[i] for i in hidden)], rng)
            hands = list(state.hands)
            for i, hand in zip(hidden, dealt, strict=True):
                hands[i] = hand
            variant = replace(state, hands=tuple(hands), bag=bag)
            if state.finished or legal_plays(variant, variant.seat_to_play):
                return variant
        return state

    # --- showing ----------------------------------------------------------

    def view(self, state: PyramidsState, seat: str | None) -> dict[str, Any]:
        """Return the pyramids, scores, hand sizes and bag count for everyone, plus the
        reader's own hand and possible plays; nobody else's hand contents, never the bag's."""
        reader = seat if seat in state.seats else None
        pyramids = [_pyramid_view(state, name, reader) for name in PYRAMIDS]
        left_texts = [p["sides"]["left"]["text"] for p in pyramids if p["sides"]["left"] is not None]
        players = [
            {
                "seat": s,
                "side": state.side(s),
                "score": state.scores[i],
                "hand_size": state.hands[i].size,
                "passed": state.passed[i],
                "you": s == reader,
                "to_play": i == state.to_play and not state.finished,
            }
            for i, s in enumerate(state.seats)
        ]
        view: dict[str, Any] = {
            "round": state.round,
            "rounds": ROUNDS,
            "over": state.finished,
            "first": state.seats[state.first],
            "to_play": None if state.finished else state.seat_to_play,
            "bag_count": state.bag.size,
            "pyramids": pyramids,
            "left_width": max([len(t) for t in left_texts] + [0]),
            "players": players,
            "hand": None,
            "options": None,
        }
        if reader is not None:
            hand = state.hand(reader)
            view["hand"] = {"size": hand.size, "cubes": hand.as_dict(), "text": hand.describe(empty="no cubes")}
            if not state.finished and not state.passed[state.index(reader)]:
                view["options"] = _options_view(state, reader)
        return view


# --- legality ----------------------------------------------------------------


def _plays_on(state: PyramidsState, hand: Bag, pyramid: str) -> list[Play]:
    """Return the legal plays of ``hand`` on one pyramid, colours alphabetically."""
    colours = hand.colours()  # sorted alphabetically
    if state.is_empty(pyramid):
        return [Play(pyramid, (c,)) for c in colours]
    on = state.colours_on(pyramid)
    singles = [(c,) for c in colours if c in on]
    free = [c for c in colours if c not in on]
    pairs = [(a, b) for i, a in enumerate(free) for b in free[i:] if a != b or hand.count(a) >= 2]
    return [Play(pyramid, cs) for cs in sorted(singles + pairs)]


def legal_plays(state: PyramidsState, seat: str) -> list[Play]:
    """Return every legal play of ``seat`` now, in the NMR order: pyramid LEFT,
    CENTER, RIGHT, then colours alphabetically (a two-cube play's colours sorted)."""
    hand = state.hand(seat)
    return [play for pyramid in PYRAMIDS for play in _plays_on(state, hand, pyramid)]


def play_problem(state: PyramidsState, seat: str, play: Play) -> str | None:
    """Return why ``seat`` may not make ``play`` now, or None when it is legal."""
    if not isinstance(play, Play) or play.pyramid not in PYRAMIDS or not 1 <= len(play.colours) <= 2:
        return f"{play}: not a play; write e.g. PLAY LEFT red"
    hand = state.hand(seat)
    for colour in play.colours:
        need = play.colours.count(colour)
        if hand.count(colour) < need:
            have = "no" if hand.count(colour) == 0 else "only one"
            return f"{play}: you have {have} {colour} cube in your hand"
    if state.is_empty(play.pyramid):
        if len(play.colours) == 2:
            return f"{play}: the {play.pyramid} pyramid is empty, so you must play exactly one cube to it"
        return None
    on = state.colours_on(play.pyramid)
    if len(play.colours) == 1:
        if play.colours[0] not in on:
            return (
                f"{play}: no {play.colours[0]} cube is on the {play.pyramid} pyramid; a single cube must match "
                "a colour already on it (two cubes must both be colours not on it)"
            )
        return None
    clash = [c for c in dict.fromkeys(play.colours) if c in on]
    if clash:
        return (
            f"{play}: {' and '.join(clash)} {'is' if len(clash) == 1 else 'are'} already on the {play.pyramid} "
            "pyramid; two cubes must both be colours not on it (one cube must match)"
        )
    return None


# --- turns and rounds ------------------------------------------------------------


def _apply_play(state: PyramidsState, seat: str, play: Play, label: str) -> tuple[PyramidsState, Event]:
    i = state.index(seat)
    p = PYRAMIDS.index(play.pyramid)
    sides = list(state.pyramids[p])
    sides[i] = sides[i] + play.colours
    pyramids = list(state.pyramids)
    pyramids[p] = tuple(sides)
    hands = list(state.hands)
    hands[i] = hands[i].remove(play.colours)
    state = replace(state, pyramids=tuple(pyramids), hands=tuple(hands), turn=state.turn + 1)
    cubes = " and ".join(play.colours)
    count = "a cube" if len(play.colours) == 1 else "two cubes"
    text = f"Seat {seat} plays {count} to the {play.pyramid} pyramid: {cubes}."
    return state, Event(
        "play", text, label, seat=seat, data={"pyramid": play.pyramid, "colours": list(play.colours)}
    )


def _pass(state: PyramidsState, seat: str, label: str) -> tuple[PyramidsState, Event]:
    i = state.index(seat)
    passed = tuple(p or j == i for j, p in enumerate(state.passed))
    left = state.hands[i].size
    text = (
        f"Seat {seat} cannot play and passes for the rest of the round "
        f"({left} cube{'' if left == 1 else 's'} left in hand)."
    )
    return replace(state, passed=passed), Event("pass", text, label, seat=seat, data={"hand_size": left})


def _next_turn(state: PyramidsState, rng: GameRng) -> tuple[PyramidsState, list[Event]]:
    """Give the turn to the next seat that can play, passing those who cannot; end the round
    when everybody has passed."""
    events: list[Event] = []
    n = len(state.seats)
    label = f"Round {state.round}"
    for step in range(1, n + 1):
        candidate = (state.to_play + step) % n
        if state.passed[candidate]:
            continue
        seat = state.seats[candidate]
        if legal_plays(state, seat):
            return replace(state, to_play=candidate), events
        state, event = _pass(state, seat, label)
        events.append(event)
    state, end_events = _end_round(state, rng)
    return state, events + end_events


def _end_round(state: PyramidsState, rng: GameRng) -> tuple[PyramidsState, list[Event]]:
    """Score the three pyramids; end the game after the last round, else start the next."""
    label = f"Round {state.round}"
    events: list[Event] = []
    gained = [0 for _ in state.seats]
    for name in PYRAMIDS:
        points, event = _score_pyramid(state, name, label)
        gained = [g + p for g, p in zip(gained, points, strict=True)]
        events.append(event)
    scores = tuple(s + g for s, g in zip(state.scores, gained, strict=True))
    listed = ", ".join(
        f"seat {s} +{g} (total {t})" for s, g, t in zip(state.seats, gained, scores, strict=True)
    )
    events.append(
        Event(
            "round-score",
            f"Round {state.round} is over: {listed}.",
            label,
            data={"gained": _by_seat(state, gained), "scores": _by_seat(state, scores)},
        )
    )
    state = replace(state, scores=scores)
    if state.round >= ROUNDS:
        return replace(state, finished=True), events
    first, first_event = _next_first(state, rng)
    state = _new_round_state(state.seats, state.round + 1, scores, first)
    events.append(first_event)
    state, deal_events = _deal(state, rng)
    return state, events + deal_events


def _score_pyramid(state: PyramidsState, name: str, label: str) -> tuple[list[int], Event]:
    counts = [len(side) for side in state.pyramid(name)]
    most = max(counts)
    if most == 0:
        text = f"Nobody played on the {name} pyramid: it scores nothing."
        return [0 for _ in counts], Event("pyramid-score", text, label, data={"pyramid": name, "points": {}})
    points = [MAJORITY_POINTS if c == most else c for c in counts]
    leaders = [s for s, c in zip(state.seats, counts, strict=True) if c == most]
    head = (
        f"seat {leaders[0]} has the most cubes ({most})"
        if len(leaders) == 1
        else f"seats {', '.join(leaders)} tie for the most cubes ({most})"
    )
    others = [
        f"seat {s} {p} point{'' if p == 1 else 's'} ({'no' if c == 0 else c} cube{'' if c == 1 else 's'})"
        for s, c, p in zip(state.seats, counts, points, strict=True)
        if c != most
    ]
    text = f"{name} pyramid: {head} and score{'s' if len(leaders) == 1 else ''} {MAJORITY_POINTS}"
    text += f"; {', '.join(others)}." if others else "."
    return points, Event(
        "pyramid-score",
        text,
        label,
        data={"pyramid": name, "cubes": _by_seat(state, counts), "points": _by_seat(state, points)},
    )


def _by_seat(state: PyramidsState, values: Sequence[int]) -> dict[str, int]:
    return dict(zip(state.seats, values, strict=True))


def _next_first(state: PyramidsState, rng: GameRng) -> tuple[int, Event]:
    """Return the index of the lowest score (a tie drawn at random) and the event saying so."""
    low = min(state.scores)
    tied = [i for i, s in enumerate(state.scores) if s == low]
    first = tied[0] if len(tied) == 1 else rng.choice(tied)
    seat = state.seats[first]
    if len(tied) == 1:
        text = f"Round {state.round + 1}: seat {seat} has the lowest score ({low}) and plays first."
    else:
        names = ", ".join(state.seats[i] for i in tied)
        text = (
            f"Round {state.round + 1}: seats {names} tie for the lowest score ({low}); "
            f"the draw picks seat {seat} to play first."
        )
    return first, Event("first-player", text, f"Round {state.round + 1}", seat=seat, data={"tied": len(tied) > 1})


def _new_round_state(seats: tuple[str, ...], number: int, scores: tuple[int, ...], first: int) -> PyramidsState:
    """Return an empty table for round ``number``: every cube in the bag, no hands yet."""
    return PyramidsState(
        seats=seats,
        round=number,
        scores=scores,
        bag=full_bag(),
        hands=tuple(Bag() for _ in seats),
        pyramids=empty_pyramids(len(seats)),
        first=first,
        to_play=first,
        passed=tuple(False for _ in seats),
    )


def _deal(state: PyramidsState, rng: GameRng) -> tuple[PyramidsState, list[Event]]:
    """Draw a hand of 10 for every seat, starting with the round's first player."""
    label = f"Round {state.round}"
    n = len(state.seats)
    hands = list(state.hands)
    bag = state.bag
    events = [Event("deal", f"Every player draws {HAND_SIZE} cubes from the bag.", label)]
    for step in range(n):
        i = (state.first + step) % n
        drawn, bag = bag.draw(HAND_SIZE, rng)
        hands[i] = hands[i].add(drawn)
        seat = state.seats[i]
        text = f"You drew {Bag.of(drawn).describe()}."
        events.append(Event("draw", text, label, seat=seat, data={"cubes": list(drawn)}, seats=(seat,)))
    return replace(state, bag=bag, hands=tuple(hands)), events


# --- view helpers ------------------------------------------------------------------


def _side_text(state: PyramidsState, i: int, cubes: tuple[str, ...], reader: str | None) -> str:
    seat = state.seats[i]
    you = " (you)" if seat == reader else ""
    return f"seat {seat}{you}: {' '.join(cubes) if cubes else '-'}"


def _pyramid_view(state: PyramidsState, name: str, reader: str | None) -> dict[str, Any]:
    sides: dict[str, Any] = {"bottom": None, "left": None, "top": None, "right": None}
    for i, cubes in enumerate(state.pyramid(name)):
        side = SIDES_BY_PLAYERS[len(state.seats)][i]
        sides[side] = {
            "seat": state.seats[i],
            "cubes": list(cubes),
            "count": len(cubes),
            "you": state.seats[i] == reader,
            "text": _side_text(state, i, cubes, reader),
        }
    colours = [c for c in COLOURS if c in state.colours_on(name)]
    return {
        "name": name,
        "empty": state.is_empty(name),
        "colours": colours,
        "cube_count": sum(len(side) for side in state.pyramid(name)),
        "sides": sides,
    }


def _options_view(state: PyramidsState, seat: str) -> list[dict[str, Any]]:
    """Return, per pyramid, what the reader's hand could play there now."""
    hand = state.hand(seat)
    result = []
    for name in PYRAMIDS:
        if state.is_empty(name):
            singles, pair_colours, empty = list(hand.colours()), [], True
        else:
            on = state.colours_on(name)
            singles = [c for c in hand.colours() if c in on]
            pair_colours = [c for c in hand.colours() if c not in on]
            empty = False
        pairs_possible = any(hand.count(c) >= 2 for c in pair_colours) or len(pair_colours) >= 2
        result.append(
            {
                "pyramid": name,
                "empty": empty,
                "singles": singles,
                "pair_colours": pair_colours if pairs_possible else [],
            }
        )
    return result
