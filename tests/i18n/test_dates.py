"""Dates in each reader's calendar: Persian in the Solar Hijri calendar (CLDR's default for
fa), every other language in Babel's Gregorian one."""

from __future__ import annotations

from datetime import datetime

import pytest
from babel.dates import format_date as babel_format_date
from babel.dates import format_skeleton

from bot import i18n
from bot.features.homework import screens as homework_screens
from bot.i18n.dates import format_date, format_month_day

MONDAY = datetime(2026, 12, 7, 9, 0)  # 16 Azar 1405
NOWRUZ = datetime(2027, 3, 21, 12, 0)  # 1 Farvardin 1406, the first day of the year


def test_persian_dates_are_solar_hijri_with_cldr_patterns() -> None:
    assert format_date(MONDAY, "full", "fa") == "دوشنبه 16 آذر 1405"
    assert format_date(MONDAY, "medium", "fa") == "16 آذر 1405"
    assert format_month_day(MONDAY, "fa") == "9/16"
    assert format_date(NOWRUZ, "medium", "fa") == "1 فروردین 1406"
    assert format_date(datetime(2027, 3, 20), "medium", "fa") == "29 اسفند 1405"


@pytest.mark.parametrize("language", [code for code in i18n.SUPPORTED if code != "fa"])
def test_other_languages_keep_babels_gregorian_dates(language: str) -> None:
    for width in ("full", "medium"):
        if language == "id" and width == "full":
            assert format_date(MONDAY, width, language) == "Senin, 7 Desember 2026"
            continue
        assert format_date(MONDAY, width, language) == babel_format_date(
            MONDAY, width, locale=language
        )
    assert format_month_day(MONDAY, language) == format_skeleton("Md", MONDAY, locale=language)


def test_a_homework_deadline_reads_in_the_persian_calendar() -> None:
    shown = homework_screens.local_time(MONDAY.timestamp(), "UTC", i18n.catalog("fa"))
    assert "آذر 1405" in shown and "دسامبر" not in shown
