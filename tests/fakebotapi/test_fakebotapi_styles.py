"""Bot API 9.4's button styles and 9.5's date_time entities in the fake, as Telegram documents
them: a style is "danger", "success" or "primary" and comes back in the message's keyboard; a
``<tg-time>`` tag needs a whole Unix time, takes an optional format of the documented shape,
and becomes a ``date_time`` entity over its text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest

from tests.support.fakebotapi import BUTTON_STYLE_INVALID, BUTTON_STYLES, FakeBotAPI, parse_html

GROUP = -1001234567002
SPEC = Path(__file__).resolve().parents[1] / "data" / "telegram-bot-api-10.0.json"


@pytest.fixture
async def bot(fake: FakeBotAPI):
    fake.add_user(51, "Ann")
    fake.add_group(GROUP, "Class", admins=[51])
    client = Bot(fake.token, base_url=fake.base_url)
    await client.initialize()
    yield client
    await client.shutdown()


def test_the_fields_are_those_of_the_bot_api_description():
    """The names and values the fake checks are the Bot API description's (10.0, PTB 22.8's)."""
    types = json.loads(SPEC.read_text("utf-8"))["types"]
    style = next(f for f in types["InlineKeyboardButton"]["fields"] if f["name"] == "style")
    assert all(f'"{value}"' in style["description"] for value in BUTTON_STYLES)
    entity = {f["name"]: f for f in types["MessageEntity"]["fields"]}
    assert '"date_time"' in entity["type"]["description"]
    assert entity["unix_time"]["types"] == ["Integer"]
    assert entity["date_time_format"]["types"] == ["String"]


async def test_a_style_goes_out_and_comes_back_on_sends_and_edits(bot: Bot, fake: FakeBotAPI):
    """Each of the three styles is accepted and kept in the stored keyboard; an edit may
    change it; a button without one has none."""
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(value, callback_data=value, style=value)
                for value in BUTTON_STYLES
            ]
            + [InlineKeyboardButton("plain", callback_data="plain")]
        ]
    )
    sent = await bot.send_message(GROUP, "Styles", reply_markup=markup)
    row = fake.message(GROUP, sent.message_id)["reply_markup"]["inline_keyboard"][0]
    assert [b.get("style") for b in row] == [*BUTTON_STYLES, None]
    assert [b.style for b in sent.reply_markup.inline_keyboard[0]] == [*BUTTON_STYLES, None]
    edited = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="x", style="success")]])
    await bot.edit_message_text(
        "Edited", chat_id=GROUP, message_id=sent.message_id, reply_markup=edited
    )
    row = fake.message(GROUP, sent.message_id)["reply_markup"]["inline_keyboard"][0]
    assert row == [{"text": "x", "callback_data": "x", "style": "success"}]


@pytest.mark.parametrize("style", ["green", "SUCCESS", ""])
async def test_another_style_is_refused(bot: Bot, fake: FakeBotAPI, style: str):
    """A style other than the three documented values is a Bad Request."""
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="x", style=style)]])
    with pytest.raises(BadRequest):
        await bot.send_message(GROUP, "q", reply_markup=markup)
    assert fake.calls[-1].response["description"] == BUTTON_STYLE_INVALID


@pytest.mark.parametrize(
    ("html", "entity"),
    [
        (
            'Due <tg-time unix="1765184400">Dec 8, 9:00</tg-time>!',
            {"type": "date_time", "offset": 4, "length": 11, "unix_time": 1765184400},
        ),
        (
            "<tg-time format='wDT' unix='1765184400'>Dec 8</tg-time>",
            {
                "type": "date_time",
                "offset": 0,
                "length": 5,
                "unix_time": 1765184400,
                "date_time_format": "wDT",
            },
        ),
        (
            '<tg-time unix="0" format="r">then</tg-time>',
            {
                "type": "date_time",
                "offset": 0,
                "length": 4,
                "unix_time": 0,
                "date_time_format": "r",
            },
        ),
    ],
)
def test_tg_time_becomes_a_date_time_entity(html: str, entity: dict):
    """``<tg-time unix format>``: the text stays as written, the entity carries the Unix time
    and the format (none when not given)."""
    text, entities = parse_html(html)
    assert entities == [entity]
    assert "tg-time" not in text


@pytest.mark.parametrize(
    "html",
    [
        "<tg-time>Dec 8</tg-time>",
        '<tg-time unix="soon">Dec 8</tg-time>',
        '<tg-time unix="-5">Dec 8</tg-time>',
        '<tg-time unix="1765184400" format="rT">Dec 8</tg-time>',
        '<tg-time unix="1765184400" format="Tw">Dec 8</tg-time>',
        '<tg-time unix="1765184400" format="x">Dec 8</tg-time>',
    ],
)
async def test_a_bad_tg_time_is_refused(bot: Bot, fake: FakeBotAPI, html: str):
    """No Unix time, one that is not a whole non-negative number, or a format of another shape
    than "r" or ``w?[dD]?[tT]?``: "can't parse entities"."""
    with pytest.raises(BadRequest, match="parse entities"):
        await bot.send_message(GROUP, html, parse_mode="HTML")


async def test_a_date_time_entity_reaches_the_bot_in_the_message(bot: Bot, fake: FakeBotAPI):
    """The sent message carries the entity as Telegram returns it (PTB reads its time)."""
    sent = await bot.send_message(
        GROUP, 'Due <tg-time unix="1765184400">Dec 8</tg-time>', parse_mode="HTML"
    )
    [entity] = sent.entities
    assert entity.type == "date_time" and int(entity.unix_time.timestamp()) == 1765184400
    assert fake.message(GROUP, sent.message_id)["entities"][0]["unix_time"] == 1765184400
