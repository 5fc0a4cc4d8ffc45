"""Leagues: ``league``, ``league_member`` and ``league_table`` (unique per league, round and table, so
two daemons never seat a round twice), and audit entries of a league (``audit_entry.league_id``; its
``game_id`` may be empty then).

Revision ID: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and let audit entries belong to a league."""
    op.create_table(
        "league",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String, nullable=False, unique=True),
        sa.Column("name_key", sa.String, nullable=False),
        sa.Column("kind", sa.String, nullable=False),
        sa.Column("format", sa.String, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("points", sa.JSON, nullable=False),
        sa.Column("status", sa.String, nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("gm_address", sa.String, nullable=True),
        sa.Column("gm_password_hash", sa.String, nullable=True),
        sa.Column("gm_failed_logins", sa.Integer, nullable=False),
        sa.Column("gm_locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_early", sa.Boolean, nullable=False),
    )
    op.create_index("ix_league_name_key", "league", ["name_key"], unique=True)
    op.create_table(
        "league_member",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("league_id", sa.Integer, sa.ForeignKey("league.id"), nullable=False),
        sa.Column("address", sa.String, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("dropped", sa.Boolean, nullable=False),
        sa.UniqueConstraint("league_id", "address"),
    )
    op.create_index("ix_league_member_league_id", "league_member", ["league_id"])
    op.create_table(
        "league_table",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("league_id", sa.Integer, sa.ForeignKey("league.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_number", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=True),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("places", sa.JSON, nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("league_id", "round", "table_number"),
    )
    op.create_index("ix_league_table_league_id", "league_table", ["league_id"])
    op.create_index("ix_league_table_game_id", "league_table", ["game_id"])
    with op.batch_alter_table("audit_entry") as batch:
        batch.alter_column("game_id", existing_type=sa.Integer, nullable=True)
        batch.add_column(sa.Column("league_id", sa.Integer, sa.ForeignKey("league.id", name="fk_audit_entry_league"),
                                   nullable=True))
        batch.create_index("ix_audit_entry_league_id", ["league_id"])


def downgrade() -> None:
    """Drop the league steps of the audit log and the three tables."""
    op.execute("DELETE FROM audit_entry WHERE game_id IS NULL")
    with op.batch_alter_table("audit_entry") as batch:
        batch.drop_index("ix_audit_entry_league_id")
        batch.drop_column("league_id")
        batch.alter_column("game_id", existing_type=sa.Integer, nullable=False)
    op.drop_index("ix_league_table_game_id", table_name="league_table")
    op.drop_index("ix_league_table_league_id", table_name="league_table")
    op.drop_table("league_table")
    op.drop_index("ix_league_member_league_id", table_name="league_member")
    op.drop_table("league_member")
    op.drop_index("ix_league_name_key", table_name="league")
    op.drop_table("league")
