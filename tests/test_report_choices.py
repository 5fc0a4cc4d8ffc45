"""A seat with few choices finds them as buttons in its HTML report: each a mailto: reply to the seat's
reply address, with the report's subject and the orders written; nobody else gets them."""

from __future__ import annotations

import html
import re
from urllib.parse import unquote, urlsplit

from game_views import report_input

from pbem.core import GameRng
from pbem.games import find_game
from pbem.reports import MailSection, OrdersWanted, ReplyTo, order_choices, render_mail_html, render_report

RACE = find_game("race-on-the-river")
DERBY = find_game("kentucksea-derby")
REPLY = ReplyTo("gm+g.1.k1.20500.abcdefghijklmnop@example.org", "Re: [g] Turn 1")


def _buttons(page: str) -> list[tuple[str, str]]:
    """The (label, href) of each choice button of an HTML report, as a browser reads them."""
    return [(html.unescape(label), html.unescape(href))
            for href, label in re.findall(r'<a class="choice" href="([^"]*)">([^<]*)</a>', page)]


def _race() -> object:
    state = RACE.setup(RACE.seat_names(2), {}, GameRng(4))
    assert RACE.phase(state).name and state.hand("1") == 9
    return state


def test_an_owing_seat_gets_a_button_for_each_bid_it_can_pay() -> None:
    page = render_report(report_input(RACE, _race()), "1", html=True, reply=REPLY)
    buttons = _buttons(page)
    assert [label for label, _ in buttons] == [f"BID {n}" for n in range(10)]
    for n, (_, href) in enumerate(buttons):
        parts = urlsplit(href)
        fields = dict(field.split("=", 1) for field in parts.query.split("&"))
        assert parts.scheme == "mailto" and unquote(parts.path) == REPLY.address
        assert unquote(fields["subject"]) == "Re: [g] Turn 1" and unquote(fields["body"]) == f"BID {n}\r\n"
    assert "&amp;body=" in page  # the & between the fields is escaped in the HTML attribute


def test_no_buttons_without_a_reply_address_for_the_public_or_with_too_many_choices() -> None:
    report = report_input(RACE, _race())
    assert _buttons(render_report(report, "1", html=True)) == []  # the web archive: no reply address
    assert _buttons(render_report(report, None, html=True, reply=REPLY)) == []
    assert "choice" not in render_report(report, "1", reply=REPLY)  # the text report is unchanged
    derby = report_input(DERBY, DERBY.setup(DERBY.seat_names(3), {}, GameRng(1)))
    assert DERBY.phase(derby.state).name == "bet"  # BET 0 to BET 40: 41 choices, past the bound
    assert DERBY.order_choices(derby.state, "1") is None
    assert _buttons(render_report(derby, "1", html=True, reply=REPLY)) == []


def test_a_seat_that_owes_nothing_gets_no_buttons() -> None:
    harvest = find_game("harvest-day")
    state = harvest.setup(harvest.seat_names(2), {}, GameRng(2))
    state = harvest.resolve(state, {"1": harvest.default_orders(state, "1"), "2": harvest.default_orders(state, "2")},
                            GameRng(3)).state
    phase = harvest.phase(state)
    idle = [seat for seat in harvest.seat_names(2) if seat not in phase.seats]
    for seat in idle:
        assert _buttons(render_report(report_input(harvest, state), seat, html=True, reply=REPLY)) == []
    for seat in phase.seats:
        if harvest.forced_orders(state, seat) is None:
            assert _buttons(render_report(report_input(harvest, state), seat, html=True, reply=REPLY))


def test_a_reminder_carries_the_same_buttons_as_the_report() -> None:
    state = _race()
    choices = order_choices(RACE, state, "2", REPLY)
    reminder = render_mail_html("[g] Reminder: turn 1 orders due", [MailSection("Reminder.")],
                                ask=OrdersWanted("race-on-the-river", "tomorrow", choices))
    report = render_report(report_input(RACE, state), "2", html=True, reply=REPLY)
    assert _buttons(reminder) == _buttons(report) and len(_buttons(reminder)) == 10
    assert _buttons(render_mail_html("t", [], ask=OrdersWanted("race-on-the-river"))) == []
