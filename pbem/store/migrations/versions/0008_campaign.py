"""The campaign toolkit: the audit log of every GM action and automatic decision; an address's
time zone, report digest, text-only mail and press off; the SEQUENCE of a game's deadline
events; the turn each seat was last reported; observers and whether a game allows them; announced
absences; standby lists and seat offers; a GM's pending rollback; submissions set aside by one.

Revision ID: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create audit_entry; add address_preference.zone."""
    op.create_table(
        "audit_entry",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False, index=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String, nullable=False),
        sa.Column("action", sa.String, nullable=False),
        sa.Column("text", sa.String, nullable=False),
        sa.Column("data", sa.JSON, nullable=False, server_default="{}"),
    )
    with op.batch_alter_table("address_preference") as batch:
        batch.add_column(sa.Column("zone", sa.String, nullable=True))
        batch.add_column(sa.Column("digest", sa.Boolean, nullable=True))
        batch.add_column(sa.Column("text_only", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("press_off", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("last_reported_turn", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "observer",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), primary_key=True),
        sa.Column("address", sa.String, primary_key=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "absence",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False, index=True),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("starts", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends", sa.DateTime(timezone=True), nullable=False),
        sa.Column("announced_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "standby",
        sa.Column("address", sa.String, primary_key=True),
        sa.Column("kind", sa.String, primary_key=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "seat_offer",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False, index=True),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("address", sa.String, nullable=False, index=True),
        sa.Column("offered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("accepted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String, nullable=False, server_default="open"),
    )
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("missed_deadlines", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("absence_used_hours", sa.Float, nullable=False, server_default="0"))
    with op.batch_alter_table("submission") as batch:
        batch.add_column(sa.Column("rolled_back", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("absence_days", sa.Float, nullable=False, server_default="14"))
        batch.add_column(sa.Column("replace_after", sa.Float, nullable=False, server_default="2"))
        batch.add_column(sa.Column("replace_mode", sa.String, nullable=False, server_default="confirm"))
        batch.add_column(sa.Column("rollback_turn", sa.Integer, nullable=True))
        batch.add_column(sa.Column("rollback_code_hash", sa.String, nullable=True))
        batch.add_column(sa.Column("rollback_requested_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("observers", sa.String, nullable=False, server_default="yes"))
        batch.add_column(sa.Column("calendar_sequence", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("calendar_deadline", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop what upgrade added."""
    op.drop_table("observer")
    for table in ("seat_offer", "standby", "absence"):
        op.drop_table(table)
    with op.batch_alter_table("submission") as batch:
        batch.drop_column("rolled_back")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("absence_used_hours")
        batch.drop_column("missed_deadlines")
    with op.batch_alter_table("game") as batch:
        for column in ("absence_days", "replace_after", "replace_mode", "rollback_turn", "rollback_code_hash",
                       "rollback_requested_at"):
            batch.drop_column(column)
        batch.drop_column("observers")
        batch.drop_column("calendar_deadline")
        batch.drop_column("calendar_sequence")
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("last_reported_turn")
    with op.batch_alter_table("address_preference") as batch:
        for column in ("press_off", "text_only", "digest", "zone"):
            batch.drop_column(column)
    op.drop_table("audit_entry")
