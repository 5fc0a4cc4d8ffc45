"""The Festival of Statues (Gateway Island, game 16) as a play-by-email game.

Two players on a 6 x 6 square. Each round the service rolls the die for the
die holder; the holder, then the other player, each adds a statue in the
die's row or column (not next to one of his own) or moves a statue standing
there to any open space. Four own statues in a line of a row or column, or in
a 2 x 2 square, win at once. The die then passes and the other player begins
the next round. After ``max_rounds`` rounds without a winner the game is a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from pbem.core import Event, GameRng, OrderProblem, Outcome, Phase, Resolution
from pbem.core.game import BaseGame, TurnShape, few_choices, single_orders
from pbem.core.options import int_option, yes_no_option
from pbem.core.protocol import Score
from pbem.core.seats import START, START_DESCRIPTION, first_player
from pbem.games.festival_of_statues.board import (
    add_spaces,
    best_pattern,
    has_play,
    index_of,
    legal_plays,
    movable_statues,
    open_spaces,
    play_problem,
    row_column,
    space_name,
    winning_pattern,
)
from pbem.games.festival_of_statues.orders import Add, FestivalOrder, Move
from pbem.games.festival_of_statues.state import MAX_ROUNDS, SIZE, STATUES, FestivalState

MAX_ROUNDS_LIMIT = 500


class FestivalOfStatues(BaseGame[FestivalState, FestivalOrder]):
    """The Festival of Statues game object (stateless; every method is pure)."""

    name: ClassVar[str] = "festival-of-statues"
    title: ClassVar[str] = "The Festival of Statues"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    turn_shape: ClassVar[TurnShape] = TurnShape.SEQUENTIAL
    has_chance: ClassVar[bool] = True
    declared_options: ClassVar[Mapping[str, str]] = {
        START: START_DESCRIPTION + "; the first player holds the die in round 1",
        "move_any": "yes: a MOVE may take either player's statue; no (default): only your own",
        "max_rounds": f"rounds at most, 1 to {MAX_ROUNDS_LIMIT}; default {MAX_ROUNDS}; then the game is a draw",
    }
    terminal_words: ClassVar[Mapping[str, str]] = {
        "NUMBER": "a row or column number from 1 to 6",
        "COMMA": 'a comma, as in "3,4" (row 3, column 4)',
        "DASH": 'a dash, as in "MOVE 3,4-5,6"',
    }
    transformer_class: ClassVar[str] = f"{__package__}.grammar:FestivalTransformer"
    state_class: ClassVar[type] = FestivalState

    # --- set up ---------------------------------------------------------

    def setup(self, seats: Sequence[str], options: Mapping[str, str], rng: GameRng) -> FestivalState:
        """Return an empty square, the first die holder and the first round's die.

        Raises GameError for a bad player count or an unknown or bad option.
        """
        self.seat_names(len(seats))
        checked = self.check_options(options)
        max_rounds = int_option(checked, "max_rounds", 1, MAX_ROUNDS_LIMIT, MAX_ROUNDS)
        move_any = yes_no_option(checked, "move_any", False)
        holder = first_player(seats, checked.get(START), rng)
        return FestivalState(tuple(seats), ("",) * (SIZE * SIZE), 1, rng.roll(6), holder, 0,
                             max_rounds=max_rounds, move_any=move_any)

    # --- asking for orders ------------------------------------------------

    def phase(self, state: FestivalState) -> Phase:
        """Return the play of the seat to play, with the die in the prompt."""
        return Phase("play", (state.to_play,), _prompt(state))

    def validate(self, state: FestivalState, seat: str, orders: Sequence[FestivalOrder]) -> list[OrderProblem]:
        """Return the problems of a submission: one legal ADD or MOVE (nothing only when
        no play is possible: a pass)."""
        if problems := self.turn_problems(state, seat):
            return problems
        if not orders:
            if has_play(state, seat):
                return [OrderProblem(None, "a turn is one ADD or MOVE; you may pass only when you cannot play")]
            return []
        if len(orders) != 1:
            return [OrderProblem(None, "a turn is exactly one order: one ADD or one MOVE")]
        problem = play_problem(state, seat, orders[0])
        return [] if problem is None else [OrderProblem(0, problem)]

    def default_orders(self, state: FestivalState, seat: str) -> list[FestivalOrder]:
        """Return the NMR play: ADD on the first legal space reading row by row; else MOVE the
        first movable statue (own ones first) to the first open space; else a pass."""
        adds = add_spaces(state, seat)
        if adds:
            return [Add(*row_column(adds[0]))]
        movable = movable_statues(state, seat)
        if movable:
            return [Move(*row_column(movable[0]), *row_column(open_spaces(state.board)[0]))]
        return []

    def forced_orders(self, state: FestivalState, seat: str) -> list[FestivalOrder] | None:
        """Return the only legal play when there is exactly one, [] (a pass) when there is none."""
        plays = legal_plays(state, seat)
        return plays if len(plays) <= 1 else None

    def sample_orders(self, state: FestivalState, seat: str, rng: GameRng) -> list[FestivalOrder]:
        """Return a random legal play: an ADD or a MOVE (each kind as likely when both exist), or a pass."""
        plays = legal_plays(state, seat)
        if not plays:
            return []
        adds: list[FestivalOrder] = [p for p in plays if isinstance(p, Add)]
        moves: list[FestivalOrder] = [p for p in plays if isinstance(p, Move)]
        kinds = [kind for kind in (adds, moves) if kind]
        return [rng.choice(rng.choice(kinds))]

    def order_choices(self, state: FestivalState, seat: str) -> list[list[FestivalOrder]] | None:
        """Return every legal ADD and MOVE when they are few."""
        return few_choices(single_orders(legal_plays(state, seat)))

    def submission_summary(self, state: FestivalState, seat: str, orders: Sequence[FestivalOrder]) -> str:
        """Return what the play leaves in the supply, or that it wins."""
        if len(orders) != 1 or play_problem(state, seat, orders[0]) is not None:
            return ""
        board = _played(state.board, orders[0], seat)
        if winning_pattern(board, seat) is not None:
            return "This play completes four of your statues: you win."
        left = STATUES - board.count(seat)
        return f"You will have {left} statue{'' if left == 1 else 's'} left in your supply."

    # --- resolving ------------------------------------------------------

    def resolve(self, state: FestivalState, orders: Mapping[str, Sequence[FestivalOrder]],
                rng: GameRng) -> Resolution[FestivalState]:
        """Play the seat's ADD or MOVE (or its pass), end the game on a pattern, else hand
        the play on; after the round's second play pass the die and roll for the next
        round, or end in a draw after the last round.

        Raises GameError when the game is over or the seat to play sent no entry, and
        IllegalOrder for an illegal play.
        """
        seat = state.to_play
        given = self.owed_orders(state, orders)[seat]
        label = f"Round {state.round}"
        if given:
            board = _played(state.board, given[0], seat)
            event = _play_event(state, seat, given[0], label)
            state = replace(state, board=board, last=_touched(given[0]))
        else:
            event = Event("pass", f"Seat {seat} cannot add or move a statue with a {state.die} and passes.",
                          label, seat=seat)
            state = replace(state, last=())
        events = [event]
        finished = _finished(state, label)
        if finished is not None:
            state, win = finished
            return Resolution(state, [*events, win])
        if state.step == 0:
            return Resolution(replace(state, step=1), events)
        if state.round >= state.max_rounds:
            reason = (f"Round {state.round}, the last one allowed (max_rounds={state.max_rounds}), is over and "
                      "nobody arranged four statues: the game is a draw.")
            return Resolution(replace(state, drawn=True, end_reason=reason), [*events, Event("draw", reason, label)])
        holder = (state.holder + 1) % len(state.seats)
        state = replace(state, round=state.round + 1, holder=holder, step=0, die=rng.roll(6))
        roll = Event("roll", f"Seat {state.to_play} takes the die and rolls {state.die}: row {state.die} or "
                     f"column {state.die}.", f"Round {state.round}", seat=state.to_play, data={"die": state.die})
        return Resolution(state, [*events, roll])

    def outcome(self, state: FestivalState) -> Outcome | None:
        """Return the winner, a draw after the round cap, or None while the game goes on."""
        if state.winners:
            return Outcome(state.winners, state.end_reason)
        if state.drawn:
            return Outcome.draw(state.end_reason)
        return None

    def scores(self, state: FestivalState) -> dict[str, Score]:
        """Return each seat's most statues in one still open pattern (4 is a win)."""
        return {seat: best_pattern(state.board, seat) for seat in state.seats}

    # --- showing ----------------------------------------------------------

    def view(self, state: FestivalState, seat: str | None) -> dict[str, Any]:
        """Return the whole game (nothing is hidden): the square row by row, the die and
        its row and column, supplies, whose play it is and the spaces it may add on."""
        to_play = None if state.is_over else state.to_play
        adds = set(add_spaces(state, to_play)) if to_play else set()
        rows = [
            [{"owner": state.board[index_of(r, c)] or None,
              "line": not state.is_over and state.die in (r, c),
              "add": index_of(r, c) in adds,
              "last": index_of(r, c) in state.last,
              "pattern": index_of(r, c) in state.pattern}
             for c in range(1, SIZE + 1)]
            for r in range(1, SIZE + 1)
        ]
        players = [{"seat": s, "supply": state.supply(s), "on_square": STATUES - state.supply(s),
                    "holder": i == state.holder, "to_play": s == to_play, "you": s == seat,
                    "best": best_pattern(state.board, s)}
                   for i, s in enumerate(state.seats)]
        return {
            "round": state.round,
            "max_rounds": state.max_rounds,
            "die": state.die,
            "holder": state.seats[state.holder],
            "to_play": to_play,
            "move_any": state.move_any,
            "size": SIZE,
            "rows": rows,
            "players": players,
            "add_spaces": [space_name(i) for i in sorted(adds)],
            "over": state.is_over,
            "winners": list(state.winners),
            "drawn": state.drawn,
            "pattern": [space_name(i) for i in state.pattern],
        }


# --- helpers ---------------------------------------------------------------


def _prompt(state: FestivalState) -> str:
    second = "" if state.step == 0 else f"; seat {state.seats[state.holder]} has played"
    return (f"Round {state.round} of at most {state.max_rounds}: the die shows {state.die}{second}. "
            f"Seat {state.to_play}: ADD a statue in row {state.die} or column {state.die} "
            f"(ADD r,c) or MOVE a statue standing there (MOVE r,c-r,c).")


def _played(board: tuple[str, ...], order: FestivalOrder, seat: str) -> tuple[str, ...]:
    """Return the board after a legal play of ``seat``."""
    cells = list(board)
    if isinstance(order, Add):
        cells[index_of(order.row, order.column)] = seat
    else:
        start = index_of(order.row, order.column)
        cells[index_of(order.to_row, order.to_column)] = cells[start]
        cells[start] = ""
    return tuple(cells)


def _touched(order: FestivalOrder) -> tuple[int, ...]:
    if isinstance(order, Add):
        return (index_of(order.row, order.column),)
    return (index_of(order.row, order.column), index_of(order.to_row, order.to_column))


def _play_event(state: FestivalState, seat: str, order: FestivalOrder, label: str) -> Event:
    if isinstance(order, Add):
        text = f"Seat {seat} adds a statue on {order.row},{order.column}."
    else:
        owner = state.board[index_of(order.row, order.column)]
        whose = "its statue" if owner == seat else f"seat {owner}'s statue"
        text = f"Seat {seat} moves {whose} from {order.row},{order.column} to {order.to_row},{order.to_column}."
    return Event("play", text, label, seat=seat, data={"order": str(order), "die": state.die})


def _finished(state: FestivalState, label: str) -> tuple[FestivalState, Event] | None:
    """Return the won state and its event when a player's statues form a pattern, else None.

    Only the owner of the statues just placed can have completed a pattern (with
    ``move_any`` that may be the other player).
    """
    for seat in state.seats:
        pattern = winning_pattern(state.board, seat)
        if pattern is not None:
            shape = _shape(pattern)
            reason = f"Seat {seat} wins: four statues {shape} ({' '.join(space_name(i) for i in pattern)})."
            won = replace(state, winners=(seat,), pattern=pattern, end_reason=reason)
            return won, Event("win", reason, label, seat=seat, data={"pattern": [space_name(i) for i in pattern]})
    return None


def _shape(pattern: tuple[int, ...]) -> str:
    rows = {row_column(i)[0] for i in pattern}
    columns = {row_column(i)[1] for i in pattern}
    if len(rows) == 1:
        return f"in a line in row {rows.pop()}"
    if len(columns) == 1:
        return f"in a line in column {columns.pop()}"
    return "in a 2 x 2 square"
