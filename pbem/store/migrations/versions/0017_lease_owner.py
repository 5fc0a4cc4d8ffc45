"""Who holds an outbox lease: ``outbound_message.lease_owner``, so that a sender renews (and records) only
the claims that are still its own, and the leases on a shared database can be short.

Revision ID: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column."""
    with op.batch_alter_table("outbound_message") as batch:
        batch.add_column(sa.Column("lease_owner", sa.String, nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("outbound_message") as batch:
        batch.drop_column("lease_owner")
