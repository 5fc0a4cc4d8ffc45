"""The game record players check: ``record_entry`` (the hash chain), the nonce of each submission's
receipt and the nonces of the orders each turn resolved.

Revision ID: 0024
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the table and the columns: games under way begin their record at their next entry."""
    op.create_table(
        "record_entry",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False, index=True),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("line", sa.Text, nullable=False),
        sa.Column("digest", sa.String, nullable=False),
        sa.Column("audit_upto", sa.Integer, nullable=False, server_default="0"),
        sa.UniqueConstraint("game_id", "seq"),
    )
    with op.batch_alter_table("submission") as batch:
        batch.add_column(sa.Column("nonce", sa.String, nullable=True))
    with op.batch_alter_table("turn_record") as batch:
        batch.add_column(sa.Column("nonces", sa.JSON, nullable=False, server_default="{}"))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("turn_record") as batch:
        batch.drop_column("nonces")
    with op.batch_alter_table("submission") as batch:
        batch.drop_column("nonce")
    op.drop_table("record_entry")
