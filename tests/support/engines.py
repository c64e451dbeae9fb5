"""The two storage engines the storage tests run against, behind one small test-side interface:
open a store (fresh database), run raw SQL on the same database, make it refuse writes; and
:func:`record`, an answer recorded as the service records it."""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from bot.kernel.engine import Answer, Attempt, with_answer
from bot.kernel.ports import QuizStore
from storage import PostgresStore, SQLiteStore, migrations
from storage import postgres as pg

_TABLES = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"

READ_ONLY_ON = (
    "CREATE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN"
    " RAISE EXCEPTION 'cannot execute % in a read-only transaction', TG_OP"
    " USING ERRCODE = 'read_only_sql_transaction'; END $f$;"
    " DO $$ DECLARE t text; BEGIN FOR t IN " + _TABLES + " LOOP EXECUTE format("
    "'CREATE TRIGGER refuse_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I"
    " FOR EACH STATEMENT EXECUTE FUNCTION refuse_write()', t); END LOOP; END $$"
)
"""Make the tables of the connection's schema (one test's database, ``pg_db``) refuse every
write as a database gone read-only does (SQLSTATE 25006, its message), whatever the
connection: a trigger per table, so that no other test's schema is touched (the database's
``default_transaction_read_only`` would reach every test's new connections at once)."""
READ_ONLY_OFF = (
    "DO $$ DECLARE t text; BEGIN FOR t IN " + _TABLES + " LOOP EXECUTE format("
    "'DROP TRIGGER IF EXISTS refuse_write ON %I', t); END LOOP; END $$;"
    " DROP FUNCTION IF EXISTS refuse_write()"
)
"""Undo :data:`READ_ONLY_ON`."""


async def record(store: QuizStore, attempt: Attempt, answer: Answer) -> str:
    """Record ``answer`` to the question ``attempt`` is asking as the service does: the attempt
    moved on by the core's rule (:func:`bot.kernel.engine.with_answer`); the outcome."""
    return await store.record_answer(
        attempt.id, attempt.position, answer, with_answer(attempt, answer)
    )


@dataclass
class Engine:
    """A fresh database of one engine.

    Attributes:
        name: ``sqlite`` or ``postgres``.
        target: What ``QUIZBOT_DB`` would be: the SQLite file, or the PostgreSQL URL (its
            ``search_path`` a schema of its own, so each test has an empty database).
    """

    name: str
    target: str

    @property
    def integrity_error(self) -> type[Exception]:
        """The driver's exception for a write a constraint refused."""
        return (
            sqlite3.IntegrityError
            if self.name == "sqlite"
            else asyncpg.IntegrityConstraintViolationError
        )

    def migrations(self) -> list:
        """This engine's migrations."""
        return migrations() if self.name == "sqlite" else pg.migrations()

    async def open(self, *, upto: int | None = None) -> SQLiteStore | PostgresStore:
        """Open (and migrate) the store."""
        if self.name == "sqlite":
            return await SQLiteStore.open(Path(self.target), upto=upto)
        return await PostgresStore.open(self.target, upto=upto)

    async def execute(self, sql: str, *args: object) -> None:
        """Run one statement on its own connection (``?`` placeholders), outside the store."""
        if self.name == "sqlite":
            with sqlite3.connect(self.target) as db:
                db.execute(sql, args)
            return
        counter = iter(range(1, len(args) + 1))
        db = await asyncpg.connect(self.target)
        try:
            await db.execute(re.sub(r"\?", lambda _: f"${next(counter)}", sql), *args)
        finally:
            await db.close()

    async def fetchval(self, sql: str, *args: object) -> object:
        """Run one query on its own connection (``?`` placeholders), outside the store; the
        first column of its first row (None without rows)."""
        if self.name == "sqlite":
            with sqlite3.connect(self.target) as db:
                row = db.execute(sql, args).fetchone()
            return None if row is None else row[0]
        counter = iter(range(1, len(args) + 1))
        db = await asyncpg.connect(self.target)
        try:
            return await db.fetchval(re.sub(r"\?", lambda _: f"${next(counter)}", sql), *args)
        finally:
            await db.close()

    async def trap_commits(self, language: str) -> None:
        """From now on, a transaction that gives a new user the language ``language`` fails at
        its COMMIT, and only there: a trigger adds a row whose foreign key dangles, and the key
        is ``DEFERRABLE INITIALLY DEFERRED``, so the database checks it at COMMIT only."""
        statements = [
            "CREATE TABLE commit_trap_parent (id BIGINT PRIMARY KEY)",
            "CREATE TABLE commit_trap (parent BIGINT"
            " REFERENCES commit_trap_parent (id) DEFERRABLE INITIALLY DEFERRED)",
        ]
        if self.name == "sqlite":
            statements.append(
                "CREATE TRIGGER commit_trap AFTER INSERT ON users"
                f" WHEN NEW.language = '{language}'"
                " BEGIN INSERT INTO commit_trap VALUES (NEW.user_id); END"
            )
        else:
            statements += [
                "CREATE FUNCTION commit_trap() RETURNS trigger LANGUAGE plpgsql AS"
                " $$ BEGIN INSERT INTO commit_trap VALUES (NEW.user_id); RETURN NULL; END $$",
                "CREATE TRIGGER commit_trap AFTER INSERT ON users FOR EACH ROW"
                f" WHEN (NEW.language = '{language}') EXECUTE FUNCTION commit_trap()",
            ]
        for statement in statements:
            await self.execute(statement)

    @contextlib.asynccontextmanager
    async def refusing_writes(self, store: SQLiteStore | PostgresStore) -> AsyncIterator[None]:
        """While inside, the database refuses every write of ``store`` (as a disk gone
        read-only would): SQLite's ``query_only``; on PostgreSQL, :data:`READ_ONLY_ON` on the
        store's schema."""
        if isinstance(store, SQLiteStore):
            await store._writer_db.execute("PRAGMA query_only = ON")
            try:
                yield
            finally:
                await store._writer_db.execute("PRAGMA query_only = OFF")
            return
        await self.execute(READ_ONLY_ON)
        try:
            await store._pool.expire_connections()
            yield
        finally:
            db = await asyncpg.connect(
                self.target, server_settings={"default_transaction_read_only": "off"}
            )
            try:
                await db.execute(READ_ONLY_OFF)
            finally:
                await db.close()
            await store._pool.expire_connections()
