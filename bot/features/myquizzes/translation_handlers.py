"""/myquizzes' "Add a language": the language picked, each text asked for in the chat and
read (:mod:`bot.features.myquizzes.translating`), the quiz checked and updated at the end."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from telegram import CallbackQuery, Message

from bot import i18n
from bot.features.myquizzes import screens
from bot.features.myquizzes.problems import NotYourQuiz, Problem, QuizBusy, QuizGone
from bot.features.myquizzes.quiz_handlers import (
    CANCEL,
    TOASTS,
    _questions_of,
    _quotes,
    quiz_screen_for,
)
from bot.features.myquizzes.service import Owned, QuizzesService, Rejected
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
from bot.kernel.bankdata import bank_data
from bot.kernel.library import QuizRecord
from bot.render.callbacks import QuizButton
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import Context, edit, reach, send, toast


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
