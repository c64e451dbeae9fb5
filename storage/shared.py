"""The statements that are the same in both dialects, written once for the two stores.

:class:`SharedAttemptStatements`, :class:`SharedGroupStatements` (in
:mod:`storage.shared_groups`), :class:`SharedLearningStatements` and
:class:`SharedReportStatements` hold the methods of the ports whose statements both dialects
share; they are mixed into both engines' statement classes (:mod:`storage.attempts`,
:mod:`storage.groups` and :mod:`storage.learning` for SQLite, :mod:`storage.postgres.attempts`,
:mod:`storage.postgres.groups` and :mod:`storage.postgres.learning` for PostgreSQL), after the
engine's writer, which runs them (:class:`Statements`): one statement at a time, or several in
one transaction (:class:`Transaction`). What differs between the dialects is either a fragment
each engine names (:attr:`SharedAttemptStatements._ANSWERS`) or a method of its own (a write
that decides a duplicate and moves counts in one statement with a row lock, a JSON function, a
parameter's type).

Placeholders are SQLite's ``?``, in the order of the arguments; the PostgreSQL writer numbers
them ``$1, $2, ...`` (:func:`storage.postgres.writer.numbered`), so a ``?`` here is always a
placeholder (no string literal holds one, and no jsonb ``?`` operator is used).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from bot.features.learning.ports import Learner, ScorePoint, UnratedAnswer
from bot.features.learning.rules import Card
from bot.kernel.analysis import Response
from bot.kernel.engine import ABANDONED, ACTIVE, Attempt, Plan
from bot.kernel.ports import Pruned
from storage.rows import Row, attempt_of, chosen_of

T = TypeVar("T")

Args = tuple[object, ...]
"""A statement's arguments, one per ``?`` in order."""


class Transaction(Protocol):
    """The statements of one write of several, run in one transaction of the engine's group
    commit (``?`` placeholders, arguments in a tuple)."""

    async def execute(self, sql: str, args: Args) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def fetch(self, sql: str, args: Args) -> Sequence[Row]:
        """Run one statement (a query, or a write with a RETURNING clause); its rows."""
        ...


class Statements:
    """What the statements written once need of an engine's writer
    (:class:`storage.writer.SQLiteWriter`, :class:`storage.postgres.writer.PostgresWriter`),
    which comes before them in the store's classes: ``?`` placeholders, arguments in a tuple.
    Declared for the type checker only: the writer's methods are the ones that run."""

    if TYPE_CHECKING:

        async def _read(self, sql: str, args: Args = ()) -> Sequence[Row]:
            """Run one read statement to completion; its rows."""

        async def _write(self, sql: str, args: Args) -> int:
            """One write statement, group-committed; the number of rows it changed."""

        async def _write_returning(self, sql: str, args: Args) -> Sequence[Row]:
            """One write statement with a RETURNING clause, group-committed; the rows it
            returned."""

        async def _transaction(self, op: Callable[[Transaction], Awaitable[T]]) -> T:
            """Queue a write of several statements and wait until it is committed (durable):
            ``op`` runs them through the :class:`Transaction` it is given, in one transaction
            of the engine's group commit; what it returns is returned. As with every write, only
            its first statement may be refused by a constraint (the error is raised, nothing
            of it is stored)."""


# --- users and attempts (QuizStore) ------------------------------------------------------

ATTEMPT_COLUMNS = (
    "attempt_id, user_id, bank_id, bank_version, question_order, option_orders,"
    " position, status, started_at, ended_at"
)
"""The columns of ``attempts`` that :func:`storage.rows.attempt_of` decodes first."""


class SharedAttemptStatements(Statements):
    """The :class:`~bot.kernel.ports.QuizStore` methods whose statements are the same in
    both dialects."""

    _ANSWERS: str
    """The dialect's correlated subquery of an attempt ``a``'s answers, as the text of a JSON
    array of ``[question_id, option_index, correct, answered_at]`` (``[]`` for none)."""

    async def user_language(self, user_id: int) -> str | None:
        """See :meth:`bot.features.preferences.ports.PreferenceStore.user_language`."""
        rows = await self._read("SELECT language FROM users WHERE user_id = ?", (user_id,))
        return rows[0][0] if rows else None

    async def set_user_language(self, user_id: int, language: str) -> None:
        """See :meth:`bot.features.preferences.ports.PreferenceStore.set_user_language`."""
        await self._write(
            "INSERT INTO users (user_id, language, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET language = excluded.language,"
            " updated_at = excluded.updated_at",
            (user_id, language, time.time()),
        )

    async def answer_flow(self, user_id: int) -> str | None:
        """See :meth:`bot.features.preferences.ports.PreferenceStore.answer_flow`."""
        rows = await self._read("SELECT answer_flow FROM users WHERE user_id = ?", (user_id,))
        return rows[0][0] if rows else None

    async def set_answer_flow(self, user_id: int, flow: str, now: float) -> None:
        """See :meth:`bot.features.preferences.ports.PreferenceStore.set_answer_flow`."""
        await self._write(
            "INSERT INTO users (user_id, language, answer_flow, updated_at) VALUES (?, NULL, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET answer_flow = excluded.answer_flow,"
            " updated_at = excluded.updated_at",
            (user_id, flow, now),
        )

    async def start_attempt(
        self,
        user_id: int,
        bank_id: str,
        bank_version: int,
        plan: Plan,
        now: float,
        fingerprints: Mapping[str, str] | None = None,
        *,
        then: Callable[[Transaction, int], Awaitable[None]] | None = None,
    ) -> Attempt:
        """See :meth:`bot.kernel.ports.QuizStore.start_attempt`.

        Without ``fingerprints`` the column is left out (NULL), so that tests of upgrades can
        start attempts in a database older than migration 0005. ``then`` (given the
        transaction and the new attempt's id) writes what belongs with the attempt in the same
        transaction (an exam's terms: :meth:`storage.exams.ExamStatements.start_exam`).
        """
        values: tuple[str, ...]
        columns, values = "", ()
        if fingerprints is not None:
            fingerprints = dict(fingerprints)
            columns, values = ", fingerprints", (json.dumps(fingerprints),)

        async def op(db: Transaction) -> int:
            await db.execute(
                "UPDATE attempts SET status = ?, ended_at = ? WHERE user_id = ? AND status = ?",
                (ABANDONED, now, user_id, ACTIVE),
            )
            rows = await db.fetch(
                "INSERT INTO attempts (user_id, bank_id, bank_version, question_order,"
                f" option_orders, position, status, started_at{columns})"
                f" VALUES (?, ?, ?, ?, ?, 0, ?, ?{', ?' * len(values)}) RETURNING attempt_id",
                (
                    user_id,
                    bank_id,
                    bank_version,
                    json.dumps(plan.question_order),
                    json.dumps(plan.option_orders),
                    ACTIVE,
                    now,
                    *values,
                ),
            )
            attempt_id = int(rows[0][0])
            if then is not None:
                await then(db, attempt_id)
            return attempt_id

        attempt_id = await self._transaction(op)
        return Attempt(
            attempt_id,
            user_id,
            bank_id,
            bank_version,
            plan,
            0,
            ACTIVE,
            now,
            fingerprints=fingerprints or {},
        )

    async def attempt(self, attempt_id: int) -> Attempt | None:
        """See :meth:`bot.kernel.ports.QuizStore.attempt`."""
        return await self._load_attempt("attempt_id = ?", (attempt_id,))

    async def active_attempt(self, user_id: int) -> Attempt | None:
        """See :meth:`bot.kernel.ports.QuizStore.active_attempt`."""
        return await self._load_attempt("user_id = ? AND status = 'active'", (user_id,))

    async def _load_attempt(self, where: str, args: Args) -> Attempt | None:
        """The attempt and its answers, read by one statement (one snapshot)."""
        rows = await self._read(
            f"SELECT {ATTEMPT_COLUMNS}, {self._ANSWERS}, fingerprints"
            f" FROM attempts a WHERE {where}",
            args,
        )
        return attempt_of(rows[0]) if rows else None

    async def revise_attempt(
        self,
        attempt_id: int,
        position: int,
        plan: Plan,
        fingerprints: Mapping[str, str],
        finished_at: float | None,
    ) -> bool:
        """See :meth:`bot.kernel.ports.QuizStore.revise_attempt`."""
        # the CAST gives PostgreSQL the parameter's type (it cannot tell it from IS NULL)
        return (
            await self._write(
                "UPDATE attempts SET question_order = ?, option_orders = ?, fingerprints = ?,"
                " status = CASE WHEN CAST(? AS DOUBLE PRECISION) IS NULL THEN status"
                " ELSE 'finished' END, ended_at = COALESCE(CAST(? AS DOUBLE PRECISION), ended_at)"
                " WHERE attempt_id = ? AND status = 'active' AND position = ?",
                (
                    json.dumps(plan.question_order),
                    json.dumps(plan.option_orders),
                    json.dumps(dict(fingerprints)),
                    finished_at,
                    finished_at,
                    attempt_id,
                    position,
                ),
            )
            == 1
        )

    async def abandon(self, attempt_id: int, now: float) -> bool:
        """See :meth:`bot.kernel.ports.QuizStore.abandon`."""
        return (
            await self._write(
                "UPDATE attempts SET status = ?, ended_at = ? WHERE attempt_id = ? AND status = ?",
                (ABANDONED, now, attempt_id, ACTIVE),
            )
            == 1
        )

    async def prune(
        self, *, abandoned_before: float, names_before: float, prompts_before: float | None = None
    ) -> Pruned:
        """See :meth:`bot.kernel.ports.QuizStore.prune`."""

        async def op(db: Transaction) -> Pruned:
            old = "SELECT attempt_id FROM attempts WHERE status = 'abandoned' AND ended_at < ?"
            answers = await db.execute(
                f"DELETE FROM answers WHERE attempt_id IN ({old})", (abandoned_before,)
            )
            attempts = await db.execute(
                f"DELETE FROM attempts WHERE attempt_id IN ({old})", (abandoned_before,)
            )
            names = await db.execute(
                "UPDATE group_players SET name = '' WHERE name <> '' AND session_id IN ("
                " SELECT session_id FROM group_sessions"
                " WHERE status IN ('finished', 'stopped') AND ended_at < ?)",
                (names_before,),
            )
            if prompts_before is not None:
                await db.execute("DELETE FROM prompts WHERE asked_at < ?", (prompts_before,))
            return Pruned(attempts, answers, names)

        return await self._transaction(op)


# --- prompts (PromptStore) ----------------------------------------------------------------


class SharedPromptStatements(Statements):
    """The :class:`~bot.kernel.ports.PromptStore` methods: one statement each."""

    async def set_prompt(self, user_id: int, kind: str, payload: str, now: float) -> None:
        """See :meth:`bot.kernel.ports.PromptStore.set_prompt`."""
        await self._write(
            "INSERT INTO prompts (user_id, kind, payload, asked_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id, kind) DO UPDATE SET payload = excluded.payload,"
            " asked_at = excluded.asked_at",
            (user_id, kind, payload, now),
        )

    async def prompt(self, user_id: int, kind: str, *, since: float) -> str | None:
        """See :meth:`bot.kernel.ports.PromptStore.prompt`."""
        rows = await self._read(
            "SELECT payload FROM prompts WHERE user_id = ? AND kind = ? AND asked_at >= ?",
            (user_id, kind, since),
        )
        return str(rows[0][0]) if rows else None

    async def take_prompt(self, user_id: int, kind: str, payload: str, *, since: float) -> bool:
        """See :meth:`bot.kernel.ports.PromptStore.take_prompt`."""
        return (
            await self._write(
                "DELETE FROM prompts WHERE user_id = ? AND kind = ? AND payload = ?"
                " AND asked_at >= ?",
                (user_id, kind, payload, since),
            )
            == 1
        )

    async def drop_prompt(self, user_id: int, kind: str) -> bool:
        """See :meth:`bot.kernel.ports.PromptStore.drop_prompt`."""
        return (
            await self._write("DELETE FROM prompts WHERE user_id = ? AND kind = ?", (user_id, kind))
            == 1
        )


# --- spaced review (CardStore) and reports (ReportStore) ----------------------------------

CARD_COLUMNS = (
    "card_id, user_id, bank_id, question_id, state, step, stability, difficulty,"
    " due, last_review, reps, lapses"
)
"""The columns of ``cards``, in :class:`~bot.features.learning.rules.Card`'s order."""
MOVED_AT_ONCE = 200
"""Learners whose reminder one statement moves at most (:meth:`move_reminders`)."""

LEARNER_COLUMNS = "user_id, remind, hours, next_remind_at, last_reminded_at, blocked, language"
"""The columns of ``learners`` that :func:`learner_of` decodes."""


def card_of(row: Row) -> Card:
    """A card from its :data:`CARD_COLUMNS`."""
    return Card(*row)


def learner_of(row: Row) -> Learner:
    """A learner from its :data:`LEARNER_COLUMNS`."""
    return Learner(
        user_id=row[0],
        remind=bool(row[1]),
        hours=tuple(json.loads(row[2])),
        next_remind_at=row[3],
        last_reminded_at=row[4],
        blocked=bool(row[5]),
        language=row[6],
    )


SAVE_LEARNER = (
    "INSERT INTO learners (user_id, remind, next_remind_at, last_reminded_at, blocked,"
    " language) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
    " SET remind = excluded.remind, next_remind_at = excluded.next_remind_at,"
    " last_reminded_at = excluded.last_reminded_at, blocked = excluded.blocked,"
    " language = excluded.language"
)
"""The statement of :meth:`bot.features.learning.ports.CardStore.save_learner` (also run inside
``update_learner``'s transaction); its arguments are :func:`saved_learner`'s."""


def saved_learner(learner: Learner) -> Args:
    """The arguments of :data:`SAVE_LEARNER` for ``learner``."""
    return (
        learner.user_id,
        int(learner.remind),
        learner.next_remind_at,
        learner.last_reminded_at,
        int(learner.blocked),
        learner.language,
    )


UNRATED_ANSWERS = (
    "SELECT n.user_id, n.bank_id, n.question_id, n.correct, n.answered_at FROM ("
    " SELECT a.user_id, a.bank_id, s.question_id, s.correct, s.answered_at"
    "  FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id"
    "  WHERE a.status = 'finished' OR NOT EXISTS"
    "   (SELECT 1 FROM exam_attempts e WHERE e.attempt_id = s.attempt_id)"
    " UNION ALL"
    " SELECT x.user_id, g.bank_id, x.question_id, x.correct, x.answered_at"
    "  FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id"
    "  WHERE x.user_id > 0"
    ") n WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.user_id = n.user_id"
    "  AND c.bank_id = n.bank_id AND c.question_id = n.question_id"
    "  AND COALESCE(c.last_review, c.due) >= n.answered_at)"
    " ORDER BY n.answered_at"
)
"""The statement of :meth:`bot.features.learning.ports.CardStore.unrated_answers`: one look-up in
the cards' unique index per stored answer. An exam's answers count once it is submitted (they are
rated then, at its end: :meth:`bot.features.exams.service.ExamService.rate_paper`), never while
it is sat or once it was left."""


class SharedLearningStatements(Statements):
    """The :class:`~bot.features.learning.ports.CardStore` methods whose statements are the same in
    both dialects. Those that differ: the read-modify-write of cards and learners (PostgreSQL locks
    rows, SQLite has one writer), and the reads given a list of banks (an array parameter on
    PostgreSQL, however many banks; ``IN (?, ...)`` on SQLite)."""

    _QUESTIONS_OF: str
    """The dialect's expression of the number of questions in a ``question_order`` column,
    ``{}`` standing for the column (a JSON array stored as text)."""

    async def unrated_answers(self) -> list[UnratedAnswer]:
        """See :meth:`bot.features.learning.ports.CardStore.unrated_answers`."""
        return [
            UnratedAnswer(int(r[0]), r[1], r[2], bool(r[3]), float(r[4]))
            for r in await self._read(UNRATED_ANSWERS)
        ]

    async def card(self, card_id: int) -> Card | None:
        """See :meth:`bot.features.learning.ports.CardStore.card`."""
        rows = await self._read(f"SELECT {CARD_COLUMNS} FROM cards WHERE card_id = ?", (card_id,))
        return card_of(rows[0]) if rows else None

    async def carded_banks(self, user_id: int) -> list[str]:
        """See :meth:`bot.features.learning.ports.CardStore.carded_banks` (the cards' unique
        index on (user, bank, question) answers it alone)."""
        return [
            str(r[0])
            for r in await self._read(
                "SELECT DISTINCT bank_id FROM cards WHERE user_id = ?", (user_id,)
            )
        ]

    async def learner(self, user_id: int) -> Learner:
        """See :meth:`bot.features.learning.ports.CardStore.learner`."""
        rows = await self._read(
            f"SELECT {LEARNER_COLUMNS} FROM learners WHERE user_id = ?", (user_id,)
        )
        return learner_of(rows[0]) if rows else Learner(user_id)

    async def save_learner(self, learner: Learner) -> None:
        """See :meth:`bot.features.learning.ports.CardStore.save_learner`."""
        await self._write(SAVE_LEARNER, saved_learner(learner))

    async def move_reminders(self, planned: Sequence[tuple[int, float]], to: float) -> set[int]:
        """See :meth:`bot.features.learning.ports.CardStore.move_reminders` (a write per
        :data:`MOVED_AT_ONCE` learners)."""
        moved: set[int] = set()
        for start in range(0, len(planned), MOVED_AT_ONCE):
            chunk = planned[start : start + MOVED_AT_ONCE]
            rows = await self._write_returning(
                "UPDATE learners SET next_remind_at = ? WHERE "
                + " OR ".join(["(user_id = ? AND next_remind_at = ?)"] * len(chunk))
                + " RETURNING user_id",
                (to, *(x for pair in chunk for x in pair)),
            )
            moved.update(int(row[0]) for row in rows)
        return moved

    async def blocked_users(self) -> list[int]:
        """See :meth:`bot.features.learning.ports.CardStore.blocked_users`."""
        return [r[0] for r in await self._read("SELECT user_id FROM learners WHERE blocked = 1")]

    async def score_history(self, user_id: int) -> list[ScorePoint]:
        """See :meth:`bot.features.learning.ports.CardStore.score_history`."""
        questions = self._QUESTIONS_OF
        return [
            ScorePoint(r[0], r[1], int(r[2]), int(r[3]))
            for r in await self._read(
                "SELECT bank_id, ended_at, score, total FROM ("
                " SELECT a.bank_id, a.ended_at, (SELECT COUNT(*) FROM answers s"
                "  WHERE s.attempt_id = a.attempt_id AND s.correct = 1) AS score,"
                f"  {questions.format('a.question_order')} AS total"
                "  FROM attempts a WHERE a.user_id = ? AND a.status = 'finished'"
                " UNION ALL"
                " SELECT g.bank_id, g.ended_at, SUM(x.correct),"
                f" {questions.format('g.question_order')}"
                "  FROM group_sessions g JOIN group_answers x ON x.session_id = g.session_id"
                "  WHERE x.user_id = ? AND g.status = 'finished' GROUP BY g.session_id"
                ") AS h ORDER BY ended_at",
                (user_id, user_id),
            )
        ]


class SharedReportStatements(Statements):
    """The :class:`~bot.kernel.ports.ReportStore` method, the same in both dialects."""

    async def item_responses(
        self, *, bank_id: str | None = None, chat_id: int | None = None, since: float | None = None
    ) -> list[Response]:
        """See :meth:`bot.kernel.ports.ReportStore.item_responses` (one statement: one
        snapshot). The casts give PostgreSQL the type of a parameter that may be NULL."""
        since = since or 0.0
        rows = await self._read(
            "SELECT 'private', a.attempt_id, a.user_id, a.bank_id, x.question_id,"
            " x.option_index, x.correct, COALESCE(x.language, u.language, ''), x.chosen"
            " FROM answers x JOIN attempts a ON a.attempt_id = x.attempt_id"
            " LEFT JOIN users u ON u.user_id = a.user_id"
            " WHERE CAST(? AS BIGINT) IS NULL AND (CAST(? AS TEXT) IS NULL OR a.bank_id = ?)"
            " AND x.answered_at >= ?"
            " UNION ALL"
            " SELECT 'group', s.session_id, g.user_id, s.bank_id, g.question_id,"
            " g.option_index, g.correct, COALESCE(g.language, s.language), g.chosen"
            " FROM group_answers g JOIN group_sessions s ON s.session_id = g.session_id"
            " WHERE (CAST(? AS BIGINT) IS NULL OR s.chat_id = ?)"
            " AND (CAST(? AS TEXT) IS NULL OR s.bank_id = ?) AND g.answered_at >= ?",
            (chat_id, bank_id, bank_id, since, chat_id, chat_id, bank_id, bank_id, since),
        )
        return [
            Response(r[0], r[1], r[2], r[3], r[4], r[5], bool(r[6]), r[7], chosen_of(r[8]))
            for r in rows
        ]
