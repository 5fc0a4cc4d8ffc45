"""The Subject field of each inbound mail, taken when it is stored (``inbound_message.subject``): ``pbem mail``
lists troubled mail without reading the stored bytes again. Mail stored before has none (NULL): its listing
reads the subject from its stored header fields, as before.

Revision ID: 0027
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column."""
    with op.batch_alter_table("inbound_message") as batch:
        batch.add_column(sa.Column("subject", sa.String, nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("inbound_message") as batch:
        batch.drop_column("subject")
