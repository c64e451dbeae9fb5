"""Storage: the implementations of the quiz's storage ports (SQLite with aiosqlite, PostgreSQL
with asyncpg), their schema migrations, and the leases that let several instances share
PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from storage.leases import LocalLeases, PostgresLeases
from storage.postgres import PostgresStore, is_postgres_url
from storage.sqlite import SQLiteStore, migrations

if TYPE_CHECKING:
    from bot.features.groups.ports import GroupStore
    from bot.features.learning.ports import CardStore
    from bot.features.preferences.ports import PreferenceStore
    from bot.features.privacy.ports import PrivacyStore
    from bot.kernel.library import DraftStore, QuizLibrary
    from bot.kernel.ports import QuizStore, ReportStore

    def _serves_the_ports(
        store: SQLiteStore | PostgresStore,
    ) -> tuple[
        QuizStore,
        PreferenceStore,
        GroupStore,
        CardStore,
        PrivacyStore,
        ReportStore,
        QuizLibrary,
        DraftStore,
    ]:
        """Never called: the type checker checks here that each engine's store has every
        method of every port it serves, with the port's signature."""
        return store, store, store, store, store, store, store, store


__all__ = [
    "LocalLeases",
    "PostgresLeases",
    "PostgresStore",
    "SQLiteStore",
    "is_postgres_url",
    "migrations",
    "open_store",
]


async def open_store(db: str | Path, *, create: bool = False) -> SQLiteStore | PostgresStore:
    """Open the storage ``QUIZBOT_DB`` names: a ``postgresql://`` (or ``postgres://``) URL
    selects PostgreSQL; anything else is a SQLite file path (``create``: see
    :meth:`SQLiteStore.open`).

    Raises:
        StorageError: the database cannot be opened or migrated.
    """
    if is_postgres_url(db):
        return await PostgresStore.open(str(db))
    return await SQLiteStore.open(db, create=create)
