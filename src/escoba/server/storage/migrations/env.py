"""Alembic environment: runs the migrations on the connection the server hands over."""

from alembic import context

from escoba.server.storage.tables import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through escoba.server.storage.repository.Storage.migrate()")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
