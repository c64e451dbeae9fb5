"""Users' data: deleting what the bot keeps about one user (``/deletemydata`` in a private chat,
``quizbot delete-user ID`` for operators).

What is deleted, and what is made anonymous instead, is described in the README's "Security and
privacy" section (the bot's data policy) and in :class:`bot.features.privacy.ports.PrivacyStore`.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.features.privacy.ports import DeletedData, PrivacyStore
from bot.kernel.engine import QuizError
from bot.kernel.library import DraftStore, QuizLibrary
from bot.kernel.ports import StorageError

log = logging.getLogger(__name__)


CONFIRM_SECONDS = 15 * 60.0
"""How long the buttons of ``/deletemydata``'s question stay valid: a confirmation is fresh."""

PROMPT = "delete"
"""The kind of prompt (:class:`bot.kernel.ports.PromptStore`) that holds a user's pending nonce."""

Forget = Callable[[int], Awaitable[None]]
"""Drops what one part of the process keeps in memory about a user (caches, queues, state of
work in flight): called with the user id before their stored data is deleted, and again
after."""


class CreatedQuizzes(StrEnum):
    """What becomes of the quizzes a user made when they delete their data (chosen in
    ``/deletemydata``'s question)."""

    DELETE = "delete"
    """Deleted with every version (:meth:`bot.kernel.library.QuizLibrary.delete_quizzes_of`)."""
    KEEP = "keep"
    """Kept playable without an owner, so shown without the creator's name, and editable by
    nobody (:meth:`bot.kernel.library.QuizLibrary.release_quizzes`). The choice when none was
    made: nothing the user was not asked about is destroyed."""


@dataclass(frozen=True)
class Creations:
    """What a user made that ``/deletemydata``'s question mentions.

    Attributes:
        quizzes: Created quizzes they own (the question then asks what becomes of them).
        draft: Whether they have a quiz draft in the making (deleted with their data).
    """

    quizzes: int = 0
    draft: bool = False


QuizChanged = Callable[[str], None]
"""Told the id of each created quiz just deleted or kept without owner (a cache of created
quizzes drops what it holds of it: ``bot.kernel.registry.BankRegistry.forget``)."""


class NotConfirmed(QuizError):
    """A deletion's confirmation is not the one pending for the user (forged, replayed,
    superseded by a newer question, expired, or asked before a restart): nothing is deleted."""


class PrivacyService:
    """Deleting users' data, on a :class:`PrivacyStore`, and everywhere the process keeps it.

    ``/deletemydata`` asks first (:meth:`ask`): its question carries a one-time nonce, the only
    one that confirms (:meth:`confirm`) or cancels (:meth:`cancel`) the user's deletion, once,
    within :data:`CONFIRM_SECONDS`. The pending nonce is stored (a prompt of kind
    :data:`PROMPT`), so that the tap may reach any instance, or come after a restart; using it
    deletes it in one compare-and-delete, so it confirms once whichever instance takes it.

    Args:
        store: The storage.
        library: The created quizzes (None: none are dealt with, as before they existed).
        drafts: The drafts (None: the question mentions none; the store deletes them anyway).
        forget: What to call with a user id to drop what the process keeps about them
            (see :data:`Forget`).
        quiz_changed: What to tell the id of each created quiz deleted or kept without
            owner (see :data:`QuizChanged`).
        clock: Returns the time in seconds since the epoch.
    """

    def __init__(
        self,
        store: PrivacyStore,
        *,
        library: QuizLibrary | None = None,
        drafts: DraftStore | None = None,
        forget: Sequence[Forget] = (),
        quiz_changed: Sequence[QuizChanged] = (),
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._library = library
        self._drafts = drafts
        self._forget = tuple(forget)
        self._quiz_changed = tuple(quiz_changed)
        self._clock = clock

    async def creations(self, user_id: int) -> Creations:
        """What the user made, for the question (:class:`Creations`).

        Raises:
            StorageError: it cannot be read.
        """
        quizzes = await self._library.count_quizzes(user_id) if self._library else 0
        draft = self._drafts is not None and await self._drafts.draft(user_id) is not None
        return Creations(quizzes, draft)

    async def ask(self, user_id: int) -> str:
        """A new nonce for the buttons of the user's deletion question, stored; any earlier
        question of theirs no longer confirms anything.

        Raises:
            StorageError: it could not be stored (the question is not asked).
        """
        nonce = secrets.token_hex(8)
        await self._store.set_prompt(user_id, PROMPT, nonce, self._clock())
        return nonce

    async def _take(self, user_id: int, nonce: str) -> bool:
        return await self._store.take_prompt(
            user_id, PROMPT, nonce, since=self._clock() - CONFIRM_SECONDS
        )

    async def cancel(self, user_id: int, nonce: str) -> bool:
        """The user kept their data: ``nonce`` confirms nothing any more. Whether it was the
        pending one.

        Raises:
            StorageError: the nonce could not be used up.
        """
        return await self._take(user_id, nonce)

    async def confirm(
        self, user_id: int, nonce: str, quizzes: CreatedQuizzes = CreatedQuizzes.KEEP
    ) -> DeletedData:
        """The user confirmed with ``nonce``: delete their data (:meth:`delete_user`), and
        their created quizzes as ``quizzes`` says. The nonce is used up, whatever happens
        next.

        Raises:
            NotConfirmed: ``nonce`` is not the user's pending one, or it expired.
            StorageError: the deletion failed (the user asks again; see :meth:`delete_user`).
        """
        if not await self._take(user_id, nonce):
            raise NotConfirmed(user_id)
        return await self.delete_user(user_id, quizzes)

    async def delete_user(
        self, user_id: int, quizzes: CreatedQuizzes = CreatedQuizzes.KEEP
    ) -> DeletedData:
        """Delete the data of ``user_id``: what the process keeps about them (the ``forget``
        callbacks); their created quizzes, deleted or kept
        without owner as ``quizzes`` says (each one's id told to ``quiz_changed``);
        then what is stored (see :meth:`PrivacyStore.delete_user`, their draft and prompts
        included),
        then in memory again (what a tap in flight kept meanwhile); then checkpoint
        (:meth:`PrivacyStore.checkpoint`). Durable when it returns. Logged with counts only; a
        failure after the deletion (of the second forgetting, or of the checkpoint) is
        logged, not raised.

        Raises:
            ValueError: ``user_id`` is not a positive Telegram user id.
            StorageError: nothing was deleted, or only the created quizzes were dealt with
                (each step is one durable write: asking again finishes it).
        """
        if user_id <= 0:
            raise ValueError(f"not a Telegram user id: {user_id}")
        for forget in self._forget:
            await forget(user_id)
        made = await self._settle_quizzes(user_id, quizzes)
        deleted = replace(await self._store.delete_user(user_id), **made)
        log.info("deleted the data of user %s: %s", user_id, deleted)
        try:  # deleted already: what fails now is logged, not told as "nothing was deleted"
            for forget in self._forget:
                await forget(user_id)
            if not await self._store.checkpoint():
                log.warning(
                    "the write-ahead log still holds deleted rows: another connection "
                    "reads the database; it is emptied at the next checkpoint"
                )
        except StorageError:
            log.exception(
                "user %s: deleted, but then forgetting them in memory again or "
                "emptying the write-ahead log failed (the next checkpoint empties "
                "it)",
                user_id,
            )
        return deleted

    async def _settle_quizzes(self, user_id: int, quizzes: CreatedQuizzes) -> dict[str, int]:
        """Delete the user's created quizzes, or keep them without owner; the counts, as
        :class:`DeletedData` fields."""
        if self._library is None:
            return {}
        ids = [quiz.id for quiz in await self._library.quizzes_of(user_id)]
        if quizzes is CreatedQuizzes.KEEP:
            made = {"quizzes_kept": await self._library.release_quizzes(user_id)}
        else:
            made = {"quizzes_deleted": await self._library.delete_quizzes_of(user_id)}
        for quiz_id in ids:
            for changed in self._quiz_changed:
                changed(quiz_id)
        return made
