"""`quizbot play` on a quiz with exam mode (issue 34): the exam's intro, a paper against the
timer (shown above each question), no feedback until the end, the marks at the end and a
review card for every question; submitted when time is up (at the next answer, or while the
player is still thinking), and kept, with its clock running, when the player quits."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import time

import pytest

from bot import i18n
from bot.features.exams.service import ExamService
from bot.features.learning.service import LearningService
from bot.features.private.service import QuizService
from bot.kernel import engine
from bot.kernel.bank import Exam
from bot.terminal import play
from storage import SQLiteStore
from tests.support.banks import BANK_ID
from tests.support.clock import FakeClock

MINUTE = 60.0
EN = i18n.catalog("en")


class Terminal:
    """A player who answers the exam's questions as ``rights`` say (right, wrong; then the
    end of input), pressing Enter to start; ``before`` runs before each answer (the clock
    moved on while they think)."""

    def __init__(self, store: SQLiteStore, bank, rights: list[bool], before=None) -> None:
        self.store, self.bank, self.rights, self.before = store, bank, list(rights), before
        self.prompts: list[str] = []
        self.written: list[str] = []

    async def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if prompt == EN("play.exam_start"):
            return ""
        if not self.rights:
            raise EOFError
        if self.before is not None:
            self.before(len(self.prompts))
        attempt = await self.store.active_attempt(play.TERMINAL_USER_ID)
        question = self.bank.question(attempt.plan.question_order[attempt.position])
        order = attempt.plan.option_orders[attempt.position]
        right = order.index(min(question.correct_indices))
        slot = right if self.rights.pop(0) else (right + 1) % len(order)
        return engine.LABELS[slot]

    def write(self, text: str) -> None:
        self.written.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.written)


@pytest.fixture
async def hall(tmp_path, banks):
    """The bundled bank with exam mode (10 minutes, +4/−1, 4 questions drawn) over a fresh
    SQLite store, on a fake clock."""
    bank = dataclasses.replace(banks[BANK_ID], exam=Exam(10, 4.0, 1.0, 4))
    store = await SQLiteStore.open(tmp_path / "t.sqlite3")
    clock = FakeClock(time.time())
    quiz = QuizService(store, {bank.id: bank}, clock=clock)
    learning = LearningService(store, {bank.id: bank}, clock=clock)
    quiz.on_answer = learning.answered
    yield quiz, ExamService(quiz, store, clock=clock), store, bank, clock, tmp_path
    await store.close()


def cards(path, user_id: int = play.TERMINAL_USER_ID) -> list[tuple[int, int]]:
    """(ratings, lapses) of each review card of ``user_id``."""
    with sqlite3.connect(path / "t.sqlite3") as conn:
        return conn.execute(
            "SELECT reps, lapses FROM cards WHERE user_id = ?", (user_id,)
        ).fetchall()


async def test_a_quiz_with_exam_mode_is_sat_as_an_exam_in_the_terminal(hall) -> None:
    quiz, exams, store, bank, _clock, path = hall
    terminal = Terminal(store, bank, [True, False, True, True])
    result = await play.play(quiz, None, "en", exams=exams, ask=terminal.ask, write=terminal.write)
    assert result is not None and result.score == 3
    intro = terminal.written[0]
    assert "4 questions" in intro and "10 minutes" in intro and "press Enter" in intro
    assert "tap" not in terminal.text.lower()  # no Telegram wording
    questions = [w for w in terminal.written if EN("exam.time_left", clock="10:00") in w]
    assert len(questions) == 4  # the timer above each question (the fake clock stands still)
    before_end = "\n".join(terminal.written[: terminal.written.index(questions[-1]) + 1])
    assert "✅" not in before_end and "❌" not in before_end  # no feedback until the end
    assert "Score: 11 of 16 marks" in terminal.text  # 3 × 4 − 1
    assert "Right: 3 · Wrong: 1 · Blank: 0" in terminal.text
    assert terminal.text.count("Right answer:") == 4 and "Time is up" not in terminal.text
    assert sorted(cards(path)) == [(1, 0), (1, 0), (1, 0), (1, 1)]  # every question rated


async def test_an_answer_after_the_deadline_is_not_taken_and_the_exam_is_submitted(hall) -> None:
    quiz, exams, store, bank, clock, _path = hall

    def think(prompts: int) -> None:
        if prompts == 3:  # the second answer comes after the time is up
            clock.advance(11 * MINUTE)

    terminal = Terminal(store, bank, [True, True, True], before=think)
    await play.play(quiz, None, "en", exams=exams, ask=terminal.ask, write=terminal.write)
    assert "Time is up" in terminal.text
    assert "Score: 4 of 16 marks" in terminal.text and "Blank: 3" in terminal.text
    assert len(terminal.prompts) == 3  # nothing more was asked


async def test_quitting_keeps_the_exam_and_its_clock_runs_on(hall) -> None:
    quiz, exams, store, bank, clock, _path = hall
    first = Terminal(store, bank, [False])
    assert await play.play(quiz, None, "en", exams=exams, ask=first.ask, write=first.write) is None
    assert first.written[-1].strip() == EN("play.exam_quit", command=play.COMMAND)
    clock.advance(4 * MINUTE)
    again = Terminal(store, bank, [])  # back later: the exam goes on, 6 minutes left
    await play.play(quiz, None, "en", exams=exams, ask=again.ask, write=again.write)
    assert EN("exam.resume", number=2, total=4) in again.text
    assert EN("exam.time_left", clock="6:00") in again.text
    clock.advance(7 * MINUTE)
    last = Terminal(store, bank, [])  # past the deadline: submitted as it was, nothing asked
    await play.play(quiz, None, "en", exams=exams, ask=last.ask, write=last.write)
    assert not last.prompts
    assert "Time is up" in last.text and "Score: -1 of 16 marks" in last.text


async def test_the_deadline_ends_the_wait_for_an_answer(hall) -> None:
    """On the real clock: the exam's deadline forced to a moment from now, the player who
    never answers is not waited for; the exam is submitted blank when it comes."""
    quiz, _exams, store, bank, _clock, path = hall
    real = ExamService(quiz, store)
    sitting = await real.start(play.TERMINAL_USER_ID, bank.id)
    with sqlite3.connect(path / "t.sqlite3") as conn:
        conn.execute(
            "UPDATE exam_attempts SET deadline = ? WHERE attempt_id = ?",
            (time.time() + 0.05, sitting.attempt.id),
        )
    never = asyncio.Event()
    written: list[str] = []

    async def ask(prompt: str) -> str:
        await never.wait()  # the player is still thinking
        return "A"

    exams = ExamService(quiz, store)  # reads the deadline as stored
    await play.play(quiz, None, "en", exams=exams, ask=ask, write=written.append)
    text = "\n".join(written)
    assert "Time is up" in text and "Blank: 4" in text
