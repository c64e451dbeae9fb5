"""End to end: the question of the day in a group over three days (a reveal each day, the weekly
leaderboard, a restart), in a channel set up from the bot's private chat, a channel where the
bot lost its admin rights, and a group upgraded to a supergroup; through the fake Bot API
server, the services on a fake clock that jumps days."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime

import pytest

from bot import i18n
from bot.features.daily.screens import DAILY_SYNTAX
from tests.support.banks import BANK_ID
from tests.support.botrun import MODES, RunningBot
from tests.support.clock import FakeClock
from tests.support.fakebotapi import FakeBotAPI
from tests.support.screens import buttons

GROUP, BASIC, CHANNEL = -1001234567890, -4001, -1001987654321
FRIDAY_8AM = datetime(2026, 12, 4, 8, 0, tzinfo=UTC).timestamp()
"""The tests start on a Friday at 08:00 UTC: the 09:00 question comes an hour later, and the
third day's (Sunday's) brings the weekly leaderboard (Sunday is the default day)."""
DAY = 86_400.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(FRIDAY_8AM)


@pytest.fixture
async def daily_bot(request, fake, tmp_path, clock):
    """The bot on the fake clock, with a question-of-the-day pass every 100 ms (polling,
    unless parametrized with a mode)."""
    runner = RunningBot(
        fake,
        tmp_path / "quiz.sqlite3",
        clock=clock,
        daily_interval=0.1,
        mode=getattr(request, "param", "polling"),
    )
    await runner.start()
    yield runner
    await runner.stop()


def bot_posts(fake: FakeBotAPI, chat_id: int) -> list[dict]:
    """The bot's messages in a group or channel (edits applied)."""
    if chat_id == CHANNEL:
        return fake.channel_posts(CHANNEL)
    return [m for m in fake.messages(chat_id) if m.get("from", {}).get("id") == fake.bot_id]


def daily_posts(fake: FakeBotAPI, chat_id: int) -> list[dict]:
    """The bot's posts that are (or were) days' questions, oldest first."""
    titles = tuple(
        i18n.catalog(language)(key)
        for language in i18n.SUPPORTED
        for key in ("daily_title", "daily_reveal_title")
    )
    return [m for m in bot_posts(fake, chat_id) if m["text"].startswith(titles)]


async def next_post(fake: FakeBotAPI, chat_id: int, count: int) -> dict:
    """Wait for the ``count``-th day's question in the chat; return it."""
    return await fake.wait_for(
        lambda: (lambda posts: posts[count - 1] if len(posts) >= count else None)(
            daily_posts(fake, chat_id)
        )
    )


def right_slot(runner: RunningBot, banks, post: dict) -> int:
    """The slot of the right option of a day's post, from the stored option order."""
    post_id = int(buttons(post)[0]["callback_data"].split(":")[1])  # da:<post>:<slot>
    with sqlite3.connect(runner.db) as db:
        row = db.execute(
            "SELECT question_id, slots FROM daily_posts WHERE post_id = ?", (post_id,)
        ).fetchone()
    question = banks[BANK_ID].question(row[0])
    return json.loads(row[1]).index(question.correct_index)


async def tap(fake: FakeBotAPI, user_id: int, post: dict, slot: int) -> str:
    """Tap slot ``slot`` of a day's post; the toast's text."""
    data = buttons(post)[slot]["callback_data"] if buttons(post) else f"da:1:{slot}"
    update = fake.tap(user_id, post["chat"]["id"], post["message_id"], data, check_button=False)
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    return fake.callback_answers[query_id].get("text", "")


def stored(runner: RunningBot, sql: str) -> tuple | None:
    """The first row of a query on the bot's database."""
    with sqlite3.connect(runner.db) as db:
        return db.execute(sql).fetchone()


@pytest.fixture
def group(fake: FakeBotAPI) -> dict[str, int]:
    """A supergroup: Eleni (Greek) its admin, Arjun (Hindi) and Sam (English) members."""
    people = {
        "eleni": (701, "Eleni", "el"),
        "arjun": (702, "Arjun", "hi"),
        "sam": (703, "Sam <b>", "en"),
    }
    for user_id, name, language in people.values():
        fake.add_user(user_id, name, language_code=language)
    fake.add_group(GROUP, "Study group", admins=[701], members=[702, 703])
    return {key: value[0] for key, value in people.items()}


@pytest.mark.parametrize("daily_bot", MODES, indirect=True)
async def test_three_days_with_a_reveal_each_day_and_the_weekly_board(
    fake, daily_bot, group, clock, banks
):
    """An admin sets /daily at 09:00; each day at 09:00 the previous question is revealed by an
    edit (answer, counts, explanation) before the next is posted; everyone answers once, each
    tap acknowledged in the tapper's language; a restart loses nothing; Sunday's post brings
    the week's leaderboard (names escaped, no mention)."""
    t = i18n.catalog("en")  # the group's language
    fake.send_message(group["arjun"], "/daily deepspeed-megatron 09:00", chat_id=GROUP)
    refused = await fake.wait_for(
        lambda: next((m for m in bot_posts(fake, GROUP) if "admins" in m["text"]), None)
    )
    assert refused["text"] == t("daily_admins_only")
    fake.send_message(group["eleni"], "/daily deepspeed-megatron 09:00", chat_id=GROUP)
    status = await fake.wait_for(
        lambda: next((m for m in bot_posts(fake, GROUP) if buttons(m)), None)
    )
    assert "09:00 (UTC)" in status["text"]
    assert [b["callback_data"] for b in buttons(status)][-1] == f"ds:{GROUP}:off:1"

    clock.advance(3600)  # Friday 09:00
    first = await next_post(fake, GROUP, 1)
    right = right_slot(daily_bot, banks, first)
    wrong = (right + 1) % len(buttons(first))
    bank = banks[BANK_ID]
    toasts = {
        who: await tap(fake, group[who], first, slot)
        for who, slot in (("eleni", right), ("arjun", wrong), ("sam", right))
    }
    for who, language in (("eleni", "el"), ("arjun", "hi"), ("sam", "en")):
        assert toasts[who].startswith(i18n.catalog(language)("daily_recorded", label="X")[:8])
    assert await tap(fake, group["eleni"], first, wrong) == i18n.catalog("el")("daily_already")

    clock.advance(DAY)  # Saturday 09:00: Friday's is revealed, then Saturday's posted
    second = await next_post(fake, GROUP, 2)
    # the reveal's edit and the next post are separate calls of the daily pass: wait for it
    revealed = await fake.wait_for(
        lambda: (lambda m: m if m["text"].startswith(t("daily_reveal_title")) else None)(
            fake.message(GROUP, first["message_id"])
        )
    )
    assert not buttons(revealed)
    assert t("daily_answered", count=3, right=2) in revealed["text"]
    with sqlite3.connect(daily_bot.db) as db:
        [question_id] = db.execute(
            "SELECT question_id FROM daily_posts WHERE message_id = ?", (first["message_id"],)
        ).fetchone()
    question = bank.question(question_id)
    if question.explanation is not None:
        assert question.explanation.get("en", "en")[:30] in revealed["text"]
    edits = [
        i
        for i, c in enumerate(fake.calls)
        if c.method == "editMessageText" and c.params.get("message_id") == first["message_id"]
    ]
    sends = [
        i
        for i, c in enumerate(fake.calls)
        if c.method == "sendMessage" and c.ok and c.result["message_id"] == second["message_id"]
    ]
    assert edits[0] < sends[0]  # revealed before the next question is asked
    assert await tap(fake, group["sam"], first, right) == t("daily_closed")
    await tap(fake, group["arjun"], second, right_slot(daily_bot, banks, second))

    await daily_bot.stop()  # down over Sunday 09:00: the first pass after the start catches up
    clock.advance(DAY)
    await daily_bot.start()
    third = await next_post(fake, GROUP, 3)
    assert (
        t("daily_answered", count=1, right=1) in fake.message(GROUP, second["message_id"])["text"]
    )
    board = await fake.wait_for(
        lambda: next(
            (m for m in bot_posts(fake, GROUP) if m["text"].startswith(t("daily_board_title"))),
            None,
        )
    )
    lines = board["text"].splitlines()[3:]
    assert lines == [
        f"🥇 Eleni — {t('daily_board_line', count=1, answered=1)}",
        f"🥇 Sam <b> — {t('daily_board_line', count=1, answered=1)}",
        f"🥉 Arjun — {t('daily_board_line', count=1, answered=2)}",
    ]
    assert not {e["type"] for e in board.get("entities", [])} & {"mention", "text_mention"}
    assert board["message_id"] > third["message_id"]  # after the day's question
    assert len(daily_posts(fake, GROUP)) == 3  # one a day, nothing twice after the restart


async def test_off_stops_the_posts(fake, daily_bot, group, clock):
    """/daily off stops the posts; the open question is still revealed at its time."""
    t = i18n.catalog("en")
    fake.send_message(group["eleni"], "/daily 09:00", chat_id=GROUP)
    await fake.wait_for(lambda: any(buttons(m) for m in bot_posts(fake, GROUP)))
    clock.advance(3600)
    first = await next_post(fake, GROUP, 1)
    fake.send_message(group["eleni"], "/daily off", chat_id=GROUP)
    await fake.wait_for(
        lambda: any(m["text"] == t("daily_off", chat="Study group") for m in bot_posts(fake, GROUP))
    )
    clock.advance(DAY)
    await fake.wait_for(lambda: not buttons(fake.message(GROUP, first["message_id"])))
    assert len(daily_posts(fake, GROUP)) == 1
    fake.send_message(group["eleni"], "/daily off", chat_id=GROUP)
    await fake.wait_for(
        lambda: any(
            m["text"] == t("daily_not_on", chat="Study group", syntax=DAILY_SYNTAX)
            for m in bot_posts(fake, GROUP)
        )
    )


async def test_a_channel_from_the_private_chat_and_the_bot_losing_its_rights(
    fake, daily_bot, clock, banks
):
    """The owner adds the bot to a channel as an admin, chooses it in /daily in the private
    chat; the post is tapped by a reader who is no subscriber (counted by user id, toast in
    their language) and revealed the next day; demoted, the bot stops posting there and tells
    the owner."""
    owner, reader = 801, 802
    fake.add_user(owner, "Olga", language_code="el")
    fake.add_user(reader, "Ravi", language_code="hi")
    fake.send_message(owner, "/help")  # the owner's private chat with the bot is open
    await fake.wait_for(lambda: fake.messages(owner)[1:])
    fake.add_channel(CHANNEL, "Daily facts", owner=owner)
    await fake.wait_for(
        lambda: stored(daily_bot, "SELECT can_post FROM bot_chats") == (1,), recheck=0.05
    )  # the my_chat_member update is handled
    fake.send_message(owner, "/daily 09:00")
    t_owner = i18n.catalog("el")
    choice = await fake.wait_for(
        lambda: next(
            (m for m in fake.messages(owner) if m["text"] == t_owner("daily_choose_channel")), None
        )
    )
    [[button]] = choice["reply_markup"]["inline_keyboard"]
    assert button["text"] == "Daily facts"
    query = fake.tap(owner, owner, choice["message_id"], button["callback_data"])
    await fake.wait_for(lambda: query["callback_query"]["id"] in fake.callback_answers)
    await fake.wait_for(lambda: "09:00" in fake.message(owner, choice["message_id"])["text"])

    clock.advance(3600)
    post = await next_post(fake, CHANNEL, 1)
    assert "from" not in post and post["sender_chat"]["id"] == CHANNEL
    right = right_slot(daily_bot, banks, post)
    text = await tap(fake, reader, post, right)
    assert text.startswith(i18n.catalog("hi")("daily_recorded", label="X")[:8])
    assert await tap(fake, reader, post, right) == i18n.catalog("hi")("daily_already")

    clock.advance(DAY)
    await next_post(fake, CHANNEL, 2)
    assert (
        i18n.catalog("el")("daily_answered", count=1, right=1)
        in fake.message(CHANNEL, post["message_id"])["text"]
    )

    fake.demote_bot(CHANNEL, by=owner)
    told = i18n.catalog("el")("daily_lost", chat="Daily facts")
    await fake.wait_for(lambda: any(m["text"] == told for m in fake.messages(owner)))
    clock.advance(DAY)
    failed = await fake.wait_for_call(
        "editMessageText", where=lambda c: c.params.get("chat_id") == CHANNEL and not c.ok
    )
    assert "need administrator rights" in failed.response["description"]
    assert stored(daily_bot, "SELECT status FROM daily_schedules") == ("lost",)
    assert not [
        c
        for c in fake.calls
        if c.method == "sendMessage" and c.params.get("chat_id") == CHANNEL and not c.ok
    ]
    assert len(daily_posts(fake, CHANNEL)) == 2


async def test_a_group_upgraded_to_a_supergroup_keeps_its_question_of_the_day(
    fake, daily_bot, clock
):
    """After a basic group became a supergroup, the next day's question goes to the
    supergroup."""
    fake.add_user(901, "Nia", language_code="en")
    fake.add_group(BASIC, "Basic class", type="group", admins=[901])
    fake.send_message(901, "/daily 09:00", chat_id=BASIC)
    await fake.wait_for(lambda: any(buttons(m) for m in bot_posts(fake, BASIC)))
    fake.migrate_group(BASIC, GROUP)
    await fake.wait_for(
        lambda: stored(daily_bot, "SELECT chat_id FROM daily_schedules") == (GROUP,), recheck=0.05
    )
    clock.advance(3600)
    await next_post(fake, GROUP, 1)


async def test_an_anonymous_admin_sets_it_and_bad_input_is_answered(fake, daily_bot, group):
    """An anonymous admin may set the question of the day; an unknown quiz and an unreadable
    time get clear answers and change nothing."""
    t = i18n.catalog("en")
    fake.send_as_anonymous_admin(GROUP, "/daily nope 09:00")
    await fake.wait_for(
        lambda: any(
            m["text"].startswith(t("daily_unknown_quiz", quiz="nope", banks=BANK_ID)[:20])
            for m in bot_posts(fake, GROUP)
        )
    )
    fake.send_as_anonymous_admin(GROUP, "/daily 25:00")
    await fake.wait_for(
        lambda: any(
            m["text"] == t("daily_bad_time", text="25:00", format="HH:MM")
            for m in bot_posts(fake, GROUP)
        )
    )
    assert stored(daily_bot, "SELECT COUNT(*) FROM daily_schedules") == (0,)
    fake.send_as_anonymous_admin(GROUP, "/daily 07:30")
    await fake.wait_for(lambda: any(buttons(m) for m in bot_posts(fake, GROUP)))
    assert stored(daily_bot, "SELECT minute, set_by FROM daily_schedules") == (450, 0)


async def test_settings_buttons_for_admins_only(fake, daily_bot, group):
    """An admin's taps change the run-out setting and the leaderboard day (the screen shows
    them); a member's tap is refused in their language and changes nothing."""
    t = i18n.catalog("en")
    fake.send_message(group["eleni"], "/daily 09:00", chat_id=GROUP)
    status = await fake.wait_for(
        lambda: next((m for m in bot_posts(fake, GROUP) if buttons(m)), None)
    )
    then, board, _ = (b["callback_data"] for b in buttons(status))
    # when the next question comes is a date_time entity (Bot API 9.5) of that moment
    [when] = [e for e in status.get("entities", []) if e["type"] == "date_time"]
    assert when["unix_time"] == int(stored(daily_bot, "SELECT next_at FROM daily_schedules")[0])
    assert "date_time_format" not in when  # the text, in the chat's zone, stays as written
    assert await tap_data(fake, group["arjun"], status, then) == i18n.catalog("hi")(
        "daily_admins_only"
    )
    assert stored(daily_bot, "SELECT run_out, board_day FROM daily_schedules") == ("again", 6)
    assert await tap_data(fake, group["eleni"], status, then) == i18n.catalog("el")(
        "daily_setting_saved"
    )
    await fake.wait_for(
        lambda: t("daily_then_stop") in fake.message(GROUP, status["message_id"])["text"]
    )
    await tap_data(fake, group["eleni"], status, board)  # Sunday -> none
    await fake.wait_for(
        lambda: t("daily_board_none") in fake.message(GROUP, status["message_id"])["text"]
    )
    assert stored(daily_bot, "SELECT run_out, board_day FROM daily_schedules") == ("stop", None)


async def tap_data(fake: FakeBotAPI, user_id: int, message: dict, data: str) -> str:
    """Tap the button with callback data ``data``; the toast's text."""
    update = fake.tap(
        user_id, message["chat"]["id"], message["message_id"], data, check_button=False
    )
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    return fake.callback_answers[query_id].get("text", "")


async def test_daily_alone_after_its_quiz_was_deleted_says_so_and_how_to_choose(
    fake, daily_bot, group
):
    """/daily alone in a group whose question of the day's quiz is gone (deleted by its
    maker) names the quiz it no longer knows and shows how to choose another, in the group's
    language; it used to get no reply (an UnknownBank traceback)."""
    t = i18n.catalog("en")
    fake.send_message(group["eleni"], "/daily 09:00", chat_id=GROUP)
    await fake.wait_for(lambda: any(buttons(m) for m in bot_posts(fake, GROUP)))
    with sqlite3.connect(daily_bot.db) as db:  # as a deleted created quiz leaves it
        db.execute("UPDATE daily_schedules SET bank_id = 'c-deleted0' WHERE chat_id = ?", (GROUP,))
    before = len(bot_posts(fake, GROUP))
    fake.send_message(group["eleni"], "/daily", chat_id=GROUP)
    await fake.wait_for(lambda: len(bot_posts(fake, GROUP)) > before)
    reply = bot_posts(fake, GROUP)[-1]["text"]
    assert reply.startswith(t("daily_unknown_quiz", quiz="c-deleted0", banks=BANK_ID))
    assert DAILY_SYNTAX in reply


async def test_a_post_whose_answer_was_lost_is_opened_by_a_tap_and_revealed(
    fake, daily_bot, group, clock
):
    """The day's question reaches the group but the answer to its send is lost (the connection
    dropped after Telegram posted it): it is not posted again; a member's tap on it is recorded
    (not "closed"), and the next day it is revealed with that answer (issue 31, item 4)."""
    t = i18n.catalog("en")
    fake.send_message(group["eleni"], "/daily deepspeed-megatron 09:00", chat_id=GROUP)
    await fake.wait_for(lambda: next((m for m in bot_posts(fake, GROUP) if buttons(m)), None))
    fake.drop_next("sendMessage", after_carrying_out=True)
    clock.advance(3600)  # Friday 09:00
    first = await next_post(fake, GROUP, 1)
    await fake.wait_for(
        lambda: any(c.method == "sendMessage" and c.status == 0 for c in fake.calls)
    )  # the bot never heard of it
    assert (await tap(fake, group["sam"], first, 0)).startswith(t("daily_recorded", label="X")[:8])
    clock.advance(DAY)  # Saturday: Friday's is revealed, Saturday's posted
    await next_post(fake, GROUP, 2)
    revealed = fake.message(GROUP, first["message_id"])
    assert revealed["text"].startswith(t("daily_reveal_title"))
    assert (
        t(
            "daily_answered",
            count=1,
            right=stored(daily_bot, "SELECT SUM(correct) FROM daily_answers")[0],
        )
        in revealed["text"]
    )
    assert len(daily_posts(fake, GROUP)) == 2


async def test_a_post_refused_for_a_flood_is_posted_by_a_later_pass_the_same_day(
    fake, daily_bot, group, clock
):
    """The day's question meets flood waits beyond the bot's retries (surely not posted): a
    later pass claims it again and posts it that day, once; the day is not skipped (issue 31,
    item 13)."""
    from bot.telegram.calls import RATE_LIMIT_RETRIES

    fake.send_message(group["eleni"], "/daily deepspeed-megatron 09:00", chat_id=GROUP)
    await fake.wait_for(lambda: next((m for m in bot_posts(fake, GROUP) if buttons(m)), None))
    fake.flood(GROUP, retry_after=1, times=RATE_LIMIT_RETRIES + 1)
    clock.advance(3600)  # Friday 09:00
    first = await next_post(fake, GROUP, 1)
    refused = [c for c in fake.calls_to("sendMessage") if c.status == 429]
    assert len(refused) == RATE_LIMIT_RETRIES + 1
    assert len(daily_posts(fake, GROUP)) == 1 and buttons(first)
    assert stored(daily_bot, "SELECT COUNT(*) FROM daily_posts")[0] == 1
