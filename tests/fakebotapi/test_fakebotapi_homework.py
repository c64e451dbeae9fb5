"""What homework relies on in the fake Bot API, as Telegram does it: getChatMember for a
membership check (members, "left" for others, 403 once the bot is out of the group), a URL
button with a deep link (sent and edited; followed, it sends /start with its payload), and
callback buttons that Telegram refuses beside a bad URL."""

from __future__ import annotations

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden

from tests.support.fakebotapi import FakeBotAPI

ADMIN, MEMBER, STRANGER, GROUP = 51, 52, 53, -1001234567001
TOKEN = "hwAbCdEfGhIjKlMnOp"


@pytest.fixture
async def bot(fake: FakeBotAPI):
    fake.add_user(ADMIN, "Ann")
    fake.add_user(MEMBER, "Bo")
    fake.add_user(STRANGER, "Cy")
    fake.add_group(GROUP, "Class", admins=[ADMIN], members=[MEMBER])
    client = Bot(fake.token, base_url=fake.base_url)
    await client.initialize()
    yield client
    await client.shutdown()


async def test_membership_and_the_bot_removed(bot: Bot, fake: FakeBotAPI):
    """A member is "member", someone never in the group "left"; after the bot is kicked,
    getChatMember about that group answers 403 as Telegram does."""
    assert (await bot.get_chat_member(GROUP, MEMBER)).status == "member"
    assert (await bot.get_chat_member(GROUP, ADMIN)).status == "creator"
    assert (await bot.get_chat_member(GROUP, STRANGER)).status == "left"
    fake.remove_bot(GROUP, by=ADMIN)
    with pytest.raises(Forbidden):
        await bot.get_chat_member(GROUP, MEMBER)


async def test_a_deep_link_url_button_is_sent_edited_and_followed(bot: Bot, fake: FakeBotAPI):
    """A URL button to t.me/<bot>?start=<payload> goes out and survives an edit; a member who
    follows it sends /start <payload> in the bot's private chat."""
    url = f"https://t.me/{fake.bot_username}?start={TOKEN}"
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Start the homework", url=url)]])
    sent = await bot.send_message(GROUP, "Homework", reply_markup=markup)
    assert (
        fake.message(GROUP, sent.message_id)["reply_markup"]["inline_keyboard"][0][0]["url"] == url
    )
    await bot.edit_message_text(
        "Homework: 1 has finished.", chat_id=GROUP, message_id=sent.message_id, reply_markup=markup
    )
    update = fake.follow_link(MEMBER, url)
    assert update["message"]["text"] == f"/start {TOKEN}"
    assert update["message"]["chat"]["id"] == MEMBER
    bad = InlineKeyboardMarkup([[InlineKeyboardButton("x", url="t.me/nothing")]])
    with pytest.raises(BadRequest):
        await bot.send_message(GROUP, "Homework", reply_markup=bad)
