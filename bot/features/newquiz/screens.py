"""The screens of /newquiz: the prompts of each step, a question added (with Undo), the choice
of a poll's right option, the publish card, and the problems to fix, as plain data.

Every text a creator typed (title, question, options, explanation) is escaped and shown as
typed: ``<b>`` and ``**`` stay visible, never interpreted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.features.newquiz import rules as creating
from bot.features.newquiz.draft import Draft, DraftQuestion, Pending, Step
from bot.features.newquiz.rules import Added, OriginalKept, Refused
from bot.i18n import Catalog
from bot.kernel.cleaning import removed_shown
from bot.render.callbacks import (
    DraftButton,
    KeepOriginalButton,
    RightDoneButton,
    RightOptionButton,
    UndoButton,
)
from bot.render.links import bank_link, group_bank_link
from bot.render.screen import Button, Screen, ShareButton, UrlButton
from bot.render.text import Markup, clip

MAX_DRAFT_PROMPT_SHOWN = 120
"""Characters of a question quoted in a confirmation ("Question 3 added: ...")."""
_LABELS = "ABCDEFGHIJKL"
"""Option labels, A-L (up to 12 options, Bot API 10.1 polls)."""
_CHECKED = "✅"


@dataclass(frozen=True)
class CreatorScreen:
    """A screen and what it does to the creator's reply keyboard.

    Attributes:
        screen: The message.
        poll_button: The label of the reply keyboard's quiz-poll button
            (``KeyboardButtonPollType(type="quiz")``), when the screen sets it; None leaves the
            keyboard as it is.
        remove_keyboard: The screen removes the reply keyboard (the draft is over).
    """

    screen: Screen
    poll_button: str | None = None
    remove_keyboard: bool = False


def newquiz_prompt(step: Step, t: Catalog, m: Markup) -> CreatorScreen:
    """The prompt of ``step``; the questions' prompt sets the quiz-poll button, the title's
    removes it (a draft started over)."""
    if step is Step.TITLE:
        return CreatorScreen(Screen(m.escape(t("newquiz.ask_title"))), remove_keyboard=True)
    if step is Step.DESCRIPTION:
        return CreatorScreen(Screen(m.escape(t("newquiz.ask_description"))))
    text = m.escape(t("newquiz.ask_questions", example=t("newquiz.example")))
    return CreatorScreen(Screen(text), poll_button=t("newquiz.button_poll"))


def newquiz_draft_open(draft: Draft, t: Catalog, m: Markup) -> Screen:
    """/newquiz over an open draft: go on with it, or start over. A draft without questions
    has its own text: a count of none reads badly (CLDR's Portuguese "one" covers 0)."""
    title = clip(draft.title or t("newquiz.untitled"), MAX_DRAFT_PROMPT_SHOWN)
    if draft.questions:
        questions = t("question_count", count=len(draft.questions))
        text = t("newquiz.draft_open", title=title, questions=questions)
    else:
        text = t("newquiz.draft_open_empty", title=title)
    return Screen(
        m.escape(text),
        (
            (
                Button(t("newquiz.button_continue"), DraftButton(0, draft.started)),
                Button(t("newquiz.button_restart"), DraftButton(1, draft.started)),
            ),
        ),
    )


def newquiz_added(draft: Draft, outcome: Added, t: Catalog, m: Markup) -> Screen:
    """ "Question 3 added", what kind it is, and an Undo button; for a forwarded poll whose
    question was cleaned, the question as stored in full, what was taken off, and a "Keep the
    original" button."""
    q = outcome.question
    lines = [
        m.escape(
            t(
                "newquiz.added",
                number=outcome.number,
                prompt=clip(" ".join(q.prompt.split()), MAX_DRAFT_PROMPT_SHOWN),
            )
        )
    ]
    if q.answer is not None:
        lines.append(m.escape(t("newquiz.added_true_false")))
    elif q.several:
        lines.append(m.escape(t("newquiz.added_several")))
    if q.picture:
        lines.append(m.escape(t("newquiz.added_picture")))
    if not q.explanation:
        lines.append(m.italic(t("newquiz.added_no_explanation")))
    buttons = [Button(t("newquiz.button_undo"), UndoButton(draft.started, q.serial))]
    if q.original:
        lines.append(_cleaned(q, t, m))
        if len(" ".join(q.prompt.split())) > MAX_DRAFT_PROMPT_SHOWN:  # clipped above
            lines.append(m.italic(q.prompt))
        buttons.append(
            Button(t("polls.button_keep_original"), KeepOriginalButton(draft.started, q.serial))
        )
    lines.append(m.escape(t("newquiz.added_hint")))
    return Screen("\n".join(lines), (tuple(buttons),))


def _cleaned(q: DraftQuestion, t: Catalog, m: Markup) -> str:
    """What was taken off a forwarded poll's question (``…`` for the question kept)."""
    return m.escape(t("polls.cleaned", removed=removed_shown(q.original, q.prompt)))


def newquiz_original_kept(
    draft: Draft, question: DraftQuestion, outcome: OriginalKept, t: Catalog, m: Markup
) -> Screen:
    """Question ``number`` has its forwarded poll's question as it came (shown), with Undo."""
    return Screen(
        "\n".join(
            (
                m.escape(t("polls.original_kept", number=outcome.number)),
                m.italic(question.prompt),
            )
        ),
        ((Button(t("newquiz.button_undo"), UndoButton(draft.started, question.serial)),),),
    )


def newquiz_ask_right(draft: Draft, pending: Pending, t: Catalog, m: Markup) -> Screen:
    """Which option of a pending poll is right: one button per option (with several right,
    a toggle each, the chosen ones checked, and "Done"); a forwarded poll's cleaned question
    says what was taken off."""
    q = pending.question
    head = t("newquiz.ask_right_several" if pending.several else "newquiz.ask_right")
    lines = [m.bold(head), "", m.escape(q.prompt), ""]
    if q.original:  # a forwarded poll's question, cleaned: said before the answer is chosen
        lines[3:3] = [_cleaned(q, t, m)]
    lines += [m.escape(f"{_LABELS[i]}. {text}") for i, text in enumerate(q.options)]
    buttons = [
        Button(
            f"{_CHECKED} {_LABELS[i]}" if i in q.correct else _LABELS[i],
            RightOptionButton(draft.started, q.serial, i),
        )
        for i in range(len(q.options))
    ]
    rows = [tuple(buttons[i : i + 6]) for i in range(0, len(buttons), 6)]
    if pending.several:
        rows.append(
            (Button(t("newquiz.button_right_done"), RightDoneButton(draft.started, q.serial)),)
        )
    return Screen("\n".join(lines), tuple(rows))


def newquiz_note(key: str, t: Catalog, m: Markup, **params: object) -> Screen:
    """A one-line answer (``newquiz.<key>``)."""
    return Screen(m.escape(t(f"newquiz.{key}", **params)))


def newquiz_refused(outcome: Refused, t: Catalog, m: Markup) -> Screen:
    """Why what the creator sent was not taken (nothing changed)."""
    return Screen(newquiz_problem(outcome.problem, outcome.params, t, m))


def newquiz_problem(problem: str, params: Mapping[str, object], t: Catalog, m: Markup) -> str:
    """A draft problem (:data:`bot.features.newquiz.rules.PROBLEMS`) in the creator's language."""
    if problem == "not_a_question":
        params = {"example": t("newquiz.example")}
    return m.escape(t(f"newquiz.problem.{problem}", **params))


def newquiz_published(
    quiz_id: str,
    title: str,
    questions: int,
    bot_username: str,
    t: Catalog,
    m: Markup,
    *,
    share: bool = True,
) -> list[CreatorScreen]:
    """The quiz is stored: a first message that removes the reply keyboard, then its deep
    link with Play, Share (inline mode: "@<bot> <id>"; only with ``share``, when the bot's
    inline mode is on) and "Start in a group"."""
    link = bank_link(bot_username, quiz_id)
    head = m.bold(
        t("newquiz.published", title=title, questions=t("question_count", count=questions))
    )
    lines = [
        m.escape(t("newquiz.published_link", link=link)),
        "",
        m.escape(t("newquiz.published_hint")),
    ]
    first = [Button(t("newquiz.button_play"), UrlButton(link))]
    if share:
        first.append(Button(t("newquiz.button_share"), ShareButton(quiz_id)))
    rows = (
        tuple(first),
        (Button(t("newquiz.button_group"), UrlButton(group_bank_link(bot_username, quiz_id))),),
    )
    return [
        CreatorScreen(Screen(head), remove_keyboard=True),
        CreatorScreen(Screen("\n".join(lines), rows)),
    ]


@dataclass(frozen=True)
class PublishProblem:
    """One problem of a rejected quiz: its question number (None for the quiz itself) and its
    catalog message."""

    question: int | None
    key: str
    params: Mapping[str, object]


def newquiz_rejected(problems: Iterable[PublishProblem], t: Catalog, m: Markup) -> list[Screen]:
    """What to fix before the quiz can be published, by question number, in the creator's
    language (at most one message; the rest of a long list is cut, the first ones matter)."""
    lines = [m.bold(t("newquiz.rejected")), ""]
    for problem in sorted(problems, key=lambda p: p.question or 0):
        text = t(problem.key, **problem.params)
        if problem.question is not None:
            text = t("newquiz.rejected_question", number=problem.question, problem=text)
        lines.append(m.escape(f"• {text}"))
    lines += ["", m.escape(t("newquiz.rejected_hint"))]
    return [Screen(chunk) for chunk in m.chunks("\n".join(lines), 4000)[:1]]


def newquiz_cancelled(t: Catalog, m: Markup) -> CreatorScreen:
    """/cancel: the draft is deleted, the reply keyboard goes."""
    return CreatorScreen(newquiz_note("cancelled", t, m), remove_keyboard=True)


NEWQUIZ_PROBLEM_KEYS = tuple(f"newquiz.problem.{problem}" for problem in creating.PROBLEMS)
"""The catalog message of every draft problem (a test checks each exists)."""
