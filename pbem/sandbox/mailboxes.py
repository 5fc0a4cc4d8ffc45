"""Run the embedded IMAP and SMTP servers as a process of their own.

    python -m pbem.sandbox.mailboxes [--imap-port N] [--smtp-port M] [--password P] [--verbose]

Starts :class:`~pbem.sandbox.embedded.EmbeddedMailServers` on 127.0.0.1 (port 0,
the default, picks a free port) and keeps them running until SIGTERM or
SIGINT. When both servers listen, one JSON line goes to standard output, e.g.::

    {"host": "127.0.0.1", "imap_port": 40123, "smtp_port": 40124, "password": "pbem"}

and nothing else is printed there (logs go to standard error). Mail is kept in
memory only and is lost when the process ends.

Because the servers live in their own process, they outlive a game master
that crashes or is killed: the crash test kills ``pbem serve`` with SIGKILL
while the mailboxes keep every message. It is also a quick local mail setup
by hand: start this, then point ``pbem serve`` at it with
``--imap imap://gm%40pbem.test:pbem@127.0.0.1:N/INBOX --smtp smtp://127.0.0.1:M
--address gm@pbem.test`` and any mail client at the same ports (login: the
full address, password as printed).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
from collections.abc import Sequence
from typing import TextIO

from pbem.mail.running.serve import stop_on_signals
from pbem.sandbox.embedded import DEFAULT_PASSWORD, EmbeddedMailServers

HOST = "127.0.0.1"


async def serve_mailboxes(
    *, imap_port: int, smtp_port: int, password: str, out: TextIO, stop: asyncio.Event | None = None
) -> None:
    """Run both servers on 127.0.0.1 until ``stop`` is set or SIGTERM/SIGINT arrives.

    Writes the ready line (JSON: host, imap_port, smtp_port, password) to
    ``out`` once both listen. Raises OSError when a port cannot be bound.
    """
    stop = stop_on_signals(stop)
    async with EmbeddedMailServers(host=HOST, imap_port=imap_port, smtp_port=smtp_port, password=password) as servers:
        ready = {"host": servers.host, "imap_port": servers.imap_port, "smtp_port": servers.smtp_port,
                 "password": servers.password}
        out.write(json.dumps(ready) + "\n")
        out.flush()
        await stop.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and serve; return the exit code (2 when a port is taken)."""
    parser = argparse.ArgumentParser(
        prog="python -m pbem.sandbox.mailboxes",
        description="Local IMAP and SMTP servers on 127.0.0.1 (mail kept in memory) until SIGTERM.",
    )
    parser.add_argument("--imap-port", type=int, default=0, help="IMAP port (default 0: a free port)")
    parser.add_argument("--smtp-port", type=int, default=0, help="SMTP port (default 0: a free port)")
    parser.add_argument("--password", default=DEFAULT_PASSWORD,
                        help=f"the password of every account (default {DEFAULT_PASSWORD!r})")
    parser.add_argument("--verbose", action="store_true", help="log at INFO level to standard error")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve_mailboxes(imap_port=args.imap_port, smtp_port=args.smtp_port,
                                    password=args.password, out=sys.stdout))
    except OSError as error:
        print(f"cannot start the mail servers: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
