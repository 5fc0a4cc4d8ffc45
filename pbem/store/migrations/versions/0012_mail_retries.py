"""Every mail ends answered: a mail whose handling failed is tried again later, and one that took too
long is set aside.

``inbound_message.attempts`` counts the failed tries of a mail and
``inbound_message.next_attempt_at`` says when the next one is due (NULL: at
once), so the backoff survives a restart. The statuses are now new, handled,
failed (given up after the last try) and set_aside (over the time budget:
tried again only by ``pbem mail retry``).

Revision ID: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the tries and the time of the next one to the inbound mail."""
    with op.batch_alter_table("inbound_message") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop the two columns; set-aside mail becomes failed mail (the status the old code knows)."""
    op.execute("UPDATE inbound_message SET status = 'failed' WHERE status = 'set_aside'")
    with op.batch_alter_table("inbound_message") as batch:
        batch.drop_column("next_attempt_at")
        batch.drop_column("attempts")
