"""The rule book's worked examples of chapter 21 (21A-21F), played through the game."""

from __future__ import annotations

from dataclasses import replace

from epic_quest_builders import GAME, orders, quest, resolve, texts
from scripted_rng import ScriptedRng

from pbem.games.epic_quest.enemies import (
    invader_steps,
    invaders_attack,
    meanie_attacks,
    move_invaders,
)
from pbem.games.epic_quest.questmap import quest_map
from pbem.games.epic_quest.state import Meanie

MAP = quest_map("FFEFF/F.F.F/G.B.Y")


def test_example_21a_each_adventurer_spends_its_two_actions_in_any_order_across_steps() -> None:
    """21A: the Warrior used both actions, the Cleric one; the Knight now takes his first."""
    state = quest(4, at={"W": "c1", "K": "c1", "A": "c1", "C": "c1"})
    state, _ = resolve(state, {"1": "WARRIOR MOVE b1\nWARRIOR MOVE a1", "2": "", "3": "", "4": "CLERIC MOVE d1"})
    assert [a.actions for a in state.adventurers] == [0, 2, 2, 1]
    assert GAME.phase(state).seats == ("2", "3", "4")  # the Warrior's player owes nothing more this round
    state, _ = resolve(state, {"2": "KNIGHT MOVE c2", "3": "", "4": ""})
    assert [a.actions for a in state.adventurers] == [0, 1, 2, 1]
    assert (state.round, state.step) == (1, 3)


def test_example_21b_the_cleric_weakens_the_yellow_portal_with_the_archers_support() -> None:
    """21B: Cleric and Archer move onto the yellow portal; the Warrior and the Knight move two cards; the
    Archer supports the Cleric's portal check: die 3 + 3 yellow + 3 yellow = 9, not 12, but higher than
    8: the disc moves right and the next main goal is 11. (The Archer has 2 yellow life cubes; the
    book's +3 counts a yellow upgrade in her backpack.)"""
    state = quest(2, at={"W": "e2", "K": "e2", "A": "e2", "C": "e2"}, backpack={"A": ["yellow"]})
    seat_1 = "@1 ARCHER MOVE e3\n@2 ARCHER SUPPORT CLERIC\nWARRIOR MOVE e1\nWARRIOR MOVE d1"
    seat_2 = "@1 CLERIC MOVE e3\n@3 CLERIC SEAL\nKNIGHT MOVE e1\nKNIGHT MOVE d1"
    state, events = resolve(state, {"1": seat_1, "2": seat_2}, rolls=[3, 6, 6, 6, 6, 6])
    assert "die 3 + 3 yellow + 3 from support = 9" in texts(events)
    assert "the portal weakens (main goal 11, secondary goal 7 from now on)" in texts(events)
    assert state.portals == (0, 0, 1) and not state.is_sealed("Y")
    assert {a.key: a.card for a in state.adventurers} == {"W": "d1", "K": "d1", "A": "e3", "C": "e3"}
    assert state.round == 2  # every action was spent: the enemies played their phase


def test_example_21c_every_invader_heads_for_the_closest_adventurer() -> None:
    """21C: all the invaders move toward the Archer because she is the closest adventurer."""
    state = quest(4, at={"W": "a1", "K": "a1", "A": "e1", "C": "a1"}, invaders={"e3": 2, "c2": 1})
    # From e3 the Archer on e1 is 2 cards away, the others 6; from c2 the Archer is 3 away, the others 3 too
    # (c2-c1-b1-a1), so that invader splits by adventurer order: the Warrior's card first.
    assert invader_steps(state, MAP, "e3", 2) == ["e2", "e2"]
    moved, events = move_invaders(state, MAP, "enemies")
    assert dict(moved.invaders) == {"c1": 1, "e2": 2}
    assert "2 from e3 to e2" in texts(events)


def test_example_21d_invaders_split_as_evenly_as_possible_over_equally_near_adventurers() -> None:
    """21D: five invaders, the Archer, the Knight and the Warrior with the Cleric equally near: 1 go to
    the Archer's card, 2 to the Knight's, 2 to the Warrior and Cleric's (never 0 or 3 on one card)."""
    state = quest(4, at={"W": "c2", "K": "d1", "A": "b1", "C": "c2"}, invaders={"c1": 5})
    steps = invader_steps(state, MAP, "c1", 5)
    assert sorted(steps) == ["b1", "c2", "c2", "d1", "d1"]
    moved, _ = move_invaders(state, MAP, "enemies")
    assert dict(moved.invaders) == {"b1": 1, "d1": 2, "c2": 2}


def test_example_21e_who_can_attack_what_and_supporting_with_five_red_cubes() -> None:
    """21E: the Cleric may ritual, the Archer may shoot the Meanie or the invader on the next card, the
    Warrior and the Knight may melee either; with the Warrior's support the Knight's melee counts 5 red
    cubes and fails only on a 1."""
    state = quest(1, at={"W": "b1", "K": "b1", "A": "a1", "C": "e1"}, invaders={"b1": 1},
                  meanie=Meanie(life=4, card="b1"))
    every = orders("CLERIC RITUAL\nARCHER RANGED b1 MEANIE\nARCHER RANGED b1 INVADER\nWARRIOR MELEE MEANIE\n"
                   "WARRIOR MELEE INVADER\nKNIGHT MELEE MEANIE\nKNIGHT MELEE INVADER")
    for order in every:
        assert GAME.validate(state, "1", [order]) == [], str(order)
    support = "@1 WARRIOR SUPPORT KNIGHT\n@2 KNIGHT MELEE INVADER\nDONE"
    failed, events = resolve(state, {"1": support}, rolls=[1] + [6] * 20)
    assert "die 1 + 2 red + 3 from support = 6: a 1 always fails." in texts(events)
    assert "is defeated" not in texts(events) and failed.invaders_on("b1") == 1
    won, events = resolve(state, {"1": support}, rolls=[2] + [6] * 20)
    assert "die 2 + 2 red + 3 from support = 7: success." in texts(events)
    assert "The invader on b1 is defeated" in texts(events) and won.invaders_on("b1") == 0


def test_example_21f_one_invader_attacks_the_guard_then_the_meanie_attacks_both() -> None:
    """21F: neither enemy defeated: the players choose which of the Knight and the Warrior the invader
    attacks (the GUARD policy; by default the most blue cubes: the Knight), then the Magic Meanie
    attacks both."""
    state = quest(1, at={"W": "b1", "K": "b1", "A": "a1", "C": "e1"}, invaders={"b1": 1},
                  meanie=Meanie(life=4, card="b1"))
    rolls = ScriptedRng([6, 6, 6])
    after, events = invaders_attack(state, MAP, rolls, "enemies")
    assert [e.data["adventurer"] for e in events] == ["K"]
    after, events = meanie_attacks(after, MAP, rolls, "enemies")
    assert [e.data["adventurer"] for e in events] == ["W", "K"]
    _, events = invaders_attack(replace(state, guard=("W",)), MAP, ScriptedRng([6]), "enemies")
    assert [e.data["adventurer"] for e in events] == ["W"]
