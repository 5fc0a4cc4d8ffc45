"""Games, seats, submissions, resolved turns, settings.

Revision ID: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the game tables."""
    op.create_table(
        "game",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("rng_state", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("turn_hours", sa.Float, nullable=False),
        sa.Column("resolve_when", sa.String, nullable=False),
        sa.Column("early_delay_minutes", sa.Float, nullable=False),
        sa.Column("reminder_hours", sa.Float, nullable=False),
        sa.Column("grace_hours", sa.Float, nullable=False),
        sa.Column("reminded_turn", sa.Integer, nullable=False),
        sa.Column("nmr_streak", sa.Integer, nullable=False),
        sa.Column("gm_address", sa.String, nullable=True),
        sa.Column("gm_password_hash", sa.String, nullable=True),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_by_gm", sa.Boolean, nullable=False),
    )
    op.create_index("ix_game_name", "game", ["name"], unique=True)
    op.create_table(
        "seat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("name", sa.String, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("address", sa.String, nullable=True),
        sa.Column("password_hash", sa.String, nullable=True),
        sa.Column("key_version", sa.Integer, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("absent_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("absence_reported", sa.Boolean, nullable=False),
        sa.UniqueConstraint("game_id", "name"),
    )
    op.create_index("ix_seat_game_id", "seat", ["game_id"])
    op.create_table(
        "submission",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("text", sa.String, nullable=False),
        sa.Column("orders", sa.JSON, nullable=False),
        sa.Column("problems", sa.JSON, nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String, nullable=False),
        sa.UniqueConstraint("game_id", "seat", "turn", "version"),
    )
    op.create_index("ix_submission_game_id", "submission", ["game_id"])
    op.create_table(
        "turn_record",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("phase", sa.String, nullable=False),
        sa.Column("orders", sa.JSON, nullable=False),
        sa.Column("nmr", sa.JSON, nullable=False),
        sa.Column("rng_state", sa.JSON, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("state", sa.JSON, nullable=False),
        sa.Column("reason", sa.String, nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "turn"),
    )
    op.create_index("ix_turn_record_game_id", "turn_record", ["game_id"])
    op.create_table(
        "setting",
        sa.Column("key", sa.String, primary_key=True),
        sa.Column("value", sa.String, nullable=False),
    )


def downgrade() -> None:
    """Drop the game tables."""
    for table in ("setting", "turn_record", "submission", "seat", "game"):
        op.drop_table(table)
