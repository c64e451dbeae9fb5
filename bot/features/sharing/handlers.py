"""Thin PTB callbacks for sharing a quiz in inline mode: "@<bot> text" typed in any chat lists
the featured banks and the public created quizzes that match; choosing one posts its card
(:func:`bot.render.bank_card`) there.

Inline mode must be turned on with @BotFather (/setinline); getMe then says
``supports_inline_queries``, and only then does the bot show "Share" buttons
(:func:`sharing_on`).
"""

from __future__ import annotations

import logging

from telegram import (
    Chat,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    Update,
)
from telegram.constants import ParseMode

from bot.features.preferences.catalogs import catalog_for
from bot.features.sharing import rules as sharing
from bot.features.sharing import screens as sharing_screens
from bot.kernel.registry import BankRegistry
from bot.render import links as render_links
from bot.render.text import HTML
from bot.telegram.common import Context, keyboard, reach

log = logging.getLogger(__name__)

CACHE_SECONDS = 60
"""How long Telegram may serve an answer from its cache instead of asking again (Bot API
answerInlineQuery ``cache_time``; its default is 300). Answers are per user (``is_personal``:
they are in the user's language), and a minute keeps a /reload of the banks or a /language
choice from showing stale results for long, while a user typing the same text again is served
from the cache."""

GROUP_CHAT_TYPES = (Chat.GROUP, Chat.SUPERGROUP)
"""``InlineQuery.chat_type`` values of a group, where the card offers "Start in this group"."""


def sharing_on(context: Context) -> bool:
    """Whether the bot's inline mode is on (getMe's ``supports_inline_queries``, read when the
    bot started), so that a "Share" button would do something."""
    return bool(context.bot.supports_inline_queries)


async def on_inline_query(update: Update, context: Context) -> None:
    """An inline query: the banks matching its text (:func:`bot.features.sharing.rules.find`:
    featured banks, then public created quizzes; all of them for an empty text), in the
    user's language, one page of at most 50 (Bot API answerInlineQuery), each an article that
    posts the bank's card; with a "Start in this group" button when the query was typed in a
    group. No match: no results, and a button above them that opens the private chat on the
    list of quizzes. Any text is a query (the search never refuses one).

    Answered once, with ``is_personal`` and :data:`CACHE_SECONDS`; a query too old to answer
    (Telegram allows a few seconds) goes to the error handler, which logs it.
    """
    query = update.inline_query
    assert query is not None
    t = await catalog_for(context, query.from_user)
    found = await sharing.find(reach(context, BankRegistry), query.query, query.offset)
    shown, next_offset, matches = found.page, found.next_offset, found.matches
    articles = sharing_screens.inline_articles(
        shown, t, HTML, context.bot.username, in_group=query.chat_type in GROUP_CHAT_TYPES
    )
    results = [
        InlineQueryResultArticle(
            article.id,
            article.title,
            InputTextMessageContent(article.card.text, parse_mode=ParseMode.HTML),
            reply_markup=keyboard(article.card),
            description=article.description,
        )
        for article in articles
    ]
    button = None
    if not matches:
        button = InlineQueryResultsButton(
            sharing_screens.no_match_button(t), start_parameter=render_links.LIST_PAYLOAD
        )
    log.debug(
        "inline query %s from user %s: %d of %s bank(s)",
        query.id,
        query.from_user.id,
        len(results),
        matches,
    )
    # the last page omits next_offset, which Telegram reads as "" (no more results): PTB 22.8's
    # Defaults turn an empty-string parameter into "[]" (ExtBot._insert_defaults takes "" for
    # an empty sequence of poll options), which would make the client ask for a next page
    await query.answer(
        results,
        cache_time=CACHE_SECONDS,
        is_personal=True,
        next_offset=next_offset or None,
        button=button,
    )
