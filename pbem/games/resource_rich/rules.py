"""Resource Rich (Gateway Island, game 9) as a play-by-email game.

The 40 resource cubes (blue pearls, yellow shells, green gems, red volcanic
rock) are dealt into hidden hands. Each round the service rolls: on 1-2 every
player keeps 1 cube of his hand, on 3 he keeps 2, on 4-5 he keeps 2 and gives
1 to his neighbour against the direction of play (who must keep it); then
every hand passes on in the direction of play. A 6 covers the topmost
uncovered direction space instead (a third 6 in a row is rolled again). The
game ends when the third direction space is covered, or when a roll asks for
more cubes than the hands hold; the kept piles are then revealed and scored
with side A's or side B's table.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag, redeal
from pbem.core.game import BaseGame, TurnShape, few_choices
from pbem.core.options import choice_list_option, choice_option

from .orders import Give, Keep, RichOrder
from .scoring import score_piles, table_lines
from .state import (
    COLOURS,
    DEAL,
    DEFAULT_DIRECTIONS,
    DIRECTIONS,
    RESOURCES,
    RichState,
    dump_state,
    full_bag,
    gives,
    load_state,
    ordered,
    to_keep,
)

SIDE = "side"
DIRECTIONS_OPTION = "directions"
_DIRECTION_WORDS = {"cw": "clockwise", "ccw": "counter-clockwise"}


class ResourceRich(BaseGame[RichState, RichOrder]):
    """The Resource Rich game object (stateless; every method is pure)."""

    name: ClassVar[str] = "resource-rich"
    title: ClassVar[str] = "Resource Rich"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    turn_shape: ClassVar[TurnShape] = TurnShape.SIMULTANEOUS
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    reveals_seed: ClassVar[bool] = False
    """This game's secrets outlive it: the hands, what each player passed, and the hands left when the
    game ends are never shown (rule book: they are discarded unseen), and the seed recomputes every deal.
    The service keeps this game's seed secret after the end too."""
    declared_options: ClassVar[Mapping[str, str]] = {
        SIDE: "the scoring side of the island card: a (the default) or b",
        DIRECTIONS_OPTION: "the three direction spaces from top to bottom, each cw or ccw (default cw,ccw,cw)",
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "COLOUR": "a colour (blue, yellow, green or red) or resource (pearl, shell, gem, rock)"}
    transformer_class: ClassVar[str] = f"{__package__}.grammar:RichTransformer"

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> RichState:
        """Return the start: the hands dealt (20, 13 or 10 each; with 3 players the 40th cube is
        revealed and unused), then the first die rolled (sixes resolved at once).

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        side = choice_option(checked, SIDE, ("a", "b"), "a")
        directions = choice_list_option(checked, DIRECTIONS_OPTION, DIRECTIONS, 3, DEFAULT_DIRECTIONS)
        bag = full_bag()
        hands = []
        with rng.sealed():  # the deal is every hand's secret: its draws stay out of the reports
            for _ in seats:
                drawn, bag = bag.draw(DEAL[len(seats)], rng)
                hands.append(Bag.of(drawn))
        state = RichState(seats=tuple(seats), side=side, directions=directions, hands=tuple(hands),
                          kept=tuple(Bag() for _ in seats), unused=bag.cubes())
        state, _ = _roll(state, rng)
        return state

    # --- asking for orders ------------------------------------------------

    def phase(self, state: RichState) -> Phase:
        """Return the draft: every seat owes its sealed KEEP (and GIVE on a 4 or 5) at once."""
        keep = to_keep(state.roll)
        what = f"keep {keep} cube{'s' if keep > 1 else ''}"
        if gives(state.roll):
            what += ", give 1 to your neighbour against the direction of play (KEEP c c, then GIVE c)"
        else:
            what += f" (KEEP {' '.join(['c'] * keep)})"
        passed = state.hand_size - keep - gives(state.roll)
        return Phase("draft", state.seats,
                     f"Round {state.round}: the die shows {state.roll}: {what}; the other {passed} cube"
                     f"{'' if passed == 1 else 's'} pass {_DIRECTION_WORDS[state.direction]}.")

    def validate(self, state: RichState, seat: str, orders: Sequence[RichOrder]) -> list[OrderProblem]:
        """Return the problems of a submission: one KEEP of as many cubes as the die says and, on a
        4 or 5, one GIVE, all from the seat's hand."""
        if problems := self.turn_problems(state, seat):
            return problems
        return _draft_problems(state, seat, orders)

    def default_orders(self, state: RichState, seat: str) -> list[RichOrder]:
        """Return the NMR default (CLARIFICATIONS): keep, then give, the first cubes of the hand in
        the colour order blue, yellow, green, red (the result stays secret)."""
        cubes = ordered(state.hand(seat))
        keep = to_keep(state.roll)
        orders: list[RichOrder] = [Keep(cubes[:keep])]
        if gives(state.roll):
            orders.append(Give(cubes[keep]))
        return orders

    def forced_orders(self, state: RichState, seat: str) -> list[RichOrder] | None:
        """Return KEEP of the whole hand when the hand holds exactly the cubes to keep and nothing is
        given: the hand size is public, so this tells nothing. A hand of one colour is never played
        for its holder: that would show what it holds."""
        if gives(state.roll) or state.hand(seat).size != to_keep(state.roll):
            return None
        return [Keep(ordered(state.hand(seat)))]

    def order_choices(self, state: RichState, seat: str) -> list[list[RichOrder]] | None:
        """Return every distinct draft of the seat's hand when there are few: each set of colours to keep
        and, on a 4 or 5, each colour of the rest to give."""
        return few_choices(_drafts(ordered(state.hand(seat)), to_keep(state.roll), gives(state.roll)))

    def submission_summary(self, state: RichState, seat: str, orders: Sequence[RichOrder]) -> str:
        """Return where the cubes go, e.g. "You keep 2 cubes, give 1 to seat 3 and pass 4 to seat 2."."""
        if seat not in state.seats:
            return ""
        left = state.hand_size - sum(len(o.colours) if isinstance(o, Keep) else 1 for o in orders)
        give = f", give 1 to seat {state.gives_to(seat)}" if gives(state.roll) else ""
        return f"You keep {to_keep(state.roll)}{give} and pass {left} to seat {state.passes_to(seat)}."

    def sample_orders(self, state: RichState, seat: str, rng: GameRng) -> list[RichOrder]:
        """Return a random legal draft: random cubes kept, a random one of the rest given."""
        cubes = list(state.hand(seat).cubes())
        rng.shuffle(cubes)
        keep = to_keep(state.roll)
        orders: list[RichOrder] = [Keep(tuple(cubes[:keep]))]
        if gives(state.roll):
            orders.append(Give(cubes[keep]))
        return orders

    # --- resolving ------------------------------------------------------

    def resolve(self, state: RichState, orders: Mapping[str, Sequence[RichOrder]],
                rng: GameRng) -> Resolution[RichState]:
        """Keep, give and pass for every seat at once; then roll for the next round (sixes cover
        direction spaces) or end the game and reveal the kept piles.

        Raises GameError when the game is over or a seat sent no entry, IllegalOrder for a draft
        the rules refuse.
        """
        label = f"Round {state.round}"
        keeps: dict[str, Bag] = {}
        given: dict[str, str] = {}
        for seat, submission in self.owed_orders(state, orders).items():
            for order in submission:
                if isinstance(order, Keep):
                    keeps[seat] = Bag.of(order.colours)
                else:
                    given[seat] = order.colour
        state, events = _draft(state, keeps, given, label)
        state, roll_events = _roll(state, rng)
        return Resolution(state, events + roll_events)

    def outcome(self, state: RichState) -> Outcome | None:
        """Return the highest total once the game is over (a tie shares the victory)."""
        if not state.finished:
            return None
        totals = self.scores(state)
        best = max(totals.values())
        winners = tuple(s for s in state.seats if totals[s] == best)
        who = f"Seat {winners[0]} scores" if len(winners) == 1 else f"Seats {', '.join(winners)} share"
        return Outcome(winners, f"{state.end_reason} {who} the most points, {best}.")

    def scores(self, state: RichState) -> dict[str, int]:
        """Return each seat's points once the piles are revealed at the end; 0 for everyone before,
        since a score would tell what a pile holds."""
        if not state.finished:
            return {seat: 0 for seat in state.seats}
        return {s: p["total"] for s, p in zip(state.seats, score_piles(state.side, state.kept), strict=True)}

    # --- hidden information -------------------------------------------------

    def hidden_variant(self, state: RichState, keep: str | None, rng: GameRng) -> RichState:
        """Return ``state`` with every hand and kept pile but ``keep``'s redealt at random from the
        cubes they hold together, each as large as before (while the game runs; at the end the
        piles are public and the hands discarded)."""
        if state.finished:
            return state
        others = [i for i, s in enumerate(state.seats) if s != keep]
        dealt = redeal([state.hands[i] for i in others] + [state.kept[i] for i in others], rng)
        hands, kept = list(state.hands), list(state.kept)
        for n, i in enumerate(others):
            hands[i], kept[i] = dealt[n], dealt[len(others) + n]
        return replace(state, hands=tuple(hands), kept=tuple(kept))

    # --- showing ----------------------------------------------------------

    def view(self, state: RichState, seat: str | None) -> dict[str, Any]:
        """Return the die, the direction spaces, every hand size and kept-pile size for everyone;
        a seat's own hand and pile for that seat; every pile and its points once the game is over
        (the hands are then discarded unseen)."""
        reader = seat if seat in state.seats else None
        revealed = state.finished
        points = score_piles(state.side, state.kept) if revealed else None
        players = []
        for i, s in enumerate(state.seats):
            pile = state.kept[i] if revealed or s == reader else None
            players.append({
                "seat": s,
                "you": s == reader,
                "hand_size": state.hands[i].size,
                "kept_size": state.kept[i].size,
                "kept": _cubes_view(pile) if pile is not None else None,
                "points": dict(points[i]) if points is not None else None,
                "passes_to": state.passes_to(s),
                "gives_to": state.gives_to(s),
            })
        you = None
        if reader is not None:
            you = {"seat": reader, "hand": _cubes_view(state.hand(reader)), "kept": _cubes_view(state.pile(reader)),
                   "passes_to": state.passes_to(reader), "gives_to": state.gives_to(reader)}
        return {
            "round": state.round,
            "over": state.finished,
            "end_reason": state.end_reason or None,
            "roll": None if state.finished else state.roll,
            "keep": None if state.finished else to_keep(state.roll),
            "give": False if state.finished else gives(state.roll),
            "side": state.side,
            "table": [{"colour": c, "text": t} for c, t in table_lines(state.side).items()],
            "directions": [{"direction": d, "words": _DIRECTION_WORDS[d], "covered": n < state.discs}
                           for n, d in enumerate(state.directions)],
            "direction": _DIRECTION_WORDS[state.direction],
            "discs": state.discs,
            "sixes": state.sixes,
            "hand_size": state.hand_size,
            "unused": list(state.unused),
            "players": players,
            "you": you,
        }

    def dump(self, state: RichState) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> RichState:
        """Rebuild a state from :meth:`dump` output."""
        return load_state(data)


# --- the draft ---------------------------------------------------------------------


def _draft_problems(state: RichState, seat: str, orders: Sequence[RichOrder]) -> list[OrderProblem]:
    """Return the problems of ``seat``'s draft; a problem with index None when what is left of it
    is no complete draft (then nothing is stored)."""
    keep, give = to_keep(state.roll), gives(state.roll)
    example = "KEEP blue green, then GIVE red" if give else f"KEEP {' '.join(COLOURS[:keep])}"
    complete = f"the die shows {state.roll}: send one KEEP of {keep} cube{'s' if keep > 1 else ''}" + (
        " and one GIVE of 1 cube" if give else "") + f", e.g. {example}"
    keeps = [i for i, o in enumerate(orders) if isinstance(o, Keep)]
    giving = [i for i, o in enumerate(orders) if isinstance(o, Give)]
    if len(keeps) > 1 or len(giving) > 1:
        return [OrderProblem(None, f"one KEEP line with every cube you keep{' and one GIVE line' if give else ''}: "
                                   f"{complete}; nothing is stored")]
    problems: list[OrderProblem] = []
    hand = state.hand(seat)
    kept = Bag()
    for i in keeps:
        order = orders[i]
        assert isinstance(order, Keep)
        if len(order.colours) != keep:
            problems.append(OrderProblem(i, f"{order}: the die shows {state.roll}, so keep exactly {keep} "
                                            f"cube{'s' if keep > 1 else ''}"))
        elif not hand.contains(order.colours):
            problems.append(OrderProblem(i, f"{order}: your hand holds only {describe(hand)}"))
        else:
            kept = Bag.of(order.colours)
    for i in giving:
        order = orders[i]
        assert isinstance(order, Give)
        if not give:
            problems.append(OrderProblem(i, f"{order}: the die shows {state.roll}; you give a cube only on a 4 or 5"))
        elif hand.remove(kept).count(order.colour) == 0:
            problems.append(OrderProblem(i, f"{order}: no {order.colour} cube is left in your hand after the cubes "
                                            "you keep"))
    standing = set(range(len(orders))) - {p.index for p in problems}
    if not any(i in standing for i in keeps) or (give and not any(i in standing for i in giving)):
        problems.append(OrderProblem(None, f"{complete}; nothing is stored"))
    return problems


def _draft(state: RichState, keeps: Mapping[str, Bag], given: Mapping[str, str],
           label: str) -> tuple[RichState, list[Event]]:
    """Keep, give and pass at once; return the new state and the events (the cubes only to their holders)."""
    keep, give = to_keep(state.roll), gives(state.roll)
    hands = {s: state.hand(s).remove(keeps[s]) for s in state.seats}
    kept = {s: state.pile(s).add(keeps[s]) for s in state.seats}
    events = []
    for seat in state.seats:
        text = f"You keep {describe(keeps[seat])}"
        if give:
            colour = given[seat]
            hands[seat] = hands[seat].remove([colour])
            receiver = state.gives_to(seat)
            kept[receiver] = kept[receiver].add([colour])
            text += f" and give 1 {colour} to seat {receiver}"
            events.append(Event("received", f"Seat {seat} gives you 1 {colour} ({RESOURCES[colour]}); it goes to "
                                            "your kept pile.", label, seat=receiver, data={"colour": colour},
                                seats=(receiver,)))
        events.append(Event("kept", text + ".", label, seat=seat, data={"kept": keeps[seat].to_json()},
                            seats=(seat,)))
    passed = hands[state.seats[0]].size
    new_hands = {state.passes_to(s): hands[s] for s in state.seats}
    for seat in state.seats:
        giver = next(s for s in state.seats if state.passes_to(s) == seat)
        events.append(Event("hand", f"You receive the hand of seat {giver}: {describe(new_hands[seat])}.", label,
                            seat=seat, data={"hand": new_hands[seat].to_json()}, seats=(seat,)))
    summary = f"Every player keeps {keep} cube{'s' if keep > 1 else ''}"
    if give:
        summary += f", gives 1 to his neighbour against the direction of play ({_DIRECTION_WORDS[_other(state)]})"
    summary += f" and passes {passed} cube{'' if passed == 1 else 's'} {_DIRECTION_WORDS[state.direction]}."
    events.insert(0, Event("draft", summary, label, data={"keep": keep, "give": give, "passed": passed}))
    state = replace(state, hands=tuple(new_hands[s] for s in state.seats), kept=tuple(kept[s] for s in state.seats))
    return state, events


def _other(state: RichState) -> str:
    return "ccw" if state.direction == "cw" else "cw"


def _roll(state: RichState, rng: GameRng) -> tuple[RichState, list[Event]]:
    """Roll for the next round: a 6 covers a direction space (a third 6 in a row is rolled again)
    and the third ends the game; a roll the hands cannot serve ends it too."""
    events: list[Event] = []
    while True:
        roll = rng.roll(6)
        if roll == 6 and state.sixes >= 2:
            events.append(Event("reroll", "The die shows 6, a third 6 in a row: it is rolled again.",
                                f"Round {state.round + 1}", data={"roll": 6}))
            continue
        state = replace(state, round=state.round + 1)
        label = f"Round {state.round}"
        if roll == 6:
            state = replace(state, discs=state.discs + 1, sixes=state.sixes + 1)
            if state.discs >= len(state.directions):
                return _end(state, "The die shows 6: a disc covers the third direction space and the game ends.",
                            label, events)
            events.append(Event("six", f"The die shows 6: a disc covers direction space {state.discs}; the "
                                       f"direction of play is now {_DIRECTION_WORDS[state.direction]}.", label,
                                data={"roll": 6, "discs": state.discs}))
            continue
        state = replace(state, sixes=0)
        need = to_keep(roll) + gives(roll)
        if state.hand_size < need:
            held = f"every hand holds only {state.hand_size}" if state.hand_size else "the hands are empty"
            return _end(state, f"The die shows {roll}, which needs {need} cube{'s' if need > 1 else ''}, but {held}: "
                               "the game ends and the hands are discarded unseen.", label, events)
        state = replace(state, roll=roll)
        keep = to_keep(roll)
        text = f"The die shows {roll}: every player keeps {keep} cube{'s' if keep > 1 else ''}" + (
            " and gives 1" if gives(roll) else "") + "."
        events.append(Event("roll", text, label, data={"roll": roll}))
        return state, events


def _end(state: RichState, why: str, label: str, events: list[Event]) -> tuple[RichState, list[Event]]:
    """End the game: discard the hands unseen, reveal and score every kept pile."""
    state = replace(state, finished=True, end_reason=why, roll=0, hands=tuple(Bag() for _ in state.seats))
    events.append(Event("end", why, label))
    for seat, pile, points in zip(state.seats, state.kept, score_piles(state.side, state.kept), strict=True):
        parts = ", ".join(f"{pile.count(c)} {c} = {points[c]}" for c in COLOURS)
        events.append(Event("pile", f"Seat {seat}'s kept pile: {parts}; {points['total']} point{'' if points['total'] in (1, -1) else 's'}.", label,
                            seat=seat, data={"kept": pile.to_json(), "points": dict(points)}))
    return state, events


def _cubes_view(bag: Bag) -> dict[str, Any]:
    return {"size": bag.size, "cubes": {c: bag.count(c) for c in COLOURS if bag.count(c)},
            "list": list(ordered(bag)), "text": describe(bag)}


def describe(bag: Bag) -> str:
    """Return the cubes as text in the colour order blue, yellow, green, red: ``"2 blue, 1 red"``."""
    return ", ".join(f"{bag.count(c)} {c}" for c in COLOURS if bag.count(c)) or "nothing"


def _drafts(cubes: Sequence[str], keep: int, give: bool) -> Iterator[list[RichOrder]]:
    """Every distinct draft of a hand (``cubes`` in colour order): the cubes kept and, with ``give``,
    the colour given from the rest."""
    for kept in dict.fromkeys(combinations(cubes, keep)):
        if not give:
            yield [Keep(kept)]
            continue
        rest = list(cubes)
        for colour in kept:
            rest.remove(colour)
        yield from ([Keep(kept), Give(colour)] for colour in dict.fromkeys(rest))
