"""PostgreSQL storage (asyncpg) implementing :class:`bot.kernel.ports.QuizStore`,
:class:`bot.features.groups.ports.GroupStore`, :class:`bot.features.learning.ports.CardStore`,
:class:`bot.features.privacy.ports.PrivacyStore` and :class:`bot.kernel.ports.ReportStore`, for one
or several quizbot instances sharing a database.

The same semantics as :mod:`storage.sqlite`:

- **Every acknowledged write is durable**: the connections run with ``synchronous_commit=on``
  (a write's future is resolved only after its transaction's COMMIT returned, so after the
  server flushed its WAL).
- **Group commit**: writes are queued and run in batches, each batch one transaction on a
  pooled connection (:mod:`storage.postgres.writer`).
- **Constraints decide**: one answer per question per attempt, one per member per question,
  one active attempt per user, one running session per chat: unique keys, checked by the
  database against every instance's writes.
- **Compare-and-set writes** check their condition in the write itself, locking the row they
  test (``FOR UPDATE``: in READ COMMITTED a concurrent writer waits, then re-checks against the
  row as committed), and return the state they left (``RETURNING``).
- **Every read is one statement** on a pooled connection, run to completion; data that must
  agree (an attempt and its answers) is read by one statement, so from one snapshot.

The schema is versioned in the table ``quizbot_schema`` and migrated forward at
:meth:`PostgresStore.open` (:mod:`storage.postgres.schema`).

The store is put together from its parts, as :class:`storage.sqlite.SQLiteStore` is: the
group-commit writer (:mod:`storage.postgres.writer`), the migrations
(:mod:`storage.postgres.schema`), and the statements of each port
(:mod:`storage.postgres.attempts`, :mod:`storage.postgres.groups`,
:mod:`storage.postgres.learning`); what spans them all (deleting a user's data, the health
write, the item report) is here.
"""

from __future__ import annotations

import asyncio

import asyncpg

from bot.features.privacy.ports import DeletedData
from bot.kernel.members import DELETED_NAME, pseudonyms
from bot.kernel.ports import StorageError
from storage.daily import DailyStatements
from storage.exams import ExamStatements
from storage.handled import HandledMarks
from storage.homework import HomeworkStatements
from storage.leases import PostgresLeases
from storage.library import LibraryStatements
from storage.order import USERS_CHANNEL, PostgresUpdateOrder
from storage.postgres.attempts import PostgresAttemptStatements
from storage.postgres.dsn import redact_dsn
from storage.postgres.groups import PostgresGroupStatements
from storage.postgres.learning import PostgresLearningStatements
from storage.postgres.schema import SCHEMA_VERSION, migrate, migrations
from storage.postgres.sends import PostgresSends
from storage.postgres.writer import FAILURES, POOL_SIZE, rows_changed
from storage.shared import SharedPromptStatements, SharedReportStatements

PSEUDONYM_LOCK = (0x71756979, 1)
"""Advisory lock key (two int4) held by :meth:`PostgresStore.delete_user` until it commits:
two instances deleting users at once never pick the same pseudonyms."""


class PostgresStore(
    PostgresAttemptStatements,
    PostgresGroupStatements,
    PostgresLearningStatements,
    LibraryStatements,
    HomeworkStatements,
    SharedReportStatements,
    DailyStatements,
    SharedPromptStatements,
    ExamStatements,
):
    """The quiz's storage in a PostgreSQL database. Create with :meth:`open`; close with
    :meth:`close`.

    Args:
        pool: The connection pool (reads and write batches).
        dsn: The database URL (for the lease connections of :meth:`leases`).
    """

    def __init__(self, pool: asyncpg.Pool, dsn: str) -> None:
        super().__init__(pool)
        self._dsn = dsn
        self._leases: PostgresLeases | None = None
        self._order: PostgresUpdateOrder | None = None

    @classmethod
    async def open(
        cls, dsn: str, *, upto: int | None = None, pool_size: tuple[int, int] = POOL_SIZE
    ) -> PostgresStore:
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
                dsn,
                min_size=pool_size[0],
                max_size=pool_size[1],
                server_settings={"synchronous_commit": "on"},
            )
        except (*FAILURES, ValueError) as exc:
            raise StorageError(f"cannot open database {redact_dsn(dsn)}: {exc}") from exc
        store = cls(pool, dsn)
        try:
            await migrate(
                pool,
                migrations() if upto is None else [m for m in migrations() if m.version <= upto],
            )
        except BaseException as exc:
            await pool.close()
            if isinstance(exc, FAILURES):
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

    def send_budget(self, bot_id: int) -> PostgresSends:
        """The send budgets of the bot ``bot_id``, shared by every instance on this database
        (see :mod:`storage.postgres.sends`)."""
        return PostgresSends(self._pool, bot_id)

    def update_order(self) -> PostgresUpdateOrder:
        """The order of each (chat, sender)'s updates across the instances receiving this
        bot's webhooks (advisory locks and registrations; see :mod:`storage.order`), created
        on first use."""
        if self._order is None:
            self._order = PostgresUpdateOrder(self._dsn)
        return self._order

    def handled_marks(self) -> HandledMarks:
        """The marks of the handled updates (polling: each update handled once across
        restarts and failovers), written through this store's group commit."""
        return HandledMarks(self._read, self._write, postgres=True)

    async def schema_version(self) -> int:
        """The applied schema version (0 for an empty database)."""
        rows = await self._read(SCHEMA_VERSION)
        return int(rows[0][0]) if rows else 0

    # --- users' data ---------------------------------------------------------------------

    async def checkpoint(self) -> bool:
        """See :meth:`bot.features.privacy.ports.PrivacyStore.checkpoint`: the WAL is the
        server's."""
        return True

    async def delete_user(self, user_id: int) -> DeletedData:
        """See :meth:`bot.features.privacy.ports.PrivacyStore.delete_user`. One transaction: all of
        it or nothing; the pseudonyms are picked under :data:`PSEUDONYM_LOCK`."""

        async def op(db: asyncpg.Connection) -> DeletedData:
            async def changed(sql: str) -> int:  # rows of the user's other data
                return rows_changed(await db.execute(sql, user_id))

            answers = rows_changed(
                await db.execute(
                    "DELETE FROM answers WHERE attempt_id IN"
                    " (SELECT attempt_id FROM attempts WHERE user_id = $1)",
                    user_id,
                )
            )
            attempts = rows_changed(
                await db.execute("DELETE FROM attempts WHERE user_id = $1", user_id)
            )
            settings = rows_changed(
                await db.execute("DELETE FROM users WHERE user_id = $1", user_id)
            )
            # spaced review: the user's cards, study hours and reminder setting
            other = await changed("DELETE FROM cards WHERE user_id = $1")
            # ticks not yet submitted on a question with several right options
            other += await changed("DELETE FROM group_picks WHERE user_id = $1")
            settings += rows_changed(
                await db.execute("DELETE FROM learners WHERE user_id = $1", user_id)
            )
            # created quizzes: the draft in the making (the quizzes are the caller's choice)
            drafts = rows_changed(
                await db.execute("DELETE FROM drafts WHERE user_id = $1", user_id)
            )
            # what they were asked and had not answered (a /myquizzes prompt)
            await db.execute("DELETE FROM prompts WHERE user_id = $1", user_id)
            # every instance drops what it caches about them, at the commit
            await db.execute("SELECT pg_notify($1, $2)", USERS_CHANNEL, str(user_id))
            # the question of the day: their answers; their id leaves what they set up
            other += await changed("DELETE FROM daily_answers WHERE user_id = $1")
            other += await changed("UPDATE daily_schedules SET set_by = 0 WHERE set_by = $1")
            other += await changed("UPDATE bot_chats SET added_by = NULL WHERE added_by = $1")
            # homework: which attempts were theirs (deleted above); the homework they set stays
            # for its group, no longer linked to them (no report is sent to anyone)
            other += await changed("DELETE FROM homework_members WHERE user_id = $1")
            other += await changed(
                "UPDATE assignments SET set_by = 0, set_by_name = '' WHERE set_by = $1"
            )
            sessions = [
                row[0]
                for row in await db.fetch(
                    "SELECT session_id FROM group_players WHERE user_id = $1 UNION"
                    " SELECT session_id FROM group_answers WHERE user_id = $1",
                    user_id,
                )
            ]
            group_answers = 0
            if sessions:
                await db.execute("SELECT pg_advisory_xact_lock($1, $2)", *PSEUDONYM_LOCK)
                lowest = await db.fetchval("SELECT MIN(user_id) FROM group_players")
                for session_id, pseudonym in pseudonyms(lowest, sessions).items():
                    group_answers += rows_changed(
                        await db.execute(
                            "UPDATE group_answers SET user_id = $1 WHERE session_id = $2"
                            " AND user_id = $3",
                            pseudonym,
                            session_id,
                            user_id,
                        )
                    )
                    await db.execute(
                        "UPDATE group_players SET user_id = $1, name = $4 WHERE session_id = $2"
                        " AND user_id = $3",
                        pseudonym,
                        session_id,
                        user_id,
                        DELETED_NAME,
                    )
            started = {
                row[0]
                for row in await db.fetch(
                    "UPDATE group_sessions SET starter_id = 0 WHERE starter_id = $1"
                    " RETURNING session_id",
                    user_id,
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
                " WHERE version = (SELECT MAX(version) FROM quizbot_schema)"
            )
        except asyncpg.PostgresError as exc:
            raise StorageError(str(exc)) from exc
