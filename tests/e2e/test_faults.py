"""Faults and crashes under load: injected Bot API faults, kill -9, storage faults, a crowd.

The short CI versions of what ``benchmarks/run.py`` measures at scale, with the same load
generator (tests/support/loadgen.py).
"""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
from pathlib import Path

from bot import i18n
from bot.services import services_of
from storage.shared import UNRATED_ANSWERS
from tests.support.banks import BANK_ID
from tests.support.botrun import RunningBot
from tests.support.fakebotapi import Chaos
from tests.support.loadgen import LoadGenerator
from tests.support.person import Person
from tests.support.processes import start_bot_process
from tests.support.screens import answer_buttons, buttons, correct_label

QUESTIONS = 8


def answers_by_user(db: Path, user_ids: list[int]) -> dict[int, dict[str, int]]:
    """user id -> question id -> how many answers the database holds."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT a.user_id, s.question_id, COUNT(*) FROM answers s JOIN attempts a"
            " USING (attempt_id) WHERE a.user_id BETWEEN ? AND ?"
            " GROUP BY a.user_id, s.question_id",
            (min(user_ids), max(user_ids)),
        ).fetchall()
    found: dict[int, dict[str, int]] = {}
    for user_id, question_id, count in rows:
        found.setdefault(user_id, {})[question_id] = count
    return found


async def test_every_user_finishes_despite_injected_faults(fake, tmp_path, banks):
    """200 users play while the Bot API answers 429s, 502s, drops connections (before and
    after carrying calls out) and is slow: all finish (tapping again when a message never came:
    a send that may have reached Telegram is not repeated), every answer is stored exactly
    once, every callback query is answered, and the bot keeps running."""
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3").start()
    fake.chaos = Chaos(
        rate_limited=0.0015,
        server_error=0.02,
        drop_before=0.01,
        drop_after=0.01,
        slow=0.02,
        slow_seconds=0.3,
        retry_after=1,
        seed=7,
    )
    try:
        generator = LoadGenerator(fake, 200, step_timeout=60, retap_after=3.0)
        report = await generator.run()
    finally:
        injected = dict(fake.chaos.injected)
        fake.chaos = None
        alive = runner._task is not None and not runner._task.done()
        await runner.stop()
    assert alive
    assert all(
        injected.get(kind, 0) > 0
        for kind in ("rate_limited", "server_error", "drop_before", "drop_after", "slow")
    ), injected
    assert report.stalled == 0, [u for u in report.users if u.stalled][:3]
    assert report.finished == 200 and report.answers == 200 * QUESTIONS
    stored = answers_by_user(runner.db, generator.user_ids)
    assert all(len(stored.get(u, {})) == QUESTIONS for u in generator.user_ids)
    assert all(count == 1 for per_user in stored.values() for count in per_user.values())
    assert set(generator._query_pushed) <= set(fake.callback_answers)  # every query answered


async def test_kill_9_mid_load_loses_no_answer_the_user_saw(fake, tmp_path):
    """kill -9 while 100 users play, restart on the same database: every answer whose
    feedback reached the server is stored exactly once, and every user goes on to the end
    (tapping again, as people do, when a tap got no reply); every stored answer has its
    review card (those whose rating the kill lost are rated at the restart)."""
    db, log = tmp_path / "crash.sqlite3", tmp_path / "bot.log"
    proc = await start_bot_process(fake, db, log)
    generator = LoadGenerator(fake, 100, step_timeout=60, retap_after=3.0)
    load = asyncio.create_task(generator.run())
    try:
        await fake.wait_for(lambda: len(fake.calls_to("editMessageText")) >= 300, timeout=60)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        seen_at_crash = {u.user_id: list(u.feedback_seen) for u in generator.runs}
        with sqlite3.connect(db) as conn:  # answers whose review card the kill lost
            unrated_at_crash = len(conn.execute(UNRATED_ANSWERS).fetchall())
        # users tap again while the bot is down: their updates wait at Telegram
        await fake.wait_for(lambda: fake.pending_updates() > 0, timeout=30)
        proc = await start_bot_process(fake, db, log)
        report = await asyncio.wait_for(load, timeout=240)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
            await asyncio.wait_for(proc.wait(), timeout=30)
    assert sum(len(v) for v in seen_at_crash.values()) >= 100
    stored = answers_by_user(db, generator.user_ids)
    order = {}  # the question id of each position, per user, from the users' attempts
    with sqlite3.connect(db) as conn:
        for user_id, question_order in conn.execute("SELECT user_id, question_order FROM attempts"):
            order[user_id] = json.loads(question_order)
    for user_id, positions in seen_at_crash.items():
        for position in positions:
            assert stored[user_id][order[user_id][position]] == 1
    assert report.stalled == 0, [u for u in report.users if u.stalled][:3]
    assert report.finished == 100
    assert all(len(stored[u]) == QUESTIONS for u in generator.user_ids)
    assert all(c == 1 for per_user in stored.values() for c in per_user.values())
    # every answer has its review card: those the kill lost were rated at the restart
    with sqlite3.connect(db) as conn:
        assert conn.execute(UNRATED_ANSWERS).fetchall() == [], unrated_at_crash
        assert conn.execute("SELECT COUNT(*) FROM cards").fetchone() == (100 * QUESTIONS,)


async def test_locked_and_read_only_database_are_told_and_recovered(fake, tmp_path, banks):
    """While another process holds the database lock, or the database is read-only, a tap is
    answered "could not record" in the user's language and nothing is stored; once the fault
    clears, the same tap records the answer."""
    bank = banks[BANK_ID]
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3").start()
    try:
        t = i18n.catalog("el")
        person = Person(fake, 901, "Nikos", "el")
        await person.say("/start", replies=2)
        question = person.question_message()
        label = correct_label(question, bank, "el")
        data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)

        holder = sqlite3.connect(runner.db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process locks the file past the timeout
        before = len(person.bot_messages())
        await person.tap(question, data)
        sorry = await fake.wait_for(lambda: person.bot_messages()[before:], timeout=15)
        assert sorry[0]["text"] == t("storage_failed")
        holder.execute("ROLLBACK")
        holder.close()

        store = runner_store(runner)
        await store._writer_db.execute("PRAGMA query_only = ON")  # the disk turns read-only
        before = len(person.bot_messages())
        await person.tap(question, data)
        sorry = await fake.wait_for(lambda: person.bot_messages()[before:], timeout=15)
        assert sorry[0]["text"] == t("storage_failed")
        with sqlite3.connect(runner.db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM answers").fetchone() == (0,)
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        await store._writer_db.execute("PRAGMA query_only = OFF")  # the fault clears

        feedback = await person.answer(label)
        assert t("feedback_correct") in feedback["text"]
        with sqlite3.connect(runner.db) as conn:
            assert conn.execute("SELECT COUNT(*) FROM answers").fetchone() == (1,)
    finally:
        await runner.stop()


def runner_store(runner: RunningBot):
    """The running bot's storage object."""
    assert runner.app is not None
    return services_of(runner.app).store


async def test_two_hundred_members_tap_within_a_second(fake, tmp_path, banks):
    """A crowd: 200 group members tap the same question at once; every answer is recorded
    once, every tap acknowledged, and the group gets no more than 20 bot messages a minute."""
    group = -1005555
    members = list(range(20_000, 20_200))
    for number, user_id in enumerate(members):
        fake.add_user(user_id, f"M{number}", language_code=("en", "hi", "el")[number % 3])
    fake.add_group(group, "Crowd", admins=[members[0]], members=members[1:])
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=5.0)
    await runner.start()
    try:
        fake.send_message(members[0], "/quiz", chat_id=group)
        question = await fake.wait_for(
            lambda: next((m for m in fake.messages(group) if buttons(m)), None)
        )
        taps = [
            fake.tap(
                user_id,
                group,
                question["message_id"],
                buttons(question)[number % 4]["callback_data"],
            )
            for number, user_id in enumerate(members)
        ]
        taps += [
            fake.tap(user_id, group, question["message_id"], buttons(question)[0]["callback_data"])
            for user_id in members[:20]
        ]
        ids = [t["callback_query"]["id"] for t in taps]
        await fake.wait_for(lambda: all(i in fake.callback_answers for i in ids), timeout=30)
        with sqlite3.connect(runner.db) as conn:
            assert conn.execute(
                "SELECT COUNT(*), COUNT(DISTINCT user_id) FROM group_answers"
            ).fetchone() == (200, 200)
        recorded = [fake.callback_answers[i]["text"] for i in ids[:200]]
        assert all("✅" not in text for text in recorded)
        again = {fake.callback_answers[i]["text"] for i in ids[200:]}
        assert again <= {i18n.catalog(lang)("toast_answered") for lang in ("en", "hi", "el")}
        revealed = await fake.wait_for(
            lambda: (lambda m: m if not answer_buttons(m) else None)(
                fake.message(group, question["message_id"])
            ),
            timeout=15,
        )
        assert i18n.catalog("en")("group_answer_count", count=200) in revealed["text"]
        assert fake.bot_messages_in_window(group, 60.0) <= 20
    finally:
        await runner.stop()
