"""Meanies in our Midst's rules, one worked example per rule, each naming the rule text it checks."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from meanies_builders import GAME, on_mission, orders, public_texts, step, table
from scripted_rng import ScriptedRng

from pbem.core import GameError, GameRng, IllegalOrder, OutcomeKind
from pbem.core.bag import Bag
from pbem.games.meanies.orders import Choose, Give, Guide, Keep
from pbem.games.meanies.state import (
    MEANIE,
    MINUTIAN,
    MISSION_TABLE,
    STAGE_CHOOSE,
    STAGE_MISSION,
    STAGE_NEXT_GUIDE,
    STAGE_OVER,
    requirement,
)


def problems(state, seat: str, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [p.message for p in GAME.validate(state, seat, orders(text))]


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "greens", "reds"), [(4, 3, 1), (5, 4, 1), (6, 4, 2), (7, 5, 2), (8, 6, 2),
                                                         (9, 6, 3)])
def test_the_faction_cubes_are_dealt_by_player_count_in_sealed_draws(players: int, greens: int, reds: int) -> None:
    """[R] Setup 2: 4 players 3 green and 1 red, ..., 9 players 6 green and 3 red; each player draws one
    and keeps it secret. The deal is a sealed draw: the reports' draw list holds only the dice."""
    rng = GameRng(players)
    state = GAME.setup(GAME.seat_names(players), {}, rng)
    assert Counter(state.factions) == {MINUTIAN: greens, MEANIE: reds}
    assert len(rng.sealed_draws) == players
    assert [n for _, n, _ in rng.draws] == [6] * len(state.dice)


@pytest.mark.parametrize(("players", "dice", "explorers"), [(4, 2, 2), (5, 2, 2), (6, 3, 4), (7, 3, 4), (8, 4, 5),
                                                            (9, 4, 5)])
def test_the_guide_rolls_and_chooses_by_player_count(players: int, dice: int, explorers: int) -> None:
    """[R] 4 or 5 players: 2 die rolls and 2 explorers; 6 or 7: 3 and 4; 8 or 9: 4 and 5. The service rolls
    before the guide chooses and shows the dice in the prompt."""
    state = GAME.setup(GAME.seat_names(players), {}, GameRng(3))
    assert len(state.dice) == dice and all(1 <= d <= 6 for d in state.dice)
    phase = GAME.phase(state)
    assert phase.seats == ("1",) and phase.name == "choose"
    assert f"CHOOSE {explorers} explorers" in phase.prompt
    assert f"the dice show {state.dice[0]} ({' + '.join(MISSION_TABLE[state.dice[0]])})" in phase.prompt


def test_the_first_guide_is_seat_1_or_drawn_with_start_random() -> None:
    """[R] "Randomly determine who will be the Guide" becomes start=random [C]."""
    assert GAME.setup(GAME.seat_names(5), {}, GameRng(0)).guide == 0
    assert GAME.setup(GAME.seat_names(5), {"start": "4"}, GameRng(0)).guide == 3
    assert {GAME.setup(GAME.seat_names(5), {"start": "random"}, GameRng(s)).guide for s in range(40)} == set(range(5))
    with pytest.raises(GameError, match="option start=9"):
        GAME.setup(GAME.seat_names(5), {"start": "9"}, GameRng(0))
    with pytest.raises(GameError, match="for 4 to 9 players, not 3"):
        GAME.setup(GAME.seat_names(4)[:3], {}, GameRng(0))


def test_example_20a_repeated_results_add_up() -> None:
    """Example 20A: rolls 4, 1 and 4 require 1 blue, 2 black and 3 yellow (CLARIFICATIONS' table)."""
    assert MISSION_TABLE == {1: ("blue", "yellow"), 2: ("white", "black"), 3: ("blue", "white"),
                             4: ("yellow", "black"), 5: ("white", "yellow"), 6: ("blue", "black")}
    assert requirement((4, 1, 4)) == Bag.from_counts({"blue": 1, "black": 2, "yellow": 3})


# --- choosing the explorers -------------------------------------------------------------------------------


def test_the_guide_chooses_the_right_number_of_other_players() -> None:
    """[R] The guide must choose some of the other players; the explorers may not refuse."""
    state = table("G G R G G")
    assert problems(state, "1", "CHOOSE 2 5") == []
    assert problems(state, "1", "CHOOSE 2, 5") == []
    assert problems(state, "1", "CHOOSE 2") == ["CHOOSE 2: choose exactly 2 explorers, not 1"]
    assert problems(state, "1", "CHOOSE 2 3 4") == ["CHOOSE 2 3 4: choose exactly 2 explorers, not 3"]
    assert problems(state, "1", "CHOOSE 1 3") == ["CHOOSE 1 3: you go as the guide; choose 2 other players"]
    assert problems(state, "1", "CHOOSE 3 3") == ["CHOOSE 3 3: seat 3 is named twice"]
    assert problems(state, "1", "CHOOSE 3 7") == ["CHOOSE 3 7: there is no seat 7 (seats 1 to 5)"]
    assert problems(state, "1", "GUIDE 3") == ["GUIDE 3: the guide now chooses his explorers: CHOOSE and 2 seats"]
    assert problems(state, "1", "CHOOSE 2 3\nCHOOSE 4 5") == ["send exactly one order: CHOOSE and 2 seats"]
    assert problems(state, "2", "CHOOSE 3 4") == ["it is not your turn: waiting for seat 1"]


def test_choosing_sends_the_team_out_and_each_member_draws_four_cubes_seen_by_himself_alone() -> None:
    """[R] Each player on the mission draws 4 mission cubes, keeping them secret. [D] Every draw comes first:
    then the guide and the explorers answer at once, sealed, with no press between players."""
    rng = GameRng(7)
    state, events = step(table("G G R G G", guide="2"), rng, s2="CHOOSE 5 1")
    assert state.stage == STAGE_MISSION and state.members == (1, 4, 0)
    phase = GAME.phase(state)
    assert phase.seats == ("2", "5", "1") and phase.name == "mission" and phase.press_open is False
    assert [state.hands[i].size for i in range(5)] == [4, 4, 0, 0, 4] and state.bag.size == 28
    assert public_texts(events) == ["Seat 2, the guide, takes seats 5 and 1 on the mission. Each of the 3 draws 4 "
                                    "mission cubes, seen by nobody else."]
    private = [e for e in events if e.seats is not None]
    assert [e.seats for e in private] == [("2",), ("5",), ("1",)]
    assert private[0].text == f"You draw {', '.join(state.hands[1].ordered(('white', 'black', 'blue', 'yellow')))}."
    assert len(rng.sealed_draws) == 12 and rng.draws == []


def test_press_is_open_but_during_the_mission() -> None:
    """[R] During the mission it is forbidden to speak (plan X6: the mission phase closes player press)."""
    state = table("G G R G G")
    assert GAME.phase(state).press_open is True
    mission = on_mission(state, {"1": "white white blue yellow", "2": "black black blue blue",
                                 "3": "yellow yellow white black"})
    assert GAME.phase(mission).press_open is False
    after, _ = step(mission, s1="KEEP white blue", s2="GIVE black blue", s3="GIVE yellow white")
    assert GAME.phase(after).name == "next-guide" and GAME.phase(after).press_open is True


# --- the mission ---------------------------------------------------------------------------------------------


EXAMPLE_20B = {"1": "blue yellow white white", "2": "yellow yellow black black", "3": "blue black white white",
               "4": "black white yellow blue", "5": "blue yellow black white"}


def test_example_20b_the_collected_cubes_meet_the_requirement_and_the_minutians_score() -> None:
    """Example 20B: the revealed cubes are 3 blue, 2 black, 4 yellow and 1 white; the request of example 20A
    (1 blue, 2 black, 3 yellow) is met, so the Minutians win the mission."""
    state = on_mission(table("G G R G R G", dice=(4, 1, 4)), EXAMPLE_20B)
    state, events = step(state, s1="KEEP blue yellow", s2="GIVE yellow yellow", s3="GIVE blue black",
                         s4="GIVE black white", s5="GIVE blue yellow")
    assert public_texts(events)[:2] == [
        "The mission brings back 1 white, 2 black, 3 blue, 4 yellow (10 cubes).",
        "Every needed cube (2 black, 1 blue, 3 yellow) is there: the Minutians score (1 of 3)."]
    assert (state.minutians, state.meanies) == (1, 0)
    assert state.missions[-1].collected == Bag.from_counts({"white": 1, "black": 2, "blue": 3, "yellow": 4})


def test_a_missing_cube_lets_the_meanies_score() -> None:
    """[R] If at least 1 required mission cube is missing, the Meanies faction wins the round."""
    state = on_mission(table("G G R G G", dice=(3, 6)), {"1": "white white blue yellow", "2": "black black blue blue",
                                                          "3": "yellow yellow white black"})
    state, events = step(state, s1="KEEP white yellow", s2="GIVE black blue", s3="GIVE yellow yellow")
    assert public_texts(events)[:2] == [
        "The mission brings back 1 white, 1 black, 1 blue, 3 yellow (6 cubes).",
        "Needed 1 white, 1 black, 2 blue, short of 1 blue: the Meanies score (1 of 3)."]
    assert (state.minutians, state.meanies) == (0, 1)


def test_every_cube_goes_back_to_the_bag_and_the_guide_names_the_next_guide() -> None:
    """[R] Debrief: put all the revealed mission cubes back in the bag; the guide chooses another player to
    be the new guide. The service then rolls his dice."""
    state = on_mission(table("G G R G G"), {"1": "white white blue yellow", "2": "black black blue blue",
                                            "3": "yellow yellow white black"})
    state, events = step(state, s1="KEEP white blue", s2="GIVE black blue", s3="GIVE yellow white")
    assert state.stage == STAGE_NEXT_GUIDE and state.bag.size == 40 and all(h.is_empty for h in state.hands)
    assert public_texts(events)[-1] == "Every cube goes back to the bag. The debrief: seat 1 names the next guide."
    assert problems(state, "1", "GUIDE 1") == ["GUIDE 1: the next guide is another player"]
    assert problems(state, "1", "GUIDE 6") == ["GUIDE 6: there is no seat 6 (seats 1 to 5)"]
    state, events = step(state, ScriptedRng([5, 2]), s1="GUIDE 4")
    assert state.stage == STAGE_CHOOSE and state.guide == 3 and state.round == 2 and state.dice == (5, 2)
    assert public_texts(events) == ["Seat 1 names seat 4 the next guide.",
                                    "Seat 4, the new guide, rolls 5 (white + yellow), 2 (white + black): needed 2 white, "
                                    "1 black, 1 yellow."]
    assert GAME.phase(state).seats == ("4",) and "the dice show 5 (white + yellow), 2 (white + black)" in \
        GAME.phase(state).prompt


def test_the_guide_keeps_and_the_explorers_give_two_of_their_own_cubes() -> None:
    """[R] The guide secretly chooses 2 mission cubes to keep; the explorers each choose 2 to give."""
    state = on_mission(table("G G R G G"), {"1": "white white blue yellow", "2": "black black blue blue",
                                            "3": "yellow yellow white black"})
    assert problems(state, "1", "KEEP white white") == []
    assert problems(state, "1", "GIVE white white") == [
        "GIVE white white: on the mission the guide KEEPs two of his cubes, e.g. KEEP white white"]
    assert problems(state, "2", "KEEP black black") == [
        "KEEP black black: on the mission an explorer GIVEs two of his cubes, e.g. GIVE black black"]
    assert problems(state, "2", "GIVE black white") == ["GIVE black white: you have only black, black, blue, blue"]
    assert problems(state, "1", "KEEP blue blue") == ["KEEP blue blue: you have only white, white, blue, yellow"]
    assert problems(state, "4", "GIVE white white") == ["it is not your turn: waiting for seats 1, 2, 3"]
    assert GAME.submission_summary(state, "2", orders("GIVE blue black")) == (
        "You give the guide blue, black; black, blue go back to the bag. Nobody will learn who gave which cubes.")


# --- the end ----------------------------------------------------------------------------------------------


def test_the_faction_that_reaches_three_wins_and_every_faction_is_revealed() -> None:
    """[R] When one of the two score cubes reaches the last space, everyone reveals his faction cube; the
    players of that faction win. [C] Both tracks go to 3."""
    state = on_mission(table("G R G G G"), {"1": "white white blue yellow", "2": "black black blue blue",
                                            "3": "yellow yellow white black"})
    state = replace(state, minutians=2)
    state, events = step(state, s1="KEEP white blue", s2="GIVE black blue", s3="GIVE yellow white")
    assert state.stage == STAGE_OVER and state.winner == MINUTIAN
    assert public_texts(events)[-1] == ("The Minutians reach 3 and win. The faction cubes are revealed: seat 1 "
                                        "Minutian, seat 2 Meanie, seat 3 Minutian, seat 4 Minutian, seat 5 Minutian.")
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1", "3", "4", "5") and outcome.kind is OutcomeKind.SHARED
    assert outcome.reason == "The Minutians reach 3 first: seats 1, 3, 4, 5 win; the Meanies were seat 2."
    assert GAME.scores(state) == {"1": 3, "2": 0, "3": 3, "4": 3, "5": 3}
    with pytest.raises(GameError, match="the game is over"):
        step(state, s1="GUIDE 2")


def test_a_lone_meanie_wins_alone() -> None:
    state = on_mission(table("G R G G"), {"1": "white white blue yellow", "2": "black black blue blue",
                                          "3": "yellow yellow white black"})
    state = replace(state, meanies=2, minutians=2)
    state, _ = step(state, s1="KEEP white white", s2="GIVE black black", s3="GIVE yellow yellow")
    outcome = GAME.outcome(state)
    assert state.winner == MEANIE and outcome is not None and outcome.winners == ("2",)
    assert outcome.kind is OutcomeKind.WIN
    assert outcome.reason == "The Meanies reach 3 first: seat 2 wins; the Minutians were seats 1, 3, 4."
    assert GAME.scores(state) == {"1": 2, "2": 3, "3": 2, "4": 2}


def test_the_scores_say_nothing_while_the_game_runs() -> None:
    """[D] A seat's score would tell its faction: 0 for everybody until the end."""
    state = table("G R G G")
    state = replace(state, meanies=2, minutians=1)
    assert GAME.scores(state) == {"1": 0, "2": 0, "3": 0, "4": 0}


# --- NMR and forced plays ---------------------------------------------------------------------------------


def test_the_nmr_defaults_are_those_of_the_plan() -> None:
    """[C] Choose the next seats clockwise; keep or give the first two cubes in colour order white, black,
    blue, yellow [D the order]; [D] the next guide is the next seat clockwise."""
    state = table("G G R G G", guide="4")
    assert GAME.default_orders(state, "4") == [Choose(("5", "1"))]
    mission = on_mission(state, {"4": "yellow blue black yellow", "5": "blue blue yellow white",
                                 "1": "yellow yellow yellow yellow"})
    assert GAME.default_orders(mission, "4") == [Keep(("black", "blue"))]
    assert GAME.default_orders(mission, "5") == [Give(("white", "blue"))]
    assert GAME.default_orders(mission, "1") == [Give(("yellow", "yellow"))]
    after, _ = step(mission, s4="KEEP black blue", s5="GIVE white blue", s1="GIVE yellow yellow")
    assert GAME.default_orders(after, "4") == [Guide("5")]
    five = table("G G R G G", guide="5")
    after, _ = step(on_mission(five, {"5": "white white white white", "1": "black black black black",
                                      "2": "blue blue blue blue"}), s5="KEEP white white", s1="GIVE black black",
                    s2="GIVE blue blue")
    assert GAME.default_orders(after, "5") == [Guide("1")]


def test_nothing_is_ever_forced_not_even_a_hand_of_one_colour() -> None:
    """Plan §4.20: forced_orders returns None in the mission; a one-colour hand is not played automatically."""
    state = table("G G R G G")
    mission = on_mission(state, {"1": "white white white white", "2": "black black black black",
                                 "3": "blue blue yellow yellow"})
    after, _ = step(mission, s1="KEEP white white", s2="GIVE black black", s3="GIVE blue yellow")
    for s in (state, mission, after):
        assert all(GAME.forced_orders(s, seat) is None for seat in s.seats)


def test_an_empty_entry_plays_the_nmr_default_and_resolve_refuses_what_validate_refuses() -> None:
    mission = on_mission(table("G G R G G"), {"1": "white white blue yellow", "2": "black black blue blue",
                                              "3": "yellow yellow white black"})
    result = GAME.resolve(mission, {"1": [], "2": [], "3": []}, GameRng(0))
    assert result.state.missions[-1].collected == Bag.of(["white", "white", "black", "black", "white", "black"])
    with pytest.raises(IllegalOrder, match="seat 2: GIVE white white"):
        GAME.resolve(mission, {"1": [], "2": [Give(("white", "white"))], "3": []}, GameRng(0))
    with pytest.raises(GameError, match="no orders for seat 3"):
        GAME.resolve(mission, {"1": [], "2": []}, GameRng(0))
