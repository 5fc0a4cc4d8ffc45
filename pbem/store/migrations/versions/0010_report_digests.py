"""Report digests: how a game's reports go out (each step, or digests), how long a digest reader's
news may wait, and the last turn the GM's public copies and each observer were told of.

A game stored before reported every step to every reader (or, for a seat whose address asked SET
DIGEST ON, since 0008 kept its last reported turn). Its GM and observers were told every turn
resolved so far, and so was each seat whose last reported turn was never set (still 0).

Revision ID: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add game.reports, game.digest_hours, game.gm_reported_turn and observer.last_reported_turn; mark
    the readers of running games as told what they were told."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("reports", sa.String, nullable=False, server_default="each"))
        batch.add_column(sa.Column("digest_hours", sa.Float, nullable=False, server_default="24"))
        batch.add_column(sa.Column("gm_reported_turn", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("observer") as batch:
        batch.add_column(sa.Column("last_reported_turn", sa.Integer, nullable=False, server_default="0"))
    op.execute("UPDATE game SET gm_reported_turn = turn - 1 WHERE turn > 1")
    op.execute("UPDATE observer SET last_reported_turn = (SELECT game.turn - 1 FROM game WHERE game.id = "
               "observer.game_id) WHERE (SELECT game.turn FROM game WHERE game.id = observer.game_id) > 1")
    op.execute("UPDATE seat SET last_reported_turn = (SELECT game.turn - 1 FROM game WHERE game.id = seat.game_id) "
               "WHERE last_reported_turn = 0 AND (SELECT game.turn FROM game WHERE game.id = seat.game_id) > 1")


def downgrade() -> None:
    """Drop the columns."""
    with op.batch_alter_table("observer") as batch:
        batch.drop_column("last_reported_turn")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("gm_reported_turn")
        batch.drop_column("digest_hours")
        batch.drop_column("reports")
