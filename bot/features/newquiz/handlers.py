"""Thin callbacks of /newquiz in a private chat: updates -> :class:`CreatorService` calls ->
screens of :mod:`bot.features.newquiz.screens`.

The commands (/newquiz, /skip, /done, /cancel) are registered in ``bot.app.add_handlers``;
polls, photos and texts reach :func:`on_draft_message` from the private chat's catch-all
(``handlers.on_other_message``), which shows its usual hint when no draft is open; the
buttons (Undo, the right option, Go on / Start over) come through the router.
"""

from __future__ import annotations

import logging

from telegram import (
    CallbackQuery,
    KeyboardButton,
    KeyboardButtonPollType,
    Message,
    MessageEntity,
    Poll,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    Update,
)
from telegram.error import TelegramError

from bot.features.myquizzes.service import Published, Rejected
from bot.features.newquiz import rules as creating
from bot.features.newquiz import screens
from bot.features.newquiz.draft import Draft
from bot.features.newquiz.rules import PollSent
from bot.features.newquiz.screens import CreatorScreen, PublishProblem
from bot.features.newquiz.service import (
    Changed,
    CreatorService,
    DraftOpen,
    Flooded,
    NoDraft,
    Opened,
)
from bot.features.preferences.catalogs import catalog_for
from bot.i18n import Catalog
from bot.render import callbacks as render_callbacks
from bot.render.text import HTML
from bot.telegram.common import Context, edit, reach, send, toast
from bot.telegram.outcomes import classify

log = logging.getLogger(__name__)

QUOTES = (MessageEntity.BLOCKQUOTE, MessageEntity.EXPANDABLE_BLOCKQUOTE)
"""Entities whose text is a typed question's explanation (a ``>`` line in Telegram's apps)."""


def _service(context: Context) -> CreatorService:
    return reach(context, CreatorService)


async def show(context: Context, chat_id: int, shown: CreatorScreen) -> Message:
    """Send a screen with its reply keyboard: the quiz-poll button
    (``KeyboardButtonPollType(type="quiz")``: the app opens its quiz poll editor), the
    keyboard removed, or the screen's inline keyboard."""
    markup: ReplyKeyboardMarkup | ReplyKeyboardRemove | None
    if shown.poll_button is not None:
        markup = ReplyKeyboardMarkup(
            [
                [
                    KeyboardButton(
                        shown.poll_button, request_poll=KeyboardButtonPollType(type=Poll.QUIZ)
                    )
                ]
            ],
            resize_keyboard=True,
            is_persistent=True,
        )
    elif shown.remove_keyboard:
        markup = ReplyKeyboardRemove()
    else:
        return await send(context, chat_id, shown.screen)
    return await context.bot.send_message(chat_id, shown.screen.text, reply_markup=markup)


# --- commands ------------------------------------------------------------------------------


async def cmd_newquiz(update: Update, context: Context) -> None:
    """/newquiz: start a draft (asked for its title), or ask whether to go on with the open one."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    opened = await _service(context).new(user.id, t.language)
    if isinstance(opened, DraftOpen):
        await send(context, chat.id, screens.newquiz_draft_open(opened.draft, t, HTML))
    else:
        await _show_opened(context, chat.id, opened, t)


async def cmd_skip(update: Update, context: Context) -> None:
    """/skip: no description."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    await _show_step(context, chat.id, await _service(context).skip(user.id), t)


async def cmd_cancel(update: Update, context: Context) -> None:
    """/cancel: delete the draft."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    if await _service(context).cancel(user.id):
        await show(context, chat.id, screens.newquiz_cancelled(t, HTML))
    else:
        await send(context, chat.id, screens.newquiz_note("no_draft", t, HTML))


async def cmd_done(update: Update, context: Context) -> None:
    """/done: check the draft as ``quizbot validate --strict`` does and publish it: its deep
    link, Share and "Start in a group"; or what to fix, by question number."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    outcome = await _service(context).done(user.id, description=t("newquiz.no_description"))
    if isinstance(outcome, NoDraft):
        await send(context, chat.id, screens.newquiz_note("no_draft", t, HTML))
    elif isinstance(outcome, creating.Refused):
        await send(context, chat.id, screens.newquiz_refused(outcome, t, HTML))
    elif isinstance(outcome, Rejected):
        lines = [PublishProblem(p.question, p.key, p.params) for p in outcome.problems]
        for screen in screens.newquiz_rejected(lines, t, HTML):
            await send(context, chat.id, screen)
    else:
        await _show_published(context, chat.id, outcome, t)


async def _show_published(context: Context, chat_id: int, published: Published, t: Catalog) -> None:
    bank = published.bank
    title = bank.title.get(t.language, bank.default_language)
    share = bool(context.bot.supports_inline_queries)  # else a Share button does nothing
    for shown in screens.newquiz_published(
        bank.id, title, len(bank.questions), context.bot.username, t, HTML, share=share
    ):
        await show(context, chat_id, shown)


# --- messages while a draft is open --------------------------------------------------------


async def on_draft_message(update: Update, context: Context) -> bool:
    """A poll, photo or text in a private chat: a step of the open draft; False (nothing
    done) when the sender has no draft open, or the message is of another kind."""
    user, chat, message = update.effective_user, update.effective_chat, update.effective_message
    if user is None or chat is None or message is None:
        return False
    service = _service(context)
    reply_to = message.reply_to_message.message_id if message.reply_to_message else None
    if message.poll is not None:
        poll = poll_sent(message.poll, message.message_id, message.forward_origin is not None)
        result = await service.poll(user.id, poll)
    elif message.photo:
        caption = message.caption or ""
        quotes = list(message.parse_caption_entities(list(QUOTES)).values())
        result = await service.photo(
            user.id,
            message.photo[-1].file_id,
            caption=caption,
            message_id=message.message_id,
            quotes=quotes,
            album=message.media_group_id,
        )
        if message.media_group_id is not None and isinstance(result, Changed):
            t = await catalog_for(context, user)
            if await _show_album(context, chat.id, user.id, message.media_group_id, result, t):
                return True
    elif message.text is not None:
        if message.text.startswith("/"):  # an unknown command is no title nor question
            return False
        quotes = list(message.parse_entities(list(QUOTES)).values())
        result = await service.text(
            user.id, message.text, message_id=message.message_id, quotes=quotes, reply_to=reply_to
        )
    else:
        return False
    if isinstance(result, NoDraft):
        return False
    t = await catalog_for(context, user)
    await _show_step(context, chat.id, result, t)
    return True


async def _show_album(
    context: Context, chat_id: int, user_id: int, album: str, result: Changed, t: Catalog
) -> bool:
    """Answer a photo of an album once for the whole album: its first photo kept for the next
    question is answered as usual, then that answer is edited, as more photos come, into one
    that says how many came and that the first is the picture (when the first photo made a
    question, the answer comes with the second photo). False: not an album's step."""
    outcome = result.outcome
    if isinstance(outcome, creating.PictureKept):
        message = await send(context, chat_id, screens.newquiz_note("picture_kept", t, HTML))
    elif isinstance(outcome, creating.AlbumGrew):
        screen = screens.newquiz_note("album", t, HTML, count=outcome.photos)
        if outcome.note is None:
            message = await send(context, chat_id, screen)
        else:
            try:
                await context.bot.edit_message_text(
                    screen.text, chat_id=chat_id, message_id=outcome.note
                )
            except TelegramError as exc:
                if not classify(exc).expected:
                    raise
                log.info(
                    "album answer %s of user %s not edited: %s", outcome.note, user_id, exc.message
                )
            return True
    else:
        return False
    await _service(context).album_noted(user_id, album, message.message_id)
    return True


def poll_sent(poll: Poll, message_id: int, forwarded: bool = False) -> PollSent:
    """A poll as the draft machine takes it: its ``correct_option_ids`` (Bot API 9.6), None
    when Telegram hides them (a forwarded open quiz) or it is a regular poll; ``forwarded``:
    the message has a ``forward_origin`` (its question is cleaned)."""
    correct = tuple(poll.correct_option_ids) if poll.correct_option_ids else None
    return PollSent(
        poll.question,
        tuple(o.text for o in poll.options),
        poll.type == Poll.QUIZ,
        correct,
        poll.explanation or "",
        poll.allows_multiple_answers,
        message_id,
        forwarded,
    )


async def _show_opened(context: Context, chat_id: int, opened: Opened, t: Catalog) -> None:
    if isinstance(opened.outcome, creating.AskRight):
        await send(
            context,
            chat_id,
            screens.newquiz_ask_right(opened.draft, opened.outcome.pending, t, HTML),
        )
    else:
        await show(context, chat_id, screens.newquiz_prompt(opened.outcome.step, t, HTML))


async def _show_step(
    context: Context, chat_id: int, result: Changed | Flooded | NoDraft, t: Catalog
) -> None:
    """Answer a step with its screen (a flood only on its first message)."""
    if isinstance(result, NoDraft):
        await send(context, chat_id, screens.newquiz_note("no_draft", t, HTML))
        return
    if isinstance(result, Flooded):
        if result.first:
            await send(context, chat_id, screens.newquiz_note("flooded", t, HTML))
        return
    draft, outcome = result.draft, result.outcome
    if isinstance(outcome, creating.Added):
        await _show_added(context, chat_id, draft, outcome, t)
    elif isinstance(outcome, creating.Prompt):
        await show(context, chat_id, screens.newquiz_prompt(outcome.step, t, HTML))
    elif isinstance(outcome, creating.AskRight):
        await send(context, chat_id, screens.newquiz_ask_right(draft, outcome.pending, t, HTML))
    elif isinstance(outcome, creating.ExplanationAdded):
        await send(
            context,
            chat_id,
            screens.newquiz_note("explanation_added", t, HTML, number=outcome.number),
        )
    elif isinstance(outcome, creating.Replaced):
        await send(
            context, chat_id, screens.newquiz_note("replaced", t, HTML, number=outcome.number)
        )
    elif isinstance(outcome, creating.PictureKept):
        await send(context, chat_id, screens.newquiz_note("picture_kept", t, HTML))
    elif isinstance(outcome, creating.Refused):
        await send(context, chat_id, screens.newquiz_refused(outcome, t, HTML))
    else:  # Undone and Stale come from buttons only
        log.warning("unexpected draft outcome %r", outcome)


async def _show_added(
    context: Context,
    chat_id: int,
    draft: Draft,
    outcome: creating.Added,
    t: Catalog,
    query: CallbackQuery | None = None,
) -> None:
    """ "Question N added" with Undo (as an edit of the query's message, for a right option
    chosen); its message stands for the question (a reply to it explains the question)."""
    screen = screens.newquiz_added(draft, outcome, t, HTML)
    message_id: int | None
    if query is not None and query.message is not None:
        await edit(query, screen)
        message_id = query.message.message_id
    else:
        message_id = (await send(context, chat_id, screen)).message_id
    user_id = query.from_user.id if query is not None else chat_id
    await _service(context).noted(user_id, outcome.question.serial, message_id)


# --- buttons -------------------------------------------------------------------------------


async def on_draft_choice(
    query: CallbackQuery, context: Context, button: render_callbacks.DraftButton, t: Catalog
) -> None:
    """ "Go on" or "Start over" under /newquiz's question about the open draft."""
    service = _service(context)
    user_id = query.from_user.id
    opened = (
        await service.restart(user_id, t.language, button.started)
        if button.restart
        else await service.resume(user_id, button.started)
    )
    if isinstance(opened, creating.Stale):
        await toast(query, t("newquiz.stale"))
        return
    await toast(query)
    chosen = "button_restart" if button.restart else "button_continue"
    await edit(query, screens.newquiz_note(chosen, t, HTML))
    await _show_opened(context, _chat_of(query), opened, t)


async def on_undo(
    query: CallbackQuery, context: Context, button: render_callbacks.UndoButton, t: Catalog
) -> None:
    """Undo: take the question out while it is the last one; a stale Undo changes nothing."""
    result = await _service(context).undo(query.from_user.id, button.started, button.serial)
    if isinstance(result, Changed) and isinstance(result.outcome, creating.Undone):
        await toast(query)
        await edit(query, screens.newquiz_note("undone", t, HTML, number=result.outcome.number))
    else:
        await toast(query, t("newquiz.undo_stale"))


async def on_keep_original(
    query: CallbackQuery, context: Context, button: render_callbacks.KeepOriginalButton, t: Catalog
) -> None:
    """ "Keep the original": the question as forwarded, not cleaned; a stale tap changes
    nothing."""
    result = await _service(context).keep_original(
        query.from_user.id, button.started, button.serial
    )
    if not isinstance(result, Changed) or isinstance(result.outcome, creating.Stale):
        await toast(query, t("newquiz.stale"))
        return
    outcome = result.outcome
    if isinstance(outcome, creating.Refused):
        await toast(query, t(f"newquiz.problem.{outcome.problem}", **outcome.params))
        return
    assert isinstance(outcome, creating.OriginalKept)
    await toast(query)
    question = result.draft.questions[outcome.number - 1]
    await edit(query, screens.newquiz_original_kept(result.draft, question, outcome, t, HTML))


async def on_right_option(
    query: CallbackQuery, context: Context, button: render_callbacks.RightOptionButton, t: Catalog
) -> None:
    """An option tapped as right for a pending poll: the question is added (or, with several
    right, the option toggled)."""
    result = await _service(context).choose(
        query.from_user.id, button.started, button.serial, button.option
    )
    await _answer_right(query, context, result, t)


async def on_right_done(
    query: CallbackQuery, context: Context, button: render_callbacks.RightDoneButton, t: Catalog
) -> None:
    """ "Done" under a pending poll of several right options."""
    result = await _service(context).confirm(query.from_user.id, button.started, button.serial)
    await _answer_right(query, context, result, t)


async def _answer_right(
    query: CallbackQuery, context: Context, result: Changed | Flooded | NoDraft, t: Catalog
) -> None:
    if not isinstance(result, Changed) or isinstance(result.outcome, creating.Stale):
        await toast(query, t("newquiz.stale"))
        return
    outcome = result.outcome
    if isinstance(outcome, creating.Refused):
        await toast(query, t(f"newquiz.problem.{outcome.problem}", **outcome.params))
        return
    await toast(query)
    if isinstance(outcome, creating.AskRight):
        await edit(query, screens.newquiz_ask_right(result.draft, outcome.pending, t, HTML))
    elif isinstance(outcome, creating.Added):
        await _show_added(context, _chat_of(query), result.draft, outcome, t, query)


def _chat_of(query: CallbackQuery) -> int:
    return query.message.chat.id if query.message else query.from_user.id


# --- the job -------------------------------------------------------------------------------


async def drop_old_drafts(context: Context) -> None:
    """Job (at the start, then daily): drop the drafts left longer than
    :data:`~bot.features.newquiz.rules.DRAFT_DAYS` days."""
    try:
        dropped = await _service(context).prune()
    except Exception:  # tried again tomorrow
        log.exception("drafts: dropping old drafts failed")
        return
    log.info("drafts: %d left for %d days dropped", dropped, creating.DRAFT_DAYS)
