"""The benchmarks' web readers, in a process of their own: busy clients fetching archive pages, idle
connections held open, and a probe of ``/healthz``.

    python bench/web_load.py URL --paths /,/game/x --clients 20 --idle 1100 --seconds 30

For ``--seconds`` (bounded), ``--clients`` readers each fetch the ``--paths`` in turn, one request at a
time, as fast as they are answered; ``--idle`` connections are opened (each sends nothing) and held;
once a second ``/healthz`` is asked for on a fresh connection, waiting at most 5 s. At the end one
line of JSON says what was seen: ``pages`` fetched, ``refused`` (an answer other than 200, or a
connection closed or failed), the pages' ``page_ms`` latencies, ``idle_open`` (idle connections
opened) and ``idle_closed`` (of those, closed by the server by the end), and ``healthz`` (each
probe's time in milliseconds, or null when it got no 200 within 5 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import time
from dataclasses import dataclass, field

import aiohttp

HEALTHZ_WAIT = 5.0


@dataclass
class Seen:
    """What the readers saw."""

    pages: int = 0
    refused: int = 0
    page_ms: list[float] = field(default_factory=list)
    healthz: list[float | None] = field(default_factory=list)
    idle_open: int = 0
    idle_closed: int = 0


async def _reader(session: aiohttp.ClientSession, url: str, paths: list[str], until: float, seen: Seen) -> None:
    number = 0
    while time.perf_counter() < until:
        started = time.perf_counter()
        try:
            async with session.get(url + paths[number % len(paths)]) as response:
                await response.read()
                ok = response.status == 200
        except (aiohttp.ClientError, OSError, TimeoutError):
            ok = False
        if ok:
            seen.pages += 1
            seen.page_ms.append((time.perf_counter() - started) * 1000)
        else:
            seen.refused += 1
            await asyncio.sleep(0.05)
        number += 1


async def _hold_idle(host: str, port: int, count: int, until: float, seen: Seen) -> None:
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    for _ in range(count):
        if time.perf_counter() >= until:
            break
        try:
            held.append(await asyncio.wait_for(asyncio.open_connection(host, port), 2))
        except (OSError, TimeoutError):
            await asyncio.sleep(0.01)
    seen.idle_open = len(held)
    await asyncio.sleep(max(0.0, until - time.perf_counter()))
    seen.idle_closed = sum(await asyncio.gather(*(_closed_by_server(reader) for reader, _ in held)))
    for _, writer in held:
        writer.close()


async def _closed_by_server(reader: asyncio.StreamReader) -> bool:
    with contextlib.suppress(TimeoutError, OSError):
        while await asyncio.wait_for(reader.read(65536), 0.05):
            pass
    return reader.at_eof()


async def _probe(session: aiohttp.ClientSession, url: str, until: float, seen: Seen) -> None:
    while time.perf_counter() < until:
        started = time.perf_counter()
        try:
            async with session.get(url + "/healthz", timeout=aiohttp.ClientTimeout(total=HEALTHZ_WAIT)) as response:
                await response.read()
                seen.healthz.append((time.perf_counter() - started) * 1000 if response.status == 200 else None)
        except (aiohttp.ClientError, OSError, TimeoutError):
            seen.healthz.append(None)
        await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - started)))


async def load(url: str, paths: list[str], clients: int, idle: int, seconds: float) -> Seen:
    """Run the readers, the idle connections and the probe for ``seconds``; return what they saw."""
    seen = Seen()
    until = time.perf_counter() + seconds
    host, port = url.removeprefix("http://").rsplit(":", 1)
    timeout = aiohttp.ClientTimeout(total=30)
    async with (aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=clients or 1), timeout=timeout) as busy,
                aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as probe):
        await asyncio.gather(*(_reader(busy, url, paths, until, seen) for _ in range(clients)),
                             _hold_idle(host, int(port), idle, until, seen), _probe(probe, url, until, seen))
    return seen


def main() -> None:
    """Parse the arguments, run the load and print what was seen as one line of JSON."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--paths", default="/")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--idle", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):  # room for the idle connections, where the hard limit allows
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, args.idle + args.clients + 100)), hard))
    seen = asyncio.run(load(args.url, args.paths.split(","), args.clients, args.idle, args.seconds))
    print(json.dumps(seen.__dict__))


if __name__ == "__main__":
    main()
