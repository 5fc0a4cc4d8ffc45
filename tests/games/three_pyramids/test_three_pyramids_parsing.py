"""Parsing The Three Pyramids orders with the game's grammar."""

from __future__ import annotations

import pytest
from three_pyramids_builders import GAME, play

from pbem.games.three_pyramids.orders import Play
from pbem.games.three_pyramids.state import COLOURS, PYRAMIDS
from pbem.orders import OrderParser


@pytest.fixture(scope="module")
def parser() -> OrderParser:
    return OrderParser(GAME)


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("PLAY LEFT red", play("LEFT red")),
        ("play center Blue BLUE", play("CENTER blue blue")),
        ("Play Centre green", play("CENTER green")),
        ("PLAY right white yellow  # two new colours", play("RIGHT white yellow")),
    ],
)
def test_every_order_form_parses_in_any_case(parser: OrderParser, text: str, order: Play) -> None:
    parsed = parser.parse(text)
    assert not parsed.has_problems
    assert parsed.orders == [order]


@pytest.mark.parametrize("pyramid", PYRAMIDS)
@pytest.mark.parametrize("colours", [(c,) for c in COLOURS] + [("red", "blue"), ("black", "black")])
def test_canonical_text_round_trips(parser: OrderParser, pyramid: str, colours: tuple[str, ...]) -> None:
    order = Play(pyramid, colours)
    assert str(order) == " ".join(["PLAY", pyramid, *colours])
    assert parser.parse(str(order)).orders == [order]


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("PLAY MIDDLE red", 6, 'expected a pyramid (LEFT, CENTER or RIGHT), found "MIDDLE"'),
        ("PLAY LEFT purple", 11, 'expected a colour (red, blue, green, yellow, black or white), found "purple"'),
        ("PLAY LEFT", 10, "expected a colour (red, blue, green, yellow, black or white), found the end of the line"),
        ("PLAY LEFT red blue green", 20, 'expected nothing more on this line, found "green"'),
        ("PLAY LEFTY red", 6, "expected a pyramid"),
        ("PASS", 1, 'expected PLAY'),
    ],
)
def test_a_bad_line_gives_its_column_and_the_expected_words(
    parser: OrderParser, text: str, column: int, message: str
) -> None:
    parsed = parser.parse("PLAY LEFT red\n" + text)
    assert parsed.orders == [play("LEFT red")]
    bad = parsed.lines[1]
    assert bad.number == 2
    assert bad.problem is not None
    assert bad.problem.column == column
    assert bad.problem.message.startswith(message)
