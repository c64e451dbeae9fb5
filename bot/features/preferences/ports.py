"""The storage port of users' and groups' preferences (:class:`PreferenceStore`: a user's
language and what follows their answers, a group's language); ``storage/`` implements it on
both engines."""

from __future__ import annotations

from typing import Protocol


class PreferenceStore(Protocol):
    """What the preferences keep (:mod:`bot.features.preferences.service`): users' language and
    answer flow, groups' language (the rows of users and of groups' settings).

    Every write is durable when the awaited call returns. Implementations raise
    :class:`StorageError` when a read or write could not be made.
    """

    async def user_language(self, user_id: int) -> str | None:
        """The language the user chose with /language, or None."""
        ...

    async def set_user_language(self, user_id: int, language: str) -> None:
        """Store the user's language choice (it wins over Telegram's language_code)."""
        ...

    async def answer_flow(self, user_id: int) -> str | None:
        """The user's ``/settings`` choice of what follows an answer (an
        :class:`~bot.features.preferences.flow.AnswerFlow` value), or None."""
        ...

    async def set_answer_flow(self, user_id: int, flow: str, now: float) -> None:
        """Store the user's choice of what follows an answer (their language choice stays)."""
        ...

    async def group_language(self, chat_id: int) -> str | None:
        """The group's language, or None if never set."""
        ...

    async def set_group_language(self, chat_id: int, language: str, *, by_admin: bool) -> None:
        """Set the group's language. ``by_admin`` False (the first starter's language) only
        fills in a group that has none."""
        ...
