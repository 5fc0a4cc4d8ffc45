"""The draws made while a game is set up, listed in its first report.

Revision ID: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add game.setup_draws (empty for games set up before)."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("setup_draws", sa.JSON, nullable=False, server_default="[]"))


def downgrade() -> None:
    """Drop game.setup_draws."""
    with op.batch_alter_table("game") as batch:
        batch.drop_column("setup_draws")
