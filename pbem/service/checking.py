"""The line-by-line check of a submission, and its text as the player reads it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pbem import budget
from pbem.clock import format_utc
from pbem.core import Game, OrderProblem
from pbem.games import find_game
from pbem.orders import LineProblem, OrderLine, ParsedOrders, parser_for


FORCED = "forced"
"""The ``source`` of a submission the service filed itself: the seat's only play."""


@dataclass
class CheckResult:
    """What became of a submission: each line's verdict, plus whole-submission problems.

    ``version`` is set once the accepted orders were stored (``None`` = not
    stored: a check only, or nothing acceptable).
    """

    lines: list[OrderLine]
    general: list[str] = field(default_factory=list)
    summary: str = ""
    game: str | None = None
    kind: str = ""
    seat: str | None = None
    turn: int | None = None
    version: int | None = None
    received_at: datetime | None = None
    deadline: datetime | None = None
    window: str | None = None
    """When the phase is an answer window: when it closes and what silence means (said instead of the deadline)."""
    teammates: dict[str, list[str] | None] | None = None
    """In a team phase: the other owing seats' stored orders for this step (None: none yet); see
    :func:`pbem.service.submissions.shared_orders`."""
    show_time: Callable[[datetime], str] = format_utc
    """How the verdict writes the deadline (the mail side writes a mark shown in the reader's zone)."""
    replaced_previous: bool = False
    syntax_only: bool = False
    """A check of the syntax alone, with no game (``pbem check``, CHECK <kind>): it says so."""
    position_only: bool = False
    """A check against the game's position with nothing stored (CHECK after SIGNON, ``pbem check --game
    --seat``): it says so."""
    standing: int | None = None
    """When nothing was stored because no line was accepted (or the orders were refused as a whole): the
    version of the orders that stand (0: none)."""
    played_for_you: list[str] | None = None
    """When nothing was stored and the standing orders are the seat's only play, filed by the service (not
    sent by the player): those orders."""
    owes: bool = True
    """The seat owes orders now: only then does the reply ask for (corrected) orders."""
    receipt: str | None = None
    """When orders were stored: their receipt (:func:`pbem.core.chain.receipt`), which the report of the turn
    lets the seat check."""

    def __post_init__(self) -> None:
        refuse_whole(self.lines, self.general)

    @property
    def accepted(self) -> list[Any]:
        """The accepted orders in line order (none when a whole-submission problem stands)."""
        if self.general:
            return []
        return [line.order for line in self.lines if line.problem is None]

    @property
    def is_clean(self) -> bool:
        """True when every line was accepted and the submission as a whole is fine."""
        return not self.general and all(line.problem is None for line in self.lines)

    @property
    def heading(self) -> str | None:
        """The line naming the game, seat and turn (None for a check without a game)."""
        if self.game is None:
            return None
        return f"Game {self.game} ({self.kind}), seat {self.seat}, turn {self.turn}."

    @property
    def asks_for_orders(self) -> bool:
        """True when the player should send (corrected) orders: the seat owes orders now, and a line was
        refused or none stored."""
        return self.game is not None and self.owes and (not self.is_clean or self.standing is not None)

    def verdict(self) -> list[str]:
        """The lines after the per-line check, one verdict for the whole submission that agrees with the
        lines': the counts (with a whole-submission problem no line shows), what was stored or what
        stands, and the deadline. A whole-submission problem is shown on each line it refused
        (:func:`refuse_whole`), never after an ``ok``."""
        out: list[str] = []
        unshown = self.general if not any(line.problem is not None and line.problem.whole for line in self.lines) \
            else []
        if not self.lines:
            out.append("No orders found.")
            out += [f"REFUSED: {problem}" for problem in unshown]
        if self.summary and not self.general:
            out.append(self.summary)
        refused = sum(1 for line in self.lines if line.problem is not None)
        if self.lines:
            why = f" The orders as a whole: {'; '.join(unshown)}." if unshown else ""
            out.append(f"{len(self.lines) - refused} line(s) accepted, {refused} refused.{why}")
        if self.syntax_only:
            out.append(f"Only the syntax was checked, against the {self.kind} grammar: whether these orders can be "
                       "played depends on a game's position (SIGNON, then CHECK, checks them against your game).")
        if self.position_only:
            out.append(f"Checked against the position of game {self.game} at turn {self.turn}, as seat {self.seat} "
                       "would play them now: nothing was stored.")
        if self.version is not None and self.received_at is not None:
            stamp = self.received_at.strftime("%H:%M UTC on %Y-%m-%d")
            out.append(f"Your orders v{self.version}, received {stamp}.")
            if self.replaced_previous:
                out.append("These orders replace your previous ones.")
            if self.receipt is not None:
                out.append(f"Receipt for game {self.game}, turn {self.turn}, seat {self.seat}, v{self.version}: "
                           f"{self.receipt}")
                out.append("Keep this mail: the report of this turn shows the nonce that checks the receipt "
                           "(docs/fair-play.md).")
        elif self.standing is not None:
            out.append(self._what_stands())
        return out + closing_lines(self.deadline, self.window, self.teammates, self.show_time)

    def _what_stands(self) -> str:
        """The sentence after a submission that stored nothing: the orders that stand (only when there are
        some), and a request for corrected orders only when the seat owes orders now."""
        if not self.owes:
            if self.played_for_you is not None:
                return ("Nothing was stored: you owe no orders now; the service plays your only play for you: "
                        f"{', '.join(self.played_for_you) or 'nothing'}.")
            kept = f" Your orders v{self.standing} stand." if self.standing else ""
            return f"Nothing was stored: you owe no orders now.{kept}"
        if self.standing:
            return (f"No line was accepted, so nothing was stored: your orders v{self.standing} stand. "
                    "Send corrected orders before the deadline (or NOORDERS to withdraw them).")
        return ("No line was accepted, so nothing was stored: you have no orders for this turn yet. "
                "Send corrected orders before the deadline.")

    def render(self) -> str:
        """Return the check as the player reads it: each line, a caret under a bad column, the verdict."""
        out: list[str] = [self.heading] if self.heading is not None else []
        for line in self.lines:
            budget.check()
            prefix = f"{line.number:>3}  "
            if line.problem is None:
                out.append(f"{prefix}{line.text.strip()}")
                out.append(f"{' ' * len(prefix)}{'syntax ok' if self.syntax_only else 'ok'}")
                continue
            out.append(f"{prefix}{line.text}")
            if line.problem.column is not None:
                out.append(" " * (len(prefix) + line.problem.column - 1) + "^")
            where = f"line {line.number}" + (f", column {line.problem.column}" if line.problem.column else "")
            out.append(f"{' ' * len(prefix)}REFUSED ({where}): {line.problem.message}")
        if not self.lines:
            out.append("No orders found.")
        return "\n".join(out + [v for v in self.verdict() if v != "No orders found."]) + "\n"


def closing_lines(deadline: datetime | None, window: str | None, teammates: dict[str, list[str] | None] | None,
                  show_time: Callable[[datetime], str] = format_utc) -> list[str]:
    """The last lines of a check reply and of STATUS for a seat: the deadline (written by ``show_time``),
    what an answer window's silence means, and in a team phase the teammates' stored orders."""
    lines = [f"Deadline: {show_time(deadline)}."] if deadline else []
    lines += [window] if window else []
    return lines + (_describe_teammates(teammates) if teammates is not None else [])


def _describe_teammates(teammates: dict[str, list[str] | None]) -> list[str]:
    """The lines that list the other owing seats' stored orders in a team phase."""
    lines = ["Your teammates' orders stored for this step:"]
    for seat, orders in teammates.items():
        if orders is None:
            lines.append(f"  seat {seat}: none yet")
        elif not orders:
            lines.append(f"  seat {seat}: holds (no orders)")
        else:
            lines.append(f"  seat {seat}:")
            lines += [f"    {order}" for order in orders]
    return lines


def check_orders(game: Game[Any, Any], state: Any, seat: str, parsed: ParsedOrders) -> CheckResult:
    """Validate parsed orders for ``seat`` against ``state``; return the per-line verdicts.

    Syntax problems already on lines stand; the game's problems are attached to
    the lines of the orders they name, whole-submission problems to ``general``.
    """
    valid_lines = [line for line in parsed.lines if line.problem is None]
    problems: Sequence[OrderProblem] = game.validate(state, seat, [line.order for line in valid_lines])
    general: list[str] = []
    for problem in problems:
        if problem.index is None or not 0 <= problem.index < len(valid_lines):
            general.append(problem.message)
        else:
            valid_lines[problem.index].problem = LineProblem(problem.message, None)
    result = CheckResult(lines=parsed.lines, general=general)
    if not general:
        result.summary = game.submission_summary(state, seat, result.accepted)
    return result


def refuse_whole(lines: Sequence[OrderLine], general: Sequence[str]) -> None:
    """Refuse on its own line every line that a whole-submission problem (``general``) refuses and that has no
    problem of its own, with that problem as its reason: no line reads ``ok`` in a submission refused as
    a whole."""
    if not general:
        return
    reason = "; ".join(general)
    for line in lines:
        if line.problem is None:
            line.problem = LineProblem(reason, None, whole=True)


def check_syntax(kind: str, text: str) -> CheckResult:
    """Check order text against a game kind's grammar only, with no game.

    Raises UnknownGame for an unknown kind.
    """
    game = find_game(kind)
    return CheckResult(lines=parser_for(game.name).parse(text).lines, kind=game.name, syntax_only=True)
