"""What a reader is shown of a game state, for tests: the report input of a state, every channel at
once (view, text and HTML report, picture, scores), and the strings of a view."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pbem.core import Game
from pbem.pictures import board_svg, own_svg
from pbem.reports import ReportInput, render_report


def report_input(game: Game[Any, Any], state: Any, events: Sequence[Any] = (), turn: int = 1) -> ReportInput:
    """Return the report of ``state`` after turn ``turn`` with ``events`` (no NMR, no deadline)."""
    outcome = game.outcome(state)
    return ReportInput("g", game, state, turn, list(events), [], None if outcome else game.phase(state), outcome)


def everything_shown(game: Game[Any, Any], state: Any, reader: str | None, events: Sequence[Any] = ()) -> str:
    """Return all that ``reader`` (None: the public, and the GM's copy) is shown of ``state``:
    the view as JSON, the text and HTML reports with ``events``, the board and the reader's own
    picture, and the scores."""
    report = report_input(game, state, events)
    view = game.view(state, reader)
    return "\n".join([json.dumps(view, sort_keys=True), render_report(report, reader),
                      render_report(report, reader, html=True), board_svg(game, state),
                      own_svg(game, state, reader) or "",
                      json.dumps(game.scores(state), sort_keys=True, default=str)])


def strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string in a view, with the place it stands at (``.key[index]...``)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings(item, f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            yield from strings(item, f"{path}[{index}]")


def normal(text: str) -> str:
    """Text with every run of white space made one blank (mail may fold lines)."""
    return " ".join(text.split())
