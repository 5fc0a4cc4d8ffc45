"""pbem writes only to addresses that asked (issue 23), through real mail: invitations instead of
games mailed to strangers, STOP and the List-Unsubscribe headers, the bound on what one mail causes to
others, and repeated GM requests folded."""

from __future__ import annotations

import asyncio
import email
import re
from email.policy import default
from pathlib import Path
from urllib.parse import unquote

from mail_games import GM_PLAYER, accept_invitations, has_written, open_game, prove_quiet
from mail_harness import GM_ADDRESS, Person, running_service

from pbem.mail.outbound.notices import MAX_MAIL_TO_OTHERS
from pbem.sandbox.mailclient import ReceivedMail
from pbem.service.consent import MAX_INVITATIONS_PER_DAY


def _header(mail: ReceivedMail, name: str) -> str | None:
    value = email.message_from_bytes(mail.raw, policy=default)[name]
    return " ".join(str(value).split()) if value is not None else None


async def _create(gm: Person, game: str, seats: dict[str, str], *, kind: str = "race-on-the-river") -> str:
    """The GM creates ``game`` seating ``seats`` by mail; return the GM password."""
    lines = "".join(f"SEAT {seat} {address}\n" for seat, address in seats.items())
    await gm.send(f"CREATE {kind} {game} players={len(seats)}\n{lines}")
    answer = await gm.last()
    found = re.search(r"GM password is (\S+?):", answer.body)
    assert found is not None, answer.body
    return found.group(1)


def test_a_stranger_seated_by_mail_gets_one_invitation_and_nothing_else(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            spammer = service.person("spammer@outside.test")
            victims = [f"victim{n}@elsewhere.test" for n in range(18)]
            mail = ""
            for number in range(3):
                seats = "".join(f"SEAT {seat} {victims[6 * number + seat - 1]}\n" for seat in range(1, 7))
                mail += f"CREATE race-on-the-river spam{number} players=6\n{seats}START\nSIGNOFF\n"
            await spammer.send(mail)
            answer = await spammer.last()
            assert answer.body.count("cannot start") == 3, answer.body
            assert "seat 1 (victim0@elsewhere.test)" in answer.body and "did not accept the invitation" in answer.body
            people = [service.person(victim) for victim in victims]
            for person in people:
                invitation = await person.last()
                assert invitation.subject.startswith("[spam") and "You are invited to seat" in invitation.subject
                assert "spammer@outside.test seated you" in invitation.body
                assert "reply to this mail" in invitation.body and "JOIN spam" in invitation.body
                assert "reply STOP" in invitation.body
                assert b"image/png" not in invitation.raw, "an invitation carries no report"
            await prove_quiet(service, spammer, *people)
            # 829 bytes of mail used to cause 36 mails to 18 strangers; now one small invitation each
            assert [len(await service.servers.inbox(victim)) for victim in victims] == [1] * len(victims)

    asyncio.run(scenario())


def test_an_invitation_is_accepted_by_a_reply_or_join_and_then_the_game_starts(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person(GM_PLAYER)
            ann, ben = service.person("ann@players.test"), service.person("ben@players.test")
            password = await _create(gm, "r1", {"1": ann.address, "2": ben.address})
            await gm.send(f"GM r1 {password}\nSTART\n")
            refused = await gm.last()
            assert "cannot start" in refused.body and "seat 1 (ann@players.test), seat 2 (ben@players.test)" in refused.body
            invitation = await ann.last()
            await ann.reply(invitation, "Count me in!\n")
            accepted = await ann.last()
            assert "You accepted seat 1 of game r1" in accepted.body and "REFUSED" not in accepted.body
            told = await gm.last()
            assert "ann@players.test accepted seat 1 of r1" in told.body and "not accepted: 2" in told.body
            await gm.send("STATUS r1\n")
            assert "have not accepted their invitation yet (START waits for them): 2." in (await gm.last()).body
            await accept_invitations("r1", [ben])
            assert "Send START to begin" in (await gm.last()).body
            await gm.send(f"GM r1 {password}\nSTART\n")
            started = await gm.receive(2)
            assert any("Game r1 started" in mail.body for mail in started)
            for player in (ann, ben):
                notice, report = await player.receive(2)
                assert "Your password is" in notice.body and report.subject == "[r1] Turn 1"

    asyncio.run(scenario())


def test_a_gm_address_invites_a_bounded_number_of_new_addresses_a_day(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person(GM_PLAYER)
            strangers = [f"new{n}@elsewhere.test" for n in range(MAX_INVITATIONS_PER_DAY + 1)]
            games = [strangers[i : i + 6] for i in range(0, len(strangers), 6)]
            password = ""
            for number, addresses in enumerate(games):
                seats = {str(seat): address for seat, address in enumerate(addresses, start=1)}
                password = await _create(gm, f"day{number}", seats)
            answer = (await gm.inbox.all_mail())[-1]
            assert f"invited {MAX_INVITATIONS_PER_DAY} new addresses within 24 hours" in answer.body
            last, game = strangers[-1], f"day{len(games) - 1}"
            assert f"{last} was not seated" in answer.body
            assert await service.servers.inbox(last) == []
            seat = service.runner.info(game).seats[-1]
            assert seat.address is None, "the seat stays open"
            service.clock.advance(hours=25)
            await gm.send(f"GM {game} {password}\nSEAT {seat.name} {last}\n")
            assert "they are invited" in (await gm.last()).body
            assert "You are invited" in (await service.person(last).last()).subject

    asyncio.run(scenario())


def test_stop_by_mail_ends_all_mail_until_the_address_writes_again(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            carol = game.players["C"]
            await carol.send("STOP\n", subject="stop")
            confirmed = await carol.last()
            assert "pbem sends carol@players.test no more mail" in confirmed.body
            told = await game.gm.last()
            assert "carol@players.test, the holder of seat C of tc-1, sent STOP" in told.body
            assert "REPLACE C <address>" in told.body
            await game.gm.send(f"GM tc-1 {game.gm_password}\nPROCESS\n")
            await game.gm.receive(2)
            for seat in "ABD":
                assert (await game.players[seat].last()).subject == "[tc-1] Turn 2"
            await prove_quiet(service, carol)
            await carol.send("STATUS tc-1\n")
            answer, missed = sorted(await carol.receive(2), key=lambda mail: mail.subject.startswith("[tc-1] Turn"))
            assert "Game tc-1" in answer.body and "You accepted seat C" in answer.body
            assert missed.subject == "[tc-1] Turn 2", "writing again brings the seat's newest report"
            await game.gm.send(f"GM tc-1 {game.gm_password}\nPROCESS\n")
            assert (await carol.last()).subject == "[tc-1] Turn 3", "writing again asks for mail again"

    asyncio.run(scenario())


def test_every_mail_carries_list_unsubscribe_and_its_mailto_stops_only_its_reader(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, web_url="https://pbem.example.org") as service:
            game = await open_game(service)
            dave, report = game.players["D"], game.reports["D"]
            await dave.send("HELP\n")
            for mail in (report, await dave.last()):
                header = _header(mail, "List-Unsubscribe")
                assert header is not None, mail.subject
                mailto, url = re.fullmatch(r"<mailto:([^>]+)>, <([^>]+)>", header).groups()  # type: ignore[union-attr]
                assert url.startswith("https://pbem.example.org/unsubscribe/")
                assert _header(mail, "List-Unsubscribe-Post") == "List-Unsubscribe=One-Click"
                assert _header(mail, "List-Id") is None
            address, _, query = mailto.partition("?")
            assert address == GM_ADDRESS and query.startswith("subject=")
            subject = unquote(query.removeprefix("subject="))
            # Somebody else's forged token stops nobody; the genuine one stops its reader, from any sender
            forger = service.person("forger@outside.test")
            token = subject.split()[1]
            await forger.send("", subject=f"STOP {token[:-16]}{'a' * 16}")
            assert "REFUSED" in (await forger.last()).body
            await forger.send("", subject=subject)
            assert "pbem sends dave@players.test no more mail" in (await forger.last()).body
            assert "dave@players.test, the holder of seat D of tc-1, sent STOP" in (await game.gm.last()).body
            await game.gm.send(f"GM tc-1 {game.gm_password}\nPROCESS\n")
            await game.gm.receive(2)
            await prove_quiet(service, dave)

    asyncio.run(scenario())


def test_repeated_preview_and_secrets_fold_to_one_mail_per_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            lines = "PREVIEW\nSECRETS\n" * 49
            await game.gm.send(f"GM tc-1 {game.gm_password}\n{lines}")
            mails = await game.gm.receive(3)
            subjects = sorted(mail.subject for mail in mails)
            assert subjects == ["Re: orders", "[tc-1] Preview of turn 1", "[tc-1] Secrets of turn 1"], subjects
            answer = next(mail for mail in mails if mail.subject == "Re: orders")
            assert answer.body.count("answered once above; 48 more identical answer(s) left out.") == 2, answer.body
            await prove_quiet(service, game.gm)

    asyncio.run(scenario())


def test_one_mail_causes_a_bounded_number_of_mails_to_other_addresses(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            await game.gm.send(f"GM tc-1 {game.gm_password}\n" + "EXTEND 1h\n" * 99)
            answer = await game.gm.last()
            assert f"one mail may cause at most {MAX_MAIL_TO_OTHERS}" in answer.body, answer.body
            await prove_quiet(service)
            readers = [*game.players.values(), game.gm]
            received = [len(await service.servers.inbox(p.address)) - p.inbox.seen for p in readers]
            assert sum(received) == MAX_MAIL_TO_OTHERS, received

    asyncio.run(scenario())


def test_an_address_that_wrote_before_is_seated_without_an_invitation(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            gm = service.person(GM_PLAYER)
            players = [service.person("ann@players.test"), service.person("ben@players.test")]
            for player in players:
                await has_written(player)
            password = await _create(gm, "r2", {"1": players[0].address, "2": players[1].address})
            await gm.send(f"GM r2 {password}\nSTART\n")
            assert any("Game r2 started" in mail.body for mail in await gm.receive(2))
            for player in players:
                notice, report = await player.receive(2)
                assert "Your password is" in notice.body and report.subject == "[r2] Turn 1"

    asyncio.run(scenario())
