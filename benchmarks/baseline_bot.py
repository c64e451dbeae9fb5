"""The PTB baselines: a minimal python-telegram-bot 22.8 bot with no quiz logic and no storage.

It plays quizbot's private-chat interaction with quizbot's own texts and keyboards
(``benchmarks/screens.py``): ``/start`` sends the intro and the first question; an option tap
answers the callback query and edits the message into the feedback with "Next"; "Next" answers
the query and sends the next question (or the score) as a new message. Same buttons as quizbot
(``a:``, ``n:``, ``r:``), so the same load generator plays it.

Run by ``benchmarks/run.py`` with TELEGRAM_BOT_TOKEN and TELEGRAM_BASE_URL set; flags:

* none: PTB's defaults, one update at a time, its httpx transport ("PTB sequential");
* ``--concurrent``: ``concurrent_updates(True)``, still PTB's default httpx transport
  ("PTB concurrent");
* ``--aiohttp``: quizbot's Bot API transport, to separate its effect from the logic's;
* ``--one-tap``: the one-tap flow (an option tap edits the feedback in without a button and
  sends what follows at once).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, CommandHandler, ContextTypes

from benchmarks.screens import Keyboard, parse_tap, render_screens

SCREENS = render_screens()
ONE_TAP = "--one-tap" in sys.argv
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


def markup(rows: Keyboard) -> InlineKeyboardMarkup:
    """PTB's inline keyboard of ``(label, kind, value)`` rows."""
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(label, url=value)
                if kind == "url"
                else InlineKeyboardButton(label, callback_data=value)
                for label, kind, value in row
            ]
            for row in rows
        ]
    )


async def send(
    context: ContextTypes.DEFAULT_TYPE, chat_id: int, screen: tuple[str, Keyboard]
) -> None:
    """Send a screen as a new HTML message without link preview."""
    text, rows = screen
    await context.bot.send_message(
        chat_id,
        text,
        reply_markup=markup(rows),
        parse_mode=ParseMode.HTML,
        link_preview_options=NO_PREVIEW,
    )


async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: the intro, then the first question."""
    assert update.effective_chat is not None
    await send(context, update.effective_chat.id, SCREENS.intro)
    await send(context, update.effective_chat.id, SCREENS.questions[0])


async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer the query; an answer edits the message into the feedback, "Next" sends the next
    question (or the score)."""
    query = update.callback_query
    assert query is not None and query.data is not None and query.message is not None
    await query.answer()
    kind, position = parse_tap(query.data)
    if kind == "a":
        text, rows = (SCREENS.one_tap_feedbacks if ONE_TAP else SCREENS.feedbacks)[position]
        await query.edit_message_text(
            text,
            reply_markup=markup(rows) if rows else None,
            parse_mode=ParseMode.HTML,
            link_preview_options=NO_PREVIEW,
        )
        if not ONE_TAP:
            return
    if position + 1 < len(SCREENS.questions):
        await send(context, query.message.chat.id, SCREENS.questions[position + 1])
    else:
        await send(context, query.message.chat.id, SCREENS.outcome)


def main() -> None:
    """Poll the Bot API at TELEGRAM_BASE_URL until interrupted."""
    concurrent = "--concurrent" in sys.argv
    builder = (
        ApplicationBuilder()
        .token(os.environ["TELEGRAM_BOT_TOKEN"])
        .base_url(os.environ["TELEGRAM_BASE_URL"])
        .concurrent_updates(concurrent)
    )
    if "--aiohttp" in sys.argv:  # quizbot's transport, to separate its effect from the logic's
        from bot.telegram.transport import AiohttpRequest

        builder = builder.request(AiohttpRequest()).get_updates_request(
            AiohttpRequest(connection_pool_size=1)
        )
    app = builder.build()
    app.add_handler(CommandHandler("start", on_start))
    app.add_handler(CallbackQueryHandler(on_tap))
    app.run_polling(allowed_updates=["message", "callback_query"])


if __name__ == "__main__":
    main()
