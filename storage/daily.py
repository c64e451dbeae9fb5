"""Statements of the question of the day (:class:`bot.features.daily.ports.DailyStore`), the same in
both dialects: written once, mixed into :class:`storage.sqlite.SQLiteStore` and
:class:`storage.postgres.store.PostgresStore` after their writers, which run them (see
:mod:`storage.shared`: ``?`` placeholders, numbered for PostgreSQL).

A post is claimed by a compare-and-set on its schedule's ``next_at`` (the schedule moves on
and the post is stored in one transaction), and revealed by one on its status, so that of two
passes (a retry after a crash, two instances) one sends and the other finds nothing to do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.features.daily.ports import Claimed, NewPost
from bot.features.daily.rules import (
    BotChat,
    DailyAnswer,
    DailyPost,
    DailySchedule,
    PostStatus,
    RunOut,
    Status,
)
from storage.rows import Row
from storage.shared import Statements, Transaction

SCHEDULE_COLUMNS = (
    "chat_id, chat_type, thread_id, bank_id, language, minute, run_out,"
    " board_day, status, round, position, next_at, set_by, updated_at"
)
POST_COLUMNS = (
    "post_id, chat_id, bank_id, bank_version, question_id, slots, round, position,"
    " language, due_at, closes_at, message_id, status"
)
ANSWER_COLUMNS = "post_id, user_id, name, option_index, correct, answered_at"
CHAT_COLUMNS = "chat_id, chat_type, title, status, can_post, added_by, updated_at"


def schedule_of(row: Row) -> DailySchedule:
    """The schedule of a row of :data:`SCHEDULE_COLUMNS`."""
    return DailySchedule(
        chat_id=row[0],
        chat_type=row[1],
        thread_id=row[2],
        bank_id=row[3],
        language=row[4],
        minute=row[5],
        run_out=RunOut(row[6]),
        board_day=row[7],
        status=Status(row[8]),
        round=row[9],
        position=row[10],
        next_at=float(row[11]),
        set_by=row[12],
        updated_at=float(row[13]),
    )


def post_of(row: Row) -> DailyPost:
    """The post of a row of :data:`POST_COLUMNS`."""
    return DailyPost(
        post_id=row[0],
        chat_id=row[1],
        bank_id=row[2],
        bank_version=row[3],
        question_id=row[4],
        slots=tuple(json.loads(row[5])),
        round=row[6],
        position=row[7],
        language=row[8],
        due_at=float(row[9]),
        closes_at=float(row[10]),
        message_id=row[11],
        status=PostStatus(row[12]),
    )


def answer_of(row: Row) -> DailyAnswer:
    """The answer of a row of :data:`ANSWER_COLUMNS`."""
    return DailyAnswer(row[0], row[1], row[2], row[3], bool(row[4]), float(row[5]))


def chat_of(row: Row) -> BotChat:
    """The chat of a row of :data:`CHAT_COLUMNS`."""
    return BotChat(row[0], row[1], row[2], row[3], bool(row[4]), row[5], float(row[6]))


class DailyStatements(Statements):
    """The :class:`~bot.features.daily.ports.DailyStore` methods."""

    async def save_schedule(self, schedule: DailySchedule) -> None:
        """See :meth:`bot.features.daily.ports.DailyStore.save_schedule`."""
        s = schedule
        await self._write(
            f"INSERT INTO daily_schedules ({SCHEDULE_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (chat_id) DO UPDATE"
            " SET chat_type = excluded.chat_type, thread_id = excluded.thread_id,"
            " bank_id = excluded.bank_id, language = excluded.language,"
            " minute = excluded.minute, run_out = excluded.run_out,"
            " board_day = excluded.board_day, status = excluded.status,"
            " round = excluded.round, position = excluded.position,"
            " next_at = excluded.next_at, set_by = excluded.set_by,"
            " updated_at = excluded.updated_at",
            (
                s.chat_id,
                s.chat_type,
                s.thread_id,
                s.bank_id,
                s.language,
                s.minute,
                str(s.run_out),
                s.board_day,
                str(s.status),
                s.round,
                s.position,
                float(s.next_at),
                s.set_by,
                float(s.updated_at),
            ),
        )

    async def schedule(self, chat_id: int) -> DailySchedule | None:
        """See :meth:`bot.features.daily.ports.DailyStore.schedule`."""
        rows = await self._read(
            f"SELECT {SCHEDULE_COLUMNS} FROM daily_schedules WHERE chat_id = ?", (chat_id,)
        )
        return schedule_of(rows[0]) if rows else None

    async def due_schedules(self, now: float, limit: int) -> list[DailySchedule]:
        """See :meth:`bot.features.daily.ports.DailyStore.due_schedules` (the partial index
        ``daily_schedules_due``)."""
        return [
            schedule_of(row)
            for row in await self._read(
                f"SELECT {SCHEDULE_COLUMNS} FROM daily_schedules WHERE status = 'on'"
                " AND next_at <= ? ORDER BY next_at, chat_id LIMIT ?",
                (float(now), limit),
            )
        ]

    async def claim_post(
        self,
        chat_id: int,
        due_at: float,
        *,
        next_at: float,
        round: int,
        position: int,
        post: NewPost | None,
        now: float,
    ) -> Claimed | None:
        """See :meth:`bot.features.daily.ports.DailyStore.claim_post` (one transaction)."""
        status = str(Status.ON if post is not None else Status.DONE)

        async def op(db: Transaction) -> Claimed | None:
            rows = await db.fetch(
                "UPDATE daily_schedules SET next_at = ?, round = ?, position = ?, status = ?,"
                " updated_at = ? WHERE chat_id = ? AND status = 'on' AND next_at = ?"
                f" RETURNING {SCHEDULE_COLUMNS}",
                (float(next_at), round, position, status, float(now), chat_id, float(due_at)),
            )
            if not rows:
                return None
            schedule = schedule_of(rows[0])
            if post is None:
                return Claimed(schedule, None)
            stored = await db.fetch(
                "INSERT INTO daily_posts (chat_id, bank_id, bank_version, question_id, slots,"
                " round, position, language, due_at, closes_at, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'sending')"
                f" RETURNING {POST_COLUMNS}",
                (
                    chat_id,
                    post.bank_id,
                    post.bank_version,
                    post.question_id,
                    json.dumps(list(post.slots)),
                    post.round,
                    post.position,
                    post.language,
                    float(due_at),
                    float(post.closes_at),
                ),
            )
            return Claimed(schedule, post_of(stored[0]))

        return await self._transaction(op)

    async def unclaim_post(
        self, post_id: int, schedule: DailySchedule, *, claimed_next_at: float
    ) -> bool:
        """See :meth:`bot.features.daily.ports.DailyStore.unclaim_post` (one transaction)."""

        async def op(db: Transaction) -> bool:
            restored = await db.fetch(
                "UPDATE daily_schedules SET next_at = ?, round = ?, position = ?, status = 'on'"
                " WHERE chat_id = ? AND next_at = ? AND status IN ('on', 'done')"
                " AND EXISTS (SELECT 1 FROM daily_posts WHERE post_id = ?"
                " AND status = 'sending' AND message_id IS NULL) RETURNING chat_id",
                (
                    float(schedule.next_at),
                    schedule.round,
                    schedule.position,
                    schedule.chat_id,
                    float(claimed_next_at),
                    post_id,
                ),
            )
            if not restored:  # sent meanwhile, or the schedule moved (/daily off, a new time)
                return False
            await db.execute("DELETE FROM daily_posts WHERE post_id = ?", (post_id,))
            return True

        return await self._transaction(op)

    async def reclose_posts(self, chat_id: int, closes_at: float) -> int:
        """See :meth:`bot.features.daily.ports.DailyStore.reclose_posts`."""
        return await self._write(
            "UPDATE daily_posts SET closes_at = ? WHERE chat_id = ?"
            " AND status IN ('sending', 'open') AND closes_at > ?",
            (float(closes_at), chat_id, float(closes_at)),
        )

    async def set_post_message(self, post_id: int, message_id: int) -> None:
        """See :meth:`bot.features.daily.ports.DailyStore.set_post_message`."""
        await self._write(
            "UPDATE daily_posts SET message_id = ?, status = 'open' WHERE post_id = ?",
            (message_id, post_id),
        )

    async def set_post_status(self, post_id: int, status: PostStatus) -> None:
        """See :meth:`bot.features.daily.ports.DailyStore.set_post_status`."""
        await self._write(
            "UPDATE daily_posts SET status = ? WHERE post_id = ?", (str(status), post_id)
        )

    async def post(self, post_id: int) -> DailyPost | None:
        """See :meth:`bot.features.daily.ports.DailyStore.post`."""
        rows = await self._read(
            f"SELECT {POST_COLUMNS} FROM daily_posts WHERE post_id = ?", (post_id,)
        )
        return post_of(rows[0]) if rows else None

    async def posts_to_reveal(self, now: float, limit: int) -> list[DailyPost]:
        """See :meth:`bot.features.daily.ports.DailyStore.posts_to_reveal` (the partial index
        ``daily_posts_open``)."""
        return [
            post_of(row)
            for row in await self._read(
                f"SELECT {POST_COLUMNS} FROM daily_posts WHERE status = 'open' AND closes_at <= ?"
                " ORDER BY closes_at, post_id LIMIT ?",
                (float(now), limit),
            )
        ]

    async def mark_post_revealed(self, post_id: int) -> bool:
        """See :meth:`bot.features.daily.ports.DailyStore.mark_post_revealed`."""
        return (
            await self._write(
                "UPDATE daily_posts SET status = 'revealed' WHERE post_id = ? AND status = 'open'",
                (post_id,),
            )
            == 1
        )

    async def record_daily_answer(self, answer: DailyAnswer) -> bool:
        """See :meth:`bot.features.daily.ports.DailyStore.record_daily_answer`."""
        a = answer
        return (
            await self._write(
                f"INSERT INTO daily_answers ({ANSWER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (post_id, user_id) DO NOTHING",
                (
                    a.post_id,
                    a.user_id,
                    a.name,
                    a.option_index,
                    int(a.correct),
                    float(a.answered_at),
                ),
            )
            == 1
        )

    async def daily_answers(self, post_id: int) -> list[DailyAnswer]:
        """See :meth:`bot.features.daily.ports.DailyStore.daily_answers`."""
        return [
            answer_of(row)
            for row in await self._read(
                f"SELECT {ANSWER_COLUMNS} FROM daily_answers WHERE post_id = ?"
                " ORDER BY answered_at, user_id",
                (post_id,),
            )
        ]

    async def week_answers(self, chat_id: int, since: float, until: float) -> list[DailyAnswer]:
        """See :meth:`bot.features.daily.ports.DailyStore.week_answers`."""
        columns = ", ".join(f"a.{c.strip()}" for c in ANSWER_COLUMNS.split(","))
        return [
            answer_of(row)
            for row in await self._read(
                f"SELECT {columns} FROM daily_answers a JOIN daily_posts p"
                " ON p.post_id = a.post_id WHERE p.chat_id = ? AND p.due_at >= ?"
                " AND p.due_at < ? AND p.closes_at <= ? AND p.status IN ('open', 'revealed')"
                " ORDER BY a.answered_at, a.user_id",
                (chat_id, float(since), float(until), float(until)),
            )
        ]

    async def set_lost(self, chat_id: int, now: float) -> bool:
        """See :meth:`bot.features.daily.ports.DailyStore.set_lost`."""
        return (
            await self._write(
                "UPDATE daily_schedules SET status = 'lost', updated_at = ?"
                " WHERE chat_id = ? AND status = 'on'",
                (float(now), chat_id),
            )
            == 1
        )

    async def save_bot_chat(self, chat: BotChat) -> None:
        """See :meth:`bot.features.daily.ports.DailyStore.save_bot_chat`."""
        c = chat
        await self._write(
            f"INSERT INTO bot_chats ({CHAT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (chat_id) DO UPDATE SET chat_type = excluded.chat_type,"
            " title = excluded.title, status = excluded.status,"
            " can_post = excluded.can_post, added_by = excluded.added_by,"
            " updated_at = excluded.updated_at",
            (
                c.chat_id,
                c.chat_type,
                c.title,
                c.status,
                int(c.can_post),
                c.added_by,
                float(c.updated_at),
            ),
        )

    async def bot_chats(self, added_by: int, chat_types: Sequence[str]) -> list[BotChat]:
        """See :meth:`bot.features.daily.ports.DailyStore.bot_chats`."""
        if not chat_types:
            return []
        marks = ", ".join("?" * len(chat_types))
        return [
            chat_of(row)
            for row in await self._read(
                f"SELECT {CHAT_COLUMNS} FROM bot_chats WHERE added_by = ? AND can_post = 1"
                f" AND chat_type IN ({marks}) ORDER BY updated_at DESC, chat_id LIMIT 20",
                (added_by, *chat_types),
            )
        ]

    async def bot_chat(self, chat_id: int) -> BotChat | None:
        """See :meth:`bot.features.daily.ports.DailyStore.bot_chat`."""
        rows = await self._read(
            f"SELECT {CHAT_COLUMNS} FROM bot_chats WHERE chat_id = ?", (chat_id,)
        )
        return chat_of(rows[0]) if rows else None

    async def move_daily(self, old_chat_id: int, new_chat_id: int) -> int:
        """See :meth:`bot.features.daily.ports.DailyStore.move_daily` (one transaction; a
        schedule the new chat has already is kept)."""

        async def op(db: Transaction) -> int:
            await db.execute(
                "UPDATE daily_schedules SET chat_id = ?, chat_type = 'supergroup'"
                " WHERE chat_id = ? AND NOT EXISTS"
                " (SELECT 1 FROM daily_schedules WHERE chat_id = ?)",
                (new_chat_id, old_chat_id, new_chat_id),
            )
            await db.execute("DELETE FROM daily_schedules WHERE chat_id = ?", (old_chat_id,))
            await db.execute(
                "UPDATE bot_chats SET chat_id = ?, chat_type = 'supergroup' WHERE chat_id = ?"
                " AND NOT EXISTS (SELECT 1 FROM bot_chats WHERE chat_id = ?)",
                (new_chat_id, old_chat_id, new_chat_id),
            )
            await db.execute("DELETE FROM bot_chats WHERE chat_id = ?", (old_chat_id,))
            # the old group's messages stay there: an open post is revealed by the pass, its
            # edit finds nothing in the new chat and is skipped
            return await db.execute(
                "UPDATE daily_posts SET chat_id = ? WHERE chat_id = ?", (new_chat_id, old_chat_id)
            )

        return await self._transaction(op)
