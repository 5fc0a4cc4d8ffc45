"""Two indexes that every order mail wrote and no query needs: ``ix_submission_game_id`` (the unique constraint on
``(game_id, seat, turn, version)`` begins with the game and serves every look-up by game) and
``ix_outbound_message_status`` (the queue is found through its partial index ``ix_outbound_message_queue``, which
every statement on queued mail names with the status written into it; retention goes by ``created_at``). Each mail
wrote a page of each into SQLite's log: its unit of work and the mark of its reply sent write 3 pages fewer of
some 22.

Revision ID: 0030
"""

from __future__ import annotations

from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Drop the two indexes."""
    op.drop_index("ix_submission_game_id", table_name="submission")
    op.drop_index("ix_outbound_message_status", table_name="outbound_message")


def downgrade() -> None:
    """Make them again."""
    op.create_index("ix_outbound_message_status", "outbound_message", ["status"])
    op.create_index("ix_submission_game_id", "submission", ["game_id"])
