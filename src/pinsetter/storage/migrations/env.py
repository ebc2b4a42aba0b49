"""Alembic environment: pinsetter runs migrations programmatically on its own connection.

The connection is already inside pinsetter's exclusive transaction (see `Storage.upgrade`),
so every migration and the version stamp commit together or not at all.
"""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, render_as_batch=True, transactional_ddl=True)
with context.begin_transaction():
    context.run_migrations()
