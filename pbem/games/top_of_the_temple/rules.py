"""The Top of the Temple (Gateway Island, game 3) as a play-by-email game.

Five believers (red, blue, green, yellow, black) climb a stairway of steps
0..12. At the start the service draws one secret colour per seat from a bag
of the five; colours nobody drew belong to nobody and stay secret. On his
turn a player places the five colours on the offer spaces +5, +3, +1, -1, -2
(``OFFER`` lists them left to right); the offers move their believers from
left to right. The first believer on step 12 ends the game at once: its
owner wins, or, if nobody owns it, the owner of the owned believer closest
to the top. Then every secret colour is revealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.bag import Bag
from pbem.core.game import BaseGame, TurnShape
from pbem.core.seats import START, START_DESCRIPTION, first_player

from .orders import Offer
from .state import COLOURS, OFFER_VALUES, TOP, TempleState

NMR_OFFER = Offer(COLOURS)
"""The NMR default (CLARIFICATIONS): the colours in their listed order."""


class TopOfTheTemple(BaseGame[TempleState, Offer]):
    """The Top of the Temple game object (stateless; every method is pure)."""

    name: ClassVar[str] = "top-of-the-temple"
    title: ClassVar[str] = "The Top of the Temple"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 5
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_chance: ClassVar[bool] = True
    has_hidden_information: ClassVar[bool] = True
    declared_options: ClassVar[Mapping[str, str]] = {START: START_DESCRIPTION}
    terminal_words: ClassVar[Mapping[str, str]] = {"COLOUR": "a colour (red, blue, green, yellow or black)"}
    transformer_class: ClassVar[str] = f"{__package__}.grammar:TempleTransformer"
    state_class: ClassVar[type] = TempleState

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> TempleState:
        """Return the start: every believer on step 0, one secret colour drawn per seat
        (in seat order) from the bag of five, then the first player chosen.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        with rng.sealed():  # listing these draws in the reports would show the colours
            secrets, _ = Bag.filled(COLOURS, 1).draw(len(seats), rng)
        first = first_player(seats, checked.get(START), rng)
        return TempleState(seats=tuple(seats), secrets=secrets, steps=tuple(0 for _ in COLOURS), to_play=first)

    # --- asking for orders ------------------------------------------------

    def phase(self, state: TempleState) -> Phase:
        """Return the turn of the seat to offer (one seat at a time)."""
        values = " ".join(f"{v:+d}" for v in OFFER_VALUES)
        return Phase("offer", (state.seat_to_play,),
                     f"Place the five colours on the offer spaces {values}, left to right (OFFER c1 c2 c3 c4 c5).")

    def validate(self, state: TempleState, seat: str, orders: Sequence[Offer]) -> list[OrderProblem]:
        """Return the problems of a submission: exactly one OFFER naming each colour once."""
        if problems := self.turn_problems(state, seat):
            return problems
        if len(orders) != 1:
            return [OrderProblem(None, "a turn is exactly one OFFER, e.g. OFFER blue green red black yellow")]
        problem = offer_problem(orders[0])
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: TempleState, seat: str) -> list[Offer]:
        """Return the NMR default, OFFER red blue green yellow black (the same for every seat,
        so it tells nothing about a secret colour)."""
        return [NMR_OFFER]

    def sample_orders(self, state: TempleState, seat: str, rng: GameRng) -> list[Offer]:
        """Return a random offer: the five colours in a random order."""
        colours = list(COLOURS)
        rng.shuffle(colours)
        return [Offer(tuple(colours))]

    # --- resolving ------------------------------------------------------

    def resolve(self, state: TempleState, orders: Mapping[str, Sequence[Offer]],
                rng: GameRng) -> Resolution[TempleState]:
        """Move the believers of the offer from left to right; stop at once when one reaches the
        top (the offers right of it are not resolved) and reveal every secret colour.

        Raises GameError when the game is over or the seat to play sent no entry, IllegalOrder
        for an offer that does not name each colour once.
        """
        seat = state.seat_to_play
        offer = self.owed_orders(state, orders)[seat][0]
        label = f"Turn {state.turn + 1}"
        placed = ", ".join(f"{c} {v:+d}" for c, v in zip(offer.colours, OFFER_VALUES, strict=True))
        events = [Event("offer", f"Seat {seat} offers {placed}.", label, seat=seat,
                        data={"colours": list(offer.colours)})]
        steps = list(state.steps)
        for colour, value in zip(offer.colours, OFFER_VALUES, strict=True):
            i = COLOURS.index(colour)
            before = steps[i]
            steps[i] = min(TOP, max(0, before + value))
            events.append(_move_event(colour, before, steps[i], value, label))
            if steps[i] >= TOP:
                left = offer.colours[offer.colours.index(colour) + 1:]
                if left:
                    events.append(Event("unresolved", f"The offers right of it ({', '.join(left)}) are not "
                                        "resolved.", label, data={"colours": list(left)}))
                break
        state = replace(state, steps=tuple(steps), turn=state.turn + 1, last_offer=offer.colours, last_player=seat)
        if state.top_colour is not None:
            state = replace(state, finished=True)
            events.append(_reveal_event(state, label))
        else:
            state = replace(state, to_play=(state.to_play + 1) % len(state.seats))
        return Resolution(state, events)

    def outcome(self, state: TempleState) -> Outcome | None:
        """Return the winner once a believer reached the top: its owner, or, if nobody owns it,
        the owners of the owned believers closest to the top (a tie shares the win)."""
        top = state.top_colour
        if not state.finished or top is None:
            return None
        if top in state.secrets:
            owner = state.seats[state.secrets.index(top)]
            return Outcome((owner,), f"The {top} believer reached the top of the temple: it is seat {owner}'s "
                                     "secret colour.")
        best = max(state.step_of(c) for c in state.secrets)
        winners = tuple(s for s, c in zip(state.seats, state.secrets, strict=True) if state.step_of(c) == best)
        closest = ", ".join(f"seat {s} ({state.secret_of(s)})" for s in winners)
        verb = "is" if len(winners) == 1 else "share"
        return Outcome(winners, f"The {top} believer reached the top, but nobody drew {top}; {closest} "
                                f"{verb} the owned believer{'s' if len(winners) > 1 else ''} closest to the top, "
                                f"on step {best}.")

    def scores(self, state: TempleState) -> dict[str, int]:
        """Return each seat's believer's step once the game is over; 0 for everyone before, since
        the step of a seat's believer would tell its secret colour."""
        if not state.finished:
            return {seat: 0 for seat in state.seats}
        return {seat: state.step_of(state.secret_of(seat)) for seat in state.seats}

    # --- hidden information -------------------------------------------------

    def hidden_variant(self, state: TempleState, keep: str | None, rng: GameRng) -> TempleState:
        """Return ``state`` with the secret colours of every seat but ``keep`` dealt again at random
        from those colours and the undrawn ones (while the game runs; at the end all is public)."""
        if state.finished:
            return state
        others = [i for i, s in enumerate(state.seats) if s != keep]
        pool = [state.secrets[i] for i in others] + list(state.undrawn)
        rng.shuffle(pool)
        secrets = list(state.secrets)
        for i, colour in zip(others, pool, strict=False):
            secrets[i] = colour
        return replace(state, secrets=tuple(secrets))

    # --- showing ----------------------------------------------------------

    def view(self, state: TempleState, seat: str | None) -> dict[str, Any]:
        """Return the stairway, the offer spaces, the last offer and whose turn it is for
        everyone; a seat's own secret colour for that seat; every secret colour (and the
        undrawn ones) once the game is over."""
        reader = seat if seat in state.seats else None
        revealed = state.finished
        players = [
            {
                "seat": s,
                "you": s == reader,
                "to_play": i == state.to_play and not state.finished,
                "colour": state.secrets[i] if revealed or s == reader else None,
                "step": state.step_of(state.secrets[i]) if revealed or s == reader else None,
            }
            for i, s in enumerate(state.seats)
        ]
        stairway = [
            {"step": step, "colours": [c for c in COLOURS if state.step_of(c) == step],
             "top": step == TOP}
            for step in range(TOP, -1, -1)
        ]
        return {
            "turn": state.turn,
            "over": state.finished,
            "top": TOP,
            "to_play": None if state.finished else state.seat_to_play,
            "believers": [{"colour": c, "step": state.step_of(c)} for c in COLOURS],
            "stairway": stairway,
            "offer_values": list(OFFER_VALUES),
            "last_offer": [{"colour": c, "value": v} for c, v in zip(state.last_offer, OFFER_VALUES, strict=False)],
            "last_player": state.last_player or None,
            "players": players,
            "you": None if reader is None else {"seat": reader, "colour": state.secret_of(reader),
                                                "step": state.step_of(state.secret_of(reader))},
            "undrawn": list(state.undrawn) if revealed else None,
            "top_colour": state.top_colour,
        }


def offer_problem(offer: Offer) -> str | None:
    """Return why ``offer`` is not a placing of the five colours, each once; None when it is."""
    if not isinstance(offer, Offer):
        return f"{offer}: send an OFFER"
    twice = [c for c in COLOURS if offer.colours.count(c) > 1]
    missing = [c for c in COLOURS if c not in offer.colours]
    if not twice and not missing and len(offer.colours) == len(COLOURS):
        return None
    said = "; ".join(part for part in (
        f"{' and '.join(twice)} {'is' if len(twice) == 1 else 'are'} given more than once" if twice else "",
        f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} missing" if missing else "",
    ) if part)
    return f"{offer}: each of the five colours goes on exactly one offer space ({said})"


def _move_event(colour: str, before: int, after: int, value: int, label: str) -> Event:
    if after >= TOP:
        text = f"The {colour} believer climbs to the top of the temple (step {TOP})!"
    elif after > before:
        text = f"The {colour} believer climbs {after - before} step{'s' if after - before > 1 else ''} to step {after}."
    elif after < before:
        text = f"The {colour} believer goes down {before - after} step{'s' if before - after > 1 else ''} to step {after}."
    else:
        text = f"The {colour} believer stays on step {after} (a believer never goes below the start)."
    return Event("move", text, label, data={"colour": colour, "from": before, "to": after, "offer": value})


def _reveal_event(state: TempleState, label: str) -> Event:
    owned = ", ".join(f"seat {s} {c}" for s, c in zip(state.seats, state.secrets, strict=True))
    undrawn = state.undrawn
    nobody = f"; nobody drew {', '.join(undrawn)}" if undrawn else ""
    return Event("reveal", f"The secret colours are revealed: {owned}{nobody}.", label,
                 data={"secrets": dict(zip(state.seats, state.secrets, strict=True)), "undrawn": list(undrawn)})
