"""Worked examples for the aggressive variant: TAKE, KEEP, declining, DROP, scoring."""

from __future__ import annotations

from fungus_scenarios import GAME, picture, position

from pbem.core import GameRng, OrderProblem
from pbem.games.fungus.orders import Drop, DropNone, Place
from pbem.games.fungus.state import DROP, OVER

RNG = GameRng(0)

# c3 (seat 2) is closed in by seat 1 on c2, d2, b3, b4, c4; d3 is its last open side
SURROUND = """
. . . . .
 . . 1 1 .
  . 1 2 . .
   . 1 1 . .
    . . . . .
"""


def play(state, seat, *orders):  # type: ignore[no-untyped-def]
    assert GAME.validate(state, seat, list(orders)) == []
    return GAME.resolve(state, {seat: list(orders)}, RNG)


def messages(state, seat, *orders):  # type: ignore[no-untyped-def]
    return [p.message for p in GAME.validate(state, seat, list(orders))]


def test_take_replaces_the_surrounded_gem_with_a_second_gem_of_the_placer() -> None:
    state = position(SURROUND, aggressive=True, supply=(10, 10))
    result = play(state, "1", Place("d3", "TAKE", "c3"))
    assert picture(result.state)[2] == ".111."
    assert result.state.supply == (8, 10)
    assert result.state.kept == ((), ())
    assert result.events[0].text == (
        "Seat 1 placed a gem on d3 and took the surrounded gem of seat 2 on c3, putting its own there."
    )
    assert result.events[0].data == {"cell": "d3", "capture": "take", "target": "c3", "victim": "2"}
    assert result.state.to_move == "2"


def test_keep_removes_the_surrounded_gem_and_the_placer_keeps_it() -> None:
    state = position(SURROUND, aggressive=True, supply=(10, 10))
    result = play(state, "1", Place("d3", "KEEP", "c3"))
    assert picture(result.state)[2] == ".1.1."
    assert result.state.supply == (9, 10)
    assert result.state.kept == (("2",), ())
    assert GAME.view(result.state, None)["kept"] == {"1": 1, "2": 0}
    assert "captured the surrounded gem of seat 2 on c3, keeping it for the end" in result.events[0].text


def test_the_capture_may_be_declined_with_a_plain_place() -> None:
    state = position(SURROUND, aggressive=True)
    result = play(state, "1", Place("d3"))
    assert picture(result.state)[2] == ".121."
    assert result.state.kept == ((), ())


def test_nmr_default_does_not_capture() -> None:
    state = position(
        """
        1 1 1 1 1
         1 1 1 1 1
          1 1 2 . 1
           1 1 1 1 1
            1 1 1 1 1
        """,
        aggressive=True,
    )
    assert GAME.default_orders(state, "1") == [Place("d3")]
    # one cell but three plays (decline, TAKE, KEEP): not forced
    assert GAME.forced_orders(state, "1") is None
    assert GAME.validate(state, "1", [Place("d3", "TAKE", "c3")]) == []


def test_gems_of_any_other_player_close_a_gem_in() -> None:
    state = position(
        """
        . . . . .
         . . 3 1 .
          . 3 2 . .
           . 1 3 . .
            . . . . .
        """,
        players=3,
        aggressive=True,
    )
    assert messages(state, "1", Place("d3", "KEEP", "c3")) == []


def test_the_board_edge_counts_as_closed() -> None:
    state = position(
        """
        2 1 . . .
         . . . . .
          . . . . .
           . . . . .
            . . . . .
        """,
        aggressive=True,
    )
    assert messages(state, "1", Place("a2", "TAKE", "a1")) == []
    result = play(state, "1", Place("a2", "TAKE", "a1"))
    assert picture(result.state)[:2] == ["11...", "1...."]


def test_a_gem_not_closed_in_cannot_be_captured() -> None:
    state = position(SURROUND.replace("1 2", "2 2", 1), aggressive=True)  # b3 becomes seat 2's
    assert messages(state, "1", Place("d3", "TAKE", "c3")) == [
        "PLACE d3 TAKE c3: the gem on c3 would not be surrounded (b3 is a gem of seat 2 too)"
    ]
    open_side = position(SURROUND.replace("1 1 .", "1 . .", 1), aggressive=True)  # d2 is empty
    assert messages(open_side, "1", Place("d3", "KEEP", "c3")) == [
        "PLACE d3 KEEP c3: the gem on c3 would not be surrounded (d2 is empty)"
    ]


def test_capture_targets_must_be_an_enemy_gem_next_to_the_placed_gem() -> None:
    state = position(SURROUND, aggressive=True)
    assert messages(state, "1", Place("d3", "TAKE", "a1")) == ["PLACE d3 TAKE a1: a1 is not next to d3"]
    assert messages(state, "1", Place("d3", "TAKE", "d2")) == ["PLACE d3 TAKE d2: d2 holds no gem of another player"]
    assert messages(state, "1", Place("d3", "TAKE", "e3")) == ["PLACE d3 TAKE e3: e3 holds no gem of another player"]
    assert messages(state, "1", Place("d3", "TAKE", "k3")) == ["PLACE d3 TAKE k3: k3 is not on the 5 x 5 board"]


def test_take_needs_a_second_gem_in_hand() -> None:
    state = position(SURROUND, aggressive=True, supply=(1, 10))
    assert messages(state, "1", Place("d3", "TAKE", "c3")) == [
        "PLACE d3 TAKE c3: TAKE needs a second gem from your supply and you have only 1; use KEEP"
    ]
    assert messages(state, "1", Place("d3", "KEEP", "c3")) == []


def test_captures_belong_to_the_aggressive_variant_only() -> None:
    state = position(SURROUND)
    for word in ("TAKE", "KEEP"):
        assert messages(state, "1", Place("d3", word, "c3")) == [
            f"PLACE d3 {word} c3: {word} is played only in the aggressive variant"
        ]


def test_one_capture_per_placement_when_two_gems_are_closed_in() -> None:
    state = position(
        """
        2 . 2 1 .
         1 1 1 . .
          . . . . .
           . . . . .
            . . . . .
        """,
        aggressive=True,
    )
    assert messages(state, "1", Place("b1", "TAKE", "a1")) == []
    assert messages(state, "1", Place("b1", "KEEP", "c1")) == []
    result = play(state, "1", Place("b1", "TAKE", "a1"))
    assert picture(result.state)[0] == "1121."


# ----- drop phase --------------------------------------------------------------------

NEARLY_FULL = """
1 1 1 1 1
 1 1 1 1 1
  2 2 2 2 2
   2 2 2 2 2
    1 2 2 2 .
"""


def drop_phase(**kwargs):  # type: ignore[no-untyped-def]
    """Seat 2 fills the board; seat 1 keeps one gem of seat 2."""
    state = position(NEARLY_FULL, aggressive=True, to_move="2", kept=(("2",), ()), **kwargs)
    return play(state, "2", Place("e5"))


def test_an_aggressive_game_ends_with_the_drop_phase_for_keepers() -> None:
    result = drop_phase()
    state = result.state
    assert state.stage == DROP and state.to_move == "1"
    assert GAME.outcome(state) is None
    phase = GAME.phase(state)
    assert phase.name == DROP and phase.seats == ("1",)
    assert phase.prompt == "You keep 1 gem (1 of seat 2): DROP them on your own gems, or send DROP NONE."
    assert GAME.default_orders(state, "1") == [DropNone()]
    assert GAME.forced_orders(state, "1") is None
    assert GAME.validate(state, "2", [DropNone()]) == [OrderProblem(None, "it is not your turn: waiting for seat 1")]


def test_drop_replaces_an_own_gem_with_the_kept_gem() -> None:
    state = drop_phase().state
    assert GAME.scores(state) == {"1": 10 - 2, "2": 14 - 1}
    result = play(state, "1", Drop("a1"))
    assert picture(result.state)[0] == "21111"
    assert result.state.kept == ((), ())
    assert result.state.stage == OVER
    assert result.events[0].text == "Seat 1 replaced its own gem on a1 with the kept gem of seat 2."
    # seat 1: a largest group of 9 (b1..e1, a2..e2) and a5 -> 9 - 2; seat 2: 14 and a1 -> 14 - 2
    assert GAME.scores(result.state) == {"1": 7, "2": 12}
    outcome = GAME.outcome(result.state)
    assert outcome is not None and outcome.winners == ("2",)
    assert outcome.reason.startswith("The board is full.")


def test_drop_none_forgoes_the_kept_gems() -> None:
    state = drop_phase().state
    result = play(state, "1", DropNone())
    assert result.state.board == state.board
    assert result.state.kept == ((), ()) and result.state.stage == OVER
    assert result.events[0].text == "Seat 1 does not drop 1 gem it kept (1 of seat 2); they leave the game."


def test_drop_orders_are_checked() -> None:
    state = drop_phase().state
    assert messages(state, "1", Drop("c3")) == ["DROP c3: c3 holds no gem of yours"]
    assert messages(state, "1", Drop("f1")) == ["DROP f1: f1 is not on the 5 x 5 board"]
    assert messages(state, "1", Drop("a1"), Drop("b1")) == ["DROP b1: you keep only 1 gem of seat 2"]
    assert messages(state, "1", Drop("a1", "3")) == ["DROP a1 OF 3: you keep no gem of seat 3"]
    assert messages(state, "1", Drop("a1", "2")) == []
    assert GAME.validate(state, "1", [DropNone(), Drop("a1")]) == [
        OrderProblem(0, "DROP NONE: it forgoes every drop, so send it alone")
    ]
    assert messages(state, "1", Place("a1")) == ["PLACE a1: the placing is over; send DROP orders or DROP NONE"]
    assert GAME.validate(state, "1", []) == [OrderProblem(None, "send DROP orders for your kept gems, or DROP NONE")]


def test_several_kept_gems_and_colours() -> None:
    kept = (("2", "2", "3"), (), ())
    state = position(NEARLY_FULL.replace(".", "3"), players=3, aggressive=True, stage=DROP, kept=kept)
    assert messages(state, "1", Drop("a1")) == [
        "DROP a1: you keep gems of seats 2 and 3; say which, e.g. DROP a1 OF 2"
    ]
    assert messages(state, "1", Drop("a1", "2"), Drop("a1", "3")) == [
        "DROP a1 OF 3: a1 is already named by an earlier DROP"
    ]
    orders = [Drop("a1", "2"), Drop("c1", "2"), Drop("e1", "3")]
    assert GAME.validate(state, "1", orders) == []
    result = play(state, "1", *orders)
    assert picture(result.state)[0] == "21213"
    assert result.state.stage == OVER
    # using only some of them forgoes the rest
    partial = play(state, "1", Drop("a1", "3"))
    assert [e.kind for e in partial.events][:2] == ["drop", "forgo"]
    assert "does not drop 2 gems it kept (2 of seat 2)" in partial.events[1].text


def test_keepers_are_asked_in_turn_order_from_the_first_player() -> None:
    state = position(
        NEARLY_FULL.replace("2", "3", 3),
        players=3,
        aggressive=True,
        to_move="2",
        first="2",
        kept=(("2",), (), ("1",)),
    )
    result = play(state, "2", Place("e5"))
    assert result.state.stage == DROP and result.state.to_move == "3" and result.state.drop_queue == ("1",)
    result = play(result.state, "3", DropNone())
    assert result.state.stage == DROP and result.state.to_move == "1"
    result = play(result.state, "1", DropNone())
    assert result.state.stage == OVER


def test_a_keeper_without_own_gems_on_the_board_is_skipped() -> None:
    state = position(
        """
        2 2 2
         2 2 2
          2 2 .
        """,
        aggressive=True,
        to_move="2",
        kept=(("2",), ()),
    )
    result = play(state, "2", Place("c3"))
    assert result.state.stage == OVER
    assert "Seat 1 keeps 1 gem but has no gem on the board to replace." in [e.text for e in result.events]


def test_a_basic_game_has_no_drop_phase() -> None:
    state = position(NEARLY_FULL, to_move="2")
    assert play(state, "2", Place("e5")).state.stage == OVER


# ----- aggressive scoring ------------------------------------------------------------

RULE_BOOK_AGGRESSIVE = """
1 1 1 1 1 1 1 1 1 1
2 2 2 2 2 2 2 2 2 2
1 1 1 1 1 1 1 1 1 1
1 1 1 1 1 1 1 . . .
2 2 2 2 2 2 2 2 2 2
2 2 2 2 2 2 2 2 2 2
2 2 2 2 2 2 2 2 2 1
. . . . . . . . . .
2 . 2 . 2 . 2 . 2 .
. 1 . . . . . . . .
"""


def test_rule_book_aggressive_example_17_minus_4_and_29_minus_7() -> None:
    from pbem.games.fungus import board

    state = position(RULE_BOOK_AGGRESSIVE, aggressive=True, stage=OVER, to_move=None)
    assert sorted(len(g) for g in board.groups(state, "1")) == [1, 1, 10, 17]
    assert max(len(g) for g in board.groups(state, "2")) == 29 and len(board.groups(state, "2")) == 7
    assert GAME.scores(state) == {"1": 13, "2": 22}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("2",)
    # the same board counted the basic way
    assert GAME.scores(position(RULE_BOOK_AGGRESSIVE)) == {"1": 29 - 4, "2": 44 - 7}


def test_aggressive_score_of_a_player_without_gems_is_zero() -> None:
    state = position(
        """
        1 . .
         . . .
          . . .
        """,
        aggressive=True,
    )
    assert GAME.scores(state) == {"1": 0, "2": 0}
