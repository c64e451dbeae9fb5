"""Statements of created quizzes and drafts (:class:`bot.kernel.library.QuizLibrary`,
:class:`bot.kernel.library.DraftStore`), the same in both dialects: written once, mixed into
:class:`storage.sqlite.SQLiteStore` and :class:`storage.postgres.store.PostgresStore` after
their writers, which run them (see :mod:`storage.shared`: ``?`` placeholders, numbered for
PostgreSQL).

A quiz is a row of ``quizzes`` (what lists and search need) and one row of ``quiz_versions``
per version (its bank document); a new version is stored by a compare-and-set on the quiz's
latest version, so that of two concurrent edits of one version one is stored and the other is
told to read again. Search matches the casefolded title (``title_key``), so that it is
case-insensitive in every script (Greek, Cyrillic, Latin; Python's ``str.casefold``), and walks
the partial index of public, enabled quizzes in order, stopping at its limit.

Writes go through the engine's group commit; a write that must refuse (an id taken) returns
what it found from inside the transaction and raises outside it, so that nothing else of its
batch is failed with it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import yaml

from bot.kernel.library import (
    QuizIdTaken,
    QuizRecord,
    QuizSummary,
    QuizVersion,
    StoredDraft,
    Visibility,
)
from storage.rows import Row
from storage.shared import Statements, Transaction

QUIZ_COLUMNS = (
    "id, owner_id, version, title, language, questions, visibility, disabled,"
    " created_at, updated_at"
)
"""The columns of ``quizzes`` that :func:`quiz_of` decodes, in its order."""

_LIKE_ESCAPE = "\\"
"""The escape character of the search's LIKE pattern (``ESCAPE '\\'`` in both dialects)."""

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def quiz_of(row: Row) -> QuizRecord:
    """The quiz of a row of :data:`QUIZ_COLUMNS`."""
    return QuizRecord(
        id=row[0],
        owner_id=row[1],
        version=row[2],
        title=row[3],
        language=row[4],
        questions=row[5],
        visibility=Visibility(row[6]),
        disabled=bool(row[7]),
        created_at=row[8],
        updated_at=row[9],
    )


def title_key(text: str) -> str:
    """``text`` as the search compares it: casefolded (``"ΜΆΘΗΜΑ"`` and ``"μάθημα"`` agree)."""
    return text.casefold()


def contains_pattern(query: str) -> str:
    """A LIKE pattern matching every casefolded title that contains ``query``: its ``%`` and
    ``_`` (and the escape character) match themselves."""
    escaped = "".join(_LIKE_ESCAPE + c if c in "%_" + _LIKE_ESCAPE else c for c in title_key(query))
    return f"%{escaped}%"


def document_header(document: str) -> tuple[object, object]:
    """The top-level ``id`` and ``version`` of a bank document (None where absent).

    Raises:
        ValueError: the document is not YAML, or not a mapping at its top.
    """
    try:
        root = yaml.load(document, Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise ValueError(f"not a bank document: {exc}") from exc
    if not isinstance(root, dict):
        raise ValueError("not a bank document: its top is not a mapping")
    return root.get("id"), root.get("version")


def _checked(quiz_id: str, document: str) -> int:
    """The ``version`` of ``document``, checked to be the document of ``quiz_id``.

    Raises:
        ValueError: its ``id`` is not ``quiz_id``, or its ``version`` is not a positive
            integer (the caller's mistake: nothing is stored).
    """
    found_id, version = document_header(document)
    if found_id != quiz_id:
        raise ValueError(f"the document's id is {found_id!r}, not {quiz_id!r}")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError(f"the document's version must be a positive integer: {version!r}")
    return version


class LibraryStatements(Statements):
    """The :class:`~bot.kernel.library.QuizLibrary` and :class:`~bot.kernel.library.DraftStore`
    methods."""

    # --- quizzes -------------------------------------------------------------------------

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
        """See :meth:`bot.kernel.library.QuizLibrary.create_quiz`.

        Raises:
            QuizIdTaken: a quiz with ``quiz_id`` exists.
            ValueError: ``document`` is not the version 1 of a bank with id ``quiz_id``.
        """
        if (version := _checked(quiz_id, document)) != 1:
            raise ValueError(f"a new quiz is its version 1, not {version}")

        async def op(db: Transaction) -> QuizRecord | None:
            rows = await db.fetch(
                f"INSERT INTO quizzes ({QUIZ_COLUMNS}, title_key)"
                " VALUES (?, ?, 1, ?, ?, ?, ?, 0, ?, ?, ?)"
                f" ON CONFLICT (id) DO NOTHING RETURNING {QUIZ_COLUMNS}",
                (
                    quiz_id,
                    owner_id,
                    summary.title,
                    summary.language,
                    summary.questions,
                    str(visibility),
                    now,
                    now,
                    title_key(summary.title),
                ),
            )
            if not rows:
                return None  # taken: raised outside the batch's transaction
            await db.execute(
                "INSERT INTO quiz_versions (quiz_id, version, document, created_at)"
                " VALUES (?, 1, ?, ?)",
                (quiz_id, document, now),
            )
            return quiz_of(rows[0])

        created = await self._transaction(op)
        if created is None:
            raise QuizIdTaken(quiz_id)
        return created

    async def add_version(
        self, quiz_id: str, document: str, summary: QuizSummary, *, now: float
    ) -> QuizRecord | None:
        """See :meth:`bot.kernel.library.QuizLibrary.add_version`. One compare-and-set: the
        quiz moves to the document's version only from the one before it (in PostgreSQL's
        READ COMMITTED a concurrent edit waits for the row, then finds it moved on).

        Raises:
            ValueError: ``document``'s id is not ``quiz_id`` or it has no valid version.
        """
        version = _checked(quiz_id, document)

        async def op(db: Transaction) -> QuizRecord | None:
            rows = await db.fetch(
                "UPDATE quizzes SET version = ?, title = ?, title_key = ?, language = ?,"
                " questions = ?, updated_at = ? WHERE id = ? AND version = ?"
                f" RETURNING {QUIZ_COLUMNS}",
                (
                    version,
                    summary.title,
                    title_key(summary.title),
                    summary.language,
                    summary.questions,
                    now,
                    quiz_id,
                    version - 1,
                ),
            )
            if not rows:
                return None
            await db.execute(
                "INSERT INTO quiz_versions (quiz_id, version, document, created_at)"
                " VALUES (?, ?, ?, ?)",
                (quiz_id, version, document, now),
            )
            return quiz_of(rows[0])

        return await self._transaction(op)

    async def quiz(self, quiz_id: str) -> QuizRecord | None:
        """See :meth:`bot.kernel.library.QuizLibrary.quiz`."""
        rows = await self._read(f"SELECT {QUIZ_COLUMNS} FROM quizzes WHERE id = ?", (quiz_id,))
        return quiz_of(rows[0]) if rows else None

    async def quiz_version(self, quiz_id: str, version: int | None = None) -> QuizVersion | None:
        """See :meth:`bot.kernel.library.QuizLibrary.quiz_version`."""
        if version is None:
            rows = await self._read(
                "SELECT quiz_id, version, document, created_at FROM quiz_versions"
                " WHERE quiz_id = ? ORDER BY version DESC LIMIT 1",
                (quiz_id,),
            )
        else:
            rows = await self._read(
                "SELECT quiz_id, version, document, created_at FROM quiz_versions"
                " WHERE quiz_id = ? AND version = ?",
                (quiz_id, version),
            )
        return QuizVersion(rows[0][0], rows[0][1], rows[0][2], rows[0][3]) if rows else None

    async def quizzes_of(self, owner_id: int) -> list[QuizRecord]:
        """See :meth:`bot.kernel.library.QuizLibrary.quizzes_of`."""
        return [
            quiz_of(row)
            for row in await self._read(
                f"SELECT {QUIZ_COLUMNS} FROM quizzes WHERE owner_id = ?"
                " ORDER BY updated_at DESC, id DESC",
                (owner_id,),
            )
        ]

    async def count_quizzes(self, owner_id: int) -> int:
        """See :meth:`bot.kernel.library.QuizLibrary.count_quizzes`."""
        rows = await self._read("SELECT COUNT(*) FROM quizzes WHERE owner_id = ?", (owner_id,))
        return int(rows[0][0])

    async def search_quizzes(self, query: str, *, limit: int) -> list[QuizRecord]:
        """See :meth:`bot.kernel.library.QuizLibrary.search_quizzes` (the index
        ``quizzes_public``, walked newest first)."""
        if limit <= 0:
            return []
        return [
            quiz_of(row)
            for row in await self._read(
                f"SELECT {QUIZ_COLUMNS} FROM quizzes"
                " WHERE visibility = 'public' AND disabled = 0"
                f" AND title_key LIKE ? ESCAPE '{_LIKE_ESCAPE}'"
                " ORDER BY updated_at DESC, id DESC LIMIT ?",
                (contains_pattern(query), limit),
            )
        ]

    async def all_quizzes(self) -> list[QuizRecord]:
        """See :meth:`bot.kernel.library.QuizLibrary.all_quizzes`."""
        return [
            quiz_of(row)
            for row in await self._read(
                f"SELECT {QUIZ_COLUMNS} FROM quizzes ORDER BY created_at DESC, id DESC"
            )
        ]

    async def set_visibility(self, quiz_id: str, visibility: Visibility, *, now: float) -> bool:
        """See :meth:`bot.kernel.library.QuizLibrary.set_visibility`."""
        return (
            await self._write(
                "UPDATE quizzes SET visibility = ?, updated_at = ? WHERE id = ?",
                (str(visibility), now, quiz_id),
            )
            == 1
        )

    async def set_disabled(self, quiz_id: str, disabled: bool, *, now: float) -> bool:
        """See :meth:`bot.kernel.library.QuizLibrary.set_disabled`."""
        return (
            await self._write(
                "UPDATE quizzes SET disabled = ?, updated_at = ? WHERE id = ?",
                (int(disabled), now, quiz_id),
            )
            == 1
        )

    async def delete_quiz(self, quiz_id: str) -> bool:
        """See :meth:`bot.kernel.library.QuizLibrary.delete_quiz` (the versions first, then the
        quiz, in one transaction)."""

        async def op(db: Transaction) -> bool:
            await db.execute("DELETE FROM quiz_versions WHERE quiz_id = ?", (quiz_id,))
            return await db.execute("DELETE FROM quizzes WHERE id = ?", (quiz_id,)) == 1

        return await self._transaction(op)

    async def release_quizzes(self, owner_id: int) -> int:
        """See :meth:`bot.kernel.library.QuizLibrary.release_quizzes`."""
        return await self._write(
            "UPDATE quizzes SET owner_id = NULL WHERE owner_id = ?", (owner_id,)
        )

    async def delete_quizzes_of(self, owner_id: int) -> int:
        """See :meth:`bot.kernel.library.QuizLibrary.delete_quizzes_of` (one transaction)."""

        async def op(db: Transaction) -> int:
            await db.execute(
                "DELETE FROM quiz_versions WHERE quiz_id IN"
                " (SELECT id FROM quizzes WHERE owner_id = ?)",
                (owner_id,),
            )
            return await db.execute("DELETE FROM quizzes WHERE owner_id = ?", (owner_id,))

        return await self._transaction(op)

    # --- drafts --------------------------------------------------------------------------

    async def draft(self, user_id: int) -> StoredDraft | None:
        """See :meth:`bot.kernel.library.DraftStore.draft`."""
        rows = await self._read("SELECT data, updated_at FROM drafts WHERE user_id = ?", (user_id,))
        return StoredDraft(user_id, json.loads(rows[0][0]), rows[0][1]) if rows else None

    async def save_draft(self, user_id: int, data: Mapping[str, object], *, now: float) -> None:
        """See :meth:`bot.kernel.library.DraftStore.save_draft`.

        Raises:
            TypeError: ``data`` is not JSON-compatible (nothing is stored).
        """
        await self._write(
            "INSERT INTO drafts (user_id, data, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET data = excluded.data,"
            " updated_at = excluded.updated_at",
            (user_id, json.dumps(dict(data), ensure_ascii=False), now),
        )

    async def drop_draft(self, user_id: int) -> bool:
        """See :meth:`bot.kernel.library.DraftStore.drop_draft`."""
        return await self._write("DELETE FROM drafts WHERE user_id = ?", (user_id,)) == 1

    async def drop_drafts(self, *, before: float) -> int:
        """See :meth:`bot.kernel.library.DraftStore.drop_drafts`."""
        return await self._write("DELETE FROM drafts WHERE updated_at < ?", (before,))
