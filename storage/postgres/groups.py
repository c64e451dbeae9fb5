"""PostgreSQL statements of group quiz sessions (:class:`bot.features.groups.ports.GroupStore`),
mixed into :class:`storage.postgres.store.PostgresStore`: group chats' languages and settings,
sessions, their answers and players (the twins of :mod:`storage.groups`). Those that are the
same in both dialects are written once (:class:`storage.shared_groups.SharedGroupStatements`);
PostgreSQL's own are here.

Writes go through the group-commit writer (:class:`storage.postgres.writer.PostgresWriter`);
every read is one statement run to completion.
"""

from __future__ import annotations

from bot.features.groups.ports import GroupTally
from bot.features.groups.rules import GroupAnswer
from bot.kernel.ports import CLOSED, DUPLICATE, RECORDED
from storage.postgres.writer import PostgresWriter
from storage.rows import chosen_text
from storage.shared_groups import SharedGroupStatements


class PostgresGroupStatements(PostgresWriter, SharedGroupStatements):
    """The :class:`~bot.features.groups.ports.GroupStore` methods."""

    async def record_group_answer(
        self,
        session_id: int,
        position: int,
        answer: GroupAnswer,
        name: str,
        language: str | None = None,
    ) -> GroupTally:
        """See :meth:`bot.features.groups.ports.GroupStore.record_group_answer`.

        One statement: the window check locks the session's row (so a close from another
        instance either waits for this answer or is seen by it: a tap racing the reveal is in
        the tally or told it was too late, never both), the primary key decides a duplicate,
        and the counts move with the insert.
        """
        rows = await self._write_returning(
            "WITH open AS (SELECT session_id FROM group_sessions WHERE session_id = $1"
            "  AND status = 'active' AND position = $2 AND deadline >= $3 FOR UPDATE),"
            " inserted AS (INSERT INTO group_answers (session_id, question_id, user_id,"
            "  option_index, correct, elapsed, answered_at, chosen, language)"
            "  SELECT session_id, $4, $5, $6, $7, $8, $3, $10, $11 FROM open"
            "  ON CONFLICT DO NOTHING RETURNING user_id),"
            " player AS (INSERT INTO group_players (session_id, user_id, name)"
            "  SELECT $1, user_id, $9 FROM inserted"
            "  ON CONFLICT (session_id, user_id) DO UPDATE SET name = excluded.name"
            "  WHERE group_players.name <> excluded.name RETURNING (xmax = 0) AS joined),"
            " new AS (SELECT COUNT(*) FILTER (WHERE joined)::int AS n FROM player),"
            " counts AS (UPDATE group_sessions g SET answered = g.answered + 1,"
            "  players = g.players + new.n, joined = g.joined + new.n FROM new"
            "  WHERE g.session_id = $1 AND EXISTS (SELECT 1 FROM inserted)"
            "  RETURNING g.answered, g.players, g.joined)"
            " SELECT EXISTS (SELECT 1 FROM open), counts.answered, counts.players,"
            "  counts.joined FROM (SELECT 1) AS one LEFT JOIN counts ON true",
            (
                session_id,
                position,
                answer.answered_at,
                answer.question_id,
                answer.user_id,
                answer.option_index,
                int(answer.correct),
                answer.elapsed,
                name,
                chosen_text(answer.chosen),
                language,
            ),
        )
        is_open, answered, players, joined = rows[0]
        if answered is not None:
            return GroupTally(RECORDED, answered, players, joined)
        return GroupTally(DUPLICATE if is_open else CLOSED)
