"""When the turn awaiting orders opened: ``game.opened_at``, so that a reminder never comes in the first
half of a turn nor within an hour of the report that opened it (see ``pbem.store.tables.reminder_time``).

Revision ID: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column: a turn opened before it is reminded as before (reminder_hours before its deadline)."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("opened_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("game") as batch:
        batch.drop_column("opened_at")
