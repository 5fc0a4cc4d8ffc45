"""An Honest Trade (Gateway Island, game 18) as a play-by-email game.

Every trader has five action cubes (red, white, yellow, green, blue) in a starting row and a
secret colour drawn from a bag of two cubes per colour. On his turn a trader pushes one cube of
his row forward and does its action (red: take a black cube; white: a disc; yellow: two black
cubes or two discs; green: steal up to two from another trader; blue: swap one for the other).
Then every other living trader answers at once, sealed, in one short window: ACCUSE (the colour
is the actor's secret), REACT (cancel it with the right cube, if it still stands when his turn
comes clockwise) or PASS; silence is PASS. A right accusation puts the actor out; a wrong one
costs every accuser a cube. A reaction gets a window of its own. Three black cubes or three
discs go back to the supply and cost a chosen victim a cube. A trader left with only his secret
colour is out; the last trader left wins.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import int_option
from pbem.core.protocol import SILENCE_PASS
from pbem.core.seats import START, START_DESCRIPTION, first_player

from . import trading
from .orders import (
    CUBE,
    CUBES,
    DISC,
    DISCS,
    RANDOM,
    Accuse,
    Act,
    Discard,
    Pass,
    React,
    Target,
    TradeOrder,
)
from .secrets import redraw_secrets
from .state import (
    ACT,
    CANCELLED_BY,
    COLOURS,
    DISCARD,
    REACTOR_WINDOW,
    SECRET_CUBES_PER_COLOUR,
    TARGET,
    WINDOW,
    Trader,
    TradeState,
    dump_state,
    load_state,
)

WINDOW_HOURS = "window_hours"
SUPPLY_CUBES = "cubes"
SUPPLY_DISCS = "discs"

ACT_SYNTAX: Mapping[str, str] = {"red": "ACT RED", "white": "ACT WHITE", "yellow": "ACT YELLOW CUBES|DISCS",
                                 "green": "ACT GREEN <seat> CUBES|DISCS", "blue": "ACT BLUE CUBE|DISC"}
"""The ACT line of each colour, as the prompts and refusals spell it."""


def _acts(row: Sequence[str], others: Sequence[str]) -> Iterator[Act]:
    """Every ACT a starting row allows, ``others`` being the seats green may rob."""
    for colour in row:
        if colour == "yellow":
            yield from (Act(colour, CUBES), Act(colour, DISCS))
        elif colour == "green":
            yield from (Act(colour, goods, other) for other in others for goods in (CUBES, DISCS))
        elif colour == "blue":
            yield from (Act(colour, CUBE), Act(colour, DISC))
        else:
            yield Act(colour)


def act_syntax(row: Sequence[str]) -> str:
    """The ACT lines a starting row allows: ``ACT RED or ACT BLUE CUBE|DISC``."""
    lines = [ACT_SYNTAX[c] for c in row]
    return lines[0] if len(lines) == 1 else f"{', '.join(lines[:-1])} or {lines[-1]}"


class HonestTrade(BaseGame[TradeState, TradeOrder]):
    """The An Honest Trade game object (stateless; every method is pure)."""

    name: ClassVar[str] = "honest-trade"
    title: ClassVar[str] = "An Honest Trade"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    turn_shape: ClassVar[TurnShape] = TurnShape.MIXED
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    default_reports: ClassVar[str] = "digest"
    declared_options: ClassVar[Mapping[str, str]] = {
        START: START_DESCRIPTION,
        WINDOW_HOURS: "hours to answer an action or a reaction, 1 to 720 (default 12); never longer than the turn",
        SUPPLY_CUBES: "black cubes in the supply, 3 to 60 (default 10)",
        SUPPLY_DISCS: "discs in the supply, 3 to 60 (default 10)",
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "COLOUR": "an action colour (red, white, yellow, green or blue)",
        "SEAT": "a seat number such as 2",
        "GOODS": "CUBES or DISCS",
        "RANDOM": "RANDOM",
    }
    transformer_class: ClassVar[str] = f"{__package__}.grammar:TradeTransformer"

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> TradeState:
        """Return the start: five action cubes in every starting row, empty hands, the supply, one
        secret colour per seat drawn (sealed, in seat order) from the bag of two per colour, then
        the first player. Raises GameError for a bad player count or an unknown or bad option."""
        self.seat_names(len(seats))
        checked = self.check_options(options)
        window = int_option(checked, WINDOW_HOURS, 1, 720, 12)
        blacks = int_option(checked, SUPPLY_CUBES, 3, 60, 10)
        discs = int_option(checked, SUPPLY_DISCS, 3, 60, 10)
        with rng.sealed():  # listing these draws in the reports would show the colours
            secrets, _ = Bag.filled(COLOURS, SECRET_CUBES_PER_COLOUR).draw(len(seats), rng)
        first = first_player(seats, checked.get(START), rng)
        return TradeState(seats=tuple(seats), secrets=secrets, traders=tuple(Trader() for _ in seats),
                          supply_blacks=blacks, supply_discs=discs, to_play=first, window_hours=window,
                          owed=(0,) * len(seats))

    # --- asking for orders ------------------------------------------------

    def phase(self, state: TradeState) -> Phase:
        """Return the step of the turn: the actor's action, the window on it (every other living
        seat), the window on a reaction (every living seat but the reactor), the discards owed, or
        the actor's choice of a victim. Windows are short, and silence in them is PASS."""
        actor = state.actor
        if state.step == ACT:
            row = state.trader(actor).row
            return Phase("act", (actor,), f"Push a cube of the starting row ({', '.join(row)}) and act: "
                                          f"{act_syntax(row)}; add TARGET <seat> to name now who discards if you "
                                          "make three of a kind.")
        action = state.action
        if state.step == WINDOW and action is not None:
            cancel = CANCELLED_BY.get(action.colour)
            react = f", REACT to cancel it with your {cancel} cube (taken clockwise from seat {actor}, if it " \
                    "still stands then)" if cancel else f" (a {action.colour} action cannot be cancelled)"
            return Phase("window", state.clockwise_after(actor),
                         f"Seat {actor} pushed {action.colour} to {trading.describe(action)}. Answer ACCUSE if "
                         f"{action.colour} is seat {actor}'s secret colour (add PAY <colour> to name your discard "
                         f"if wrong){react}, or PASS. No answer is PASS.",
                         deadline_hours=state.window_hours, silence=SILENCE_PASS)
        if state.step == REACTOR_WINDOW and action is not None:
            colour = CANCELLED_BY[action.colour]
            return Phase("reactor-window", tuple(s for s in (actor, *state.clockwise_after(actor))
                                                 if s != state.reactor),
                         f"Seat {state.reactor} reacted with {colour} to cancel seat {actor}'s {action.colour}. "
                         f"Answer ACCUSE if {colour} is seat {state.reactor}'s secret colour (add PAY <colour> "
                         "to name your discard if wrong), or PASS. No answer is PASS.",
                         deadline_hours=state.window_hours, silence=SILENCE_PASS)
        if state.step == DISCARD:
            owing = [s for s in state.seats if state.owes(s)]
            said = ", ".join(f"{_discards(self._needed(state, s))} by seat {s}" for s in owing)
            return Phase("discard", tuple(owing), f"Discards owed: {said}. Send one DISCARD <colour> line for "
                                                  "each (a cube pushed or not, never your secret colour), or "
                                                  "DISCARD RANDOM.")
        candidates = ", ".join(state.clockwise_after(actor))
        return Phase("target", (actor,), f"Seat {actor} made three of a kind: name the player who discards, "
                                         f"TARGET <seat> (one of {candidates}).")

    def validate(self, state: TradeState, seat: str, orders: Sequence[TradeOrder]) -> list[OrderProblem]:
        """Return the problems of a submission for the step under way. The lines of a submission go
        together: when one is refused, the submission is refused as a whole."""
        if problems := self.turn_problems(state, seat):
            return problems
        problems = [OrderProblem(i, p) for i, o in enumerate(orders) if (p := _order_problem(state, seat, o))]
        if problems:
            return [*problems, OrderProblem(None, "these orders go together, so none is stored: send them again "
                                                  "with the refused line corrected")]
        shape = _shape_problem(state, seat, orders, self._needed(state, seat))
        return [] if shape is None else [OrderProblem(None, shape)]

    def default_orders(self, state: TradeState, seat: str) -> list[TradeOrder]:
        """Return the NMR default (plan 4.18), from what every seat sees: on one's turn the first
        cube of the starting row in the order red, white, yellow, green, blue (CUBES; green robs
        the next living seat; blue gives a black cube if he has one, else a disc); PASS in a
        window; DISCARD RANDOM for each discard owed (drawn by the service: a fixed order would
        tell the secret colour by the colour it skips); the next living seat as the victim."""
        if state.step == ACT:
            trader = state.trader(seat)
            colour = next(c for c in COLOURS if c in trader.row)
            if colour == "yellow":
                return [Act(colour, CUBES)]
            if colour == "green":
                return [Act(colour, CUBES, state.clockwise_after(seat)[0])]
            if colour == "blue":
                return [Act(colour, CUBE if trader.blacks else DISC)]
            return [Act(colour)]
        if state.step in (WINDOW, REACTOR_WINDOW):
            return [Pass()]
        if state.step == DISCARD:
            return [Discard(RANDOM) for _ in range(self._needed(state, seat))]
        return [Target(state.clockwise_after(seat)[0])]

    def forced_orders(self, state: TradeState, seat: str) -> list[TradeOrder] | None:
        """Return the play the rules leave no choice in, judged on what everybody sees: a trader
        who owes as many discards as he has cubes but one discards every cube but his secret (and
        is out, his secret told); the only other living trader is the victim; a starting row of a
        single red or white cube is played (a TARGET given then could only come later, in the
        target step). Windows are never forced: ACCUSE is always possible."""
        if self.outcome(state) is not None or seat not in self.phase(state).seats:
            return None
        if state.step == DISCARD:
            trader = state.trader(seat)
            if state.owes(seat) >= len(trader.cubes) - 1:
                return [Discard(c) for c in trader.cubes if c != state.secret_of(seat)]
            return None
        if state.step == TARGET:
            candidates = state.clockwise_after(seat)
            return [Target(candidates[0])] if len(candidates) == 1 else None
        if state.step == ACT and state.trader(seat).row in (("red",), ("white",)):
            return [Act(state.trader(seat).row[0])]
        return None

    def order_choices(self, state: TradeState, seat: str) -> list[list[TradeOrder]] | None:
        """Return the seat's plays for the step under way, when few: every ACT its starting row allows;
        PASS, ACCUSE, and REACT (alone or with ACCUSE) when it can react; DISCARD of each cube but the
        secret, or RANDOM, for one discard owed; every TARGET. The optional extras left out: a TARGET
        under an ACT and the cube an accuser names to PAY. Several discards owed: None."""
        others = state.clockwise_after(seat)
        if state.step == ACT:
            return few_choices(single_orders(_acts(state.trader(seat).row, others)))
        if state.step in (WINDOW, REACTOR_WINDOW):
            plays: list[list[TradeOrder]] = [[Pass()], [Accuse()]]
            if state.step == WINDOW and _react_problem(state, seat) is None:
                plays += [[React()], [React(), Accuse()]]
            return plays
        if state.step == DISCARD:
            if self._needed(state, seat) != 1:
                return None
            pays = [c for c in state.trader(seat).cubes if c != state.secret_of(seat)]
            return few_choices(single_orders(Discard(c) for c in [*pays, RANDOM]))
        return few_choices(single_orders(Target(other) for other in others))

    def submission_summary(self, state: TradeState, seat: str, orders: Sequence[TradeOrder]) -> str:
        """Return what a valid submission will do, e.g. "You accuse seat 2 of yellow; if you are
        wrong you discard red." (the reply goes to the seat alone)."""
        parts: list[str] = []
        for order in orders:
            if isinstance(order, Act):
                parts.append(f"You push {order.colour} to {trading.describe(order)}.")
            elif isinstance(order, Target):
                parts.append(f"Seat {order.seat} discards if you make three of a kind." if state.step == ACT
                             else f"Seat {order.seat} discards.")
            elif isinstance(order, Accuse):
                accused = state.reactor if state.step == REACTOR_WINDOW else state.actor
                wrong = f"you discard {order.pay}" if order.pay else "you owe a discard"
                parts.append(f"You accuse seat {accused}; if you are wrong {wrong}.")
            elif isinstance(order, React) and state.action is not None:
                parts.append(f"You cancel seat {state.actor}'s {state.action.colour} with your "
                             f"{CANCELLED_BY[state.action.colour]} cube if it still stands when your turn comes.")
            elif isinstance(order, Pass):
                parts.append("You pass.")
            elif isinstance(order, Discard):
                parts.append("The service draws a cube for you to discard." if order.colour == RANDOM
                             else f"You discard {order.colour}.")
        return " ".join(parts)

    def sample_orders(self, state: TradeState, seat: str, rng: GameRng) -> list[TradeOrder]:
        """Return a random legal submission of every kind: any action (now and then with a
        TARGET), PASS, ACCUSE with or without PAY, REACT, DISCARD of a chosen or a random cube."""
        trader = state.trader(seat)
        others = list(state.clockwise_after(seat))
        pays = [c for c in trader.cubes if c != state.secret_of(seat)]
        if state.step == ACT:
            colour = rng.choice(list(trader.row))
            kind = rng.choice([CUBE, DISC] if colour == "blue" else [CUBES, DISCS]) \
                if colour in ("yellow", "green", "blue") else ""
            act: list[TradeOrder] = [Act(colour, kind, rng.choice(others) if colour == "green" else "")]
            return act + [Target(rng.choice(others))] if rng.random() < 0.3 else act
        if state.step in (WINDOW, REACTOR_WINDOW):
            roll = rng.random()
            accuse = Accuse(rng.choice(pays) if rng.random() < 0.5 else "")
            can_react = state.step == WINDOW and _react_problem(state, seat) is None
            if can_react and roll < 0.3:
                return [React(), accuse] if roll < 0.05 else [React()]
            return [accuse] if roll > 0.8 else [Pass()]
        if state.step == DISCARD:
            needed = self._needed(state, seat)
            if rng.random() < 0.3:
                return [Discard(RANDOM) for _ in range(needed)]
            return [Discard(c) for c in rng.sample(pays, needed)]
        return [Target(rng.choice(others))]

    # --- resolving ------------------------------------------------------

    def resolve(self, state: TradeState, orders: Mapping[str, Sequence[TradeOrder]],
                rng: GameRng) -> Resolution[TradeState]:
        """Carry out the step under way (see :mod:`.trading`); record who went out in it, and tell
        every secret colour when the game ends.

        Raises GameError when the game is over or an owing seat sent no entry, IllegalOrder for a
        submission ``validate`` refuses.
        """
        checked = self.owed_orders(state, orders)
        before = state.living
        if state.step == ACT:
            state, events = trading.resolve_act(state, checked[state.actor])
        elif state.step == WINDOW:
            state, events = trading.resolve_window(state, checked)
        elif state.step == REACTOR_WINDOW:
            state, events = trading.resolve_reactor_window(state, checked)
        elif state.step == DISCARD:
            state, events = trading.resolve_discards(state, checked, rng)
        else:
            state, events = trading.resolve_target(state, checked[state.actor])
        gone = tuple(s for s in before if s not in state.living)
        if gone:
            state = replace(state, last_out=gone)
        if len(state.living) <= 1:
            told = ", ".join(f"seat {s} {c}" for s, c in zip(state.seats, state.secrets, strict=True))
            events.append(Event("reveal", f"The game is over. The secret colours were: {told}.", trading.label(state),
                                data={"secrets": dict(zip(state.seats, state.secrets, strict=True))}))
        return Resolution(state, events)

    def outcome(self, state: TradeState) -> Outcome | None:
        """Return the last trader left as the winner ([R]); if the last ones went out at the same
        moment, they share the victory ([D])."""
        living = state.living
        if len(living) == 1:
            return Outcome(living, f"Seat {living[0]} is the last trader left.")
        if not living:
            return Outcome(state.last_out, f"{trading.seats_text(state.last_out).capitalize()} went out at the "
                                           "same moment, the last traders left: they share the victory.")
        return None

    def eliminated_seats(self, state: TradeState) -> tuple[str, ...]:
        """Return the traders eliminated: they can no longer agree a draw."""
        return tuple(seat for seat in state.seats if seat not in state.living)

    def scores(self, state: TradeState) -> dict[str, int]:
        """Return the action cubes each seat has left (0 once out)."""
        return {s: 0 if t.out else len(t.cubes) for s, t in zip(state.seats, state.traders, strict=True)}

    # --- hidden information -------------------------------------------------

    def hidden_variant(self, state: TradeState, keep: str | None, rng: GameRng) -> TradeState:
        """Return ``state`` with what seat ``keep`` cannot know redrawn: the secret colours of the
        other living seats (each among his own cubes but the colours a wrong accusation cleared,
        two cubes per colour in all), the other seats' sealed REACTs and the actor's sealed TARGET.
        Once the game is over every secret is public and nothing changes."""
        if self.outcome(state) is not None:
            return state
        state = replace(state, secrets=redraw_secrets(state, keep, rng))
        reacts = state.reacts
        if state.step == REACTOR_WINDOW:
            reacts = tuple(s for s in state.clockwise_after(state.actor)
                           if (s in state.reacts if s == keep else rng.random() < 0.5))
        target = state.target
        if state.actor != keep and state.step in (WINDOW, REACTOR_WINDOW):
            target = rng.choice(["", *state.clockwise_after(state.actor)])
        return replace(state, reacts=reacts, target=target)

    # --- showing ----------------------------------------------------------

    def view(self, state: TradeState, seat: str | None) -> dict[str, Any]:
        """Return every trader's starting row, pushed and discarded cubes, black cubes and discs,
        the colours shown not to be his secret, the supply and the action under way for everyone;
        a seat's own secret colour and sealed orders (his REACT still to come, his TARGET) for that
        seat; the secret colour of a trader who is out; every secret once the game is over."""
        reader = seat if seat in state.seats else None
        over = self.outcome(state) is not None
        players = [
            {
                "seat": s,
                "you": s == reader,
                "out": t.out,
                "to_play": not over and i == state.to_play,
                "row": list(t.row),
                "pushed": list(t.pushed),
                "discarded": list(t.discarded),
                "cubes": len(t.cubes),
                "blacks": t.blacks,
                "discs": t.discs,
                "not_secret": list(t.cleared),
                "secret": state.secrets[i] if over or t.out or s == reader else None,
            }
            for i, (s, t) in enumerate(zip(state.seats, state.traders, strict=True))
        ]
        action = None
        if state.action is not None and not over:
            action = {"seat": state.actor, "colour": state.action.colour, "text": trading.describe(state.action),
                      "order": str(state.action)}
        reactor = None
        if state.reactor and state.action is not None and not over:
            reactor = {"seat": state.reactor, "colour": CANCELLED_BY[state.action.colour]}
        you = None
        if reader is not None:
            you = {
                "seat": reader,
                "secret": state.secret_of(reader),
                "react": not over and _react_waits(state, reader),
                "target": state.target if reader == state.actor and not over else "",
            }
        return {
            "turn": state.turn,
            "over": over,
            "step": None if over else state.step,
            "to_play": None if over else state.actor,
            "action": action,
            "reactor": reactor,
            "owed": [] if over else [{"seat": s, "count": state.owes(s)} for s in state.seats if state.owes(s)],
            "victims": 0 if over else state.victims,
            "supply": {"blacks": state.supply_blacks, "discs": state.supply_discs},
            "window_hours": state.window_hours,
            "players": players,
            "you": you,
        }

    def dump(self, state: TradeState) -> dict[str, Any]:
        """Return the full state as JSON-compatible data."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> TradeState:
        """Rebuild a state from :meth:`dump` output."""
        return load_state(data)

    # --- helpers ----------------------------------------------------------

    @staticmethod
    def _needed(state: TradeState, seat: str) -> int:
        """The DISCARD lines ``seat`` sends now: one per discard owed, but never his last cube
        besides the secret colour (he is out after that one)."""
        if state.step != DISCARD or seat not in state.seats:
            return 0
        return min(state.owes(seat), len(state.trader(seat).cubes) - 1)


def _react_waits(state: TradeState, seat: str) -> bool:
    """True when ``seat``'s sealed REACT may still be taken: a reaction is being answered and he
    comes after the reactor, clockwise, before the actor."""
    if state.step != REACTOR_WINDOW or seat not in state.reacts:
        return False
    after = state.clockwise_after(state.reactor)
    return seat in after[:after.index(state.actor)]


def _discards(count: int) -> str:
    return f"{count} discard{'' if count == 1 else 's'}"


def _other_seat_problem(state: TradeState, seat: str, named: str, order: TradeOrder, what: str) -> str | None:
    """Why ``named`` cannot be the other trader ``order`` names (``what``: "rob", "name"), or None."""
    if named not in state.seats:
        return f"{order}: there is no seat {named} (seats {', '.join(state.seats)})"
    if named == seat:
        return f"{order}: you cannot {what} yourself"
    if state.trader(named).out:
        return f"{order}: seat {named} is out of the game"
    return None


def _react_problem(state: TradeState, seat: str) -> str | None:
    """Why ``seat`` cannot REACT to the action under way, or None."""
    action = state.action
    assert action is not None
    cancel = CANCELLED_BY.get(action.colour)
    if cancel is None:
        return f"REACT: a {action.colour} action cannot be cancelled; send ACCUSE or PASS"
    trader = state.trader(seat)
    if cancel in trader.row:
        return None
    where = "is pushed forward already" if cancel in trader.pushed else "was discarded"
    return f"REACT: cancelling {action.colour} takes your {cancel} cube, which {where}; send ACCUSE or PASS"


def _order_problem(state: TradeState, seat: str, order: TradeOrder) -> str | None:
    """Why one order line cannot be given by ``seat`` in the step under way, or None."""
    trader = state.trader(seat)
    step = state.step
    if isinstance(order, Act) and step == ACT:
        if order.colour not in trader.row:
            where = "is pushed forward already" if order.colour in trader.pushed else "was discarded"
            return f"{order}: your {order.colour} cube {where}; your starting row holds {', '.join(trader.row)}"
        return _other_seat_problem(state, seat, order.seat, order, "rob") if order.colour == "green" else None
    if isinstance(order, Target) and step in (ACT, TARGET):
        return _other_seat_problem(state, seat, order.seat, order, "name")
    if isinstance(order, Pass) and step in (WINDOW, REACTOR_WINDOW):
        return None
    if isinstance(order, Accuse) and step in (WINDOW, REACTOR_WINDOW):
        if order.pay and order.pay not in trader.cubes:
            return f"{order}: you have no {order.pay} cube to pay with"
        if order.pay == state.secret_of(seat):
            return f"{order}: you may not pay with your secret colour"
        return None
    if isinstance(order, React) and step == WINDOW:
        return _react_problem(state, seat)
    if isinstance(order, Discard) and step == DISCARD:
        if order.colour == RANDOM:
            return None
        if order.colour not in trader.cubes:
            return f"{order}: you have no {order.colour} cube"
        if order.colour == state.secret_of(seat):
            return f"{order}: you may not discard your secret colour"
        return None
    return f"{order}: not now; {_step_hint(state)}"


def _step_hint(state: TradeState) -> str:
    """What the step under way takes, for a refused line."""
    if state.step == ACT:
        return f"it is your turn to act: {act_syntax(state.trader(state.actor).row)}, and perhaps TARGET <seat>"
    if state.step == WINDOW:
        return f"answer seat {state.actor}'s action with PASS, ACCUSE [PAY <colour>] or REACT"
    if state.step == REACTOR_WINDOW:
        return f"answer seat {state.reactor}'s reaction with PASS or ACCUSE [PAY <colour>]"
    if state.step == DISCARD:
        return "send DISCARD <colour> (or DISCARD RANDOM) for each discard you owe"
    return "name the player who discards: TARGET <seat>"


def _shape_problem(state: TradeState, seat: str, orders: Sequence[TradeOrder], needed: int) -> str | None:
    """Why the lines, each fine, do not make a submission for the step under way, or None."""
    count = {kind: sum(1 for o in orders if isinstance(o, kind)) for kind in (Act, Target, Pass, Accuse, React)}
    if state.step == ACT:
        if count[Act] != 1 or count[Target] > 1:
            return "a turn is one ACT line (e.g. ACT RED), with at most one TARGET line"
        return None
    if state.step in (WINDOW, REACTOR_WINDOW):
        if not orders:
            return f"send PASS or ACCUSE [PAY <colour>]{' or REACT' if state.step == WINDOW else ''}"
        if count[Pass] and len(orders) > 1:
            return "PASS goes alone: to accuse or react, leave PASS out"
        if count[Accuse] > 1 or count[React] > 1 or count[Pass] > 1:
            return "send each of PASS, ACCUSE and REACT at most once"
        return None
    if state.step == DISCARD:
        colours = [o.colour for o in orders if isinstance(o, Discard) and o.colour != RANDOM]
        if len(orders) != needed:
            return f"you owe {_discards(needed)}: send {needed} DISCARD line{'' if needed == 1 else 's'}"
        if len(set(colours)) != len(colours):
            return "each DISCARD names a different cube"
        return None
    if count[Target] != 1 or len(orders) != 1:
        return "send one TARGET <seat> line"
    return None
