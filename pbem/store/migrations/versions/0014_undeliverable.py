"""Addresses mail cannot reach: a hard bounce or an SMTP 5xx for an address marks it undeliverable
(``address_consent.undeliverable_at`` and ``undeliverable_reason``) until it writes to pbem again; and
an index of the outbox by sending time, which ``--send-rate`` counts.

Revision ID: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns and the index."""
    with op.batch_alter_table("address_consent") as batch:
        batch.add_column(sa.Column("undeliverable_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("undeliverable_reason", sa.String, nullable=True))
    op.create_index("ix_outbound_message_sent_at", "outbound_message", ["sent_at"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_outbound_message_sent_at", table_name="outbound_message")
    with op.batch_alter_table("address_consent") as batch:
        batch.drop_column("undeliverable_reason")
        batch.drop_column("undeliverable_at")
