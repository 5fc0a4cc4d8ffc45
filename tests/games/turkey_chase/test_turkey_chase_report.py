"""Turkey Chase turn reports: the ASCII cornfield, events by phase, failed
orders and NMR, for every seat and the public."""

from __future__ import annotations

from turkey_chase_scenarios import GAME, make_state, resolve

from pbem.core import GameRng
from pbem.reports import ReportInput, render_report


def report_for(state, events=(), *, turn: int = 1, nmr=()) -> ReportInput:
    outcome = GAME.outcome(state)
    phase = None if outcome is not None else GAME.phase(state)
    return ReportInput("tc1", GAME, state, turn, list(events), list(nmr), phase, outcome, "Monday 12:00")


def board_lines(text: str) -> list[str]:
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.strip().startswith("A     B     C"))
    return lines[top : top + 35]


def test_the_start_board_is_drawn_with_corn_pieces_fences_and_gaps() -> None:
    state = GAME.setup(("A", "B", "C", "D"), {}, GameRng(1))
    text = render_report(report_for(state, turn=0), "A")
    lines = board_lines(text)
    assert lines[0] == "       A     B     C     D     E     F     G     H     I     J     K"
    # outer fence on top with the gap above F1
    assert lines[1] == "    +-----+-----+-----+-----+-----+     +-----+-----+-----+-----+-----+"
    assert lines[2] == "  1 |  1     1     1     1     1     1     1     1     1     1     1  |"
    assert lines[3] == "    |                              a*a*                               |"
    # the fence F1/F2 under F1
    assert lines[4] == "    |                             +-----+                             |"
    # row 6: the gaps at A6 and K6, the fences A6/B6 and J6/K6, the centre 10, farmers D and B
    assert lines[17] == "  6    1  |  2     3     5     7    10     7     5     3     2  |  1"
    assert lines[18] == "      bb  |                   D           B                     | dd"
    assert lines[20] == "  7 |  1     2     3     5     7     7     7     5     3     2     1  |"
    assert lines[21] == "    |                               A*                                |"
    assert lines[-1] == "    +-----+-----+-----+-----+-----+     +-----+-----+-----+-----+-----+"
    assert "* marks yours (A, a)" in text
    assert "A (you): farmer F7; birds F1, F1" in text


def test_each_reader_sees_his_own_pieces_marked_and_the_public_none() -> None:
    state = make_state(farmers={"B": ["G6"]}, birds={"A": ["F1"], "B": ["F1", "C3"]})
    assert "b*" in board_lines(render_report(report_for(state), "B"))[9]  # B's bird on C3
    for seat in ("A", "B", "C", "D", None):
        text = render_report(report_for(state), seat)
        lines = board_lines(text)
        row1 = lines[3]
        if seat == "A":
            assert " a*b " in row1
        elif seat == "B":
            assert " ab* " in row1
        else:
            assert " ab " in row1
            assert "*" not in "\n".join(lines)
        assert "The cornfield after turn 1:" in text


def test_events_are_grouped_by_phase_with_failures_and_nmr() -> None:
    state = make_state(farmers={"A": ["F7"], "B": ["F6"]}, birds={"A": ["F5"], "B": ["F5"], "C": ["E6"], "D": ["K6"]})
    result = resolve(state, {"A": "FEED F5\nMOVE F7-F8", "B": "FEED F5\nMOVE F6-E6", "C": "MOVE E6-E7"})
    text = render_report(report_for(result.state, result.events, nmr=["D"]), "C")
    expected = (
        "1 Feeding:\n"
        "  - A fed on F5 for 7 points (shared with B: 3.50 each)\n"
        "  - B fed on F5 for 7 points (shared with A: 3.50 each)\n"
        "3 Farmers move:\n"
        "  - A's farmer moved F7-F8\n"
        "  - B's farmer moved F6-E6\n"
        "  - B's farmer captured C's bird on E6\n"
        "4 Birds move:\n"
        "  - C: MOVE E6-E7 failed: no bird of yours on E6 any more\n"
    )
    assert expected in text
    assert "No orders received (NMR) from: D." in text
    assert "A: 3.50" in text
    assert "C (you): farmers none; birds none (all captured)" in text


def test_built_fences_are_drawn_between_squares() -> None:
    state = make_state(fences=["C3/D3", "C3/C4"], birds={"A": ["K11"], "B": ["A1"]})
    lines = board_lines(render_report(report_for(state), None))
    row3 = lines[8]
    assert row3.startswith("  3 |  1     2     3  |  3 ")
    under3 = lines[10]
    assert under3 == "    |           +-----+                                               |"


def test_the_html_report_holds_the_same_board_escaped() -> None:
    state = make_state(farmers={"B": ["G6"]}, birds={"A": ["F1"]})
    result = resolve(state, {"B": "MOVE G6-G5"})
    html = render_report(report_for(result.state, result.events), "A", html=True)
    assert "<pre" in html and "</pre>" in html
    assert "B&#39;s farmer moved G6-G5" in html
    assert "       A     B     C     D     E     F     G     H     I     J     K" in html


def test_the_final_report_names_the_winner() -> None:
    state = make_state(birds={}, scores={"A": 2, "B": 9})
    text = render_report(report_for(state), "B")
    assert "The game is over. Winner: B." in text
    assert "Every bird has been captured." in text
