"""A group's or channel's time zone: IANA names (``Europe/Athens``, ``Asia/Kolkata``) read with
the standard :mod:`zoneinfo` over the ``tzdata`` package, so that every zone exists on any
machine. Telegram gives bots no time zone of a chat: a chat has :data:`DEFAULT_ZONE` until an
admin sets one (``/timezone``); the choice is kept through
:class:`bot.features.homework.ports.TimeZoneStore`.

Pure: names in, names (or :class:`~zoneinfo.ZoneInfo`) out.
"""

from __future__ import annotations

import functools
import re
import zoneinfo

from bot.kernel.engine import QuizError

DEFAULT_ZONE = "UTC"
"""The time zone of a chat that never set one."""

_ALIASES = {"utc": "UTC", "gmt": "UTC", "z": "UTC", "zulu": "UTC", "universal": "UTC"}


class UnknownZone(QuizError):
    """The text names no IANA time zone.

    Attributes:
        text: What was typed (stripped).
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


@functools.cache
def _names() -> tuple[dict[str, str], dict[str, str | None]]:
    """(casefolded full name -> name, casefolded last part -> name, or None when several
    zones share that last part), over every zone ``tzdata`` knows."""
    full: dict[str, str] = {}
    last: dict[str, str | None] = {}
    for name in sorted(zoneinfo.available_timezones()):
        full[name.casefold()] = name
        if name.startswith(("Etc/", "SystemV/")) or "/" not in name:
            continue
        key = name.rsplit("/", 1)[1].casefold()
        last[key] = name if key not in last else None
    return full, last


def parse_zone(text: str) -> str:
    """The IANA time zone ``text`` names.

    Accepted, case-insensitively, with spaces for underscores: a full name
    (``Europe/Athens``, ``america/new york``), a city that only one zone ends with
    (``Kolkata``, ``Athens``), and ``UTC`` (``GMT``, ``Z``).

    Returns:
        The zone's canonical spelling (``"America/New_York"``).

    Raises:
        UnknownZone: no zone has that name (or the text is empty).
    """
    cleaned = text.strip()
    key = re.sub(r"\s+", "_", cleaned).casefold()
    if key in _ALIASES:
        return _ALIASES[key]
    full, last = _names()
    found = full.get(key) or last.get(key)
    if found is None:
        raise UnknownZone(cleaned)
    return found


def zone_info(name: str) -> zoneinfo.ZoneInfo:
    """The :class:`~zoneinfo.ZoneInfo` of a stored zone name; :data:`DEFAULT_ZONE` for a name
    this machine does not know (a stored zone that ``tzdata`` dropped: never fails)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(DEFAULT_ZONE)
