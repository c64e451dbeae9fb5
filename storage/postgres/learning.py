"""PostgreSQL statements of spaced review (:class:`bot.features.learning.ports.CardStore`), mixed
into :class:`storage.postgres.store.PostgresStore`: those of PostgreSQL alone (the twins of
:mod:`storage.learning`; the statements the same in both dialects are
:class:`storage.shared.SharedLearningStatements`).

Reads follow the writer's ``_read`` (one statement run to completion); the read-modify-write
of a card runs inside a batch's transaction (its ``_submit``,
:class:`storage.postgres.writer.PostgresWriter`) with the card's row locked (``FOR UPDATE``),
so another instance's rating of the same card waits for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import asyncpg

from bot.features.learning.ports import CardUpdate, Learner
from bot.features.learning.rules import Card
from storage.postgres.writer import PostgresWriter, numbered
from storage.shared import (
    CARD_COLUMNS,
    LEARNER_COLUMNS,
    SAVE_LEARNER,
    SharedLearningStatements,
    card_of,
    learner_of,
    saved_learner,
)

_SAVE_LEARNER = numbered(SAVE_LEARNER)


class PostgresLearningStatements(PostgresWriter, SharedLearningStatements):
    """The :class:`~bot.features.learning.ports.CardStore` methods of PostgreSQL alone."""

    _QUESTIONS_OF = "json_array_length({}::json)"

    async def update_card(
        self,
        user_id: int,
        bank_id: str,
        question_id: str,
        update: Callable[[Card], Card | None],
        study: Callable[[Learner], Learner] | None = None,
    ) -> Card | None:
        """See :meth:`bot.features.learning.ports.CardStore.update_card`.

        The card's row is read ``FOR UPDATE``; a card not stored yet is inserted with ``ON
        CONFLICT DO NOTHING``, and if another instance inserted it meanwhile (its insert is
        waited for), the card is read again, locked, and ``update`` runs on it instead.
        """

        async def op(db: asyncpg.Connection) -> Card | None:
            while True:
                row = await db.fetchrow(
                    f"SELECT {CARD_COLUMNS} FROM cards WHERE user_id = $1 AND bank_id = $2"
                    " AND question_id = $3 FOR UPDATE",
                    user_id,
                    bank_id,
                    question_id,
                )
                card = card_of(row) if row else Card(0, user_id, bank_id, question_id)
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
                if card.id:
                    await db.execute(
                        "UPDATE cards SET state = $1, step = $2, stability = $3,"
                        " difficulty = $4, due = $5, last_review = $6, reps = $7, lapses = $8"
                        " WHERE card_id = $9",
                        *values,
                        card.id,
                    )
                    card_id = card.id
                else:
                    card_id = await db.fetchval(
                        "INSERT INTO cards (user_id, bank_id, question_id, state, step,"
                        " stability, difficulty, due, last_review, reps, lapses)"
                        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
                        " ON CONFLICT (user_id, bank_id, question_id) DO NOTHING"
                        " RETURNING card_id",
                        user_id,
                        bank_id,
                        question_id,
                        *values,
                    )
                    if card_id is None:
                        continue  # another instance made the card first: rate that one
                break
            if study is not None:
                row = await db.fetchrow(
                    f"SELECT {LEARNER_COLUMNS} FROM learners WHERE user_id = $1 FOR UPDATE", user_id
                )
                learner = study(learner_of(row) if row else Learner(user_id))
                await db.execute(
                    "INSERT INTO learners (user_id, remind, hours, next_remind_at,"
                    " last_reminded_at, blocked) VALUES ($1, $2, $3, $4, $5, $6)"
                    " ON CONFLICT (user_id) DO UPDATE SET hours = excluded.hours,"
                    " next_remind_at = excluded.next_remind_at",
                    user_id,
                    int(learner.remind),
                    json.dumps(learner.hours),
                    learner.next_remind_at,
                    learner.last_reminded_at,
                    int(learner.blocked),
                )
            return Card(card_id, user_id, bank_id, question_id, *values)

        result: Card | None = await self._submit(op)
        return result

    async def update_cards(self, updates: Sequence[CardUpdate]) -> None:
        """See :meth:`bot.features.learning.ports.CardStore.update_cards`.

        Each rating is :meth:`update_card`'s transaction, in order: its row locks and its
        retry when another instance makes the card first keep instances from overwriting
        each other's ratings, and a round trip to the server costs no thread hop here.
        """
        for u in updates:
            await self.update_card(u.user_id, u.bank_id, u.question_id, u.update, u.study)

    async def cards(
        self, user_id: int, bank_id: str | None = None, question_ids: Sequence[str] = ()
    ) -> list[Card]:
        """See :meth:`bot.features.learning.ports.CardStore.cards`."""
        return [
            card_of(r)
            for r in await self._read(
                f"SELECT {CARD_COLUMNS} FROM cards WHERE user_id = $1"
                " AND ($2::text IS NULL OR bank_id = $2)"
                " AND (cardinality($3::text[]) = 0 OR question_id = ANY($3::text[]))",
                (user_id, bank_id, list(question_ids)),
            )
        ]

    async def due_cards(
        self, user_id: int, bank_ids: Sequence[str], now: float, limit: int, count_upto: int
    ) -> tuple[list[Card], int]:
        """See :meth:`bot.features.learning.ports.CardStore.due_cards`. One statement (one
        snapshot): the cards, each row carrying the capped count."""
        rows = await self._read(
            f"SELECT {CARD_COLUMNS}, (SELECT COUNT(*) FROM (SELECT 1 FROM cards"
            "  WHERE user_id = $1 AND due <= $2 AND bank_id = ANY($3::text[]) LIMIT $4) AS d)"
            " FROM cards WHERE user_id = $1 AND due <= $2 AND bank_id = ANY($3::text[])"
            " ORDER BY due LIMIT $5",
            (user_id, now, list(bank_ids), count_upto, limit),
        )
        return [card_of(tuple(r)[:12]) for r in rows], (int(rows[0][12]) if rows else 0)

    async def next_due(self, user_id: int, bank_ids: Sequence[str]) -> float | None:
        """See :meth:`bot.features.learning.ports.CardStore.next_due`."""
        rows = await self._read(
            "SELECT due FROM cards WHERE user_id = $1 AND bank_id = ANY($2::text[])"
            " ORDER BY due LIMIT 1",
            (user_id, list(bank_ids)),
        )
        return rows[0][0] if rows else None

    async def update_learner(self, user_id: int, change: Callable[[Learner], Learner]) -> Learner:
        """See :meth:`bot.features.learning.ports.CardStore.update_learner`.

        In one transaction: the learner's row is made if it is missing (``ON CONFLICT DO
        NOTHING``: a row another instance made meanwhile is waited for), then read ``FOR
        UPDATE``, so another instance's change of the same learner waits for this one.
        """

        async def op(db: asyncpg.Connection) -> Learner:
            await db.execute(
                "INSERT INTO learners (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING",
                user_id,
            )
            row = await db.fetchrow(
                f"SELECT {LEARNER_COLUMNS} FROM learners WHERE user_id = $1 FOR UPDATE", user_id
            )
            learner = change(learner_of(row) if row else Learner(user_id))
            await db.execute(_SAVE_LEARNER, *saved_learner(learner))
            return learner

        result: Learner = await self._submit(op)
        return result

    async def reminders_due(
        self, now: float, bank_ids: Sequence[str], limit: int
    ) -> list[tuple[Learner, bool]]:
        """See :meth:`bot.features.learning.ports.CardStore.reminders_due` (index
        ``learners_reminders``, and ``cards_due`` per learner found)."""
        rows = await self._read(
            f"SELECT {LEARNER_COLUMNS}, EXISTS (SELECT 1 FROM cards c"
            "  WHERE c.user_id = l.user_id AND c.due <= $1 AND c.bank_id = ANY($2::text[]))"
            " FROM learners l WHERE remind = 1 AND blocked = 0 AND next_remind_at <= $1"
            " ORDER BY next_remind_at LIMIT $3",
            (now, list(bank_ids), limit),
        )
        return [(learner_of(tuple(r)[:7]), bool(r[7])) for r in rows]
