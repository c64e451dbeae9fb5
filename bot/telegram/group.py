"""Thin PTB callbacks for group quiz sessions, and their deadline jobs (PTB's JobQueue).

Telegram lets a bot send about 20 messages a minute to one group (Bot API FAQ, "broadcasting"):
a session sends exactly two per question (the question, then its reveal as an edit) plus the
leaderboard, and nothing per answer: each member's answer is acknowledged privately by the
callback query's toast, in that member's own language. ``AIORateLimiter`` enforces the limit.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, TelegramError
from telegram.ext import Application, JobQueue

from bot import i18n, render
from bot.i18n import Catalog
from bot.quiz import group
from bot.quiz.engine import LABELS, QuizError
from bot.quiz.group import GroupSession
from bot.quiz.ports import StorageError
from bot.quiz.service import GroupService, SessionRunning
from bot.render import HTML, Screen
from bot.telegram.common import NO_PREVIEW, Context, catalog_for, keyboard, send, toast

log = logging.getLogger(__name__)

RETRY_SECONDS = 5.0
"""When posting a question or reveal fails (network), try again after this many seconds."""


def groups(context: Context) -> GroupService:
    """The group service from ``bot_data``."""
    return groups_of(context.application)


def display_name(user: User) -> str:
    """A member's name for the leaderboard: first and last name, never an @-mention."""
    return " ".join(filter(None, (user.first_name, user.last_name))) or str(user.id)


async def group_catalog(context: Context, chat_id: int) -> Catalog:
    """The group's catalog: its language if set, else English."""
    return i18n.catalog(await groups(context).language(chat_id) or i18n.DEFAULT)


async def is_admin(context: Context, chat: Chat, user: User | None,
                   message: Message | None = None) -> bool:
    """Whether ``user`` administers ``chat`` (an anonymous admin posts as the chat itself)."""
    if message is not None and message.sender_chat is not None:
        return message.sender_chat.id == chat.id
    if user is None:
        return False
    member = await context.bot.get_chat_member(chat.id, user.id)
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def reply(update: Update, context: Context, text: str) -> None:
    """A short plain reply in the group."""
    assert update.effective_chat is not None
    await send(context, update.effective_chat.id, Screen(HTML.escape(text)))


# --- commands ------------------------------------------------------------------------------

async def cmd_group_quiz(update: Update, context: Context) -> None:
    """/quiz [bank] in a group: start a session for everyone (one per chat)."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    service = groups(context)
    bank_id = context.args[0] if context.args else None
    if bank_id is None and len(service.banks) == 1:
        bank_id = next(iter(service.banks))
    if bank_id not in service.banks:
        t = await group_catalog(context, chat.id)
        await reply(update, context, t("group_choose_bank", banks=", ".join(service.banks)))
        return
    starter_language = (await catalog_for(context, user)).language
    try:
        session = await service.start(chat.id, bank_id, user.id, starter_language)
    except SessionRunning:
        t = await group_catalog(context, chat.id)
        await reply(update, context, t("group_running"))
        return
    await post_question(context.application, session, starter_name=display_name(user))


async def cmd_group_stop(update: Update, context: Context) -> None:
    """/stop in a group: end the session (its starter or an admin); show the standings."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    service = groups(context)
    t = await group_catalog(context, chat.id)
    session = await service.active(chat.id)
    if session is None:
        await reply(update, context, t("stop_none"))
        return
    allowed = (user is not None and user.id == session.starter_id) or await is_admin(
        context, chat, user, update.effective_message)
    if not allowed:
        await reply(update, context, t("group_stop_denied"))
        return
    if not await service.end(session, group.STOPPED):
        return  # it ended meanwhile
    cancel_deadline(context.application.job_queue, session.id)
    if session.is_open and session.message_id is not None:  # its buttons answer nothing now
        try:
            await context.bot.edit_message_reply_markup(chat.id, session.message_id,
                                                        reply_markup=None)
        except BadRequest as exc:
            log.debug("could not clear the stopped question's buttons: %s", exc.message)
    name = display_name(user) if user is not None else chat.title or ""
    await post_leaderboard(context.application, session, stopped_by=name)


async def cmd_group_language(update: Update, context: Context) -> None:
    """/language in a group: the picker, for admins."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None
    t = await group_catalog(context, chat.id)
    if not await is_admin(context, chat, user, update.effective_message):
        await reply(update, context, t("group_language_denied"))
        return
    await send(context, chat.id, render.language_picker(t.language, t, HTML))


async def cmd_group_help(update: Update, context: Context) -> None:
    """/help or /start in a group: how group quizzes work."""
    chat = update.effective_chat
    assert chat is not None
    t = await group_catalog(context, chat.id)
    await reply(update, context, t("group_help"))


# --- callback queries ----------------------------------------------------------------------

async def on_group_answer(query: CallbackQuery, context: Context,
                          button: render.GroupAnswerButton, t: Catalog) -> None:
    """A member's tap: record it once, acknowledge privately; close early when everyone who
    took part so far has answered."""
    if query.message is None:
        raise group.WrongChat(0)
    service = groups(context)
    try:
        session, _, close_now = await service.tap(
            button.session_id, query.message.chat.id, button.position, button.slot,
            query.from_user.id, display_name(query.from_user))
    except group.TooLate:
        await toast(query, t("group_too_late"))
        return
    except StorageError:
        log.exception("could not record a group answer of user %s", query.from_user.id)
        await toast(query, t("storage_failed"))
        return
    await toast(query, t("group_recorded", label=LABELS[button.slot]))
    if close_now:
        cancel_deadline(context.application.job_queue, session.id)
        await close_question(context.application, session.id, button.position)


async def on_group_language(query: CallbackQuery, context: Context, language: str,
                            t: Catalog) -> None:
    """A language choice on a group's picker: admins only."""
    assert query.message is not None
    chat = query.message.chat
    if not await is_admin(context, chat, query.from_user):
        await toast(query, t("toast_not_admin"))
        return
    await groups(context).set_language(chat.id, language)
    await toast(query)
    new = i18n.catalog(language)
    try:
        await query.edit_message_text(HTML.escape(new("group_language_set")))
    except BadRequest as exc:
        if "not modified" not in exc.message.lower():
            raise


# --- the session's progress ----------------------------------------------------------------

def job_name(session_id: int) -> str:
    """The JobQueue name of a session's pending deadline (at most one at a time)."""
    return f"group-session-{session_id}"


def cancel_deadline(job_queue: JobQueue | None, session_id: int) -> None:  # type: ignore[type-arg]
    """Remove the session's pending deadline job, if any."""
    if job_queue is None:
        return
    for job in job_queue.get_jobs_by_name(job_name(session_id)):
        job.schedule_removal()


def schedule(app: Application, session: GroupSession, *,  # type: ignore[type-arg]
             delay: float | None = None) -> None:
    """Run :func:`on_deadline` when the open question's window ends (at once if it has ended
    already, e.g. while the bot was down), or after ``delay`` seconds to retry progress."""
    assert app.job_queue is not None
    cancel_deadline(app.job_queue, session.id)
    if delay is None:
        assert session.deadline is not None
        delay = max(0.0, session.deadline - groups_of(app).now())
    app.job_queue.run_once(on_deadline, when=delay, data=(session.id, session.position),
                           name=job_name(session.id), chat_id=session.chat_id)


def groups_of(app: Application) -> GroupService:  # type: ignore[type-arg]
    """The group service of an application.

    Raises:
        RuntimeError: used before post_init set it.
    """
    service = app.bot_data.groups
    if service is None:
        raise RuntimeError("group service not initialised (post_init has not run)")
    return service


async def on_deadline(context: Context) -> None:
    """Job: the question's window ended (or progress must be retried)."""
    assert context.job is not None
    session_id, position = context.job.data  # type: ignore[misc]
    session = await groups(context).session(session_id)
    if session.status != group.ACTIVE:
        return
    if session.is_open and session.position == position:
        await close_question(context.application, session_id, position)
    elif not session.is_open:
        await advance(context.application, session)


async def close_question(app: Application, session_id: int,  # type: ignore[type-arg]
                         position: int) -> None:
    """Close question ``position`` (once: the deadline job and an early close may race) and
    move the session on."""
    session = await groups_of(app).close(session_id, position)
    if session is not None:
        await advance(app, session)


async def advance(app: Application, session: GroupSession) -> None:  # type: ignore[type-arg]
    """From a closed question: reveal it, then post the next question or the leaderboard.
    On a Telegram failure the step is retried by a job (the state is all in storage)."""
    try:
        if session.position > 0 and session.message_id is not None:
            await reveal(app, session, session.position - 1)
        if session.position < session.total:
            await post_question(app, session)
        else:  # posted before the session is marked finished: a failure retries, never loses it
            await post_leaderboard(app, session)
            await groups_of(app).end(session, group.FINISHED)
    except (TelegramError, StorageError):
        log.exception("group session %s: could not move on; retrying in %s s", session.id,
                      RETRY_SECONDS)
        schedule(app, session, delay=RETRY_SECONDS)


async def reveal(app: Application, session: GroupSession,  # type: ignore[type-arg]
                 position: int) -> None:
    """Edit the closed question into its reveal: correct option, counts, explanation."""
    service = groups_of(app)
    bank = service.bank_of(session)
    answers, _ = await service.results(session)
    t = i18n.catalog(session.language)
    screen = render.group_reveal(bank, session, position, group.tally(session, position, answers),
                                 t, HTML)
    assert session.message_id is not None
    try:
        await app.bot.edit_message_text(screen.text, chat_id=session.chat_id,
                                        message_id=session.message_id, reply_markup=None,
                                        link_preview_options=NO_PREVIEW)
    except BadRequest as exc:
        if "not modified" not in exc.message.lower() and "not found" not in exc.message.lower():
            raise


async def post_question(app: Application, session: GroupSession, *,  # type: ignore[type-arg]
                        starter_name: str | None = None) -> None:
    """Open the question at ``session.position``, post it, and schedule its deadline."""
    service = groups_of(app)
    bank = service.bank_of(session)
    opened = await service.open(session)
    if opened is None:
        return  # stopped meanwhile
    t = i18n.catalog(session.language)
    screen = render.group_question(bank, opened, t, HTML, starter_name=starter_name)
    try:
        message = await app.bot.send_message(session.chat_id, screen.text,
                                             reply_markup=keyboard(screen),
                                             link_preview_options=NO_PREVIEW)
    except TelegramError:
        await service.unopen(opened)  # nobody saw it: post it again on the retry
        raise
    schedule(app, await service.posted(opened, message.message_id))


async def post_leaderboard(app: Application, session: GroupSession, *,  # type: ignore[type-arg]
                           stopped_by: str | None = None) -> None:
    """Post the standings (final, or so far when stopped)."""
    service = groups_of(app)
    answers, names = await service.results(session)
    t = i18n.catalog(session.language)
    screen = render.group_leaderboard(service.bank_of(session), session,
                                      group.leaderboard(answers, names), t, HTML,
                                      stopped_by=stopped_by)
    await app.bot.send_message(session.chat_id, screen.text, reply_markup=keyboard(screen))


async def restore_sessions(app: Application) -> int:  # type: ignore[type-arg]
    """After a start: reschedule every running session's deadline (a deadline that passed
    while the bot was down fires at once; a session between questions moves on at once).

    Returns:
        How many sessions were restored.
    """
    sessions = await groups_of(app).running()
    for session in sessions:
        try:
            groups_of(app).bank_of(session)
        except QuizError:
            log.warning("group session %s: bank %s v%s is gone; stopping it", session.id,
                        session.bank_id, session.bank_version)
            await groups_of(app).end(session, group.STOPPED)
            continue
        schedule(app, session, delay=None if session.is_open else 0.0)
    return len(sessions)


async def on_group_place(query: CallbackQuery, context: Context, button: render.PlaceButton,
                         t: Catalog) -> None:
    """"My place" on a leaderboard: the tapper's own rank, score and time (or that they did
    not play), privately as the callback query's toast in their language.

    Raises:
        UnknownAttempt: no such session (a forged button).
        WrongChat: the button was tapped outside the session's chat (a forwarded message).
    """
    service = groups(context)
    session = await service.session(button.session_id)
    if query.message is None or query.message.chat.id != session.chat_id:
        raise group.WrongChat(query.message.chat.id if query.message else 0)
    answers, names = await service.results(session)
    await toast(query, render.group_place(session, group.leaderboard(answers, names),
                                          query.from_user.id, t))
