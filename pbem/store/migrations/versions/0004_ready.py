"""READY: a submission may say its seat is done with the turn.

Revision ID: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add submission.ready."""
    with op.batch_alter_table("submission") as batch:
        batch.add_column(sa.Column("ready", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Drop submission.ready."""
    with op.batch_alter_table("submission") as batch:
        batch.drop_column("ready")
