"""Endings the table agrees on: ``game.agreed_end`` (how the players ended a game by agreement: a draw
among the seats, or a team's concession), ``end_vote`` (each seat's secret vote of the current turn) and
``turn_record.table_events`` (what a turn's report tells besides the rules' events: a lapsed proposal).

Revision ID: 0023
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (every game ended so far ended otherwise; no turn had a proposal) and the table of
    votes."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("agreed_end", sa.JSON, nullable=True))
    with op.batch_alter_table("turn_record") as batch:
        batch.add_column(sa.Column("table_events", sa.JSON, nullable=False, server_default="[]"))
    op.create_table(
        "end_vote",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), primary_key=True),
        sa.Column("seat", sa.String, primary_key=True),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("voted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("agrees", sa.Boolean, nullable=False),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("end_vote")
    with op.batch_alter_table("turn_record") as batch:
        batch.drop_column("table_events")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("agreed_end")
