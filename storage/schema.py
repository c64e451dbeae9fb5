"""Numbered, forward-only schema migrations: the bundled scripts, and the SQLite runner.

Each engine's scripts are in a folder of this package (``storage/migrations/`` for SQLite,
``storage/migrations_pg/`` for PostgreSQL), named ``NNNN_name.sql``. SQLite records the applied
version in ``PRAGMA user_version``; PostgreSQL in a table (:mod:`storage.postgres`).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources

from bot.kernel.ports import StorageError
from storage.writer import WriterConnection


@dataclass(frozen=True)
class Migration:
    """A numbered, forward-only schema migration."""

    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The bundled SQLite migrations (``storage/migrations/NNNN_name.sql``), in order.

    Raises:
        RuntimeError: two scripts share a number, or the numbers have a gap.
    """
    return bundled("migrations")


def bundled(folder: str) -> list[Migration]:
    """The migrations in ``folder`` of this package (``NNNN_name.sql``), in order.

    Raises:
        RuntimeError: two scripts share a number, or the numbers have a gap.
    """
    found: list[Migration] = []
    for entry in resources.files("storage").joinpath(folder).iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps: {found}")
    return found


async def migrate(db: WriterConnection, current: int, to_apply: Iterable[Migration]) -> None:
    """Apply each migration of ``to_apply`` newer than ``current`` to the SQLite database
    ``db``, each in its own transaction, which also sets ``PRAGMA user_version`` to its number.

    Args:
        db: A connection in autocommit mode (``isolation_level=None``).
        current: The version the database is at.
        to_apply: The migrations, in order.

    Raises:
        sqlite3.Error: a statement failed: that migration is rolled back (those before it stay).
    """
    for migration in to_apply:
        if migration.version <= current:
            continue
        await db.execute("BEGIN IMMEDIATE")
        try:
            # executescript would COMMIT on its own; run statement by statement instead
            for statement in _statements(migration.sql):
                await db.execute(statement)
            await db.execute(f"PRAGMA user_version = {migration.version}")
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise


def _statements(script: str) -> list[str]:
    """Split a migration script into complete statements (``sqlite3.complete_statement``)."""
    statements, buffer = [], ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buffer.splitlines()
    ):
        raise RuntimeError(f"incomplete statement in migration: {buffer!r}")
    return statements


def refuse_newer(current: int, known: int, where: str, undo: str) -> None:
    """Refuse a database migrated further than this quizbot knows (downgrades are refused on
    both engines: migrations only go forward).

    Args:
        current: The database's schema version.
        known: The newest version this quizbot's migrations reach.
        where: The database, for the message (``database quizbot.sqlite3``).
        undo: How to go back, for the message (``restore a backup ...``).

    Raises:
        StorageError: ``current`` is above ``known``.
    """
    if current > known:
        raise StorageError(
            f"{where} has schema version {current}, but this quizbot knows versions up to "
            f"{known} only: it was used by a newer quizbot. Run that version (or newer), or "
            f"{undo}; migrations only go forward"
        )
