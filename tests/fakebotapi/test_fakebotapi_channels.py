"""The fake Bot API's channels: the bot added as an administrator and demoted (my_chat_member),
its posts (no ``from``), taps on them by anyone, edits, members read, and Telegram's refusals
once the bot lost its rights or was removed."""

from __future__ import annotations

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden

from tests.support.fakebotapi import FakeBotAPI
from tests.support.fakebotapi.channels import MEMBER_LIST_INACCESSIBLE, NEED_ADMIN_RIGHTS

OWNER, READER, STRANGER, CHANNEL = 42, 43, 44, -1001987654321


@pytest.fixture
async def bot(fake: FakeBotAPI):
    fake.add_user(OWNER, "Olga", language_code="el")
    fake.add_user(READER, "Ravi", language_code="hi")
    fake.add_user(STRANGER, "Sam")
    client = Bot(fake.token, base_url=fake.base_url)
    await client.initialize()
    yield client
    await client.shutdown()


def _updates(fake: FakeBotAPI, kind: str) -> list[dict]:
    return [u[kind] for u in fake._updates if kind in u]


async def test_adding_the_bot_as_admin_is_a_my_chat_member_update(bot: Bot, fake: FakeBotAPI):
    """The owner adding the bot to a channel sends my_chat_member from "left" to an
    administrator who may post and edit."""
    fake.add_channel(CHANNEL, "Daily facts", owner=OWNER, subscribers=[READER])
    [change] = _updates(fake, "my_chat_member")
    assert change["chat"]["type"] == "channel" and change["from"]["id"] == OWNER
    assert change["old_chat_member"]["status"] == "left"
    new = change["new_chat_member"]
    assert new["status"] == "administrator" and new["user"]["id"] == fake.bot_id
    assert new["can_post_messages"] and new["can_edit_messages"]
    me = await bot.get_chat_member(CHANNEL, fake.bot_id)
    assert me.status == "administrator" and me.can_post_messages


async def test_posts_have_no_sender_and_taps_come_from_anyone(bot: Bot, fake: FakeBotAPI):
    """A bot's channel post has the channel as sender_chat and no from; a user who is no
    subscriber may tap its button, and the query carries the tapper and the post."""
    fake.add_channel(CHANNEL, "Daily facts", owner=OWNER, subscribers=[READER])
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="d:1:0")]])
    post = await bot.send_message(CHANNEL, "Question?", reply_markup=markup)
    assert post.from_user is None and post.sender_chat.id == CHANNEL
    assert [p["message_id"] for p in fake.channel_posts(CHANNEL)] == [post.message_id]
    update = fake.tap(STRANGER, CHANNEL, post.message_id, "d:1:0")
    query = update["callback_query"]
    assert query["from"]["id"] == STRANGER and query["message"]["chat"]["type"] == "channel"
    assert await bot.answer_callback_query(query["id"], "Recorded")
    edited = await bot.edit_message_text("Answer: A", chat_id=CHANNEL, message_id=post.message_id)
    assert edited.text == "Answer: A" and "reply_markup" not in fake.message(
        CHANNEL, post.message_id
    )


async def test_members_read_in_a_channel(bot: Bot, fake: FakeBotAPI):
    """getChatMember tells the owner, the bot, a subscriber and a stranger apart;
    getChatAdministrators lists the owner and the bot."""
    fake.add_channel(CHANNEL, "Daily facts", owner=OWNER, subscribers=[READER])
    assert (await bot.get_chat_member(CHANNEL, OWNER)).status == "creator"
    assert (await bot.get_chat_member(CHANNEL, READER)).status == "member"
    assert (await bot.get_chat_member(CHANNEL, STRANGER)).status == "left"
    admins = await bot.get_chat_administrators(CHANNEL)
    assert {a.user.id for a in admins} == {OWNER, fake.bot_id}


async def test_a_bot_without_the_right_to_post_is_refused(bot: Bot, fake: FakeBotAPI):
    """A bot made admin without can_post_messages cannot post."""
    fake.add_channel(CHANNEL, "Daily facts", owner=OWNER, can_post=False, can_edit=False)
    with pytest.raises(BadRequest, match=r"(?i)need administrator rights"):
        await bot.send_message(CHANNEL, "Question?")


async def test_a_demoted_bot_can_neither_post_nor_edit_nor_read_members(bot: Bot, fake: FakeBotAPI):
    """Demoted, the bot is a subscriber (my_chat_member to "member"); posts, edits of its
    earlier post and member lists answer Telegram's refusals."""
    fake.add_channel(CHANNEL, "Daily facts", owner=OWNER)
    post = await bot.send_message(CHANNEL, "Question?")
    fake.demote_bot(CHANNEL, by=OWNER)
    change = _updates(fake, "my_chat_member")[-1]
    assert change["old_chat_member"]["status"] == "administrator"
    assert change["new_chat_member"]["status"] == "member"
    with pytest.raises(BadRequest, match=r"(?i)need administrator rights"):
        await bot.send_message(CHANNEL, "Another?")
    assert fake.calls[-1].response["description"] == NEED_ADMIN_RIGHTS
    with pytest.raises(BadRequest, match=r"(?i)need administrator rights"):
        await bot.edit_message_text("Answer", chat_id=CHANNEL, message_id=post.message_id)
    with pytest.raises(BadRequest, match=r"(?i)member list is inaccessible"):
        await bot.get_chat_administrators(CHANNEL)
    with pytest.raises(BadRequest, match=r"(?i)member list is inaccessible"):
        await bot.get_chat_member(CHANNEL, OWNER)
    assert fake.calls[-1].response["description"] == MEMBER_LIST_INACCESSIBLE
    assert (await bot.get_chat_member(CHANNEL, fake.bot_id)).status == "member"
    fake.promote_bot(CHANNEL, by=OWNER)  # made admin again: it posts again
    assert (await bot.send_message(CHANNEL, "Back")).sender_chat.id == CHANNEL


async def test_a_removed_bot_is_forbidden(bot: Bot, fake: FakeBotAPI):
    """A bot kicked from a channel gets my_chat_member to "kicked", then 403 for any call."""
    fake.add_channel(CHANNEL, "Daily facts", owner=OWNER)
    fake.remove_bot(CHANNEL, by=OWNER)
    change = _updates(fake, "my_chat_member")[-1]
    assert change["old_chat_member"]["status"] == "administrator"
    assert change["new_chat_member"]["status"] == "kicked"
    with pytest.raises(Forbidden, match="bot was kicked from the channel chat"):
        await bot.send_message(CHANNEL, "Question?")


async def test_posts_by_admins_arrive_as_channel_posts(bot: Bot, fake: FakeBotAPI):
    """An admin's post is a channel_post update; the bot's own posts are not sent to it."""
    fake.add_channel(CHANNEL, "Daily facts", owner=OWNER)
    await bot.send_message(CHANNEL, "Mine")
    fake.post_channel(CHANNEL, "Theirs")
    assert [p["text"] for p in _updates(fake, "channel_post")] == ["Theirs"]
