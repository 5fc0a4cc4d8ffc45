"""An Honest Trade's rules as steps on a state: the action with its answer windows, reactions
taken clockwise, accusations, three of a kind, discards, refreshes and eliminations.

Each function returns the new state and the events of what happened. Every event is public:
what a player answered stays sealed until it is used (an unused REACT, PAY or TARGET is never
told), and a secret colour is told only when its holder is out of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pbem.core import Event, GameRng

from .orders import (
    CUBE,
    CUBES,
    DISCS,
    RANDOM,
    Accuse,
    Act,
    Discard,
    React,
    Target,
    TradeOrder,
)
from .state import (
    ACT,
    CANCELLED_BY,
    DISCARD,
    REACTOR_WINDOW,
    TARGET,
    WINDOW,
    TradeState,
    in_colour_order,
)

Step = tuple[TradeState, list[Event]]


def label(state: TradeState) -> str:
    """The heading the events of the turn under way are grouped under in a report."""
    return f"Action {state.turn} (seat {state.actor})"


def goods(count: int, kind: str) -> str:
    """``1 black cube``, ``2 discs``, ``no black cubes``."""
    noun = "black cube" if kind == CUBES else "disc"
    return f"{count or 'no'} {noun}{'' if count == 1 else 's'}"


def describe(action: Act) -> str:
    """What an action does, e.g. ``take 2 black cubes`` or ``steal up to 2 discs from seat 3``."""
    if action.colour == "red":
        return "take 1 black cube"
    if action.colour == "white":
        return "take 1 disc"
    if action.colour == "yellow":
        return f"take {goods(2, action.kind)}"
    if action.colour == "green":
        return f"steal up to {goods(2, action.kind)} from seat {action.seat}"
    return "swap a black cube for a disc" if action.kind == CUBE else "swap a disc for a black cube"


def seats_text(seats: Sequence[str]) -> str:
    """``seat 3`` or ``seats 3 and 4`` or ``seats 1, 3 and 4``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return f"seats {', '.join(seats[:-1])} and {seats[-1]}"


def _set_owed(state: TradeState, seat: str, count: int) -> TradeState:
    i = state.index(seat)
    return replace(state, owed=state.owed[:i] + (count,) + state.owed[i + 1:])


# --- pieces of a turn -----------------------------------------------------------------------


def push(state: TradeState, seat: str, colour: str) -> Step:
    """Push ``seat``'s action cube ``colour`` forward; bring all his cubes back to the starting
    row when none is left in it ([R] "take them all back")."""
    trader = state.trader(seat).push(colour)
    events = []
    if not trader.row:
        trader = trader.refreshed()
        events.append(Event("refresh", f"Seat {seat}'s starting row is empty: all of seat {seat}'s action cubes "
                                       "come back to it.", label(state), seat=seat))
    return state.with_trader(seat, trader), events


def eliminate(state: TradeState, seat: str, why: str) -> Step:
    """Put ``seat`` out of the game, telling his secret colour; his black cubes and discs go back
    to the supply and he owes nothing more ([D])."""
    trader = state.trader(seat)
    returned = [goods(n, kind) for n, kind in ((trader.blacks, CUBES), (trader.discs, DISCS)) if n]
    back = f" {' and '.join(returned).capitalize()} go back to the supply." if returned else ""
    state = replace(state, supply_blacks=state.supply_blacks + trader.blacks,
                    supply_discs=state.supply_discs + trader.discs)
    state = _set_owed(state.with_trader(seat, replace(trader, out=True, blacks=0, discs=0)), seat, 0)
    colour = state.secret_of(seat)
    text = f"Seat {seat} is out of the game ({why}); seat {seat}'s secret colour was {colour}.{back}"
    return state, [Event("eliminated", text, label(state), seat=seat, data={"secret": colour})]


def discard(state: TradeState, seat: str, colour: str, how: str = "") -> Step:
    """Remove ``seat``'s action cube ``colour`` from the game for good."""
    state = state.with_trader(seat, state.trader(seat).without(colour))
    return state, [Event("discard", f"Seat {seat} discards {colour}{how}.", label(state), seat=seat,
                         data={"colour": colour})]


def out_of_cubes(state: TradeState, seats: Sequence[str]) -> Step:
    """Eliminate each of ``seats`` whose only action cube left is his secret colour ([R]; a
    discard never takes the secret colour, so one cube left is always it)."""
    events: list[Event] = []
    for seat in seats:
        if not state.trader(seat).out and len(state.trader(seat).cubes) == 1:
            state, gone = eliminate(state, seat, "the only action cube left is the secret colour")
            events += gone
    return state, events


def accusation(state: TradeState, accused: str, colour: str, accusers: Mapping[str, Accuse], what: str) -> Step:
    """Settle the accusations against ``accused`` for using ``colour`` in his ``what`` (action or
    reaction). Right: he is out (the caller voids his play) and nobody pays. Wrong: the colour is
    known not to be his secret, and every accuser discards his PAY cube at once or owes a discard."""
    who = seats_text(list(accusers))
    verb = "accuses" if len(accusers) == 1 else "accuse"
    said = f"{who.capitalize()} {verb} seat {accused} of using the secret colour in the {what} ({colour})"
    if colour == state.secret_of(accused):
        events = [Event("accusation", f"{said}: right.", label(state), seat=accused,
                        data={"accusers": list(accusers), "colour": colour, "right": True})]
        state, gone = eliminate(state, accused, "rightly accused")
        return state, events + gone
    trader = state.trader(accused)
    state = state.with_trader(accused, replace(trader, cleared=in_colour_order((*trader.cleared, colour))))
    events = [Event("accusation", f"{said}: wrong, {colour} is not seat {accused}'s secret colour. The {what} "
                                  "stands.", label(state), seat=accused,
                    data={"accusers": list(accusers), "colour": colour, "right": False})]
    for seat, accuse in accusers.items():
        if accuse.pay:
            state, paid = discard(state, seat, accuse.pay, " to pay for the wrong accusation")
            events += paid
        else:
            state = _set_owed(state, seat, state.owes(seat) + 1)
            events.append(Event("owes", f"Seat {seat} owes a discard for the wrong accusation.", label(state),
                                seat=seat))
    state, gone = out_of_cubes(state, list(accusers))
    return state, events + gone


def accusers_of(state: TradeState, orders: Mapping[str, Sequence[TradeOrder]]) -> dict[str, Accuse]:
    """Return the seats that sent ACCUSE, in clockwise order from the actor, with their order."""
    found: dict[str, Accuse] = {}
    for seat in (state.actor, *state.clockwise_after(state.actor)):
        accuse = next((o for o in orders.get(seat, ()) if isinstance(o, Accuse)), None)
        if accuse is not None:
            found[seat] = accuse
    return found


# --- the action's effect ------------------------------------------------------------------


def _take(state: TradeState, seat: str, kind: str, wanted: int) -> Step:
    """``seat`` takes up to ``wanted`` black cubes or discs from the supply ([D] what is there)."""
    supply = state.supply_blacks if kind == CUBES else state.supply_discs
    taken = min(wanted, supply)
    trader = state.trader(seat)
    if kind == CUBES:
        state = replace(state.with_trader(seat, replace(trader, blacks=trader.blacks + taken)),
                        supply_blacks=supply - taken)
    else:
        state = replace(state.with_trader(seat, replace(trader, discs=trader.discs + taken)),
                        supply_discs=supply - taken)
    short = f" (the supply held only {goods(supply, kind)})" if taken < wanted else ""
    return state, [Event("take", f"Seat {seat} takes {goods(taken, kind)}{short}.", label(state), seat=seat,
                         data={"kind": kind.lower(), "count": taken})]


def _steal(state: TradeState, seat: str, victim: str, kind: str) -> Step:
    """``seat`` steals up to 2 black cubes or discs from ``victim`` (as many as he has)."""
    thief, robbed = state.trader(seat), state.trader(victim)
    if kind == CUBES:
        taken = min(2, robbed.blacks)
        state = state.with_trader(victim, replace(robbed, blacks=robbed.blacks - taken))
        state = state.with_trader(seat, replace(thief, blacks=thief.blacks + taken))
    else:
        taken = min(2, robbed.discs)
        state = state.with_trader(victim, replace(robbed, discs=robbed.discs - taken))
        state = state.with_trader(seat, replace(thief, discs=thief.discs + taken))
    return state, [Event("steal", f"Seat {seat} steals {goods(taken, kind)} from seat {victim}.", label(state),
                         seat=seat, data={"kind": kind.lower(), "count": taken, "from": victim})]


def _swap(state: TradeState, seat: str, give_cube: bool) -> Step:
    """``seat`` gives one black cube for a supply disc (or one disc for a supply black cube); with
    nothing to give or nothing in the supply the swap does nothing ([D])."""
    trader = state.trader(seat)
    have, supply = (trader.blacks, state.supply_discs) if give_cube else (trader.discs, state.supply_blacks)
    given, got = ("black cube", "disc") if give_cube else ("disc", "black cube")
    if not have or not supply:
        why = f"seat {seat} has no {given}" if not have else f"the supply has no {got}"
        return state, [Event("swap", f"Seat {seat} swaps nothing: {why}.", label(state), seat=seat)]
    step = 1 if give_cube else -1
    state = replace(state.with_trader(seat, replace(trader, blacks=trader.blacks - step, discs=trader.discs + step)),
                    supply_blacks=state.supply_blacks + step, supply_discs=state.supply_discs - step)
    return state, [Event("swap", f"Seat {seat} swaps a {given} for a {got}.", label(state), seat=seat)]


def perform(state: TradeState) -> Step:
    """Carry out the actor's action (it stood)."""
    action, seat = state.action, state.actor
    assert action is not None
    if action.colour == "red":
        return _take(state, seat, CUBES, 1)
    if action.colour == "white":
        return _take(state, seat, DISCS, 1)
    if action.colour == "yellow":
        return _take(state, seat, action.kind, 2)
    if action.colour == "green":
        return _steal(state, seat, action.seat, action.kind)
    return _swap(state, seat, action.kind == CUBE)


def three_of_a_kind(state: TradeState) -> Step:
    """Return the actor's three black cubes or three discs to the supply, one victim to name for
    each three ([R]; [D] with four he returns three and keeps one). A victim the actor named in
    advance and still in the game owes the discards at once."""
    seat = state.actor
    trader = state.trader(seat)
    events: list[Event] = []
    victims = 0
    for kind, held in ((CUBES, trader.blacks), (DISCS, trader.discs)):
        if held >= 3:
            victims += 1
            events.append(Event("three", f"Seat {seat} has {goods(held, kind)}: 3 go back to the supply and seat "
                                         f"{seat} chooses a player to discard.", label(state), seat=seat))
    if not victims:
        return state, events
    blacks, discs = trader.blacks - 3 * (trader.blacks >= 3), trader.discs - 3 * (trader.discs >= 3)
    state = replace(state.with_trader(seat, replace(trader, blacks=blacks, discs=discs)),
                    supply_blacks=state.supply_blacks + trader.blacks - blacks,
                    supply_discs=state.supply_discs + trader.discs - discs)
    if state.target and not state.trader(state.target).out:
        events.append(Event("target", f"Seat {seat} named seat {state.target} in advance: seat {state.target} "
                                      "must discard.", label(state), seat=seat, data={"target": state.target}))
        return _set_owed(state, state.target, state.owes(state.target) + victims), events
    return replace(state, victims=victims), events


# --- the turn's flow ------------------------------------------------------------------------


def resolve_act(state: TradeState, orders: Sequence[TradeOrder]) -> Step:
    """Push the actor's cube and open the window for every other player (plan 4.18 step 1)."""
    action = next(o for o in orders if isinstance(o, Act))
    target = next((o.seat for o in orders if isinstance(o, Target)), "")
    seat = state.actor
    events = [Event("act", f"Seat {seat} pushes {action.colour} to {describe(action)}.", label(state), seat=seat,
                    data={"colour": action.colour, "kind": action.kind.lower(), "seat": action.seat})]
    state, refreshed = push(state, seat, action.colour)
    return replace(state, step=WINDOW, action=action, target=target), events + refreshed


def resolve_window(state: TradeState, orders: Mapping[str, Sequence[TradeOrder]]) -> Step:
    """Settle the accusations against the actor first; then take the sealed REACTs clockwise from
    the actor (plan 4.18 step 2)."""
    action = state.action
    assert action is not None
    events: list[Event] = []
    accusers = accusers_of(state, orders)
    if accusers:
        state, events = accusation(state, state.actor, action.colour, accusers, "action")
        if state.trader(state.actor).out:
            return end_turn(state, events)
    reacts = tuple(s for s in state.clockwise_after(state.actor) if any(isinstance(o, React) for o in orders.get(s, ())))
    return next_reaction(replace(state, reacts=reacts), state.actor, events)


def next_reaction(state: TradeState, after: str, events: list[Event]) -> Step:
    """Let the first seat clockwise after ``after`` (up to the actor) that sent REACT and still
    holds the cancelling cube in its starting row react, and open the window on his reaction;
    without one the action stands."""
    action = state.action
    assert action is not None
    cancel = CANCELLED_BY.get(action.colour)
    if cancel is not None:
        seats = state.clockwise_after(after)
        ahead = seats[:seats.index(state.actor)] if state.actor in seats else seats
        for seat in ahead:
            if seat in state.reacts and cancel in state.trader(seat).row:
                events.append(Event("react", f"Seat {seat} reacts with {cancel} to cancel seat {state.actor}'s "
                                             f"{action.colour}.", label(state), seat=seat, data={"colour": cancel}))
                state, refreshed = push(state, seat, cancel)
                return replace(state, step=REACTOR_WINDOW, reactor=seat), events + refreshed
        events.append(Event("stands", f"Nobody cancels seat {state.actor}'s {action.colour}.", label(state)))
    return after_action(state, True, events)


def resolve_reactor_window(state: TradeState, orders: Mapping[str, Sequence[TradeOrder]]) -> Step:
    """Settle the accusations against the reactor: caught, his reaction is void and the next REACT
    clockwise applies; otherwise the action is cancelled (plan 4.18 step 3)."""
    action, reactor = state.action, state.reactor
    assert action is not None
    colour = CANCELLED_BY[action.colour]
    events: list[Event] = []
    accusers = accusers_of(state, orders)
    if accusers:
        state, events = accusation(state, reactor, colour, accusers, "reaction")
        if state.trader(reactor).out:
            events.append(Event("void", f"Seat {reactor}'s reaction has no effect.", label(state)))
            return next_reaction(replace(state, reactor=""), reactor, events)
    events.append(Event("cancelled", f"Seat {state.actor}'s {action.colour} is cancelled by seat {reactor}'s "
                                     f"{colour}.", label(state), seat=state.actor))
    return after_action(replace(state, reactor=""), False, events)


def after_action(state: TradeState, stood: bool, events: list[Event]) -> Step:
    """Carry out an action that stood (and the three of a kind it makes), then ask for what is
    owed: discards, the victim's name, or the next turn."""
    if stood and not state.trader(state.actor).out:
        state, done = perform(state)
        state, three = three_of_a_kind(state)
        events = events + done + three
    return next_step(state, events)


def next_step(state: TradeState, events: list[Event]) -> Step:
    """Ask for the discards owed, then for the victim of a three of a kind, then end the turn
    (plan 4.18 steps 4-6)."""
    if any(state.owed):
        return replace(state, step=DISCARD), events
    if state.victims and not state.trader(state.actor).out and state.clockwise_after(state.actor):
        return replace(state, step=TARGET), events
    return end_turn(state, events)


def resolve_discards(state: TradeState, orders: Mapping[str, Sequence[TradeOrder]], rng: GameRng) -> Step:
    """Discard every owing seat's cubes at once; ``DISCARD RANDOM`` is drawn among the seat's
    cubes that are not his secret, in a sealed draw (its result would tell the secret apart).
    Then the seats left with their secret colour alone are out."""
    events: list[Event] = []
    owing = [s for s in state.seats if state.owes(s)]
    for seat in owing:
        chosen = [o.colour for o in orders[seat] if isinstance(o, Discard) and o.colour != RANDOM]
        randoms = sum(1 for o in orders[seat] if isinstance(o, Discard) and o.colour == RANDOM)
        drawn: list[str] = []
        if randoms:
            legal = [c for c in state.trader(seat).cubes if c != state.secret_of(seat) and c not in chosen]
            with rng.sealed():
                drawn = rng.sample(legal, randoms)
        for colour in chosen:
            state, done = discard(state, seat, colour)
            events += done
        for colour in drawn:
            state, done = discard(state, seat, colour, " (drawn at random)")
            events += done
    state, gone = out_of_cubes(replace(state, owed=(0,) * len(state.seats)), owing)
    return next_step(state, events + gone)


def resolve_target(state: TradeState, orders: Sequence[TradeOrder]) -> Step:
    """The actor names the victim of his three of a kind (plan 4.18 step 5)."""
    victim = next(o.seat for o in orders if isinstance(o, Target))
    event = Event("target", f"Seat {state.actor} chooses seat {victim} to discard.", label(state),
                  seat=state.actor, data={"target": victim})
    state = replace(_set_owed(state, victim, state.owes(victim) + state.victims), victims=0)
    return replace(state, step=DISCARD), [event]


def end_turn(state: TradeState, events: list[Event]) -> Step:
    """Forget the action under way and pass the turn to the next living seat clockwise, who
    refreshes first if his starting row is empty ([D]); nothing when one player or none is left."""
    state = replace(state, action=None, target="", reacts=(), reactor="", owed=(0,) * len(state.seats), victims=0)
    if len(state.living) <= 1:
        return state, events
    following = state.clockwise_after(state.actor)[0]
    state = replace(state, to_play=state.index(following), turn=state.turn + 1, step=ACT)
    trader = state.trader(following)
    if not trader.row:
        state = state.with_trader(following, trader.refreshed())
        events = events + [Event("refresh", f"Seat {following}'s starting row is empty at the start of the turn: "
                                            f"all of seat {following}'s action cubes come back to it.",
                                 label(state), seat=following)]
    return state, events
