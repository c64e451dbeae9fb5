"""The review cards' ratings on their way to the store: an answer's rating
(:func:`rating`), and the queue of ratings that one background writer writes in batches
(:class:`RatingQueue`), tried again on a storage failure; for
:class:`bot.features.learning.service.LearningService`. No Telegram, no SQL.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception_type,
    stop_after_attempt,
    wait_exponential,
)

from bot.features.learning import rules as learning
from bot.features.learning.ports import CardStore, CardUpdate
from bot.features.learning.rules import Card
from bot.kernel.ports import StorageError

log = logging.getLogger(__name__)

CARD_WRITE_ATTEMPTS = 5
"""Tries of one batch of review cards
(:meth:`bot.features.learning.service.LearningService.answered_soon`) before it is left to the
start-up rebuild (:meth:`bot.features.learning.service.LearningService.rebuild`); waits between them
grow
exponentially (:data:`CARD_WRITE_WAIT`)."""

CARD_WRITE_WAIT = (0.2, 5.0)
"""Seconds of the first wait between two tries of a batch of review cards, and of any wait at
most."""

REBUILD_BATCH = 1000
"""Ratings written together by the start-up rebuild (one transaction each on SQLite)."""


def rating(correct: bool, at: float) -> Callable[[Card], Card | None]:
    """The rating of an answer given at ``at``, for :meth:`CardStore.update_card`: None
    (nothing changes) when the card already reflects it (its last rating is at or after
    ``at``), so an answer is rated once, whoever rates it first: the queue of
    :meth:`bot.features.learning.service.LearningService.answered_soon` or the start-up rebuild
    (:meth:`bot.features.learning.service.LearningService.rebuild`, on another instance too)."""

    def rate(card: Card) -> Card | None:
        if card.last_review is not None and card.last_review >= at:
            return None
        return learning.rate(card, correct, at)

    return rate


class RatingQueue:
    """Ratings queued (:meth:`put`) and written together, in their order, by one background
    writer (:meth:`bot.features.learning.ports.CardStore.update_cards`): while the first batch is
    being written the next one gathers. A batch that fails is tried again
    (:data:`CARD_WRITE_ATTEMPTS`), then logged.

    Args:
        store: Where the cards are written.
    """

    def __init__(self, store: CardStore) -> None:
        self.store = store
        self._queued: list[CardUpdate] = []
        self._writing: list[CardUpdate] = []  # the batch being written (tried again on failure)
        self._writer: asyncio.Task[None] | None = None
        self._batch_over = asyncio.Event()  # set (and cleared) as each batch ends

    def put(self, update: CardUpdate) -> None:
        """Queue ``update``; start the writer if it is not running."""
        self._queued.append(update)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued(), name="review-cards")

    async def _write_queued(self) -> None:
        while self._queued:
            self._writing, self._queued = self._queued, []
            try:
                await self.write(self._writing)
            except StorageError:
                log.exception(
                    "could not update %d review card(s) after %d tries: they are "
                    "rated from their answers at the next start",
                    len(self._writing),
                    CARD_WRITE_ATTEMPTS,
                )
            finally:
                self._writing = []
                self._batch_over.set()  # wakes those waiting now; the next wait is new
                self._batch_over.clear()

    async def write(self, batch: list[CardUpdate]) -> None:
        """Write ``batch`` (:meth:`CardStore.update_cards`), tried again on a storage failure.
        ``batch`` is read at each try: :meth:`forget` takes a deleted user's ratings out.

        Raises:
            StorageError: the last try failed too.
        """
        retrying = AsyncRetrying(
            retry=retry_if_exception_type(StorageError),
            stop=stop_after_attempt(CARD_WRITE_ATTEMPTS),
            wait=wait_exponential(multiplier=CARD_WRITE_WAIT[0], max=CARD_WRITE_WAIT[1]),
            before_sleep=_log_retry,
            reraise=True,
        )
        async for attempt in retrying:
            with attempt:
                await self.store.update_cards(list(batch))

    async def drain(self) -> None:
        """Wait until every rating queued is written (or failed after its tries and
        logged)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    async def settled(self, user_id: int) -> None:
        """Wait until the ratings queued for ``user_id`` are written (or failed after their
        tries and logged); batches of other users' ratings queued after theirs are not waited
        for."""
        while any(u.user_id == user_id for u in (*self._writing, *self._queued)) and (
            self._writer is not None and not self._writer.done()
        ):
            await self._batch_over.wait()

    def forget(self, user_id: int) -> None:
        """Take ``user_id``'s ratings out of the queue and of the batch being written (for its
        next tries); the batch in flight is not waited for (:meth:`drain`)."""
        self._queued[:] = [u for u in self._queued if u.user_id != user_id]
        self._writing[:] = [u for u in self._writing if u.user_id != user_id]


def _log_retry(state: RetryCallState) -> None:
    error = state.outcome.exception() if state.outcome is not None else None
    log.warning(
        "could not update review cards (try %d of %d: %s): trying again in %.1f s",
        state.attempt_number,
        CARD_WRITE_ATTEMPTS,
        error,
        state.next_action.sleep if state.next_action is not None else 0.0,
    )
