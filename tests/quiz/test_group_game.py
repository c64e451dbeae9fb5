"""The group game's pure rules: speed scoring, streaks, the leaderboard order, the clock edit,
the group's message budget and the per-group settings."""

from __future__ import annotations

import random

import pytest

from bot.features.groups import pacing, settings
from bot.features.groups import rules as group
from bot.features.groups.pacing import Step
from bot.features.groups.rules import GroupAnswer, GroupSession
from bot.kernel.engine import Plan
from bot.telegram.groupminute import GroupMinute

QUESTIONS = ("q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8")


def session(scoring: str = group.SPEED, seconds: float = 30.0, **fields) -> GroupSession:
    """A session of 8 questions with 4 options each."""
    plan = Plan(QUESTIONS, tuple((0, 1, 2, 3) for _ in QUESTIONS))
    return GroupSession(1, -100, "bank", 1, "en", 7, plan, seconds, scoring=scoring, **fields)


def answer(user: int, question: str, correct: bool, elapsed: float = 0.0) -> GroupAnswer:
    return GroupAnswer(user, question, 0 if correct else 1, correct, elapsed, 1000.0 + elapsed)


def test_points_fall_with_answer_time_from_1000_to_500():
    """Kahoot's formula: 1000 at once, 750 at half the window, 500 at (or after) the deadline."""
    assert group.answer_points(True, 0.0, 30.0) == 1000
    assert group.answer_points(True, 15.0, 30.0) == 750
    assert group.answer_points(True, 30.0, 30.0) == 500
    assert group.answer_points(True, 31.0, 30.0) == 500  # settled taps after the deadline
    assert group.answer_points(True, -1.0, 30.0) == 1000
    assert group.answer_points(False, 0.0, 30.0) == 0


def test_streak_bonus_grows_by_100_up_to_500():
    assert [group.streak_bonus(n) for n in range(0, 9)] == [0, 0, 100, 200, 300, 400, 500, 500, 500]


def test_a_wrong_or_missing_answer_earns_nothing_and_ends_the_streak():
    s = session()
    answers = [
        answer(1, "q1", True),
        answer(1, "q2", True),
        answer(1, "q3", False),
        answer(1, "q4", True),
        answer(1, "q5", True),  # q6 missed
        answer(1, "q7", True),
    ]
    points = group.points(s, answers)
    assert [points[1, q] for q in ("q1", "q2", "q3", "q4", "q5", "q7")] == [
        1000,
        1100,
        0,
        1000,
        1100,
        1000,
    ]
    assert group.best_streaks(s, answers) == {1: 2}


def test_right_answers_scoring_counts_right_answers():
    s = session(group.RIGHT)
    answers = [answer(1, "q1", True, 29.0), answer(1, "q2", False), answer(2, "q1", True, 1.0)]
    board = group.leaderboard(answers, {1: "Ann", 2: "Bo"}, s)
    assert [(x.user_id, x.score, x.right, x.answered) for x in board] == [
        (2, 1, 1, 1),
        (1, 1, 1, 2),
    ]


def test_leaderboard_shows_points_right_answers_and_longest_streak():
    s = session()
    answers = (
        [answer(1, q, True, 3.0) for q in QUESTIONS[:4]]
        + [answer(2, q, True, 0.0) for q in QUESTIONS[:2]]
        + [answer(2, "q3", False)]
    )
    first, second = group.leaderboard(answers, {1: "Ann", 2: "Bo"}, s)
    assert (first.user_id, first.right, first.best_streak) == (1, 4, 4)
    assert first.score == 4 * 950 + 100 + 200 + 300
    assert (second.user_id, second.score, second.right, second.best_streak) == (2, 2100, 2, 2)


def test_ties_are_broken_by_right_answers_then_time_then_user_id():
    """Same points: more right answers first; then less total time; then the lower user id
    (names change, ids don't): the order never depends on the answers' order."""
    s = session(group.RIGHT)
    answers = [
        answer(5, "q1", True, 2.0),
        answer(4, "q1", True, 2.0),
        answer(3, "q1", True, 1.0),
        answer(9, "q2", False, 0.5),
    ]
    for order in (answers, answers[::-1]):
        board = group.leaderboard(order, {}, s)
        assert [x.user_id for x in board] == [3, 4, 5, 9]
        assert [x.rank for x in board] == [1, 2, 3, 4]


def test_the_clock_edit_is_due_once_at_a_third_of_the_window_left():
    s = session(seconds=30.0, deadline=1030.0, message_id=5)
    assert pacing.clock_at(s) == 1020.0 and pacing.clock_left(s) == 10
    assert pacing.next_step(s, 1019.0, clocked=False) is Step.WAIT
    assert pacing.next_step(s, 1020.0, clocked=False) is Step.CLOCK
    assert pacing.next_step(s, 1020.0, clocked=True) is Step.WAIT
    assert pacing.next_step(s, 1030.0, clocked=False) is Step.CLOSE
    assert pacing.next_step(s, 1020.0, clocked=False, close_early=True) is Step.CLOSE
    unposted = session(seconds=30.0, deadline=1030.0)  # no message to edit
    assert pacing.next_step(unposted, 1025.0, clocked=False) is Step.WAIT
    short = session(seconds=1.4, deadline=1001.4, message_id=5)  # under a second left
    assert pacing.clock_at(short) is None
    assert pacing.next_step(short, 1001.0, clocked=False) is Step.WAIT


def test_revealable_only_once_closed_or_ended():
    s = session(position=3, deadline=1030.0)
    assert pacing.revealable(s, 2) and not pacing.revealable(s, 3)
    assert not pacing.revealable(s, 8) and not pacing.revealable(s, -1)
    assert pacing.revealable(session(position=3, status=group.STOPPED), 3)


def test_a_groups_minute_counts_a_sliding_minute_per_group():
    """The rate limiter's count of a group's sends and edits holds those of the last minute
    only, each group apart."""
    now = [0.0]
    minute = GroupMinute(clock=lambda: now[0])
    for _ in range(17):
        minute.note(-1)
    now[0] = 30.0
    minute.note(-1)
    assert minute.used(-1) == 18 and minute.used(-2) == 0  # another group has its own
    now[0] = 60.0  # the first 17 have left the window
    assert minute.used(-1) == 1
    now[0] = 90.0  # and the last: the group is forgotten
    assert minute.used(-1) == 0


# --- settings ------------------------------------------------------------------------------

BANKS = {"alpha", "beta"}
LANGS = ("en", "hi", "el")


def test_every_change_bumps_the_version():
    s = settings.GroupSettings()
    s = settings.change(s, 0, "seconds", "45", BANKS, LANGS)
    assert (s.question_seconds, s.version) == (45, 1)
    s = settings.change(s, 1, "who", "admins", BANKS, LANGS)
    s = settings.change(s, 2, "scoring", "right", BANKS, LANGS)
    s = settings.change(s, 3, "bank", "beta", BANKS, LANGS)
    s = settings.change(s, 4, "count", "10", BANKS, LANGS)
    s = settings.change(s, 5, "language", "el", BANKS, LANGS)
    assert s == settings.GroupSettings("admins", 45, "right", "beta", 10, 6)
    assert settings.change(s, 6, "count", "0", BANKS, LANGS).question_count is None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("seconds", "4"),
        ("seconds", "301"),
        ("seconds", "-5"),
        ("seconds", "abc"),
        ("who", "nobody"),
        ("scoring", "fastest"),
        ("bank", "gone"),
        ("language", "de"),
        ("count", "7"),
        ("count", "-1"),
        ("colour", "red"),
    ],
)
def test_out_of_range_or_unknown_values_change_nothing(field, value):
    with pytest.raises(settings.InvalidSetting):
        settings.change(settings.GroupSettings(), 0, field, value, BANKS, LANGS)


def test_an_older_menu_is_stale():
    with pytest.raises(settings.StaleSettings):
        settings.change(settings.GroupSettings(version=3), 2, "who", "admins", BANKS, LANGS)


def test_select_keeps_a_random_n_in_plan_order():
    plan = Plan(QUESTIONS, tuple((i, 0) for i in range(8)))
    picked = settings.select(plan, 3, random.Random(1))
    assert len(picked.question_order) == 3
    positions = [QUESTIONS.index(q) for q in picked.question_order]
    assert positions == sorted(positions)
    assert picked.option_orders == tuple((i, 0) for i in positions)
    assert settings.select(plan, None, random.Random(1)) == plan
    assert settings.select(plan, 20, random.Random(1)) == plan


def test_calls_ahead_keeps_back_what_the_next_minute_needs():
    """3 s windows, 8 questions: at question 1 the reveal, 7 more posts and reveals and the
    leaderboard (16); at the last, its reveal and the leaderboard; 30 s windows: 2 more
    questions fit in a minute (1 + 2 * 2), no leaderboard yet."""
    assert pacing.calls_ahead(session(seconds=3.0, position=0), 60.0) == 16
    assert pacing.calls_ahead(session(seconds=3.0, position=7), 60.0) == 2
    assert pacing.calls_ahead(session(seconds=30.0, position=0), 60.0) == 5
    assert pacing.calls_ahead(session(seconds=30.0, position=6), 60.0) == 4
