"""The :class:`~bot.features.groups.ports.GroupStore` statements that are the same in both dialects
(group sessions, their answers and players, groups' settings and language), written once for
the two stores and mixed into both engines' group statements (:mod:`storage.groups`,
:mod:`storage.postgres.groups`); the conventions are :mod:`storage.shared`'s (``?``
placeholders, run by the engine's writer).
"""

from __future__ import annotations

import json
import time

from bot.features.groups.rules import RIGHT, GroupAnswer, GroupSession, Scoring, SessionStatus
from bot.features.groups.settings import GroupSettings
from bot.kernel.engine import Plan
from storage.rows import SESSION_COLUMNS, chosen_of, session_of, settings_of
from storage.shared import Args, Statements, Transaction

SETTINGS_COLUMNS = "who_starts, question_seconds, scoring, bank_id, question_count, version"
"""The columns of ``group_settings`` a :class:`~bot.features.groups.settings.GroupSettings` is made
of, in its order."""

ADMIN_LANGUAGE = (
    "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at) VALUES (?, ?, 1, ?)"
    " ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language, set_by_admin = 1,"
    " updated_at = excluded.updated_at"
)
"""Set a group's language as an admin chose it: ``chat_id, language, updated_at``."""


class SharedGroupStatements(Statements):
    """The :class:`~bot.features.groups.ports.GroupStore` methods whose statements are the same in
    both dialects."""

    async def group_language(self, chat_id: int) -> str | None:
        """See :meth:`bot.features.groups.ports.GroupStore.group_language`."""
        rows = await self._read("SELECT language FROM group_chats WHERE chat_id = ?", (chat_id,))
        return rows[0][0] if rows else None

    async def set_group_language(self, chat_id: int, language: str, *, by_admin: bool) -> None:
        """See :meth:`bot.features.groups.ports.GroupStore.set_group_language`."""
        if by_admin:
            await self._write(ADMIN_LANGUAGE, (chat_id, language, time.time()))
            return
        await self._write(
            "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at)"
            " VALUES (?, ?, 0, ?) ON CONFLICT (chat_id) DO NOTHING",
            (chat_id, language, time.time()),
        )

    async def start_session(
        self,
        chat_id: int,
        bank_id: str,
        bank_version: int,
        language: str,
        starter_id: int,
        plan: Plan,
        question_seconds: float,
        now: float,
        *,
        message_thread_id: int | None = None,
        scoring: Scoring = RIGHT,
    ) -> GroupSession | None:
        """See :meth:`bot.features.groups.ports.GroupStore.start_session`."""
        rows = await self._write_returning(
            "INSERT INTO group_sessions (chat_id, bank_id, bank_version, language,"
            " starter_id, question_order, option_orders, question_seconds, started_at,"
            " message_thread_id, scoring) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (chat_id) WHERE status = 'active' DO NOTHING RETURNING session_id",
            (
                chat_id,
                bank_id,
                bank_version,
                language,
                starter_id,
                json.dumps(plan.question_order),
                json.dumps(plan.option_orders),
                question_seconds,
                now,
                message_thread_id,
                scoring,
            ),
        )
        if not rows:
            return None  # the chat has a running session (the unique index decided)
        return GroupSession(
            rows[0][0],
            chat_id,
            bank_id,
            bank_version,
            language,
            starter_id,
            plan,
            question_seconds,
            started_at=now,
            message_thread_id=message_thread_id,
            scoring=scoring,
        )

    async def _sessions(self, where: str, args: Args) -> list[GroupSession]:
        return [
            session_of(row)
            for row in await self._read(
                f"SELECT {SESSION_COLUMNS} FROM group_sessions WHERE {where} ORDER BY session_id",
                args,
            )
        ]

    async def session(self, session_id: int) -> GroupSession | None:
        """See :meth:`bot.features.groups.ports.GroupStore.session`."""
        found = await self._sessions("session_id = ?", (session_id,))
        return found[0] if found else None

    async def active_session(self, chat_id: int) -> GroupSession | None:
        """See :meth:`bot.features.groups.ports.GroupStore.active_session`."""
        found = await self._sessions("chat_id = ? AND status = 'active'", (chat_id,))
        return found[0] if found else None

    async def active_sessions(self) -> list[GroupSession]:
        """See :meth:`bot.features.groups.ports.GroupStore.active_sessions`."""
        return await self._sessions("status = 'active'", ())

    async def last_session(self, chat_id: int, *, ended: bool = True) -> GroupSession | None:
        """See :meth:`bot.features.groups.ports.GroupStore.last_session`."""
        rows = await self._read(
            f"SELECT {SESSION_COLUMNS} FROM group_sessions WHERE chat_id = ?"
            + (" AND status <> 'active'" if ended else "")
            + " ORDER BY session_id DESC LIMIT 1",
            (chat_id,),
        )
        return session_of(rows[0]) if rows else None

    async def group_settings(self, chat_id: int) -> GroupSettings | None:
        """See :meth:`bot.features.groups.ports.GroupStore.group_settings`."""
        rows = await self._read(
            f"SELECT {SETTINGS_COLUMNS} FROM group_settings WHERE chat_id = ?", (chat_id,)
        )
        return settings_of(rows[0]) if rows else None

    async def save_group_settings(
        self,
        chat_id: int,
        settings: GroupSettings,
        expected_version: int,
        *,
        language: str | None = None,
    ) -> bool:
        """See :meth:`bot.features.groups.ports.GroupStore.save_group_settings`."""

        async def op(db: Transaction) -> bool:
            # one statement decides: the first settings (none stored, or stored at version 0),
            # or an update of the expected version (in PostgreSQL's READ COMMITTED a concurrent
            # change waits, then the version is checked again against the row as committed)
            values = (
                settings.who_starts,
                settings.question_seconds,
                settings.scoring,
                settings.bank_id,
                settings.question_count,
                settings.version,
                time.time(),
            )
            if expected_version == 0:
                changed = await db.execute(
                    f"INSERT INTO group_settings ({SETTINGS_COLUMNS}, updated_at, chat_id)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                    " ON CONFLICT (chat_id) DO UPDATE SET who_starts = excluded.who_starts,"
                    " question_seconds = excluded.question_seconds, scoring = excluded.scoring,"
                    " bank_id = excluded.bank_id, question_count = excluded.question_count,"
                    " version = excluded.version, updated_at = excluded.updated_at"
                    " WHERE group_settings.version = 0",
                    (*values, chat_id),
                )
            else:
                changed = await db.execute(
                    "UPDATE group_settings SET who_starts = ?, question_seconds = ?, scoring = ?,"
                    " bank_id = ?, question_count = ?, version = ?, updated_at = ?"
                    " WHERE chat_id = ? AND version = ?",
                    (*values, chat_id, expected_version),
                )
            if changed != 1:
                return False
            if language is not None:
                await db.execute(ADMIN_LANGUAGE, (chat_id, language, time.time()))
            return True

        return await self._transaction(op)

    async def open_question(self, session_id: int, position: int, deadline: float) -> bool:
        """See :meth:`bot.features.groups.ports.GroupStore.open_question`."""
        return (
            await self._write(
                "UPDATE group_sessions"
                " SET message_id = NULL, deadline = ?, answered = 0, joined = 0"
                " WHERE session_id = ? AND status = 'active' AND position = ? AND deadline IS NULL",
                (deadline, session_id, position),
            )
            == 1
        )

    async def set_question_message(self, session_id: int, position: int, message_id: int) -> bool:
        """See :meth:`bot.features.groups.ports.GroupStore.set_question_message`."""
        return (
            await self._write(
                "UPDATE group_sessions SET message_id = ? WHERE session_id = ? AND position = ?"
                " AND deadline IS NOT NULL",
                (message_id, session_id, position),
            )
            == 1
        )

    async def unopen_question(self, session_id: int, position: int) -> bool:
        """See :meth:`bot.features.groups.ports.GroupStore.unopen_question`."""
        return (
            await self._write(
                "UPDATE group_sessions SET deadline = NULL WHERE session_id = ? AND position = ?"
                " AND status = 'active' AND message_id IS NULL",
                (session_id, position),
            )
            == 1
        )

    async def close_question(self, session_id: int, position: int) -> GroupSession | None:
        """See :meth:`bot.features.groups.ports.GroupStore.close_question`."""
        rows = await self._write_returning(
            "UPDATE group_sessions SET position = position + 1, deadline = NULL"
            " WHERE session_id = ? AND status = 'active' AND position = ?"
            f" AND deadline IS NOT NULL RETURNING {SESSION_COLUMNS}",
            (session_id, position),
        )
        return session_of(rows[0]) if rows else None

    async def mark_revealed(self, session_id: int, position: int, message_id: int) -> bool:
        """See :meth:`bot.features.groups.ports.GroupStore.mark_revealed`."""
        return (
            await self._write(
                "UPDATE group_sessions SET message_id = NULL WHERE session_id = ?"
                " AND status = 'active' AND position = ? AND deadline IS NULL AND message_id = ?",
                (session_id, position, message_id),
            )
            == 1
        )

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """See :meth:`bot.features.groups.ports.GroupStore.move_chat`."""

        async def op(db: Transaction) -> int:
            moved = await db.execute(
                "UPDATE group_sessions SET chat_id = ?,"
                " message_id = CASE WHEN status = 'active' THEN NULL ELSE message_id END"
                " WHERE chat_id = ?",
                (new_chat_id, old_chat_id),
            )
            await db.execute(
                "INSERT INTO group_chats (chat_id, language, set_by_admin, updated_at)"
                " SELECT ?, language, set_by_admin, updated_at FROM group_chats"
                " WHERE chat_id = ? ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id),
            )
            await db.execute("DELETE FROM group_chats WHERE chat_id = ?", (old_chat_id,))
            await db.execute(
                f"INSERT INTO group_settings (chat_id, {SETTINGS_COLUMNS}, updated_at)"
                f" SELECT ?, {SETTINGS_COLUMNS}, updated_at FROM group_settings"
                " WHERE chat_id = ? ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id),
            )
            await db.execute("DELETE FROM group_settings WHERE chat_id = ?", (old_chat_id,))
            await db.execute(
                "INSERT INTO chat_time_zones (chat_id, time_zone, updated_at)"
                " SELECT ?, time_zone, updated_at FROM chat_time_zones"
                " WHERE chat_id = ? ON CONFLICT DO NOTHING",
                (new_chat_id, old_chat_id),
            )
            await db.execute("DELETE FROM chat_time_zones WHERE chat_id = ?", (old_chat_id,))
            return moved

        return await self._transaction(op)

    async def end_session(self, session_id: int, status: SessionStatus, now: float) -> bool:
        """See :meth:`bot.features.groups.ports.GroupStore.end_session`."""
        ended = (
            await self._write(
                "UPDATE group_sessions SET status = ?, deadline = NULL, ended_at = ?"
                " WHERE session_id = ? AND status = 'active'",
                (str(status), now, session_id),
            )
            == 1
        )
        # the members' ticks are of no use once the session ended (answers keep the choices)
        await self._write("DELETE FROM group_picks WHERE session_id = ?", (session_id,))
        return ended

    async def tick_group_pick(self, session_id: int, position: int, user_id: int, slot: int) -> int:
        """See :meth:`bot.features.groups.ports.GroupStore.tick_group_pick` (the exclusive or of the
        ticks, written as ``(a | b) - (a & b)``: SQLite has no XOR operator)."""
        rows = await self._write_returning(
            "INSERT INTO group_picks (session_id, position, user_id, slots) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (session_id, position, user_id) DO UPDATE SET slots ="
            " (group_picks.slots | excluded.slots) - (group_picks.slots & excluded.slots)"
            " RETURNING slots",
            (session_id, position, user_id, 1 << slot),
        )
        return int(rows[0][0])

    async def group_pick(self, session_id: int, position: int, user_id: int) -> int:
        """See :meth:`bot.features.groups.ports.GroupStore.group_pick`."""
        rows = await self._read(
            "SELECT slots FROM group_picks WHERE session_id = ? AND position = ? AND user_id = ?",
            (session_id, position, user_id),
        )
        return int(rows[0][0]) if rows else 0

    async def group_answers(self, session_id: int) -> list[GroupAnswer]:
        """See :meth:`bot.features.groups.ports.GroupStore.group_answers`."""
        return [
            GroupAnswer(r[0], r[1], r[2], bool(r[3]), r[4], r[5], chosen_of(r[6]))
            for r in await self._read(
                "SELECT user_id, question_id, option_index, correct, elapsed, answered_at, chosen"
                " FROM group_answers WHERE session_id = ?",
                (session_id,),
            )
        ]

    async def group_players(self, session_id: int) -> dict[int, str]:
        """See :meth:`bot.features.groups.ports.GroupStore.group_players`."""
        return {
            r[0]: r[1]
            for r in await self._read(
                "SELECT user_id, name FROM group_players WHERE session_id = ?", (session_id,)
            )
        }
