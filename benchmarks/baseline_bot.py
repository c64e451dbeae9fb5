"""The baseline: a minimal python-telegram-bot bot with no quiz logic and no storage.

It answers each callback query and edits the message: an option tap turns the question into a
"feedback" text with a "next" button, and "next" edits it into the next question (or a final
text). Same buttons as quizbot (``a:``, ``n:``, ``r:``), so the same load generator plays it.

The texts are quizbot's own screens for the bundled bank, rendered once at start-up (HTML, in
the three languages by turn), so both bots move the same bytes and entities over the same Bot
API calls: what the comparison measures is quizbot's logic and storage, not message size.
Run by ``benchmarks/run.py`` with TELEGRAM_BOT_TOKEN and TELEGRAM_BASE_URL set; flags:
``--concurrent`` (PTB's concurrent_updates), ``--aiohttp`` (quizbot's Bot API transport).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ParseMode
from telegram.ext import ApplicationBuilder, CallbackQueryHandler, CommandHandler, ContextTypes

QUESTIONS = 8


def _screens() -> tuple[list[str], list[str]]:
    """Question and feedback texts of every position, rendered once by quizbot's renderer."""
    import random

    from bot import i18n, render
    from bot.config import BUNDLED_BANKS
    from bot.quiz import engine
    from bot.quiz.bank import load_banks

    bank = next(iter(load_banks([BUNDLED_BANKS]).values()))
    plan = engine.plan_attempt(bank, random.Random(0))
    attempt = engine.Attempt(1, 1, bank.id, bank.version, plan, 0, engine.ACTIVE, 0.0)
    questions, feedbacks = [], []
    for position in range(len(bank.questions)):
        t = i18n.catalog(i18n.SUPPORTED[position % len(i18n.SUPPORTED)])
        at = engine.Attempt(1, 1, bank.id, bank.version, plan, position, engine.ACTIVE, 0.0,
                            answers=attempt.answers)
        questions.append(render.attempt_question(bank, at, t, render.HTML).text)
        answer = engine.grade(at, bank, 1, position, 0, 0.0)
        attempt = engine.with_answer(attempt, answer)
        at = engine.with_answer(at, answer)
        feedbacks.append(render.feedback(bank, at, position, t, render.HTML).text)
    return questions, feedbacks


QUESTION_TEXTS, FEEDBACK_TEXTS = _screens()


def question(position: int) -> tuple[str, InlineKeyboardMarkup]:
    """Question ``position`` with four answer buttons."""
    buttons = [InlineKeyboardButton(label, callback_data=f"a:0:{position}:{slot}")
               for slot, label in enumerate("ABCD")]
    return QUESTION_TEXTS[position], InlineKeyboardMarkup([buttons])


async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: the first question."""
    assert update.effective_chat is not None
    text, markup = question(0)
    await context.bot.send_message(update.effective_chat.id, text, reply_markup=markup,
                                   parse_mode=ParseMode.HTML)


async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Answer the query, then edit the message (feedback, next question or the end)."""
    query = update.callback_query
    assert query is not None and query.data is not None
    await query.answer()
    kind, _, position_text, *_ = query.data.split(":")
    position = int(position_text)
    if kind == "a":
        text = FEEDBACK_TEXTS[position]
        markup = InlineKeyboardMarkup([[InlineKeyboardButton(
            "Next", callback_data=f"n:0:{position}")]])
    elif position + 1 < QUESTIONS:
        text, markup = question(position + 1)
    else:
        text = "Done."
        markup = InlineKeyboardMarkup([[InlineKeyboardButton("Again", callback_data="r:x")]])
    await query.edit_message_text(text, reply_markup=markup, parse_mode=ParseMode.HTML)


def main() -> None:
    """Poll the Bot API at TELEGRAM_BASE_URL until interrupted."""
    concurrent = "--concurrent" in sys.argv
    builder = (ApplicationBuilder().token(os.environ["TELEGRAM_BOT_TOKEN"])
               .base_url(os.environ["TELEGRAM_BASE_URL"]).concurrent_updates(concurrent))
    if "--aiohttp" in sys.argv:  # quizbot's transport, to separate its effect from the logic's
        from bot.telegram.transport import AiohttpRequest

        builder = builder.request(AiohttpRequest()).get_updates_request(
            AiohttpRequest(connection_pool_size=1))
    app = builder.build()
    app.add_handler(CommandHandler("start", on_start))
    app.add_handler(CallbackQueryHandler(on_tap))
    app.run_polling(allowed_updates=["message", "callback_query"])


if __name__ == "__main__":
    main()
