"""``/deletemydata`` deletes everywhere the bot keeps a user's data: the database, the WAL, the
in-memory caches (attempts, language choice) and queues (review cards); old buttons are
inert; every deletion needs a fresh confirmation of its own (forged, replayed or superseded
confirm buttons do nothing; a stored one survives a restart). End to end through the fake
Bot API; ``quizbot delete-user`` checkpoints too."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot import i18n
from bot.features.learning.service import LearningService
from bot.features.privacy.service import PrivacyService
from storage import SQLiteStore
from tests.cli.test_ops import quizbot
from tests.e2e.test_e2e_group import GROUP
from tests.support.banks import BANK_ID
from tests.support.botrun import MODES, RunningBot
from tests.support.person import Person
from tests.support.screens import buttons

NAME = "Zephyrine"  # a name found nowhere else in the database or its WAL


def wal(db: Path) -> bytes:
    """The bytes of the database's write-ahead log (empty if none). Never the database file:
    closing a descriptor of it would drop this process's SQLite locks on it (POSIX)."""
    path = db.with_name(db.name + "-wal")
    return path.read_bytes() if path.exists() else b""


def count(db: Path, sql: str, *args: object) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(sql, args).fetchone()[0])


def button(message: dict, prefix: str) -> str:
    return next(
        b["callback_data"] for b in buttons(message) if b["callback_data"].startswith(prefix)
    )


@pytest.mark.parametrize("mode", MODES)
async def test_deletemydata_forgets_everywhere_and_needs_a_fresh_confirmation(fake, tmp_path, mode):
    """After the deletion: the WAL holds neither the name nor a frame of the deleted rows; the
    old "Next" of the deleted attempt gets a toast and sends nothing; /stats, /review and
    /start answer in Telegram's language, not the deleted choice; the confirm button tapped
    again, a forged one and one superseded by a newer question delete nothing (the user's new
    attempt stays); the newer one, asked before a restart, confirms after it."""
    runner = await RunningBot(
        fake, tmp_path / "quiz.sqlite3", question_seconds=600.0, mode=mode
    ).start()
    try:
        ada, bob = Person(fake, 601, NAME, "en"), Person(fake, 602, "Bob", "en")
        fake.add_group(GROUP, "Study group", admins=[601], members=[602])
        en, el = i18n.catalog("en"), i18n.catalog("el")
        # a group session started by Ada, answered by her: her name is stored
        fake.send_message(ada.user_id, "/quiz", chat_id=GROUP)
        first = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in reversed(fake.messages(GROUP))
                    if any(b.get("callback_data", "").startswith("g:") for b in buttons(m))
                ),
                None,
            )
        )
        update = fake.tap(
            ada.user_id, GROUP, first["message_id"], button(first, "g:"), check_button=False
        )
        await fake.wait_for(lambda: update["callback_query"]["id"] in fake.callback_answers)
        assert count(runner.db, "SELECT COUNT(*) FROM group_players WHERE name = ?", NAME) == 1
        # a private quiz in Greek, chosen with /language, two questions answered
        [menu] = await ada.say("/language")
        await ada.tap(menu, "l:el")
        await ada.say("/start", replies=2)
        await ada.next(await ada.answer("A"))
        feedback = await ada.answer("A")  # its "Next" would send question 3
        await bob.say("/start", replies=2)
        [question] = await ada.say("/deletemydata")
        assert question["text"].startswith(el("deletemydata_confirm").splitlines()[0])
        delete = button(question, "d:1:")
        await ada.tap(question, delete)
        await fake.wait_for(
            lambda: fake.message(601, question["message_id"])["text"] == el("deletemydata_done")
        )
        assert NAME.encode() not in wal(runner.db)
        assert count(runner.db, "SELECT COUNT(*) FROM attempts WHERE user_id = 601") == 0
        assert count(runner.db, "SELECT COUNT(*) FROM group_players WHERE name = ?", NAME) == 0

        # the old "Next": a toast, nothing sent (the next message is /stats' reply)
        before = len(ada.bot_messages())
        query_id = await ada.tap(feedback, button(feedback, "n:"))
        assert fake.callback_answers[query_id].get("text") == en("toast_invalid")
        [stats] = await ada.say("/stats")
        assert len(ada.bot_messages()) == before + 1
        cleo = Person(fake, 603, "Cleo", "en")  # a new user with an English Telegram
        [cleo_stats] = await cleo.say("/stats")
        assert stats["text"] == cleo_stats["text"]
        [review] = await ada.say("/review")
        [cleo_review] = await cleo.say("/review")
        assert review["text"] == cleo_review["text"]
        _greeting, started = await ada.say("/start", replies=2)
        assert "DeepSpeed and Megatron Training Stacks" in started["text"]  # English
        assert count(runner.db, "SELECT COUNT(*) FROM attempts WHERE user_id = 601") == 1

        # the same confirm button again, and a forged one: a toast, nothing deleted
        for data in (delete, "d:1:0123456789abcdef"):
            query_id = await ada.tap(question, data, check_button=False)
            assert fake.callback_answers[query_id].get("text") == en("deletemydata_expired")
        assert count(runner.db, "SELECT COUNT(*) FROM attempts WHERE user_id = 601") == 1

        # a question asked before a restart still confirms after it (its nonce is stored, as
        # for a tap reaching another instance), but not once a newer question replaced it
        [older] = await ada.say("/deletemydata")
        [again] = await ada.say("/deletemydata")
        await runner.restart()
        query_id = await ada.tap(older, button(older, "d:1:"))
        assert fake.callback_answers[query_id].get("text") == en("deletemydata_expired")
        assert count(runner.db, "SELECT COUNT(*) FROM attempts WHERE user_id = 601") == 1
        await ada.tap(again, button(again, "d:1:"))
        await fake.wait_for(
            lambda: fake.message(601, again["message_id"])["text"] == en("deletemydata_done")
        )
        assert count(runner.db, "SELECT COUNT(*) FROM attempts WHERE user_id = 601") == 0
        assert count(runner.db, "SELECT COUNT(*) FROM attempts WHERE user_id = 602") == 1
    finally:
        await runner.stop()


async def test_a_deletion_drops_the_queued_review_cards(engine, banks):
    """Ratings of the deleted user still queued are never written after the deletion (they
    would bring cards back); another user's are."""
    store = await engine.open()
    try:
        learner = LearningService(store, banks, clock=lambda: 1_780_000_000.0)
        privacy = PrivacyService(store, forget=(learner.forget,))
        question = banks[BANK_ID].questions[0].id
        for user_id in (31, 32):  # queued, not written yet: no await in between
            await learner.answered_soon(user_id, BANK_ID, question, True, 1_780_000_000.0)
        await privacy.delete_user(31)
        await learner.drain()
        assert await store.cards(31) == []
        assert len(await store.cards(32)) == 1
    finally:
        await store.close()


async def test_quizbot_delete_user_checkpoints_the_wal(tmp_path, banks):
    """`quizbot delete-user` while another connection keeps the database open (as the bot
    would): the WAL no longer holds the deleted user's name."""
    db = tmp_path / "db.sqlite3"
    store = await SQLiteStore.open(db)
    await store.close()
    holder = sqlite3.connect(db, isolation_level=None)  # keeps the WAL from a last close
    try:
        holder.execute("PRAGMA journal_mode = WAL")
        holder.execute(
            "INSERT INTO group_sessions (session_id, chat_id, bank_id, bank_version, language,"
            " starter_id, question_order, option_orders, question_seconds, started_at)"
            " VALUES (1, -5, ?, 1, 'en', 42, '[]', '[]', 30, 0)",
            (BANK_ID,),
        )
        holder.execute("INSERT INTO group_players VALUES (1, 42, ?)", (NAME,))
        assert NAME.encode() in wal(db)
        done = await asyncio.to_thread(quizbot, "delete-user", "42", db=db)
        assert done.returncode == 0, done.stderr
        assert NAME.encode() not in wal(db)
        assert holder.execute("SELECT name FROM group_players").fetchall() == [("",)]
    finally:
        holder.close()
