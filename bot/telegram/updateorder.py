"""The port through which the update processor keeps each (chat, sender)'s updates in order
across instances (:mod:`bot.telegram.ordering`; the store implements it: :mod:`storage.order`)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol


class UpdateOrder(Protocol):
    """The order of each (chat, sender)'s updates across the instances sharing the storage:
    :class:`storage.order.PostgresUpdateOrder`, or :class:`storage.order_local.LocalUpdateOrder`
    (one instance: it does nothing)."""

    async def register(self, chat_id: int | None, sender_id: int | None, update_id: int) -> None:
        """Record that the update reached this instance (before Telegram is answered).

        Raises:
            StorageError: not recorded (the update must not be acknowledged).
        """

    def turn(
        self, chat_id: int | None, sender_id: int | None, update_id: int
    ) -> AbstractAsyncContextManager[bool]:
        """Wait (bounded) for the update's turn among its key's updates on every instance;
        hold it inside the block, which gets True, or False when it could not be had (the
        update is handled anyway). Never raises for a storage failure."""
        ...

    async def forget(self, chat_id: int | None, sender_id: int | None, update_id: int) -> None:
        """Unregister an update that will not be handled. Never raises."""

    async def handled(self, bot_id: int, update_id: int) -> bool:
        """Whether update ``update_id`` of bot ``bot_id`` was handled already (by any
        instance, before a restart too).

        Raises:
            StorageError: the store could not be read.
        """
        ...

    async def mark_handled(self, bot_id: int, update_id: int) -> None:
        """Mark update ``update_id`` of bot ``bot_id`` handled.

        Raises:
            StorageError: the mark could not be written.
        """


class HandledUpdates(Protocol):
    """The updates marked as handled, in the storage (polling: :mod:`bot.telegram.polling`;
    :class:`storage.handled.HandledMarks` keeps them, on either engine)."""

    async def handled(self, bot_id: int, update_id: int) -> bool:
        """Whether update ``update_id`` of bot ``bot_id`` was marked handled.

        Raises:
            StorageError: the store could not be read.
        """
        ...

    async def mark_many(self, bot_id: int, update_ids: Sequence[int]) -> None:
        """Mark updates ``update_ids`` of bot ``bot_id`` handled, in one write.

        Raises:
            StorageError: the marks could not be written.
        """

    async def last_handled(self, bot_id: int) -> int | None:
        """The highest ``update_id`` of bot ``bot_id`` marked handled; None: none is.

        Raises:
            StorageError: the store could not be read.
        """
        ...
