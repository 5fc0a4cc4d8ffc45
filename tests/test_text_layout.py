"""How a text report reads in HTML (pbem.text_layout): sentences as paragraphs that wrap, drawings as
preformatted boxes, a drawing's caption as prose; names that must not break at their hyphens."""

from __future__ import annotations

from pbem.text_layout import TextBlock, text_as_html, text_blocks, unbroken

REPORT = """Turkey Chase -- game tc-1, report for seat A
Turn 2 results

1 Feeding:
  - C fed on F10 for 2 points

The cornfield after turn 2:

       A     B
    +-----+-----+
  1 |  1     1  |

Squares 1-17:
  1   2   3
  .   .   .

Players (side; score):
  seat 1 (you): bottom side; score 0
  seat 2: left side; score 0
"""


def test_sentences_are_prose_and_what_keeps_columns_is_a_drawing() -> None:
    assert text_blocks(REPORT) == [
        TextBlock("Turkey Chase -- game tc-1, report for seat A\nTurn 2 results", False),
        TextBlock("1 Feeding:\n  - C fed on F10 for 2 points", False),
        TextBlock("The cornfield after turn 2:", False),
        TextBlock("       A     B\n    +-----+-----+\n  1 |  1     1  |", True),
        TextBlock("Squares 1-17:", False),  # a drawing's caption at the margin stays prose
        TextBlock("  1   2   3\n  .   .   .", True),
        TextBlock("Players (side; score):\n  seat 1 (you): bottom side; score 0\n  seat 2: left side; score 0", False),
    ]


def test_the_html_escapes_and_keeps_drawings_whole() -> None:
    html = text_as_html("Seat 1 moved <maggot> 1.\n\n   a  b\n H7 .  -> HOME\n")
    assert html == ('<p class="lines" style="white-space: pre-wrap">Seat 1 moved &lt;maggot&gt; 1.</p>\n'
                    '<pre style="white-space: pre; overflow-x: auto">\n   a  b\n H7 .  -&gt; HOME</pre>\n')
    assert text_as_html("") == ""


def test_names_joined_by_hyphens_do_not_break_at_them() -> None:
    assert unbroken("Game tc-1 (turkey-chase), seat <A>") == (
        'Game <span style="white-space: nowrap">tc-1</span> <span style="white-space: nowrap">(turkey-chase),'
        "</span> seat &lt;A&gt;")
    assert unbroken("no hyphen here") == "no hyphen here"
