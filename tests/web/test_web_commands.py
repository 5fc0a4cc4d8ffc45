"""``pbem web`` alone and ``pbem serve --web`` serve the archive over the same database."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

from databases import database_url
from sqlmodel import select
from web_site import TC_SEATS

from pbem.mail.running.daemon import reply_tokens
from pbem.mail.running.serve import serve
from pbem.service.api import GameService
from pbem.store import open_database
from pbem.store.tables import OutboundMessageRow


@contextlib.asynccontextmanager
async def serving_web(db_path: str, mailboxes: Path) -> AsyncIterator[str]:
    """``pbem serve --web`` with its embedded mail servers (their mailboxes in ``mailboxes``) on ``db_path``;
    yields the web's address and stops the daemon when done."""
    out = io.StringIO()
    stop = asyncio.Event()
    task = asyncio.create_task(serve(db_path=str(db_path), imap=None, smtp=None, address="gm@pbem.test",
                                     imap_port=0, smtp_port=0, out=out, stop=stop, web="127.0.0.1:0",
                                     mailboxes=mailboxes))
    for _ in range(400):
        if "web archive is at" in out.getvalue() or task.done():
            break
        await asyncio.sleep(0.05)
    found = re.search(r"web archive is at (http://127\.0\.0\.1:\d+)/", out.getvalue())
    assert found is not None, out.getvalue()
    try:
        yield found[1]
    finally:
        stop.set()
        await asyncio.wait_for(task, timeout=60)


def make_game(db_path: str) -> None:
    db = open_database(db_path)
    try:
        GameService(db).create_game("turkey-chase", "tc-1", seats=TC_SEATS, seed=5)
    finally:
        db.close()


def test_pbem_web_serves_the_archive_of_a_database(tmp_path: Path) -> None:
    db_path = database_url(tmp_path)
    make_game(db_path)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    process = subprocess.Popen([sys.executable, "-m", "pbem.cli", "web", "127.0.0.1:0", "--db", str(db_path)],
                               stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert found is not None, line
        with urllib.request.urlopen(found[0] + "/game/tc-1", timeout=30) as response:
            page = response.read().decode()
        assert "Turkey Chase" in page and 'src="/game/tc-1/0.svg"' in page
    finally:
        process.terminate()
        assert process.wait(timeout=30) in (0, -15)


def test_pbem_serve_with_web_serves_the_archive_beside_the_mail(tmp_path: Path) -> None:
    db_path = database_url(tmp_path)
    make_game(db_path)

    async def scenario() -> str:
        async with serving_web(db_path, tmp_path / "mailboxes") as url:
            return await asyncio.to_thread(lambda: urllib.request.urlopen(url + "/", timeout=30).read().decode())

    page = asyncio.run(scenario())
    assert "tc-1" in page and "alice@example.org" not in page


def test_an_unsubscribe_on_the_web_of_pbem_serve_tells_the_gm_by_mail(tmp_path: Path) -> None:
    db_path = database_url(tmp_path)
    db = open_database(db_path)
    try:
        GameService(db).create_game("turkey-chase", "tc-1", seats=TC_SEATS, seed=5, gm_address="boss@example.org")
        token = reply_tokens(db).stop_token(TC_SEATS["B"])
    finally:
        db.close()

    async def scenario() -> None:
        async with serving_web(db_path, tmp_path / "mailboxes") as url:
            request = urllib.request.Request(f"{url}/unsubscribe/{token}", data=b"List-Unsubscribe=One-Click")
            page = await asyncio.to_thread(lambda: urllib.request.urlopen(request, timeout=30).read().decode())
        assert "Unsubscribed" in page

    asyncio.run(scenario())
    db = open_database(db_path)
    try:
        with db.session() as session:
            told = [row for row in session.exec(select(OutboundMessageRow))
                    if row.recipients == ["boss@example.org"] and b"sent STOP" in row.raw]
        assert len(told) == 1
    finally:
        db.close()
