"""Players: a name chosen by REGISTER for one or more addresses (``player``, ``player_address``),
the record of every address (``player_event``: deadlines met and missed, outcomes, seats left), and a
game's ``min_reliability`` for JOIN.

The record starts empty: it counts from this version on.

Revision ID: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and the game's column."""
    op.create_table(
        "player",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("name_key", sa.String, nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("link_code_hash", sa.String, nullable=True),
        sa.Column("link_code_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("link_failures", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_player_name_key", "player", ["name_key"], unique=True)
    op.create_table(
        "player_address",
        sa.Column("address", sa.String, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("player.id"), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_address_player_id", "player_address", ["player_id"])
    op.create_table(
        "player_event",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("address", sa.String, nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat", "turn", "kind", "address"),
    )
    op.create_index("ix_player_event_game_id", "player_event", ["game_id"])
    op.create_index("ix_player_event_address_at", "player_event", ["address", "at"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("min_reliability", sa.Float, nullable=False, server_default="0"))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("game") as batch:
        batch.drop_column("min_reliability")
    op.drop_table("player_event")
    op.drop_table("player_address")
    op.drop_table("player")
