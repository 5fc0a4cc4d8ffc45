"""The map option: the plan's check of the rule book's map rules, a clear refusal for each kind of bad
map, and the checked default FFEFF/F.F.F/G.B.Y."""

from __future__ import annotations

import pytest
from epic_quest_builders import GAME

from pbem.core import GameError, GameRng
from pbem.games.epic_quest.questmap import (
    DEFAULT_MAP,
    BadQuestMap,
    entrance,
    portal_card,
    quest_map,
)


def test_the_default_map_is_the_plans_checked_trident() -> None:
    """Plan 4.21 [D]: default map=FFEFF/F.F.F/G.B.Y, 11 cards (10 besides the entrance: 7 forest cards and
    the 3 portals), the portals 4, 2 and 4 cards from the entrance."""
    card_map = quest_map(DEFAULT_MAP)
    assert len(card_map.cards) == 11 and len(card_map.cards_of("F")) == 7
    assert entrance(card_map) == "c1"
    assert [portal_card(card_map, p) for p in "GBY"] == ["a3", "c3", "e3"]
    gate = card_map.card_at("c1")
    assert [card_map.distance(gate, card_map.card_at(portal_card(card_map, p))) for p in "GBY"] == [4, 2, 4]
    state = GAME.setup(("1",), {}, GameRng(1))
    assert state.map_text == DEFAULT_MAP and {a.card for a in state.adventurers} == {"c1"}


def test_a_creators_map_that_follows_the_rules_is_used_in_any_letter_case() -> None:
    state = GAME.setup(("1",), {"map": "ffefff/f.f..f/g.b..y"}, GameRng(1))
    assert state.map_text == "FFEFFF/F.F..F/G.B..Y"
    assert GAME.view(state, None)["map"]["entrance"] == "c1"
    assert [p["card"] for p in GAME.view(state, None)["portals"]] == ["a3", "c3", "f3"]


BAD_MAPS = [
    pytest.param("", "the map is empty", id="empty"),
    pytest.param("FFEFF/F.F.F/G.BY", "the rows must be equally long", id="uneven-rows"),
    pytest.param("FFEFF//G.B.Y", "row 2 is empty", id="empty-row"),
    pytest.param("FFEFF/F.X.F/G.B.Y", "'X' in row 2 is not a card; use E, F, G, B, Y or '.'", id="unknown-letter"),
    pytest.param("FFFFF/F.F.F/G.B.Y", "exactly one entrance E, it has 0", id="no-entrance"),
    pytest.param("FFEFF/F.F.F/G.B.Y/E....", "exactly one entrance E, it has 2 (c1, a4)", id="two-entrances"),
    pytest.param("FFEFF/F.F.F/G.F.Y", "exactly one blue portal B, it has 0", id="missing-portal"),
    pytest.param("FFEFF/F.F.F/G.G.Y", "exactly one green portal G, it has 2 (a3, c3)", id="doubled-portal"),
    pytest.param("FFEFF/F...F/G.B.Y", "it needs at least 10: the 3 portals and 7 to 9 forest cards",
                 id="too-few-cards"),
    pytest.param("FFFEFFF/F..F..F/F..F..F/G..B..Y", "the map has 12 forest cards; the game has only 9",
                 id="too-many-forest-cards"),
    pytest.param("FFEFF/F.F.F/G.B.Y/.....", None, id="a-row-of-holes-is-fine"),
    pytest.param("FFE.FF/F.F..F/G.B..Y", "the cards are not all connected: e1, f1, f2, f3 cannot be reached",
                 id="not-connected"),
    pytest.param("FGEFF/F.F.F/F.B.Y", "the green portal b1 touches the entrance c1", id="portal-at-entrance"),
    pytest.param("FFEFF/F.F.F/FGB.Y", "the green portal b3 touches the blue portal c3", id="portals-touch"),
    pytest.param("FFEFFF/F.F.F./G.B.Y.", "the forest card f1 is not essential", id="dead-end"),
    pytest.param("FFEFF/FFF.F/G.B.Y", "the forest cards a1, b1, b2 are not essential: without any one of them", id="spare-branch-loop"),
    pytest.param("/".join(["E"] * 27), "the map has 27 rows; at most 26", id="too-tall"),
]


@pytest.mark.parametrize(("text", "message"), BAD_MAPS)
def test_each_kind_of_bad_map_is_refused_naming_what_is_wrong(text: str, message: str | None) -> None:
    """Book, setup 3: at least 10 cards besides the entrance, portals separated from the entrance and each
    other by a forest card, every card sharing a side, no dead ends or non-essential branches."""
    if message is None:
        GAME.setup(("1",), {"map": text}, GameRng(1))
        return
    with pytest.raises(BadQuestMap) as refused:
        GAME.setup(("1",), {"map": text}, GameRng(1))
    assert message in str(refused.value)
    assert str(refused.value).startswith(f"option map={text}: ")
    assert isinstance(refused.value, GameError)


def test_every_problem_of_a_bad_map_is_listed() -> None:
    with pytest.raises(BadQuestMap) as refused:
        quest_map("EFFF/FFFF/GBY.")
    text = str(refused.value)
    assert "the green portal a3 touches the blue portal b3" in text
    assert "the blue portal b3 touches the yellow portal c3" in text
    assert "are not essential" in text
