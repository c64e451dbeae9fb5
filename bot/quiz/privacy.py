"""Users' data: deleting what the bot keeps about one user (``/deletemydata`` in a private chat,
``quizbot delete-user ID`` for operators).

What is deleted, and what is made anonymous instead, is described in the README's "Security and
privacy" section (the bot's data policy) and in :class:`bot.quiz.ports.PrivacyStore`.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence

from bot.quiz.ports import DeletedData, PrivacyStore, StorageError

log = logging.getLogger(__name__)

DELETED_NAME = ""
"""The name a deleted user has on the leaderboards of group sessions (shown as "deleted user")."""

CONFIRM_SECONDS = 15 * 60.0
"""How long the buttons of ``/deletemydata``'s question stay valid: a confirmation is fresh."""

PENDING_LIMIT = 10_000
"""Pending confirmations kept at most; beyond, the expired ones are dropped."""

Forget = Callable[[int], Awaitable[None]]
"""Drops what one part of the process keeps in memory about a user (caches, queues, state of
work in flight): called with the user id before their stored data is deleted, and again
after."""


def is_deleted(user_id: int) -> bool:
    """Whether ``user_id`` is the pseudonym of a deleted user in a group session (Telegram user
    ids are positive; pseudonyms are negative)."""
    return user_id < 0


def pseudonyms(lowest: int | None, sessions: Iterable[int]) -> dict[int, int]:
    """The pseudonym a deleted user takes in each group session they played: a new one per
    session (nothing links them), each below every id already among the sessions' players.

    Args:
        lowest: The lowest user id among all group sessions' players (earlier pseudonyms are
            negative), or None when there are none.
        sessions: The ids of the sessions the user played in.

    Returns:
        Session id to pseudonym (negative: :func:`is_deleted` is true of it).
    """
    start = min(lowest or 0, 0)
    return {session_id: start - n for n, session_id in enumerate(sessions, start=1)}


class NotConfirmed(Exception):
    """A deletion's confirmation is not the one pending for the user (forged, replayed,
    superseded by a newer question, expired, or asked before a restart): nothing is deleted."""


class PrivacyService:
    """Deleting users' data, on a :class:`PrivacyStore`, and everywhere the process keeps it.

    ``/deletemydata`` asks first (:meth:`ask`): its question carries a one-time nonce, the only
    one that confirms (:meth:`confirm`) or cancels (:meth:`cancel`) the user's deletion, once,
    within :data:`CONFIRM_SECONDS`. The pending nonces are kept in memory only: a restart
    forgets them, so it can never make a used or old one valid again (a question asked
    before it is refused: the user asks again).

    Args:
        store: The storage.
        forget: What to call with a user id to drop what the process keeps about them
            (see :data:`Forget`).
        clock: Returns the time in seconds since the epoch.
    """

    def __init__(self, store: PrivacyStore, *, forget: Sequence[Forget] = (),
                 clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._forget = tuple(forget)
        self._clock = clock
        self._pending: dict[int, tuple[str, float]] = {}  # user id -> (nonce, issued at)

    def ask(self, user_id: int) -> str:
        """A new nonce for the buttons of the user's deletion question; any earlier question
        of theirs no longer confirms anything."""
        now = self._clock()
        if len(self._pending) >= PENDING_LIMIT:
            self._pending = {user: pending for user, pending in self._pending.items()
                             if now - pending[1] <= CONFIRM_SECONDS}
        nonce = secrets.token_hex(8)
        self._pending[user_id] = (nonce, now)
        return nonce

    def _take(self, user_id: int, nonce: str) -> bool:
        pending = self._pending.get(user_id)
        if pending is None or not secrets.compare_digest(pending[0], nonce):
            return False
        del self._pending[user_id]
        return self._clock() - pending[1] <= CONFIRM_SECONDS

    def cancel(self, user_id: int, nonce: str) -> bool:
        """The user kept their data: ``nonce`` confirms nothing any more. Whether it was the
        pending one."""
        return self._take(user_id, nonce)

    async def confirm(self, user_id: int, nonce: str) -> DeletedData:
        """The user confirmed with ``nonce``: delete their data (:meth:`delete_user`). The
        nonce is used up, whatever happens next.

        Raises:
            NotConfirmed: ``nonce`` is not the user's pending one, or it expired.
            StorageError: nothing was deleted (the user asks again).
        """
        if not self._take(user_id, nonce):
            raise NotConfirmed(user_id)
        return await self.delete_user(user_id)

    async def delete_user(self, user_id: int) -> DeletedData:
        """Delete the data of ``user_id``: what the process keeps about them (the ``forget``
        callbacks, and their pending confirmation), then what is stored (see
        :meth:`PrivacyStore.delete_user`), then in memory again (what a tap in flight kept
        meanwhile); then checkpoint (:meth:`PrivacyStore.checkpoint`). Durable when it
        returns. Logged with counts only; a failure after the deletion (of the second
        forgetting, or of the checkpoint) is logged, not raised.

        Raises:
            ValueError: ``user_id`` is not a positive Telegram user id.
            StorageError: nothing was deleted.
        """
        if user_id <= 0:
            raise ValueError(f"not a Telegram user id: {user_id}")
        self._pending.pop(user_id, None)
        for forget in self._forget:
            await forget(user_id)
        deleted = await self._store.delete_user(user_id)
        log.info("deleted the data of user %s: %s", user_id, deleted)
        try:  # deleted already: what fails now is logged, not told as "nothing was deleted"
            for forget in self._forget:
                await forget(user_id)
            if not await self._store.checkpoint():
                log.warning("the write-ahead log still holds deleted rows: another connection "
                            "reads the database; it is emptied at the next checkpoint")
        except StorageError:
            log.exception("user %s: deleted, but then forgetting them in memory again or "
                          "emptying the write-ahead log failed (the next checkpoint empties "
                          "it)", user_id)
        return deleted
