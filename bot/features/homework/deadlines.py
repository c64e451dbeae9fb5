"""Reading a homework deadline typed in a group (``90m``, ``3d``, ``2026-12-24 18:00``,
``18:00``) in the group's time zone, and the refusals of a deadline (issue 22: "a deadline in
the past or over 90 days away"). Pure: text, zone and time in, seconds since the epoch out.
The names are also reachable from :mod:`bot.features.homework.rules`.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta

from bot.kernel.engine import QuizError
from bot.kernel.zones import zone_info

MAX_DAYS = 90
"""A deadline may be at most this many days away."""
UNITS = {"m": 60.0, "h": 3_600.0, "d": 86_400.0, "w": 604_800.0}
"""Seconds per unit of a duration (``90m``, ``12h``, ``3d``, ``1w``)."""


class DeadlineUnreadable(QuizError):
    """The deadline is none of the forms :func:`parse_deadline` reads.

    Attributes:
        text: What was typed.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class DeadlineRefused(QuizError):
    """Base of the refusals of a deadline that was read.

    Attributes:
        deadline: The deadline read, in seconds since the epoch.
    """

    def __init__(self, deadline: float) -> None:
        super().__init__(deadline)
        self.deadline = deadline


class DeadlinePast(DeadlineRefused):
    """The deadline is not in the future."""


class DeadlineTooFar(DeadlineRefused):
    """The deadline is more than :data:`MAX_DAYS` days away."""


_DURATION = re.compile(r"(?:(\d{1,4})\s*([mhdw])\s*)+", re.IGNORECASE)
_PART = re.compile(r"(\d{1,4})\s*([mhdw])", re.IGNORECASE)
_DATE_TIME = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T]+(\d{1,2}):(\d{2}))?")
_TIME = re.compile(r"(\d{1,2}):(\d{2})")
END_OF_DAY = time(23, 59)
"""The time of day a deadline given as a date alone means."""


def parse_deadline(text: str, zone: str, now: float) -> float:
    """The deadline ``text`` means, typed in a chat whose time zone is ``zone``, at ``now``.

    Forms (case-insensitive, surrounding spaces ignored):

    - a duration from now: ``90m``, ``12h``, ``3d``, ``1w``, or several (``1d 12h``);
    - ``YYYY-MM-DD HH:MM``: that wall-clock time in ``zone``;
    - ``YYYY-MM-DD``: the end of that day (:data:`END_OF_DAY`) in ``zone``;
    - ``HH:MM``: the next time the clocks in ``zone`` show it (today, else tomorrow).

    A wall-clock time the clocks skip (a daylight-saving gap) means the moment as far after the
    jump as it is after the last time before it; one they show twice (clocks turned back), the
    first of the two (:pep:`495`'s ``fold=0``).

    Args:
        text: What the admin typed.
        zone: An IANA time zone name (:func:`bot.kernel.zones.parse_zone`).
        now: Seconds since the epoch.

    Returns:
        The deadline in seconds since the epoch.

    Raises:
        DeadlineUnreadable: none of the forms.
        DeadlinePast: not after ``now``.
        DeadlineTooFar: more than :data:`MAX_DAYS` days after ``now``.
    """
    cleaned = " ".join(text.split())
    deadline = _read(cleaned, zone, now)
    if deadline is None:
        raise DeadlineUnreadable(cleaned)
    return check_deadline(deadline, now)


def check_deadline(deadline: float, now: float) -> float:
    """``deadline`` (seconds since the epoch) if it is after ``now`` and at most
    :data:`MAX_DAYS` days after it.

    Raises:
        DeadlinePast, DeadlineTooFar: it is not.
    """
    if deadline <= now:
        raise DeadlinePast(deadline)
    if deadline - now > MAX_DAYS * UNITS["d"]:
        raise DeadlineTooFar(deadline)
    return deadline


def _read(text: str, zone: str, now: float) -> float | None:
    """The moment ``text`` means, unchecked; None if it is no form."""
    if _DURATION.fullmatch(text):
        return now + sum(int(n) * UNITS[unit.lower()] for n, unit in _PART.findall(text))
    tz = zone_info(zone)
    if match := _DATE_TIME.fullmatch(text):
        year, month, day, hour, minute = match.groups()
        try:
            day_of = date(int(year), int(month), int(day))
            at = time(int(hour), int(minute)) if hour is not None else END_OF_DAY
        except ValueError:
            return None
        return datetime.combine(day_of, at, tz).timestamp()
    if match := _TIME.fullmatch(text):
        try:
            at = time(int(match[1]), int(match[2]))
        except ValueError:
            return None
        today = datetime.fromtimestamp(now, tz).date()
        for day_of in (today, today + timedelta(days=1)):
            moment = datetime.combine(day_of, at, tz).timestamp()
            if moment > now:
                return moment
        return None  # unreachable: tomorrow's is always later
    return None
