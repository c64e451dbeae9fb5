"""The send budgets of every instance sharing one PostgreSQL database (migration 0019): what
``bot.telegram.jobsends.SharedSends`` asks of the storage.

A budget is a row of ``send_budgets``: ``next_at`` is when its next send may go, on the
server's clock (so the instances' clocks need not agree). Taking a span moves it on by the
span, from now when the budget was idle (virtual scheduling, as in ATM's GCRA): the spans
the instances reserve never overlap, so their sends together keep to the rate. Each take is
one statement, on a pooled connection, for a batch of sends.

A group's job sends are the times in its ``group_sends`` row, those of the last window kept;
a send is counted only while fewer than the limit are there (one statement, and a second one
to say how long to wait when the group is full).
"""

from __future__ import annotations

import asyncpg

from bot.kernel.ports import StorageError
from storage.postgres.writer import FAILURES

_NOW = "extract(epoch FROM clock_timestamp())::float8"

TAKE = f"""
WITH now AS (SELECT {_NOW} AS t)
INSERT INTO send_budgets AS b (name, next_at)
SELECT $1, now.t + $2 FROM now
ON CONFLICT (name) DO UPDATE
    SET next_at = greatest(b.next_at, (SELECT t FROM now)) + $2
RETURNING b.next_at - $2 - (SELECT t FROM now)
"""
"""Reserve the next $2 seconds of budget $1: the seconds until the span begins."""

TAKE_GROUP = f"""
WITH now AS (SELECT {_NOW} AS t)
INSERT INTO group_sends AS g (bot_id, chat_id, sent)
SELECT $1, $2, ARRAY[now.t] FROM now
ON CONFLICT (bot_id, chat_id) DO UPDATE
    SET sent = ARRAY(SELECT s FROM unnest(g.sent) AS s
                     WHERE s > (SELECT t FROM now) - $4 ORDER BY s)
               || (SELECT t FROM now)
    WHERE (SELECT count(*) FROM unnest(g.sent) AS s WHERE s > (SELECT t FROM now) - $4) < $3
RETURNING 1
"""
"""Count a send to group $2 of bot $1 if fewer than $3 in the last $4 seconds: a row if so."""

GROUP_WAIT = f"""
SELECT min(s) + $3 - {_NOW} FROM group_sends, unnest(sent) AS s
WHERE bot_id = $1 AND chat_id = $2 AND s > {_NOW} - $3
"""
"""Seconds until the oldest counted send to group $2 leaves the $3-second window."""

PRUNE = f"DELETE FROM group_sends WHERE sent[cardinality(sent)] < {_NOW} - $1"
"""Forget the groups sent nothing in the last $1 seconds."""

PRUNE_EVERY = 1000
"""Group sends counted between two prunes of the groups without a send in the window."""


class PostgresSends:
    """The shared send budgets (``bot.telegram.jobsends.SharedSends``) of the bot ``bot_id``.

    Args:
        pool: The store's connection pool.
        bot_id: The bot's id (several bots may share one database).
    """

    def __init__(self, pool: asyncpg.Pool, bot_id: int) -> None:
        self._pool = pool
        self.bot_id = bot_id
        self._counted = 0

    async def take(self, budget: str, seconds: float) -> float:
        """See ``SharedSends.take``.

        Raises:
            StorageError: the server could not be reached or failed the statement.
        """
        try:
            async with self._pool.acquire() as db:
                return float(await db.fetchval(TAKE, budget, seconds))
        except FAILURES as exc:
            raise StorageError(f"cannot take from send budget {budget}: {exc}") from exc

    async def take_group(self, chat_id: int, limit: int, window: float) -> float:
        """See ``SharedSends.take_group``.

        Raises:
            StorageError: the server could not be reached or failed a statement.
        """
        try:
            async with self._pool.acquire() as db:
                if await db.fetchval(TAKE_GROUP, self.bot_id, chat_id, limit, window):
                    self._counted += 1
                    if self._counted % PRUNE_EVERY == 0:
                        await db.execute(PRUNE, window)
                    return 0.0
                wait = await db.fetchval(GROUP_WAIT, self.bot_id, chat_id, window)
        except FAILURES as exc:
            raise StorageError(f"cannot count a send to group {chat_id}: {exc}") from exc
        return max(0.01, float(wait or 0.0))
