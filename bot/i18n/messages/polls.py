"""The messages of forwarded quiz polls cleaned of a channel's counter and signature
(bot/kernel/cleaning.py, shown by bot/features/newquiz/screens.py and
bot/features/myquizzes/handlers.py)."""

from __future__ import annotations

from bot.i18n.declare import N_, Plural, Text

__all__ = ["MESSAGES"]

MESSAGES: tuple[Text | Plural, ...] = (
    # Translators: under "Question N added"; removed: e.g. "[1/100] … @quiz_channel"
    N_("polls.cleaned", "✂️ Taken off the forwarded question: {removed}"),
    # Translators: a button; puts back the question as it was forwarded
    N_("polls.button_keep_original", "↩️ Keep the original"),
    # Translators: after the "Keep the original" button; the question's text follows
    N_("polls.original_kept", "↩️ Question {number} keeps its text as forwarded:"),
)
