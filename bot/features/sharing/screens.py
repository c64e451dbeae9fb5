"""Inline mode: the results of "@<bot> text" in any chat, and the bank card a chosen result
posts (Bot API ``answerInlineQuery``, ``InlineQueryResultArticle``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.i18n import Catalog
from bot.kernel.bank import Bank
from bot.render.limits import MAX_RESULTS_BUTTON
from bot.render.links import bank_link, group_bank_link
from bot.render.screen import Button, Screen, ShareButton, UrlButton
from bot.render.text import Markup, clip, clip_utf16

MAX_RESULT_TITLE = 64
"""Characters of an inline result's title (a bank title, clipped with "…"): Telegram shows it
on one line and documents no limit; as :data:`MAX_BUTTON_LABEL`."""

MAX_RESULT_DESCRIPTION = 128
"""UTF-16 units of an inline result's description: Telegram's apps show two or three lines of
it under the title (no documented limit)."""

MAX_CARD_DESCRIPTION = 1024
"""UTF-16 units of the bank description on a shared card, so the card stays far below
:data:`MAX_MESSAGE_UTF16` (Bot API ``InputTextMessageContent``: 1-4096 characters) whatever the
bank's description."""


@dataclass(frozen=True)
class Article:
    """An inline query result that posts a bank's card (Bot API ``InlineQueryResultArticle``).

    Attributes:
        id: The result's id: the bank id (1-32 bytes; Telegram allows 1-64, unique per answer).
        title: Plain text, at most :data:`MAX_RESULT_TITLE` characters.
        description: Plain text, at most :data:`MAX_RESULT_DESCRIPTION` UTF-16 units.
        card: The message the result posts (HTML) with its buttons.
    """

    id: str
    title: str
    description: str
    card: Screen


def share_row(bank: Bank, t: Catalog) -> tuple[tuple[Button, ...], ...]:
    """A keyboard row with the "Share" button: pick a chat, and "@<bot> <bank id>" is typed
    there, which lists this bank as an inline result (:func:`inline_articles`)."""
    return ((Button(t("inline.button_share"), ShareButton(bank.id)),),)


def bank_card(bank: Bank, t: Catalog, m: Markup, bot_username: str, *, in_group: bool) -> Screen:
    """The card a chosen inline result posts: the bank's title, level, question count and
    description, with a "Start quiz" button (:func:`bank_link`) and, ``in_group``, a "Start in
    this group" button (:func:`group_bank_link`). The card is in the sharer's language."""
    lang = bank.language_for(t.language)
    description = clip_utf16(
        bank.description.get(lang, bank.default_language), MAX_CARD_DESCRIPTION
    )
    hint = t("inline.card_hint_group" if in_group else "inline.card_hint", bot=bot_username)
    lines = [
        m.bold(bank.title.get(lang, bank.default_language)),
        m.escape(
            f"{t('level_line', level=t('level.' + bank.level))} · "
            f"{t('question_count', count=len(bank.questions))}"
        ),
        "",
        m.escape(description),
        "",
        m.italic(hint),
    ]
    rows: list[tuple[Button, ...]] = [
        (Button(t("inline.button_start"), UrlButton(bank_link(bot_username, bank.id))),)
    ]
    if in_group:
        rows.append(
            (
                Button(
                    t("inline.button_start_group"),
                    UrlButton(group_bank_link(bot_username, bank.id)),
                ),
            )
        )
    return Screen("\n".join(lines), tuple(rows))


def inline_articles(
    banks: Iterable[Bank], t: Catalog, m: Markup, bot_username: str, *, in_group: bool
) -> list[Article]:
    """One :class:`Article` per bank: its title in the user's language, "level · questions ·
    description" as the description, and its :func:`bank_card`."""
    articles = []
    for bank in banks:
        lang = bank.language_for(t.language)
        summary = (
            f"{t('level.' + bank.level)} · "
            f"{t('question_count', count=len(bank.questions))} · "
            f"{bank.description.get(lang, bank.default_language)}"
        )
        articles.append(
            Article(
                id=bank.id,
                title=clip(bank.title.get(lang, bank.default_language), MAX_RESULT_TITLE),
                description=clip_utf16(" ".join(summary.split()), MAX_RESULT_DESCRIPTION),
                card=bank_card(bank, t, m, bot_username, in_group=in_group),
            )
        )
    return articles


def no_match_button(t: Catalog) -> str:
    """The text of the button above an inline query's empty results, which opens the private
    chat on the list of quizzes (:data:`LIST_PAYLOAD`)."""
    return clip_utf16(t("inline.no_match"), MAX_RESULTS_BUTTON)
