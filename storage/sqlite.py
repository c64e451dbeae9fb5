"""SQLite storage (aiosqlite) implementing :class:`bot.quiz.ports.QuizStore`,
:class:`bot.quiz.ports.GroupStore`, :class:`bot.quiz.ports.CardStore`,
:class:`bot.quiz.ports.PrivacyStore` and :class:`bot.quiz.ports.ReportStore`.

One long-lived connection per process, in WAL mode with ``synchronous=FULL``: every write is
committed (and fsynced) before the awaited call returns, so an answer the user was told about
survives ``kill -9`` and power loss. The schema is versioned with ``PRAGMA user_version`` and
migrated forward at :meth:`SQLiteStore.open` by the numbered scripts in ``storage/migrations/``.

The store is put together from its parts: the group-commit writer (:mod:`storage.writer`), the
migrations (:mod:`storage.schema`), and the statements of each port (:mod:`storage.attempts`,
:mod:`storage.groups`, :mod:`storage.learning`); what spans them all (deleting a user's data,
the health write, the item report) is here.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite

from bot.quiz.analysis import Response
from bot.quiz.ports import DeletedData, StorageError
from storage.attempts import AttemptStatements
from storage.backup import DatabaseLock, InstanceLock
from storage.groups import GroupStatements
from storage.learning import LearningStatements
from storage.leases import LocalLeases
from storage.order import LocalUpdateOrder
from storage.schema import Migration, migrate, migrations, refuse_newer

__all__ = ["BUSY_TIMEOUT_MS", "Migration", "SQLiteStore", "migrations"]

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's lock before failing, in milliseconds."""


class SQLiteStore(AttemptStatements, GroupStatements, LearningStatements):
    """The quiz's storage in one SQLite file. Create with :meth:`open`; close with :meth:`close`.

    Writes go through one writer connection with **group commit** (:mod:`storage.writer`): every
    write is queued, and a single writer task runs everything queued so far in one transaction,
    commits it (one fsync), then acknowledges each write. Concurrent writers thus share a commit
    instead of paying one each, and every acknowledged write is durable. Reads use a second
    connection, which in WAL mode sees committed data only.
    """

    def __init__(self, reader: aiosqlite.Connection, writer: aiosqlite.Connection) -> None:
        super().__init__(reader, writer)
        self._lock: DatabaseLock | None = None  # shared: tells a restore the file is in use
        self._leases: LocalLeases | None = None
        self._path = Path()

    @classmethod
    async def open(cls, path: str | Path, *,
                   upto: int | None = None) -> SQLiteStore:
        """Open (creating if needed) the database at ``path`` and migrate it.

        Args:
            path: The database file.
            upto: Apply migrations only up to this version (for tests of upgrades).

        Raises:
            StorageError: the file cannot be opened or migrated.
        """
        path = Path(path)
        # checked first: a connect that fails leaves aiosqlite's thread behind
        if not path.parent.is_dir():
            raise StorageError(f"cannot open database {path}: folder {path.parent} does not exist")
        if path.is_dir():
            raise StorageError(f"cannot open database {path}: it is a folder")
        cls._create_private(path)
        lock = DatabaseLock(path, exclusive=False)
        connections: list[aiosqlite.Connection] = []
        try:
            for _ in range(2):
                connection = await aiosqlite.connect(path, isolation_level=None)
                connections.append(connection)
                await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                await connection.execute("PRAGMA journal_mode = WAL")
                await connection.execute("PRAGMA synchronous = FULL")
                await connection.execute("PRAGMA foreign_keys = ON")
            store = cls(*connections)
            store._lock = lock
            store._path = path
            known = migrations()
            current = await store.schema_version()
            refuse_newer(current, len(known), f"database {path}",
                         "restore a backup made before the upgrade")
            await migrate(store._writer_db, current, known if upto is None
                          else [m for m in known if m.version <= upto])
        except BaseException as exc:
            for connection in connections:
                await connection.close()
            lock.release()
            if isinstance(exc, sqlite3.Error):
                raise StorageError(f"cannot open database {path}: {exc}") from exc
            raise
        return store

    @staticmethod
    def _create_private(path: Path) -> None:
        """Create the database file ``path`` empty with mode 0600 (owner read and write), if
        it does not exist: it holds user ids, names and answers. SQLite creates the ``-wal``
        and ``-shm`` files later with the mode of the database file (``os_unix.c``,
        ``findCreateFileMode``), so they are 0600 too. An existing file keeps its mode.

        Raises:
            StorageError: the file cannot be created (permissions, read-only file system).
        """
        import os  # here, not at the top: this helper is the whole of this change to the module

        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return
        except OSError as exc:
            raise StorageError(f"cannot open database {path}: {exc.strerror}") from exc
        os.close(descriptor)

    async def close(self) -> None:
        """Finish queued writes, then close both connections (idempotent)."""
        if self._writer_task is not None:
            await asyncio.shield(self._writer_task)
        await self._db.close()
        await self._writer_db.close()
        if self._lock is not None:
            self._lock.release()
        if self._leases is not None:
            await self._leases.close()

    def leases(self) -> LocalLeases:
        """Session and poller leases: a SQLite file has one instance, which holds them all.
        The first call takes the file's :class:`~storage.backup.InstanceLock` (what
        ``quizbot run`` does at start); closing the store releases it.

        Raises:
            StorageError: another bot (``quizbot run``) already uses this database.
        """
        if self._leases is None:
            self._leases = LocalLeases(InstanceLock(self._path))
        return self._leases

    def update_order(self) -> LocalUpdateOrder:
        """The order of updates across instances: a SQLite file has one instance, whose update
        processor alone keeps each user's updates in order; it marks the handled updates in
        this file (a repetition after a restart is dropped)."""
        return LocalUpdateOrder(self._read, self._write)

    async def schema_version(self) -> int:
        """The applied schema version (``PRAGMA user_version``)."""
        rows = await self._read("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    # --- users' data ---------------------------------------------------------------------

    async def delete_user(self, user_id: int) -> DeletedData:
        """See :meth:`bot.quiz.ports.PrivacyStore.delete_user`. One transaction: all of it or
        nothing."""
        async def op(db: aiosqlite.Connection) -> DeletedData:
            answers = (await db.execute(
                "DELETE FROM answers WHERE attempt_id IN"
                " (SELECT attempt_id FROM attempts WHERE user_id = ?)", (user_id,))).rowcount
            attempts = (await db.execute(
                "DELETE FROM attempts WHERE user_id = ?", (user_id,))).rowcount
            settings = (await db.execute(
                "DELETE FROM users WHERE user_id = ?", (user_id,))).rowcount
            # spaced review: the user's cards, study hours and reminder setting
            await db.execute("DELETE FROM cards WHERE user_id = ?", (user_id,))
            settings += (await db.execute(
                "DELETE FROM learners WHERE user_id = ?", (user_id,))).rowcount
            sessions = [row[0] for row in await db.execute_fetchall(
                "SELECT session_id FROM group_players WHERE user_id = ? UNION"
                " SELECT session_id FROM group_answers WHERE user_id = ?", (user_id, user_id))]
            rows = list(await db.execute_fetchall(
                "SELECT MIN(COALESCE(MIN(user_id), 0), 0) FROM group_players"))
            pseudonym = int(rows[0][0])
            group_answers = 0
            for session_id in sessions:  # a new pseudonym per session: nothing links them
                pseudonym -= 1
                group_answers += (await db.execute(
                    "UPDATE group_answers SET user_id = ? WHERE session_id = ? AND user_id = ?",
                    (pseudonym, session_id, user_id))).rowcount
                await db.execute(
                    "UPDATE group_players SET user_id = ?, name = ? WHERE session_id = ?"
                    " AND user_id = ?", (pseudonym, "", session_id, user_id))
            started = {row[0] for row in await db.execute_fetchall(
                "UPDATE group_sessions SET starter_id = 0 WHERE starter_id = ?"
                " RETURNING session_id", (user_id,))}
            return DeletedData(answers, attempts, settings, group_answers,
                               len(started | set(sessions)))

        return await self._submit(op)

    async def check_writable(self) -> None:
        """Make one real, empty write through the writer (rewrite the schema version with its
        own value): raises unless the database takes writes now (for health checks).

        Raises:
            StorageError: the write failed (read-only, locked, full disk, closed).
        """
        async def op(db: aiosqlite.Connection) -> None:
            rows = list(await db.execute_fetchall("PRAGMA user_version"))
            await db.execute(f"PRAGMA user_version = {int(rows[0][0])}")

        try:
            await self._submit(op)
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc
        except ValueError as exc:  # aiosqlite: "no active connection"
            raise StorageError(str(exc)) from exc

    # --- reports -------------------------------------------------------------------------

    async def item_responses(self, *, bank_id: str | None = None, chat_id: int | None = None,
                             since: float | None = None) -> list[Response]:
        """See :meth:`bot.quiz.ports.ReportStore.item_responses` (one statement: one
        snapshot)."""
        rows = await self._read(
            "SELECT 'private', a.attempt_id, a.user_id, a.bank_id, x.question_id,"
            " x.option_index, x.correct, COALESCE(u.language, '')"
            " FROM answers x JOIN attempts a ON a.attempt_id = x.attempt_id"
            " LEFT JOIN users u ON u.user_id = a.user_id"
            " WHERE :chat IS NULL AND (:bank IS NULL OR a.bank_id = :bank)"
            " AND x.answered_at >= :since"
            " UNION ALL"
            " SELECT 'group', s.session_id, g.user_id, s.bank_id, g.question_id,"
            " g.option_index, g.correct, s.language"
            " FROM group_answers g JOIN group_sessions s ON s.session_id = g.session_id"
            " WHERE (:chat IS NULL OR s.chat_id = :chat) AND (:bank IS NULL OR s.bank_id = :bank)"
            " AND g.answered_at >= :since",
            {"chat": chat_id, "bank": bank_id, "since": since or 0.0})
        return [Response(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7]) for r in rows]
