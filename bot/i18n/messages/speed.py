"""The messages of the private /settings: what follows an answer
(bot/features/preferences/flow.py)."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

__all__ = ["MESSAGES", "NP_"]

MESSAGES: tuple[Text | Plural, ...] = (
    N_("command_settings", "After each answer: a Next button, or the next question at once"),
    N_("flow_title", "⚙️ After each answer"),
    N_(
        "flow_next_about",
        "With “Next”: the explanation stays on its own until you tap “Next question”, so you "
        "can read it first.",
    ),
    N_(
        "flow_one_tap_about",
        "One tap: the explanation stays above and the next question comes at once below it.",
    ),
    # Translators: a button; the same choice as in flow_next_about
    N_("flow_next", "With “Next”"),
    # Translators: a button; the same choice as in flow_one_tap_about
    N_("flow_one_tap", "One tap"),
    N_("flow_saved", "Saved. It applies from your next answer."),
)
