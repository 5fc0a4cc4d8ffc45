"""Verifiable dice and versioned rules: the committed secret, players' salts, the
generator and rules versions of each game, and the draws and rules version of each turn.

Games that exist before this revision were created with Python's Mersenne Twister;
they get generator version 1 and keep it, so they replay identically.

Revision ID: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the seed commitment and version columns."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("secret", sa.String, nullable=True))
        batch.add_column(sa.Column("salts", sa.JSON, nullable=False, server_default="[]"))
        batch.add_column(sa.Column("rng_version", sa.Integer, nullable=False, server_default="1"))
        batch.add_column(sa.Column("rules_version", sa.Integer, nullable=False, server_default="1"))
    with op.batch_alter_table("turn_record") as batch:
        batch.add_column(sa.Column("draws", sa.JSON, nullable=False, server_default="[]"))
        batch.add_column(sa.Column("rules_version", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    """Drop the seed commitment and version columns."""
    with op.batch_alter_table("turn_record") as batch:
        batch.drop_column("rules_version")
        batch.drop_column("draws")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("rules_version")
        batch.drop_column("rng_version")
        batch.drop_column("salts")
        batch.drop_column("secret")
