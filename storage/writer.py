"""The SQLite store's writer: **group commit** on one writer connection, and reads on another.

Every write is queued, and a single writer task runs everything queued so far in one
transaction, commits it (one fsync), then acknowledges each write. Concurrent writers thus share
a commit instead of paying one each, and every acknowledged write is durable. Reads use a second
connection, which in WAL mode sees committed data only. :class:`storage.sqlite.SQLiteStore`
opens the two connections; the statements of each port (:mod:`storage.attempts`,
:mod:`storage.groups`, :mod:`storage.learning`) run through this writer and reader.

Before each batch and again after its commit, before acknowledging it, the writer checks that
the database file it writes is still the file its path names (:class:`DatabaseFile`): a file
deleted, replaced or overwritten under the bot would otherwise take acknowledged answers with it
silently. Once it is not, every write is refused with :class:`~bot.kernel.ports.StorageError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.kernel.ports import StorageError

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class Changed:
    """What a write statement did: the rows it changed, and the last row id inserted."""

    rowcount: int
    lastrowid: int | None


class WriterConnection:
    """The writer's SQLite connection and the one thread it is used on (open with
    :meth:`connect`, close with :meth:`close`).

    :meth:`run` runs a plain function of the ``sqlite3.Connection`` there (any number of
    statements in one trip); :meth:`execute`, :meth:`execute_fetchall` and
    :meth:`executemany` are one statement each, for writes that await between statements.

    Args:
        connection: The connection, in autocommit mode (``isolation_level=None``), made on
            ``thread``.
        thread: An executor with one worker, the only one that uses ``connection``.
    """

    def __init__(self, connection: sqlite3.Connection, thread: ThreadPoolExecutor) -> None:
        self._connection = connection
        self._thread = thread

    @classmethod
    async def connect(cls, path: Path) -> WriterConnection:
        """Open ``path`` in autocommit mode on a thread of its own.

        Raises:
            sqlite3.Error: it cannot be opened.
        """
        thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        try:
            connection = await asyncio.get_running_loop().run_in_executor(
                thread,
                functools.partial(
                    sqlite3.connect, path, isolation_level=None, check_same_thread=False
                ),
            )
        except BaseException:
            thread.shutdown(wait=False)
            raise
        return cls(connection, thread)

    async def run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the connection's thread (one trip); its result.

        Raises:
            sqlite3.Error: what ``fn`` raised.
            ValueError: the connection is closed.
        """
        if self._thread is None:
            raise ValueError("no active connection: the writer's connection is closed")
        return await asyncio.get_running_loop().run_in_executor(self._thread, fn, self._connection)

    async def execute(self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()) -> Changed:
        """Run one statement; the rows it changed."""

        def run(db: sqlite3.Connection) -> Changed:
            cursor = db.execute(sql, args)
            return Changed(cursor.rowcount, cursor.lastrowid)

        return await self.run(run)

    async def execute_fetchall(
        self, sql: str, args: Sequence[Any] | Mapping[str, Any] = ()
    ) -> list[Any]:
        """Run one statement to its end; its rows."""
        return await self.run(lambda db: db.execute(sql, args).fetchall())

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Changed:
        """Run one statement once per row of ``rows``."""
        rows = list(rows)

        def run(db: sqlite3.Connection) -> Changed:
            cursor = db.executemany(sql, rows)
            return Changed(cursor.rowcount, cursor.lastrowid)

        return await self.run(run)

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open (read between trips, when the thread is idle);
        False once closed."""
        return self._thread is not None and self._connection.in_transaction

    async def close(self) -> None:
        """Close the connection and end its thread (idempotent); later trips raise
        ``ValueError``."""
        thread = self._thread
        if thread is None:
            return
        self._thread = None  # type: ignore[assignment]
        with contextlib.suppress(sqlite3.Error):
            await asyncio.get_running_loop().run_in_executor(thread, self._connection.close)
        thread.shutdown(wait=True)


WriteOp = Callable[[WriterConnection], Awaitable[T]]
"""A write run by the writer task inside its transaction, awaiting each statement."""

StatementOp = Callable[[sqlite3.Connection], T]
"""A write run on the writer's thread inside its transaction, its statements in one trip (with
the other statement ops next to it in the batch): it must not block on anything but SQLite."""


SQLITE_WAL_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file (https://sqlite.org/fileformat.html,
"The Database Header"); bytes 18 and 19 (the file format's write and read versions) are 2 in
WAL mode, 1 in a rollback-journal database (what ``quizbot backup`` writes)."""


class FileChange(StrEnum):
    """How the database file changed under the bot."""

    DELETED = "deleted"
    """No file at the path any more (or the open file has no name left)."""
    REPLACED = "replaced"
    """The path names another file (a copy or backup moved into place)."""
    OVERWRITTEN = "overwritten"
    """The open file's contents were overwritten in place (``cp`` onto it): it no longer
    starts with a WAL-mode SQLite header."""


class DatabaseFile:
    """The database file as the store opened it: a descriptor of its own on it, to tell
    whether the path still names it (SQLite's own ``fileHasMoved`` test, ``os_unix.c``, which
    it only logs) and whether its header is still a WAL-mode SQLite header.

    The descriptor is read only and must be closed (:meth:`close`) only after every SQLite
    connection to the file is: closing a descriptor of a file drops the process's POSIX locks
    on it, SQLite's included (https://sqlite.org/howtocorrupt.html, section 2.2).

    Args:
        path: The database file, already open (and in WAL mode) in SQLite.

    Raises:
        OSError: it cannot be opened.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        opened = os.fstat(self._fd)
        self._identity = (opened.st_dev, opened.st_ino)

    def change(self) -> tuple[FileChange, str] | None:
        """How the file changed since it was opened, with the details for the log; None
        while the path still names the open file and its header is intact. Three system calls
        (``fstat``, ``stat``, a 20-byte ``pread``), no SQLite lock.

        Raises:
            ValueError: closed.
        """
        if self._fd is None:
            raise ValueError("closed")
        opened = os.fstat(self._fd)
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            return FileChange.DELETED, "no file is at that path any more"
        except OSError as exc:  # the folder is gone, or unreadable
            return FileChange.DELETED, f"its path cannot be read any more ({exc.strerror})"
        if (now.st_dev, now.st_ino) != self._identity:
            return FileChange.REPLACED, (
                f"the path now names another file (device {now.st_dev}, inode {now.st_ino}; "
                f"the open file is device {self._identity[0]}, inode {self._identity[1]}, "
                f"{'deleted' if opened.st_nlink == 0 else 'still linked elsewhere'})"
            )
        header = self.header()
        if header[:16] != SQLITE_WAL_HEADER or header[18:20] != b"\x02\x02":
            shown = (
                "empty"
                if not header
                else (
                    "a SQLite database not in WAL mode (a backup copied onto it?)"
                    if header[:16] == SQLITE_WAL_HEADER
                    else f"starts with {header[:16]!r}"
                )
            )
            return FileChange.OVERWRITTEN, (
                f"it was overwritten in place and is now {shown}, {opened.st_size} bytes"
            )
        return None

    def header(self) -> bytes:
        """The file's first 20 bytes (fewer if it is shorter).

        Raises:
            ValueError: closed.
            OSError: it cannot be read.
        """
        if self._fd is None:
            raise ValueError("closed")
        return os.pread(self._fd, 20, 0)

    def close(self) -> None:
        """Close the descriptor (idempotent); only once SQLite's connections are closed."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


FILE_ADVICE = {
    FileChange.DELETED: "its contents are still open in this process",
    FileChange.REPLACED: "the file the bot had open keeps the latest answers",
    FileChange.OVERWRITTEN: (
        "the bot's log of recent writes (the -wal file) no longer matches it: it is set aside "
        "when the bot stops, so that the file at the path is left as it is now"
    ),
}
"""What the log adds about each change (the store may add where it saved a rescue copy)."""


class SQLiteWriter:
    """Group-committed writes on ``writer``, one-statement reads on ``reader``.

    Args:
        reader: The connection reads run on.
        writer: The connection the writer task runs every write on.
    """

    def __init__(self, reader: aiosqlite.Connection, writer: WriterConnection) -> None:
        self._db = reader
        self._writer_db = writer
        # (op, its future, whether it is a StatementOp)
        self._pending: list[tuple[Callable[..., Any], asyncio.Future[Any], bool]] = []
        self._writer_task: asyncio.Task[None] | None = None
        self._file: DatabaseFile | None = None  # None: not watched (tests of the writer)
        self._lost: StorageError | None = None
        self._change: FileChange | None = None
        self.commits = 0
        """How many transactions the writer committed (for tests and benchmarks)."""

    def _check_file(self) -> None:
        """Raise unless the database file is still the path's (see :class:`DatabaseFile`);
        the first change found is logged once, handed to :meth:`_file_changed`, and refuses
        every later write.

        Raises:
            StorageError: the file was deleted, replaced or overwritten under the store.
        """
        if self._lost is not None:
            raise self._lost
        if self._file is None:
            return
        found = self._file.change()
        if found is None:
            return
        change, details = found
        self._change = change
        self._lost = StorageError(
            f"the database file {self._file.path} was {change} while the bot had it open: "
            f"{details}; writes are refused until the bot is restarted on a sound database"
        )
        log.error(
            "%s. Answers are no longer recorded and /healthz fails; %s.",
            self._lost,
            FILE_ADVICE[change],
        )
        self._file_changed(change)
        raise self._lost

    def _file_changed(self, change: FileChange) -> None:
        """Called once, when :meth:`_check_file` first finds the file changed (the store saves
        what it can); does nothing here."""

    async def _submit(self, op: WriteOp[T]) -> T:
        """Queue a write and wait until it is committed (durable).

        ``op`` runs inside the writer's transaction, next to other queued writes; it must make
        at most its *first* statement able to fail with a constraint error (SQLite then undoes
        only that statement, and the transaction goes on).

        Raises:
            sqlite3.IntegrityError: a constraint refused the write (nothing of it was stored).
            StorageError: the transaction could not be committed (locked, read-only, full
                disk): nothing of it was stored; or the database file was deleted, replaced or
                overwritten (:class:`DatabaseFile`): not acknowledged, as it may be lost.
        """
        result: T = await self._queue(op, False)
        return result

    async def _submit_statements(self, op: StatementOp[T]) -> T:
        """Queue a write given as a plain function of the connection (:data:`StatementOp`)
        and wait until it is committed: it runs on the writer's thread with the other
        statement ops of its batch, in one trip. The rules and errors of :meth:`_submit`."""
        result: T = await self._queue(op, True)
        return result

    async def _queue(self, op: Callable[..., Any], statements: bool) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future, statements))
        if self._writer_task is None or self._writer_task.done():
            self._writer_task = asyncio.create_task(self._write_loop(), name="sqlite-writer")
        return await asyncio.shield(future)

    async def _write_loop(self) -> None:
        """Commit everything queued, batch after batch, until the queue is empty."""
        db = self._writer_db
        while self._pending:
            batch, self._pending = self._pending, []
            results: list[tuple[asyncio.Future[Any], BaseException | None, Any]]
            try:
                self._check_file()
                results = await self._run_batch(batch)
                self.commits += 1
                self._check_file()  # committed to a file nobody will find: not acknowledged
            except Exception as exc:  # nothing of the batch is stored (or in a lost file)
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        await db.execute("ROLLBACK")
                error: BaseException | None = (
                    StorageError(str(exc)) if isinstance(exc, sqlite3.Error) else exc
                )
                results = [(future, error, None) for _, future, _ in batch]
            for future, error, value in results:
                if future.done():
                    continue
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(value)

    async def _run_batch(
        self, batch: list[tuple[Callable[..., Any], asyncio.Future[Any], bool]]
    ) -> list[tuple[asyncio.Future[Any], BaseException | None, Any]]:
        """Run a batch in one transaction, in order: each run of consecutive statement ops in
        one trip to the writer's thread (the first with ``BEGIN``, the last with ``COMMIT``),
        each awaited op statement by statement.

        Raises:
            sqlite3.Error, StorageError: the transaction failed (it is left to roll back).
        """
        db = self._writer_db
        results: list[tuple[asyncio.Future[Any], BaseException | None, Any]] = []
        index = 0
        while index < len(batch):
            op, future, statements = batch[index]
            if not statements:
                if index == 0:
                    await db.execute("BEGIN IMMEDIATE")
                try:
                    results.append((future, None, await op(db)))
                except sqlite3.IntegrityError as exc:
                    results.append((future, exc, None))
                index += 1
                continue
            end = index
            while end < len(batch) and batch[end][2]:
                end += 1
            run = [op for op, _, _ in batch[index:end]]
            begin, commit = index == 0, end == len(batch)
            outcomes = await db.run(functools.partial(_statement_ops, run, begin, commit))
            results.extend(
                (future, error, value)
                for (_, future, _), (error, value) in zip(batch[index:end], outcomes, strict=True)
            )
            index = end
        if not batch[-1][2]:
            await db.execute("COMMIT")
        return results

    async def _write(self, sql: str, args: tuple[object, ...]) -> int:
        """One write statement, group-committed; returns the number of rows changed.

        Raises:
            sqlite3.IntegrityError: a constraint refused the write.
            StorageError: the write could not be committed (locked, read-only, full).
        """
        return await self._submit_statements(lambda db: db.execute(sql, args).rowcount)

    async def _write_returning(self, sql: str, args: tuple[object, ...]) -> list[Any]:
        """One write statement with a RETURNING clause, group-committed; the rows it returned
        (the state the write left, with no read that could race it).

        Raises:
            sqlite3.IntegrityError: a constraint refused the write.
            StorageError: the write could not be committed (locked, read-only, full).
        """
        return await self._submit_statements(lambda db: db.execute(sql, args).fetchall())

    async def _transaction(self, op: Callable[[_Transaction], Awaitable[T]]) -> T:
        """A write of several statements, group-committed (see
        :meth:`storage.shared.Statements._transaction`): ``op`` runs them through the
        :class:`~storage.shared.Transaction` it is given, in the writer's transaction.

        Raises:
            sqlite3.IntegrityError: a constraint refused the write (its first statement).
            StorageError: the write could not be committed (locked, read-only, full).
        """

        async def run(db: WriterConnection) -> T:
            return await op(_Transaction(db))

        return await self._submit(run)

    async def _read(
        self, sql: str, args: tuple[object, ...] | Mapping[str, object] = ()
    ) -> list[Any]:
        """Run one read statement to completion on the reader connection; its rows.

        Every read is a single statement stepped to its end in one job on the connection's
        thread: a statement left half-read (a cursor still open while other reads interleave
        on the shared connection) would keep the connection's read transaction, and so an old
        WAL snapshot, open, and later reads would miss writes committed meanwhile. Data that
        must agree (an attempt and its answers) is read by one statement, so one snapshot.
        """
        return list(await self._db.execute_fetchall(sql, args))


class _Transaction:
    """A :class:`storage.shared.Transaction` on the writer's connection, inside its
    transaction."""

    def __init__(self, db: WriterConnection) -> None:
        self._db = db

    async def execute(self, sql: str, args: tuple[object, ...]) -> int:
        return (await self._db.execute(sql, args)).rowcount

    async def fetch(self, sql: str, args: tuple[object, ...]) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, args))


def _statement_ops(
    ops: list[StatementOp[Any]], begin: bool, commit: bool, db: sqlite3.Connection
) -> list[tuple[BaseException | None, Any]]:
    """On the writer's thread: ``BEGIN`` (when ``begin``), each op (a constraint error is that
    op's outcome; SQLite undid its statement alone), ``COMMIT`` (when ``commit``).

    Raises:
        sqlite3.Error: anything else failed (the transaction is left to roll back).
    """
    if begin:
        db.execute("BEGIN IMMEDIATE")
    outcomes: list[tuple[BaseException | None, Any]] = []
    for op in ops:
        try:
            outcomes.append((None, op(db)))
        except sqlite3.IntegrityError as exc:
            outcomes.append((exc, None))
    if commit:
        db.execute("COMMIT")
    return outcomes
