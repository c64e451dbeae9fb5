"""A question's layout, shared by the private quiz, group sessions and review cards: the title,
header and progress bar, the options A-J, the rows of answer buttons, the verdict and explanation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.i18n import Catalog
from bot.quiz.bank import Bank, Question
from bot.quiz.engine import LABELS, QuestionView
from bot.render.callbacks import CallbackButton
from bot.render.screen import Button, Screen
from bot.render.text import Markup

MAX_ANSWER_BUTTONS_PER_ROW = 5
"""Answer buttons in one keyboard row (see :func:`answer_rows`). Telegram's apps give every
button of a row the same share of the message's width; on a phone (about 360 dp wide) five
one-letter buttons still leave each a thumb-sized target, so 2-5 options take one row and
6-10 two rows."""


def progress_bar(done: int, total: int, width: int = 8) -> str:
    """A bar like ``▰▰▰▱▱▱▱▱`` with ``done`` of ``total`` filled (scaled to ``width``)."""
    if total <= 0:
        return ""
    filled = round(width * done / total)
    return "▰" * filled + "▱" * (width - filled)


def _question_lines(bank: Bank, v: QuestionView, t: Catalog, m: Markup, *,
                    marks: bool, closed: bool = False) -> list[str]:
    lang = bank.language_for(t.language)
    done = v.position + (1 if v.answered or closed else 0)
    lines = [
        m.bold(bank.title.get(lang, bank.default_language)),
        m.escape(f"{t('question_header', number=v.position + 1, total=v.total)}  "
                 f"{progress_bar(done, v.total)}"),
        "",
        m.bold(v.question.prompt.get(lang, bank.default_language)),
        "",
    ]
    for slot, option_index in enumerate(v.slots):
        text = m.escape(v.question.options[option_index].text.get(lang, bank.default_language))
        label = f"{LABELS[slot]}."
        if marks and slot == v.correct_slot:
            line = f"✅ {label} {text}"
        elif marks and slot == v.chosen_slot:
            line = f"❌ {label} {text} ({m.escape(t('your_answer'))})"
        else:
            line = f"{label} {text}"
        lines.append(line)
    return lines


def answer_rows(buttons: Sequence[Button]) -> tuple[tuple[Button, ...], ...]:
    """Answer buttons laid out in rows for a phone: one row of up to
    :data:`MAX_ANSWER_BUTTONS_PER_ROW`, else as few rows as that allows, as even as possible,
    the longer rows first (6 -> 3+3, 7 -> 4+3, 9 -> 5+4, 10 -> 5+5), so the labels stay in
    reading order."""
    count = len(buttons)
    rows = max(1, -(-count // MAX_ANSWER_BUTTONS_PER_ROW))
    size, longer = divmod(count, rows)
    layout, start = [], 0
    for row in range(rows):
        end = start + size + (1 if row < longer else 0)
        layout.append(tuple(buttons[start:end]))
        start = end
    return tuple(layout)


def question(bank: Bank, v: QuestionView, t: Catalog, m: Markup,
             make_button: Callable[[int], CallbackButton]) -> Screen:
    """A question with its options labelled A, B, ... (up to J), and one button per label in
    rows that fit a phone (:func:`answer_rows`).

    Args:
        make_button: Slot (0 = "A") -> the callback button for choosing it.
    """
    buttons = [Button(LABELS[slot], make_button(slot)) for slot in range(len(v.slots))]
    return Screen("\n".join(_question_lines(bank, v, t, m, marks=False)), answer_rows(buttons))


def explanation_lines(bank: Bank, v: QuestionView, t: Catalog, m: Markup) -> list[str]:
    """The verdict, the explanation and its source."""
    verdict = (t("feedback_correct") if v.is_correct
               else t("feedback_wrong", label=LABELS[v.correct_slot]))
    return [m.bold(verdict), *notes_lines(bank, v.question, t, m, gap=False)]


def notes_lines(bank: Bank, question: Question, t: Catalog, m: Markup, *,
                gap: bool = True) -> list[str]:
    """The question's explanation and its source, each when it has one (both are optional);
    a blank line before each (but before the explanation when ``gap`` is False)."""
    lang = bank.language_for(t.language)
    lines = []
    if question.explanation is not None:
        lines += [*([""] if gap else []),
                  m.escape(question.explanation.get(lang, bank.default_language))]
    if question.source is not None:
        lines += ["", m.escape(t("source", source=""))
                  + m.link(question.source.title, question.source.url)]
    return lines
