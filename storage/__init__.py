"""Storage: the aiosqlite implementation of the quiz's storage port, with schema migrations."""

from storage.sqlite import SQLiteStore, migrations

__all__ = ["SQLiteStore", "migrations"]
