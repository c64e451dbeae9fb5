"""Exam mode's screens: the intro with its Start button, a question with the time left and no
feedback, and the end: the score in marks, then every question with the learner's answer, the
right answer and the explanation (as the review cards show them)."""

from __future__ import annotations

from bot.features.exams.rules import ExamTerms, Marked, clock
from bot.features.exams.service import Sitting
from bot.i18n import Catalog
from bot.kernel.bank import Bank, Exam
from bot.kernel.engine import Attempt, view
from bot.render.question import Ticks, notes_lines, option_text, question
from bot.render.screen import Button, Screen
from bot.render.teacher_callbacks import ExamAnswerButton, ExamStartButton, ExamTickButton
from bot.render.text import Markup, pack


def intro(bank: Bank, exam: Exam, t: Catalog, m: Markup, *, rules: str | None = None) -> Screen:
    """The exam's terms (questions, minutes, marking, no feedback until the end: ``rules``,
    default ``exam.rules``) and its Start button: the timer starts with the tap."""
    lang = bank.language_for(t.language)
    count = len(bank.questions) if exam.draw is None else exam.draw
    lines = [
        m.bold(bank.title.get(lang, bank.default_language)),
        "",
        m.escape(t("exam.questions", count=count)),
        m.escape(t("exam.minutes", count=exam.minutes)),
        m.escape(t("exam.marking", marks=t.number(exam.marks), penalty=t.number(exam.penalty))),
        "",
        m.italic(t("exam.rules") if rules is None else rules),
    ]
    return Screen("\n".join(lines), ((Button(t("exam.button_start"), ExamStartButton(bank.id)),),))


def exam_question(
    bank: Bank,
    attempt: Attempt,
    terms: ExamTerms,
    left: float,
    t: Catalog,
    m: Markup,
    ticked: int = 0,
) -> Screen:
    """The exam's question at its position with the time ``left`` (seconds) above it; its
    buttons answer at once (a tap records, no feedback), or tick then Submit for a question
    with several right options."""
    v = view(attempt, bank)
    ticks = Ticks(
        ticked,
        lambda slot: ExamTickButton(attempt.id, v.position, slot, ticked),
        ExamAnswerButton(attempt.id, v.position, ticked),
    )
    shown = question(
        bank, v, t, m, lambda slot: ExamAnswerButton(attempt.id, v.position, 1 << slot), ticks
    )
    timer = m.bold(t("exam.time_left", clock=clock(left)))
    return Screen(
        f"{timer}\n\n{shown.text}", shown.keyboard, photo=shown.photo, photo_note=shown.photo_note
    )


def _answer_text(bank: Bank, attempt: Attempt, position: int, t: Catalog) -> tuple[str, str]:
    """The learner's answer and the right one, as option texts (``exam.blank`` for none)."""
    v = view(attempt, bank, position)
    question_ = v.question
    right = ", ".join(option_text(bank, question_, i, t) for i in sorted(question_.correct_indices))
    answer = attempt.answers.get(question_.id)
    if answer is None:
        return t("exam.blank"), right
    if answer.correct:
        return right, right
    chosen = [i for i in sorted(answer.choice) if i < len(question_.options)]
    return ", ".join(option_text(bank, question_, i, t) for i in chosen) or "?", right


def result(
    sitting: Sitting, t: Catalog, m: Markup, *, timed_out: bool = False, retake: bool = True
) -> list[Screen]:
    """The end of an exam: the score in marks and the counts, then every question of the paper
    with the learner's answer (✅ right, ❌ wrong, ➖ blank), the marks it got, the right answer
    and the explanation; split into messages that fit, a question kept in one; a Retake button
    (a new paper) on the last one with ``retake``."""
    bank, attempt, terms = sitting.bank, sitting.attempt, sitting.terms
    marked: Marked = sitting.marked
    lang = bank.language_for(t.language)
    head = [
        m.bold(t("exam.result_title")),
        m.bold(bank.title.get(lang, bank.default_language)),
        "",
    ]
    if timed_out:
        head += [m.escape(t("exam.time_up")), ""]
    head += [
        m.bold(t("exam.result_marks", score=t.number(marked.score), total=t.number(marked.total))),
        m.escape(
            t("exam.result_counts", right=marked.right, wrong=marked.wrong, blank=marked.blank)
        ),
    ]
    blocks = ["\n".join(head)]
    present = {q.id for q in bank.questions}
    for position, question_id in enumerate(attempt.plan.question_order):
        if question_id not in present:
            continue
        v = view(attempt, bank, position)
        answer = attempt.answers.get(question_id)
        mark_ = "➖" if answer is None else ("✅" if answer.correct else "❌")
        got = terms.marks.get(question_id, 1.0) if answer and answer.correct else 0.0
        if answer is not None and not answer.correct:
            got = -terms.penalty
        yours, right = _answer_text(bank, attempt, position, t)
        prompt = v.question.prompt.get(lang, bank.default_language)
        blocks.append(
            "\n".join(
                [
                    m.bold(f"{mark_} {position + 1}. {prompt}") + m.escape(f" ({t.number(got)})"),
                    m.escape(t("exam.your_answer", answer=yours)),
                    m.escape(t("exam.right_answer", answer=right)),
                    *(line for line in notes_lines(bank, v.question, t, m, gap=False) if line),
                ]
            )
        )
    screens = [Screen(text) for text in pack(blocks, m=m)]
    if retake:
        button = Button(t("button_retake"), ExamStartButton(bank.id))
        screens[-1] = Screen(screens[-1].text, ((button,),))
    return screens


def resumed(attempt: Attempt, t: Catalog, m: Markup) -> Screen:
    """An exam resumed by /start: where it stands."""
    number_ = min(attempt.position + 1, attempt.total)
    return Screen(m.escape(t("exam.resume", number=number_, total=attempt.total)))
