"""Actions filed in advance are sealed until used: no other seat and not the public learns of them (views,
events, reports, pictures), and an unused one is dropped unseen, also at the end. The votes exist only as
sealed orders until both are in. The rule of hidden information holds under redrawing."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_views import everything_shown
from golden_egg_builders import GAME, board, public_texts, step
from hidden_invariance import check_hidden_variants
from test_conformance import play

from pbem.core import GameRng
from pbem.games.golden_egg.state import STAGE_OVER


@pytest.mark.parametrize("reader", ["2", "3", None])
def test_the_guides_filed_actions_show_nowhere_but_to_him(reader: str | None) -> None:
    plain, plain_events = step(board({"1": "a b"}), s1="TARGET d")
    filed, events = step(board({"1": "a b"}), s1="TARGET d\nIF YES ADD\nIF NO MOVE b-e")
    assert everything_shown(GAME, plain, reader, plain_events) == everything_shown(GAME, filed, reader, events)
    assert public_texts(events) == ["Seat 1, the guide, targets cliff d (worth 3); seat 2 and seat 3 vote."]
    assert [e.seats for e in events if e.seats is not None] == [("1",)]


def test_the_guide_sees_his_filed_actions_in_his_report_and_picture() -> None:
    state, events = step(board({"1": "a b"}), s1="TARGET d\nIF YES ADD\nIF NO MOVE b-e")
    mine = everything_shown(GAME, state, "1", events)
    assert "Your actions filed in advance (sealed until used): if both vote YES: ADD d; if both vote NO: MOVE b-e." \
        in mine
    assert GAME.view(state, "1")["your_plans"] == {"if_yes": "ADD d", "if_no": "MOVE b-e"}
    assert GAME.view(state, "2")["your_plans"] is None and GAME.view(state, None)["your_plans"] is None


@pytest.mark.parametrize("reader", ["1", "2", None])
def test_a_followers_filed_action_shows_to_nobody_else_while_the_others_act(reader: str | None) -> None:
    aimed, _ = step(board({"1": "a b", "3": "d"}), s1="TARGET d")
    plain, plain_events = step(aimed, s2="VOTE YES", s3="VOTE YES")
    filed, events = step(aimed, s2="VOTE YES", s3="VOTE YES\nMOVE d-f")
    assert filed.yes_plans[2] == ("move", "d", "f") and GAME.phase(filed).seats == ("1",)
    assert everything_shown(GAME, plain, reader, plain_events) == everything_shown(GAME, filed, reader, events)
    assert "MOVE d-f" in everything_shown(GAME, filed, "3", events)


def test_an_unused_filed_action_is_never_shown_not_even_at_the_end() -> None:
    """The guide filed IF YES MOVE d-f; the vote splits, then the round cap ends the game."""
    aimed, _ = step(board({"1": "a b d"}, max_rounds=1), s1="TARGET d\nIF YES MOVE d-f")
    state, events = step(aimed, s2="VOTE YES", s3="VOTE NO")
    state, more = step(state, s3="PASS")
    assert state.stage == STAGE_OVER
    for reader in ("1", "2", "3", None):
        shown = everything_shown(GAME, state, reader, events + more)
        assert "MOVE d-f" not in shown and "filed" not in shown and "vote YES:" not in shown


def test_no_vote_is_in_the_state_before_both_are_counted() -> None:
    """The votes are sealed orders until the step resolves; then both are public together."""
    aimed, _ = step(board(), s1="TARGET a")
    assert aimed.votes == () and GAME.view(aimed, None)["votes"] == []
    state, _ = step(aimed, s2="VOTE NO", s3="VOTE YES")
    assert GAME.view(state, None)["votes"] == [{"seat": "2", "vote": "NO"}, {"seat": "3", "vote": "YES"}]


def test_a_redrawing_keeps_the_kept_seats_actions_and_draws_the_others_among_legal_ones() -> None:
    aimed, _ = step(board({"1": "a b"}), s1="TARGET d\nIF YES ADD\nIF NO MOVE b-e")
    kept = {GAME.hidden_variant(aimed, "1", GameRng(s)) for s in range(20)}
    assert kept == {aimed}
    redrawn = {(v.yes_plans[0], v.no_plans[0]) for v in (GAME.hidden_variant(aimed, "2", GameRng(s))
                                                         for s in range(60))}
    assert ((), ()) in redrawn and len(redrawn) > 5
    assert all(yes in ((), ("add", "d")) for yes, _ in redrawn)
    plain = replace(aimed, yes_plans=((), (), ()), no_plans=((), (), ()))
    assert any(GAME.hidden_variant(plain, None, GameRng(s)) != plain for s in range(10))


def test_redrawing_the_filed_actions_changes_nothing_the_service_shows_or_does() -> None:
    """The rule of hidden information (plan X3) on the states of random games."""
    changed = 0
    for seed in (1, 2, 3):
        _, _, states = play(GAME, 3, seed)
        for number, state in enumerate(states):
            changed += check_hidden_variants(GAME, state, GAME.seat_names(3), seed * 1000 + number, variants=2)
    assert changed > 0
