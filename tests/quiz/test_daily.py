"""The question of the day's rules (bot/features/daily/rules.py) and its service over a real SQLite
store (bot/features/daily/service.py): times of day in a chat's zone, the next question and the
run-out setting, grading, the reveal's figures, the weekly leaderboard, claims and taps."""

from __future__ import annotations

import random
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot import i18n
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from bot.features.daily import rules as daily
from bot.features.daily.rules import (
    DailyAnswer,
    DailyClosed,
    DailyPost,
    PostStatus,
    RunOut,
    Status,
    TimeUnreadable,
    UnknownPost,
)
from bot.features.daily.service import DailyService
from bot.kernel.engine import AlreadyAnswered, UnknownBank
from storage import SQLiteStore
from tests.support.clock import FakeClock

CHAT = -1001234567890
MONDAY_8AM_UTC = datetime(2026, 12, 7, 8, 0, tzinfo=ZoneInfo("UTC")).timestamp()


@pytest.fixture(scope="module")
def bank():
    return load_banks([BUNDLED_BANKS])["deepspeed-megatron"]


def test_times_of_day_are_read():
    """HH:MM, H:MM, H.MM and HhMM are read as minutes after midnight; anything else is
    refused."""
    assert [daily.parse_time(t) for t in ("09:00", "9:05", "21.30", "7h05", "23:59")] == [
        540,
        545,
        1290,
        425,
        1439,
    ]
    for bad in ("24:00", "9", "09:60", "nine", ""):
        with pytest.raises(TimeUnreadable):
            daily.parse_time(bad)


def test_the_next_time_is_in_the_chats_zone():
    """09:00 in Kolkata (UTC+5:30) after Monday 08:00 UTC is Tuesday 03:30 UTC; in UTC it is
    Monday 09:00; exactly at the time, it is the next day's."""
    kolkata = daily.next_time(MONDAY_8AM_UTC, 540, "Asia/Kolkata")
    assert datetime.fromtimestamp(kolkata, ZoneInfo("UTC")) == datetime(
        2026, 12, 8, 3, 30, tzinfo=ZoneInfo("UTC")
    )
    utc = daily.next_time(MONDAY_8AM_UTC, 540, None)
    assert utc == MONDAY_8AM_UTC + 3600
    assert daily.next_time(utc, 540, "UTC") == utc + 86_400
    assert daily.next_time(MONDAY_8AM_UTC, 540, "Not/AZone") == utc  # unknown: UTC


def _schedule(**changes) -> daily.DailySchedule:
    fields = dict(
        chat_id=CHAT,
        chat_type="supergroup",
        thread_id=None,
        bank_id="deepspeed-megatron",
        language="en",
        minute=540,
        run_out=RunOut.AGAIN,
        board_day=6,
        status=Status.ON,
        round=0,
        position=0,
        next_at=0.0,
        set_by=7,
        updated_at=0.0,
    )
    fields.update(changes)
    return daily.DailySchedule(**fields)


def test_the_quiz_starts_over_or_stops_when_it_runs_out(bank):
    """Past the last daily question the schedule starts over in a new round with the options
    shuffled again (run-out "again"), or asks nothing (run-out "stop")."""
    questions = daily.daily_questions(bank)
    first = daily.next_question(_schedule(), bank, random.Random(1))
    assert (first.question, first.round, first.position) == (questions[0], 0, 0)
    end = len(questions)
    again = daily.next_question(_schedule(position=end), bank, random.Random(2))
    assert (again.question, again.round, again.position) == (questions[0], 1, 0)
    assert sorted(again.slots) == list(range(len(questions[0].options)))
    assert (
        daily.next_question(_schedule(position=end, run_out=RunOut.STOP), bank, random.Random(3))
        is None
    )
    assert all(not q.several for q in questions)


def test_a_question_that_keeps_its_order_is_posted_in_it(bank):
    """The day's post of a ``shuffle: false`` question shows its options in the bank's order;
    another question's options are shuffled."""
    questions = daily.daily_questions(bank)
    kept = next(i for i, q in enumerate(questions) if not q.shuffle)
    for seed in range(10):
        post = daily.next_question(_schedule(position=kept), bank, random.Random(seed))
        assert post is not None and post.slots == (0, 1, 2, 3)
    assert {
        daily.next_question(_schedule(), bank, random.Random(seed)).slots  # type: ignore[union-attr]
        for seed in range(10)
    } != {(0, 1, 2, 3)}


def _post(**changes) -> DailyPost:
    fields = dict(
        post_id=1,
        chat_id=CHAT,
        bank_id="b",
        bank_version=1,
        question_id="q",
        slots=(2, 0, 1),
        round=0,
        position=0,
        language="en",
        due_at=0.0,
        closes_at=100.0,
        message_id=5,
        status=PostStatus.OPEN,
    )
    fields.update(changes)
    return DailyPost(**fields)


def test_grading_and_the_reveals_figures(bank):
    """A tap picks the slot's bank option; after closing it is refused; the tally counts per
    slot and the right answers."""
    question = next(q for q in bank.questions if not q.several)
    slots = tuple(range(len(question.options)))[::-1]
    post = _post(slots=slots)
    right_slot = slots.index(question.correct_index)
    assert daily.grade(post, question, right_slot, 50.0) == (question.correct_index, True)
    with pytest.raises(DailyClosed):
        daily.grade(post, question, 0, 100.0)
    with pytest.raises(DailyClosed):
        daily.grade(_post(status=PostStatus.REVEALED), question, 0, 1.0)
    with pytest.raises(UnknownPost):
        daily.grade(post, question, 11, 1.0)
    answers = [DailyAnswer(1, u, "x", o, o == 2, 1.0) for u, o in ((1, 2), (2, 2), (3, 0))]
    assert daily.tally(_post(), answers) == daily.Tally((2, 1, 0), 2)


def test_the_weekly_leaderboard_ranks_right_answers_then_fewest_answered():
    """Most right first; with equal right answers, fewer answered first; ties share a rank;
    nobody without a right answer; the latest name is shown."""
    rows = [
        (1, True, "Ann"),
        (1, True, "Ann B"),
        (2, True, "Bo"),
        (2, True, "Bo"),
        (3, True, "Cy"),
        (3, False, "Cy"),
        (4, False, "Di"),
    ]
    answers = [DailyAnswer(i, u, n, 0, c, float(i)) for i, (u, c, n) in enumerate(rows)]
    places = daily.board(answers)
    assert [(p.rank, p.user_id, p.name, p.right, p.answered) for p in places] == [
        (1, 1, "Ann B", 2, 2),
        (1, 2, "Bo", 2, 2),
        (3, 3, "Cy", 1, 2),
    ]


def test_the_leaderboard_day_is_the_chats_weekday():
    """A post due on Sunday in the chat's zone brings the leaderboard of a Sunday schedule."""
    sunday = datetime(2026, 12, 6, 12, 0, tzinfo=ZoneInfo("UTC")).timestamp()
    assert daily.board_due(_schedule(board_day=6), sunday, "UTC")
    assert not daily.board_due(_schedule(board_day=6), sunday, "Pacific/Kiritimati")  # Monday
    assert not daily.board_due(_schedule(board_day=None), sunday, "UTC")


def test_where_the_bot_may_post():
    """In a channel only as an admin who may post; in a group as any member."""
    assert daily.can_post("channel", "administrator", True)
    assert not daily.can_post("channel", "administrator", False)
    assert not daily.can_post("channel", "member", None)
    assert daily.can_post("supergroup", "member", None)
    assert not daily.can_post("group", "kicked", None)


# --- the service over a real store ---------------------------------------------------------


@pytest.fixture
async def service(tmp_path, bank):
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    clock = FakeClock(MONDAY_8AM_UTC)
    yield DailyService(store, {bank.id: bank}, clock=clock, rng=random.Random(0)), clock
    await store.close()


async def test_a_day_claimed_once_tapped_once_per_user_and_revealed(service, bank):
    """Set at 09:00, the post is due at 09:00 and claimed once; each user's first tap counts,
    a second is refused; at the next day's time it is due for its reveal with its figures."""
    svc, clock = service
    schedule = await svc.set_daily(
        CHAT, "supergroup", bank_id=None, minute=540, language="en", set_by=7
    )
    assert schedule.next_at == MONDAY_8AM_UTC + 3600 and schedule.bank_id == bank.id
    assert await svc.due() == []
    clock.advance(3600)
    [due] = await svc.due()
    run = await svc.claim(due)
    assert run is not None and run.post is not None and run.board is None
    assert await svc.claim(due) is None  # claimed already
    await svc.posted(run.post.post_id, 77)
    right = run.post.slots.index(run.question.correct_index)
    post, answer = await svc.tap(run.post.post_id, CHAT, 77, right, 1, "Ann")
    assert answer.correct
    with pytest.raises(AlreadyAnswered):
        await svc.tap(run.post.post_id, CHAT, 77, (right + 1) % len(post.slots), 1, "Ann")
    with pytest.raises(UnknownPost):
        await svc.tap(run.post.post_id, CHAT, 78, right, 2, "Bo")  # another message
    await svc.tap(run.post.post_id, CHAT, 77, (right + 1) % len(post.slots), 2, "Bo")
    assert await svc.reveals_due() == []
    clock.advance(86_400)
    [reveal] = await svc.reveals_due()
    assert reveal.tally.answered == 2 and reveal.tally.right == 1
    with pytest.raises(DailyClosed):
        await svc.tap(run.post.post_id, CHAT, 77, right, 3, "Cy")
    assert await svc.mark_post_revealed(run.post.post_id)
    [due] = await svc.due()
    second = await svc.claim(due)
    assert second.post.position == 1


async def test_unknown_quiz_off_and_lost(service):
    """An unknown quiz is refused; /daily off stops the posts; a lost chat's schedule stops."""
    svc, clock = service
    with pytest.raises(UnknownBank):
        await svc.set_daily(
            CHAT, "supergroup", bank_id="nope", minute=None, language="en", set_by=7
        )
    await svc.set_daily(CHAT, "supergroup", bank_id=None, minute=None, language="en", set_by=7)
    assert (await svc.turn_off(CHAT)).status is Status.OFF
    assert await svc.turn_off(CHAT) is None
    await svc.set_daily(CHAT, "supergroup", bank_id=None, minute=None, language="en", set_by=7)
    assert await svc.chat_member(CHAT, "supergroup", "Class", "kicked", None, 9)
    assert (await svc.schedule(CHAT)).status is Status.LOST
    clock.advance(86_400)
    assert await svc.due() == []


async def test_the_schedule_follows_the_chats_time_zone(tmp_path, bank):
    """A chat whose time zone is Asia/Kolkata gets its 09:00 question at 03:30 UTC."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        await store.set_time_zone(CHAT, "Asia/Kolkata", MONDAY_8AM_UTC)
        svc = DailyService(store, {bank.id: bank}, clock=FakeClock(MONDAY_8AM_UTC), zones=store)
        assert await svc.zone(CHAT) == "Asia/Kolkata"
        schedule = await svc.set_daily(
            CHAT, "supergroup", bank_id=None, minute=540, language="hi", set_by=7
        )
        assert schedule.next_at == datetime(2026, 12, 8, 3, 30, tzinfo=ZoneInfo("UTC")).timestamp()
    finally:
        await store.close()


async def test_an_earlier_time_of_day_reveals_the_open_question_first(service):
    """Moving the time of day earlier while a question is open closes it at the new time, so
    it is revealed before the next question is posted."""
    svc, clock = service
    await svc.set_daily(CHAT, "supergroup", bank_id=None, minute=540, language="en", set_by=7)
    clock.advance(3600)  # Monday 09:00
    [due] = await svc.due()
    run = await svc.claim(due)
    await svc.posted(run.post.post_id, 77)
    moved = await svc.set_daily(
        CHAT, "supergroup", bank_id=None, minute=600, language="en", set_by=7
    )  # 10:00, today still
    assert moved.next_at == MONDAY_8AM_UTC + 2 * 3600 and moved.position == 1
    clock.advance(3600)
    [reveal] = await svc.reveals_due()
    assert reveal.post.post_id == run.post.post_id
    [due] = await svc.due()
    assert due.next_at == moved.next_at


async def test_run_out_stop_ends_after_the_last_reveal_and_again_starts_over(service, bank):
    """With run-out "stop" the day after the last question posts nothing, the schedule is
    done and the last reveal says so; switched to "again", it starts over at question 1 in
    a new round."""
    svc, clock = service
    await svc.set_daily(CHAT, "supergroup", bank_id=None, minute=540, language="en", set_by=7)
    await svc.set_options(CHAT, run_out=RunOut.STOP)
    clock.advance(3600)
    total = len(daily.daily_questions(bank))
    for day in range(total):
        for reveal in await svc.reveals_due():
            assert not reveal.last
            await svc.mark_post_revealed(reveal.post.post_id)
        [due] = await svc.due()
        run = await svc.claim(due)
        assert run.post.position == day
        await svc.posted(run.post.post_id, 100 + day)
        clock.advance(86_400)
    [due] = await svc.due()
    run = await svc.claim(due)
    assert run.post is None and run.schedule.status is Status.DONE
    [reveal] = await svc.reveals_due()
    assert reveal.last and reveal.post.position == total - 1
    assert await svc.due() == []
    again = await svc.set_options(CHAT, run_out=RunOut.AGAIN)
    assert again.status is Status.ON
    clock.advance(86_400)
    [due] = await svc.due()
    run = await svc.claim(due)
    assert (run.post.round, run.post.position) == (1, 0)


@pytest.mark.parametrize("language", i18n.SUPPORTED)
def test_the_posts_time_is_shown_to_the_minute_in_each_language(language):
    """When a question of the day comes is shown without seconds (it comes at a minute), with
    the language's medium date: "Dec 8, 2025, 11:00 AM", "8 дек. 2025 г., 11:00"."""
    from bot.features.daily.screens import daily_when

    shown = daily_when(1765184400, "Europe/Athens", i18n.catalog(language))
    year = "1404" if language == "fa" else "2025"  # the Solar Hijri calendar (bot.i18n.dates)
    assert year in shown and ("11:00" in shown or "11.00" in shown)
    assert ":00:00" not in shown and ".00.00" not in shown
    if language == "en":
        assert shown == "Dec 8, 2025, 11:00\u202fAM"  # CLDR: a narrow no-break space
