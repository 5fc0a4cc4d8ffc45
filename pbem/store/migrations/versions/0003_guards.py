"""Guards against hostile mail: password lockouts, truncated inbound mail, secret outbound mail.

Revision ID: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the lockout counters, the inbound size and the outbound secret mark."""
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("failed_logins", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("gm_failed_logins", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("gm_locked_until", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("inbound_message") as batch:
        batch.add_column(sa.Column("size", sa.Integer, nullable=True))
    with op.batch_alter_table("outbound_message") as batch:
        batch.add_column(sa.Column("secret", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_index("ix_game_gm_address", "game", ["gm_address"])


def downgrade() -> None:
    """Drop what :func:`upgrade` added."""
    op.drop_index("ix_game_gm_address", "game")
    with op.batch_alter_table("outbound_message") as batch:
        batch.drop_column("secret")
    with op.batch_alter_table("inbound_message") as batch:
        batch.drop_column("size")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("gm_locked_until")
        batch.drop_column("gm_failed_logins")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("locked_until")
        batch.drop_column("failed_logins")
