"""All in a Day's Work reports and pictures: the card drawn as a player would, the placements open
to the player to play, and a tie reported as a draw through the runner."""

from __future__ import annotations

from days_work_builders import GAME, play, table
from game_views import report_input

from pbem.games.days_work.drawing import draw
from pbem.reports import render_report
from pbem.service.api import GameService


def _position():  # type: ignore[no-untyped-def]
    state = table({"1": "1 red, 1 yellow, 2 blue", "2": "1 green"}, huts={"b1": "1", "d3": "2"},
                  shops={"MARKET": ("2",)}, temple=(2, 0), scores=(9, 15))
    return play(state, "PLACE RED", "PLACE FEAST")


def test_the_card_is_drawn_with_discs_temple_village_and_shops() -> None:
    text = render_report(report_input(GAME, _position()), "1")
    assert "Round 1 of at most 20, day: white (seat 1) to place a disc." in text
    assert "  RED     take 2 red             [white]\n" in text
    assert "  FEAST   score your huts        [black]\n" in text
    assert "  BUILD2  pay 1 yellow, build    [  -  ]\n" in text
    assert "  start: black\n" in text and "  step 2:  3 points, free         white\n" in text
    assert "  step 4: 10 points, costs 1 green\n" in text
    assert "            a: yellow       b: yellow+red   c: red          d: red+blue\n" in text
    assert "  1: green  .     1 +blue   white 1 +red    .     2         .     3\n" in text
    assert "  3: blue   .     2         .     1 +green  .     2         black 3\n" in text
    assert "  MARKET  2 red, 1 yellow   15 points a space: [black] [  -  ]\n" in text
    assert "  black (seat 2): 18 points; temple start; huts score 3 a night; holds 1 green;" in text
    assert ("  white (seat 1, you): 9 points; temple step 2; huts score 1 a night; holds 3 red, 1 yellow, "
            "2 blue; 7 of 8 buildings to build; 2 discs to place; first this round\n") in text
    assert "Supply: 7 red, 9 yellow, 9 green, 8 blue.\n" in text


def test_the_player_to_play_sees_the_spaces_and_buildings_open_to_him() -> None:
    mine = render_report(report_input(GAME, _position()), "1")
    assert "You may place on:\n" in mine
    # 3 red, 1 yellow, 2 blue: every hut but the green row's (and black's d3), FISH and MARKET;
    # on BUILD2 the yellow goes to the space, so only huts without yellow remain
    assert "  BUILD1: HUT a2, HUT b2, HUT c2, HUT d2, HUT a3, HUT b3, HUT c3, SHOP FISH, SHOP MARKET\n" in mine
    assert "  BUILD2: HUT c2, HUT d2, HUT c3\n  TEMPLE\n  YELLOW\n  GREEN\n  BLUE\n" in mine
    assert "You may place on" not in render_report(report_input(GAME, _position()), "2")


def test_the_picture_shows_discs_and_buildings_in_the_players_colours() -> None:
    svg = draw(GAME.view(_position(), None))
    assert "<title>All in a Day's Work, round 1</title>" in svg
    assert "black, seat 2: 18 points, temple start, 6 buildings left, 2 discs to place" in svg
    assert svg.count('fill="#f8f8f8"') >= 3  # white's disc, hut and temple cube


def test_a_tie_is_reported_as_a_draw_by_the_runner(runner: GameService) -> None:
    """[R] "In case of a tie, the game is a draw": Outcome.draw; reports say "Draw", the JSON of
    pbem show --json has no winners and the outcome "draw"."""
    runner.create_game("all-in-a-days-work", "d1", seats={"1": "a@example.org", "2": "b@example.org"}, seed=3,
                       options={"turn_hours": "0", "max_rounds": "1"})
    plays = ["PLACE TEMPLE", "PLACE RED", "PLACE YELLOW", "PLACE BUILD1 HUT c2", "PLACE BLUE", "PLACE GREEN"]
    for text in plays:
        phase = runner.info("d1").phase
        assert phase is not None
        seat = phase.seats[0]
        assert runner.submit("d1", seat, text).is_clean, text
        runner.resolve("d1")
    info = runner.info("d1")
    assert info.row.status == "finished" and GAME.scores(info.state) == {"1": 1, "2": 1}
    for seat in ("1", "2", None):
        text = runner.report_text("d1", seat)
        assert "The game is over. Draw.\nRound 1 was the last one allowed (max_rounds=1): the game ends. " \
               "Both players have 1 point: the game is a draw." in text
    data = runner.state_json("d1")
    assert data["winners"] == [] and data["outcome"] == "draw"
