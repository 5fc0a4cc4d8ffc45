"""The shared picture test: every registered game draws its board and every seat's own picture.

For sampled states of random play of every registered game: the board
(drawn from the public view) and each seat's own picture parse as SVG and
their PNG decodes; each is drawn from its view alone; the board drawn from
any seat's own view is the same picture, so one board serves every reader;
and changing what a seat may not see (``hidden_variant``: every secret but
the seat's own redrawn) leaves that seat's pictures as they were. A game
with secrets shows a seat its own in a picture. A registered game whose
package has no ``drawing.py`` fails here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from pbem.core import Game, GameRng
from pbem.core.svg import MIN_TEXT
from pbem.games import GAMES, find_game
from pbem.pictures import MissingDrawing, ReportPictures, alt_text, board_svg, drawing_for, own_svg
from pbem.raster import svg_to_png
from pbem.reports import ReportInput, render_report
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


def check_svg(svg: str) -> ElementTree.Element:
    """Parse ``svg`` and check what every picture has: an <svg> at most 600 wide, a title for the alt text,
    letters of at least MIN_TEXT units (legible on a phone, where the picture is shown at its natural size)."""
    root = ElementTree.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    sizes = [float(text.get("font-size", "0")) for text in root.iter(f"{SVG}text")]
    assert sizes and min(sizes) >= MIN_TEXT, sorted(set(sizes))
    assert int(root.get("width", "0")) <= 600 and int(root.get("height", "0")) > 0
    assert root.find(f"{SVG}title") is not None and alt_text(svg)
    return root


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_board_and_every_seats_own_picture_parse_and_come_from_their_views(kind: str) -> None:
    drawing = drawing_for(find_game(kind))  # a registered game without drawing.py fails here, naming the file
    checked = own_pictures = 0
    for game, seats, state in sampled_states(kind):
        public = game.view(state, None)
        frozen = json.dumps(public, sort_keys=True)
        board = drawing.board(public)
        assert json.dumps(public, sort_keys=True) == frozen, "the drawing changed the view it was given"
        assert board == board_svg(game, state) == drawing.board(json.loads(json.dumps(public))), "same view, another board"
        pictures = [board]
        for seat in seats:
            view = game.view(state, seat)
            assert drawing.board(view) == board, f"seat {seat}'s own view draws another board: it marks the reader"
            own = own_svg(game, state, seat)
            if own is not None:
                assert drawing.own is not None and own == drawing.own(json.loads(json.dumps(view)), seat)
                pictures.append(own)
                own_pictures += 1
        assert own_svg(game, state, None) is None, "the public has nothing of its own"
        for svg in pictures:
            root = check_svg(svg)
            if checked % 7 == 0:  # PNG of some of them: the renderer is the same for all
                assert decode_png(svg_to_png(svg)) == (int(root.get("width", "0")), int(root.get("height", "0")))
            checked += 1
    assert checked > 0
    if game.facts().has_hidden_information:
        assert own_pictures > 0, "a game with secrets shows a seat its own (hand, colour, faction) in a picture"


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_changing_what_a_seat_may_not_see_leaves_its_pictures_unchanged(kind: str) -> None:
    hidden_changes = 0
    rng = GameRng(5)
    for game, seats, state in sampled_states(kind):
        board = board_svg(game, state)
        for seat in seats:
            mine = own_svg(game, state, seat)
            for _ in range(2):
                changed = game.hidden_variant(state, seat, rng)  # every secret but the seat's own redrawn
                if changed == state:
                    continue
                hidden_changes += 1
                assert board_svg(game, changed) == board, "the board shows a secret"
                assert own_svg(game, changed, seat) == mine, f"seat {seat}'s own picture shows a secret not its own"
    if game.facts().has_hidden_information:  # games with secrets must have been tested for real
        assert hidden_changes > 0


def test_a_registered_game_without_a_drawing_fails(tmp_path: Path) -> None:
    copy_example(tmp_path, "undrawn_game", "undrawn-game", leave_out=["drawing.py"])
    with registered(tmp_path, "undrawn_game", "undrawn-game") as kind:
        with pytest.raises(MissingDrawing, match="drawing.py"):
            test_the_board_and_every_seats_own_picture_parse_and_come_from_their_views(kind)


def test_pictures_for_mail_are_small_and_carry_their_alt_text() -> None:
    for kind in sorted(GAMES):
        for game, seats, state in sampled_states(kind):
            pictures = ReportPictures(game, state)
            board = pictures.board()
            assert len(board.png) < 60_000, f"{kind}: {len(board.png)} bytes"
            assert board.alt == alt_text(board.svg) and game.title.split()[-1] in board.alt
            for seat in seats:
                own = pictures.own(seat)
                if own is not None:
                    assert len(own.png) < 60_000 and f"Seat {seat}'s" in own.alt


def test_readers_with_the_same_picture_share_one_rendering() -> None:
    game, seats, state = next(s for s in sampled_states("three-pyramids") if len(s[1]) == 4)
    pictures = ReportPictures(game, state)
    boards = {id(pictures.board()) for _ in (*seats, None)}
    assert len(boards) == 1 and pictures.rendered == 1  # one board for the four seats and the GM
    owns = [pictures.own(seat) for seat in seats]
    assert all(own is not None for own in owns)
    assert pictures.rendered == 1 + len({own.svg for own in owns if own is not None})  # each own hand once
    assert pictures.own(seats[0]) is owns[0] and pictures.rendered == 1 + len(seats)  # asked again: not made again


_ONE_OF_MANY = re.compile(r"(?<![\w.+-])1 (?:point|cube|disc|building|shell|stone|cow|space|worker|boat|unit|hexe|card"
                          r"|potion|step|round|turn)s\b")


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_no_picture_or_report_counts_one_thing_in_the_plural_or_abbreviates_points(kind: str) -> None:
    for game, seats, state in sampled_states(kind):
        phase = None if game.outcome(state) is not None else game.phase(state)
        report = ReportInput("g", game, state, 1, [], [], phase, game.outcome(state))
        texts = [board_svg(game, state), *(own_svg(game, state, seat) or "" for seat in seats),
                 *(render_report(report, reader) for reader in [None, *seats])]
        for text in texts:
            found = _ONE_OF_MANY.search(text) or re.search(r"\bpts\b", text)
            assert found is None, text[max(0, found.start() - 60):found.end()]
