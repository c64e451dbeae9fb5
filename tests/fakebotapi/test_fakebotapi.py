"""Tests of the fake Bot API server, driven through python-telegram-bot's real HTTP stack."""

from __future__ import annotations

import asyncio
import datetime as dtm

import aiohttp
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Conflict,
    EndPointNotFound,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
)
from telegram.ext import (
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from tests.support.clock import FakeClock
from tests.support.fakebotapi import (
    BLOCKED,
    BUTTON_TEXT_EMPTY,
    CONFLICT_POLLING,
    GROUP_MIGRATED,
    MARKUP_TOO_LONG,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    THREAD_NOT_FOUND,
    FakeBotAPI,
    parse_html,
    utf16_len,
)

USER = 42
GROUP = -1001234567890


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def fake(clock: FakeClock):
    server = FakeBotAPI(clock=clock)
    server.add_user(USER, "Ada", language_code="en", username="ada")
    server.add_user(7, "Bob", language_code="el")
    server.add_group(GROUP, "Quiz night", admins=[7, 1000], members=[USER])
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def bot(fake: FakeBotAPI):
    client = Bot(fake.token, base_url=fake.base_url)
    await client.initialize()
    yield client
    await client.shutdown()


def ptb_message(description: str) -> str:
    """The message PTB gives a Telegram error description (it strips "Bad Request: ")."""
    return BadRequest(description).message


async def open_private_chat(fake: FakeBotAPI, bot: Bot, user_id: int = USER) -> None:
    """The user writes first, as Telegram requires, and the bot consumes the update."""
    fake.send_message(user_id, "hi")
    updates = await bot.get_updates()
    await bot.get_updates(offset=updates[-1].update_id + 1)


# -- wire protocol ----------------------------------------------------------------------------


async def test_get_me_returns_the_bot_user(bot: Bot, fake: FakeBotAPI) -> None:
    """getMe answers the configured bot, so Bot.initialize works."""
    me = await bot.get_me()
    assert (me.id, me.username, me.is_bot) == (1000, "quizbot_test_bot", True)
    assert fake.calls_to("getMe")[0].ok


async def test_wrong_token_and_unknown_method(bot: Bot, fake: FakeBotAPI) -> None:
    """A foreign token is 401 Unauthorized, an unknown method 404 Not Found."""
    stranger = Bot("999:OTHER", base_url=fake.base_url)
    with pytest.raises(InvalidToken):
        await stranger.initialize()
    assert fake.calls[-1].status == 401
    assert fake.calls[-1].response["description"] == "Unauthorized"
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("sendTelepathy")
    assert fake.calls[-1].response == {"ok": False, "error_code": 404, "description": "Not Found"}


async def test_raw_requests_json_body_case_and_missing_parameters(fake: FakeBotAPI) -> None:
    """JSON bodies work, method names are case-insensitive, unknown parameters are ignored."""
    url = fake.base_url + fake.token
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{url}/getme") as response:
            assert response.status == 200
            assert (await response.json())["result"]["username"] == "quizbot_test_bot"
        body = {"chat_id": GROUP, "text": "123", "no_such_field": 1}
        async with session.post(f"{url}/sendMessage", json=body) as response:
            assert (await response.json())["result"]["text"] == "123"
        async with session.post(f"{url}/sendMessage", data={"text": "x"}) as response:
            assert response.status == 400
            assert (await response.json())["description"] == "Bad Request: chat_id is empty"
        async with session.post(f"{url}/sendMessage", data={"chat_id": "7"}) as response:
            assert (await response.json())["description"] == "Bad Request: message text is empty"
        async with session.post(f"{url}/getChatMember", data={"chat_id": GROUP}) as response:
            assert (await response.json())["description"].startswith("Bad Request: ")
    assert fake.calls_to("sendMessage")[0].params["text"] == "123"  # String fields stay strings


async def test_unimplemented_method_is_a_network_error(bot: Bot) -> None:
    """A real Bot API method the fake lacks answers 501, which PTB raises as NetworkError."""
    with pytest.raises(NetworkError, match="sendDice"):
        await bot.send_dice(GROUP)


# -- getUpdates -------------------------------------------------------------------------------


async def test_long_poll_returns_an_update_pushed_after_the_call_began(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """A waiting getUpdates is answered as soon as an update arrives, not at its timeout."""
    poll = asyncio.create_task(bot.get_updates(timeout=600))
    await fake.wait_for(lambda: fake.polling)
    pushed = fake.send_message(USER, "/start@quizbot_test_bot payload")
    async with asyncio.timeout(60):  # a guard against a hang: the poll itself lasts 600 s
        updates = await poll
    assert [u.update_id for u in updates] == [pushed["update_id"]]
    message = updates[0].message
    assert message.text == "/start@quizbot_test_bot payload"
    assert message.entities[0].type == "bot_command"
    assert message.entities[0].length == len("/start@quizbot_test_bot")
    assert message.chat.type == "private" and message.from_user.language_code == "en"


async def test_long_poll_times_out_empty(bot: Bot, fake: FakeBotAPI) -> None:
    """Without updates, getUpdates waits (the server holds it) and then answers an empty
    list at its timeout."""
    poll = asyncio.create_task(bot.get_updates(timeout=1))
    await fake.wait_for(lambda: fake.polling)  # held: answered at once, it would never show
    assert await poll == ()
    assert not fake.polling


async def test_offsets_confirm_and_negative_offset_counts_from_the_end(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """offset > id confirms and forgets; a negative offset keeps the last -offset updates."""
    ids = [fake.send_message(USER, f"m{n}")["update_id"] for n in range(3)]
    assert [u.update_id for u in await bot.get_updates(limit=2)] == ids[:2]
    assert [u.update_id for u in await bot.get_updates(offset=ids[1])] == ids[1:]
    assert fake.pending_updates() == 2
    assert await bot.get_updates(offset=ids[2] + 1) == ()
    assert fake.pending_updates() == 0
    more = [fake.send_message(USER, f"n{n}")["update_id"] for n in range(3)]
    assert [u.update_id for u in await bot.get_updates(offset=-1)] == more[2:]
    assert fake.pending_updates() == 1


async def test_unconfirmed_updates_come_again_and_fetched_tells_what_an_answer_carried(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """An update fetched but not confirmed (no later getUpdates with a higher offset) comes
    again in every answer from an offset at or below it; ``fetched`` tells which updates an
    answer carried, confirmed or not."""
    first, second = (fake.send_message(USER, f"m{n}")["update_id"] for n in range(2))
    assert not fake.fetched(first)
    assert [u.update_id for u in await bot.get_updates(limit=1)] == [first]
    assert fake.fetched(first) and not fake.fetched(second)
    assert [u.update_id for u in await bot.get_updates(offset=first)] == [first, second]
    assert fake.pending_updates() == 2
    assert [u.update_id for u in await bot.get_updates(offset=second)] == [second]
    assert fake.pending_updates() == 1 and fake.fetched(second)


async def test_allowed_updates_is_remembered(bot: Bot, fake: FakeBotAPI) -> None:
    """After allowed_updates=["callback_query"], messages are no longer queued."""
    await bot.get_updates(allowed_updates=["callback_query"])
    fake.send_message(USER, "ignored")
    await bot.get_updates()  # no allowed_updates: the previous setting stays
    fake.send_message(USER, "still ignored")
    assert fake.pending_updates() == 0
    await bot.get_updates(allowed_updates=[])  # back to Telegram's default
    fake.send_message(USER, "seen")
    assert [u.message.text for u in await bot.get_updates()] == ["seen"]


async def test_a_second_get_updates_terminates_the_first(bot: Bot, fake: FakeBotAPI) -> None:
    """Two concurrent getUpdates: the earlier one gets 409 Conflict, as on Telegram."""
    first = asyncio.create_task(bot.get_updates(timeout=5))
    await fake.wait_for(lambda: fake.polling)
    async with Bot(fake.token, base_url=fake.base_url) as second_instance:
        assert await second_instance.get_updates(timeout=0) == ()
    with pytest.raises(Conflict) as caught:
        await first
    assert caught.value.message == CONFLICT_POLLING


async def test_delete_webhook_can_drop_pending_updates(bot: Bot, fake: FakeBotAPI) -> None:
    """deleteWebhook(drop_pending_updates=True) empties the queue."""
    fake.send_message(USER, "old")
    assert (await bot.get_webhook_info()).pending_update_count == 1
    assert await bot.delete_webhook(drop_pending_updates=True)
    assert fake.pending_updates() == 0


class WebhookReceiver:
    """A tiny aiohttp server standing in for a bot's webhook: it records every request and
    answers each with the next status of ``statuses`` (then 200)."""

    def __init__(self, statuses: list[int] | None = None) -> None:
        self.statuses = list(statuses or [])
        self.requests: list[tuple[dict, str | None, str]] = []  # (update, secret, content type)
        self.url = ""
        self._runner: aiohttp.web.AppRunner | None = None

    async def _handle(self, request: aiohttp.web.Request) -> aiohttp.web.Response:
        self.requests.append(
            (
                await request.json(),
                request.headers.get("X-Telegram-Bot-Api-Secret-Token"),
                request.headers.get("Content-Type", ""),
            )
        )
        status = self.statuses.pop(0) if self.statuses else 200
        return aiohttp.web.Response(status=status)

    async def __aenter__(self) -> WebhookReceiver:
        app = aiohttp.web.Application()
        app.router.add_post("/hook", self._handle)
        self._runner = aiohttp.web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        await aiohttp.web.TCPSite(self._runner, "127.0.0.1", 0).start()
        self.url = f"http://127.0.0.1:{self._runner.addresses[0][1]}/hook"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._runner is not None
        await self._runner.cleanup()


async def test_webhook_delivers_each_update_in_order_with_the_secret(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """After setWebhook, updates (queued before and after) are POSTed as JSON, in order, with
    the secret token header; each leaves the queue once answered 2xx; getUpdates is 409."""
    fake.send_message(USER, "queued before")
    async with WebhookReceiver() as hook:
        assert await bot.set_webhook(
            hook.url, secret_token="s3cret_-X", allowed_updates=["message"]
        )
        fake.send_message(USER, "after")
        await fake.wait_for(lambda: len(hook.requests) == 2)
        assert [u["message"]["text"] for u, _, _ in hook.requests] == ["queued before", "after"]
        assert {(secret, ctype) for _, secret, ctype in hook.requests} == {
            ("s3cret_-X", "application/json")
        }
        await fake.wait_for(lambda: fake.pending_updates() == 0)
        info = await bot.get_webhook_info()
        assert (info.url, info.pending_update_count, info.last_error_message) == (hook.url, 0, None)
        with pytest.raises(Conflict):
            await bot.get_updates(timeout=0)


async def test_webhook_retries_an_update_until_it_is_answered_2xx(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """A 403 (or any non-2xx) leaves the update queued: getWebhookInfo shows it pending with the
    last error, and it is POSTed again until a 2xx; the next update waits its turn."""
    async with WebhookReceiver(statuses=[403, 500]) as hook:
        fake.webhook_retry_seconds = (60.0, 60.0)  # the test sets the webhook again to retry
        first = fake.send_message(USER, "one")
        fake.send_message(USER, "two")
        await bot.set_webhook(hook.url, secret_token="abc")
        await fake.wait_for(lambda: fake.last_webhook_error is not None)
        info = await bot.get_webhook_info()
        assert info.pending_update_count == 2
        assert info.last_error_message == "Wrong response from the webhook: 403 Forbidden"
        assert info.last_error_date is not None
        await bot.set_webhook(hook.url, secret_token="abc")  # retried at once
        await fake.wait_for(lambda: len(hook.requests) == 2)
        await fake.wait_for(lambda: "500 Internal" in fake.last_webhook_error[1])
        assert (await bot.get_webhook_info()).pending_update_count == 2
        fake.webhook_retry_seconds = (0.01, 0.01)
        await bot.set_webhook(hook.url, secret_token="abc")
        await fake.wait_for(lambda: len(hook.requests) == 4)
        assert [u["message"]["text"] for u, _, _ in hook.requests] == ["one", "one", "one", "two"]
        assert [status for _, status in fake.webhook_deliveries] == [403, 500, 200, 200]
        assert fake.webhook_deliveries[0][0] == first["update_id"]
        await fake.wait_for(lambda: fake.pending_updates() == 0)


async def test_webhook_unreachable_then_removed(bot: Bot, fake: FakeBotAPI) -> None:
    """Nobody listening: the update stays pending with "Connection refused"; deleteWebhook
    stops the deliveries and getUpdates gets the update."""
    fake.webhook_retry_seconds = (0.01, 0.05)
    async with WebhookReceiver() as hook:
        url = hook.url
    await bot.set_webhook(url, secret_token="abc")
    fake.send_message(USER, "lost?")
    await fake.wait_for(lambda: len(fake.webhook_deliveries) >= 2)
    info = await bot.get_webhook_info()
    assert (info.pending_update_count, info.last_error_message) == (1, "Connection refused")
    assert await bot.delete_webhook()
    updates = await bot.get_updates(timeout=0)
    assert [u.message.text for u in updates] == ["lost?"]


async def test_set_webhook_refuses_a_malformed_secret(bot: Bot, fake: FakeBotAPI) -> None:
    """secret_token allows only A-Z, a-z, 0-9, _ and - (Bot API, setWebhook)."""
    with pytest.raises(BadRequest):
        await bot.set_webhook("https://example.org/hook", secret_token="no spaces")
    assert fake.webhook_url == ""


# -- sending and editing ----------------------------------------------------------------------


async def test_send_message_parses_html_and_keeps_the_raw_text(bot: Bot, fake: FakeBotAPI) -> None:
    """The Message has the text without tags, UTF-16 entities, and the echoed keyboard."""
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a:1")]])
    html = "  <b>Ερώτηση</b> 😀 &lt;1&gt; &amp; <i>done</i>\n"
    sent = await bot.send_message(GROUP, html, parse_mode="HTML", reply_markup=keyboard)
    assert sent.text == "Ερώτηση 😀 <1> & done"
    assert [(e.type, e.offset, e.length) for e in sent.entities] == [
        ("bold", 0, 7),
        ("italic", utf16_len("Ερώτηση 😀 <1> & "), 4),
    ]
    assert sent.text_html == "<b>Ερώτηση</b> 😀 &lt;1&gt; &amp; <i>done</i>"
    assert sent.reply_markup == keyboard
    assert fake.raw_text(GROUP, sent.message_id) == html
    assert fake.last_bot_message(GROUP)["reply_markup"]["inline_keyboard"][0][0]["text"] == "A"


async def test_message_ids_count_per_chat_and_replies(bot: Bot, fake: FakeBotAPI) -> None:
    """Users' and the bot's messages share a per-chat message_id sequence; replies resolve."""
    fake.send_message(USER, "question?", chat_id=GROUP)
    first = await bot.send_message(GROUP, "one", reply_to_message_id=1)
    assert (first.message_id, first.reply_to_message.text) == (2, "question?")
    with pytest.raises(BadRequest, match="Message to be replied not found"):
        await bot.send_message(GROUP, "x", reply_to_message_id=99)
    assert [m["message_id"] for m in fake.messages(GROUP)] == [1, 2]


@pytest.mark.parametrize(
    ("html", "text", "entities"),
    [
        (
            "<b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><ins>n</ins><s>s</s>",
            "bsieuns",
            ["bold", "bold", "italic", "italic", "underline", "underline", "strikethrough"],
        ),
        (
            "<strike>s</strike><del>d</del><tg-spoiler>t</tg-spoiler>",
            "sdt",
            ["strikethrough", "strikethrough", "spoiler"],
        ),
        (
            '<span class="tg-spoiler">x</span><a href="https://example.org/?a=1&amp;b=2">l</a>',
            "xl",
            ["spoiler", "text_link"],
        ),
        (
            '<code>c</code><pre>p</pre><pre><code class="language-python">x = 1</code></pre>',
            "cpx = 1",
            ["code", "pre", "pre"],
        ),
        (
            "<blockquote>q</blockquote><blockquote expandable>e</blockquote><B>caps</B>",
            "qecaps",
            ["blockquote", "expandable_blockquote", "bold"],
        ),
        (
            '<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji> &#128512; &#x1F600; &quot;',
            '👍 😀 😀 "',
            ["custom_emoji"],
        ),
    ],
)
async def test_valid_html_is_accepted(bot: Bot, html: str, text: str, entities: list[str]) -> None:
    """Every tag and entity of the Bot API's HTML style is accepted: the message's text is the
    markup's text, each tag an entity of its kind (Bot API, "HTML style")."""
    message = await bot.send_message(GROUP, html, parse_mode="HTML")
    assert message.text == text
    assert [entity.type for entity in message.entities] == entities


@pytest.mark.parametrize(
    ("html", "description"),
    [
        ("<foo>x</foo>", 'Unsupported start tag "foo" at byte offset 0'),
        ("é <br/>", 'Unsupported start tag "br/" at byte offset 3'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("2 < 3", 'Unsupported start tag "" at byte offset 2'),
        ("x <b", "Unclosed start tag at byte offset 2"),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("Q&A", "Character entity expected at byte offset 1"),
    ],
)
async def test_invalid_html_is_rejected(
    bot: Bot, fake: FakeBotAPI, html: str, description: str
) -> None:
    """Malformed HTML is a BadRequest "can't parse entities" with a UTF-8 byte offset."""
    with pytest.raises(BadRequest) as caught:
        await bot.send_message(GROUP, html, parse_mode="HTML")
    raw = fake.calls[-1].response["description"]
    assert raw.startswith(f"Bad Request: can't parse entities: {description}")
    assert caught.value.message == ptb_message(raw)


async def test_text_without_parse_mode_is_literal(bot: Bot) -> None:
    """Without parse_mode, tags and "&" are just characters."""
    assert (await bot.send_message(GROUP, "<b>Q&A</b>")).text == "<b>Q&A</b>"


async def test_text_limits_count_utf16_units_after_parsing(bot: Bot, fake: FakeBotAPI) -> None:
    """Text must be 1-4096 UTF-16 units after entity parsing and trimming."""
    assert await bot.send_message(GROUP, "😀" * 2048)  # 4096 units
    assert await bot.send_message(GROUP, "<b>" + "a" * 4096 + "</b>", parse_mode="HTML")
    with pytest.raises(BadRequest) as caught:
        await bot.send_message(GROUP, "😀" * 2048 + "a")
    assert caught.value.message == "Message is too long"
    for empty in (" \n ", "<b></b>"):
        with pytest.raises(BadRequest) as caught:
            await bot.send_message(GROUP, empty, parse_mode="HTML")
        assert caught.value.message == "Message text is empty"


@pytest.mark.parametrize(
    ("button", "description"),
    [
        ({"text": "x", "callback_data": "é" * 33}, "Bad Request: BUTTON_DATA_INVALID"),
        ({"text": "x", "callback_data": ""}, "Bad Request: BUTTON_DATA_INVALID"),
        ({"text": "x", "url": "ftp://example.org"}, "Bad Request: BUTTON_URL_INVALID"),
        (
            {"text": "x", "url": "https://a", "callback_data": "a"},
            "Bad Request: BUTTON_TYPE_INVALID",
        ),
        ({"text": "x"}, "Bad Request: text buttons are unallowed in the inline keyboard"),
        ({"text": "", "callback_data": "a"}, BUTTON_TEXT_EMPTY),
    ],
)
async def test_invalid_inline_buttons_are_rejected(
    bot: Bot, fake: FakeBotAPI, button: dict, description: str
) -> None:
    """callback_data is 1-64 bytes, urls are http(s)/tg, one action and a text per button."""
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(**button)]])
    with pytest.raises(BadRequest) as caught:
        await bot.send_message(GROUP, "q", reply_markup=markup)
    assert fake.calls[-1].response["description"] == description
    assert caught.value.message == ptb_message(description)


async def test_callback_data_of_64_bytes_is_fine(bot: Bot) -> None:
    """32 two-byte characters are exactly 64 bytes."""
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="é" * 32)]])
    assert await bot.send_message(GROUP, "q", reply_markup=markup)


def grid(buttons: int, per_row: int = 8) -> InlineKeyboardMarkup:
    """An inline keyboard of ``buttons`` callback buttons, ``per_row`` to a row."""
    flat = [InlineKeyboardButton(str(n), callback_data=str(n)) for n in range(buttons)]
    return InlineKeyboardMarkup([flat[i : i + per_row] for i in range(0, buttons, per_row)])


async def test_an_inline_keyboard_has_at_most_100_buttons(bot: Bot, fake: FakeBotAPI) -> None:
    """100 buttons in all are fine; 101 are "reply markup is too long", for sends and edits."""
    sent = await bot.send_message(GROUP, "q", reply_markup=grid(100))
    assert sum(len(row) for row in sent.reply_markup.inline_keyboard) == 100
    with pytest.raises(BadRequest) as caught:
        await bot.send_message(GROUP, "q", reply_markup=grid(101))
    assert fake.calls[-1].response["description"] == MARKUP_TOO_LONG
    assert caught.value.message == ptb_message(MARKUP_TOO_LONG)
    with pytest.raises(BadRequest, match=r"^Reply markup is too long$"):
        await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=grid(101, 1))
    assert len(fake.message(GROUP, sent.message_id)["reply_markup"]["inline_keyboard"]) == 13


async def test_edited_text_is_limited_too(bot: Bot, fake: FakeBotAPI) -> None:
    """editMessageText applies the 4096 UTF-16 units rule; the message stays as it was."""
    sent = await bot.send_message(GROUP, "short")
    with pytest.raises(BadRequest, match=r"^Message is too long$"):
        await bot.edit_message_text("😀" * 2048 + "a", GROUP, sent.message_id)
    assert fake.message(GROUP, sent.message_id)["text"] == "short"
    assert await bot.edit_message_text("😀" * 2048, GROUP, sent.message_id)


async def test_unknown_chat_blocked_user_and_unstarted_user(bot: Bot, fake: FakeBotAPI) -> None:
    """chat not found for strangers; 403 before /start and after the user blocks the bot."""
    with pytest.raises(BadRequest, match="Chat not found"):
        await bot.send_message(-5, "x")
    with pytest.raises(Forbidden, match="can't initiate conversation"):
        await bot.send_message(USER, "x")
    await open_private_chat(fake, bot)
    assert await bot.send_message(USER, "now it works")
    fake.block(USER)
    with pytest.raises(Forbidden, match="blocked by the user"):
        await bot.send_message(USER, "x")


async def test_a_blocked_user_cannot_be_edited_to_but_taps_can_be_answered(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """After a block, sends and edits in the private chat are 403; answerCallbackQuery works."""
    await open_private_chat(fake, bot)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    sent = await bot.send_message(USER, "Q", reply_markup=keyboard)
    query_id = fake.tap(USER, USER, sent.message_id, "a")["callback_query"]["id"]
    fake.block(USER)
    attempts = [
        lambda: bot.send_message(USER, "x"),
        lambda: bot.edit_message_text("Q2", USER, sent.message_id),
        lambda: bot.edit_message_reply_markup(USER, sent.message_id),
    ]
    for attempt in attempts:
        with pytest.raises(Forbidden) as caught:
            await attempt()
        assert caught.value.message == BLOCKED
        assert fake.calls[-1].status == 403
    assert fake.message(USER, sent.message_id)["text"] == "Q"
    assert await bot.answer_callback_query(query_id, text="Noted")
    fake.block(USER, blocked=False)
    assert await bot.edit_message_text("Q2", USER, sent.message_id)


async def test_edits_and_not_modified(bot: Bot, fake: FakeBotAPI) -> None:
    """Edits change the stored message; an identical edit is "message is not modified"."""
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    sent = await bot.send_message(GROUP, "<b>Q1</b>", parse_mode="HTML", reply_markup=keyboard)
    with pytest.raises(BadRequest) as caught:
        await bot.edit_message_text(
            "<b>Q1</b>", GROUP, sent.message_id, parse_mode="HTML", reply_markup=keyboard
        )
    assert fake.calls[-1].response["description"] == NOT_MODIFIED
    assert caught.value.message == ptb_message(NOT_MODIFIED)
    # Omitting reply_markup removes the keyboard, so the same text is a modification.
    edited = await bot.edit_message_text("<b>Q1</b>", GROUP, sent.message_id, parse_mode="HTML")
    assert edited.reply_markup is None and edited.edit_date is not None
    assert "reply_markup" not in fake.message(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match="Message is not modified"):
        await bot.edit_message_reply_markup(GROUP, sent.message_id)
    await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=keyboard)
    await bot.edit_message_text(
        "<i>Q1</i>", GROUP, sent.message_id, parse_mode="HTML", reply_markup=keyboard
    )  # other entities: modified
    assert fake.message(GROUP, sent.message_id)["entities"][0]["type"] == "italic"
    assert fake.raw_text(GROUP, sent.message_id) == "<i>Q1</i>"


async def test_edit_errors(bot: Bot, fake: FakeBotAPI) -> None:
    """Missing messages, users' messages and inline messages cannot be edited."""
    fake.send_message(USER, "mine", chat_id=GROUP)
    with pytest.raises(BadRequest, match=r"^Message to edit not found$"):
        await bot.edit_message_text("x", GROUP, 99)
    with pytest.raises(BadRequest, match=r"^Message can't be edited$"):
        await bot.edit_message_text("x", GROUP, 1)
    with pytest.raises(BadRequest):
        await bot.edit_message_text("x", inline_message_id="abc")


async def test_delete_message(bot: Bot, fake: FakeBotAPI) -> None:
    """The bot deletes its own messages; a second delete finds nothing."""
    sent = await bot.send_message(GROUP, "bye")
    assert await bot.delete_message(GROUP, sent.message_id)
    assert fake.messages(GROUP) == []
    with pytest.raises(BadRequest, match="Message to delete not found"):
        await bot.delete_message(GROUP, sent.message_id)


# -- callback queries -------------------------------------------------------------------------


async def test_tap_and_answer_callback_query(bot: Bot, fake: FakeBotAPI, clock: FakeClock) -> None:
    """A tap carries the bot's message; it is answered once, within query_ttl seconds."""
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="ans:a")]])
    sent = await bot.send_message(GROUP, "Q", reply_markup=keyboard)
    fake.tap(USER, GROUP, sent.message_id, "ans:a")
    (update,) = await bot.get_updates()
    query = update.callback_query
    assert (query.data, query.from_user.id, query.message.message_id) == ("ans:a", USER, 1)
    assert query.message.reply_markup == keyboard and query.chat_instance
    with pytest.raises(BadRequest) as caught:
        await bot.answer_callback_query(query.id, text="x" * 201)
    assert caught.value.message == ptb_message("Bad Request: MESSAGE_TOO_LONG")
    assert await bot.answer_callback_query(query.id, text="Correct! ✅", show_alert=True)
    assert fake.callback_answers[query.id]["show_alert"] is True
    with pytest.raises(BadRequest) as caught:
        await bot.answer_callback_query(query.id)
    assert caught.value.message == ptb_message(QUERY_TOO_OLD)
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query("123")
    late = fake.tap(7, GROUP, sent.message_id, "ans:a")["callback_query"]["id"]
    clock.now += 15.5
    with pytest.raises(BadRequest, match="Query is too old"):
        await bot.answer_callback_query(late)
    with pytest.raises(ValueError, match="no button"):
        fake.tap(USER, GROUP, sent.message_id, "ans:z")


# -- fault injection --------------------------------------------------------------------------


async def test_fail_next_maps_to_ptb_exceptions(
    bot: Bot, fake: FakeBotAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Injected 429/409/502 answers surface as RetryAfter, Conflict and NetworkError."""
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    fake.fail_next(
        "sendMessage", error_code=429, description="Too Many Requests: retry after 3", retry_after=3
    )
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(GROUP, "x")
    assert caught.value.retry_after == dtm.timedelta(seconds=3)
    fake.fail_next("getUpdates", error_code=409, description=CONFLICT_POLLING)
    with pytest.raises(Conflict):
        await bot.get_updates()
    fake.fail_next("sendMessage", error_code=502, description="Bad Gateway", times=2)
    for _ in range(2):
        with pytest.raises(NetworkError, match="Bad Gateway"):
            await bot.send_message(GROUP, "x")
    assert await bot.send_message(GROUP, "x")


async def test_a_front_end_failure_is_an_html_page_not_carried_out(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """``front_end=True``: a 502 answered as Telegram's front end answers it, an HTML page (PTB
    raises NetworkError naming the status and the unparsable page); nothing was sent."""
    fake.fail_next("sendMessage", error_code=502, description="Bad Gateway", front_end=True)
    async with aiohttp.ClientSession() as http:
        async with http.post(
            f"{fake.base_url}{fake.token}/sendMessage", json={"chat_id": GROUP, "text": "x"}
        ) as response:
            assert (response.status, response.content_type) == (502, "text/html")
            assert "<h1>502 Bad Gateway</h1>" in await response.text()
    fake.fail_next("sendMessage", error_code=502, description="Bad Gateway", front_end=True)
    with pytest.raises(NetworkError, match=r"Bad Gateway \(502\)\. Parsing the server response"):
        await bot.send_message(GROUP, "x")
    assert [c.status for c in fake.calls_to("sendMessage")] == [502, 502]
    assert await bot.send_message(GROUP, "x")


async def test_group_flood_limit(
    bot: Bot, fake: FakeBotAPI, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond group_limit_per_minute sends+edits in 60 s, a group answers 429 retry_after."""
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    fake.group_limit_per_minute = 2
    first = await bot.send_message(GROUP, "1")
    clock.now += 10
    await bot.edit_message_text("1b", GROUP, first.message_id)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(GROUP, "3")
    assert caught.value.retry_after == dtm.timedelta(seconds=50)
    assert fake.calls[-1].response["description"] == "Too Many Requests: retry after 50"
    clock.now += 50
    await bot.send_message(GROUP, "3")
    assert fake.bot_messages_in_window(GROUP) == 2
    assert fake.bot_messages_in_window(GROUP, seconds=120) == 3


async def test_bot_flood_limit_counts_every_chat_and_paid_broadcasts_apart(
    bot: Bot, fake: FakeBotAPI, clock: FakeClock
) -> None:
    """Beyond bot_limit_per_second sends+edits in a second, to any chats, the bot gets 429
    retry_after 1; sends with allow_paid_broadcast do not count there and have their own,
    higher limit (paid_limit_per_second); a second later the free ones go again."""
    fake.bot_limit_per_second, fake.paid_limit_per_second = 3, 4
    fake.add_group(-100777, "Other")
    first = await bot.send_message(GROUP, "1")
    await bot.send_message(-100777, "2")
    await bot.edit_message_text("1b", GROUP, first.message_id)
    with pytest.raises(RetryAfter):
        await bot.send_message(-100777, "4")
    assert fake.calls[-1].response["description"] == "Too Many Requests: retry after 1"
    for n in range(4):  # paid: beyond the free limit, up to their own
        await bot.send_message(GROUP, f"paid {n}", allow_paid_broadcast=True)
    with pytest.raises(RetryAfter):
        await bot.send_message(GROUP, "paid 5", allow_paid_broadcast=True)
    await bot.get_chat(GROUP)  # no send: not counted, not refused
    clock.now += 1
    await bot.send_message(-100777, "4")


async def test_open_private_lets_the_bot_write_without_an_update(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """A user's private chat opened by open_private takes the bot's messages at once (403
    before), and no update is queued for the bot."""
    fake.add_user(55, "Eve")
    with pytest.raises(Forbidden):
        await bot.send_message(55, "hi")
    assert fake.open_private(55)["type"] == "private"
    await bot.send_message(55, "hi")
    assert await bot.get_updates(timeout=0) == ()


async def test_delay_slows_calls_but_not_get_updates(bot: Bot, fake: FakeBotAPI) -> None:
    """delay() adds latency to each call except getUpdates: the server waits it out before
    answering."""
    waits: list[float] = []

    async def wait(seconds: float) -> None:
        waits.append(seconds)

    fake.sleep = wait
    fake.delay(0.2)
    await bot.get_updates()
    assert waits == []
    await bot.send_message(GROUP, "slow")
    assert waits == [0.2]
    fake.delay(0.3, methods={"getUpdates"})
    await bot.get_updates()
    await bot.send_message(GROUP, "fast")
    assert waits == [0.2, 0.3]


# -- chats, members, commands -----------------------------------------------------------------


async def test_chat_members_and_administrators(bot: Bot) -> None:
    """Statuses follow add_group: the first admin is the creator, then admins, members, left."""
    chat = await bot.get_chat(GROUP)
    assert (chat.type, chat.title) == ("supergroup", "Quiz night")
    assert (await bot.get_chat_member(GROUP, 7)).status == "creator"
    assert (await bot.get_chat_member(GROUP, 1000)).status == "administrator"
    assert (await bot.get_chat_member(GROUP, USER)).status == "member"
    admins = await bot.get_chat_administrators(GROUP)
    assert [a.user.id for a in admins] == [7, 1000]
    assert await bot.send_chat_action(GROUP, "typing")
    with pytest.raises(BadRequest, match="Wrong parameter action"):
        await bot.send_chat_action(GROUP, "dancing")


async def test_commands_per_scope_and_language(bot: Bot, fake: FakeBotAPI) -> None:
    """setMyCommands stores per (scope, language_code); getMyCommands reads them back."""
    from telegram import BotCommand, BotCommandScopeAllPrivateChats

    await bot.set_my_commands([BotCommand("start", "Start")])
    await bot.set_my_commands(
        [BotCommand("quiz", "Κουίζ")], scope=BotCommandScopeAllPrivateChats(), language_code="el"
    )
    assert fake.commands[("default", "")] == [{"command": "start", "description": "Start"}]
    assert fake.commands[("all_private_chats", "el")][0]["command"] == "quiz"
    got = await bot.get_my_commands(scope=BotCommandScopeAllPrivateChats(), language_code="el")
    assert [c.command for c in got] == ["quiz"]
    assert await bot.delete_my_commands()
    assert ("default", "") not in fake.commands
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await bot.set_my_commands([BotCommand("Bad-Name", "x")])


# -- a real Application -----------------------------------------------------------------------


async def test_application_polling_round_trip(fake: FakeBotAPI) -> None:
    """PTB's Application polls the fake, handles a command, a text and a tap, and replies."""

    async def cmd_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Offer a button."""
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Go", callback_data="go")]])
        await update.message.reply_html("<b>Welcome</b>", reply_markup=keyboard)

    async def on_text(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Echo in capitals."""
        await update.message.reply_text(update.message.text.upper())

    async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Answer the query and edit the message."""
        await update.callback_query.answer("Going")
        await update.callback_query.edit_message_text("Gone")

    app = ApplicationBuilder().token(fake.token).base_url(fake.base_url).build()
    app.add_handler(CommandHandler("start", cmd_start))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, on_text))
    app.add_handler(CallbackQueryHandler(on_tap))
    async with app:
        await app.start()
        await app.updater.start_polling(poll_interval=0, timeout=1)
        fake.send_message(USER, "/start")
        await fake.wait_for(lambda: fake.calls_to("sendMessage"))
        welcome = fake.last_bot_message(USER)
        assert welcome["text"] == "Welcome"
        fake.send_message(USER, "hello")
        await fake.wait_for(lambda: fake.last_bot_message(USER)["text"] == "HELLO")
        update = fake.tap(USER, USER, welcome["message_id"], "go")
        await fake.wait_for(lambda: fake.message(USER, welcome["message_id"])["text"] == "Gone")
        assert fake.callback_answers[update["callback_query"]["id"]]["text"] == "Going"
        await app.updater.stop()
        await app.stop()
    assert fake.pending_updates() == 0
    assert all(call.ok for call in fake.calls if call.method != "getUpdates")


async def test_other_user_actions(bot: Bot, fake: FakeBotAPI) -> None:
    """Stickers, edited messages and channel posts arrive as the matching update kinds."""
    fake.add_group(-1009, "News", type="channel")
    fake.send_message(USER, "/hlep")
    fake.send_sticker(USER)
    fake.edit_user_message(USER, 1, "/help me")
    fake.post_channel(-1009, "breaking")
    _, sticker, edited, post = await bot.get_updates()
    assert sticker.message.sticker.width == 512 and sticker.message.text is None
    assert (edited.edited_message.text, edited.edited_message.message_id) == ("/help me", 1)
    assert edited.edited_message.entities[0].length == len("/help")
    with pytest.raises(ValueError, match="no text message 2"):
        fake.edit_user_message(USER, 2, "a sticker has no text")
    assert post.channel_post.chat.type == "channel" and post.channel_post.text == "breaking"
    private = await bot.get_chat(USER)
    assert (private.type, private.username) == ("private", "ada")


async def test_wait_for_times_out_with_a_dump_of_the_calls(bot: Bot, fake: FakeBotAPI) -> None:
    """A failed wait names the condition's timeout and lists the last calls."""
    with pytest.raises(BadRequest):
        await bot.send_message(GROUP, "")
    with pytest.raises(AssertionError, match=r"(?s)within 0.05 s.*sendMessage 400"):
        await fake.wait_for(lambda: False, timeout=0.05)


async def test_wait_for_checks_on_signals_only(bot: Bot, fake: FakeBotAPI) -> None:
    """wait_for does not poll: its predicate is checked once, then again only when the fake
    records something (here a request it answers) or a test signals."""
    checks = 0

    def answered() -> bool:
        nonlocal checks
        checks += 1
        return bool(fake.calls_to("getChat"))

    wait = asyncio.create_task(fake.wait_for(answered))
    for _ in range(20):  # let the loop run: a polling wait would check again meanwhile
        await asyncio.sleep(0)
    assert checks == 1
    fake.signal()
    for _ in range(5):
        await asyncio.sleep(0)
    assert checks == 2
    await bot.get_chat(GROUP)
    assert await wait is True
    assert checks == 3


def test_parse_html_offsets_are_utf16() -> None:
    """Entity offsets and lengths count UTF-16 code units, so an emoji counts two."""
    text, entities = parse_html("😀 <b>x</b> <a href='tg://user?id=1'>u</a>")
    assert text == "😀 x u"
    assert entities == [
        {"type": "bold", "offset": 3, "length": 1},
        {"type": "text_link", "offset": 5, "length": 1, "url": "tg://user?id=1"},
    ]
    assert parse_html("Q&A", strict_ampersand=False) == ("Q&A", [])


# -- what real Telegram does to a bot ---------------------------------------------------------

OLD_GROUP = -4962287234
NEW_SUPERGROUP = -1002855950299
FORUM = -1003000000001
CHANNEL = -1009


async def test_group_upgraded_to_supergroup(
    bot: Bot, fake: FakeBotAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After migrate_group, calls naming the old id are ChatMigrated; the new chat works."""
    fake.add_group(OLD_GROUP, "Basic quiz", type="group", admins=[7], members=[USER])
    old_message = await bot.send_message(OLD_GROUP, "before")
    to_update, from_update = fake.migrate_group(OLD_GROUP, NEW_SUPERGROUP)
    to, came = (u.message for u in await bot.get_updates())
    assert (to.chat.id, to.chat.type, to.migrate_to_chat_id) == (OLD_GROUP, "group", NEW_SUPERGROUP)
    assert (came.chat.id, came.chat.type) == (NEW_SUPERGROUP, "supergroup")
    assert (came.migrate_from_chat_id, came.message_id, came.from_user.id) == (OLD_GROUP, 1, 7)
    assert to_update["message"]["message_id"] == old_message.message_id + 1
    attempts = [
        lambda: bot.send_message(OLD_GROUP, "x"),
        lambda: bot.edit_message_text("y", OLD_GROUP, old_message.message_id),
        lambda: bot.delete_message(OLD_GROUP, old_message.message_id),
        lambda: bot.get_chat_member(OLD_GROUP, USER),
        lambda: bot.send_chat_action(OLD_GROUP, "typing"),
    ]
    for attempt in attempts:
        with pytest.raises(ChatMigrated) as caught:
            await attempt()
        assert caught.value.new_chat_id == NEW_SUPERGROUP
        assert fake.calls[-1].response == {
            "ok": False,
            "error_code": 400,
            "description": GROUP_MIGRATED,
            "parameters": {"migrate_to_chat_id": NEW_SUPERGROUP},
        }
    assert fake.message(OLD_GROUP, old_message.message_id)["text"] == "before"
    chat = await bot.get_chat(NEW_SUPERGROUP)
    assert (chat.type, chat.title) == ("supergroup", "Basic quiz")
    assert (await bot.get_chat_member(NEW_SUPERGROUP, 7)).status == "creator"
    assert (await bot.get_chat_member(NEW_SUPERGROUP, USER)).status == "member"
    assert (await bot.send_message(NEW_SUPERGROUP, "after")).message_id == 2
    update = fake.send_message(USER, "/play", chat_id=NEW_SUPERGROUP)
    assert update["message"]["chat"]["id"] == NEW_SUPERGROUP
    assert from_update["message"]["migrate_from_chat_id"] == OLD_GROUP
    with pytest.raises(ValueError, match="upgraded"):
        fake.send_message(USER, "/play", chat_id=OLD_GROUP)
    with pytest.raises(ValueError, match="basic group"):
        fake.migrate_group(GROUP, -1000000000099)  # already a supergroup


async def test_forum_topics(bot: Bot, fake: FakeBotAPI) -> None:
    """Messages in a topic carry its thread id; General has none; unknown threads are 400."""
    fake.add_group(FORUM, "Quiz forum", admins=[7], members=[USER], is_forum=True)
    assert (await bot.get_chat(FORUM)).is_forum is True
    thread = fake.create_topic(FORUM, "Round 1")
    assert thread == 2  # message 1 is the chat's creation, the General topic's id
    fake.send_message(USER, "/play", chat_id=FORUM, message_thread_id=thread)
    fake.send_message(USER, "in general", chat_id=FORUM)
    created, in_topic, in_general = (u.message for u in await bot.get_updates())
    assert created.forum_topic_created.name == "Round 1" and created.message_id == thread
    assert (in_topic.message_thread_id, in_topic.is_topic_message) == (thread, True)
    assert in_topic.reply_to_message.forum_topic_created.name == "Round 1"
    assert in_topic.entities[0].type == "bot_command"
    assert (in_general.message_thread_id, in_general.is_topic_message) == (None, None)
    sent = await bot.send_message(FORUM, "Q1", message_thread_id=thread)
    assert (sent.message_thread_id, sent.is_topic_message) == (thread, True)
    general = await bot.send_message(FORUM, "Scores")
    assert general.message_thread_id is None
    for wrong in (99, 1, in_general.message_id):
        with pytest.raises(BadRequest) as caught:
            await bot.send_message(FORUM, "x", message_thread_id=wrong)
        assert fake.calls[-1].response["description"] == THREAD_NOT_FOUND
        assert caught.value.message == "Message thread not found"
    with pytest.raises(BadRequest, match=r"^Message thread not found$"):
        await bot.send_message(GROUP, "x", message_thread_id=thread)  # not a forum
    assert [m["message_id"] for m in fake.topic_messages(FORUM, thread)] == [
        thread,
        in_topic.message_id,
        sent.message_id,
    ]
    assert [m.get("text") for m in fake.topic_messages(FORUM, None)] == ["in general", "Scores"]
    assert len(fake.messages(FORUM)) == 5
    with pytest.raises(ValueError, match="no topic 99"):
        fake.send_message(USER, "x", chat_id=FORUM, message_thread_id=99)
    with pytest.raises(ValueError, match="not a forum"):
        fake.create_topic(GROUP, "x")


@pytest.mark.parametrize(
    ("chat_type", "status", "description"),
    [
        ("supergroup", "kicked", "Forbidden: bot was kicked from the supergroup chat"),
        ("supergroup", "left", "Forbidden: bot is not a member of the supergroup chat"),
        ("group", "kicked", "Forbidden: bot was kicked from the group chat"),
        ("group", "left", "Forbidden: bot is not a member of the group chat"),
    ],
)
async def test_bot_removed_from_a_group_and_added_back(
    bot: Bot, fake: FakeBotAPI, chat_type: str, status: str, description: str
) -> None:
    """remove_bot: a my_chat_member update, then 403 for every call; add_bot undoes it."""
    chat_id = -1005550001 if chat_type == "supergroup" else -5550001
    fake.add_group(chat_id, "Pub quiz", type=chat_type, admins=[7, fake.bot_id], members=[USER])
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    sent = await bot.send_message(chat_id, "Q", reply_markup=keyboard)
    query_id = fake.tap(USER, chat_id, sent.message_id, "a")["callback_query"]["id"]
    pushed = fake.remove_bot(chat_id, by=7, status=status)
    change = (await bot.get_updates())[-1].my_chat_member
    assert (change.chat.id, change.from_user.id) == (chat_id, 7)
    assert (change.old_chat_member.status, change.new_chat_member.status) == (
        "administrator",
        status,
    )
    assert change.new_chat_member.user.id == fake.bot_id
    new_member = pushed["my_chat_member"]["new_chat_member"]
    assert new_member.get("until_date") == (0 if status == "kicked" else None)
    attempts = [
        lambda: bot.send_message(chat_id, "x"),
        lambda: bot.edit_message_text("y", chat_id, sent.message_id),
        lambda: bot.delete_message(chat_id, sent.message_id),
        lambda: bot.get_chat(chat_id),
        lambda: bot.get_chat_member(chat_id, USER),
    ]
    for attempt in attempts:
        with pytest.raises(Forbidden) as caught:
            await attempt()
        assert caught.value.message == description
        assert fake.calls[-1].status == 403
    assert await bot.answer_callback_query(query_id)  # no chat_id: unaffected
    with pytest.raises(ValueError, match="not in chat"):
        fake.send_message(USER, "anyone?", chat_id=chat_id)
    fake.add_bot(chat_id, by=USER)
    back, joined = (u for u in await bot.get_updates(offset=-2))
    assert (
        back.my_chat_member.old_chat_member.status,
        back.my_chat_member.new_chat_member.status,
    ) == (status, "member")
    assert [u.id for u in joined.message.new_chat_members] == [fake.bot_id]
    assert await bot.send_message(chat_id, "back")
    assert (await bot.get_chat_member(chat_id, fake.bot_id)).status == "member"  # not admin now
    with pytest.raises(ValueError, match="not removed"):
        fake.add_bot(chat_id, by=USER)


async def test_channel_anonymous_admin_and_automatic_forward_senders(
    bot: Bot, fake: FakeBotAPI
) -> None:
    """Special senders use Telegram's placeholder users and set sender_chat."""
    fake.add_group(CHANNEL, "Quiz news", type="channel")
    fake.send_message(USER, "/quiz@quizbot_test_bot", chat_id=GROUP, sender_chat_id=CHANNEL)
    fake.send_as_anonymous_admin(GROUP, "/stop")
    fake.post_channel(CHANNEL, "first post")
    forwarded = fake.auto_forward(GROUP, CHANNEL, "New quiz tonight")
    as_channel, anonymous, _, automatic = (u.message for u in await bot.get_updates())
    assert (as_channel.from_user.id, as_channel.from_user.username) == (136817688, "Channel_Bot")
    assert as_channel.from_user.first_name == "Channel" and as_channel.from_user.is_bot
    assert (as_channel.sender_chat.id, as_channel.sender_chat.type) == (CHANNEL, "channel")
    assert as_channel.entities[0].length == len("/quiz@quizbot_test_bot")
    assert (anonymous.from_user.id, anonymous.from_user.username) == (
        1087968824,
        "GroupAnonymousBot",
    )
    assert anonymous.sender_chat.id == GROUP and anonymous.chat.id == GROUP
    assert anonymous.entities[0].type == "bot_command"
    assert (automatic.from_user.id, automatic.from_user.first_name) == (777000, "Telegram")
    assert automatic.sender_chat.id == CHANNEL and automatic.is_automatic_forward is True
    origin = automatic.forward_origin
    assert (origin.type, origin.chat.id, origin.message_id) == ("channel", CHANNEL, 2)
    assert [m["text"] for m in fake.messages(CHANNEL)] == ["first post", "New quiz tonight"]
    assert forwarded["message"]["chat"]["id"] == GROUP and automatic.text == "New quiz tonight"
    with pytest.raises(ValueError, match="not a channel"):
        fake.send_message(USER, "x", chat_id=GROUP, sender_chat_id=GROUP)


async def test_private_chat_flood_limit(
    bot: Bot, fake: FakeBotAPI, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More than private_limit_per_second sends+edits to one private chat in 1 s is 429."""
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    await open_private_chat(fake, bot)
    fake.add_user(8, "Cy")
    await open_private_chat(fake, bot, 8)
    fake.private_limit_per_second = 2
    first = await bot.send_message(USER, "1")
    await bot.edit_message_text("1b", USER, first.message_id)
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(USER, "2")
    assert caught.value.retry_after == dtm.timedelta(seconds=1)
    assert fake.calls[-1].response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 1",
        "parameters": {"retry_after": 1},
    }
    assert await bot.send_message(8, "another chat is fine")
    assert await bot.send_message(GROUP, "groups are counted per minute, not here")
    clock.now += 1
    assert await bot.send_message(USER, "2")


async def test_flood_injected_for_one_chat(
    bot: Bot, fake: FakeBotAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """flood(chat, N, times) answers that many calls naming the chat with 429 retry after N."""
    monkeypatch.setenv("PTB_TIMEDELTA", "true")
    fake.add_group(-1007770001, "Other", admins=[7])
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    sent = await bot.send_message(GROUP, "Q", reply_markup=keyboard)
    query_id = fake.tap(USER, GROUP, sent.message_id, "a")["callback_query"]["id"]
    fake.flood(GROUP, 7, times=3)
    for attempt in (lambda: bot.send_message(GROUP, "x"), lambda: bot.get_chat(GROUP)):
        with pytest.raises(RetryAfter) as caught:
            await attempt()
        assert caught.value.retry_after == dtm.timedelta(seconds=7)
    assert fake.calls[-1].response["description"] == "Too Many Requests: retry after 7"
    assert await bot.answer_callback_query(query_id)  # no chat_id
    assert await bot.send_message(-1007770001, "other chats are fine")
    with pytest.raises(RetryAfter):
        await bot.edit_message_text("Q2", GROUP, sent.message_id)
    assert fake.message(GROUP, sent.message_id)["text"] == "Q"
    assert await bot.edit_message_text("Q2", GROUP, sent.message_id)


async def test_message_deleted_by_a_user(bot: Bot, fake: FakeBotAPI) -> None:
    """A message an admin deleted is gone: edits find nothing, and the bot is not told."""
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    sent = await bot.send_message(GROUP, "Q", reply_markup=keyboard)
    kept = await bot.send_message(GROUP, "kept")
    fake.delete_message(GROUP, sent.message_id)
    with pytest.raises(BadRequest, match=r"^Message to edit not found$"):
        await bot.edit_message_text("Q2", GROUP, sent.message_id)
    with pytest.raises(BadRequest, match=r"^Message to edit not found$"):
        await bot.edit_message_reply_markup(GROUP, sent.message_id)
    assert [m["message_id"] for m in fake.messages(GROUP)] == [kept.message_id]
    assert fake.pending_updates() == 0
    with pytest.raises(KeyError):
        fake.delete_message(GROUP, sent.message_id)


async def test_a_callback_can_be_forged_on_any_bot_message(bot: Bot, fake: FakeBotAPI) -> None:
    """A modified client can send any callback_data for a bot message, buttons or not."""
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a:1:0")]])
    sent = await bot.send_message(GROUP, "Q", reply_markup=keyboard)
    with pytest.raises(ValueError, match="no button"):
        fake.tap(USER, GROUP, sent.message_id, "n:999")
    fake.tap(USER, GROUP, sent.message_id, "n:999", check_button=False)
    (update,) = await bot.get_updates()
    query = update.callback_query
    assert (query.data, query.from_user.id) == ("n:999", USER)
    assert (query.message.chat.id, query.message.message_id) == (GROUP, sent.message_id)
    assert query.message.reply_markup == keyboard
    assert await bot.answer_callback_query(query.id)
    mine = fake.send_message(USER, "mine", chat_id=GROUP)["message"]["message_id"]
    with pytest.raises(ValueError, match="the bot has no message"):
        fake.tap(USER, GROUP, mine, "x", check_button=False)  # only the bot's messages


# -- sendPhoto --------------------------------------------------------------------------------


def _png(width: int, height: int) -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


async def test_send_photo_uploads_checks_dimensions_and_caption(bot: Bot, fake: FakeBotAPI) -> None:
    """sendPhoto takes a multipart upload: the bytes are kept, the sizes reported; width +
    height over 10,000 px, a ratio over 20, something that is no image, or a caption over
    1,024 UTF-16 units after parsing are refused."""
    from tests.support.fakebotapi import CAPTION_TOO_LONG, PHOTO_INVALID_DIMENSIONS, PHOTO_NOT_IMAGE

    png = _png(80, 60)
    message = await bot.send_photo(GROUP, png, caption="<b>Hi</b> 😀", parse_mode="HTML")
    assert fake.photos[(GROUP, message.message_id)] == png
    assert (message.photo[-1].width, message.photo[-1].height) == (80, 60)
    assert message.caption == "Hi 😀" and message.caption_entities[0].type == "bold"
    assert await bot.send_photo(GROUP, _png(8, 8), caption="😀" * 512)  # 1,024 units
    refusals = [
        (_png(5001, 5000), {}, PHOTO_INVALID_DIMENSIONS),
        (_png(21, 1), {}, PHOTO_INVALID_DIMENSIONS),
        (b"not an image", {}, PHOTO_NOT_IMAGE),
        (png, {"caption": "😀" * 512 + "a"}, CAPTION_TOO_LONG),
    ]
    for photo, kwargs, description in refusals:
        with pytest.raises(BadRequest) as caught:
            await bot.send_photo(GROUP, photo, **kwargs)
        assert caught.value.message == ptb_message(description)
    assert await bot.send_photo(GROUP, _png(20, 1))  # a ratio of 20 is fine
