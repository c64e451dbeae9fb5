"""Per-group settings (``/settings``, group admins only): the pure rules (no Telegram, no SQL).

A group's settings apply to its next session: who may start and stop quizzes, the answer window,
the scoring, the bank, the number of questions. Every change bumps :attr:`GroupSettings.version`,
and every settings menu carries the version it showed, so a tap on an older menu is refused as
stale instead of undoing a newer change.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import StrEnum

from bot.features.groups.rules import RIGHT, SCORINGS, SPEED, Scoring
from bot.kernel.engine import Plan, QuizError


class WhoStarts(StrEnum):
    """Who may start (and stop) the group's quizzes, as stored (``group_settings.who_starts``)."""

    EVERYONE = "everyone"
    """Any member of the group."""
    ADMINS = "admins"
    """The group's administrators only."""


EVERYONE, ADMINS = WhoStarts
WHO = tuple(WhoStarts)

MIN_SECONDS, MAX_SECONDS = 5, 300
"""The answer windows a group may choose, in seconds (inclusive)."""
SECONDS_CHOICES = (5, 10, 15, 20, 30, 45, 60, 120, 300)
"""The windows the settings menu offers."""
COUNT_CHOICES = (0, 5, 10, 20)
"""Questions per session the menu offers; 0: every question of the bank."""

FIELDS = ("who", "seconds", "scoring", "bank", "language", "count")
"""The settings a menu button may change."""


class InvalidSetting(QuizError):
    """A setting's value is out of range or unknown (a forged button): nothing changes."""


class StaleSettings(QuizError):
    """The menu shows an older version of the settings: nothing changes."""


@dataclass(frozen=True)
class GroupSettings:
    """A group's settings, as stored (the defaults when it never changed any).

    Attributes:
        who_starts: :data:`EVERYONE` or :data:`ADMINS`.
        question_seconds: Answer window per question, :data:`MIN_SECONDS` to
            :data:`MAX_SECONDS`; None: the bot's default (``QUIZBOT_QUESTION_SECONDS``).
        scoring: :data:`~bot.features.groups.rules.SPEED` or
            :data:`~bot.features.groups.rules.RIGHT`.
        bank_id: The bank ``/quiz`` starts without an argument; None: ask (or the only one).
        question_count: Questions per session, a random selection; None: all of them.
        version: Bumped by every change (menus older than it are stale).
    """

    who_starts: WhoStarts = EVERYONE
    question_seconds: int | None = None
    scoring: Scoring = SPEED
    bank_id: str | None = None
    question_count: int | None = None
    version: int = 0


def change(
    settings: GroupSettings,
    version: int,
    field: str,
    value: str,
    banks: frozenset[str] | set[str],
    languages: tuple[str, ...],
) -> GroupSettings:
    """The settings after a menu tap (language changes keep the settings, bump the version).

    Args:
        settings: As stored now.
        version: The version the tapped menu showed.
        field: One of :data:`FIELDS`.
        value: The button's value (checked here: buttons can be forged).
        banks: Ids of the installed banks.
        languages: The supported UI languages.

    Raises:
        StaleSettings: ``version`` is not the stored one.
        InvalidSetting: unknown field, or a value out of range (seconds outside
            :data:`MIN_SECONDS`-:data:`MAX_SECONDS`, a bank that is not installed, ...).
    """
    if version != settings.version:
        raise StaleSettings(version)
    if field == "who" and value in WHO:
        new = replace(settings, who_starts=WhoStarts(value))
    elif field == "seconds" and value.isdigit() and MIN_SECONDS <= int(value) <= MAX_SECONDS:
        new = replace(settings, question_seconds=int(value))
    elif field == "scoring" and value in SCORINGS:
        new = replace(settings, scoring=Scoring(value))
    elif field == "bank" and value in banks:
        new = replace(settings, bank_id=value)
    elif field == "language" and value in languages:
        new = settings
    elif field == "count" and value.isdigit() and int(value) in COUNT_CHOICES:
        new = replace(settings, question_count=int(value) or None)
    else:
        raise InvalidSetting(f"{field}={value!r}")
    return replace(new, version=settings.version + 1)


def select(plan: Plan, count: int | None, rng: random.Random) -> Plan:
    """``plan`` cut to ``count`` questions chosen at random (kept in the plan's order); the
    whole plan when ``count`` is None or not smaller than it."""
    total = len(plan.question_order)
    if count is None or count >= total:
        return plan
    keep = sorted(rng.sample(range(total), count))
    return Plan(
        tuple(plan.question_order[i] for i in keep), tuple(plan.option_orders[i] for i in keep)
    )


__all__ = [
    "ADMINS",
    "EVERYONE",
    "RIGHT",
    "SPEED",
    "GroupSettings",
    "InvalidSetting",
    "Scoring",
    "StaleSettings",
    "WhoStarts",
    "change",
    "select",
]
