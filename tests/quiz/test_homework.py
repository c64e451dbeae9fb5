"""Tests for bot.features.homework.rules's pure rules (deadlines, reminders, progress) and
bot.kernel.zones (time zone names)."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.features.homework.rules import (
    MAX_DAYS,
    OPEN,
    Assignment,
    DeadlinePast,
    DeadlineTooFar,
    DeadlineUnreadable,
    parse_deadline,
    progress_due,
    reminder_due,
)
from bot.kernel.csvsafe import CsvRow
from bot.kernel.zones import DEFAULT_ZONE, UnknownZone, parse_zone, zone_info

HOUR, DAY = 3_600.0, 86_400.0


def at(text: str, zone: str) -> float:
    """``text`` (ISO wall-clock time) in ``zone`` as seconds since the epoch."""
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp()


def wall(moment: float, zone: str) -> str:
    """``moment`` as the wall-clock time in ``zone`` with its UTC offset."""
    return datetime.fromtimestamp(moment, ZoneInfo(zone)).isoformat(timespec="minutes")


NOW = at("2026-03-05 10:00", "Europe/Athens")  # a Thursday


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("90m", 90 * 60),
        ("12h", 12 * HOUR),
        ("3d", 3 * DAY),
        ("1w", 7 * DAY),
        (" 1D 12H ", 36 * HOUR),
        ("2h30m", 2.5 * HOUR),
        ("90d", 90 * DAY),
    ],
)
def test_durations_count_from_now(text, seconds):
    """A duration (minutes, hours, days, weeks, or several of them) is that long after now,
    whatever the zone."""
    assert parse_deadline(text, "Asia/Kolkata", NOW) == NOW + seconds


def test_a_date_and_time_is_read_in_the_chats_zone():
    """``YYYY-MM-DD HH:MM`` is that wall-clock time in the chat's zone, not UTC."""
    athens = parse_deadline("2026-03-06 18:00", "Europe/Athens", NOW)
    kolkata = parse_deadline("2026-03-06 18:00", "Asia/Kolkata", NOW)
    assert wall(athens, "Europe/Athens") == "2026-03-06T18:00+02:00"
    assert wall(kolkata, "Asia/Kolkata") == "2026-03-06T18:00+05:30"
    assert athens - kolkata == 3.5 * HOUR


def test_a_date_alone_is_the_end_of_that_day_in_the_zone():
    """``YYYY-MM-DD`` means 23:59 of that day where the chat is."""
    assert (
        wall(parse_deadline("2026-03-09", "America/New_York", NOW), "America/New_York")
        == "2026-03-09T23:59-04:00"
    )


def test_a_time_alone_is_its_next_occurrence():
    """``HH:MM`` is today's if it is still ahead in the chat's zone, else tomorrow's."""
    assert (
        wall(parse_deadline("18:00", "Europe/Athens", NOW), "Europe/Athens")
        == "2026-03-05T18:00+02:00"
    )
    assert (
        wall(parse_deadline("09:00", "Europe/Athens", NOW), "Europe/Athens")
        == "2026-03-06T09:00+02:00"
    )
    # 10:00 in Athens is 13:30 in Kolkata: 12:00 there is tomorrow's
    assert (
        wall(parse_deadline("12:00", "Asia/Kolkata", NOW), "Asia/Kolkata")
        == "2026-03-06T12:00+05:30"
    )


def test_daylight_saving_gaps_and_repeats_are_read_as_documented():
    """A time the clocks skip lands after the jump by as much as it is after the last time
    before it; a time shown twice is the first of the two; a duration across a change is
    exact in seconds."""
    now = at("2026-03-07 12:00", "America/New_York")  # the clocks jump 02:00 -> 03:00 on 8 March
    skipped = parse_deadline("2026-03-08 02:30", "America/New_York", now)
    assert wall(skipped, "America/New_York") == "2026-03-08T03:30-04:00"
    assert parse_deadline("1d", "America/New_York", now) == now + DAY
    assert wall(now + DAY, "America/New_York") == "2026-03-08T13:00-04:00"
    autumn = at("2026-10-31 12:00", "America/New_York")  # 02:00 -> 01:00 on 1 November
    twice = parse_deadline("2026-11-01 01:30", "America/New_York", autumn)
    assert wall(twice, "America/New_York") == "2026-11-01T01:30-04:00"  # the first, EDT
    assert twice + HOUR == at("2026-11-01 01:30", "EST")


def test_a_deadline_in_the_past_or_now_is_refused():
    """A deadline not after now raises DeadlinePast with the deadline read."""
    with pytest.raises(DeadlinePast) as refused:
        parse_deadline("2026-03-05 09:59", "Europe/Athens", NOW)
    assert refused.value.deadline == NOW - 60
    with pytest.raises(DeadlinePast):
        parse_deadline("0m", "UTC", NOW)
    with pytest.raises(DeadlinePast):
        parse_deadline("2026-03-05 10:00", "Europe/Athens", NOW)


def test_a_deadline_over_ninety_days_away_is_refused():
    """A deadline more than 90 days away raises DeadlineTooFar; exactly 90 days is allowed."""
    assert parse_deadline(f"{MAX_DAYS}d", "UTC", NOW) == NOW + MAX_DAYS * DAY
    with pytest.raises(DeadlineTooFar):
        parse_deadline("13w", "UTC", NOW)
    with pytest.raises(DeadlineTooFar):
        parse_deadline("2026-06-05", "Europe/Athens", NOW)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "soon",
        "friday",
        "12",
        "3 days",
        "25:00",
        "12:60",
        "2026-02-30",
        "2026-13-01 10:00",
        "05/03/2026",
        "-3d",
        "1.5d",
        "99999d",
    ],
)
def test_unreadable_deadlines_are_refused(text):
    """Anything but the documented forms (and impossible dates and times) raises
    DeadlineUnreadable with the text typed."""
    with pytest.raises(DeadlineUnreadable) as refused:
        parse_deadline(text, "UTC", NOW)
    assert refused.value.text == " ".join(text.split())


def test_reminders_come_at_the_nearest_threshold_passed_once():
    """The 24 h reminder is due from 24 h before the deadline, the 1 h one from 1 h before;
    each once, the farther one dropped when both passed unsent, none for a member who opened
    after the threshold, none at the deadline."""
    deadline = 10 * DAY
    assert reminder_due(deadline, 0.0, None, deadline - 25 * HOUR) is None
    assert reminder_due(deadline, 0.0, None, deadline - 24 * HOUR) == DAY
    assert reminder_due(deadline, 0.0, DAY, deadline - 5 * HOUR) is None
    assert reminder_due(deadline, 0.0, DAY, deadline - HOUR) == HOUR
    assert reminder_due(deadline, 0.0, None, deadline - 0.5 * HOUR) == HOUR  # 24 h dropped
    assert reminder_due(deadline, 0.0, HOUR, deadline - 0.5 * HOUR) is None
    assert reminder_due(deadline, deadline - 20 * HOUR, None, deadline - 10 * HOUR) is None
    assert reminder_due(deadline, deadline - 20 * HOUR, None, deadline - HOUR) == HOUR
    assert reminder_due(deadline, deadline - 0.5 * HOUR, None, deadline - 0.2 * HOUR) is None
    assert reminder_due(deadline, 0.0, None, deadline) is None


def test_progress_is_due_when_the_count_changed_and_a_minute_passed():
    """A posted message is edited when its count differs from the finished count and its last
    edit is at least 60 s old; never before it is posted."""
    homework = Assignment(
        1,
        -1,
        None,
        "hwAAAAAAAAAAAAAAAA",
        "b",
        1,
        "en",
        1,
        "T",
        0.0,
        DAY,
        OPEN,
        message_id=5,
        shown_finished=2,
        shown_at=100.0,
    )
    assert not progress_due(homework, 2, 1_000.0)
    assert not progress_due(homework, 3, 159.0)
    assert progress_due(homework, 3, 160.0)
    unposted = Assignment(1, -1, None, "hwAAAAAAAAAAAAAAAA", "b", 1, "en", 1, "T", 0.0, DAY, OPEN)
    assert not progress_due(unposted, 3, 1_000.0)


def test_csv_cells_defuse_spreadsheet_formulas():
    """A name or option that a spreadsheet would run as a formula is written with a leading
    apostrophe; other text is written as typed."""
    row = CsvRow(1, '=HYPERLINK("x")', 2, "q2", "+1", True, "t", "s", "")
    assert row.cells() == ("1", '\'=HYPERLINK("x")', "2", "q2", "'+1", "right", "t", "s", "")
    plain = CsvRow(1, "Ann <b>", 1, "q1", "Paris", False, "t", "s", "f")
    assert plain.cells()[1:6] == ("Ann <b>", "1", "q1", "Paris", "wrong")


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("Europe/Athens", "Europe/Athens"),
        ("america/new york", "America/New_York"),
        ("Kolkata", "Asia/Kolkata"),
        (" ATHENS ", "Europe/Athens"),
        ("utc", "UTC"),
        ("GMT", "UTC"),
        ("Asia/Calcutta", "Asia/Calcutta"),
    ],
)
def test_zones_are_read_by_name_or_city(text, zone):
    """A full IANA name, a city only one zone ends with, or UTC is read case-insensitively."""
    assert parse_zone(text) == zone


@pytest.mark.parametrize("text", ["", "Mars/Olympus", "+05:30", "Europe", "nowhere"])
def test_unknown_zones_are_refused(text):
    """A text that names no zone raises UnknownZone with the text."""
    with pytest.raises(UnknownZone) as refused:
        parse_zone(text)
    assert refused.value.text == text.strip()


def test_a_stored_zone_this_machine_lacks_reads_as_the_default():
    """zone_info never fails on a stored name: an unknown one is UTC."""
    assert zone_info("Nowhere/Atlantis") == ZoneInfo(DEFAULT_ZONE)
    assert zone_info("Asia/Kolkata") == ZoneInfo("Asia/Kolkata")
