"""The draft of a quiz made by chatting with the bot (``/newquiz``), as @QuizBot makes one.

A pure state machine: a :class:`Draft` and what the creator sent (a text, a poll, a photo, a
button tap) give the next draft and an outcome for the screens. Its steps: the title, the
description (``/skip``), then the questions until ``/done``. A question comes from a quiz
poll (its right option or options given), a regular poll or a quiz whose answer Telegram
hides (then the creator is asked which option is right), or a text in the format of
:mod:`bot.kernel.textformat`; a photo sent right before a question is its picture, and a text
replying to a question is its (longer) explanation, or, when it is a question in the text
format with its right option marked, its correction.

A draft (:mod:`bot.features.newquiz.draft`) is JSON-compatible data, stored after each change
(``DraftStore``), and becomes bank data (:func:`bot.features.newquiz.draftbank.bank_data`) in its
creator's language at ``/done``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.features.newquiz.draft import Draft, DraftQuestion, Pending, Step
from bot.features.newquiz.rules import (
    DRAFT_SECONDS,
    MAX_DESCRIPTION,
    MAX_DRAFT_QUESTIONS,
    MAX_MESSAGE,
    MAX_OPTION,
    MAX_POLL_QUESTION,
    MAX_TITLE,
    Added,
    AlbumGrew,
    AskRight,
    ExplanationAdded,
    OriginalKept,
    Outcome,
    PictureKept,
    PollSent,
    Prompt,
    Refused,
    Replaced,
    Stale,
    Undone,
)
from bot.kernel.bank import MAX_OPTIONS, MAX_QUESTION_UTF16, MIN_OPTIONS, blank
from bot.kernel.cleaning import clean_question
from bot.kernel.textformat import parse_question, true_false


def start(language: str, *, now: float) -> tuple[Draft, Prompt]:
    """A new draft in ``language`` (one of the bot's), opened at ``now`` (seconds)."""
    return Draft(language=language, started=int(now * 1000)), Prompt(Step.TITLE)


def resume(draft: Draft) -> Prompt | AskRight:
    """What to show a creator who goes on with ``draft``: its oldest pending poll, or the
    prompt of its step."""
    if draft.pending:
        return AskRight(draft.pending[0])
    return Prompt(draft.step)


def take_text(
    draft: Draft,
    text: str,
    *,
    message_id: int,
    quotes: Sequence[str] = (),
    reply_to: int | None = None,
) -> tuple[Draft, Outcome]:
    """A text message: the title, the description, a question in the text format, or, as a
    reply to a question, its explanation."""
    text = text.strip()
    if draft.step is Step.TITLE:
        if blank(text):
            return draft, Refused("title_empty")
        if _utf16(text) > MAX_TITLE:
            return draft, Refused("title_too_long", {"limit": MAX_TITLE, "size": _utf16(text)})
        return replace(draft, title=" ".join(text.split()), step=Step.DESCRIPTION), Prompt(
            Step.DESCRIPTION
        )
    if draft.step is Step.DESCRIPTION:
        if _utf16(text) > MAX_DESCRIPTION:
            return draft, Refused(
                "description_too_long", {"limit": MAX_DESCRIPTION, "size": _utf16(text)}
            )
        return replace(draft, description=text, step=Step.QUESTIONS), Prompt(Step.QUESTIONS)
    if reply_to is not None:
        for number, question in enumerate(draft.questions, start=1):
            if reply_to in question.messages:
                typed = parse_question(text, quotes)
                if typed is not None and (typed.correct or typed.answer is not None):
                    return _replace(draft, number, text, message_id, quotes)
                return _explain(draft, number, text)
    return take_typed(draft, text, message_id=message_id, quotes=quotes)


def take_typed(
    draft: Draft,
    text: str,
    *,
    message_id: int,
    quotes: Sequence[str] = (),
    picture: str | None = None,
) -> tuple[Draft, Outcome]:
    """A question in the text format (a message, or a photo's caption with its ``picture``)."""
    if draft.step is not Step.QUESTIONS:
        return draft, Refused("questions_first")
    if _utf16(text) > MAX_MESSAGE:
        return draft, Refused("question_too_long", {"limit": MAX_MESSAGE, "size": _utf16(text)})
    typed = parse_question(text, quotes)
    if typed is None:
        return draft, Refused("not_a_question")
    question = DraftQuestion(
        serial=draft.next_serial,
        prompt=typed.prompt,
        options=typed.options,
        correct=typed.correct,
        explanation=typed.explanation,
        answer=typed.answer,
        picture=picture,
        messages=(message_id,),
    )
    return _add(draft, question, prompt_limit=MAX_MESSAGE)


def take_poll(draft: Draft, poll: PollSent) -> tuple[Draft, Outcome]:
    """A poll: a question when its right options are known, else a pending poll and the
    question which option is right. A forwarded poll's question is cleaned of a channel's
    counter and signature (:func:`~bot.kernel.cleaning.clean_question`), its
    original kept beside it (:func:`keep_original`)."""
    if draft.step is not Step.QUESTIONS:
        return draft, Refused("questions_first")
    prompt, original = poll.question.strip(), ""
    cleaned = clean_question(prompt) if poll.forwarded else None
    if cleaned is not None:
        prompt, original = cleaned.text, prompt
    question = DraftQuestion(
        serial=draft.next_serial,
        original=original,
        prompt=prompt,
        options=tuple(o.strip() for o in poll.options),
        correct=tuple(sorted(set(poll.correct or ()))),
        explanation=poll.explanation.strip(),
        messages=(poll.message_id,),
    )
    if poll.quiz and poll.correct:
        return _add(draft, _as_true_false(question), prompt_limit=MAX_POLL_QUESTION)
    problem = _check(draft, question, prompt_limit=MAX_POLL_QUESTION, answered=False)
    if problem is not None:
        return draft, problem
    pending = Pending(replace(question, correct=(), picture=draft.picture), several=poll.several)
    return replace(
        draft, pending=(*draft.pending, pending), next_serial=draft.next_serial + 1, picture=None
    ), AskRight(pending)


def take_photo(
    draft: Draft,
    file_id: str,
    *,
    caption: str,
    message_id: int,
    quotes: Sequence[str] = (),
    album: str | None = None,
) -> tuple[Draft, Outcome]:
    """A photo: with a caption in the text format, a question with that picture; without, the
    picture of the next question.

    An album (photos sent together share a ``media_group_id``; Telegram delivers a message
    each) gives one picture, its first photo (with the question of its caption, or for the
    next question): the later photos are counted (:class:`AlbumGrew`) and left out, since a
    question has one picture; a later photo's caption is still a question (without one)."""
    if draft.step is not Step.QUESTIONS:
        return draft, Refused("questions_first")
    if album is not None and album == draft.album:
        grown = replace(draft, album_photos=draft.album_photos + 1)
        if caption.strip():
            grown, outcome = take_typed(grown, caption, message_id=message_id, quotes=quotes)
            if isinstance(outcome, Refused):
                return draft, outcome
            return grown, outcome
        return grown, AlbumGrew(grown.album_photos, draft.album_note)
    if caption.strip():
        changed, outcome = take_typed(
            draft, caption, message_id=message_id, quotes=quotes, picture=file_id
        )
    else:
        changed, outcome = replace(draft, picture=file_id), PictureKept()
    if isinstance(outcome, Refused):
        return changed, outcome
    return replace(changed, album=album, album_photos=1 if album else 0, album_note=None), outcome


def album_noted(draft: Draft, album: str, message_id: int) -> Draft:
    """The bot's answer ``message_id`` stands for the album ``album`` (edited as it grows)."""
    return replace(draft, album_note=message_id) if draft.album == album else draft


def choose(draft: Draft, serial: int, option: int) -> tuple[Draft, Outcome]:
    """A tap on option ``option`` of the pending poll ``serial``: its answer (one right
    option), or a toggle (several)."""
    found = _pending(draft, serial)
    if found is None or not 0 <= option < len(found.question.options):
        return draft, Stale()
    question = found.question
    if not found.several:
        return _resolve(draft, found, (option,))
    chosen = set(question.correct) ^ {option}
    toggled = replace(found, question=replace(question, correct=tuple(sorted(chosen))))
    return (
        replace(draft, pending=tuple(toggled if p is found else p for p in draft.pending)),
        AskRight(toggled),
    )


def confirm(draft: Draft, serial: int) -> tuple[Draft, Outcome]:
    """ "Done" under a pending poll of several right options: its chosen options are right."""
    found = _pending(draft, serial)
    if found is None:
        return draft, Stale()
    if not found.question.correct:
        return draft, Refused("choose_one")
    return _resolve(draft, found, found.question.correct)


def undo(draft: Draft, serial: int) -> tuple[Draft, Outcome]:
    """Undo of question ``serial``: taken out if it is still the last one; else nothing
    changes (a stale Undo)."""
    if not draft.questions or draft.questions[-1].serial != serial:
        return draft, Stale()
    number = len(draft.questions)
    return replace(draft, questions=draft.questions[:-1]), Undone(number)


def keep_original(draft: Draft, serial: int) -> tuple[Draft, Outcome]:
    """ "Keep the original" under question ``serial``: its forwarded poll's question as it came,
    instead of the cleaned one; nothing changes (a stale button) when the question is gone or
    has it already."""
    number = draft.number_of(serial)
    if number is None or not draft.questions[number - 1].original:
        return draft, Stale()
    old = draft.questions[number - 1]
    kept = replace(old, prompt=old.original, original="")
    if _size(kept) > MAX_QUESTION_UTF16:
        return draft, Refused(
            "question_too_long", {"limit": MAX_QUESTION_UTF16, "size": _size(kept)}
        )
    questions = list(draft.questions)
    questions[number - 1] = kept
    return replace(draft, questions=tuple(questions)), OriginalKept(number)


def skip(draft: Draft) -> tuple[Draft, Outcome]:
    """/skip: no description."""
    if draft.step is Step.DESCRIPTION:
        return replace(draft, step=Step.QUESTIONS), Prompt(Step.QUESTIONS)
    return draft, resume(draft)


def noted(draft: Draft, serial: int, message_id: int) -> Draft:
    """Remember that message ``message_id`` (the bot's confirmation) stands for question
    ``serial`` too."""
    return replace(
        draft,
        questions=tuple(
            replace(q, messages=(*q.messages, message_id)) if q.serial == serial else q
            for q in draft.questions
        ),
    )


def finish(draft: Draft) -> Refused | None:
    """Whether ``/done`` may publish the draft: None, or why not (no question yet, a poll
    still waiting for its right option)."""
    if draft.pending:
        return Refused("answer_pending")
    if draft.step is not Step.QUESTIONS or not draft.questions:
        return Refused("no_questions")
    return None


def expired(updated_at: float, now: float) -> bool:
    """Whether a draft last changed at ``updated_at`` is left for good (:data:`DRAFT_DAYS`)."""
    return now - updated_at > DRAFT_SECONDS


# --- rules ------------------------------------------------------------------------------------


def _add(draft: Draft, question: DraftQuestion, *, prompt_limit: int) -> tuple[Draft, Outcome]:
    question = replace(question, picture=question.picture or draft.picture)
    problem = _check(draft, question, prompt_limit=prompt_limit, answered=True)
    if problem is not None:
        return draft, problem
    added = replace(
        draft,
        questions=(*draft.questions, question),
        picture=None,
        next_serial=max(draft.next_serial, question.serial + 1),
    )
    return added, Added(len(added.questions), question)


def _resolve(draft: Draft, found: Pending, correct: tuple[int, ...]) -> tuple[Draft, Outcome]:
    question = _as_true_false(replace(found.question, correct=correct))
    rest = replace(draft, pending=tuple(p for p in draft.pending if p is not found))
    problem = _check(rest, question, prompt_limit=MAX_POLL_QUESTION, answered=True)
    if problem is not None:
        return draft, problem
    added = replace(rest, questions=(*rest.questions, question))
    return added, Added(len(added.questions), question)


def _pending(draft: Draft, serial: int) -> Pending | None:
    return next((p for p in draft.pending if p.question.serial == serial), None)


def _as_true_false(question: DraftQuestion) -> DraftQuestion:
    answer = true_false(question.options, question.correct)
    if answer is None:
        return question
    return replace(question, options=(), correct=(), answer=answer)


def _check(draft: Draft, q: DraftQuestion, *, prompt_limit: int, answered: bool) -> Refused | None:
    """Why ``q`` cannot be added to ``draft``, or None."""
    if len(draft.questions) + len(draft.pending) >= MAX_DRAFT_QUESTIONS:
        return Refused("too_many_questions", {"limit": MAX_DRAFT_QUESTIONS})
    if blank(q.prompt):
        return Refused("not_a_question")
    if _utf16(q.prompt) > prompt_limit:
        return Refused("prompt_too_long", {"limit": prompt_limit, "size": _utf16(q.prompt)})
    if q.answer is None:
        if len(q.options) < MIN_OPTIONS:
            return Refused("too_few_options", {"limit": MIN_OPTIONS})
        if len(q.options) > MAX_OPTIONS:
            return Refused("too_many_options", {"limit": MAX_OPTIONS, "count": len(q.options)})
        seen: dict[str, int] = {}
        for number, option in enumerate(q.options, start=1):
            if blank(option):
                return Refused("option_empty", {"number": number})
            if _utf16(option) > MAX_OPTION:
                return Refused(
                    "option_too_long",
                    {"number": number, "limit": MAX_OPTION, "size": _utf16(option)},
                )
            key = " ".join(option.casefold().split())
            if key in seen:
                return Refused("options_duplicate", {"number": number, "other": seen[key]})
            seen[key] = number
        if answered and not q.correct:
            return Refused("no_right_option")
        if answered and len(q.correct) == len(q.options):
            return Refused("all_right")
    size = _size(q)
    if size > MAX_QUESTION_UTF16:
        return Refused("question_too_long", {"limit": MAX_QUESTION_UTF16, "size": size})
    return None


def _replace(
    draft: Draft, number: int, text: str, message_id: int, quotes: Sequence[str]
) -> tuple[Draft, Outcome]:
    """A question in the text format replying to question ``number``: it replaces it (same
    place, same picture, its explanation kept unless the new one has one)."""
    old = draft.questions[number - 1]
    others = replace(
        draft, questions=draft.questions[: number - 1] + draft.questions[number:], picture=None
    )
    _, outcome = take_typed(others, text, message_id=message_id, quotes=quotes, picture=old.picture)
    if not isinstance(outcome, Added):
        return draft, outcome
    new = replace(
        outcome.question,
        serial=old.serial,
        messages=(*old.messages, message_id),
        explanation=outcome.question.explanation or old.explanation,
    )
    if _size(new) > MAX_QUESTION_UTF16:
        return draft, Refused(
            "question_too_long", {"limit": MAX_QUESTION_UTF16, "size": _size(new)}
        )
    questions = list(draft.questions)
    questions[number - 1] = new
    return replace(draft, questions=tuple(questions)), Replaced(number)


def _explain(draft: Draft, number: int, text: str) -> tuple[Draft, Outcome]:
    question = replace(draft.questions[number - 1], explanation=text)
    if not text:
        return draft, Refused("not_a_question")
    if _size(question) > MAX_QUESTION_UTF16:
        return draft, Refused(
            "explanation_too_long",
            {
                "number": number,
                "limit": MAX_QUESTION_UTF16 - _size(replace(question, explanation="")),
            },
        )
    questions = list(draft.questions)
    questions[number - 1] = question
    return replace(draft, questions=tuple(questions)), ExplanationAdded(number)


def _size(q: DraftQuestion) -> int:
    """The question's texts together (the bank's rule, :data:`MAX_QUESTION_UTF16`)."""
    return sum(_utf16(text) for text in (q.prompt, q.explanation, *q.options))


def _utf16(text: str) -> int:
    """Length in UTF-16 units, as Telegram counts."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2
