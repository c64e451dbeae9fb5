"""A question's layout, shared by the private quiz, group sessions and review cards: the title,
header and progress bar, the options A-L, the rows of answer buttons, the verdict and explanation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.i18n import Catalog
from bot.kernel.bank import TRUE_FALSE, Bank, Question
from bot.kernel.engine import LABELS, QuestionView
from bot.render.callbacks import CallbackButton, ShownButton
from bot.render.screen import Button, ButtonStyle, Screen
from bot.render.text import Markup

MAX_ANSWER_BUTTONS_PER_ROW = 5
"""Answer buttons in one keyboard row (see :func:`answer_rows`). Telegram's apps give every
button of a row the same share of the message's width; on a phone (about 360 dp wide) five
one-letter buttons still leave each a thumb-sized target, so 2-5 options take one row,
6-10 two rows and 11-12 three."""


def progress_bar(done: int, total: int, width: int = 8) -> str:
    """A bar like ``▰▰▰▱▱▱▱▱`` with ``done`` of ``total`` filled (scaled to ``width``)."""
    if total <= 0:
        return ""
    filled = round(width * done / total)
    return "▰" * filled + "▱" * (width - filled)


def option_text(bank: Bank, question: Question, option_index: int, t: Catalog) -> str:
    """An option's text (plain, not escaped) in the reader's language: the bank's text, or the
    bot's own "True"/"False" for a true/false question."""
    if question.kind == TRUE_FALSE:
        return t("option_true") if option_index == 0 else t("option_false")
    lang = bank.language_for(t.language)
    return question.options[option_index].text.get(lang, bank.default_language)


def slot_label(question: Question, slot: int) -> str:
    """The label before an option's text: "A. " ... "L. "."""
    return f"{LABELS[slot]}. "


def _question_lines(
    bank: Bank, v: QuestionView, t: Catalog, m: Markup, *, marks: bool, closed: bool = False
) -> list[str]:
    """The title, header, prompt (with "Select all that apply" for several right options),
    then the options; with ``marks``, every right option ✅ and each wrong choice ❌. The
    first four lines are the title, the header, a blank line and the prompt. A true/false
    question lists "A. True" and "B. False" (its buttons say True and False; the terminal
    reads the letters)."""
    lang = bank.language_for(t.language)
    done = v.position + (1 if v.answered or closed else 0)
    question = v.question
    lines = [
        m.bold(bank.title.get(lang, bank.default_language)),
        m.escape(
            f"{t('question_header', number=v.position + 1, total=v.total)}  "
            f"{progress_bar(done, v.total)}"
        ),
        "",
        m.bold(question.prompt.get(lang, bank.default_language)),
    ]
    if question.several:
        lines.append(m.italic(t(m.several_hint)))
    lines.append("")
    chosen = v.chosen_slots or (
        frozenset((v.chosen_slot,)) if v.chosen_slot is not None else frozenset()
    )
    right = v.correct_slots
    for slot, option_index in enumerate(v.slots):
        shown = m.escape(option_text(bank, question, option_index, t))
        text = f"{slot_label(question, slot)}{shown}"
        yours = f" ({m.escape(t('your_answer'))})"
        if marks and slot in right:
            line = f"✅ {text}" + (yours if question.several and slot in chosen else "")
        elif marks and slot in chosen:
            line = f"❌ {text}{yours}"
        else:
            line = text
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


@dataclass(frozen=True)
class Ticks:
    """The keyboard of a question with several right options: a tick button per option and
    a Submit button.

    Attributes:
        ticked: The slots ticked so far (bit ``s`` for slot ``s``).
        make_tick: Slot -> the callback button that ticks or unticks it.
        submit: The Submit button's callback button.
    """

    ticked: int
    make_tick: Callable[[int], CallbackButton]
    submit: CallbackButton


def question(
    bank: Bank,
    v: QuestionView,
    t: Catalog,
    m: Markup,
    make_button: Callable[[int], CallbackButton],
    ticks: Ticks | None = None,
) -> Screen:
    """A question with its options labelled A, B, ... (up to L), and one button per label in
    rows that fit a phone (:func:`answer_rows`); True and False buttons for a true/false
    question; for a question with several right options (given ``ticks``) a ☑/☐ button per
    option, then Submit. The screen carries the question's picture, if any.

    Args:
        make_button: Slot (0 = "A") -> the callback button for choosing it.
        ticks: The tick and Submit buttons, for a question with several right options.
    """
    text = "\n".join(_question_lines(bank, v, t, m, marks=False))
    return Screen(
        text,
        question_keyboard(v, t, make_button, ticks),
        photo=v.question.picture,
        photo_note=picture_note(v.question.picture, t, m),
    )


def picture_note(picture: str | None, t: Catalog, m: Markup) -> str:
    """The note put above a question whose ``picture`` could not be sent ("" for none)."""
    return m.escape(t("picture_not_shown")) if picture else ""


def question_keyboard(
    v: QuestionView,
    t: Catalog,
    make_button: Callable[[int], CallbackButton],
    ticks: Ticks | None = None,
) -> tuple[tuple[Button, ...], ...]:
    """The answer buttons of :func:`question` (also the keyboard edited in place by a tick)."""
    if v.question.kind == TRUE_FALSE:
        return (
            (Button(t("option_true"), make_button(0)), Button(t("option_false"), make_button(1))),
        )
    if v.question.several and ticks is not None:
        boxes = [
            Button(
                ("☑ " if ticks.ticked >> slot & 1 else "☐ ") + LABELS[slot], ticks.make_tick(slot)
            )
            for slot in range(len(v.slots))
        ]
        return (*answer_rows(boxes), (Button(t("button_submit"), ticks.submit),))
    buttons = [Button(LABELS[slot], make_button(slot)) for slot in range(len(v.slots))]
    return answer_rows(buttons)


def marked_keyboard(v: QuestionView, t: Catalog) -> tuple[tuple[Button, ...], ...]:
    """The answer buttons of an answered or closed question, as the text marks its options:
    each right one "✅" and green (:attr:`ButtonStyle.SUCCESS`), each wrong choice "❌" and red
    (:attr:`ButtonStyle.DANGER`), the others plain; laid out as :func:`question_keyboard`.
    They only show the answer (:class:`ShownButton`); the marks say it where an app shows no
    style."""
    chosen = v.chosen_slots or (
        frozenset((v.chosen_slot,)) if v.chosen_slot is not None else frozenset()
    )
    if v.question.kind == TRUE_FALSE:
        labels = [t("option_true"), t("option_false")]
    else:
        labels = [LABELS[slot] for slot in range(len(v.slots))]
    buttons = []
    for slot, label in enumerate(labels):
        if slot in v.correct_slots:
            buttons.append(Button(f"✅ {label}", ShownButton(), ButtonStyle.SUCCESS))
        elif slot in chosen:
            buttons.append(Button(f"❌ {label}", ShownButton(), ButtonStyle.DANGER))
        else:
            buttons.append(Button(label, ShownButton()))
    return (tuple(buttons),) if v.question.kind == TRUE_FALSE else answer_rows(buttons)


def right_labels(v: QuestionView) -> str:
    """The right options' labels ("A, C"; a true/false question's verdict names the truth
    instead: :func:`explanation_lines`)."""
    return ", ".join(LABELS[slot] for slot in sorted(v.correct_slots))


def explanation_lines(bank: Bank, v: QuestionView, t: Catalog, m: Markup) -> list[str]:
    """The verdict, the explanation and its source."""
    if v.is_correct:
        verdict = t("feedback_correct")
    elif v.question.kind == TRUE_FALSE:  # a sentence of its own: "the answer is False" misreads
        verdict = t(
            "feedback_wrong_true" if v.slots[v.correct_slot] == 0 else "feedback_wrong_false"
        )
    elif v.question.several:
        verdict = t("feedback_wrong_several", labels=right_labels(v))
    else:
        verdict = t("feedback_wrong", label=right_labels(v))
    return [m.bold(verdict), *notes_lines(bank, v.question, t, m, gap=False)]


def notes_lines(
    bank: Bank, question: Question, t: Catalog, m: Markup, *, gap: bool = True
) -> list[str]:
    """The question's explanation and its source, each when it has one (both are optional);
    a blank line before each (but before the explanation when ``gap`` is False)."""
    lang = bank.language_for(t.language)
    lines = []
    if question.explanation is not None:
        lines += [
            *([""] if gap else []),
            m.escape(question.explanation.get(lang, bank.default_language)),
        ]
    if question.source is not None:
        lines += [
            "",
            m.escape(t("source", source="")) + m.link(question.source.title, question.source.url),
        ]
    return lines
