"""``quizbot play``: the same quiz in a terminal, on the same core and storage, without Telegram."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar

from bot import i18n
from bot.features.exams.service import ExamService
from bot.features.learning import screens as learning_screens
from bot.features.learning.service import LearningService
from bot.features.privacy.ports import PrivacyStore
from bot.features.private import screens as private_screens
from bot.features.private.service import QuizService
from bot.features.private.starting import Resumed, resume_or_start
from bot.i18n import bidi
from bot.kernel import engine
from bot.kernel.bank import CONTROL_CHARACTERS, TRUE_FALSE, Bank
from bot.render.text import PLAIN
from bot.terminal import exam as terminal_exam
from bot.terminal import screens as terminal_screens
from bot.terminal import text as termtext
from bot.terminal.replies import (
    QUIT,
    is_yes,
    read_label,
    read_labels,
    true_false_words,
    yes_word,
)

TERMINAL_USER_ID = 0
"""The player id of the terminal (Telegram user ids are positive, so it never collides)."""

COMMAND = "quizbot play"
"""The command that plays, as the texts that name a command to run give it when no option of
the database or the banks was typed (:func:`bot.terminal.cli.play_command` adds them)."""

Ask = Callable[[str], Awaitable[str]]
"""Show a prompt, return the line typed (raises EOFError at end of input)."""


TERMINAL_BIDI_ENV = "QUIZBOT_TERMINAL_BIDI"
"""Environment variable: ``1`` when the terminal lays right-to-left text out itself (VTE's
GNOME Terminal with BiDi on, Konsole, mlterm): ``quizbot play`` then writes Persian and Arabic
lines in logical order, as stored, instead of in visual order (:func:`wrap`)."""


_RIGHT_TO_LEFT: ContextVar[bool | None] = ContextVar("quizbot_play_rtl", default=None)
"""Whether the language being played is written right to left (set by :func:`speak`); None:
each text's own letters decide (:func:`bot.i18n.bidi.mostly_right_to_left`)."""


def speak(t: i18n.Catalog) -> None:
    """Lay the terminal's lines out in ``t``'s direction: a Persian screen is right to left
    even where a command or a term gives it more Latin letters than Persian ones."""
    _RIGHT_TO_LEFT.set(t.right_to_left)


def wrap(text: str, width: int | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """``text`` wrapped to ``width`` columns (default: the terminal's, else 80) as a terminal
    draws it (:func:`bot.terminal.text.wrap`: spacing vowel signs take a column, combining marks
    none, CJK and emoji two; continuation lines indented). Line breaks and blank lines are
    kept. A mostly right-to-left text (Persian, Arabic) is wrapped first, then each line put in
    visual order (:func:`bot.i18n.bidi.visual`) and right-aligned to ``width`` (a right-to-left
    paragraph starts at the right edge, as Telegram and a reordering terminal show it), unless
    :data:`TERMINAL_BIDI_ENV` says the terminal reorders (and aligns) by itself."""
    import shutil

    columns = width or shutil.get_terminal_size((80, 24)).columns
    if environ.get(TERMINAL_BIDI_ENV) == "1":
        return termtext.wrap(text, columns)
    if not _right_to_left(text):
        return bidi.CONTROLS.sub("", termtext.wrap(text, columns))
    # commands and formulas marked before the wrap (a formula cut by it stays isolated on each
    # of its lines: bidi.balanced)
    wrapped = termtext.wrap(bidi.anchored(text), columns)
    shown = [bidi.visual(line) for line in bidi.balanced(wrapped.split("\n"))]
    return "\n".join(_right_aligned(line, columns) for line in shown)


def _right_aligned(line: str, columns: int) -> str:
    """``line`` (in visual order) padded on the left to end at column ``columns``; a blank line
    stays empty."""
    if not line.strip():
        return ""
    return " " * max(0, columns - termtext.width(line)) + line


def _right_to_left(text: str) -> bool:
    chosen = _RIGHT_TO_LEFT.get()
    return bidi.mostly_right_to_left(text) if chosen is None else chosen


def print_plain(text: str) -> None:
    """Print ``text`` without control characters but tab and line feed
    (:data:`bot.kernel.bank.CONTROL_CHARACTERS`): no escape sequence reaches the terminal, even
    from a bank built without the loader's check; wrapped to the terminal (:func:`wrap`)."""
    print(wrap(CONTROL_CHARACTERS.sub("", text)))


def prompt_text(prompt: str, width: int | None = None) -> str:
    """``prompt`` as :func:`read_line` shows it: without control characters, wrapped as
    :func:`wrap` wraps text, and ending in the spaces it ends in (where the reply is typed)."""
    body = prompt.rstrip(" ")
    if _right_to_left(body) and os.environ.get(TERMINAL_BIDI_ENV) != "1":
        # in visual order the prompt's end is at its left: the reply goes on a line of its own
        return wrap(CONTROL_CHARACTERS.sub("", body), width) + "\n"
    return wrap(CONTROL_CHARACTERS.sub("", body), width) + prompt[len(body) :]


LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""The variables naming the locale of messages, the first set one winning (POSIX)."""


def terminal_language(environ: Mapping[str, str]) -> str:
    """The UI language the environment asks for, as GNU gettext reads it: the locale of
    messages is the first of :data:`LOCALE_VARIABLES` set (``el_GR.UTF-8``); unless it is
    ``C`` or ``POSIX``, ``LANGUAGE`` (a list by priority, ``el:en``) comes before it. The first
    supported language named wins, else English."""
    locale = next((environ[v] for v in LOCALE_VARIABLES if environ.get(v)), "")
    code = locale.split(".")[0].split("@")[0]
    names = [] if code in ("C", "POSIX") else environ.get("LANGUAGE", "").split(":")
    for name in (*names, code):
        tag = name.split(".")[0].split("@")[0].replace("_", "-").lower()
        if tag and tag.split("-")[0] in i18n.SUPPORTED:
            return i18n.negotiate(tag)
    return i18n.DEFAULT


def picture_line(picture: str, t: i18n.Catalog) -> str:
    """What the terminal says of a question's ``picture``, which it cannot draw: its link (an
    https URL, which a terminal lets the player open), or that it has one only Telegram can
    show (a Telegram ``file_id``: :data:`bot.kernel.bank.PICTURE_PATTERN`)."""
    if picture.startswith("https://"):
        return t("play.picture_link", url=picture)
    return t("play.picture_not_shown")


async def read_line(prompt: str) -> str:
    """Show ``prompt`` (wrapped: :func:`prompt_text`) and read a line from standard input, in
    a daemon thread: the event loop stays free, and Ctrl-C ends ``play`` at once instead of
    waiting for Enter (a thread of ``asyncio.to_thread`` would hold up the interpreter's exit
    until ``input`` returns).

    Raises:
        EOFError: standard input is at its end.
    """
    prompt = prompt_text(prompt)
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def settle(outcome: str | BaseException) -> None:  # on the loop
        if not future.done():
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    def deliver(outcome: str | BaseException) -> None:
        if not loop.is_closed():
            loop.call_soon_threadsafe(settle, outcome)

    def read() -> None:
        if hasattr(signal, "pthread_sigmask"):  # POSIX: Ctrl-C must reach the main thread
            # the kernel gives a process's signal to any thread not blocking it; one caught
            # here would leave the main thread asleep in the event loop's select, so the
            # player's Ctrl-C would do nothing until the next line was typed
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            line = input(prompt)
        except BaseException as exc:  # EOFError above all; handed to the awaiting task
            deliver(exc)
        else:
            deliver(line)

    threading.Thread(target=read, name="quizbot-input", daemon=True).start()
    return await future


async def play(
    service: QuizService,
    bank: Bank | None,
    language: str,
    *,
    learning: LearningService | None = None,
    exams: ExamService | None = None,
    ask: Ask | None = None,
    write: Callable[[str], None] = print_plain,
    user_id: int = TERMINAL_USER_ID,
    command: str = COMMAND,
) -> engine.Result | None:
    """Play in the terminal: resume the active attempt, or start ``bank``; a quiz with exam
    mode is sat as an exam (:mod:`bot.terminal.exam`) when ``exams`` is given.

    Args:
        service: The quiz service (with its storage and bank registry).
        bank: The bank asked for (``--bank``): an active attempt on another bank is abandoned
            for it only when the player says yes. None: resume the active attempt, else start
            the first bank installed. (An attempt on an older version of a created quiz goes
            on on that version.)
        language: UI and bank language (unsupported ones fall back to English).
        learning: Spaced review, for the end screen's comparison with the best earlier
            attempt (None: no comparison).
        exams: Exam mode (None: a quiz with exam mode is played as a quiz).
        ask: Prompt reader (default :func:`read_line`); "q" or end of input quits (progress
            is kept).
        write: Output of one block of text (default :func:`print_plain`).
        user_id: The player's id in storage.
        command: The command that plays (with the options of the database and the banks that
            were typed), which the texts tell the player to run to go on or to review.

    Returns:
        The result when the attempt was finished, None when the player quit (or kept the
        unfinished quiz of another bank).
    """
    ask = ask or read_line
    t = i18n.catalog(language)
    speak(t)
    active = await service.active(user_id)
    if bank is not None and active is not None and active.bank_id != bank.id:
        if not await _leave(service, active, bank, t, ask, write, command):
            return None
    if exams is not None:  # a quiz with exam mode is an exam, in the terminal too
        sitting, exam_bank = await terminal_exam.exam_to_sit(exams, user_id, bank)
        if sitting is not None or exam_bank is not None:
            return await terminal_exam.sit(
                exams,
                sitting,
                exam_bank,
                t,
                ask=ask,
                write=write,
                choose=_choice,
                picture=picture_line,
                user_id=user_id,
                command=command,
            )
    # a question edited in the bank file without a version bump is re-planned (one removed is
    # skipped) before it is shown: see QuizService.current
    started = await resume_or_start(service, user_id, bank.id if bank is not None else None)
    if started is None:  # several banks installed, none asked for, nothing to resume
        started = await resume_or_start(service, user_id, next(iter(service.registry.featured)))
    assert started is not None  # a bank was named
    attempt, updated = started.attempt, isinstance(started, Resumed) and started.updated
    bank = await service.bank_of(attempt)  # a created quiz's attempt goes on on its version
    if isinstance(started, Resumed):
        write(t("resume", number=min(attempt.position + 1, attempt.total), total=attempt.total))
    else:
        write(private_screens.intro(bank, t, PLAIN).text)
    try:
        while attempt.status == engine.ACTIVE:
            position = attempt.position
            if updated:
                write("\n" + t("question_updated"))
            screen = private_screens.attempt_question(bank, attempt, t, PLAIN)
            if screen.photo:
                write("\n" + picture_line(screen.photo, t))
            write("\n" + screen.text)
            order = attempt.plan.option_orders[position]
            labels = engine.LABELS[: len(order)]  # this question's
            question = bank.question(attempt.plan.question_order[position])
            words = true_false_words(t, order) if question.kind == TRUE_FALSE else {}
            chosen = await _choice(ask, write, t, labels, question.several, words)
            # several right options: "A C" ticks A and C, then submits them
            attempt, answer = await service.grade_choice(
                user_id,
                attempt.id,
                position,
                sum(1 << engine.LABELS.index(label) for label in set(chosen)),
            )
            attempt = await service.record(attempt, answer, language=t.language)
            write("\n" + private_screens.feedback(bank, attempt, position, t, PLAIN).text)
            await service.answered(attempt, answer)
            if (await ask(t("play_continue"))).strip().upper() in QUIT:
                raise EOFError
            attempt, updated = await service.current(attempt)
    except EOFError:
        write("\n" + t("play_quit", command=command))
        return None
    best = await learning.previous_best(attempt) if learning is not None else None
    write("\n" + terminal_screens.end_screen(bank, attempt, t, PLAIN, best, command))
    return engine.result(attempt)


async def _leave(
    service: QuizService,
    active: engine.Attempt,
    bank: Bank,
    t: i18n.Catalog,
    ask: Ask,
    write: Callable[[str], None],
    command: str,
) -> bool:
    """Ask whether to leave the unfinished ``active`` attempt for ``bank``; say how to go on
    with it when not (end of input is a no)."""
    current = await service.bank_of(active)
    lang = current.language_for(t.language)
    name = current.title.get(lang, current.default_language)
    new = bank.title.get(bank.language_for(t.language), bank.default_language)
    try:
        reply = await ask(
            t(
                "play.other_bank",
                name=name,
                new=new,
                yes=yes_word(t),
                number=min(active.position + 1, active.total),
                total=active.total,
            )
        )
    except EOFError:
        reply = ""
    if is_yes(reply, t):
        return True
    write(t("play.other_bank_kept", command=command, bank=current.id, name=name))
    return False


async def _choice(
    ask: Ask,
    write: Callable[[str], None],
    t: i18n.Catalog,
    labels: str,
    several: bool,
    words: Mapping[str, str] | None = None,
) -> str:
    """The option label(s) typed for a question with ``labels`` (``words``: other replies a
    true/false question takes, :func:`true_false_words`); asked again until valid, saying
    what was wrong: several letters for a question with one right answer get their own note.

    Raises:
        EOFError: the player quit ("q", ";", end of input).
    """
    while True:
        prompt = "play.prompt_several" if several else "play_prompt_letters"
        reply = (await ask(t(prompt, last=labels[-1]))).strip().upper()
        if reply in QUIT:
            raise EOFError
        if words and reply in words:
            return words[reply]
        chosen = read_labels(reply, labels) if several else read_label(reply, labels)
        if chosen:
            return chosen
        if not several and (read_labels(reply, labels) or "")[1:]:
            write(t("play.one_letter", last=labels[-1]))
            continue
        write(t("play_invalid_letters", last=labels[-1]))


async def review(
    learning: LearningService,
    language: str,
    *,
    ask: Ask | None = None,
    write: Callable[[str], None] = print_plain,
    user_id: int = TERMINAL_USER_ID,
    command: str = COMMAND,
) -> int:
    """``quizbot play --review``: the due cards one at a time, as in Telegram's /review, until
    none is due; then when the next one is. Answers rate the cards only; a question with
    several right options takes several letters (``A C``), right only for the exact set. Each
    feedback waits for Enter, as a quiz's does (so that it stays on the screen, and an Enter
    typed out of habit is not taken for an answer); "q" there quits too. ``command``: as
    :func:`play`'s.

    Returns:
        How many cards were reviewed.
    """
    ask = ask or read_line
    t = i18n.catalog(language)
    speak(t)
    done = 0
    item = await learning.due(user_id)
    try:
        while item is not None:
            screen = learning_screens.review_question(item, t, PLAIN)
            if screen.photo:
                write("\n" + picture_line(screen.photo, t))
            write("\n" + screen.text)
            labels = engine.LABELS[: len(item.slots)]
            several = item.question.several
            words = true_false_words(t, item.slots) if item.question.kind == TRUE_FALSE else {}
            chosen = await _choice(ask, write, t, labels, several, words)
            slot = engine.LABELS.index(chosen[0])
            ticked = sum(1 << engine.LABELS.index(c) for c in set(chosen)) if several else None
            shown, correct, _ = await learning.review(
                user_id, item.card.id, item.card.reps, slot, ticked=ticked
            )
            done += 1
            item = await learning.due(user_id)
            write(
                "\n"
                + learning_screens.review_feedback(
                    shown,
                    slot,
                    correct,
                    t,
                    PLAIN,
                    next_card=None,
                    next_in=None,
                    closing=False,
                    left=0 if item is None else item.due_count,
                    ticked=ticked or 0,
                ).text
            )
            if (await ask(t("play_continue"))).strip().upper() in QUIT:
                raise EOFError
    except EOFError:
        write("\n" + t("play.review_quit", command=command))
        return done
    next_due = await learning.next_due(user_id)
    if next_due is None:
        write("\n" + t("play.review_none_yet", command=command))
    else:
        write("\n" + learning_screens.review_done(next_due - learning.now(), t, PLAIN).text)
    return done


async def stats(
    service: QuizService,
    learning: LearningService,
    language: str,
    *,
    chart_path: str | None = None,
    write: Callable[[str], None] = print_plain,
    user_id: int = TERMINAL_USER_ID,
    command: str = COMMAND,
) -> None:
    """``quizbot play --stats``: the /stats summary as text, when each question is due for
    review, and with ``chart_path`` the /stats chart written there as a PNG. A bank that is
    not loaded (its file not given with ``--banks`` this time) is named by its id and said to
    be so. ``command``: as :func:`play`'s."""
    t = i18n.catalog(language)
    speak(t)
    item = await learning.due(user_id)
    due = item.due_count if item is not None else 0
    records = await service.stats(user_id)
    named = await service.named_banks(r.bank_id for r in records)
    if not records:
        write(t("play.stats_none", command=command))
    else:

        def unnamed(bank_id: str) -> str:
            return t("play.bank_not_loaded", bank=bank_id)

        for screen in learning_screens.stats_with_review(records, named, due, t, PLAIN, unnamed):
            write(screen.text)
    progress = await learning.progress(user_id)
    if progress.cards:
        write("\n" + learning_screens.known_text(progress, t, PLAIN))
    if chart_path and not progress.empty:
        from bot.features.learning import chart

        write("\n" + str(await asyncio.to_thread(chart.write_png, progress, t, chart_path)))


async def reset(
    store: PrivacyStore,
    language: str,
    *,
    ask: Ask | None = None,
    write: Callable[[str], None] = print_plain,
    user_id: int = TERMINAL_USER_ID,
) -> bool:
    """``quizbot play --reset``: delete the terminal player's attempts, answers, scores,
    review cards and habits, once they confirm (typing the catalog's yes; anything else, or
    end of input, deletes nothing). Telegram users' data is untouched.

    Returns:
        Whether it was deleted.
    """
    ask = ask or read_line
    t = i18n.catalog(language)
    speak(t)
    try:
        reply = await ask(t("play.reset_prompt", yes=yes_word(t)))
    except EOFError:
        reply = ""
    if not is_yes(reply, t):
        write(t("play.reset_kept"))
        return False
    await store.delete_user(user_id)
    write(t("play.reset_done"))
    return True
