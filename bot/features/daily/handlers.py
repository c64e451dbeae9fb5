"""Thin PTB callbacks of the question of the day: ``/daily`` in groups (admins) and in the
private chat for channels, the taps on a day's question, its settings, the bot's membership
changes (where it may post), a group's upgrade, and the daily pass on PTB's JobQueue.

The rules are in :mod:`bot.features.daily.rules` and
:class:`bot.features.daily.service.DailyService`; the screens in :mod:`bot.features.daily.screens`.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Chat, ChatMemberAdministrator, Update
from telegram.constants import ChatMemberStatus
from telegram.error import BadRequest, Forbidden, TelegramError

from bot import i18n
from bot.features.daily import rules as daily
from bot.features.daily import screens
from bot.features.daily.jobs import _send, _tell
from bot.features.daily.rules import (
    DailyAnswered,
    DailyClosed,
    NoDailyQuestions,
    RunOut,
    TimeUnreadable,
    UnknownPost,
)
from bot.features.daily.service import DailyService
from bot.features.preferences.catalogs import catalog_for, group_catalog
from bot.i18n import Catalog
from bot.kernel.engine import LABELS, QuizError, UnknownBank
from bot.kernel.ports import StorageError
from bot.render import callbacks as render_callbacks
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.chats import display_name, is_admin, migration, thread_of
from bot.telegram.common import SHARED_SENDERS, Context, keyboard, reach, toast
from bot.telegram.outcomes import Kind, classify

log = logging.getLogger(__name__)

TOASTS: dict[type[QuizError], str] = {
    DailyAnswered: "daily_already",
    DailyClosed: "daily_closed",
    UnknownPost: "toast_invalid",
    TimeUnreadable: "toast_invalid",  # /daily answers it itself
    NoDailyQuestions: "toast_invalid",  # /daily answers it itself
}
"""The question of the day's refusals -> the catalog key of the toast that answers a tap they
refuse (merged by :data:`bot.routes.TOASTS`)."""


# --- /daily --------------------------------------------------------------------------------


def _parse(args: list[str]) -> tuple[str | None, int | None]:
    """``/daily [quiz] [HH:MM]`` in any order: the quiz id and the minute of day.

    Raises:
        TimeUnreadable: a time of day that is not one.
    """
    bank_id = minute = None
    for arg in args:
        if daily.looks_like_time(arg):
            minute = daily.parse_time(arg)
        else:
            bank_id = arg.strip().lower()
    return bank_id, minute


async def _refusal(context: Context, exc: Exception, t: Catalog) -> str:
    """The reply to a refused ``/daily``."""
    banks = ", ".join(bank.id for bank in reach(context, DailyService).banks())
    if isinstance(exc, TimeUnreadable):
        return t("daily_bad_time", text=exc.text, format=screens.DAILY_TIME_FORMAT)
    if isinstance(exc, NoDailyQuestions):
        return t("daily_no_questions")
    assert isinstance(exc, UnknownBank)
    return t("daily_unknown_quiz", quiz=str(exc), banks=banks)


async def cmd_group_daily(update: Update, context: Context) -> None:
    """/daily [quiz] [HH:MM] in a group (admins, anonymous ones included): set or change the
    question of the day; /daily off stops it; /daily alone shows it with its settings."""
    chat, message = update.effective_chat, update.effective_message
    assert chat is not None and message is not None
    t = await group_catalog(context, chat.id)
    thread = thread_of(message)
    if not await is_admin(context, chat, update.effective_user, message):
        await _send(context, chat.id, Screen(HTML.escape(t("daily_admins_only"))), thread)
        return
    service = reach(context, DailyService)
    args = list(context.args or [])
    title = chat.title or ""
    if args == ["off"]:
        done = await service.turn_off(chat.id)
        text = (
            t("daily_off", chat=title)
            if done is not None
            else t("daily_not_on", chat=title, syntax=screens.DAILY_SYNTAX)
        )
        await _send(context, chat.id, Screen(HTML.escape(text)), thread)
        return
    zone = await service.zone(chat.id)
    if not args:
        current = await service.schedule(chat.id)
        if current is None or current.status != "on":
            await _send(
                context, chat.id, screens.daily_usage(service.banks(), zone, t, HTML), thread
            )
            return
        try:
            screen = await _status(context, current, title, t)
        except UnknownBank as exc:  # its quiz was deleted or taken down: how to choose another
            usage = screens.daily_usage(service.banks(), zone, t, HTML)
            screen = Screen(
                HTML.escape(await _refusal(context, exc, t)) + "\n\n" + usage.text, usage.keyboard
            )
        await _send(context, chat.id, screen, thread)
        return
    try:
        bank_id, minute = _parse(args)
        schedule = await service.set_daily(
            chat.id,
            chat.type,
            bank_id=bank_id,
            minute=minute,
            language=t.language,
            set_by=_setter(update),
            thread_id=thread,
        )
    except (TimeUnreadable, UnknownBank, NoDailyQuestions) as exc:
        await _send(context, chat.id, Screen(HTML.escape(await _refusal(context, exc, t))), thread)
        return
    await _send(context, chat.id, await _status(context, schedule, title, t, new=True), thread)


def _setter(update: Update) -> int:
    """Who set a group's question of the day: the admin's user id; 0 for an anonymous admin
    (a placeholder user shared by many: nobody to tell privately later)."""
    user = update.effective_user
    return user.id if user is not None and user.id not in SHARED_SENDERS else 0


async def _status(
    context: Context, schedule: daily.DailySchedule, title: str, t: Catalog, *, new: bool = False
) -> Screen:
    service = reach(context, DailyService)
    bank = await service.registry.bank(schedule.bank_id)
    return screens.daily_status(
        schedule, bank, title, await service.zone(schedule.chat_id), service.now(), t, HTML, new=new
    )


async def cmd_private_daily(update: Update, context: Context) -> None:
    """/daily [quiz] [HH:MM] in the private chat: choose the channel (one where the user added
    the bot as an admin who may post) for the question of the day; /daily off: the channel
    whose question of the day to stop."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    service = reach(context, DailyService)
    args = list(context.args or [])
    channels = await service.channels_of(user.id)
    if args == ["off"]:
        await _send(
            context,
            chat.id,
            screens.daily_channels(channels, t, HTML, action="off", minute=None, bank_id=None),
        )
        return
    try:
        bank_id, minute = _parse(args)
        if bank_id is not None:
            await service.registry.bank(bank_id)
    except (TimeUnreadable, UnknownBank) as exc:
        await _send(context, chat.id, Screen(HTML.escape(await _refusal(context, exc, t))))
        return
    await _send(
        context,
        chat.id,
        screens.daily_channels(channels, t, HTML, action="on", minute=minute, bank_id=bank_id),
    )


async def _channel_admin(context: Context, chat_id: int, user_id: int) -> bool | None:
    """Whether ``user_id`` administers channel ``chat_id``; None when the bot cannot tell (it
    is no longer an admin there, or was removed)."""
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except (BadRequest, Forbidden):
        return None
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def on_channel(
    query: CallbackQuery, context: Context, button: render_callbacks.DailyChannelButton, t: Catalog
) -> None:
    """The channel chosen for ``/daily`` in the private chat: the user must administer it and
    the bot may post there; then set (or turn off) its question of the day, in the user's
    language."""
    service = reach(context, DailyService)
    known = await service.bot_chat(button.chat_id)
    if known is None or known.chat_type != "channel":
        raise UnknownPost(button.chat_id)
    admin = await _channel_admin(context, button.chat_id, query.from_user.id)
    await toast(query)
    if admin is None or not known.can_post:
        await _edit(query, Screen(HTML.escape(t("daily_cannot_post", chat=known.title))))
        return
    if not admin:
        await _edit(query, Screen(HTML.escape(t("daily_not_admin"))))
        return
    if button.mode == "off":
        done = await service.turn_off(button.chat_id)
        text = (
            t("daily_off", chat=known.title)
            if done is not None
            else t("daily_not_on", chat=known.title, syntax=screens.DAILY_SYNTAX)
        )
        await _edit(query, Screen(HTML.escape(text)))
        return
    try:
        schedule = await service.set_daily(
            button.chat_id,
            "channel",
            bank_id=None if button.bank == "-" else button.bank,
            minute=None if button.minute == "k" else int(button.minute),
            language=t.language,
            set_by=query.from_user.id,
        )
    except (UnknownBank, NoDailyQuestions) as exc:
        await _edit(query, Screen(HTML.escape(await _refusal(context, exc, t))))
        return
    await _edit(query, await _status(context, schedule, known.title, t, new=True))


async def _edit(query: CallbackQuery, screen: Screen) -> None:
    try:
        await query.edit_message_text(screen.text, reply_markup=keyboard(screen))
    except TelegramError as exc:
        if classify(exc).kind not in (Kind.NOT_MODIFIED, Kind.GONE):
            raise


async def on_setting(
    query: CallbackQuery, context: Context, button: render_callbacks.DailySettingButton, t: Catalog
) -> None:
    """A tap on a question of the day's settings (in its group, or in the private chat for a
    channel): admins of that chat only; then the run-out setting, the leaderboard's weekday or
    off is stored and the screen shows the new settings."""
    message = query.message
    if message is None or (message.chat.type != Chat.PRIVATE and message.chat.id != button.chat_id):
        raise UnknownPost(button.chat_id)  # a button forged onto another chat's message
    service = reach(context, DailyService)
    schedule = await service.schedule(button.chat_id)
    if schedule is None:
        raise UnknownPost(button.chat_id)
    if message.chat.type == Chat.PRIVATE:
        allowed = bool(await _channel_admin(context, button.chat_id, query.from_user.id))
        screen_t, title = (
            t,
            (
                (await service.bot_chat(button.chat_id))
                or daily.BotChat(button.chat_id, "channel", "", "", False, None, 0.0)
            ).title,
        )
    else:
        allowed = await is_admin(context, message.chat, query.from_user)
        screen_t, title = await group_catalog(context, message.chat.id), message.chat.title or ""
    if not allowed:
        await toast(query, t("daily_admins_only"))
        return
    if button.setting == "off":
        schedule = await service.turn_off(button.chat_id) or schedule
    elif button.setting == "then" and button.choice in ("again", "stop"):
        schedule = (
            await service.set_options(button.chat_id, run_out=RunOut(button.choice)) or schedule
        )
    elif button.setting == "board" and (
        button.choice == "none" or (button.choice.isdigit() and int(button.choice) <= 6)
    ):
        day = None if button.choice == "none" else int(button.choice)
        schedule = await service.set_options(button.chat_id, board_day=day) or schedule
    else:
        raise UnknownPost(button.chat_id)
    await toast(query, t("daily_setting_saved"))
    await _edit(query, await _status(context, schedule, title, screen_t))


async def on_daily_answer(
    query: CallbackQuery, context: Context, button: render_callbacks.DailyAnswerButton, t: Catalog
) -> None:
    """A tap on a day's question (a group's or a channel's post: anyone, counted by user id,
    once): acknowledged privately in the tapper's language with the option chosen. A second
    tap, a closed or unknown post are refused (toasted by the router from :data:`TOASTS`)."""
    message = query.message
    if message is None:
        raise UnknownPost(button.post_id)
    service = reach(context, DailyService)
    try:
        post, _ = await service.tap(
            button.post_id,
            message.chat.id,
            message.message_id,
            button.slot,
            query.from_user.id,
            display_name(query.from_user),
        )
    except StorageError:
        log.exception("could not record a daily answer of user %s", query.from_user.id)
        await toast(query, t("storage_failed"))
        return
    bank = await service.bank_of(post)
    label = (
        LABELS[button.slot]
        if bank is None
        else screens.daily_option_label(bank.question(post.question_id), post, button.slot, bank, t)
    )
    await toast(query, t("daily_recorded", label=label))


# --- membership and upgrades ---------------------------------------------------------------


async def on_my_chat_member(update: Update, context: Context) -> None:
    """The bot's membership changed in a group or channel: remember whether it may post there
    (what ``/daily`` in the private chat offers); a chat where it may no longer post stops its
    question of the day, and whoever set it is told privately."""
    change = update.my_chat_member
    assert change is not None
    chat = change.chat
    if chat.type == Chat.PRIVATE:
        return
    member = change.new_chat_member
    can_post = member.can_post_messages if isinstance(member, ChatMemberAdministrator) else None
    service = reach(context, DailyService)
    before = await service.schedule(chat.id)
    if await service.chat_member(
        chat.id,
        chat.type,
        chat.title or "",
        member.status,
        can_post,
        change.from_user.id if change.from_user else None,
    ):
        log.info(
            "daily: the bot may no longer post in %s (%s): its question of the day stops",
            chat.id,
            member.status,
        )
        if before is not None and before.set_by:
            by = change.from_user
            fallback = (
                i18n.negotiate(by.language_code)
                if by is not None and by.id == before.set_by
                else before.language
            )
            await _tell(context, before.set_by, fallback, "daily_lost", chat=chat.title or "")


async def on_migrate(update: Update, context: Context) -> None:
    """A group became a supergroup: its question of the day goes on there."""
    message = update.effective_message
    assert message is not None
    old, new = migration(message)
    await reach(context, DailyService).move_chat(old, new)


# --- the daily pass ------------------------------------------------------------------------
