"""``quizbot play``: the same quiz in a terminal, on the same core and storage, without Telegram."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable

from bot import i18n, render
from bot.quiz import engine
from bot.quiz.bank import CONTROL_CHARACTERS, Bank
from bot.quiz.review import LearningService
from bot.quiz.service import QuizService
from bot.quiz.starting import Resumed, resume_or_start
from bot.render import PLAIN

TERMINAL_USER_ID = 0
"""The player id of the terminal (Telegram user ids are positive, so it never collides)."""

Ask = Callable[[str], Awaitable[str]]
"""Show a prompt, return the line typed (raises EOFError at end of input)."""


GREEK_LABELS = "ΑΒΓΔΕΖΗΘΙΚ"
"""Greek capitals typed for the option labels A-J (on a Greek keyboard layout the Latin letters
are a layout switch away): Α Β Γ Δ are A B C D, in the order of the alphabet."""

QUIT = ("Q", ";")
"""Replies that quit: "q", or ";" (the q key of a Greek keyboard layout types ";")."""


def wrap(text: str, width: int | None = None) -> str:
    """``text`` wrapped to the terminal's width (default: its columns, else 80) at word
    boundaries, measured in display cells (wide characters count two, combining marks none)
    and never inside a grapheme cluster (a Hindi vowel sign stays on its consonant), by
    ``wcwidth.wrap``. Line breaks and blank lines are kept."""
    import shutil

    import wcwidth

    width = width or shutil.get_terminal_size((80, 24)).columns
    lines = []
    for line in text.split("\n"):
        indent = line[:len(line) - len(line.lstrip(" "))]
        lines.extend(wcwidth.wrap(line, width, subsequent_indent=indent,
                                  break_on_hyphens=False, expand_tabs=False,
                                  replace_whitespace=False) or [""])
    return "\n".join(lines)


def print_plain(text: str) -> None:
    """Print ``text`` without control characters but tab and line feed
    (:data:`bot.quiz.bank.CONTROL_CHARACTERS`): no escape sequence reaches the terminal, even
    from a bank built without the loader's check; wrapped to the terminal (:func:`wrap`)."""
    print(wrap(CONTROL_CHARACTERS.sub("", text)))


def read_label(reply: str, labels: str) -> str | None:
    """The option label (A-J) a typed reply names: a Latin or Greek letter (:data:`GREEK_LABELS`),
    either case, among ``labels``; None for anything else."""
    reply = reply.strip().upper()
    if len(reply) == 1 and reply in GREEK_LABELS:
        reply = engine.LABELS[GREEK_LABELS.index(reply)]
    return reply if len(reply) == 1 and reply in labels else None


async def read_line(prompt: str) -> str:
    """Show ``prompt`` and read a line from standard input, in a daemon thread: the event loop
    stays free, and Ctrl-C ends ``play`` at once instead of waiting for Enter (a thread of
    ``asyncio.to_thread`` would hold up the interpreter's exit until ``input`` returns).

    Raises:
        EOFError: standard input is at its end.
    """
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
        try:
            line = input(prompt)
        except BaseException as exc:  # EOFError above all; handed to the awaiting task
            deliver(exc)
        else:
            deliver(line)

    threading.Thread(target=read, name="quizbot-input", daemon=True).start()
    return await future


async def play(service: QuizService, bank: Bank, language: str, *,
               ask: Ask | None = None, write: Callable[[str], None] = print_plain,
               user_id: int = TERMINAL_USER_ID) -> engine.Result | None:
    """Play ``bank`` in the terminal: resume the active attempt on it, or start one.

    Args:
        service: The quiz service (with its storage and bank registry).
        bank: The bank to play (an attempt on an older version of a created quiz goes on
            on that version).
        language: UI and bank language (unsupported ones fall back to English).
        ask: Prompt reader (default :func:`read_line`); "q" or end of input quits (progress
            is kept).
        write: Output of one block of text (default :func:`print_plain`).
        user_id: The player's id in storage.

    Returns:
        The result when the attempt was finished, None when the player quit.
    """
    ask = ask or read_line
    t = i18n.catalog(language)
    # a question edited in the bank file without a version bump is re-planned (one removed is
    # skipped) before it is shown: see QuizService.current
    started = await resume_or_start(service, user_id, bank.id)
    assert started is not None  # a bank was named
    attempt, updated = started.attempt, isinstance(started, Resumed) and started.updated
    bank = await service.bank_of(attempt)  # a created quiz's attempt goes on on its version
    if isinstance(started, Resumed):
        write(t("resume", number=min(attempt.position + 1, attempt.total), total=attempt.total))
    else:
        write(render.intro(bank, t, PLAIN).text)
    try:
        while attempt.status == engine.ACTIVE:
            position = attempt.position
            if updated:
                write("\n" + t("question_updated"))
            write("\n" + render.attempt_question(bank, attempt, t, PLAIN).text)
            labels = engine.LABELS[:len(attempt.plan.option_orders[position])]  # this question's
            while True:
                reply = (await ask(t("play_prompt_letters", last=labels[-1]))).strip().upper()
                if reply in QUIT:
                    raise EOFError
                label = read_label(reply, labels)
                if label is not None:
                    break
                write(t("play_invalid_letters", last=labels[-1]))
            attempt, answer = await service.grade(user_id, attempt.id, position,
                                                  engine.LABELS.index(label))
            attempt = await service.record(attempt, answer)
            write("\n" + render.feedback(bank, attempt, position, t, PLAIN).text)
            await service.answered(attempt, answer)
            if (await ask(t("play_continue"))).strip().upper() in QUIT:
                raise EOFError
            attempt, updated = await service.current(attempt)
    except EOFError:
        write("\n" + t("play_quit"))
        return None
    write("\n" + "\n".join(s.text for s in render.outcome(bank, attempt, t, PLAIN)))
    for screen in render.review(bank, attempt, t, PLAIN) if engine.result(attempt).missed else ():
        write("\n" + screen.text)
    return engine.result(attempt)


async def review(learning: LearningService, language: str, *, ask: Ask | None = None,
                 write: Callable[[str], None] = print_plain,
                 user_id: int = TERMINAL_USER_ID) -> int:
    """``quizbot play --review``: the due cards one at a time, as in Telegram's /review, until
    none is due; then when the next one is. Answers rate the cards only.

    Returns:
        How many cards were reviewed.
    """
    ask = ask or read_line
    t = i18n.catalog(language)
    done = 0
    try:
        while (item := await learning.due(user_id)) is not None:
            write("\n" + render.review_question(item, t, PLAIN).text)
            labels = engine.LABELS[:len(item.slots)]
            while True:
                reply = (await ask(t("play_prompt_letters", last=labels[-1]))).strip().upper()
                if reply in QUIT:
                    raise EOFError
                label = read_label(reply, labels)
                if label is not None:
                    break
                write(t("play_invalid_letters", last=labels[-1]))
            slot = engine.LABELS.index(label)
            shown, correct, _ = await learning.review(user_id, item.card.id, item.card.reps, slot)
            done += 1
            write("\n" + render.review_feedback(shown, slot, correct, t, PLAIN, next_card=None,
                                                next_in=None, closing=False).text)
    except EOFError:
        write("\n" + t("play_quit"))
        return done
    next_due = await learning.next_due(user_id)
    write("\n" + render.review_done(None if next_due is None else next_due - learning.now(),
                                     t, PLAIN).text)
    return done


async def stats(service: QuizService, learning: LearningService, language: str, *,
                chart_path: str | None = None, write: Callable[[str], None] = print_plain,
                user_id: int = TERMINAL_USER_ID) -> None:
    """``quizbot play --stats``: the /stats summary as text, how well each question is known,
    and with ``chart_path`` the /stats chart written there as a PNG."""
    t = i18n.catalog(language)
    item = await learning.due(user_id)
    due = item.due_count if item is not None else 0
    records = await service.stats(user_id)
    named = await service.named_banks(r.bank_id for r in records)
    for screen in render.stats_with_review(records, named, due, t, PLAIN):
        write(screen.text)
    progress = await learning.progress(user_id)
    if progress.cards:
        write("\n" + render.known_text(progress, t, PLAIN))
    if chart_path and not progress.empty:
        from bot import chart

        write("\n" + str(await asyncio.to_thread(chart.write_png, progress, t, chart_path)))
