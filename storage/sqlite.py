"""SQLite storage (aiosqlite) implementing :class:`bot.kernel.ports.QuizStore`,
:class:`bot.features.groups.ports.GroupStore`, :class:`bot.features.learning.ports.CardStore`,
:class:`bot.features.privacy.ports.PrivacyStore` and :class:`bot.kernel.ports.ReportStore`.

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
import contextlib
import logging
import os
import sqlite3
import time
from pathlib import Path

import aiosqlite

from bot.features.privacy.ports import DeletedData
from bot.kernel.members import DELETED_NAME, pseudonyms
from bot.kernel.ports import StorageError
from storage.attempts import AttemptStatements
from storage.backup import DatabaseLock, InstanceLock
from storage.daily import DailyStatements
from storage.exams import ExamStatements
from storage.groups import GroupStatements
from storage.handled import HandledMarks
from storage.homework import HomeworkStatements
from storage.learning import LearningStatements
from storage.leases import LocalLeases
from storage.library import LibraryStatements
from storage.order_local import LocalUpdateOrder
from storage.schema import Migration, migrate, migrations, refuse_newer
from storage.shared import SharedPromptStatements, SharedReportStatements
from storage.sqlite_files import check_path, refuse_recreating, traces_of
from storage.writer import DatabaseFile, FileChange, WriterConnection

__all__ = [
    "BUSY_TIMEOUT_MS",
    "Migration",
    "SQLiteStore",
    "migrations",
]

log = logging.getLogger(__name__)


BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's lock before failing, in milliseconds."""


class SQLiteStore(
    AttemptStatements,
    GroupStatements,
    LearningStatements,
    LibraryStatements,
    HomeworkStatements,
    SharedReportStatements,
    DailyStatements,
    SharedPromptStatements,
    ExamStatements,
):
    """The quiz's storage in one SQLite file. Create with :meth:`open`; close with :meth:`close`.

    Writes go through one writer connection with **group commit** (:mod:`storage.writer`): every
    write is queued, and a single writer task runs everything queued so far in one transaction,
    commits it (one fsync), then acknowledges each write. Concurrent writers thus share a commit
    instead of paying one each, and every acknowledged write is durable. Reads use a second
    connection, which in WAL mode sees committed data only.
    """

    def __init__(self, reader: aiosqlite.Connection, writer: WriterConnection) -> None:
        super().__init__(reader, writer)
        self._lock: DatabaseLock | None = None  # shared: tells a restore the file is in use
        self._leases: LocalLeases | None = None
        self._rescue_task: asyncio.Task[None] | None = None
        self._path = Path()

    @classmethod
    async def open(
        cls, path: str | Path, *, upto: int | None = None, create: bool = False
    ) -> SQLiteStore:
        """Open the database at ``path`` and migrate it; create it if there is none and none
        was there before (see :func:`~storage.sqlite_files.check_path` and
        :func:`~storage.sqlite_files.traces_of`; a new database is said in the log).

        Args:
            path: The database file.
            upto: Apply migrations only up to this version (for tests of upgrades).
            create: Create a new, empty database even where the files beside the path show
                one was used before (``QUIZBOT_CREATE_DB``).

        Raises:
            StorageError: the path is not a database or cannot hold one (nothing is created
                then), a database was there before and is gone, or the file cannot be opened
                or migrated.
        """
        path = Path(path)
        # checked first: nothing beside the path is created for a path that cannot be used, and
        # a connect that fails leaves aiosqlite's thread behind
        file = check_path(path)
        new = file is None
        traces = traces_of(path) if new else []  # before this open makes its lock file
        connections: list[aiosqlite.Connection | WriterConnection] = []
        lock: DatabaseLock | None = None
        try:
            lock = DatabaseLock(path, exclusive=False)  # refused while a restore writes it
            if traces and not create:
                refuse_recreating(path, traces)
            if file is None:
                cls._create_private(path)
                file = DatabaseFile(path)
            reader = await aiosqlite.connect(path, isolation_level=None)
            connections.append(reader)
            writer = await WriterConnection.connect(path)  # the writer's own thread
            connections.append(writer)
            for connection in connections:
                await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                await connection.execute("PRAGMA journal_mode = WAL")
                await connection.execute("PRAGMA synchronous = FULL")
                await connection.execute("PRAGMA foreign_keys = ON")
            store = cls(reader, writer)
            store._lock = lock
            store._path = path
            known = migrations()
            current = await store.schema_version()
            if current == 0:
                await store._refuse_foreign(path)
            refuse_newer(
                current, len(known), f"database {path}", "restore a backup made before the upgrade"
            )
            await migrate(
                store._writer_db,
                current,
                known if upto is None else [m for m in known if m.version <= upto],
            )
            store._file = file  # watched from here on: WAL mode, so its header says so
        except BaseException as exc:
            for connection in connections:
                await connection.close()
            if file is not None:
                file.close()  # after SQLite's connections: see DatabaseFile
            if lock is not None:
                lock.release()
            if isinstance(exc, sqlite3.Error):
                raise StorageError(f"cannot open database {path}: {exc}") from exc
            if isinstance(exc, OSError):
                raise StorageError(f"cannot open database {path}: {exc.strerror}") from exc
            raise
        if new:
            log.info(
                "created a new database at %s (schema version %d)",
                path,
                await store.schema_version(),
            )
        elif create:
            log.warning(
                "QUIZBOT_CREATE_DB is set but %s exists, so it was opened as it is: "
                "unset it, so that a database lost later is refused rather than "
                "replaced by an empty one",
                path,
            )
        return store

    async def _refuse_foreign(self, path: Path) -> None:
        """Refuse a database without quizbot's schema that holds tables: another application's
        file (``QUIZBOT_DB`` pointing at it), which quizbot's tables must not be added to.

        Raises:
            StorageError: it holds tables.
        """
        rows = await self._read(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name LIMIT 4"
        )
        if rows:
            names = ", ".join(str(row[0]) for row in rows[:3]) + (", ..." if len(rows) > 3 else "")
            raise StorageError(
                f"database {path} is not quizbot's: it holds other tables ({names}) and no "
                "quizbot schema; nothing was changed. Set QUIZBOT_DB to a new file or to "
                "quizbot's own database"
            )

    @staticmethod
    def _create_private(path: Path) -> None:
        """Create the database file ``path`` empty with mode 0600 (owner read and write), if
        it does not exist: it holds user ids, names and answers. SQLite creates the ``-wal``
        and ``-shm`` files later with the mode of the database file (``os_unix.c``,
        ``findCreateFileMode``), so they are 0600 too. An existing file keeps its mode.

        Raises:
            StorageError: the file cannot be created (permissions, read-only file system).
        """
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            return
        except OSError as exc:
            raise StorageError(f"cannot open database {path}: {exc.strerror}") from exc
        os.close(descriptor)

    def _file_changed(self, change: FileChange) -> None:
        """The database file was deleted or replaced under the store: save what the open file
        holds beside the path (:meth:`_rescue`), once. A file overwritten in place holds the
        copy now, which SQLite's cache no longer matches: nothing sound is left to save."""
        if change is not FileChange.OVERWRITTEN and self._rescue_task is None:
            self._rescue_task = asyncio.get_running_loop().create_task(
                self._rescue(), name="sqlite-rescue"
            )

    async def _rescue(self) -> None:
        """Copy the open database (a consistent snapshot, SQLite's backup API on the reader
        connection) to ``<db>.rescued-<UTC time>`` beside the path, mode 0600, in rollback
        journal mode (one self-contained file), and log where; a failure is logged."""
        target = self._path.with_name(f"{self._path.name}.rescued-{_stamp()}")
        try:
            self._create_private(target)
            copy = sqlite3.connect(target, isolation_level=None, check_same_thread=False)
            try:
                await self._db.backup(copy)
                answers = await asyncio.to_thread(_rescued, copy)
            finally:
                copy.close()
        except (StorageError, OSError, sqlite3.Error) as exc:
            log.error(
                "could not save the database the bot had open to %s: %s; it stays "
                "readable while this process runs (ls -l /proc/%d/fd)",
                target,
                exc,
                os.getpid(),
            )
            return
        log.error(
            "saved the database the bot had open (answers: %d) to %s: stop the bot, "
            "check it, and put it in place with `quizbot restore %s`, or set "
            "QUIZBOT_CREATE_DB=1 to start with a new, empty database",
            answers,
            target,
            target,
        )

    async def close(self) -> None:
        """Finish queued writes, then close both connections (idempotent).

        A database file deleted or replaced meanwhile is saved first (:meth:`_rescue`): it
        would be gone once closed. Once the file was deleted, replaced or overwritten, SQLite's
        write-ahead log beside the path belongs to the lost file: it is not written into the
        file now at the path (:meth:`_set_log_aside`).
        """
        if self._writer_task is not None:
            await asyncio.shield(self._writer_task)
        with contextlib.suppress(StorageError):
            self._check_file()  # a change found while idle is logged (and saved) now
        if self._rescue_task is not None:
            await asyncio.shield(self._rescue_task)
        hidden = None
        if self._change is FileChange.OVERWRITTEN and self._file is not None:
            # SQLite writes its log into the file when the last connection closes, unless
            # the file has moved (pager.c, databaseIsUnchanged): move it for that moment
            hidden = self._path.with_name(f".{self._path.name}.closing")
            try:
                os.rename(self._path, hidden)
            except OSError:
                hidden = None
        await self._db.close()
        await self._writer_db.close()
        if hidden is not None:
            try:
                os.rename(hidden, self._path)
            except OSError as exc:
                log.error(
                    "could not move the database file back from %s to %s (%s): move it "
                    "back by hand",
                    hidden,
                    self._path,
                    exc.strerror,
                )
        if self._file is not None:
            self._file.close()  # after SQLite's connections: see DatabaseFile
            self._file = None
            if self._change is not None:
                self._set_log_aside()
        if self._lock is not None:
            self._lock.release()
        if self._leases is not None:
            await self._leases.close()

    def _set_log_aside(self) -> None:
        """Move the lost file's write-ahead log (``<db>-wal``) to ``<db>-wal.lost-<UTC
        time>`` and remove its index (``<db>-shm``): SQLite would apply that log to whatever
        file the path names at the next open. Failures are logged."""
        wal = self._path.with_name(self._path.name + "-wal")
        aside = wal.with_name(f"{wal.name}.lost-{_stamp()}")
        try:
            if wal.exists():
                os.rename(wal, aside)
                log.warning(
                    "moved the write-ahead log of the lost database file to %s, so "
                    "that it is not applied to the file at %s",
                    aside,
                    self._path,
                )
            self._path.with_name(self._path.name + "-shm").unlink(missing_ok=True)
        except OSError as exc:
            log.error(
                "could not move %s aside (%s): remove it (and %s-shm) before the next start",
                wal,
                exc.strerror,
                self._path,
            )

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

    def send_budget(self, bot_id: int) -> None:
        """None: a SQLite file has one instance, whose send budgets are its own."""
        return None

    def update_order(self) -> LocalUpdateOrder:
        """The order of updates across instances: a SQLite file has one instance, whose update
        processor alone keeps each user's updates in order; it marks the handled updates in
        this file (a repetition after a restart is dropped)."""
        return LocalUpdateOrder(self._read, self._write)

    def handled_marks(self) -> HandledMarks:
        """The marks of the handled updates (polling: each update handled once across
        restarts), written through this store's group commit."""
        return HandledMarks(self._read, self._write, postgres=False)

    async def schema_version(self) -> int:
        """The applied schema version (``PRAGMA user_version``)."""
        rows = await self._read("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    # --- users' data ---------------------------------------------------------------------

    async def delete_user(self, user_id: int) -> DeletedData:
        """See :meth:`bot.features.privacy.ports.PrivacyStore.delete_user`. One transaction: all of
        it or nothing."""

        async def op(db: WriterConnection) -> DeletedData:
            async def changed(sql: str) -> int:  # rows of the user's other data
                return int((await db.execute(sql, (user_id,))).rowcount)

            answers = (
                await db.execute(
                    "DELETE FROM answers WHERE attempt_id IN"
                    " (SELECT attempt_id FROM attempts WHERE user_id = ?)",
                    (user_id,),
                )
            ).rowcount
            attempts = (
                await db.execute("DELETE FROM attempts WHERE user_id = ?", (user_id,))
            ).rowcount
            settings = (
                await db.execute("DELETE FROM users WHERE user_id = ?", (user_id,))
            ).rowcount
            # spaced review: the user's cards, study hours and reminder setting
            other = await changed("DELETE FROM cards WHERE user_id = ?")
            # ticks not yet submitted on a question with several right options
            other += await changed("DELETE FROM group_picks WHERE user_id = ?")
            settings += (
                await db.execute("DELETE FROM learners WHERE user_id = ?", (user_id,))
            ).rowcount
            # created quizzes: the draft in the making (the quizzes are the caller's choice)
            drafts = (await db.execute("DELETE FROM drafts WHERE user_id = ?", (user_id,))).rowcount
            # what they were asked and had not answered (a /myquizzes prompt)
            await db.execute("DELETE FROM prompts WHERE user_id = ?", (user_id,))
            # the question of the day: their answers; their id leaves what they set up
            other += await changed("DELETE FROM daily_answers WHERE user_id = ?")
            other += await changed("UPDATE daily_schedules SET set_by = 0 WHERE set_by = ?")
            other += await changed("UPDATE bot_chats SET added_by = NULL WHERE added_by = ?")
            # homework: which attempts were theirs (deleted above); the homework they set stays
            # for its group, no longer linked to them (no report is sent to anyone)
            other += await changed("DELETE FROM homework_members WHERE user_id = ?")
            other += await changed(
                "UPDATE assignments SET set_by = 0, set_by_name = '' WHERE set_by = ?"
            )
            sessions = [
                row[0]
                for row in await db.execute_fetchall(
                    "SELECT session_id FROM group_players WHERE user_id = ? UNION"
                    " SELECT session_id FROM group_answers WHERE user_id = ?",
                    (user_id, user_id),
                )
            ]
            rows = list(await db.execute_fetchall("SELECT MIN(user_id) FROM group_players"))
            group_answers = 0
            for session_id, pseudonym in pseudonyms(rows[0][0], sessions).items():
                group_answers += (
                    await db.execute(
                        "UPDATE group_answers SET user_id = ? WHERE session_id = ? AND user_id = ?",
                        (pseudonym, session_id, user_id),
                    )
                ).rowcount
                await db.execute(
                    "UPDATE group_players SET user_id = ?, name = ? WHERE session_id = ?"
                    " AND user_id = ?",
                    (pseudonym, DELETED_NAME, session_id, user_id),
                )
            started = {
                row[0]
                for row in await db.execute_fetchall(
                    "UPDATE group_sessions SET starter_id = 0 WHERE starter_id = ?"
                    " RETURNING session_id",
                    (user_id,),
                )
            }
            return DeletedData(
                answers,
                attempts,
                settings,
                group_answers,
                len(started | set(sessions)),
                drafts=drafts,
                other=other,
            )

        return await self._submit(op)

    async def checkpoint(self) -> bool:
        """See :meth:`bot.features.privacy.ports.PrivacyStore.checkpoint`: ``PRAGMA
        wal_checkpoint(TRUNCATE)`` on the reading connection (the writer's may be in a
        transaction), which waits for the writer through the busy timeout.

        Raises:
            StorageError: the checkpoint failed.
        """
        try:
            rows = await self._read("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc
        return not rows or rows[0][0] == 0  # the first column: 1 when it could not finish

    async def check_writable(self) -> None:
        """Make one real, empty write through the writer (rewrite the schema version with its
        own value): raises unless the database takes writes now (for health checks).

        Raises:
            StorageError: the write failed (read-only, locked, full disk, closed), or the
                database file is no longer the path's (deleted, replaced, overwritten).
        """

        async def op(db: WriterConnection) -> None:
            rows = list(await db.execute_fetchall("PRAGMA user_version"))
            await db.execute(f"PRAGMA user_version = {int(rows[0][0])}")

        try:
            await self._submit(op)
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc
        except ValueError as exc:  # aiosqlite: "no active connection"
            raise StorageError(str(exc)) from exc


def _stamp() -> str:
    """The UTC time, for file names: ``20261201T123456Z``."""
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def _rescued(copy: sqlite3.Connection) -> int:
    """Make the rescue copy self-contained (rollback journal, no ``-wal``); its answers."""
    copy.execute("PRAGMA journal_mode = DELETE")
    return int(copy.execute("SELECT COUNT(*) FROM answers").fetchone()[0])
