"""Fungus: the game object (setup, phases, validation, resolution, scores, views)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from pbem.core import Event, GameError, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, few_choices, single_orders
from pbem.core.hexgrid import BadHexName, HexCell
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.games.fungus import board as b
from pbem.games.fungus.orders import KEEP, TAKE, Drop, DropNone, FungusOrder, Place
from pbem.games.fungus.state import DROP, EMPTY, FUNGUS, GEMS_PER_PLAYER, OVER, SETUP, SETUP_GEMS, FungusState

MIN_SIZE = 5
MAX_SIZE = 19
DEFAULT_SIZE = 10

LABELS: Mapping[str, str] = {SETUP: "Setup", FUNGUS: "Fungus phase", DROP: "Drop phase", OVER: "End of the game"}
"""The heading a report prints over the events of each stage."""


class Fungus(BaseGame[FungusState, FungusOrder]):
    """Fungus by Bobby Doran, for 2 to 4 players, basic and aggressive variants."""

    name = "fungus"
    title = "Fungus"
    min_players, max_players = 2, 4
    declared_options = {
        "size": f"board size N (an N x N hex rhombus), {MIN_SIZE} to {MAX_SIZE}; default {DEFAULT_SIZE}",
        "variant": "basic (default) or aggressive (captures, largest-group scoring)",
        START: START_DESCRIPTION,
    }
    quick_options = {"size": str(MIN_SIZE)}
    terminal_words = {"CELL": "a cell such as e5", "SEAT": "a seat number such as 2", "TAKE": '"TAKE"', "KEEP": '"KEEP"'}

    # ----- set-up -------------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> FungusState:
        """Return the empty board with the first seat to place a setup gem.

        Raises GameError for a bad player count, an unknown option or a bad value.
        """
        names = self.check_seats(seats)
        options = self.check_options(options)
        size = _size_option(options.get("size", str(DEFAULT_SIZE)))
        variant = options.get("variant", "basic").strip().lower()
        if variant not in ("basic", "aggressive"):
            raise GameError(f"variant={options['variant']} is unknown; use basic or aggressive")
        first = names[first_player(names, options.get(START), rng)]
        gems = GEMS_PER_PLAYER[len(names)]
        return FungusState(
            seats=names,
            size=size,
            aggressive=variant == "aggressive",
            first=first,
            board=(EMPTY,) * (size * size),
            supply=(gems,) * len(names),
            setup_placed=(0,) * len(names),
            kept=((),) * len(names),
            stage=SETUP,
            to_move=first,
        )

    # ----- what is awaited ----------------------------------------------------

    def phase(self, state: FungusState) -> Phase:
        """Return the stage, the one seat that owes orders, and a prompt addressed to it.

        Raises GameError when the game is over.
        """
        seat = state.to_move
        if state.stage == OVER or seat is None:
            raise GameError("the game is over")
        i = state.index(seat)
        if state.stage == SETUP:
            where = "on a cell off the board edge and next to no gem"
            if not any(b.is_setup_cell(state, c) for c in b.empty_cells(state)):
                where = "on any empty cell, as no inner cell next to no gem is left"
            prompt = f"Place setup gem {state.setup_placed[i] + 1} of {SETUP_GEMS} {where}."
        elif state.stage == FUNGUS:
            where = "next to another player's gem"
            if not any(b.touches_enemy(state, c, seat) for c in b.empty_cells(state)):
                where = "on any empty cell, as none next to another player's gem is free"
            prompt = f"Place a gem {where} ({state.supply[i]} left)."
        else:
            prompt = (
                f"You keep {_gem_count(len(state.kept[i]))} ({_colours(state.kept[i])}): "
                "DROP them on your own gems, or send DROP NONE."
            )
        return Phase(state.stage, (seat,), prompt)

    # ----- validation ---------------------------------------------------------

    def validate(self, state: FungusState, seat: str, orders: Sequence[FungusOrder]) -> list[OrderProblem]:
        """Return one problem per refused order (index None for the submission as a whole)."""
        if problems := self.turn_problems(state, seat):
            return problems
        if state.stage == DROP:
            return self._validate_drops(state, seat, orders)
        problems = [] if len(orders) == 1 else [OrderProblem(None, "a turn is exactly one order; send one PLACE")]
        for index, order in enumerate(orders):
            message = self._place_problem(state, seat, order)
            if message:
                problems.append(OrderProblem(index, message))
        return problems

    def _place_problem(self, state: FungusState, seat: str, order: FungusOrder) -> str:
        if not isinstance(order, Place):
            return f"{order}: DROP orders come only at the end of an aggressive game; now send PLACE"
        try:
            cell = state.grid.parse(order.cell)
        except BadHexName:
            return f"{order}: {order.cell} is not on the {state.size} x {state.size} board"
        held = state.at(cell)
        if held != EMPTY:
            return f"{order}: {order.cell} is taken by a gem of seat {held}"
        if cell not in b.legal_cells(state, seat):
            return f"{order}: {self._why_not_here(state, seat, cell)}"
        if order.capture is None or order.target is None:
            return ""
        return self._capture_problem(state, seat, cell, order)

    def _why_not_here(self, state: FungusState, seat: str, cell: HexCell) -> str:
        grid = state.grid
        name = grid.name(cell)
        if state.stage == SETUP:
            if grid.is_edge(cell):
                return f"{name} is on the board edge; setup gems go on inner cells"
            near = next(n for n in grid.neighbours(cell) if state.at(n) != EMPTY)
            return f"{name} is next to the gem on {grid.name(near)}; setup gems go next to no gem"
        return f"{name} is not next to a gem of another player"

    def _capture_problem(self, state: FungusState, seat: str, cell: HexCell, order: Place) -> str:
        grid = state.grid
        if not state.aggressive:
            return f"{order}: {order.capture} is played only in the aggressive variant"
        try:
            target = grid.parse(order.target or "")
        except BadHexName:
            return f"{order}: {order.target} is not on the {state.size} x {state.size} board"
        if target not in grid.neighbours(cell):
            return f"{order}: {order.target} is not next to {order.cell}"
        held = state.at(target)
        if held in (EMPTY, seat):
            return f"{order}: {order.target} holds no gem of another player"
        gap = b.open_or_own(state, state.with_cells({cell: seat}), target)
        if gap is not None:
            what = "empty" if state.at(gap) == EMPTY else f"a gem of seat {held} too"
            return f"{order}: the gem on {order.target} would not be surrounded ({grid.name(gap)} is {what})"
        if order.capture == TAKE and state.supply[state.index(seat)] < 2:
            return f"{order}: TAKE needs a second gem from your supply and you have only 1; use KEEP"
        return ""

    def _validate_drops(self, state: FungusState, seat: str, orders: Sequence[FungusOrder]) -> list[OrderProblem]:
        if not orders:
            return [OrderProblem(None, "send DROP orders for your kept gems, or DROP NONE")]
        kept = Counter(state.kept[state.index(seat)])
        used: Counter[str] = Counter()
        cells: set[HexCell] = set()
        problems = []
        for index, order in enumerate(orders):
            message = self._drop_problem(state, seat, order, len(orders), kept, used, cells)
            if message:
                problems.append(OrderProblem(index, message))
        return problems

    def _drop_problem(
        self,
        state: FungusState,
        seat: str,
        order: FungusOrder,
        count: int,
        kept: Counter[str],
        used: Counter[str],
        cells: set[HexCell],
    ) -> str:
        if isinstance(order, Place):
            return f"{order}: the placing is over; send DROP orders or DROP NONE"
        if isinstance(order, DropNone):
            return "" if count == 1 else f"{order}: it forgoes every drop, so send it alone"
        try:
            cell = state.grid.parse(order.cell)
        except BadHexName:
            return f"{order}: {order.cell} is not on the {state.size} x {state.size} board"
        if state.at(cell) != seat:
            return f"{order}: {order.cell} holds no gem of yours"
        if cell in cells:
            return f"{order}: {order.cell} is already named by an earlier DROP"
        colour = _drop_colour(order, kept)
        if colour is None:
            example = f"DROP {order.cell} OF {sorted(kept)[0]}"
            return f"{order}: you keep gems of seats {_and_list(sorted(kept))}; say which, e.g. {example}"
        if kept[colour] == 0:
            return f"{order}: you keep no gem of seat {colour}"
        if used[colour] >= kept[colour]:
            return f"{order}: you keep only {_gem_count(kept[colour])} of seat {colour}"
        used[colour] += 1
        cells.add(cell)
        return ""

    # ----- defaults, forced and sample plays ----------------------------------

    def default_orders(self, state: FungusState, seat: str) -> list[FungusOrder]:
        """Return the NMR default: PLACE on the first legal cell in row-by-row
        order, without capture; DROP NONE in the drop phase; [] when not owing."""
        if seat != state.to_move:
            return []
        if state.stage == DROP:
            return [DropNone()]
        cells = b.legal_cells(state, seat)
        return [Place(state.grid.name(cells[0]))] if cells else []

    def forced_orders(self, state: FungusState, seat: str) -> list[FungusOrder] | None:
        """Return the only legal placement when there is exactly one (one legal
        cell and no capture to choose), else None. The drop phase always offers
        a choice (DROP NONE or a drop), so it is never forced."""
        if seat != state.to_move or state.stage not in (SETUP, FUNGUS):
            return None
        cells = b.legal_cells(state, seat)
        if len(cells) != 1:
            return None
        if state.aggressive and b.capturable(state, seat, cells[0]):
            return None
        return [Place(state.grid.name(cells[0]))]

    def order_choices(self, state: FungusState, seat: str) -> list[list[FungusOrder]] | None:
        """Return every legal placement (with each capture it allows) when there are few, as when the
        board is nearly full; None in the drop phase (its drops combine into too many plays)."""
        if state.stage == DROP:
            return None
        return few_choices(single_orders(self._placements(state, seat)))

    def _placements(self, state: FungusState, seat: str) -> Iterator[FungusOrder]:
        """Every legal PLACE of ``seat``, each followed by the captures it allows."""
        for cell in b.legal_cells(state, seat):
            yield from _placements_on(state, seat, cell)

    def sample_orders(self, state: FungusState, seat: str, rng: GameRng) -> list[FungusOrder]:
        """Return a random legal submission for ``seat`` ([] when it owes nothing)."""
        if seat != state.to_move:
            return []
        if state.stage == DROP:
            return self._sample_drops(state, seat, rng)
        cells = b.legal_cells(state, seat)
        if not cells:
            return []
        return [rng.choice(list(_placements_on(state, seat, rng.choice(cells))))]

    def _sample_drops(self, state: FungusState, seat: str, rng: GameRng) -> list[FungusOrder]:
        own = [c for c in state.grid.cells() if state.at(c) == seat]
        kept = list(state.kept[state.index(seat)])
        count = rng.randint(0, min(len(own), len(kept)))
        if count == 0:
            return [DropNone()]
        rng.shuffle(kept)
        several = len(set(kept)) > 1
        return [
            Drop(state.grid.name(cell), colour if several or rng.random() < 0.5 else None)
            for cell, colour in zip(rng.sample(own, count), kept[:count], strict=True)
        ]

    # ----- resolution ---------------------------------------------------------

    def resolve(
        self, state: FungusState, orders: Mapping[str, Sequence[FungusOrder]], rng: GameRng
    ) -> Resolution[FungusState]:
        """Apply the owing seat's orders (its default when they are missing or
        refused), then pass the turn on. Raises GameError when the game is over."""
        seat = state.to_move
        if state.stage == OVER or seat is None:
            raise GameError("the game is over")
        events: list[Event] = []
        submitted = list(orders.get(seat, ()))
        problems = self.validate(state, seat, submitted)
        if problems:
            submitted = self.default_orders(state, seat)
            events.append(
                Event(
                    "refused",
                    f"Seat {seat}'s orders were refused ({problems[0].message}); "
                    f"played instead: {', '.join(str(o) for o in submitted)}.",
                    LABELS[state.stage],
                    seat,
                )
            )
        if state.stage == DROP:
            state = self._apply_drops(state, seat, submitted, events)
            return Resolution(self._next_keeper(state, events), events)
        order = submitted[0]
        assert isinstance(order, Place)
        state = self._apply_place(state, seat, order, events)
        return Resolution(self._advance(state, seat, events), events)

    def _apply_place(self, state: FungusState, seat: str, order: Place, events: list[Event]) -> FungusState:
        grid = state.grid
        i = state.index(seat)
        cell = grid.parse(order.cell)
        changes = {cell: seat}
        supply = list(state.supply)
        supply[i] -= 1
        kept = list(state.kept)
        text = f"Seat {seat} placed a gem on {order.cell}"
        data: dict[str, Any] = {"cell": order.cell}
        if order.capture is not None and order.target is not None:
            target = grid.parse(order.target)
            victim = state.at(target)
            data.update(capture=order.capture.lower(), target=order.target, victim=victim)
            if order.capture == TAKE:
                changes[target] = seat
                supply[i] -= 1
                text += f" and took the surrounded gem of seat {victim} on {order.target}, putting its own there"
            else:
                changes[target] = EMPTY
                kept[i] = tuple(sorted(kept[i] + (victim,)))
                text += f" and captured the surrounded gem of seat {victim} on {order.target}, keeping it for the end"
        setup_placed = list(state.setup_placed)
        if state.stage == SETUP:
            setup_placed[i] += 1
        events.append(Event("place", text + ".", LABELS[state.stage], seat, data))
        return replace(
            state,
            board=state.with_cells(changes),
            supply=tuple(supply),
            kept=tuple(kept),
            setup_placed=tuple(setup_placed),
        )

    def _seats_from(self, state: FungusState, seat: str) -> list[str]:
        """Return every seat in turn order, starting with ``seat``."""
        i = state.index(seat)
        return [state.seats[(i + k) % len(state.seats)] for k in range(len(state.seats))]

    def _advance(self, state: FungusState, last: str, events: list[Event]) -> FungusState:
        if b.is_full(state) or not any(state.supply):
            because = "The board is full" if b.is_full(state) else "Nobody has gems left"
            events.append(Event("end", f"{because}: the placing is over.", LABELS[state.stage]))
            return self._start_drops(replace(state, ended_because=because), events)
        if state.stage == SETUP and all(n >= SETUP_GEMS for n in state.setup_placed):
            state = replace(state, stage=FUNGUS)
            text = "Every player has placed 3 gems: the fungus phase begins."
            events.append(Event("fungus", text, LABELS[FUNGUS]))
        rotation = self._seats_from(state, last)
        for seat in rotation[1:] + rotation[:1]:
            i = state.index(seat)
            if state.stage == SETUP and state.setup_placed[i] >= SETUP_GEMS:
                continue
            if state.supply[i] > 0:
                return replace(state, to_move=seat)
            events.append(Event("pass", f"Seat {seat} has no gems left and passes.", LABELS[state.stage], seat))
        raise AssertionError("some seat has gems but none was found")  # pragma: no cover

    def _start_drops(self, state: FungusState, events: list[Event]) -> FungusState:
        queue = tuple(s for s in self._seats_from(state, state.first) if state.kept[state.index(s)])
        return self._next_keeper(replace(state, stage=DROP, drop_queue=queue, to_move=None), events)

    def _next_keeper(self, state: FungusState, events: list[Event]) -> FungusState:
        queue = list(state.drop_queue)
        while queue:
            seat = queue.pop(0)
            i = state.index(seat)
            if not state.kept[i]:
                continue
            if seat in state.board:
                return replace(state, stage=DROP, to_move=seat, drop_queue=tuple(queue))
            events.append(
                Event(
                    "no-drop",
                    f"Seat {seat} keeps {_gem_count(len(state.kept[i]))} but has no gem on the board to replace.",
                    LABELS[DROP],
                    seat,
                )
            )
        state = replace(state, stage=OVER, to_move=None, drop_queue=())
        scores = self.scores(state)
        listing = ", ".join(f"seat {s} {v}" for s, v in scores.items())
        text = f"The game is over. Final scores: {listing}."
        events.append(Event("over", text, LABELS[OVER], None, dict(scores)))
        return state

    def _apply_drops(
        self, state: FungusState, seat: str, orders: Sequence[FungusOrder], events: list[Event]
    ) -> FungusState:
        i = state.index(seat)
        kept = list(state.kept[i])
        changes: dict[HexCell, str] = {}
        for order in orders:
            if isinstance(order, Drop):
                colour = _drop_colour(order, Counter(kept))
                assert colour is not None
                kept.remove(colour)
                changes[state.grid.parse(order.cell)] = colour
                events.append(
                    Event(
                        "drop",
                        f"Seat {seat} replaced its own gem on {order.cell} with the kept gem of seat {colour}.",
                        LABELS[DROP],
                        seat,
                        {"cell": order.cell, "colour": colour},
                    )
                )
        if kept:
            text = (
                f"Seat {seat} does not drop {_gem_count(len(kept))} it kept ({_colours(tuple(kept))}); "
                "they leave the game."
            )
            events.append(Event("forgo", text, LABELS[DROP], seat, {"count": len(kept)}))
        all_kept = list(state.kept)
        all_kept[i] = ()
        return replace(state, board=state.with_cells(changes), kept=tuple(all_kept))

    # ----- results and views --------------------------------------------------

    def outcome(self, state: FungusState) -> Outcome | None:
        """Return the winners (every seat with the top score) once the game is over."""
        if state.stage != OVER:
            return None
        scores = self.scores(state)
        top = max(scores.values())
        winners = tuple(s for s in state.seats if scores[s] == top)
        listing = ", ".join(f"seat {s} {v}" for s, v in scores.items())
        because = state.ended_because or "The game is over"
        return Outcome(winners, f"{because}. Final scores: {listing}.")

    def scores(self, state: FungusState) -> dict[str, int]:
        """Return each seat's score as it would count now."""
        return {seat: b.score(state, seat) for seat in state.seats}

    def view(self, state: FungusState, seat: str | None) -> dict[str, Any]:
        """Return the public position (Fungus has no secrets: every seat sees the same)."""
        grid = state.grid
        scores = self.scores(state)
        players = []
        for i, s in enumerate(state.seats):
            players.append(
                {
                    "seat": s,
                    "gems_left": state.supply[i],
                    "on_board": b.gems_on_board(state, s),
                    "groups": len(b.groups(state, s)),
                    "setup_placed": state.setup_placed[i],
                    "kept": len(state.kept[i]),
                    "kept_from": dict(sorted(Counter(state.kept[i]).items())),
                    "score": scores[s],
                }
            )
        return {
            "size": state.size,
            "variant": "aggressive" if state.aggressive else "basic",
            "phase": state.stage,
            "to_move": state.to_move,
            "first": state.first,
            "columns": list(grid.column_letters()),
            "rows": [
                {"number": row[0][1] + 1, "cells": [state.at(c) or "." for c in row]} for row in grid.rows()
            ],
            "gems": {grid.name(c): state.at(c) for c in grid.cells() if state.at(c) != EMPTY},
            "gems_left": {s: state.supply[i] for i, s in enumerate(state.seats)},
            "kept": {s: len(state.kept[i]) for i, s in enumerate(state.seats)},
            "players": players,
            "scores": scores,
        }


def _size_option(text: str) -> int:
    try:
        size = int(str(text).strip())
    except ValueError:
        raise GameError(f"size={text} is not a number; use {MIN_SIZE} to {MAX_SIZE}") from None
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise GameError(f"size={size} is out of range; use {MIN_SIZE} to {MAX_SIZE}")
    return size


def _drop_colour(order: Drop, kept: Counter[str]) -> str | None:
    """Return the colour a DROP uses: its own, or the only colour kept; None when ambiguous."""
    if order.colour is not None:
        return order.colour
    colours = [c for c, n in kept.items() if n > 0]
    return colours[0] if len(colours) == 1 else None


def _gem_count(n: int) -> str:
    return f"{n} gem" if n == 1 else f"{n} gems"


def _colours(kept: tuple[str, ...]) -> str:
    counts = sorted(Counter(kept).items())
    return ", ".join(f"{n} of seat {s}" for s, n in counts)


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _placements_on(state: FungusState, seat: str, cell: HexCell) -> Iterator[FungusOrder]:
    """PLACE of ``seat`` on the legal ``cell``, then each capture it allows (KEEP, and TAKE while the
    seat has two gems in its supply)."""
    name = state.grid.name(cell)
    yield Place(name)
    if state.aggressive:
        can_take = state.supply[state.index(seat)] >= 2
        for target in b.capturable(state, seat, cell):
            yield Place(name, KEEP, state.grid.name(target))
            if can_take:
                yield Place(name, TAKE, state.grid.name(target))
