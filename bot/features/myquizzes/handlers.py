"""/myquizzes: a creator's quizzes, each with Play, Share, Edit, Export, Results, visibility and
Delete (thin handlers over :class:`bot.features.myquizzes.service.QuizzesService`).

Every button names the quiz and the version it was shown at (:class:`bot.render.QuizButton`).
The service refuses anyone but the owner (a forged or forwarded button): it raises its
refusal, the router answers the tap with its toast (:data:`~.quiz_handlers.TOASTS`), and
nothing changes.
A change tapped on a version that moved on is stale: the quiz is shown as it is now,
unchanged. Adding, replacing a question and renaming ask for the
creator's next text message (:class:`~bot.features.myquizzes.edits.QuizEdits`); "Add a
language" asks for the quiz's texts in another language, a question per message
(:mod:`bot.features.myquizzes.translating`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import CallbackQuery, InputFile, Message, Poll, Update
from telegram.ext import filters

from bot.features.myquizzes import screens
from bot.features.myquizzes.edits import PollOriginal, PollOriginals, QuizEdit, QuizEdits
from bot.features.myquizzes.problems import NotYourQuiz, QuizBusy, QuizGone
from bot.features.myquizzes.quiz_handlers import (
    CANCEL,
    TOASTS,
    _questions_of,
    _quotes,
    quiz_screen_for,
)
from bot.features.myquizzes.service import Outcome, Published, QuizzesService, Rejected
from bot.features.myquizzes.translation_handlers import (
    _pick_language,
    _skip_text,
    _start_translation,
    _stop_translation,
    on_translation_text,
)
from bot.features.preferences.catalogs import catalog_for
from bot.i18n import Catalog
from bot.kernel.bankdata import question_data, typed_question_data
from bot.kernel.cleaning import clean_question
from bot.kernel.library import QuizRecord, Visibility
from bot.kernel.textformat import TypedQuestion, parse_question
from bot.render.callbacks import QUIZ_ACTIONS, QuizButton
from bot.render.screen import Screen, as_screens
from bot.render.text import HTML
from bot.telegram.common import Context, edit, reach, send, toast

MAX_TITLE = 100
"""Longest title a rename takes, in characters."""


async def cmd_myquizzes(update: Update, context: Context) -> None:
    """/myquizzes (private chats): the creator's quizzes, newest change first."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    records = await reach(context, QuizzesService).quizzes(user.id)
    await send(context, chat.id, screens.quiz_list(records, t, HTML))


async def on_quiz_button(
    query: CallbackQuery, context: Context, button: QuizButton, t: Catalog
) -> None:
    """A /myquizzes button: show, change or ask for something, for the quiz's owner only; what
    each action does is its entry of :data:`ACTIONS`."""
    await ACTIONS[button.action](query, context, button, t)


QuizAction = Callable[[CallbackQuery, Context, QuizButton, Catalog], Awaitable[None]]
"""What a /myquizzes button does, as the route calls it."""
OwnedAction = Callable[[CallbackQuery, Context, QuizButton, QuizRecord, Catalog], Awaitable[None]]
"""What a /myquizzes button does to its quiz, given the quiz as its owner has it now."""


def _owned(run: OwnedAction, *, change: bool = False) -> QuizAction:
    """``run`` on the button's quiz, for its owner only: anyone else, or a quiz that is gone,
    gets the refusal's toast. A ``change`` tapped on a version that moved on is stale: the quiz
    is shown as it is now, unchanged."""

    async def owned(query: CallbackQuery, context: Context, button: QuizButton, t: Catalog) -> None:
        user_id = query.from_user.id
        record = await reach(context, QuizzesService).owned(user_id, button.quiz_id)
        if change and button.version != record.version:
            await toast(query, t("quizzes.toast_stale"))
            await edit(query, await quiz_screen_for(context, record, t))
            return
        await run(query, context, button, record, t)

    return owned


async def _list(query: CallbackQuery, context: Context, button: QuizButton, t: Catalog) -> None:
    """The creator's quizzes again."""
    await toast(query)
    await edit(
        query,
        screens.quiz_list(
            await reach(context, QuizzesService).quizzes(query.from_user.id), t, HTML
        ),
    )


async def _open(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """The quiz's screen (its buttons)."""
    await toast(query)
    await edit(query, await quiz_screen_for(context, record, t))


async def _ask_delete(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Ask whether to delete the quiz."""
    await toast(query)
    await edit(query, screens.delete_confirm(record, t, HTML))


async def _delete(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Delete the quiz (the answer to :func:`_ask_delete`)."""
    deleted = await reach(context, QuizzesService).delete(query.from_user.id, record.id)
    await toast(query)
    await edit(query, screens.deleted_screen(deleted, t, HTML))


def _set_visibility(visibility: Visibility) -> OwnedAction:
    """Make the quiz public (in the inline list) or reachable by its link only."""

    async def set_visibility(
        query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
    ) -> None:
        changed = await reach(context, QuizzesService).set_visibility(
            query.from_user.id, record.id, visibility
        )
        await toast(
            query,
            t("quizzes.toast_public" if visibility is Visibility.PUBLIC else "quizzes.toast_link"),
        )
        await edit(query, await quiz_screen_for(context, changed, t))

    return set_visibility


async def _edit(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """The quiz's questions, to edit: the first page, or (``page``) page ``number``."""
    owned = await _questions_of(query, context, record, t)
    if owned is not None:
        page = button.number if button.action == "page" else 0
        await edit(query, screens.edit_screen(owned.record, owned.bank, t, HTML, page))


async def _question(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Question ``number`` with its buttons (the quiz's screen when this version has no such
    question)."""
    owned = await _questions_of(query, context, record, t)
    if owned is None:
        return
    if 1 <= button.number <= len(owned.bank.questions):
        await edit(query, screens.question_screen(owned.record, owned.bank, button.number, t, HTML))
    else:
        await edit(query, await quiz_screen_for(context, owned.record, t))


async def _ask(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Wait for the creator's next text message: a question (add, replace) or a title."""
    await reach(context, QuizEdits).ask(
        query.from_user.id, QuizEdit(button.action, record.id, record.version, button.number)
    )
    await toast(query)
    text = (
        t("quizzes.ask_title", title=record.title)
        if button.action == "rename"
        else t("quizzes.ask_question")
    )
    await send(context, query.from_user.id, Screen(HTML.escape(text)))


async def _move_or_drop(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Move question ``number`` up or down, or delete it; show where it is now."""
    service = reach(context, QuizzesService)
    user_id, number = query.from_user.id, button.number
    if button.action == "drop":
        outcome = await service.delete_question(user_id, button.quiz_id, number)
        done, place = "quizzes.question_deleted", number
    else:
        place = number - 1 if button.action == "up" else number + 1
        outcome = await service.move_question(user_id, button.quiz_id, number, place)
        done = "quizzes.question_moved"
    if not isinstance(outcome, Published):
        await _refused(query, outcome, t)
        return
    await toast(query, t(done, number=place, version=outcome.record.version))
    if button.action == "drop":
        await edit(query, screens.edit_screen(outcome.record, outcome.bank, t, HTML))
    else:
        await edit(query, screens.question_screen(outcome.record, outcome.bank, place, t, HTML))


async def _exam(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """The quiz's exam mode and its presets; ``examset``: the preset ``number`` chosen (a new
    version), then the same screen as it is now."""
    service = reach(context, QuizzesService)
    if button.action == "examset":
        outcome = await service.set_exam(query.from_user.id, record.id, button.number)
        if not isinstance(outcome, Published):
            await _refused(query, outcome, t)
            return
        await toast(query, t("exam.toast_saved", version=outcome.record.version))
        await edit(query, screens.exam_screen(outcome.record, outcome.bank, t, HTML))
        return
    owned = await _questions_of(query, context, record, t)
    if owned is not None:
        await edit(query, screens.exam_screen(owned.record, owned.bank, t, HTML))


async def _refused(query: CallbackQuery, outcome: Outcome, t: Catalog) -> None:
    """Answer a change that was not made: why, as a toast."""
    if isinstance(outcome, Rejected):
        await toast(query, screens.problem_line(outcome.problems[0], t).lstrip("• "))


async def _export(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Send the quiz's latest version as a YAML document (Bot API ``sendDocument``)."""
    await toast(query)
    user_id = query.from_user.id
    try:
        record, document = await reach(context, QuizzesService).export(user_id, record.id)
    except (QuizGone, NotYourQuiz):  # refused meanwhile: the tap is answered already
        return
    caption = screens.export_caption(record, t, HTML)
    await context.bot.send_document(
        user_id, InputFile(document.encode("utf-8"), filename=f"{record.id}.yaml"), caption=caption
    )


async def _results(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """The quiz's results: in place when they fit one message, else as new messages."""
    user_id = query.from_user.id
    owned, results = await reach(context, QuizzesService).results(user_id, record.id)
    await toast(query)
    text = screens.results_screen(owned.record, owned.bank, results, t, HTML, context.bot.username)
    parts = as_screens(text, HTML, screens.back_row(owned.record, t))
    if len(parts) == 1:
        await edit(query, parts[0])
        return
    for part in parts:
        await send(context, user_id, part)


async def _keep_original(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """ "Keep the original" under a cleaned poll's question: question ``number`` becomes the
    poll's question as it came (a new version); stale when it is not the original remembered
    for this version."""
    user_id, originals = query.from_user.id, reach(context, PollOriginals)
    original = await originals.find(user_id, record.id, record.version, button.number)
    if original is None:
        await toast(query, t("quizzes.toast_stale"))
        return
    owned = await reach(context, QuizzesService).quiz(user_id, record.id)
    data = question_data(owned.bank.questions[button.number - 1])
    data["prompt"] = {owned.bank.default_language: original}
    outcome = await reach(context, QuizzesService).replace_question(
        user_id, record.id, button.number, data
    )
    if not isinstance(outcome, Published):
        await _refused(query, outcome, t)
        return
    await originals.done(user_id)
    await toast(query)
    await edit(query, screens.original_kept_screen(button.number, original, t, HTML))


# --- "Add a language": the quiz's texts in another language, a question per message --------


ACTIONS: dict[str, QuizAction] = {
    "list": _list,
    "open": _owned(_open),
    "edit": _owned(_edit),
    "page": _owned(_edit),
    "question": _owned(_question, change=True),
    "export": _owned(_export),
    "results": _owned(_results),
    "public": _owned(_set_visibility(Visibility.PUBLIC), change=True),
    "link": _owned(_set_visibility(Visibility.LINK), change=True),
    "delete": _owned(_ask_delete),
    "confirm": _owned(_delete, change=True),
    "add": _owned(_ask, change=True),
    "rename": _owned(_ask, change=True),
    "replace": _owned(_ask, change=True),
    "up": _owned(_move_or_drop, change=True),
    "down": _owned(_move_or_drop, change=True),
    "drop": _owned(_move_or_drop, change=True),
    "addlang": _owned(_pick_language),
    "lang": _owned(_start_translation, change=True),
    "later": _owned(_stop_translation),
    "droplang": _owned(_stop_translation),
    "skiplang": _owned(_skip_text),
    "exam": _owned(_exam),
    "examset": _owned(_exam, change=True),
    "keep": _owned(_keep_original, change=True),
}
"""What each /myquizzes action does (:data:`bot.render.callbacks.QUIZ_ACTIONS`); all but
``list`` on a quiz of the tapper's own; a ``change`` is stale once the quiz has a newer
version than the one its button showed."""
assert ACTIONS.keys() == set(QUIZ_ACTIONS), "a /myquizzes action without its entry"


def edit_filter() -> filters.BaseFilter:
    """Private text messages (not commands, but /cancel) and polls: what may answer a
    /myquizzes prompt (:func:`on_edit_text` tells whether one waits)."""
    text = filters.TEXT & (~filters.COMMAND | filters.Regex(CANCEL))
    return filters.ChatType.PRIVATE & filters.UpdateType.MESSAGE & (text | filters.POLL)


async def on_edit_text(update: Update, context: Context) -> bool:
    """The creator's answer to a prompt (stored: asked on any instance): a question to add or
    put in place of one, a new title, or /cancel. A question that cannot be read asks again;
    a change is a new version. Without such a prompt, a text of the language the sender is
    adding (:func:`on_translation_text`). False (nothing done) when neither waits."""
    message, user = update.effective_message, update.effective_user
    assert message is not None and user is not None
    pending = await reach(context, QuizEdits).waiting(user.id)
    if pending is None:
        return await on_translation_text(message, user.id, context)
    t = await catalog_for(context, user)
    if message.text is not None and CANCEL.match(message.text.strip()):
        await reach(context, QuizEdits).done(user.id)
        await message.reply_text(HTML.escape(t("quizzes.cancelled")))
        return True
    try:
        changed = await _change(reach(context, QuizzesService), user.id, pending, message, t)
    except (QuizGone, NotYourQuiz, QuizBusy) as exc:  # the prompt is over: said as a toast
        await reach(context, QuizEdits).done(user.id)
        await message.reply_text(HTML.escape(t(TOASTS[type(exc)])))
        return True
    if changed is None:  # the reply could not be read, and was told so: the prompt stays
        return True
    outcome, cleaned = changed
    if isinstance(outcome, Rejected):  # the prompt stays: the creator sends a fixed version
        await message.reply_text(screens.problems_text(outcome.problems, t, HTML))
        return True
    await reach(context, QuizEdits).done(user.id)
    record = outcome.record
    number = record.questions if pending.action == "add" else pending.number
    said = (
        t("quizzes.renamed", title=record.title, version=record.version)
        if pending.action == "rename"
        else t("quizzes.question_added", number=number, version=record.version)
        if pending.action == "add"
        else t("quizzes.question_replaced", number=number, version=record.version)
    )
    if cleaned is None:
        await message.reply_text(HTML.escape(said))
    else:
        original = PollOriginal(record.id, record.version, number, cleaned[0])
        await reach(context, PollOriginals).keep(user.id, original)
        await send(
            context,
            message.chat_id,
            screens.cleaned_screen(said, record, number, *cleaned, t, HTML),
        )
    await send(context, message.chat_id, await quiz_screen_for(context, record, t))
    return True


async def _change(
    service: QuizzesService, user_id: int, pending: QuizEdit, message: Message, t: Catalog
) -> tuple[Outcome, tuple[str, str] | None] | None:
    """Make the change a reply to a prompt asks for, and a forwarded poll's question as it came
    and as cleaned (:func:`~bot.kernel.cleaning.clean_question`: None when nothing was taken
    off); None when the reply cannot be read (a title too long, a question or poll without its
    answer: the reply says so).

    Raises:
        QuizGone, NotYourQuiz, QuizBusy: the quiz's refusals (nothing changed).
    """
    owned = await service.owned(user_id, pending.quiz_id)
    language = owned.language
    if pending.action == "rename":
        title = (message.text or "").strip()
        if not 1 <= len(title) <= MAX_TITLE:
            await message.reply_text(HTML.escape(t("quizzes.bad_title")))
            return None
        return await service.rename(user_id, pending.quiz_id, title), None
    cleaned: tuple[str, str] | None = None
    if message.poll is not None:
        data = poll_question_data(message.poll, language)
        if data is None:
            await message.reply_text(HTML.escape(t("quizzes.poll_no_answer")))
            return None
        found = clean_question(message.poll.question) if message.forward_origin else None
        if found is not None:  # forwarded from a channel: its counter and signature taken off
            data["prompt"] = {language: found.text}
            cleaned = (message.poll.question.strip(), found.text)
    else:
        typed = parse_question(message.text or "", _quotes(message))
        if typed is None:
            await message.reply_text(HTML.escape(t("quizzes.bad_question")))
            return None
        data = typed_question_data(typed, language)
    if pending.action == "add":
        return await service.add_question(user_id, pending.quiz_id, data), cleaned
    return await service.replace_question(user_id, pending.quiz_id, pending.number, data), cleaned


def poll_question_data(poll: Poll, language: str) -> dict[str, object] | None:
    """A quiz poll as question data in ``language``: its question, options, right options
    (``correct_option_ids``, Bot API 9.6) and explanation; None when Telegram does not show
    which options are right (a regular poll, or a forwarded quiz whose answer is hidden)."""
    right = set(poll.correct_option_ids or ())
    if poll.type != Poll.QUIZ or not right:
        return None
    typed = TypedQuestion(
        poll.question,
        tuple(option.text for option in poll.options),
        tuple(sorted(right)),
        poll.explanation or "",
    )
    return typed_question_data(typed, language)
