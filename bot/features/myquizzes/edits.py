"""The /myquizzes prompts ("send the new question", "send the new title") waiting for the
creator's next text message: stored as prompts (:class:`~bot.kernel.ports.PromptStore`), so
that the reply may reach any instance, or come after a restart."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from bot.kernel.ports import PromptStore

EDIT_PROMPT_SECONDS = 15 * 60
"""How long a /myquizzes prompt ("send the new question") waits for the creator's message."""


@dataclass(frozen=True)
class QuizEdit:
    """What a creator was asked to send for one of their quizzes: ``action`` ``add``,
    ``replace`` (question ``number``) or ``rename``, on ``quiz_id`` at ``version``."""

    action: str
    quiz_id: str
    version: int
    number: int


class QuizEdits:
    """The /myquizzes prompts waiting for the creator's next text message, per user id, for
    :data:`EDIT_PROMPT_SECONDS`: stored (a prompt of kind ``edit``,
    :class:`~bot.kernel.ports.PromptStore`), so that the message may reach any instance, or come
    after a restart.

    Args:
        store: Where the prompts are kept.
        clock: Seconds since the epoch.
    """

    KIND = "edit"
    """The kind of prompt that holds a waiting edit."""

    def __init__(self, store: PromptStore, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def ask(self, user_id: int, edit: QuizEdit) -> None:
        """Wait for ``user_id``'s next text message for ``edit`` (replacing an older prompt).

        Raises:
            StorageError: it could not be stored (the creator is not asked).
        """
        payload = f"{edit.action}:{edit.quiz_id}:{edit.version}:{edit.number}"
        await self._store.set_prompt(user_id, self.KIND, payload, self._clock())

    async def waiting(self, user_id: int) -> QuizEdit | None:
        """The prompt ``user_id`` is answering, if any (asked within
        :data:`EDIT_PROMPT_SECONDS`).

        Raises:
            StorageError: the prompts could not be read.
        """
        payload = await self._store.prompt(
            user_id, self.KIND, since=self._clock() - EDIT_PROMPT_SECONDS
        )
        if payload is None:
            return None
        action, quiz_id, version, number = payload.split(":")
        return QuizEdit(action, quiz_id, int(version), int(number))

    async def done(self, user_id: int) -> None:
        """Stop waiting for ``user_id``.

        Raises:
            StorageError: the prompt could not be dropped.
        """
        await self._store.drop_prompt(user_id, self.KIND)


ORIGINAL_SECONDS = 24 * 60 * 60
"""How long "Keep the original" under a cleaned poll's question can put it back (a day: the
prompts older than that are pruned)."""


@dataclass(frozen=True)
class PollOriginal:
    """A forwarded poll's question as it came, before its counter and signature were taken off
    (:mod:`bot.kernel.cleaning`): question ``number`` of ``quiz_id`` at ``version``."""

    quiz_id: str
    version: int
    number: int
    text: str


class PollOriginals:
    """The last cleaned poll question of each creator, for its "Keep the original" button:
    stored (a prompt of kind ``original``, :class:`~bot.kernel.ports.PromptStore`), so that the
    tap may reach any instance, or come after a restart.

    Args:
        store: Where the prompts are kept.
        clock: Seconds since the epoch.
    """

    KIND = "original"
    """The kind of prompt that holds a cleaned question's original."""

    def __init__(self, store: PromptStore, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def keep(self, user_id: int, original: PollOriginal) -> None:
        """Remember ``original`` for ``user_id`` (replacing the one before).

        Raises:
            StorageError: it could not be stored.
        """
        payload = f"{original.quiz_id}:{original.version}:{original.number}:{original.text}"
        await self._store.set_prompt(user_id, self.KIND, payload, self._clock())

    async def find(self, user_id: int, quiz_id: str, version: int, number: int) -> str | None:
        """The original of question ``number`` of ``quiz_id`` at ``version``, if it is the one
        remembered for ``user_id`` within :data:`ORIGINAL_SECONDS`; else None.

        Raises:
            StorageError: the prompts could not be read.
        """
        payload = await self._store.prompt(
            user_id, self.KIND, since=self._clock() - ORIGINAL_SECONDS
        )
        if payload is None:
            return None
        quiz, at, place, text = payload.split(":", 3)
        return text if (quiz, int(at), int(place)) == (quiz_id, version, number) else None

    async def done(self, user_id: int) -> None:
        """Forget ``user_id``'s original.

        Raises:
            StorageError: the prompt could not be dropped.
        """
        await self._store.drop_prompt(user_id, self.KIND)
