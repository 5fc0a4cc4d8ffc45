"""Backups that restore: ``pbem backup`` taken while ``pbem serve`` handles a burst of order mail, ``pbem
restore`` into a new, empty database, and ``pbem serve`` again on the restored database, with the mailbox
as the operator left it; on the run's database engine.

The scenario of tests/e2e/test_crash.py without the kills: eight Turkey Chase
games, 200 order mails (each seat D mail resolves its game's turn 1), the mail
servers in a process of their own so the mailboxes outlive the daemons. The
backup is taken once the daemon handled some mail, while more arrives; the
last mails are sent only once the backup is done, so they are surely not in
it. The first daemon then handles everything and stops (the machine that
"died"). The operator restores the backup and puts the mail back as
docs/operators.md says: every message in the mailbox is offered again (the
intake's flags removed). The daemon on the restored database must:

* find the backup consistent: every mail in it handled with its reply queued,
  its orders stored and its turn resolved, or not handled at all (no half of a
  mail);
* not handle again, nor answer again, any mail handled before the backup
  (recognised by its Message-ID), while it handles and answers every mail
  handled after it;
* end with every game replaying (``pbem upgrade-check`` clean) and each turn
  resolved once.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import aioimaplib
import pytest
from databases import database_url, empty_database_url
from test_crash import (
    GAMES,
    GM_ADDRESS,
    PBEM,
    SEED,
    SIGNON_SEAT,
    WORK_TIMEOUT,
    Daemon,
    OrderMail,
    deliver,
    mail_servers,
    query,
    read_mailboxes,
    set_up_games,
    wait_for_work,
)

from pbem.sandbox.mailclient import ReceivedMail

HANDLED_BEFORE_BACKUP = 40
"""Mails the daemon has handled when the backup starts."""
HELD = 20
"""The last mails, sent only once the backup is done."""
FINISH_TIMEOUT = 120.0


@dataclass(frozen=True)
class Run:
    """What the scenario saw: the database at backup time (read from the restored database before a daemon
    ran on it), and the mailboxes before and after the daemon on the restored database ran."""

    at_backup: dict[str, str]
    """Message-ID -> status of every mail in the backup."""
    replies_at_backup: dict[str, tuple[int, str]]
    """Message-ID -> id and status (queued or sent) of the reply to each mail in the backup that has one."""
    orders_at_backup: set[str]
    """The Message-IDs of the mails whose orders the backup holds."""
    resolved_at_backup: set[str]
    """The games whose turn 1 the backup holds resolved."""
    before: dict[str, list[ReceivedMail]]
    after: dict[str, list[ReceivedMail]]


async def _run_pbem(*args: str) -> tuple[int, str]:
    """Run ``pbem ARGS`` as a process, without holding up the event loop; return its exit code and output."""
    process = await asyncio.create_subprocess_exec(*PBEM, *args, stdout=asyncio.subprocess.PIPE,
                                                   stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), 120)
    return await process.wait(), out.decode()


async def _put_back_every_mail(imap_port: int) -> int:
    """What the operator does after a restore (docs/operators.md, Backups): offer every message in the game
    master's mailbox to the intake again, by removing the flags it marks taken mail with (the embedded server
    takes no keywords: the intake marks with \\Seen); return how many messages there are."""
    client = aioimaplib.IMAP4("127.0.0.1", imap_port, timeout=10)
    await client.wait_hello_from_server()
    try:
        assert (await client.login(GM_ADDRESS, "pbem")).result == "OK"
        assert (await client.select("INBOX")).result == "OK"
        found = await client.uid_search("ALL", charset=None)
        uids = [token for line in found.lines[:-1] for token in bytes(line).split() if token.isdigit()]
        stored = await client.uid("store", "1:*", "-FLAGS.SILENT", r"(\Seen $PbemTaken)")  # as the docs say
        assert stored.result == "OK", stored
        unseen = await client.uid_search("UNSEEN", charset=None)
        assert len([t for line in unseen.lines[:-1] for t in bytes(line).split() if t.isdigit()]) == len(uids)
        return len(uids)
    finally:
        await client.logout()


def _replies_by_mail(db: str) -> dict[str, tuple[int, str]]:
    """Message-ID -> id and status (queued, sent) of the reply queued for each stored mail that has one;
    no mail has two."""
    rows = query(db, """SELECT i.message_id, o.id, o.status FROM outbound_message o
                        JOIN inbound_message i ON i.id = o.inbound_id WHERE o.purpose = 'reply'""")
    replies = Counter(str(message_id) for message_id, _, _ in rows)
    assert set(replies.values()) <= {1}, f"a mail answered twice: {replies.most_common(3)}"
    return {str(message_id): (int(str(reply)), str(status)) for message_id, reply, status in rows}


async def _scenario(tmp_path: Path, db: str, restored: str, mails: list[OrderMail]) -> Run:
    backup_file = tmp_path / "backups" / "pbem.backup"
    backup_file.parent.mkdir()
    rng = random.Random(SEED)
    senders = sorted({mail.sender for mail in mails})
    total_work = 2 * len(mails) + 4 * GAMES  # each mail handled and answered; a report per seat
    with open(tmp_path / "servers.log", "wb") as server_log, open(tmp_path / "daemon.log", "wb") as daemon_log:
        async with mail_servers(server_log) as (imap_port, smtp_port):
            first = Daemon(db, imap_port, smtp_port, daemon_log)
            await first.start()
            try:
                await deliver(smtp_port, mails[:60], rng)
                await wait_for_work(db, 0, timeout=WORK_TIMEOUT, handled=HANDLED_BEFORE_BACKUP)
                burst = asyncio.create_task(deliver(smtp_port, mails[60:-HELD], rng))
                code, out = await _run_pbem("backup", str(backup_file), "--db", db)
                assert code == 0, out
                await burst
                await deliver(smtp_port, mails[-HELD:], rng)
                await wait_for_work(db, total_work, timeout=FINISH_TIMEOUT)
            finally:
                assert await first.stop() == 0
            assert backup_file.stat().st_mode & 0o777 == 0o600
            assert [path.name for path in backup_file.parent.iterdir()] == [backup_file.name]  # no temporary left
            before = await read_mailboxes(imap_port, senders)

            code, out = await _run_pbem("restore", str(backup_file), "--db", restored)
            assert code == 0 and f"{GAMES} game(s)" in out and "The newest mail in it was received at" in out, out
            at_backup = {str(message_id): str(status)
                         for message_id, status in query(restored, "SELECT message_id, status FROM inbound_message")}
            replies_at_backup = _replies_by_mail(restored)
            orders_at_backup = {str(source).removeprefix("mail:") for (source,) in query(
                restored, "SELECT source FROM submission")}
            resolved_at_backup = {str(name) for (name,) in query(
                restored, "SELECT g.name FROM turn_record t JOIN game g ON g.id = t.game_id")}
            assert await _put_back_every_mail(imap_port) == len(mails)

            second = Daemon(restored, imap_port, smtp_port, daemon_log)
            await second.start()
            try:
                await wait_for_work(restored, total_work, timeout=FINISH_TIMEOUT, handled=len(mails))
            finally:
                assert await second.stop() == 0
            after = await read_mailboxes(imap_port, senders)
    return Run(at_backup, replies_at_backup, orders_at_backup, resolved_at_backup, before, after)


@pytest.mark.slow
def test_a_backup_taken_during_a_burst_of_mail_restores_and_serve_goes_on_without_answering_twice(
        tmp_path: Path) -> None:
    db = database_url(tmp_path)
    mails = set_up_games(db)
    restored = empty_database_url(tmp_path, "restored.db")
    run = asyncio.run(_scenario(tmp_path, db, restored, mails))
    by_id = {mail.message_id: mail for mail in mails}

    # The backup is one moment: some mail handled, the last mails not in it, each mail whole or not at all.
    handled_at_backup = {mid for mid, status in run.at_backup.items() if status == "handled"}
    assert set(run.at_backup.values()) <= {"new", "handled"}
    assert len(handled_at_backup) >= HANDLED_BEFORE_BACKUP
    assert not set(run.at_backup) & {mail.message_id for mail in mails[-HELD:]}
    assert set(run.replies_at_backup) == handled_at_backup  # handled <=> its reply queued
    assert run.orders_at_backup == handled_at_backup  # handled <=> its orders stored
    assert run.resolved_at_backup == {mail.game for mail in mails
                                      if mail.seat == SIGNON_SEAT and mail.message_id in handled_at_backup}
    print(f"\nin the backup: {len(run.at_backup)} of {len(mails)} mails, {len(handled_at_backup)} handled, "
          f"{Counter(status for _, status in run.replies_at_backup.values())} replies")

    # The daemon on the restored database handled every mail once: those of the backup not again.
    final = dict(query(restored, "SELECT message_id, status FROM inbound_message"))
    assert Counter(final.values()) == Counter({"handled": len(mails)}) and set(final) == set(by_id)
    replies = _replies_by_mail(restored)
    assert {status for _, status in replies.values()} == {"sent"} and set(replies) == set(by_id)
    for message_id, (reply, _) in run.replies_at_backup.items():
        assert replies[message_id][0] == reply  # the reply of the backup, not a new one

    # Its mail: no answer to a mail answered before the backup, one to each mail handled after it (and the
    # replies still queued at backup time, which the first daemon had sent meanwhile: sending is at least once).
    sent_before = {mid for mid, (_, status) in run.replies_at_backup.items() if status == "sent"}
    queued_before = {mid for mid, (_, status) in run.replies_at_backup.items() if status == "queued"}
    answered: Counter[str] = Counter()
    for sender, box in run.after.items():
        for received in box[len(run.before[sender]):]:
            if received.in_reply_to in by_id:  # a reply (reports follow up the game's thread)
                answered[received.in_reply_to] += 1
    assert not set(answered) & sent_before
    assert set(answered) == (set(by_id) - handled_at_backup) | queued_before
    assert set(answered.values()) == {1}

    # Every game resolved turn 1 once, and every game replays.
    records = query(restored, "SELECT g.name, t.turn FROM turn_record t JOIN game g ON g.id = t.game_id")
    assert sorted(records) == sorted((f"tc-{n}", 1) for n in range(1, GAMES + 1))
    check = asyncio.run(_run_pbem("upgrade-check", "--db", restored))
    assert check == (0, f"Checked {GAMES} games: 0 would resolve differently.\n"), check
