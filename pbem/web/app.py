"""The web archive over HTTP (aiohttp): read-only pages, server-rendered from templates and drawings.

aiohttp is the web server because it runs on asyncio (``pbem serve --web``
serves the pages from the daemon's process, in a thread and event loop of
their own: :mod:`pbem.web.server`, which also bounds the connections), and
``pbem web`` runs it alone; it is mature and well kept, and needs no
framework around it. Pages:

``/``                          the games: kind, status, turn, deadline, seats (never an address)
``/players``                   the registered players: name, games played and finished, reliability
``/player/{name}``             one player's record and games (what the player made public by REGISTER:
                               its name and record; its addresses never)
``/style.css``                 the stylesheet of every page: the HTML mail's frame (type, column, colours)
``/game/{game}``               the newest steps of a game: public report and picture, step by step
``/game/{game}?page=N``        the steps 20N to 20N+19 (each page shows at most 20: bounded work)
``/game/{game}/{turn}.svg``    the board after a turn (0: the opening), the same for every reader
``/seat/{token}``              a seat's own view and history, opened by the private link in its mail
                               (``?page=N`` as for a game)
``/seat/{token}/{turn}.svg``   what only the seat sees after a turn (its hand, its secret colour), when
                               it has anything of its own then

``/unsubscribe/{token}``         the one-click unsubscribe of every mail's List-Unsubscribe header: a GET
                               shows a button, a POST stops all mail to the token's address
                               (:mod:`pbem.web.unsubscribe`)

With an :class:`~pbem.web.ops.OpsView` it also serves ``/healthz`` and ``/metrics`` for the operator
(see :mod:`pbem.web.ops`).

A forged, expired or revoked link gets the same 404 as a page that does not
exist, with no data. Nothing here writes to the database but the unsubscribe POST.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import datetime
from functools import cache

from aiohttp import web

from pbem.clock import utcnow
from pbem.mail.outbound.tokens import NUMBER_PATTERN, ReplyTokens
from pbem.numbering import game_standing
from pbem.reports import environment
from pbem.service.api import GameService
from pbem.service.snapshot import GameInfo
from pbem.store.tables import GameStatus
from pbem.web import unsubscribe
from pbem.web.archive import Archive, NotInArchive, deadline_words
from pbem.web.ops import OpsView, add_ops_routes

_ARCHIVE = web.AppKey("archive", Archive)
STATUS_WORDS = {
    GameStatus.FORMING: "forming: waiting for players to join and for the GM to start it",
    GameStatus.ACTIVE: "running: the turns take orders and resolve",
    GameStatus.PAUSED: "paused: the GM stopped the clock",
    GameStatus.FINISHED: "finished: the game is over",
}
"""What a game's status means, as its page says it (the game list shows the word before the colon)."""
_CANONICAL_NUMBER = re.compile(NUMBER_PATTERN)
"""A turn or page number in an address: only as pbem writes it, so each page has one address; anything else
is the 404 of a page that does not exist."""
_STYLE_CACHE = "public, max-age=3600"
_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # a private link must not leak to other sites
    "Cache-Control": "no-store",
}


def make_app(service: GameService, tokens: ReplyTokens, *, clock: Callable[[], datetime] = utcnow,
             ops: OpsView | None = None) -> web.Application:
    """Return the web archive application over ``service``'s database, checking links with ``tokens``; with
    ``ops``, also the operator's ``/healthz`` and ``/metrics``."""
    app = web.Application(middlewares=[_not_found])
    app[_ARCHIVE] = Archive(service, tokens, clock=clock)
    app[unsubscribe.SERVICE], app[unsubscribe.TOKENS] = service, tokens
    app.add_routes([
        web.get("/", game_list),
        web.get("/players", player_list),
        web.get("/player/{name}", player_page),
        web.get("/style.css", stylesheet),
        web.get("/game/{game}", game_page),
        web.get("/league/{league}", league_page),
        web.get(f"/game/{{game}}/{{turn:{NUMBER_PATTERN}}}.svg", game_picture),
        web.get("/seat/{token}", seat_page),
        web.get(f"/seat/{{token}}/{{turn:{NUMBER_PATTERN}}}.svg", seat_picture),
        web.get("/unsubscribe/{token}", unsubscribe.unsubscribe_page),
        web.post("/unsubscribe/{token}", unsubscribe.unsubscribe),
    ])
    if ops is not None:
        add_ops_routes(app, ops)
    return app


@web.middleware
async def _not_found(request: web.Request, handler: Callable[..., object]) -> web.StreamResponse:
    """Every page the archive does not show (and every bad link) is the same plain 404."""
    try:
        response = await handler(request)  # type: ignore[misc]
    except (NotInArchive, web.HTTPNotFound):
        response = _html(_page("not-found.html.j2"), status=404)
    assert isinstance(response, web.StreamResponse)
    for name, value in _HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _page(template: str, **context: object) -> str:
    return environment(html=True).get_template(f"web/{template}").render(**context)


@cache
def _stylesheet() -> str:
    """The archive's stylesheet (``web/style.css.j2``), rendered once."""
    return environment(html=True).get_template("web/style.css.j2").render()


async def stylesheet(request: web.Request) -> web.Response:
    """The stylesheet of every page: the HTML mail's frame and the pages' own rules."""
    return web.Response(text=_stylesheet(), content_type="text/css", charset="utf-8",
                        headers={"Cache-Control": _STYLE_CACHE})


def _html(text: str, *, status: int = 200) -> web.Response:
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


def _svg(text: str) -> web.Response:
    return web.Response(text=text, content_type="image/svg+xml", charset="utf-8",
                        headers={"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})


# Pages are built in a worker thread (of the web server's few, see pbem.web.server): reading the database
# and rendering a long history must not hold up the event loop, which answers every connection.


async def game_list(request: web.Request) -> web.Response:
    """The list of games."""
    archive = request.app[_ARCHIVE]
    return _html(await asyncio.to_thread(lambda: _page("games.html.j2", games=archive.games(), status_words=STATUS_WORDS,
                                                       leagues=archive.leagues())))


async def league_page(request: web.Request) -> web.Response:
    """A league's standings (points, record, ratings) and its tables, with links to their games."""
    archive = request.app[_ARCHIVE]
    name = request.match_info["league"]
    return _html(await asyncio.to_thread(lambda: _page("league.html.j2", league=archive.league(name))))


async def player_list(request: web.Request) -> web.Response:
    """The registered players."""
    archive = request.app[_ARCHIVE]
    return _html(await asyncio.to_thread(lambda: _page("players.html.j2", players=archive.players())))


async def player_page(request: web.Request) -> web.Response:
    """One registered player's record and games."""
    archive = request.app[_ARCHIVE]
    name = request.match_info["name"]
    return _html(await asyncio.to_thread(lambda: _page("player.html.j2", profile=archive.player(name))))


Reader = Callable[[Archive], "tuple[GameInfo, str | None]"]
"""Which game a request is about and whose view it shows (None: the public)."""


async def game_page(request: web.Request) -> web.Response:
    """Every step of one game, public view."""
    name = request.match_info["game"]
    return await _history(request, lambda archive: (archive.info(name), None), f"/game/{name}")


async def game_picture(request: web.Request) -> web.Response:
    """The board after one turn."""
    archive = request.app[_ARCHIVE]
    turn = int(request.match_info["turn"])

    def build() -> str:
        return archive.board_svg(archive.step(archive.info(request.match_info["game"]), turn))

    return _svg(await asyncio.to_thread(build))


async def seat_page(request: web.Request) -> web.Response:
    """One seat's own view and history, by its private link."""
    token = request.match_info["token"]
    return await _history(request, lambda archive: archive.seat_of_link(token), f"/seat/{token}")


async def seat_picture(request: web.Request) -> web.Response:
    """What only one seat sees after one turn, by its private link (404 when it has nothing of its own)."""
    archive = request.app[_ARCHIVE]
    turn = int(request.match_info["turn"])

    def build() -> str:
        info, seat = archive.seat_of_link(request.match_info["token"])
        own = archive.own_svg(archive.step(info, turn), seat)
        if own is None:
            raise NotInArchive(f"seat {seat} has no picture of its own after turn {turn}")
        return own

    return _svg(await asyncio.to_thread(build))


async def _history(request: web.Request, reader: Reader, base: str) -> web.Response:
    archive = request.app[_ARCHIVE]
    page = request.query.get("page")
    if page is not None and not _CANONICAL_NUMBER.fullmatch(page):
        raise NotInArchive("no such page")

    def build() -> str:
        info, seat = reader(archive)
        window = archive.window(info, None if page is None else int(page))
        pages = archive.pages(info, seat, window, lambda turn: f"/game/{info.name}/{turn}.svg",
                              lambda turn: f"{base}/{turn}.svg")
        return _page("game.html.j2", info=info, pages=pages, seat=seat, window=window, base=base,
                     standing=game_standing(info.row), status_words=STATUS_WORDS,
                     deadline=deadline_words(info.row))

    return _html(await asyncio.to_thread(build))


def parse_listen(text: str) -> tuple[str, int]:
    """Return host and port of ``HOST:PORT`` (``[::1]:8080`` for IPv6); raises ValueError."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 <= int(port) < 65536:
        raise ValueError(f"expected HOST:PORT such as 127.0.0.1:8080, not {text!r}")
    return host.strip("[]"), int(port)
