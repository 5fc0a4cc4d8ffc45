"""Reports through real mail: the reader's picture inline, the private link, and VIEWJSON ON/OFF."""

from __future__ import annotations

import asyncio
import email
import email.policy
import json
from email.message import EmailMessage
from pathlib import Path

from mail_harness import running_service


def parts(raw: bytes) -> dict[str, EmailMessage]:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    found: dict[str, EmailMessage] = {}
    for part in message.walk():
        assert isinstance(part, EmailMessage)
        found.setdefault(part.get_content_type(), part)
    return found


def test_a_report_by_mail_has_the_picture_the_link_and_on_request_the_view_as_json(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with running_service(tmp_path, web_url="http://127.0.0.1:8080") as service:
            gm = service.person("boss@example.org")
            await gm.send("CREATE turkey-chase tc1\n")
            password = (await gm.last()).body.split("GM password is ")[1].split(":")[0]
            players = [service.person(f"{p}@example.org") for p in "abcd"]
            for player in players:
                await player.send("JOIN tc1\n")
                await player.last()
            await players[0].send("VIEWJSON ON\n")
            assert "will carry your seat's view as a JSON attachment" in (await players[0].last()).body
            await players[1].send("viewjson on\nVIEWJSON OFF\n")
            await players[1].last()
            await gm.send(f"GM tc1 {password}\nSTART\n")
            mine, theirs = await players[0].last(), await players[1].last()
            assert mine.subject == "[tc1] Turn 1" and "The cornfield" in mine.body
            assert "http://127.0.0.1:8080/seat/tc1.a.k1." in mine.body
            assert "http://127.0.0.1:8080/seat/tc1.b.k1." in theirs.body
            own = parts(mine.raw)
            assert {"multipart/related", "image/png", "text/html", "application/json"} <= set(own)
            assert own["image/png"]["Content-ID"].strip("<>") in own["text/html"].get_content()
            view = json.loads(own["application/json"].get_content())
            assert view == service.runner.state_json("tc1", "A")["state"]
            assert own["application/json"].get_filename() == "view.json"
            other = parts(theirs.raw)
            assert "image/png" in other and "application/json" not in other

    asyncio.run(scenario())
