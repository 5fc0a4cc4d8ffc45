"""Alembic environment: runs migrations on the connection the store hands over."""

from __future__ import annotations

from alembic import context

from pbem.store.tables import SQLModel

target_metadata = SQLModel.metadata
connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
