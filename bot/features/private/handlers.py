"""Thin PTB callbacks for private chats (their buttons are routed by :mod:`bot.routes`).

No quiz rules and no user-facing literals live here: the engine decides, the catalogs speak.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from telegram import CallbackQuery, Update, User
from telegram.error import TelegramError

from bot import i18n
from bot.features.learning.service import LearningService
from bot.features.myquizzes.service import CREATED_ID
from bot.features.preferences.catalogs import catalog_for
from bot.features.preferences.service import PreferencesService
from bot.features.private import screens as private_screens
from bot.features.private.advance import (
    Acknowledge,
    AnsweredBefore,
    AnswerOutcome,
    NextShown,
    NotRecorded,
    QuestionEdited,
    answer_tap,
    next_question,
)
from bot.features.private.service import QuizService
from bot.features.private.starting import Resumed, Started, resume_or_start
from bot.features.sharing.handlers import sharing_on
from bot.i18n import Catalog
from bot.kernel import engine
from bot.kernel.bank import Bank
from bot.kernel.registry import BankUnavailable
from bot.render import callbacks as render_callbacks
from bot.render import links as render_links
from bot.render import text as render_text
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import (
    SHARED_SENDERS,
    Context,
    StartLink,
    edit,
    edit_keyboard,
    query_chat_id,
    reach,
    send,
    send_to_query_chat,
    shows,
    toast,
)
from bot.telegram.transport import results_unread

log = logging.getLogger(__name__)

TOASTS: dict[type[engine.QuizError], str] = {
    engine.StaleQuestion: "toast_stale",
    engine.AlreadyAnswered: "toast_answered",
    engine.AttemptClosed: "toast_closed",
    engine.BankChanged: "toast_bank_changed",
    # someone else's attempt is refused as one that does not exist: attempt ids can't be probed
    engine.NotYourAttempt: "toast_invalid",
    engine.NotAnswered: "toast_not_answered",
    engine.InvalidOption: "toast_invalid",
    engine.NotFinished: "toast_invalid",
    engine.UnknownAttempt: "toast_invalid",
    engine.UnknownBank: "toast_invalid",
    BankUnavailable: "toast_invalid",  # a created quiz taken down
    engine.NothingChosen: "toast_nothing_chosen",
    engine.QuestionChanged: "toast_invalid",  # a tap shows the question as it is now, first
}
"""The engine's refusals (a private quiz's, and those the other features share) -> the catalog
key of the toast that answers a tap they refuse (merged by :data:`bot.routes.TOASTS`)."""

# --- commands ------------------------------------------------------------------------------


async def open_bank(
    context: Context, chat_id: int, user: User, bank_id: str | None, t: Catalog
) -> None:
    """``/start <bank id>`` (:func:`bot.render.bank_link`, a shared quiz's link; None: a bare
    /start): resume the active attempt or start the bank; a bank that may not be started is
    refused (:func:`refused_unknown_bank`)."""
    service = reach(context, QuizService)
    if await refused_unknown_bank(context, chat_id, t, bank_id):
        return
    outcome = await resume_or_start(service, user.id, bank_id)
    if isinstance(outcome, Resumed):
        attempt = outcome.attempt
        for screen in private_screens.resume_screens(
            await service.bank_of(attempt),
            attempt,
            outcome.updated,
            t,
            HTML,
            share=sharing_on(context),
        ):
            await send(context, chat_id, screen)
    elif isinstance(outcome, Started):
        await show_start(context, chat_id, user, outcome, t, greet=True)
    else:  # several banks and none asked for
        await send(context, chat_id, Screen(HTML.escape(t("greeting", name=user.first_name))))
        await send(
            context,
            chat_id,
            private_screens.bank_choice(
                service.registry.featured.values(), t, HTML, header=t("choose_bank")
            ),
        )


async def open_list(context: Context, chat_id: int, user: User, payload: str, t: Catalog) -> None:
    """``/start list_quizzes`` (:data:`bot.render.LIST_PAYLOAD`, the button above an inline
    query's empty results): the featured banks to choose from."""
    service = reach(context, QuizService)
    await send(
        context,
        chat_id,
        private_screens.bank_choice(
            service.registry.featured.values(), t, HTML, header=t("choose_bank")
        ),
    )


LIST_LINK = StartLink(lambda payload: payload == render_links.LIST_PAYLOAD, open_list)
"""The list of quizzes (``list_quizzes``)."""
BANK_LINK = StartLink(lambda payload: True, open_bank)
"""A bank's id: any payload no other link takes (an unknown one is refused by name)."""


async def cmd_quiz(update: Update, context: Context) -> None:
    """/quiz [bank]: start a bank from the beginning (a choice when several are installed)."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    service = reach(context, QuizService)
    t = await catalog_for(context, user)
    bank_id = context.args[0] if context.args else None
    if await refused_unknown_bank(context, chat.id, t, bank_id):
        return
    bank = await service.bank(bank_id) if bank_id else service.default_bank
    if bank is None:
        await send(
            context,
            chat.id,
            private_screens.bank_choice(
                service.registry.featured.values(), t, HTML, header=t("choose_bank")
            ),
        )
        return
    await start_bank(context, chat.id, user, bank, t, greet=False)


async def refused_unknown_bank(
    context: Context, chat_id: int, t: Catalog, bank_id: str | None
) -> bool:
    """If ``bank_id`` (a command argument or deep-link payload) names no bank that may be
    started (featured, or a created quiz not taken down), say so with the list of featured
    banks and return True; nothing else changes. A created quiz's id (a shared link) is not
    named back: the quiz is said to be no longer available (deleted or taken down)."""
    service = reach(context, QuizService)
    if bank_id is None or await service.registry.startable(bank_id):
        return False
    gone = CREATED_ID.fullmatch(bank_id) is not None  # a shared link to a created quiz
    await send(
        context,
        chat_id,
        private_screens.bank_choice(
            service.registry.featured.values(),
            t,
            HTML,
            header=t("quiz_gone") if gone else t("unknown_bank", name=render_text.clip(bank_id)),
        ),
    )
    return True


async def start_bank(
    context: Context, chat_id: int, user: User, bank: Bank, t: Catalog, *, greet: bool
) -> None:
    """Start a fresh attempt: send the bank's intro, then the first question."""
    attempt = await reach(context, QuizService).start(user.id, bank.id)
    await show_start(context, chat_id, user, Started(attempt, bank), t, greet=greet)


async def show_start(
    context: Context, chat_id: int, user: User, started: Started, t: Catalog, *, greet: bool
) -> None:
    """Send a started attempt's intro (greeting the user by name when ``greet``), then its
    first question."""
    with results_unread():  # the messages are not read back: PTB builds no objects of them
        await send(
            context,
            chat_id,
            private_screens.intro(started.bank, t, HTML, name=user.first_name if greet else None),
        )
        await send(
            context,
            chat_id,
            private_screens.attempt_question(started.bank, started.attempt, t, HTML),
        )


async def cmd_preview(update: Update, context: Context) -> None:
    """/preview [bank]: title, level, description and the questions, without answers."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    service = reach(context, QuizService)
    t = await catalog_for(context, user)
    bank_id = context.args[0] if context.args else None
    if await refused_unknown_bank(context, chat.id, t, bank_id):
        return
    banks: Sequence[Bank] = (
        [await service.bank(bank_id)] if bank_id else list(service.registry.featured.values())
    )
    for bank in banks:
        for screen in private_screens.preview(bank, t, HTML, share=sharing_on(context)):
            await send(context, chat.id, screen)


async def cmd_language(update: Update, context: Context) -> None:
    """/language: a picker of the supported languages, each named in its own script."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    await send(context, chat.id, private_screens.language_picker(t.language, t, HTML))


async def cmd_stop(update: Update, context: Context) -> None:
    """/stop: abandon the active attempt (answers given so far stay recorded)."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    stopped = await reach(context, QuizService).stop(user.id)
    await send(context, chat.id, Screen(HTML.escape(t("stop_done" if stopped else "stop_none"))))


async def cmd_help(update: Update, context: Context) -> None:
    """/help: what the bot does and its commands."""
    user, chat = update.effective_user, update.effective_chat
    assert chat is not None
    t = await catalog_for(context, user)
    await send(context, chat.id, Screen(HTML.escape(t("help") + "\n\n" + t("help_creators"))))


# --- callback queries ----------------------------------------------------------------------


async def on_answer(
    query: CallbackQuery, context: Context, button: render_callbacks.AnswerButton, t: Catalog
) -> None:
    """An option tap: the core checks it, records it durably and says what to show
    (:func:`bot.features.private.advance.answer_tap`, which has the query answered once the tap is
    accepted, before the write); this shows it: the feedback (and, in the user's one-tap flow, the
    next question or the score at once below it).

    A tap on a question answered already (a double tap, or a tap Telegram delivers again after
    a crash that came between recording and showing) shows the recorded feedback again when
    the query's message does not show it yet (a lost edit is made good); when it does, no
    edit is made (Telegram would refuse it "message is not modified"). In the one-tap flow
    such a tap also sends what follows when it was never sent (its send failed), so a learner
    without a "Next" button is never stuck.
    """
    await _answer(query, context, button.attempt_id, button.position, t, slot=button.slot)


async def on_submit(
    query: CallbackQuery, context: Context, button: render_callbacks.SubmitButton, t: Catalog
) -> None:
    """Submit on a question with several right options: the ticked slots (carried by the
    button) are graded, recorded and shown as an option tap's (:func:`on_answer`); Submit with
    nothing ticked is refused with a toast (``NothingChosen``)."""
    await _answer(query, context, button.attempt_id, button.position, t, ticked=button.ticked)


async def _answer(
    query: CallbackQuery,
    context: Context,
    attempt_id: int,
    position: int,
    t: Catalog,
    *,
    slot: int | None = None,
    ticked: int | None = None,
) -> None:
    """The answer (an option ``slot``, or the ``ticked`` slots) made by the one use-case call,
    then shown (:func:`on_answer`)."""
    outcome = await answer_tap(
        reach(context, QuizService),
        reach(context, LearningService),
        reach(context, PreferencesService),
        query.from_user.id,
        attempt_id,
        position,
        slot=slot,
        ticked=ticked,
        language=t.language,
        acknowledge=_acknowledge(query, t),
    )
    await _show_answer(query, context, outcome, position, t)


async def on_tick(
    query: CallbackQuery, context: Context, button: render_callbacks.TickButton, t: Catalog
) -> None:
    """A tick on a question with several right options: checked as a tap would be (another
    user's, stale or forged buttons are refused and change nothing), then the keyboard is
    edited in place with the slot ticked or unticked. Nothing is stored: the ticks live in
    the buttons, so a restart between a tick and Submit loses nothing."""
    ticked = button.ticked ^ (1 << button.slot)
    service = reach(context, QuizService)
    attempt, bank = await service.tick(
        query.from_user.id, button.attempt_id, button.position, ticked
    )
    await toast(query)
    await edit_keyboard(query, private_screens.ticked_question(bank, attempt, ticked, t, HTML))


def _acknowledge(query: CallbackQuery, t: Catalog) -> Acknowledge:
    """Answer an answer tap's query as soon as the core accepted the tap (before it records):
    "answered already" for a question answered before, else without a text."""

    async def acknowledge(answered_before: bool) -> None:
        await toast(query, t("toast_answered") if answered_before else None)

    return acknowledge


async def _show_answer(
    query: CallbackQuery, context: Context, outcome: AnswerOutcome, position: int, t: Catalog
) -> None:
    """Show what the answer tap on the question at ``position`` came to (its query was answered
    by :func:`_acknowledge`); what follows is noted shown once it was sent (:func:`show_next`),
    and a recorded answer's review card is let go once its feedback is out (or could not be
    shown)."""
    if isinstance(outcome, NotRecorded):
        if outcome.failed:
            await send_to_query_chat(query, context, Screen(HTML.escape(t("storage_failed"))))
        return
    if isinstance(outcome, QuestionEdited):
        for screen in private_screens.current_screens(
            outcome.bank, outcome.attempt, outcome.updated, t, HTML
        ):
            await send_to_query_chat(query, context, screen)
        return
    if isinstance(outcome, AnsweredBefore):
        feedback = private_screens.feedback(
            outcome.bank, outcome.attempt, position, t, HTML, one_tap=outcome.one_tap
        )
        if not shows(query, feedback):
            await edit(query, feedback)
        if outcome.next is not None:
            await show_next(query, context, outcome.next, position, t)
        return
    try:
        with results_unread():  # the edited message is not read back
            await edit(
                query,
                private_screens.feedback(
                    outcome.bank, outcome.attempt, position, t, HTML, one_tap=outcome.one_tap
                ),
            )
        if outcome.next is not None:  # the next question (or the score) at once, below it
            try:
                await show_next(query, context, outcome.next, position, t)
            except TelegramError:  # it may not have come, and the feedback has no button
                await _offer_next(query, outcome.bank, outcome.attempt, position, t)
                raise
    finally:  # the review card, once the feedback is out (or could not be shown)
        await reach(context, QuizService).answered(outcome.attempt, outcome.answer)


async def _offer_next(
    query: CallbackQuery, bank: Bank, attempt: engine.Attempt, position: int, t: Catalog
) -> None:
    """The one-tap flow's next question could not be sent (a send that may have reached
    Telegram is not repeated): the feedback, which has no button in this flow, gets "Next", so
    the learner can ask for it (:func:`on_next` sends it until it is noted shown)."""
    try:
        await edit(query, private_screens.feedback(bank, attempt, position, t, HTML, one_tap=False))
    except TelegramError as exc:
        log.info("user %s: the Next button could not be added: %s", query.from_user.id, exc)


async def on_next(
    query: CallbackQuery, context: Context, button: render_callbacks.NextButton, t: Catalog
) -> None:
    """ "Next": answer the query, send the next question (or the score). Nothing is stored:
    the answer moved the attempt on already.

    When the send fails in a way that may have left the question unposted (a transient
    failure: sends are not retried once they may have reached Telegram), another tap on "next"
    sends it again rather than being refused as stale.
    """
    quiz = reach(context, QuizService)
    shown = await next_question(
        quiz,
        reach(context, LearningService),
        query.from_user.id,
        button.attempt_id,
        button.position,
    )
    await toast(query)
    # the feedback stays as it is (a second tap on its button is answered as stale): one edit
    # less per question keeps the bot further from Telegram's limits
    await show_next(query, context, shown, button.position, t)


async def show_next(
    query: CallbackQuery, context: Context, shown: NextShown, position: int, t: Catalog
) -> None:
    """Send what comes after the question at ``position`` (its next question, or the score),
    then note it shown (``QuizService.shown``): until it is, the same "Next" or a tap on the
    answered question (one-tap flow) sends it again, so a send that failed leaves no user
    stuck."""
    with results_unread():  # the messages are not read back: PTB builds no objects of them
        for screen in private_screens.current_screens(
            shown.bank,
            shown.attempt,
            shown.updated,
            t,
            HTML,
            shown.previous_best,
            share=sharing_on(context),
        ):
            await send_to_query_chat(query, context, screen)
    await reach(context, QuizService).note_shown(shown.attempt.id, position)


async def on_language(
    query: CallbackQuery, context: Context, button: render_callbacks.LanguageButton
) -> None:
    """A language choice (checked to be supported by the router): store it and confirm in the
    new language. A shared placeholder user (never the sender of a tap) is nobody."""
    if query.from_user.id in SHARED_SENDERS:
        raise engine.NotYourAttempt(0)
    await reach(context, PreferencesService).choose_language(query.from_user.id, button.language)
    t = i18n.catalog(button.language)
    await toast(query)
    await edit(query, Screen(HTML.escape(t("language_set"))))


async def on_bank(query: CallbackQuery, context: Context, bank_id: str, t: Catalog) -> None:
    """ "Retake" or a bank choice: start that bank from the beginning."""
    bank = await reach(context, QuizService).bank(bank_id)
    await toast(query)
    await start_bank(context, query_chat_id(query), query.from_user, bank, t, greet=False)
