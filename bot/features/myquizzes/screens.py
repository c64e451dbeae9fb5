"""The creator's screens: /myquizzes (the list, one quiz, its editing, results, deletion) and
the answers to a quiz sent as a file or changed (saved, or what to fix, by question number and
field, in the creator's language).

Titles, questions and options are the creator's own text: always escaped, never interpreted.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.myquizzes.exam_presets import (
    EXAM_DRAW_AT,
    EXAM_DRAWS,
    EXAM_MARKING_AT,
    EXAM_MARKINGS,
    EXAM_MINUTES,
    EXAM_MINUTES_AT,
    EXAM_OFF,
)
from bot.features.myquizzes.problems import Problem
from bot.features.myquizzes.results import QuizResults
from bot.features.myquizzes.translating import TITLE, Original
from bot.i18n import SUPPORTED, Catalog
from bot.kernel.bank import Bank, Question
from bot.kernel.cleaning import removed_shown
from bot.kernel.library import QuizRecord, Visibility
from bot.render.callbacks import QuizButton, SheetButton
from bot.render.links import bank_link
from bot.render.screen import (
    LANGUAGES_PER_ROW,
    MAX_BUTTON_LABEL,
    Button,
    Screen,
    ShareButton,
    UrlButton,
    rows_of,
)
from bot.render.text import Markup, clip

MAX_PROBLEMS_SHOWN = 15
"""Problems listed in one answer; the rest are counted ("… and 7 more")."""
QUESTIONS_PER_PAGE = 40
"""Question buttons on one page of the edit screen (8 rows of 5; Telegram allows 100 buttons)."""
_PER_ROW = 5
MAX_PROMPT_SHOWN = 80
"""Characters of a question's text in lists (edit screen, results)."""
LIST_LINES = 30
"""Quizzes described by a line in /myquizzes (each has its button; 100 quizzes at most, as
Telegram's 100 buttons of a keyboard), so the text stays within one message."""
MAX_TITLE_SHOWN = 48
"""Characters of a title in a line of /myquizzes or in a caption."""


def _button(label: str, action: str, record: QuizRecord, number: int = 0) -> Button:
    return Button(label, QuizButton(action, record.id, record.version, number))


def _visibility(record: QuizRecord, t: Catalog) -> str:
    label = t(
        "quizzes.visibility_public"
        if record.visibility is Visibility.PUBLIC
        else "quizzes.visibility_link"
    )
    return label + (f" · {t('quizzes.disabled')}" if record.disabled else "")


def quiz_list(records: Sequence[QuizRecord], t: Catalog, m: Markup) -> Screen:
    """/myquizzes: one line and one button per quiz (disabled ones marked)."""
    if not records:
        return Screen(m.escape(t("quizzes.list_empty")))
    lines = [m.bold(t("quizzes.list_header")), ""]
    rows = []
    for number, record in enumerate(records, start=1):
        if number <= LIST_LINES:
            lines.append(
                m.escape(
                    t(
                        "quizzes.list_line",
                        number=number,
                        title=clip(record.title, MAX_TITLE_SHOWN),
                        questions=t("quizzes.questions", count=record.questions),
                        visibility=_visibility(record, t),
                    )
                )
            )
        mark = "⛔ " if record.disabled else ""
        rows.append(
            (_button(clip(f"{number}. {mark}{record.title}", MAX_BUTTON_LABEL), "open", record),)
        )
    return Screen("\n".join(lines), tuple(rows))


def quiz_screen(
    record: QuizRecord,
    t: Catalog,
    m: Markup,
    bot_username: str,
    *,
    share: bool = True,
    languages: Sequence[str] = (),
) -> Screen:
    """One quiz: its title, size, version and visibility, its ``languages`` when it has
    several (each named in itself; players get the quiz in theirs), its link, and what can be
    done (``share``: the Share button, only when the bot's inline mode is on)."""
    link = bank_link(bot_username, record.id)
    lines = [
        m.bold("📝 " + record.title),
        m.escape(
            t(
                "quizzes.quiz_meta",
                questions=t("quizzes.questions", count=record.questions),
                version=record.version,
                visibility=_visibility(record, t),
            )
        ),
    ]
    if len(languages) > 1:
        names = ", ".join(t.language_name(code) for code in languages)
        lines.append(m.escape(t("quizzes.languages", languages=names)))
    lines.append("")
    if record.disabled:
        lines.append(m.escape(t("quizzes.disabled_hint")))
    else:
        lines.append(m.escape(t("quizzes.link_hint", link=link)))
        if record.visibility is Visibility.PUBLIC:
            lines.append(m.escape(t("quizzes.public_hint")))
    rows: list[tuple[Button, ...]] = []
    if not record.disabled:
        play = Button(t("quizzes.button_play"), UrlButton(link))
        rows.append(
            (play, Button(t("quizzes.button_share"), ShareButton(record.id))) if share else (play,)
        )
    rows.append(
        (
            _button(t("quizzes.button_edit"), "edit", record),
            _button(t("quizzes.button_export"), "export", record),
            Button(t("sheets.button_export"), SheetButton(record.id, record.version)),
        )
    )
    rows.append(
        (
            _button(t("quizzes.button_results"), "results", record),
            _button(t("quizzes.button_make_link"), "link", record)
            if record.visibility is Visibility.PUBLIC
            else _button(t("quizzes.button_make_public"), "public", record),
        )
    )
    rows.append((_button(t("translations.button_add"), "addlang", record),))
    rows.append((_button(t("exam.button_setting"), "exam", record),))
    rows.append(
        (
            _button(t("quizzes.button_delete"), "delete", record),
            _button(t("quizzes.button_list"), "list", record),
        )
    )
    return Screen("\n".join(lines), tuple(rows))


def delete_confirm(record: QuizRecord, t: Catalog, m: Markup) -> Screen:
    """Are you sure? Delete, or keep."""
    return Screen(
        m.escape(t("quizzes.delete_confirm", title=record.title)),
        (
            (
                _button(t("quizzes.button_delete_confirm"), "confirm", record),
                _button(t("quizzes.button_delete_keep"), "open", record),
            ),
        ),
    )


def prompt_of(question: Question, bank: Bank, language: str) -> str:
    """A question's text in ``language`` (else the bank's default), clipped for a list."""
    return clip(
        question.prompt.get(bank.language_for(language), bank.default_language), MAX_PROMPT_SHOWN
    )


def edit_screen(record: QuizRecord, bank: Bank, t: Catalog, m: Markup, page: int = 0) -> Screen:
    """The questions, numbered, with a button each (:data:`QUESTIONS_PER_PAGE` a page), then
    Add a question, Rename and Back."""
    start = page * QUESTIONS_PER_PAGE
    shown = bank.questions[start : start + QUESTIONS_PER_PAGE]
    lines = [m.escape(t("quizzes.edit_header", title=record.title, version=record.version)), ""]
    numbers = []
    for number, question in enumerate(shown, start=start + 1):
        lines.append(m.escape(f"{number}. {prompt_of(question, bank, t.language)}"))
        numbers.append(_button(str(number), "question", record, number))
    rows = [tuple(numbers[i : i + _PER_ROW]) for i in range(0, len(numbers), _PER_ROW)]
    if start + QUESTIONS_PER_PAGE < len(bank.questions):
        rows.append((_button(t("quizzes.button_more"), "page", record, page + 1),))
    rows.append(
        (
            _button(t("quizzes.button_add"), "add", record),
            _button(t("quizzes.button_rename"), "rename", record),
        )
    )
    rows.append((_button(t("quizzes.button_back"), "open", record),))
    return Screen("\n".join(lines), tuple(rows))


def question_screen(record: QuizRecord, bank: Bank, number: int, t: Catalog, m: Markup) -> Screen:
    """Question ``number``: its text and options (the right ones marked), and Move up, Move
    down, Replace, Delete, Back."""
    question = bank.questions[number - 1]
    lang = bank.language_for(t.language)
    lines = [
        m.bold(t("quizzes.question_header", number=number, total=len(bank.questions))),
        m.escape(question.prompt.get(lang, bank.default_language)),
        "",
    ]
    for option in question.options:
        lines.append(
            m.escape(
                ("✅ " if option.correct else "▫️ ") + option.text.get(lang, bank.default_language)
            )
        )
    moves = []
    if number > 1:
        moves.append(_button(t("quizzes.button_up"), "up", record, number))
    if number < len(bank.questions):
        moves.append(_button(t("quizzes.button_down"), "down", record, number))
    rows = [tuple(moves)] if moves else []
    rows.append(
        (
            _button(t("quizzes.button_replace"), "replace", record, number),
            _button(t("quizzes.button_delete_question"), "drop", record, number),
        )
    )
    rows.append((_button(t("quizzes.button_back"), "edit", record),))
    return Screen("\n".join(lines), tuple(rows))


def cleaned_screen(
    said: str, record: QuizRecord, number: int, original: str, prompt: str, t: Catalog, m: Markup
) -> Screen:
    """``said`` (question ``number`` added or replaced) of a forwarded poll whose question was
    cleaned (:mod:`bot.kernel.cleaning`): what was taken off, and "Keep the original", as
    /newquiz shows it."""
    removed = t("polls.cleaned", removed=removed_shown(original, prompt))
    keep = _button(t("polls.button_keep_original"), "keep", record, number)
    return Screen(f"{m.escape(said)}\n{m.escape(removed)}", ((keep,),))


def original_kept_screen(number: int, original: str, t: Catalog, m: Markup) -> Screen:
    """Question ``number`` has its forwarded poll's question as it came (shown)."""
    return Screen(f"{m.escape(t('polls.original_kept', number=number))}\n{m.escape(original)}")


def results_screen(
    record: QuizRecord, bank: Bank, results: QuizResults, t: Catalog, m: Markup, bot_username: str
) -> str:
    """Attempts, players and the average score, then per question the share right and the
    wrong option chosen most (HTML; may be longer than one message: split it)."""
    lines = [m.bold(t("quizzes.results_header", title=record.title))]
    if not results.attempts:
        lines.append(m.escape(t("quizzes.results_none", link=bank_link(bot_username, record.id))))
        return "\n".join(lines)
    lang = bank.language_for(t.language)
    lines.append(
        m.escape(
            t(
                "quizzes.results_totals",
                attempts=t("quizzes.results_attempts", count=results.attempts),
                players=t("quizzes.results_players", count=results.players),
                average=t.decimal(100 * results.average, 0),
            )
        )
    )
    lines.append(m.italic(t("quizzes.results_hint")))
    lines.append("")
    for item in results.questions:
        question = bank.questions[item.number - 1]
        prompt = prompt_of(question, bank, t.language)
        if not item.answers:
            lines.append(
                m.escape(t("quizzes.results_unanswered", number=item.number, prompt=prompt))
            )
            continue
        lines.append(
            m.escape(
                t(
                    "quizzes.results_question",
                    number=item.number,
                    prompt=prompt,
                    right=t.decimal(100 * item.right, 0) + "%",
                    answers=t("quizzes.results_answers", count=item.answers),
                )
            )
        )
        if item.wrong_option is not None:
            option = question.options[item.wrong_option].text.get(lang, bank.default_language)
            lines.append(
                m.escape(
                    t("quizzes.results_wrong", option=clip(option, 60), count=item.wrong_count)
                )
            )
    return "\n".join(lines)


def deleted_screen(record: QuizRecord, t: Catalog, m: Markup) -> Screen:
    """The quiz is deleted; back to the list."""
    return Screen(
        m.escape(t("quizzes.deleted", title=record.title)),
        ((_button(t("quizzes.button_list"), "list", record),),),
    )


def exam_screen(record: QuizRecord, bank: Bank, t: Catalog, m: Markup) -> Screen:
    """The quiz's exam mode: what it is now (off, or its questions, time and marking), and
    its presets: the time, the draw (those below the quiz's size), the marking, off."""
    exam = bank.exam
    lines = [m.bold(t("exam.button_setting")) + " · " + m.escape(record.title), ""]
    if exam is None:
        lines.append(m.escape(t("exam.setting_off")))
    else:
        drawn = len(bank.questions) if exam.draw is None else exam.draw
        lines += [
            m.escape(t("exam.questions", count=drawn)),
            m.escape(t("exam.minutes", count=exam.minutes)),
            m.escape(t("exam.marking", marks=t.number(exam.marks), penalty=t.number(exam.penalty))),
        ]
    lines += ["", m.italic(t("exam.setting_hint"))]
    minutes = tuple(
        _button(f"⏱ {value}", "examset", record, EXAM_MINUTES_AT + i)
        for i, value in enumerate(EXAM_MINUTES)
    )
    draws = tuple(
        _button(
            "🎲 " + (t("exam.draw_all") if value == 0 else str(value)),
            "examset",
            record,
            EXAM_DRAW_AT + i,
        )
        for i, value in enumerate(EXAM_DRAWS)
        if value < len(bank.questions)
    )
    markings = tuple(
        _button(
            f"+{t.number(marks)} / −{t.number(penalty)}" if penalty else f"+{t.number(marks)} / 0",
            "examset",
            record,
            EXAM_MARKING_AT + i,
        )
        for i, (marks, penalty) in enumerate(EXAM_MARKINGS)
    )
    rows: list[tuple[Button, ...]] = [minutes, draws, markings]
    if exam is not None:
        rows.append((_button(t("exam.button_off"), "examset", record, EXAM_OFF),))
    return Screen("\n".join(lines), (*rows, *back_row(record, t)))


def back_row(record: QuizRecord, t: Catalog) -> tuple[tuple[Button, ...], ...]:
    """The row under a message about one quiz (results, a change): back to the quiz."""
    return ((_button(t("quizzes.button_back"), "open", record),),)


def problems_text(problems: Sequence[Problem], t: Catalog, m: Markup) -> str:
    """What to fix: each problem by question number, field and line, in the creator's
    language (at most :data:`MAX_PROBLEMS_SHOWN`, then how many more)."""
    lines = [m.bold(t("quizzes.problems", count=len(problems)))]
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        lines.append(m.escape(problem_line(problem, t)))
    if len(problems) > MAX_PROBLEMS_SHOWN:
        lines.append(m.escape(t("quizzes.problems_more", count=len(problems) - MAX_PROBLEMS_SHOWN)))
    return "\n".join(lines)


def problem_line(problem: Problem, t: Catalog) -> str:
    """One problem as a line: "• Question 3, option 2.text (line 14): is missing"."""
    text = t(problem.key, **problem.params)
    field = _field(problem.field, t)
    if problem.field in ("(file)", "(quiz)", "(bank)", ""):
        return t("quizzes.problem_file", problem=text)
    if problem.question is not None:
        key = "quizzes.problem_question_line" if problem.line else "quizzes.problem_question"
        return t(key, number=problem.question, field=field, line=problem.line, problem=text)
    key = "quizzes.problem_quiz_line" if problem.line else "quizzes.problem_quiz"
    return t(key, field=field, line=problem.line, problem=text)


def _field(path: str, t: Catalog) -> str:
    """A field path with "option N" in the creator's language; the file's keys as they are."""
    if path.startswith("option "):
        head, _, rest = path.partition(".")
        number = head.removeprefix("option ")
        if number.isdigit():
            return t("quizzes.field_option", number=int(number)) + (f".{rest}" if rest else "")
    return path


def export_caption(record: QuizRecord, t: Catalog, m: Markup) -> str:
    """The caption of an exported quiz: how to add a language and send it back (well within
    the 1,024 characters of a caption: the title is clipped)."""
    return m.escape(
        t(
            "quizzes.export_caption",
            title=clip(record.title, MAX_TITLE_SHOWN),
            version=record.version,
        )
    )


def saved_text(record: QuizRecord, created: bool, t: Catalog, m: Markup) -> str:
    """A quiz saved: new, or a new version."""
    if created:
        return m.escape(t("quizzes.created", title=record.title, count=record.questions))
    return m.escape(
        t("quizzes.updated", title=record.title, version=record.version, count=record.questions)
    )


def language_picker(
    record: QuizRecord, has: Sequence[str], going_on: str | None, t: Catalog, m: Markup
) -> Screen:
    """ "Add a language": the supported languages the quiz does not ``has``, each named in
    itself, :data:`LANGUAGES_PER_ROW` a row (``going_on``: the one whose translation is in
    progress, marked ▶️), then Back."""
    missing = [code for code in SUPPORTED if code not in has]
    if not missing:
        return Screen(
            m.escape(t("translations.pick_none", title=record.title)), back_row(record, t)
        )
    buttons = [
        _button(
            ("▶️ " if code == going_on else "") + t.language_name(code),
            "lang",
            record,
            SUPPORTED.index(code),
        )
        for code in missing
    ]
    text = m.escape(t("translations.pick", title=record.title))
    return Screen(text, (*rows_of(buttons, LANGUAGES_PER_ROW), *back_row(record, t)))


def translation_prompt(
    record: QuizRecord,
    language: str,
    original: Original,
    place: tuple[int, int],
    t: Catalog,
    m: Markup,
) -> Screen:
    """The next message to translate into ``language``: where it is (``place``: its number
    among the quiz's messages to translate, and their count), what to send, and the original
    as the maker sends it back, copied with one tap (:meth:`Markup.copyable`); Skip for now,
    Finish later and Cancel."""
    number, total = place
    if original.key != TITLE:
        asked = t("translations.ask_question", number=number - 1)
    elif len(original.lines) > 1:
        asked = t("translations.ask_title_description")
    else:
        asked = t("translations.ask_title")
    head = f"🌐 {t.language_name(language)} · {number}/{total}"
    text = "\n".join([m.bold(head), m.escape(asked), "", m.copyable(original.as_text())])
    skip = (_button(t("translations.button_skip"), "skiplang", record),)
    buttons = (
        _button(t("translations.button_later"), "later", record),
        _button(t("translations.button_cancel"), "droplang", record),
    )
    return Screen(text, (skip, buttons))
