"""Storage outages are transient faults: every update is answered meanwhile (the polite
"couldn't record that, tap again"), and the bot carries on once the storage is back."""

from __future__ import annotations

import sqlite3

from bot import i18n
from tests.conftest import Person, RunningBot


async def test_a_new_users_start_during_a_storage_fault_is_answered(fake, tmp_path):
    """A new user's /start while the database cannot take a write (another process holds its
    lock): the polite fault message in their app's language, not silence; once the fault
    clears, /start starts the quiz."""
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3").start()
    try:
        t = i18n.catalog("hi")
        person = Person(fake, 902, "Asha", "hi")
        holder = sqlite3.connect(runner.db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process locks the file past the timeout
        try:
            fake.send_message(902, "/start")  # the write waits out SQLite's busy timeout
            sorry = (await fake.wait_for(lambda: person.bot_messages(), timeout=15))[0]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert sorry["text"] == t("storage_failed")
        _greeting, question = await person.say("/start", replies=2)
        assert person.question_message() == question
    finally:
        await runner.stop()
