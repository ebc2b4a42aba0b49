"""Game history on a database (SQLite by default, any SQLAlchemy URL), schema by Alembic."""

from pinsetter.storage.db import Storage, StoredGame, default_url

__all__ = ["Storage", "StoredGame", "default_url"]
