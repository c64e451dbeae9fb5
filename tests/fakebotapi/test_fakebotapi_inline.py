"""The fake Bot API's inline mode, driven through python-telegram-bot's real HTTP stack:
inline queries, answerInlineQuery refused as Telegram refuses it, the chosen article posted
``via_bot``, and t.me deep links followed (``?start=``, ``?startgroup=``)."""

from __future__ import annotations

import pytest
from telegram import (
    Bot,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.error import BadRequest

from tests.support.clock import FakeClock
from tests.support.fakebotapi import (
    QUERY_TOO_OLD,
    RESULT_ID_DUPLICATE,
    RESULT_ID_INVALID,
    RESULTS_TOO_MUCH,
    START_PARAM_INVALID,
    FakeBotAPI,
)

USER, OTHER, GROUP = 42, 7, -1001234567890


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def fake(clock: FakeClock):
    server = FakeBotAPI(clock=clock, inline_mode=True)
    server.add_user(USER, "Ada", language_code="el")
    server.add_user(OTHER, "Bob")
    server.add_group(GROUP, "Quiz night", admins=[OTHER], members=[USER])
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def bot(fake: FakeBotAPI):
    client = Bot(fake.token, base_url=fake.base_url)
    await client.initialize()
    yield client
    await client.shutdown()


def article(result_id: str, text: str = "<b>Quiz</b>", **kwargs) -> InlineQueryResultArticle:
    return InlineQueryResultArticle(
        result_id, f"Title {result_id}", InputTextMessageContent(text, parse_mode="HTML"), **kwargs
    )


def message(description: str) -> str:
    """PTB's message for a Telegram error description (without "Bad Request: ")."""
    return BadRequest(description).message


async def received(bot: Bot) -> list[Update]:
    """The updates queued for the bot, confirmed."""
    updates = await bot.get_updates()
    if updates:
        await bot.get_updates(offset=updates[-1].update_id + 1)
    return list(updates)


async def test_inline_mode_is_off_unless_turned_on(fake: FakeBotAPI, bot: Bot) -> None:
    """getMe says whether inline mode is on; with it off, users can send no inline query."""
    assert bot.supports_inline_queries is True
    fake.inline_mode = False
    assert (await bot.get_me()).supports_inline_queries is False
    with pytest.raises(ValueError, match="inline mode is off"):
        fake.inline_query(USER, "zero")


async def test_an_inline_query_reaches_the_bot_with_its_sender_and_chat_type(
    fake: FakeBotAPI, bot: Bot
) -> None:
    fake.inline_query(USER, "zero ✨", chat_type="supergroup")
    fake.inline_query(USER, "", offset="50", chat_type=None)  # from a secret chat
    first, second = (update.inline_query for update in await received(bot))
    assert (first.query, first.offset, first.chat_type) == ("zero ✨", "", "supergroup")
    assert first.from_user.id == USER and first.from_user.language_code == "el"
    assert (second.query, second.offset, second.chat_type) == ("", "50", None)
    assert first.id != second.id
    with pytest.raises(ValueError, match="256"):
        fake.inline_query(USER, "x" * 257)
    fake.inline_query(USER, "x" * 500, check_length=False)  # a test may send more
    with pytest.raises(ValueError, match="chat_type"):
        fake.inline_query(USER, "x", chat_type="secret")


async def test_only_allowed_update_types_are_delivered(fake: FakeBotAPI, bot: Bot) -> None:
    """A bot that does not ask for inline_query updates never gets them."""
    await bot.get_updates(allowed_updates=["message"])
    fake.inline_query(USER, "zero")
    assert await received(bot) == []


async def test_answer_once_within_the_time_limit(
    fake: FakeBotAPI, bot: Bot, clock: FakeClock
) -> None:
    """One answer per query, within query_ttl seconds; the results are kept for the test."""
    query_id = fake.inline_query(USER, "zero")["inline_query"]["id"]
    assert await bot.answer_inline_query(
        query_id, [article("a"), article("b")], cache_time=60, is_personal=True
    )
    answer = fake.inline_answers[query_id]
    assert [r["id"] for r in fake.inline_results(query_id)] == ["a", "b"]
    assert (answer["cache_time"], answer["is_personal"]) == (60, True)
    with pytest.raises(BadRequest) as caught:  # answered twice
        await bot.answer_inline_query(query_id, [article("a")])
    assert caught.value.message == message(QUERY_TOO_OLD)
    with pytest.raises(BadRequest, match="Query is too old"):  # an id Telegram never sent
        await bot.answer_inline_query("12345", [article("a")])
    late = fake.inline_query(USER, "zero")["inline_query"]["id"]
    clock.now += 15.5
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_inline_query(late, [article("a")])


async def test_results_are_refused_as_telegram_refuses_them(fake: FakeBotAPI, bot: Bot) -> None:
    """More than 50 results, a duplicate or malformed id, an article without text, a bad
    keyboard, a long offset or a bad button: 400, and the query can still be answered."""
    query_id = fake.inline_query(USER, "")["inline_query"]["id"]
    refusals = [
        ([article(str(n)) for n in range(51)], {}, RESULTS_TOO_MUCH),
        ([article("a"), article("a")], {}, RESULT_ID_DUPLICATE),
        ([article("x" * 65)], {}, RESULT_ID_INVALID),
        ([article("é" * 33)], {}, RESULT_ID_INVALID),  # 66 bytes in UTF-8
        ([article("a", text="<b>open")], {}, "Bad Request: can't parse entities"),
        ([article("a", text="x" * 4097)], {}, "Bad Request: message is too long"),
        (
            [
                article(
                    "a",
                    reply_markup=InlineKeyboardMarkup(
                        [[InlineKeyboardButton("x", callback_data="y" * 65)]]
                    ),
                )
            ],
            {},
            "Bad Request: BUTTON_DATA_INVALID",
        ),
        ([article("a")], {"next_offset": "9" * 65}, "Bad Request: NEXT_OFFSET_INVALID"),
        (
            [],
            {"button": InlineQueryResultsButton("Open", start_parameter="no spaces")},
            START_PARAM_INVALID,
        ),
    ]
    for results, extra, description in refusals:
        with pytest.raises(BadRequest) as caught:
            await bot.answer_inline_query(query_id, results, **extra)
        assert caught.value.message.startswith(message(description)), (description, caught.value)
    assert query_id not in fake.inline_answers
    assert await bot.answer_inline_query(  # 50 results, a 64-byte id, an empty page: fine
        query_id,
        [article("z" * 64), *(article(str(n)) for n in range(49))],
        next_offset="",
        button=InlineQueryResultsButton("Open the bot", start_parameter="from_inline-1"),
    )
    assert len(fake.inline_results(query_id)) == 50


async def test_the_chosen_article_is_posted_via_the_bot(fake: FakeBotAPI, bot: Bot) -> None:
    """Choosing a result posts its text and keyboard in the chat as the user's message
    via_bot; the bot receives that message; chosen_inline_result only with inline feedback."""
    await bot.get_updates(allowed_updates=["message", "inline_query", "chosen_inline_result"])
    query_id = fake.inline_query(USER, "", chat_type="supergroup")["inline_query"]["id"]
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Go", url="https://t.me/x_bot")]])
    await bot.answer_inline_query(
        query_id, [article("a", "<b>Quiz</b> &amp; more", reply_markup=keyboard)]
    )
    await received(bot)
    posted = fake.choose_inline_result(USER, query_id, "a", chat_id=GROUP)
    assert posted["text"] == "Quiz & more" and posted["entities"][0]["type"] == "bold"
    assert posted["from"]["id"] == USER and posted["via_bot"]["id"] == fake.bot_id
    assert posted["reply_markup"] == keyboard.to_dict()
    assert fake.message(GROUP, posted["message_id"]) == posted
    (update,) = await received(bot)
    assert update.message.via_bot.id == fake.bot_id and update.message.chat.id == GROUP
    fake.inline_feedback = True
    posted = fake.choose_inline_result(USER, query_id, "a")  # also into the bot's own chat
    chosen, update = await received(bot)
    assert chosen.chosen_inline_result.result_id == "a"
    assert chosen.chosen_inline_result.inline_message_id  # the message has a keyboard
    assert update.message.chat.id == USER and posted["chat"]["id"] == USER
    with pytest.raises(ValueError, match="no article"):
        fake.choose_inline_result(USER, query_id, "b")
    with pytest.raises(ValueError, match="sent no inline query"):
        fake.choose_inline_result(OTHER, query_id, "a")


async def test_deep_links_send_start_with_the_payload(fake: FakeBotAPI, bot: Bot) -> None:
    """?start= sends "/start <payload>" in the private chat; ?startgroup= sends
    "/start@<bot> <payload>" in the group the user picks, adding the bot back if needed."""
    base = f"https://t.me/{fake.bot_username}"
    fake.follow_link(USER, f"{base}?start=deepspeed-megatron")
    fake.follow_link(USER, f"{base}?startgroup=deepspeed-megatron", chat_id=GROUP)
    private, group = (update.message for update in await received(bot))
    assert (private.chat.id, private.text) == (USER, "/start deepspeed-megatron")
    assert (group.chat.id, group.from_user.id) == (GROUP, USER)
    assert group.text == f"/start@{fake.bot_username} deepspeed-megatron"
    assert group.entities[0].type == "bot_command"
    assert group.entities[0].length == len(f"/start@{fake.bot_username}")
    fake.remove_bot(GROUP, by=OTHER)
    await received(bot)
    fake.follow_link(OTHER, f"{base}?startgroup=q1", chat_id=GROUP)
    kinds = [next(k for k in u.to_dict() if k != "update_id") for u in await received(bot)]
    assert kinds == ["my_chat_member", "message", "message"]  # added back, joined, /start
    for bad, chat_id in (
        (f"{base}?start=has%20space", None),
        ("https://t.me/other_bot", None),
        (f"{base}?start={'x' * 65}", None),
        (f"{base}?startgroup=x", None),
        (f"{base}?startgroup=x", USER),
    ):
        with pytest.raises(ValueError):
            fake.follow_link(USER, bad, chat_id=chat_id)
