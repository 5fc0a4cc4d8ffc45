"""Phase 2, the enemies (rule book steps 1-5) with the plan's fixed rules and the standing policies."""

from __future__ import annotations

from dataclasses import replace

import pytest
from epic_quest_builders import quest, texts
from scripted_rng import ScriptedRng

from pbem.core.bag import Bag
from pbem.games.epic_quest.enemies import (
    activate_meanie,
    enemy_phase,
    invader_steps,
    invaders_attack,
    meanie_attacks,
    meanie_entry,
    move_invaders,
    spawn,
)
from pbem.games.epic_quest.questmap import quest_map
from pbem.games.epic_quest.state import Meanie

MAP = quest_map("FFEFF/F.F.F/G.B.Y")


# --- 1. spawn -------------------------------------------------------------------------------------------


def test_three_unsealed_portals_get_one_invader_each() -> None:
    state, events = spawn(quest(), MAP, "enemies")
    assert dict(state.invaders) == {"a3": 1, "c3": 1, "e3": 1} and state.supply == 7
    assert "1 on the blue portal (c3)" in texts(events)


@pytest.mark.parametrize(("at", "double"), [("b1", "a3"), ("d1", "e3"), ("c1", "a3")])
def test_with_two_unsealed_portals_the_one_nearest_an_adventurer_gets_two(at: str, double: str) -> None:
    """Spawn 2 unsealed: 2 on the portal closest to the adventurers, 1 on the other; plan [D]: ties G, B, Y
    (from c1 the green and yellow portals are both 4 away)."""
    state = quest(at={k: at for k in "WKAC"}, portals={"B": 4})
    after, _ = spawn(state, MAP, "enemies")
    other = "e3" if double == "a3" else "a3"
    assert dict(after.invaders) == {double: 2, other: 1}


def test_with_one_unsealed_portal_all_three_come_through_it() -> None:
    after, _ = spawn(quest(portals={"G": 4, "Y": 4}), MAP, "enemies")
    assert dict(after.invaders) == {"c3": 3}


def test_a_short_supply_places_what_it_can_nearest_first() -> None:
    """Spawn: fewer invaders in the supply than needed: place as many as you can (plan: nearest first)."""
    state = quest(invaders={"a1": 9})
    after, events = spawn(state, MAP, "enemies")
    assert dict(after.invaders) == {"a1": 9, "c3": 1} and "(the supply held only 1)" in texts(events)
    empty, events = spawn(quest(invaders={"a1": 10}), MAP, "enemies")
    assert empty.invaders == (("a1", 10),) and "The supply of invaders is empty" in texts(events)
    sealed, events = spawn(quest(portals={"G": 4, "B": 4, "Y": 4}), MAP, "enemies")
    assert sealed.invaders == () and "Every portal is sealed" in texts(events)


# --- 2. the Magic Meanie activates ------------------------------------------------------------------------


def test_the_meanie_walks_the_status_track_then_enters_the_forest() -> None:
    """Magic Meanie activates: one step right on the status card; from the last space onto a forest card
    with an adventurer; once in the forest he stays."""
    state = quest(at={"W": "b1"})
    for space in ("2", "3+"):
        state, _ = activate_meanie(state, MAP, "enemies")
        assert state.meanie.space_name == space and state.meanie.card is None
    state, events = activate_meanie(state, MAP, "enemies")
    assert state.meanie.card == "b1" and "enters the forest on b1, where the Warrior stands" in texts(events)
    state, events = activate_meanie(replace(state, adventurers=quest(at={"W": "d1"}).adventurers), MAP, "enemies")
    assert state.meanie.card == "b1" and "stays on b1" in texts(events)


def test_the_meanie_waits_while_no_adventurer_is_on_a_forest_card() -> None:
    """Plan [D]: he waits on the last status space while no adventurer is on a forest card."""
    state = quest(at={"W": "a3", "K": "e3"}, meanie=Meanie(space=2))  # the others stand on the entrance
    after, events = activate_meanie(state, MAP, "enemies")
    assert after.meanie == state.meanie and "waits on space 3+" in texts(events)


def test_the_meanie_enters_the_card_with_fewest_adventurers_then_farthest_from_a_portal_then_map_order() -> None:
    """Plan [D]: fewest adventurers, then farthest from any unsealed portal, then map order."""
    assert meanie_entry(quest(at={"W": "b1", "K": "b1", "A": "d1", "C": "d1"}), MAP) == "b1"  # tie: map order
    assert meanie_entry(quest(at={"W": "b1", "K": "b1", "A": "d1", "C": "c1"}), MAP) == "d1"  # fewest
    assert meanie_entry(quest(at={"W": "a2", "K": "b1", "A": "c1", "C": "c1"}), MAP) == "b1"  # a2 is 1 from G
    assert meanie_entry(quest(at={"W": "a2", "K": "b1"}, portals={"G": 4, "B": 4}), MAP) == "a2"  # only Y counts


# --- 3. the invaders move ----------------------------------------------------------------------------------


def test_invaders_on_a_card_with_an_adventurer_stay() -> None:
    state = quest(at={"W": "a3"}, invaders={"a3": 2, "e3": 1})
    after, _ = move_invaders(state, MAP, "enemies")
    assert dict(after.invaders) == {"a3": 2, "e2": 1}


def test_invaders_split_over_equally_short_first_steps() -> None:
    """Plan [D]: invaders split round-robin over the equally short first steps, in card order. (A map
    whose forest cards are all essential can still hold a loop: here the 2 x 2 block b3, c3, b4, c4,
    each of its cards the only way to one portal or the entrance.)"""
    text = ".G.../.F.../.FFFY/BFF../..F../..E.."
    state = quest(options={"map": text}, at={k: "c4" for k in "WKAC"}, invaders={"b3": 3})
    assert invader_steps(state, quest_map(text), "b3", 3) == ["c3", "b4", "c3"]


def test_invaders_do_nothing_with_nobody_in_the_forest() -> None:
    state = quest(at={k: None for k in "WKAC"}, invaders={"a1": 2})
    assert invader_steps(state, MAP, "a1", 2) == []


# --- 4. and 5. attacks --------------------------------------------------------------------------------------


def test_each_invader_attacks_and_a_failed_blue_check_costs_a_life_cube_by_the_lose_policy() -> None:
    """Invaders attack: each invader on a card with an adventurer attacks; blue check; failing loses one
    life cube of your choice (POLICY LOSE; default third, second, main colour)."""
    state = quest(at={"W": "b1"}, invaders={"b1": 3})
    after, events = invaders_attack(state, MAP, ScriptedRng([2, 4, 1]), "enemies")
    assert after.adventurer("W").life.as_dict() == {"red": 3, "blue": 1}  # lost green, then blue
    assert [e.data["success"] for e in events] == [False, True, False]
    assert "die 1 + 2 blue = 3: a 1 always fails; the Warrior loses a blue life cube (4 left)." in texts(events)
    chosen = state.with_adventurer(replace(state.adventurer("W"), lose=("red", "green", "blue")))
    after, _ = invaders_attack(chosen, MAP, ScriptedRng([1, 1, 1]), "enemies")
    assert after.adventurer("W").life.as_dict() == {"blue": 2, "green": 1}


def test_blue_upgrades_help_defend() -> None:
    state = quest(at={"W": "b1"}, invaders={"b1": 1}, backpack={"W": ["blue", "blue"]})
    _, events = invaders_attack(state, MAP, ScriptedRng([2]), "enemies")
    assert "die 2 + 4 blue = 6: defended." in texts(events)


def test_on_a_shared_card_the_default_guard_is_the_most_blue_then_the_most_life() -> None:
    """Plan [D] POLICY GUARD default: most blue cubes, then most life, then W, K, A, C."""
    state = quest(at={"W": "b1", "A": "b1", "C": "b1"}, invaders={"b1": 1})
    _, events = invaders_attack(state, MAP, ScriptedRng([6]), "enemies")
    assert events[0].data["adventurer"] == "W"  # blue: W 2, A 1, C 0
    state = quest(at={"W": "b1", "K": "b1"}, invaders={"b1": 2}, life={"K": {"blue": 2, "red": 2}})
    _, events = invaders_attack(state, MAP, ScriptedRng([6, 6]), "enemies")
    assert [e.data["adventurer"] for e in events] == ["W", "W"]  # equal blue, the Warrior has more life
    tired = quest(at={"W": "b1", "K": "b1"}, invaders={"b1": 2})
    tired = tired.with_adventurer(replace(tired.adventurer("K"), lose=("blue", "red", "yellow")))
    _, events = invaders_attack(tired, MAP, ScriptedRng([1, 6]), "enemies")
    assert [e.data["adventurer"] for e in events] == ["K", "W"]  # judged again before each attack


def test_the_guard_policy_chooses_who_takes_the_attacks() -> None:
    state = replace(quest(at={"W": "b1", "K": "b1", "A": "b1"}, invaders={"b1": 2}), guard=("A",))
    _, events = invaders_attack(state, MAP, ScriptedRng([6, 6]), "enemies")
    assert [e.data["adventurer"] for e in events] == ["A", "A"]


def test_the_meanie_attacks_every_adventurer_on_his_card() -> None:
    state = quest(at={"W": "b1", "K": "b1", "A": "a1"}, meanie=Meanie(card="b1"))
    after, events = meanie_attacks(state, MAP, ScriptedRng([5, 2]), "enemies")
    assert [e.data["adventurer"] for e in events] == ["W", "K"]
    assert after.adventurer("W").life.size == 6 and after.adventurer("K").life.size == 5


def test_the_enemies_phase_runs_in_the_books_order_and_stops_at_a_death() -> None:
    state = quest(at={"W": "a2"}, life={"W": {"red": 1}}, meanie=Meanie(space=2), bag=Bag())
    after, events = enemy_phase(state, MAP, ScriptedRng([1, 6, 6]), "enemies")
    kinds = [e.kind for e in events]
    assert kinds[:4] == ["spawn", "meanie", "invaders-move", "defence"]
    assert after.result == "defeat" and kinds[-1] == "defeat"
    assert after.meanie.card == "a2" and dict(after.invaders)["a2"] == 1  # the green portal's invader came
