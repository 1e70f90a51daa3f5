"""Alembic environment for the store. Migrations run programmatically (``bot.store.migrate``),
which hands over an open connection already inside a transaction; there is no alembic.ini.
"""

from __future__ import annotations

from alembic import context

from bot.store.models import metadata

connection = context.config.attributes.get("connection")
if connection is None or context.is_offline_mode():
    raise RuntimeError("run the store's migrations with bot.store.migrate (python -m bot.store --help)")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
