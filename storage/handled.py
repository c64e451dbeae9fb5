"""The marks of the handled updates (``handled_updates``), written once an update was handled
and looked up before one is, by either engine: with a webhook (:mod:`storage.order`) and
with polling (:mod:`bot.telegram.polling`, :class:`HandledMarks`).

**Updates delivered again.** Telegram sends an update again when its request's answer was lost
(a timeout, a dropped connection, a 5xx), with the same ``update_id``. Each handled update is
marked in ``handled_updates`` (bot id, ``update_id``; kept :data:`HANDLED_SECONDS`, longer than
Telegram keeps an undelivered update) once its handler returned; an update already marked is
acknowledged and dropped (:meth:`storage.order.PostgresUpdateOrder.handled`, checked in the
update's turn). A delivery and its repetition share their (chat, sender), so the turn (here, and
across instances) puts the repetition after the first one is handled: it finds the mark. An
update registered but never handled (the instance died before it answered, so Telegram sends it
again) has no mark and is handled. On PostgreSQL the marks are written on the order's own
connection, without waiting for the WAL (``synchronous_commit`` off): a crash of the server
itself may forget the last fraction of a second of them. What stays possible: the instance died
after its handler's writes and before the mark (a repetition is then handled again), or the turn
was not had (handled anyway, logged).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import asyncpg

from bot.kernel.ports import StorageError

HANDLED_SECONDS = 2 * 86_400.0
"""How long an update stays marked as handled: longer than the 24 hours Telegram keeps an
update it could not deliver (Bot API, Getting updates: "will not be kept longer than 24
hours"), so every repetition still finds its mark."""

PRUNE_SECONDS = 3_600.0
"""How often marks older than :data:`HANDLED_SECONDS` are deleted (at most; by the instance
writing a mark)."""


class Pruning:
    """When marks were last pruned by this instance (at most every :data:`PRUNE_SECONDS`); the
    orders of :mod:`storage.order` prune theirs by it too."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self._clock = clock
        self._last = -PRUNE_SECONDS

    def due(self) -> bool:
        """Whether to prune now (then it is not due again for :data:`PRUNE_SECONDS`)."""
        now = self._clock()
        if now - self._last < PRUNE_SECONDS:
            return False
        self._last = now
        return True


Read = Callable[[str, tuple[object, ...]], Awaitable[list[Any]]]
"""A store's read of one statement (its rows)."""

Write = Callable[[str, tuple[object, ...]], Awaitable[int]]
"""A store's group-committed write of one statement (rows changed)."""

_MARK_MANY = {
    # ``WHERE true``: SQLite would read an ON CONFLICT right after the FROM as a join's
    False: (
        "INSERT INTO handled_updates (bot_id, update_id, handled_at)"
        " SELECT ?, value, ? FROM json_each(?) WHERE true ON CONFLICT DO NOTHING"
    ),
    True: (
        "INSERT INTO handled_updates (bot_id, update_id, handled_at)"
        " SELECT ?::bigint, u, ?::float8 FROM unnest(?::bigint[]) AS u"
        " ON CONFLICT (bot_id, update_id) DO NOTHING"
    ),
}
"""The statement that marks a batch of updates handled (bot id, time, the ids), by engine
(True: PostgreSQL, the ids a list; SQLite: a JSON array)."""

_FAILED = (sqlite3.Error, asyncpg.PostgresError)


class HandledMarks:
    """The marks of the handled updates (``handled_updates``), for polling
    (:mod:`bot.telegram.polling`), through a store's reads and group-committed writes: a
    batch of marks is one statement, committed with whatever else the store is writing.

    Args:
        read: The store's read.
        write: The store's group-committed write (``?`` placeholders).
        postgres: Whether the store is PostgreSQL's (else SQLite's).
        clock: Seconds since the epoch (marks' time, pruning).
    """

    def __init__(
        self, read: Read, write: Write, *, postgres: bool, clock: Callable[[], float] = time.time
    ) -> None:
        self._read, self._write, self._clock = read, write, clock
        self._postgres = postgres
        self._pruning = Pruning(clock)

    async def handled(self, bot_id: int, update_id: int) -> bool:
        """Whether update ``update_id`` of bot ``bot_id`` is marked handled, in the last
        :data:`HANDLED_SECONDS` (see :meth:`last_handled`).

        Raises:
            StorageError: the database could not be read.
        """
        try:
            rows = await self._read(
                "SELECT 1 FROM handled_updates WHERE bot_id = ?"
                " AND update_id = ? AND handled_at >= ?",
                (bot_id, update_id, self._clock() - HANDLED_SECONDS),
            )
        except _FAILED as exc:
            raise StorageError(f"handled updates: {exc}") from exc
        return bool(rows)

    async def mark_many(self, bot_id: int, update_ids: Sequence[int]) -> None:
        """Mark updates ``update_ids`` of bot ``bot_id`` handled, in one statement; now and
        then (with it, in the same commit), forget the marks older than
        :data:`HANDLED_SECONDS`.

        Raises:
            StorageError: the marks could not be written.
        """
        if not update_ids:
            return
        now = self._clock()
        ids: object = list(update_ids) if self._postgres else json.dumps(list(update_ids))
        writes = [self._write(_MARK_MANY[self._postgres], (bot_id, now, ids))]
        if self._pruning.due():  # queued together: one commit
            writes.append(
                self._write(
                    "DELETE FROM handled_updates WHERE handled_at < ?", (now - HANDLED_SECONDS,)
                )
            )
        try:
            await asyncio.gather(*writes)
        except _FAILED as exc:
            raise StorageError(f"handled updates: {exc}") from exc

    async def last_handled(self, bot_id: int) -> int | None:
        """The highest ``update_id`` of bot ``bot_id`` marked handled (by any instance) in the
        last :data:`HANDLED_SECONDS`; None: none is. Older marks, not pruned yet (nothing was
        marked since), are left out: after a week without updates, Telegram picks the next
        ``update_id`` at random (Bot API, Update), and it may be an old mark's.

        Raises:
            StorageError: the database could not be read.
        """
        try:
            rows = await self._read(
                "SELECT MAX(update_id) FROM handled_updates WHERE bot_id = ? AND handled_at >= ?",
                (bot_id, self._clock() - HANDLED_SECONDS),
            )
        except _FAILED as exc:
            raise StorageError(f"handled updates: {exc}") from exc
        return int(rows[0][0]) if rows and rows[0][0] is not None else None
