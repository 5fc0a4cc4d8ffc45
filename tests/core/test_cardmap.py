"""Card maps: parsing the row text, card names, neighbours, distances, shortest first steps, connectivity."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.core.cardmap import CardMap, MapTextError
from pbem.core.grid import BadCellName

TRIDENT = CardMap.parse("FFEFF/F.F.F/G.B.Y", kinds="EFGBY")


def test_rows_are_read_top_to_bottom_and_cards_named_by_column_letter_and_row() -> None:
    assert (TRIDENT.width, TRIDENT.height) == (5, 3)
    assert [TRIDENT.name(c) for c in TRIDENT.cards] == ["a1", "b1", "c1", "d1", "e1", "a2", "c2", "e2", "a3", "c3",
                                                      "e3"]
    assert TRIDENT.kind(TRIDENT.card_at("C1")) == "E" and TRIDENT.cards_of("B") == ((2, 2),)
    assert TRIDENT.text == "FFEFF/F.F.F/G.B.Y"
    assert CardMap.parse(" ffeff / f.f.f /g.b.y ", kinds="EFGBY") == TRIDENT


@pytest.mark.parametrize(("name", "message"), [("b2", "there is no card on b2"), ("f1", "not on the board"),
                                               ("zz", "not a square name")])
def test_a_name_without_a_card_is_refused(name: str, message: str) -> None:
    with pytest.raises(BadCellName, match=message):
        TRIDENT.card_at(name)


@pytest.mark.parametrize(("text", "message"), [
    ("", "the map is empty"),
    ("EF/E", "the rows must be equally long"),
    ("EF//FE", "row 2 is empty"),
    ("EQ", "'Q' in row 1 is not a card; use E, F or '.' for no card"),
    ("..", "the map holds no card"),
    ("E" * 27, "row 1 has 27 cells; at most 26"),
])
def test_bad_map_text_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(MapTextError, match=message):
        CardMap.parse(text, kinds="EF")


def test_neighbours_share_a_side_and_come_in_map_order() -> None:
    cell = TRIDENT.card_at
    assert TRIDENT.neighbours(cell("c1")) == (cell("b1"), cell("d1"), cell("c2"))
    assert TRIDENT.neighbours(cell("a3")) == (cell("a2"),)
    assert TRIDENT.are_adjacent(cell("c1"), cell("c2")) and not TRIDENT.are_adjacent(cell("b1"), cell("c2"))
    assert TRIDENT.neighbours(cell("c1"), without=[cell("b1")]) == (cell("d1"), cell("c2"))


def test_distances_walk_over_cards_only() -> None:
    cell = TRIDENT.card_at
    assert TRIDENT.distance(cell("a3"), cell("e3")) == 8
    assert TRIDENT.distances(cell("c1"))[cell("a3")] == 4
    assert cell("a3") not in TRIDENT.distances(cell("c1"), without=[cell("b1")])
    assert TRIDENT.distances(cell("c1"), without=[cell("c1")]) == {}


def test_first_steps_are_the_neighbours_on_a_shortest_path() -> None:
    ring = CardMap.parse("FFF/F.F/FFF", kinds="F")
    cell = ring.card_at
    assert ring.first_steps(cell("a1"), cell("c3")) == (cell("b1"), cell("a2"))
    assert ring.first_steps(cell("a1"), cell("b1")) == (cell("b1"),)
    assert ring.first_steps(cell("a1"), cell("a1")) == ()


def test_connectivity_with_cards_left_out() -> None:
    cell = TRIDENT.card_at
    assert TRIDENT.is_connected()
    assert not TRIDENT.is_connected(without=[cell("c1")])
    assert TRIDENT.is_connected(without=[cell("a3")])
    assert not CardMap.parse("F.F", kinds="F").is_connected()


@given(st.lists(st.lists(st.sampled_from("F."), min_size=4, max_size=4), min_size=1, max_size=4))
def test_distances_are_symmetric_and_a_first_step_is_one_closer(rows: list[list[str]]) -> None:
    text = "/".join("".join(row) for row in rows)
    if "F" not in text:
        return
    card_map = CardMap.parse(text, kinds="F")
    for a in card_map.cards:
        for b, steps in card_map.distances(a).items():
            assert card_map.distance(b, a) == steps
            for first in card_map.first_steps(a, b):
                assert card_map.distance(first, b) == steps - 1 and card_map.are_adjacent(a, first)
