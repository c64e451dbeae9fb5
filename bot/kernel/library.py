"""Quizzes made by users in Telegram (created quizzes): the records and the storage ports.

A created quiz is a bank like those in ``banks/``, owned by its creator's Telegram user id and
stored in the database, one immutable version per edit: attempts and group sessions planned on
an older version finish on it. A version is stored as its bank document (the YAML of
``banks/README.md``), so that what a creator exports, what the operator takes down and what the
bot plays are the same text, checked by the same rules as ``quizbot validate --strict``.

Operator banks (the files of ``banks/``) are "featured": read-only, never in this library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class Visibility(StrEnum):
    """Who finds a created quiz, as stored (``quizzes.visibility``)."""

    LINK = "link"
    """Playable by whoever has its deep link; not in inline search (the default)."""
    PUBLIC = "public"
    """Also offered to everyone in inline search."""


class QuizIdTaken(Exception):
    """A created quiz with this id exists already (:meth:`QuizLibrary.create_quiz`)."""


@dataclass(frozen=True)
class QuizRecord:
    """One created quiz: what lists, search and ownership checks need, without its questions.

    Attributes:
        id: The quiz's bank id (``bot.kernel.bank.ID_PATTERN``), also its deep-link payload.
        owner_id: The creator's Telegram user id; None once the creator deleted their data
            and chose to keep their quizzes (shown under a pseudonym).
        version: The latest version (1 for a new quiz).
        title: The title in the quiz's default language.
        language: The quiz's default language (its creator's language when made in Telegram).
        questions: How many questions the latest version has.
        visibility: Who finds it.
        disabled: Taken down by the operator (``quizbot banks disable``): not playable, not
            listed, not searchable; its owner still sees it in /myquizzes, marked.
        created_at: Seconds since the epoch.
        updated_at: Seconds since the epoch, of the latest version or setting change.
    """

    id: str
    owner_id: int | None
    version: int
    title: str
    language: str
    questions: int
    visibility: Visibility
    disabled: bool
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class QuizVersion:
    """One stored version of a created quiz.

    Attributes:
        quiz_id: The quiz's id.
        version: Its version number (1, 2, ...).
        document: The bank document (YAML text, ``banks/README.md``); its ``id`` and
            ``version`` fields agree with ``quiz_id`` and ``version``.
        created_at: Seconds since the epoch.
    """

    quiz_id: str
    version: int
    document: str
    created_at: float


@dataclass(frozen=True)
class QuizSummary:
    """What a new version says about itself, stored beside its document for lists and search.

    Attributes:
        title: The title in the default language.
        language: The default language.
        questions: Number of questions.
    """

    title: str
    language: str
    questions: int


class QuizLibrary(Protocol):
    """Storage of created quizzes (``storage/`` implements it on SQLite and PostgreSQL)."""

    async def create_quiz(
        self,
        quiz_id: str,
        owner_id: int,
        document: str,
        summary: QuizSummary,
        *,
        visibility: Visibility,
        now: float,
    ) -> QuizRecord:
        """Store a new quiz with ``document`` as its version 1.

        Raises:
            QuizIdTaken: a quiz with ``quiz_id`` exists (the caller picks another id).
        """
        ...

    async def add_version(
        self, quiz_id: str, document: str, summary: QuizSummary, *, now: float
    ) -> QuizRecord | None:
        """Store ``document`` as the quiz's next version (its ``version`` field must be the
        latest + 1); older versions are kept. None if there is no such quiz, or the latest
        version moved on meanwhile (a concurrent edit: the caller reads and tries again)."""
        ...

    async def quiz(self, quiz_id: str) -> QuizRecord | None:
        """The quiz with ``quiz_id``, disabled or not; None if there is none."""
        ...

    async def quiz_version(self, quiz_id: str, version: int | None = None) -> QuizVersion | None:
        """One version of a quiz (the latest when ``version`` is None); None if not stored."""
        ...

    async def quizzes_of(self, owner_id: int) -> list[QuizRecord]:
        """The owner's quizzes, most recently updated first."""
        ...

    async def count_quizzes(self, owner_id: int) -> int:
        """How many quizzes the owner has (for the per-creator limit)."""
        ...

    async def search_quizzes(self, query: str, *, limit: int) -> list[QuizRecord]:
        """Public, enabled quizzes whose title contains ``query`` (case-insensitive; every
        public quiz for an empty query), most recently updated first, at most ``limit``."""
        ...

    async def all_quizzes(self) -> list[QuizRecord]:
        """Every created quiz, for the operator (``quizbot banks list``), newest first."""
        ...

    async def set_visibility(self, quiz_id: str, visibility: Visibility, *, now: float) -> bool:
        """Change who finds the quiz; False if there is no such quiz."""
        ...

    async def set_disabled(self, quiz_id: str, disabled: bool, *, now: float) -> bool:
        """Take the quiz down (or put it back); False if there is no such quiz."""
        ...

    async def delete_quiz(self, quiz_id: str) -> bool:
        """Delete the quiz and all its versions; False if there was none. Answers and attempts
        on it stay, as for a bank file removed from ``banks/``."""
        ...

    async def release_quizzes(self, owner_id: int) -> int:
        """Keep the owner's quizzes without an owner (their creator deleted their data and
        chose to keep them); returns how many."""
        ...

    async def delete_quizzes_of(self, owner_id: int) -> int:
        """Delete the owner's quizzes and their versions; returns how many."""
        ...


@dataclass(frozen=True)
class StoredDraft:
    """A creator's quiz in the making, as stored (one per user).

    Attributes:
        user_id: The creator.
        data: The draft as JSON-compatible data (its shape belongs to
            ``bot.features.newquiz.draft``).
        updated_at: Seconds since the epoch of its last change (drafts left longer than a
            week are dropped).
    """

    user_id: int
    data: Mapping[str, object]
    updated_at: float


class DraftStore(Protocol):
    """Storage of drafts: a draft survives a restart."""

    async def draft(self, user_id: int) -> StoredDraft | None:
        """The user's draft, or None."""
        ...

    async def save_draft(self, user_id: int, data: Mapping[str, object], *, now: float) -> None:
        """Store (or replace) the user's draft."""
        ...

    async def drop_draft(self, user_id: int) -> bool:
        """Delete the user's draft; False if there was none."""
        ...

    async def drop_drafts(self, *, before: float) -> int:
        """Delete drafts last changed before ``before``; returns how many."""
        ...
