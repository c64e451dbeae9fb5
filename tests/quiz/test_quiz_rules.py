"""The quiz rules storage used to hold, now the core's: which attempts count in /stats and the
record made of them (bot.features.learning.stats), the deleted user's pseudonyms
(bot.features.privacy.service), and the enums for record outcomes, scoring and who may start, kept
as such through storage (both engines)."""

from __future__ import annotations

import pytest

from bot.features.groups import settings
from bot.features.groups.rules import RIGHT, SPEED, GroupAnswer, Scoring, SessionStatus
from bot.features.groups.settings import ADMINS, EVERYONE, GroupSettings, WhoStarts
from bot.features.learning.stats import MOST_MISSED, bank_stats
from bot.kernel.engine import Answer, Plan
from bot.kernel.members import is_deleted, pseudonyms
from bot.kernel.ports import CLOSED, RECORDED, RecordOutcome
from tests.support.engines import record

PLAN = Plan(("q1", "q2"), ((0, 1, 2, 3), (3, 2, 1, 0)))


def test_pseudonyms_are_new_per_session_and_below_every_player():
    """Each session gets its own negative id, below the lowest id among the players (earlier
    pseudonyms included); with no players yet, they start at -1."""
    assert pseudonyms(None, [10, 11]) == {10: -1, 11: -2}
    assert pseudonyms(5, [10]) == {10: -1}
    assert pseudonyms(-3, [10, 11, 12]) == {10: -4, 11: -5, 12: -6}
    assert pseudonyms(-3, []) == {}
    assert all(is_deleted(p) for p in pseudonyms(42, range(5)).values())


def test_bank_stats_last_played_first_with_the_most_missed_capped():
    """Per bank: attempts counted, best, last and its total; the bank played last first; at
    most MOST_MISSED questions named."""
    finished = [("a", 10, 4), ("b", 5, 5), ("a", 10, 7), ("a", 12, 6)]
    misses = [("a", f"q{i}", 9 - i) for i in range(MOST_MISSED + 2)] + [("b", "x", 1)]
    a, b = bank_stats(finished, misses)
    assert (a.bank_id, a.attempts, a.best, a.last, a.total) == ("a", 3, 7, 6, 12)
    assert a.most_missed == tuple((f"q{i}", 9 - i) for i in range(MOST_MISSED))
    assert (b.bank_id, b.attempts, b.best, b.last, b.total, b.most_missed) == (
        "b",
        1,
        5,
        5,
        5,
        (("x", 1),),
    )
    assert bank_stats([], []) == []


def test_settings_change_gives_the_enums():
    """A menu tap's text value becomes the enum member (the settings carry no bare strings)."""
    chosen = settings.change(GroupSettings(), 0, "who", "admins", set(), ("en",))
    assert chosen.who_starts is WhoStarts.ADMINS is ADMINS
    chosen = settings.change(chosen, 1, "scoring", "right", set(), ("en",))
    assert chosen.scoring is Scoring.RIGHT is RIGHT
    assert GroupSettings().who_starts is EVERYONE and GroupSettings().scoring is SPEED
    with pytest.raises(settings.InvalidSetting):
        settings.change(chosen, 2, "who", "owners", set(), ("en",))


async def test_storage_keeps_the_enums_and_counts_only_finished_plays(engine):
    """Both engines hand back enum members (settings, a session's scoring, record outcomes),
    and /stats counts a finished attempt and a finished session the user answered in, not an
    abandoned attempt or a stopped session."""
    store = await engine.open()
    try:
        assert await store.save_group_settings(
            -1, GroupSettings(who_starts=ADMINS, scoring=RIGHT, version=1), 0
        )
        stored = await store.group_settings(-1)
        assert stored is not None
        assert type(stored.who_starts) is WhoStarts and stored.who_starts is ADMINS
        assert type(stored.scoring) is Scoring and stored.scoring is RIGHT

        finished = await store.start_attempt(7, "bank", 1, PLAN, now=1.0)
        outcome = await record(store, finished, Answer("q1", 0, True, 2.0))
        assert type(outcome) is RecordOutcome and outcome is RECORDED
        assert await record(store, finished, Answer("q1", 0, True, 2.0)) is CLOSED  # moved on
        again = await store.attempt(finished.id)
        assert again is not None
        await record(store, again, Answer("q2", 1, False, 3.0))
        abandoned = await store.start_attempt(7, "bank", 1, PLAN, now=4.0)
        await record(store, abandoned, Answer("q1", 0, True, 5.0))
        assert await store.abandon(abandoned.id, 6.0)

        for status in (SessionStatus.FINISHED, SessionStatus.STOPPED):
            session = await store.start_session(
                -100, "bank", 1, "en", 7, PLAN, 30.0, 7.0, scoring=SPEED
            )
            assert session is not None and type(session.scoring) is Scoring
            assert (await store.session(session.id)).scoring is SPEED
            await store.open_question(session.id, 0, 100.0)
            tally = await store.record_group_answer(
                session.id, 0, GroupAnswer(7, "q1", 0, True, 7.5, 8.0), "User 7"
            )
            assert type(tally.outcome) is RecordOutcome and tally.outcome is RECORDED
            await store.end_session(session.id, status, 9.0)

        [mine] = await store.stats(7)
        assert (mine.attempts, mine.best, mine.last, mine.total) == (2, 1, 1, 2)
        assert mine.most_missed == (("q2", 1),)
    finally:
        await store.close()
