"""A league's work in steps: ``league.step_at`` (when the clock takes the league's next step; indexed, so
the clock finds due leagues without reading the others), ``league.tell_round`` and ``league.told_through``
(the round whose standings are being mailed, and the members told so far). The tables of a round waiting
for their games are ``league_table`` rows without a ``game_id`` (and a table number above 0).

Revision ID: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the three columns and the index; no league has work waiting."""
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("step_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("tell_round", sa.Integer, nullable=True))
        batch.add_column(sa.Column("told_through", sa.Integer, nullable=False, server_default="0"))
        batch.create_index("ix_league_step_at", ["step_at"])


def downgrade() -> None:
    """Drop them, and the tables still waiting for their games (the steps that would create them go too)."""
    op.execute("DELETE FROM league_table WHERE game_id IS NULL AND table_number > 0")
    with op.batch_alter_table("league") as batch:
        batch.drop_index("ix_league_step_at")
        batch.drop_column("told_through")
        batch.drop_column("tell_round")
        batch.drop_column("step_at")
