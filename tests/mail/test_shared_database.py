"""What several daemons on one database rely on, on the run's engine (the claims that need two
transactions at once run on PostgreSQL only): the outbox's priorities and leases, the order of one
sender's mail, settings made by daemons starting together, 64-bit values."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from databases import on_postgresql

from pbem.clock import utcnow
from pbem.mail.outbound.compose import compose_notice
from pbem.mail.outbound.queue import DatabaseOutbox
from pbem.mail.reading.mailstore import InboundStore
from pbem.mail.running import daemon as daemon_module
from pbem.mail.running.daemon import setting, store_setting
from pbem.service.api import GameService
from pbem.store import Database, open_database
from pbem.store.tables import SettingRow

TC_SEATS = {seat: f"{seat.lower()}@example.org" for seat in "ABCD"}


def mail_from(sender: str, number: int) -> bytes:
    return (f"From: {sender}\r\nTo: gm@pbem.test\r\nMessage-ID: <m{number}@example.org>\r\nSubject: x\r\n\r\n"
            "HELP\r\n").encode()


def queue(db: Database, purpose: str, to: str) -> None:
    notice = compose_notice(to=to, from_address="gm@pbem.test", from_name="GM", now=utcnow(), subject=purpose,
                            body="text\n")
    with db.session() as session:
        DatabaseOutbox.enqueue(session, notice, purpose=purpose)


def test_replies_are_claimed_before_reports_queued_earlier(db: Database) -> None:
    for number in range(5):
        queue(db, "report", f"r{number}@example.org")
    queue(db, "reply", "asker@example.org")
    outbox = DatabaseOutbox(db)
    now = utcnow() + timedelta(seconds=1)
    [first] = outbox.claim_due(now, 1)
    assert first.recipients == ("asker@example.org",)
    rest = outbox.claim_due(now, 10)
    assert [mail.recipients for mail in rest] == [(f"r{number}@example.org",) for number in range(5)]


def test_a_claim_is_a_lease_that_another_sender_takes_over_once_it_ends(db: Database) -> None:
    queue(db, "reply", "asker@example.org")
    holder, other = DatabaseOutbox(db, lease=timedelta(seconds=60)), DatabaseOutbox(db)
    now = utcnow() + timedelta(seconds=1)
    [mail] = holder.claim_due(now, 10)
    assert other.claim_due(now, 10) == []  # leased: passed by
    assert other.next_due() == now + timedelta(seconds=60)  # the other sender looks again when the lease ends
    [taken] = other.claim_due(now + timedelta(seconds=61), 10)  # the holder died: its lease ended
    assert taken.id == mail.id
    other.mark_sent(taken.id, now + timedelta(seconds=61))
    assert holder.claim_due(now + timedelta(hours=1), 10) == [] and other.next_due() is None


def test_a_renewed_lease_runs_on_and_a_lease_another_sender_took_is_neither_renewed_nor_recorded(
        db: Database) -> None:
    queue(db, "reply", "asker@example.org")
    holder, other = DatabaseOutbox(db, lease=timedelta(seconds=3)), DatabaseOutbox(db, lease=timedelta(seconds=3))
    now = utcnow() + timedelta(seconds=1)
    [mail] = holder.claim_due(now, 10)
    assert holder.renew_claims(now + timedelta(seconds=2)) == 1  # the holder lives: its lease runs to now + 5 s
    assert other.claim_due(now + timedelta(seconds=4), 10) == []
    assert other.next_due() == now + timedelta(seconds=5)
    [taken] = other.claim_due(now + timedelta(seconds=6), 10)  # no renewal since: the holder died, or stalled
    assert taken.id == mail.id
    assert holder.renew_claims(now + timedelta(seconds=6)) == 0  # no longer the holder's
    holder.mark_retry(mail.id, "421 try later", now + timedelta(seconds=6))  # left alone: the other's now
    assert DatabaseOutbox(db).claim_due(now + timedelta(seconds=7), 10) == []  # the other's lease still runs
    assert other.renew_claims(now + timedelta(seconds=7)) == 1


def test_a_sender_holds_a_claim_only_while_its_lease_surely_runs(db: Database) -> None:
    queue(db, "reply", "a@example.org")
    queue(db, "reply", "b@example.org")
    seconds = [100.0]
    outbox = DatabaseOutbox(db, lease=timedelta(seconds=3), monotonic=lambda: seconds[0])
    first, second = outbox.claim_due(utcnow() + timedelta(seconds=1), 10)
    seconds[0] = 101.5
    assert outbox.holds(first.id) and outbox.holds(second.id)
    assert outbox.renew_claims(utcnow()) == 2  # at 101.5: runs to 104.5
    seconds[0] = 103.9
    assert outbox.holds(first.id)
    seconds[0] = 104.1  # within half a second of the end: another sender may take it before the mail is out
    assert not outbox.holds(second.id) and not outbox.holds(first.id)
    assert outbox.renew_claims(utcnow()) == 0  # forgotten: nothing left to renew


def test_a_restarted_sender_ends_its_own_leases(db: Database) -> None:
    queue(db, "reply", "asker@example.org")
    outbox = DatabaseOutbox(db)
    now = utcnow() + timedelta(seconds=1)
    [mail] = outbox.claim_due(now, 10)
    outbox.release_claims()
    assert [again.id for again in DatabaseOutbox(db).claim_due(now, 10)] == [mail.id]


def test_a_daemon_alone_on_its_database_ends_every_lease_at_its_start(db: Database) -> None:
    queue(db, "reply", "asker@example.org")
    now = utcnow() + timedelta(seconds=1)
    [mail] = DatabaseOutbox(db).claim_due(now, 10)  # claimed by a daemon that was killed since
    DatabaseOutbox(db).release_claims(everyone=True)
    assert [again.id for again in DatabaseOutbox(db).claim_due(now, 10)] == [mail.id]


def test_one_senders_mail_is_handled_in_arrival_order(db: Database) -> None:
    inbound = InboundStore(db)
    first, second = inbound.store(1, mail_from("s@example.org", 1)), inbound.store(2, mail_from("s@example.org", 2))
    other = inbound.store(3, mail_from("t@example.org", 3))
    with db.session() as handling:  # a daemon handles the first mail and holds its lock
        assert InboundStore.claim_next(handling) == first
        if on_postgresql():  # meanwhile another daemon takes the other sender's mail, never the second one
            with db.session() as meanwhile:
                assert InboundStore.claim_next(meanwhile) == other
        InboundStore.finish(handling, first, "handled", None, mail_from("s@example.org", 1))
    with db.session() as session:
        assert InboundStore.claim_next(session) == second


@pytest.fixture
def second_connection(db_url: str) -> Iterator[Database]:
    database = open_database(db_url)
    yield database
    database.close()


def test_daemons_starting_together_agree_on_a_new_setting(db: Database, second_connection: Database) -> None:
    def made_by_both() -> str:
        store_setting(second_connection, "key", "theirs")  # the other daemon stores it first
        return "ours"

    assert setting(db, "key", made_by_both) == "theirs"
    assert setting(second_connection, "key") == "theirs"
    with db.session() as session:
        assert session.get(SettingRow, "key") is not None


def test_heartbeats_of_two_daemons_never_collide(db: Database, second_connection: Database,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    original = daemon_module._insert_setting

    def other_daemon_first(database: Database, key: str, value: str) -> bool:
        if not calls:
            calls.append(key)
            assert original(second_connection, key, "the other one")
        return original(database, key, value)

    monkeypatch.setattr(daemon_module, "_insert_setting", other_daemon_first)
    store_setting(db, "last_seen", "ours")
    assert setting(db, "last_seen") == "ours"  # the insert collided, and became an update


def test_seeds_and_uids_over_32_bits_are_stored(runner: GameService, db: Database) -> None:
    runner.create_game("turkey-chase", "big", seats=TC_SEATS, seed=3_000_000_000)
    assert runner.info("big").row.seed >= 0
    runner.create_game("turkey-chase", "legacy", seats=TC_SEATS, seed=3_000_000_000, rng_version=1)
    assert runner.info("legacy").row.seed == 3_000_000_000
    inbound_id = InboundStore(db).store(4_000_000_000, mail_from("s@example.org", 9))  # IMAP UIDs reach 2**32 - 1
    assert inbound_id is not None


def test_a_daemons_connections_are_given_up_by_the_server_within_seconds_of_silence(db_url: str) -> None:
    if not on_postgresql():
        pytest.skip("TCP keepalives of a PostgreSQL server")
    from sqlalchemy import text

    from pbem.mail.running.serve import STUCK_SECONDS
    from pbem.store.database import DEAD_PEER_SECONDS

    daemons = open_database(db_url, stuck_seconds=STUCK_SECONDS)  # as pbem serve opens it
    try:
        with daemons.engine.connect() as connection:
            shown = {name: connection.execute(text(f"SHOW {name}")).scalar() for name in (
                "tcp_keepalives_idle", "tcp_keepalives_interval", "tcp_keepalives_count", "tcp_user_timeout",
                "idle_in_transaction_session_timeout")}
    finally:
        daemons.close()
    assert shown == {"tcp_keepalives_idle": "2", "tcp_keepalives_interval": "1", "tcp_keepalives_count": "2",
                     "tcp_user_timeout": str(DEAD_PEER_SECONDS * 1000), "idle_in_transaction_session_timeout": "2min"}
