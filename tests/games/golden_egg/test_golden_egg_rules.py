"""The Great Golden Egg's rules, one worked example per rule, each naming the rule text it checks."""

from __future__ import annotations

import pytest
from golden_egg_builders import GAME, board, orders, public_texts, step, voted

from pbem.core import GameError, GameRng, IllegalOrder
from pbem.core.options import BadGameOption
from pbem.games.golden_egg.orders import Add, Move, Pass, Target, Vote
from pbem.games.golden_egg.state import ADVENTURERS, BOTH_NO, BOTH_YES, LINKS, SPLIT, STAGE_ACT, STAGE_OVER, \
    STAGE_TARGET, STAGE_VOTE, VALUES


def problems(state, seat: str, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [p.message for p in GAME.validate(state, seat, orders(text))]


# --- the card ------------------------------------------------------------------------------------


def test_the_cliffs_values_and_links_are_those_of_the_clarifications() -> None:
    """[C] a(1), b(2), c(1); d(3) above a and b; e(3) above b and c; f(5) above d and e; links a-b, b-c,
    a-d, b-d, b-e, c-e, d-f, e-f."""
    assert VALUES == {"a": 1, "b": 2, "c": 1, "d": 3, "e": 3, "f": 5}
    assert sorted("-".join(sorted(pair)) for pair in LINKS) == ["a-b", "a-d", "b-c", "b-d", "b-e", "c-e", "d-f",
                                                                 "e-f"]
    assert ADVENTURERS == 8


def test_the_game_starts_with_every_adventurer_in_supply_and_seat_1_guiding() -> None:
    """[R] 8 cubes each; [C] the first guide is seat 1 unless start=random or start=N."""
    state = GAME.setup(("1", "2", "3"), {}, GameRng(0))
    assert state.stage == STAGE_TARGET and state.guide == 0 and state.max_rounds == 40
    assert [state.supply(i) for i in range(3)] == [8, 8, 8]
    assert GAME.phase(state).seats == ("1",)
    assert GAME.setup(("1", "2", "3"), {"start": "3"}, GameRng(0)).guide == 2
    assert {GAME.setup(("1", "2", "3"), {"start": "random"}, GameRng(s)).guide for s in range(30)} == {0, 1, 2}


@pytest.mark.parametrize(("options", "message"), [
    ({"max_rounds": "0"}, "option max_rounds=0: give a whole number from 1 to 500"),
    ({"max_rounds": "lots"}, "option max_rounds=lots: give a whole number from 1 to 500"),
    ({"start": "4"}, "option start=4"),
    ({"rounds": "3"}, "unknown option 'rounds'"),
])
def test_a_bad_option_is_refused_naming_it(options: dict[str, str], message: str) -> None:
    with pytest.raises(GameError, match=message):
        GAME.setup(("1", "2", "3"), options, GameRng(0))
    assert isinstance(BadGameOption("x"), GameError)


# --- phase 1: the target -------------------------------------------------------------------------


def test_example_13a_a_higher_cliff_needs_the_guides_adventurers_on_both_cliffs_below() -> None:
    """Example 13A: with adventurers on both cliffs below one of the 3-cliffs the guide may target it,
    not the other 3-cliff, nor the 5-cliff. [R] "They can always choose a Cliff worth 1 or 2"."""
    state = board({"1": "a b", "2": "c e", "3": "d"})
    assert state.legal_targets(0) == ("a", "b", "c", "d")
    assert problems(state, "1", "TARGET d") == []
    assert problems(state, "1", "TARGET e") == [
        "TARGET e: you may target e only with an adventurer of yours on both b and c (you may target a, b, c, d); "
        "nothing is stored"]
    assert "TARGET f: you may target f only with an adventurer of yours on both d and e" in \
        problems(state, "1", "TARGET f")[0]


def test_the_golden_egg_needs_both_threes() -> None:
    """[R] f (5) only with an adventurer on both d and e; the followers' adventurers do not count."""
    assert "f" in board({"1": "d e"}).legal_targets(0)
    assert "f" not in board({"1": "d", "2": "e"}).legal_targets(0)


def test_the_target_is_public_and_the_followers_vote_next() -> None:
    state, events = step(board({"1": "a b"}), s1="TARGET d")
    assert state.stage == STAGE_VOTE and state.target == "d"
    assert GAME.phase(state).seats == ("2", "3") and GAME.phase(state).name == "vote"
    assert public_texts(events) == ["Seat 1, the guide, targets cliff d (worth 3); seat 2 and seat 3 vote."]


def test_the_guide_sends_exactly_one_target() -> None:
    state = board()
    assert problems(state, "1", "TARGET a\nTARGET b")[0].startswith("the guide sends exactly one TARGET")
    assert problems(state, "1", "VOTE YES")[0].startswith("the guide sends exactly one TARGET")
    assert problems(state, "2", "TARGET a") == ["it is not your turn: waiting for seat 1"]


# --- phase 2 and 3: the votes and what follows -----------------------------------------------------


def test_example_13b_both_yes_guide_then_followers_clockwise_each_add_or_move_from_the_target() -> None:
    """Example 13B: both YES; the guide adds (her only choice, the service plays it), the follower at
    her left moves hers from the target to the Golden Egg, the last must add (forced too).
    [R] "starting with the Guide and continuing clockwise, each player must choose"."""
    state, events = voted(board({"1": "a b", "2": "d e"}), "d", "YES", "YES")
    assert state.mode == BOTH_YES and state.actors == (0, 1, 2)
    assert "Seat 2 votes YES and seat 3 votes YES: both follow" in public_texts(events)[-1]
    assert GAME.forced_orders(state, "1") == [Add()]
    state, _ = step(state, s1="ADD")
    assert GAME.phase(state).seats == ("2",) and GAME.forced_orders(state, "2") is None
    state, _ = step(state, s2="MOVE d-f")
    assert GAME.forced_orders(state, "3") == [Add()]
    state, events = step(state, s3="ADD")
    assert [state.count(i, "d") for i in range(3)] == [1, 0, 1]
    assert [state.count(i, "f") for i in range(3)] == [0, 1, 0]
    assert state.stage == STAGE_TARGET and state.round == 2 and state.guide == 0
    assert public_texts(events) == ["Seat 3 adds an adventurer to d (7 left to place).",
                                    "Round 2 begins; seat 1 is the guide."]


def test_after_both_yes_a_player_may_not_pass_nor_act_elsewhere() -> None:
    """[R] Both YES: add to the target cliff, or move one of one's own FROM the target to a connected cliff."""
    state, _ = voted(board({"1": "a b d"}), "d", "YES", "YES")
    assert problems(state, "1", "PASS") == [
        "PASS: after a both-YES vote everybody must ADD to d or MOVE from it"]
    assert problems(state, "1", "ADD a") == ["ADD a: after a both-YES vote you add to the target, d (send ADD)"]
    assert problems(state, "1", "MOVE a-b") == ["MOVE a-b: after a both-YES vote you may move only from the target, d"]
    assert problems(state, "1", "MOVE d-c") == ["MOVE d-c: d and c are not connected (links: a, b, f)"]
    assert problems(state, "1", "ADD d") == [] and problems(state, "1", "MOVE d-f") == []
    assert GAME.forced_orders(state, "1") is None


def test_a_split_vote_lets_the_no_voter_move_anywhere_and_makes_the_yes_voter_guide() -> None:
    """[R] One YES, one NO: the guide does nothing; the NO voter may move 1 of his adventurers from ANY cliff
    to a connected one; the YES voter gets the disc."""
    state, events = voted(board({"1": "a b", "3": "c"}), "b", "YES", "NO")
    assert state.mode == SPLIT and GAME.phase(state).seats == ("3",)
    assert "the vote splits: seat 3 may move an adventurer; seat 2 takes the disc" in public_texts(events)[-1]
    assert problems(state, "3", "ADD c") == ["ADD c: after a split vote the NO voter may only MOVE or PASS"]
    assert problems(state, "3", "MOVE a-b") == ["MOVE a-b: you have no adventurer on a"]
    state, events = step(state, s3="MOVE c-e")
    assert state.count(2, "e") == 1 and state.count(2, "c") == 0
    assert state.guide == 1 and state.round == 2 and GAME.phase(state).seats == ("2",)
    assert public_texts(events)[-1] == "Round 2 begins; seat 2 is the guide."


def test_the_no_voter_may_pass_and_with_nothing_on_the_card_passes_by_force() -> None:
    """[D] The optional steps take PASS; with no adventurer to move the pass is the only play."""
    state, _ = voted(board({"2": "a"}), "a", "NO", "YES")
    assert GAME.phase(state).seats == ("2",) and GAME.forced_orders(state, "2") is None
    assert problems(state, "2", "PASS") == []
    state, _ = voted(board({"2": "a"}), "a", "YES", "NO")
    assert GAME.phase(state).seats == ("3",) and GAME.forced_orders(state, "3") == [Pass()]
    state, events = step(state, s3="PASS")
    assert "Seat 3 passes." in public_texts(events) and state.guide == 1


def test_both_no_lets_the_guide_add_by_the_targeting_rules_or_move_anywhere_and_keep_the_disc() -> None:
    """[R] Both NO: the followers do nothing; the guide can add 1 to a cliff following the targeting rules
    or move 1 of his from any cliff to a connected one. The guide keeps the disc."""
    state, events = voted(board({"1": "a b"}), "a", "NO", "NO")
    assert state.mode == BOTH_NO and GAME.phase(state).seats == ("1",)
    assert "neither follows: seat 1, the guide, may add or move." in public_texts(events)[-1]
    assert problems(state, "1", "ADD d") == []
    assert problems(state, "1", "ADD e") == ["ADD e: the targeting rules do not allow e for you (you may add to a, b, "
                                             "c, d)"]
    assert problems(state, "1", "MOVE b-e") == [] and problems(state, "1", "PASS") == []
    assert GAME.forced_orders(state, "1") is None
    state, _ = step(state, s1="ADD d")
    assert state.count(0, "d") == 1 and state.guide == 0 and state.round == 2
    state, _ = voted(state, "a", "NO", "NO")
    state, _ = step(state, s1="ADD")  # a bare ADD adds to the target
    assert state.count(0, "a") == 2


# --- actions filed in advance [D] -----------------------------------------------------------------


def test_a_followers_action_filed_with_his_yes_vote_is_played_without_asking_him() -> None:
    """[D] A follower may add his both-YES action to his vote; his act step is then skipped."""
    state, _ = step(board({"1": "a b", "3": "d"}), s1="TARGET d")
    state, events = step(state, s2="VOTE YES\nADD", s3="VOTE YES\nMOVE d-f")
    assert GAME.phase(state).seats == ("1",)
    state, events = step(state, s1="ADD")
    assert public_texts(events) == [
        "Seat 1 adds an adventurer to d (5 left to place).",
        "Seat 2 adds an adventurer to d (7 left to place; filed in advance).",
        "Seat 3 moves an adventurer from d to f (filed in advance).",
        "Round 2 begins; seat 1 is the guide."]
    assert state.count(2, "f") == 1 and state.count(1, "d") == 1


def test_the_guides_actions_filed_with_the_target_are_used_only_in_their_case() -> None:
    """[D] The guide may add his both-YES and both-NO actions to TARGET; the unused one is dropped unseen."""
    start = board({"1": "a b"})
    state, _ = step(start, s1="TARGET d\nIF YES ADD\nIF NO MOVE b-e")
    assert state.yes_plans[0] == ("add", "d") and state.no_plans[0] == ("move", "b", "e")
    no, events = step(state, s2="VOTE NO", s3="VOTE NO")
    assert public_texts(events)[1] == "Seat 1 moves an adventurer from b to e (filed in advance)."
    assert no.round == 2 and no.count(0, "e") == 1 and "ADD" not in " ".join(public_texts(events))
    yes, events = step(state, s2="VOTE YES", s3="VOTE YES")
    assert public_texts(events)[1] == "Seat 1 adds an adventurer to d (5 left to place; filed in advance)."
    assert GAME.phase(yes).seats == ("2",) and yes.no_plans == ((), (), ()) and yes.yes_plans == ((), (), ())
    split, events = step(state, s2="VOTE YES\nADD", s3="VOTE NO")
    assert GAME.phase(split).seats == ("3",) and split.yes_plans == ((), (), ()) and split.no_plans == ((), (), ())
    assert "filed" not in " ".join(public_texts(events))


def test_the_check_reply_says_what_the_service_will_play_for_the_sender() -> None:
    state = board({"1": "a b"})
    assert GAME.submission_summary(state, "1", orders("TARGET d\nIF NO MOVE b-e\nIF YES ADD")) == (
        "Filed in advance, sealed until used: if both followers vote YES, ADD d; if both followers vote NO, "
        "MOVE b-e. The service plays it for you then, without asking.")
    assert GAME.submission_summary(state, "1", orders("TARGET d")) == ""
    aimed, _ = step(state, s1="TARGET a")
    assert GAME.submission_summary(aimed, "2", orders("VOTE YES\nADD")) == (
        "Filed in advance, sealed until used: if both followers vote YES, ADD a. The service plays it for you "
        "then, without asking.")
    assert GAME.submission_summary(aimed, "2", orders("VOTE NO")) == ""


def test_a_bad_action_filed_in_advance_is_refused_alone() -> None:
    """The TARGET or the vote stands; the bad line is refused with its reason."""
    state = board({"1": "a b"})
    found = GAME.validate(state, "1", orders("TARGET d\nIF YES MOVE a-b\nIF NO PASS\nIF NO ADD a\nADD"))
    assert [(p.index, p.message) for p in found] == [
        (1, "IF YES MOVE a-b: after a both-YES vote you may move only from the target, d"),
        (3, "IF NO ADD a: only one IF NO action"),
        (4, "ADD: the guide acts later; to file an action now write IF YES ADD or IF NO ADD"),
    ]
    assert [p.message for p in GAME.validate(state, "1", orders("TARGET a\nIF YES PASS"))] == [
        "IF YES PASS: after a both-YES vote everybody must ADD to a or MOVE from it"]
    state, _ = step(state, s1="TARGET a")
    assert [(p.index, p.message) for p in GAME.validate(state, "2", orders("VOTE NO\nADD"))] == [
        (1, "ADD: an action filed with the vote goes with VOTE YES only (it is your play should both followers "
            "vote YES)")]
    assert [(p.index, p.message) for p in GAME.validate(state, "2", orders("VOTE YES\nADD\nADD"))] == [
        (2, "ADD: only one action may go with the vote")]
    assert [p.message for p in GAME.validate(state, "2", orders("VOTE YES\nVOTE NO"))] == [
        "a follower sends exactly one vote: VOTE YES or VOTE NO"]


# --- the end ----------------------------------------------------------------------------------------


def test_the_game_ends_when_a_group_stands_on_all_six_cliffs_and_the_values_score() -> None:
    """[R] End: at least one player has an adventurer on all of the cliffs; points are the cliff values;
    the highest score wins."""
    state, _ = voted(board({"1": "a b c d e e", "2": "a a"}), "e", "YES", "YES")
    state, _ = step(state, s1="MOVE e-f")
    assert state.stage == STAGE_ACT  # the end is checked at the end of the round only
    state, _ = step(state, s2="ADD")
    state, events = step(state, s3="ADD")
    assert state.stage == STAGE_OVER
    assert GAME.scores(state) == {"1": 1 + 2 + 1 + 3 + 3 + 5, "2": 2 + 3, "3": 3}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1",)
    assert outcome.reason == "The game ends: seat 1 has an adventurer on all six cliffs. Seat 1 scores the most, 15."
    assert public_texts(events)[-1] == ("The game ends: seat 1 has an adventurer on all six cliffs. Scores: seat 1 "
                                        "15, seat 2 5, seat 3 3.")


def test_the_game_ends_when_a_group_has_all_eight_on_the_card_and_a_tie_shares() -> None:
    """[R] End: a player has all of his adventurers on the card; ties share the victory."""
    state, _ = voted(board({"1": "a a a a a a a", "2": "b b b b"}), "a", "NO", "NO")
    state, _ = step(state, s1="ADD a")
    assert state.stage == STAGE_OVER and GAME.scores(state)["1"] == 8 and GAME.scores(state)["2"] == 8
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("1", "2")
    assert outcome.reason == ("The game ends: seat 1 has all 8 adventurers on the cliffs. Seats 1, 2 share the "
                              "most, 8.")


def test_the_round_cap_ends_the_game_and_scores_it() -> None:
    """[D] max_rounds (default 40): after the last round the game is scored as at its end."""
    state, _ = voted(board({"2": "f"}, max_rounds=3, round=3), "a", "NO", "NO")
    state, _ = step(state, s1="PASS")
    assert state.stage == STAGE_OVER
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("2",)
    assert outcome.reason.startswith("The game ends: round 3 was the last (max_rounds=3).")
    with pytest.raises(GameError, match="the game is over"):
        step(state, s1="TARGET a")


# --- NMR and forced plays --------------------------------------------------------------------------


def test_the_nmr_defaults_are_those_of_the_plan() -> None:
    """[C][D] TARGET the lowest legal cliff (a, c, b, d, e, f: so a); VOTE YES; ADD; on both NO the guide
    adds on the lowest legal cliff; the lone NO voter does not move."""
    start = board({"1": "a b d e"})
    assert GAME.default_orders(start, "1") == [Target("a")]
    state, _ = step(start, s1="TARGET f")
    assert GAME.default_orders(state, "2") == [Vote(True)] == GAME.default_orders(state, "3")
    both_yes, _ = step(state, s2="VOTE YES", s3="VOTE YES")
    assert GAME.default_orders(both_yes, "1") == [Add()]
    both_no, _ = step(state, s2="VOTE NO", s3="VOTE NO")
    assert GAME.default_orders(both_no, "1") == [Add("a")]
    split, _ = step(state, s2="VOTE NO", s3="VOTE YES")
    assert GAME.default_orders(split, "2") == [Pass()]
    for seat in ("1", "2", "3"):
        for s in (start, state, both_yes, both_no, split):
            if seat in GAME.phase(s).seats:
                assert GAME.validate(s, seat, GAME.default_orders(s, seat)) == []


def test_an_empty_entry_plays_the_nmr_default() -> None:
    """NOORDERS (an empty entry) stands for the NMR default."""
    result = GAME.resolve(board(), {"1": []}, GameRng(0))
    assert result.state.target == "a"


def test_the_target_and_the_vote_are_never_forced() -> None:
    """Forced plays only where the plan names them: the guide and the followers always have a choice."""
    start = board()
    state, _ = step(start, s1="TARGET a")
    assert GAME.forced_orders(start, "1") is None
    assert GAME.forced_orders(state, "2") is None and GAME.forced_orders(state, "3") is None


def test_resolve_refuses_a_missing_or_illegal_submission() -> None:
    state = board()
    with pytest.raises(GameError, match="no orders for seat 1"):
        GAME.resolve(state, {}, GameRng(0))
    with pytest.raises(IllegalOrder, match="seat 1: TARGET d"):
        GAME.resolve(state, {"1": [Target("d")]}, GameRng(0))
    state, _ = voted(board(), "a", "YES", "YES")
    with pytest.raises(IllegalOrder, match="seat 1: MOVE a-b"):
        GAME.resolve(state, {"1": [Move("a", "b")]}, GameRng(0))
