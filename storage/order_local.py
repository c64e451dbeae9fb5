"""The update order of a single instance (SQLite): no registration and no turns, only the
marks of the updates handled, in the database file; the order across instances
(PostgreSQL) and why is :mod:`storage.order`'s."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Callable

from bot.kernel.ports import StorageError
from storage.handled import HANDLED_SECONDS, Pruning, Read, Write


class LocalUpdateOrder:
    """The order of a single instance (SQLite): its update processor alone keeps each user's
    updates in order, so registration and turns do nothing; the handled updates are marked in
    the database file (see :mod:`storage.order`'s docstring), so that a repetition after a
    restart is dropped too.

    Args:
        read: The store's read (its reader connection); None: nothing is marked.
        write: The store's group-committed write.
        clock: Seconds since the epoch (marks' time, pruning).
    """

    waiting = 0
    """Updates waiting for their turn right now (never any)."""

    on_user_changed: Callable[[int | None], None] | None = None
    """Never called: no other instance changes what this one caches."""

    def __init__(
        self,
        read: Read | None = None,
        write: Write | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._read, self._write, self._clock = read, write, clock
        self._pruning = Pruning(clock)

    async def handled(self, bot_id: int, update_id: int) -> bool:
        """Whether update ``update_id`` of bot ``bot_id`` was handled already.

        Raises:
            StorageError: the database could not be read.
        """
        if self._read is None:
            return False
        try:
            rows = await self._read(
                "SELECT 1 FROM handled_updates WHERE bot_id = ? AND update_id = ?",
                (bot_id, update_id),
            )
        except sqlite3.Error as exc:
            raise StorageError(f"handled updates: {exc}") from exc
        return bool(rows)

    async def mark_handled(self, bot_id: int, update_id: int) -> None:
        """Mark update ``update_id`` of bot ``bot_id`` handled (durably: group-committed);
        now and then, forget the marks older than :data:`HANDLED_SECONDS`.

        Raises:
            StorageError: the mark could not be written.
        """
        if self._write is None:
            return
        now = self._clock()
        try:
            await self._write(
                "INSERT INTO handled_updates (bot_id, update_id, handled_at)"
                " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (bot_id, update_id, now),
            )
            if self._pruning.due():
                await self._write(
                    "DELETE FROM handled_updates WHERE handled_at < ?", (now - HANDLED_SECONDS,)
                )
        except sqlite3.Error as exc:
            raise StorageError(f"handled updates: {exc}") from exc

    async def register(self, chat_id: int | None, sender_id: int | None, update_id: int) -> None:
        """Nothing to register."""

    @contextlib.asynccontextmanager
    async def turn(
        self, chat_id: int | None, sender_id: int | None, update_id: int
    ) -> AsyncIterator[bool]:
        """The turn is this instance's at once.

        Yields:
            True.
        """
        yield True

    async def forget(self, chat_id: int | None, sender_id: int | None, update_id: int) -> None:
        """Nothing to forget."""

    async def close(self) -> None:
        """Nothing to close."""
