"""A game's version: ``game.version``, raised by the database itself on every write of the game's row or of
one of its seats, so that a game's rows read once can be kept across mails (:mod:`pbem.service.row_cache`)
and a daemon knows them current by reading one number.

The database raises it (triggers), not pbem's code: a write through the ORM, a statement of its own, another
daemon or another program all raise it alike. On SQLite a migration that copies the ``game`` or ``seat``
table (alembic's batch mode) drops their triggers: such a migration must create them again
(:func:`create_triggers`); tests/service/test_game_version.py fails when they are missing.

Revision ID: 0026
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

_SQLITE = [
    # An update of the game row that did not set the version itself raises it (the inner update sets it,
    # so it does not fire this again even with recursive triggers).
    """CREATE TRIGGER game_version_on_update AFTER UPDATE ON game FOR EACH ROW WHEN NEW.version = OLD.version
       BEGIN UPDATE game SET version = OLD.version + 1 WHERE id = NEW.id; END""",
    """CREATE TRIGGER game_version_on_seat_insert AFTER INSERT ON seat FOR EACH ROW
       BEGIN UPDATE game SET version = version + 1 WHERE id = NEW.game_id; END""",
    """CREATE TRIGGER game_version_on_seat_update AFTER UPDATE ON seat FOR EACH ROW
       BEGIN UPDATE game SET version = version + 1 WHERE id IN (OLD.game_id, NEW.game_id); END""",
    """CREATE TRIGGER game_version_on_seat_delete AFTER DELETE ON seat FOR EACH ROW
       BEGIN UPDATE game SET version = version + 1 WHERE id = OLD.game_id; END""",
]
_SQLITE_DROP = ["game_version_on_update", "game_version_on_seat_insert", "game_version_on_seat_update",
                "game_version_on_seat_delete"]

_POSTGRESQL = [
    """CREATE FUNCTION game_version_raise() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF NEW.version = OLD.version THEN NEW.version := OLD.version + 1; END IF;
         RETURN NEW;
       END $$""",
    """CREATE TRIGGER game_version_on_update BEFORE UPDATE ON game FOR EACH ROW
       EXECUTE FUNCTION game_version_raise()""",
    """CREATE FUNCTION game_version_of_seat() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF TG_OP <> 'INSERT' THEN UPDATE game SET version = version + 1 WHERE id = OLD.game_id; END IF;
         IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.game_id <> OLD.game_id) THEN
           UPDATE game SET version = version + 1 WHERE id = NEW.game_id;
         END IF;
         RETURN NULL;
       END $$""",
    """CREATE TRIGGER game_version_on_seat AFTER INSERT OR UPDATE OR DELETE ON seat FOR EACH ROW
       EXECUTE FUNCTION game_version_of_seat()""",
]
_POSTGRESQL_DROP = ["DROP TRIGGER game_version_on_seat ON seat", "DROP FUNCTION game_version_of_seat()",
                    "DROP TRIGGER game_version_on_update ON game", "DROP FUNCTION game_version_raise()"]


def create_triggers() -> None:
    """Create the triggers that raise ``game.version`` on the database being migrated."""
    for statement in _POSTGRESQL if op.get_bind().dialect.name == "postgresql" else _SQLITE:
        op.execute(statement)


def upgrade() -> None:
    """Add the column (every game starts at 0) and the triggers."""
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("version", sa.BigInteger, nullable=False, server_default="0"))
    create_triggers()


def downgrade() -> None:
    """Drop the triggers and the column."""
    if op.get_bind().dialect.name == "postgresql":
        for statement in _POSTGRESQL_DROP:
            op.execute(statement)
    else:
        for name in _SQLITE_DROP:
            op.execute(f"DROP TRIGGER {name}")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("version")
