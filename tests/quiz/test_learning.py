"""Spaced review: FSRS scheduling with a fake clock, card storage, review rules, reminders,
the chart; and end to end through the fake Bot API (review in en/hi/el, reminders across a
restart, a user who blocked the bot)."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import time
from datetime import UTC, datetime, timedelta

import fsrs
import pytest
from PIL import Image

from bot import i18n
from bot.features.learning import chart
from bot.features.learning import rules as learning
from bot.features.learning import screens as learning_screens
from bot.features.learning.ports import Progress, ScorePoint
from bot.features.learning.rules import DAY, Card, CardGone, CardReviewed, NoSuchCard
from bot.features.learning.service import LearningService
from bot.kernel.engine import Answer, InvalidOption, plan_attempt
from bot.render import callbacks as render_callbacks
from bot.render import text as render_text
from storage import SQLiteStore
from tests.support.banks import BANK_ID
from tests.support.botrun import RunningBot
from tests.support.clock import FakeClock
from tests.support.engines import record
from tests.support.person import Person
from tests.support.screens import buttons, correct_label, wrong_label

T0 = 1_780_000_000.0  # a Tuesday, 06:13:20 UTC


# --- scheduling ----------------------------------------------------------------------------


def test_a_missed_question_comes_back_in_ten_minutes_and_counts_as_due_at_once():
    """A wrong first answer rates *Again*: the card stays in its 10-minute learning step, and
    it is due for review at once (within the learn-ahead limit); a right one leaves the steps
    for days."""
    missed = learning.rate(Card(0, 1, "b", "q"), False, T0)
    assert missed.due == T0 + 600 and missed.reps == 1 and missed.lapses == 1
    assert missed.state == fsrs.State.Learning and missed.step == 0
    assert learning.due_in_days(missed, T0) == 0.0
    right = learning.rate(missed, True, T0 + 60)
    assert right.state == fsrs.State.Review and right.step is None and right.due >= T0 + DAY
    known = learning.rate(Card(0, 1, "b", "q"), True, T0)
    assert known.state == fsrs.State.Review and known.due - T0 >= 2 * DAY
    lapse = learning.rate(known, False, known.due)  # a lapse in review: the relearning step
    assert lapse.state == fsrs.State.Relearning and lapse.due == known.due + 600


def test_cards_stored_before_the_steps_go_on_as_scheduled():
    """A card rated by the scheduler without steps (in review, step None, due a day after a
    miss) keeps its due date, and its next ratings use the steps: nothing to migrate."""
    old = fsrs.Scheduler(learning_steps=(), relearning_steps=(), enable_fuzzing=False)
    theirs, _ = old.review_card(
        fsrs.Card(card_id=1), fsrs.Rating.Again, datetime.fromtimestamp(T0, UTC)
    )
    stored = Card(
        1,
        1,
        "b",
        "q",
        state=int(theirs.state),
        step=theirs.step,
        stability=theirs.stability,
        difficulty=theirs.difficulty,
        due=theirs.due.timestamp(),
        last_review=T0,
        reps=1,
        lapses=1,
    )
    assert stored.state == fsrs.State.Review and stored.due == T0 + DAY
    assert learning.due_in_days(stored, T0) == pytest.approx(1.0)
    again = learning.rate(stored, False, stored.due)
    assert again.state == fsrs.State.Relearning and again.due == stored.due + 600
    good = learning.rate(again, True, again.due)
    assert good.state == fsrs.State.Review and good.due > again.due + DAY / 2


def test_days_until_due_are_what_stats_show_never_full_marks_for_a_miss():
    """ "How well you know each question" is the days until the card is due: 0 for a question
    just missed (and for one never rated), FSRS's interval for one answered right."""
    missed = learning.rate(Card(0, 1, "b", "q"), False, T0)
    right = learning.rate(Card(0, 1, "b", "r"), True, T0)
    assert learning.due_in_days(missed, T0 + 1) == 0.0
    assert learning.due_in_days(Card(0, 1, "b", "s"), T0) == 0.0
    assert learning.due_in_days(right, T0) == pytest.approx((right.due - T0) / DAY)
    assert learning.due_in_days(right, T0) >= 2
    assert learning.due_in_days(right, right.due - 60) == 0.0  # due within the learn-ahead


def test_due_dates_advance_as_fsrs_says():
    """Right answers at each due date push the card out as the fsrs package computes it
    (Good), with a fake clock; the intervals grow."""
    reference = fsrs.Scheduler(
        learning_steps=(timedelta(minutes=10),),
        relearning_steps=(timedelta(minutes=10),),
        enable_fuzzing=False,
    )
    ours, theirs = Card(0, 1, "b", "q"), fsrs.Card(card_id=1)
    clock = FakeClock(T0)
    intervals = []
    for correct in (True, True, True, False, True):
        ours = learning.rate(ours, correct, clock.now)
        theirs, _ = reference.review_card(
            theirs,
            fsrs.Rating.Good if correct else fsrs.Rating.Again,
            datetime.fromtimestamp(clock.now, UTC),
        )
        assert ours.due == theirs.due.timestamp()
        assert ours.stability == pytest.approx(theirs.stability)
        intervals.append(ours.due - clock.now)
        clock.now = ours.due
    assert intervals[0] < intervals[1] < intervals[2]  # growing while right
    assert intervals[3] < intervals[2]  # a lapse brings it back sooner
    assert learning.retrievability(ours, ours.due) == pytest.approx(0.9, abs=0.02)


def test_review_slots_are_shuffled_afresh_each_review(banks):
    question = banks[BANK_ID].questions[0]
    orders = {
        learning.review_slots(Card(7, 1, BANK_ID, question.id, reps=n), question) for n in range(12)
    }
    assert len(orders) > 3
    card = Card(7, 1, BANK_ID, question.id, reps=3)
    assert learning.review_slots(card, question) == learning.review_slots(card, question)


def test_review_slots_keep_the_order_of_a_question_that_keeps_it(banks):
    """A ``shuffle: false`` question is reviewed with its options in the bank's order."""
    question = banks[BANK_ID].question("zero-stage-params")
    assert {
        learning.review_slots(Card(7, 1, BANK_ID, question.id, reps=n), question) for n in range(12)
    } == {(0, 1, 2, 3)}


def test_grade_refuses_stale_foreign_and_gone(banks):
    question = banks[BANK_ID].questions[0]
    card = Card(7, 1, BANK_ID, question.id, reps=2)
    with pytest.raises(CardReviewed):
        learning.grade(card, banks, 1, 1, 0)
    with pytest.raises(NoSuchCard):
        learning.grade(card, banks, 2, 2, 0)
    with pytest.raises(InvalidOption):
        learning.grade(card, banks, 1, 2, 9)
    with pytest.raises(CardGone):
        learning.grade(card, {}, 1, 2, 0)
    shown, correct = learning.grade(card, banks, 1, 2, 0)
    assert correct == (shown.slots[0] == question.correct_index)


def test_reminders_are_spread_over_the_hour_and_once_a_day():
    times = [learning.reminder_time(user, 18, T0) for user in range(1, 10_001)]
    per_second: dict[float, int] = {}
    for at in times:
        assert 0 < at - T0 <= DAY
        assert int(at % DAY // 3600) == 18  # the usual hour, in UTC
        per_second[at] = per_second.get(at, 0) + 1
    assert max(per_second.values()) <= 10  # 10,000 users: no burst at one second
    at = learning.reminder_time(5, 18, T0)
    assert learning.reminder_time(5, 18, at) == at + DAY


def test_usual_hour_follows_the_answers():
    hours: list[float] = []
    for day in range(5):
        hours = learning.study_hours(hours, T0 - T0 % DAY + day * DAY + 20 * 3600 + 60)
    hours = learning.study_hours(hours, T0 - T0 % DAY + 7 * 3600)
    assert learning.usual_hour(hours) == 20
    assert learning.usual_hour([]) is None


# --- storage and service -------------------------------------------------------------------


async def _store(tmp_path) -> SQLiteStore:
    return await SQLiteStore.open(tmp_path / "cards.sqlite3")


async def test_settled_waits_for_the_users_own_queued_ratings_only(engine, banks):
    """``settled(user)`` (what /stats awaits) returns once that user's queued ratings are
    written, at once when none is queued."""
    store = await engine.open()
    clock = FakeClock(T0)
    service = LearningService(store, banks, clock=clock)
    writing, go_on = asyncio.Event(), asyncio.Event()
    update_cards = store.update_cards

    async def gated(updates):
        writing.set()
        await go_on.wait()
        await update_cards(updates)

    store.update_cards = gated  # type: ignore[method-assign]
    try:
        await service.settled(5)  # nothing queued: at once
        question = banks[BANK_ID].questions[0].id
        await service.answered_soon(5, BANK_ID, question, True, clock.now)
        await writing.wait()
        waiting = asyncio.create_task(service.settled(5))
        other = asyncio.create_task(service.settled(6))
        await other  # user 6 has nothing queued
        await asyncio.sleep(0)
        assert not waiting.done() and await store.cards(5) == []
        go_on.set()
        await waiting
        assert len(await store.cards(5)) == 1
    finally:
        await service.drain()
        await store.close()


async def test_queued_ratings_are_written_in_order_in_batches(engine, banks):
    """``answered_soon`` (what the bot's handlers call) returns before the card is written;
    after ``drain`` the cards are what ``answered`` one by one makes (user 6), and ratings
    queued while a batch is written go in the next batch, in order."""
    store = await engine.open()
    clock = FakeClock(T0)
    service = LearningService(store, banks, clock=clock)
    calls: list[int] = []
    writing, go_on = asyncio.Event(), asyncio.Event()
    update_cards = store.update_cards

    async def gated(updates):
        calls.append(len(updates))
        writing.set()
        await go_on.wait()
        await update_cards(updates)

    store.update_cards = gated  # type: ignore[method-assign]
    try:
        bank = banks[BANK_ID]
        first, second = bank.questions[0].id, bank.questions[1].id
        answers = [
            (first, False, 0.0),
            (second, True, 1.0),
            (first, True, 2.0),
            (second, False, 3.0),
        ]
        for question, correct, later in answers[:3]:
            await service.answered_soon(5, BANK_ID, question, correct, clock.now + later)
        await writing.wait()  # the first batch is being written
        assert await store.cards(5) == []
        question, correct, later = answers[3]
        await service.answered_soon(5, BANK_ID, question, correct, clock.now + later)
        go_on.set()
        await service.drain()
        assert calls == [3, 1]
        for question, correct, later in answers:
            await service.answered(6, BANK_ID, question, correct, clock.now + later)

        def shape(cards):
            return sorted((c.question_id, c.reps, c.lapses, c.due, c.stability) for c in cards)

        assert len(await store.cards(5)) == 2
        assert shape(await store.cards(5)) == shape(await store.cards(6))
        assert (await store.learner(5)).hours == (await store.learner(6)).hours
        await service.drain()  # nothing queued: returns
        assert calls == [3, 1]
    finally:
        await store.close()


async def test_cards_from_answers_and_review(engine, banks):
    """A question missed in a quiz is served for review at once and again after each miss in
    review, until it is answered right; then it is due in days."""
    store = await engine.open()
    clock = FakeClock(T0)
    service = LearningService(store, banks, clock=clock)
    try:
        bank = banks[BANK_ID]
        first, second = bank.questions[0].id, bank.questions[1].id
        await service.answered(5, BANK_ID, first, False, clock.now)
        await service.answered(5, BANK_ID, second, True, clock.now)
        assert await service.next_due(5) == clock.now + 600
        clock.advance(5)
        item = await service.due(5)  # due in 10 minutes: served now
        assert item is not None and item.card.question_id == first and item.due_count == 1
        wrong = next(s for s in range(4) if s != item.correct_slot)
        _shown, correct, rated = await service.review(5, item.card.id, item.card.reps, wrong)
        assert not correct and rated.reps == 2 and rated.due == clock.now + 600
        with pytest.raises(CardReviewed):  # the same question tapped again
            await service.review(5, item.card.id, item.card.reps, item.correct_slot)
        with pytest.raises(NoSuchCard):
            await service.review(6, item.card.id, rated.reps, 0)
        again = await service.due(5)  # missed in review: back in the same sitting
        assert again is not None and again.card.id == item.card.id and again.card.reps == 2
        _shown, correct, rated = await service.review(5, again.card.id, 2, again.correct_slot)
        assert correct and rated.due >= clock.now + DAY
        # nothing else is due; a card of a removed bank is never served
        await service.answered(5, "gone-bank", "q1", False, clock.now - DAY)
        assert await service.due(5) is None
        service.registry.replace({})
        with pytest.raises(CardGone):
            await service.review(5, item.card.id, rated.reps, 0)
        assert (await store.card(item.card.id)).reps == 3  # nothing changed
    finally:
        await store.close()


async def test_progress_shows_days_until_due_per_question(engine, banks):
    """Right after a quiz, the progress of a missed question is 0 days (review it now) and of
    one answered right the days FSRS gives it, in bank order."""
    store = await engine.open()
    clock = FakeClock(T0)
    service = LearningService(store, banks, clock=clock)
    try:
        bank = banks[BANK_ID]
        for number, question in enumerate(bank.questions[:3]):
            await service.answered(5, BANK_ID, question.id, number != 1, clock.now)
        clock.advance(30)
        progress = await service.progress(5)
        assert [(b.id, q) for b, q, _ in progress.cards] == [
            (BANK_ID, q.id) for q in bank.questions[:3]
        ]
        days = [d for _, _, d in progress.cards]
        assert days[1] == 0.0 and days[0] == days[2] == pytest.approx(2 - 30 / DAY)
        text = learning_screens.known_text(progress, i18n.catalog("en"), render_text.PLAIN)
        lines = text.split("\n")
        assert lines[0] == i18n.catalog("en")("known_header")
        assert (
            lines[1] == f"• {i18n.catalog('en')('known_due_now')}: "
            f"{bank.questions[1].prompt.by_language['en']}"
        )
        assert i18n.catalog("en").relative(days[0] * DAY) in lines[2]
    finally:
        await store.close()


async def test_review_never_changes_attempts_or_scores(engine, banks):
    store = await engine.open()
    clock = FakeClock(T0)
    service = LearningService(store, banks, clock=clock)
    try:
        bank = banks[BANK_ID]
        import random

        attempt = await store.start_attempt(
            5, BANK_ID, bank.version, plan_attempt(bank, random.Random(1)), clock.now
        )
        question = attempt.plan.question_order[0]
        await record(store, attempt, Answer(question, 0, False, clock.now))
        await service.answered(5, BANK_ID, question, False, clock.now)
        before = await store.stats(5), await store.attempt(attempt.id)
        clock.advance(DAY)
        item = await service.due(5)
        await service.review(5, item.card.id, item.card.reps, item.correct_slot)
        assert (await store.stats(5), await store.attempt(attempt.id)) == before
    finally:
        await store.close()


async def test_migration_makes_cards_of_earlier_answers(engine, banks):
    """Answers given before the cards existed become cards due at once (never rated)."""
    import random

    store = await engine.open(upto=5)
    bank = banks[BANK_ID]
    attempt = await store.start_attempt(
        9, BANK_ID, bank.version, plan_attempt(bank, random.Random(2)), T0
    )
    await store.close()
    # answered as version 5 stored answers: the insert, which its trigger moved the attempt on
    for position in range(2):
        await engine.execute(
            "INSERT INTO answers VALUES (?, ?, 0, 0, ?)",
            attempt.id,
            attempt.plan.question_order[position],
            T0 + position,
        )
    store = await engine.open()
    try:
        service = LearningService(store, banks, clock=FakeClock(T0 + 10))
        item = await service.due(9)
        assert item is not None and item.due_count == 2 and item.card.stability is None
        _, _, rated = await service.review(9, item.card.id, 0, item.correct_slot)
        assert rated.stability is not None and rated.due > T0 + DAY
    finally:
        await store.close()


async def test_due_cards_of_a_big_collection_are_found_by_index(tmp_path):
    """10,000 cards: the due query reads the earliest through index cards_due."""
    store = await _store(tmp_path)
    try:
        plan = [
            row[3]
            for row in await store._read(
                "EXPLAIN QUERY PLAN SELECT card_id FROM cards WHERE user_id = ? AND due <= ?"
                " AND bank_id IN (?) ORDER BY due LIMIT 20",
                (1, T0, BANK_ID),
            )
        ]
        assert any("cards_due" in step for step in plan), plan
        plan = [
            row[3]
            for row in await store._read(
                "EXPLAIN QUERY PLAN SELECT user_id FROM learners WHERE remind = 1 AND blocked = 0"
                " AND next_remind_at <= ? ORDER BY next_remind_at LIMIT 5",
                (T0,),
            )
        ]
        assert any("learners_reminders" in step for step in plan), plan
    finally:
        await store.close()


async def test_reminder_rules(engine, banks):
    store = await engine.open()
    clock = FakeClock(T0)
    service = LearningService(store, banks, clock=clock)
    question = banks[BANK_ID].questions[0].id
    try:
        await service.answered(3, BANK_ID, question, False, clock.now)
        await service.answered(3, BANK_ID, question, True, clock.now + 1)  # due in a day
        learner = await service.set_reminders(3, True, "el")
        assert learner.remind and learner.next_remind_at is not None
        assert int(learner.next_remind_at % DAY // 3600) == int(T0 % DAY // 3600)
        clock.now = learner.next_remind_at  # today's: nothing due yet -> moved to tomorrow
        assert await service.reminders_due(10) == []
        tomorrow = (await service.learner(3)).next_remind_at
        assert tomorrow == learner.next_remind_at + DAY
        clock.now = tomorrow
        [due] = await service.reminders_due(10)
        assert due.language == "el"
        await service.reminded(due)
        assert await service.reminders_due(10) == []  # at most once a day
        assert (await service.learner(3)).next_remind_at == tomorrow + DAY
        clock.now = tomorrow + DAY + 5 * 3600  # the bot was down past the hour: skipped
        assert await service.reminders_due(10) == []
        await service.blocked(await service.learner(3))
        clock.advance(DAY)
        assert await service.reminders_due(10) == []
        assert await service.came_back(3) and not await service.came_back(3)
        assert not (await service.learner(3)).blocked
        await service.set_reminders(3, False)
        assert (await service.learner(3)).next_remind_at is None
    finally:
        await store.close()


async def test_a_due_reminder_is_taken_by_one_instance(engine, banks):
    """Two instances' services on one storage: a due reminder is claimed by the first pass
    that reads it, the other's pass leaves it; one not sent is due again at once, one sent
    is planned for the next day."""
    store = await engine.open()
    clock = FakeClock(T0)
    first, second = (LearningService(store, banks, clock=clock) for _ in range(2))
    question = banks[BANK_ID].questions[0].id
    try:
        await first.answered(3, BANK_ID, question, False, clock.now)  # due now, usual hour
        learner = await first.set_reminders(3, True, "en")
        clock.now = learner.next_remind_at
        [taken] = await first.reminders_due(10)
        assert await second.reminders_due(10) == []
        await first.not_reminded(taken)  # a transient failure
        [taken] = await second.reminders_due(10)
        assert await first.reminders_due(10) == []
        await second.reminded(taken)
        assert (await first.learner(3)).next_remind_at == learner.next_remind_at + DAY
    finally:
        await store.close()


async def test_remind_toggles_in_one_write(engine, banks):
    """/remind's toggle: on (planned at the usual hour, in the language given, unblocked),
    then off (nothing planned); two toggles at once are two flips, one after the other."""
    store = await engine.open()
    clock = FakeClock(T0)
    service = LearningService(store, banks, clock=clock)
    question = banks[BANK_ID].questions[0].id
    try:
        await service.answered(3, BANK_ID, question, False, clock.now)  # the usual hour
        await service.blocked(await service.learner(3))
        assert await service.toggle_reminders(3, "el") is True
        learner = await service.learner(3)
        assert learner.remind and not learner.blocked and learner.language == "el"
        assert learner.next_remind_at is not None
        assert int(learner.next_remind_at % DAY // 3600) == int(T0 % DAY // 3600)
        assert await service.toggle_reminders(3, "hi") is False
        learner = await service.learner(3)
        assert not learner.remind and learner.next_remind_at is None
        assert learner.language == "hi"
        assert await service.toggle_reminders(4) is True  # never stored: off before
        assert sorted(
            await asyncio.gather(service.toggle_reminders(4), service.toggle_reminders(4))
        ) == [False, True]
        assert (await service.learner(4)).remind
    finally:
        await store.close()


# --- chart ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", i18n.SUPPORTED)
def test_chart_for_each_language(banks, language):
    bank = banks[BANK_ID]
    scores = tuple(ScorePoint(BANK_ID, T0 + n * DAY, n + 2, 8) for n in range(5))
    cards = tuple((bank, q.id, 1.5 * n) for n, q in enumerate(bank.questions))  # days
    png = chart.render_png(Progress(scores, cards), i18n.catalog(language))
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and 10_000 < len(png) < 10 * 1024 * 1024
    with Image.open(io.BytesIO(png)) as image:
        assert image.size == (800, 600)
        colours = image.convert("RGB").getcolors(1_000_000)
        assert len(colours) > 50  # drawn, not blank


@pytest.mark.parametrize("language", i18n.SUPPORTED)
def test_chart_titles_fit_the_figure(banks, language):
    """Each panel's title, as drawn, lies within the figure (wrapped to the panel's width,
    measured with the real font) and below the panel above it stays clear of that panel's
    date labels (issue 35, item 2: "(0: due now)", the colour key, was cut at the right
    edge in English and Greek)."""
    from matplotlib.offsetbox import AnnotationBbox

    bank = banks[BANK_ID]
    scores = tuple(ScorePoint(BANK_ID, T0 + n * DAY, n + 2, 8) for n in range(5))
    cards = tuple((bank, q.id, 1.5 * n) for n, q in enumerate(bank.questions))
    figure = chart.figure(Progress(scores, cards), i18n.catalog(language))
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    edge = figure.bbox
    scores_ax, known_ax = figure.axes
    titles = [
        next(a for a in ax.artists if isinstance(a, AnnotationBbox) and a.xy[1] > 1)
        for ax in (scores_ax, known_ax)
    ]
    for title in titles:
        box = title.get_window_extent(renderer)
        assert edge.x0 <= box.x0 and box.x1 <= edge.x1, (box, edge)
        assert edge.y0 <= box.y0 and box.y1 <= edge.y1, (box, edge)
    dates = scores_ax.xaxis.get_tightbbox(renderer)
    assert dates is not None and titles[1].get_window_extent(renderer).y1 < dates.y0


def test_devanagari_labels_are_shaped():
    """Raqm shapes the conjunct "प्र" into fewer glyph positions than a glyph-by-glyph layout
    (the basic engine): the widths differ."""
    from PIL import ImageFont

    text = i18n.catalog("hi")("chart_question")  # प्रश्न
    path = str(chart.font_path("hi"))
    raqm = ImageFont.truetype(path, 40, layout_engine=ImageFont.Layout.RAQM)
    basic = ImageFont.truetype(path, 40, layout_engine=ImageFont.Layout.BASIC)
    assert raqm.getlength(text) != basic.getlength(text)
    assert chart.label_image(text, "hi").shape[2] == 4


@pytest.mark.parametrize("language", ["fa", "ar"])
def test_arabic_script_labels_are_shaped_and_ordered_right_to_left(language):
    """In Noto Sans Arabic, Raqm joins the letters (fewer, narrower glyphs than the basic
    engine's isolated forms) and FriBiDi orders the line: the same label drawn is not the
    mirror of its letters in logical order."""
    from PIL import ImageFont

    if language not in i18n.SUPPORTED:
        pytest.fail(f"{language} is not a supported language")
    text = i18n.catalog(language)("chart_question")
    path = str(chart.font_path(language))
    assert "Arabic" in path
    raqm = ImageFont.truetype(path, 40, layout_engine=ImageFont.Layout.RAQM)
    basic = ImageFont.truetype(path, 40, layout_engine=ImageFont.Layout.BASIC)
    assert raqm.getlength(text, language=language) < basic.getlength(text)
    drawn = chart.label_image(text, language)
    assert drawn.shape[2] == 4 and drawn[..., 3].any()


# --- end to end through the fake Bot API ---------------------------------------------------


async def _play_with_misses(person: Person, bank, language: str, misses: set[int]) -> dict:
    """Play the whole bank, wrong on the questions numbered in ``misses``; the end screen."""
    await person.say("/quiz", replies=2)
    result = None
    for number in range(1, len(bank.questions) + 1):
        question = person.question_message()
        label = (wrong_label if number in misses else correct_label)(question, bank, language)
        feedback = await person.answer(label)
        result = await person.next(feedback)
    assert result is not None
    return result


def _review_message(person: Person) -> dict:
    for message in reversed(person.bot_messages()):
        if any(b.get("callback_data", "").startswith("c:") for b in buttons(message)):
            return message
    raise AssertionError("no review question on screen")


async def _review_tap(
    fake, person: Person, question: dict, bank, language: str, right: bool
) -> dict:
    """Answer a review question right or wrong; its feedback (the question message edited)."""
    label = (correct_label if right else wrong_label)(question, bank, language)
    await person.tap(
        question, next(b["callback_data"] for b in buttons(question) if b["text"] == label)
    )
    return await fake.wait_for(
        lambda: (
            lambda m: (
                m
                if "reply_markup" not in m
                or any(b.get("callback_data", "").startswith("k:") for b in buttons(m))
                else None
            )
        )(fake.message(person.user_id, question["message_id"]))
    )


async def _tap_next(fake, person: Person, feedback: dict) -> dict:
    """Tap "Next question" on a review's feedback; the review question sent."""
    before = len(person.bot_messages())
    await person.tap(feedback, buttons(feedback)[0]["callback_data"])
    await fake.wait_for(lambda: len(person.bot_messages()) > before)
    return _review_message(person)


@pytest.mark.parametrize("language", ["en", "hi", "el"])
async def test_review_end_to_end(fake, tmp_path, banks, language):
    """/review right after a quiz serves the questions just missed (learning steps), a question
    missed again in review comes back in the same sitting, and each header counts what is
    left: the feedback's the same as the next question's."""
    clock = FakeClock(time.time())
    runner = await RunningBot(fake, tmp_path / "q.sqlite3", clock=clock).start()
    try:
        bank = banks[BANK_ID]
        t = i18n.catalog(language)
        person = Person(fake, 700, "Lin", language)
        assert t("review_none_yet") in (await person.say("/review"))[0]["text"]
        await _play_with_misses(person, bank, language, {2, 5, 7})
        answers = sqlite3.connect(runner.db).execute("SELECT COUNT(*) FROM answers").fetchone()
        clock.advance(60)  # a question missed in review is due after those missed in the quiz
        question = (await person.say("/review"))[0]  # at once: no waiting for tomorrow
        assert t("review_due", count=3) in question["text"]
        assert [b["text"] for b in buttons(question)] == ["A", "B", "C", "D"]
        missed = {bank.questions[n - 1].prompt.by_language[language] for n in (2, 5, 7)}
        assert any(prompt in question["text"] for prompt in missed)
        feedback = await _review_tap(fake, person, question, bank, language, right=True)
        assert t("feedback_correct") in feedback["text"]
        assert t("review_due", count=2) in feedback["text"]  # left after this answer
        # a second tap on the reviewed question changes nothing
        query = await person.tap(
            question, buttons(question)[0]["callback_data"], check_button=False
        )
        assert fake.callback_answers[query]["text"] == t("toast_card_reviewed")
        second = await _tap_next(fake, person, feedback)
        assert t("review_due", count=2) in second["text"]
        again = await _review_tap(fake, person, second, bank, language, right=False)
        assert t("review_due", count=2) in again["text"]  # missed again: still due
        third = await _tap_next(fake, person, again)
        assert t("review_due", count=2) in third["text"]
        fourth = await _tap_next(
            fake, person, await _review_tap(fake, person, third, bank, language, right=True)
        )
        assert t("review_due", count=1) in fourth["text"]
        assert next(p for p in missed if p in second["text"]) in fourth["text"]  # missed again
        await _review_tap(fake, person, fourth, bank, language, right=True)
        done = await fake.wait_for(
            lambda: (lambda m: m if not buttons(m) else None)(
                fake.message(700, fourth["message_id"])
            )
        )
        assert t("review_all_done") in done["text"] and t("review_title") in done["text"]
        with sqlite3.connect(runner.db) as db:
            [(soonest,)] = db.execute("SELECT MIN(due) FROM cards").fetchall()
        assert soonest > clock.now + DAY / 2
        assert t("review_next_in", when=t.relative(soonest - clock.now)) in done["text"]
        # "next" on the first feedback again: stale
        query = await person.tap(feedback, buttons(feedback)[0]["callback_data"])
        assert fake.callback_answers[query]["text"] == t("toast_stale")
        with sqlite3.connect(runner.db) as db:  # review never touches attempts or answers
            assert db.execute("SELECT COUNT(*) FROM answers").fetchone() == answers
            assert db.execute("SELECT SUM(reps) FROM cards").fetchone()[0] == 8 + 4
    finally:
        await runner.stop()


async def test_missed_review_and_best_score_on_the_end_screen(fake, running_bot, banks):
    """The end screen compares with the best earlier attempt; "Review what I missed" serves
    the attempt's misses first, each header counting everything due."""
    bank = banks[BANK_ID]
    t = i18n.catalog("en")
    person = Person(fake, 701, "Ann", "en")
    first = await _play_with_misses(person, bank, "en", {1, 2, 3})
    assert "→" not in first["text"]  # a first attempt has nothing to compare with
    second = await _play_with_misses(person, bank, "en", {4})
    assert t("result_improved", before=5, before_total=8, score=7, total=8) in second["text"]
    third = await _play_with_misses(person, bank, "en", {4, 5})
    assert t("result_best", best=7, best_total=8) in third["text"]
    review = next(b for b in buttons(third) if b["text"] == t("button_review"))
    before = len(person.bot_messages())
    await person.tap(third, review["callback_data"])
    await fake.wait_for(lambda: len(person.bot_messages()) > before)
    question = _review_message(person)
    assert bank.questions[3].prompt.by_language["en"] in question["text"]
    assert t("review_due", count=2) in question["text"]
    # missed again: it is due again, so two are still left (it, and question 5)
    again = await _review_tap(fake, person, question, bank, "en", right=False)
    assert t("review_due", count=2) in again["text"]
    following = await _tap_next(fake, person, again)
    assert bank.questions[4].prompt.by_language["en"] in following["text"]
    assert t("review_due", count=2) in following["text"]


async def test_stats_sends_a_chart_with_the_summary(fake, running_bot, banks):
    person = Person(fake, 702, "Eva", "hi")
    t = i18n.catalog("hi")
    assert t("stats_none") in (await person.say("/stats"))[0]["text"]  # no history: text only
    await _play_with_misses(person, banks[BANK_ID], "hi", {1})
    [photo] = await person.say("/stats")
    assert t("stats_attempts", count=1) in photo["caption"]
    assert photo["photo"][-1]["width"] == 800 and photo["photo"][-1]["height"] == 600
    png = fake.photos[(702, photo["message_id"])]
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


async def test_reminders_across_a_restart_and_a_blocked_user(fake, tmp_path, banks):
    clock = FakeClock(T0)
    runner = RunningBot(fake, tmp_path / "r.sqlite3", clock=clock, reminder_interval=0.05)
    await runner.start()
    bank = banks[BANK_ID]
    ada, bob = Person(fake, 801, "Ada", "el"), Person(fake, 802, "Bob", "en")
    for person, language in ((ada, "el"), (bob, "en")):
        await _play_with_misses(person, bank, language, {1})  # at T0
        missed = (await person.say("/review"))[0]  # question 1, right: due at T0+DAY
        await _review_tap(fake, person, missed, bank, language, right=True)
        on = (await person.say("/remind"))[0]["text"]
        assert on == i18n.catalog(language)("remind_on")
    await runner.stop()

    def schedule() -> dict[int, float]:
        with sqlite3.connect(runner.db) as db:
            return dict(db.execute("SELECT user_id, next_remind_at FROM learners"))

    assert all(T0 < at <= T0 + DAY for at in schedule().values())  # about the hour of study
    fake.block(802)
    clock.now = T0 + DAY - 1  # both reminder times have come: nothing is due yet
    await runner.start()  # the schedules were stored: the restarted bot goes on with them
    await fake.wait_for(lambda: all(at > clock.now for at in schedule().values()), recheck=0.05)
    assert not fake.calls_to("sendMessage")[-1].params.get("reply_markup")  # none was sent
    clock.now = schedule()[801]  # Ada's next reminder time: question 1 is due
    try:
        reminder = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in ada.bot_messages()
                    if buttons(m) and buttons(m)[0].get("callback_data") == "w"
                ),
                None,
            )
        )
        assert reminder["text"] == i18n.catalog("el")("reminder", count=1)
        await fake.wait_for(
            lambda: schedule()[801] == clock.now + DAY, recheck=0.05
        )  # the next: tomorrow
        clock.now = schedule()[802]  # Bob's: he blocked the bot
        await fake.wait_for(
            lambda: (
                sqlite3.connect(runner.db)
                .execute("SELECT blocked FROM learners WHERE user_id = 802")
                .fetchone()
                == (1,)
            ),
            recheck=0.05,
        )
        # the button starts the review
        before = len(ada.bot_messages())
        await ada.tap(reminder, "w")
        await fake.wait_for(lambda: len(ada.bot_messages()) > before)
        assert _review_message(ada)["text"].count(i18n.catalog("el")("review_due", count=1))
        # Bob comes back: reminders resume
        fake.block(802, False)
        await bob.say("/help")
        await fake.wait_for(
            lambda: (
                sqlite3.connect(runner.db)
                .execute("SELECT blocked FROM learners WHERE user_id = 802")
                .fetchone()
                == (0,)
            ),
            recheck=0.05,
        )
    finally:
        await runner.stop()


def test_reminder_screen_fits_and_starts_review():
    screen = learning_screens.reminder(250, i18n.catalog("hi"), render_text.HTML)
    assert screen.text == i18n.catalog("hi")("reminder_many")
    assert (
        render_callbacks.decode(render_callbacks.encode(screen.keyboard[0][0].action))
        == render_callbacks.StartReviewButton()
    )
    data = render_callbacks.encode(render_callbacks.CardAnswerButton(10**17, 10**17, 9, 10**17))
    assert len(data.encode()) <= 64 and render_callbacks.decode(data).slot == 9


def test_relative_times_are_localized_and_plural_correct():
    assert i18n.catalog("en").relative(2 * DAY) == "in 2 days"
    assert i18n.catalog("en").relative(DAY) == "in 1 day"
    assert i18n.catalog("el").relative(2 * DAY) == "σε 2 ημέρες"
    assert i18n.catalog("hi").relative(2 * DAY) == "2 दिन में"
