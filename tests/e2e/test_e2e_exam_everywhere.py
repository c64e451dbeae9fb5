"""An exam quiz is an exam however it is started (issue 34): /quiz, a bare /start, a bank
chosen from a list and an old "Retake" show its intro and Start button, never a practice
question; a submitted exam feeds spaced review (every question of the paper, blanks as lapses,
once: a restart rates nothing again); and an exam's attempt is never stored without its terms
(they are written in one transaction). On the fake clock of :mod:`tests.e2e.test_e2e_exams`."""

from __future__ import annotations

import sqlite3

from bot.render import callbacks as render_callbacks
from tests.e2e import test_e2e_exams
from tests.e2e.test_e2e_exams import (
    ANN,
    BANK_ID,
    BEN,
    MINUTE,
    Hall,
    answer,
    exam_question,
    prompt_of,
    start_exam,
)
from tests.support.botrun import RunningBot
from tests.support.person import Person
from tests.support.screens import buttons

hall = test_e2e_exams.hall
"""The bot on a fake clock with an exam bank (the fixture of :mod:`tests.e2e.test_e2e_exams`)."""


def is_intro(message: dict) -> bool:
    """Whether ``message`` is the exam's intro: its Start button, no question to answer."""
    data = [b.get("callback_data", "") for b in buttons(message)]
    return any(d.startswith("xs:") for d in data) and not any(
        d.startswith(("a:", "xa:")) for d in data
    )


async def test_an_exam_quiz_started_any_way_is_sat_as_an_exam(hall: Hall) -> None:
    """/quiz, /quiz <id>, a bare /start (the only bank installed), the bank list's button and a
    "Retake" kept from before exam mode: each shows the exam's intro; nothing is started until
    Start is tapped, and then it is a timed paper."""
    ann = Person(hall.fake, ANN, "Ann", "en")
    store = hall.runner.app.bot_data.services.quiz.store
    for command in ("/quiz", f"/quiz {BANK_ID}", "/start"):
        (intro,) = await ann.say(command)
        assert is_intro(intro), command
        assert "10 minutes" in intro["text"]
        assert await store.active_attempt(ANN) is None  # the timer starts with the tap only
    for button in (render_callbacks.BankButton(BANK_ID), render_callbacks.RetakeButton(BANK_ID)):
        before = len(ann.bot_messages())
        await ann.tap(intro, render_callbacks.encode(button), check_button=False)
        await hall.fake.wait_for(lambda n=before: len(ann.bot_messages()) > n)
        (intro,) = ann.bot_messages()[before:]
        assert is_intro(intro), button
        assert await store.active_attempt(ANN) is None
    start = next(b["callback_data"] for b in buttons(intro) if b["callback_data"].startswith("xs:"))
    before = len(ann.bot_messages())
    await ann.tap(intro, start)
    await hall.fake.wait_for(lambda: len(ann.bot_messages()) > before)
    assert "⏱ 10:00 left" in exam_question(ann)["text"]


def cards(hall: Hall, user_id: int) -> dict[str, tuple[int, int]]:
    """Question id -> (ratings, lapses) of ``user_id``'s review cards, as stored."""
    with sqlite3.connect(hall.db) as conn:
        rows = conn.execute(
            "SELECT question_id, reps, lapses FROM cards WHERE user_id = ? AND bank_id = ?",
            (user_id, BANK_ID),
        ).fetchall()
    return {question_id: (reps, lapses) for question_id, reps, lapses in rows}


async def restart(hall: Hall) -> None:
    """Stop the bot and start it again on the same database and clock."""
    await hall.runner.stop()
    hall.runner = await RunningBot(
        hall.fake, hall.db, bank_paths=(hall.folder,), clock=hall.clock, exam_interval=0.2
    ).start()


async def test_a_submitted_exam_feeds_spaced_review_once(hall: Hall) -> None:
    """Ann finishes her paper (3 right, 1 wrong); Ben answers 1 right and 1 wrong, the bot
    restarts, and his time runs out (2 blank): at each submission every question of the paper
    gets its review card, right ones rated a success, wrong and blank ones a lapse; nothing is
    rated while the exam is sat (a restart's rebuild included), and a restart after it rates
    none of them again."""
    ann, ben = Person(hall.fake, ANN, "Ann", "en"), Person(hall.fake, BEN, "Ben", "en")
    asked = {ANN: [], BEN: []}
    asked[ANN].append(prompt_of(await start_exam(hall, ann), hall.bank))
    for right in (True, False, True):
        (shown,) = await answer(hall, ann, right)
        asked[ANN].append(prompt_of(shown, hall.bank))
    assert cards(hall, ANN) == {}  # no feedback while the exam is sat: no card either
    await answer(hall, ann, True)
    await hall.runner.app.bot_data.services.learning.drain()
    assert cards(hall, ANN) == {
        asked[ANN][0]: (1, 0),
        asked[ANN][1]: (1, 1),
        asked[ANN][2]: (1, 0),
        asked[ANN][3]: (1, 0),
    }
    await start_exam(hall, ben)
    paper = (await hall.runner.app.bot_data.services.quiz.store.active_attempt(BEN)).plan
    await answer(hall, ben, True)
    await answer(hall, ben, False)
    await restart(hall)  # mid-exam: the start-up rebuild rates none of its answers yet
    assert cards(hall, BEN) == {}
    before = len(ben.bot_messages())
    hall.clock.advance(10 * MINUTE)  # time is up: the exams' job submits it
    await hall.fake.wait_for(lambda: len(ben.bot_messages()) > before)
    await hall.runner.app.bot_data.services.learning.drain()
    first, second, *blank = paper.question_order
    expected = {first: (1, 0), second: (1, 1), **{question: (1, 1) for question in blank}}
    assert cards(hall, BEN) == expected
    await restart(hall)
    assert cards(hall, BEN) == expected and cards(hall, ANN)[asked[ANN][1]] == (1, 1)


async def test_an_exam_is_never_stored_without_its_terms(hall: Hall) -> None:
    """The exam's terms cannot be written (the database refuses them): Start stores nothing,
    not an attempt without terms that /start would then resume as practice; once the terms
    can be written, Start starts the exam."""
    ann = Person(hall.fake, ANN, "Ann", "en")
    (intro,) = await ann.say(f"/start {BANK_ID}")
    with sqlite3.connect(hall.db) as conn:  # the terms' COMMIT fails (a deferred key dangles)
        conn.executescript(
            "CREATE TABLE trap_parent (id INTEGER PRIMARY KEY);"
            "CREATE TABLE trap (parent INTEGER REFERENCES trap_parent (id)"
            " DEFERRABLE INITIALLY DEFERRED);"
            "CREATE TRIGGER no_terms AFTER INSERT ON exam_attempts"
            " BEGIN INSERT INTO trap VALUES (NEW.attempt_id); END;"
        )
    start = next(b["callback_data"] for b in buttons(intro) if b["callback_data"].startswith("xs:"))
    await ann.tap(intro, start)
    store = hall.runner.app.bot_data.services.quiz.store
    assert await store.active_attempt(ANN) is None
    with sqlite3.connect(hall.db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM attempts").fetchone() == (0,)
        conn.execute("DROP TRIGGER no_terms")
    (again,) = await ann.say("/start")
    assert is_intro(again)
    await ann.tap(again, start)
    await hall.fake.wait_for(lambda: any(m is not again for m in ann.bot_messages()[-1:]))
    attempt = await store.active_attempt(ANN)
    exams = hall.runner.app.bot_data.services.exams
    assert attempt is not None and await exams.store.exam_terms(attempt.id) is not None
