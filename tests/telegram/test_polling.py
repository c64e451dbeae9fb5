"""Polling's confirmations and marks (bot/telegram/polling.py): the offset confirms only
handled updates, answers lose the updates in hand, marks go in one write per batch, and after
a start the updates up to the highest mark are looked up (end to end:
tests/e2e/test_e2e_polling.py)."""

from __future__ import annotations

import asyncio

from telegram import Update

from bot.render import callbacks as render_callbacks
from bot.telegram.polling import PolledUpdates, held

BOT = 1000


def updates(*ids: int) -> list[dict]:
    return [{"update_id": i, "message": {"text": str(i)}} for i in ids]


async def test_the_offset_stays_at_the_lowest_update_in_hand_and_at_most_hold_back_below():
    """PTB's offset is sent while nothing is in hand; else the lowest update in hand, but never
    more than ``hold_back`` below PTB's; each update handled lets it move on."""
    polled = PolledUpdates(hold_back=10)
    assert polled.offset(0) == 0
    for update_id in (5, 6, 7):
        polled.queued(update_id)
    assert polled.offset(8) == 5
    polled.done(6)
    assert polled.offset(8) == 5
    polled.done(5)
    assert polled.offset(8) == 7
    assert polled.offset(30) == 20  # 7 is too far behind: confirmed unhandled
    polled.done(7)
    assert polled.offset(30) == 30 and polled.in_hand == 0


def update(bot, **fields) -> Update:
    return Update.de_json({"update_id": 1, **fields}, bot)


def test_taps_of_answering_and_inline_queries_are_not_held_other_updates_are():
    """A tap on a button of answering (handled twice it changes nothing) and an inline query
    are not held back nor marked; a message and any other button (one that acts: setting
    homework, publishing a quiz) are."""
    user = {"id": 7, "is_bot": False, "first_name": "A"}
    message = {
        "message_id": 1,
        "date": 0,
        "chat": {"id": 7, "type": "private"},
        "from": user,
        "text": "/start",
    }

    def tap(data: str) -> Update:
        return update(
            None,
            callback_query={
                "id": "1",
                "from": user,
                "chat_instance": "c",
                "data": data,
                "message": message,
            },
        )

    answering = [
        render_callbacks.encode(render_callbacks.AnswerButton(3, 1, 0)),
        render_callbacks.encode(render_callbacks.NextButton(3, 1)),
        render_callbacks.encode(render_callbacks.GroupAnswerButton(4, 0, 1)),
    ]
    assert not any(held(tap(data)) for data in answering)
    assert not held(update(None, inline_query={"id": "1", "from": user, "query": "", "offset": ""}))
    assert held(update(None, message=message))
    assert held(tap("h:1"))  # a homework button (and garbage) is held
    assert held(tap(""))
    polled = PolledUpdates()
    polled.queued(5, hold=False)
    polled.queued(6)
    assert polled.offset(7) == 6  # 5 is not waited for
    polled.done(5)
    assert polled._to_mark == []  # nor marked
    polled.done(6)
    assert polled.offset(7) == 7


async def test_answers_lose_the_updates_fetched_before_and_one_with_nothing_new_waits():
    """An answer from the held-back offset keeps only the updates at or above PTB's offset;
    when nothing is left the next getUpdates waits until the lowest update in hand is handled
    (another one handled does not end the wait)."""
    polled = PolledUpdates(stale_seconds=60)
    polled.offset(0)
    assert polled.fresh(updates(1, 2)) == updates(1, 2)
    polled.queued(1)
    polled.queued(2)
    assert polled.offset(3) == 1
    assert polled.fresh(updates(1, 2, 3)) == updates(3)
    await asyncio.wait_for(polled.pace(), 1)  # something new: at once
    polled.queued(3)
    assert polled.offset(4) == 1
    assert polled.fresh(updates(1, 2, 3)) == []
    pace = asyncio.create_task(polled.pace())
    await asyncio.sleep(0)
    polled.done(2)
    await asyncio.sleep(0)
    assert not pace.done()
    polled.done(1)
    await asyncio.wait_for(pace, 1)


async def test_marks_are_one_write_per_batch_and_looked_up_after_a_start(engine):
    """On either engine, a hundred updates handled at once are marked by one statement in one
    commit; after a new start, an update at or below the highest mark is dropped when marked,
    a later one is not looked up, and a mark older than the marks are kept counts for
    nothing."""
    store = await engine.open()
    try:
        polled = PolledUpdates()
        await polled.start(store.handled_marks(), BOT)
        for update_id in range(1, 101):
            polled.queued(update_id)
        commits = store.commits
        for update_id in range(1, 101):
            if update_id != 50:
                polled.done(update_id)
        await polled.flush()
        assert store.commits == commits + 1
        # a mark older than the marks are kept (not pruned yet): after a week without updates
        # Telegram picks the next update_id at random, and it may be this one
        await engine.execute(
            "INSERT INTO handled_updates (bot_id, update_id, handled_at) VALUES (?, ?, ?)",
            BOT,
            5000,
            0.0,
        )
        again = PolledUpdates()
        await again.start(store.handled_marks(), BOT)
        assert await again.handled_before(1) and await again.handled_before(100)
        assert not await again.handled_before(50)  # still in hand at the "crash"
        assert not await again.handled_before(101)
        assert not await again.handled_before(5000)
        assert again.repeated == 2
    finally:
        await store.close()
