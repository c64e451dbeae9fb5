"""``quizbot play`` on a quiz with exam mode: the exam's intro, a paper against the exam's
timer (shown above each question, on the real clock), no feedback until the end, then the
marks and every question with its right answer, as Telegram's exam shows them
(:mod:`bot.features.exams`). The exam is submitted when time is up: at the next answer, or
while the player is still thinking (the wait for a reply ends at the deadline)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot import i18n
from bot.features.exams import screens as exam_screens
from bot.features.exams.service import ExamService, Sitting, TimeUp
from bot.kernel import engine
from bot.kernel.bank import TRUE_FALSE, Bank
from bot.render.text import PLAIN
from bot.terminal.replies import QUIT, true_false_words

Ask = Callable[[str], Awaitable[str]]
"""Show a prompt, return the line typed (raises EOFError at end of input)."""
Choose = Callable[
    [Ask, Callable[[str], None], i18n.Catalog, str, bool, dict[str, str]], Awaitable[str]
]
"""Reads the option label(s) of a question (:func:`bot.terminal.play._choice`)."""


async def exam_to_sit(
    exams: ExamService, user_id: int, bank: Bank | None
) -> tuple[Sitting | None, Bank | None]:
    """What ``quizbot play`` sits as an exam: the player's exam under way (when no bank, or
    its bank, was asked for), or the bank to start as one (``bank``, else the one play would
    start: the only bank installed, else the first), when it has exam mode and there is no
    attempt to resume.

    Returns:
        The exam under way, or the bank whose exam to start; (None, None): no exam (a quiz
        is played, or resumed).
    """
    active = await exams.quiz.active(user_id)
    if active is not None and (bank is None or bank.id == active.bank_id):
        return await exams.active(user_id), None
    if bank is None:
        bank = exams.quiz.default_bank or next(iter(exams.quiz.registry.featured.values()), None)
    if bank is None or bank.exam is None:
        return None, None
    return None, bank


async def sit(
    exams: ExamService,
    sitting: Sitting | None,
    bank: Bank | None,
    t: i18n.Catalog,
    *,
    ask: Ask,
    write: Callable[[str], None],
    choose: Choose,
    picture: Callable[[str, i18n.Catalog], str],
    user_id: int,
    command: str,
) -> engine.Result | None:
    """Sit the exam ``sitting`` (resumed), or start ``bank``'s once the player presses Enter
    (its intro first); each question with the time left, answered without feedback; the end
    with the marks.

    Returns:
        The result once the exam was submitted; None when the player quit (the exam is kept,
        and its time keeps running) or did not start it.
    """
    if sitting is None:
        assert bank is not None and bank.exam is not None
        write(exam_screens.intro(bank, bank.exam, t, PLAIN, rules=t("play.exam_rules")).text)
        try:
            if (await ask(t("play.exam_start"))).strip().upper() in QUIT:
                raise EOFError
        except EOFError:
            write("\n" + t("play_quit", command=command))
            return None
        sitting = await exams.start(user_id, bank.id, language=t.language)
    elif not sitting.finished:
        write(exam_screens.resumed(sitting.attempt, t, PLAIN).text)
    try:
        sitting = await _questions(exams, sitting, t, ask, write, choose, picture, user_id)
    except EOFError:
        write("\n" + t("play.exam_quit", command=command))
        return None
    # only the time ends an exam with questions left blank (it may have been submitted by the
    # bot's pass on the same database: then this call did not submit it)
    ran_out = sitting.timed_out or sitting.marked.blank > 0
    for screen in exam_screens.result(sitting, t, PLAIN, timed_out=ran_out, retake=False):
        write("\n" + screen.text)
    if sitting.marked.right < sitting.attempt.total:  # its misses are due for review
        write("\n" + t("play.review_pointer", command=command))
    return engine.result(sitting.attempt)


async def _questions(
    exams: ExamService,
    sitting: Sitting,
    t: i18n.Catalog,
    ask: Ask,
    write: Callable[[str], None],
    choose: Choose,
    picture: Callable[[str, i18n.Catalog], str],
    user_id: int,
) -> Sitting:
    """Ask the sitting's questions until it is submitted: every one answered, or time up
    (then it is submitted with what was answered).

    Raises:
        EOFError: the player quit.
    """
    while not sitting.finished:
        left = exams.remaining(sitting.terms)
        attempt = sitting.attempt
        if left <= 0:  # submitted with what was answered
            return await exams.sitting(user_id, attempt.id)
        screen = exam_screens.exam_question(sitting.bank, attempt, sitting.terms, left, t, PLAIN)
        if screen.photo:
            write("\n" + picture(screen.photo, t))
        write("\n" + screen.text)
        position = attempt.position
        order = attempt.plan.option_orders[position]
        question = sitting.bank.question(attempt.plan.question_order[position])
        words = true_false_words(t, order) if question.kind == TRUE_FALSE else {}
        labels = engine.LABELS[: len(order)]
        try:
            chosen = await asyncio.wait_for(
                choose(ask, write, t, labels, question.several, words), timeout=left
            )
        except TimeoutError:  # the deadline came while the player was thinking: the next
            continue  # turn submits it (the time left is looked at again)
        ticked = sum(1 << engine.LABELS.index(label) for label in set(chosen))
        try:
            sitting = await exams.answer(user_id, attempt.id, position, ticked)
        except TimeUp:  # submitted meanwhile (another process's pass)
            return await exams.sitting(user_id, attempt.id)
    return sitting
