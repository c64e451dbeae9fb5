"""End to end: group sessions through Telegram's lifecycle (supergroup upgrades, forum topics,
the bot removed, channel senders) and the session workflow's own failure handling, through the
fake Bot API server."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

from bot import i18n
from bot.features.groups import sessions
from bot.services import services_of
from tests.support.botrun import RunningBot
from tests.support.fakebotapi import FakeBotAPI
from tests.support.screens import answer_buttons, buttons, correct_label

WINDOW = 1.5
BASIC = -123
SUPER = -100999
FORUM = -100777
CHANNEL = -100555
ELENI, ARJUN, SAM = 701, 702, 703


@pytest.fixture
def people(fake):
    """Eleni (el, admin), Arjun (hi) and Sam (en)."""
    fake.add_user(ELENI, "Eleni", language_code="el")
    fake.add_user(ARJUN, "Arjun", language_code="hi")
    fake.add_user(SAM, "Sam", language_code="en")


@pytest.fixture
async def bot(fake, tmp_path, people):
    """The bot with a short answer window."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=WINDOW)
    await runner.start()
    yield runner
    await runner.stop()


def bot_messages(fake: FakeBotAPI, chat_id: int) -> list[dict]:
    """The bot's messages in a chat (edits applied)."""
    return [m for m in fake.messages(chat_id) if m.get("from", {}).get("id") == fake.bot_id]


def questions(fake: FakeBotAPI, chat_id: int) -> list[dict]:
    """The bot's group question messages in a chat that still have answer buttons."""
    return [
        m
        for m in bot_messages(fake, chat_id)
        if any(b.get("callback_data", "").startswith("g:") for b in buttons(m))
    ]


async def new_question(fake: FakeBotAPI, chat_id: int, after: int | None = None) -> dict:
    """Wait for an open question in ``chat_id`` with a message id other than ``after``."""
    return await fake.wait_for(
        lambda: next(
            (m for m in reversed(questions(fake, chat_id)) if m["message_id"] != after), None
        ),
        timeout=15,
    )


async def tap(fake: FakeBotAPI, user_id: int, message: dict, label: str) -> dict:
    """Tap option ``label`` of a group question; the callback query's answer."""
    data = next(b["callback_data"] for b in buttons(message) if b["text"] == label)
    update = fake.tap(
        user_id, message["chat"]["id"], message["message_id"], data, check_button=False
    )
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    return fake.callback_answers[query_id]


def rows(runner: RunningBot, sql: str) -> list[tuple]:
    """Rows of a query on the bot's database."""
    with sqlite3.connect(runner.db) as db:
        return db.execute(sql).fetchall()


def pass_deadlines(runner: RunningBot) -> None:
    """Move every open question's deadline an hour into the past (time passing, without
    waiting for it)."""
    with sqlite3.connect(runner.db) as db:
        db.execute("UPDATE group_sessions SET deadline = deadline - 3600")


async def idle(fake: FakeBotAPI, runner: RunningBot) -> None:
    """Wait until the bot has fetched and fully processed every update sent so far."""
    await fake.wait_for(lambda: fake.pending_updates() == 0)
    assert runner.app is not None
    await asyncio.wait_for(runner.app.update_queue.join(), timeout=10)


def runner_of(bot: RunningBot) -> sessions.SessionRunner:
    """The bot's session runner."""
    assert bot.app is not None
    return services_of(bot.app).sessions


# --- a basic group becomes a supergroup --------------------------------------------------


async def test_a_group_upgraded_mid_session_goes_on_in_the_supergroup(fake, bot, banks):
    """Upgraded after question 1 is posted: the session, the group's language and its history
    move to the new id; the quiz goes on there; a later /quiz there works; nothing stays keyed
    to the old id."""
    fake.add_group(BASIC, "Study", type="group", admins=[ELENI], members=[ARJUN, SAM])
    fake.send_message(ELENI, "/quiz", chat_id=BASIC)
    first = await new_question(fake, BASIC)
    assert (await tap(fake, ARJUN, first, "A"))["text"] == i18n.catalog("hi")(
        "group_recorded", label="A"
    )
    fake.migrate_group(BASIC, SUPER)
    second = await new_question(fake, SUPER)  # the next question comes in the supergroup
    t = i18n.catalog("el")  # the group's language (Eleni started it) moved along
    assert t("question_header", number=2, total=8) in second["text"]
    await tap(fake, ARJUN, second, "B")
    assert fake.calls_to("sendMessage")[-1].params["chat_id"] == SUPER
    fake.send_message(ELENI, "/stop", chat_id=SUPER)
    board = await fake.wait_for(
        lambda: next(
            (m for m in bot_messages(fake, SUPER) if t("group_leaderboard") in m["text"]), None
        )
    )
    assert "Arjun — " in board["text"]
    fake.send_message(SAM, "/quiz", chat_id=SUPER)
    third = await new_question(fake, SUPER, after=second["message_id"])
    assert t("question_header", number=1, total=8) in third["text"]
    assert rows(bot, "SELECT COUNT(*) FROM group_sessions WHERE chat_id = -123") == [(0,)]
    assert rows(bot, "SELECT COUNT(*) FROM group_chats WHERE chat_id = -123") == [(0,)]
    assert rows(bot, "SELECT language FROM group_chats WHERE chat_id = -100999") == [("el",)]
    assert rows(bot, "SELECT COUNT(*) FROM group_answers") == [(2,)]


async def test_a_group_upgraded_while_the_bot_was_down_moves_on_the_first_refusal(
    fake, tmp_path, people
):
    """The service messages never reached the bot (it was down and they were dropped): the
    first call to the old id answers "group chat was upgraded" (ChatMigrated), and the session
    moves there and goes on, without retrying the old id."""
    fake.add_group(BASIC, "Study", type="group", admins=[ELENI], members=[ARJUN])
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=WINDOW)
    await runner.start()
    try:
        fake.send_message(ELENI, "/quiz", chat_id=BASIC)
        await new_question(fake, BASIC)
        await runner.stop()
        fake.migrate_group(BASIC, SUPER)
        fake.drop_pending_updates()  # as if the service messages were lost
        pass_deadlines(runner)  # while the bot was down
        await runner.start()
        second = await new_question(fake, SUPER)
        assert i18n.catalog("el")("question_header", number=2, total=8) in second["text"]
        to_old = [
            c
            for c in fake.calls
            if c.params.get("chat_id") == BASIC and c.method in ("sendMessage", "editMessageText")
        ]
        assert len([c for c in to_old if c.status == 400]) == 1  # refused once, not retried
    finally:
        await runner.stop()


# --- forum topics --------------------------------------------------------------------------


async def test_a_session_in_a_forum_topic_stays_in_its_topic(fake, bot, banks):
    """/quiz in topic 42-like thread: every message of the session, including those sent from
    timers, carries the thread id; a /quiz in General sends none (never 1); a second session in
    another topic of the same chat is refused politely, in that topic."""
    bank = banks["deepspeed-megatron"]
    fake.add_group(FORUM, "Forum", is_forum=True, admins=[ELENI], members=[ARJUN, SAM])
    topic = fake.create_topic(FORUM, "Quiz night", by=ELENI)
    other = fake.create_topic(FORUM, "Chatter", by=ELENI)
    fake.send_message(SAM, "/quiz", chat_id=FORUM, message_thread_id=topic)
    first = await new_question(fake, FORUM)
    assert first["message_thread_id"] == topic
    fake.send_message(ARJUN, "/quiz", chat_id=FORUM, message_thread_id=other)
    refusal = await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.topic_messages(FORUM, other)
                if m.get("from", {}).get("id") == fake.bot_id
            ),
            None,
        )
    )
    assert refusal["text"] == i18n.catalog("en")("group_running")
    await tap(fake, ARJUN, first, correct_label(first, bank, "en"))
    second = await new_question(fake, FORUM, after=first["message_id"])  # posted by a timer
    assert second["message_thread_id"] == topic
    fake.send_message(SAM, "/stop", chat_id=FORUM, message_thread_id=topic)
    await fake.wait_for(
        lambda: any(
            i18n.catalog("en")("group_leaderboard") in m.get("text", "")
            for m in fake.topic_messages(FORUM, topic)
        )
    )
    sends = [c for c in fake.calls_to("sendMessage") if c.params.get("chat_id") == FORUM]
    assert len(sends) == 4  # question 1, the refusal, question 2, the leaderboard
    assert [c.params.get("message_thread_id") for c in sends] == [topic, other, topic, topic]
    assert [
        m for m in fake.topic_messages(FORUM, None) if m.get("from", {}).get("id") == fake.bot_id
    ] == []  # nothing landed in General

    fake.send_message(SAM, "/quiz", chat_id=FORUM)  # in General
    in_general = await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.topic_messages(FORUM, None)
                if m.get("from", {}).get("id") == fake.bot_id
            ),
            None,
        )
    )
    assert "message_thread_id" not in in_general
    assert "message_thread_id" not in fake.calls_to("sendMessage")[-1].params


# --- the bot removed -----------------------------------------------------------------------


@pytest.mark.parametrize("status", ["kicked", "left"])
async def test_the_bot_removed_ends_the_session_at_once(fake, bot, status):
    """Removed while a question is open: the session ends at once, its job is removed, the
    answers so far stay, nothing more is sent or retried; added again, /quiz starts fresh."""
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    first = await new_question(fake, SUPER)
    await tap(fake, ARJUN, first, "C")
    calls_before = len(fake.calls)
    fake.remove_bot(SUPER, by=ELENI, status=status)
    await fake.wait_for(
        lambda: rows(bot, "SELECT status FROM group_sessions") == [("stopped",)], recheck=0.05
    )
    assert not runner_of(bot).has_job(1)
    assert rows(bot, "SELECT COUNT(*) FROM group_answers") == [(1,)]
    # nothing more reaches the chat (a deadline racing the removal is refused once at most)
    later = [c for c in fake.calls[calls_before:] if c.params.get("chat_id") == SUPER]
    assert len(later) <= 1 and all(c.status == 403 for c in later)
    fake.add_bot(SUPER, by=ELENI)
    fake.send_message(ARJUN, "/quiz", chat_id=SUPER)
    fresh = await new_question(fake, SUPER, after=first["message_id"])
    assert i18n.catalog("el")("question_header", number=1, total=8) in fresh["text"]


async def test_the_bot_removed_unnoticed_ends_on_the_first_refusal(fake, tmp_path, people):
    """The removal update was lost: the deadline's reveal answers 403; the session ends at once
    with nothing retried (no endless 'Forbidden' loop)."""
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=WINDOW)
    await runner.start()
    try:
        fake.send_message(ELENI, "/quiz", chat_id=SUPER)
        await new_question(fake, SUPER)
        await runner.stop()
        fake.remove_bot(SUPER, by=ELENI)
        fake.drop_pending_updates()
        pass_deadlines(runner)
        calls_before = len(fake.calls)
        await runner.start()
        await fake.wait_for(
            lambda: rows(runner, "SELECT status FROM group_sessions") == [("stopped",)],
            recheck=0.05,
        )
        refused = [c for c in fake.calls[calls_before:] if c.params.get("chat_id") == SUPER]
        assert [c.status for c in refused] == [403]
    finally:
        await runner.stop()


# --- channel senders -----------------------------------------------------------------------


async def test_channel_senders_never_start_or_stop_a_session(fake, bot):
    """The linked channel's automatic forward of "/quiz" and a member posting as a channel are
    ignored; an anonymous admin (posting as the group) may start and stop a session."""
    fake.add_group(CHANNEL, "News", type="channel")
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.auto_forward(SUPER, CHANNEL, "/quiz")
    fake.send_message(ARJUN, "/quiz", chat_id=SUPER, sender_chat_id=CHANNEL)
    await idle(fake, bot)
    assert bot_messages(fake, SUPER) == []
    assert rows(bot, "SELECT COUNT(*) FROM group_sessions") == [(0,)]

    fake.send_as_anonymous_admin(SUPER, "/quiz")
    first = await new_question(fake, SUPER)
    assert "Study" in first["text"]  # started by the group itself (its title)
    fake.send_message(ARJUN, "/stop", chat_id=SUPER, sender_chat_id=CHANNEL)
    fake.auto_forward(SUPER, CHANNEL, "/stop")
    await idle(fake, bot)
    assert rows(bot, "SELECT status FROM group_sessions") == [("active",)]
    fake.send_as_anonymous_admin(SUPER, "/stop")
    await fake.wait_for(
        lambda: rows(bot, "SELECT status FROM group_sessions") == [("stopped",)], recheck=0.05
    )


# --- the workflow's own failures -------------------------------------------------------------


async def test_a_tap_that_came_in_time_counts_however_late_it_is_handled(fake, bot, monkeypatch):
    """Arjun's tap reaches the bot before the deadline but waits behind his own slow /language
    (a 3 s getChatMember) until after it: it is recorded, told so, and in the reveal."""
    monkeypatch.setattr(sessions, "SETTLE_SECONDS", 10.0)
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    first = await new_question(fake, SUPER)
    fake.delay(3.0, {"getChatMember"})
    fake.send_message(ARJUN, "/language", chat_id=SUPER)
    toast = await tap(fake, ARJUN, first, "B")
    assert toast["text"] == i18n.catalog("hi")("group_recorded", label="B")
    revealed = await fake.wait_for(
        lambda: (lambda m: m if not answer_buttons(m) else None)(
            fake.message(SUPER, first["message_id"])
        ),
        timeout=15,
    )
    assert i18n.catalog("el")("group_answer_count", count=1) in revealed["text"]
    # it was handled after the deadline: only once /language's getChatMember was answered
    posted = next(
        c
        for c in fake.calls_to("sendMessage")
        if c.result["message_id"] == first["message_id"] and c.params["chat_id"] == SUPER
    )
    [member] = fake.calls_to("getChatMember")
    assert member.at > posted.at + WINDOW


async def test_a_session_without_a_job_is_moved_on_by_the_watchdog(fake, bot):
    """A running session whose job is gone (a bug, a lost timer) is moved on by the watchdog;
    one whose deadline passed three windows ago is ended with a notice."""
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    first = await new_question(fake, SUPER)
    runner = runner_of(bot)
    await fake.wait_for(lambda: not runner.busy(1) and runner.has_job(1), recheck=0.05)
    runner.cancel(1)
    await fake.wait_for(lambda: not runner.has_job(1), recheck=0.05)
    await runner.check_all()
    await new_question(fake, SUPER, after=first["message_id"])  # it moved on
    await fake.wait_for(lambda: not runner.busy(1) and runner.has_job(1), recheck=0.05)
    runner.cancel(1)
    await fake.wait_for(lambda: not runner.has_job(1), recheck=0.05)
    pass_deadlines(bot)
    await runner.check_all()
    assert rows(bot, "SELECT status FROM group_sessions") == [("stopped",)]
    notice = i18n.catalog("el")("group_ended_error")
    await fake.wait_for(lambda: bot_messages(fake, SUPER)[-1]["text"] == notice)


async def test_a_question_telegram_refuses_ends_the_session_with_a_notice(fake, bot, caplog):
    """Posting the next question is refused with a permanent error: not retried; the session
    ends with a notice, and the chat may start a new quiz."""
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    first = await new_question(fake, SUPER)
    fake.fail_next(
        "sendMessage", error_code=400, description="Bad Request: message thread not found"
    )
    failed_before = len([c for c in fake.calls_to("sendMessage") if c.status == 400])
    with caplog.at_level(logging.INFO):
        await fake.wait_for(
            lambda: rows(bot, "SELECT status FROM group_sessions") == [("stopped",)],
            timeout=10,
            recheck=0.05,
        )
    notice = i18n.catalog("el")("group_ended_error")
    await fake.wait_for(lambda: bot_messages(fake, SUPER)[-1]["text"] == notice)
    refused = [c for c in fake.calls_to("sendMessage") if c.status == 400]
    assert len(refused) == failed_before + 1
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    await new_question(fake, SUPER, after=first["message_id"])


async def test_transient_failures_are_retried_a_bounded_number_of_times(fake, bot, monkeypatch):
    """Every call about the group is refused with a flood wait (429): the step is tried a
    bounded number of times with back-off, then the session ends (its notice is refused too,
    and not retried); nothing keeps trying after that."""
    monkeypatch.setattr(sessions, "RETRY_SECONDS", (0.05,))
    monkeypatch.setattr(sessions, "MAX_FAILURES", 2)
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    await new_question(fake, SUPER)
    fake.flood(SUPER, retry_after=1, times=1000)
    await fake.wait_for(
        lambda: rows(bot, "SELECT status FROM group_sessions") == [("stopped",)],
        timeout=60,
        recheck=0.05,
    )
    refused = len([c for c in fake.calls if c.status == 429])
    await idle(fake, bot)
    assert not runner_of(bot).has_job(1)
    assert len([c for c in fake.calls if c.status == 429]) == refused
    # one call per try of the step (the limiter leaves a session's retries to the runner: they
    # do not multiply), x 2 tries, + the notice's tries (1 + 3 flood retries)
    assert refused <= 2 * 1 + 4


async def test_a_question_that_may_have_been_posted_is_never_posted_twice(fake, bot, banks):
    """The connection drops after Telegram posted question 2: the bot cannot know it was
    posted, so it does not send it again; its window runs, and question 3 follows."""
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    first = await new_question(fake, SUPER)
    fake.drop_next("sendMessage", after_carrying_out=True)
    second = await new_question(fake, SUPER, after=first["message_id"])
    t = i18n.catalog("el")
    assert t("question_header", number=2, total=8) in second["text"]
    await tap(fake, ARJUN, second, "A")  # the session is open at question 2: it counts
    third = await fake.wait_for(
        lambda: next(
            (
                m
                for m in questions(fake, SUPER)
                if t("question_header", number=3, total=8) in m["text"]
            ),
            None,
        ),
        timeout=15,
    )
    assert third["message_id"] == second["message_id"] + 1
    posted_second = [
        m for m in bot_messages(fake, SUPER) if t("question_header", number=2, total=8) in m["text"]
    ]
    assert len(posted_second) == 1
    assert rows(bot, "SELECT COUNT(*) FROM group_answers") == [(1,)]


# --- buttons only where they belong --------------------------------------------------------


async def test_private_quiz_buttons_forged_on_a_group_message_change_nothing(fake, bot, banks):
    """A member forges private-quiz callbacks (answer, next, start a bank) on the group's open
    question: each is refused politely; nothing is posted in the group and the question keeps
    its text and buttons. A group button forged in a private chat is refused too."""
    fake.add_group(SUPER, "Study", admins=[ELENI], members=[ARJUN])
    fake.send_message(ARJUN, "/start")  # Arjun has a private attempt too (id 1)
    await fake.wait_for(lambda: len(bot_messages(fake, ARJUN)) >= 2)
    fake.send_message(ELENI, "/quiz", chat_id=SUPER)
    question = await new_question(fake, SUPER)
    sent_before = len(bot_messages(fake, SUPER))
    refused = i18n.catalog("hi")("toast_invalid")
    for data in ("a:1:0:0", "n:1:0", "b:deepspeed-megatron", "r:1"):
        update = fake.tap(ARJUN, SUPER, question["message_id"], data, check_button=False)
        query_id = update["callback_query"]["id"]
        await fake.wait_for(lambda q=query_id: q in fake.callback_answers)
        assert fake.callback_answers[query_id]["text"] == refused, data
    assert fake.message(SUPER, question["message_id"]) == question
    assert len(bot_messages(fake, SUPER)) == sent_before
    private_question = bot_messages(fake, ARJUN)[-1]
    update = fake.tap(ARJUN, ARJUN, private_question["message_id"], "g:1:0:0", check_button=False)
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    assert fake.callback_answers[query_id]["text"] == refused
    assert rows(bot, "SELECT COUNT(*) FROM group_answers") == [(0,)]
    assert rows(bot, "SELECT COUNT(*) FROM answers") == [(0,)]


async def test_a_tap_without_callback_data_is_answered_as_invalid(fake, bot, caplog):
    """A callback query whose data is empty (a broken client; python-telegram-bot's handlers
    take it whatever their pattern) is answered as invalid, like any garbage: no traceback,
    nothing changed (issue 35, item 13)."""
    import logging

    fake.send_message(ARJUN, "/start")
    await fake.wait_for(lambda: len(bot_messages(fake, ARJUN)) >= 2)
    question = bot_messages(fake, ARJUN)[-1]
    with caplog.at_level(logging.INFO):
        update = fake.tap(ARJUN, ARJUN, question["message_id"], "", check_button=False)
        query_id = update["callback_query"]["id"]
        await fake.wait_for(lambda: query_id in fake.callback_answers)
    assert fake.callback_answers[query_id]["text"] == i18n.catalog("hi")("toast_invalid")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert fake.message(ARJUN, question["message_id"]) == question
