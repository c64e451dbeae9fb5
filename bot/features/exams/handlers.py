"""Exam mode's Telegram handlers: a bank with exam mode opened as an exam (its intro and Start
button) however it is started in private (its link, /quiz, a bare /start, a bank list,
Retake), an exam resumed by /start, the Start tap, an answer (recorded, no feedback: the
next question follows) and a tick on a question with several right options (the exams' job
is :mod:`bot.features.exams.jobs`)."""

from __future__ import annotations

from telegram import CallbackQuery, Update, User

from bot.features.exams import screens
from bot.features.exams.service import ExamService, NotAnExam, Sitting, TimeUp
from bot.features.preferences.catalogs import catalog_for
from bot.features.private import handlers as private
from bot.features.private.handlers import open_bank
from bot.features.private.service import QuizService
from bot.i18n import Catalog
from bot.kernel.engine import QuizError
from bot.render import callbacks as render_callbacks
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import (
    Context,
    StartLink,
    edit_keyboard,
    query_chat_id,
    reach,
    send,
    toast,
)

TOASTS: dict[type[QuizError], str] = {
    NotAnExam: "toast_invalid",
    TimeUp: "exam.toast_time_up",
}
"""Exam mode's refusals -> the catalog key of their toast (merged by :data:`bot.routes.TOASTS`)."""


async def show(context: Context, chat_id: int, sitting: Sitting, t: Catalog) -> None:
    """Send what a sitting shows: its question with the time left, or its end."""
    if sitting.finished:
        for screen in screens.result(sitting, t, HTML, timed_out=sitting.timed_out):
            await send(context, chat_id, screen)
        return
    service = reach(context, ExamService)
    left = service.remaining(sitting.terms)
    await send(
        context,
        chat_id,
        screens.exam_question(sitting.bank, sitting.attempt, sitting.terms, left, t, HTML),
    )


async def open_exam(
    context: Context, chat_id: int, user: User, bank_id: str | None, t: Catalog
) -> None:
    """``/start`` (``bank_id`` None) or ``/start <bank id>``: an exam under way is resumed
    (where it stands, then its question; submitted first if its time ran out); a bank with
    exam mode (the one named, or with nothing to resume the only one installed) shows its
    intro and Start button; anything else is the private quiz's
    (:func:`bot.features.private.handlers.open_bank`)."""
    service = reach(context, ExamService)
    sitting = await service.active(user.id)
    if sitting is not None and bank_id in (None, sitting.bank.id):
        if not sitting.finished:
            await send(context, chat_id, screens.resumed(sitting.attempt, t, HTML))
        await show(context, chat_id, sitting, t)
        return
    chosen = bank_id
    if chosen is None and await service.quiz.active(user.id) is None:
        default = service.quiz.default_bank  # a bare /start starts the only bank installed
        chosen = None if default is None else default.id
    if chosen is not None and await offered(context, chat_id, chosen, t):
        return
    await open_bank(context, chat_id, user, bank_id, t)


async def offered(context: Context, chat_id: int, bank_id: str, t: Catalog) -> bool:
    """If the bank ``bank_id`` has exam mode, send its intro and Start button (the exam
    starts with the tap) and return True; else (no such bank either) False: nothing sent.
    Every way of starting a bank in private asks this first: a quiz with exam mode is
    always sat as an exam."""
    try:
        bank, exam = await reach(context, ExamService).exam_of(bank_id)
    except QuizError:
        return False
    if exam is None:
        return False
    await send(context, chat_id, screens.intro(bank, exam, t, HTML))
    return True


async def cmd_quiz(update: Update, context: Context) -> None:
    """/quiz [bank] in private: a bank with exam mode (the one named, or the only one
    installed) shows its intro and Start button; anything else is the private quiz's
    (:func:`bot.features.private.handlers.cmd_quiz`)."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    quiz = reach(context, QuizService)
    bank_id = context.args[0] if context.args else None
    if bank_id is None and quiz.default_bank is not None:
        bank_id = quiz.default_bank.id
    if bank_id is not None and await offered(
        context, chat.id, bank_id, await catalog_for(context, user)
    ):
        return
    await private.cmd_quiz(update, context)


async def on_bank(query: CallbackQuery, context: Context, bank_id: str, t: Catalog) -> None:
    """ "Retake" at a quiz's end, or a bank chosen from a list (the bank list, homework's
    "practise privately"): a bank with exam mode shows its intro and Start button; anything
    else starts as the private quiz's (:func:`bot.features.private.handlers.on_bank`)."""
    if await offered(context, query_chat_id(query), bank_id, t):
        await toast(query)
    else:
        await private.on_bank(query, context, bank_id, t)


EXAM_LINK = StartLink(lambda payload: True, open_exam)
"""A bank's link (``/start <bank id>``): opened as an exam when the bank has exam mode, else
as the private quiz opens it; before :data:`bot.features.private.handlers.BANK_LINK`, after
every other link."""


async def on_start(
    query: CallbackQuery, context: Context, button: render_callbacks.ExamStartButton, t: Catalog
) -> None:
    """Start (or Retake): a new paper is drawn and its timer starts; the first question is
    sent."""
    sitting = await reach(context, ExamService).start(
        query.from_user.id, button.bank_id, language=t.language
    )
    await toast(query)
    await show(context, query_chat_id(query), sitting, t)


async def on_answer(
    query: CallbackQuery, context: Context, button: render_callbacks.ExamAnswerButton, t: Catalog
) -> None:
    """An answer (an option's tap, or Submit of the ticked options): recorded without
    feedback; the question's buttons are taken away and the next question, or the end, is
    sent. Once the time is up the exam is submitted without it and its end is sent."""
    sitting = await reach(context, ExamService).answer(
        query.from_user.id, button.attempt_id, button.position, button.ticked
    )
    await toast(query, t("exam.toast_time_up") if sitting.timed_out else None)
    await edit_keyboard(query, Screen(""))
    await show(context, query_chat_id(query), sitting, t)


async def on_tick(
    query: CallbackQuery, context: Context, button: render_callbacks.ExamTickButton, t: Catalog
) -> None:
    """A tick on a question with several right options: the keyboard is drawn again with the
    slot ticked or unticked; nothing is stored."""
    ticked = button.ticked ^ (1 << button.slot)
    service = reach(context, ExamService)
    attempt, bank, terms = await service.tick(
        query.from_user.id, button.attempt_id, button.position, ticked
    )
    await toast(query)
    screen = screens.exam_question(
        bank, attempt, terms, service.remaining(terms), t, HTML, ticked=ticked
    )
    await edit_keyboard(query, screen)
