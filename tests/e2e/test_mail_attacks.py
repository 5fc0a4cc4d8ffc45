"""Attacks a stranger can make with one mail, through the real daemon and real mail servers:
poisoned options, mail built to make a parser slow, mail that asks for a flood of work or a huge
reply, forged-looking From fields, password guessing, and a full disk. Each must fail: the
service keeps answering everyone else, and nothing a player owns changes."""

from __future__ import annotations

import asyncio
import os
import quopri
import stat
from pathlib import Path
from typing import Any

from mail_games import (
    OPENING_ORDERS,
    PLAYERS,
    OpenGame,
    eventually,
    has_written,
    inbound_row,
    open_game,
    prove_quiet,
    send_raw,
)
from mail_harness import GM_ADDRESS, MailHarness, MovableClock, running_service
from sqlalchemy import event, exc
from sqlmodel import select

from pbem.mail.commands.script import MAX_COMMANDS
from pbem.lockout import FREE_FAILURES
from pbem.mail.answering.reply import MAX_REPLY
from pbem.mail.commands.gm.create import MAX_CREATIONS_PER_DAY, MAX_CREATIONS_PER_MAIL
from pbem.mail.reading.mailstore import OVERSIZED_PREFIX
from pbem.mail.running.daemon import DaemonOptions
from pbem.store.tables import GameRow, InboundMessageRow, OutboundMessageRow, SeatRow, SettingRow

QUICK = DaemonOptions(idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.1, restart_first=0.2,
                      restart_longest=0.5)


def raw_mail(sender_field: str, body: str, *, subject: str = "hello", message_id: str = "<m1@outside.test>",
             to: str = GM_ADDRESS, extra: str = "") -> bytes:
    """A plain text mail with a From field written as given."""
    return (f"From: {sender_field}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\n{extra}"
            f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()


def seat_row(service: MailHarness, seat: str) -> SeatRow:
    """Seat ``seat`` of the game tc-1 as stored."""
    with service.daemon.db.session() as session:
        row = session.exec(select(SeatRow).where(SeatRow.name == seat)).first()
    assert row is not None
    return row


def test_options_out_of_range_are_refused_naming_the_option_and_range(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            eve = service.person("eve@outside.test")
            await eve.send("CREATE race-on-the-river evil players=2 reminder_hours=inf\n")
            answer = (await eve.last()).body
            assert "option reminder_hours='inf': give a number from 0 to 720" in answer
            assert service.runner.games() == []
            game = await open_game(service)
            await game.gm.send(f"GM tc-1 {game.gm_password}\nSET reminder_hours=nan\nSET turn_hours=-1e9\n")
            answer = (await game.gm.last()).body
            assert "option reminder_hours='nan': give a number from 0 to 720" in answer
            assert "option turn_hours='-1e9': give a number from 0 to 8760" in answer
            row = service.runner.info("tc-1").row
            assert (row.reminder_hours, row.turn_hours) == (12.0, 48.0)

    asyncio.run(scenario())


def test_one_game_whose_clock_fails_is_set_aside_and_every_other_game_goes_on(tmp_path: Path) -> None:
    clock = MovableClock()

    async def scenario() -> None:
        async with running_service(tmp_path, clock=clock, options=QUICK) as service:
            game = await open_game(service)
            gm = game.gm
            for address in ("x@outside.test", "y@outside.test"):  # players who wrote to pbem: no invitations
                await has_written(service.person(address))
            await gm.send("CREATE race-on-the-river evil players=2 turn_hours=500\nSEAT 1 x@outside.test\nSEAT 2 y@outside.test\n"
                          "START\n")
            await gm.receive(2)
            with service.daemon.db.session() as session:  # as stored before options were checked
                evil = session.exec(select(GameRow).where(GameRow.name == "evil")).one()
                evil.reminder_hours = 1e300
                session.add(evil)
            clock.advance(hours=49)  # past the deadline of tc-1's turn 1
            notices = [mail for mail in await gm.receive(2) if "evil" in mail.subject]
            assert notices and "its deadlines cannot be computed" in notices[0].body
            await eventually(lambda: service.runner.info("tc-1").row.turn == 2)
            for person in game.players.values():
                assert (await person.last()).subject == "[tc-1] Turn 2"
            clock.advance(hours=49)
            await eventually(lambda: service.runner.info("tc-1").row.turn == 3)
            await prove_quiet(service)
            told = [mail for mail in await service.servers.inbox(gm.address)
                    if b"deadlines cannot be computed" in mail.raw]
            assert len(told) == 1, "the broken game's GM is told once"

    asyncio.run(scenario())


def test_mail_built_to_make_parsers_slow_is_refused_and_others_are_answered(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            folded = "\r\n".join(" " * 900 for _ in range(6))
            await send_raw(service, raw_mail(f"{folded}\r\n x@outside.test", "HELP", message_id="<f@o.test>"),
                           mail_from="x@outside.test")
            quoted = quopri.encodestring(("am " + "schrieb " * 40_000).encode()).decode()
            await send_raw(service, raw_mail("Quoter <quoter@outside.test>", quoted, message_id="<q@o.test>",
                                             extra="Content-Transfer-Encoding: quoted-printable\r\n"),
                           mail_from="quoter@outside.test")
            honest = service.person("honest@outside.test")
            loop = asyncio.get_running_loop()
            started = loop.time()
            await honest.send("HELP\n")
            assert "pbem commands" in (await honest.last()).body
            assert loop.time() - started < 10
            assert inbound_row(service, "<f@o.test>").status == "failed"  # refused unread, not answered
            assert await service.servers.inbox("x@outside.test") == []
            quoter = service.person("quoter@outside.test")
            answer = (await quoter.last()).body
            assert "lines of more than 1,000 are not read" in answer

    asyncio.run(scenario())


def test_html_and_subjects_built_to_make_parsers_slow_are_read_and_others_are_answered(tmp_path: Path) -> None:
    # Before: html.parser rescanned the rest of the text at each unclosed "<a " (60 KB took 20 s, 210 KB
    # would take minutes), and "Re:" prefixes were stripped by copying the rest of the subject each time.
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            html = quopri.encodestring(("<html><body>HELP<br>" + "<a " * 70_000 + "<!--" * 20_000).encode()).decode()
            await send_raw(service, raw_mail("Marker <marker@outside.test>", html, message_id="<h@o.test>",
                                             extra="Content-Transfer-Encoding: quoted-printable\r\n"
                                                   ).replace(b"text/plain", b"text/html"),
                           mail_from="marker@outside.test")
            prefixes = "\r\n ".join(["Re: re  " * 12] * 3_000)  # 290 KB of reply prefixes, folded
            await send_raw(service, raw_mail("Prefix <prefix@outside.test>", "HELP", subject=prefixes + " [x]",
                                             message_id="<p@o.test>"), mail_from="prefix@outside.test")
            honest = service.person("honest@outside.test")
            await honest.send("HELP\n")
            assert "pbem commands" in (await honest.last()).body
            for sender in ("marker@outside.test", "prefix@outside.test"):  # each hostile mail got its answer
                assert "pbem commands" in (await service.person(sender).last()).body
            assert inbound_row(service, "<h@o.test>").status == "handled"

    asyncio.run(scenario())


def test_a_mime_parameter_built_to_make_the_parser_slow_holds_no_player_up(tmp_path: Path) -> None:
    # Before: a Content-Type of an open quote and 98,304 ';' (99 KB, folded every 900 bytes so that any
    # mail server passes it on) held the daemon for 25-48 s in the standard parameter parser.
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            parameter = 'text/plain; charset=utf-8; x="' + ";" * 98_304
            folded = "\r\n ".join(parameter[start:start + 900] for start in range(0, len(parameter), 900))
            hostile = raw_mail("Eve <eve@outside.test>", "HELP", message_id="<semicolons@o.test>").replace(
                b"text/plain; charset=utf-8", folded.encode())
            assert len(hostile) > 98_000
            await send_raw(service, hostile, mail_from="eve@outside.test")
            alice = game.players["A"]
            loop = asyncio.get_running_loop()
            started = loop.time()
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])
            assert "Your orders v1" in (await alice.last()).body
            assert loop.time() - started < 10
            assert service.runner.current_orders("tc-1", "A").orders == ["FEED F1", "MOVE F7-F8"]
            assert "pbem commands" in (await service.person("eve@outside.test").last()).body
            assert inbound_row(service, "<semicolons@o.test>").status == "handled"

    asyncio.run(scenario())


def test_a_mail_of_thousands_of_commands_does_bounded_work(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            eve = service.person("eve@outside.test")
            await eve.send("".join(f"GM tc-1 guess{n}\n" for n in range(6000)))
            answer = (await eve.last()).body
            assert f"more than {MAX_COMMANDS} commands in one mail; the rest was not read" in answer
            assert "not checked: a password earlier in this mail was wrong" in answer
            assert service.runner.info("tc-1").row.gm_failed_logins == 1
            await eve.send("".join(f"CREATE fungus zz{n}\n" for n in range(2000)))
            answer = (await eve.last()).body
            assert f"at most {MAX_CREATIONS_PER_MAIL} games are created per mail" in answer
            assert len([g for g in service.runner.games() if g.name.startswith("zz")]) == MAX_CREATIONS_PER_MAIL
            await prove_quiet(service, *game.players.values())

    asyncio.run(scenario())


def test_an_address_creates_a_bounded_number_of_games_a_day(tmp_path: Path) -> None:
    clock = MovableClock()

    async def scenario() -> None:
        async with running_service(tmp_path, clock=clock, options=QUICK) as service:
            eve = service.person("eve@outside.test")
            created = 0
            while created < MAX_CREATIONS_PER_DAY:
                count = min(MAX_CREATIONS_PER_MAIL, MAX_CREATIONS_PER_DAY - created)
                await eve.send("".join(f"CREATE fungus zz{created + n}\n" for n in range(count)))
                assert "REFUSED" not in (await eve.last()).body
                created += count
            await eve.send("CREATE fungus one-more\n")
            assert f"at most {MAX_CREATIONS_PER_DAY} games are created per address in 24 hours" in (
                await eve.last()).body
            assert len(service.runner.games()) == MAX_CREATIONS_PER_DAY
            clock.advance(hours=24, seconds=1)
            await eve.send("CREATE fungus one-more\n")
            assert "Created" in (await eve.last()).body and len(service.runner.games()) == MAX_CREATIONS_PER_DAY + 1

    asyncio.run(scenario())


def test_a_small_mail_never_gets_a_big_reply(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            eve = service.person("eve@outside.test")
            await eve.send("HELP\n" * 5000)
            answer = (await eve.last()).body
            assert answer.count("JOIN <game> [<seat>]") == 1
            assert f"answered once above; {MAX_COMMANDS - 1} more identical answer(s) left out" in answer
            assert len(answer) < 20_000
            await eve.send("".join(f"junk {n}\n" for n in range(80_000)))  # just under the 1 MB limit
            answer = (await eve.last()).body
            assert len(answer) <= MAX_REPLY + 1000
            assert "bad lines; the rest of the mail was not read" in answer

    asyncio.run(scenario())


def test_a_from_field_that_parsers_read_differently_is_refused_without_reply(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            bob_token = game.reports["B"].reply_to
            assert bob_token is not None
            forged = raw_mail("=?utf-8?q?Eve:bob@players.test;?= <mallory@evil.test>", OPENING_ORDERS["B"],
                              to=bob_token, message_id="<forged@evil.test>", subject="Re: [tc-1] Turn 1")
            await send_raw(service, forged, mail_from="mallory@evil.test", to=bob_token)
            crlf = raw_mail("=?utf-8?q?x=0D=0Abcc=3A_victim@evil.test?= <m@evil.test>", "HELP",
                            message_id="<crlf@evil.test>")
            await send_raw(service, crlf, mail_from="m@evil.test")
            await prove_quiet(service, *game.players.values(),
                              addresses=("mallory@evil.test", "m@evil.test", "victim@evil.test"))
            assert service.runner.current_orders("tc-1", "B") is None
            assert inbound_row(service, "<forged@evil.test>").status == "failed"
            assert inbound_row(service, "<crlf@evil.test>").status == "failed"

    asyncio.run(scenario())


def test_a_message_id_with_odd_characters_is_answered_and_threads_cleanly(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            alice = game.players["A"]
            raw = raw_mail(f"Alice <{PLAYERS['A']}>", f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}",
                           message_id="<zoë\x07@players.test>", extra="References: <ok@players.test> <bäd@x>\r\n")
            await send_raw(service, raw, mail_from=PLAYERS["A"])
            answer = await alice.last()
            assert "Your orders v1" in answer.body or "accepted" in answer.body.lower()
            assert service.runner.current_orders("tc-1", "A") is not None
            with service.daemon.db.session() as session:
                sent = session.exec(select(OutboundMessageRow).order_by(OutboundMessageRow.id.desc())).first()  # type: ignore[union-attr]
            assert sent is not None and b"\x07" not in sent.raw and b"<ok@players.test>" in sent.raw
            assert b"In-Reply-To" not in sent.raw

    asyncio.run(scenario())


def test_password_guessing_locks_out_and_a_right_guess_looks_like_a_wrong_one(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            alice = game.players["A"]
            answers = []
            for n in range(FREE_FAILURES + 1):  # rotating senders, one guess each
                guesser = service.person(f"guesser{n}@outside.test")
                await guesser.send(f"SIGNON tc-1 A guess{n}\nFEED F1\n")
                answers.append((await guesser.last()).body)
            told = await alice.last()
            assert told.subject == "[tc-1] Password guessing"
            seat = seat_row(service, "A")
            assert seat.failed_logins == FREE_FAILURES + 1 and seat.locked_until is not None
            lucky = service.person("lucky@outside.test")
            await lucky.send(f"SIGNON tc-1 A {game.passwords['A']}\nFEED F1\n")
            right = (await lucky.last()).body
            await lucky.send("SIGNON tc-1 A wrong-again\nFEED F1\n")
            wrong = (await lucky.last()).body
            assert right == wrong and "paused until" in right
            await alice.send(f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}")
            assert "paused until" in (await alice.last()).body  # even the holder's own password waits
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])  # her reply address still works
            assert "Your orders v1" in (await alice.last()).body or service.runner.current_orders("tc-1", "A")
            await prove_quiet(service, alice)

    asyncio.run(scenario())


def test_a_stranger_cannot_tell_a_right_password_from_a_wrong_one_by_what_follows(tmp_path: Path) -> None:
    # Before: a right password from a stranger let the next SIGNON of the mail be checked (a wrong one
    # stopped the checks) and cleared the seat's count of wrong passwords: two ways to learn it was right.
    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            guesser = service.person("guesser@outside.test")
            answers = []
            for first in (game.passwords["A"], "wrong1"):
                await guesser.send(f"SIGNON tc-1 A {first}\nFEED F1\nSIGNON tc-1 B wrong2\nFEED F1\n")
                answers.append((await guesser.last()).body)
            assert answers[0] == answers[1]
            assert "not checked: a password earlier in this mail was wrong" in answers[0]
            assert seat_row(service, "A").failed_logins == 2  # the right password counted like the wrong one
            assert seat_row(service, "B").failed_logins == 0
            told = await game.players["A"].last()  # the holder learns that her password is known
            assert told.subject == "[tc-1] Mail refused" and "guesser@outside.test" in told.body
            assert service.runner.current_orders("tc-1", "A") is None
            await alice_signs_on(service, game)
            assert seat_row(service, "A").failed_logins == 0  # the holder's own sign-on clears the count

    asyncio.run(scenario())


async def alice_signs_on(service: MailHarness, game: OpenGame) -> None:
    """Alice signs on with her password from her own address and sends her opening orders."""
    alice = game.players["A"]
    await alice.send(f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}")
    assert "REFUSED" not in (await alice.last()).body
    assert service.runner.current_orders("tc-1", "A") is not None


def test_secrets_are_not_kept_in_stored_mail_and_the_key_can_live_in_a_file(tmp_path: Path) -> None:
    secret_file = tmp_path / "secret.key"
    options = DaemonOptions(idle_recheck=0.5, send_retry_min=0.5, clock_interval=0.1, secret_file=secret_file)

    async def scenario() -> None:
        async with running_service(tmp_path, options=options) as service:
            game = await open_game(service)
            alice = game.players["A"]
            await alice.send(f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}", subject="orders")
            await alice.last()
            big = service.person("big@outside.test")
            await big.send("HELP\n" + "x" * 2_000_000, subject="big")
            assert "over the limit" in (await big.last()).body
            with service.daemon.db.session() as session:
                sent = [row.raw for row in session.exec(select(OutboundMessageRow))]
                inbound = {row.message_id: row for row in session.exec(select(InboundMessageRow))}
                assert session.get(SettingRow, "reply_token_secret") is None
            for password in [game.gm_password, *game.passwords.values()]:
                assert not any(password.encode() in raw for raw in sent), "a password stayed in the outbox"
                assert not any(password.encode() in row.raw for row in inbound.values()), "a password stayed inbound"
            oversized = [row for row in inbound.values() if row.size and row.size > 2_000_000]
            assert oversized and len(oversized[0].raw) == OVERSIZED_PREFIX
        assert stat.S_IMODE(os.stat(secret_file).st_mode) == 0o600

    asyncio.run(scenario())


def test_a_full_disk_stops_nothing_for_good_and_every_mail_is_answered_once_space_is_back(tmp_path: Path) -> None:
    async def scenario() -> None:  # on a SQLite file with every engine: its page cap makes the disk full
        async with running_service(tmp_path, options=QUICK, db_url=str(tmp_path / "pbem.db")) as service:
            game = await open_game(service)
            limit: dict[str, int | None] = {"pages": None}

            def cap_pages(connection: Any) -> None:  # every transaction, on any connection (the worker keeps one)
                driver = connection.connection.driver_connection
                driver.execute(f"PRAGMA max_page_count = {limit['pages'] or 1073741823}")

            engine = service.daemon.db.engine
            with engine.connect() as connection:
                pages = connection.exec_driver_sql("PRAGMA page_count").scalar()
            limit["pages"] = int(pages)
            event.listen(engine, "begin", cap_pages)
            # A full disk leaves no free page: fill the pages freed earlier (large rows, such as reports
            # with pictures, free pages when they are updated), so nothing new fits under the cap.
            with engine.connect() as connection:
                connection.exec_driver_sql("CREATE TABLE IF NOT EXISTS filler (data BLOB)")
                connection.commit()
                for size in (65536, 3900):
                    while True:
                        try:
                            connection.exec_driver_sql("INSERT INTO filler VALUES (zeroblob(?))", (size,))
                            connection.commit()
                        except exc.OperationalError:
                            connection.rollback()
                            break
            try:
                senders = [service.person(f"p{n}@outside.test") for n in range(6)]
                for person in senders:
                    await person.send("HELP\n" + "padding line\n" * 400)
                await service.settle(2.0)
                for person in senders:
                    assert await service.servers.inbox(person.address) == [], "answered while the disk was full"
                limit["pages"] = None  # space is back
                for person in senders:
                    assert "pbem commands" in (await person.last(timeout=30)).body
                # Where the disk runs out decides who retries: the intake (mail not stored stays unmarked on
                # the server and is taken again) or the supervisor (mail stored, its handling restarted).
                retried = service.daemon.restarts or service.daemon.intake.stats.handler_failures
                assert retried, "the disk-full errors were not retried"
                assert service.daemon.fatal is None
                await game.players["A"].send(f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}")
                assert "Your orders v1" in (await game.players["A"].last()).body
            finally:
                event.remove(engine, "begin", cap_pages)

    asyncio.run(scenario())


def test_a_lockout_is_per_seat(tmp_path: Path) -> None:
    """Guesses at seat A leave seat B's password working."""

    async def scenario() -> None:
        async with running_service(tmp_path, options=QUICK) as service:
            game = await open_game(service)
            for n in range(FREE_FAILURES + 1):
                await service.person(f"g{n}@outside.test").send(f"SIGNON tc-1 A g{n}\n")
                await service.person(f"g{n}@outside.test").last()
            bob = game.players["B"]
            await bob.send(f"SIGNON tc-1 B {game.passwords['B']}\n{OPENING_ORDERS['B']}")
            assert "Your orders v1" in (await bob.last()).body
            assert seat_row(service, "B").failed_logins == 0 and seat_row(service, "B").locked_until is None
            assert seat_row(service, "A").locked_until is not None

    asyncio.run(scenario())
