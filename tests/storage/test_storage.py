"""Storage against a real database, on each engine (a SQLite file, and PostgreSQL: the ``engine``
fixture): migrations, attempts, answers, stats, durability; and what is SQLite's own (WAL, file
modes, the busy timeout)."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
from dataclasses import replace

import pytest

from bot.features.groups.rules import GroupAnswer
from bot.kernel.engine import ABANDONED, ACTIVE, FINISHED, Answer, Plan, with_answer
from bot.kernel.ports import CLOSED, DUPLICATE, RECORDED, Pruned, StorageError
from storage import SQLiteStore, migrations
from storage.postgres import migrations as pg_migrations
from tests.support.engines import record

PLAN = Plan(("q1", "q2", "q3"), ((0, 1, 2, 3), (3, 2, 1, 0), (1, 0, 3, 2)))


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


async def test_new_database_is_at_latest_version_in_wal_mode(tmp_path):
    """A new file gets every migration and WAL journaling."""
    store = await SQLiteStore.open(tmp_path / "new.sqlite3")
    try:
        assert await store.schema_version() == len(migrations()) >= 1
    finally:
        await store.close()
    with sqlite3.connect(tmp_path / "new.sqlite3") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_upgrade_from_first_schema_keeps_data(engine):
    """A database made with only migration 1 upgrades to the latest and keeps its rows."""
    old = await engine.open(upto=1)
    assert await old.schema_version() == 1
    attempt = await old.start_attempt(7, "bank", 1, PLAN, now=100.0)
    await old.set_user_language(7, "el")
    await old.close()
    # answered as version 1 stored it: the answer alone ("next" moved the attempt on then)
    await engine.execute("INSERT INTO answers VALUES (?, 'q1', 0, 1, 101.0)", attempt.id)

    new = await engine.open()
    try:
        assert await new.schema_version() == len(engine.migrations())
        again = await new.attempt(attempt.id)
        assert again is not None and again.answers["q1"].correct
        # migration 0003: an answer now moves its attempt on; old attempts catch up
        assert again.position == 1
        assert await new.user_language(7) == "el"
    finally:
        await new.close()


async def test_reopening_applies_nothing_twice(engine):
    """Opening an up-to-date database twice leaves it unchanged."""
    for _ in range(2):
        store = await engine.open()
        assert await store.schema_version() == len(engine.migrations())
        await store.close()


def test_migrations_are_numbered_without_gaps():
    """Migration files are 0001.. in order, each with SQL; PostgreSQL's are their twins."""
    found = migrations()
    assert [m.version for m in found] == list(range(1, len(found) + 1))
    assert all(any(verb in m.sql.upper() for verb in ("CREATE", "ALTER", "DROP")) for m in found)
    twins = pg_migrations()
    assert [(m.version, m.name) for m in twins] == [(m.version, m.name) for m in found]


async def test_attempt_round_trip(store):
    """A started attempt is read back with its plan, position and status."""
    attempt = await store.start_attempt(1, "bank", 3, PLAN, now=10.0)
    loaded = await store.attempt(attempt.id)
    assert loaded == attempt
    assert loaded.plan == PLAN and loaded.position == 0 and loaded.status == ACTIVE
    assert await store.active_attempt(1) == attempt
    assert await store.attempt(attempt.id + 1000) is None


async def test_starting_again_abandons_the_active_attempt(store):
    """A user has at most one active attempt: a new one abandons the old."""
    first = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    second = await store.start_attempt(1, "bank", 1, PLAN, now=2.0)
    assert (await store.attempt(first.id)).status == ABANDONED
    assert (await store.active_attempt(1)).id == second.id
    other = await store.start_attempt(2, "bank", 1, PLAN, now=3.0)
    assert (await store.active_attempt(2)).id == other.id
    assert (await store.active_attempt(1)).id == second.id


async def test_database_refuses_two_active_attempts(engine, store):
    """The partial unique index enforces one active attempt per user, even for raw SQL."""
    await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    with pytest.raises(engine.integrity_error):
        await engine.execute(
            "INSERT INTO attempts (user_id, bank_id, bank_version,"
            " question_order, option_orders, started_at)"
            " VALUES (1, 'bank', 1, '[]', '[]', 5)"
        )


async def test_one_answer_per_question_per_attempt(engine, store):
    """The second answer to a question is refused and the first is kept."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    assert await record(store, attempt, Answer("q1", 2, False, 2.0)) == RECORDED
    # the answer moved the attempt on, so a second one at position 0 finds it elsewhere; the
    # primary key refuses a second answer even where the position check would let it through
    assert await record(store, attempt, Answer("q1", 0, True, 3.0)) == CLOSED
    with pytest.raises(engine.integrity_error):
        await engine.execute(
            "INSERT INTO answers (attempt_id, question_id, option_index, correct,"
            " answered_at, chosen) VALUES (?, 'q1', 0, 1, 4.0, NULL)",
            attempt.id,
        )
    loaded = await store.attempt(attempt.id)
    assert loaded.answers == {"q1": Answer("q1", 2, False, 2.0)}


async def test_answers_only_to_the_shown_question_of_an_active_attempt(store):
    """The database refuses answers to another position, another question or an ended attempt."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    ahead = with_answer(attempt, Answer("q1", 0, True, 2.0))  # as if q1 had been answered
    second = Answer("q2", 0, True, 2.0)
    assert await store.record_answer(attempt.id, 1, second, with_answer(ahead, second)) == CLOSED
    assert await store.record_answer(attempt.id, 0, second, with_answer(attempt, second)) == CLOSED
    await store.abandon(attempt.id, 3.0)
    assert await record(store, attempt, Answer("q1", 0, True, 4.0)) == CLOSED
    loaded = await store.attempt(attempt.id)
    assert (loaded.answers, loaded.position, loaded.status) == ({}, 0, ABANDONED)


async def test_concurrent_answers_to_one_question_record_exactly_one(store):
    """Fifty concurrent writers of the same answer: one wins, the rest are told no."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    results = await asyncio.gather(
        *(record(store, attempt, Answer("q1", i % 4, False, float(i))) for i in range(50))
    )
    assert results.count(RECORDED) == 1
    assert set(results) <= {RECORDED, DUPLICATE, CLOSED}
    loaded = await store.attempt(attempt.id)
    assert len(loaded.answers) == 1 and loaded.position == 1


async def test_concurrent_writes_share_commits(store):
    """Group commit: 200 concurrent answers are all stored, in far fewer transactions."""
    attempts = [await store.start_attempt(user, "bank", 1, PLAN, now=1.0) for user in range(200)]
    commits_before = store.commits
    results = await asyncio.gather(
        *(record(store, a, Answer("q1", 1, True, 2.0)) for a in attempts)
    )
    assert results == [RECORDED] * 200
    assert store.commits - commits_before < 20
    for a in attempts[:5] + attempts[-5:]:
        assert (await store.attempt(a.id)).answers["q1"].option_index == 1


async def test_a_failed_commit_fails_every_write_of_the_batch(engine):
    """When the COMMIT itself fails (every statement of the batch ran; a deferred foreign key is
    checked at COMMIT and refuses it), no write of the batch is acknowledged or visible, and
    the store goes on working."""
    store = await engine.open()
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    await engine.trap_commits("xx")
    commits = store.commits
    async with asyncio.timeout(60):  # a guard against a hang: callers must hear, either way
        results = await asyncio.gather(  # queued together: one batch, one transaction
            record(store, attempt, Answer("q1", 0, True, 2.0)),
            store.set_user_language(2, "xx"),
            return_exceptions=True,
        )
    assert all(isinstance(r, StorageError) for r in results), results
    assert all("foreign key" in str(r).lower() for r in results), results
    assert store.commits == commits
    loaded = await store.attempt(attempt.id)
    assert (loaded.answers, loaded.position) == ({}, 0)  # nor did the answer move it on
    assert await store.user_language(2) is None
    assert await record(store, attempt, Answer("q1", 0, True, 3.0)) == RECORDED
    await store.set_user_language(2, "el")
    assert (await store.attempt(attempt.id)).answers == {"q1": Answer("q1", 0, True, 3.0)}
    assert await store.user_language(2) == "el"
    await store.close()


async def test_a_refused_write_fails_every_write_of_the_batch(engine):
    """When the database refuses a write of the transaction (the disk went read-only), no
    write of the batch is acknowledged."""
    store = await engine.open()
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    async with engine.refusing_writes(store):  # as if the disk went read-only
        results = await asyncio.gather(
            record(store, attempt, Answer("q1", 0, True, 2.0)),
            store.set_user_language(1, "hi"),
            return_exceptions=True,
        )
        assert all(isinstance(r, StorageError) for r in results), results
    assert (await store.attempt(attempt.id)).answers == {}
    assert await record(store, attempt, Answer("q1", 0, True, 3.0)) == RECORDED
    await store.close()


async def test_each_answer_stores_the_attempt_the_core_moved_it_to(store):
    """Each answer moves the attempt to the next question and the last one finishes it: the
    stored attempt is, after every answer and after the last, what the core's rule
    (engine.with_answer, the attempt the service keeps in memory) makes of it."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    for position, question_id in enumerate(PLAN.question_order):
        answer = Answer(question_id, position, position != 1, 10.0 + position)
        moved = with_answer(attempt, answer)
        assert await store.record_answer(attempt.id, position, answer, moved) == RECORDED
        assert await store.attempt(attempt.id) == moved
        attempt = moved
    assert (attempt.position, attempt.status, attempt.ended_at) == (3, FINISHED, 12.0)
    assert await store.active_attempt(1) is None


async def test_the_store_keeps_no_rule_of_its_own(engine, store):
    """The store writes the position, status and end the core decided, whatever they are;
    an answer stored without the store (no trigger since migration 0009) moves nothing, and
    recording it again is a duplicate that moves nothing either."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    answer = Answer("q1", 0, True, 2.0)
    early = replace(with_answer(attempt, answer), status=FINISHED, ended_at=5.0)
    assert await store.record_answer(attempt.id, 0, answer, early) == RECORDED
    assert await store.attempt(attempt.id) == early

    other = await store.start_attempt(2, "bank", 1, PLAN, now=1.0)
    await engine.execute(
        "INSERT INTO answers (attempt_id, question_id, option_index, correct,"
        " answered_at, chosen) VALUES (?, 'q1', 1, 0, 3.0, NULL)",
        other.id,
    )
    raw = await store.attempt(other.id)
    assert (raw.position, raw.status, raw.answers) == (
        0,
        ACTIVE,
        {"q1": Answer("q1", 1, False, 3.0)},
    )
    assert await record(store, other, answer) == DUPLICATE
    assert await store.attempt(other.id) == raw


async def test_a_stale_answer_stores_nothing_and_moves_nothing(store):
    """An answer for a position the attempt has left, for a finished attempt or for an
    abandoned one is CLOSED: no answer stored, and the attempt is not moved to what the stale
    answer would have made of it."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    stale = attempt
    for position in range(2):
        answer = Answer(PLAN.question_order[position], 0, True, 2.0 + position)
        assert await record(store, attempt, answer) == RECORDED
        attempt = with_answer(attempt, answer)
    # from the view of position 0: it would put the attempt back at position 1
    assert await record(store, stale, Answer("q1", 1, False, 9.0)) == CLOSED
    assert await store.attempt(attempt.id) == attempt
    # the same question at the right position, under another id: not the question asked
    wrong = Answer("q1", 0, True, 9.0)
    assert await store.record_answer(attempt.id, 2, wrong, with_answer(attempt, wrong)) == CLOSED
    assert await store.attempt(attempt.id) == attempt

    last = Answer("q3", 0, True, 4.0)
    assert await record(store, attempt, last) == RECORDED
    finished = with_answer(attempt, last)
    # a second tap on the last question: it would end the attempt again, later
    assert await record(store, attempt, Answer("q3", 1, False, 99.0)) == CLOSED
    assert await store.attempt(attempt.id) == finished and finished.ended_at == 4.0

    abandoned = await store.start_attempt(2, "bank", 1, PLAN, now=1.0)
    assert await store.abandon(abandoned.id, 5.0)
    assert await record(store, abandoned, Answer("q1", 0, True, 6.0)) == CLOSED
    assert await store.attempt(abandoned.id) == replace(abandoned, status=ABANDONED, ended_at=5.0)


async def test_an_answer_must_move_its_own_attempt_to_a_status_an_answer_leaves(store):
    """A moved attempt that is another attempt, or abandoned, is refused before anything is
    written."""
    first = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    second = await store.start_attempt(2, "bank", 1, PLAN, now=1.0)
    answer = Answer("q1", 0, True, 2.0)
    with pytest.raises(ValueError, match="cannot move"):
        await store.record_answer(first.id, 0, answer, with_answer(second, answer))
    with pytest.raises(ValueError, match="abandoned"):
        await store.record_answer(
            first.id, 0, answer, replace(with_answer(first, answer), status=ABANDONED)
        )
    assert await store.attempt(first.id) == first
    assert await store.attempt(second.id) == second


async def test_abandon(store):
    """abandon ends an active attempt once."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    assert await store.abandon(attempt.id, 2.0)
    assert not await store.abandon(attempt.id, 3.0)
    assert (await store.attempt(attempt.id)).status == ABANDONED


async def test_user_language_choice(store):
    """The language choice is stored and replaced."""
    assert await store.user_language(5) is None
    await store.set_user_language(5, "hi")
    await store.set_user_language(5, "el")
    assert await store.user_language(5) == "el"


async def _finish(store, user_id, answers, now):
    attempt = await store.start_attempt(user_id, "bank", 1, PLAN, now=now)
    for question_id, correct in answers.items():
        answer = Answer(question_id, 0, correct, now)
        assert await record(store, attempt, answer) == RECORDED
        attempt = with_answer(attempt, answer)
    return attempt


async def test_stats_best_last_and_most_missed(store):
    """Stats count finished attempts only, with best and last score and the most missed."""
    await _finish(store, 1, {"q1": True, "q2": False, "q3": False}, now=10.0)
    await _finish(store, 1, {"q1": True, "q2": True, "q3": False}, now=20.0)
    await _finish(store, 1, {"q1": False, "q2": False, "q3": False}, now=30.0)
    abandoned = await store.start_attempt(1, "bank", 1, PLAN, now=40.0)
    await record(store, abandoned, Answer("q1", 0, False, 41.0))
    await _finish(store, 2, {"q1": True, "q2": True, "q3": True}, now=50.0)

    [mine] = await store.stats(1)
    assert (mine.bank_id, mine.attempts, mine.best, mine.last, mine.total) == ("bank", 3, 2, 0, 3)
    assert mine.most_missed == (("q3", 3), ("q2", 2), ("q1", 1))
    assert await store.stats(99) == []


async def test_locked_database_raises_storage_error(tmp_path):
    """A write blocked by another process's lock past the busy timeout is a StorageError."""
    path = tmp_path / "locked.sqlite3"
    store = await SQLiteStore.open(path)
    await store._writer_db.execute("PRAGMA busy_timeout = 100")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageError):
            await store.set_user_language(1, "el")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    await store.set_user_language(1, "el")  # recovers once the lock is gone
    assert await store.user_language(1) == "el"
    await store.close()


async def test_acknowledged_answer_survives_kill_9(engine):
    """An answer whose record_answer returned is stored after the process is SIGKILLed."""
    script = textwrap.dedent(f"""
        import asyncio, os, signal, sys
        from bot.kernel.engine import Answer, Plan, with_answer
        from storage import open_store
        async def main():
            store = await open_store({engine.target!r})
            attempt = await store.start_attempt(1, "bank", 1,
                Plan(("q1",), ((0, 1, 2, 3),)), now=1.0)
            answer = Answer("q1", 3, False, 2.0)
            assert await store.record_answer(attempt.id, 0, answer,
                                             with_answer(attempt, answer)) == "recorded"
            print(attempt.id, flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        asyncio.run(main())
    """)
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -9, proc.stderr
    attempt_id = int(proc.stdout.split()[0])
    store = await engine.open()
    try:
        assert (await store.attempt(attempt_id)).answers == {"q1": Answer("q1", 3, False, 2.0)}
    finally:
        await store.close()


async def test_database_files_are_private(tmp_path):
    """The database, its -wal and -shm files and its lock file are created 0600 (owner read and
    write), even with a umask that lets everyone read: they hold user ids, names and answers."""
    path = tmp_path / "private.sqlite3"
    old_umask = os.umask(0)
    try:
        store = await SQLiteStore.open(path)
        try:
            await store.set_user_language(1, "el")  # a write: SQLite has made -wal and -shm
            names = sorted(p.name for p in tmp_path.iterdir())
            assert names == [
                "private.sqlite3",
                "private.sqlite3-shm",
                "private.sqlite3-wal",
                "private.sqlite3.lock",
            ]
            for name in names:
                assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o600, name
        finally:
            await store.close()
    finally:
        os.umask(old_umask)


async def test_an_existing_database_keeps_its_mode(tmp_path):
    """A database file made beforehand (by an operator, with the mode they chose) is used as it
    is: opening neither recreates nor rechmods it."""
    path = tmp_path / "shared.sqlite3"
    path.touch()
    path.chmod(0o640)
    store = await SQLiteStore.open(path)
    await store.set_user_language(1, "hi")
    await store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    store = await SQLiteStore.open(path)
    assert await store.user_language(1) == "hi"
    await store.close()


# --- fingerprints (migration 0005) and revised plans ------------------------------------------

FINGERPRINTS = {"q1": "00000000000000a1", "q2": "00000000000000b2", "q3": "00000000000000c3"}


async def test_upgrade_from_version_4_keeps_an_active_attempt_playable(engine):
    """An attempt in progress in a version-4 database upgrades with no fingerprints (its
    questions count as unchanged), can be revised, and goes on to its end."""
    old = await engine.open(upto=4)
    assert await old.schema_version() == 4
    attempt = await old.start_attempt(7, "bank", 1, PLAN, now=100.0)
    await old.close()
    # answered as version 4 stored it: the answer, which its trigger moved the attempt on with
    await engine.execute("INSERT INTO answers VALUES (?, 'q1', 2, 0, 101.0)", attempt.id)

    new = await engine.open()
    try:
        assert await new.schema_version() == len(engine.migrations()) >= 5
        again = await new.active_attempt(7)
        assert again is not None and again.fingerprints == {}
        assert (again.plan, again.position, again.status) == (PLAN, 1, ACTIVE)
        assert again.answers == {"q1": Answer("q1", 2, False, 101.0)}
        # q2 was removed from the bank and q3 edited: the rest is revised
        revised = Plan(("q1", "q3"), (PLAN.option_orders[0], (2, 0, 1)))
        assert await new.revise_attempt(again.id, 1, revised, {"q3": "ff"}, None)
        loaded = await new.attempt(again.id)
        assert (loaded.plan, loaded.fingerprints, loaded.status) == (revised, {"q3": "ff"}, ACTIVE)
        assert await record(new, loaded, Answer("q3", 0, True, 102.0)) == RECORDED
        done = await new.attempt(again.id)
        assert (done.status, done.ended_at, done.position) == (FINISHED, 102.0, 2)
    finally:
        await new.close()


TRIGGERS_ON_ANSWERS = {
    "sqlite": "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'answers'",
    "postgres": "SELECT COUNT(*) FROM pg_trigger WHERE tgrelid = 'answers'::regclass"
    " AND NOT tgisinternal",
}


async def test_upgrade_from_version_8_drops_the_trigger_and_keeps_attempts(engine):
    """Migration 0009 drops the trigger that moved an attempt on with each answer (and
    PostgreSQL's trigger function): attempts stored before it stay as they are, and the ones in
    progress go on, moved by the core's rule that record_answer writes."""
    old = await engine.open(upto=8)
    assert await old.schema_version() == 8
    playing = await old.start_attempt(7, "bank", 1, PLAN, now=100.0)
    done = await old.start_attempt(8, "bank", 1, PLAN, now=100.0)
    # answered as version 8 stored answers: the insert, which its trigger moved the attempt on
    await engine.execute("INSERT INTO answers VALUES (?, 'q1', 2, 0, 101.0)", playing.id)
    for at, question_id in enumerate(PLAN.question_order):
        await engine.execute(
            "INSERT INTO answers VALUES (?, ?, 0, 1, ?)", done.id, question_id, 110.0 + at
        )
    await old.close()
    # read as version 8 has them (the store's own reads are those of the latest version)
    moved = [
        (
            await engine.fetchval("SELECT position FROM attempts WHERE attempt_id = ?", i),
            await engine.fetchval("SELECT status FROM attempts WHERE attempt_id = ?", i),
            await engine.fetchval("SELECT ended_at FROM attempts WHERE attempt_id = ?", i),
        )
        for i in (playing.id, done.id)
    ]
    assert moved == [(1, ACTIVE, None), (3, FINISHED, 112.0)]
    assert await engine.fetchval(TRIGGERS_ON_ANSWERS[engine.name]) == 1
    function = "SELECT to_regproc('answers_move_attempt_on') IS NOT NULL"
    if engine.name == "postgres":
        assert await engine.fetchval(function) is True

    new = await engine.open()
    try:
        assert await new.schema_version() == len(engine.migrations()) >= 9
        assert await engine.fetchval(TRIGGERS_ON_ANSWERS[engine.name]) == 0
        if engine.name == "postgres":
            assert await engine.fetchval(function) is False
        stored = [await new.attempt(playing.id), await new.attempt(done.id)]
        assert [(a.position, a.status, a.ended_at) for a in stored] == moved
        assert [len(a.answers) for a in stored] == [1, 3]
        answer = Answer("q2", 1, True, 102.0)
        assert await record(new, stored[0], answer) == RECORDED
        assert await new.attempt(playing.id) == with_answer(stored[0], answer)
        # an answer inserted behind the store's back moves nothing any more
        await engine.execute(
            "INSERT INTO answers (attempt_id, question_id, option_index, correct,"
            " answered_at, chosen) VALUES (?, 'q3', 0, 1, 103.0, NULL)",
            playing.id,
        )
        raw = await new.attempt(playing.id)
        assert (raw.position, raw.status, len(raw.answers)) == (2, ACTIVE, 3)
    finally:
        await new.close()


async def test_fingerprints_are_kept_with_the_attempt(store):
    """The fingerprints given at the start are read back; none given reads back as none."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0, fingerprints=FINGERPRINTS)
    assert attempt.fingerprints == FINGERPRINTS
    assert await store.attempt(attempt.id) == attempt
    plain = await store.start_attempt(2, "bank", 1, PLAN, now=1.0)
    assert (await store.attempt(plain.id)).fingerprints == {}


async def test_revise_only_an_active_attempt_at_the_given_position(store):
    """A revision written for a position the attempt has left, or for an ended attempt,
    changes nothing; one that leaves nothing to ask finishes the attempt."""
    attempt = await store.start_attempt(1, "bank", 1, PLAN, now=1.0, fingerprints=FINGERPRINTS)
    assert await record(store, attempt, Answer("q1", 0, True, 2.0)) == RECORDED
    shorter = Plan(("q1",), PLAN.option_orders[:1])
    assert not await store.revise_attempt(attempt.id, 0, shorter, {}, 3.0)
    assert await store.attempt(attempt.id) == replace(
        attempt, position=1, answers={"q1": Answer("q1", 0, True, 2.0)}
    )
    assert await store.revise_attempt(attempt.id, 1, shorter, {"q1": "aa"}, 3.0)
    finished = await store.attempt(attempt.id)
    assert (finished.status, finished.ended_at, finished.plan) == (FINISHED, 3.0, shorter)
    assert not await store.revise_attempt(attempt.id, 1, PLAN, FINGERPRINTS, None)
    assert (await store.attempt(attempt.id)).plan == shorter


# --- group settings, retention, health and reports: the same on both engines -------------------


async def test_group_settings_compare_and_set_and_move_with_the_chat(store):
    """The first save (version 0) and each change at the expected version win; a stale one is
    refused; settings and language move with a chat upgraded to a supergroup."""
    from bot.features.groups.settings import GroupSettings

    assert await store.group_settings(-1) is None
    first = GroupSettings(
        who_starts="admins",
        question_seconds=20,
        scoring="right",
        bank_id="bank",
        question_count=5,
        version=1,
    )
    assert await store.save_group_settings(-1, first, 0, language="el")
    assert not await store.save_group_settings(-1, replace(first, version=1), 0)  # stale
    assert await store.group_settings(-1) == first and await store.group_language(-1) == "el"
    second = replace(first, question_seconds=None, question_count=None, version=2)
    results = await asyncio.gather(*(store.save_group_settings(-1, second, 1) for _ in range(4)))
    assert sorted(results) == [False, False, False, True]
    assert await store.group_settings(-1) == second
    assert await store.move_chat(-1, -1001) == 0
    assert await store.group_settings(-1) is None and await store.group_settings(-1001) == second
    assert await store.group_language(-1001) == "el"


async def test_sessions_keep_their_scoring_and_the_last_one_is_found(store):
    assert await store.last_session(-5) is None
    first = await store.start_session(-5, "bank", 1, "en", 7, PLAN, 30.0, 1.0, scoring="speed")
    assert first is not None and first.scoring == "speed"
    assert await store.last_session(-5) is None  # still running
    assert (await store.last_session(-5, ended=False)).id == first.id
    await store.open_question(first.id, 0, 100.0)
    closed = await store.close_question(first.id, 0)
    assert closed is not None and closed.scoring == "speed"
    await store.end_session(first.id, "stopped", 2.0)
    second = await store.start_session(-5, "bank", 1, "en", 7, PLAN, 30.0, 3.0)
    assert second is not None and (await store.session(second.id)).scoring == "right"
    assert (await store.last_session(-5)).id == first.id
    assert (await store.last_session(-5, ended=False)).id == second.id


async def test_prune_item_responses_and_check_writable(engine, store):
    """Old abandoned attempts go with their answers, old sessions' names are blanked; the
    report reads private and group answers with their filters; the health write fails while
    the database refuses writes."""
    old = await store.start_attempt(1, "bank", 1, PLAN, now=1.0)
    await record(store, old, Answer("q1", 2, False, 2.0))
    await store.abandon(old.id, 3.0)
    kept = await store.start_attempt(2, "bank", 1, PLAN, now=1.0)
    await record(store, kept, Answer("q1", 1, True, 2.0))
    await store.set_user_language(2, "hi")
    session = await store.start_session(-9, "other", 1, "el", 7, PLAN, 30.0, 1.0)
    await store.open_question(session.id, 0, 100.0)
    await store.record_group_answer(session.id, 0, GroupAnswer(5, "q1", 0, True, 1.0, 4.0), "Ana")
    await store.end_session(session.id, "finished", 5.0)

    everything = await store.item_responses()
    assert sorted((r.kind, r.user_id, r.bank_id, r.language) for r in everything) == [
        ("group", 5, "other", "el"),
        ("private", 1, "bank", ""),
        ("private", 2, "bank", "hi"),
    ]
    assert [r.user_id for r in await store.item_responses(chat_id=-9)] == [5]
    assert sorted(r.user_id for r in await store.item_responses(bank_id="bank")) == [1, 2]
    assert [r.user_id for r in await store.item_responses(since=3.0)] == [5]

    assert await store.prune(abandoned_before=10.0, names_before=10.0) == Pruned(1, 1, 1)
    assert await store.attempt(old.id) is None and await store.attempt(kept.id) is not None
    assert await store.group_players(session.id) == {5: ""}
    assert await store.prune(abandoned_before=10.0, names_before=10.0) == Pruned()

    await store.check_writable()
    async with engine.refusing_writes(store):
        with pytest.raises(StorageError):
            await store.check_writable()
    await store.check_writable()


async def test_concurrent_ratings_of_one_new_card_make_one_card(engine):
    """Two instances (two stores on PostgreSQL; one on SQLite) rate the same new card at once:
    one card, rated twice (each read-modify-write saw the other's)."""
    stores = [await engine.open()]
    if engine.name == "postgres":
        stores.append(await engine.open())
    try:

        def rate(card):
            return replace(card, reps=card.reps + 1, due=card.due + 1.0)

        rated = await asyncio.gather(
            *(stores[i % len(stores)].update_card(3, "bank", "q1", rate) for i in range(6))
        )
        assert sorted(c.reps for c in rated) == [1, 2, 3, 4, 5, 6]
        [card] = await stores[0].cards(3)
        assert card.reps == 6 and len({c.id for c in rated}) == 1
    finally:
        for s in stores:
            await s.close()


async def test_update_cards_rates_in_order_like_update_card(engine):
    """``update_cards`` (the batched ratings of group taps) stores what ``update_card`` one by
    one would (for users 1000 higher): new and existing cards, two ratings of one card in one
    batch (the second sees the first), a declined rating, learners studied once per rating;
    more than one chunk of rows."""
    from bot.features.learning.ports import CardUpdate, Learner

    store = await engine.open()
    try:

        def bump(step: float):
            return lambda card: replace(card, reps=card.reps + 1, due=card.due + step)

        def study(learner: Learner) -> Learner:
            return replace(learner, hours=(*learner.hours, float(len(learner.hours))))

        for user in (1, 1001):  # an existing card and learner
            await store.update_card(user, "bank", "q0", bump(1.0), study)
        updates = [
            CardUpdate(1, "bank", "q0", bump(10.0), study),
            CardUpdate(1, "bank", "q1", bump(100.0), study),
            CardUpdate(1, "bank", "q0", bump(1000.0)),
            CardUpdate(2, "bank", "q0", lambda card: None, study),  # declined
            *(CardUpdate(3 + n, "other", f"q{n}", bump(1.0), study) for n in range(400)),
        ]
        await store.update_cards(updates)
        for u in updates:
            await store.update_card(u.user_id + 1000, u.bank_id, u.question_id, u.update, u.study)

        def shape(cards):
            return sorted((c.bank_id, c.question_id, c.reps, c.due) for c in cards)

        for user in (1, 2, 3, 402):
            assert shape(await store.cards(user)) == shape(await store.cards(user + 1000))
            assert replace(await store.learner(user), user_id=0) == replace(
                await store.learner(user + 1000), user_id=0
            )
        [q0, _q1] = sorted(await store.cards(1), key=lambda c: c.question_id)
        assert (q0.reps, q0.due) == (3, 1011.0)
        assert (await store.learner(1)).hours == (0.0, 1.0, 2.0)
        assert await store.cards(2) == [] and (await store.learner(2)).hours == ()
        assert len(await store.cards(402)) == 1
        await store.update_cards([])  # nothing to do
    finally:
        await store.close()


async def test_a_database_migrated_by_a_newer_quizbot_is_refused(engine):
    """A schema version above this quizbot's last migration: open refuses, naming both
    versions, and changes nothing (both engines; downgrades only go through a backup)."""
    store = await engine.open()
    await store.close()
    newer = len(engine.migrations()) + 1
    if engine.name == "sqlite":
        await engine.execute(f"PRAGMA user_version = {newer}")
    else:
        await engine.execute("INSERT INTO quizbot_schema VALUES (?, ?, ?)", newer, "future", 0.0)
    with pytest.raises(StorageError, match=f"schema version {newer}.*newer quizbot"):
        await engine.open()
    if engine.name == "postgres":
        await engine.execute("DELETE FROM quizbot_schema WHERE version = ?", newer)
        store = await engine.open()  # the same database, back at the known version: opens
        await store.close()


def test_postgres_numbers_the_placeholders_of_the_statements_written_once():
    """The statements both engines share use ``?``; PostgreSQL's writer numbers them in order,
    and leaves a statement written for PostgreSQL alone (``$n``, reused) as it is."""
    from storage.postgres.writer import numbered

    assert numbered("UPDATE t SET a = ? WHERE b = ? AND c IN (?, ?)") == (
        "UPDATE t SET a = $1 WHERE b = $2 AND c IN ($3, $4)"
    )
    own = "SELECT 1 WHERE ($1::bigint IS NULL OR chat_id = $1)"
    assert numbered(own) is own


async def test_a_rating_batch_reads_its_cards_by_the_unique_index_on_sqlite(tmp_path):
    """The card read of ``update_cards`` (a group's taps, rated in batches) searches the
    cards' unique index once per key: a table scan would cost every batch the whole table."""
    from storage import SQLiteStore
    from storage.learning import CHUNK, cards_of_keys_sql

    path = tmp_path / "quiz.sqlite3"
    store = await SQLiteStore.open(path)
    await store.close()
    with sqlite3.connect(path) as db:
        for keys in (1, CHUNK):
            plan = [
                row[3]
                for row in db.execute(
                    f"EXPLAIN QUERY PLAN {cards_of_keys_sql(keys)}", [1, "bank", "q"] * keys
                )
            ]
            assert not any(step.startswith("SCAN c") or step == "SCAN cards" for step in plan)
            assert any(step.startswith("SEARCH c USING INDEX") for step in plan), plan


# --- prompts (PromptStore) ---------------------------------------------------------------------


async def test_a_prompt_is_replaced_read_while_fresh_and_taken_once(engine, store):
    """A prompt replaces the user's older one of its kind (another kind stays); it is read only
    if asked at ``since`` or later; taken once, with its own payload only and while fresh;
    two stores on one database taking it at once (two instances): one gets it."""
    await store.set_prompt(7, "delete", "aaaa", 100.0)
    await store.set_prompt(7, "edit", "rename:c-0123456789:1:0", 100.0)
    await store.set_prompt(7, "delete", "bbbb", 200.0)
    assert await store.prompt(7, "delete", since=150.0) == "bbbb"
    assert await store.prompt(7, "delete", since=250.0) is None
    assert await store.prompt(8, "delete", since=0.0) is None
    assert not await store.take_prompt(7, "delete", "aaaa", since=0.0)  # replaced
    assert not await store.take_prompt(7, "delete", "bbbb", since=250.0)  # expired
    other = await engine.open()
    try:
        taken = await asyncio.gather(
            store.take_prompt(7, "delete", "bbbb", since=150.0),
            other.take_prompt(7, "delete", "bbbb", since=150.0),
        )
    finally:
        await other.close()
    assert sorted(taken) == [False, True]
    assert await store.prompt(7, "edit", since=0.0) == "rename:c-0123456789:1:0"
    assert await store.drop_prompt(7, "edit") and not await store.drop_prompt(7, "edit")


async def test_prompts_go_with_the_user_and_with_the_days_pruning(store):
    """delete_user deletes the user's prompts (no one else's); prune deletes the prompts asked
    before ``prompts_before``, and none without it."""
    for user_id, asked in ((7, 10.0), (8, 10.0), (9, 500.0)):
        await store.set_prompt(user_id, "edit", "add:c-0123456789:1:0", asked)
    await store.delete_user(7)
    assert await store.prompt(7, "edit", since=0.0) is None
    await store.prune(abandoned_before=0.0, names_before=0.0)
    assert await store.prompt(8, "edit", since=0.0) is not None
    await store.prune(abandoned_before=0.0, names_before=0.0, prompts_before=100.0)
    assert await store.prompt(8, "edit", since=0.0) is None
    assert await store.prompt(9, "edit", since=0.0) is not None
