"""The rows of handled inbound mail go after a while (see ``pbem.mail.running.retention.MESSAGE_IDS_KEPT``): an index
on ``inbound_message.handled_at`` finds the old ones, and one on ``outbound_message.inbound_id`` tells
whether a kept outbound mail still answers one.

Revision ID: 0025
"""

from __future__ import annotations

from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two indexes."""
    op.create_index("ix_inbound_message_handled_at", "inbound_message", ["handled_at"])
    op.create_index("ix_outbound_message_inbound_id", "outbound_message", ["inbound_id"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_outbound_message_inbound_id", "outbound_message")
    op.drop_index("ix_inbound_message_handled_at", "inbound_message")
