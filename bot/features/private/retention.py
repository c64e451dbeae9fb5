"""How long a private quiz's personal data is kept (:class:`Retention`), read by
:meth:`bot.features.private.service.QuizService.prune`."""

from __future__ import annotations

from dataclasses import dataclass

DAY = 86_400.0
"""Seconds in a day."""


@dataclass(frozen=True)
class Retention:
    """How long personal data that no longer serves anyone is kept (see README, "Security and
    privacy"); :meth:`QuizService.prune` deletes what is older, once a day.

    Attributes:
        abandoned_attempt_days: An abandoned attempt (stopped, replaced by a new one, or on a
            bank that changed) and its answers are deleted this many days after it ended.
            Finished attempts stay: they are the user's /stats.
        player_name_days: The display names of a group session's players are blanked this many
            days after the session ended (finished or stopped); answers and scores stay, and
            leaderboards of younger sessions keep their names.
    """

    abandoned_attempt_days: float = 90.0
    player_name_days: float = 30.0
