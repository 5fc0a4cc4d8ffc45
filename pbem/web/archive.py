"""What the web archive shows, read from the database: plain sync code, no HTTP.

Every page is built from a reader: ``None`` for the public (public view and
public events only), or one seat opened by its private link (that seat's
view and the events it may see, nobody else's secrets).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from pbem.clock import format_utc
from pbem.core import Event, GameRng, PbemError
from pbem.mail.outbound.tokens import ReplyTokens
from pbem.numbering import board_moment, game_turn
from pbem.pictures import alt_text, board_svg, own_svg
from pbem.reports import ReportInput, render_report
from pbem.service import leagues, queries
from pbem.service.api import GameService
from pbem.service.players import NAME_PATTERN, PlayerProfile, PlayerSummary, UnknownPlayer
from pbem.service.snapshot import GameInfo
from pbem.store.tables import GameRow, GameStatus, SeatStatus


def deadline_words(row: GameRow) -> str | None:
    """The deadline as a game's page and the game list show it: the moment, or for a paused game that no
    deadline runs (the stored one has no meaning until RESUME moves it); None when there is none."""
    if row.status == GameStatus.PAUSED:
        since = f" since {format_utc(row.paused_at)}" if row.paused_at else ""
        return f"none: the game is paused{since}; the GM's RESUME sets it again"
    return format_utc(row.deadline) if row.deadline else None


class NotInArchive(PbemError):
    """A game, turn or link the archive does not show (unknown, forming, forged, expired or revoked)."""


@dataclass(frozen=True)
class GameSummary:
    """One line of the game list: no addresses, only seat names and whether each is taken."""

    name: str
    kind: str
    title: str
    status: str
    turn: int
    deadline: str | None
    seats: list[tuple[str, str]]  # (seat, "taken" | "open" | "resigned")


@dataclass(frozen=True)
class PagePicture:
    """A picture on a history page: where it is served and its alt text."""

    url: str
    alt: str


@dataclass(frozen=True)
class TurnPage:
    """One step of a game's history as a reader sees it: the report after that turn and its pictures
    (the board, then the reader's own picture when it has one)."""

    turn: int
    report_text: str
    pictures: list[PagePicture]


STEPS_PER_PAGE = 20
"""A history page shows at most this many steps: a page costs the same in a game of any length."""


@dataclass(frozen=True)
class Window:
    """The steps one history page shows: ``first`` to ``last`` of ``0..newest``, page ``page`` of ``pages``."""

    page: int
    pages: int
    first: int
    last: int
    newest: int


class Archive:
    """Reads games for the web pages; ``tokens`` checks private seat links."""

    def __init__(self, service: GameService, tokens: ReplyTokens, *, clock: Callable[[], datetime]) -> None:
        self.service = service
        self.tokens = tokens
        self.clock = clock

    def games(self) -> list[GameSummary]:
        """Return every game, newest first, with its seats but none of their addresses."""
        summaries = []
        for info in sorted(self.service.snapshots(), key=lambda i: i.row.created_at, reverse=True):
            row = info.row
            seats = [(s.name, "resigned" if s.status == SeatStatus.RESIGNED else "taken" if s.address else "open")
                     for s in info.seats]
            summaries.append(GameSummary(
                name=row.name, kind=row.kind, title=info.rules.title, status=row.status, turn=game_turn(row),
                deadline=deadline_words(row), seats=seats,
            ))
        return summaries

    def players(self) -> list[PlayerSummary]:
        """Return every registered player with its record, by name (never an address)."""
        return self.service.players()

    def player(self, name: str) -> PlayerProfile:
        """Return the registered player ``name`` for its page: record and games, its addresses left out;
        raises :class:`NotInArchive` for a name nobody holds."""
        if not NAME_PATTERN.fullmatch(name):
            raise NotInArchive("no such player")
        try:
            profile = self.service.player(name)
        except UnknownPlayer:
            raise NotInArchive("no such player") from None
        return replace(profile, addresses=[])
    def leagues(self) -> list[tuple[str, str, str]]:
        """Return every league as (name, kind, status), oldest first."""
        with self.service.unit(lock=False) as unit:
            return [(row.name, row.kind, str(row.status)) for row in leagues.all_leagues(unit)]

    def league(self, name: str) -> leagues.LeagueView:
        """Return the standings and tables of the league ``name`` (no addresses: public names only);
        raises :class:`NotInArchive` for an unknown league."""
        try:
            with self.service.unit(lock=False) as unit:
                return leagues.view(unit, name)
        except PbemError:
            raise NotInArchive(f"no league {name}") from None

    def info(self, name: str) -> GameInfo:
        """Return the game ``name`` if the archive shows it (started); raises :class:`NotInArchive`."""
        try:
            info = self.service.info(name)
        except PbemError:
            raise NotInArchive(f"no game {name}") from None
        if info.row.status == GameStatus.FORMING:
            raise NotInArchive(f"game {name} has not started")
        return info

    def seat_of_link(self, token: str, today: date | None = None) -> tuple[GameInfo, str]:
        """Return the game and seat a private link opens; raises :class:`NotInArchive` for a link that
        is malformed, forged, expired or revoked (all alike: the page shows nothing)."""
        try:
            game, seat = self.tokens.verify_link(token, self.service.key_version, today or self.clock().date())
        except PbemError:
            raise NotInArchive("no such page") from None
        info = self.info(game)
        names = {s.lower(): s for s in info.seat_names}
        if seat not in names:
            raise NotInArchive("no such page")
        return info, names[seat]

    def last_turn(self, info: GameInfo) -> int:
        """Return the newest step of the game (0: nothing resolved yet, the opening only)."""
        with self.service.db.session() as session:
            return queries.last_turn(session, info.row)

    def steps(self, info: GameInfo, first: int, last: int) -> list[ReportInput]:
        """Return the report input of the steps ``first`` to ``last`` (0 = the opening, then each resolved
        turn): one read of those turns' records, whatever the length of the game."""
        game, row = info.rules, info.row
        steps = []
        if first <= 0 <= last:
            state = game.setup(info.seat_names, row.options, GameRng(row.seed))
            steps.append(ReportInput(row.name, game, state, 0, [], [], _phase(game, state), game.outcome(state)))
        with self.service.db.session() as session:
            for record in queries.history(session, row, since=max(first, 1), until=last):
                state = game.load(record.state)
                steps.append(ReportInput(
                    row.name, game, state, record.turn, [Event.from_json(e) for e in record.reported_events], record.nmr,
                    _phase(game, state), game.outcome(state), passed=record.passed,
                ))
        return steps

    def step(self, info: GameInfo, turn: int) -> ReportInput:
        """Return the report input of one step (0 = the opening); raises :class:`NotInArchive`."""
        found = self.steps(info, turn, turn)
        if not found:
            raise NotInArchive(f"game {info.name} has no turn {turn}")
        return found[0]

    def window(self, info: GameInfo, page: int | None) -> Window:
        """Return which steps page ``page`` of the history holds (None: the page of the newest step);
        raises :class:`NotInArchive` for a page past the end."""
        last = self.last_turn(info)
        pages = last // STEPS_PER_PAGE + 1
        page = pages - 1 if page is None else page
        if not 0 <= page < pages:
            raise NotInArchive(f"game {info.name} has no page {page}")
        first = page * STEPS_PER_PAGE
        return Window(page, pages, first, min(last, first + STEPS_PER_PAGE - 1), last)

    def pages(self, info: GameInfo, seat: str | None, window: Window, board_url: Callable[[int], str],
              own_url: Callable[[int], str]) -> list[TurnPage]:
        """Return the steps of ``window`` as ``seat`` (None: the public) sees them, each with its text report,
        the board (at ``board_url(turn)``) and, for a seat, its own picture (at ``own_url(turn)``) when it
        has one."""
        pages = []
        for step in self.steps(info, window.first, window.last):
            pictures = [PagePicture(board_url(step.turn), f"{info.rules.title} {info.name}, {board_moment(step.turn)}")]
            own = self.own_svg(step, seat)
            if own is not None:
                pictures.append(PagePicture(own_url(step.turn), alt_text(own)))
            pages.append(TurnPage(step.turn, render_report(step, seat), pictures))
        return pages

    @staticmethod
    def board_svg(step: ReportInput) -> str:
        """Return the board of one step: the same picture for every reader."""
        return board_svg(step.rules, step.state, moment=board_moment(step.turn))

    @staticmethod
    def own_svg(step: ReportInput, seat: str | None) -> str | None:
        """Return the picture of what only ``seat`` sees at one step (None: nothing of its own, or the public)."""
        return own_svg(step.rules, step.state, seat, moment=board_moment(step.turn))


def _phase(rules: Any, state: Any) -> Any:
    return None if rules.outcome(state) is not None else rules.phase(state)

