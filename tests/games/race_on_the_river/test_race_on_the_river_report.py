"""Race on the River reports, and what each reader may see (sealed bids)."""

from __future__ import annotations

import json

import pytest
from race_on_the_river_builders import GAME, ScriptedRng, bids, race

from pbem.core import GameRng
from pbem.games.race_on_the_river.orders import Bid
from pbem.pictures import board_svg
from pbem.reports import ReportInput, render_report


def _report(state, events=(), turn=1):  # type: ignore[no-untyped-def]
    outcome = GAME.outcome(state)
    return ReportInput(
        "r1", GAME, state, turn, list(events), [], None if outcome else GAME.phase(state), outcome
    )


@pytest.mark.parametrize("reader", ["1", "2", "3", None])
@pytest.mark.parametrize("html", [False, True])
def test_the_river_is_drawn_with_every_jockey_and_the_finish_line(reader: str | None, html: bool) -> None:
    state = race([0, 5, 5], [9, 3, 6], roll=4, round=6)
    text = render_report(_report(state), reader, html=html)
    assert "The river, round 6: the die shows 4." in text
    assert "||" in text  # the finish line
    assert " 13+ " in text
    assert "[1,1]" not in text
    assert "[ 1 ]" in text  # seat 1 on the start
    assert "[2,3]" in text  # seats 2 and 3 share space 5
    assert "seat 2" in text and "3 in hand / 6 discarded" in text


def test_the_reader_sees_his_own_cubes_and_what_to_send() -> None:
    state = race([0, 5], [9, 3], roll=4)
    text = render_report(_report(state), "2")
    assert "Your stamina: 3 cubes in hand, 6 discarded." in text
    assert "Send BID n with n from 0 to 3." in text
    assert "seat 2 (you): space 5" in text


def test_a_reader_without_cubes_is_told_his_bid_is_sent_for_him() -> None:
    text = render_report(_report(race([0, 5], [0, 3])), "1")
    assert "You have no cube to bid: BID 0 is sent for you." in text


def test_the_final_report_names_the_winner_and_shows_the_crossed_jockey() -> None:
    result = GAME.resolve(race([10, 0], roll=3), bids(2, 1), ScriptedRng([]))
    text = render_report(_report(result.state, result.events), None)
    assert "The river at the end of the race:" in text
    assert "Seat 1 wins: crossed the finish line first." in text
    assert "Winner: 1" in text
    assert "||[ 1 ]" in text


def test_the_revealed_bids_appear_in_every_report() -> None:
    result = GAME.resolve(race([0, 0]), bids(3, 1), ScriptedRng([5]))
    for reader in ("1", "2", None):
        text = render_report(_report(result.state, result.events), reader)
        assert "Bids revealed (the die shows 4): seat 1 bid 3, seat 2 bid 1." in text


def test_a_sealed_bid_never_reaches_another_seat_before_the_reveal() -> None:
    """A bid is only an order until resolve: checking it changes nothing anybody sees."""
    state = race([0, 0, 0], [9, 9, 9], roll=5, round=2, last_bids=[1, 1, 1])
    before = {reader: GAME.view(state, reader) for reader in ("1", "2", "3", None)}
    assert GAME.validate(state, "1", [Bid(7)]) == []
    assert "7" in GAME.submission_summary(state, "1", [Bid(7)])  # only told to the bidder
    for reader in ("2", "3", None):
        view = GAME.view(state, reader)
        assert view == before[reader]
        assert 7 not in view["last_bids"].values()
        assert all(j["last_bid"] != 7 for j in view["jockeys"])
        text = render_report(_report(state), reader).lower()
        assert "bid 7" not in text and "7 cubes" not in text
    # the views hold the previous (revealed) bids only
    assert before["2"]["last_bids"] == {"1": 1, "2": 1, "3": 1}


def test_views_differ_only_in_the_readers_own_fields() -> None:
    state = race([1, 2, 3], [4, 5, 6], roll=3, last_bids=[5, 4, 3])
    public = GAME.view(state, None)
    for reader in ("1", "2", "3"):
        view = GAME.view(state, reader)
        assert view["you"]["seat"] == reader
        strip = {k: v for k, v in view.items() if k not in ("you", "jockeys")}
        assert strip == {k: v for k, v in public.items() if k not in ("you", "jockeys")}
        assert [{k: v for k, v in j.items() if k != "you"} for j in view["jockeys"]] == [
            {k: v for k, v in j.items() if k != "you"} for j in public["jockeys"]
        ]


def test_views_and_dumps_are_json() -> None:
    state = GAME.setup(("1", "2", "3"), {}, GameRng(11))
    for reader in ("1", "2", "3", None):
        assert json.loads(json.dumps(GAME.view(state, reader))) == GAME.view(state, reader)
    assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state


def test_the_picture_and_the_text_both_call_the_bid_cubes_discarded() -> None:
    state = race([0, 5], [9, 3], roll=4, round=2)
    text = render_report(_report(state), None)
    picture = board_svg(GAME, state)
    assert "seat 2: space 5; 3 in hand / 6 discarded" in text
    assert "3 in hand, 6 discarded" in picture and "spent" not in picture
