"""Answer windows: the seats that let a window pass in silence are recorded apart from the NMR seats.

Revision ID: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add turn_record.passed (empty for the turns resolved before)."""
    with op.batch_alter_table("turn_record") as batch:
        batch.add_column(sa.Column("passed", sa.JSON, nullable=False, server_default="[]"))


def downgrade() -> None:
    """Drop turn_record.passed."""
    with op.batch_alter_table("turn_record") as batch:
        batch.drop_column("passed")
