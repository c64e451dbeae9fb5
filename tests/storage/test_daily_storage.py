"""Storage of the question of the day (:class:`bot.features.daily.ports.DailyStore`) against a real
database, on each engine (a SQLite file, and PostgreSQL: the ``engine`` fixture): schedules,
claims as compare-and-sets, answers once per user, reveals, the week's answers, the chats the
bot may post in, a supergroup upgrade and a deletion."""

from __future__ import annotations

import asyncio

import pytest

from bot.features.daily.ports import NewPost
from bot.features.daily.rules import BotChat, DailyAnswer, DailySchedule, PostStatus, RunOut, Status

CHAT, OTHER = -1001234567890, -1009876543210


def schedule(chat_id: int = CHAT, next_at: float = 1000.0, **changes) -> DailySchedule:
    fields = dict(
        chat_id=chat_id,
        chat_type="supergroup",
        thread_id=None,
        bank_id="deepspeed-megatron",
        language="en",
        minute=540,
        run_out=RunOut.AGAIN,
        board_day=6,
        status=Status.ON,
        round=0,
        position=0,
        next_at=next_at,
        set_by=7,
        updated_at=10.0,
    )
    fields.update(changes)
    return DailySchedule(**fields)


def new_post(closes_at: float = 87_400.0, position: int = 0) -> NewPost:
    return NewPost("deepspeed-megatron", 3, f"q{position}", (2, 0, 1), 0, position, "en", closes_at)


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


async def test_a_schedule_is_stored_replaced_and_found_due(store):
    """save_schedule stores and replaces a chat's schedule; due_schedules finds those on and
    due, earliest first."""
    await store.save_schedule(schedule())
    assert await store.schedule(CHAT) == schedule()
    await store.save_schedule(schedule(minute=600, run_out=RunOut.STOP, board_day=None))
    assert (await store.schedule(CHAT)).minute == 600
    await store.save_schedule(schedule(OTHER, next_at=500.0))
    await store.save_schedule(schedule(-1003, next_at=1.0, status=Status.OFF))
    assert [s.chat_id for s in await store.due_schedules(1000.0, 10)] == [OTHER, CHAT]
    assert await store.due_schedules(499.0, 10) == []


async def test_a_post_is_claimed_once(store):
    """Of two claims of the same due post one stores it (the schedule moved on), the other
    gets None; the post is open once its message is set."""
    await store.save_schedule(schedule())
    first, second = await asyncio.gather(
        store.claim_post(
            CHAT, 1000.0, next_at=87_400.0, round=0, position=1, post=new_post(), now=1000.0
        ),
        store.claim_post(
            CHAT, 1000.0, next_at=87_400.0, round=0, position=1, post=new_post(), now=1000.0
        ),
    )
    claimed = [c for c in (first, second) if c is not None]
    assert len(claimed) == 1
    post = claimed[0].post
    assert post.status is PostStatus.SENDING and post.slots == (2, 0, 1)
    assert claimed[0].schedule.position == 1 and claimed[0].schedule.next_at == 87_400.0
    await store.set_post_message(post.post_id, 55)
    stored = await store.post(post.post_id)
    assert (stored.message_id, stored.status) == (55, PostStatus.OPEN)


async def test_a_claim_surely_never_sent_is_undone_once(store):
    """unclaim_post of a post still sending without a message deletes it and puts the schedule
    back as it was (due again); a second undo, or one after the post was sent, changes
    nothing."""
    before = schedule(position=3)
    await store.save_schedule(before)
    post = (
        await store.claim_post(
            CHAT,
            1000.0,
            next_at=87_400.0,
            round=0,
            position=4,
            post=new_post(position=3),
            now=1000.0,
        )
    ).post
    assert await store.unclaim_post(post.post_id, before, claimed_next_at=87_400.0)
    assert await store.post(post.post_id) is None
    again = await store.schedule(CHAT)
    assert (again.next_at, again.position, again.status) == (1000.0, 3, Status.ON)
    assert not await store.unclaim_post(post.post_id, before, claimed_next_at=87_400.0)
    sent = (
        await store.claim_post(
            CHAT,
            1000.0,
            next_at=87_400.0,
            round=0,
            position=4,
            post=new_post(position=3),
            now=1001.0,
        )
    ).post
    await store.set_post_message(sent.post_id, 56)
    assert not await store.unclaim_post(sent.post_id, before, claimed_next_at=87_400.0)
    assert (await store.post(sent.post_id)).status is PostStatus.OPEN
    assert (await store.schedule(CHAT)).next_at == 87_400.0


async def test_a_claim_without_a_post_stops_the_schedule(store):
    """Claiming with no post (the quiz ran out, run-out "stop") marks the schedule done."""
    await store.save_schedule(schedule())
    claimed = await store.claim_post(
        CHAT, 1000.0, next_at=87_400.0, round=0, position=5, post=None, now=1000.0
    )
    assert claimed.post is None and claimed.schedule.status is Status.DONE
    assert await store.due_schedules(10**9, 10) == []


async def test_answers_once_per_user_and_reveals_once(store):
    """A user's second answer to a post is refused; the open post is due for its reveal at
    its closing time and is marked revealed once."""
    await store.save_schedule(schedule())
    post = (
        await store.claim_post(
            CHAT, 1000.0, next_at=87_400.0, round=0, position=1, post=new_post(), now=1000.0
        )
    ).post
    await store.set_post_message(post.post_id, 55)
    assert await store.record_daily_answer(DailyAnswer(post.post_id, 1, "Ann", 2, True, 1001))
    assert not await store.record_daily_answer(DailyAnswer(post.post_id, 1, "Ann", 0, False, 1002))
    assert await store.record_daily_answer(DailyAnswer(post.post_id, 2, "Bo", 0, False, 1003))
    assert [
        (a.user_id, a.option_index, a.correct) for a in await store.daily_answers(post.post_id)
    ] == [(1, 2, True), (2, 0, False)]
    assert await store.posts_to_reveal(87_399.0, 10) == []
    [due] = await store.posts_to_reveal(87_400.0, 10)
    assert due.post_id == post.post_id
    assert await store.mark_post_revealed(post.post_id)
    assert not await store.mark_post_revealed(post.post_id)
    week = await store.week_answers(CHAT, 0.0, 87_400.0)
    assert {a.user_id for a in week} == {1, 2}
    assert await store.week_answers(CHAT, 0.0, 87_399.0) == []


async def test_bot_chats_and_a_lost_schedule(store):
    """The chats a user added the bot to where it may post are listed; set_lost stops a
    schedule that was on."""
    await store.save_bot_chat(BotChat(CHAT, "channel", "Facts", "administrator", True, 7, 1.0))
    await store.save_bot_chat(BotChat(OTHER, "channel", "Other", "member", False, 7, 2.0))
    assert [c.chat_id for c in await store.bot_chats(7, ("channel",))] == [CHAT]
    assert await store.bot_chats(8, ("channel",)) == []
    assert (await store.bot_chat(OTHER)).can_post is False
    await store.save_schedule(schedule())
    assert await store.set_lost(CHAT, 5.0)
    assert not await store.set_lost(CHAT, 6.0)
    assert (await store.schedule(CHAT)).status is Status.LOST


async def test_a_supergroup_upgrade_moves_the_schedule_and_posts(store):
    """move_daily moves the schedule, its posts and the chat record to the new id."""
    old = -4000
    await store.save_schedule(schedule(old, chat_type="group"))
    await store.save_bot_chat(BotChat(old, "group", "Class", "member", True, 7, 1.0))
    await store.claim_post(
        old, 1000.0, next_at=87_400.0, round=0, position=1, post=new_post(), now=1000.0
    )
    assert await store.move_daily(old, CHAT) == 1
    assert await store.schedule(old) is None
    moved = await store.schedule(CHAT)
    assert moved.chat_type == "supergroup" and moved.position == 1
    assert (await store.bot_chat(CHAT)).title == "Class"


async def test_deleting_a_user_removes_their_daily_answers(store):
    """delete_user removes the user's answers to days' questions and their id from what they
    set up, counting them (as ``other``: a user with nothing else is not "nothing stored")."""
    await store.save_schedule(schedule())
    await store.save_bot_chat(BotChat(CHAT, "channel", "Facts", "administrator", True, 7, 1.0))
    post = (
        await store.claim_post(
            CHAT, 1000.0, next_at=87_400.0, round=0, position=1, post=new_post(), now=1000.0
        )
    ).post
    await store.record_daily_answer(DailyAnswer(post.post_id, 7, "Ann", 2, True, 1001))
    await store.record_daily_answer(DailyAnswer(post.post_id, 8, "Bo", 2, True, 1001))
    deleted = await store.delete_user(7)
    assert (deleted.other, deleted.nothing) == (3, False)  # what they set up counts too
    assert (await store.delete_user(7)).nothing
    assert [a.user_id for a in await store.daily_answers(post.post_id)] == [8]
    assert (await store.schedule(CHAT)).set_by == 0
    assert (await store.bot_chat(CHAT)).added_by is None


async def test_a_backup_keeps_the_question_of_the_day(tmp_path):
    """A SQLite backup of an open database holds the schedules, posts, answers and the chats
    the bot may post in, and the restored copy reads them back."""
    from storage import SQLiteStore
    from storage.backup import backup

    path, copy = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    store = await SQLiteStore.open(path)
    try:
        await store.save_schedule(schedule())
        await store.save_bot_chat(BotChat(CHAT, "channel", "Facts", "administrator", True, 7, 1.0))
        post = (
            await store.claim_post(
                CHAT, 1000.0, next_at=87_400.0, round=0, position=1, post=new_post(), now=1000.0
            )
        ).post
        await store.record_daily_answer(DailyAnswer(post.post_id, 7, "Ann", 2, True, 1001))
        backup(path, copy)
    finally:
        await store.close()
    restored = await SQLiteStore.open(copy)
    try:
        assert (await restored.schedule(CHAT)).position == 1
        assert (await restored.post(post.post_id)).slots == (2, 0, 1)
        assert [a.user_id for a in await restored.daily_answers(post.post_id)] == [7]
        assert (await restored.bot_chat(CHAT)).title == "Facts"
    finally:
        await restored.close()


async def test_an_older_database_is_upgraded_to_the_question_of_the_day(engine):
    """A database at schema 13 (before the question of the day) opens at the newest version
    with empty daily tables."""
    old = await engine.open(upto=13)
    await old.close()
    store = await engine.open()
    try:
        assert await store.schema_version() >= 14
        assert await store.schedule(CHAT) is None
        await store.save_schedule(schedule())
        assert (await store.schedule(CHAT)).chat_id == CHAT
    finally:
        await store.close()
