"""A finished game's per-turn states and events go compressed into ``turn_archive`` (one row a game), so that
the archive of finished games takes a tenth of the space (``pbem.service.compaction``).

Revision ID: 0028
"""

from __future__ import annotations

import json
import zlib

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table."""
    op.create_table(
        "turn_archive",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), primary_key=True),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("compacted_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Put each compacted game's states and events back into its turn records, then drop the table."""
    bind = op.get_bind()
    archive = sa.table("turn_archive", sa.column("game_id", sa.Integer), sa.column("data", sa.LargeBinary))
    turns = sa.table("turn_record", sa.column("game_id", sa.Integer), sa.column("turn", sa.Integer),
                     sa.column("state", sa.JSON), sa.column("events", sa.JSON))
    for game_id, data in bind.execute(sa.select(archive.c.game_id, archive.c.data)).all():
        for turn, kept in json.loads(zlib.decompress(data))["turns"].items():
            bind.execute(sa.update(turns).where(turns.c.game_id == game_id, turns.c.turn == int(turn))
                         .values(state=kept["state"], events=kept["events"]))
    op.drop_table("turn_archive")
