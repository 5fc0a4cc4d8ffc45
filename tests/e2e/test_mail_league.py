"""A whole league by real mail: a GM creates a Swiss league of Top of the Temple (the shortest game its
robot players finish) for 8 players at tables of 4 over 3 rounds, the players join by mail, the GM starts
it, and robot players play every table by plain replies to their reports; the service seats each round
itself when the last table of the one before ends. Between rounds 1 and 2 the GM replaces a player, who
hands the seat of round 2 to the newcomer (with the league password). After every round each member gets
the standings and the tables (aligned text tables, and HTML tables unless it asked for SET TEXTONLY ON),
players named by their registered names (else a stand-in), its own row and seats marked and nobody's
address shown; the GM's standings show each member's address beside its name. The final standings match
the points worked out here from the games' own outcomes; ``pbem log`` lists every step of the league."""

from __future__ import annotations

import asyncio
import re
from itertools import combinations
from pathlib import Path

import pytest
from databases import database_url
from mail_games import eventually
from mail_harness import TEST_MAIL_BUDGET, MailHarness, Person, running_service
from mail_secrets import mailbox

from pbem.cli import main
from pbem.core import GameRng
from pbem.core.protocol import OutcomeKind
from pbem.games import find_game
from pbem.mail.running.daemon import DaemonOptions
from pbem.sandbox.mailclient import ReceivedMail
from pbem.service import leagues
from pbem.service.players import display_name
from pbem.store.tables import GameRow, GameStatus

pytestmark = pytest.mark.slow

KIND = "top-of-the-temple"
PLAYERS = [f"player{i}@league.test" for i in range(1, 9)]
NEWCOMER = "newcomer@league.test"
GM = "gm@league.test"
POINTS = {"win": 3, "shared": 2, "draw": 1, "loss": 0, "defeat": 0}
QUICK = DaemonOptions(mail_budget=TEST_MAIL_BUDGET, idle_recheck=0.1, send_retry_min=0.5, clock_interval=0.1)
MAIL_TIMEOUT = 30.0


async def _wait_mail(service: MailHarness, person: Person, wanted: str, *, count: int = 1) -> list[ReceivedMail]:
    """Wait until ``person`` holds ``count`` mails whose subject is ``wanted``; return them."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAIL_TIMEOUT
    while True:
        found = [m for m in await mailbox(service, person) if m.subject == wanted]
        if len(found) >= count:
            return found
        assert loop.time() < deadline, (f"{person.address} got no mail {wanted!r}, only "
                                        f"{[m.subject for m in await mailbox(service, person)]}")
        await asyncio.sleep(0.05)


def _current_games(service: MailHarness) -> list[str]:
    with service.runner.unit(lock=False) as unit:
        league = leagues.league_row(unit, "spring")
        return [unit.session.get(GameRow, t.game_id).name for t in leagues.tables_of(unit, league, league.round)
                if t.game_id]


async def _play(service: MailHarness, people: dict[str, Person], game: str, robots: GameRng) -> None:
    """Play ``game`` to its end: each seat that owes a choice replies to its newest mail asking for orders
    (its turn report, or the welcome of a newcomer) with orders a robot picked."""
    runner, rules = service.runner, find_game(KIND)
    for _ in range(100):
        info = runner.info(game)
        if info.row.status == GameStatus.FINISHED:
            return
        assert info.phase is not None
        turn = info.row.turn
        for seat in (s for s in info.phase.seats if rules.forced_orders(info.state, s) is None):
            holder = people[next(s.address for s in info.seats if s.name == seat)]
            asking = [f"[{game}] Turn {turn}", f"[{game}] You take over a seat"]
            mail = (await _wait_any(service, holder, asking))[-1]
            orders = rules.sample_orders(info.state, seat, robots)
            await holder.reply(mail, "\n".join(str(order) for order in orders) + "\n")
        await eventually(lambda: runner.info(game).row.turn > turn or runner.info(game).row.status
                         == GameStatus.FINISHED, timeout=MAIL_TIMEOUT)
    raise AssertionError(f"{game} did not end")


async def _wait_any(service: MailHarness, person: Person, subjects: list[str]) -> list[ReceivedMail]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + MAIL_TIMEOUT
    while True:
        found = [m for m in await mailbox(service, person) if m.subject in subjects]
        if found:
            return found
        assert loop.time() < deadline, f"{person.address} got none of {subjects}"
        await asyncio.sleep(0.05)


def test_a_swiss_league_by_mail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = database_url(tmp_path)

    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK, db_url=db) as service:
            gm = service.person(GM)
            people = {address: service.person(address) for address in [*PLAYERS, NEWCOMER]}
            await gm.send(f"LEAGUE CREATE spring {KIND} format=swiss rounds=3 table=4 "
                          "points=win:3,shared:2,draw:1 turn_hours=24\n")
            created = await gm.last()
            assert "Created league spring" in created.body, created.body
            password = re.search(r"league password is (\S+)\.", created.body)[1]  # type: ignore[index]
            await people[PLAYERS[0]].send("REGISTER Ace\n")  # the standings name players by their player names
            assert "you are Ace" in (await people[PLAYERS[0]].last()).body
            await people[NEWCOMER].send("REGISTER Newbie\n")
            assert "you are Newbie" in (await people[NEWCOMER].last()).body
            await people[PLAYERS[1]].send("SET TEXTONLY ON\n")
            assert "TEXTONLY" in (await people[PLAYERS[1]].last()).body
            for address in PLAYERS:
                await people[address].send("LEAGUE JOIN spring\n")
                assert "joined league spring" in (await people[address].last()).body
            await people[PLAYERS[0]].send("LEAGUE START spring\n", subject="not mine")
            refused = (await _wait_mail(service, people[PLAYERS[0]], "Re: not mine"))[0].body
            assert "only the league's GM may" in refused, refused
            await gm.send("LEAGUE START spring\n", subject="start")  # from the GM's own address: no password
            started = (await _wait_mail(service, gm, "Re: start"))[0].body
            assert "starting: 2 tables are being seated; you will be told when every table is seated" in started
            seated = (await _wait_mail(service, gm, "[spring] Round 1 started: 2 tables"))[0].body
            assert f"spring-1-1: Ace <{PLAYERS[0]}>, " in seated and "spring-1-2: " in seated, seated
            robots = GameRng(2024)
            for round_number in (1, 2, 3):
                games = _current_games(service)
                assert games == [f"spring-{round_number}-1", f"spring-{round_number}-2"]
                for game in games:
                    await _play(service, people, game, robots)
                members = PLAYERS if round_number == 1 else [*PLAYERS[:7], NEWCOMER]
                names = _names(service, members)
                for address in members:
                    mail = (await _wait_mail(service, people[address],
                                             f"[spring] Standings after round {round_number}"))[-1]
                    assert "Ace" in mail.body and "@league.test" not in mail.body + (mail.html or "")
                    own = [line for line in mail.body.splitlines() if line.startswith("→")]
                    assert len(own) == 1 and f" {names[address]} (you) " in own[0], mail.body  # its own row
                    assert f"  {games[0]}  " in mail.body.split("\r\nTables\r\n")[1]  # the text holds the tables
                    if address == PLAYERS[1]:
                        assert mail.html is None  # SET TEXTONLY ON
                    else:
                        assert mail.html is not None and '<table class="standings">' in mail.html
                        seated = min(round_number + 1, 3)  # the rounds played and the one just seated
                        assert mail.html.count("(you)</strong>") == 1 + seated  # its row and its seats
                        assert f"<strong>{names[address]} (you)</strong>" in mail.html
                to_gm = (await _wait_mail(service, gm, f"[spring] Standings after round {round_number}"))[-1]
                for address in members:  # the GM, who hands places over by address, sees who is who
                    assert f"{names[address]} <{address}>" in to_gm.body
                    assert f"{names[address]} &lt;{address}&gt;" in (to_gm.html or "")
                assert "(you)" not in to_gm.body
                if round_number == 1:  # between rounds: the GM hands player8's place to the newcomer
                    await people[NEWCOMER].send("LEAGUE JOIN spring\n")  # refused (started), but it wrote
                    assert "LEAGUE REPLACE" in (await people[NEWCOMER].last()).body
                    await gm.send(f"LEAGUE REPLACE spring {PLAYERS[7]} {NEWCOMER} {password}\n",
                                  subject="replace")
                    answer = (await _wait_mail(service, gm, "Re: replace"))[0]
                    handed = re.search(rf"{NEWCOMER} takes {PLAYERS[7]}'s place in league spring, and its seats in "
                                       r"(spring-2-[12])\.", answer.body)
                    assert handed is not None, answer.body
                    welcome = (await _wait_mail(service, people[NEWCOMER], f"[{handed[1]}] You take over a seat"))[0]
                    assert "Your password is" in welcome.body
            await eventually(lambda: _status(service) == "finished")
            # no standings mail after round 1 reached the replaced player
            assert not [m for m in await mailbox(service, people[PLAYERS[7]])
                        if m.subject == "[spring] Standings after round 2"]
            _check_standings(service)
            await people[PLAYERS[0]].send("LEAGUE STANDINGS spring\n", subject="standings")
            answer = (await _wait_mail(service, people[PLAYERS[0]], "Re: standings"))[0].body
            assert "round 3 of 3 (finished)" in answer and "Newbie" in answer and "± " in answer
            assert "Ace (you)" in answer and "@league.test" not in answer
            await gm.send("LEAGUE STANDINGS spring\n", subject="gm standings")
            answer = (await _wait_mail(service, gm, "Re: gm standings"))[0].body
            assert f"Newbie <{NEWCOMER}>" in answer and f"Ace <{PLAYERS[0]}>" in answer

    asyncio.run(scenario())
    capsys.readouterr()
    assert main(["log", "spring", "--db", db]) == 0
    log = capsys.readouterr().out
    for step in ("CREATE", "JOIN", "START", "SEAT", "RESULT", "ROUND", "REPLACE", "FINISH"):
        assert f"  {step}  " in log, step
    assert f"{PLAYERS[7]}'s place handed to {NEWCOMER}" in log and log.count("  SEAT  ") == 3


def _names(service: MailHarness, addresses: list[str]) -> dict[str, str]:
    """The name each of ``addresses`` goes by in the standings: its registered one, else its stand-in."""
    with service.runner.unit(lock=False) as unit:
        return {address: display_name(unit.session, address) for address in addresses}


def _status(service: MailHarness) -> str:
    with service.runner.unit(lock=False) as unit:
        return str(leagues.league_row(unit, "spring").status)


def _check_standings(service: MailHarness) -> None:
    """The final standings hold the points worked out here from each game's outcome and its seats."""
    expected: dict[str, float] = {}
    with service.runner.unit(lock=False) as unit:
        league = leagues.league_row(unit, "spring")
        members = {m.id: m.address for m in leagues.members_of(unit, league)}
        for table in leagues.tables_of(unit, league):
            info = unit.snapshot(unit.session.get(GameRow, table.game_id))
            outcome = info.outcome
            assert outcome is not None
            for seat, member in table.seats.items():
                kind = ("draw" if outcome.kind is OutcomeKind.DRAW else "defeat" if outcome.kind is OutcomeKind.LOSS
                        else ("win" if outcome.kind is OutcomeKind.WIN else "shared") if seat in outcome.winners
                        else "loss")
                name = display_name(unit.session, members[member])  # the names the standings show
                expected[name] = expected.get(name, 0) + POINTS[kind]
        view = leagues.view(unit, "spring")
    assert {line.name: line.points for line in view.standings} == expected
    with service.runner.unit(lock=False) as unit:
        league = leagues.league_row(unit, "spring")
        seated = {r: [list(t.seats.values()) for t in leagues.tables_of(unit, league, r)] for r in (1, 2)}
    met = {frozenset(p) for table in seated[1] for p in combinations(table, 2)}
    assert sum(frozenset(p) in met for table in seated[2] for p in combinations(table, 2)) == 4  # the fewest
    assert sum(line.played for line in view.standings) == 24
    assert view.standings[0].points == max(expected.values())

