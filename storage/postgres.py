"""PostgreSQL storage (asyncpg) implementing :class:`bot.quiz.ports.QuizStore`,
:class:`bot.quiz.ports.GroupStore`, :class:`bot.quiz.ports.CardStore` (in
:mod:`storage.learning_pg`), :class:`bot.quiz.ports.PrivacyStore` and
:class:`bot.quiz.ports.ReportStore`, for one or several quizbot instances sharing a database.

The same semantics as :mod:`storage.sqlite`:

- **Every acknowledged write is durable**: the connections run with ``synchronous_commit=on``
  (a write's future is resolved only after its transaction's COMMIT returned, so after the
  server flushed its WAL).
- **Group commit**: writes are queued and run in batches, each batch one transaction on a
  pooled connection (at most :data:`WRITERS` batches at once, so one batch runs while the
  previous one commits). A write that a constraint refuses is answered with that error, and the
  rest of its batch is run again without it (PostgreSQL aborts the whole transaction on an
  error); a batch that meets a deadlock with another instance is run again whole.
- **Constraints decide**: one answer per question per attempt, one per member per question,
  one active attempt per user, one running session per chat: unique keys, checked by the
  database against every instance's writes.
- **Compare-and-set writes** check their condition in the write itself, locking the row they
  test (``FOR UPDATE``: in READ COMMITTED a concurrent writer waits, then re-checks against the
  row as committed), and return the state they left (``RETURNING``).
- **Every read is one statement** on a pooled connection, run to completion; data that must
  agree (an attempt and its answers) is read by one statement, so from one snapshot.

The schema is versioned in the table ``quizbot_schema`` and migrated forward at
:meth:`PostgresStore.open` by the numbered scripts in ``storage/migrations_pg/`` (the twins of
``storage/migrations/``), all in one transaction under an advisory lock, so that instances
starting together migrate once.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, TypeVar, cast

import asyncpg

from bot.quiz.analysis import Response
from bot.quiz.engine import ABANDONED, ACTIVE, Answer, Attempt, Plan
from bot.quiz.group import RIGHT, GroupAnswer, GroupSession, Scoring
from bot.quiz.ports import (
    CLOSED,
    DUPLICATE,
    RECORDED,
    BankStats,
    DeletedData,
    GroupTally,
    Pruned,
    RecordOutcome,
    StorageError,
)
from bot.quiz.privacy import DELETED_NAME, pseudonyms
from bot.quiz.settings import GroupSettings
from bot.quiz.stats import COUNTED_ATTEMPT, COUNTED_SESSION, bank_stats
from storage.learning_pg import PostgresLearningStatements
from storage.leases import PostgresLeases
from storage.order import PostgresUpdateOrder
from storage.rows import SESSION_COLUMNS, attempt_of, moved_on, session_of, settings_of
from storage.schema import Migration, bundled, refuse_newer
from storage.schema import migrations as sqlite_migrations

T = TypeVar("T")
WriteOp = Callable[[asyncpg.Connection], Awaitable[T]]
"""A write run inside a batch's transaction."""

WRITERS = 2
"""Batches of writes in flight at once (each on its own pooled connection)."""

POOL_SIZE = (2, 10)
"""Minimum and maximum connections in the pool (reads and write batches)."""

BATCH_RETRIES = 5
"""Times a batch that met a deadlock or a serialization failure is run again."""

MIGRATION_LOCK = (0x71756979, 0)
"""Advisory lock key (two int4) held while migrating: instances starting together migrate
once."""

PSEUDONYM_LOCK = (0x71756979, 1)
"""Advisory lock key (two int4) held by :meth:`PostgresStore.delete_user` until it commits:
two instances deleting users at once never pick the same pseudonyms."""

_RETRYABLE = (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)
_FAILURES = (asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError,
             OSError, asyncio.TimeoutError)


def is_postgres_url(value: object) -> bool:
    """Whether ``value`` (a ``QUIZBOT_DB`` setting) names a PostgreSQL database
    (``postgresql://`` or ``postgres://``) rather than a SQLite file."""
    return isinstance(value, str) and value.startswith(("postgresql://", "postgres://"))


def migrations() -> list[Migration]:
    """The bundled PostgreSQL migrations (``storage/migrations_pg/NNNN_name.sql``), in order.

    Raises:
        RuntimeError: two scripts share a number, the numbers have a gap, or they are not the
            same numbers and names as SQLite's (the two schemas move forward together).
    """
    found = bundled("migrations_pg")
    if [(m.version, m.name) for m in found] != [
            (m.version, m.name) for m in sqlite_migrations()]:
        raise RuntimeError("storage/migrations_pg/ must have the same numbered scripts as "
                           "storage/migrations/")
    return found


def _count(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresStore(PostgresLearningStatements):
    """The quiz's storage in a PostgreSQL database. Create with :meth:`open`; close with
    :meth:`close`.

    Args:
        pool: The connection pool (reads and write batches).
        dsn: The database URL (for the lease connections of :meth:`leases`).
    """

    def __init__(self, pool: asyncpg.Pool, dsn: str) -> None:
        self._pool = pool
        self._dsn = dsn
        self._pending: list[tuple[WriteOp[Any], asyncio.Future[Any]]] = []
        self._writers: set[asyncio.Task[None]] = set()
        self._leases: PostgresLeases | None = None
        self._order: PostgresUpdateOrder | None = None
        self.commits = 0
        """How many transactions the writers committed (for tests and benchmarks)."""

    @classmethod
    async def open(cls, dsn: str, *, upto: int | None = None,
                   pool_size: tuple[int, int] = POOL_SIZE) -> PostgresStore:
        """Connect to the database ``dsn`` and migrate it.

        Args:
            dsn: ``postgresql://user[:password]@host[:port]/database[?param=value...]``
                (libpq's URL form; a ``host=/folder`` parameter names a Unix socket folder;
                other parameters are server settings, e.g. ``search_path``).
            upto: Apply migrations only up to this version (for tests of upgrades).
            pool_size: Minimum and maximum pooled connections.

        Raises:
            StorageError: the server cannot be reached, refuses the login, the migration
                failed (the message names the server error, never the password), or the
                database was migrated by a newer quizbot (downgrades are refused).
        """
        try:
            pool = await asyncpg.create_pool(
                dsn, min_size=pool_size[0], max_size=pool_size[1],
                server_settings={"synchronous_commit": "on"})
        except (*_FAILURES, ValueError) as exc:
            raise StorageError(f"cannot open database {redact_dsn(dsn)}: {exc}") from exc
        store = cls(pool, dsn)
        try:
            await store._migrate(migrations() if upto is None
                                 else [m for m in migrations() if m.version <= upto])
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, _FAILURES):
                raise StorageError(f"cannot migrate database {redact_dsn(dsn)}: {exc}") from exc
            raise
        return store

    async def close(self) -> None:
        """Finish queued writes, release the leases and the update turns, then close the pool
        (idempotent)."""
        while self._writers:
            await asyncio.gather(*self._writers, return_exceptions=True)
        if self._leases is not None:
            await self._leases.close()
        if self._order is not None:
            await self._order.close()
        await self._pool.close()

    def leases(self) -> PostgresLeases:
        """The instance's session and poller leases (advisory locks; see
        :mod:`storage.leases`), created on first use."""
        if self._leases is None:
            self._leases = PostgresLeases(self._dsn)
        return self._leases

    def update_order(self) -> PostgresUpdateOrder:
        """The order of each (chat, sender)'s updates across the instances receiving this
        bot's webhooks (advisory locks and registrations; see :mod:`storage.order`), created
        on first use."""
        if self._order is None:
            self._order = PostgresUpdateOrder(self._dsn)
        return self._order

    async def schema_version(self) -> int:
        """The applied schema version (0 for an empty database)."""
        rows = await self._read(
            "SELECT COALESCE((SELECT MAX(version) FROM quizbot_schema), 0)"
            " WHERE to_regclass('quizbot_schema') IS NOT NULL")
        return int(rows[0][0]) if rows else 0

    async def _migrate(self, to_apply: Iterable[Migration]) -> None:
        async with self._pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1, $2)", *MIGRATION_LOCK)
            await db.execute("CREATE TABLE IF NOT EXISTS quizbot_schema ("
                             " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                             " applied_at DOUBLE PRECISION NOT NULL)")
            current = await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM quizbot_schema")
            known = max((m.version for m in migrations()), default=0)
            refuse_newer(current, known, "the database",
                         "restore a dump made before the upgrade (on every instance)")
            for migration in to_apply:
                if migration.version <= current:
                    continue
                await db.execute(migration.sql)  # a script: the simple query protocol
                await db.execute("INSERT INTO quizbot_schema VALUES ($1, $2, $3)",
                                 migration.version, migration.name, time.time())

    # --- group commit --------------------------------------------------------------------

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
                batch = batch[:index] + batch[index + 1:]
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
        error = StorageError(str(exc)) if isinstance(exc, _FAILURES) else exc
        for _, future in batch:
            if not future.done():
                future.set_exception(error)

    async def _write(self, sql: str, *args: object) -> int:
        """One write statement, group-committed; the number of rows it changed.

        Raises:
            asyncpg.IntegrityConstraintViolationError: a constraint refused the write.
            StorageError: the write could not be committed.
        """
        async def op(db: asyncpg.Connection) -> int:
            return _count(await db.execute(sql, *args))

        return await self._submit(op)

    async def _write_returning(self, sql: str, *args: object) -> list[asyncpg.Record]:
        """One write statement with a RETURNING clause, group-committed; the rows it returned.

        Raises:
            asyncpg.IntegrityConstraintViolationError: a constraint refused the write.
            StorageError: the write could not be committed.
        """
        async def op(db: asyncpg.Connection) -> list[asyncpg.Record]:
            return list(await db.fetch(sql, *args))

        return await self._submit(op)

    async def _read(self, sql: str, *args: object) -> list[asyncpg.Record]:
        """Run one read statement to completion on a pooled connection; its rows.

        Raises:
            StorageError: the server could not be reached or refused the read.
        """
        try:
            return list(await self._pool.fetch(sql, *args))
        except _FAILURES as exc:
            raise StorageError(str(exc)) from exc

    # --- users ---------------------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        """See :meth:`bot.quiz.ports.QuizStore.user_language`."""
        rows = await self._read("SELECT language FROM users WHERE user_id = $1", user_id)
        return rows[0][0] if rows else None

    async def set_user_language(self, user_id: int, language: str) -> None:
        """See :meth:`bot.quiz.ports.QuizStore.set_user_language`."""
        await self._write(
            "INSERT INTO users (user_id, language, updated_at) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at", user_id, language, time.time())

    # --- attempts ------------------------------------------------------------------------

    async def start_attempt(self, user_id: int, bank_id: str, bank_version: int, plan: Plan,
                            now: float, fingerprints: Mapping[str, str] | None = None) -> Attempt:
        """See :meth:`bot.quiz.ports.QuizStore.start_attempt`.

        Without ``fingerprints`` the column is left out (NULL), so that tests of upgrades can
        start attempts in a database older than migration 0005.
        """
        values: tuple[str, ...]
        columns, values = "", ()
        if fingerprints is not None:
            fingerprints = dict(fingerprints)
            columns, values = ", fingerprints", (json.dumps(fingerprints),)

        async def op(db: asyncpg.Connection) -> int:
            await db.execute(
                "UPDATE attempts SET status = $1, ended_at = $2"
                " WHERE user_id = $3 AND status = $4", ABANDONED, now, user_id, ACTIVE)
            return int(await db.fetchval(
                "INSERT INTO attempts (user_id, bank_id, bank_version, question_order,"
                f" option_orders, position, status, started_at{columns})"
                f" VALUES ($1, $2, $3, $4, $5, 0, $6, $7{', $8' * len(values)})"
                " RETURNING attempt_id",
                user_id, bank_id, bank_version, json.dumps(plan.question_order),
                json.dumps(plan.option_orders), ACTIVE, now, *values))

        attempt_id = await self._submit(op)
        return Attempt(attempt_id, user_id, bank_id, bank_version, plan, 0, ACTIVE, now,
                       fingerprints=fingerprints or {})

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.attempt`."""
        return await self._load_attempt("attempt_id = $1", attempt_id)

    async def active_attempt(self, user_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.active_attempt`."""
        return await self._load_attempt("user_id = $1 AND status = 'active'", user_id)

    async def _load_attempt(self, where: str, *args: object) -> Attempt | None:
        rows = await self._read(
            "SELECT attempt_id, user_id, bank_id, bank_version, question_order,"
            " option_orders, position, status, started_at, ended_at,"
            " (SELECT COALESCE(json_agg(json_build_array(question_id, option_index, correct,"
            "  answered_at)), '[]')::text FROM answers s WHERE s.attempt_id = a.attempt_id),"
            f" fingerprints FROM attempts a WHERE {where}", *args)
        return attempt_of(rows[0]) if rows else None

    async def revise_attempt(self, attempt_id: int, position: int, plan: Plan,
                             fingerprints: Mapping[str, str], finished_at: float | None) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.revise_attempt`."""
        changed = await self._write(
            "UPDATE attempts SET question_order = $1, option_orders = $2, fingerprints = $3,"
            " status = CASE WHEN $4::double precision IS NULL THEN status ELSE 'finished' END,"
            " ended_at = COALESCE($4::double precision, ended_at)"
            " WHERE attempt_id = $5 AND status = 'active' AND position = $6",
            json.dumps(plan.question_order), json.dumps(plan.option_orders),
            json.dumps(dict(fingerprints)), finished_at, attempt_id, position)
        return changed == 1

    async def record_answer(self, attempt_id: int, position: int, answer: Answer,
                            moved: Attempt) -> RecordOutcome:
        """See :meth:`bot.quiz.ports.QuizStore.record_answer`."""
        moved_position, status, ended_at = moved_on(attempt_id, moved)
        # one statement: the attempt must be active and asking this question (its row locked,
        # so a concurrent answer from another instance waits and then sees it moved on); the
        # primary key decides a duplicate; only an inserted answer moves the attempt, to where
        # the core moved it
        rows = await self._write_returning(
            "WITH asking AS (SELECT attempt_id FROM attempts WHERE attempt_id = $1"
            "  AND status = 'active' AND position = $2"
            "  AND question_order::json ->> $2 = $3 FOR UPDATE),"
            " inserted AS (INSERT INTO answers (attempt_id, question_id, option_index,"
            "  correct, answered_at) SELECT attempt_id, $3, $4, $5, $6 FROM asking"
            "  ON CONFLICT DO NOTHING RETURNING attempt_id),"
            " moved AS (UPDATE attempts SET position = $7, status = $8, ended_at = $9"
            "  WHERE attempt_id IN (SELECT attempt_id FROM inserted))"
            " SELECT EXISTS (SELECT 1 FROM asking), EXISTS (SELECT 1 FROM inserted)",
            attempt_id, position, answer.question_id, answer.option_index,
            int(answer.correct), answer.answered_at, moved_position, status, ended_at)
        asking, inserted = rows[0]
        return RECORDED if inserted else DUPLICATE if asking else CLOSED

    async def abandon(self, attempt_id: int, now: float) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.abandon`."""
        return await self._write(
            "UPDATE attempts SET status = $1, ended_at = $2 WHERE attempt_id = $3"
            " AND status = $4", ABANDONED, now, attempt_id, ACTIVE) == 1

    # --- statistics ----------------------------------------------------------------------

    async def stats(self, user_id: int) -> list[BankStats]:
        """See :meth:`bot.quiz.ports.QuizStore.stats`; which attempts and sessions count, and
        the record made of them, are :mod:`bot.quiz.stats`'s rules."""
        finished = [tuple(r) for r in await self._read(
            "SELECT bank_id, total, score FROM ("
            " SELECT a.bank_id, json_array_length(a.question_order::json) AS total,"
            "  (SELECT COUNT(*) FROM answers s WHERE s.attempt_id = a.attempt_id"
            "   AND s.correct = 1) AS score, a.ended_at AS ended_at,"
            "  a.attempt_id AS id, 0 AS kind"
            "  FROM attempts a WHERE a.user_id = $1 AND a.status = $2"
            " UNION ALL"
            " SELECT g.bank_id, json_array_length(g.question_order::json), SUM(x.correct),"
            "  g.ended_at, g.session_id, 1"
            "  FROM group_sessions g JOIN group_answers x ON x.session_id = g.session_id"
            "  WHERE x.user_id = $1 AND g.status = $3 GROUP BY g.session_id"
            ") AS f ORDER BY ended_at, kind, id", user_id, COUNTED_ATTEMPT, COUNTED_SESSION)]
        misses = [tuple(r) for r in await self._read(
            "SELECT bank_id, question_id, COUNT(*) AS misses FROM ("
            " SELECT a.bank_id, s.question_id"
            "  FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id"
            "  WHERE a.user_id = $1 AND a.status = $2 AND s.correct = 0"
            " UNION ALL"
            " SELECT g.bank_id, x.question_id"
            "  FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id"
            "  WHERE x.user_id = $1 AND g.status = $3 AND x.correct = 0"
            ") AS m GROUP BY bank_id, question_id ORDER BY misses DESC, question_id",
            user_id, COUNTED_ATTEMPT, COUNTED_SESSION)]
        return bank_stats(finished, misses)

    # --- retention -----------------------------------------------------------------------

    async def prune(self, *, abandoned_before: float, names_before: float) -> Pruned:
        """See :meth:`bot.quiz.ports.QuizStore.prune`."""
        async def op(db: asyncpg.Connection) -> Pruned:
            old = ("SELECT attempt_id FROM attempts"
                   " WHERE status = 'abandoned' AND ended_at < $1")
            answers = _count(await db.execute(
                f"DELETE FROM answers WHERE attempt_id IN ({old})", abandoned_before))
            attempts = _count(await db.execute(
                f"DELETE FROM attempts WHERE attempt_id IN ({old})", abandoned_before))
            names = _count(await db.execute(
                "UPDATE group_players SET name = '' WHERE name <> '' AND session_id IN ("
                " SELECT session_id FROM group_sessions"
                " WHERE status IN ('finished', 'stopped') AND ended_at < $1)", names_before))
            return Pruned(attempts, answers, names)

        return await self._submit(op)

    # --- group sessions ------------------------------------------------------------------

    async def group_language(self, chat_id: int) -> str | None:
        """See :meth:`bot.quiz.ports.GroupStore.group_language`."""
        rows = await self._read("SELECT language FROM group_chats WHERE chat_id = $1", chat_id)
        return rows[0][0] if rows else None

    async def set_group_language(self, chat_id: int, language: str, *, by_admin: bool) -> None:
        """See :meth:`bot.quiz.ports.GroupStore.set_group_language`."""
        conflict = ("DO UPDATE SET language = excluded.language, set_by_admin = 1,"
                    " updated_at = excluded.updated_at" if by_admin else "DO NOTHING")
        await self._write(
            "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at)"
            f" VALUES ($1, $2, $3, $4) ON CONFLICT (chat_id) {conflict}",
            chat_id, language, int(by_admin), time.time())

    async def start_session(self, chat_id: int, bank_id: str, bank_version: int, language: str,
                            starter_id: int, plan: Plan, question_seconds: float,
                            now: float, *, message_thread_id: int | None = None,
                            scoring: Scoring = RIGHT) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.start_session`."""
        rows = await self._write_returning(
            "INSERT INTO group_sessions (chat_id, bank_id, bank_version, language,"
            " starter_id, question_order, option_orders, question_seconds, started_at,"
            " message_thread_id, scoring)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
            " ON CONFLICT (chat_id) WHERE status = 'active' DO NOTHING RETURNING session_id",
            chat_id, bank_id, bank_version, language, starter_id,
            json.dumps(plan.question_order), json.dumps(plan.option_orders),
            question_seconds, now, message_thread_id, scoring)
        if not rows:
            return None  # the chat has a running session (the unique index decided)
        return GroupSession(rows[0][0], chat_id, bank_id, bank_version, language,
                            starter_id, plan, question_seconds, started_at=now,
                            message_thread_id=message_thread_id, scoring=scoring)

    async def _sessions(self, where: str, *args: object) -> list[GroupSession]:
        return [session_of(row) for row in await self._read(
            f"SELECT {SESSION_COLUMNS} FROM group_sessions WHERE {where}"
            " ORDER BY session_id", *args)]

    async def session(self, session_id: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.session`."""
        found = await self._sessions("session_id = $1", session_id)
        return found[0] if found else None

    async def active_session(self, chat_id: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.active_session`."""
        found = await self._sessions("chat_id = $1 AND status = 'active'", chat_id)
        return found[0] if found else None

    async def last_session(self, chat_id: int, *, ended: bool = True) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.last_session`."""
        rows = await self._read(
            f"SELECT {SESSION_COLUMNS} FROM group_sessions WHERE chat_id = $1"
            + (" AND status <> 'active'" if ended else "")
            + " ORDER BY session_id DESC LIMIT 1", chat_id)
        return session_of(rows[0]) if rows else None

    async def group_settings(self, chat_id: int) -> GroupSettings | None:
        """See :meth:`bot.quiz.ports.GroupStore.group_settings`."""
        rows = await self._read(
            "SELECT who_starts, question_seconds, scoring, bank_id, question_count, version"
            " FROM group_settings WHERE chat_id = $1", chat_id)
        return settings_of(rows[0]) if rows else None

    async def save_group_settings(self, chat_id: int, settings: GroupSettings,
                                  expected_version: int, *,
                                  language: str | None = None) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.save_group_settings`."""
        async def op(db: asyncpg.Connection) -> bool:
            # one statement decides: the first settings (none stored, or stored at version 0),
            # or an update of the expected version (in READ COMMITTED a concurrent change
            # waits, then the version is checked again against the row as committed)
            values = (settings.who_starts, settings.question_seconds, settings.scoring,
                      settings.bank_id, settings.question_count, settings.version, time.time())
            if expected_version == 0:
                changed = _count(await db.execute(
                    "INSERT INTO group_settings (who_starts, question_seconds, scoring, bank_id,"
                    " question_count, version, updated_at, chat_id)"
                    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                    " ON CONFLICT (chat_id) DO UPDATE SET who_starts = excluded.who_starts,"
                    " question_seconds = excluded.question_seconds, scoring = excluded.scoring,"
                    " bank_id = excluded.bank_id, question_count = excluded.question_count,"
                    " version = excluded.version, updated_at = excluded.updated_at"
                    " WHERE group_settings.version = 0", *values, chat_id))
            else:
                changed = _count(await db.execute(
                    "UPDATE group_settings SET who_starts = $1, question_seconds = $2,"
                    " scoring = $3, bank_id = $4, question_count = $5, version = $6,"
                    " updated_at = $7 WHERE chat_id = $8 AND version = $9",
                    *values, chat_id, expected_version))
            if changed != 1:
                return False
            if language is not None:
                await db.execute(
                    "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at)"
                    " VALUES ($1, $2, 1, $3) ON CONFLICT (chat_id) DO UPDATE SET"
                    " language = excluded.language, set_by_admin = 1,"
                    " updated_at = excluded.updated_at", chat_id, language, time.time())
            return True

        return await self._submit(op)

    async def active_sessions(self) -> list[GroupSession]:
        """See :meth:`bot.quiz.ports.GroupStore.active_sessions`."""
        return await self._sessions("status = 'active'")

    async def open_question(self, session_id: int, position: int, deadline: float) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.open_question`."""
        return await self._write(
            "UPDATE group_sessions SET message_id = NULL, deadline = $1, answered = 0,"
            " joined = 0 WHERE session_id = $2 AND status = 'active' AND position = $3"
            " AND deadline IS NULL", deadline, session_id, position) == 1

    async def set_question_message(self, session_id: int, position: int,
                                   message_id: int) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.set_question_message`."""
        return await self._write(
            "UPDATE group_sessions SET message_id = $1 WHERE session_id = $2 AND position = $3"
            " AND deadline IS NOT NULL", message_id, session_id, position) == 1

    async def unopen_question(self, session_id: int, position: int) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.unopen_question`."""
        return await self._write(
            "UPDATE group_sessions SET deadline = NULL WHERE session_id = $1 AND position = $2"
            " AND status = 'active' AND message_id IS NULL", session_id, position) == 1

    async def record_group_answer(self, session_id: int, position: int, answer: GroupAnswer,
                                  name: str) -> GroupTally:
        """See :meth:`bot.quiz.ports.GroupStore.record_group_answer`.

        One statement: the window check locks the session's row (so a close from another
        instance either waits for this answer or is seen by it: a tap racing the reveal is in
        the tally or told it was too late, never both), the primary key decides a duplicate,
        and the counts move with the insert.
        """
        rows = await self._write_returning(
            "WITH open AS (SELECT session_id FROM group_sessions WHERE session_id = $1"
            "  AND status = 'active' AND position = $2 AND deadline >= $3 FOR UPDATE),"
            " inserted AS (INSERT INTO group_answers (session_id, question_id, user_id,"
            "  option_index, correct, elapsed, answered_at)"
            "  SELECT session_id, $4, $5, $6, $7, $8, $3 FROM open"
            "  ON CONFLICT DO NOTHING RETURNING user_id),"
            " player AS (INSERT INTO group_players (session_id, user_id, name)"
            "  SELECT $1, user_id, $9 FROM inserted"
            "  ON CONFLICT (session_id, user_id) DO UPDATE SET name = excluded.name"
            "  WHERE group_players.name <> excluded.name RETURNING (xmax = 0) AS joined),"
            " new AS (SELECT COUNT(*) FILTER (WHERE joined)::int AS n FROM player),"
            " counts AS (UPDATE group_sessions g SET answered = g.answered + 1,"
            "  players = g.players + new.n, joined = g.joined + new.n FROM new"
            "  WHERE g.session_id = $1 AND EXISTS (SELECT 1 FROM inserted)"
            "  RETURNING g.answered, g.players, g.joined)"
            " SELECT EXISTS (SELECT 1 FROM open), counts.answered, counts.players,"
            "  counts.joined FROM (SELECT 1) AS one LEFT JOIN counts ON true",
            session_id, position, answer.answered_at, answer.question_id, answer.user_id,
            answer.option_index, int(answer.correct), answer.elapsed, name)
        is_open, answered, players, joined = rows[0]
        if answered is not None:
            return GroupTally(RECORDED, answered, players, joined)
        return GroupTally(DUPLICATE if is_open else CLOSED)

    async def close_question(self, session_id: int, position: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.close_question`."""
        rows = await self._write_returning(
            "UPDATE group_sessions SET position = position + 1, deadline = NULL"
            " WHERE session_id = $1 AND status = 'active' AND position = $2"
            f" AND deadline IS NOT NULL RETURNING {SESSION_COLUMNS}",
            session_id, position)
        return session_of(rows[0]) if rows else None

    async def mark_revealed(self, session_id: int, position: int, message_id: int) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.mark_revealed`."""
        return await self._write(
            "UPDATE group_sessions SET message_id = NULL WHERE session_id = $1"
            " AND status = 'active' AND position = $2 AND deadline IS NULL"
            " AND message_id = $3", session_id, position, message_id) == 1

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """See :meth:`bot.quiz.ports.GroupStore.move_chat`."""
        async def op(db: asyncpg.Connection) -> int:
            moved = _count(await db.execute(
                "UPDATE group_sessions SET chat_id = $1,"
                " message_id = CASE WHEN status = 'active' THEN NULL ELSE message_id END"
                " WHERE chat_id = $2", new_chat_id, old_chat_id))
            await db.execute(
                "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at)"
                " SELECT $1, language, set_by_admin, updated_at FROM group_chats"
                " WHERE chat_id = $2 ON CONFLICT DO NOTHING", new_chat_id, old_chat_id)
            await db.execute("DELETE FROM group_chats WHERE chat_id = $1", old_chat_id)
            await db.execute(
                "INSERT INTO group_settings (chat_id, who_starts, question_seconds,"
                " scoring, bank_id, question_count, version, updated_at)"
                " SELECT $1, who_starts, question_seconds, scoring, bank_id, question_count,"
                " version, updated_at FROM group_settings WHERE chat_id = $2"
                " ON CONFLICT DO NOTHING", new_chat_id, old_chat_id)
            await db.execute("DELETE FROM group_settings WHERE chat_id = $1", old_chat_id)
            return moved

        return await self._submit(op)

    async def end_session(self, session_id: int, status: str, now: float) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.end_session`."""
        return await self._write(
            "UPDATE group_sessions SET status = $1, deadline = NULL, ended_at = $2"
            " WHERE session_id = $3 AND status = 'active'", status, now, session_id) == 1

    async def group_answers(self, session_id: int) -> list[GroupAnswer]:
        """See :meth:`bot.quiz.ports.GroupStore.group_answers`."""
        return [GroupAnswer(r[0], r[1], r[2], bool(r[3]), r[4], r[5]) for r in await self._read(
            "SELECT user_id, question_id, option_index, correct, elapsed, answered_at"
            " FROM group_answers WHERE session_id = $1", session_id)]

    async def group_players(self, session_id: int) -> dict[int, str]:
        """See :meth:`bot.quiz.ports.GroupStore.group_players`."""
        return {r[0]: r[1] for r in await self._read(
            "SELECT user_id, name FROM group_players WHERE session_id = $1", session_id)}

    # --- users' data ---------------------------------------------------------------------

    async def delete_user(self, user_id: int) -> DeletedData:
        """See :meth:`bot.quiz.ports.PrivacyStore.delete_user`. One transaction: all of it or
        nothing; the pseudonyms are picked under :data:`PSEUDONYM_LOCK`."""
        async def op(db: asyncpg.Connection) -> DeletedData:
            answers = _count(await db.execute(
                "DELETE FROM answers WHERE attempt_id IN"
                " (SELECT attempt_id FROM attempts WHERE user_id = $1)", user_id))
            attempts = _count(await db.execute(
                "DELETE FROM attempts WHERE user_id = $1", user_id))
            settings = _count(await db.execute("DELETE FROM users WHERE user_id = $1", user_id))
            # spaced review: the user's cards, study hours and reminder setting
            await db.execute("DELETE FROM cards WHERE user_id = $1", user_id)
            settings += _count(await db.execute(
                "DELETE FROM learners WHERE user_id = $1", user_id))
            sessions = [row[0] for row in await db.fetch(
                "SELECT session_id FROM group_players WHERE user_id = $1 UNION"
                " SELECT session_id FROM group_answers WHERE user_id = $1", user_id)]
            group_answers = 0
            if sessions:
                await db.execute("SELECT pg_advisory_xact_lock($1, $2)", *PSEUDONYM_LOCK)
                lowest = await db.fetchval("SELECT MIN(user_id) FROM group_players")
                for session_id, pseudonym in pseudonyms(lowest, sessions).items():
                    group_answers += _count(await db.execute(
                        "UPDATE group_answers SET user_id = $1 WHERE session_id = $2"
                        " AND user_id = $3", pseudonym, session_id, user_id))
                    await db.execute(
                        "UPDATE group_players SET user_id = $1, name = $4 WHERE session_id = $2"
                        " AND user_id = $3", pseudonym, session_id, user_id, DELETED_NAME)
            started = {row[0] for row in await db.fetch(
                "UPDATE group_sessions SET starter_id = 0 WHERE starter_id = $1"
                " RETURNING session_id", user_id)}
            return DeletedData(answers, attempts, settings, group_answers,
                               len(started | set(sessions)))

        return await self._submit(op)

    async def check_writable(self) -> None:
        """Make one real, empty write through a write batch (rewrite the newest schema
        version with its own value): raises unless the database takes writes now (for health
        checks).

        Raises:
            StorageError: the write failed (server gone, read-only, full disk, closed).
        """
        try:
            await self._write(
                "UPDATE quizbot_schema SET version = version"
                " WHERE version = (SELECT MAX(version) FROM quizbot_schema)")
        except asyncpg.PostgresError as exc:
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
            " WHERE $1::bigint IS NULL AND ($2::text IS NULL OR a.bank_id = $2)"
            " AND x.answered_at >= $3"
            " UNION ALL"
            " SELECT 'group', s.session_id, g.user_id, s.bank_id, g.question_id,"
            " g.option_index, g.correct, s.language"
            " FROM group_answers g JOIN group_sessions s ON s.session_id = g.session_id"
            " WHERE ($1::bigint IS NULL OR s.chat_id = $1) AND ($2::text IS NULL"
            " OR s.bank_id = $2) AND g.answered_at >= $3",
            chat_id, bank_id, since or 0.0)
        return [Response(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7]) for r in rows]


def redact_dsn(dsn: str) -> str:
    """``dsn`` with its password (if any) replaced by ``***``, for messages and logs."""
    return re.sub(r"(://[^:/@?]*:)[^@/?]*@", r"\1***@", dsn)
