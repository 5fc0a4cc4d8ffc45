"""A web archive over a real SQLite database with games in several states, served on 127.0.0.1
(the ``site`` fixture of tests/web)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date

from pbem.mail.outbound.tokens import ReplyTokens
from pbem.mail.running.daemon import reply_tokens
from pbem.service import league_steps, leagues
from pbem.service.api import GameService
from pbem.service.players import register
from pbem.store import Database
from pbem.web.app import make_app
from pbem.web.server import WebServer

TC_SEATS = {"A": "alice@example.org", "B": "bob@example.org", "C": "carol@example.org", "D": "dave@example.org"}
TP_SEATS = {"1": "ann@example.org", "2": "ben@example.org"}


@dataclass
class Site:
    """A running archive: its base URL, the runner over its database and the link signer."""

    url: str
    runner: GameService
    tokens: ReplyTokens

    def link(self, game: str, seat: str, *, issued: date | None = None, version: int = 1) -> str:
        """The private link of ``seat`` of ``game`` as a mail would carry it."""
        return f"{self.url}/seat/{self.tokens.link_token(game, seat, version, issued or date.today())}"


def play_turns(runner: GameService, game: str, turns: int) -> None:
    """Resolve ``turns`` turns of ``game`` with the NMR defaults (or until it ends)."""
    for _ in range(turns):
        if runner.info(game).outcome is not None:
            return
        runner.resolve(game)


def play_league(runner: GameService, name: str, players: list[str], *,
                registered: Mapping[str, str] | None = None) -> leagues.LeagueView:
    """Create the league ``name`` (top-of-the-temple, swiss, 2 rounds, tables of 4) of ``players`` (those in
    ``registered`` under the names it gives them), end its first round's games (the leaders win; round 2 is
    seated) and return its view."""
    with runner.unit() as unit:
        leagues.create(unit, name, "top-of-the-temple", {"format": "swiss", "rounds": "2", "table": "4"})
        for address in players:
            leagues.join(unit, name, address)
        for address, player in (registered or {}).items():
            register(unit, address, player)
        leagues.start(unit, name)
    league_steps.run_steps(runner.unit, name)  # the clock's steps: round 1 seated
    with runner.unit(lock=False) as unit:
        games = leagues.round_games(unit, name)
    for game in games:
        runner.end(game)
    league_steps.run_steps(runner.unit, name)  # round 2 is seated
    with runner.unit(lock=False) as unit:
        return leagues.view(unit, name)


def serve_site(db: Database) -> Iterator[Site]:
    """Serve a web archive serving: tc-1 (turkey chase, 3 turns), tp-1 (three pyramids, 4 turns), f-1 (forming),
    tp-end (three pyramids played to its end)."""
    runner = GameService(db)
    runner.create_game("turkey-chase", "tc-1", seats=TC_SEATS, seed=5)
    play_turns(runner, "tc-1", 3)
    runner.create_game("three-pyramids", "tp-1", seats=TP_SEATS, seed=7)
    play_turns(runner, "tp-1", 4)
    runner.create_game("fungus", "f-1", seats={}, players=2)
    runner.create_game("three-pyramids", "tp-end", seats=TP_SEATS, seed=3)
    play_turns(runner, "tp-end", 200)
    tokens = reply_tokens(db)
    server = WebServer(make_app(runner, tokens), "127.0.0.1", 0)
    server.open()
    try:
        yield Site(server.url, runner, tokens)
    finally:
        server.close()
