"""The aiogram baseline: a bare aiogram 3 bot with no quiz logic and no storage.

The same interaction, texts and keyboards as quizbot and the PTB baselines
(``benchmarks/screens.py``): ``/start`` sends the intro and the first question; an option tap
answers the callback query and edits the message into the feedback with "Next"; "Next" answers
the query and sends the next question (or the score) as a new message.

aiogram as a bot author would use it: its own aiohttp session (``AiohttpSession``, pointed at the
fake server through ``TelegramAPIServer.from_base``), ``Dispatcher.start_polling`` with its
defaults (every update handled as its own task). ``--one-tap``: the one-tap flow (an option
tap edits the feedback in without a button and sends what follows at once). Needs the
``bench`` extra (``pip install -e '.[bench]'``). Run by ``benchmarks/run.py`` with
TELEGRAM_BOT_TOKEN and TELEGRAM_BASE_URL (``http://host:port/bot``) set.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from aiogram import Bot, Dispatcher
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.filters import CommandStart
from aiogram.types import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    LinkPreviewOptions,
    Message,
)

from benchmarks.screens import Keyboard, parse_tap, render_screens

SCREENS = render_screens()
ONE_TAP = "--one-tap" in sys.argv
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


def markup(rows: Keyboard) -> InlineKeyboardMarkup:
    """aiogram's inline keyboard of ``(label, kind, value)`` rows."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(text=label, url=value)
                if kind == "url"
                else InlineKeyboardButton(text=label, callback_data=value)
                for label, kind, value in row
            ]
            for row in rows
        ]
    )


async def send(bot: Bot, chat_id: int, screen: tuple[str, Keyboard]) -> None:
    """Send a screen as a new HTML message without link preview."""
    text, rows = screen
    await bot.send_message(
        chat_id,
        text,
        reply_markup=markup(rows),
        parse_mode=ParseMode.HTML,
        link_preview_options=NO_PREVIEW,
    )


async def on_start(message: Message, bot: Bot) -> None:
    """/start: the intro, then the first question."""
    await send(bot, message.chat.id, SCREENS.intro)
    await send(bot, message.chat.id, SCREENS.questions[0])


async def on_tap(query: CallbackQuery, bot: Bot) -> None:
    """Answer the query; an answer edits the message into the feedback, "Next" sends the next
    question (or the score)."""
    assert query.data is not None and query.message is not None
    await query.answer()
    kind, position = parse_tap(query.data)
    if kind == "a":
        text, rows = (SCREENS.one_tap_feedbacks if ONE_TAP else SCREENS.feedbacks)[position]
        await bot.edit_message_text(
            text=text,
            chat_id=query.message.chat.id,
            message_id=query.message.message_id,
            reply_markup=markup(rows) if rows else None,
            parse_mode=ParseMode.HTML,
            link_preview_options=NO_PREVIEW,
        )
        if not ONE_TAP:
            return
    if position + 1 < len(SCREENS.questions):
        await send(bot, query.message.chat.id, SCREENS.questions[position + 1])
    else:
        await send(bot, query.message.chat.id, SCREENS.outcome)


async def main() -> None:
    """Poll the Bot API at TELEGRAM_BASE_URL until interrupted (SIGINT)."""
    base = os.environ["TELEGRAM_BASE_URL"].rstrip("/").removesuffix("/bot")
    session = AiohttpSession(api=TelegramAPIServer.from_base(base))
    bot = Bot(os.environ["TELEGRAM_BOT_TOKEN"], session=session)
    dispatcher = Dispatcher()
    dispatcher.message.register(on_start, CommandStart())
    dispatcher.callback_query.register(on_tap)
    await dispatcher.start_polling(bot, allowed_updates=["message", "callback_query"])


if __name__ == "__main__":
    asyncio.run(main())
