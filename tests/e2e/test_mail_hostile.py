"""Hostile and broken mail, through the real daemon and real servers: it changes nothing,
gets a clear answer when one is due, is never answered when answering could start a mail
loop, and never stops the daemon.

Each test opens a Turkey Chase game by mail (:func:`mail_games.open_game`), sends the
hostile mail, and checks what was stored (orders, the game's JSON state, the inbound
table), what was answered, and, for mail that must get no answer, that none came by the
time a later control mail was answered (:func:`mail_games.prove_quiet`).
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import logging
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest
from mail_games import (
    OPENING_ORDERS,
    PLAYERS,
    answers_to,
    has_written,
    eventually,
    inbound_row,
    inbound_rows,
    open_game,
    prove_quiet,
    send_all,
    send_raw,
)
from mail_harness import GM_ADDRESS, MailHarness, Person, running_service

from pbem.mail.answering.policy import DEFAULT_MAX_SIZE
from pbem.sandbox.mailclient import MailboxReader, ReceivedMail, plain_mail

ALICE = PLAYERS["A"]


def mail_bytes(sender: str, to: str, subject: str, body: str, *, message_id: str,
               headers: Sequence[tuple[str, str]] = ()) -> bytes:
    """A plain text mail as raw bytes, with a chosen Message-ID and extra header fields."""
    message = plain_mail(sender, to, subject, body)
    message.replace_header("Message-ID", message_id)
    for name, value in headers:
        message[name] = value
    return bytes(message)


async def next_with_subject(person: Person, subject: str, *, limit: int = 6) -> ReceivedMail:
    """Read ``person``'s new mail, one at a time (at most ``limit``), until one has ``subject``."""
    for _ in range(limit):
        mail = await person.last()
        if mail.subject == subject:
            return mail
    raise AssertionError(f"{person.address} got no mail {subject!r} within {limit} mails")


# --- reply addresses and passwords -------------------------------------------------------------


def test_a_forged_reply_address_changes_nothing_and_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, token = game.players["A"], game.reports["A"].reply_to
            assert token is not None and token.startswith("gm+tc-1.a.k1.")
            local, _, domain = token.partition("@")
            tampered_mac = f"{local[:-1]}{'b' if local[-1] == 'a' else 'a'}@{domain}"
            other_seat = token.replace("+tc-1.a.", "+tc-1.b.")
            before = service.runner.state_json("tc-1")
            for forged in (tampered_mac, other_seat):
                await alice.send(OPENING_ORDERS["A"], subject="Re: [tc-1] Turn 1", to=forged)
                answer = await alice.last()
                assert "does not carry a valid signature. Nothing was changed." in answer.body, answer.body
                assert answer.reply_to is None  # a refused mail gets no reply address that signs on
            assert service.runner.current_orders("tc-1", "A") is None
            assert service.runner.current_orders("tc-1", "B") is None
            assert service.runner.state_json("tc-1") == before
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])  # the genuine address still works
            assert "Your orders v1" in (await alice.last()).body

    asyncio.run(scenario())


def test_an_expired_reply_address_is_refused_and_a_younger_one_works(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, tokens, today = game.players["A"], service.daemon.handler.desk.tokens, service.clock().date()
            expired = tokens.address_for(GM_ADDRESS, "tc-1", "a", 1, today - timedelta(days=61))
            await alice.send(OPENING_ORDERS["A"], subject="Re: [tc-1] Turn 1", to=expired)
            answer = await alice.last()
            issued = (today - timedelta(days=61)).isoformat()
            assert f"was issued on {issued} and expired after 60 days; reply to a newer mail" in answer.body
            assert "Nothing was changed." in answer.body
            assert service.runner.current_orders("tc-1", "A") is None
            young = tokens.address_for(GM_ADDRESS, "tc-1", "a", 1, today - timedelta(days=59))
            await alice.send(OPENING_ORDERS["A"], subject="Re: [tc-1] Turn 1", to=young)
            assert "Your orders v1" in (await alice.last()).body
            assert service.runner.current_orders("tc-1", "A").orders == ["FEED F1", "MOVE F7-F8"]

    asyncio.run(scenario())


def test_a_reply_address_from_before_replace_no_longer_signs_on(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, newcomer = game.players["A"], service.person("newalice@players.test")
            await has_written(newcomer)  # an address that never wrote would be invited first
            await game.gm.send(f"GM tc-1 {game.gm_password}\nREPLACE A newalice@players.test\n")
            assert "now belongs to newalice@players.test" in (await game.gm.last()).body
            assert "gave your seat A of game tc-1 to another player" in (await alice.last()).body
            welcome, report = await newcomer.receive(2)  # the password, and the seat's newest report
            assert "The GM gave you seat A of game tc-1" in welcome.body and ".k2." in (welcome.reply_to or "")
            assert report.subject == "[tc-1] Turn 1" and ".k2." in (report.reply_to or "")
            before = service.runner.state_json("tc-1")
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])
            answer = await alice.last()
            assert "is from before the seat changed hands; it no longer signs on. Nothing was changed." in answer.body
            assert service.runner.current_orders("tc-1", "A") is None
            assert service.runner.state_json("tc-1") == before
            await newcomer.reply(welcome, OPENING_ORDERS["A"])
            assert "Your orders v1" in (await newcomer.last()).body

    asyncio.run(scenario())


def test_a_wrong_signon_password_changes_nothing_and_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice = game.players["A"]
            await alice.send(f"SIGNON tc-1 A not-{game.passwords['A']}\n{OPENING_ORDERS['A']}")
            answer = await alice.last()
            assert ("REFUSED: SIGNON tc-1 A refused: the password is wrong, or mail from alice@players.test cannot "
                    "act for this seat. Nothing was changed.") in answer.body
            assert "Your orders" not in answer.body
            assert service.runner.current_orders("tc-1", "A") is None
            await alice.send(f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}")
            assert "Your orders v1" in (await alice.last()).body

    asyncio.run(scenario())


def test_an_unknown_sender_cannot_give_orders_even_with_a_leaked_password(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, mallory = game.players["A"], service.person("mallory@elsewhere.test")
            before = service.runner.state_json("tc-1")
            await mallory.send(OPENING_ORDERS["A"])
            answer = await mallory.last()
            assert 'unknown command "FEED"; orders go after SIGNON' in answer.body
            await mallory.send(f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}")
            right = (await mallory.last()).body
            assert ("REFUSED: SIGNON tc-1 A refused: the password is wrong, or mail from mallory@elsewhere.test "
                    "cannot act for this seat. Nothing was changed.") in right
            told = await alice.last()
            assert told.subject == "[tc-1] Mail refused"
            assert "A mail from mallory@elsewhere.test tried to act for your seat A of game tc-1" in told.body
            assert service.runner.current_orders("tc-1", "A") is None
            assert service.runner.state_json("tc-1") == before
            await prove_quiet(service, alice, mallory)

    asyncio.run(scenario())


def test_a_reply_address_used_by_another_player_is_refused_and_its_holder_told(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, bob = game.players["A"], game.players["B"]
            await bob.reply(game.reports["A"], OPENING_ORDERS["A"])  # alice forwarded her report to bob
            answer = await bob.last()
            assert "REFUSED: seat A of tc-1 is held by another address; mail from bob@players.test" in answer.body
            assert "the seat's holder was told" in answer.body
            told = await alice.last()
            assert "A mail from bob@players.test tried to act for your seat A of game tc-1" in told.body
            assert "It was refused and nothing was changed." in told.body
            assert service.runner.current_orders("tc-1", "A") is None
            assert service.runner.current_orders("tc-1", "B") is None
            await prove_quiet(service, alice, bob)

    asyncio.run(scenario())


def test_orders_for_a_past_turn_are_refused_as_stale(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice = game.players["A"]
            service.clock.advance(hours=49)  # past the 48-hour deadline: turn 1 resolves with NMR defaults
            turn_2 = await next_with_subject(alice, "[tc-1] Turn 2")
            assert service.runner.state_json("tc-1")["turn"] == 2
            await alice.reply(game.reports["A"], OPENING_ORDERS["A"])
            answer = await alice.last()
            assert ("these orders answer turn 1 of tc-1, but the game is at turn 2; they were refused as stale"
                    in answer.body)
            assert service.runner.current_orders("tc-1", "A") is None
            await alice.reply(turn_2, OPENING_ORDERS["A"])
            accepted = await alice.last()
            assert "Your orders v1" in accepted.body and "turn 2" in accepted.body
            assert service.runner.current_orders("tc-1", "A").turn == 2

    asyncio.run(scenario())


# --- mail that is never answered -----------------------------------------------------------------

_DSN = """\
From: Mail Delivery System <MAILER-DAEMON@players.test>
To: {to}
Subject: Undelivered Mail Returned to Sender
Message-ID: <dsn-1@players.test>
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="dsn"

--dsn
Content-Type: text/plain; charset=us-ascii

This is the mail system at host players.test.
Your message could not be delivered to <alice@players.test>: mailbox full.
--dsn
Content-Type: message/delivery-status

Reporting-MTA: dns; players.test

Final-Recipient: rfc822; alice@players.test
Action: failed
Status: 5.2.2
--dsn
Content-Type: message/rfc822

From: pbem game master <gm@pbem.test>
To: alice@players.test
Subject: [tc-1] Turn 1

FEED F1
MOVE F7-F8
--dsn--
"""


def test_bounces_are_never_answered_and_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            token = game.reports["A"].reply_to
            assert token is not None
            before = service.runner.state_json("tc-1")
            await send_raw(service, _DSN.format(to=token).encode(), mail_from="", to=token)
            null_path = mail_bytes(ALICE, token, "Re: [tc-1] Turn 1", OPENING_ORDERS["A"], message_id="<null@p.test>")
            await send_raw(service, null_path, mail_from="", to=token)
            postmaster = mail_bytes("postmaster@players.test", GM_ADDRESS, "Delivery report", "HELP\n",
                                    message_id="<postmaster@p.test>")
            await send_raw(service, postmaster, mail_from="postmaster@players.test")
            await prove_quiet(service, game.players["A"],
                              addresses=("mailer-daemon@players.test", "postmaster@players.test"))
            reasons = {mid: inbound_row(service, mid).error for mid in
                       ("<dsn-1@players.test>", "<null@p.test>", "<postmaster@p.test>")}
            assert reasons == {
                "<dsn-1@players.test>": "bounce from mailer-daemon@players.test",
                "<null@p.test>": "bounce: the Return-Path is empty (<>)",
                "<postmaster@p.test>": "bounce from postmaster@players.test",
            }
            assert all(not answers_to(service, inbound_row(service, mid)) for mid in reasons)
            assert service.runner.current_orders("tc-1", "A") is None
            assert service.runner.state_json("tc-1") == before

    asyncio.run(scenario())


def test_auto_replies_are_never_answered_but_auto_submitted_no_is(tmp_path: Path) -> None:
    automatic = {
        "<auto-replied@p.test>": (("Auto-Submitted", "auto-replied"),),
        "<auto-generated@p.test>": (("Auto-Submitted", "auto-generated"),),
        "<auto-notified@p.test>": (("Auto-Submitted", "auto-notified; owner-email=alice@players.test"),),
        "<x-autoreply@p.test>": (("X-Autoreply", "yes"),),
        "<x-autorespond@p.test>": (("X-Autorespond", "yes"),),
        "<out-of-office@p.test>": (("X-Auto-Response-Suppress", "All"),),
    }

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, token = game.players["A"], game.reports["A"].reply_to
            assert token is not None
            for message_id, headers in automatic.items():
                subject = "Out of Office: [tc-1] Turn 1" if "office" in message_id else "Re: [tc-1] Turn 1"
                raw = mail_bytes(ALICE, token, subject, OPENING_ORDERS["A"], message_id=message_id, headers=headers)
                await send_raw(service, raw, mail_from=ALICE, to=token)
            raw = mail_bytes(ALICE, token, "Re: [tc-1] Turn 1", OPENING_ORDERS["A"], message_id="<person@p.test>",
                             headers=(("Auto-Submitted", "no"),))
            await send_raw(service, raw, mail_from=ALICE, to=token)
            answer = await alice.last()
            assert answer.in_reply_to == "<person@p.test>" and "Your orders v1" in answer.body
            await prove_quiet(service, alice)
            for message_id in automatic:
                row = inbound_row(service, message_id)
                assert row.error is not None and "automatic" in row.error, (message_id, row.error)
                assert not answers_to(service, row)
            assert service.runner.current_orders("tc-1", "A").version == 1

    asyncio.run(scenario())


def test_bulk_and_mailing_list_mail_is_never_answered(tmp_path: Path) -> None:
    bulk = {
        "<bulk@p.test>": ("Precedence", "bulk"),
        "<list@p.test>": ("Precedence", "list"),
        "<junk@p.test>": ("Precedence", "junk"),
        "<list-id@p.test>": ("List-Id", "Turkey fans <turkeys.lists.players.test>"),
    }

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            body = f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}"
            for message_id, header in bulk.items():
                await send_raw(service, mail_bytes(ALICE, GM_ADDRESS, "orders", body, message_id=message_id,
                                                   headers=(header,)), mail_from=ALICE)
            await prove_quiet(service, game.players["A"])
            reasons = {mid: inbound_row(service, mid).error for mid in bulk}
            assert reasons == {
                "<bulk@p.test>": "bulk mail (Precedence: bulk)",
                "<list@p.test>": "bulk mail (Precedence: list)",
                "<junk@p.test>": "bulk mail (Precedence: junk)",
                "<list-id@p.test>": "mailing-list mail (List-Id: turkey fans <turkeys.lists.players.test>)",
            }
            assert all(not answers_to(service, inbound_row(service, mid)) for mid in bulk)
            assert service.runner.current_orders("tc-1", "A") is None

    asyncio.run(scenario())


def test_mail_from_the_services_own_address_is_never_answered(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            token = game.reports["A"].reply_to
            assert token is not None
            own = {"<own@pbem.test>": "GM@pbem.test", "<own-plus@pbem.test>": token}
            for message_id, sender in own.items():
                raw = mail_bytes(sender, token, "Re: [tc-1] Turn 1", OPENING_ORDERS["A"], message_id=message_id)
                await send_raw(service, raw, mail_from=sender, to=token)
            await prove_quiet(service, game.players["A"])
            for message_id, sender in own.items():
                row = inbound_row(service, message_id)
                assert row.error == f"mail from our own address {sender.lower()}"
                assert not answers_to(service, row)
            assert service.runner.current_orders("tc-1", "A") is None

    asyncio.run(scenario())


# --- mail loops ----------------------------------------------------------------------------------


async def answer_everything(service: MailHarness, address: str, headers: Sequence[tuple[str, str]],
                            stop: asyncio.Event, *, cap: int = 30) -> int:
    """A robot that answers every new mail to ``address`` (to its Reply-To, else its sender),
    quoting it, with ``headers``; runs until ``stop`` or ``cap`` answers; returns how many it sent."""
    reader = MailboxReader(service.servers, address)
    reader.seen = len(await service.servers.inbox(address))
    sent = 0
    while not stop.is_set() and sent < cap:
        try:
            (mail,) = await reader.new_mail(1, timeout=0.1)
        except TimeoutError:
            continue
        quoted = "".join(f"> {line}\n" for line in mail.body.splitlines())
        answer = plain_mail(address, mail.reply_to or GM_ADDRESS, f"Auto: {mail.subject}",
                            f"I am away and will read your mail later.\n\n{quoted}", in_reply_to=mail.message_id)
        for name, value in headers:
            answer[name] = value
        await send_raw(service, bytes(answer), mail_from=address, to=mail.reply_to or GM_ADDRESS)
        sent += 1
    return sent


def test_auto_responders_get_no_answer_so_no_mail_loop_starts(tmp_path: Path) -> None:
    styles = {
        "A": (("Auto-Submitted", "auto-replied"),),  # RFC 3834
        "B": (("X-Autoreply", "yes"),),
        "C": (("Precedence", "junk"), ("X-Auto-Response-Suppress", "All")),  # old vacation(1) and Exchange
    }

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            stop = asyncio.Event()
            robots = [asyncio.create_task(answer_everything(service, PLAYERS[s], h, stop)) for s, h in styles.items()]
            gm_box_before = len(await service.servers.inbox(GM_ADDRESS))
            await game.gm.send(f"GM tc-1 {game.gm_password}\nPRESS ALL\nThe deadline stays.\nENDPRESS\n")
            assert "Press relayed to A, B, C, D" in (await game.gm.last()).body
            for seat in styles:  # each robot answers the press once, to the seat's reply address
                assert "Press from GM" in (await game.players[seat].last()).body
            await eventually(lambda: len(inbound_rows(service)) == gm_box_before + 1 + 3)
            await prove_quiet(service, *(game.players[seat] for seat in styles))
            reasons = sorted(row.error or "" for row in inbound_rows(service)[-4:-1])
            assert reasons == ["automatic mail (Auto-Submitted: auto-replied)",
                               "automatic reply (X-Autoreply or X-Autorespond)", "bulk mail (Precedence: junk)"]
            await service.settle(0.5)  # a bounded window in which a loop would show up
            stop.set()
            answered = await asyncio.wait_for(asyncio.gather(*robots), timeout=5)
            assert answered == [1, 1, 1]
            gm_box = await service.servers.inbox(GM_ADDRESS)
            assert len(gm_box) == gm_box_before + 1 + 3 + 1  # the GM mail, three auto-replies, the control mail
            for seat in styles:
                assert len(await service.servers.inbox(PLAYERS[seat])) == game.players[seat].inbox.seen
                assert service.runner.current_orders("tc-1", seat) is None

    asyncio.run(scenario())


def test_a_robot_answering_every_mail_unmarked_from_a_seat_address_is_cut_off(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            limit = service.daemon.handler.rate_limiter.max_mails
            alice = game.players["A"]
            stop = asyncio.Event()  # alice's mail program answers everything, to its Reply-To, marking nothing
            echo = asyncio.create_task(answer_everything(service, ALICE, (), stop, cap=limit + 5))
            await game.gm.send(f"GM tc-1 {game.gm_password}\nPRESS A\nAre you there?\nENDPRESS\n")
            assert "Press relayed to A." in (await game.gm.last()).body
            assert "Are you there?" in (await alice.last()).body
            answers = await alice.receive(limit + 2, timeout=30)
            assert "went as press to GM" in answers[0].body  # the answer to the press went back to the GM;
            assert all("REFUSED" in answer.body for answer in answers[1:-1])  # then `limit` mails of ping-pong,
            assert "not answered until" in answers[-1].body  # a notice that answers stop ...
            await eventually(lambda: any(row.error == "rate limited" for row in inbound_rows(service)))
            await prove_quiet(service, alice)  # ... and then no more
            stop.set()
            assert await asyncio.wait_for(echo, timeout=5) == limit + 3
            stored = service.runner.current_orders("tc-1", "A")
            assert stored is None or stored.orders == []  # no line of the robot's was taken for an order

    asyncio.run(scenario())


# --- malformed mail ------------------------------------------------------------------------------

_NO_BOUNDARY = """\
From: {sender}
To: gm@pbem.test
Subject: lost boundary
Message-ID: <no-boundary@p.test>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="never-used"

SIGNON tc-1 A {password}
FEED F1
MOVE F7-F8
"""

_ENCRYPTED = """\
From: {sender}
To: gm@pbem.test
Subject: secret orders
Message-ID: <encrypted@p.test>
MIME-Version: 1.0
Content-Type: multipart/encrypted; protocol="application/pgp-encrypted"; boundary="pgp"

--pgp
Content-Type: application/pgp-encrypted

Version: 1
--pgp
Content-Type: application/octet-stream

-----BEGIN PGP MESSAGE-----
hQEMA0z3
-----END PGP MESSAGE-----
--pgp--
"""


def test_malformed_mail_is_stored_logged_answered_when_possible_and_the_daemon_goes_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="pbem.mail.handling.handler")

    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, password = game.players["A"], game.passwords["A"]
            idn = service.person("jose@xn--exmple-cua.org")
            await send_raw(service, _NO_BOUNDARY.format(sender=ALICE, password=password).encode(), mail_from=ALICE)
            assert "Your orders v1" in (await alice.last()).body  # read as well as it can be
            await send_raw(service, _ENCRYPTED.format(sender=ALICE).encode(), mail_from=ALICE)
            unreadable = await alice.last()
            assert unreadable.subject == "Your mail could not be read"
            assert "the mail is encrypted; please send plain text" in unreadable.body
            await send_raw(service, b"To: gm@pbem.test\r\nSubject: who am I\r\nMessage-ID: <no-from@p.test>\r\n\r\n"
                           b"HELP\r\n", mail_from="ghost@players.test")
            junk = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR binary junk\r\n"  # no header at all
            await send_raw(service, junk, mail_from="junk@players.test")
            await send_raw(service, "From: José <jose@exämple.org>\r\nSubject: ayuda\r\nMessage-ID: <idn@p.test>\r\n"
                           "\r\nHELP\r\n".encode(), mail_from="jose@xn--exmple-cua.org")
            assert "pbem commands" in (await idn.last()).body  # an 8-bit IDN domain is answered in xn-- form
            await send_raw(service, "From: josé@players.test\r\nSubject: ayuda\r\nMessage-ID: <eai@p.test>\r\n"
                           "\r\nHELP\r\n".encode(), mail_from="ghost@players.test")
            await prove_quiet(service, alice, idn, addresses=("ghost@players.test", "junk@players.test"))
            for message_id in ("<encrypted@p.test>", "<no-from@p.test>", "<eai@p.test>"):
                row = inbound_row(service, message_id)
                assert row.status == "failed" and row.error is not None and row.error.startswith("malformed: ")
                assert message_id.encode() in row.raw  # stored as received
            assert len(answers_to(service, inbound_row(service, "<encrypted@p.test>"))) == 1
            assert not answers_to(service, inbound_row(service, "<no-from@p.test>"))
            assert service.runner.current_orders("tc-1", "A").version == 1
            await alice.send(f"SIGNON tc-1 A {password}\n{OPENING_ORDERS['A']}")
            assert "Your orders v2" in (await alice.last()).body

    asyncio.run(scenario())
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert sum("malformed mail" in w for w in warnings) == 4, warnings  # encrypted, no From, junk, 8-bit local part


# --- size and rate ------------------------------------------------------------------------------


def test_a_10_mb_mail_is_refused_with_a_short_reply_and_nothing_stored(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice = game.players["A"]
            photo = (b"A" * 76 + b"\r\n") * (10 * 1024 * 1024 // 78)
            raw = (f"From: {ALICE}\r\nTo: {GM_ADDRESS}\r\nSubject: orders and a photo of my board\r\n"
                   "Message-ID: <ten-mb@players.test>\r\nMIME-Version: 1.0\r\n"
                   'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n'
                   f"SIGNON tc-1 A {game.passwords['A']}\r\n{OPENING_ORDERS['A']}\r\n--b\r\n"
                   'Content-Type: image/jpeg\r\nContent-Disposition: attachment; filename="board.jpg"\r\n'
                   "Content-Transfer-Encoding: base64\r\n\r\n").encode() + photo + b"--b--\r\n"
            assert len(raw) > 10 * 1024 * 1024 - 100
            await service.servers.deliver(GM_ADDRESS, raw, mail_from=ALICE)  # as the SMTP server delivers it
            answer = await alice.last(timeout=60)
            assert answer.in_reply_to == "<ten-mb@players.test>" and answer.auto_submitted == "auto-replied"
            assert f"over the limit of {DEFAULT_MAX_SIZE:,} bytes, so it was not read" in answer.body
            assert len(answer.raw) < 2000
            assert service.runner.current_orders("tc-1", "A") is None
            assert inbound_row(service, "<ten-mb@players.test>").error == "oversized"
            await alice.send(f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}")
            assert "Your orders v1" in (await alice.last()).body

    asyncio.run(scenario())


def test_a_flooding_stranger_is_rate_limited_but_a_players_orders_never_are(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, bob = game.players["A"], game.players["B"]
            limit = service.daemon.handler.rate_limiter.max_mails
            moves = ("MOVE F7-F8", "MOVE F7-G7")
            flood = [plain_mail(ALICE, GM_ADDRESS, f"orders {number}",
                                f"SIGNON tc-1 A {game.passwords['A']}\nFEED F1\n{moves[number % 2]}\n")
                     for number in range(1, limit + 5)]
            unreadable = email.message_from_bytes(_ENCRYPTED.format(sender=ALICE).encode(),
                                                  policy=email.policy.default)
            await send_all(service, [*flood, unreadable])
            answers = await alice.receive(limit + 5, timeout=30)  # every order mail answered, and the unreadable
            assert [a.subject for a in answers[:limit + 4]] == [f"Re: orders {n}" for n in range(1, limit + 5)]
            stored = service.runner.current_orders("tc-1", "A")
            assert stored.version == limit + 4 and stored.orders == ["FEED F1", moves[(limit + 4) % 2]]
            stranger = service.person("stranger@outside.test")
            await send_all(service, [plain_mail(stranger.address, GM_ADDRESS, f"join {n}", "JOIN tc-1\n")
                                     for n in range(limit + 4)])
            answers = await stranger.receive(limit + 1, timeout=30)
            assert "not answered until" in answers[-1].body  # one notice when the pause starts ...
            await bob.send(f"SIGNON tc-1 B {game.passwords['B']}\n{OPENING_ORDERS['B']}")
            assert "Your orders v1" in (await bob.last()).body
            await prove_quiet(service, stranger)  # ... and nothing more
            limited = [row for row in inbound_rows(service) if row.error == "rate limited"]
            assert len(limited) == 4
            service.clock.advance(minutes=61)  # the window has passed: the stranger is answered again
            await stranger.send("HELP\n")
            assert "pbem commands" in (await stranger.last()).body

    asyncio.run(scenario())
