"""Rendering: core values -> message text and inline keyboards; the callback-data codec.

Screens are built once for both front ends: :class:`Html` markup for Telegram (``parse_mode``
HTML, with ``<``, ``>`` and ``&`` escaped as the Bot API requires) and :class:`Plain` for the
terminal. A :class:`Screen` holds the text and the keyboard as plain data; ``bot.telegram``
turns it into an ``InlineKeyboardMarkup``.

No message may exceed Telegram's limits: screens that grow with the bank or the user's history
(preview, stats, the final score, the review) are lists of screens split by :func:`split_html`
at 4,096 UTF-16 units after entity parsing; the group leaderboard is bounded to one message;
toasts stay within 200 units (:func:`clip_utf16`).

The package, top to bottom (a module imports only from the lines below it; modules on one
line are independent; an import-linter contract in pyproject.toml keeps it so):

- :mod:`~bot.render.private`: the quiz in a private chat and in ``quizbot play``.
  :mod:`~bot.render.learning`: /stats and spaced review. :mod:`~bot.render.teachers`: a group's
  settings and results.
- :mod:`~bot.render.group`: group sessions. :mod:`~bot.render.sharing`: inline-mode cards.
- :mod:`~bot.render.question`: a question's layout, shared by every kind of quiz.
- :mod:`~bot.render.screen`: :class:`Screen` and :class:`Button`, a message as plain data.
- :mod:`~bot.render.callbacks`: the callback-data codec and its button dataclasses.
  :mod:`~bot.render.links`: deep links and their payloads. :mod:`~bot.render.text`: HTML and
  plain markup, UTF-16 lengths, clipping, splitting.
- :mod:`~bot.render.limits`: Telegram's size limits (UTF-16 units, bytes, characters).

Every public name is re-exported here: callers write ``from bot import render`` and
``render.outcome(...)``.
"""

from __future__ import annotations

from bot.render.callbacks import (
    BUTTON_KINDS,
    AnswerButton,
    BankButton,
    CallbackButton,
    CardAnswerButton,
    CardNextButton,
    DeleteDataButton,
    GroupAnswerButton,
    InvalidCallbackData,
    LanguageButton,
    NextButton,
    PlaceButton,
    RetakeButton,
    ReviewButton,
    SettingButton,
    StartReviewButton,
    callback_pattern,
    decode,
    encode,
)
from bot.render.group import (
    LEADERBOARD_PLACES,
    MAX_NAME,
    MAX_TITLE,
    MEDALS,
    group_leaderboard,
    group_place,
    group_question,
    group_reveal,
    private_question,
)
from bot.render.learning import (
    MANY_DUE,
    known_text,
    remind_status,
    reminder,
    review_done,
    review_feedback,
    review_question,
    stats,
    stats_with_review,
)
from bot.render.limits import (
    MAX_CALLBACK_DATA_BYTES,
    MAX_CAPTION_UTF16,
    MAX_KEYBOARD_BUTTONS,
    MAX_MESSAGE_UTF16,
    MAX_RESULTS_BUTTON,
    MAX_START_PAYLOAD,
    MAX_TOAST_UTF16,
)
from bot.render.links import (
    LIST_PAYLOAD,
    bank_link,
    deep_link,
    group_bank_link,
    group_deep_link,
    parse_question_payload,
    question_link,
)
from bot.render.private import (
    attempt_question,
    bank_choice,
    current_screens,
    delete_data_done,
    delete_data_question,
    feedback,
    intro,
    language_picker,
    outcome,
    preview,
    resume_screens,
    review,
)
from bot.render.question import (
    MAX_ANSWER_BUTTONS_PER_ROW,
    answer_rows,
    explanation_lines,
    progress_bar,
    question,
)
from bot.render.screen import MAX_BUTTON_LABEL, Button, Screen, ShareButton, UrlButton, as_screens
from bot.render.sharing import (
    MAX_CARD_DESCRIPTION,
    MAX_RESULT_DESCRIPTION,
    MAX_RESULT_TITLE,
    Article,
    bank_card,
    inline_articles,
    no_match_button,
    share_row,
)
from bot.render.teachers import results_summary, settings_menu
from bot.render.text import (
    HTML,
    PLAIN,
    Html,
    Markup,
    Plain,
    clip,
    clip_utf16,
    html_length,
    pack,
    split_html,
    utf16_length,
)

__all__ = [
    "BUTTON_KINDS", "HTML",
    "LEADERBOARD_PLACES",
    "LIST_PAYLOAD",
    "MANY_DUE",
    "MAX_ANSWER_BUTTONS_PER_ROW",
    "MAX_BUTTON_LABEL",
    "MAX_CALLBACK_DATA_BYTES",
    "MAX_CAPTION_UTF16",
    "MAX_CARD_DESCRIPTION",
    "MAX_KEYBOARD_BUTTONS",
    "MAX_MESSAGE_UTF16",
    "MAX_NAME",
    "MAX_RESULTS_BUTTON",
    "MAX_RESULT_DESCRIPTION",
    "MAX_RESULT_TITLE",
    "MAX_START_PAYLOAD",
    "MAX_TITLE",
    "MAX_TOAST_UTF16",
    "MEDALS",
    "PLAIN",
    "AnswerButton",
    "Article",
    "BankButton",
    "Button",
    "CallbackButton",
    "CardAnswerButton",
    "CardNextButton",
    "DeleteDataButton",
    "GroupAnswerButton",
    "Html",
    "InvalidCallbackData",
    "LanguageButton",
    "Markup",
    "NextButton",
    "PlaceButton",
    "Plain",
    "RetakeButton",
    "ReviewButton",
    "Screen",
    "SettingButton",
    "ShareButton",
    "StartReviewButton",
    "UrlButton",
    "answer_rows",
    "as_screens",
    "attempt_question",
    "bank_card",
    "bank_choice",
    "bank_link",
    "callback_pattern",
    "clip",
    "clip_utf16",
    "current_screens",
    "decode",
    "deep_link",
    "delete_data_done",
    "delete_data_question",
    "encode",
    "explanation_lines",
    "feedback",
    "group_bank_link",
    "group_deep_link",
    "group_leaderboard",
    "group_place",
    "group_question",
    "group_reveal",
    "html_length",
    "inline_articles",
    "intro",
    "known_text",
    "language_picker",
    "no_match_button",
    "outcome",
    "pack",
    "parse_question_payload",
    "preview",
    "private_question",
    "progress_bar",
    "question",
    "question_link",
    "remind_status",
    "reminder",
    "results_summary",
    "resume_screens",
    "review",
    "review_done",
    "review_feedback",
    "review_question",
    "settings_menu",
    "share_row",
    "split_html",
    "stats",
    "stats_with_review",
    "utf16_length"
]
