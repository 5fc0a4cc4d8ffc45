"""The Epic Quest's reports, view and picture: the map drawn as a player would, the status card, the
ends of the quest, and the same position for every reader (nothing is secret)."""

from __future__ import annotations

from xml.etree import ElementTree

import pytest
from epic_quest_builders import GAME, quest, resolve

from pbem.games.epic_quest.drawing import draw
from pbem.games.epic_quest.state import Meanie
from pbem.reports import ReportInput, render_report

SVG = "{http://www.w3.org/2000/svg}"


def _report(state, events=(), turn=1):  # type: ignore[no-untyped-def]
    outcome = GAME.outcome(state)
    return ReportInput("eq", GAME, state, turn, list(events), [], None if outcome else GAME.phase(state), outcome)


def _middle():  # type: ignore[no-untyped-def]
    return quest(2, at={"W": "b1", "K": "b1", "A": "e3", "C": "c2"}, invaders={"b1": 2, "a3": 1},
                 meanie=Meanie(life=3, card="b1"), portals={"Y": 1, "B": 4}, backpack={"W": ["potion", "blue"]},
                 life={"K": {"blue": 3, "red": 1}})


def test_the_text_report_draws_the_map_card_by_card() -> None:
    text = render_report(_report(_middle()), "1")
    assert "The map, round 1 of 30, step 1:" in text
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.strip().startswith("a") and " e" in line)
    assert lines[header].split() == ["a", "b", "c", "d", "e"]
    assert lines[header + 1] == "    " + " ".join(["+------------+"] * 5)
    assert lines[header + 2] == "  1 |forest      | |forest      | |ENTRANCE    | |forest      | |forest      |"
    assert lines[header + 3] == "    |            | |W K         | |            | |            | |            |"
    assert lines[header + 4] == "    |            | |inv 2 MM 3  | |            | |            | |            |"
    assert "  3 |green 12/8  |                |blue SEALED |                |yellow 11/7 |" in text
    assert "|C           |" in text and "|A           |" in text and "|inv 1       |" in text


def test_the_status_card_lists_every_adventurer_the_meanie_the_portals_and_the_bag() -> None:
    text = render_report(_report(_middle()), "1")
    assert ("  Warrior (seat 1, you): on b1; red 3, blue 2, green 1 (6 of 6); backpack: potion, blue; 2 actions "
            "left; loses green, then blue, then red") in text
    assert "  Knight (seat 2): on b1; blue 3, red 1, yellow 0 (4 of 6); backpack: empty;" in text
    assert "The Magic Meanie: on b1, 3 of 4 life discs." in text
    assert "  yellow on e3: main goal 11, secondary goal 7" in text and "  blue on c3: sealed" in text
    assert "Invaders: 3 on the map, 7 in the supply." in text
    assert "Equipment bag (16 cubes): 8 potions, upgrades: 2 red, 2 blue, 2 green, 2 yellow." in text
    assert "Guard policy: default (most blue cubes, then most life cubes)." in text
    assert "Portals sealed: 1 of 3 (the team's score)." in text
    assert "Your orders are due." in text and "Round 1, step 1; actions left:" in text


def test_every_reader_sees_the_same_position_only_their_own_adventurers_are_marked() -> None:
    state = _middle()
    public, one, two = GAME.view(state, None), GAME.view(state, "1"), GAME.view(state, "2")
    assert public["you"] == [] and one["you"] == ["Warrior", "Archer"] and two["you"] == ["Knight", "Cleric"]
    for view in (one, two):
        assert {k: v for k, v in view.items() if k not in ("you", "adventurers", "controllers")} == \
            {k: v for k, v in public.items() if k not in ("you", "adventurers", "controllers")}
    assert "(seat 1, you)" not in render_report(_report(state), None)


@pytest.mark.parametrize(("result", "headline"), [("victory", "Shared win: 1, 2."), ("defeat", "Nobody wins.")])
def test_the_final_report_says_how_the_quest_ended(result: str, headline: str) -> None:
    if result == "victory":
        state, events = resolve(quest(2, portals={"G": 4, "B": 4, "Y": 4}), {"1": "DONE", "2": "DONE"})
    else:
        state, events = resolve(quest(2, options={"max_rounds": "1"}), {"1": "DONE", "2": "DONE"}, rolls=[6] * 9)
    text = render_report(_report(state, events), "2")
    assert f"The game is over. {headline}" in text
    assert f"The map at the end of the quest ({result}, round 1 of" in text
    assert state.end_reason in text


def test_the_picture_shows_the_map_pieces_and_status_card() -> None:
    state = _middle()
    svg = draw(GAME.view(state, None))
    root = ElementTree.fromstring(svg)
    assert root.find(f"{SVG}title").text == "The Epic Quest, round 1 of 30"  # type: ignore[union-attr]
    assert int(root.get("width", "0")) <= 560
    words = [t.text for t in root.iter(f"{SVG}text")]
    for word in ("a1", "e3", "entrance", "sealed", "11/7", "12/8", "W", "K", "A", "C", "3", "backpack:"):
        assert word in words, word
    assert "Knight (seat 2) on b1, 2 actions left" in words
    wide = quest(options={"map": "FFEFFF/F.F..F/G.B..Y"})
    assert int(ElementTree.fromstring(draw(GAME.view(wide, None))).get("width", "0")) <= 560
