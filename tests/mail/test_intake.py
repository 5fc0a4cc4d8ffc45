"""MailIntake against the embedded IMAP server: each message taken once, in order, robustly."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import aioimaplib
import aiosmtplib
import pytest

from pbem.mail.intake.imap import MailIntake, _ImapSession, parse_fetch
from pbem.mail.outbound.config import ImapUrl
from pbem.sandbox.embedded import EmbeddedMailServers

GM = "gm@example.org"
Until = Callable[..., Awaitable[None]]


class Recorder:
    """A handler that keeps what it was given, optionally failing the first calls for some subjects."""

    def __init__(self, fail_times: dict[bytes, int] | None = None) -> None:
        self.taken: list[tuple[int, bytes]] = []
        self.calls = 0
        self._fail_times = dict(fail_times or {})

    async def __call__(self, uid: int, raw: bytes) -> None:
        self.calls += 1
        for subject, times in self._fail_times.items():
            if subject in raw and times > 0:
                self._fail_times[subject] = times - 1
                raise RuntimeError("database is locked")
        self.taken.append((uid, raw))

    @property
    def uids(self) -> list[int]:
        return [uid for uid, _ in self.taken]


def _intake(servers: EmbeddedMailServers, handler: Recorder, **options: Any) -> MailIntake:
    options.setdefault("reconnect_min", 0.05)
    options.setdefault("reconnect_max", 0.2)
    return MailIntake(ImapUrl.parse(servers.imap_url(GM)), handler, rng=random.Random(1), **options)


def _mail(n: int) -> bytes:
    return f"From: p{n}@example.org\r\nTo: {GM}\r\nSubject: order {n}\r\n\r\nMOVE {n}\r\n".encode()


async def _running(intake: MailIntake) -> tuple[asyncio.Event, asyncio.Task[None]]:
    stop = asyncio.Event()
    return stop, asyncio.create_task(intake.run(stop))


async def _stopped(stop: asyncio.Event, task: asyncio.Task[None]) -> None:
    stop.set()
    await asyncio.wait_for(task, 2.0)


def test_each_message_sent_by_smtp_is_taken_exactly_once_with_idle(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = Recorder()
        intake = _intake(servers, handler)
        stop, task = await _running(intake)
        await until(lambda: intake.stats.connects == 1)
        for n in range(25):
            await aiosmtplib.send(_mail(n), sender=f"p{n}@example.org", recipients=[GM],
                                  hostname="127.0.0.1", port=servers.smtp_port)
            if n % 5 == 0:
                await asyncio.sleep(0.02)
        await until(lambda: len(handler.taken) == 25)
        await asyncio.sleep(0.3)  # time for any duplicate to show up
        await _stopped(stop, task)
        assert handler.uids == sorted(set(handler.uids))
        assert [raw.count(b"Subject: order %d\r\n" % n) for n, (_, raw) in enumerate(handler.taken)] == [1] * 25
        assert all("\\Seen" in mail.flags for mail in await servers.inbox(GM))
        assert intake.stats.taken == 25 and intake.stats.reconnects == 0

    arun(scenario())


def test_mail_arriving_while_the_owner_is_not_ready_is_taken_in_one_pass(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = Recorder()
        release = asyncio.Event()
        waits = 0

        async def ready() -> None:
            nonlocal waits
            waits += 1
            await release.wait()

        intake = _intake(servers, handler, ready=ready)
        stop, task = await _running(intake)
        await until(lambda: intake.stats.connects == 1)
        await servers.deliver(GM, _mail(0))
        await until(lambda: len(handler.taken) == 1 and waits == 1)
        searches = intake.stats.searches
        for n in range(1, 8):  # arrive while the owner is still busy with mail 0
            await servers.deliver(GM, _mail(n))
        await asyncio.sleep(0.2)
        assert len(handler.taken) == 1 and intake.stats.searches == searches  # held back: no new SEARCH
        release.set()
        await until(lambda: len(handler.taken) == 8)
        await _stopped(stop, task)
        assert waits == 2  # the seven came in one pass
        assert handler.uids == sorted(handler.uids)

    arun(scenario())


def test_messages_that_arrived_while_down_are_taken_on_start_in_uid_order(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        for n in range(120):
            await servers.deliver(GM, _mail(n))
        handler = Recorder()
        intake = _intake(servers, handler, fetch_chunk=50)
        stop, task = await _running(intake)
        await until(lambda: len(handler.taken) == 120)
        await _stopped(stop, task)
        assert handler.uids == sorted(handler.uids) and len(set(handler.uids)) == 120

    arun(scenario())


def test_already_taken_messages_are_not_taken_again_by_a_new_intake(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        for n in range(3):
            await servers.deliver(GM, _mail(n))
        first = Recorder()
        stop, task = await _running(_intake(servers, first))
        await until(lambda: len(first.taken) == 3)
        await _stopped(stop, task)
        await servers.deliver(GM, _mail(3))
        second = Recorder()
        stop, task = await _running(_intake(servers, second))
        await until(lambda: len(second.taken) == 1)
        await asyncio.sleep(0.2)
        await _stopped(stop, task)
        assert [b"order 3" in raw for _, raw in second.taken] == [True]

    arun(scenario())


def test_a_failing_handler_leaves_the_message_unflagged_and_it_is_retried_later(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = Recorder(fail_times={b"order 1": 2})
        intake = _intake(servers, handler, retry_min=0.3)
        for n in range(3):
            await servers.deliver(GM, _mail(n))
        stop, task = await _running(intake)
        await until(lambda: intake.stats.taken == 2)  # counted once the flags are stored
        flags = {mail.uid: mail.flags for mail in await servers.inbox(GM)}
        assert flags[102] == frozenset() and "\\Seen" in flags[101] and "\\Seen" in flags[103]
        await asyncio.sleep(0.15)
        assert handler.calls == 3  # no spinning: the retry is not due yet
        await until(lambda: len(handler.taken) == 3)
        await _stopped(stop, task)
        assert handler.uids == [101, 103, 102]
        assert intake.stats.handler_failures == 2
        assert all("\\Seen" in mail.flags for mail in await servers.inbox(GM))

    arun(scenario())


def test_a_batch_handler_takes_each_fetch_at_once_and_its_failed_messages_are_retried_alone(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        recorder = Recorder(fail_times={b"order 1": 1})
        batches: list[list[int]] = []

        async def batch(messages: Sequence[tuple[int, bytes]]) -> list[Exception | None]:
            batches.append([uid for uid, _ in messages])
            errors: list[Exception | None] = []
            for uid, raw in messages:
                try:
                    await recorder(uid, raw)
                except RuntimeError as error:
                    errors.append(error)
                else:
                    errors.append(None)
            return errors

        for n in range(3):
            await servers.deliver(GM, _mail(n))
        intake = MailIntake(ImapUrl.parse(servers.imap_url(GM)), None, batch_handler=batch, rng=random.Random(1),
                            retry_min=0.3)
        stop, task = await _running(intake)
        await until(lambda: len(recorder.taken) == 3)
        await _stopped(stop, task)
        assert batches == [[101, 102, 103], [102]]  # one FETCH handed over whole, then the failed one alone
        assert recorder.uids == [101, 103, 102]
        assert intake.stats.handler_failures == 1 and intake.stats.taken == 3
        assert all("\\Seen" in mail.flags for mail in await servers.inbox(GM))

    arun(scenario())


def test_intake_reconnects_after_the_imap_server_restarts_on_the_same_port(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = Recorder()
        intake = _intake(servers, handler)
        stop, task = await _running(intake)
        await servers.deliver(GM, _mail(0))
        await until(lambda: intake.stats.taken == 1)  # handled and flagged
        await servers.stop_imap()
        await until(lambda: intake.stats.reconnects >= 1)
        await servers.deliver(GM, _mail(1))
        await asyncio.sleep(0.3)  # a few refused reconnects
        await servers.start_imap()
        await until(lambda: len(handler.taken) == 2)
        await _stopped(stop, task)
        assert intake.stats.connects == 2
        assert handler.uids == [101, 102]

    arun(scenario())


def test_polling_mode_takes_mail_without_idle(servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = Recorder()
        intake = _intake(servers, handler, use_idle=False, poll_interval=0.1)
        stop, task = await _running(intake)
        await until(lambda: intake.stats.connects == 1)
        for n in range(5):
            await servers.deliver(GM, _mail(n))
            await asyncio.sleep(0.03)
        await until(lambda: len(handler.taken) == 5)
        await _stopped(stop, task)
        assert handler.uids == [101, 102, 103, 104, 105]

    arun(scenario())


@pytest.mark.parametrize(("fix_idle_race", "idle_recheck", "within"), [(False, 0.4, 1.5), (True, 30.0, 0.5)])
def test_a_message_appended_just_before_idle_is_still_taken_promptly(
        arun: Any, until: Until, monkeypatch: pytest.MonkeyPatch,
        fix_idle_race: bool, idle_recheck: float, within: float) -> None:
    """pymap alone announces such a message only at the next change; the intake's recheck
    (first case) or the embedded server's fix (second case) gets it anyway."""
    async def scenario() -> None:
        async with EmbeddedMailServers(fix_idle_race=fix_idle_race) as servers:
            searched_empty = asyncio.Event()
            search = _ImapSession.unhandled

            async def racy_search(session: _ImapSession) -> list[int]:
                uids = await search(session)
                if not uids and not searched_empty.is_set():
                    searched_empty.set()
                    await servers.deliver(GM, _mail(0))  # after SEARCH, before IDLE
                return uids

            monkeypatch.setattr(_ImapSession, "unhandled", racy_search)
            handler = Recorder()
            stop, task = await _running(_intake(servers, handler, idle_recheck=idle_recheck))
            await searched_empty.wait()
            await until(lambda: len(handler.taken) == 1, timeout=within)
            await _stopped(stop, task)

    arun(scenario())


@pytest.mark.parametrize(("fix_idle_race", "within"), [(False, 1.5), (True, 0.5)])
def test_a_message_appended_just_before_a_search_is_found_by_it_or_announced(
        arun: Any, until: Until, monkeypatch: pytest.MonkeyPatch, fix_idle_race: bool, within: float) -> None:
    """A message appended as the intake starts a SEARCH (a player answering the instant the reply leaves):
    pymap alone neither finds nor announces it until the next change, and only the intake's recheck takes
    it (first case, idle_recheck 1 s); the embedded server, as Dovecot, refreshes the mailbox before the
    SEARCH (second case: taken at once although the recheck is 30 s)."""
    async def scenario() -> None:
        async with EmbeddedMailServers(fix_idle_race=fix_idle_race) as servers:
            delivered = asyncio.Event()
            search = _ImapSession.unhandled

            async def search_after_a_delivery(session: _ImapSession) -> list[int]:
                if len(handler.taken) == 1 and not delivered.is_set():  # the SEARCH after taking the first
                    delivered.set()
                    await servers.deliver(GM, _mail(1))
                return await search(session)

            monkeypatch.setattr(_ImapSession, "unhandled", search_after_a_delivery)
            handler = Recorder()
            stop, task = await _running(_intake(servers, handler, idle_recheck=1.0 if not fix_idle_race else 30.0))
            await servers.deliver(GM, _mail(0))
            await delivered.wait()
            await until(lambda: len(handler.taken) == 2, timeout=within)
            await _stopped(stop, task)
            assert handler.uids == [101, 102]

    arun(scenario())


def test_stop_ends_run_promptly_while_idling(servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        intake = _intake(servers, Recorder(), idle_recheck=60.0)
        stop, task = await _running(intake)
        await until(lambda: intake.stats.connects == 1)
        await asyncio.sleep(0.05)
        stop.set()
        await asyncio.wait_for(task, 0.5)

    arun(scenario())


def test_parse_fetch_finds_uid_before_or_after_the_literal_and_skips_flag_updates() -> None:
    lines: list[bytes | bytearray] = [
        b"1 FETCH (UID 101 BODY[] {3}", bytearray(b"one"), b")",
        b"2 FETCH (FLAGS (\\Seen))",
        b"3 FETCH (BODY[] {3}", bytearray(b"two"), b" UID 103)",
        b"UID FETCH completed.",
    ]
    assert parse_fetch(lines) == [(101, b"one"), (103, b"two")]


def test_a_failing_message_deleted_meanwhile_does_not_make_the_intake_spin(
        servers: EmbeddedMailServers, arun: Any, until: Until) -> None:
    async def scenario() -> None:
        handler = Recorder(fail_times={b"order 0": 100})
        intake = _intake(servers, handler, retry_min=0.05, idle_recheck=0.2)
        await servers.deliver(GM, _mail(0))
        stop, task = await _running(intake)
        await until(lambda: intake.stats.handler_failures >= 1)
        await _mark_seen(servers, GM, 101)  # someone else deals with it
        await asyncio.sleep(0.3)
        searches = intake.stats.searches
        await asyncio.sleep(0.4)
        await _stopped(stop, task)
        assert intake.stats.searches - searches <= 3  # only the idle rechecks

    arun(scenario())


async def _mark_seen(servers: EmbeddedMailServers, address: str, uid: int) -> None:
    """Set \\Seen on one message over IMAP, as a mail client would."""
    client = aioimaplib.IMAP4("127.0.0.1", servers.imap_port, timeout=5)
    await client.wait_hello_from_server()
    await client.login(address, servers.password)
    await client.select("INBOX")
    await client.uid("store", str(uid), "+FLAGS.SILENT", "(\\Seen)")
    await client.logout()
