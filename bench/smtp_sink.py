"""An SMTP server that takes mail and keeps nothing but counts, in a process of its own, for the
deadline storm of bench/bench_scale.py: tens of thousands of reports would cost a real mailbox more
than the game master that sends them.

Run as ``python bench/smtp_sink.py``: it prints ``{"port": N}`` once it listens on 127.0.0.1, then one
line ``{"to": ADDRESS, "at": UNIX_TIME}`` for each mail to an address that starts with ``watch``, and
answers each line ``count`` on its standard input with ``{"count": N}`` (every mail taken so far).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

from aiosmtpd.smtp import SMTP, Envelope, Session

WATCHED = "watch"


class _Counter:
    def __init__(self) -> None:
        self.count = 0

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:  # noqa: N802
        self.count += 1
        for recipient in envelope.rcpt_tos:
            if recipient.startswith(WATCHED):
                _say({"to": recipient, "at": time.time()})
        return "250 OK"


def _say(fields: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


async def _serve() -> None:
    counter = _Counter()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(counter, hostname="sink.bench"), "127.0.0.1", 0)
    _say({"port": server.sockets[0].getsockname()[1]})
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        if line.strip() == b"count":
            _say({"count": counter.count})
    server.close()


if __name__ == "__main__":
    asyncio.run(_serve())
