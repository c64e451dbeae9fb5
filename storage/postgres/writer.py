"""The PostgreSQL store's writer: **group commit** on pooled connections, and one-statement
reads (the twin of :mod:`storage.writer`).

Writes are queued and run in batches, each batch one transaction on a pooled connection (at
most :data:`WRITERS` batches at once, so one batch runs while the previous one commits). A
write's future is resolved only after its transaction's COMMIT returned; the connections run
with ``synchronous_commit=on``, so after the server flushed its WAL. A write that a constraint
refuses is answered with that error, and the rest of its batch is run again without it
(PostgreSQL aborts the whole transaction on an error); a batch that meets a deadlock with
another instance is run again whole. :class:`storage.postgres.store.PostgresStore` opens the
pool; the statements of each port (:mod:`storage.postgres.attempts`,
:mod:`storage.postgres.groups`, :mod:`storage.postgres.learning`) run through this writer and
reader.
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

import asyncpg

from bot.kernel.ports import StorageError

T = TypeVar("T")
WriteOp = Callable[[asyncpg.Connection], Awaitable[T]]
"""A write run inside a batch's transaction."""

WRITERS = 2
"""Batches of writes in flight at once (each on its own pooled connection)."""

POOL_SIZE = (2, 10)
"""Minimum and maximum connections in the pool (reads and write batches)."""

BATCH_RETRIES = 5
"""Times a batch that met a deadlock or a serialization failure is run again."""

_PLACEHOLDER = re.compile(r"\?")

_RETRYABLE = (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
FAILURES = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)
"""What a statement raises when the server failed it, or could not be reached (answered as
:class:`~bot.kernel.ports.StorageError`)."""


def numbered(sql: str) -> str:
    """``sql`` with its ``?`` placeholders (SQLite's style, that of the statements written once
    for both engines in :mod:`storage.shared`) numbered ``$1``, ``$2``, ... in their order
    (PostgreSQL's style). A statement written for PostgreSQL alone, with ``$n`` placeholders
    and no ``?``, is returned as it is. Every ``?`` is taken for a placeholder."""
    if "?" not in sql:
        return sql
    number = itertools.count(1)
    return _PLACEHOLDER.sub(lambda _: f"${next(number)}", sql)


def rows_changed(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresWriter:
    """Group-committed writes and one-statement reads on the connections of ``pool``.

    Args:
        pool: The connection pool (reads and write batches).
    """

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._pending: list[tuple[WriteOp[Any], asyncio.Future[Any]]] = []
        self._writers: set[asyncio.Task[None]] = set()
        self.commits = 0
        """How many transactions the writers committed (for tests and benchmarks)."""

    async def _submit(self, op: WriteOp[T]) -> T:
        """Queue a write and wait until it is committed (durable).

        Raises:
            asyncpg.IntegrityConstraintViolationError: a constraint refused the write (nothing
                of it was stored).
            StorageError: the transaction could not be committed (server gone, read-only,
                full disk): nothing of it was stored.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((op, future))
        if len(self._writers) < WRITERS:
            task = asyncio.create_task(self._write_loop(), name="postgres-writer")
            self._writers.add(task)
            task.add_done_callback(self._writers.discard)
        return await asyncio.shield(future)

    async def _write_loop(self) -> None:
        """Commit everything queued, batch after batch, until the queue is empty."""
        while self._pending:
            batch, self._pending = self._pending, []
            await self._commit(batch)

    async def _commit(self, batch: list[tuple[WriteOp[Any], asyncio.Future[Any]]]) -> None:
        """Run ``batch`` in one transaction and resolve its futures once it is committed."""
        retries = 0
        while batch:
            results: list[tuple[asyncio.Future[Any], Any]] = []
            refused: tuple[int, BaseException] | None = None
            try:
                async with self._pool.acquire() as db, db.transaction():
                    for index, (op, future) in enumerate(batch):
                        try:
                            # cast: a pool's connection is a proxy of the Connection it holds
                            # (asyncpg's isinstance says it is one; its stubs keep them apart)
                            results.append((future, await op(cast(asyncpg.Connection, db))))
                        except asyncpg.IntegrityConstraintViolationError as exc:
                            refused = (index, exc)
                            raise
            except asyncpg.IntegrityConstraintViolationError as exc:
                if refused is None:  # the COMMIT refused it (a deferred constraint): all fails
                    self._fail(batch, exc)
                    return
                # the transaction is rolled back: answer the refused write, run the others again
                index, error = refused
                future = batch[index][1]
                if not future.done():
                    future.set_exception(error)
                batch = batch[:index] + batch[index + 1 :]
                continue
            except _RETRYABLE as exc:  # another instance's transaction: run it again
                retries += 1
                if retries <= BATCH_RETRIES:
                    continue
                self._fail(batch, exc)
                return
            except Exception as exc:  # nothing of the batch is stored
                self._fail(batch, exc)
                return
            self.commits += 1
            for future, value in results:
                if not future.done():
                    future.set_result(value)
            return

    @staticmethod
    def _fail(batch: list[tuple[WriteOp[Any], asyncio.Future[Any]]], exc: Exception) -> None:
        error = StorageError(str(exc)) if isinstance(exc, FAILURES) else exc
        for _, future in batch:
            if not future.done():
                future.set_exception(error)

    async def _write(self, sql: str, args: tuple[object, ...] = ()) -> int:
        """One write statement (placeholders ``?`` or ``$n``, :func:`numbered`),
        group-committed; the number of rows it changed.

        Raises:
            asyncpg.IntegrityConstraintViolationError: a constraint refused the write.
            StorageError: the write could not be committed.
        """

        async def op(db: asyncpg.Connection) -> int:
            return rows_changed(await db.execute(numbered(sql), *args))

        return await self._submit(op)

    async def _write_returning(
        self, sql: str, args: tuple[object, ...] = ()
    ) -> list[asyncpg.Record]:
        """One write statement with a RETURNING clause (placeholders ``?`` or ``$n``,
        :func:`numbered`), group-committed; the rows it returned.

        Raises:
            asyncpg.IntegrityConstraintViolationError: a constraint refused the write.
            StorageError: the write could not be committed.
        """

        async def op(db: asyncpg.Connection) -> list[asyncpg.Record]:
            return list(await db.fetch(numbered(sql), *args))

        return await self._submit(op)

    async def _transaction(self, op: Callable[[_Transaction], Awaitable[T]]) -> T:
        """A write of several statements, group-committed (see
        :meth:`storage.shared.Statements._transaction`): ``op`` runs them through the
        :class:`~storage.shared.Transaction` it is given (placeholders ``?`` or ``$n``), in
        one batch's transaction.

        Raises:
            asyncpg.IntegrityConstraintViolationError: a constraint refused the write.
            StorageError: the write could not be committed.
        """

        async def run(db: asyncpg.Connection) -> T:
            return await op(_Transaction(db))

        return await self._submit(run)

    async def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[asyncpg.Record]:
        """Run one read statement (placeholders ``?`` or ``$n``, :func:`numbered`) to
        completion on a pooled connection; its rows.

        Raises:
            StorageError: the server could not be reached or refused the read.
        """
        try:
            return list(await self._pool.fetch(numbered(sql), *args))
        except FAILURES as exc:
            raise StorageError(str(exc)) from exc


class _Transaction:
    """A :class:`storage.shared.Transaction` on a batch's connection, inside its
    transaction."""

    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, args: tuple[object, ...]) -> int:
        return rows_changed(await self._db.execute(numbered(sql), *args))

    async def fetch(self, sql: str, args: tuple[object, ...]) -> list[asyncpg.Record]:
        return list(await self._db.fetch(numbered(sql), *args))
