"""The Great Battle rules, one worked example per rule (rule book chapter 15, the hosting plan's
section 4.15 and CLARIFICATIONS), with the book's examples 15A-15D."""

from __future__ import annotations

import pytest
from great_battle_builders import GAME, battle, problems, turn, units

from pbem.core import GameError, GameRng, IllegalOrder, OutcomeKind
from pbem.core.hexgrid import distance
from pbem.games.great_battle.board import BASES, GRID, hex_name, next_to_base
from pbem.games.great_battle.orders import Action, Attack, Place, Spawn

# --- the map -----------------------------------------------------------------------


def test_the_island_is_a_hexagon_of_61_hexes_with_the_bases_on_opposite_corners() -> None:
    """[C] a hex map of radius 4 (61 hexes); [D] the bases are the corners of two opposite edges,
    each with exactly 3 hexes next to it, every opposing corner 8 hexes away."""
    assert len(GRID) == 61
    assert {colour: hex_name(cell) for colour, cell in BASES.items()} == {
        "red": "a9", "blue": "e9", "green": "i1", "yellow": "e1"}
    assert [hex_name(c) for c in next_to_base("red")] == ["a8", "b8", "b9"]
    assert [hex_name(c) for c in next_to_base("blue")] == ["d9", "e8", "f8"]
    assert [hex_name(c) for c in next_to_base("green")] == ["h1", "h2", "i2"]
    assert [hex_name(c) for c in next_to_base("yellow")] == ["d2", "e2", "f1"]
    for mine in ("red", "blue"):
        for theirs in ("green", "yellow"):
            assert distance(BASES[mine], BASES[theirs]) == 8


# --- setup -------------------------------------------------------------------------


def test_setup_the_first_player_places_two_units_the_second_three_next_to_their_bases() -> None:
    """[R] setup 4: the first player places 2 units, the second 3, each next to the base of its
    colour; [D] on empty hexes."""
    state = GAME.setup(("1", "2"), {"start": "2"}, GameRng(1))
    assert state.to_play == "2" and GAME.phase(state).name == "setup"
    assert GAME.phase(state).prompt == ("Setup: Seat 2 (Meanies) places 2 units (PLACE colour hex), each on an empty "
                                        "hex next to the base of its colour (green base i1: h1, h2, i2; yellow base "
                                        "e1: d2, e2, f1).")
    assert problems(state, "PLACE green h1\nPLACE green h2") == []
    assert problems(state, "PLACE green h1\nPLACE green h1") == [
        "PLACE green h1: a unit stands on h1", "the setup is 2 PLACE lines; 1 of yours can be placed"]
    state = turn(state, "PLACE green h1\nPLACE yellow e2").state
    assert state.to_play == "1"
    assert problems(state, "PLACE red b8\nPLACE blue e8") == [
        "the setup is 3 PLACE lines; 2 of yours can be placed"]
    assert problems(state, "PLACE red b8\nPLACE blue e8\nPLACE red c7\nPLACE red a8") == [
        "PLACE red c7: a red unit must place next to the red base a9 (a8, b8, b9)"]
    assert problems(state, "PLACE red b8\nPLACE blue e8\nPLACE red a8\nPLACE red b9") == [
        "PLACE red b9: you place 3 units in the setup"]
    assert problems(state, "PLACE green h2\nPLACE red b8\nPLACE red b9") == [
        "PLACE green h2: green is not your colour; yours are red and blue",
        "the setup is 3 PLACE lines; 2 of yours can be placed"]
    state = turn(state, "PLACE red b8\nPLACE blue e8\nPLACE red a8").state
    assert state.stage == "action" and state.to_play == "2"  # the first player acts first
    assert units(state) == {"h1": "green 1", "e2": "yellow 1", "a8": "red 1", "b8": "red 1", "e8": "blue 1"}
    assert state.supply[0].count("red") == 8 and state.supply[1].count("green") == 9


def test_setup_nmr_places_on_the_first_free_hexes_one_colour_after_the_other() -> None:
    """Plan 4.15 NMR: in setup, the first free hexes in name order, one unit of each colour in turn."""
    state = GAME.setup(("1", "2"), {}, GameRng(1))
    assert GAME.default_orders(state, "1") == [Place("red", "a8"), Place("blue", "d9")]
    state = turn(state, "PLACE red a8\nPLACE blue d9").state
    assert GAME.default_orders(state, "2") == [Place("green", "h1"), Place("yellow", "d2"), Place("green", "h2")]


# --- choosing the action ---------------------------------------------------------------


def test_the_disc_goes_to_a_space_holding_neither_disc() -> None:
    """[R] "you may not choose a space your disc or your opponent's is on"."""
    state = battle({"b8": "red 1", "h2": "green 1"}, discs=("MOVE3", "SPAWN"))
    assert problems(state, "ACTION MOVE3") == [
        "ACTION MOVE3: your disc is on MOVE3; free spaces: MOVE1X2, UPGRADE, SABOTAGE, ATTACK",
        "without its ACTION the turn cannot stand: nothing is stored"]
    assert problems(state, "ACTION SPAWN")[0].startswith("ACTION SPAWN: the other general's disc is on SPAWN")
    after = turn(state, "ACTION UPGRADE").state
    assert after.discs == ("UPGRADE", "SPAWN") and after.to_play == "2"


def test_a_turn_starts_with_its_action_and_takes_only_its_kind_of_lines() -> None:
    state = battle({"b8": "red 1", "h2": "green 1"})
    assert problems(state, "MOVE b8-c7") == [
        "MOVE b8-c7: a turn starts with ACTION and the space, e.g. ACTION MOVE3",
        "a turn starts with ACTION and a free space, e.g. ACTION MOVE3"]
    assert problems(state, "ACTION SPAWN\nMOVE b8-c7\nACTION MOVE3") == [
        "MOVE b8-c7: your action is SPAWN, which takes SPAWN lines", "ACTION MOVE3: one ACTION a turn"]


def test_an_action_may_be_taken_with_no_effect() -> None:
    """[D] MOVE3 with 0 moves, SPAWN with nothing to spawn: a pass."""
    state = battle({"b8": "red 1", "h2": "green 1"}, supply={"red": 0, "blue": 0})
    for space in ("MOVE3", "SPAWN", "ATTACK"):
        assert problems(state, f"ACTION {space}") == []
        assert units(turn(state, f"ACTION {space}").state) == units(state)


# --- moving ------------------------------------------------------------------------


def test_example_15a_move3_moves_up_to_three_different_units() -> None:
    """Example 15A: Michelle takes MOVE3, moves her red unit 2 hexes and her blue unit 1; she has no
    other unit and may not move one of the two again."""
    state = battle({"b8": "red 1", "e8": "blue 1", "h2": "green 1"})
    text = "ACTION MOVE3\nMOVE b8-c6\nMOVE e8-e7"
    assert problems(state, text) == []
    assert problems(state, text + "\nMOVE c6-c5") == [
        "MOVE c6-c5: the unit on c6 has moved already; MOVE3 moves different units"]
    after = turn(state, text).state
    assert units(after) == {"h2": "green 1", "c6": "red 1", "e7": "blue 1"}
    crowd = battle({"b8": "red 1", "e8": "blue 1", "c7": "red 1", "d8": "blue 1", "h2": "green 1"})
    assert problems(crowd, "ACTION MOVE3\nMOVE b8-b7\nMOVE e8-e7\nMOVE c7-c6\nMOVE d8-d7") == [
        "MOVE d8-d7: MOVE3 takes at most 3 lines"]


def test_example_15b_move1x2_moves_one_green_unit_four_hexes() -> None:
    """Example 15B: Lucy takes MOVE1X2 and moves her green unit 4 hexes away: 2, and 2 again."""
    state = battle({"h2": "green 1", "e2": "yellow 1", "b8": "red 1"}, to_play=1, turns=1)
    text = "ACTION MOVE1X2\nMOVE h2-g4\nMOVE g4-f6"
    assert problems(state, text) == []
    assert distance(GRID.parse("h2"), GRID.parse("f6")) == 4
    assert units(turn(state, text).state)["f6"] == "green 1"
    assert problems(state, "ACTION MOVE1X2\nMOVE h2-g4\nMOVE e2-e3") == [
        "MOVE e2-e3: MOVE1X2 moves one unit: the second move starts where the first ended, g4"]


def test_move1x2_moves_once_or_twice_never_three_times() -> None:
    """[R] Move 1 Unit Twice: "you may move the unit a second time if you wish": one MOVE line is a
    whole turn, a third is refused."""
    state = battle({"h2": "green 1", "e2": "yellow 1", "b8": "red 1"}, to_play=1, turns=1)
    assert problems(state, "ACTION MOVE1X2\nMOVE e2-e3") == []
    assert units(turn(state, "ACTION MOVE1X2\nMOVE e2-e3").state)["e3"] == "yellow 1"
    assert problems(state, "ACTION MOVE1X2\nMOVE e2-e3\nMOVE e3-e4\nMOVE e4-e5") == [
        "MOVE e4-e5: MOVE1X2 takes at most 2 lines"]


def test_a_capture_on_the_last_allowed_action_wins_rather_than_counting_levels() -> None:
    """[R] entering an enemy base wins at once; the turn limit [D] only decides a battle nobody won."""
    state = battle({"h1": "red 1", "h3": "green 3", "d5": "yellow 2"}, turns=59)
    outcome = GAME.outcome(turn(state, "ACTION MOVE3\nMOVE h1-i1").state)
    assert outcome is not None and outcome.winners == ("1",) and "takes the enemy's green base" in outcome.reason


def test_speed_red_and_green_two_hexes_blue_and_yellow_one() -> None:
    """[R] blue/yellow units move 1 hex, red/green up to 2."""
    state = battle({"b8": "red 1", "e8": "blue 1", "h2": "green 1"})
    assert problems(state, "ACTION MOVE3\nMOVE b8-b7") == []  # "up to" 2
    assert problems(state, "ACTION MOVE3\nMOVE b8-b5") == [
        "MOVE b8-b5: a red unit moves up to 2 hexes through empty hexes; b5 is 3 hexes away"]
    assert problems(state, "ACTION MOVE3\nMOVE e8-e6") == [
        "MOVE e8-e6: a blue unit moves up to 1 hex through empty hexes; e6 is 2 hexes away"]


def test_movement_never_passes_through_or_onto_a_unit() -> None:
    """[R] "You cannot pass through or move onto hexes containing a Unit"."""
    # the red unit on c7 is walled in towards c5 by units on c6 and d6 (both ways of 2 steps)
    state = battle({"c7": "red 1", "c6": "blue 1", "d6": "green 1", "h2": "green 1"})
    assert problems(state, "ACTION MOVE3\nMOVE c7-c5") == [
        "MOVE c7-c5: a red unit moves up to 2 hexes through empty hexes; units and bases are in the way"]
    assert problems(state, "ACTION MOVE3\nMOVE c7-d6") == ["MOVE c7-d6: a unit stands on d6"]
    assert problems(state, "ACTION MOVE3\nMOVE c6-b6\nMOVE c7-c5") == []  # the way is free once c6 moved


def test_own_bases_are_never_entered_nor_passed() -> None:
    """[R] "You cannot move on to one of your own bases"; [D] own bases are impassable too."""
    state = battle({"b8": "red 1", "h2": "green 1"})
    assert problems(state, "ACTION MOVE3\nMOVE b8-a9") == ["MOVE b8-a9: a9 is your own red base"]
    around = battle({"a8": "red 1", "b8": "blue 1", "h2": "green 1"})
    # a8 to b9 in 2 steps only through the red base a9 (b8 is taken)
    assert problems(around, "ACTION MOVE3\nMOVE a8-b9")[0].endswith("units and bases are in the way")


def test_entering_an_enemy_base_wins_at_once_even_mid_move() -> None:
    """[R] the first to move a unit onto an enemy base wins; [D] also part-way through a 2-hex
    move (the unit stops there), and nothing after it is played."""
    state = battle({"h1": "red 1", "g4": "blue 1", "h3": "green 1"})
    text = "ACTION MOVE3\nMOVE h1-i1\nMOVE g4-g3"
    assert problems(state, text) == ["MOVE g4-g3: the battle is won by entering i1; nothing follows"]
    result = turn(state, "ACTION MOVE3\nMOVE h1-i1")
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("1",) and outcome.kind is OutcomeKind.WIN
    assert outcome.reason == "Seat 1 (Minutians) takes the enemy's green base i1 and wins."
    # an enemy base is no way through: with h2 taken, i2 lies 2 steps from h1 only across i1
    blocked = battle({"h1": "red 1", "h2": "green 1"})
    assert problems(blocked, "ACTION MOVE3\nMOVE h1-i2") == [
        "MOVE h1-i2: a red unit moves up to 2 hexes through empty hexes; units and bases are in the way"]


# --- spawn, upgrade, sabotage ---------------------------------------------------------------


def test_example_15c_spawn_two_blue_units_next_to_the_blue_base() -> None:
    """Example 15C: both move spaces hold discs; Michelle takes SPAWN and puts 2 blue units next to
    her blue base."""
    state = battle({"b8": "red 1", "h2": "green 1"}, discs=("MOVE3", "MOVE1X2"))
    assert problems(state, "ACTION MOVE1X2")[0].startswith("ACTION MOVE1X2: the other general's disc")
    after = turn(state, "ACTION SPAWN\nSPAWN blue d9\nSPAWN blue e8").state
    assert units(after) == {"h2": "green 1", "b8": "red 1", "e8": "blue 1", "d9": "blue 1"}
    assert after.supply[0].count("blue") == 8
    assert problems(state, "ACTION SPAWN\nSPAWN blue b9") == [
        "SPAWN blue b9: a blue unit must spawn next to the blue base e9 (d9, e8, f8)"]
    assert problems(state, "ACTION SPAWN\nSPAWN red b8") == ["SPAWN red b8: a unit stands on b8"]
    assert problems(state, "ACTION SPAWN\nSPAWN red a8\nSPAWN red b9\nSPAWN blue d9") == [
        "SPAWN blue d9: SPAWN takes at most 2 lines"]


def test_spawn_needs_a_cube_in_the_supply() -> None:
    state = battle({"b8": "red 1", "h2": "green 1"}, supply={"red": 1})
    assert problems(state, "ACTION SPAWN\nSPAWN red a8\nSPAWN red b9") == [
        "SPAWN red b9: you have no red cube left in your supply"]


def test_upgrade_puts_a_cube_of_the_same_colour_on_a_unit() -> None:
    """[R] UPGRADE: 1 cube of the same colour on top of one of your units; its level rises."""
    state = battle({"b8": "red 1", "h2": "green 1"})
    after = turn(state, "ACTION UPGRADE\nUPGRADE b8").state
    assert units(after)["b8"] == "red 2" and after.supply[0].count("red") == 8
    assert problems(state, "ACTION UPGRADE\nUPGRADE h2") == ["UPGRADE h2: the unit on h2 is the enemy's"]
    assert problems(state, "ACTION UPGRADE\nUPGRADE b8\nUPGRADE b8") == ["UPGRADE b8: UPGRADE takes at most 1 line"]
    empty = battle({"b8": "red 1", "h2": "green 1"}, supply={"red": 0})
    assert problems(empty, "ACTION UPGRADE\nUPGRADE b8") == ["UPGRADE b8: you have no red cube left in your supply"]


def test_sabotage_destroys_a_cube_of_the_enemy_supply_for_good() -> None:
    """[R] SABOTAGE: permanently remove a unit of your choice from the opposing general's supply."""
    state = battle({"b8": "red 1", "h2": "green 1"})
    after = turn(state, "ACTION SABOTAGE\nSABOTAGE green").state
    assert after.supply[1].count("green") == 8
    view = GAME.view(after, None)
    assert view["armies"][1]["lost"] == {"green": 1, "yellow": 0}
    assert problems(state, "ACTION SABOTAGE\nSABOTAGE red") == [
        "SABOTAGE red: sabotage one of the enemy's colours: green or yellow"]


# --- attacks -----------------------------------------------------------------------------


def test_example_15d_a_yellow_attacks_twice_and_dies_on_equal_levels() -> None:
    """Example 15D: Lucy's level 2 yellow attacks the level 1 red (removed), then the level 2 red
    (both removed); her level 2 green cannot target the level 3 blue; nothing else is in range."""
    state = battle({"d5": "yellow 2", "c6": "red 1", "c7": "red 2", "f5": "green 2", "f6": "blue 3"},
                   to_play=1, turns=1)
    assert problems(state, "ACTION ATTACK\nATTACK f5-f6") == [
        "ATTACK f5-f6: a unit of level 2 cannot target one of level 3"]
    result = turn(state, "ACTION ATTACK\nATTACK d5-c6\nATTACK d5-c7")
    assert units(result.state) == {"f5": "green 2", "f6": "blue 3"}
    assert [e.text for e in result.events][1:] == [
        "The yellow unit on d5 (level 2) attacks the red unit on c6 (level 1): the red unit is removed.",
        "The yellow unit on d5 (level 2) attacks the red unit on c7 (level 2): equal levels, both are removed."]
    assert GAME.view(result.state, None)["armies"][0]["lost"] == {"red": 3, "blue": 0}


def test_a_blue_or_yellow_that_dies_in_its_first_attack_loses_its_second() -> None:
    """[R] PLEASE NOTE: a blue or yellow unit removed by its first attack gets no second one."""
    state = battle({"d5": "yellow 1", "c6": "red 1", "c7": "red 1", "h2": "green 1"}, to_play=1, turns=1)
    assert problems(state, "ACTION ATTACK\nATTACK d5-c6\nATTACK d5-c7") == [
        "ATTACK d5-c7: no unit stands on d5"]


def test_red_and_green_attack_once_blue_and_yellow_twice() -> None:
    state = battle({"d5": "green 3", "c6": "red 1", "c7": "red 1", "e2": "yellow 3"}, to_play=1, turns=1)
    assert problems(state, "ACTION ATTACK\nATTACK d5-c6\nATTACK d5-c7") == [
        "ATTACK d5-c7: a green unit attacks once an action"]
    blue = battle({"d5": "blue 3", "c6": "green 1", "c4": "green 1", "e4": "yellow 1", "h2": "red 1"})
    assert problems(blue, "ACTION ATTACK\nATTACK d5-c6\nATTACK d5-c4\nATTACK d5-e4") == [
        "ATTACK d5-e4: a blue unit attacks twice an action"]


def test_range_is_two_hexes_whatever_lies_between() -> None:
    """[D] range: a hex distance of 2 or less, ignoring what lies between."""
    state = battle({"d5": "yellow 1", "d6": "yellow 1", "d7": "red 1", "d8": "red 1"}, to_play=1, turns=1)
    assert problems(state, "ACTION ATTACK\nATTACK d5-d7") == []  # past its own unit on d6
    assert problems(state, "ACTION ATTACK\nATTACK d5-d8") == ["ATTACK d5-d8: d8 is 3 hexes away; the range is 2"]
    assert problems(state, "ACTION ATTACK\nATTACK d5-d6") == ["ATTACK d5-d6: the unit on d6 is your own"]


def test_a_general_without_units_on_the_island_loses() -> None:
    """[R] "If one player loses all of their units, the other player wins"; [D] units on the island."""
    state = battle({"d5": "yellow 2", "c6": "red 1"}, to_play=1, turns=1)
    outcome = GAME.outcome(turn(state, "ACTION ATTACK\nATTACK d5-c6").state)
    assert outcome is not None and outcome.winners == ("2",)
    assert outcome.reason == "Seat 1 (Minutians) has no unit left on the island: seat 2 (Meanies) wins."


def test_both_generals_losing_their_last_units_at_once_is_a_draw() -> None:
    """[R] "If both players lose all of their units at the same time, it is a draw" (Outcome.draw)."""
    state = battle({"d5": "yellow 2", "c6": "red 2"}, to_play=1, turns=1)
    result = turn(state, "ACTION ATTACK\nATTACK d5-c6")
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.kind is OutcomeKind.DRAW and outcome.winners == ()
    assert outcome.reason == "Both armies lost their last units at once: the battle is a draw."
    assert result.events[-1].text == outcome.reason


def test_the_turn_limit_ends_the_battle_on_the_total_unit_level() -> None:
    """[D] option turn_limit (default 60 actions): the higher total unit level on the island wins;
    equal is a draw."""
    state = battle({"b8": "red 2", "e8": "blue 1", "h2": "green 3"}, turns=59)
    outcome = GAME.outcome(turn(state, "ACTION MOVE3").state)
    assert outcome is not None and outcome.kind is OutcomeKind.DRAW
    assert outcome.reason == ("The turn limit of 60 actions is reached (turn_limit=60); both armies have a total "
                              "unit level of 3: the battle is a draw.")
    stronger = battle({"b8": "red 2", "e8": "blue 2", "h2": "green 3"}, turns=59)
    won = GAME.outcome(turn(stronger, "ACTION MOVE3").state)
    assert won is not None and won.winners == ("1",) and won.reason.endswith(
        "seat 1 (Minutians) wins with a total unit level of 4 to 3.")
    assert GAME.outcome(turn(battle({"b8": "red 2", "h2": "green 3"}, turns=58), "ACTION MOVE3").state) is None
    assert GAME.setup(("1", "2"), {}, GameRng(1)).turn_limit == 60


# --- NMR, options, whole turns ---------------------------------------------------------------


def test_nmr_spawns_one_unit_of_each_colour_when_spawn_is_free() -> None:
    """Plan 4.15 NMR [D]: SPAWN one unit of each colour with supply on the first free hex next to its
    base (name order)."""
    state = battle({"a8": "red 1", "h2": "green 1"}, supply={"blue": 3})
    assert GAME.default_orders(state, "1") == [Action("SPAWN"), Spawn("red", "b8"), Spawn("blue", "d9")]
    no_blue = battle({"a8": "red 1", "h2": "green 1"}, supply={"blue": 0})
    assert GAME.default_orders(no_blue, "1") == [Action("SPAWN"), Spawn("red", "b8")]


def test_nmr_otherwise_takes_the_first_free_action_with_no_lines() -> None:
    """Plan 4.15 NMR: otherwise the first free action of MOVE3, MOVE1X2, SPAWN, UPGRADE, SABOTAGE,
    ATTACK, with no moves."""
    nothing = battle({"a8": "red 1", "h2": "green 1"}, supply={"red": 0, "blue": 0})
    assert GAME.default_orders(nothing, "1") == [Action("MOVE3")]
    taken = battle({"a8": "red 1", "h2": "green 1"}, discs=("MOVE3", "SPAWN"))
    assert GAME.default_orders(taken, "1") == [Action("MOVE1X2")]
    assert GAME.forced_orders(taken, "1") is None  # no forced plays


@pytest.mark.parametrize(("options", "message"), [
    ({"turn_limit": "1"}, "option turn_limit=1: give a whole number from 2 to 400"),
    ({"turn_limit": "lots"}, "option turn_limit=lots: give a whole number from 2 to 400"),
    ({"start": "3"}, "option start=3"),
    ({"radius": "5"}, "unknown option 'radius'"),
])
def test_bad_options_are_refused_naming_the_option(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2"), options, GameRng(1))


def test_only_the_general_to_play_may_submit_and_refused_lines_never_resolve() -> None:
    state = battle({"b8": "red 1", "h2": "green 1"})
    assert GAME.validate(state, "2", [Action("MOVE3")])[0].message == "it is not your turn: waiting for seat 1"
    with pytest.raises(IllegalOrder):
        GAME.resolve(state, {"1": [Action("MOVE3"), Spawn("red", "a8")]}, GameRng(1))


def test_the_check_reply_counts_the_units_left_after_the_turn_in_plain_words() -> None:
    """The check reply says how the checked turn leaves the armies (one unit, two units), or that it
    wins or draws the battle."""
    state = battle({"d5": "yellow 2", "c6": "red 1", "c7": "red 2", "e2": "yellow 1"}, to_play=1, turns=1)
    assert GAME.submission_summary(state, "2", [Action("ATTACK"), Attack("d5", "c6")]) == (
        "After this turn: Minutians 1 unit (total level 2), Meanies 2 units (total level 3).")
    assert GAME.submission_summary(state, "2", [Action("ATTACK"), Attack("d5", "c6"), Attack("d5", "c7")]) == (
        "This turn wins the battle.")
    even = battle({"d5": "yellow 2", "c6": "red 2"}, to_play=1, turns=1)
    assert GAME.submission_summary(even, "2", [Action("ATTACK"), Attack("d5", "c6")]) == (
        "This turn ends the battle in a draw.")
