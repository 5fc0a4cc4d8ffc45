"""Johnny and the Toe-Sap Fungus: the game object (setup, turns, scoring phases, views).

The turn logic proper lives in :mod:`.board` (legality) and :mod:`.scoring`
(choosers, values, winner); this module sequences the game: play, the final
round, the VALUE phase, the ORDER phase.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, few_choices, single_orders
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.core.words import plural
from pbem.games.toe_sap_fungus import board, scoring
from pbem.games.toe_sap_fungus.board import GRID, PlayOrder
from pbem.games.toe_sap_fungus.orders import (
    MoveOrder,
    OfferOrder,
    RankOrder,
    ShellOrder,
    ToeSapOrder,
    ValueOrder,
)
from pbem.games.toe_sap_fungus.state import (
    COLOURS,
    FINAL,
    ORDER,
    OVER,
    PLAY,
    START_COWS,
    STONES_PER_COLOUR,
    VALUE,
    Player,
    ToeSapState,
)

PHASE_LABELS: dict[str, str] = {PLAY: "Play", FINAL: "Final round", VALUE: "Scoring", ORDER: "Scoring"}


class ToeSapFungus(BaseGame[ToeSapState, ToeSapOrder]):
    """Johnny and the Toe-Sap Fungus for 2-4 players on a chess board."""

    name = "toe-sap-fungus"
    title = "Johnny and the Toe-Sap Fungus"
    min_players, max_players = 2, 4
    declared_options = {START: START_DESCRIPTION}
    terminal_words = {"SQUARE": "a square such as e5", "COLOUR": "a colour (BLUE, GREEN, ORANGE or WHITE)"}
    agreed_end_refusal = ('the rule book breaks every tie because "there can only be one toe-sap hero!": the '
                          "game always ends with one winner, never in a draw")

    # ----------------------------------------------------------------- set up
    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> ToeSapState:
        """Return the starting position. Raises GameError for a bad player count or option."""
        seats = self.check_seats(seats)
        count = len(seats)
        at = first_player(seats, self.check_options(options).get(START), rng)
        players = tuple(
            Player(
                seat=seat,
                colours=colours,
                square=square,
                cows=START_COWS,
                shells=0,
                hand=tuple(STONES_PER_COLOUR for _ in colours),
                collected=tuple(0 for _ in COLOURS),
            )
            for seat, colours, square in zip(seats, board.SEAT_COLOURS[count], board.SEAT_SQUARES[count], strict=True)
        )
        return ToeSapState(
            players=players,
            turn_order=tuple(seats[at:]) + tuple(seats[:at]),
            shells=frozenset(board.SHELL_SQUARES),
            cownivores=board.COWNIVORE_SQUARES,
            sap=frozenset(),
            stage=PLAY,
            to_move=seats[at],
        )

    # ------------------------------------------------------------------ phase
    def phase(self, state: ToeSapState) -> Phase:
        """Return the one seat to move (or the chooser in the scoring phases)."""
        seat = state.to_move
        if state.stage == OVER or seat is None:
            return Phase(OVER, ())
        player = state.player(seat)
        if state.stage == VALUE:
            prompt = f"Seat {seat} has the most cows and chooses the colour worth 5 points: VALUE <colour>."
        elif state.stage == ORDER:
            prompt = (
                f"{(state.value_colour or '').capitalize()} is worth 5. Seat {seat} has the most shells and "
                f"orders {', '.join(scoring.other_colours(state.value_colour or ''))} "
                "to be worth 3, 2 and 1: ORDER <colour> <colour> <colour>."
            )
        else:
            prompt = (
                f"Seat {seat} to move from {player.square} ({plural(player.stones_left, 'stone')}, "
                f"{plural(player.cows, 'cow')}, {plural(player.shells, 'shell')}): MOVE, SHELL or OFFER."
            )
            if state.stage == FINAL:
                rest = state.final_queue[1:]
                prompt = "Final round. " + prompt + (f" Then: {', '.join(rest)}." if rest else " Last turn.")
        return Phase(state.stage, (seat,), prompt)

    # --------------------------------------------------------------- validate
    def validate(self, state: ToeSapState, seat: str, orders: Sequence[ToeSapOrder]) -> list[OrderProblem]:
        """Return a problem per refused order; index None for the submission as a whole."""
        if problems := self.turn_problems(state, seat):
            return problems
        problems = [
            OrderProblem(index, f"{order}: {message}")
            for index, order in enumerate(orders)
            if (message := self._order_problem(state, seat, order)) is not None
        ]
        if len(orders) > 1:
            problems.append(OrderProblem(None, f"a turn is exactly one order; you sent {len(orders)}: send one"))
        elif not orders and not self._may_send_nothing(state, seat):
            what = "MOVE, SHELL or OFFER" if state.stage in (PLAY, FINAL) else state.stage.upper()
            problems.append(OrderProblem(None, f"a turn is exactly one order; send one ({what})"))
        return problems

    def _may_send_nothing(self, state: ToeSapState, seat: str) -> bool:
        return state.stage in (PLAY, FINAL) and not board.has_legal_turn(state, seat)

    def _order_problem(self, state: ToeSapState, seat: str, order: ToeSapOrder) -> str | None:
        if state.stage in (PLAY, FINAL):
            if isinstance(order, (ValueOrder, RankOrder)):
                return "the toe-sap values are chosen only after play ends"
            return board.play_problem(state, seat, order)
        if isinstance(order, (MoveOrder, ShellOrder, OfferOrder)):
            return f"play is over; send {state.stage.upper()}"
        if state.stage == VALUE:
            return None if isinstance(order, ValueOrder) else "first the colour worth 5 is chosen: send VALUE <colour>"
        if not isinstance(order, RankOrder):
            return f"{state.value_colour} is already worth 5: send ORDER <colour> <colour> <colour>"
        needed = scoring.other_colours(state.value_colour or "")
        if sorted(order.colours) != sorted(needed):
            return f"name each of {', '.join(needed)} once"
        return None

    # --------------------------------------------------- defaults and helpers
    def default_orders(self, state: ToeSapState, seat: str) -> list[ToeSapOrder]:
        """NMR: pass in play; in the scoring phases the choice best for the chooser."""
        if seat != state.to_move:
            return []
        if state.stage == VALUE:
            return [scoring.best_value(state.player(seat))]
        if state.stage == ORDER:
            return [scoring.best_rank(state.player(seat), state.value_colour or "")]
        return []

    def forced_orders(self, state: ToeSapState, seat: str) -> list[ToeSapOrder] | None:
        """Return [] (pass) when the seat has no legal turn, the one turn when there is
        exactly one, else None. VALUE/ORDER always have several choices."""
        if seat != state.to_move:
            return None
        options: list[ToeSapOrder]
        if state.stage in (PLAY, FINAL):
            turns = board.legal_turns(state, seat)
            options = [turn for _, turn in zip(range(2), turns, strict=False)]
            if not options:
                return []
        elif state.stage == VALUE:
            options = list(scoring.value_choices())
        elif state.stage == ORDER:
            options = list(scoring.rank_choices(state.value_colour or ""))
        else:
            return None
        return options if len(options) == 1 else None

    def order_choices(self, state: ToeSapState, seat: str) -> list[list[ToeSapOrder]] | None:
        """Return the 4 VALUE and 6 ORDER choices of the scoring, or in play every legal turn when few."""
        if state.stage == VALUE:
            return few_choices(single_orders(scoring.value_choices()))
        if state.stage == ORDER:
            return few_choices(single_orders(scoring.rank_choices(state.value_colour or "")))
        return few_choices(single_orders(board.legal_turns(state, seat)))

    def submission_summary(self, state: ToeSapState, seat: str, orders: Sequence[ToeSapOrder]) -> str:
        """Return a line saying what the turn does with the stones, or ""."""
        if len(orders) == 1 and isinstance(orders[0], MoveOrder):
            colour = board.drop_colour(state, seat, orders[0].colour)
            if colour is not None:
                return f"You will drop {_a(colour)} stone on {orders[0].source}."
        return ""

    def sample_orders(self, state: ToeSapState, seat: str, rng: GameRng) -> list[ToeSapOrder]:
        """Return a random legal turn: a kind (MOVE/SHELL/OFFER) first, then one of its turns."""
        if seat != state.to_move:
            return []
        if state.stage == VALUE:
            return [rng.choice(scoring.value_choices())]
        if state.stage == ORDER:
            return [rng.choice(scoring.rank_choices(state.value_colour or ""))]
        if state.stage not in (PLAY, FINAL):
            return []
        kinds: list[list[PlayOrder]] = [
            list(board.move_turns(state, seat)),
            list(board.shell_turns(state, seat)),
            list(board.offer_turns(state, seat)),
        ]
        kinds = [k for k in kinds if k]
        if not kinds:
            return []
        return [rng.choice(rng.choice(kinds))]

    # ---------------------------------------------------------------- resolve
    def resolve(self, state: ToeSapState, orders: Mapping[str, Sequence[ToeSapOrder]], rng: GameRng) -> Resolution[ToeSapState]:
        """Play the turn of the seat to move (or its scoring choice) and move on.

        Raises GameError when the game is already over.
        """
        seat = state.to_move
        if state.stage == OVER or seat is None:
            raise GameError("the game is over")
        given = list(orders.get(seat, ()))
        state = replace(state, turns=state.turns + 1)
        if state.stage in (PLAY, FINAL):
            return self._resolve_play(state, seat, given)
        if not given:
            given = self.default_orders(state, seat)
        if state.stage == VALUE:
            return self._resolve_value(state, seat, given[0])
        return self._resolve_rank(state, seat, given[0])

    def _resolve_play(self, state: ToeSapState, seat: str, given: list[ToeSapOrder]) -> Resolution[ToeSapState]:
        label = PHASE_LABELS[state.stage]
        events: list[Event] = []
        dropped_last = False
        order = given[0] if given else None
        problem = None if order is None else self._order_problem(state, seat, order)
        if order is None or problem is not None:
            if problem is not None:
                events.append(Event("failed", f"Seat {seat}'s order {order} failed: {problem}.", label, seat, {"order": str(order)}))
            elif board.has_legal_turn(state, seat):
                events.append(Event("pass", f"Seat {seat} sent no order and passes.", label, seat))
            else:
                events.append(Event("pass", f"Seat {seat} has no legal turn and passes.", label, seat))
        elif isinstance(order, MoveOrder):
            state, event, dropped_last = self._apply_move(state, seat, order, label)
            events.append(event)
        elif isinstance(order, ShellOrder):
            state, event = self._apply_shell(state, seat, order, label)
            events.append(event)
        elif isinstance(order, OfferOrder):
            state, event = self._apply_offer(state, seat, order, label)
            events.append(event)
        state, more = self._advance(state, seat, dropped_last)
        return Resolution(state, events + more)

    @staticmethod
    def _collect(player: Player, colour: str) -> Player:
        collected = list(player.collected)
        collected[COLOURS.index(colour)] += 1
        return replace(player, collected=tuple(collected))

    def _apply_move(self, state: ToeSapState, seat: str, order: MoveOrder, label: str) -> tuple[ToeSapState, Event, bool]:
        player = state.player(seat)
        colour = board.drop_colour(state, seat, order.colour)
        sap = dict(state.sap)
        shells = state.shells
        parts = [f"Seat {seat} moved {order.source}-{order.target}"]
        if order.target in shells:
            shells = shells - {order.target}
            player = replace(player, shells=player.shells + 1)
            parts.append(f"collected the shell on {order.target}")
        found = sap.pop(order.target, None)
        if found is not None:
            player = self._collect(player, found)
            parts.append(f"collected {_a(found)} stone")
        if colour is not None:
            hand = list(player.hand)
            hand[player.colours.index(colour)] -= 1
            player = replace(player, hand=tuple(hand))
            sap[order.source] = colour
            parts.append(f"dropped {_a(colour)} stone on {order.source}")
        else:
            parts.append("had no stone left to drop")
        player = replace(player, square=order.target)
        state = replace(state, shells=shells, sap=frozenset(sap.items())).with_player(player)
        text = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
        dropped_last = colour is not None and player.stones_left == 0
        data = {"order": str(order), "dropped": colour, "collected": found}
        return state, Event("move", text + ".", label, seat, data), dropped_last

    def _apply_shell(self, state: ToeSapState, seat: str, order: ShellOrder, label: str) -> tuple[ToeSapState, Event]:
        player = state.player(seat)
        sap = dict(state.sap)
        source = player.square
        player = replace(player, shells=player.shells - 1, square=order.target)
        text = f"Seat {seat} traded a shell and sailed from {source} to {order.target}"
        found = sap.pop(order.target, None)
        if found is not None:
            player = self._collect(player, found)
            text += f", collecting {_a(found)} stone"
        state = replace(state, sap=frozenset(sap.items())).with_player(player)
        return state, Event("shell", text + ".", label, seat, {"order": str(order), "collected": found})

    def _apply_offer(self, state: ToeSapState, seat: str, order: OfferOrder, label: str) -> tuple[ToeSapState, Event]:
        player = state.player(seat)
        sap = dict(state.sap)
        path = board.offer_path(order)
        counts = board.colour_counts(path, sap)
        for square in path:
            sap.pop(square, None)
        collected = tuple(a + b for a, b in zip(player.collected, counts, strict=True))
        player = replace(player, cows=player.cows - 1, collected=collected)
        origin, end = order.squares[0], order.squares[-1]
        cownivores = tuple(end if c == origin else c for c in state.cownivores)
        state = replace(state, cownivores=cownivores, sap=frozenset(sap.items())).with_player(player)
        got = [f"{n} {c}" for c, n in zip(COLOURS, counts, strict=True) if n]
        haul = f"collected {_and_list(got)} toe-sap for seat {seat}" if got else "collected nothing"
        cows = f"{player.cows} cow{'s' if player.cows != 1 else ''} left"
        text = f"Seat {seat} offered a cow ({cows}): the Cownivore went {'-'.join(order.squares)} and {haul}."
        data = {"order": str(order), "collected": dict(zip(COLOURS, counts, strict=True))}
        return state, Event("offer", text, label, seat, data)

    def _advance(self, state: ToeSapState, seat: str, dropped_last: bool) -> tuple[ToeSapState, list[Event]]:
        """Pick the next seat: the next in turn order, the final round, or scoring."""
        if state.stage == FINAL:
            queue = state.final_queue[1:]
            if queue:
                return replace(state, final_queue=queue, to_move=queue[0]), []
            done = Event("final-round-over", "The final round is over.", PHASE_LABELS[FINAL])
            state, events = self._start_scoring(replace(state, final_queue=()))
            return state, [done, *events]
        at = state.turn_order.index(seat)
        after = state.turn_order[at + 1 :] + state.turn_order[: at + 1]
        if dropped_last:
            text = (
                f"Seat {seat} dropped his last stone: every player gets one final turn, "
                f"in the order {', '.join(after)}."
            )
            state = replace(state, stage=FINAL, final_queue=after, to_move=after[0], trigger_seat=seat)
            return state, [Event("final-round", text, PHASE_LABELS[PLAY], seat, {"order": list(after)})]
        if not any(board.has_legal_turn(state, s) for s in state.turn_order):
            stuck = Event("stuck", "No player has a legal turn: play ends.", PHASE_LABELS[PLAY])
            state, events = self._start_scoring(state)
            return state, [stuck, *events]
        return replace(state, to_move=after[0]), []

    def _start_scoring(self, state: ToeSapState) -> tuple[ToeSapState, list[Event]]:
        chooser = scoring.cow_leader(state)
        cows = state.player(chooser).cows
        text = f"Seat {chooser} has the most cows ({cows}) and chooses the colour worth 5 points."
        state = replace(state, stage=VALUE, to_move=chooser)
        return state, [Event("value-chooser", text, PHASE_LABELS[VALUE], chooser)]

    def _resolve_value(self, state: ToeSapState, seat: str, order: ToeSapOrder) -> Resolution[ToeSapState]:
        label = PHASE_LABELS[VALUE]
        if not isinstance(order, ValueOrder):
            order = scoring.best_value(state.player(seat))
        chooser = scoring.shell_leader(state)
        shells = state.player(chooser).shells
        events = [
            Event("value", f"Seat {seat} made {order.colour} toe-sap worth 5 points.", label, seat, {"colour": order.colour}),
            Event(
                "order-chooser",
                f"Seat {chooser} has the most shells ({shells}) and orders the other colours (3, 2, 1 points).",
                label,
                chooser,
            ),
        ]
        state = replace(state, stage=ORDER, value_colour=order.colour, to_move=chooser)
        return Resolution(state, events)

    def _resolve_rank(self, state: ToeSapState, seat: str, order: ToeSapOrder) -> Resolution[ToeSapState]:
        label = PHASE_LABELS[ORDER]
        top = state.value_colour or ""
        if not isinstance(order, RankOrder) or self._order_problem(state, seat, order) is not None:
            order = scoring.best_rank(state.player(seat), top)
        state = replace(state, stage=OVER, order_colours=order.colours, to_move=None)
        values = scoring.final_values(state) or {}
        worth = ", ".join(f"{c} {values[c]}" for c in (top, *order.colours))
        events = [Event("order", f"Seat {seat} ordered the colours: {worth}.", label, seat, {"colours": list(order.colours)})]
        for player in state.players:
            events.append(
                Event(
                    "score",
                    f"Seat {player.seat} scores {scoring.points(player, values)} points "
                    f"from {player.collected_total} collected stones.",
                    label,
                    player.seat,
                )
            )
        hero = scoring.winner(state)
        events.append(Event("winner", f"Seat {hero} is the toe-sap hero of the island!", label, hero))
        return Resolution(state, events)

    # ------------------------------------------------------------ end, views
    def outcome(self, state: ToeSapState) -> Outcome | None:
        """Return the single hero once the ORDER is chosen, else None."""
        if state.stage != OVER:
            return None
        hero = scoring.winner(state)
        values = scoring.final_values(state) or {}
        points = scoring.points(state.player(hero), values)
        return Outcome((hero,), f"Seat {hero} is the toe-sap hero with {points} points.")

    def scores(self, state: ToeSapState) -> dict[str, int]:
        """Collected stones while the values are open; the final points once ORDER is chosen."""
        values = scoring.final_values(state)
        if values is None:
            return {p.seat: p.collected_total for p in state.players}
        return {p.seat: scoring.points(p, values) for p in state.players}

    def view(self, state: ToeSapState, seat: str | None) -> dict[str, Any]:
        """Return the whole (public) position; every seat sees the same."""
        sap = state.sap_at()
        values = scoring.final_values(state)
        return {
            "stage": state.stage,
            "to_move": state.to_move,
            "turn_order": list(state.turn_order),
            "final_queue": list(state.final_queue),
            "trigger_seat": state.trigger_seat,
            "value_colour": state.value_colour,
            "order_colours": list(state.order_colours) if state.order_colours is not None else None,
            "values": values,
            "scores_are": "points" if values is not None else "collected stones",
            "pieces": {p.seat: p.square for p in state.players},
            "shells": sorted(state.shells, key=_square_key),
            "cownivores": list(state.cownivores),
            "toe_sap": {square: sap[square] for square in sorted(sap, key=_square_key)},
            "rows": _rows(state),
            "files": list(GRID.column_letters()),
            "legend": _legend(state),
            "seats": [
                {
                    "seat": p.seat,
                    "you": p.seat == seat,
                    "colours": list(p.colours),
                    "initials": "".join(_initial(c) for c in p.colours),
                    "square": p.square,
                    "cows": p.cows,
                    "shells": p.shells,
                    "stones_left": dict(zip(p.colours, p.hand, strict=True)),
                    "stones_left_total": p.stones_left,
                    "collected": dict(zip(COLOURS, p.collected, strict=True)),
                    "collected_total": p.collected_total,
                    "points": scoring.points(p, values) if values is not None else None,
                }
                for p in state.players
            ],
        }


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _a(colour: str) -> str:
    return f"an {colour}" if colour[0] in "aeiou" else f"a {colour}"


def _initial(colour: str) -> str:
    return colour[0].upper()


def _square_key(square: str) -> tuple[int, int]:
    col, row = board.cell(square)
    return (row, col)


def _mark(state: ToeSapState, square: str, sap: dict[str, str], pieces: dict[str, str]) -> str:
    if square in pieces:
        return pieces[square]
    if square in state.cownivores:
        return "C"
    if square in state.shells:
        return "S"
    if square in sap:
        return _initial(sap[square])
    return "."


def _rows(state: ToeSapState) -> list[dict[str, Any]]:
    """The board from rank 8 (top) to rank 1: each row its rank and one mark per file."""
    sap = state.sap_at()
    pieces = {p.square: p.seat for p in state.players}
    rows = []
    for row in range(GRID.height):
        marks = [_mark(state, GRID.name((col, row)), sap, pieces) for col in range(GRID.width)]
        rows.append({"rank": GRID.row_number(row), "cells": marks})
    return rows


def _legend(state: ToeSapState) -> list[str]:
    used = [c for c in COLOURS if state.owner_of(c) is not None]
    lines = [f"{p.seat} = seat {p.seat}'s piece" for p in state.players]
    lines += ["C = Cownivore", "S = shell"]
    lines += [f"{_initial(c)} = {c} toe-sap (seat {state.owner_of(c)})" for c in used]
    lines.append(". = empty sand")
    return lines
