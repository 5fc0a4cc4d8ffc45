"""A small LMTP client for tests and benchmarks: a mail server's hand-over to pbem, with every answer it gets (one
per recipient after the data, RFC 2033), over TCP or a UNIX socket."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path


class LmtpRefused(RuntimeError):
    """The LMTP server refused the greeting, LHLO, MAIL or DATA; the message is its answer."""


@dataclass(frozen=True)
class Handover:
    """The answers of one LMTP transaction: to each RCPT, and after the data one per accepted recipient
    (empty when no recipient was accepted)."""

    rcpt: list[str]
    data: list[str]


async def _answer(reader: asyncio.StreamReader) -> str:
    """One (possibly multi-line) reply; its last line."""
    while True:
        line = (await asyncio.wait_for(reader.readline(), 30)).decode()
        if not line:
            raise ConnectionError("the LMTP server closed the connection")
        if line[3:4] != "-":
            return line.rstrip("\r\n")


async def _expect(reader: asyncio.StreamReader, code: str) -> None:
    answer = await _answer(reader)
    if not answer.startswith(code):
        raise LmtpRefused(answer)


async def hand_over(raw: bytes, recipients: list[str], *, port: int | None = None, path: Path | None = None,
                    mail_from: str = "player@players.test") -> Handover:
    """Deliver ``raw`` over LMTP to 127.0.0.1:``port`` or the socket at ``path`` and return the answers.
    Raises ConnectionError when the server closes the connection, TimeoutError when an answer takes over
    30 s, :class:`LmtpRefused` when the greeting, LHLO, MAIL or DATA is refused."""
    if path is not None:
        reader, writer = await asyncio.open_unix_connection(str(path))
    else:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await _expect(reader, "220")
        writer.write(b"LHLO relay.test\r\n")
        await _expect(reader, "250")
        writer.write(f"MAIL FROM:<{mail_from}>\r\n".encode())
        await _expect(reader, "250")
        rcpt = []
        for recipient in recipients:
            writer.write(f"RCPT TO:<{recipient}>\r\n".encode())
            rcpt.append(await _answer(reader))
        accepted = sum(answer.startswith("250") for answer in rcpt)
        if not accepted:
            return Handover(rcpt, [])
        writer.write(b"DATA\r\n")
        await _expect(reader, "354")
        lines = raw.replace(b"\r\n", b"\n").split(b"\n")
        writer.write(b"".join((b"." + line if line.startswith(b".") else line) + b"\r\n" for line in lines) + b".\r\n")
        data = [await _answer(reader) for _ in range(accepted)]
        writer.write(b"QUIT\r\n")
        return Handover(rcpt, data)
    finally:
        writer.close()
