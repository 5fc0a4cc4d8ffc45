"""Several daemons on one PostgreSQL database, and thousands of games in one database.

* 64-bit columns where 32 bits do not hold every value: the game's seed (63
  bits), IMAP UIDs (32 bits unsigned), and the ids of the tables that grow
  with every mail (inbound, outbound, submission). SQLite's integers are 64-bit
  already: only PostgreSQL's columns change.
* ``game.name_key`` (the name in lower case, unique): a mail finds its game by
  an index instead of reading every game's name.
* ``game_rng``: the random generator's state moves out of the game row that
  every mail reads.
* ``game.wake_at`` (indexed) with ``orders_at``, ``absent_at`` and
  ``news_since``: when the turn clock must look at a game next (a deadline,
  orders, an absence, a report digest), so a pass of the clock reads only the
  games that are due.
* The outbox: ``priority`` (replies before reports) and ``lease_until`` (a
  sender's claim, taken over by another sender once it ends), and the indexes
  the claims and the retention use; inbound: the sender (one sender's mail is
  handled in arrival order) and an index of the new mail.

Revision ID: 0011
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_BIG_IDS = ("inbound_message", "outbound_message", "submission")
_NEW_MAIL = sa.text("status = 'new'")
_QUEUED = sa.text("status = 'queued'")
_KEPT_TEXT = sa.text("length(raw) > 0")


def upgrade() -> None:
    """Widen the columns, add the game's clock and name columns, move the generator state, add the
    outbox's priority and lease, and the indexes."""
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.alter_column("game", "seed", type_=sa.BigInteger)
        op.alter_column("inbound_message", "uid", type_=sa.BigInteger)
        op.alter_column("inbound_message", "size", type_=sa.BigInteger)
        for table in _BIG_IDS:
            op.alter_column(table, "id", type_=sa.BigInteger)
            op.execute(f"ALTER SEQUENCE {table}_id_seq AS BIGINT")
        op.alter_column("outbound_message", "inbound_id", type_=sa.BigInteger)
    game = sa.table("game", sa.column("id", sa.Integer), sa.column("rng_state", sa.JSON))
    states = bind.execute(sa.select(game.c.id, game.c.rng_state)).all()
    with op.batch_alter_table("game") as batch:  # before game_rng refers to game: SQLite copies the table
        batch.drop_column("rng_state")
        batch.add_column(sa.Column("name_key", sa.String, nullable=False, server_default=""))
        batch.add_column(sa.Column("orders_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("absent_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("news_since", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("wake_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "game_rng",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), primary_key=True),
        sa.Column("state", sa.JSON, nullable=False),
    )
    rng = sa.table("game_rng", sa.column("game_id", sa.Integer), sa.column("state", sa.JSON))
    for game_id, state in states:
        bind.execute(sa.insert(rng).values(game_id=game_id, state=state))
    op.execute("UPDATE game SET name_key = lower(name)")
    op.create_index("ix_game_name_key", "game", ["name_key"], unique=True)
    op.create_index("ix_game_wake_at", "game", ["wake_at"])
    _schedule_active_games(bind)
    with op.batch_alter_table("outbound_message") as batch:
        batch.add_column(sa.Column("priority", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE outbound_message SET priority = 0 WHERE purpose = 'reply'")
    op.create_index("ix_outbound_message_queue", "outbound_message", ["priority", "next_attempt_at", "id"],
                    sqlite_where=_QUEUED, postgresql_where=_QUEUED)
    op.create_index("ix_outbound_message_created_at", "outbound_message", ["created_at"])
    with op.batch_alter_table("inbound_message") as batch:
        batch.add_column(sa.Column("sender", sa.String, nullable=False, server_default=""))
    op.create_index("ix_inbound_message_new", "inbound_message", ["id"], sqlite_where=_NEW_MAIL,
                    postgresql_where=_NEW_MAIL)
    op.create_index("ix_inbound_message_new_by_sender", "inbound_message", ["sender", "id"],
                    sqlite_where=_NEW_MAIL, postgresql_where=_NEW_MAIL)
    op.create_index("ix_inbound_message_kept", "inbound_message", ["handled_at"], sqlite_where=_KEPT_TEXT,
                    postgresql_where=_KEPT_TEXT)


def _schedule_active_games(bind: sa.engine.Connection) -> None:
    """Set ``absent_at``, ``news_since`` and ``wake_at`` of the running games, as every write of a game row
    does from now on (:func:`pbem.store.tables.wake_time`), with the columns typed as the tables declare
    them."""
    from pbem.store.tables import GameRow, GameStatus, ObserverRow, SeatRow, TurnRecordRow, wake_time

    game = sa.table("game", *(sa.column(name, GameRow.__table__.c[name].type) for name in (  # type: ignore[attr-defined]
        "id", "status", "turn", "deadline", "reminder_hours", "reminded_turn", "resolve_when",
        "early_delay_minutes", "grace_hours", "orders_at", "absent_at", "created_at", "wake_at",
        "gm_reported_turn", "digest_hours", "news_since")))
    seat = sa.table("seat", *(sa.column(name, SeatRow.__table__.c[name].type) for name in (  # type: ignore[attr-defined]
        "game_id", "absent_since", "absence_reported", "address", "last_reported_turn")))
    observer = sa.table("observer", *(sa.column(name, ObserverRow.__table__.c[name].type)  # type: ignore[attr-defined]
                                      for name in ("game_id", "last_reported_turn")))
    record = sa.table("turn_record", *(sa.column(name, TurnRecordRow.__table__.c[name].type)  # type: ignore[attr-defined]
                                       for name in ("game_id", "turn", "resolved_at")))
    absent = dict(bind.execute(
        sa.select(seat.c.game_id, sa.func.min(seat.c.absent_since))
        .where(seat.c.absent_since.is_not(None), seat.c.absence_reported == sa.false())
        .group_by(seat.c.game_id)).all())
    told: dict[int, int] = {}
    for query in (sa.select(seat.c.game_id, sa.func.min(seat.c.last_reported_turn))
                  .where(seat.c.address.is_not(None)).group_by(seat.c.game_id),
                  sa.select(observer.c.game_id, sa.func.min(observer.c.last_reported_turn))
                  .group_by(observer.c.game_id)):
        for game_id, turn in bind.execute(query):
            told[game_id] = min(turn, told.get(game_id, turn))
    running = sa.select(game).where(game.c.status.in_([GameStatus.ACTIVE, GameStatus.PAUSED]))
    for row in bind.execute(running).mappings().all():
        oldest = min(row["gm_reported_turn"], told.get(row["id"], row["gm_reported_turn"]))
        news_since = None
        if oldest < row["turn"] - 1:
            news_since = bind.execute(sa.select(record.c.resolved_at).where(
                record.c.game_id == row["id"], record.c.turn == oldest + 1)).scalar()
        values = _Fields({**row, "absent_at": absent.get(row["id"]), "news_since": news_since,
                          "opened_at": None})  # kept from 0022 on: wake_time reads it
        wake = wake_time(values)  # type: ignore[arg-type]
        bind.execute(sa.update(game).where(game.c.id == row["id"]).values(
            absent_at=values.absent_at, news_since=news_since, wake_at=wake))


class _Fields:
    """A row's values as attributes, for :func:`~pbem.store.tables.wake_time`."""

    def __init__(self, values: dict[str, Any]) -> None:
        self.__dict__.update(values)


def downgrade() -> None:
    """Drop what :func:`upgrade` added and put the generator state back in the game row (the widened
    PostgreSQL columns stay wide: narrowing them could lose values)."""
    bind = op.get_bind()
    op.drop_index("ix_inbound_message_kept", "inbound_message")
    op.drop_index("ix_inbound_message_new_by_sender", "inbound_message")
    op.drop_index("ix_inbound_message_new", "inbound_message")
    with op.batch_alter_table("inbound_message") as batch:
        batch.drop_column("sender")
    op.drop_index("ix_outbound_message_created_at", "outbound_message")
    op.drop_index("ix_outbound_message_queue", "outbound_message")
    with op.batch_alter_table("outbound_message") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("priority")
    op.drop_index("ix_game_wake_at", "game")
    op.drop_index("ix_game_name_key", "game")
    rng = sa.table("game_rng", sa.column("game_id", sa.Integer), sa.column("state", sa.JSON))
    states = bind.execute(sa.select(rng.c.game_id, rng.c.state)).all()
    op.drop_table("game_rng")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("wake_at")
        batch.drop_column("news_since")
        batch.drop_column("absent_at")
        batch.drop_column("orders_at")
        batch.drop_column("name_key")
        batch.add_column(sa.Column("rng_state", sa.JSON, nullable=False, server_default="[]"))
    game = sa.table("game", sa.column("id", sa.Integer), sa.column("rng_state", sa.JSON))
    for game_id, state in states:
        bind.execute(sa.update(game).where(game.c.id == game_id).values(rng_state=state))
