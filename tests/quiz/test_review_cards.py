"""Review cards are never lost: ratings dropped from memory (a crash mid-batch) are rebuilt at
start from the stored answers, as if rated one by one; a failed batch is tried again; the
bot rebuilds them when it starts. Both engines, real databases."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import astuple

from bot.features.groups.service import GroupService
from bot.features.learning import rules as learning
from bot.features.learning.ports import UnratedAnswer
from bot.features.learning.rules import Card
from bot.features.learning.service import LearningService
from bot.features.private.service import QuizService
from storage import SQLiteStore
from tests.support.banks import BANK_ID
from tests.support.botrun import RunningBot
from tests.support.clock import FakeClock

T0 = 1_780_000_000.0
CHAT = -1001


def crash(learner: LearningService) -> None:
    """What a ``kill -9`` does to the service: its queued ratings are gone, never written."""
    learner._ratings._queued.clear()
    if learner._ratings._writer is not None:
        learner._ratings._writer.cancel()


async def play(
    store, banks, clock: FakeClock, learner: LearningService, *, crash_after: int
) -> list[UnratedAnswer]:
    """Two users take a private quiz and four members play a group session (one of them
    both), every answer rated through ``learner.answered_soon`` as the bot does, one second
    apart; after ``crash_after`` answers the ratings of the rest are queued at once and
    dropped (:func:`crash`): the batch the writer took last is in flight, the rest never
    leaves memory. Returns every answer, in order."""
    quiz = QuizService(store, banks, clock=clock, rng=random.Random(1))
    groups = GroupService(
        store, banks, question_seconds=30.0, languages=("en",), clock=clock, rng=random.Random(2)
    )
    quiz.on_answer = groups.on_answer = learner.answered_soon
    recorded: list = []  # (service, attempt or session, answer, user id)
    rng = random.Random(3)
    for user_id in (11, 12):
        attempt = await quiz.start(user_id, BANK_ID)
        for _ in range(3):
            attempt, answer = await quiz.grade(
                user_id, attempt.id, attempt.position, rng.randrange(4)
            )
            moved = await quiz.record(attempt, answer)
            recorded.append((quiz, attempt, answer, user_id))
            attempt = moved
            clock.advance(1.0)
    session = await groups.start(CHAT, BANK_ID, 21, "en")
    for _ in range(3):
        opened = await groups.open(session)
        assert opened is not None
        for user_id in (21, 22, 23, 11):
            session, answer, _early = await groups.tap(
                opened.id, CHAT, opened.position, rng.randrange(4), user_id, f"u{user_id}"
            )
            recorded.append((groups, session, answer, user_id))
            clock.advance(1.0)
        closed = await groups.close(opened.id, opened.position)
        assert closed is not None
        session = await groups.revealed(closed)
    for index, (service, owner, answer, _user) in enumerate(recorded):
        if index == crash_after and index:
            await asyncio.sleep(0)  # the writer takes what is queued: a batch in flight
        await service.answered(owner, answer)  # queues the rating (no await inside)
        if index < crash_after - 1:
            await learner.drain()
    crash(learner)
    with contextlib.suppress(asyncio.CancelledError):
        if learner._ratings._writer is not None:
            await learner._ratings._writer
    return [
        UnratedAnswer(user, BANK_ID, answer.question_id, answer.correct, answer.answered_at)
        for _s, _o, answer, user in recorded
    ]


def one_by_one(answers: list[UnratedAnswer]) -> dict[int, tuple[list[tuple], list[float]]]:
    """Each user's cards and study hours as rating every answer alone, in order, gives (the
    core's rules applied in memory, apart from the bot)."""
    cards: dict[tuple[int, str, str], Card] = {}
    hours: dict[int, list[float]] = {}
    for a in answers:
        key = (a.user_id, a.bank_id, a.question_id)
        cards[key] = learning.rate(cards.get(key) or Card(0, *key), a.correct, a.answered_at)
        hours[a.user_id] = learning.study_hours(hours.get(a.user_id, []), a.answered_at)
    return {
        user: (sorted(astuple(c)[1:] for k, c in cards.items() if k[0] == user), hours[user])
        for user in sorted(hours)
    }


async def as_stored(store) -> dict[int, tuple[list[tuple], list[float]]]:
    """Each user's cards (without their ids) and study hours, as stored."""
    found = {}
    for user_id in (11, 12, 21, 22, 23):
        cards = sorted(astuple(c)[1:] for c in await store.cards(user_id))
        found[user_id] = (cards, list((await store.learner(user_id)).hours))
    return found


async def test_a_crash_mid_batch_loses_no_review_card(engine, banks):
    """Ratings dropped from memory in a crash, one batch in flight: after a restart the
    rebuild rates every answer whose card does not reflect it, and the cards and study hours
    are those of rating every answer one by one, in order; a lost rating written late
    anyway (another instance's queue) changes nothing, and a second rebuild finds nothing."""
    clock = FakeClock(T0)
    store = await engine.open()
    try:
        learner = LearningService(store, banks, clock=clock)
        answers = await play(store, banks, clock, learner, crash_after=10)
    finally:
        await store.close()  # the batch in flight is committed, or not, by then
    store = await engine.open()  # the restart
    try:
        lost = await store.unrated_answers()
        assert len(lost) >= len(answers) - 10  # all those queued after the crash point
        assert await as_stored(store) != one_by_one(answers)
        restarted = LearningService(store, banks, clock=clock)
        assert await restarted.rebuild() == len(lost)
        assert await as_stored(store) == one_by_one(answers)
        assert await store.unrated_answers() == []
        late = LearningService(store, banks, clock=clock)
        for a in lost:
            await late.answered_soon(a.user_id, a.bank_id, a.question_id, a.correct, a.answered_at)
        await late.drain()
        assert await as_stored(store) == one_by_one(answers)
        assert await restarted.rebuild() == 0
    finally:
        await store.close()


class _Retries(logging.Handler):
    """Sets ``event`` when the review cards' writer logs that it will try a batch again."""

    def __init__(self) -> None:
        super().__init__()
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("could not update review cards (try 1 of"):
            self.event.set()


async def test_a_failed_card_write_is_tried_again(engine, banks):
    """While the database refuses writes, a batch of review cards fails and is tried again
    (after a wait); once writes are taken again, it is written: nothing is lost."""
    clock = FakeClock(T0)
    store = await engine.open()
    retries = _Retries()
    logging.getLogger("bot.features.learning.ratings").addHandler(retries)
    try:
        learner = LearningService(store, banks, clock=clock)
        question = banks[BANK_ID].questions[0].id
        async with engine.refusing_writes(store):
            await learner.answered_soon(7, BANK_ID, question, True, T0)
            await asyncio.wait_for(retries.event.wait(), timeout=60)
            assert await store.cards(7) == []
        await learner.drain()
        [card] = await store.cards(7)
        assert card.reps == 1 and card.last_review == T0
    finally:
        logging.getLogger("bot.features.learning.ratings").removeHandler(retries)
        await store.close()


async def test_the_bot_rebuilds_lost_cards_when_it_starts(fake, tmp_path, banks):
    """Answers stored without their cards (the bot was killed before writing any) have their
    cards, as rated one by one, once the bot has started on the database again."""
    db = tmp_path / "quiz.sqlite3"
    store = await SQLiteStore.open(db)
    try:
        clock = FakeClock(T0)
        answers = await play(
            store, banks, clock, LearningService(store, banks, clock=clock), crash_after=0
        )
        assert len(await store.unrated_answers()) == len(answers)
    finally:
        await store.close()
    runner = await RunningBot(fake, db).start()
    await runner.stop()
    store = await SQLiteStore.open(db)
    try:
        assert await store.unrated_answers() == []
        assert [cards for cards, _hours in (await as_stored(store)).values()] == [
            cards for cards, _hours in one_by_one(answers).values()
        ]
    finally:
        await store.close()
