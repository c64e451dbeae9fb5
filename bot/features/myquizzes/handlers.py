"""/myquizzes: a creator's quizzes, each with Play, Share, Edit, Export, Results, visibility and
Delete (thin handlers over :class:`bot.features.myquizzes.service.QuizzesService`).

Every button names the quiz and the version it was shown at (:class:`bot.render.QuizButton`).
The service refuses anyone but the owner (a forged or forwarded button): it raises its
refusal, the router answers the tap with its toast from :data:`TOASTS`, and nothing changes.
A change tapped on a version that moved on is stale: the quiz is shown as it is now,
unchanged. Adding, replacing a question and renaming ask for the
creator's next text message (:class:`~bot.features.myquizzes.edits.QuizEdits`); "Add a
language" asks for the quiz's texts in another language, a question per message
(:mod:`bot.features.myquizzes.translating`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Awaitable, Callable, Sequence

from telegram import CallbackQuery, InputFile, Message, Poll, Update
from telegram.ext import filters

from bot import i18n
from bot.features.myquizzes import screens
from bot.features.myquizzes.edits import QuizEdit, QuizEdits
from bot.features.myquizzes.problems import Problem
from bot.features.myquizzes.service import (
    NotYourQuiz,
    Outcome,
    Owned,
    Published,
    QuizBusy,
    QuizGone,
    QuizzesService,
    Rejected,
)
from bot.features.myquizzes.translating import (
    TITLE,
    Translation,
    Translations,
    forget,
    next_original,
    originals,
    position,
    read_reply,
)
from bot.features.preferences.catalogs import catalog_for
from bot.i18n import Catalog
from bot.kernel.bankdata import bank_data, typed_question_data
from bot.kernel.engine import QuizError
from bot.kernel.library import QuizRecord, Visibility
from bot.kernel.ports import StorageError
from bot.kernel.registry import BankRegistry
from bot.kernel.textformat import TypedQuestion, parse_question
from bot.render.callbacks import QUIZ_ACTIONS, QuizButton
from bot.render.screen import Screen, as_screens
from bot.render.text import HTML
from bot.telegram.common import Context, edit, reach, send, toast

TOASTS: dict[type[QuizError], str] = {
    NotYourQuiz: "quizzes.toast_not_yours",
    QuizGone: "quizzes.toast_gone",
    QuizBusy: "quizzes.toast_busy",
}
"""A created quiz's refusals -> the catalog key of the toast that answers a tap they refuse
(merged by :data:`bot.routes.TOASTS`; a reply to a prompt says the same)."""

MAX_TITLE = 100
"""Longest title a rename takes, in characters."""

CANCEL = re.compile(r"^/cancel(@\w+)?$")


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


async def _questions_of(
    query: CallbackQuery, context: Context, record: QuizRecord, t: Catalog
) -> Owned | None:
    """The quiz with its questions, this time; the tap answered.

    Raises:
        QuizGone, NotYourQuiz: its refusals (the router toasts them).
    """
    owned = await reach(context, QuizzesService).quiz(query.from_user.id, record.id)
    await toast(query)
    return owned


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


# --- "Add a language": the quiz's texts in another language, a question per message --------


async def _pick_language(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """The languages the quiz lacks, to add one (the one in progress marked)."""
    owned = await _questions_of(query, context, record, t)
    if owned is None:
        return
    going = await reach(context, Translations).current(query.from_user.id)
    going_on = going.language if going is not None and going.quiz_id == record.id else None
    await edit(
        query, screens.language_picker(owned.record, owned.bank.languages, going_on, t, HTML)
    )


async def _start_translation(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Start adding the language picked (``number``: its index in :data:`bot.i18n.SUPPORTED`),
    or go on where the maker stopped; ask for the first text still missing."""
    user_id = query.from_user.id
    owned = await _questions_of(query, context, record, t)
    if owned is None or not 0 <= button.number < len(i18n.SUPPORTED):
        return
    language = i18n.SUPPORTED[button.number]
    if language in owned.bank.languages:
        await edit(query, await quiz_screen_for(context, owned.record, t))
        return
    going = await reach(context, Translations).current(user_id)
    if going is None or (going.quiz_id, going.language) != (record.id, language):
        going = Translation(record.id, language)
    await _ask_next(context, user_id, owned, dataclasses.replace(going, paused=False), t)


async def _stop_translation(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Finish later (``later``: the texts given are kept, the maker's messages no longer read
    as texts) or cancel (``droplang``: they are dropped); the quiz is unchanged either way."""
    translations = reach(context, Translations)
    going = await translations.current(query.from_user.id)
    await toast(query)
    if going is None or going.quiz_id != record.id:
        return
    if button.action == "later":
        await translations.save(query.from_user.id, dataclasses.replace(going, paused=True))
        said = t("translations.paused")
    else:
        await translations.drop(query.from_user.id)
        said = t("translations.cancelled")
    await send(context, query.from_user.id, Screen(HTML.escape(said), screens.back_row(record, t)))


async def _skip_text(
    query: CallbackQuery, context: Context, button: QuizButton, record: QuizRecord, t: Catalog
) -> None:
    """Skip the text asked for now: the others are asked first, then it again."""
    user_id = query.from_user.id
    going = await reach(context, Translations).current(user_id)
    owned = await _questions_of(query, context, record, t)
    if owned is None or going is None or going.quiz_id != record.id or not going.asked:
        return
    skipped = (*(key for key in going.skipped if key != going.asked), going.asked)
    await _ask_next(context, user_id, owned, dataclasses.replace(going, skipped=skipped), t)


async def on_translation_text(message: Message, user_id: int, context: Context) -> bool:
    """The maker's message translating the text last asked for (stored: asked on any
    instance), or /cancel; the next text is asked, or the quiz updated once all are given.
    False when no translation reads the sender's messages (none, or finished later)."""
    translations = reach(context, Translations)
    going = await translations.active(user_id)
    if going is None or message.text is None:
        return False
    user = message.from_user
    assert user is not None
    t = await catalog_for(context, user)
    if CANCEL.match(message.text.strip()):
        await translations.drop(user_id)
        await message.reply_text(HTML.escape(t("translations.cancelled")))
        return True
    try:
        owned = await reach(context, QuizzesService).quiz(user_id, going.quiz_id)
    except (QuizGone, NotYourQuiz) as exc:
        await translations.drop(user_id)
        await message.reply_text(HTML.escape(t(TOASTS[type(exc)])))
        return True
    data = bank_data(owned.bank)
    original = next((o for o in originals(data) if o.key == going.asked), None)
    if original is not None:
        texts = read_reply(message.text, _quotes(message), original)
        if texts is None:
            await message.reply_text(HTML.escape(t("translations.misfit")))
            return True
        going = dataclasses.replace(going, given={**going.given, original.key: texts})
    await _ask_next(context, user_id, owned, going, t)
    return True


async def _ask_next(
    context: Context, user_id: int, owned: Owned, going: Translation, t: Catalog
) -> None:
    """Keep ``going`` and ask for its next text; with every text given, add the language (the
    quiz checked as any version: problems ask their texts again)."""
    translations = reach(context, Translations)
    data = bank_data(owned.bank)
    original = next_original(data, going)
    if original is None:
        await _finish(context, user_id, owned, going, t)
        return
    await translations.save(user_id, dataclasses.replace(going, asked=original.key))
    place = position(data, original)
    await send(
        context,
        user_id,
        screens.translation_prompt(owned.record, going.language, original, place, t, HTML),
    )


async def _finish(
    context: Context, user_id: int, owned: Owned, going: Translation, t: Catalog
) -> None:
    """Store the quiz with the language added and show it; when the check refuses it, show the
    problems and ask for the texts they name again (the translation kept, finished later when
    no text can be named)."""
    service, translations = reach(context, QuizzesService), reach(context, Translations)
    try:
        outcome = await service.add_language(user_id, owned.record.id, going.language, going.given)
    except (QuizGone, NotYourQuiz, QuizBusy) as exc:
        await translations.drop(user_id)
        await send(context, user_id, Screen(HTML.escape(t(TOASTS[type(exc)]))))
        return
    if isinstance(outcome, Rejected):
        problems = screens.problems_text(outcome.problems, t, HTML)
        await send(context, user_id, Screen(problems + "\n\n" + HTML.escape(t("translations.fix"))))
        again = forget(going, _keys_of(outcome.problems, bank_data(owned.bank)))
        if again.given == going.given:  # nothing to ask again: kept for the maker to see
            await translations.save(user_id, dataclasses.replace(going, paused=True))
            return
        await _ask_next(context, user_id, owned, again, t)
        return
    await translations.drop(user_id)
    record = outcome.record
    said = t(
        "translations.added",
        language=t.language_name(going.language),
        title=record.title,
        version=record.version,
    )
    await send(context, user_id, Screen(HTML.escape(said)))
    await send(context, user_id, await quiz_screen_for(context, record, t))


def _keys_of(problems: Sequence[Problem], data: dict[str, object]) -> list[str]:
    """The texts the ``problems`` name: their questions' ids, the title for the quiz's own."""
    questions = data["questions"]
    assert isinstance(questions, list)
    keys = []
    for problem in problems:
        if problem.question is None:
            keys.append(TITLE)
        elif 1 <= problem.question <= len(questions):
            keys.append(str(questions[problem.question - 1]["id"]))
    return keys


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
        outcome = await _change(reach(context, QuizzesService), user.id, pending, message, t)
    except (QuizGone, NotYourQuiz, QuizBusy) as exc:  # the prompt is over: said as a toast
        await reach(context, QuizEdits).done(user.id)
        await message.reply_text(HTML.escape(t(TOASTS[type(exc)])))
        return True
    if outcome is None:  # the reply could not be read, and was told so: the prompt stays
        return True
    if isinstance(outcome, Rejected):  # the prompt stays: the creator sends a fixed version
        await message.reply_text(screens.problems_text(outcome.problems, t, HTML))
        return True
    await reach(context, QuizEdits).done(user.id)
    record = outcome.record
    said = (
        t("quizzes.renamed", title=record.title, version=record.version)
        if pending.action == "rename"
        else t("quizzes.question_added", number=record.questions, version=record.version)
        if pending.action == "add"
        else t("quizzes.question_replaced", number=pending.number, version=record.version)
    )
    await message.reply_text(HTML.escape(said))
    await send(context, message.chat_id, await quiz_screen_for(context, record, t))
    return True


async def _change(
    service: QuizzesService, user_id: int, pending: QuizEdit, message: Message, t: Catalog
) -> Outcome | None:
    """Make the change a reply to a prompt asks for; None when the reply cannot be read (a
    title too long, a question or poll without its answer: the reply says so).

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
        return await service.rename(user_id, pending.quiz_id, title)
    if message.poll is not None:
        data = poll_question_data(message.poll, language)
        if data is None:
            await message.reply_text(HTML.escape(t("quizzes.poll_no_answer")))
            return None
    else:
        typed = parse_question(message.text or "", _quotes(message))
        if typed is None:
            await message.reply_text(HTML.escape(t("quizzes.bad_question")))
            return None
        data = typed_question_data(typed, language)
    if pending.action == "add":
        return await service.add_question(user_id, pending.quiz_id, data)
    return await service.replace_question(user_id, pending.quiz_id, pending.number, data)


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


def _quotes(message: Message) -> list[str]:
    """The texts of the message's quote blocks (an explanation typed after ``>``)."""
    return [
        message.parse_entity(entity)
        for entity in message.entities
        if entity.type in ("blockquote", "expandable_blockquote")
    ]


async def quiz_screen_for(context: Context, record: QuizRecord, t: Catalog) -> Screen:
    """A quiz's screen, with Share only when the bot's inline mode is on, and its languages
    (its latest version's, from the bank registry; only its own language when the registry
    cannot serve it: a quiz taken down, the storage out of reach)."""
    try:
        languages = (await reach(context, BankRegistry).bank(record.id)).languages
    except (QuizError, StorageError):
        languages = (record.language,)
    return screens.quiz_screen(
        record,
        t,
        HTML,
        context.bot.username,
        share=bool(context.bot.supports_inline_queries),
        languages=languages,
    )
