"""Who reads press between players: ``game.gm_press`` (copy: the GM gets a copy, as before; none: it is
private), set by the GM with ``gm_press=copy|none``.

Revision ID: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column: every game keeps the copy it had."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("gm_press", sa.String, nullable=False, server_default="copy"))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("game") as batch:
        batch.drop_column("gm_press")
