"""SQLite statements of spaced review (:class:`bot.features.learning.ports.CardStore`), mixed into
:class:`storage.sqlite.SQLiteStore`: those of SQLite alone (the statements the same in both
dialects are :class:`storage.shared.SharedLearningStatements`).

Reads follow ``SQLiteStore._read`` (one statement run to completion); the read-modify-write of a
card runs inside the writer's transaction, on its thread in one trip
(``SQLiteWriter._submit_statements``), so nothing comes between.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any

from bot.features.learning.ports import CardUpdate, Learner
from bot.features.learning.rules import Card
from storage.shared import (
    CARD_COLUMNS,
    LEARNER_COLUMNS,
    SAVE_LEARNER,
    SharedLearningStatements,
    card_of,
    learner_of,
    saved_learner,
)
from storage.writer import SQLiteWriter

CHUNK = 300
"""Rows per multi-row statement: 300 x 3 parameters stays far under SQLite's 32,766 variables
(``SQLITE_MAX_VARIABLE_NUMBER`` since 3.32)."""


def cards_of_keys_sql(keys: int) -> str:
    """The cards of ``keys`` (user id, bank id, question id) triples, given as ``3 * keys``
    parameters in that order: the keys joined to the table, so each is one search of its
    unique index (a row-value ``IN (VALUES ...)`` makes SQLite scan the whole table)."""
    columns = ", ".join(f"c.{name.strip()}" for name in CARD_COLUMNS.split(","))
    return (
        f"WITH k(u, b, q) AS (VALUES {', '.join(['(?, ?, ?)'] * keys)})"
        f" SELECT {columns} FROM k CROSS JOIN cards AS c"
        " ON c.user_id = k.u AND c.bank_id = k.b AND c.question_id = k.q"
    )


_UPSERT_CARD = (
    "INSERT INTO cards (user_id, bank_id, question_id, state, step, stability, difficulty, due,"
    " last_review, reps, lapses) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    " ON CONFLICT (user_id, bank_id, question_id) DO UPDATE SET state = excluded.state,"
    " step = excluded.step, stability = excluded.stability, difficulty = excluded.difficulty,"
    " due = excluded.due, last_review = excluded.last_review, reps = excluded.reps,"
    " lapses = excluded.lapses"
)
_UPSERT_LEARNER = (
    "INSERT INTO learners (user_id, remind, hours, next_remind_at, last_reminded_at, blocked)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET hours = excluded.hours,"
    " next_remind_at = excluded.next_remind_at"
)


def _learner_row(learner: Learner) -> tuple[Any, ...]:
    """The parameters of :data:`_UPSERT_LEARNER` for ``learner``."""
    return (
        learner.user_id,
        int(learner.remind),
        json.dumps(learner.hours),
        learner.next_remind_at,
        learner.last_reminded_at,
        int(learner.blocked),
    )


def _chunks(items: Sequence[Any]) -> list[Sequence[Any]]:
    return [items[i : i + CHUNK] for i in range(0, len(items), CHUNK)]


def _in(values: Sequence[str]) -> str:
    """``(?, ?, ...)`` for ``values`` (at least one placeholder: ``IN ()`` is not SQL)."""
    return "(" + ", ".join("?" * max(1, len(values))) + ")"


class LearningStatements(SQLiteWriter, SharedLearningStatements):
    """The :class:`~bot.features.learning.ports.CardStore` methods of SQLite alone."""

    _QUESTIONS_OF = "json_array_length({})"

    async def update_card(
        self,
        user_id: int,
        bank_id: str,
        question_id: str,
        update: Callable[[Card], Card | None],
        study: Callable[[Learner], Learner] | None = None,
    ) -> Card | None:
        """See :meth:`bot.features.learning.ports.CardStore.update_card`."""

        def op(db: sqlite3.Connection) -> Card | None:
            rows = db.execute(
                f"SELECT {CARD_COLUMNS} FROM cards WHERE user_id = ? AND bank_id = ?"
                " AND question_id = ?",
                (user_id, bank_id, question_id),
            ).fetchall()
            card = card_of(rows[0]) if rows else Card(0, user_id, bank_id, question_id)
            new = update(card)
            if new is None:
                return None
            values = (
                new.state,
                new.step,
                new.stability,
                new.difficulty,
                new.due,
                new.last_review,
                new.reps,
                new.lapses,
            )
            [(card_id,)] = db.execute(
                _UPSERT_CARD + " RETURNING card_id", (user_id, bank_id, question_id, *values)
            ).fetchall()
            if study is not None:
                rows = db.execute(
                    f"SELECT {LEARNER_COLUMNS} FROM learners WHERE user_id = ?", (user_id,)
                ).fetchall()
                learner = study(learner_of(rows[0]) if rows else Learner(user_id))
                db.execute(_UPSERT_LEARNER, _learner_row(learner))
            return Card(card_id, user_id, bank_id, question_id, *values)

        result: Card | None = await self._submit_statements(op)
        return result

    async def update_cards(self, updates: Sequence[CardUpdate]) -> None:
        """See :meth:`bot.features.learning.ports.CardStore.update_cards`.

        One trip to the writer's thread (a statement op, run beside the other writes of its
        batch), with four statements whatever the number of ratings (per 300): the cards and
        the learners are read with one multi-row ``SELECT`` each, rated in order in memory,
        and written back with one ``executemany`` upsert each.
        """
        if not updates:
            return

        def op(db: sqlite3.Connection) -> None:
            keys = list(dict.fromkeys((u.user_id, u.bank_id, u.question_id) for u in updates))
            cards: dict[tuple[int, str, str], Card] = {}
            for chunk in _chunks(keys):
                rows = db.execute(
                    cards_of_keys_sql(len(chunk)), [value for key in chunk for value in key]
                ).fetchall()
                for row in rows:
                    card = card_of(row)
                    cards[(card.user_id, card.bank_id, card.question_id)] = card
            users = list(dict.fromkeys(u.user_id for u in updates if u.study is not None))
            learners: dict[int, Learner] = {}
            for chunk in _chunks(users):
                for row in db.execute(
                    f"SELECT {LEARNER_COLUMNS} FROM learners WHERE user_id IN {_in(chunk)}", chunk
                ).fetchall():
                    learners[row[0]] = learner_of(row)
            rated: dict[tuple[int, str, str], Card] = {}
            studied: set[int] = set()
            for u in updates:
                key = (u.user_id, u.bank_id, u.question_id)
                new = u.update(cards.get(key) or Card(0, *key))
                if new is None:
                    continue
                cards[key] = rated[key] = new
                if u.study is not None:
                    learners[u.user_id] = u.study(learners.get(u.user_id) or Learner(u.user_id))
                    studied.add(u.user_id)
            if rated:
                db.executemany(
                    _UPSERT_CARD,
                    [
                        (
                            *key,
                            c.state,
                            c.step,
                            c.stability,
                            c.difficulty,
                            c.due,
                            c.last_review,
                            c.reps,
                            c.lapses,
                        )
                        for key, c in rated.items()
                    ],
                )
            if studied:
                db.executemany(
                    _UPSERT_LEARNER,
                    [
                        _learner_row(learner)
                        for user, learner in learners.items()
                        if user in studied
                    ],
                )

        await self._submit_statements(op)

    async def cards(
        self, user_id: int, bank_id: str | None = None, question_ids: Sequence[str] = ()
    ) -> list[Card]:
        """See :meth:`bot.features.learning.ports.CardStore.cards`."""
        args: list[object]
        where, args = "user_id = ?", [user_id]
        if bank_id is not None:
            where, args = where + " AND bank_id = ?", [*args, bank_id]
        if question_ids:
            where += f" AND question_id IN {_in(question_ids)}"
            args += list(question_ids)
        return [
            card_of(r)
            for r in await self._read(
                f"SELECT {CARD_COLUMNS} FROM cards WHERE {where}", tuple(args)
            )
        ]

    async def due_cards(
        self, user_id: int, bank_ids: Sequence[str], now: float, limit: int, count_upto: int
    ) -> tuple[list[Card], int]:
        """See :meth:`bot.features.learning.ports.CardStore.due_cards`. One statement (one
        snapshot): the cards, each row carrying the capped count."""
        banks = _in(bank_ids)
        rows = await self._read(
            f"SELECT {CARD_COLUMNS}, (SELECT COUNT(*) FROM (SELECT 1 FROM cards"
            f"  WHERE user_id = ? AND due <= ? AND bank_id IN {banks} LIMIT ?))"
            f" FROM cards WHERE user_id = ? AND due <= ? AND bank_id IN {banks}"
            " ORDER BY due LIMIT ?",
            (user_id, now, *bank_ids, count_upto, user_id, now, *bank_ids, limit),
        )
        return [card_of(r[:12]) for r in rows], (rows[0][12] if rows else 0)

    async def next_due(self, user_id: int, bank_ids: Sequence[str]) -> float | None:
        """See :meth:`bot.features.learning.ports.CardStore.next_due`."""
        rows = await self._read(
            f"SELECT due FROM cards WHERE user_id = ? AND bank_id IN {_in(bank_ids)}"
            " ORDER BY due LIMIT 1",
            (user_id, *bank_ids),
        )
        return rows[0][0] if rows else None

    async def update_learner(self, user_id: int, change: Callable[[Learner], Learner]) -> Learner:
        """See :meth:`bot.features.learning.ports.CardStore.update_learner` (the read and the write
        are one job of the writer, in its transaction)."""

        def op(db: sqlite3.Connection) -> Learner:
            rows = db.execute(
                f"SELECT {LEARNER_COLUMNS} FROM learners WHERE user_id = ?", (user_id,)
            ).fetchall()
            learner = change(learner_of(rows[0]) if rows else Learner(user_id))
            db.execute(SAVE_LEARNER, saved_learner(learner))
            return learner

        result: Learner = await self._submit_statements(op)
        return result

    async def reminders_due(
        self, now: float, bank_ids: Sequence[str], limit: int
    ) -> list[tuple[Learner, bool]]:
        """See :meth:`bot.features.learning.ports.CardStore.reminders_due` (index
        ``learners_reminders``, and ``cards_due`` per learner found)."""
        rows = await self._read(
            f"SELECT {LEARNER_COLUMNS}, EXISTS (SELECT 1 FROM cards c"
            f"  WHERE c.user_id = l.user_id AND c.due <= ? AND c.bank_id IN {_in(bank_ids)})"
            " FROM learners l WHERE remind = 1 AND blocked = 0 AND next_remind_at <= ?"
            " ORDER BY next_remind_at LIMIT ?",
            (now, *bank_ids, now, limit),
        )
        return [(learner_of(r[:7]), bool(r[7])) for r in rows]
