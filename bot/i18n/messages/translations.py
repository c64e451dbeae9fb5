"""The messages of "Add a language" in /myquizzes (bot/features/myquizzes/translating.py): a
maker sends a created quiz's text in another language, field by field. Also the reminder of
an empty /newquiz draft (a count of none reads badly where CLDR's "one" covers 0)."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

__all__ = ["MESSAGES", "NP_"]

MESSAGES: tuple[Text | Plural, ...] = (
    N_(
        "newquiz.draft_open_empty",
        "You already have a quiz in the making: “{title}”, with no questions yet. Go on with it, "
        "or start over (the draft is then deleted)?",
    ),
)
