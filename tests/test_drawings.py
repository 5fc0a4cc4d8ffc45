"""The shared picture test: every registered game draws every seat's view and the public one.

For sampled states of random play of every registered game: the drawing of
each seat (and of the public) parses as SVG and its PNG decodes; the
drawing is made from the view alone; and changing what a seat may not see
(``hidden_variant``: every secret but the seat's own redrawn) leaves that
seat's picture as it was. A registered game whose package has no ``drawing.py`` fails here.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from pbem.core import Game, GameRng
from pbem.games import GAMES, find_game
from pbem.pictures import MissingDrawing, alt_text, draw_svg, drawing_for, picture
from pbem.raster import svg_to_png
from new_game import copy_example, registered
from png_check import decode_png
from test_conformance import play

SVG = "{http://www.w3.org/2000/svg}"
SAMPLES = 6


def sampled_states(kind: str) -> Iterator[tuple[Game[Any, Any], tuple[str, ...], Any]]:
    game = find_game(kind)
    for players in sorted({game.min_players, game.max_players}):
        _, _, states = play(game, players, 11)
        step = max(1, len(states) // SAMPLES)
        for state in [*states[::step], states[-1]]:
            yield game, game.seat_names(players), state


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_every_seat_and_the_public_get_a_picture_that_parses(kind: str) -> None:
    drawing_for(find_game(kind))  # a registered game without drawing.py fails here, naming the file to add
    checked = 0
    for game, seats, state in sampled_states(kind):
        for seat in (*seats, None):
            view = game.view(state, seat)
            frozen = json.dumps(view, sort_keys=True)
            svg = draw_svg(game, view, seat)
            assert json.dumps(view, sort_keys=True) == frozen, "the drawing changed the view it was given"
            root = ElementTree.fromstring(svg)
            assert root.tag == f"{SVG}svg"
            assert int(root.get("width", "0")) <= 600 and int(root.get("height", "0")) > 0
            assert root.find(f"{SVG}title") is not None and alt_text(svg)
            assert svg == draw_svg(game, json.loads(json.dumps(view)), seat), "same view, different picture"
            if checked % 7 == 0:  # PNG of some of them: the renderer is the same for all
                width, height = decode_png(svg_to_png(svg))
                assert (width, height) == (int(root.get("width", "0")), int(root.get("height", "0")))
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_changing_what_a_seat_may_not_see_leaves_its_picture_unchanged(kind: str) -> None:
    hidden_changes = 0
    rng = GameRng(5)
    for game, seats, state in sampled_states(kind):
        for seat in seats:
            mine = draw_svg(game, game.view(state, seat), seat)
            for _ in range(2):
                changed = game.hidden_variant(state, seat, rng)  # every secret but the seat's own redrawn
                if changed == state:
                    continue
                hidden_changes += 1
                assert draw_svg(game, game.view(changed, seat), seat) == mine, (
                    f"seat {seat}'s picture shows a secret that is not its own"
                )
    if game.facts().has_hidden_information:  # games with secrets must have been tested for real
        assert hidden_changes > 0


def test_a_registered_game_without_a_drawing_fails(tmp_path: Path) -> None:
    copy_example(tmp_path, "undrawn_game", "undrawn-game", leave_out=["drawing.py"])
    with registered(tmp_path, "undrawn_game", "undrawn-game") as kind:
        with pytest.raises(MissingDrawing, match="drawing.py"):
            test_every_seat_and_the_public_get_a_picture_that_parses(kind)


def test_a_picture_for_mail_is_small_and_carries_its_alt_text() -> None:
    for kind in sorted(GAMES):
        game, seats, state = next(iter(sampled_states(kind)))
        made = picture(game, game.view(state, seats[0]), seats[0])
        assert len(made.png) < 60_000, f"{kind}: {len(made.png)} bytes"
        assert f"seat {seats[0]}" in made.alt
