"""Dates as each language's readers write them, in their calendar.

Babel formats dates in the Gregorian calendar only. CLDR's default calendar for Persian
(``fa``) is the Solar Hijri one (``<calendar type="persian">``; the Iranian and Afghan civil
calendar): a date shown to a Persian reader is converted with jdatetime and written with
CLDR's Persian-calendar patterns for ``fa``, with Latin digits as the rest of the Persian
catalog (docs/translating.md). Every other language is Babel's Gregorian date, with
:data:`PATTERNS` where CLDR's differs from how the language's teachers write a date.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

import jdatetime
from babel.dates import format_date as babel_format_date
from babel.dates import format_skeleton, get_day_names

Width = Literal["full", "medium"]

SOLAR_HIJRI_LANGUAGES = frozenset({"fa"})
"""Languages whose dates are in the Solar Hijri calendar (CLDR's default calendar for them)."""

PATTERNS: dict[tuple[str, str], str] = {
    # CLDR's id full date is "EEEE, dd MMMM y" ("Senin, 07 Desember 2026"); Indonesian
    # writes the day without a leading zero (PUEBI; the medium date already does)
    ("id", "full"): "EEEE, d MMMM y",
}
"""Date patterns (language, width) used instead of CLDR's."""

_PERSIAN_MONTHS = (
    "فروردین",
    "اردیبهشت",
    "خرداد",
    "تیر",
    "مرداد",
    "شهریور",
    "مهر",
    "آبان",
    "آذر",
    "دی",
    "بهمن",
    "اسفند",
)
"""CLDR's ``fa`` Persian-calendar month names (format, wide; the abbreviated ones are the
same)."""


def _solar_hijri(moment: datetime) -> jdatetime.date:
    return jdatetime.date.fromgregorian(date=moment.date())


def format_date(moment: datetime, width: Width, language: str) -> str:
    """``moment``'s date in ``language``: CLDR's ``full`` ("Monday, December 7, 2026") or
    ``medium`` ("Dec 7, 2026") date; in the Solar Hijri calendar for
    :data:`SOLAR_HIJRI_LANGUAGES` (CLDR ``fa`` persian: ``EEEE d MMMM y``, ``d MMM y``)."""
    if language not in SOLAR_HIJRI_LANGUAGES:
        pattern = PATTERNS.get((language, width), width)
        return str(babel_format_date(moment, pattern, locale=language))
    day = _solar_hijri(moment)
    written = f"{day.day} {_PERSIAN_MONTHS[day.month - 1]} {day.year}"
    if width == "full":
        weekday = get_day_names("wide", locale=language)[moment.weekday()]
        return f"{weekday} {written}"
    return written


def format_month_day(moment: datetime, language: str) -> str:
    """``moment``'s day and month in the language's numeric order (CLDR skeleton ``Md``:
    12/7, 7/12); in the Solar Hijri calendar for :data:`SOLAR_HIJRI_LANGUAGES` (``M/d``)."""
    if language not in SOLAR_HIJRI_LANGUAGES:
        return str(format_skeleton("Md", moment, locale=language))
    day = _solar_hijri(moment)
    return f"{day.month}/{day.day}"
