"""A screen's keyboard as PTB sends it: ``common.Keyboard`` gives the same Bot API form and
compares equal to the ``InlineKeyboardMarkup`` Telegram's answer is parsed into."""

from __future__ import annotations

import json

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.render import callbacks as render_callbacks
from bot.render.screen import Button, Screen, ShareButton, UrlButton
from bot.telegram.common import Keyboard, keyboard

SCREEN = Screen(
    "Q",
    (
        (
            Button("A", render_callbacks.AnswerButton(7, 0, 0)),
            Button("Β", render_callbacks.AnswerButton(7, 0, 1)),
        ),
        (
            Button("Open", UrlButton("https://t.me/quizbot?start=x")),
            Button("Share", ShareButton("quiz 1")),
        ),
    ),
)
PLAIN = InlineKeyboardMarkup(
    [
        [
            InlineKeyboardButton("A", callback_data="a:7:0:0"),
            InlineKeyboardButton("Β", callback_data="a:7:0:1"),
        ],
        [
            InlineKeyboardButton("Open", url="https://t.me/quizbot?start=x"),
            InlineKeyboardButton("Share", switch_inline_query="quiz 1"),
        ],
    ]
)


def test_a_screens_keyboard_is_sent_as_ptb_would_send_its_buttons():
    """What goes in the request body is what PTB makes of the same buttons."""
    made = keyboard(SCREEN)
    assert isinstance(made, Keyboard)
    assert made.to_dict() == PLAIN.to_dict()
    sent = RequestData([RequestParameter.from_input("reply_markup", made)])
    assert json.loads(sent.json_parameters["reply_markup"]) == PLAIN.to_dict()


def test_it_equals_the_markup_parsed_from_telegrams_answer():
    """Either way round (``common.shows`` compares a query's message's keyboard with it)."""
    parsed = InlineKeyboardMarkup.de_json(PLAIN.to_dict(), None)
    made = keyboard(SCREEN)
    assert parsed == made and made == parsed
    assert (
        keyboard(Screen("Q", ((Button("A", render_callbacks.AnswerButton(7, 0, 1)),),))) != parsed
    )
    assert keyboard(Screen("no buttons")) is None
