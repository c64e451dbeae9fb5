"""The messages of "Add a language" in /myquizzes (bot/features/myquizzes/translating.py): a
maker sends a created quiz's text in another language, field by field. Also the reminder of
an empty /newquiz draft (a count of none reads badly where CLDR's "one" covers 0)."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

__all__ = ["MESSAGES", "NP_"]

MESSAGES: tuple[Text | Plural, ...] = (
    # Translators: a button on a created quiz's screen in /myquizzes
    N_("translations.button_add", "🌐 Add a language"),
    N_(
        "translations.pick",
        "Which language should “{title}” get? I then ask for its texts in that language, one "
        "question per message.",
    ),
    N_("translations.pick_none", "“{title}” is in every language I speak already."),
    # Translators: the maker's first message: the quiz's title only
    N_("translations.ask_title", "Send the title in this language, on one line:"),
    # Translators: the maker's first message: the quiz's title, then its description below it
    N_(
        "translations.ask_title_description",
        "Send the title in this language on the first line, and the description below it:",
    ),
    N_(
        "translations.ask_question",
        "Send question {number} in this language, line for line as below: the options in the "
        "same order, the explanation after >.",
    ),
    N_(
        "translations.misfit",
        "That does not match the original: send it back translated line for line, as many "
        "lines, and an explanation after > only where the original has one.",
    ),
    # Translators: a button under a text to translate: it is asked again after the others
    N_("translations.button_skip", "⏭ Skip for now"),
    N_("translations.button_later", "⏸ Finish later"),
    N_("translations.button_cancel", "✖️ Cancel"),
    N_(
        "translations.paused",
        "Saved for a day. To go on, tap “Add a language” on the quiz in /myquizzes and choose "
        "the same language.",
    ),
    N_("translations.cancelled", "Cancelled: the quiz has not changed."),
    N_("translations.added", "✅ Language added: {language}. “{title}” is now version {version}."),
    N_("translations.fix", "Some of these texts need fixing: I ask for them again."),
    N_(
        "newquiz.draft_open_empty",
        "You already have a quiz in the making: “{title}”, with no questions yet. Go on with it, "
        "or start over (the draft is then deleted)?",
    ),
)
