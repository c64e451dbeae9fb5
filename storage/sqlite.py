"""SQLite storage (aiosqlite) implementing :class:`bot.quiz.ports.QuizStore`.

One long-lived connection per process, in WAL mode with ``synchronous=FULL``: every write is
committed (and fsynced) before the awaited call returns, so an answer the user was told about
survives ``kill -9`` and power loss. The schema is versioned with ``PRAGMA user_version`` and
migrated forward at :meth:`SQLiteStore.open` by the numbered scripts in ``storage/migrations/``.
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.quiz.engine import ABANDONED, ACTIVE, FINISHED, Answer, Attempt, Plan
from bot.quiz.group import GroupAnswer, GroupSession
from bot.quiz.ports import CLOSED, DUPLICATE, RECORDED, BankStats, StorageError

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


class SQLiteStore:
    """The quiz's storage in one SQLite file. Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self._write_lock = asyncio.Lock()  # one explicit transaction at a time on the connection

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
        try:
            connection = await aiosqlite.connect(path, isolation_level=None)
            await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await connection.execute("PRAGMA journal_mode = WAL")
            await connection.execute("PRAGMA synchronous = FULL")
            await connection.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as exc:
            raise StorageError(f"cannot open database {path}: {exc}") from exc
        store = cls(connection)
        try:
            await store._migrate(migrations() if upto is None
                                 else [m for m in migrations() if m.version <= upto])
        except BaseException:
            await connection.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (idempotent)."""
        await self._db.close()

    async def schema_version(self) -> int:
        """The applied schema version (``PRAGMA user_version``)."""
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self, to_apply: Iterable[Migration]) -> None:
        current = await self.schema_version()
        for migration in to_apply:
            if migration.version <= current:
                continue
            async with self._transaction() as db:
                # executescript would COMMIT on its own; run statement by statement instead
                for statement in _statements(migration.sql):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {migration.version}")

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """An immediate (write) transaction; sqlite errors become :class:`StorageError`."""
        async with self._write_lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StorageError(str(exc)) from exc
            try:
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException as exc:
                try:
                    await self._db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                if isinstance(exc, sqlite3.Error) and not isinstance(exc, sqlite3.IntegrityError):
                    raise StorageError(str(exc)) from exc
                raise

    # --- users ---------------------------------------------------------------------------

    async def user_language(self, user_id: int) -> str | None:
        """See :meth:`bot.quiz.ports.QuizStore.user_language`."""
        async with self._db.execute(
                "SELECT language FROM users WHERE user_id = ?", (user_id,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    async def set_user_language(self, user_id: int, language: str) -> None:
        """See :meth:`bot.quiz.ports.QuizStore.set_user_language`."""
        await self._write(
            "INSERT INTO users (user_id, language, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at", (user_id, language, time.time()))

    # --- attempts ------------------------------------------------------------------------

    async def start_attempt(self, user_id: int, bank_id: str, bank_version: int, plan: Plan,
                            now: float) -> Attempt:
        """See :meth:`bot.quiz.ports.QuizStore.start_attempt`."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE attempts SET status = ?, ended_at = ? WHERE user_id = ? AND status = ?",
                (ABANDONED, now, user_id, ACTIVE))
            cursor = await db.execute(
                "INSERT INTO attempts (user_id, bank_id, bank_version, question_order,"
                " option_orders, position, status, started_at) VALUES (?, ?, ?, ?, ?, 0, ?, ?)",
                (user_id, bank_id, bank_version, json.dumps(plan.question_order),
                 json.dumps(plan.option_orders), ACTIVE, now))
            attempt_id = cursor.lastrowid
        assert attempt_id is not None
        return Attempt(attempt_id, user_id, bank_id, bank_version, plan, 0, ACTIVE, now)

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.attempt`."""
        return await self._load_attempt("attempt_id = ?", (attempt_id,))

    async def active_attempt(self, user_id: int) -> Attempt | None:
        """See :meth:`bot.quiz.ports.QuizStore.active_attempt`."""
        return await self._load_attempt("user_id = ? AND status = 'active'", (user_id,))

    async def _load_attempt(self, where: str, args: tuple[object, ...]) -> Attempt | None:
        async with self._db.execute(
                "SELECT attempt_id, user_id, bank_id, bank_version, question_order,"
                " option_orders, position, status, started_at, ended_at"
                f" FROM attempts WHERE {where}", args) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        async with self._db.execute(
                "SELECT question_id, option_index, correct, answered_at FROM answers"
                " WHERE attempt_id = ?", (row[0],)) as cursor:
            answers = {r[0]: Answer(r[0], r[1], bool(r[2]), r[3]) async for r in cursor}
        plan = Plan(tuple(json.loads(row[4])), tuple(tuple(o) for o in json.loads(row[5])))
        return Attempt(id=row[0], user_id=row[1], bank_id=row[2], bank_version=row[3], plan=plan,
                       position=row[6], status=row[7], started_at=row[8], ended_at=row[9],
                       answers=answers)

    async def record_answer(self, attempt_id: int, answer: Answer) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.record_answer`."""
        try:
            await self._write(
                "INSERT INTO answers (attempt_id, question_id, option_index, correct, answered_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (attempt_id, answer.question_id, answer.option_index, int(answer.correct),
                 answer.answered_at))
        except sqlite3.IntegrityError:
            return False
        return True

    async def move(self, attempt_id: int, from_position: int, to_position: int, now: float,
                   *, finished: bool) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.move`."""
        changed = await self._write(
            "UPDATE attempts SET position = ?, status = ?, ended_at = ?"
            " WHERE attempt_id = ? AND status = 'active' AND position = ?",
            (to_position, FINISHED if finished else ACTIVE, now if finished else None,
             attempt_id, from_position))
        return changed == 1

    async def abandon(self, attempt_id: int, now: float) -> bool:
        """See :meth:`bot.quiz.ports.QuizStore.abandon`."""
        changed = await self._write(
            "UPDATE attempts SET status = ?, ended_at = ? WHERE attempt_id = ? AND status = ?",
            (ABANDONED, now, attempt_id, ACTIVE))
        return changed == 1

    async def _write(self, sql: str, args: tuple[object, ...]) -> int:
        """One autocommitted write statement; returns the number of rows changed.

        Raises:
            sqlite3.IntegrityError: a constraint refused the write.
            StorageError: any other database failure (locked, read-only, full).
        """
        return (await self._execute_write(sql, args)).rowcount

    async def _execute_write(self, sql: str, args: tuple[object, ...]) -> aiosqlite.Cursor:
        """One autocommitted write statement; returns its cursor. Raises as :meth:`_write`."""
        async with self._write_lock:
            try:
                return await self._db.execute(sql, args)
            except sqlite3.IntegrityError:
                raise
            except sqlite3.Error as exc:
                raise StorageError(str(exc)) from exc

    # --- statistics ----------------------------------------------------------------------

    async def stats(self, user_id: int) -> list[BankStats]:
        """See :meth:`bot.quiz.ports.QuizStore.stats`. Finished group sessions the user answered
        in count as attempts too (score: their correct answers)."""
        async with self._db.execute(
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
                ") ORDER BY ended_at", (user_id, user_id)) as cursor:
            finished = [tuple(r) async for r in cursor]
        async with self._db.execute(
                "SELECT bank_id, question_id, COUNT(*) AS misses FROM ("
                " SELECT a.bank_id, s.question_id"
                "  FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id"
                "  WHERE a.user_id = ? AND a.status = 'finished' AND s.correct = 0"
                " UNION ALL"
                " SELECT g.bank_id, x.question_id"
                "  FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id"
                "  WHERE x.user_id = ? AND g.status = 'finished' AND x.correct = 0"
                ") GROUP BY bank_id, question_id ORDER BY misses DESC, question_id",
                (user_id, user_id)) as cursor:
            misses = [tuple(r) async for r in cursor]
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

    # --- group sessions ------------------------------------------------------------------

    async def group_language(self, chat_id: int) -> str | None:
        """See :meth:`bot.quiz.ports.GroupStore.group_language`."""
        async with self._db.execute(
                "SELECT language FROM group_chats WHERE chat_id = ?", (chat_id,)) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

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
                            now: float) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.start_session`."""
        try:
            cursor = await self._execute_write(
                "INSERT INTO group_sessions (chat_id, bank_id, bank_version, language,"
                " starter_id, question_order, option_orders, question_seconds, started_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, bank_id, bank_version, language, starter_id,
                 json.dumps(plan.question_order), json.dumps(plan.option_orders),
                 question_seconds, now))
        except sqlite3.IntegrityError:
            return None  # the chat has a running session
        assert cursor.lastrowid is not None
        return GroupSession(cursor.lastrowid, chat_id, bank_id, bank_version, language,
                            starter_id, plan, question_seconds, started_at=now)

    _SESSION_COLUMNS = (
        "session_id, chat_id, bank_id, bank_version, language, starter_id, question_order,"
        " option_orders, question_seconds, position, message_id, deadline, status, started_at,"
        " ended_at")

    @staticmethod
    def _session(row: Any) -> GroupSession:
        plan = Plan(tuple(json.loads(row[6])), tuple(tuple(o) for o in json.loads(row[7])))
        return GroupSession(
            id=row[0], chat_id=row[1], bank_id=row[2], bank_version=row[3], language=row[4],
            starter_id=row[5], plan=plan, question_seconds=row[8], position=row[9],
            message_id=row[10], deadline=row[11], status=row[12], started_at=row[13],
            ended_at=row[14])

    async def _sessions(self, where: str, args: tuple[object, ...]) -> list[GroupSession]:
        async with self._db.execute(
                f"SELECT {self._SESSION_COLUMNS} FROM group_sessions WHERE {where}"
                " ORDER BY session_id", args) as cursor:
            return [self._session(row) async for row in cursor]

    async def session(self, session_id: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.session`."""
        found = await self._sessions("session_id = ?", (session_id,))
        return found[0] if found else None

    async def active_session(self, chat_id: int) -> GroupSession | None:
        """See :meth:`bot.quiz.ports.GroupStore.active_session`."""
        found = await self._sessions("chat_id = ? AND status = 'active'", (chat_id,))
        return found[0] if found else None

    async def active_sessions(self) -> list[GroupSession]:
        """See :meth:`bot.quiz.ports.GroupStore.active_sessions`."""
        return await self._sessions("status = 'active'", ())

    async def open_question(self, session_id: int, position: int, message_id: int,
                            deadline: float) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.open_question`."""
        return await self._write(
            "UPDATE group_sessions SET message_id = ?, deadline = ? WHERE session_id = ?"
            " AND status = 'active' AND position = ? AND deadline IS NULL",
            (message_id, deadline, session_id, position)) == 1

    async def record_group_answer(self, session_id: int, position: int, answer: GroupAnswer,
                                  name: str) -> str:
        """See :meth:`bot.quiz.ports.GroupStore.record_group_answer`."""
        async with self._transaction() as db:
            try:
                cursor = await db.execute(
                    "INSERT INTO group_answers (session_id, question_id, user_id, option_index,"
                    " correct, elapsed, answered_at) SELECT ?, ?, ?, ?, ?, ?, ?"
                    " WHERE EXISTS (SELECT 1 FROM group_sessions WHERE session_id = ?"
                    " AND status = 'active' AND position = ? AND deadline >= ?)",
                    (session_id, answer.question_id, answer.user_id, answer.option_index,
                     int(answer.correct), answer.elapsed, answer.answered_at, session_id,
                     position, answer.answered_at))
            except sqlite3.IntegrityError:
                return DUPLICATE
            if cursor.rowcount != 1:
                return CLOSED
            await db.execute(
                "INSERT INTO group_players (session_id, user_id, name) VALUES (?, ?, ?)"
                " ON CONFLICT DO UPDATE SET name = excluded.name",
                (session_id, answer.user_id, name))
        return RECORDED

    async def missing_players(self, session_id: int, position: int) -> tuple[int, int]:
        """See :meth:`bot.quiz.ports.GroupStore.missing_players`."""
        async with self._db.execute(
                "WITH current AS (SELECT json_extract(question_order, '$[' || ? || ']') AS q"
                "  FROM group_sessions WHERE session_id = ?),"
                " earlier AS (SELECT DISTINCT user_id FROM group_answers, current"
                "  WHERE session_id = ? AND question_id != current.q),"
                " now AS (SELECT user_id FROM group_answers, current"
                "  WHERE session_id = ? AND question_id = current.q)"
                " SELECT (SELECT COUNT(*) FROM earlier),"
                "  (SELECT COUNT(*) FROM earlier WHERE user_id NOT IN now)",
                (position, session_id, session_id, session_id)) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return int(row[0]), int(row[1])

    async def close_question(self, session_id: int, position: int) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.close_question`."""
        return await self._write(
            "UPDATE group_sessions SET position = position + 1, deadline = NULL"
            " WHERE session_id = ? AND status = 'active' AND position = ?"
            " AND deadline IS NOT NULL", (session_id, position)) == 1

    async def end_session(self, session_id: int, status: str, now: float) -> bool:
        """See :meth:`bot.quiz.ports.GroupStore.end_session`."""
        return await self._write(
            "UPDATE group_sessions SET status = ?, deadline = NULL, ended_at = ?"
            " WHERE session_id = ? AND status = 'active'", (status, now, session_id)) == 1

    async def group_answers(self, session_id: int) -> list[GroupAnswer]:
        """See :meth:`bot.quiz.ports.GroupStore.group_answers`."""
        async with self._db.execute(
                "SELECT user_id, question_id, option_index, correct, elapsed, answered_at"
                " FROM group_answers WHERE session_id = ?", (session_id,)) as cursor:
            return [GroupAnswer(r[0], r[1], r[2], bool(r[3]), r[4], r[5]) async for r in cursor]

    async def group_players(self, session_id: int) -> dict[int, str]:
        """See :meth:`bot.quiz.ports.GroupStore.group_players`."""
        async with self._db.execute(
                "SELECT user_id, name FROM group_players WHERE session_id = ?",
                (session_id,)) as cursor:
            return {r[0]: r[1] async for r in cursor}


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
