"""Per-address preferences: the seat's view as a JSON attachment to reports (VIEWJSON ON).

Revision ID: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create address_preference."""
    op.create_table(
        "address_preference",
        sa.Column("address", sa.String, primary_key=True),
        sa.Column("view_json", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop address_preference."""
    op.drop_table("address_preference")
