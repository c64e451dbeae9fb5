"""The SQLite store's writer: **group commit** on one writer connection, and reads on another.

Every write is queued, and a single writer task runs everything queued so far in one
transaction, commits it (one fsync), then acknowledges each write. Concurrent writers thus share
a commit instead of paying one each, and every acknowledged write is durable. Reads use a second
connection, which in WAL mode sees committed data only. :class:`storage.sqlite.SQLiteStore`
opens the two connections; the statements of each port (:mod:`storage.attempts`,
:mod:`storage.groups`, :mod:`storage.learning`) run through this writer and reader.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import aiosqlite

from bot.quiz.ports import StorageError

T = TypeVar("T")
WriteOp = Callable[[aiosqlite.Connection], Awaitable[T]]
"""A write run by the writer task inside its transaction."""


class SQLiteWriter:
    """Group-committed writes on ``writer``, one-statement reads on ``reader``.

    Args:
        reader: The connection reads run on.
        writer: The connection the writer task runs every write on.
    """

    def __init__(self, reader: aiosqlite.Connection, writer: aiosqlite.Connection) -> None:
        self._db = reader
        self._writer_db = writer
        self._pending: list[tuple[WriteOp[Any], asyncio.Future[Any], bool]] = []
        self._writer_task: asyncio.Task[None] | None = None
        self.commits = 0
        """How many transactions the writer committed (for tests and benchmarks)."""

    async def _submit(self, op: WriteOp[T], *, single: bool = False) -> T:
        """Queue a write and wait until it is committed (durable).

        ``op`` runs inside the writer's transaction, next to other queued writes; it must make
        at most its *first* statement able to fail with a constraint error (SQLite then undoes
        only that statement, and the transaction goes on).

        Raises:
            sqlite3.IntegrityError: a constraint refused the write (nothing of it was stored).
            StorageError: the transaction could not be committed (locked, read-only, full
                disk): nothing of it was stored.

        Args:
            single: ``op`` runs one statement, so alone in its batch it can run in autocommit
                mode (one round trip to the database thread instead of three).
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future, single))
        if self._writer_task is None or self._writer_task.done():
            self._writer_task = asyncio.create_task(self._write_loop(), name="sqlite-writer")
        return await asyncio.shield(future)

    async def _write_loop(self) -> None:
        """Commit everything queued, batch after batch, until the queue is empty."""
        db = self._writer_db
        while self._pending:
            batch, self._pending = self._pending, []
            results: list[tuple[asyncio.Future[Any], BaseException | None, Any]] = []
            autocommit = len(batch) == 1 and batch[0][2]
            try:
                if not autocommit:
                    await db.execute("BEGIN IMMEDIATE")
                for op, future, _ in batch:
                    try:
                        results.append((future, None, await op(db)))
                    except sqlite3.IntegrityError as exc:
                        results.append((future, exc, None))
                if not autocommit:
                    await db.execute("COMMIT")
                self.commits += 1
            except Exception as exc:  # nothing of the batch is stored
                if db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):
                        await db.execute("ROLLBACK")
                error: BaseException | None = (StorageError(str(exc))
                                               if isinstance(exc, sqlite3.Error) else exc)
                results = [(future, error, None) for _, future, _ in batch]
            for future, error, value in results:
                if future.done():
                    continue
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(value)

    async def _write(self, sql: str, args: tuple[object, ...]) -> int:
        """One write statement, group-committed; returns the number of rows changed.

        Raises:
            sqlite3.IntegrityError: a constraint refused the write.
            StorageError: the write could not be committed (locked, read-only, full).
        """
        async def op(db: aiosqlite.Connection) -> int:
            cursor = await db.execute(sql, args)
            return cursor.rowcount

        return await self._submit(op, single=True)

    async def _write_returning(self, sql: str, args: tuple[object, ...]) -> list[Any]:
        """One write statement with a RETURNING clause, group-committed; the rows it returned
        (the state the write left, with no read that could race it).

        Raises:
            sqlite3.IntegrityError: a constraint refused the write.
            StorageError: the write could not be committed (locked, read-only, full).
        """
        async def op(db: aiosqlite.Connection) -> list[Any]:
            return list(await db.execute_fetchall(sql, args))

        return await self._submit(op, single=True)

    async def _transaction(self, op: Callable[[_Transaction], Awaitable[T]]) -> T:
        """A write of several statements, group-committed (see
        :meth:`storage.shared.Statements._transaction`): ``op`` runs them through the
        :class:`~storage.shared.Transaction` it is given, in the writer's transaction.

        Raises:
            sqlite3.IntegrityError: a constraint refused the write (its first statement).
            StorageError: the write could not be committed (locked, read-only, full).
        """
        async def run(db: aiosqlite.Connection) -> T:
            return await op(_Transaction(db))

        return await self._submit(run)

    async def _read(self, sql: str,
                    args: tuple[object, ...] | Mapping[str, object] = ()) -> list[Any]:
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

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, args: tuple[object, ...]) -> int:
        return (await self._db.execute(sql, args)).rowcount

    async def fetch(self, sql: str, args: tuple[object, ...]) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, args))
