"""Setting up the quest: the components of the rule book, the controllers by player count and the
creator options (fourth=N, max_rounds=N), each refused clearly when bad."""

from __future__ import annotations

import pytest
from epic_quest_builders import GAME

from pbem.core import GameError, GameRng
from pbem.games.epic_quest.state import ADVENTURERS


def _setup(players: int, **options: str):  # type: ignore[no-untyped-def]
    return GAME.setup(GAME.seat_names(players), options, GameRng(1))


def test_the_starting_position_follows_the_book() -> None:
    """Setup [R]: 6 life cubes each (3/2/1 of the adventurer's colours), empty backpacks of 4, the bag of 8
    potions and 2 upgrades of each colour, the Meanie's 4 discs on space 1, the portal discs on 12/8,
    10 invaders in the supply, every adventurer on the entrance."""
    state = _setup(4)
    lives = {a.key: a.life.as_dict() for a in state.adventurers}
    assert lives == {"W": {"red": 3, "blue": 2, "green": 1}, "K": {"blue": 3, "red": 2, "yellow": 1},
                     "A": {"green": 3, "yellow": 2, "blue": 1}, "C": {"yellow": 3, "green": 2, "red": 1}}
    assert all(a.backpack.is_empty and a.actions == 2 and a.card == "c1" for a in state.adventurers)
    assert state.bag.as_dict() == {"blue": 2, "green": 2, "potion": 8, "red": 2, "yellow": 2}
    assert (state.meanie.life, state.meanie.space_name, state.meanie.card) == (4, "1", None)
    assert state.portals == (0, 0, 0) and state.supply == 10 and state.invaders == ()
    assert (state.round, state.step, state.max_rounds) == (1, 1, 30)


@pytest.mark.parametrize(("players", "options", "controllers"), [
    (4, {}, ("1", "2", "3", "4")),
    (3, {}, ("1", "2", "3", "1")),
    (3, {"fourth": "3"}, ("1", "2", "3", "3")),
    (2, {}, ("1", "2", "1", "2")),
    (1, {}, ("1", "1", "1", "1")),
])
def test_controllers_by_player_count(players: int, options: dict[str, str], controllers: tuple[str, ...]) -> None:
    """Plan 4.21 Controllers [R + D]: 4 players one each; 3 players, the Cleric to fourth=N (default 1);
    2 players seat 1 Warrior + Archer, seat 2 Knight + Cleric; solo all four."""
    state = _setup(players, **options)
    assert state.controllers == controllers
    assert GAME.phase(state).seats == GAME.seat_names(players)
    assert {k for s in state.seats for k in state.controlled_by(s)} == set(ADVENTURERS)


@pytest.mark.parametrize(("players", "options", "message"), [
    (3, {"fourth": "4"}, "option fourth=4: give the seat that plays the Cleric, one of 1, 2, 3"),
    (3, {"fourth": "x"}, "option fourth=x: give the seat"),
    (4, {"fourth": "1"}, "option fourth=1: only a 3-player game has a fourth adventurer to give"),
    (1, {"max_rounds": "0"}, "option max_rounds=0: give a whole number from 1 to 100"),
    (1, {"max_rounds": "many"}, "option max_rounds=many: give a whole number from 1 to 100"),
    (1, {"max_rounds": "101"}, "option max_rounds=101"),
    (1, {"colour": "red"}, "unknown option 'colour' for epic-quest; options are: fourth, map, max_rounds"),
    (5, {}, "The Epic Quest is for 1 to 4 players, not 5"),
])
def test_bad_options_are_refused_naming_the_option_the_value_and_the_range(
        players: int, options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message.replace("(", r"\(").replace(")", r"\)")):
        GAME.setup(tuple(str(n) for n in range(1, players + 1)), options, GameRng(1))


def test_max_rounds_is_kept() -> None:
    assert _setup(1, max_rounds="5").max_rounds == 5


def test_the_game_declares_its_facts() -> None:
    facts = GAME.facts()
    assert (facts.min_players, facts.max_players, facts.is_cooperative, facts.has_chance) == (1, 4, True, True)
    assert not facts.has_hidden_information
    assert set(GAME.options()) == {"map", "fourth", "max_rounds"}
