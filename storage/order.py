"""The order of one user's updates across instances receiving webhooks from one bot.

**What Telegram guarantees.** Each update has an ``update_id``; ids "increase sequentially",
and with webhooks they let a bot "restore the correct update sequence, should they get out of
order" (Bot API, Update): order across a webhook is not promised. Telegram POSTs updates over
up to ``max_connections`` connections at once (setWebhook: 1-100, default 40). The Bot API
server (tdlib/telegram-bot-api, ``WebhookActor``) queues updates by a key, a message's chat or
a callback query's sender, and sends a queue's next update only once the previous one was
answered with a 2xx; different queues go out in parallel. So one user's messages in a chat
come one after another, as do their taps, but a message and a tap may come at once, and
the bot's webhook server answers 200 as soon as the update is queued, before it is
handled: behind a load balancer the next tap can reach another instance while the first is
still being handled.

**What quizbot does** (PostgreSQL, webhook mode; :mod:`bot.telegram.ordering` hooks it in):

- *Registered on receipt, before Telegram is answered*: each update of a (chat, sender) is
  written to ``pending_updates`` before the webhook server answers 200
  (:class:`bot.telegram.ordering.OrderedQueue`); so the next update of a Telegram queue, sent
  only after that answer, finds it there whichever instance it reaches.
- *One at a time per (chat, sender), lowest ``update_id`` first*: an update is handled while
  its instance holds a session-level advisory lock on the key
  (``ORDER_NAMESPACE``, :func:`order_key`), and only when no lower ``update_id`` of the key is
  *asking* for its turn: registered and at the head of its own instance's queue for the key
  (an update queued locally behind another is not waited for: that could deadlock two
  instances whose arrival orders cross). The statement that ends a turn makes the next update
  of the key on its instance ask, and wakes the waiters (``NOTIFY``), so that they see it.
- *Bounded*: an update waits at most :data:`TURN_SECONDS` (then it is handled anyway, and the
  instance logs it); rows of an instance that died (``kill -9``) hold nobody back after that
  long, and its locks are freed by the server with its connection.

What stays possible: two updates of one user sent by Telegram at the same moment on different
queues (a message and a tap) are handled in the order they reach the database, and an update
that comes after a newer one of its key was handled is handled late. The quiz engine refuses a
stale button politely (a toast: already answered, not the current question, answer first) and
the database's constraints keep one answer per question whatever the order.

Failures: registration fails (the database is unreachable or refuses writes) → the webhook
answers 500 and Telegram delivers the update again later (nothing is lost, nothing handled);
the lock or the check fails afterwards (the update was acknowledged already, so Telegram will
not send it again) → the update is handled without the cross-instance turn, and logged.

One connection per instance holds all of its locks (advisory locks taken by one session
serve any number of keys; every query is a short one, one at a time), with TCP keepalive so
that the server frees the locks of an instance whose machine vanished.

**Updates delivered again** (the same ``update_id``) are dropped once marked handled, in the
update's turn (:meth:`PostgresUpdateOrder.handled`; the marks: :mod:`storage.handled`).

Only with a webhook: with polling, the instance holding the poller lease handles every update
(:mod:`storage.leases`), its update processor alone keeps each user's in order, and these round
trips would buy nothing. The marks serve polling too (:mod:`bot.telegram.polling`):
:class:`storage.handled.HandledMarks` writes them a batch at a time through the store's own
group-committed writes (either engine), and looks up only the updates at or below the highest
mark found when polling starts, the ones Telegram may send again after a crash or a failover. A
single instance on SQLite needs no registration or turn either:
:class:`~storage.order_local.LocalUpdateOrder`'s do nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable

import asyncpg

from bot.kernel.ports import StorageError
from storage.handled import HANDLED_SECONDS, Pruning

log = logging.getLogger(__name__)

ORDER_NAMESPACE = 0x7175696F
"""First key (int4, "quio") of the per-(chat, sender) advisory locks; the second is
:func:`order_key`. Distinct from the migration and pseudonym locks (0x71756979,
:mod:`storage.postgres`), the session leases (0x71756973) and the poller lease (0x71756970,
:mod:`storage.leases`), so no lock of one kind can block another."""

CHANNEL = "quizbot_order"
"""The ``LISTEN``/``NOTIFY`` channel on which a turn's end is announced (payload: the key)."""

USERS_CHANNEL = "quizbot_users"
"""The ``LISTEN``/``NOTIFY`` channel on which a change of what instances cache about a user is
announced (payload: the user id): a language choice, what follows their answers, their data
deleted (:mod:`storage.postgres.attempts`,
:meth:`storage.postgres.store.PostgresStore.delete_user`); and what one instance sent of a
user's attempt or review card (payload ``note ID WHAT VALUE``: :meth:`PostgresUpdateOrder.note`).
Sent in the transaction of the change, so delivered at its commit: before the update that
made it ends its turn, so before the user's next update gets its turn on another instance
(whose turns are asked on the connection that listens: a notification committed earlier
comes first on it)."""

TURN_SECONDS = 10.0
"""The longest an update waits for its turn across instances; then it is handled anyway. A
registration older than this holds nobody back (its instance died, or it is stuck). Longer than
a handler's usual few Bot API round trips; about the time a tap's spinner turns before the app
gives up on it."""

RETRY_SECONDS = 1.0
"""A waiter asks again after this long without a notification (the holder's instance died:
the server freed its lock, but no ``NOTIFY`` came; or the waiter registered in the instant the
holder's ending statement ran, so that statement did not see anyone to wake)."""

_SETTINGS = {
    "tcp_keepalives_idle": "10",
    "tcp_keepalives_interval": "5",
    "tcp_keepalives_count": "3",
    "synchronous_commit": "off",
}
"""Keepalive as on the lease connections (:mod:`storage.leases`): the server notices an
instance whose machine vanished within about 25 s and frees its locks. No waiting for the WAL
at commit: registrations matter only while their instance lives (the table is unlogged)."""

_FAILURES = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)

_REGISTER = (
    "INSERT INTO pending_updates (lock_key, update_id, asking, received_at)"
    " VALUES ($1, $2, $3, EXTRACT(EPOCH FROM clock_timestamp())::float8)"
    " ON CONFLICT (lock_key, update_id) DO UPDATE"
    " SET asking = EXCLUDED.asking, received_at = EXCLUDED.received_at"
)

# Mark the update as asking, and take the lock unless a lower update of the key asks too (a
# CASE evaluates its branch only when it is chosen: no lock is taken only to be given back).
_ASK = (
    "WITH asking AS (UPDATE pending_updates SET asking = TRUE"
    "                WHERE lock_key = $2 AND update_id = $3 AND NOT asking),"
    " earlier AS (SELECT EXISTS (SELECT 1 FROM pending_updates"
    "             WHERE lock_key = $2 AND update_id < $3 AND asking"
    "             AND received_at > EXTRACT(EPOCH FROM clock_timestamp())::float8 - $4) AS yes)"
    " SELECT yes, CASE WHEN yes THEN FALSE ELSE pg_try_advisory_lock($1, $2) END FROM earlier"
)

# End a turn: forget the update (and the key's registrations too old to matter), make the
# next update of the key on this instance ask for its turn (so that the waiters woken now see
# it), unlock when held, and wake the key's waiters on every instance, if there are any (other
# updates of the key registered: a NOTIFY costs the server a lock and a signal per listener).
_DONE = (
    "WITH gone AS (DELETE FROM pending_updates WHERE lock_key = $2 AND (update_id = $3"
    "              OR (received_at < EXTRACT(EPOCH FROM clock_timestamp())::float8 - $4"
    "                  AND update_id IS DISTINCT FROM $7))),"
    " next AS (UPDATE pending_updates SET asking = TRUE WHERE lock_key = $2 AND update_id = $7)"
    " SELECT CASE WHEN $5 THEN pg_advisory_unlock($1, $2) END,"
    " CASE WHEN EXISTS (SELECT 1 FROM pending_updates WHERE lock_key = $2 AND update_id <> $3)"
    "      THEN pg_notify($6, $2::text) END"
)


_HANDLED = "SELECT 1 FROM handled_updates WHERE bot_id = $1 AND update_id = $2"
_MARK = (
    "INSERT INTO handled_updates (bot_id, update_id, handled_at)"
    " VALUES ($1, $2, EXTRACT(EPOCH FROM clock_timestamp())::float8)"
    " ON CONFLICT (bot_id, update_id) DO NOTHING"
)
_PRUNE = (
    "DELETE FROM handled_updates"
    " WHERE handled_at < EXTRACT(EPOCH FROM clock_timestamp())::float8 - $1"
)


def order_key(chat_id: int | None, sender_id: int | None) -> int:
    """The second advisory-lock key (a signed int4) of a (chat, sender): the first 4 bytes of
    BLAKE2b over ``"chat:sender"``, the same in every process and version (Python's ``hash``
    is not, for strings). Two keys that share a value are ordered together: rare (32 bits)
    and harmless (one waits for the other).

    Args:
        chat_id: The chat, or None for an update without one.
        sender_id: The sender (user, or the chat a message was sent on behalf of), or None.
    """
    digest = hashlib.blake2b(f"{chat_id}:{sender_id}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "big", signed=True)


class PostgresUpdateOrder:
    """The order of each (chat, sender)'s updates across the instances sharing a PostgreSQL
    database (see the module's docstring).

    Args:
        dsn: The database URL.
        turn_seconds: See :data:`TURN_SECONDS`.
        retry_seconds: See :data:`RETRY_SECONDS`.
    """

    def __init__(
        self, dsn: str, *, turn_seconds: float = TURN_SECONDS, retry_seconds: float = RETRY_SECONDS
    ) -> None:
        self._dsn = dsn
        self.turn_seconds = turn_seconds
        self.retry_seconds = retry_seconds
        self._conn: asyncpg.Connection | None = None
        self._lock = asyncio.Lock()  # one query at a time on the connection
        self._held: Counter[int] = Counter()  # lock keys held on the current connection
        self._waiters: dict[int, set[asyncio.Event]] = {}  # lock key -> events to set
        # the updates registered here and not done, by (chat, sender), in the order they came
        # (the order this instance's processor handles them in), and the key of each
        self._queues: dict[tuple[int | None, int | None], deque[int]] = {}
        self._mine: dict[int, tuple[int | None, int | None]] = {}
        self.waiting = 0
        """Updates waiting for their turn right now (for tests and monitoring)."""
        self.gave_up = 0
        """Updates handled without their turn: the wait ran out or the database failed."""
        self._pruning = Pruning(time.time)
        self.on_user_changed: Callable[[int | None], None] | None = None
        """Told the id of each user whose cached data another instance changed
        (:data:`USERS_CHANNEL`), or None on a new connection (news may have been missed)."""
        self.on_noted: Callable[[int, str, int], None] | None = None
        """Told ``(id, what, value)`` of each :meth:`note` of another instance (and of this
        one: its own news comes back to it)."""

    async def _connection(self) -> asyncpg.Connection:
        if self._conn is None or self._conn.is_closed():
            self._drop()
            conn = await asyncpg.connect(self._dsn, server_settings=_SETTINGS)
            try:
                await conn.add_listener(CHANNEL, self._notified)
                await conn.add_listener(USERS_CHANNEL, self._user_changed)
            except BaseException:
                conn.terminate()
                raise
            self._conn = conn
            if self.on_user_changed is not None:
                self.on_user_changed(None)
        return self._conn

    def _user_changed(self, _conn: object, _pid: int, _channel: str, payload: object) -> None:
        news = str(payload).split(" ")
        if news[0] == "note" and len(news) == 4:
            if self.on_noted is not None:
                self.on_noted(int(news[1]), news[2], int(news[3]))
        elif self.on_user_changed is not None:
            self.on_user_changed(int(news[0]))

    async def note(self, subject_id: int, what: str, value: int) -> None:
        """Tell every instance (:attr:`on_noted`) what this one sent of ``subject_id`` (an
        attempt, a review card: ``what`` says, a word without spaces; ``value`` an int),
        before the update that sent it ends its turn: the user's next update, wherever it is
        handled, knows it (see :data:`USERS_CHANNEL`). A database fault is logged, not
        raised: the other instances then know less, as before they were told anything."""
        try:
            await self._run(
                "SELECT pg_notify($1, $2)", USERS_CHANNEL, f"note {subject_id} {what} {value}"
            )
        except StorageError as exc:
            log.warning("%s %s: could not tell the other instances: %s", what, subject_id, exc)

    def _drop(self) -> None:
        """Forget a broken connection, and with it every lock it held (the server freed them:
        another instance may now handle those keys' updates at the same time as this one)."""
        if self._held:
            log.error(
                "update order: connection lost while holding the turns of %d key(s)",
                len(self._held),
            )
        self._held.clear()
        if self._conn is not None and not self._conn.is_closed():
            self._conn.terminate()
        self._conn = None

    def _notified(self, _conn: object, _pid: int, _channel: str, payload: object) -> None:
        for event in self._waiters.get(int(str(payload)), ()):
            event.set()

    async def _run(self, query: str, *args: object) -> asyncpg.Record | None:
        """Run one statement (one more time on a new connection if the first one failed).

        Raises:
            StorageError: it failed twice.
        """
        async with self._lock:
            for last_try in (False, True):
                try:
                    db = await self._connection()
                    return await db.fetchrow(query, *args)
                except _FAILURES as exc:
                    self._drop()
                    if last_try:
                        raise StorageError(f"update order: {exc}") from exc
            raise AssertionError("unreachable")

    async def register(self, chat_id: int | None, sender_id: int | None, update_id: int) -> None:
        """Record that update ``update_id`` of (chat, sender) reached this instance; it asks
        for its turn at once when no other update of the key is registered here (it is the
        head of this instance's queue for the key).

        Raises:
            StorageError: the database could not be reached or refused the write (the update
                must not be acknowledged: Telegram then sends it again).
        """
        key = (chat_id, sender_id)
        if update_id in self._mine:  # delivered again before it was handled: registered
            return
        queue = self._queues.setdefault(key, deque())
        first = not queue
        queue.append(update_id)
        self._mine[update_id] = key
        try:
            await self._run(_REGISTER, order_key(chat_id, sender_id), update_id, first)
        except StorageError:
            self._unregister(update_id)
            raise

    def _unregister(self, update_id: int) -> int | None:
        """Forget a registration here; the update of its key that is next in line here now, if
        it just became so."""
        key = self._mine.pop(update_id, None)
        if key is None:
            return None
        queue = self._queues[key]
        head = queue[0] == update_id
        queue.remove(update_id)
        if not queue:
            del self._queues[key]
            return None
        return queue[0] if head else None

    @contextlib.asynccontextmanager
    async def turn(
        self, chat_id: int | None, sender_id: int | None, update_id: int
    ) -> AsyncIterator[bool]:
        """Wait (at most :attr:`turn_seconds`) until update ``update_id`` of (chat, sender) may
        be handled: this instance holds the key's lock, and no lower update of the key asks
        for its turn; hold the turn inside the block.

        Yields:
            True when the turn is held; False when it is not (the wait ran out, or the database
            failed: the update is handled anyway, unordered across instances).
        """
        key = order_key(chat_id, sender_id)
        held = await self._wait(key, update_id)
        if not held:
            self.gave_up += 1
        try:
            yield held
        finally:
            await self._done(key, update_id, held)

    async def _wait(self, key: int, update_id: int) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.turn_seconds
        self.waiting += 1
        try:
            while True:
                event = asyncio.Event()  # listening before asking: no notification is missed
                self._waiters.setdefault(key, set()).add(event)
                try:
                    try:
                        row = await self._run(
                            _ASK, ORDER_NAMESPACE, key, update_id, self.turn_seconds
                        )
                    except StorageError as exc:
                        log.warning(
                            "update %s: no turn across instances (%s); handling it anyway",
                            update_id,
                            exc,
                        )
                        return False
                    assert row is not None
                    if row[1]:
                        self._held[key] += 1
                        return True
                    left = deadline - loop.time()
                    if left <= 0:
                        log.warning(
                            "update %s: waited %.0f s for its turn across instances; "
                            "handling it anyway",
                            update_id,
                            self.turn_seconds,
                        )
                        return False
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), min(left, self.retry_seconds))
                finally:
                    events = self._waiters[key]
                    events.discard(event)
                    if not events:
                        del self._waiters[key]
        finally:
            self.waiting -= 1

    async def _done(self, key: int, update_id: int, held: bool) -> None:
        """End a turn (or an update that never had one): unregister, unlock, notify."""
        following = self._unregister(update_id)
        async with self._lock:
            for last_try in (False, True):
                try:
                    db = await self._connection()
                    # unlock only on the connection that took the lock (a lost one freed it)
                    unlock = held and self._held[key] > 0
                    await db.execute(
                        _DONE,
                        ORDER_NAMESPACE,
                        key,
                        update_id,
                        self.turn_seconds,
                        unlock,
                        CHANNEL,
                        following,
                    )
                except _FAILURES as exc:
                    self._drop()
                    if last_try:  # the row holds nobody back after TURN_SECONDS
                        log.warning("update %s: could not end its turn (%s)", update_id, exc)
                    continue
                if unlock:
                    self._held[key] -= 1
                    if not self._held[key]:
                        del self._held[key]
                return

    async def forget(self, chat_id: int | None, sender_id: int | None, update_id: int) -> None:
        """Unregister an update that will not be handled (dropped by the flood limits), so
        that nobody waits for it. Never raises (a failure is logged)."""
        await self._done(order_key(chat_id, sender_id), update_id, held=False)

    async def handled(self, bot_id: int, update_id: int) -> bool:
        """Whether update ``update_id`` of bot ``bot_id`` was handled already, by any
        instance.

        Raises:
            StorageError: the database could not be read.
        """
        return await self._run(_HANDLED, bot_id, update_id) is not None

    async def mark_handled(self, bot_id: int, update_id: int) -> None:
        """Mark update ``update_id`` of bot ``bot_id`` handled; now and then, forget the marks
        older than :data:`HANDLED_SECONDS`.

        Raises:
            StorageError: the mark could not be written.
        """
        await self._run(_MARK, bot_id, update_id)
        if self._pruning.due():
            await self._run(_PRUNE, HANDLED_SECONDS)

    async def close(self) -> None:
        """Unregister the updates registered here and not handled (PTB drops its queue at a
        stop), then close the connection: the server frees every lock it held."""
        for update_id, key in list(self._mine.items()):
            await self._done(order_key(*key), update_id, held=False)
        if self._conn is not None and not self._conn.is_closed():
            try:
                await asyncio.wait_for(self._conn.close(), 5)
            except _FAILURES:
                self._conn.terminate()
        self._conn = None
        self._held.clear()
