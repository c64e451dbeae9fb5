"""SQLite storage (aiosqlite) implementing :class:`bot.quiz.ports.QuizStore`.

One long-lived connection per process, in WAL mode with ``synchronous=FULL``: every write is
committed (and fsynced) before the awaited call returns, so an answer the user was told about
survives ``kill -9`` and power loss. The schema is versioned with ``PRAGMA user_version`` and
migrated forward at :meth:`SQLiteStore.open` by the numbered scripts in ``storage/migrations/``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.quiz.analysis import Response
from bot.quiz.engine import ABANDONED, ACTIVE, Answer, Attempt, AttemptStatus, Plan
from bot.quiz.group import GroupAnswer, GroupSession, SessionStatus
from bot.quiz.ports import (
    CLOSED,
    DUPLICATE,
    RECORDED,
    BankStats,
    DeletedData,
    GroupTally,
    Pruned,
    StorageError,
)
from bot.quiz.settings import GroupSettings
from storage.backup import DatabaseLock
from storage.learning import LearningStatements
from storage.leases import LocalLeases
from storage.order import LocalUpdateOrder

T = TypeVar("T")
WriteOp = Callable[[aiosqlite.Connection], Awaitable[T]]
"""A write run by the writer task inside its transaction."""

BUSY_TIMEOUT_MS = 5000
"""How long a write waits for another process's lock before failing, in milliseconds."""


@dataclass(frozen=True)
class Migration:
    """A numbered, forward-only schema migration."""

    version: int
    name: str
    sql: str


def migrations() -> list[Migration]:
    """The bundled migrations (``storage/migrations/NNNN_name.sql``), in order.

    Raises:
        RuntimeError: two scripts share a number, or the numbers have a gap.
    """
    found: list[Migration] = []
    for entry in resources.files("storage").joinpath("migrations").iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if match:
            found.append(Migration(int(match[1]), match[2], entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise RuntimeError(f"migrations must be numbered 1..N without gaps: {found}")
    return found


class SQLiteStore(LearningStatements):
    """The quiz's storage in one SQLite file. Create with :meth:`open`; close with :meth:`close`.

    Writes go through one writer connection with **group commit**: every write is queued, and a
    single writer task runs everything queued so far in one transaction, commits it (one fsync),
    then acknowledges each write. Concurrent writers thus share a commit instead of paying one
    each, and every acknowledged write is durable. Reads use a second connection, which in WAL
    mode sees committed data only.
    """

    def __init__(self, reader: aiosqlite.Connection, writer: aiosqlite.Connection) -> None:
        self._db = reader
        self._writer_db = writer
        self._lock: DatabaseLock | None = None  # shared: tells a restore the file is in use
        self._pending: list[tuple[WriteOp[Any], asyncio.Future[Any], bool]] = []
        self._writer_task: asyncio.Task[None] | None = None
        self.commits = 0
        """How many transactions the writer committed (for tests and benchmarks)."""

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
            known = migrations()
            current = await store.schema_version()
            if current > len(known):
                raise StorageError(
                    f"database {path} has schema version {current}, but this quizbot knows "
                    f"versions up to {len(known)} only: it was used by a newer quizbot. Run that "
                    "version (or newer), or restore a backup made before the upgrade; migrations "
                    "only go forward")
            await store._migrate(known if upto is None
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

    def leases(self) -> LocalLeases:
        """Session and poller leases: a SQLite file has one instance, which holds them all."""
        return LocalLeases()

    def update_order(self) -> LocalUpdateOrder:
        """The order of updates across instances: a SQLite file has one instance, whose update
        processor alone keeps each user's updates in order, so this does nothing."""
        return LocalUpdateOrder()

    async def schema_version(self) -> int:
        """The applied schema version (``PRAGMA user_version``)."""
        rows = await self._read("PRAGMA user_version")
        return int(rows[0][0]) if rows else 0

    async def _migrate(self, to_apply: Iterable[Migration]) -> None:
        current = await self.schema_version()
        db = self._writer_db
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
                error = StorageError(str(exc)) if isinstance(exc, sqlite3.Error) else exc
                results = [(future, error, None) for _, future, _ in batch]
            for future, error, value in results:
                if future.done():
                    continue
                if error is not None:
                    future.set_exception(error)
                else:
                    future.set_result(value)

    # --- users ---------------------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        """See :meth:`bot.quiz.ports.QuizStore.user_language`."""
        rows = await self._read("SELECT language FROM users WHERE user_id = ?", (user_id,))
        return rows[0][0] if rows else None

    async def set_user_language(self, user_id: int, language: str) -> None:
        """See :meth:`bot.quiz.ports.QuizStore.set_user_language`."""
        await self._write(
            "INSERT INTO users (user_id, language, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at", (user_id, language, time.time()))

    # --- attempts ------------------------------------------------------------------------

    async def start_attempt(self, user_id: int, bank_id: str, bank_version: int, plan: Plan,
                            now: float, fingerprints: Mapping[str, str] | None = None) -> Attempt:
        """See :meth:`bot.quiz.ports.QuizStore.start_attempt`.

        Without ``fingerprints`` the column is left out (NULL), so that tests of upgrades can
        start attempts in a database older than migration 0005.
        """
        columns, values = "", ()
        if fingerprints is not None:
            fingerprints = dict(fingerprints)
            columns, values = ", fingerprints", (json.dumps(fingerprints),)

        async def op(db: aiosqlite.Connection) -> int | None:
            await db.execute(
                "UPDATE attempts SET status = ?, ended_at = ? WHERE user_id = ? AND status = ?",
                (ABANDONED, now, user_id, ACTIVE))
            cursor = await db.execute(
                "INSERT INTO attempts (user_id, bank_id, bank_version, question_order,"
                f" option_orders, position, status, started_at{columns})"
                f" VALUES (?, ?, ?, ?, ?, 0, ?, ?{', ?' * len(values)})",
                (user_id, bank_id, bank_version, json.dumps(plan.question_order),
                 json.dumps(plan.option_orders), ACTIVE, now, *values))
            return cursor.lastrowid

        attempt_id = await self._submit(op)
        assert attempt_id is not None
        return Attempt(attempt_id, user_id, bank_id, bank_version, plan, 0, ACTIVE, now,
                       fingerprints=fingerprints or {})

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.attempt`."""
        return await self._load_attempt("attempt_id = ?", (attempt_id,))

    async def active_attempt(self, user_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.active_attempt`."""
        return await self._load_attempt("user_id = ? AND status = 'active'", (user_id,))

    async def _load_attempt(self, where: str, args: tuple[object, ...]) -> Attempt | None:
        rows = await self._read(
            "SELECT attempt_id, user_id, bank_id, bank_version, question_order,"
            " option_orders, position, status, started_at, ended_at,"
            " (SELECT json_group_array(json_array(question_id, option_index, correct,"
            "  answered_at)) FROM answers s WHERE s.attempt_id = a.attempt_id), fingerprints"
            f" FROM attempts a WHERE {where}", args)
        if not rows:
            return None
        row = rows[0]
        answers = {q: Answer(q, option, bool(correct), at)
                   for q, option, correct, at in json.loads(row[10])}
        plan = Plan(tuple(json.loads(row[4])), tuple(tuple(o) for o in json.loads(row[5])))
        return Attempt(id=row[0], user_id=row[1], bank_id=row[2], bank_version=row[3], plan=plan,
                       position=row[6], status=AttemptStatus(row[7]), started_at=row[8],
                       ended_at=row[9],
                       answers=answers, fingerprints=json.loads(row[11] or "{}"))

    async def revise_attempt(self, attempt_id: int, position: int, plan: Plan,
                             fingerprints: Mapping[str, str], finished_at: float | None) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.revise_attempt`."""
        changed = await self._write(
            "UPDATE attempts SET question_order = ?, option_orders = ?, fingerprints = ?,"
            " status = CASE WHEN ? IS NULL THEN status ELSE 'finished' END,"
            " ended_at = COALESCE(?, ended_at)"
            " WHERE attempt_id = ? AND status = 'active' AND position = ?",
            (json.dumps(plan.question_order), json.dumps(plan.option_orders),
             json.dumps(dict(fingerprints)), finished_at, finished_at, attempt_id, position))
        return changed == 1

    async def record_answer(self, attempt_id: int, position: int, answer: Answer) -> str:
        """See :meth:`bot.quiz.ports.QuizStore.record_answer`."""
        async def op(db: aiosqlite.Connection) -> str:
            # one statement: the attempt must be active and asking this question; the trigger
            # answers_move_attempt_on moves it on (migration 0003)
            cursor = await db.execute(
                "INSERT INTO answers (attempt_id, question_id, option_index, correct, answered_at)"
                " SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM attempts"
                " WHERE attempt_id = ? AND status = 'active' AND position = ?"
                " AND json_extract(question_order, '$[' || ? || ']') = ?)",
                (attempt_id, answer.question_id, answer.option_index, int(answer.correct),
                 answer.answered_at, attempt_id, position, position, answer.question_id))
            return RECORDED if cursor.rowcount == 1 else CLOSED

        try:
            return await self._submit(op, single=True)
        except sqlite3.IntegrityError:
            return DUPLICATE

    async def abandon(self, attempt_id: int, now: float) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.abandon`."""
        changed = await self._write(
            "UPDATE attempts SET status = ?, ended_at = ? WHERE attempt_id = ? AND status = ?",
            (ABANDONED, now, attempt_id, ACTIVE))
        return changed == 1

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

    async def _read(self, sql: str, args: tuple[object, ...] = ()) -> list[Any]:
        """Run one read statement to completion on the reader connection; its rows.

        Every read is a single statement stepped to its end in one job on the connection's
        thread: a statement left half-read (a cursor still open while other reads interleave
        on the shared connection) would keep the connection's read transaction, and so an old
        WAL snapshot, open, and later reads would miss writes committed meanwhile. Data that
        must agree (an attempt and its answers) is read by one statement, so one snapshot.
        """
        return list(await self._db.execute_fetchall(sql, args))

    # --- statistics ----------------------------------------------------------------------

    async def stats(self, user_id: int) -> list[BankStats]:
        """See :meth:`bot.quiz.ports.QuizStore.stats`. Finished group sessions the user answered
        in count as attempts too (score: their correct answers)."""
        finished = [tuple(r) for r in await self._read(
                "SELECT bank_id, total, score FROM ("
                " SELECT a.bank_id, json_array_length(a.question_order) AS total,"
                "  (SELECT COUNT(*) FROM answers s WHERE s.attempt_id = a.attempt_id"
                "   AND s.correct = 1) AS score, a.ended_at AS ended_at"
                "  FROM attempts a WHERE a.user_id = ? AND a.status = 'finished'"
                " UNION ALL"
                " SELECT g.bank_id, json_array_length(g.question_order), SUM(x.correct),"
                "  g.ended_at"
                "  FROM group_sessions g JOIN group_answers x ON x.session_id = g.session_id"
                "  WHERE x.user_id = ? AND g.status = 'finished' GROUP BY g.session_id"
                ") ORDER BY ended_at", (user_id, user_id))]
        misses = [tuple(r) for r in await self._read(
                "SELECT bank_id, question_id, COUNT(*) AS misses FROM ("
                " SELECT a.bank_id, s.question_id"
                "  FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id"
                "  WHERE a.user_id = ? AND a.status = 'finished' AND s.correct = 0"
                " UNION ALL"
                " SELECT g.bank_id, x.question_id"
                "  FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id"
                "  WHERE x.user_id = ? AND g.status = 'finished' AND x.correct = 0"
                ") GROUP BY bank_id, question_id ORDER BY misses DESC, question_id",
                (user_id, user_id))]
        per_bank: dict[str, list[tuple[int, int]]] = {}
        for bank_id, total, score in finished:
            per_bank.setdefault(bank_id, []).append((score, total))
        result = []
        for bank_id, scores in per_bank.items():
            result.append(BankStats(
                bank_id=bank_id, attempts=len(scores), best=max(s for s, _ in scores),
                last=scores[-1][0], total=scores[-1][1],
                most_missed=tuple((q, n) for b, q, n in misses if b == bank_id)[:3]))
        order = {bank_id: i for i, (bank_id, _, _) in enumerate(finished)}
        return sorted(result, key=lambda s: order[s.bank_id], reverse=True)

    # --- retention -----------------------------------------------------------------------

    async def prune(self, *, abandoned_before: float, names_before: float) -> Pruned:
        """See :meth:`bot.quiz.ports.QuizStore.prune`."""
        async def op(db: aiosqlite.Connection) -> Pruned:
            old = ("SELECT attempt_id FROM attempts"
                   " WHERE status = 'abandoned' AND ended_at < ?")
            answers = await db.execute(
                f"DELETE FROM answers WHERE attempt_id IN ({old})", (abandoned_before,))
            attempts = await db.execute(
                f"DELETE FROM attempts WHERE attempt_id IN ({old})", (abandoned_before,))
            names = await db.execute(
                "UPDATE group_players SET name = '' WHERE name != '' AND session_id IN ("
                " SELECT session_id FROM group_sessions"
                " WHERE status IN ('finished', 'stopped') AND ended_at < ?)", (names_before,))
            return Pruned(attempts.rowcount, answers.rowcount, names.rowcount)

        return await self._submit(op)

    # --- group sessions ------------------------------------------------------------------

    async def group_language(self, chat_id: int) -> str | None:
        """See :meth:`bot.quiz.ports.GroupStore.group_language`."""
        rows = await self._read("SELECT language FROM group_chats WHERE chat_id = ?",
                                (chat_id,))
        return rows[0][0] if rows else None

    async def set_group_language(self, chat_id: int, language: str, *, by_admin: bool) -> None:
        """See :meth:`bot.quiz.ports.GroupStore.set_group_language`."""
        conflict = ("DO UPDATE SET language = excluded.language, set_by_admin = 1,"
                    " updated_at = excluded.updated_at" if by_admin else "DO NOTHING")
        await self._write(
            "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at)"
            f" VALUES (?, ?, ?, ?) ON CONFLICT (chat_id) {conflict}",
            (chat_id, language, int(by_admin), time.time()))

    async def start_session(self, chat_id: int, bank_id: str, bank_version: int, language: str,
                            starter_id: int, plan: Plan, question_seconds: float,
                            now: float, *, message_thread_id: int | None = None,
                            scoring: str = "right") -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.start_session`."""
        async def op(db: aiosqlite.Connection) -> int | None:
            cursor = await db.execute(
                "INSERT INTO group_sessions (chat_id, bank_id, bank_version, language,"
                " starter_id, question_order, option_orders, question_seconds, started_at,"
                " message_thread_id, scoring) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, bank_id, bank_version, language, starter_id,
                 json.dumps(plan.question_order), json.dumps(plan.option_orders),
                 question_seconds, now, message_thread_id, scoring))
            return cursor.lastrowid

        try:
            session_id = await self._submit(op, single=True)
        except sqlite3.IntegrityError:
            return None  # the chat has a running session
        assert session_id is not None
        return GroupSession(session_id, chat_id, bank_id, bank_version, language,
                            starter_id, plan, question_seconds, started_at=now,
                            message_thread_id=message_thread_id, scoring=scoring)

    _SESSION_COLUMNS = (
        "session_id, chat_id, bank_id, bank_version, language, starter_id, question_order,"
        " option_orders, question_seconds, position, message_id, deadline, status, started_at,"
        " ended_at, message_thread_id, scoring")

    @staticmethod
    def _session(row: Any) -> GroupSession:
        plan = Plan(tuple(json.loads(row[6])), tuple(tuple(o) for o in json.loads(row[7])))
        return GroupSession(
            id=row[0], chat_id=row[1], bank_id=row[2], bank_version=row[3], language=row[4],
            starter_id=row[5], plan=plan, question_seconds=row[8], position=row[9],
            message_id=row[10], deadline=row[11], status=SessionStatus(row[12]),
            started_at=row[13], ended_at=row[14], message_thread_id=row[15], scoring=row[16])

    async def _sessions(self, where: str, args: tuple[object, ...]) -> list[GroupSession]:
        return [self._session(row) for row in await self._read(
            f"SELECT {self._SESSION_COLUMNS} FROM group_sessions WHERE {where}"
            " ORDER BY session_id", args)]

    async def session(self, session_id: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.session`."""
        found = await self._sessions("session_id = ?", (session_id,))
        return found[0] if found else None

    async def active_session(self, chat_id: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.active_session`."""
        found = await self._sessions("chat_id = ? AND status = 'active'", (chat_id,))
        return found[0] if found else None

    async def last_session(self, chat_id: int, *, ended: bool = True) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.last_session`."""
        rows = await self._read(
            f"SELECT {self._SESSION_COLUMNS} FROM group_sessions WHERE chat_id = ?"
            + (" AND status != 'active'" if ended else "")
            + " ORDER BY session_id DESC LIMIT 1", (chat_id,))
        return self._session(rows[0]) if rows else None

    async def group_settings(self, chat_id: int) -> GroupSettings | None:
        """See :meth:`bot.quiz.ports.GroupStore.group_settings`."""
        rows = await self._read(
            "SELECT who_starts, question_seconds, scoring, bank_id, question_count, version"
            " FROM group_settings WHERE chat_id = ?", (chat_id,))
        return GroupSettings(*rows[0]) if rows else None

    async def save_group_settings(self, chat_id: int, settings: GroupSettings,
                                  expected_version: int, *,
                                  language: str | None = None) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.save_group_settings`."""
        async def op(db: aiosqlite.Connection) -> bool:
            # one statement decides: the first settings (none stored, or stored at version 0),
            # or an update of the expected version
            values = (settings.who_starts, settings.question_seconds, settings.scoring,
                      settings.bank_id, settings.question_count, settings.version, time.time())
            if expected_version == 0:
                cursor = await db.execute(
                    "INSERT INTO group_settings (who_starts, question_seconds, scoring, bank_id,"
                    " question_count, version, updated_at, chat_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (chat_id) DO UPDATE SET who_starts = excluded.who_starts,"
                    " question_seconds = excluded.question_seconds, scoring = excluded.scoring,"
                    " bank_id = excluded.bank_id, question_count = excluded.question_count,"
                    " version = excluded.version, updated_at = excluded.updated_at"
                    " WHERE group_settings.version = 0", (*values, chat_id))
            else:
                cursor = await db.execute(
                    "UPDATE group_settings SET who_starts = ?, question_seconds = ?, scoring = ?,"
                    " bank_id = ?, question_count = ?, version = ?, updated_at = ?"
                    " WHERE chat_id = ? AND version = ?", (*values, chat_id, expected_version))
            if cursor.rowcount != 1:
                return False
            if language is not None:
                await db.execute(
                    "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at)"
                    " VALUES (?, ?, 1, ?) ON CONFLICT (chat_id) DO UPDATE SET"
                    " language = excluded.language, set_by_admin = 1,"
                    " updated_at = excluded.updated_at", (chat_id, language, time.time()))
            return True

        return await self._submit(op)

    async def active_sessions(self) -> list[GroupSession]:
        """See :meth:`bot.quiz.ports.GroupStore.active_sessions`."""
        return await self._sessions("status = 'active'", ())

    async def open_question(self, session_id: int, position: int, deadline: float) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.open_question`."""
        return await self._write(
            "UPDATE group_sessions SET message_id = NULL, deadline = ?, answered = 0, joined = 0"
            " WHERE session_id = ? AND status = 'active' AND position = ? AND deadline IS NULL",
            (deadline, session_id, position)) == 1

    async def set_question_message(self, session_id: int, position: int,
                                   message_id: int) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.set_question_message`."""
        return await self._write(
            "UPDATE group_sessions SET message_id = ? WHERE session_id = ? AND position = ?"
            " AND deadline IS NOT NULL", (message_id, session_id, position)) == 1

    async def unopen_question(self, session_id: int, position: int) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.unopen_question`."""
        return await self._write(
            "UPDATE group_sessions SET deadline = NULL WHERE session_id = ? AND position = ?"
            " AND status = 'active' AND message_id IS NULL", (session_id, position)) == 1

    async def record_group_answer(self, session_id: int, position: int, answer: GroupAnswer,
                                  name: str) -> GroupTally:
        """See :meth:`bot.quiz.ports.GroupStore.record_group_answer`."""
        async def op(db: aiosqlite.Connection) -> GroupTally:
            # the window check and the insert are one statement: a tap racing the reveal is
            # either in the tally or told it was too late, never both
            cursor = await db.execute(
                "INSERT INTO group_answers (session_id, question_id, user_id, option_index,"
                " correct, elapsed, answered_at) SELECT ?, ?, ?, ?, ?, ?, ?"
                " WHERE EXISTS (SELECT 1 FROM group_sessions WHERE session_id = ?"
                " AND status = 'active' AND position = ? AND deadline >= ?)",
                (session_id, answer.question_id, answer.user_id, answer.option_index,
                 int(answer.correct), answer.elapsed, answer.answered_at, session_id,
                 position, answer.answered_at))
            if cursor.rowcount != 1:
                return GroupTally(CLOSED)
            cursor = await db.execute(
                "INSERT INTO group_players (session_id, user_id, name) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING", (session_id, answer.user_id, name))
            joined = cursor.rowcount
            if not joined:
                await db.execute(
                    "UPDATE group_players SET name = ? WHERE session_id = ? AND user_id = ?"
                    " AND name != ?", (name, session_id, answer.user_id, name))
            rows = await db.execute_fetchall(
                "UPDATE group_sessions SET answered = answered + 1, players = players + ?,"
                " joined = joined + ? WHERE session_id = ? RETURNING answered, players, joined",
                (joined, joined, session_id))
            answered, players, joined_now = next(iter(rows))
            return GroupTally(RECORDED, answered, players, joined_now)

        try:
            return await self._submit(op)
        except sqlite3.IntegrityError:
            return GroupTally(DUPLICATE)

    async def close_question(self, session_id: int, position: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.close_question`."""
        rows = await self._write_returning(
            "UPDATE group_sessions SET position = position + 1, deadline = NULL"
            " WHERE session_id = ? AND status = 'active' AND position = ?"
            f" AND deadline IS NOT NULL RETURNING {self._SESSION_COLUMNS}",
            (session_id, position))
        return self._session(rows[0]) if rows else None

    async def mark_revealed(self, session_id: int, position: int, message_id: int) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.mark_revealed`."""
        return await self._write(
            "UPDATE group_sessions SET message_id = NULL WHERE session_id = ?"
            " AND status = 'active' AND position = ? AND deadline IS NULL AND message_id = ?",
            (session_id, position, message_id)) == 1

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """See :meth:`bot.quiz.ports.GroupStore.move_chat`."""
        async def op(db: aiosqlite.Connection) -> int:
            cursor = await db.execute(
                "UPDATE group_sessions SET chat_id = ?,"
                " message_id = CASE WHEN status = 'active' THEN NULL ELSE message_id END"
                " WHERE chat_id = ?", (new_chat_id, old_chat_id))
            moved = cursor.rowcount
            await db.execute(
                "INSERT OR IGNORE INTO group_chats (chat_id, language, set_by_admin, updated_at)"
                " SELECT ?, language, set_by_admin, updated_at FROM group_chats"
                " WHERE chat_id = ?", (new_chat_id, old_chat_id))
            await db.execute("DELETE FROM group_chats WHERE chat_id = ?", (old_chat_id,))
            await db.execute(
                "INSERT OR IGNORE INTO group_settings (chat_id, who_starts, question_seconds,"
                " scoring, bank_id, question_count, version, updated_at)"
                " SELECT ?, who_starts, question_seconds, scoring, bank_id, question_count,"
                " version, updated_at FROM group_settings WHERE chat_id = ?",
                (new_chat_id, old_chat_id))
            await db.execute("DELETE FROM group_settings WHERE chat_id = ?", (old_chat_id,))
            return moved

        return await self._submit(op)

    async def end_session(self, session_id: int, status: SessionStatus, now: float) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.end_session`."""
        return await self._write(
            "UPDATE group_sessions SET status = ?, deadline = NULL, ended_at = ?"
            " WHERE session_id = ? AND status = 'active'", (status, now, session_id)) == 1

    async def group_answers(self, session_id: int) -> list[GroupAnswer]:
        """See :meth:`bot.quiz.ports.GroupStore.group_answers`."""
        return [GroupAnswer(r[0], r[1], r[2], bool(r[3]), r[4], r[5]) for r in await self._read(
            "SELECT user_id, question_id, option_index, correct, elapsed, answered_at"
            " FROM group_answers WHERE session_id = ?", (session_id,))]

    async def group_players(self, session_id: int) -> dict[int, str]:
        """See :meth:`bot.quiz.ports.GroupStore.group_players`."""
        return {r[0]: r[1] for r in await self._read(
            "SELECT user_id, name FROM group_players WHERE session_id = ?", (session_id,))}

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
            {"chat": chat_id, "bank": bank_id, "since": since or 0.0})  # type: ignore[arg-type]
        return [Response(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7]) for r in rows]

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
            ln.strip().startswith("--") or not ln.strip() for ln in buffer.splitlines()):
        raise RuntimeError(f"incomplete statement in migration: {buffer!r}")
    return statements
