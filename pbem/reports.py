"""Turn reports: a jinja2 environment and the context every report template gets.

A game's templates live in its package, ``pbem/games/<game>/templates/``, and
are named ``<kind>/<file>`` (``turkey-chase/report.txt.j2``); its
``report.txt.j2`` extends ``common/report.txt.j2`` (in ``pbem/templates/``), filling its ``board`` block (the position drawn the
way a player would draw it) and, if they like, ``events`` and ``summary``.

Context of every report (all of it already filtered for the reader):
``game`` (game name), ``kind``, ``title``, ``seat`` (reader's seat, ``None``
for the public/GM report), ``turn`` (the turn the report is about, 0 for the
opening report), ``last_turn`` (the last turn it tells of: ``turn`` unless it
tells of several, such as a digest), ``next_turn``, ``moment`` (when the board it shows stands: "at the start",
"after turn 3"; the pictures' titles end with it), ``view`` (``rules.view(state, seat)``),
``events`` (visible :class:`~pbem.core.Event` objects of that turn),
A game without templates of its own gets the common frame alone.
``phases`` (the events grouped: list of ``(phase, [events])`` in order),
``scores`` (seat -> formatted score), ``phase`` (the :class:`~pbem.core.Phase`
awaited next, ``None`` once finished), ``owing`` (seats that owe orders next),
``you_owe`` (bool), ``outcome`` (:class:`~pbem.core.Outcome` or ``None``),
``deadline`` (text or ``None``), ``nmr`` (seats that sent no orders),
``passed`` (seats that let an answer window pass in silence), ``window`` (when
the phase awaited is an answer window: a sentence on when it closes, else ``None``),
``pictures`` (:class:`PictureRef` s: the board, the same for every reader,
then the reader's own picture when it has one; none without pictures) and
``seat_link`` (the address of the reader's private web page, or ``None``);
HTML templates show both with ``{% include "common/_picture.html.j2" %}``.
``choices`` (:class:`OrderChoice` s: when the reader owes orders, has few choices
(:meth:`~pbem.core.Game.order_choices`) and the report is mailed with its reply address,
each choice as a ``mailto:`` reply already written; else empty).
HTML templates also get ``text_report`` (the reader's text report), shown with the
``text_as_html`` filter: its sentences wrap, its drawings keep their columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

import jinja2

from pbem import budget
from pbem.core import Event, Game, Outcome, Phase
from pbem.core.chain import RecordExcerpt, without_record
from pbem.core.protocol import MAX_ORDER_CHOICES, format_score
from pbem.games import GAMES
from pbem.numbering import board_moment
from pbem.mailto import mailto_url
from pbem.resources import game_package_dir, template_dir
from pbem.orders import OrderLine
from pbem.service.checking import CheckResult
from pbem.text_layout import text_as_html, unbroken


def _loader() -> jinja2.BaseLoader:
    """The shared templates, and each registered game's own under ``<kind>/``."""
    games: dict[str, jinja2.BaseLoader] = {}
    for kind, target in GAMES.items():
        folder = game_package_dir(target)
        if folder is not None and (folder / "templates").is_dir():
            games[kind] = jinja2.FileSystemLoader(str(folder / "templates"))
    return jinja2.ChoiceLoader([jinja2.PrefixLoader(games), jinja2.FileSystemLoader(str(template_dir()))])


@cache
def environment(*, html: bool = False) -> jinja2.Environment:
    """Return the shared jinja2 environment (StrictUndefined; autoescape for HTML; the filter
    ``text_as_html`` shows a text report as HTML, ``unbroken`` a name that must not break at its
    hyphens; see :mod:`pbem.text_layout`)."""
    env = jinja2.Environment(
        loader=_loader(),
        undefined=jinja2.StrictUndefined,
        autoescape=html,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.filters["text_as_html"] = text_as_html
    env.filters["unbroken"] = unbroken
    return env


def _escape(text: str) -> str:
    """``text`` as HTML text, escaped as jinja2 (markupsafe) escapes it."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;").replace(
        '"', "&#34;")


def _html_lines(text: str) -> str:
    """Plain text as HTML: escaped, each line break a <br> (for prose, which may wrap)."""
    return _escape(text.rstrip("\n")).replace("\n", "<br>\n")


@dataclass(frozen=True)
class ReportInput:
    """Everything a report is made from, before filtering for a reader."""

    game_name: str
    rules: Game[Any, Any]
    state: Any
    turn: int
    events: Sequence[Event]
    nmr: Sequence[str]
    phase: Phase | None
    outcome: Outcome | None
    deadline: str | None = None
    fairness: Fairness | None = None
    deadline_at: datetime | None = None
    """The deadline as a moment, for writing it in each reader's time zone."""
    passed: Sequence[str] = ()
    """Seats that sent nothing in an answer window: they passed (not NMR)."""
    window: str | None = None
    """When the phase awaited is an answer window: when it closes and what silence means."""
    last_turn: int | None = None
    """The last turn this report tells of, when it tells of several (``turn`` to ``last_turn``)."""
    ended_after: int | None = None
    record: RecordExcerpt | None = None
    """What the report shows of the game's record (the head, the entries since, the orders it reveals)."""
    """For the final report of a game the GM ended, to a reader told of every turn already: the last turn
    played. Such a report tells no turn again; it says the game ended after that turn."""

    @property
    def newest_turn(self) -> int:
        """The newest turn this report tells of (0: the opening): its pictures show the board after it."""
        return self.last_turn if self.last_turn is not None else self.turn


@dataclass(frozen=True)
class Fairness:
    """What players need to check the dice: the seed commitment, the salts mixed in,
    the draws of this report as ``[counter, range, result]`` and, once the game is
    over, the revealed secret."""

    commitment: str
    rng_version: int
    salts: Sequence[str] = ()
    draws: Sequence[Sequence[int]] = ()
    secret: str | None = None

    def draw_lines(self, per_line: int = 10) -> list[str]:
        """Return the draws as ``counter:range=result`` words, ``per_line`` to a line."""
        words = [f"{c}:{n}={r}" for c, n, r in self.draws]
        return [" ".join(words[i:i + per_line]) for i in range(0, len(words), per_line)]


@dataclass(frozen=True)
class PictureRef:
    """Where an HTML report finds a picture: ``cid:...`` in mail, a URL on the web."""

    src: str
    alt: str
    width: int
    height: int


@dataclass(frozen=True)
class ReplyTo:
    """Where a reply to a mailed report goes: the seat's signed reply address (the report's Reply-To)
    and the reply's subject (``Re: [game] Turn N``, which names the turn the orders are for)."""

    address: str
    subject: str


@dataclass(frozen=True)
class OrderChoice:
    """One of a seat's few complete submissions, as a button: its orders on one line, and the
    ``mailto:`` URL of a reply that sends them."""

    label: str
    href: str


def order_choices(rules: Game[Any, Any], state: Any, seat: str, reply: ReplyTo) -> list[OrderChoice]:
    """Return ``seat``'s choices (:meth:`~pbem.core.Game.order_choices`) as replies to ``reply``, each
    body the submission's orders one a line; empty when the game lists none or too many."""
    submissions = rules.order_choices(state, seat)
    if submissions is None or not 1 <= len(submissions) <= MAX_ORDER_CHOICES:
        return []
    choices = []
    for submission in submissions:
        lines = [str(order) for order in submission]
        choices.append(OrderChoice("; ".join(lines), mailto_url(reply.address, subject=reply.subject,
                                                                 body="\n".join(lines) + "\n")))
    return choices


def _group(events: Sequence[Event]) -> list[tuple[str, list[Event]]]:
    groups: list[tuple[str, list[Event]]] = []
    for event in events:
        if groups and groups[-1][0] == event.phase:
            groups[-1][1].append(event)
        else:
            groups.append((event.phase, [event]))
    return groups


def report_context(report: ReportInput, seat: str | None, *, pictures: Sequence[PictureRef] = (),
                   seat_link: str | None = None, reply: ReplyTo | None = None) -> dict[str, Any]:
    """Return the template context for ``seat`` (``None`` = public), holding only what it may see;
    with ``reply`` (a mailed seat report) the seat's choices as written replies."""
    rules = report.rules
    visible = [e for e in report.events if e.is_visible_to(seat)]
    last_turn = report.newest_turn
    # Seats whose play the service makes itself are not asked for orders.
    owing = [] if report.phase is None else [
        s for s in report.phase.seats if rules.forced_orders(report.state, s) is None
    ]
    return {
        "game": report.game_name,
        "kind": rules.name,
        "title": rules.title,
        "seat": seat,
        "turn": report.turn,
        "last_turn": last_turn,
        "next_turn": last_turn + 1,
        "ended_after": report.ended_after,
        "moment": board_moment(last_turn),
        "view": rules.view(report.state, seat),
        "events": visible,
        "phases": _group(visible),
        "scores": {s: format_score(v) for s, v in rules.scores(report.state).items()},
        "phase": report.phase,
        "owing": owing,
        "you_owe": seat in owing,
        "outcome": report.outcome,
        "deadline": report.deadline,
        "nmr": list(report.nmr),
        "passed": list(report.passed),
        "window": report.window,
        "pictures": list(pictures),
        "seat_link": seat_link,
        "fairness": report.fairness,
        "record": report.record,
        "revealed": report.record.revealed_to(seat) if report.record is not None else [],
        "choices": order_choices(rules, report.state, seat, reply)
        if reply is not None and seat is not None and seat in owing and report.outcome is None else [],
    }


def render_report(report: ReportInput, seat: str | None, *, html: bool = False, pictures: Sequence[PictureRef] = (),
                  seat_link: str | None = None, text: str | None = None, reply: ReplyTo | None = None) -> str:
    """Render the report of ``report`` for ``seat`` as plain text (or HTML, showing ``pictures`` in order).
    The HTML report holds the text report; ``text``, when given, is that text report already rendered (for
    the same seat and link), so it is not rendered twice. With ``reply`` (a mailed report's reply address
    and subject) an owing seat's few choices are buttons that open replies already written."""
    context = report_context(report, seat, pictures=pictures, seat_link=seat_link, reply=reply)
    if html:
        context["text_report"] = without_record(text if text is not None else _template(report, html=False).render(context))
    return _template(report, html=html).render(context)


def _template(report: ReportInput, *, html: bool) -> jinja2.Template:
    """The report template of ``report``'s game (text or HTML), or the common one."""
    suffix = "html" if html else "txt"
    return environment(html=html).select_template(
        [f"{report.rules.name}/report.{suffix}.j2", f"common/report.{suffix}.j2"])


@dataclass(frozen=True)
class MailSection:
    """One part of a reply or notice: plain text, or an order check (with a line of text before it)."""

    text: str
    check: CheckResult | None = None
    intro: str = ""


@dataclass(frozen=True)
class OrdersWanted:
    """What the call for orders at the top of a mail names: the game kind (for HELP), the deadline and
    the seat's few choices as buttons (:func:`order_choices`; none when it has many)."""

    kind: str
    deadline: str | None = None
    choices: Sequence[OrderChoice] = ()


def render_mail_html(title: str, sections: Sequence[MailSection], *, ask: OrdersWanted | None = None,
                     footer: str = "") -> str:
    """Render the HTML part of a reply or notice: ``sections`` in order, order checks as tables,
    and with ``ask`` the line "Reply to this mail with your orders", the HELP command and the seat's
    choices as buttons on top.

    Written here rather than by a template: it goes with every reply that checks orders, and
    jinja2 took three times as long for these few lines; the frame (head, style) is the one
    ``common/mail.html.j2`` every HTML mail shares, rendered once."""
    head, middle, tail = _mail_frame()
    out = [head, _escape(title), middle]
    if ask is not None:
        by = f", by {_escape(ask.deadline)}" if ask.deadline else ""
        buttons = environment(html=True).get_template("common/_choices.html.j2").render(choices=ask.choices) \
            if ask.choices else ""
        out.append(f'<div class="act"><strong>Reply to this mail with your orders</strong>{by}, one per line.<br>\n'
                   f"Send <code>HELP {_escape(ask.kind)}</code> for the order syntax.{buttons}</div>\n")
    for section in sections:
        budget.check()
        check = section.check
        if check is None:
            out.append(f'<p class="text">{_html_lines(section.text)}</p>\n')
            continue
        if section.intro:
            out.append(f"<p>{_escape(section.intro)}</p>")
        heading = check.heading
        if heading:
            out.append(f"<h2>{unbroken(heading)}</h2>")
        if check.lines:
            out.append(f'{WIDE}<table>\n<tr><th>Line</th><th>Order</th><th>Check</th></tr>\n')
            out.extend(_check_row(line) for line in check.lines)
            out.append("</table></div>\n")
        out.append(f'<p class="text">{_html_lines(chr(10).join(check.verdict()))}</p>\n')
    if footer:
        out.append(f'<p class="text">{_html_lines(footer)}</p>')
    out.append(tail)
    return "".join(out)


WIDE = '<div class="wide" style="overflow-x: auto">'
"""The box around what may be wider than a phone's screen (a table): it scrolls sideways, the page not."""


def _check_row(line: OrderLine) -> str:
    """One line of an order check as a table row; the caret under a bad column stays in place in
    the monospace cell, whose lines never wrap (the table scrolls in its box instead)."""
    problem = line.problem
    if problem is None:
        return (f"<tr><td>{line.number}</td>\n<td><pre>{_escape(line.text.strip())}</pre></td>\n"
                '<td class="wrap"><span class="ok">ok</span></td></tr>\n')
    caret = f"\n{' ' * (problem.column - 1)}^" if problem.column else ""
    column = f" (column {problem.column})" if problem.column else ""
    return (f"<tr><td>{line.number}</td>\n<td><pre>{_escape(line.text)}{caret}</pre></td>\n"
            f'<td class="wrap"><span class="refused">REFUSED</span>{column}: '
            f'<span class="problem">{_escape(problem.message)}</span></td></tr>\n')


@cache
def _mail_frame() -> tuple[str, str, str]:
    """The frame of every HTML mail (``common/mail.html.j2``) around its title and its content."""
    marker = "\x00"
    frame = environment(html=True).from_string(
        '{% extends "common/mail.html.j2" %}{% block title %}' + marker + "{% endblock %}"
        "{% block content %}" + marker + "{% endblock %}").render()
    head, middle, tail = frame.split(marker)
    return head, middle, tail
