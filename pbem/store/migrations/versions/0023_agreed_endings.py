"""Endings the table agrees on: ``game.agreed_end`` (how the players ended a game by agreement: a draw
among the seats, or a team's concession) and ``end_vote`` (each seat's secret vote of the current turn).

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
    """Add the column (every game ended so far ended otherwise) and the table of votes."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("agreed_end", sa.JSON, nullable=True))
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
    """Drop both."""
    op.drop_table("end_vote")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("agreed_end")
