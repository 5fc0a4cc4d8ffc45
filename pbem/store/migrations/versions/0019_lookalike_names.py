"""Names that look alike: ``player.look_key`` and ``player.look_key_folded`` (see
:func:`pbem.lookalikes.lookalike_keys`), indexed, so that REGISTER refuses a name that looks like another
player's with one lookup. Every name registered before gets its keys; names that look alike already are
kept (each keeps its own), only new ones are refused.

Revision ID: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from pbem.lookalikes import lookalike_keys

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None

_PLAYER = sa.table("player", sa.column("id", sa.Integer), sa.column("name", sa.String),
                   sa.column("look_key", sa.String), sa.column("look_key_folded", sa.String))


def upgrade() -> None:
    """Add the columns and their indexes, and write the keys of every name."""
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("look_key", sa.String, nullable=False, server_default=""))
        batch.add_column(sa.Column("look_key_folded", sa.String, nullable=False, server_default=""))
    connection = op.get_bind()
    for player_id, name in connection.execute(sa.select(_PLAYER.c.id, _PLAYER.c.name)).all():
        look, folded = lookalike_keys(name)
        connection.execute(sa.update(_PLAYER).where(_PLAYER.c.id == player_id)
                           .values(look_key=look, look_key_folded=folded))
    op.create_index("ix_player_look_key", "player", ["look_key"])
    op.create_index("ix_player_look_key_folded", "player", ["look_key_folded"])


def downgrade() -> None:
    """Drop them."""
    op.drop_index("ix_player_look_key_folded", table_name="player")
    op.drop_index("ix_player_look_key", table_name="player")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("look_key_folded")
        batch.drop_column("look_key")
