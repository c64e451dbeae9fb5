"""Members as the screens show them: a deleted user's pseudonyms in group sessions (negative
ids, one per session) and the name they have there. Pure."""

from __future__ import annotations

from collections.abc import Iterable

DELETED_NAME = ""
"""The name a deleted user has on the leaderboards of group sessions (shown as "deleted user")."""


def is_deleted(user_id: int) -> bool:
    """Whether ``user_id`` is the pseudonym of a deleted user in a group session (Telegram user
    ids are positive; pseudonyms are negative)."""
    return user_id < 0


def pseudonyms(lowest: int | None, sessions: Iterable[int]) -> dict[int, int]:
    """The pseudonym a deleted user takes in each group session they played: a new one per
    session (nothing links them), each below every id already among the sessions' players.

    Args:
        lowest: The lowest user id among all group sessions' players (earlier pseudonyms are
            negative), or None when there are none.
        sessions: The ids of the sessions the user played in.

    Returns:
        Session id to pseudonym (negative: :func:`is_deleted` is true of it).
    """
    start = min(lowest or 0, 0)
    return {session_id: start - n for n, session_id in enumerate(sessions, start=1)}
