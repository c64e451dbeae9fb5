"""End to end: polling handles each update once across a crash (``kill -9``, a restart on the
same SQLite file): an update handled just before the crash is not handled again, and one
still being handled at the crash is not lost (bot/telegram/polling.py)."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
from pathlib import Path

from bot import i18n
from tests.support.person import Person
from tests.support.processes import HeldCalls, start_bot_process

T = i18n.catalog("en")


def marked(db: Path, update_id: int) -> bool:
    """Whether the bot's file marks update ``update_id`` handled (committed)."""
    with sqlite3.connect(db) as conn:
        return (
            conn.execute(
                "SELECT 1 FROM handled_updates WHERE update_id = ?", (update_id,)
            ).fetchone()
            is not None
        )


async def collecting(person: Person) -> None:
    """/newquiz, a title, /skip: the bot waits for the draft's questions."""
    await person.say("/newquiz")
    await person.say("Capitals")
    [ask] = await person.say("/skip")
    assert ask["text"] == T("newquiz.ask_questions", example=T("newquiz.example"))


async def test_a_question_added_just_before_a_kill_is_not_added_again(fake, tmp_path):
    """A /newquiz question is added and the bot killed (-9) before the getUpdates that
    confirms it reached Telegram (it was held on the way): Telegram sends the update again to
    the bot restarted on the same file, which drops it (marked handled): the next question is
    number 2, and the first was answered once."""
    db, log = tmp_path / "once.sqlite3", tmp_path / "bot.log"
    ada = Person(fake, 801, "Ada")
    held = HeldCalls(fake)
    proc = await start_bot_process(fake, db, log)
    try:
        await collecting(ada)
        # all confirmed, and a getUpdates waits at Telegram (it will carry the question)
        await fake.wait_for(lambda: fake.polling and fake.pending_updates() == 0)
        held.polls()  # the getUpdates waiting now is answered; the next ones never arrive
        before = len(ada.bot_messages())
        update = fake.send_message(ada.user_id, "First?\n*A\nB")
        await fake.wait_for(lambda: len(ada.bot_messages()) > before)
        await fake.wait_for(lambda: marked(db, update["update_id"]), recheck=0.05)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        assert fake.pending_updates() == 1  # the question's update was never confirmed
        held.release()
        proc = await start_bot_process(fake, db, log)
        [added] = await ada.say("Second?\n*A\nB")
        assert added["text"].startswith(T("newquiz.added", number=2, prompt="Second?"))
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), timeout=30)
    firsts = [m for m in ada.bot_messages() if "First?" in m.get("text", "")]
    assert len(firsts) == 1
    assert "handled before this start: dropped" in log.read_text()


async def test_an_update_in_hand_at_a_kill_is_handled_after_the_restart(fake, tmp_path):
    """A's /start is being handled (its calls held on their way) when B's /start comes, in a
    later getUpdates (the one PTB sends right after A's batch, which used to confirm A before
    it was handled); then the bot is killed (-9). Restarted on the same file, the bot gets A's
    /start again and answers it: nothing is lost."""
    db, log = tmp_path / "once.sqlite3", tmp_path / "bot.log"
    a, b = Person(fake, 801, "Slow"), Person(fake, 802, "Fast")
    held = HeldCalls(fake)
    proc = await start_bot_process(fake, db, log)
    try:
        held.chat(a.user_id)
        first = fake.send_message(a.user_id, "/start")
        await fake.wait_for(lambda: fake.fetched(first["update_id"]))
        await b.say("/start", replies=2)  # fetched by a later getUpdates
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        assert a.bot_messages() == []
        held.release(a.user_id)
        proc = await start_bot_process(fake, db, log)
        await fake.wait_for(lambda: len(a.bot_messages()) == 2, timeout=30)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            await asyncio.wait_for(proc.wait(), timeout=30)
