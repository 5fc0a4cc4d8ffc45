"""Mail as people really send it, through the real daemon and real servers: HTML-only mail,
any charset and transfer encoding, quoted earlier mail and signatures, attachments, a
subject tag instead of the game name; and the answers thread under what they answer.

Each test opens a Turkey Chase game by mail (:func:`mail_games.open_game`), sends the mail
as raw bytes built here (so the encodings are exactly what is named), and checks what was
stored and what came back.
"""

from __future__ import annotations

import asyncio
import base64
import email
import email.policy
import html
import quopri
from email.header import Header
from email.message import EmailMessage
from pathlib import Path

import pytest
from mail_games import OPENING_ORDERS, PLAYERS, inbound_row, open_game, send_raw
from mail_harness import GM_ADDRESS, running_service

from pbem.sandbox.mailclient import plain_mail

ALICE = PLAYERS["A"]


def encoded_mail(*, to: str, subject: str, body: str, charset: str, encoding: str, message_id: str) -> bytes:
    """A text/plain mail from Alice whose body is in ``charset`` with transfer ``encoding``
    (quoted-printable, base64 or 8bit) and whose subject is an encoded word in the same charset."""
    data = body.replace("\n", "\r\n").encode(charset)
    payload = {
        "quoted-printable": lambda: quopri.encodestring(data),
        "base64": lambda: base64.encodebytes(data),
        "8bit": lambda: data,
    }[encoding]()
    head = (f"From: Alice <{ALICE}>\r\nTo: {to}\r\nSubject: {Header(subject, charset).encode()}\r\n"
            f"Message-ID: {message_id}\r\nMIME-Version: 1.0\r\n"
            f'Content-Type: text/plain; charset="{charset}"\r\nContent-Transfer-Encoding: {encoding}\r\n\r\n')
    return head.encode("ascii") + payload.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def test_html_only_orders_are_read_as_the_text_they_show(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, report = game.players["A"], game.reports["A"]
            assert report.reply_to is not None
            quoted_report = html.escape(report.body)
            page = (  # Thunderbird style: the quoted report first, the orders below it, then the signature
                "<html><head><style>p { margin: 0 }</style><title>FEED Z9</title></head><body>"
                '<div class="moz-cite-prefix">On 22.11.26 14:21, pbem game master wrote:<br></div>'
                f'<blockquote type="cite" cite="mid:{report.message_id}"><pre>{quoted_report}</pre></blockquote>'
                "<p>FEED&nbsp;F1<br>move F7-F8</p><p><br></p>"
                '<pre class="moz-signature" cols="72">-- \nAlice &amp; her turkeys\nMOVE Z1-Z2</pre>'
                "</body></html>"
            )
            message = EmailMessage()
            message["From"], message["To"], message["Subject"] = ALICE, report.reply_to, "Re: [tc-1] Turn 1"
            message["Message-ID"], message["In-Reply-To"] = "<html-only@players.test>", report.message_id
            message.set_content(page, subtype="html", charset="utf-8", cte="quoted-printable")
            assert not message.is_multipart() and message.get_content_type() == "text/html"
            await send_raw(service, message.as_bytes(), mail_from=ALICE, to=report.reply_to)
            answer = await alice.last()
            assert "2 line(s) accepted, 0 refused" in answer.body and "REFUSED" not in answer.body, answer.body
            stored = service.runner.current_orders("tc-1", "A")
            assert stored is not None and stored.orders == ["FEED F1", "MOVE F7-F8"]

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("charset", "encoding", "press"),
    [
        ("iso-8859-1", "quoted-printable", "Chère voisine, on partage le maïs à F6 ? À bientôt, Zoë"),
        ("utf-8", "base64", "Grüße aus Köln, Привет, 七面鳥 🦃"),
        ("windows-1252", "8bit", "“Fair play” – I owe you 5 € … Œuvre"),
        ("iso-8859-15", "quoted-printable", "Ça coûte 5 €, mon cœur"),
    ],
)
def test_orders_and_press_are_read_in_any_charset_and_transfer_encoding(
        tmp_path: Path, charset: str, encoding: str, press: str) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, bob = game.players["A"], game.players["B"]
            subject = "Ordres d'été" if charset != "utf-8" else "Züge für Runde 1"
            body = f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}PRESS B\n{press}\nENDPRESS\n"
            raw = encoded_mail(to=GM_ADDRESS, subject=subject, body=body, charset=charset, encoding=encoding,
                               message_id=f"<{charset}-{encoding}@players.test>")
            assert press.encode("utf-8") not in raw  # the press really travels in the named encoding
            await send_raw(service, raw, mail_from=ALICE)
            answer = await alice.last()
            assert answer.subject == f"Re: {subject}"
            assert "2 line(s) accepted, 0 refused" in answer.body and "Press relayed to B." in answer.body
            assert service.runner.current_orders("tc-1", "A").orders == ["FEED F1", "MOVE F7-F8"]
            relayed = await bob.last()
            assert relayed.subject == "[tc-1] Press from A"
            body = relayed.body.replace("\r\n", "\n")
            assert body.startswith("Press from A in game tc-1. A plain reply to this mail goes back to A as press")
            assert f"\n\n{press}\n" in body

    asyncio.run(scenario())


def test_quoted_mail_attribution_lines_and_signatures_are_ignored(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, report = game.players["A"], game.reports["A"]
            quoted = "".join(f"> {line}\n" for line in report.body.splitlines())
            top_posted = (
                "FEED F1\nMOVE F7-F8\n\n"
                "-- \nAlice Turkeyfarmer\nMOVE Z1-Z2 is my motto\n\n"
                "On Sun, 22 Nov 2026 at 14:21, pbem game master\n<gm@pbem.test> wrote:\n"
                f"{quoted}"
            )
            await alice.reply(report, top_posted)
            answer = await alice.last()
            assert "2 line(s) accepted, 0 refused" in answer.body and "REFUSED" not in answer.body, answer.body
            assert service.runner.current_orders("tc-1", "A").orders == ["FEED F1", "MOVE F7-F8"]
            inline = (
                "On Sun, 22 Nov 2026 at 14:21, pbem game master <gm@pbem.test> wrote:\n"
                "> Next: turn 1. Send your orders for turn 1; you have 5 points to spend.\n"
                "\nFEED F1\n\n"
                ">> A (you): farmer F7; birds F1, F1\n"
                "> FEED Z9\n"
                "MOVE F7-G7\n\n"
                "> Your orders are due by 2026-11-24 14:21 UTC.\n\n"
                "-- \nAlice\nSIGNOFF now\nSent from my phone\n"
            )
            await alice.reply(report, inline)
            answer = await alice.last()
            assert "Your orders v2" in answer.body and "REFUSED" not in answer.body, answer.body
            assert "line 3" not in answer.body  # quoted and blank lines are not echoed as orders
            assert service.runner.current_orders("tc-1", "A").orders == ["FEED F1", "MOVE F7-G7"]

    asyncio.run(scenario())


def test_attachments_and_attached_mails_are_ignored(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, report = game.players["A"], game.reports["A"]
            assert report.reply_to is not None
            message = plain_mail(ALICE, report.reply_to, "Re: [tc-1] Turn 1", OPENING_ORDERS["A"],
                                 in_reply_to=report.message_id)
            message.add_alternative("<p>FEED F1<br>MOVE F7-F8</p>", subtype="html")
            message.add_attachment("FEED Z9\nMOVE A1-A2\n", filename="old-orders.txt")
            message.add_attachment(b"%PDF-1.4 FEED Z9", maintype="application", subtype="pdf", filename="board.pdf")
            message.add_attachment(b"\x89PNG\r\n", maintype="image", subtype="png", disposition="inline",
                                   filename="turkey.png")
            forwarded = plain_mail(PLAYERS["B"], GM_ADDRESS, "my orders",
                                   f"SIGNON tc-1 B {game.passwords['B']}\n{OPENING_ORDERS['B']}")
            message.add_attachment(forwarded)  # a whole mail, attached: it must not act
            assert message.get_content_type() == "multipart/mixed"
            await send_raw(service, message.as_bytes(), mail_from=ALICE, to=report.reply_to)
            answer = await alice.last()
            assert "2 line(s) accepted, 0 refused" in answer.body and "REFUSED" not in answer.body, answer.body
            assert service.runner.current_orders("tc-1", "A").orders == ["FEED F1", "MOVE F7-F8"]
            assert service.runner.current_orders("tc-1", "B") is None

    asyncio.run(scenario())


def test_a_subject_tag_stands_in_for_the_game_name(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, onlooker = game.players["A"], service.person("onlooker@players.test")
            await onlooker.send("STATUS\n", subject="[tc-1] how is it going?")
            status = await onlooker.last()
            assert "Game tc-1 (Turkey Chase), active, turn 1." in status.body
            assert "Waiting for orders from: A, B, C, D." in status.body
            await onlooker.send("STATUS\n", subject="how is it going?")
            assert "STATUS needs a game name here" in (await onlooker.last()).body
            await alice.send(f"SIGNON A {game.passwords['A']}\n{OPENING_ORDERS['A']}STATUS\n",
                             subject="Re: AW: [TC-1] Turn 1")
            answer = await alice.last()
            assert "Your orders v1" in answer.body, answer.body
            assert "Waiting for orders from: B, C, D." in answer.body
            assert service.runner.current_orders("tc-1", "A").orders == ["FEED F1", "MOVE F7-F8"]

    asyncio.run(scenario())


def test_answers_thread_under_the_mail_they_answer_and_are_marked_automatic(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path) as service:
            game = await open_game(service)
            alice, report = game.players["A"], game.reports["A"]
            assert report.auto_submitted == "auto-generated"
            assert report.in_reply_to == report.references == "<game.tc-1.thread@pbem.test>"
            message = plain_mail(ALICE, GM_ADDRESS, "Re: orders",
                                 f"SIGNON tc-1 A {game.passwords['A']}\n{OPENING_ORDERS['A']}")
            message.replace_header("Message-ID", "<third@players.test>")
            message["In-Reply-To"] = "<second@pbem.test>"
            message["References"] = "<first@players.test> <second@pbem.test>"
            await send_raw(service, message.as_bytes(), mail_from=ALICE)
            answer = await alice.last()
            assert answer.subject == "Re: orders"
            assert answer.in_reply_to == "<third@players.test>"
            assert answer.references == "<first@players.test> <second@pbem.test> <third@players.test>"
            assert answer.auto_submitted == "auto-replied"
            headers = email.message_from_bytes(answer.raw, policy=email.policy.default)
            assert headers["X-Auto-Response-Suppress"] == "All"
            assert answer.reply_to is not None and answer.reply_to.startswith("gm+tc-1.a.k1.")
            assert inbound_row(service, "<third@players.test>").status == "handled"

    asyncio.run(scenario())
