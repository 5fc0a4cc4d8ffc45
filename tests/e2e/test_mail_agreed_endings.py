"""Endings the table agrees on, by real mail: every seat's DRAW ends a game as a draw, a proposal not
agreed by the turn's end lapses and the next report says so without a name, NODRAW withdraws a vote,
a cooperative team concedes, and a game whose rule book allows no agreed end refuses DRAW. Votes stay
secret: no reply, notice or report tells who voted before all agree."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from mail_games import PLAYERS, OpenGame, eventually, open_game, prove_quiet
from mail_harness import MailHarness, Person, running_service
from mail_secrets import create_and_join

from pbem.core.chain import without_record
from pbem.sandbox.mailclient import ReceivedMail, read_mail

NAMES_OF_OTHERS = {seat: re.compile(rf"\bseats? [{''.join(s for s in PLAYERS if s != seat)}]\b|"
                                    + "|".join(re.escape(a) for s, a in PLAYERS.items() if s != seat))
                   for seat in PLAYERS}
"""What would name another seat of the Turkey Chase game to seat ``seat``: ``seat B``, or B's address."""


def _names_nobody_else(seat: str, mail: ReceivedMail) -> None:
    found = NAMES_OF_OTHERS[seat].search(without_record(mail.body.replace("\r\n", "\n")))
    assert found is None, f"seat {seat}'s mail names {found.group(0)!r}:\n{mail.body}"


async def _a_proposes(service: MailHarness, name: str) -> tuple[OpenGame, ReceivedMail, dict[str, ReceivedMail]]:
    """Open a Turkey Chase game ``name`` by mail and have seat A reply DRAW to its report; return the game,
    A's answer and the notice each seat got (A's too), once the GM's notice came as well."""
    game = await open_game(service, name)
    await game.players["A"].reply(game.reports["A"], "DRAW\n")
    answer, own_notice = sorted(await game.players["A"].receive(2), key=lambda mail: "proposed" in mail.subject)
    notices = {"A": own_notice} | {seat: await game.players[seat].last() for seat in "BCD"}
    assert "A draw was proposed in turn 1" in (await game.gm.last()).body
    return game, answer, notices


def test_every_seats_draw_ends_the_game_and_nobody_learns_who_voted_before(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game, answer, notices = await _a_proposes(service, "dr-1")
            a, b, c, d = (game.players[s] for s in "ABCD")
            assert "DRAW: you proposed a draw in turn 1 of dr-1" in answer.body, answer.body
            _names_nobody_else("A", answer)
            for seat, notice in notices.items():  # the proposer's too: nobody can tell it by a notice not got
                assert notice.subject == "[dr-1] A draw was proposed", notice.subject
                assert "who proposed it stays secret" in notice.body and "reply to your newest turn report with DRAW" \
                    in notice.body
                _names_nobody_else(seat, notice)
            assert len({notice.body for notice in notices.values()}) == 1  # the proposer's is no different

            await b.reply(game.reports["B"], "DRAW\n")
            agreed = await b.last()
            assert "DRAW: you agreed to a draw in turn 1 of dr-1" in agreed.body and "nor how many" in agreed.body
            _names_nobody_else("B", agreed)
            await prove_quiet(service, a, c, d)  # a vote that joins a proposal tells nobody
            await c.reply(game.reports["C"], "DRAW\n")
            _names_nobody_else("C", await c.last())
            assert service.runner.info("dr-1").outcome is None

            await d.reply(game.reports["D"], "DRAW\n")
            mails = await d.receive(2)
            ended = next(m for m in mails if "Final report" not in m.subject)
            assert "every seat still playing agreed, so game dr-1 is over. Draw agreed by A, B, C, D." in ended.body
            for person in (a, b, c, game.gm):
                final = await person.last()
                assert final.subject == "[dr-1] Final report", final.subject
            for mail in (final, next(m for m in mails if "Final report" in m.subject)):
                assert "The game is over. Draw agreed by A, B, C, D." in mail.body
                assert "agreed to end the game in turn 1" in mail.body
            await a.send("STATUS dr-1\n")
            assert "Draw agreed by A, B, C, D" in (await a.last()).body

    asyncio.run(asyncio.wait_for(scenario(), timeout=150))


def test_a_proposal_not_agreed_lapses_at_the_turns_end_and_nodraw_withdraws_a_vote(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game, _, _ = await _a_proposes(service, "dr-2")
            a, b, c, d = (game.players[s] for s in "ABCD")
            await b.reply(game.reports["B"], "DRAW\n")
            await b.last()
            await b.reply(game.reports["B"], "NODRAW\n")
            withdrawn = await b.last()
            assert "NODRAW: your DRAW of turn 1 of dr-2 is withdrawn" in withdrawn.body, withdrawn.body
            _names_nobody_else("B", withdrawn)
            await c.reply(game.reports["C"], "DRAW\n")
            await d.reply(game.reports["D"], "DRAW\n")
            assert "you agreed to a draw" in (await c.last()).body
            assert "you agreed to a draw" in (await d.last()).body
            assert service.runner.info("dr-2").outcome is None  # seat B withdrew: not every seat agrees

            await game.gm.send(f"GM dr-2 {game.gm_password}\nPROCESS\n")
            await game.gm.receive(2)  # the answer and the public report of turn 2
            reports = {}
            for seat, person in game.players.items():
                report = reports[seat] = await person.last()
                assert report.subject == "[dr-2] Turn 2", report.subject
                line = next(line for line in report.body.splitlines() if "proposed" in line)
                assert "A draw was proposed in turn 1, but not every seat still playing agreed before the turn " \
                       "ended: the proposal lapsed" in line, line
                _names_nobody_else(seat, report)
            assert service.runner.info("dr-2").outcome is None
            await a.reply(reports["A"], "NODRAW\n")
            assert "you had no DRAW or CONCEDE in turn 2" in (await a.last()).body  # the votes lapsed with turn 1

    asyncio.run(asyncio.wait_for(scenario(), timeout=150))


async def _seat_one_says(service: MailHarness, kind: str, name: str, words: str,
                         answers: int) -> tuple[list[ReceivedMail], dict[str, tuple[Person, str]]]:
    """Start a two-seat game of ``kind`` by mail, have seat 1 send ``words`` after SIGNON, and return the
    ``answers`` mails seat 1 gets then (the reply first), with the seats and their passwords."""
    game = await create_and_join(service, kind, name, 2, "seed=3 turn_hours=0")
    await game.gm.send(f"GM {name} {game.gm_password}\nSTART\n")
    await eventually(lambda: service.runner.info(name).phase is not None)
    for person, _ in game.seats.values():  # each seat's opening report is in before seat 1 speaks
        while not any(read_mail(mail.raw).subject == f"[{name}] Turn 1"
                      for mail in await service.servers.inbox(person.address)):
            await asyncio.sleep(0.05)
        person.inbox.seen = len(await service.servers.inbox(person.address))
    one, password = game.seats["1"]
    await one.send(f"SIGNON {name} 1 {password}\n{words}\n")
    got = sorted(await one.receive(answers), key=lambda mail: not mail.subject.lower().startswith("re:"))
    return got, game.seats


def test_a_cooperative_team_concedes_and_cannot_draw(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            (answer, own_notice), seats = await _seat_one_says(service, "epic-quest", "eq-1", "DRAW\nCONCEDE", 2)
            (one, _), (two, two_password) = seats["1"], seats["2"]
            assert "The Epic Quest is cooperative: the team cannot draw" in answer.body, answer.body
            assert "CONCEDE: you proposed a concession in turn 1 of eq-1" in answer.body, answer.body
            notice = await two.last()
            assert notice.subject == own_notice.subject == "[eq-1] A concession was proposed"
            assert notice.body == own_notice.body and "seat 1" not in notice.body
            await two.send(f"SIGNON eq-1 2 {two_password}\nCONCEDE\n")
            mails = await two.receive(2)
            assert any("every seat still playing agreed, so game eq-1 is over. Nobody wins: the team conceded."
                       in m.body for m in mails), [m.body for m in mails]
            final = await one.last()
            assert final.subject == "[eq-1] Final report"
            assert "Nobody wins: the team conceded." in final.body and "agreed to concede" in final.body
            info = service.runner.info("eq-1")
            assert info.outcome is not None and info.outcome.agreed_by == ("1", "2")

    asyncio.run(asyncio.wait_for(scenario(), timeout=120))


def test_draw_is_refused_in_a_game_whose_rule_book_allows_no_agreed_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            (answer,), seats = await _seat_one_says(service, "toe-sap-fungus", "ts-1", "DRAW", 1)
            (one, _), (two, _) = seats["1"], seats["2"]
            assert "Johnny and the Toe-Sap Fungus allows no agreed end" in answer.body, answer.body
            assert "there can only be one toe-sap hero!" in answer.body
            await prove_quiet(service, one, two)  # nothing was proposed
            assert service.runner.info("ts-1").outcome is None
            await one.send("HELP toe-sap-fungus\n")
            assert "Ending by agreement: none." in (await one.last()).body
            await one.send("HELP GAMES\n")
            games = (await one.last()).body
            assert re.search(r"toe-sap-fungus .*agreed end: none", games) and re.search(r"epic-quest .*agreed end: "
                                                                                        "CONCEDE", games)

    asyncio.run(asyncio.wait_for(scenario(), timeout=120))
