"""Per-user order under concurrency: the update processor, and the bot end to end."""

from __future__ import annotations

import asyncio
import sqlite3
import time

from telegram import CallbackQuery, Chat, Message, Update, User

from bot import i18n
from bot.telegram.ordering import PerUserOrderedProcessor
from tests.conftest import BANK_ID, Person, buttons, correct_label


def _update(update_id: int, user_id: int, chat_id: int) -> Update:
    user = User(user_id, "U", False)
    chat = Chat(chat_id, Chat.PRIVATE if chat_id == user_id else Chat.SUPERGROUP)
    message = Message(update_id, None, chat)  # type: ignore[arg-type]
    return Update(update_id, callback_query=CallbackQuery(str(update_id), user, "ci",
                                                          message=message, data="x"))


async def _run(processor: PerUserOrderedProcessor, updates: list[tuple[Update, float]],
               log: list[tuple[str, int, float]]) -> None:
    """Feed updates the way PTB does (a task per update, in order) and log start/end times."""
    async def handle(update: Update, seconds: float) -> None:
        log.append(("start", update.update_id, time.monotonic()))
        await asyncio.sleep(seconds)
        log.append(("end", update.update_id, time.monotonic()))

    await asyncio.gather(*(asyncio.create_task(processor.process_update(u, handle(u, s)))
                           for u, s in updates))


async def test_one_users_updates_run_one_after_the_other_in_order():
    """Five updates of one user in one chat never overlap and keep their order."""
    processor = PerUserOrderedProcessor()
    log: list[tuple[str, int, float]] = []
    await _run(processor, [(_update(i, 7, 7), 0.02 * (5 - i)) for i in range(5)], log)
    assert [(kind, uid) for kind, uid, _ in log] == [
        (kind, i) for i in range(5) for kind in ("start", "end")]
    assert processor.keys_in_flight == 0


async def test_different_users_and_group_members_overlap():
    """Updates of different users, and of different members of one group, run concurrently."""
    processor = PerUserOrderedProcessor()
    log: list[tuple[str, int, float]] = []
    updates = [(_update(1, 1, 1), 0.3), (_update(2, 2, 2), 0.3),
               (_update(3, 10, -100), 0.3), (_update(4, 11, -100), 0.3)]
    started = time.monotonic()
    await _run(processor, updates, log)
    assert time.monotonic() - started < 0.9  # not 4 x 0.3 s in a row
    starts = [uid for kind, uid, _ in log if kind == "start"]
    assert starts[:4] == [1, 2, 3, 4]  # all four started before any ended
    assert processor.keys_in_flight == 0


async def test_a_slow_update_of_one_user_does_not_hold_up_another():
    """A user whose update is slow (slow database, slow Bot API) delays nobody else."""
    processor = PerUserOrderedProcessor()
    log: list[tuple[str, int, float]] = []
    await _run(processor, [(_update(1, 1, 1), 1.0), (_update(2, 1, 1), 0.0),
                           (_update(3, 2, 2), 0.0)], log)
    end = {uid: t for kind, uid, t in log if kind == "end"}
    assert end[3] < end[1] - 0.5  # user 2 done long before user 1's slow update
    assert end[1] <= end[2]  # user 1's second update waited for the first


async def test_slow_bot_api_calls_of_one_user_do_not_hold_up_another(fake, running_bot):
    """End to end: every call about A's chat takes 1.5 s; B's quiz starts meanwhile."""
    a, b = Person(fake, 801, "Slow"), Person(fake, 802, "Fast")
    fake.delay_chat(a.user_id, 1.5)
    fake.send_message(a.user_id, "/start")
    await asyncio.sleep(0.1)
    started = time.monotonic()
    await b.say("/start", replies=2)
    assert time.monotonic() - started < 1.0
    await fake.wait_for(lambda: len(a.bot_messages()) == 2, timeout=10)


async def test_double_tap_and_quick_next_are_handled_in_order(fake, running_bot, banks):
    """An answer, the same answer again and "next", delivered back to back in one batch of
    updates: one answer recorded, the second tap refused, then the next question."""
    bank = banks[BANK_ID]
    person = Person(fake, 803, "Quick")
    await person.say("/start", replies=2)
    question = person.question_message()
    label = correct_label(question, bank, "en")
    data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
    attempt_id, position = data.split(":")[1:3]
    fake.delay(0.3, {"getUpdates"})  # let the three taps queue up into one getUpdates batch
    await asyncio.sleep(0.35)
    taps = [fake.tap(person.user_id, person.user_id, question["message_id"], data),
            fake.tap(person.user_id, person.user_id, question["message_id"], data),
            fake.tap(person.user_id, person.user_id, question["message_id"],
                     f"n:{attempt_id}:{position}", check_button=False)]
    ids = [t["callback_query"]["id"] for t in taps]
    await fake.wait_for(lambda: all(i in fake.callback_answers for i in ids), timeout=10)
    fake.delay(0)
    t = i18n.catalog("en")
    assert fake.callback_answers[ids[0]].get("text") is None
    assert fake.callback_answers[ids[1]]["text"] == t("toast_answered")
    assert fake.callback_answers[ids[2]].get("text") is None  # "next" after the answer: fine
    await fake.wait_for(lambda: t("question_header", number=2, total=8)
                        in person.bot_messages()[-1]["text"])
    with sqlite3.connect(running_bot.db) as db:
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone() == (1,)
        assert db.execute("SELECT position FROM attempts").fetchone() == (1,)
