"""Which instance runs what, when several quizbot instances share one PostgreSQL database.

Two kinds of lease, both PostgreSQL session-level advisory locks, so that the server frees
them by itself when the instance holding them dies (its connections close: ``kill -9``
included; a machine that vanishes is noticed by TCP keepalive, set on these connections):

- **Session leases**: the instance holding a group session's lease is the only one that runs
  its steps (close, reveal, next question, leaderboard) and so fires its deadline. All of an
  instance's session leases are held on one connection of its own. Every step begins with
  :meth:`PostgresLeases.claim`, which checks with the server that the lease is still held, so
  an instance whose lease connection dropped stops running the session before another one
  adopts it.
- **The poller lease**: Telegram serves one ``getUpdates`` consumer per bot, so one instance
  polls (and handles every update, in order per user); the others wait for this lock (on a
  second connection) while running the sessions they hold, and the first to get it polls.
  A restart of the server (or a network cut) breaks the poller's connection: the instance
  reconnects with back-off (:mod:`storage.outage`) and takes the lease again, polling on
  meanwhile (every update is answered, "couldn't record that" while the database is away);
  it stops only when another instance took the lease first, or the outage outlasted the
  bound.

A single SQLite instance needs neither: :class:`LocalLeases` grants everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from bot.kernel.ports import StorageError
from storage.backup import InstanceLock
from storage.outage import outage_seconds, reconnecting

log = logging.getLogger(__name__)

SESSION_NAMESPACE = 0x71756973
"""First key (int4) of the session leases' advisory locks; the second is the session id."""

POLLER_NAMESPACE = 0x71756970
"""First key (int4) of the poller lease's advisory lock; the second is the bot's id (so that
instances of different bots sharing one database each have their poller)."""

EARLY_CHANNEL = "quizbot_early"
"""The ``LISTEN``/``NOTIFY`` channel on which an instance asks the holder of a session's lease to
close a question early (payload: ``session_id:position``): a tap on an instance without the
lease found that everyone had answered."""

RECONNECT_SECONDS = 1.0
"""Pause before reconnecting the poller's waiting connection after it failed."""

_KEEPALIVE = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
}
"""Server-side keepalive on lease connections: the server notices an instance whose machine
vanished within about 25 s and frees its leases."""

_FAILURES = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


def _key(session_id: int) -> int:
    """The session's second lock key: its id, within int4 (ids beyond 2**31 share keys with
    smaller ones; sharing only makes one lease cover two sessions)."""
    return session_id % 2**31


class LocalLeases:
    """Leases for a single instance (SQLite): everything is granted at once.

    Args:
        instance: Held while the leases are (SQLite's :class:`storage.backup.InstanceLock`:
            made by the store, so that a second bot on the same file is refused), released by
            :meth:`close`; None: nothing to hold.
    """

    shared = False
    """Whether other instances may share the storage."""

    on_early: Callable[[int, int], None] | None = None
    """Never told: no other instance asks this one anything."""

    def __init__(self, instance: InstanceLock | None = None) -> None:
        self._instance = instance

    async def claim(self, session_id: int) -> bool:
        """Always True: this instance is the only one."""
        return True

    async def release(self, session_id: int) -> None:
        """Nothing to release."""

    async def ask_early(self, session_id: int, position: int) -> None:
        """Nothing to ask: this instance holds every lease."""

    async def wait_poller(self, bot_id: int, on_lost: Callable[[], None]) -> None:
        """Return at once: this instance is the only one, so it polls."""

    async def close(self) -> None:
        """Release the instance lock, if any (idempotent)."""
        if self._instance is not None:
            self._instance.release()


class PostgresLeases:
    """Session and poller leases of one instance, as PostgreSQL advisory locks.

    Args:
        dsn: The database URL.
    """

    shared = True
    """Whether other instances may share the storage."""

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._conn: asyncpg.Connection | None = None
        self._poller: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()  # one query at a time on the lease connection
        self._held: set[int] = set()
        self._on_lost: Callable[[asyncpg.Connection | PoolConnectionProxy], None] | None = None
        self._keeper: asyncio.Task[None] | None = None
        self.poller_held = asyncio.Event()
        """Set while this instance holds the poller lease (cleared while it takes it again
        after its connection broke)."""
        self.on_early: Callable[[int, int], None] | None = None
        """Told (session id, position) when another instance asks for an early close of a
        session whose lease this instance holds (:data:`EARLY_CHANNEL`)."""

    async def _connection(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            if self._held:
                log.error("lease connection lost: leases of sessions %s are gone", self._held)
            self._held.clear()
            conn = await asyncpg.connect(self._dsn, server_settings=_KEEPALIVE)
            try:
                await conn.add_listener(EARLY_CHANNEL, self._asked_early)
            except BaseException:
                conn.terminate()
                raise
            self._conn = conn
        return self._conn

    def _asked_early(self, _conn: object, _pid: int, _channel: str, payload: object) -> None:
        session_id, position = (int(part) for part in str(payload).split(":"))
        if session_id in self._held and self.on_early is not None:
            self.on_early(session_id, position)

    async def ask_early(self, session_id: int, position: int) -> None:
        """Ask the holder of the session's lease, through :data:`EARLY_CHANNEL`, to close
        question ``position`` early. Never raises (logged: the deadline closes it)."""
        async with self._lock:
            try:
                db = await self._connection()
                await db.execute(
                    "SELECT pg_notify($1, $2)", EARLY_CHANNEL, f"{session_id}:{position}"
                )
            except _FAILURES as exc:
                log.warning(
                    "group session %s: could not ask for an early close (%s)", session_id, exc
                )

    async def claim(self, session_id: int) -> bool:
        """Hold the session's lease: True if this instance holds it (now or already, checked
        with the server), False if another instance does.

        Raises:
            StorageError: the server could not be reached (the lease is not held).
        """
        async with self._lock:
            for last_try in (False, True):
                try:
                    return await self._claim(session_id)
                except _FAILURES as exc:
                    # the connection broke (the server ended it, say): every lease it held is
                    # gone; try once more on a new one
                    self._drop()
                    if last_try:
                        raise StorageError(
                            f"could not claim the lease of session {session_id}: {exc}"
                        ) from exc
            raise AssertionError("unreachable")

    async def _claim(self, session_id: int) -> bool:
        db = await self._connection()
        if session_id in self._held:
            if await db.fetchval(
                "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory'"
                " AND pid = pg_backend_pid() AND classid = $1 AND objid = $2"
                " AND objsubid = 2 AND granted)",
                SESSION_NAMESPACE,
                _key(session_id),
            ):
                return True
            self._held.discard(session_id)
        got = bool(
            await db.fetchval(
                "SELECT pg_try_advisory_lock($1, $2)", SESSION_NAMESPACE, _key(session_id)
            )
        )
        if got:
            self._held.add(session_id)
        return got

    def _drop(self) -> None:
        """Forget a broken lease connection, and with it every lease it held."""
        if self._held:
            log.error("lease connection lost: leases of sessions %s are gone", self._held)
        self._held.clear()
        if self._conn is not None:
            self._conn.terminate()
        self._conn = None

    async def release(self, session_id: int) -> None:
        """Let the session's lease go (it ended); a connection that is gone freed it already."""
        async with self._lock:
            if session_id not in self._held:
                return
            self._held.discard(session_id)
            if self._conn is None or self._conn.is_closed():
                return
            try:
                await self._conn.fetchval(
                    "SELECT pg_advisory_unlock($1, $2)", SESSION_NAMESPACE, _key(session_id)
                )
            except _FAILURES as exc:
                log.warning("could not release the lease of session %s: %s", session_id, exc)

    async def wait_poller(self, bot_id: int, on_lost: Callable[[], None]) -> None:
        """Wait until this instance holds the poller lease of bot ``bot_id`` (the instance
        holding it died or stopped), reconnecting as needed.

        Args:
            bot_id: The bot's user id (``getMe``).
            on_lost: Called if the lease's connection is lost later (another instance may then
                poll: this one must stop polling).
        """
        while True:
            try:
                self._poller = await asyncpg.connect(self._dsn, server_settings=_KEEPALIVE)
                await self._poller.execute(
                    "SELECT pg_advisory_lock($1, $2)", POLLER_NAMESPACE, _key(bot_id)
                )
            except _FAILURES as exc:
                log.warning("waiting for the poller lease: %s; trying again", exc)
                if self._poller is not None:
                    self._poller.terminate()
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            self._watch_poller(bot_id, on_lost)
            return

    def _watch_poller(self, bot_id: int, on_lost: Callable[[], None]) -> None:
        """Hold the poller lease on ``self._poller``; if its connection breaks, take it again."""
        assert self._poller is not None
        self.poller_held.set()

        def dropped(_conn: asyncpg.Connection | PoolConnectionProxy) -> None:
            self.poller_held.clear()
            if self._keeper is None or self._keeper.done():
                self._keeper = asyncio.get_running_loop().create_task(
                    self._retake_poller(bot_id, on_lost), name="poller lease"
                )

        self._on_lost = dropped
        self._poller.add_termination_listener(dropped)

    async def _retake_poller(self, bot_id: int, on_lost: Callable[[], None]) -> None:
        """The poller's connection broke (the server restarted, say): reconnect with back-off
        for up to ``outage_seconds()`` and take the lease again without waiting for it;
        ``on_lost()`` if another instance holds it by then, or the server stayed away."""
        seconds = outage_seconds()
        log.warning(
            "the poller lease's database connection was lost: reconnecting (for up "
            "to %.0f s); polling goes on meanwhile",
            seconds,
        )
        conn: asyncpg.Connection | None = None
        try:
            async for attempt in reconnecting(seconds):
                with attempt:
                    conn = await asyncpg.connect(self._dsn, server_settings=_KEEPALIVE)
                    try:
                        got = bool(
                            await conn.fetchval(
                                "SELECT pg_try_advisory_lock($1, $2)",
                                POLLER_NAMESPACE,
                                _key(bot_id),
                            )
                        )
                    except BaseException:
                        conn.terminate()
                        raise
        except _FAILURES as exc:
            log.error(
                "the database stayed unreachable for %.0f s (%s): the poller lease is lost",
                seconds,
                exc,
            )
            on_lost()
            return
        assert conn is not None
        if not got:
            log.error("another instance took the poller lease while the database was away")
            await conn.close()
            on_lost()
            return
        self._poller = conn
        log.info("the poller lease is held again")
        self._watch_poller(bot_id, on_lost)

    async def close(self) -> None:
        """Close the lease connections: the server frees every lease they held."""
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        if self._poller is not None and self._on_lost is not None:
            self._poller.remove_termination_listener(self._on_lost)  # a close is no loss
        for conn in (self._conn, self._poller):
            if conn is not None and not conn.is_closed():
                try:
                    await asyncio.wait_for(conn.close(), 5)
                except _FAILURES:
                    conn.terminate()
        self._held.clear()
