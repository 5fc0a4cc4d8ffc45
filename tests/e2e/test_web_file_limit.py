"""``pbem web`` as a process whose file limit is lower than its cap on connections (an operator's mistake,
or a limit shared with much else): a flood of idle connections makes ``accept()`` fail for want of file
descriptors, and the log stays a few lines a second instead of thousands."""

from __future__ import annotations

import asyncio
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest
from databases import database_url

PBEM = [sys.executable, "-m", "pbem.cli"]
FILE_LIMIT = 64
FLOOD = 300
FLOOD_SECONDS = 3.0
STARTUP_TIMEOUT = 60.0


def _low_file_limit() -> None:
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, hard))


async def _flood(port: int) -> int:
    """Open up to :data:`FLOOD` connections, hold them :data:`FLOOD_SECONDS`; how many opened."""
    held: list[asyncio.StreamWriter] = []
    for _ in range(FLOOD):
        try:
            held.append((await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 2))[1])
        except (OSError, TimeoutError):
            break
    await asyncio.sleep(FLOOD_SECONDS)
    for writer in held:
        writer.close()
    return len(held)


@pytest.mark.slow
def test_a_flood_past_the_file_limit_logs_a_few_lines_a_second(tmp_path: Path) -> None:
    log = tmp_path / "web.log"
    with open(log, "wb") as stderr:
        process = subprocess.Popen([*PBEM, "web", "127.0.0.1:0", "--db", database_url(tmp_path),
                                    "--web-connections", "1000", "--web-idle", "60"],
                                   stdout=subprocess.PIPE, stderr=stderr, preexec_fn=_low_file_limit)
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()
        assert line.startswith("The web archive of "), line
        port = int(line.split(" is at ")[1].split("/")[2].rsplit(":", 1)[1])
        started = time.monotonic()
        opened = asyncio.run(_flood(port))
        seconds = time.monotonic() - started
    finally:
        process.terminate()
        process.wait(timeout=STARTUP_TIMEOUT)
    assert opened > FILE_LIMIT, "the flood went past the file limit"
    text = log.read_text()
    errors = [line for line in text.splitlines() if "socket.accept() out of system resource" in line]
    assert errors, f"accept() never failed for want of files:\n{text[:2000]}"
    assert len(errors) <= 3 * (int(seconds) + 2)
    assert len(text) < 100_000, "not a traceback for each connection"
