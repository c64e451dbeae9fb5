"""Screens of a quiz in a private chat (and in ``quizbot play``): the intro, the questions and
their feedback, the outcome, the review of missed questions, the preview, the language and bank
pickers, the private /settings (what follows an answer), and /deletemydata's question.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from bot.features.learning.ports import ScorePoint
from bot.features.preferences.flow import AnswerFlow
from bot.features.sharing.screens import share_row
from bot.i18n import SUPPORTED, Catalog
from bot.kernel.bank import Bank
from bot.kernel.engine import FINISHED, Attempt, Result, result, view
from bot.render.callbacks import (
    AnswerButton,
    BankButton,
    FlowButton,
    LanguageButton,
    NextButton,
    RetakeButton,
    ReviewButton,
    SubmitButton,
    TickButton,
)
from bot.render.limits import MAX_KEYBOARD_BUTTONS
from bot.render.question import (
    Ticks,
    _question_lines,
    explanation_lines,
    marked_keyboard,
    notes_lines,
    option_text,
    question,
)
from bot.render.screen import (
    LANGUAGES_PER_ROW,
    MAX_BUTTON_LABEL,
    Button,
    Screen,
    UrlButton,
    as_screens,
    rows_of,
)
from bot.render.text import Markup, clip, pack


def _guide_row(bank: Bank, language: str) -> tuple[tuple[Button, ...], ...]:
    if bank.guide is None:
        return ()
    label = bank.guide.label.get(language, bank.default_language)
    return ((Button(f"📘 {label}", UrlButton(bank.guide.url)),),)


def intro(bank: Bank, t: Catalog, m: Markup, *, name: str | None = None) -> Screen:
    """The greeting and bank introduction sent before the first question."""
    lang = bank.language_for(t.language)
    lines = []
    if name is not None:
        lines += [m.escape(t("greeting", name=name)), ""]
    lines += [
        m.bold(bank.title.get(lang, bank.default_language)),
        m.escape(
            f"{t('level_line', level=t('level.' + bank.level))} · "
            f"{t('question_count', count=len(bank.questions))}"
        ),
        "",
        m.escape(bank.description.get(lang, bank.default_language)),
    ]
    return Screen("\n".join(lines), _guide_row(bank, lang))


def attempt_question(bank: Bank, attempt: Attempt, t: Catalog, m: Markup) -> Screen:
    """The attempt's current question, with answer buttons for it.

    Raises:
        BankChanged: the attempt was planned on another bank version.
    """
    return ticked_question(bank, attempt, 0, t, m)


def ticked_question(bank: Bank, attempt: Attempt, ticked: int, t: Catalog, m: Markup) -> Screen:
    """The attempt's current question with the slots ``ticked`` (bit ``s`` for slot ``s``)
    shown ☑ (a question with several right options: the ticks live in the buttons, each
    tick button carrying the ticks it was drawn with, until Submit).

    Raises:
        BankChanged: the attempt was planned on another bank version.
    """
    v = view(attempt, bank)
    ticks = Ticks(
        ticked,
        lambda slot: TickButton(attempt.id, v.position, slot, ticked),
        SubmitButton(attempt.id, v.position, ticked),
    )
    return question(bank, v, t, m, lambda slot: AnswerButton(attempt.id, v.position, slot), ticks)


def current_screens(
    bank: Bank,
    attempt: Attempt,
    updated: bool,
    t: Catalog,
    m: Markup,
    previous_best: ScorePoint | None = None,
    *,
    share: bool = False,
) -> list[Screen]:
    """The attempt's question at its position (after :meth:`QuizService.current
    <bot.features.private.service.QuizService.current>`), headed by a notice if it was ``updated``
    since the attempt started; the score (one or more messages) if the attempt is finished, compared
    with ``previous_best``, with a "Share" button when ``share``."""
    if attempt.status == FINISHED:
        return outcome(bank, attempt, t, m, previous_best, share=share)
    screen = attempt_question(bank, attempt, t, m)
    if updated:
        screen = Screen(f"{m.italic(t('question_updated'))}\n\n{screen.text}", screen.keyboard)
    return [screen]


def resume_screens(
    bank: Bank, attempt: Attempt, updated: bool, t: Catalog, m: Markup, *, share: bool = False
) -> list[Screen]:
    """An attempt resumed by /start: where it stands ("question 3 of 10"), then
    :func:`current_screens`."""
    notice = Screen(
        m.escape(t("resume", number=min(attempt.position + 1, attempt.total), total=attempt.total))
    )
    return [notice, *current_screens(bank, attempt, updated, t, m, share=share)]


def feedback(
    bank: Bank, attempt: Attempt, position: int, t: Catalog, m: Markup, *, one_tap: bool = False
) -> Screen:
    """The answered question: the choice marked ✅/❌, the correct option, the explanation;
    the option buttons marked the same and styled (:func:`marked_keyboard`), and a button to
    go on (or to see the score after the last question), none in the one-tap flow
    (:attr:`AnswerFlow.ONE_TAP`: what follows is sent at once, below it)."""
    v = view(attempt, bank, position)
    lines = [*_question_lines(bank, v, t, m, marks=True), "", *explanation_lines(bank, v, t, m)]
    marked = marked_keyboard(v, t)
    if one_tap:
        return Screen("\n".join(lines), marked)
    last = position + 1 >= attempt.total
    label = t("button_results") if last else t("button_next")
    return Screen("\n".join(lines), (*marked, (Button(label, NextButton(attempt.id, position)),)))


def outcome(
    bank: Bank,
    attempt: Attempt,
    t: Catalog,
    m: Markup,
    previous_best: ScorePoint | None = None,
    *,
    share: bool = False,
) -> list[Screen]:
    """The end of an attempt: the score, the missed questions, retake and review buttons.

    Args:
        previous_best: The user's best earlier attempt on the bank, if any: the score is
            compared with it ("5/8 → 7/8, your best!", or the best so far when not beaten).
        share: Add a "Share" button (:func:`share_row`: Telegram with inline mode on).

    Returns:
        One screen, or several of at most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units when
        the list of missed questions is long; the buttons are on the last.
    """
    lang = bank.language_for(t.language)
    res: Result = result(attempt)
    lines = score_lines(bank, attempt, t, m, previous_best)
    if not res.missed:
        lines += ["", m.escape(t("result_perfect"))]
    else:
        lines += ["", m.escape(t("result_missed"))]
        for question_id in _in_bank(bank, res.missed):
            number = attempt.plan.question_order.index(question_id) + 1
            prompt = bank.question(question_id).prompt.get(lang, bank.default_language)
            lines.append(f"{number}. {m.escape(prompt)}")
    buttons = [Button(t("button_retake"), RetakeButton(bank.id))]
    if res.missed:
        buttons.append(Button(t("button_review"), ReviewButton(attempt.id)))
    rows = tuple((b,) for b in buttons) + (share_row(bank, t) if share else ())
    return as_screens("\n".join(lines), m, rows)


def score_lines(
    bank: Bank, attempt: Attempt, t: Catalog, m: Markup, previous_best: ScorePoint | None = None
) -> list[str]:
    """The head of an end screen: the title, the bank, the score and its comparison with
    ``previous_best`` (the user's best earlier attempt on the bank, if any)."""
    lang = bank.language_for(t.language)
    res: Result = result(attempt)
    lines = [
        m.bold(f"🏁 {t('result_title')}"),
        m.bold(bank.title.get(lang, bank.default_language)),
        "",
        m.escape(t("result_score", score=res.score, total=res.total)),
    ]
    if previous_best is not None:
        if res.score * previous_best.total > previous_best.score * res.total:
            lines.append(
                m.bold(
                    t(
                        "result_improved",
                        before=previous_best.score,
                        before_total=previous_best.total,
                        score=res.score,
                        total=res.total,
                    )
                )
            )
        else:
            lines.append(
                m.escape(t("result_best", best=previous_best.score, best_total=previous_best.total))
            )
    return lines


def _in_bank(bank: Bank, question_ids: Iterable[str]) -> tuple[str, ...]:
    """The ids the bank still has: an answered question removed from the bank without a version
    bump still counts in the score, but has no text left to show."""
    present = {question.id for question in bank.questions}
    return tuple(question_id for question_id in question_ids if question_id in present)


def review(bank: Bank, attempt: Attempt, t: Catalog, m: Markup) -> list[Screen]:
    """The missed questions with the correct answers and explanations, split into messages of at
    most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units (a question is kept in one message)."""
    missed = _in_bank(bank, result(attempt).missed)
    if not missed:
        return [Screen(m.escape(t("review_none")))]
    lang = bank.language_for(t.language)
    blocks = [m.bold(t("review_header"))]
    for question_id in missed:
        position = attempt.plan.question_order.index(question_id)
        v = view(attempt, bank, position)
        right = [option_text(bank, v.question, i, t) for i in sorted(v.question.correct_indices)]
        blocks.append(
            "\n".join(
                [
                    m.bold(f"{position + 1}. {v.question.prompt.get(lang, bank.default_language)}"),
                    *(f"✅ {m.escape(text)}" for text in right),
                    *(line for line in notes_lines(bank, v.question, t, m, gap=False) if line),
                ]
            )
        )
    return [Screen(text) for text in pack(blocks, m=m)]


def preview(bank: Bank, t: Catalog, m: Markup, *, share: bool = False) -> list[Screen]:
    """Title, level, description and the questions without their answers.

    Args:
        share: Add a "Share" button (:func:`share_row`: Telegram with inline mode on).

    Returns:
        One screen, or several of at most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units for a
        long bank; the guide and share buttons are on the last.
    """
    lang = bank.language_for(t.language)
    head = intro(bank, t, m)
    lines = [head.text, "", m.bold(t("preview_header"))]
    for number, q in enumerate(bank.questions, start=1):
        lines.append(f"{number}. {m.escape(q.prompt.get(lang, bank.default_language))}")
    lines += ["", m.italic(t("preview_footer"))]
    return as_screens("\n".join(lines), m, head.keyboard + (share_row(bank, t) if share else ()))


def answer_flow_screen(current: AnswerFlow, t: Catalog, m: Markup) -> Screen:
    """The private /settings: what follows an answer, both ways explained, one button each
    (the current one ticked)."""
    lines = [
        m.bold(t("flow_title")),
        "",
        m.escape(t("flow_next_about")),
        "",
        m.escape(t("flow_one_tap_about")),
    ]
    buttons = tuple(
        (
            Button(
                ("✓ " if flow is current else "") + t(f"flow_{flow.value}"), FlowButton(flow.value)
            ),
        )
        for flow in AnswerFlow
    )
    return Screen("\n".join(lines), buttons)


def language_picker(current: str, t: Catalog, m: Markup) -> Screen:
    """A prompt with one button per supported language, named in its own script, in rows of
    :data:`LANGUAGES_PER_ROW` (a phone shows a row's buttons side by side)."""
    buttons = [
        Button(("✓ " if code == current else "") + t.language_name(code), LanguageButton(code))
        for code in SUPPORTED
    ]
    return Screen(m.escape(t("language_prompt")), rows_of(buttons, LANGUAGES_PER_ROW))


def bank_choice(banks: Iterable[Bank], t: Catalog, m: Markup, *, header: str) -> Screen:
    """``header`` and one button per bank: its title in the user's language, clipped to
    :data:`MAX_BUTTON_LABEL` characters; at most :data:`MAX_KEYBOARD_BUTTONS` banks (the others
    are still reachable with ``/quiz <id>``)."""
    rows = tuple(
        (
            Button(
                clip(b.title.get(b.language_for(t.language), b.default_language), MAX_BUTTON_LABEL),
                BankButton(b.id),
            ),
        )
        for b in itertools.islice(banks, MAX_KEYBOARD_BUTTONS)
    )
    return Screen(m.escape(header), rows)
