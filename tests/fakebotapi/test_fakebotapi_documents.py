"""The fake Bot API's sendDocument: uploads kept, Telegram's refusals (an unstarted user, an
empty file, a long caption, a file id the fake cannot know), and counted in a group's budget."""

from __future__ import annotations

import pytest
from telegram import Bot, InputFile
from telegram.error import BadRequest, Forbidden

from tests.support.fakebotapi import FakeBotAPI

USER, STRANGER, GROUP = 42, 43, -1001234567890


@pytest.fixture
async def bot(fake: FakeBotAPI):
    fake.add_user(USER, "Ann")
    fake.add_user(STRANGER, "Bo")
    fake.add_group(GROUP, "Class", admins=[USER])
    fake.send_message(USER, "/start")  # Ann opened the bot's private chat
    client = Bot(fake.token, base_url=fake.base_url)
    await client.initialize()
    yield client
    await client.shutdown()


async def test_upload_is_stored_with_its_caption(bot: Bot, fake: FakeBotAPI):
    sent = await bot.send_document(
        USER,
        InputFile(b"a,b\r\n1,2\r\n", filename="r.csv"),
        caption="<b>Results</b>",
        parse_mode="HTML",
    )
    assert sent.document.file_name == "r.csv" and sent.document.file_size == 10
    assert sent.caption == "Results" and sent.caption_entities[0].type == "bold"
    assert fake.documents[sent.document.file_id] == b"a,b\r\n1,2\r\n"
    assert fake.message(USER, sent.message_id)["document"]["file_name"] == "r.csv"


async def test_refusals(bot: Bot, fake: FakeBotAPI):
    with pytest.raises(Forbidden, match="can't initiate conversation"):
        await bot.send_document(STRANGER, InputFile(b"x", filename="x.csv"))
    with pytest.raises(BadRequest, match=r"(?i)file must be non-empty"):
        await bot.send_document(USER, InputFile(b"", filename="x.csv"))
    with pytest.raises(BadRequest, match=r"(?i)caption is too long"):
        await bot.send_document(USER, InputFile(b"x", filename="x.csv"), caption="c" * 1025)
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await bot.send_document(USER, "AgADBAADq6cxG")
    assert fake.documents == {}


async def test_documents_count_in_a_groups_minute(bot: Bot, fake: FakeBotAPI):
    await bot.send_message(GROUP, "hi")
    await bot.send_document(GROUP, InputFile(b"x", filename="x.csv"))
    assert fake.bot_messages_in_window(GROUP) == 2
