"""The benchmarks' mail world (mail servers and players) in a process of its own.

A deployment's mail servers and players are not in the game master's process:
they do not take its CPU, and they do not share its interpreter lock. With
the embedded servers in the measured process, each mail the benchmark sends
also charges that process with the SMTP server's work, the delivery into the
IMAP mailbox (pymap parses every message it stores) and the IMAP server's
answers, and a responder that hands work to a thread pays for every switch
of the lock between the servers and that thread. :class:`MailWorld` starts
:class:`~pbem.sandbox.embedded.EmbeddedMailServers` in a child Python process
(``python bench/mail_world.py``) and sends the players' mail from there, so
the measured process holds only the responder, as a deployment's does.

The child reads one JSON command per line on its standard input and answers
each with one JSON line carrying the command's ``id``; raw mail travels as
base64. Commands run concurrently (a stream of hostile mail goes on while
order mail is timed). :func:`time_letters` does the sending and timing, in
the child, or in the measured process for servers started there
(:func:`send_letters` takes either).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import aiosmtplib

from pbem.mail.outbound.config import ImapUrl, SmtpUrl
from pbem.sandbox.embedded import EmbeddedMailServers

_HERE = Path(__file__).resolve().parent
_LINE_LIMIT = 256 * 1024 * 1024  # one command may carry a few hundred mails


@dataclass(frozen=True)
class Letter:
    """One mail a player sends: the player's address (envelope sender, and the recipient of the
    reply that is timed), the recipient, and the message."""

    player: str
    to: str
    raw: bytes


@dataclass
class Timing:
    """What :func:`time_letters` saw: each answered player's latency, the wall time from the first
    send to the last reply, how many replies held the ``accepted`` marker, and the CPU the process
    that sent used meanwhile."""

    latencies: list[float]
    seconds: float
    accepted: int
    cpu: float
    world_cpu: float | None = None
    """The CPU the mail world's process (servers and players) used meanwhile, when it runs in a process of
    its own (:class:`MailWorld`); None when the servers run in the measuring process."""


async def time_letters(servers: EmbeddedMailServers, letters: Sequence[Letter], *, rate: float | None,
                       timeout: float, accepted: bytes = b"") -> Timing:
    """Send ``letters`` over one SMTP connection (at ``rate`` per second, or as fast as it goes) and
    wait, at most ``timeout`` s after the last send, for each player's first reply, delivered by
    ``servers`` (which must run in this process)."""
    sent_at: dict[str, float] = {}
    replied_at: dict[str, float] = {}
    accepted_count = 0
    all_replied = asyncio.Event()

    def on_deliver(to: str, raw: bytes) -> None:
        nonlocal accepted_count
        if to in sent_at and to not in replied_at:
            replied_at[to] = time.perf_counter()
            accepted_count += bool(accepted) and accepted in raw
            if len(replied_at) == len(letters):
                all_replied.set()

    servers.on_deliver.append(on_deliver)
    smtp = aiosmtplib.SMTP(hostname=servers.host, port=servers.smtp_port, local_hostname="players.bench")
    await smtp.connect()
    try:
        cpu = time.process_time()
        start = time.perf_counter()
        for number, letter in enumerate(letters):
            if rate is not None:
                await asyncio.sleep(max(0.0, start + number / rate - time.perf_counter()))
            sent_at[letter.player] = time.perf_counter()
            await smtp.sendmail(letter.player, [letter.to], letter.raw)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(all_replied.wait(), timeout)
        end = max(replied_at.values(), default=time.perf_counter())
        cpu = time.process_time() - cpu
    finally:
        servers.on_deliver.remove(on_deliver)
        await smtp.quit()
    latencies = [replied_at[letter.player] - sent_at[letter.player] for letter in letters
                 if letter.player in replied_at]
    return Timing(latencies, end - start, accepted_count, cpu)


async def stream_letters(servers_host: str, smtp_port: int, letters: Sequence[Letter], rate: float,
                         stop: asyncio.Event) -> int:
    """Send ``letters`` in turn, again and again, at ``rate`` per second until ``stop`` is set; each copy
    gets a Message-ID of its own. Returns how many were sent."""
    sent = 0
    async with aiosmtplib.SMTP(hostname=servers_host, port=smtp_port, timeout=60) as smtp:
        for number in itertools.count():
            if stop.is_set():
                break
            letter = letters[number % len(letters)]
            message_id = f"Message-ID: <stream{number}@outside.bench>\r\n".encode()
            await smtp.sendmail(letter.player, [letter.to], message_id + letter.raw)
            sent += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=1 / rate)
    return sent


def _encode(letters: Sequence[Letter]) -> list[dict[str, str]]:
    return [{"player": x.player, "to": x.to, "raw": base64.b64encode(x.raw).decode()} for x in letters]


def _decode(items: Sequence[dict[str, str]]) -> list[Letter]:
    return [Letter(x["player"], x["to"], base64.b64decode(x["raw"])) for x in items]


class MailWorld:
    """Embedded mail servers and the players' sending, in a child process; stands in for
    :class:`~pbem.sandbox.embedded.EmbeddedMailServers` where a responder needs addresses and accounts."""

    def __init__(self) -> None:
        self.host = "127.0.0.1"
        self.imap_port = 0
        self.smtp_port = 0
        self.password = ""
        self._process: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)

    async def __aenter__(self) -> MailWorld:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, str(_HERE / "mail_world.py"), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=_LINE_LIMIT)
        assert self._process.stdout is not None
        hello = json.loads(await self._process.stdout.readline())
        self.host, self.imap_port, self.smtp_port = hello["host"], hello["imap_port"], hello["smtp_port"]
        self.password = hello["password"]
        self._reader = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        assert self._process is not None and self._process.stdin is not None
        self._process.stdin.close()
        try:
            await asyncio.wait_for(self._process.wait(), 10)
        except TimeoutError:
            self._process.kill()
            await self._process.wait()
        if self._reader is not None:
            self._reader.cancel()

    async def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        while line := await self._process.stdout.readline():
            answer = json.loads(line)
            self._waiting.pop(answer["id"]).set_result(answer)
        for future in self._waiting.values():
            future.set_exception(RuntimeError("the mail world's process ended"))

    async def _call(self, op: str, **fields: Any) -> dict[str, Any]:
        assert self._process is not None and self._process.stdin is not None
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        self._process.stdin.write(json.dumps({"id": number, "op": op, **fields}).encode() + b"\n")
        await self._process.stdin.drain()
        answer = await future
        if "error" in answer:
            raise RuntimeError(f"mail world: {op}: {answer['error']}")
        return answer

    def imap_url(self, address: str, mailbox: str = "INBOX") -> str:
        """The imap:// URL logging in as ``address``."""
        return ImapUrl(self.host, self.imap_port, address, self.password, mailbox).to_url()

    def smtp_url(self) -> str:
        """The smtp:// URL of the SMTP server."""
        return SmtpUrl(self.host, self.smtp_port).to_url()

    async def add_user(self, address: str) -> None:
        """Create the account of ``address``."""
        await self._call("add_user", address=address)

    async def time_letters(self, letters: Sequence[Letter], *, rate: float | None, timeout: float,
                           accepted: bytes = b"") -> Timing:
        """:func:`time_letters`, run in the child; ``cpu`` and ``world_cpu`` are the child's (servers and
        players)."""
        answer = await self._call("time", letters=_encode(letters), rate=rate, timeout=timeout,
                                  accepted=base64.b64encode(accepted).decode())
        return Timing(answer["latencies"], answer["seconds"], answer["accepted"], answer["cpu"],
                      world_cpu=answer["cpu"])

    async def stream(self, letters: Sequence[Letter], rate: float) -> int:
        """Start :func:`stream_letters` in the child; returns a number for :meth:`stop_stream`."""
        answer = await self._call("stream", letters=_encode(letters), rate=rate)
        return int(answer["stream"])

    async def stop_stream(self, stream: int) -> int:
        """Stop a stream; returns how many mails it sent."""
        return int((await self._call("stop_stream", stream=stream))["sent"])

    async def inbox_sizes(self, address: str) -> list[int]:
        """The size in bytes of each message in ``address``'s INBOX."""
        return list((await self._call("inbox_sizes", address=address))["sizes"])


async def send_letters(servers: EmbeddedMailServers | MailWorld, letters: Sequence[Letter], *,
                       rate: float | None, timeout: float, accepted: bytes = b"") -> Timing:
    """Time ``letters`` with servers in this process or in a :class:`MailWorld`; ``cpu`` is always
    this process's CPU meanwhile (the responder's, plus the servers' and players' when they run here), and
    ``world_cpu`` the :class:`MailWorld`'s (None for servers in this process)."""
    if isinstance(servers, MailWorld):
        cpu = time.process_time()
        timing = await servers.time_letters(letters, rate=rate, timeout=timeout, accepted=accepted)
        timing.cpu = time.process_time() - cpu
        return timing
    return await time_letters(servers, letters, rate=rate, timeout=timeout, accepted=accepted)


async def _serve() -> None:
    """The child: start the servers, say where they are, then answer commands until stdin closes."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out = sys.stdout.buffer
    streams: dict[int, tuple[asyncio.Event, asyncio.Task[int]]] = {}
    tasks: set[asyncio.Task[None]] = set()

    def answer(fields: dict[str, Any]) -> None:
        out.write(json.dumps(fields).encode() + b"\n")
        out.flush()

    async with EmbeddedMailServers() as servers:
        answer({"host": servers.host, "imap_port": servers.imap_port, "smtp_port": servers.smtp_port,
                "password": servers.password})

        async def run(command: dict[str, Any]) -> None:
            op, reply = command["op"], {"id": command["id"]}
            try:
                if op == "add_user":
                    await servers.add_user(command["address"])
                elif op == "time":
                    timing = await time_letters(servers, _decode(command["letters"]), rate=command["rate"],
                                                timeout=command["timeout"],
                                                accepted=base64.b64decode(command["accepted"]))
                    reply.update(latencies=timing.latencies, seconds=timing.seconds, accepted=timing.accepted,
                                 cpu=timing.cpu)
                elif op == "stream":
                    stop = asyncio.Event()
                    streams[command["id"]] = (stop, asyncio.create_task(stream_letters(
                        servers.host, servers.smtp_port, _decode(command["letters"]), command["rate"], stop)))
                    reply["stream"] = command["id"]
                elif op == "stop_stream":
                    stop, task = streams.pop(command["stream"])
                    stop.set()
                    reply["sent"] = await task
                elif op == "inbox_sizes":
                    reply["sizes"] = [len(mail.raw) for mail in await servers.inbox(command["address"])]
                else:
                    reply["error"] = f"unknown command {op!r}"
            except Exception as error:  # the parent raises it
                reply["error"] = repr(error)
            answer(reply)

        while line := await reader.readline():
            task = asyncio.create_task(run(json.loads(line)))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        for stop, _ in streams.values():
            stop.set()
        await asyncio.gather(*tasks, *(task for _, task in streams.values()), return_exceptions=True)


if __name__ == "__main__":
    from pbem.mail.running.daemon import tune_gc_for_serving  # the same collector settings as the measured side

    tune_gc_for_serving()
    asyncio.run(_serve())
