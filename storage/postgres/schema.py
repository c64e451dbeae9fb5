"""PostgreSQL's numbered, forward-only schema migrations (the twin of :mod:`storage.schema`):
the scripts in ``storage/migrations_pg/`` (the twins of ``storage/migrations/``), and their
runner. The applied versions are recorded in the table ``quizbot_schema``; every migration
runs in one transaction under an advisory lock, so that instances starting together migrate
once.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

import asyncpg

from bot.kernel.ports import StorageError
from storage.schema import Migration, bundled, refuse_newer
from storage.schema import migrations as sqlite_migrations

MIGRATION_LOCK = (0x71756979, 0)
"""Advisory lock key (two int4) held while migrating: instances starting together migrate
once."""

SCHEMA_VERSION = (
    "SELECT COALESCE((SELECT MAX(version) FROM quizbot_schema), 0)"
    " WHERE to_regclass('quizbot_schema') IS NOT NULL"
)
"""The applied schema version (no row for an empty database)."""


def migrations() -> list[Migration]:
    """The bundled PostgreSQL migrations (``storage/migrations_pg/NNNN_name.sql``), in order.

    Raises:
        RuntimeError: two scripts share a number, the numbers have a gap, or they are not the
            same numbers and names as SQLite's (the two schemas move forward together).
    """
    found = bundled("migrations_pg")
    if [(m.version, m.name) for m in found] != [(m.version, m.name) for m in sqlite_migrations()]:
        raise RuntimeError(
            "storage/migrations_pg/ must have the same numbered scripts as storage/migrations/"
        )
    return found


async def migrate(pool: asyncpg.Pool, to_apply: Iterable[Migration]) -> None:
    """Apply each migration of ``to_apply`` that the database has not applied yet, all in one
    transaction on a connection of ``pool``, under :data:`MIGRATION_LOCK`.

    Raises:
        StorageError: the database was migrated by a newer quizbot (downgrades are refused).
        asyncpg.PostgresError: a statement failed: nothing of the migration is applied.
    """
    async with pool.acquire() as db, db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
        if await db.fetchval("SELECT to_regclass('quizbot_schema') IS NULL"):
            others = [
                row[0]
                for row in await db.fetch(
                    "SELECT table_name FROM information_schema.tables"
                    " WHERE table_schema = current_schema() ORDER BY table_name LIMIT 4"
                )
            ]
            if others:  # another application's database: quizbot's tables are not added
                names = ", ".join(others[:3]) + (", ..." if len(others) > 3 else "")
                raise StorageError(
                    f"the database is not quizbot's: its schema holds other tables ({names}) "
                    "and no quizbot schema; nothing was changed. Give QUIZBOT_DB a database "
                    "(or schema) of quizbot's own"
                )
        await db.execute(
            "CREATE TABLE IF NOT EXISTS quizbot_schema ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
        current = await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM quizbot_schema")
        known = max((m.version for m in migrations()), default=0)
        refuse_newer(
            current,
            known,
            "the database",
            "restore a dump made before the upgrade (on every instance)",
        )
        for migration in to_apply:
            if migration.version <= current:
                continue
            await db.execute(migration.sql)  # a script: the simple query protocol
            await db.execute(
                "INSERT INTO quizbot_schema VALUES ($1, $2, $3)",
                migration.version,
                migration.name,
                time.time(),
            )
