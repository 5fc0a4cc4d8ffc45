"""The mail tables: inbound messages (taken before flagging) and the outbox.

Revision ID: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the inbound and outbound message tables."""
    op.create_table(
        "inbound_message",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("message_id", sa.String, nullable=False),
        sa.Column("uid", sa.Integer, nullable=True),
        sa.Column("raw", sa.LargeBinary, nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("error", sa.String, nullable=True),
        sa.Column("handled_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_inbound_message_message_id", "inbound_message", ["message_id"], unique=True)
    op.create_table(
        "outbound_message",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sender", sa.String, nullable=False),
        sa.Column("recipients", sa.JSON, nullable=False),
        sa.Column("raw", sa.LargeBinary, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_error", sa.String, nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("inbound_id", sa.Integer, sa.ForeignKey("inbound_message.id"), nullable=True),
        sa.Column("purpose", sa.String, nullable=False),
    )
    op.create_index("ix_outbound_message_status", "outbound_message", ["status"])


def downgrade() -> None:
    """Drop the mail tables."""
    op.drop_table("outbound_message")
    op.drop_table("inbound_message")
