"""pbem writes only to addresses that asked: ``address_consent`` (an address wrote to pbem, or said
STOP) and ``invitation`` (the one invitation an address that never wrote gets for a game).

Every address pbem wrote to before is taken as having asked, so running games go on: the seats'
holders, the GMs, the observers, the standby lists, the addresses with preferences and the senders
of stored mail.

Revision ID: 0013
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

_KNOWN = ("SELECT lower(address) AS address FROM seat WHERE address IS NOT NULL "
          "UNION SELECT lower(gm_address) FROM game WHERE gm_address IS NOT NULL "
          "UNION SELECT lower(address) FROM observer "
          "UNION SELECT lower(address) FROM standby "
          "UNION SELECT lower(address) FROM address_preference "
          "UNION SELECT lower(sender) FROM inbound_message WHERE sender <> ''")


def upgrade() -> None:
    """Create the two tables; every address known so far has asked."""
    op.create_table(
        "address_consent",
        sa.Column("address", sa.String, primary_key=True),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("stopped_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("game.id"), nullable=False),
        sa.Column("address", sa.String, nullable=False),
        sa.Column("seat", sa.String, nullable=False),
        sa.Column("invited_by", sa.String, nullable=False),
        sa.Column("invited_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "address"),
    )
    op.create_index("ix_invitation_game_id", "invitation", ["game_id"])
    op.create_index("ix_invitation_invited_by", "invitation", ["invited_by"])
    consent = sa.table("address_consent", sa.column("address", sa.String),
                       sa.column("asked_at", sa.DateTime(timezone=True)))
    now = datetime.now(UTC)
    known = [row[0] for row in op.get_bind().execute(sa.text(_KNOWN)) if row[0]]
    if known:
        op.bulk_insert(consent, [{"address": address, "asked_at": now} for address in known])


def downgrade() -> None:
    """Drop the two tables."""
    op.drop_index("ix_invitation_invited_by", table_name="invitation")
    op.drop_index("ix_invitation_game_id", table_name="invitation")
    op.drop_table("invitation")
    op.drop_table("address_consent")
