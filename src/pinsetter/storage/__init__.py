"""Game history on a database (SQLite by default, any SQLAlchemy URL), schema by Alembic."""

from pinsetter.storage.db import LocationError, Storage, StorageError, StoredGame, default_url, normalise_url

__all__ = ["LocationError", "Storage", "StorageError", "StoredGame", "default_url", "normalise_url"]
