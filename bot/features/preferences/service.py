"""Users' and groups' preferences: the language a user chose with /language, what follows their
answers in a private quiz (their ``/settings`` choice, :mod:`bot.features.preferences.flow`), and a
group's language (an admin's choice).

A user's choices are cached in memory after the first read (both are read on every tap); the
cache drops a user when their data is deleted (:meth:`PreferencesService.forget`) and when
another instance changed them (:meth:`PreferencesService.changed_elsewhere`, told by the
store's news of changes). A group's language is read from storage each time, as before.
No Telegram, no SQL.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from cachetools import LRUCache

from bot.features.preferences.flow import AnswerFlow, flow_of
from bot.features.preferences.ports import PreferenceStore


class PreferencesService:
    """The users' and groups' choices of language and answer flow.

    Args:
        store: Where the choices are kept
            (:class:`~bot.features.preferences.ports.PreferenceStore`).
        clock: Returns the time in seconds since the epoch (when an answer flow was chosen).
        cache_size: How many users' language choices, and how many users' answer flows, to
            keep in memory (least recently used go first): the caches stay bounded however
            many users ever wrote.
    """

    def __init__(
        self,
        store: PreferenceStore,
        *,
        clock: Callable[[], float] = time.time,
        cache_size: int = 50_000,
    ) -> None:
        self.store = store
        self._clock = clock
        self._languages: LRUCache[int, str | None] = LRUCache(cache_size)
        self._flows: LRUCache[int, AnswerFlow] = LRUCache(cache_size)

    @property
    def cached(self) -> dict[str, int]:
        """Entries per in-memory cache (for tests and benchmarks)."""
        return {"languages": len(self._languages), "flows": len(self._flows)}

    async def chosen_language(self, user_id: int) -> str | None:
        """The language the user chose with /language (cached after the first read), or None.

        Raises:
            StorageError: it could not be read.
        """
        if user_id in self._languages:
            return self._languages[user_id]  # now the most recently used
        language = await self.store.user_language(user_id)
        self._languages[user_id] = language
        return language

    async def choose_language(self, user_id: int, language: str) -> None:
        """Store the user's language choice.

        Raises:
            StorageError: it could not be stored (the choice is unchanged).
        """
        await self.store.set_user_language(user_id, language)
        self._languages[user_id] = language

    async def answer_flow(self, user_id: int) -> AnswerFlow:
        """What follows the user's answers (their ``/settings`` choice, else the default:
        :mod:`bot.features.preferences.flow`); cached after the first read.

        Raises:
            StorageError: it could not be read.
        """
        if user_id in self._flows:
            return self._flows[user_id]
        flow = self._flows[user_id] = flow_of(await self.store.answer_flow(user_id))
        return flow

    async def choose_answer_flow(self, user_id: int, flow: AnswerFlow) -> None:
        """Store the user's choice of what follows an answer.

        Raises:
            StorageError: it could not be stored (the choice is unchanged).
        """
        await self.store.set_answer_flow(user_id, flow.value, self._clock())
        self._flows[user_id] = flow

    async def group_language(self, chat_id: int) -> str | None:
        """The group's language, if set (read from storage each time).

        Raises:
            StorageError: it could not be read.
        """
        return await self.store.group_language(chat_id)

    async def set_group_language(self, chat_id: int, language: str) -> None:
        """Set the group's language (an admin's choice).

        Raises:
            StorageError: it could not be stored.
        """
        await self.store.set_group_language(chat_id, language, by_admin=True)

    async def forget(self, user_id: int) -> None:
        """Drop the user's cached choices (their data is being deleted): they are read again,
        from a storage that has none."""
        self._languages.pop(user_id, None)
        self._flows.pop(user_id, None)

    def changed_elsewhere(self, user_id: int | None) -> None:
        """Another instance changed ``user_id``'s choices (or deleted their data): drop them,
        so that they are read again. None: anyone's may have changed (news of changes may have
        been missed): drop every user's."""
        if user_id is None:
            self._languages.clear()
            self._flows.clear()
            return
        self._languages.pop(user_id, None)
        self._flows.pop(user_id, None)
