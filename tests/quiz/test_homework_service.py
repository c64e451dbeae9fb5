"""Tests for bot.features.homework.service: homework set, played privately, counted, reminded,
closed, extended, cancelled and moved, over the private quiz's service on a real SQLite file
and a fake clock."""

from __future__ import annotations

import csv
import io

import pytest

from bot.features.homework.rules import (
    CANCELLED,
    CLOSED,
    TOKEN_PATTERN,
    DeadlinePast,
    DeadlineTooFar,
    HomeworkCancelled,
    HomeworkClosed,
    UnknownHomework,
)
from bot.features.homework.service import HomeworkService
from bot.features.private.service import QuizService
from bot.kernel import engine
from bot.kernel.bank import Bank, Option, Question, Text
from bot.kernel.csvsafe import CsvRow
from bot.kernel.engine import UnknownBank
from bot.kernel.zones import UnknownZone
from storage import SQLiteStore
from tests.support.clock import FakeClock

GROUP, SUPERGROUP, ADMIN = -100, -1001234567890, 1
ANN, BO, CY, DI = 11, 12, 13, 14
HOUR, DAY = 3_600.0, 86_400.0
T0 = 1_780_000_000.0


def text(en: str) -> Text:
    return Text({"en": en, "el": f"{en} (el)"})


def make_bank(bank_id: str = "hw-bank") -> Bank:
    """A bank of three questions of three options; option 0 is right in each."""
    questions = tuple(
        Question(
            f"q{n}",
            text(f"Question {n}?"),
            tuple(Option(text(f"Option {n}{c}"), c == "a") for c in "abc"),
            None,
            None,
        )
        for n in (1, 2, 3)
    )
    return Bank(
        bank_id, 2, "en", ("en", "el"), "intro", text("Homework bank"), text("For tests"), questions
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
async def store(tmp_path):
    s = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    yield s
    await s.close()


@pytest.fixture
def quiz(store, clock) -> QuizService:
    banks = {b.id: b for b in (make_bank(), make_bank("other"))}
    return QuizService(store, banks, clock=clock)


@pytest.fixture
def homework(store, quiz, clock) -> HomeworkService:
    return HomeworkService(store, store, quiz, clock=clock)


async def answer(
    quiz: QuizService,
    attempt: engine.Attempt,
    options: list[int],
    clock: FakeClock,
    *,
    seconds: float = 10.0,
) -> engine.Attempt:
    """Answer the attempt's next questions with the bank options ``options`` (0 is right),
    ``seconds`` apart on the clock; the attempt as recorded."""
    for option in options:
        clock.advance(seconds)
        slot = attempt.plan.option_orders[attempt.position].index(option)
        attempt, graded = await quiz.grade(attempt.user_id, attempt.id, attempt.position, slot)
        attempt = await quiz.record(attempt, graded)
    return attempt


async def assign(homework: HomeworkService, deadline: float = 3 * DAY, **changes):
    fields = {"language": "en", "set_by": ADMIN, "set_by_name": "Teacher"} | changes
    return await homework.assign(GROUP, "hw-bank", homework.now() + deadline, **fields)


async def test_assigning_checks_the_bank_and_the_deadline(homework, clock):
    """Homework gets a fresh deep-link token at the bank's latest version; an unknown bank,
    a past deadline or one over 90 days away is refused and nothing is stored."""
    first = await assign(homework, thread_id=5)
    second = await assign(homework)
    assert TOKEN_PATTERN.fullmatch(first.token) and first.token != second.token
    assert (first.bank_version, first.thread_id, first.deadline) == (2, 5, T0 + 3 * DAY)
    with pytest.raises(UnknownBank):
        await homework.assign(
            GROUP, "no-such-bank", T0 + DAY, language="en", set_by=ADMIN, set_by_name="T"
        )
    with pytest.raises(DeadlinePast):
        await assign(homework, deadline=0.0)
    with pytest.raises(DeadlineTooFar):
        await assign(homework, deadline=91 * DAY)
    assert [a.id for a in await homework.assignments(GROUP)] == [first.id, second.id]


async def test_the_first_finished_attempt_counts_and_later_ones_are_practice(homework, quiz, clock):
    """Opening starts the homework attempt; opening again resumes it; once finished, opening
    gives practice (resumed while it runs) that leaves the counted result alone."""
    set_ = await assign(homework)
    opened = await homework.open(set_.token, ANN, "Ann", "el")
    assert (opened.counts, opened.resumed, opened.restarted) == (True, False, False)
    attempt = await answer(quiz, opened.attempt, [0], clock)
    again = await homework.open(set_.token, ANN, "Ann", "el")
    assert (again.counts, again.resumed, again.attempt.id) == (True, True, attempt.id)
    await answer(quiz, again.attempt, [0, 1], clock)
    assert (await homework.assignment(set_.id)).finished == 1
    practice = await homework.open(set_.token, ANN, "Ann", "el")
    assert (practice.counts, practice.resumed) == (False, False)
    assert practice.attempt.id != attempt.id
    await answer(quiz, practice.attempt, [1], clock)
    resumed = await homework.open(set_.token, ANN, "Ann", "el")
    assert (resumed.counts, resumed.resumed, resumed.attempt.id) == (
        False,
        True,
        practice.attempt.id,
    )
    await answer(quiz, resumed.attempt, [1, 1], clock)
    results = await homework.results(set_.id)
    assert (results.finished, results.places[0].score) == (1, 2)


async def test_an_attempt_replaced_by_another_quiz_starts_again_and_still_counts(
    homework, quiz, clock
):
    """A member who started another quiz meanwhile gets a new homework attempt (``restarted``),
    which counts when finished."""
    set_ = await assign(homework)
    opened = await homework.open(set_.token, BO, "Bo", "en")
    await answer(quiz, opened.attempt, [0, 0], clock)
    await quiz.start(BO, "other")  # abandons the homework attempt
    again = await homework.open(set_.token, BO, "Bo", "en")
    assert (again.counts, again.resumed, again.restarted) == (True, False, True)
    assert again.attempt.id != opened.attempt.id and again.attempt.position == 0
    await answer(quiz, again.attempt, [0, 2, 0], clock)
    [member] = await homework.members(set_.id)
    assert (member.attempt_id, member.counted) == (again.attempt.id, True)
    assert (await homework.results(set_.id)).places[0].score == 2


async def test_forged_closed_and_cancelled_homework_is_refused(homework, clock):
    """A garbage or unknown token is UnknownHomework; after the deadline (closed or not yet)
    HomeworkClosed, and after a cancel HomeworkCancelled, each with the homework."""
    for token in ("hw", "hw!!!!!!!!!!!!!!!!", "hwAAAAAAAAAAAAAAAA", "c-abcdefghij"):
        with pytest.raises(UnknownHomework):
            await homework.open(token, ANN, "Ann", "en")
    set_ = await assign(homework, deadline=HOUR)
    clock.advance(HOUR)
    with pytest.raises(HomeworkClosed) as closed:
        await homework.open(set_.token, ANN, "Ann", "en")
    assert closed.value.assignment.id == set_.id
    await homework.close(set_.id, early=False)
    with pytest.raises(HomeworkClosed):
        await homework.open(set_.token, ANN, "Ann", "en")
    other = await assign(homework)
    await homework.cancel(other.id)
    with pytest.raises(HomeworkCancelled) as cancelled:
        await homework.open(other.token, ANN, "Ann", "en")
    assert cancelled.value.assignment.status == CANCELLED


async def test_the_pass_closes_due_homework_then_announces_then_reports_once(tmp_path, clock):
    """A deadline passed while no bot ran is due at the next start: closed once, its results
    claimed once, then its report claimed once."""
    path = tmp_path / "restart.sqlite3"
    store = await SQLiteStore.open(path)
    service = HomeworkService(
        store, store, QuizService(store, {"hw-bank": make_bank()}, clock=clock), clock=clock
    )
    set_ = await assign(service, deadline=DAY)
    await store.close()
    clock.advance(2 * DAY)  # the bot was down over the deadline
    store = await SQLiteStore.open(path)
    try:
        service = HomeworkService(
            store, store, QuizService(store, {"hw-bank": make_bank()}, clock=clock), clock=clock
        )
        due = await service.due()
        assert [a.id for a in due.closing] == [set_.id] and not due.announcing
        closed = await service.close(set_.id, early=False)
        assert (closed.status, closed.deadline) == (CLOSED, T0 + DAY)
        assert await service.close(set_.id, early=False) is None
        due = await service.due()
        assert (due.closing, [a.id for a in due.announcing], due.reporting) == ([], [set_.id], [])
        assert await service.mark_announced(set_.id)
        assert not await service.mark_announced(set_.id)
        due = await service.due()
        assert [a.id for a in due.reporting] == [set_.id]
        assert await service.mark_reported(set_.id)
        assert not await service.due()  # never posted: no group message to edit
    finally:
        await store.close()


async def test_progress_is_due_once_a_minute_when_the_count_changes(homework, quiz, clock):
    """The group message's progress is due only after it is posted, when the finished count
    changed and a minute passed since the last edit, and its last edit after the results;
    each claim is made once."""
    set_ = await assign(homework)
    opened = await homework.open(set_.token, ANN, "Ann", "en")
    await answer(quiz, opened.attempt, [0, 0, 0], clock)
    assert not (await homework.due()).progress  # not posted
    assert await homework.posted(set_.id, 500)
    opened = await homework.open(set_.token, BO, "Bo", "en")
    await answer(quiz, opened.attempt, [0, 0, 0], clock, seconds=5.0)
    assert not (await homework.due()).progress  # posted 15 s ago
    clock.advance(45)
    [progress] = (await homework.due()).progress
    assert (progress.finished, progress.assignment.shown_finished) == (2, 1)
    assert await homework.mark_progress(progress)
    assert not await homework.mark_progress(progress)
    clock.advance(600)
    assert not (await homework.due()).progress  # shows 2 already
    await homework.close(set_.id, early=True)
    assert not (await homework.due()).finals  # the results come first
    assert await homework.mark_announced(set_.id)
    [final] = (await homework.due()).finals
    assert (final.id, final.message_id, final.finished) == (set_.id, 500, 2)
    assert await homework.mark_final(set_.id)
    assert not await homework.mark_final(set_.id)
    assert not (await homework.due()).finals


async def test_reminders_go_to_members_who_opened_and_did_not_finish(homework, quiz, clock):
    """At 24 h left, members who opened before and have not finished are due one reminder in
    their language; at 1 h left another; finished members none; each claim once."""
    set_ = await assign(homework, deadline=3 * DAY)
    for user_id, language in ((ANN, "el"), (BO, "hi"), (CY, "en")):
        await homework.open(set_.token, user_id, f"user {user_id}", language)
    done = await homework.open(set_.token, DI, "Di", "en")
    await answer(quiz, done.attempt, [0, 0, 0], clock)
    await answer(quiz, (await homework.open(set_.token, CY, "Cy", "en")).attempt, [0], clock)
    assert not (await homework.due()).reminders
    clock.now = set_.deadline - DAY
    due = (await homework.due()).reminders
    assert sorted((r.member.user_id, r.member.language, r.left) for r in due) == [
        (ANN, "el", DAY),
        (BO, "hi", DAY),
        (CY, "en", DAY),
    ]
    for reminder in due:
        assert await homework.mark_reminded(reminder)
        assert not await homework.mark_reminded(reminder)
    assert not (await homework.due()).reminders
    clock.now = set_.deadline - HOUR
    assert {r.member.user_id for r in (await homework.due()).reminders} == {ANN, BO, CY}


async def test_results_rank_the_counted_attempts_and_list_every_answer(homework, quiz, clock):
    """Results count members who finished before the deadline (a late finish and an unfinished
    attempt do not), rank them by score then time, name the questions most got wrong, give
    the item analysis, and a CSV row per answer in the member's language and the chat's
    zone."""
    await homework.set_zone(GROUP, "Asia/Kolkata")
    set_ = await assign(homework, deadline=DAY)
    plays = {ANN: ([0, 0, 0], 10.0), BO: ([0, 1, 0], 5.0), CY: ([1, 1, 0], 20.0)}
    for user_id, (options, seconds) in plays.items():
        opened = await homework.open(set_.token, user_id, f"<b>{user_id}</b>", "el")
        await answer(quiz, opened.attempt, options, clock, seconds=seconds)
    unfinished = await homework.open(set_.token, DI, "=Di", "en")
    partial = await answer(quiz, unfinished.attempt, [2], clock)
    clock.now = set_.deadline - 1
    await answer(quiz, partial, [0], clock)  # after the deadline
    await homework.close(set_.id, early=False)
    results = await homework.results(set_.id)
    assert (results.opened, results.finished, results.total) == (4, 3, 3)
    assert results.average == pytest.approx(2.0)
    assert [(p.rank, p.user_id, p.name, p.score, p.seconds) for p in results.places] == [
        (1, ANN, "<b>11</b>", 3, 30.0),
        (2, BO, "<b>12</b>", 2, 15.0),
        (3, CY, "<b>13</b>", 1, 60.0),
    ]
    assert [(m.question_id, m.number, m.wrong, m.answers) for m in results.missed] == [
        ("q2", 2, 2, 3),
        ("q1", 1, 1, 3),
    ]
    assert {(i.question_id, i.answers) for i in results.items} == {("q1", 3), ("q2", 3), ("q3", 3)}
    assert [i.options for i in results.items if i.question_id == "q2"] == [[1, 2, 0]]
    assert len(results.rows) == 10  # nine counted answers and Di's one before the deadline
    di = [r for r in results.rows if r.user_id == DI]
    assert [(r.name, r.question, r.option, r.correct, r.finished_at) for r in di] == [
        ("=Di", 1, "Option 1c", False, "")
    ]
    first = results.rows[0]
    assert (first.user_id, first.option, first.correct) == (ANN, "Option 1a (el)", True)
    assert first.answered_at.endswith("+05:30") and first.finished_at.endswith("+05:30")
    table = io.StringIO()
    csv.writer(table).writerows([CsvRow.HEADER, *(row.cells() for row in results.rows)])
    parsed = list(csv.reader(io.StringIO(table.getvalue())))
    assert parsed[0][:3] == ["user_id", "name", "question"] and len(parsed) == 11
    assert "'=Di" in [cells[1] for cells in parsed]


async def test_an_early_close_counts_what_finished_until_then(homework, quiz, clock):
    """Closing early makes now the deadline: attempts finished before count, later ones do
    not, and opening it afterwards is refused as closed."""
    set_ = await assign(homework)
    opened = await homework.open(set_.token, ANN, "Ann", "en")
    await answer(quiz, opened.attempt, [0, 0, 0], clock)
    late = await homework.open(set_.token, BO, "Bo", "en")
    closed = await homework.close(set_.id, early=True)
    assert (closed.deadline, closed.finished) == (clock.now, 1)
    await answer(quiz, late.attempt, [0, 0, 0], clock)
    assert (await homework.results(set_.id)).finished == 1
    with pytest.raises(HomeworkClosed):
        await homework.open(set_.token, BO, "Bo", "en")


async def test_extend_moves_the_deadline_and_cancel_tells_who_was_playing(homework, quiz, clock):
    """Extending checks the new deadline and reminds again before it; cancelling returns the
    members with an attempt in progress, and neither works on homework no longer open."""
    set_ = await assign(homework, deadline=DAY)
    await homework.open(set_.token, ANN, "Ann", "el")
    done = await homework.open(set_.token, BO, "Bo", "en")
    await answer(quiz, done.attempt, [0, 0, 0], clock)
    clock.now = set_.deadline - HOUR
    [reminder] = (await homework.due()).reminders
    assert await homework.mark_reminded(reminder)
    with pytest.raises(DeadlinePast):
        await homework.extend(set_.id, clock.now - 1)
    extended = await homework.extend(set_.id, clock.now + 2 * DAY)
    assert extended.deadline == clock.now + 2 * DAY
    clock.now = extended.deadline - HOUR
    assert [r.member.user_id for r in (await homework.due()).reminders] == [ANN]
    cancelled, playing = await homework.cancel(set_.id)
    assert cancelled.status == CANCELLED
    assert [(m.user_id, m.language) for m in playing] == [(ANN, "el")]
    with pytest.raises(HomeworkCancelled):
        await homework.cancel(set_.id)
    with pytest.raises(HomeworkCancelled):
        await homework.extend(set_.id, clock.now + DAY)
    assert await homework.assignments(GROUP) == []
    closed = await assign(homework)
    await homework.close(closed.id, early=True)
    with pytest.raises(HomeworkClosed):
        await homework.extend(closed.id, clock.now + DAY)
    with pytest.raises(HomeworkClosed):
        await homework.cancel(closed.id)
    with pytest.raises(UnknownHomework):
        await homework.cancel(closed.id + 100)


async def test_time_zones_and_deadlines_follow_the_group_to_a_supergroup(homework, store, clock):
    """A group's zone reads deadlines; an unknown zone is refused; after an upgrade the zone
    and the open homework are the supergroup's, the homework to be posted again."""
    assert await homework.zone(GROUP) == "UTC"
    with pytest.raises(UnknownZone):
        await homework.set_zone(GROUP, "Atlantis")
    assert await homework.set_zone(GROUP, "athens") == "Europe/Athens"
    deadline = await homework.deadline(GROUP, "12h")
    assert deadline == clock.now + 12 * HOUR
    set_ = await assign(homework)
    await homework.posted(set_.id, 99)
    await store.move_chat(GROUP, SUPERGROUP)
    moved = await homework.move_chat(GROUP, SUPERGROUP)
    assert [(a.id, a.chat_id, a.message_id) for a in moved] == [(set_.id, SUPERGROUP, None)]
    assert await homework.zone(SUPERGROUP) == "Europe/Athens"
    assert await homework.posted(set_.id, 100)
    assert (await homework.by_token(set_.token)).message_id == 100
