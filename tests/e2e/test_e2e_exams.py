"""Exam mode end to end through the fake Bot API on a fake clock: a bank with an ``exam`` block
(10 minutes, +4/−1, 4 questions drawn of 8) played without feedback to its marked end; the
timer running out (the exams' job submits what was answered); a restart mid-exam (the same
paper, the same time left); two learners with different papers."""

from __future__ import annotations

import csv
import io
import re
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from bot import i18n
from bot.bankload import load_banks
from bot.features.exams.rules import draw, paper_seed
from bot.kernel.bank import Bank
from tests.support import bankgen
from tests.support.botrun import RunningBot
from tests.support.clock import FakeClock
from tests.support.fakebotapi import FakeBotAPI
from tests.support.person import Person
from tests.support.screens import buttons, correct_label, shown_options, wrong_label

BANK_ID = "exam-bank"
ANN, BEN, TEACHER, CARL = 901, 902, 903, 904
GROUP = -1001234567890
DAY = 86_400.0
MINUTE = 60.0
LEFT = re.compile(r"⏱ (\d+:\d\d) left")


@dataclass
class Hall:
    """The bot on a fake clock with an exam bank, and its database."""

    fake: FakeBotAPI
    runner: RunningBot
    clock: FakeClock
    bank: Bank
    db: Path
    folder: Path


@pytest.fixture
async def hall(fake, tmp_path):
    folder = tmp_path / "banks"
    folder.mkdir()
    data = bankgen.bank_data(
        8,
        bank_id=BANK_ID,
        prompt_words=5,
        option_words=2,
        explanation_words=5,
        languages=("en",),
    )
    questions = data.pop("questions")
    data["exam"] = {"minutes": 10, "marks": 4, "penalty": 1, "draw": 4}
    data["questions"] = questions
    (folder / f"{BANK_ID}.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8"
    )
    clock = FakeClock(time.time())
    db = tmp_path / "quiz.sqlite3"
    runner = RunningBot(
        fake, db, bank_paths=(folder,), clock=clock, exam_interval=0.2, homework_interval=0.2
    )
    await runner.start()
    bank = load_banks([folder])[BANK_ID]
    hall = Hall(fake, runner, clock, bank, db, folder)
    yield hall
    await hall.runner.stop()  # the bot running now: a test that restarts it replaces it


def exam_question(person: Person) -> dict:
    """The newest bot message with exam answer buttons (``xa:``)."""
    for message in reversed(person.bot_messages()):
        if any(b.get("callback_data", "").startswith("xa:") for b in buttons(message)):
            return message
    raise AssertionError("no exam question on screen")


def prompt_of(message: dict, bank: Bank) -> str:
    """The id of the bank question a message asks."""
    [question] = [q for q in bank.questions if q.prompt.by_language["en"] in message["text"]]
    return question.id


async def start_exam(hall: Hall, person: Person) -> dict:
    """``person`` opens the bank's link and taps Start; the first question."""
    (intro,) = await person.say(f"/start {BANK_ID}")
    assert "4 questions" in intro["text"] and "10 minutes" in intro["text"]
    assert "scores 4, a wrong one loses 1" in intro["text"]
    [start] = [b["callback_data"] for b in buttons(intro) if b["callback_data"].startswith("xs:")]
    before = len(person.bot_messages())
    await person.tap(intro, start)
    await hall.fake.wait_for(lambda: len(person.bot_messages()) > before)
    return exam_question(person)


async def answer(hall: Hall, person: Person, right: bool, replies: int = 1) -> list[dict]:
    """Answer the exam's question on screen (``right`` or not); the bot's next messages."""
    message = exam_question(person)
    label = (correct_label if right else wrong_label)(message, hall.bank, "en")
    data = next(b["callback_data"] for b in buttons(message) if b["text"] == label)
    before = len(person.bot_messages())
    await person.tap(message, data)
    await hall.fake.wait_for(lambda: len(person.bot_messages()) >= before + replies)
    return person.bot_messages()[before:]


async def test_an_exam_is_played_without_feedback_and_marked_with_a_penalty(hall) -> None:
    ann = Person(hall.fake, ANN, "Ann", "en")
    first = await start_exam(hall, ann)
    assert LEFT.search(first["text"])[1] == "10:00"
    asked = [prompt_of(first, hall.bank)]
    for right in (True, False, True):
        (shown,) = await answer(hall, ann, right)
        assert "✅" not in shown["text"] and "❌" not in shown["text"]  # no feedback
        asked.append(prompt_of(shown, hall.bank))
    assert len(set(asked)) == 4
    end = await answer(hall, ann, True)
    text = "\n".join(m["text"] for m in end)
    assert "Score: 11 of 16 marks" in text  # 3 × 4 − 1
    assert "Right: 3 · Wrong: 1 · Blank: 0" in text
    for question_id in asked:  # every question, with the right answer and its explanation
        question = hall.bank.question(question_id)
        assert question.prompt.by_language["en"] in text
        assert question.explanation.by_language["en"] in text
    assert text.count("Right answer:") == 4 and "(-1)" in text and "(4)" in text
    # the answered question lost its buttons: nothing to tap again
    assert not buttons(ann.fake.message(first["chat"]["id"], first["message_id"]))


async def test_at_zero_the_exam_is_submitted_with_what_was_answered(hall) -> None:
    ann = Person(hall.fake, ANN, "Ann", "en")
    await start_exam(hall, ann)
    await answer(hall, ann, True)
    hall.clock.advance(4 * MINUTE)
    await answer(hall, ann, False)
    question = exam_question(ann)
    assert LEFT.search(question["text"])[1] == "6:00"
    before = len(ann.bot_messages())
    hall.clock.advance(6 * MINUTE)  # time is up: the exams' job submits it
    await hall.fake.wait_for(lambda: len(ann.bot_messages()) > before)
    text = "\n".join(m["text"] for m in ann.bot_messages()[before:])
    assert "Time is up" in text
    assert "Score: 3 of 16 marks" in text and "Blank: 2" in text
    # a tap on the question left on screen is refused: the exam is over
    data = next(
        b["callback_data"] for b in buttons(question) if b["callback_data"].startswith("xa:")
    )
    query = await ann.tap(question, data)
    assert "Time is up" in hall.fake.callback_answers[query].get("text", "")
    assert len(ann.bot_messages()) == before + 1


async def test_a_restart_mid_exam_keeps_the_paper_and_the_time_left(hall) -> None:
    ann = Person(hall.fake, ANN, "Ann", "en")
    await start_exam(hall, ann)
    (second,) = await answer(hall, ann, True)
    hall.clock.advance(3 * MINUTE)
    await hall.runner.stop()
    runner = await RunningBot(
        hall.fake, hall.db, bank_paths=(hall.folder,), clock=hall.clock, exam_interval=0.2
    ).start()
    try:
        resumed, question = await ann.say("/start", replies=2)
        assert "question 2 of 4" in resumed["text"]
        assert prompt_of(question, hall.bank) == prompt_of(second, hall.bank)
        assert LEFT.search(question["text"])[1] == "7:00"
        # past the deadline while the bot is down: submitted at the next start
        await runner.stop()
        hall.clock.advance(8 * MINUTE)
        before = len(ann.bot_messages())
        runner = await RunningBot(
            hall.fake, hall.db, bank_paths=(hall.folder,), clock=hall.clock, exam_interval=0.2
        ).start()
        await hall.fake.wait_for(lambda: len(ann.bot_messages()) > before)
        text = ann.bot_messages()[-1]["text"]
        assert "Time is up" in text and "Score: 4 of 16 marks" in text
    finally:
        await runner.stop()
        hall.runner = await RunningBot(
            hall.fake, hall.db, bank_paths=(hall.folder,), clock=hall.clock
        ).start()


async def test_two_learners_get_their_own_papers_and_a_retake_draws_again(hall) -> None:
    hall.clock.now = 1_800_000_000.0  # a fixed moment: the same two papers on every run
    ann, ben = Person(hall.fake, ANN, "Ann", "en"), Person(hall.fake, BEN, "Ben", "en")
    await start_exam(hall, ann)
    await start_exam(hall, ben)
    store = hall.runner.app.bot_data.services.quiz.store
    attempts = [await store.active_attempt(user) for user in (ANN, BEN)]
    papers = [attempt.plan for attempt in attempts]
    assert papers[0] != papers[1]
    for user, attempt in zip((ANN, BEN), attempts, strict=True):  # each the draw of its seed
        seed = paper_seed(hall.bank, user, attempt.started_at)
        assert attempt.plan == draw(hall.bank, hall.bank.exam, seed)
    for paper in papers:
        assert len(set(paper.question_order)) == 4
        assert set(paper.question_order) <= {q.id for q in hall.bank.questions}
    first = await store.active_attempt(ANN)
    for _ in range(3):
        await answer(hall, ann, True)
    end = await answer(hall, ann, True)
    [retake] = [
        b["callback_data"] for b in buttons(end[-1]) if b["callback_data"].startswith("xs:")
    ]
    before = len(ann.bot_messages())
    await ann.tap(end[-1], retake)  # a retake: a paper of its own; the first one stays
    await hall.fake.wait_for(lambda: len(ann.bot_messages()) > before)
    again = await store.active_attempt(ANN)
    assert again.id != first.id and again.position == 0
    assert prompt_of(exam_question(ann), hall.bank) == again.plan.question_order[0]
    kept = await store.attempt(first.id)
    assert (kept.plan, kept.status) == (first.plan, "finished")


async def test_a_maker_sets_exam_mode_in_myquizzes_and_learners_sit_it(fake, running_bot) -> None:
    """/myquizzes: the quiz's Exam mode screen, its presets (each a new version), then a
    learner's exam on the quiz's link, marked +4/−1; turned off, the quiz is a quiz again."""
    from tests.e2e.test_e2e_myquizzes import made, tap_and_see

    en = i18n.catalog("en")
    creator, screen = await made(fake, running_bot)
    _, setting = await tap_and_see(creator, screen, en("exam.button_setting"))
    assert en("exam.setting_off") in setting["text"]
    assert not any(b["text"] == "🎲 10" for b in buttons(setting))  # a draw below its size only
    toast, setting = await tap_and_see(creator, setting, "⏱ 10")
    assert toast == en("exam.toast_saved", version=2)
    assert "10 minutes" in setting["text"] and "2 questions" in setting["text"]
    toast, setting = await tap_and_see(creator, setting, "+4 / −1")
    assert toast == en("exam.toast_saved", version=3)
    assert "scores 4, a wrong one loses 1" in setting["text"]
    (quiz,) = await running_bot.app.bot_data.services.quizzes.quizzes(creator.user_id)
    learner = Person(fake, ANN, "Ann", "en")
    (intro,) = await learner.say(f"/start {quiz.id}")
    assert "10 minutes" in intro["text"]
    start = next(b["callback_data"] for b in buttons(intro) if b["callback_data"].startswith("xs:"))
    before = len(learner.bot_messages())
    await learner.tap(intro, start)
    await fake.wait_for(lambda: len(learner.bot_messages()) > before)
    right = {"France": "Paris", "Italy": "Rome"}
    for wrong in (True, False):
        question = exam_question(learner)
        country = "France" if "France" in question["text"] else "Italy"
        shown = shown_options(question)
        label = next(label for label, text in shown.items() if (text == right[country]) != wrong)
        data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
        count = len(learner.bot_messages())
        await learner.tap(question, data)
        await fake.wait_for(lambda n=count: len(learner.bot_messages()) > n)
    assert "Score: 3 of 8 marks" in learner.bot_messages()[-1]["text"]
    toast, setting = await tap_and_see(creator, setting, en("exam.button_off"))
    assert toast == en("exam.toast_saved", version=4)
    assert en("exam.setting_off") in setting["text"]
    (intro, question) = await learner.say(f"/start {quiz.id}", replies=2)
    assert any(b["callback_data"].startswith("a:") for b in buttons(question))


async def test_homework_on_an_exam_is_sat_once_and_marked_in_the_results_and_csv(hall) -> None:
    """Homework set as an exam (``/assign ... exam 5``: the quiz's marking, 5 minutes): each
    member sits one exam from their first tap of the link (Ann's time runs out with one
    question blank, Ben finishes, Carl stops after one: his exam counts as he left it), the
    group's results and the admin's CSV are in marks, and the link then offers practice
    only (on this quiz with exam mode, an exam of its own that does not count)."""
    fake = hall.fake
    teacher = Person(fake, TEACHER, "Teacher", "en")
    ann, ben = Person(fake, ANN, "Ann", "en"), Person(fake, BEN, "Ben", "en")
    carl = Person(fake, CARL, "Carl", "en")
    fake.add_group(GROUP, "Class", admins=[TEACHER], members=[ANN, BEN, CARL])
    await teacher.say("/start", replies=1)

    def group_messages() -> list[dict]:
        return [m for m in fake.messages(GROUP) if m.get("from", {}).get("id") == fake.bot_id]

    fake.send_message(TEACHER, f"/assign {BANK_ID} 2d exam 5", chat_id=GROUP)  # 5 minutes
    post = await fake.wait_for(lambda: next(iter(group_messages()), None))
    url = next(b["url"] for b in buttons(post) if "url" in b)

    async def open_link(person: Person, replies: int = 2) -> list[dict]:
        before = len(person.bot_messages())
        fake.follow_link(person.user_id, url)
        await fake.wait_for(lambda: len(person.bot_messages()) >= before + replies)
        return person.bot_messages()[before:]

    opened = await open_link(ann)
    assert LEFT.search(opened[-1]["text"])[1] == "5:00"  # the timer from the first tap
    for right in (True, False, True):
        await answer(hall, ann, right)
    before = len(ann.bot_messages())
    hall.clock.advance(5 * MINUTE)
    await fake.wait_for(lambda: len(ann.bot_messages()) > before)
    assert "Score: 7 of 16 marks" in ann.bot_messages()[-1]["text"]  # 4 − 1 + 4, one blank
    await open_link(ben)
    for _ in range(3):
        await answer(hall, ben, True)
    end = await answer(hall, ben, True)
    assert "Score: 16 of 16 marks" in end[0]["text"]
    again = await open_link(ann)  # one counted attempt: the link now offers practice, and on
    # a quiz with exam mode practice is an exam too (its own time, not counted)
    assert LEFT.search(again[-1]["text"])[1] == "10:00"
    await open_link(carl)  # Carl answers one, stops, and comes back: his exam was sat
    await answer(hall, carl, True)
    await carl.say("/stop")
    again = await open_link(carl)
    assert LEFT.search(again[-1]["text"])[1] == "10:00"

    posts = len(group_messages())
    hall.clock.advance(2 * DAY)
    await fake.wait_for(lambda: len(group_messages()) > posts)
    results = "\n".join(m["text"] for m in group_messages()[posts:])
    assert "Average: 9.0 of 16 marks." in results  # (7 + 16 + 4) / 3
    assert "16 of 16" in results and "7 of 16" in results
    document = await fake.wait_for(
        lambda: next(
            (c for c in fake.calls_to("sendDocument") if str(c.params["chat_id"]) == str(TEACHER)),
            None,
        )
    )
    rows = list(csv.reader(io.StringIO(document.params["document"]["data"].decode("utf-8-sig"))))
    assert rows[0][-1] == "marks"
    marks = {}
    for row in rows[1:]:
        marks.setdefault(int(row[0]), []).append(float(row[-1]))
    assert sorted(marks[ANN]) == [-1.0, 4.0, 4.0] and marks[BEN] == [4.0] * 4
    assert marks[CARL] == [4.0]


async def test_an_exam_time_out_of_range_is_refused_and_sets_nothing(hall) -> None:
    """``/assign ... exam 900``: the admin is told the range, and no homework is set (before,
    the homework was set as an ordinary one, silently); ``exam 5`` then sets it."""
    fake = hall.fake
    teacher = Person(fake, TEACHER, "Teacher", "en")
    fake.add_group(GROUP, "Class", admins=[TEACHER], members=[ANN])
    await teacher.say("/start", replies=1)

    def group_messages() -> list[dict]:
        return [m for m in fake.messages(GROUP) if m.get("from", {}).get("id") == fake.bot_id]

    fake.send_message(TEACHER, f"/assign {BANK_ID} 2d exam 900", chat_id=GROUP)
    [refusal] = await fake.wait_for(lambda: group_messages() or None)
    assert refusal["text"] == i18n.catalog("en")("exam.assign_minutes", most=600)
    assert not buttons(refusal)
    fake.send_message(TEACHER, f"/assign {BANK_ID} 2d exam 5", chat_id=GROUP)
    post = await fake.wait_for(lambda: group_messages()[1:] and group_messages()[1])
    assert any("url" in b for b in buttons(post))
