"""How a plain-text report reads in HTML: its sentences as text that wraps between words, its drawings
(boards, tables in columns) preformatted in a box of their own that scrolls sideways on a narrow screen.

A report's text is paragraphs parted by blank lines. A paragraph is a drawing when one of its lines
keeps columns: it is indented by four spaces or more, or it has two spaces in a row after its first
word (``"  4 |  1     2"``, ``"seat 1 (you)  red; ..."``). Lines at the head of a drawing that start
at the margin and keep no columns (its caption, ``"Squares 1-17:"``) stay prose; so does every other
paragraph (events, scores, the seed commitment). Work is linear in the text's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup

_COLUMNS = re.compile(r"^ {4}|\S {2,}\S")
"""A line that keeps columns: indented four spaces or more, or two spaces in a row inside it."""

_PARAGRAPHS = re.compile(r"\n[ \t]*\n")
_WORDS = re.compile(r"(\s+)")
_DRAWING = "white-space: pre; overflow-x: auto"
_PROSE = "white-space: pre-wrap"


@dataclass(frozen=True)
class TextBlock:
    """One paragraph (or part of one) of a text report: ``drawing`` when it must keep its columns."""

    text: str
    drawing: bool


def _is_drawn(line: str) -> bool:
    return _COLUMNS.search(line) is not None


def _split(paragraph: str) -> list[TextBlock]:
    lines = paragraph.split("\n")
    first = next((i for i, line in enumerate(lines) if _is_drawn(line)), None)
    if first is None:
        return [TextBlock(paragraph, False)]
    caption = 0
    while caption < first and not lines[caption].startswith(" "):
        caption += 1
    blocks = [TextBlock("\n".join(lines[:caption]), False)] if caption else []
    return [*blocks, TextBlock("\n".join(lines[caption:]), True)]


def text_blocks(text: str) -> list[TextBlock]:
    """Return ``text`` cut into its paragraphs, in order, each marked prose or drawing (see the module): a
    drawing's caption is a block of its own. Every line of ``text`` but the blank ones is in one block."""
    blocks: list[TextBlock] = []
    for paragraph in _PARAGRAPHS.split(text.strip("\n")):
        if paragraph.strip():
            blocks.extend(_split(paragraph.rstrip()))
    return blocks


def text_as_html(text: str) -> Markup:
    """Return a text report as HTML: each prose paragraph a ``<p class="lines">`` (its line breaks kept,
    wrapping between words), each drawing a ``<pre>`` (its lines whole, scrolling in its own box): the
    stylesheet of common/frame.css.j2 says how, and what a mail client that drops it must keep is inline."""
    return Markup("").join(
        Markup('<pre style="{}">\n{}</pre>\n').format(_DRAWING, block.text) if block.drawing
        else Markup('<p class="lines" style="{}">{}</p>\n').format(_PROSE, block.text)
        for block in text_blocks(text))


def unbroken(text: object) -> Markup:
    """Return ``text`` as HTML in which no word joined by hyphens (a game's name, a kind, a date) breaks at
    its hyphens: a line may end between words, never inside one. Linear in the text's length."""
    return Markup("").join(
        Markup('<span style="white-space: nowrap">{}</span>').format(part) if "-" in part else Markup.escape(part)
        for part in _WORDS.split(str(text)))
