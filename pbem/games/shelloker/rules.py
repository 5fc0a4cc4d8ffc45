"""Shelloker (Gateway Island, game 8) as a play-by-email game.

Every player starts with 20 shells. Each round the service deals every player
3 secret value cubes from the bag of 48; then, from the first-player disc on,
the players bet in turn: CHECK (while nobody has raised), RAISE n, CALL or
FOLD (losing the shells of one's bet space). A round ends when everybody
checked (nothing changes hands), when one player is left (he gains the
highest bet among the folded players), or when every remaining player stands
on the same bet after a raise: the showdown, where each cube is worth 1 plus
the cubes of its colour on the cliffs table, and the best hand wins its bet
from every other. Only showdown hands are ever shown. After a round a cliff
cube is drawn and the disc moves on; the game ends when somebody has 35
shells or 0, or the twelve cliff spaces are full. The most shells wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag, redeal
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.seats import START, START_DESCRIPTION, first_player

from .orders import Call, Check, Fold, Raise, ShellokerOrder
from .state import (
    CLIFF_SPACES,
    COLOURS,
    HAND_SIZE,
    START_CLIFFS,
    START_SHELLS,
    TOP_BET,
    WIN_SHELLS,
    ShellokerState,
    dump_state,
    full_bag,
    listed,
    load_state,
)


class Shelloker(BaseGame[ShellokerState, ShellokerOrder]):
    """The Shelloker game object (stateless; every method is pure)."""

    name: ClassVar[str] = "shelloker"
    title: ClassVar[str] = "Shelloker"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    reveals_seed: ClassVar[bool] = False
    """This game's secrets outlive it: folded hands, the hand of a player who won because the others
    folded, and the bag's content are never shown (rule book), and the seed recomputes every deal. The
    service keeps this game's seed secret after the end too."""
    default_reports: ClassVar[str] = "digest"
    command_words_as_orders: ClassVar[frozenset[str]] = frozenset({"CHECK"})
    declared_options: ClassVar[Mapping[str, str]] = {START: START_DESCRIPTION}
    terminal_words: ClassVar[Mapping[str, str]] = {"BET": "a bet space from 2 to 12"}
    transformer_class: ClassVar[str] = f"{__package__}.grammar:ShellokerTransformer"

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> ShellokerState:
        """Return the start of round 1: cliff spaces 1 and 2 drawn, the first player chosen, the
        hands dealt.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        cliffs, bag = full_bag().draw(START_CLIFFS, rng)
        first = first_player(seats, checked.get(START), rng)
        n = len(seats)
        state = ShellokerState(seats=tuple(seats), shells=(START_SHELLS,) * n, bets=(1,) * n, folded=(False,) * n,
                               checked=(False,) * n, hands=tuple(Bag() for _ in seats), bag=bag, cliffs=cliffs,
                               first=first, to_play=first)
        state, _ = _deal(state, rng, "Round 1")
        return state

    # --- asking for orders ------------------------------------------------

    def phase(self, state: ShellokerState) -> Phase:
        """Return the turn of the seat to bet (one seat at a time)."""
        i = state.to_play
        highest = min(TOP_BET, state.shells[i])
        raise_text = f"RAISE n (n from {state.top + 1} to {highest})" if highest > state.top else ""
        if state.raised:
            options = ", ".join(o for o in (f"CALL (to {state.top})", raise_text, "FOLD") if o)
            head = f"the top bet is {state.top}"
        else:
            options = ", ".join(o for o in ("CHECK", raise_text, "FOLD") if o)
            head = "nobody has raised yet"
        return Phase("bet", (state.seat_to_play,), f"Round {state.round}, {head}: {options}.")

    def validate(self, state: ShellokerState, seat: str, orders: Sequence[ShellokerOrder]) -> list[OrderProblem]:
        """Return the problems of a submission: exactly one betting action the seat may take now."""
        if problems := self.turn_problems(state, seat):
            return problems
        if len(orders) != 1:
            return [OrderProblem(None, "a turn is exactly one order: CHECK, RAISE n, CALL or FOLD")]
        problem = _action_problem(state, state.index(seat), orders[0])
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: ShellokerState, seat: str) -> list[ShellokerOrder]:
        """Return the NMR default (CLARIFICATIONS): CHECK when allowed, else FOLD (it depends on the
        bets alone, never on the hand)."""
        return [Fold() if state.raised else Check()]

    def order_choices(self, state: ShellokerState, seat: str) -> list[list[ShellokerOrder]] | None:
        """Return every legal action (CHECK or CALL, each RAISE, FOLD) when they are few."""
        return few_choices(single_orders(legal_actions(state, state.index(seat))))

    def submission_summary(self, state: ShellokerState, seat: str, orders: Sequence[ShellokerOrder]) -> str:
        """Return what the action puts at stake, e.g. "You bet 7 of your 12 shells."."""
        if len(orders) != 1 or seat not in state.seats:
            return ""
        i = state.index(seat)
        order = orders[0]
        if isinstance(order, Fold):
            lost = min(state.bets[i], state.shells[i])
            return f"You fold and lose {lost} shell{'' if lost == 1 else 's'}."
        bet = order.bet if isinstance(order, Raise) else state.top if isinstance(order, Call) else state.bets[i]
        return f"You bet {bet} of your {state.shells[i]} shells."

    def sample_orders(self, state: ShellokerState, seat: str, rng: GameRng) -> list[ShellokerOrder]:
        """Return a random legal action: check or call, a raise, or a fold, each kind alike likely."""
        actions = legal_actions(state, state.index(seat))
        raises = [a for a in actions if isinstance(a, Raise)]
        kinds = [[actions[0]], raises, [actions[-1]]] if raises else [[actions[0]], [actions[-1]]]
        return [rng.choice(rng.choice(kinds))]

    # --- resolving ------------------------------------------------------

    def resolve(self, state: ShellokerState, orders: Mapping[str, Sequence[ShellokerOrder]],
                rng: GameRng) -> Resolution[ShellokerState]:
        """Apply the seat's action; end the round when everybody checked, one player is left or the
        bets are level after a raise; start the next round or end the game.

        Raises GameError when the game is over or the seat to play sent no entry, IllegalOrder
        for an action the seat may not take now.
        """
        action = self.owed_orders(state, orders)[state.seat_to_play][0]
        label = f"Round {state.round}"
        state, event = _act(state, state.to_play, action, label)
        events = [event]
        ended = _round_end(state, label)
        if ended is None:
            return Resolution(replace(state, to_play=_next_to_play(state)), events)
        state, end_events = ended
        events += end_events
        state, next_events = _next_round(state, rng)
        return Resolution(state, events + next_events)

    def outcome(self, state: ShellokerState) -> Outcome | None:
        """Return the most shells once the game is over (a tie shares the victory)."""
        if not state.finished:
            return None
        best = max(state.shells)
        winners = tuple(s for s, n in zip(state.seats, state.shells, strict=True) if n == best)
        who = f"Seat {winners[0]} has" if len(winners) == 1 else f"Seats {', '.join(winners)} share"
        return Outcome(winners, f"{state.end_reason} {who} the most shells, {best}.")

    def scores(self, state: ShellokerState) -> dict[str, int]:
        """Return each seat's shells (public on the score track)."""
        return dict(zip(state.seats, state.shells, strict=True))

    # --- hidden information -------------------------------------------------

    def hidden_variant(self, state: ShellokerState, keep: str | None, rng: GameRng) -> ShellokerState:
        """Return ``state`` with every hand but ``keep``'s and the bag redealt at random from the cubes
        they hold together, each as large as before."""
        others = [i for i, s in enumerate(state.seats) if s != keep]
        dealt = redeal([state.hands[i] for i in others] + [state.bag], rng)
        hands = list(state.hands)
        for n, i in enumerate(others):
            hands[i] = dealt[n]
        return replace(state, hands=tuple(hands), bag=dealt[-1])

    # --- showing ----------------------------------------------------------

    def view(self, state: ShellokerState, seat: str | None) -> dict[str, Any]:
        """Return the cliffs, the cube values, every seat's shells, bet and hand size, the last
        showdown's hands and the bag's count for everyone; a seat's own hand for that seat. Never
        another hand, a folded hand or the bag's contents."""
        reader = seat if seat in state.seats else None
        players = [
            {
                "seat": s,
                "you": s == reader,
                "shells": state.shells[i],
                "bet": state.bets[i],
                "folded": state.folded[i],
                "checked": state.checked[i],
                "first": i == state.first,
                "to_play": i == state.to_play and not state.finished,
                "hand_size": state.hands[i].size,
            }
            for i, s in enumerate(state.seats)
        ]
        hand = None
        if reader is not None and state.hands[state.index(reader)].size:
            cubes = listed(state.hands[state.index(reader)])
            hand = {"cubes": list(cubes), "text": ", ".join(cubes), "worth": state.worth(cubes)}
        return {
            "round": state.round,
            "over": state.finished,
            "end_reason": state.end_reason or None,
            "to_play": None if state.finished else state.seat_to_play,
            "first": state.seats[state.first],
            "raised": state.raised,
            "top_bet": state.top,
            "cliffs": [{"space": n, "colour": c} for n, c in enumerate(state.cliffs, start=1)],
            "cliff_spaces": CLIFF_SPACES,
            "cube_values": [{"colour": c, "value": state.value(c)} for c in COLOURS],
            "bag_count": state.bag.size,
            "players": players,
            "hand": hand,
            "shown": [{"seat": s, "cubes": list(cubes), "text": ", ".join(cubes)} for s, cubes in state.shown],
        }

    def dump(self, state: ShellokerState) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> ShellokerState:
        """Rebuild a state from :meth:`dump` output."""
        return load_state(data)


# --- betting ---------------------------------------------------------------------------


def legal_actions(state: ShellokerState, i: int) -> list[ShellokerOrder]:
    """Return every action seat ``i`` may take now: CHECK (nobody raised) or CALL, every RAISE,
    and FOLD."""
    actions: list[ShellokerOrder] = [Call() if state.raised else Check()]
    actions += [Raise(bet) for bet in range(state.top + 1, min(TOP_BET, state.shells[i]) + 1)]
    return [*actions, Fold()]


def _action_problem(state: ShellokerState, i: int, order: ShellokerOrder) -> str | None:
    if isinstance(order, Check):
        return f"{order}: seat {_raiser(state)} has raised, so you may no longer check: CALL, RAISE n or FOLD" \
            if state.raised else None
    if isinstance(order, Call):
        return f"{order}: nobody has raised yet; to stay on 1 send CHECK" if not state.raised else None
    if isinstance(order, Raise):
        if order.bet <= state.top:
            return f"{order}: a raise must go above the top bet, {state.top}"
        if order.bet > TOP_BET:
            return f"{order}: the bet spaces end at {TOP_BET}"
        if order.bet > state.shells[i]:
            return f"{order}: you have only {state.shells[i]} shells; you may raise to at most that (CALL any bet)"
        return None
    if isinstance(order, Fold):
        return None
    return f"{order}: send CHECK, RAISE n, CALL or FOLD"


def _raiser(state: ShellokerState) -> str:
    """The seat standing on the top bet first in turn order (for messages)."""
    return next(state.seats[i] for i in state.active if state.bets[i] == state.top)


def _act(state: ShellokerState, i: int, order: ShellokerOrder, label: str) -> tuple[ShellokerState, Event]:
    seat = state.seats[i]
    if isinstance(order, Check):
        checked = tuple(c or j == i for j, c in enumerate(state.checked))
        return replace(state, checked=checked), Event("check", f"Seat {seat} checks.", label, seat=seat)
    if isinstance(order, Raise):
        state = _bet(state, i, order.bet)
        return replace(state, raised=True), Event("raise", f"Seat {seat} raises to {order.bet}.", label, seat=seat,
                                                  data={"bet": order.bet})
    if isinstance(order, Call):
        top = state.top
        beyond = " (more than his shells)" if top > state.shells[i] else ""
        return _bet(state, i, top), Event("call", f"Seat {seat} calls {top}{beyond}.", label, seat=seat,
                                          data={"bet": top})
    lost = min(state.bets[i], state.shells[i])
    shells = _set(state.shells, i, state.shells[i] - lost)
    folded = tuple(f or j == i for j, f in enumerate(state.folded))
    hands = list(state.hands)
    bag = state.bag.add(hands[i])
    hands[i] = Bag()
    text = f"Seat {seat} folds and loses {lost} shell{'' if lost == 1 else 's'} ({shells[i]} left); his cubes go " \
           "back to the bag unseen."
    return replace(state, shells=shells, folded=folded, hands=tuple(hands), bag=bag), \
        Event("fold", text, label, seat=seat, data={"lost": lost})


def _bet(state: ShellokerState, i: int, bet: int) -> ShellokerState:
    return replace(state, bets=_set(state.bets, i, bet))


def _set(values: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    return tuple(value if j == i else v for j, v in enumerate(values))


def _next_to_play(state: ShellokerState) -> int:
    """The next seat clockwise that still owes an action: not folded, and below the top bet after a
    raise, or not yet checked before one."""
    n = len(state.seats)
    for step in range(1, n + 1):
        j = (state.to_play + step) % n
        if state.folded[j]:
            continue
        if state.raised and state.bets[j] < state.top:
            return j
        if not state.raised and not state.checked[j]:
            return j
    raise GameError("nobody owes an action, yet the round has not ended")


# --- the end of a round --------------------------------------------------------------------


def _round_end(state: ShellokerState, label: str) -> tuple[ShellokerState, list[Event]] | None:
    """Return the state and events of the round's end, or None while the betting goes on."""
    active = state.active
    if len(active) == 1:
        return _fold_win(state, active[0], label)
    if state.raised and all(state.bets[i] == state.top for i in active):
        return _showdown(state, label)
    if not state.raised and all(state.checked[i] for i in active):
        return _return_hands(state), [Event("all-check", "Everybody checked: nothing changes hands; the cubes go "
                                                         "back to the bag unseen.", label)]
    return None


def _return_hands(state: ShellokerState) -> ShellokerState:
    bag = state.bag
    for hand in state.hands:
        bag = bag.add(hand)
    return replace(state, bag=bag, hands=tuple(Bag() for _ in state.seats))


def _fold_win(state: ShellokerState, i: int, label: str) -> tuple[ShellokerState, list[Event]]:
    """[R] The last player left gains the highest bet among the folded players; his hand stays unseen."""
    gain = max(b for j, b in enumerate(state.bets) if state.folded[j])
    shells = _set(state.shells, i, state.shells[i] + gain)
    seat = state.seats[i]
    text = f"Everybody else folded: seat {seat} gains {gain} shell{'' if gain == 1 else 's'}, the highest bet " \
           f"among the folded players ({shells[i]} now); his cubes go back to the bag unseen."
    return _return_hands(replace(state, shells=shells)), [Event("fold-win", text, label, seat=seat,
                                                                data={"gain": gain})]


def showdown_key(state: ShellokerState, cubes: Sequence[str]) -> tuple[int, ...]:
    """Return how a showdown hand ranks: its worth, then its cubes of the colour on the highest
    occupied cliff space, then of the next space down, and so on [R]."""
    return (state.worth(cubes), *(list(cubes).count(colour) for colour in reversed(state.cliffs)))


def _showdown(state: ShellokerState, label: str) -> tuple[ShellokerState, list[Event]]:
    """[R] Reveal the hands of the players still in; the best wins his bet from every other."""
    bet = state.top
    players = state.active
    hands = {i: listed(state.hands[i]) for i in players}
    events = [Event("showdown", f"Showdown on a bet of {bet}: " + "; ".join(
        f"seat {state.seats[i]} shows {', '.join(hands[i])} (worth {state.worth(hands[i])})" for i in players) + ".",
        label, data={"bet": bet, "hands": {state.seats[i]: list(hands[i]) for i in players}})]
    keys = {i: showdown_key(state, hands[i]) for i in players}
    best = max(keys.values())
    winners = [i for i in players if keys[i] == best]
    amount = min(bet, max(state.shells[i] for i in winners))
    shells = list(state.shells)
    losers = [i for i in players if i not in winners]
    for i in losers:
        shells[i] = max(0, shells[i] - amount)
    names = ", ".join(f"seat {state.seats[i]}" for i in losers)
    lose = f"{names} lose{'s' if len(losers) == 1 else ''} {amount}" if losers else ""
    tie_break = _tie_break_text(state, hands, [i for i in players if keys[i][0] == best[0]])
    if len(winners) == 1:
        w = winners[0]
        shells[w] += amount
        capped = " (he called beyond his shells, so he gains only what he has)" if amount < bet else ""
        text = f"{tie_break}Seat {state.seats[w]} wins and gains {amount} shell{'' if amount == 1 else 's'}" \
               f"{capped}; {lose}."
    else:
        tied = ", ".join(state.seats[i] for i in winners)
        even = f"{tie_break}Seats {tied} tie even after the cliffs" if tie_break else \
            f"Seats {tied} tie on {best[0]} and on every cliff space"
        text = f"{even}: they neither gain nor lose" + (f"; {lose}." if lose else ".")
    events.append(Event("showdown-result", text, label, data={"amount": amount,
                                                               "winners": [state.seats[i] for i in winners]}))
    shown = tuple((state.seats[i], hands[i]) for i in players)
    return _return_hands(replace(state, shells=tuple(shells), shown=shown)), events


def _tie_break_text(state: ShellokerState, hands: Mapping[int, Sequence[str]], tied: Sequence[int]) -> str:
    """Return how the cliffs broke a tie on the best worth [R], space by space from the highest
    occupied one down, e.g. "Seats 2, 3 tie on 8; cliff space 6 is green: seat 2 holds 1 green cube, seat 3
    holds 2. "
    (empty when one hand is worth the most, or when the cliffs break no tie)."""
    parts = [f"Seats {', '.join(state.seats[i] for i in tied)} tie on {state.worth(hands[tied[0]])}"]
    alive = list(tied)
    for space in range(len(state.cliffs), 0, -1):
        colour = state.cliffs[space - 1]
        counts = {i: list(hands[i]).count(colour) for i in alive}
        most = max(counts.values())
        if min(counts.values()) == most:
            continue
        first, *rest = alive
        held = ", ".join([f"seat {state.seats[first]} holds {_cubes(counts[first], colour)}",
                          *(f"seat {state.seats[i]} holds {counts[i]}" for i in rest)])
        parts.append(f"cliff space {space} is {colour}: {held}")
        alive = [i for i in alive if counts[i] == most]
        if len(alive) == 1:
            break
    return "; ".join(parts) + ". " if len(parts) > 1 else ""


def _cubes(count: int, colour: str) -> str:
    """Return e.g. "1 green cube" or "0 green cubes"."""
    return f"{count} {colour} cube{'' if count == 1 else 's'}"


def _next_round(state: ShellokerState, rng: GameRng) -> tuple[ShellokerState, list[Event]]:
    """End the game if a player has 35 shells or 0, or the cliffs are full; else draw a cliff cube,
    pass the first-player disc on and deal (the order return, draw, deal)."""
    label = f"Round {state.round}"
    reasons = []
    rich = [s for s, n in zip(state.seats, state.shells, strict=True) if n >= WIN_SHELLS]
    broke = [s for s, n in zip(state.seats, state.shells, strict=True) if n == 0]
    if rich:
        reasons.append(f"seat {', '.join(rich)} reached {WIN_SHELLS} shells")
    if broke:
        reasons.append(f"seat {', '.join(broke)} has no shells left")
    if len(state.cliffs) >= CLIFF_SPACES:
        reasons.append(f"all {CLIFF_SPACES} cliff spaces hold a cube")
    if reasons:
        why = "The game ends: " + "; ".join(reasons) + "."
        return replace(state, finished=True, end_reason=why), [Event("end", why, label)]
    colour, bag = state.bag.draw_one(rng)
    n = len(state.seats)
    first = (state.first + 1) % n
    state = replace(state, round=state.round + 1, bag=bag, cliffs=(*state.cliffs, colour), first=first,
                    to_play=first, bets=(1,) * n, folded=(False,) * n, checked=(False,) * n, raised=False)
    label = f"Round {state.round}"
    events = [Event("cliff", f"A {colour} cube goes on cliff space {len(state.cliffs)}; seat "
                             f"{state.seats[first]} takes the first-player disc.", label,
                    data={"colour": colour, "space": len(state.cliffs)})]
    state, deal_events = _deal(state, rng, label)
    return state, events + deal_events


def _deal(state: ShellokerState, rng: GameRng, label: str) -> tuple[ShellokerState, list[Event]]:
    """Deal 3 cubes to every seat from the first player on; each seat hears of its own only."""
    hands = list(state.hands)
    bag = state.bag
    events = [Event("deal", f"Every player draws {HAND_SIZE} cubes from the bag.", label)]
    n = len(state.seats)
    with rng.sealed():  # the deal is every hand's secret: its draws stay out of the reports
        for step in range(n):
            i = (state.first + step) % n
            drawn, bag = bag.draw(HAND_SIZE, rng)
            hands[i] = Bag.of(drawn)
            seat = state.seats[i]
            events.append(Event("draw", f"You draw {', '.join(listed(drawn))}.", label, seat=seat,
                                data={"cubes": list(listed(drawn))}, seats=(seat,)))
    return replace(state, hands=tuple(hands), bag=bag), events

