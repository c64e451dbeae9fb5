"""Reading the bot's messages as a person sees them: inline buttons, shown options, and which
label is right (found through the bank)."""

from __future__ import annotations

import re

from bot.i18n import bidi
from bot.kernel.bank import Bank

OPTION_LINE = re.compile(r"^(?:[✅❌] )?([A-D])\. (.*?)(?: \(.*\))?$")
"""An option line of a question or feedback message: its label and its text (a mark before it
and a note after it in brackets are not part of the text)."""


def buttons(message: dict) -> list[dict]:
    """The inline keyboard buttons of a message, row by row."""
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [button for row in rows for button in row]


def answer_buttons(message: dict) -> list[dict]:
    """A group question's answer buttons (callback data "g:..."): none once it is revealed
    (the reveal keeps the options marked, "x", and its link to the explanation in each
    member's language)."""
    return [b for b in buttons(message) if b.get("callback_data", "").startswith("g:")]


def shown_options(message: dict) -> dict[str, str]:
    """Label -> option text as shown in a question or feedback message."""
    options = {}
    for line in message["text"].splitlines():
        match = OPTION_LINE.match(bidi.CONTROLS.sub("", line))  # right to left: marked lines
        if match:
            options[match[1]] = match[2]
    return options


def correct_label(message: dict, bank: Bank, language: str) -> str:
    """The label of the correct option in a question message, found through the bank."""
    lang = bank.language_for(language)
    [question] = [q for q in bank.questions if q.prompt.by_language[lang] in message["text"]]
    correct_text = question.options[question.correct_index].text.by_language[lang]
    labels = [label for label, text in shown_options(message).items() if text == correct_text]
    assert len(labels) == 1, (labels, message["text"])
    return labels[0]


def wrong_label(message: dict, bank: Bank, language: str) -> str:
    """A label of a wrong option in a question message."""
    right = correct_label(message, bank, language)
    return next(label for label in "ABCD" if label != right)
