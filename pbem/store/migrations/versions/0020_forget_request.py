"""FORGET by mail: ``forget_request`` holds the confirmation code sent to an address that asked to be
forgotten, keyed by the address's hash.

Revision ID: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the table."""
    op.create_table(
        "forget_request",
        sa.Column("address_key", sa.String, primary_key=True),
        sa.Column("code_hash", sa.String, nullable=False),
        sa.Column("requested_at", sa.DateTime, nullable=False),
        sa.Column("failures", sa.Integer, nullable=False, server_default="0"),
        sa.Column("locked_until", sa.DateTime, nullable=True),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("forget_request")
