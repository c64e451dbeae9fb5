"""Several quizbot instances sharing one PostgreSQL database: constraints decide between
instances' writes, a group session's steps run on the one instance holding its lease, one
instance polls, and killing an instance mid-session (``kill -9``) loses nothing."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from bot import i18n
from bot.features.groups import pacing
from bot.features.groups.rules import GroupAnswer
from bot.kernel.engine import Answer, Plan
from bot.kernel.ports import CLOSED, DUPLICATE, RECORDED
from storage import PostgresStore
from storage.leases import POLLER_NAMESPACE, SESSION_NAMESPACE
from tests.support.banks import BANK_ID
from tests.support.engines import record
from tests.support.fakebotapi import FakeBotAPI
from tests.support.person import Person
from tests.support.processes import HeldCalls
from tests.support.screens import buttons, correct_label

PLAN = Plan(("q1", "q2", "q3"), ((0, 1, 2, 3),) * 3)
GROUP = -1009876543210
WINDOW = 3.0  # seconds per group question in the end-to-end test


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    """Wait until ``check()`` is true, asking every 10 ms: the server's lock table has no event
    to wait on.

    Raises:
        TimeoutError: still false after 30 s (a safety net, not a bound under test).
    """
    async with asyncio.timeout(30):
        for _ in itertools.count():
            if await check():
                return
            await asyncio.sleep(0.01)


async def _gone(admin: asyncpg.Connection, pid: int) -> bool:
    return not await admin.fetchval("SELECT COUNT(*) FROM pg_locks WHERE pid = $1", pid)


async def test_quizbot_db_url_opens_postgresql(pg_db, tmp_path):
    """open_store (what `quizbot run` and `play` use): a URL opens PostgreSQL, a path SQLite;
    the URL's password is masked in what is logged."""
    from storage import SQLiteStore, open_store
    from storage.postgres import redact_dsn

    store = await open_store(pg_db)
    try:
        assert isinstance(store, PostgresStore) and store.leases().shared
    finally:
        await store.close()
    store = await open_store(tmp_path / "quiz.sqlite3")
    try:
        assert isinstance(store, SQLiteStore) and not store.leases().shared
    finally:
        await store.close()
    assert redact_dsn("postgresql://bot:s3cret@db/quiz") == "postgresql://bot:***@db/quiz"


@pytest.fixture
async def two(pg_db):
    """Two stores on the same database: what two instances hold."""
    first = await PostgresStore.open(pg_db)
    second = await PostgresStore.open(pg_db)
    yield first, second
    await first.close()
    await second.close()


async def test_one_answer_per_question_across_instances(two):
    """Both instances record the same user's answer to the same question at once, 25 times
    each: exactly one is recorded; the rest are told it was answered or moved on."""
    first, second = two
    attempt = await first.start_attempt(1, "bank", 1, PLAN, now=1.0)
    results = await asyncio.gather(
        *(
            record(store, attempt, Answer("q1", i % 4, False, float(i)))
            for i in range(25)
            for store in (first, second)
        )
    )
    assert results.count(RECORDED) == 1
    assert set(results) <= {RECORDED, DUPLICATE, CLOSED}
    for store in (first, second):
        loaded = await store.attempt(attempt.id)
        assert len(loaded.answers) == 1 and loaded.position == 1


async def test_one_running_session_per_chat_across_instances(two):
    """Two instances start a session in the same chat at once: one gets it."""
    first, second = two
    started = await asyncio.gather(
        *(store.start_session(-5, "bank", 1, "en", 1, PLAN, 30.0, 0.0) for store in two)
    )
    assert sum(s is not None for s in started) == 1
    assert (await first.active_session(-5)) == (await second.active_session(-5))


async def test_taps_racing_a_close_from_another_instance_are_counted_or_refused(two, pg_db):
    """Members' taps recorded through one instance while the other closes the question: every
    tap told "recorded" is in the answers and in the counts; the rest are told it closed."""
    first, second = two
    session = await first.start_session(-7, "bank", 1, "en", 1, PLAN, 30.0, 0.0)
    assert await first.open_question(session.id, 0, 1e12)

    async def taps() -> list[str]:
        outcomes = []
        for user in range(200):
            tally = await first.record_group_answer(
                session.id, 0, GroupAnswer(user, "q1", 0, True, 1.0, 1.0), f"m{user}"
            )
            outcomes.append(tally.outcome)
        return outcomes

    async def close() -> None:
        await asyncio.sleep(0)  # let some taps in first
        assert await second.close_question(session.id, 0) is not None

    outcomes, _ = await asyncio.gather(taps(), close())
    recorded = outcomes.count(RECORDED)
    assert set(outcomes) <= {RECORDED, CLOSED} and outcomes.count(CLOSED) >= 1
    assert outcomes == sorted(outcomes, key=lambda o: o != RECORDED)  # none after the close
    assert len(await second.group_answers(session.id)) == recorded
    db = await asyncpg.connect(pg_db)
    try:
        answered, players = await db.fetchrow(
            "SELECT answered, players FROM group_sessions WHERE session_id = $1", session.id
        )
    finally:
        await db.close()
    assert answered == players == recorded


async def test_a_session_lease_is_held_by_one_instance_until_it_dies(two, pg_db):
    """The instance holding a session's lease keeps it; the other is refused until the holder
    releases it, or its connection dies (as with kill -9); then the old holder is refused."""
    first, second = (store.leases() for store in two)
    assert await first.claim(42)
    assert await first.claim(42)  # still held: checked with the server
    assert not await second.claim(42)
    assert await second.claim(43)
    await first.release(42)
    assert await second.claim(42)
    assert not await first.claim(42)
    assert await first.claim(44)
    # the first instance's lease connection dies: the server frees its leases
    admin = await asyncpg.connect(pg_db)
    try:
        pids = await admin.fetch(
            "SELECT DISTINCT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1"
            " AND objid = 44 AND granted",
            SESSION_NAMESPACE,
        )
        assert len(pids) == 1
        await admin.execute("SELECT pg_terminate_backend($1)", pids[0][0])
        await until(lambda: _gone(admin, pids[0][0]))  # the backend is gone once its locks are
    finally:
        await admin.close()
    assert await second.claim(44)
    assert not await first.claim(44)  # it reconnects and finds the lease taken


async def test_one_instance_polls_and_the_next_takes_over_when_it_dies(two, pg_db):
    """The poller lease: the first instance gets it; the second waits (its lock request is
    seen waiting by the server) and gets it once the first's connection is gone. Another bot's
    instance has a lease of its own."""
    first, second = (store.leases() for store in two)
    lost: list[str] = []
    first_lost = asyncio.Event()
    await first.wait_poller(1000, on_lost=lambda: (lost.append("first"), first_lost.set()))
    waiting = asyncio.create_task(second.wait_poller(1000, on_lost=lambda: lost.append("second")))
    admin = await asyncpg.connect(pg_db)
    try:

        async def waiting_for_lock() -> bool:
            return bool(
                await admin.fetchval(
                    "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
                )
            )

        await until(waiting_for_lock)
        assert not waiting.done()
        # an instance of another bot on the same database polls at once
        other = await PostgresStore.open(pg_db)
        try:
            await asyncio.wait_for(other.leases().wait_poller(2000, on_lost=lambda: None), 30)
        finally:
            await other.close()
        holder = await admin.fetchval(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND objid = 1000 AND classid = $1",
            POLLER_NAMESPACE,
        )
        await admin.execute("SELECT pg_terminate_backend($1)", holder)  # the first one dies
        await asyncio.wait_for(waiting, timeout=30)
    finally:
        await admin.close()

    await asyncio.wait_for(first_lost.wait(), timeout=30)
    # the first was told its lease is gone (it stops), the second was not
    assert lost == ["first"]


# --- end to end: two `quizbot run` processes, one killed mid-session -------------------------


async def _start(fake: FakeBotAPI, url: str, log: Path) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "QUIZBOT_DB": url,
        "QUIZBOT_QUESTION_SECONDS": str(WINDOW),
    }
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            env=env,
            stdout=out,
            stderr=out,
            stdin=subprocess.DEVNULL,
        )


def _group_questions(fake: FakeBotAPI) -> list[dict]:
    return [
        c.params
        for c in fake.calls_to("sendMessage")
        if c.params.get("chat_id") == GROUP
        and c.response.get("ok")
        and any(
            b.get("callback_data", "").startswith("g:")
            for row in c.params.get("reply_markup", {}).get("inline_keyboard", [])
            for b in row
        )
    ]


def _open_question(fake: FakeBotAPI) -> dict | None:
    for message in reversed(fake.messages(GROUP)):
        if message.get("from", {}).get("id") == fake.bot_id and any(
            b.get("callback_data", "").startswith("g:") for b in buttons(message)
        ):
            return message
    return None


async def _standby(
    fake: FakeBotAPI, url: str, tmp_path: Path, first: asyncio.subprocess.Process
) -> asyncio.subprocess.Process:
    """Once ``first`` polls, a second instance, started and waiting for the poller lease."""
    await fake.wait_for(
        lambda: fake.polling or first.returncode is not None, timeout=60, recheck=0.05
    )
    assert first.returncode is None, (tmp_path / "first.log").read_text()
    second = await _start(fake, url, tmp_path / "second.log")
    try:
        await fake.wait_for(
            lambda: "waiting for the poller lease" in (tmp_path / "second.log").read_text(),
            timeout=60,
            recheck=0.05,
        )
    except BaseException:
        second.kill()
        await second.wait()
        raise
    return second


async def _question(fake: FakeBotAPI, after: int | None) -> dict:
    return await fake.wait_for(
        lambda: (lambda m: m if m and m["message_id"] != after else None)(_open_question(fake)),
        timeout=60,
    )


async def _tap(fake: FakeBotAPI, user_id: int, message: dict, label: str) -> dict:
    data = next(b["callback_data"] for b in buttons(message) if b["text"] == label)
    update = fake.tap(user_id, GROUP, message["message_id"], data, check_button=False)
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers, timeout=60)
    return fake.callback_answers[query_id]


async def test_kill_9_of_the_polling_instance_mid_session_loses_nothing(
    fake, pg_db, tmp_path, banks
):
    """Two instances on one database: the first polls and runs the session, the second waits.
    The first is killed (-9) while question 1 is open with two taps recorded; the second takes
    over polling, fires question 1's deadline, and carries the session to its leaderboard.
    Every question is posted once and revealed once, every tap is recorded once, and the two
    never polled at once (no 409 from the Bot API)."""
    bank = banks[BANK_ID]
    t = i18n.catalog("en")
    fake.add_user(801, "Ana", language_code="en")
    fake.add_user(802, "Ben", language_code="en")
    fake.add_group(GROUP, "Shared", admins=[801], members=[802])
    first = await _start(fake, pg_db, tmp_path / "first.log")
    second: asyncio.subprocess.Process | None = None
    try:
        second = await _standby(fake, pg_db, tmp_path, first)

        fake.send_message(801, f"/quiz@{fake.bot_username}", chat_id=GROUP)
        question = await _question(fake, None)
        right = correct_label(question, bank, "en")
        for user in (801, 802):
            assert (await _tap(fake, user, question, right))["text"] == t(
                "group_recorded", label=right
            )
        conflicts_before_kill = [c for c in fake.calls_to("getUpdates") if c.status == 409]
        first.send_signal(signal.SIGKILL)
        await first.wait()

        previous = question["message_id"]
        for _number in range(2, 9):
            question = await _question(fake, previous)  # the second instance posted it
            right = correct_label(question, bank, "en")
            for user in (801, 802):
                assert (await _tap(fake, user, question, right))["text"] == t(
                    "group_recorded", label=right
                )
            previous = question["message_id"]
        leaderboard = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.messages(GROUP)
                    if m.get("from", {}).get("id") == fake.bot_id
                    and t("group_leaderboard") in m.get("text", "")
                ),
                None,
            ),
            timeout=60,
        )
        assert "Ana" in leaderboard["text"] and "Ben" in leaderboard["text"]
    finally:
        for proc in (first, second):
            if proc is not None and proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), 60)

    assert conflicts_before_kill == []
    posted = _group_questions(fake)
    assert len(posted) == 8  # each question once
    # the edits of the group's messages are the reveals, and the cosmetic mid-window clock
    # edits (at most one per question)
    clock_text = t("group_clock_left", count=round(WINDOW * pacing.CLOCK_FRACTION))
    edits = [
        c
        for c in fake.calls_to("editMessageText")
        if c.params.get("chat_id") == GROUP and c.response.get("ok")
    ]
    reveals = [c.params["message_id"] for c in edits if clock_text not in c.params["text"]]
    clocks = [c.params["message_id"] for c in edits if clock_text in c.params["text"]]
    assert len(reveals) == len(set(reveals)) == 8  # each question revealed once
    assert len(clocks) == len(set(clocks))
    db = await asyncpg.connect(pg_db)
    try:
        rows = await db.fetch("SELECT user_id, question_id FROM group_answers")
        status = await db.fetchval("SELECT status FROM group_sessions")
    finally:
        await db.close()
    assert len(rows) == len(set(rows)) == 16 and status == "finished"


async def test_a_standby_taking_over_polling_handles_each_update_once(fake, pg_db, tmp_path):
    """Two instances on one database, the first polling. Its answer to A's /start is held on
    the way (the update is still being handled) when Ada's /newquiz question comes and is
    added; then the first is killed (-9). The standby takes polling over and gets both updates
    again (neither was confirmed): it answers A's /start (nothing lost) and drops Ada's
    question (marked handled by the first), so her next question is number 2."""
    t = i18n.catalog("en")
    slow, ada = Person(fake, 801, "Slow"), Person(fake, 802, "Ada")
    held = HeldCalls(fake)
    first = await _start(fake, pg_db, tmp_path / "first.log")
    second: asyncio.subprocess.Process | None = None
    try:
        second = await _standby(fake, pg_db, tmp_path, first)
        for text in ("/newquiz", "Capitals", "/skip"):
            await ada.say(text)
        held.chat(slow.user_id)
        start = fake.send_message(slow.user_id, "/start")
        await fake.wait_for(lambda: fake.fetched(start["update_id"]))
        before = len(ada.bot_messages())
        question = fake.send_message(ada.user_id, "First?\n*A\nB")
        [added] = await fake.wait_for(lambda: ada.bot_messages()[before:])
        assert added["text"].startswith(t("newquiz.added", number=1, prompt="First?"))
        db = await asyncpg.connect(pg_db)
        try:
            await until(lambda: _marked(db, question["update_id"]))
        finally:
            await db.close()
        first.send_signal(signal.SIGKILL)
        await first.wait()
        assert slow.bot_messages() == []
        held.release(slow.user_id)
        await fake.wait_for(lambda: len(slow.bot_messages()) == 2, timeout=60)
        [added] = await ada.say("Second?\n*A\nB")
        assert added["text"].startswith(t("newquiz.added", number=2, prompt="Second?"))
    finally:
        for proc in (first, second):
            if proc is not None and proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                await asyncio.wait_for(proc.wait(), 60)
    assert len([m for m in ada.bot_messages() if "First?" in m.get("text", "")]) == 1
    assert "handled before this start: dropped" in (tmp_path / "second.log").read_text()


async def _marked(db: asyncpg.Connection, update_id: int) -> bool:
    return bool(
        await db.fetchval("SELECT COUNT(*) FROM handled_updates WHERE update_id = $1", update_id)
    )
