"""Reply latency of normal order mail while hostile mail arrives, against the real daemon.

Prints numbers only; everything runs on 127.0.0.1. Usage:

    python bench/bench_hostile.py [-n 120] [--rate 5] [--hostile-rate 1] [--servers process|inline]

Players send ``-n`` order mails (legal Turkey Chase orders to their reply
addresses, as in bench/bench_mail.py) at ``--rate`` per second while a
stranger sends, at ``--hostile-rate`` per second, the mails that once froze
the daemon, in turn: a From field of 6 folded lines of 900 blanks, a 320 KB
quoted-printable line "am schrieb schrieb ...", 6,000 "GM game guess" lines,
2,000 CREATE lines, 5,000 HELP lines, 80,000 junk lines, an HTML mail of
70,000 unclosed "<a " tags, a Subject of 290 KB of "Re:" prefixes, and the
MIME shapes of issue 23: a Content-Type, a part's Content-Type and a
report-type of a quote and 98,304 ";", 32,768 '\\";' and 16,384 'a="b"'
pairs, each folded every 900 characters, and 300 nested multiparts over
2,000 lines (the bench's IMAP server, pymap, takes half a second to store
that one, a minute for 250,000 lines). The row "normal"
gives the normal mails' reply latency (median and 99th percentile); the
target is a 99th percentile under 1 s. The row "hostile" counts the hostile
mails sent and the size of the largest reply any of them got. The mail
servers, the players and the stranger run in a process of their own
(bench/mail_world.py), as in a deployment; ``--servers inline`` runs them in
this process, as this benchmark did before.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import quopri
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_mail import GM, prepare_games, send_orders  # noqa: E402
from mail_raw import Row, format_rows  # noqa: E402
from mail_world import Letter, MailWorld, stream_letters  # noqa: E402

from pbem.mail.outbound.config import ImapUrl, SmtpUrl  # noqa: E402
from pbem.mail.running.daemon import MailDaemon, tune_gc_for_serving  # noqa: E402
from pbem.sandbox.embedded import EmbeddedMailServers  # noqa: E402
from pbem.store import open_database  # noqa: E402

STRANGER = "eve@outside.bench"


def hostile_mails() -> list[tuple[str, bytes]]:
    """The hostile mails, each as (what it is, raw bytes), without a Message-ID (added when sent)."""
    def mail(from_field: str, body: str, extra: str = "") -> bytes:
        return (f"From: {from_field}\r\nTo: {GM}\r\nSubject: hello\r\n{extra}"
                f"Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n").encode()

    folded = "\r\n".join(" " * 900 for _ in range(6))
    quoted = quopri.encodestring(("am " + "schrieb " * 40_000).encode()).decode()
    html = quopri.encodestring(("<html><body>HELP<br>" + "<a " * 70_000).encode()).decode()
    prefixes = "\r\n ".join(["Re: re  " * 12] * 3_000)
    def fold(field: str) -> str:  # every 900 characters, so that mail servers pass it on
        return "\r\n ".join(field[start:start + 900] for start in range(0, len(field), 900))

    def typed(content_type: str, body: str = "HELP") -> bytes:
        return mail(STRANGER, body).replace(b"text/plain; charset=utf-8", fold(content_type).encode())

    def in_part(content_type: str) -> bytes:  # the Content-Type of a part of a multipart
        return typed('multipart/mixed; boundary="B"',
                     f"--B\r\nContent-Type: {fold(content_type)}\r\n\r\nHELP\r\n--B--")

    nested = "".join(f"--b{level}\r\nContent-Type: multipart/mixed; boundary=b{level + 1}\r\n\r\n"
                     for level in range(300)) + "--b300\r\n\r\nHELP\r\n" + "x\r\n" * 2_000
    return [
        ("99 KB Content-Type of a quote and ';'", typed('text/plain; charset=utf-8; x="' + ";" * 98_304)),
        ("the same in a part's Content-Type", in_part('text/plain; charset=utf-8; x="' + ";" * 98_304)),
        ("99 KB report-type of a quote and ';'", typed('multipart/report; report-type="' + ";" * 98_304)),
        ('99 KB Content-Type of \\"; runs', typed('text/plain; x="' + '\\";' * 32_768)),
        ('99 KB Content-Type of a="b" pairs', typed("text/plain; " + 'a="b";' * 16_384)),
        ("300 nested multiparts, 2,000 lines", typed("multipart/mixed; boundary=b0", nested)),
        ("folded From", mail(f"{folded}\r\n {STRANGER}", "HELP")),
        ("320 KB attribution line", mail(STRANGER, quoted, "Content-Transfer-Encoding: quoted-printable\r\n")),
        ("6,000 GM lines", mail(STRANGER, "".join(f"GM bench-0 guess{n}\n" for n in range(6000)))),
        ("2,000 CREATE lines", mail(STRANGER, "".join(f"CREATE fungus zz{n}\n" for n in range(2000)))),
        ("5,000 HELP lines", mail(STRANGER, "HELP\n" * 5000)),
        ("80,000 junk lines", mail(STRANGER, "".join(f"junk {n}\n" for n in range(80_000)))),
        ("210 KB of unclosed HTML tags", mail(STRANGER, html, "Content-Transfer-Encoding: quoted-printable\r\n"
                                              ).replace(b"text/plain", b"text/html")),
        ("290 KB of reply prefixes", mail(STRANGER, "HELP").replace(b"Subject: hello", f"Subject: {prefixes}".encode())),
    ]


async def measure(workdir: Path, args: argparse.Namespace) -> list[Row]:
    """Run the daemon, the normal players and the stranger; return the rows to print."""
    async with (EmbeddedMailServers() if args.servers == "inline" else MailWorld()) as servers:
        await servers.add_user(GM)
        await servers.add_user(STRANGER)
        db = open_database(str(workdir / "pbem.db"))
        daemon = MailDaemon(db, imap=ImapUrl.parse(servers.imap_url(GM)), smtp=SmtpUrl.parse(servers.smtp_url()),
                            address=GM)
        mails = prepare_games(daemon, args.n, auth="token", resolve="deadline")
        hostile = [Letter(STRANGER, GM, raw) for _, raw in hostile_mails()]
        tune_gc_for_serving()
        stop = asyncio.Event()
        task = asyncio.create_task(daemon.run(stop))
        try:
            if isinstance(servers, MailWorld):
                stream = await servers.stream(hostile, args.hostile_rate)
            else:
                stop_hostile = asyncio.Event()
                sending = asyncio.create_task(stream_letters(servers.host, servers.smtp_port, hostile,
                                                             args.hostile_rate, stop_hostile))
            await asyncio.sleep(1.0)  # the first hostile mails are in before the players start
            normal = await send_orders(servers, "normal", mails, rate=args.rate, timeout=60)
            if isinstance(servers, MailWorld):
                count = await servers.stop_stream(stream)
            else:
                stop_hostile.set()
                count = await sending
        finally:
            stop.set()
            await asyncio.wait_for(task, timeout=30)
            db.close()
        if isinstance(servers, MailWorld):
            replies = await servers.inbox_sizes(STRANGER)
        else:
            replies = [len(mail.raw) for mail in await servers.inbox(STRANGER)]
        hostile_row = Row("hostile", count, count / args.hostile_rate, 0.0, [],
                          f"{args.hostile_rate:g}/s; {len(replies)} replies, largest {max(replies, default=0):,} bytes")
        return [normal, hostile_row]


def main() -> None:
    """Parse the arguments, run the measurement and print the rows."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=120, help="normal order mails (default 120)")
    parser.add_argument("--rate", type=float, default=5.0, help="normal mails per second (default 5)")
    parser.add_argument("--hostile-rate", type=float, default=1.0, help="hostile mails per second (default 1)")
    parser.add_argument("--servers", choices=("process", "inline"), default="process",
                        help="the mail servers and senders in a process of their own (default) or in this one")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        rows = asyncio.run(measure(Path(folder), args))
    print(format_rows(rows))
    normal = sorted(rows[0].latencies)
    if normal:
        p99 = normal[min(len(normal) - 1, int(len(normal) * 0.99))]
        print(f"normal mail p99 {p99 * 1000:.0f} ms (target under 1000 ms); servers {args.servers}; load average "
              f"{' '.join(f'{load:.2f}' for load in os.getloadavg())}; run took {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
