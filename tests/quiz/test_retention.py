"""Bounded caches, the retention prune (real database, fake clock), once-only reviews and
refusals that do not tell attempt ids apart."""

from __future__ import annotations

import sqlite3

import pytest

from bot.features.groups import rules as group
from bot.features.groups.service import GroupService
from bot.features.preferences.service import PreferencesService
from bot.features.private.retention import DAY, Retention
from bot.features.private.service import QuizService
from bot.kernel import engine
from bot.kernel.engine import StaleQuestion, UnknownAttempt
from bot.kernel.ports import Pruned
from bot.routes import TOASTS
from bot.telegram.common import AnsweredQueries
from storage import SQLiteStore
from tests.support.banks import BANK_ID
from tests.support.clock import FakeClock

NOW = 1_750_000_000.0


@pytest.fixture
async def store(tmp_path):
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    yield store
    await store.close()


async def finish(service: QuizService, user_id: int) -> engine.Attempt:
    """Start an attempt and answer every question (slot 0)."""
    attempt = await service.start(user_id, BANK_ID)
    while attempt.status == engine.ACTIVE:
        attempt, answer = await service.grade(user_id, attempt.id, attempt.position, 0)
        attempt = await service.record(attempt, answer)
    return attempt


async def test_caches_stay_bounded_however_many_users_wrote(store, banks):
    """Language choices and attempts of 200 users, with room for 10: each cache holds at most
    10 entries, and the per-user index empties as attempts are evicted."""
    service = QuizService(store, banks, cache_size=10)
    preferences = PreferencesService(store, cache_size=10)
    started = {}
    for user_id in range(1, 201):
        await preferences.chosen_language(user_id)
        await preferences.answer_flow(user_id)
        started[user_id] = await service.start(user_id, BANK_ID)
    await preferences.choose_language(5, "el")
    cached = service.cached
    assert cached["attempts"] <= 10 and cached["users"] <= 10
    assert preferences.cached["languages"] <= 10 and preferences.cached["flows"] <= 10
    assert await preferences.chosen_language(5) == "el"  # most recent: kept
    assert await preferences.chosen_language(1) is None  # evicted long ago: read again
    assert await service.active(1) == started[1]  # and attempts come back from storage


async def test_an_evicted_attempt_takes_what_was_kept_beside_it(store, banks):
    """With room for 2 attempts, 3 users each shown their second question: the first user's
    attempt is let go with its "next" mark and its per-user index entry."""
    service = QuizService(store, banks, cache_size=2)
    for user_id in (1, 2, 3):
        attempt = await service.start(user_id, BANK_ID)
        attempt, answer = await service.grade(user_id, attempt.id, 0, 0)
        attempt = await service.record(attempt, answer)
        await service.next(user_id, attempt.id, 0)
        service.shown(attempt.id, 0)  # the next question was sent, as the handler says
    cached = service.cached
    assert cached["attempts"] == cached["shown"] == cached["users"] == 2


def test_answered_queries_keep_the_latest_ids():
    """At most ``size`` answered query ids are kept, the oldest forgotten first; an id is
    forgotten once looked up."""
    answered = AnsweredQueries(size=2)
    for query_id in ("a", "b", "c"):
        answered.add(query_id)
    assert not answered.pop("a")
    assert answered.pop("b") and not answered.pop("b")
    assert answered.pop("c")


async def test_prune_deletes_old_abandoned_attempts_and_blanks_old_player_names(
    store, banks, tmp_path
):
    """With a fake clock: an abandoned attempt older than its retention goes with its answers;
    a recent abandoned one, finished ones and active ones stay. Player names of a session that
    ended long ago are blanked (its scores stay); a recent session's leaderboard keeps them."""
    clock = FakeClock(NOW - 100 * DAY)
    retention = Retention(abandoned_attempt_days=90, player_name_days=30)
    service = QuizService(store, banks, clock=clock, retention=retention)
    groups = GroupService(store, banks, question_seconds=30, clock=clock)
    old = await service.start(1, BANK_ID)
    old_answered, answer = await service.grade(1, old.id, 0, 0)
    await service.record(old_answered, answer)
    await service.stop(1)  # abandoned 100 days ago
    finished = await finish(service, 2)  # finished 100 days ago: the user's /stats
    old_session = await play_session(groups, -100, [(11, "Ada Lovelace"), (12, "Alan")])
    clock.now = NOW - 10 * DAY
    recent = await service.start(3, BANK_ID)
    await service.stop(3)  # abandoned 10 days ago
    active = await service.start(4, BANK_ID)
    new_session = await play_session(groups, -200, [(11, "Ada Lovelace")])
    clock.now = NOW

    assert await service.prune() == Pruned(attempts=1, answers=1, names=2)
    assert await store.attempt(old.id) is None
    for kept in (finished, recent, active):
        assert await store.attempt(kept.id) is not None
    answers, names = await groups.results(old_session)
    assert names == {11: "", 12: ""} and len(answers) == 2  # scores stay, names go
    assert group.leaderboard(answers, names)[0].name == ""
    assert (await groups.results(new_session))[1] == {11: "Ada Lovelace"}
    assert [s.bank_id for s in await store.stats(2)] == [BANK_ID]
    assert await service.prune() == Pruned()  # nothing more to do
    with sqlite3.connect(tmp_path / "quiz.sqlite3") as db:
        assert db.execute(
            "SELECT COUNT(*) FROM answers WHERE attempt_id = ?", (old.id,)
        ).fetchone() == (0,)


async def play_session(
    groups: GroupService, chat_id: int, players: list[tuple[int, str]]
) -> group.GroupSession:
    """A session in which each player answers the first question; then it finishes."""
    session = await groups.start(chat_id, BANK_ID, players[0][0], "en")
    opened = await groups.open(session)
    assert opened is not None
    for user_id, name in players:
        await groups.tap(session.id, chat_id, 0, 0, user_id, name)
    await groups.end(opened, group.FINISHED)
    return await groups.session(session.id)


async def test_a_review_is_shown_once_per_end_screen(store, banks):
    """The first "review" tap of a finished attempt passes, a second is stale; after a failed
    send it may be tapped again."""
    service = QuizService(store, banks)
    attempt = await finish(service, 7)
    reviewed, bank = await service.review(7, attempt.id)
    assert reviewed.id == attempt.id and bank.id == BANK_ID
    with pytest.raises(StaleQuestion):
        await service.review(7, attempt.id)
    service.not_reviewed(attempt.id)
    await service.review(7, attempt.id)


async def test_someone_elses_attempt_is_refused_like_one_that_does_not_exist(store, banks):
    """A foreign attempt id and an unknown one get the same toast: ids can't be probed."""
    service = QuizService(store, banks)
    attempt = await service.start(7, BANK_ID)
    with pytest.raises(engine.NotYourAttempt) as foreign:
        await service.grade(8, attempt.id, 0, 0)
    with pytest.raises(UnknownAttempt) as unknown:
        await service.grade(8, attempt.id + 1000, 0, 0)
    assert TOASTS[type(foreign.value)] == TOASTS[type(unknown.value)]


async def test_review_of_someone_elses_attempt_is_refused_and_not_marked(store, banks):
    """A review tap by someone else neither shows anything nor uses up the owner's review."""
    service = QuizService(store, banks)
    attempt = await finish(service, 7)
    with pytest.raises(engine.NotYourAttempt):
        await service.review(8, attempt.id)
    await service.review(7, attempt.id)


async def test_the_bot_prunes_daily(running_bot, caplog):
    """The running bot has a daily retention job; running it prunes and logs what it did."""
    from bot.app import PRUNE_SECONDS

    [job] = running_bot.app.job_queue.get_jobs_by_name("retention")
    assert job.trigger.interval.total_seconds() == PRUNE_SECONDS == DAY
    caplog.set_level("INFO", logger="bot.app")
    await job.run(running_bot.app)
    assert (
        "retention: 0 abandoned attempt(s) and 0 answer(s) deleted, 0 player name(s)" in caplog.text
    )


async def test_a_tap_the_cached_attempt_refuses_is_checked_against_the_stored_one(store, banks):
    """Two services on one store (two instances): each caches the attempt; while one answers
    and moves it on, the other's cache is behind. Its next tap (an answer, a "next") is not
    refused: the stored attempt decides; an answer the cache lets through is refused by the
    write if the question was answered on the other; news of a change drops the cache."""
    here, there = QuizService(store, banks), QuizService(store, banks)
    attempt = await here.start(1, BANK_ID)
    await there.attempt(attempt.id)  # cached there at question 1
    graded, answer = await here.grade(1, attempt.id, 0, 0)
    await here.record(graded, answer)
    assert (await there.next(1, attempt.id, 0)).position == 1  # not "answer first"
    graded, answer = await there.grade(1, attempt.id, 1, 0)  # not "not the current question"
    moved = await there.record(graded, answer)
    assert moved.position == 2
    graded, answer = await here.grade(1, attempt.id, 1, 1)  # the cache here: not answered yet
    with pytest.raises(engine.AttemptClosed):  # the write's check: moved on there
        await here.record(graded, answer)
    here.changed_elsewhere(1)
    assert here.cached["attempts"] == 0
