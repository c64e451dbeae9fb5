"""End to end through the fake Bot API, on created quizzes stored for real in the bot's
database: another user plays one through its deep link, a group runs one with /quiz <id>, an
attempt on version 1 finishes on it after version 2 is stored, a taken-down quiz is refused,
inline search offers the public ones only; and the terminal's `play --bank` and
`report --bank` on a created quiz."""

from __future__ import annotations

import json

import pytest

from bot import i18n
from bot.bankload import parse_bank
from bot.config import BUNDLED_BANKS
from bot.kernel.library import Visibility
from bot.services import services_of
from storage import SQLiteStore
from tests.cli.test_cli import quizbot
from tests.support.botrun import RunningBot
from tests.support.created import quiz_document, store_quiz, store_version
from tests.support.fakebotapi import FakeBotAPI
from tests.support.person import Person
from tests.support.screens import answer_buttons, buttons, correct_label

QUIZ, LINK_ONLY = "c-abcdefghij", "c-linkonly00"
CREATOR, PLAYER, SAM = 801, 802, 803
GROUP = -1009876543210
EN = i18n.catalog("en")


@pytest.fixture
async def bot(fake: FakeBotAPI, tmp_path):
    """The bot over a database holding a public created quiz (QUIZ, 3 questions) and a
    link-only one, both made by CREATOR; inline mode on; a group with PLAYER and SAM."""
    fake.inline_mode = True
    fake.add_user(SAM, "Sam", language_code="en")
    fake.add_group(GROUP, "Study group", admins=[PLAYER], members=[SAM])
    db = tmp_path / "quiz.sqlite3"
    store = await SQLiteStore.open(db)
    try:
        await store_quiz(
            store, QUIZ, owner_id=CREATOR, title="Capitals of Europe", visibility=Visibility.PUBLIC
        )
        await store_quiz(store, LINK_ONLY, owner_id=CREATOR, title="Capitals of Asia")
    finally:
        await store.close()
    runner = await RunningBot(fake, db, bank_paths=(BUNDLED_BANKS,)).start()
    yield runner
    await runner.stop()


async def play_to_the_end(person: Person, version: int, total: int) -> dict:
    """Answer every question right (each shown on ``version``); the end screen."""
    bank = parse_bank(quiz_document(QUIZ, version, questions=total))
    message = person.question_message()
    for number in range(1, total + 1):
        assert f"of version {version}?" in message["text"]
        assert EN("question_header", number=number, total=total) in message["text"]
        feedback = await person.answer(correct_label(message, bank, "en"))
        message = await person.next(feedback)
    return message


async def test_another_user_plays_a_created_quiz_through_its_deep_link(fake, bot):
    """The deep link t.me/<bot>?start=<id> starts the created quiz for someone who is not
    its creator: its intro, its questions, its score."""
    player = Person(fake, PLAYER, "Pia", "en")
    fake.follow_link(PLAYER, f"https://t.me/{fake.bot_username}?start={QUIZ}")
    await fake.wait_for(lambda: len(player.bot_messages()) >= 2)
    intro = player.bot_messages()[0]
    assert "Capitals of Europe" in intro["text"]
    end = await play_to_the_end(player, 1, 3)
    assert EN("result_score", score=3, total=3) in end["text"]


async def test_an_attempt_on_version_1_finishes_on_it_after_version_2(fake, bot):
    """Version 2 stored (and the registry told, as the creator's edit does) while an attempt
    is on version 1: that attempt finishes on version 1; the next /start <id> plays
    version 2."""
    player = Person(fake, PLAYER, "Pia", "en")
    await player.say(f"/start {QUIZ}", replies=2)
    bank = parse_bank(quiz_document(QUIZ, 1))
    feedback = await player.answer(correct_label(player.question_message(), bank, "en"))
    made = services_of(bot.app)
    record = await made.store.quiz(QUIZ)
    await store_version(made.store, record, questions=2)
    made.banks.forget(QUIZ)
    second = await player.next(feedback)
    assert "Question" in second["text"] and "of version 1?" in second["text"]
    message = second
    for _ in range(2):
        feedback = await player.answer(correct_label(message, bank, "en"))
        message = await player.next(feedback)
    assert EN("result_score", score=3, total=3) in message["text"]
    await player.say(f"/start {QUIZ}", replies=2)
    end = await play_to_the_end(player, 2, 2)
    assert EN("result_score", score=2, total=2) in end["text"]


async def test_a_taken_down_quiz_is_refused_and_its_attempt_ends(fake, bot):
    """Once the quiz is taken down, its deep link says the quiz is no longer available (its id,
    which the player never typed, is not named back) with the featured banks, and a tap on its
    question in progress is refused as a changed quiz (issue 35, item 12)."""
    player = Person(fake, PLAYER, "Pia", "en")
    sam = Person(fake, SAM, "Sam", "en")
    await player.say(f"/start {QUIZ}", replies=2)
    question = player.question_message()
    made = services_of(bot.app)
    assert await made.store.set_disabled(QUIZ, True, now=1.0)
    made.banks.forget(QUIZ)
    refused = await sam.say(f"/start {QUIZ}")
    assert EN("quiz_gone") in refused[0]["text"] and QUIZ not in refused[0]["text"]
    assert buttons(refused[0])  # the featured banks to choose from
    [never] = await sam.say("/start c-0123456789")  # a quiz deleted long ago, the same
    assert EN("quiz_gone") in never["text"]
    option = next(b for b in buttons(question) if b["callback_data"].startswith("a:"))
    query_id = await player.tap(question, option["callback_data"])
    assert fake.callback_answers[query_id]["text"] == EN("toast_bank_changed")


async def test_a_group_runs_a_created_quiz_with_quiz_id(fake, bot):
    """/quiz <id> in a group starts a session of the created quiz; members' taps are
    recorded against it."""
    Person(fake, PLAYER, "Pia", "en")
    sam = Person(fake, SAM, "Sam", "en")
    fake.send_message(PLAYER, f"/quiz {QUIZ}", chat_id=GROUP)

    def open_question() -> dict | None:
        for message in reversed(fake.messages(GROUP)):
            if answer_buttons(message):
                return message
        return None

    question = await fake.wait_for(open_question)
    assert "Question 1 of version 1?" in question["text"]
    assert EN("group_announce", name="Pia") in question["text"]
    bank = parse_bank(quiz_document(QUIZ, 1))
    right = correct_label(question, bank, "en")
    toast = await sam.tap(
        question, next(b["callback_data"] for b in answer_buttons(question) if b["text"] == right)
    )
    assert fake.callback_answers[toast]["text"] == EN("group_recorded", label=right)
    session = await services_of(bot.app).groups.active(GROUP)
    assert session is not None and (session.bank_id, session.bank_version) == (QUIZ, 1)


async def test_inline_search_finds_a_public_quiz_and_not_a_link_only_one(fake, bot):
    """ "@<bot> capitals" offers the public created quiz (its card links to its deep link),
    never the link-only one; an empty query lists the featured banks first."""
    query = fake.inline_query(SAM, "capitals")["inline_query"]["id"]
    await fake.wait_for(lambda: query in fake.inline_answers)
    results = fake.inline_answers[query]["results"]
    assert [r["id"] for r in results] == [QUIZ]
    assert any(
        b.get("url") == f"https://t.me/{fake.bot_username}?start={QUIZ}"
        for b in buttons({"reply_markup": results[0]["reply_markup"]})
    )
    query = fake.inline_query(SAM, "")["inline_query"]["id"]
    await fake.wait_for(lambda: query in fake.inline_answers)
    ids = [r["id"] for r in fake.inline_answers[query]["results"]]
    assert ids[-1] == QUIZ and LINK_ONLY not in ids and len(ids) == 2


async def test_play_and_report_a_created_quiz_from_the_command_line(tmp_path):
    """`quizbot play --bank <id>` plays a created quiz stored in QUIZBOT_DB; `quizbot report
    --bank <id>` then analyses its answers; a taken-down quiz does not play."""
    db = tmp_path / "cli.sqlite3"
    store = await SQLiteStore.open(db)
    try:
        await store_quiz(store, QUIZ, questions=2)
    finally:
        await store.close()
    env = {"QUIZBOT_DB": str(db)}
    first = quizbot("play", "--lang", "en", "--bank", QUIZ, env=env, stdin="A\n\nq\n")
    assert first.returncode == 0, first.stderr
    assert "Capitals of Europe" in first.stdout
    assert EN("question_header", number=1, total=2) in first.stdout
    assert "of version 1?" in first.stdout
    report = quizbot("report", "--bank", QUIZ, "--format", "json", env=env)
    assert report.returncode == 0, report.stderr
    rows = json.loads(report.stdout)
    assert len(rows) == 1 and rows[0]["bank_id"] == QUIZ and rows[0]["answers"] == 1
    assert rows[0]["correct_option"] == 1 and len(rows[0]["options"]) == 4
    store = await SQLiteStore.open(db)
    try:
        await store.set_disabled(QUIZ, True, now=1.0)
    finally:
        await store.close()
    refused = quizbot("play", "--bank", QUIZ, env=env, stdin="")
    assert refused.returncode == 2 and f"no bank {QUIZ!r}" in refused.stderr
