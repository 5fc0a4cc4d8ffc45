"""Report digests: how a game's reports go out (each step, or digests) and what each reader was told.

Revision ID: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add game.reports, game.digest_hours, game.gm_reported_turn and seat.reported_turn. A game stored
    before reported every step to everybody: its readers were told every turn resolved so far."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("reports", sa.String, nullable=False, server_default="each"))
        batch.add_column(sa.Column("digest_hours", sa.Float, nullable=False, server_default="24"))
        batch.add_column(sa.Column("gm_reported_turn", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("seat") as batch:
        batch.add_column(sa.Column("reported_turn", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE game SET gm_reported_turn = turn - 1 WHERE turn > 1")
    op.execute("UPDATE seat SET reported_turn = (SELECT game.turn - 1 FROM game WHERE game.id = seat.game_id) "
               "WHERE (SELECT game.turn FROM game WHERE game.id = seat.game_id) > 1")


def downgrade() -> None:
    """Drop the columns."""
    with op.batch_alter_table("seat") as batch:
        batch.drop_column("reported_turn")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("gm_reported_turn")
        batch.drop_column("digest_hours")
        batch.drop_column("reports")
