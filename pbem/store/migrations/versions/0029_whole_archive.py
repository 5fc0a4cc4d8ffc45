"""A compacted game's archive holds all its per-turn rows (turn records whole, submissions, the record's chain),
and those rows leave their tables (``pbem.service.compaction``, layout version 2), and it names the mail addresses
its rows quote (``addresses``: what forgetting an address looks through). Archives of version 1 (states and events
only) are rewritten so; going back puts every archived row back into its table.

Revision ID: 0029
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import sqlalchemy as sa
from alembic import op

from pbem.service.compaction import pack, quoted_addresses, unpack

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None

_ARCHIVED = ("turn_record", "submission", "record_entry")


def _tables(bind: sa.Connection) -> dict[str, sa.Table]:
    metadata = sa.MetaData()
    return {name: sa.Table(name, metadata, autoload_with=bind) for name in _ARCHIVED}


def _archive() -> sa.TableClause:
    return sa.table("turn_archive", sa.column("game_id", sa.Integer), sa.column("data", sa.LargeBinary),
                    sa.column("addresses", sa.Text))


def upgrade() -> None:
    """Rewrite each version 1 archive as version 2, its game's rows moved into it."""
    op.add_column("turn_archive", sa.Column("addresses", sa.Text, nullable=False, server_default=""))
    bind, archive = op.get_bind(), _archive()
    tables = _tables(bind)
    for game_id, data in bind.execute(sa.select(archive.c.game_id, archive.c.data)).all():
        kept = json.loads(zlib.decompress(data))["turns"]
        rows: dict[str, list[dict[str, Any]]] = {}
        for name, table in tables.items():
            found = bind.execute(table.select().where(table.c.game_id == game_id).order_by(table.c.id)).mappings()
            rows[name] = [{column: value for column, value in row.items() if column != "game_id"} for row in found]
            bind.execute(table.delete().where(table.c.game_id == game_id))
        for record in rows["turn_record"]:
            record.update(kept[str(record["turn"])])
        bind.execute(archive.update().where(archive.c.game_id == game_id)
                     .values(data=pack(rows), addresses=quoted_addresses(rows)))


def downgrade() -> None:
    """Put every archived row back into its table, and leave the game not compacted (the schema before keeps
    its states and events in its turn records then, until compacted again)."""
    bind, archive = op.get_bind(), _archive()
    tables = _tables(bind)
    for game_id, data in bind.execute(sa.select(archive.c.game_id, archive.c.data)).all():
        for name, rows in unpack(data, tables).items():
            if rows:
                bind.execute(tables[name].insert(), [{**row, "game_id": game_id} for row in rows])
    bind.execute(archive.delete())
    with op.batch_alter_table("turn_archive") as batch:
        batch.drop_column("addresses")
