"""Users' data: deleting what the bot keeps about one user (``/deletemydata`` in a private chat,
``quizbot delete-user ID`` for operators).

What is deleted, and what is made anonymous instead, is described in the README's "Security and
privacy" section (the bot's data policy) and in :class:`bot.quiz.ports.PrivacyStore`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from bot.quiz.ports import DeletedData, PrivacyStore

log = logging.getLogger(__name__)

DELETED_NAME = ""
"""The name a deleted user has on the leaderboards of group sessions (shown as "deleted user")."""


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


class PrivacyService:
    """Deleting users' data, on a :class:`PrivacyStore`.

    Args:
        store: The storage.
    """

    def __init__(self, store: PrivacyStore) -> None:
        self._store = store

    async def delete_user(self, user_id: int) -> DeletedData:
        """Delete the data of ``user_id`` (see :meth:`PrivacyStore.delete_user`); durable when
        it returns. Logged with counts only.

        Raises:
            ValueError: ``user_id`` is not a positive Telegram user id.
            StorageError: nothing was deleted.
        """
        if user_id <= 0:
            raise ValueError(f"not a Telegram user id: {user_id}")
        deleted = await self._store.delete_user(user_id)
        log.info("deleted the data of user %s: %s", user_id, deleted)
        return deleted
