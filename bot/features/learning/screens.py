"""Screens of progress and spaced review: /stats, a due card's question and feedback, /review
with nothing due, the daily reminder and /remind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from bot.features.learning.ports import Progress
from bot.features.learning.rules import DAY, ReviewItem
from bot.i18n import Catalog
from bot.kernel.bank import Bank
from bot.kernel.engine import QuestionView
from bot.kernel.ports import BankStats
from bot.render.callbacks import (
    CardAnswerButton,
    CardNextButton,
    CardSubmitButton,
    CardTickButton,
    StartReviewButton,
)
from bot.render.question import (
    Ticks,
    _question_lines,
    explanation_lines,
    picture_note,
    question_keyboard,
)
from bot.render.screen import Button, Screen, as_screens
from bot.render.text import Markup


def stats(
    records: Sequence[BankStats],
    banks: Mapping[str, Bank],
    t: Catalog,
    m: Markup,
    unnamed: Callable[[str], str] | None = None,
) -> list[Screen]:
    """The user's attempts, best and last score and most-missed questions, per bank; a bank
    not in ``banks`` is named by ``unnamed`` (bank id -> its line's title; default: the id).

    Returns:
        One screen, or several of at most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units when
        the lists are long.
    """
    if not records:
        return [Screen(m.escape(t("stats_none")))]
    lines = [m.bold(f"📊 {t('stats_header')}")]
    for record in records:
        bank = banks.get(record.bank_id)
        lang = bank.language_for(t.language) if bank else t.language
        title = (
            bank.title.get(lang, bank.default_language)
            if bank
            else unnamed(record.bank_id)
            if unnamed
            else record.bank_id
        )
        lines += [
            "",
            m.bold(title),
            m.escape(
                f"{t('stats_attempts', count=record.attempts)} · "
                f"{t('stats_scores', best=record.best, last=record.last, total=record.total)}"
            ),
        ]
        missed = [
            (q, n)
            for q, n in record.most_missed
            if bank is not None and any(x.id == q for x in bank.questions)
        ]
        if missed and bank is not None:
            lines.append(m.escape(t("stats_most_missed")))
            for question_id, times in missed:
                prompt = bank.question(question_id).prompt.get(lang, bank.default_language)
                times_text = t("stats_missed_times", count=times)
                lines.append(f"• {m.escape(prompt)} ({m.escape(times_text)})")
    return as_screens("\n".join(lines), m)


MANY_DUE = 100
"""Due counts from this one on are shown as "over 99" (they are counted only that far)."""


def _due_header(count: int, t: Catalog) -> str:
    return t("review_due_many") if count >= MANY_DUE else t("review_due", count=count)


def _review_view(
    it: ReviewItem, chosen_slot: int | None = None, correct: bool | None = None, ticked: int = 0
) -> QuestionView:
    chosen = frozenset(s for s in range(len(it.slots)) if ticked >> s & 1)
    return QuestionView(
        question=it.question,
        position=0,
        total=1,
        slots=it.slots,
        correct_slot=it.correct_slot,
        chosen_slot=min(chosen) if chosen else chosen_slot,
        answer_correct=correct,
        chosen_slots=chosen,
    )


def _review_lines(
    it: ReviewItem, v: QuestionView, t: Catalog, m: Markup, marks: bool, due: int | None = None
) -> list[str]:
    """The quiz's question lines, with the review header (how many are due: ``due``, else the
    item's count; "Review" alone for none) in place of the question number and progress
    bar."""
    lines = _question_lines(it.bank, v, t, m, marks=marks)
    due = it.due_count if due is None else due
    lines[1] = m.escape(_due_header(due, t) if due > 0 else t("review_title"))
    return lines


def review_question(
    it: ReviewItem, t: Catalog, m: Markup, attempt_id: int = 0, ticked: int = 0
) -> Screen:
    """A due card's question in the quiz's format (title, header, prompt, options A-L with
    buttons; True and False; ☑/☐ per option and Submit for several right options, with the
    slots ``ticked``), options in the order :func:`bot.features.learning.rules.review_slots` chose
    for it; with the question's picture."""
    card = it.card
    ticks = Ticks(
        ticked,
        lambda slot: CardTickButton(card.id, card.reps, slot, ticked, attempt_id),
        CardSubmitButton(card.id, card.reps, ticked, attempt_id),
    )
    v = _review_view(it)
    keyboard = question_keyboard(
        v, t, lambda slot: CardAnswerButton(card.id, card.reps, slot, attempt_id), ticks
    )
    return Screen(
        "\n".join(_review_lines(it, v, t, m, marks=False)),
        keyboard,
        photo=it.question.picture,
        photo_note=picture_note(it.question.picture, t, m),
    )


def review_feedback(
    it: ReviewItem,
    slot: int,
    correct: bool,
    t: Catalog,
    m: Markup,
    *,
    next_card: CardNextButton | None,
    next_in: float | None,
    left: int,
    closing: bool = True,
    ticked: int = 0,
) -> Screen:
    """A reviewed card: the choice marked ✅/❌ (the slots ``ticked``, for a question with
    several right options), the correct option and the explanation, then a "next" button when
    more cards are due, else (with ``closing``) that all is done and when the next review is
    (``next_in`` seconds from now; None: not known). Its header counts the ``left`` questions
    due after this answer (the count the next question shows: this card's own count would be
    one too many)."""
    v = _review_view(it, slot, correct, ticked)
    lines = [
        *_review_lines(it, v, t, m, marks=True, due=left),
        "",
        *explanation_lines(it.bank, v, t, m),
    ]
    if next_card is not None:
        return Screen("\n".join(lines), ((Button(t("button_review_next"), next_card),),))
    if not closing:
        return Screen("\n".join(lines))
    lines += ["", m.bold(t("review_all_done"))]
    if next_in is not None:
        lines.append(m.escape(t("review_next_in", when=t.relative(next_in))))
    return Screen("\n".join(lines))


def review_done(next_in: float | None, t: Catalog, m: Markup) -> Screen:
    """/review with nothing due: when the next review is (``next_in`` seconds from now), or
    that there are no cards yet (``next_in`` None)."""
    if next_in is None:
        return Screen(m.escape(t("review_none_yet")))
    return Screen(m.escape(t("review_nothing_due", when=t.relative(next_in))))


def reminder(count: int, t: Catalog, m: Markup) -> Screen:
    """The daily reminder: how many questions are due, and a button that starts the review."""
    text = t("reminder_many") if count >= MANY_DUE else t("reminder", count=count)
    return Screen(m.escape(text), ((Button(t("button_review_start"), StartReviewButton()),),))


def remind_status(on: bool, t: Catalog, m: Markup) -> Screen:
    """The answer to /remind: the reminder is now on (how it works) or off."""
    return Screen(m.escape(t("remind_on" if on else "remind_off")))


def stats_with_review(
    records: Sequence[BankStats],
    banks: Mapping[str, Bank],
    due: int,
    t: Catalog,
    m: Markup,
    unnamed: Callable[[str], str] | None = None,
) -> list[Screen]:
    """:func:`stats` with how many questions are due for review and, when any is, a button
    that starts the review (on the last screen)."""
    screens = stats(records, banks, t, m, unnamed)
    if due <= 0:
        return screens
    line = m.escape(t("stats_due", count=due) if due < MANY_DUE else t("review_due_many"))
    last = screens[-1]
    extra = as_screens(
        f"{last.text}\n\n{line}", m, ((Button(t("button_review_start"), StartReviewButton()),),)
    )
    return screens[:-1] + extra


def known_text(progress: Progress, t: Catalog, m: Markup) -> str:
    """When each question is due for review ("due now", "in 3 days": FSRS's interval, see
    :func:`bot.features.learning.rules.due_in_days`), soonest first: the chart's second panel as
    text (for the terminal)."""
    lines = [m.bold(t("known_header"))]
    for bank, question_id, days in sorted(progress.cards, key=lambda c: c[2]):
        lang = bank.language_for(t.language)
        prompt = bank.question(question_id).prompt.get(lang, bank.default_language)
        when = t("known_due_now") if days <= 0 else t.relative(days * DAY)
        lines.append(f"• {m.escape(when)}: {m.escape(prompt)}")
    return "\n".join(lines)
