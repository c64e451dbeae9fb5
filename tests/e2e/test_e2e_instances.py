"""Two real quizbot processes receiving one bot's webhooks behind a round-robin balancer
(:mod:`tests.support.balancer`), on one throwaway PostgreSQL: any instance takes any update.
Whatever a tap or a reply needs from an earlier step is in the database, so every tap of a
private quiz, a /newquiz draft, a /myquizzes edit, /deletemydata's confirmation and a group
session goes through whichever instance it reaches, with nothing refused; a choice made on one
instance (the language, what follows an answer) is what the other one uses next."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from bot import i18n
from tests.e2e.test_e2e_group import Member, answer_buttons, bot_messages, next_question
from tests.support.balancer import Balancer
from tests.support.banks import BANK_ID
from tests.support.person import Person
from tests.support.processes import free_port, start_bot_process
from tests.support.screens import buttons, correct_label, wrong_label

EN, EL = i18n.catalog("en"), i18n.catalog("el")
SECRET = "instances-secret"
QUESTION_SECONDS = 5
"""A group question's window: the first question closes at its deadline (nobody took part
before it); the others close early, once both members answered."""
GROUP = -1001234567890


@dataclass
class Instances:
    """The balancer, and the two processes behind it."""

    balancer: Balancer
    processes: list[asyncio.subprocess.Process]
    logs: list[Path]

    def mark(self) -> int:
        """How many updates the balancer routed so far."""
        return len(self.balancer.routed)

    def both_took(self, since: int) -> bool:
        """Whether each instance got some of the updates routed after :meth:`mark` ``since``."""
        return {index for _, index in self.balancer.routed[since:]} == {0, 1}

    def last_two_apart(self) -> bool:
        """Whether the last two updates routed went to different instances."""
        (_, first), (_, second) = self.balancer.routed[-2:]
        return first != second


@pytest.fixture
async def instances(fake, pg_db, tmp_path) -> AsyncIterator[Instances]:
    """Two `quizbot run` processes in webhook mode on ``pg_db``, each on a port of its own,
    with Telegram (the fake) told the balancer's URL; stopped with SIGTERM (status 0)."""
    balancer = await Balancer().start()
    processes: list[asyncio.subprocess.Process] = []
    logs = [tmp_path / f"instance-{i}.log" for i in range(2)]
    try:
        for log in logs:
            port = free_port()
            processes.append(
                await start_bot_process(
                    fake,
                    pg_db,
                    log,
                    ready=lambda log=log: (  # its sessions restored, listening
                        log.exists()
                        and "quizbot ready" in log.read_text()
                        and "Application started" in log.read_text()
                    ),
                    env={
                        "QUIZBOT_WEBHOOK_URL": balancer.url,
                        "QUIZBOT_LISTEN": f"127.0.0.1:{port}",
                        "QUIZBOT_WEBHOOK_SECRET": SECRET,
                        "QUIZBOT_QUESTION_SECONDS": str(QUESTION_SECONDS),
                    },
                )
            )
            balancer.targets.append(f"http://127.0.0.1:{port}/tg-hook")
        yield Instances(balancer, processes, logs)
    finally:
        for process in processes:
            if process.returncode is None:
                process.terminate()
        for process, log in zip(processes, logs, strict=False):
            assert await process.wait() == 0, log.read_text()
        await balancer.stop()


async def _tapped(person: Person, message: dict, data: str) -> str | None:
    """Tap a button; the toast it was answered with (None: none, the tap went through)."""
    query_id = await person.tap(message, data)
    return person.fake.callback_answers[query_id].get("text")


def _button(message: dict, prefix: str) -> str:
    return next(
        b["callback_data"]
        for b in buttons(message)
        if b.get("callback_data", "").startswith(prefix)
    )


def _labelled(message: dict, label: str) -> str:
    found = next(b for b in buttons(message) if b["text"] == label)
    return str(found.get("callback_data") or found.get("url"))


async def test_a_private_quiz_with_every_tap_on_the_other_instance(fake, banks, instances):
    """A quiz played with its taps alternating between the instances: every answer and every
    "Next" goes through (no "answer first", no "not the current question"), each question is
    recorded once; /language chosen on one instance is the language of the other's next
    answer, and so is the one-tap flow chosen in /settings."""
    bank = banks[BANK_ID]
    ada = Person(fake, 9301, "Ada", "en")
    since = instances.mark()
    await ada.say("/start", replies=2)
    for number in range(1, 4):
        question = ada.question_message()
        assert EN("question_header", number=number, total=8) in question["text"]
        label = (
            correct_label(question, bank, "en") if number % 2 else wrong_label(question, bank, "en")
        )
        assert await _tapped(ada, question, _labelled(question, label)) is None
        feedback = await fake.wait_for(
            lambda q=question: (
                lambda m: (
                    m
                    if any(b.get("callback_data", "").startswith("n:") for b in buttons(m))
                    else None
                )
            )(fake.message(ada.user_id, q["message_id"]))
        )
        before = len(ada.bot_messages())
        assert await _tapped(ada, feedback, _button(feedback, "n:")) is None
        await fake.wait_for(lambda b=before: len(ada.bot_messages()) > b)
    # the language chosen on one instance, then an answer on each
    [menu] = await ada.say("/language")
    assert await _tapped(ada, menu, "l:el") is None
    await fake.wait_for(
        lambda: fake.message(ada.user_id, menu["message_id"])["text"] == EL("language_set")
    )
    for _ in range(2):
        [help_text] = await ada.say("/help")
        assert help_text["text"].startswith(EL("help")[:20])
    # the one-tap flow chosen on one instance: an answer on the other sends the next question
    [screen] = await ada.say("/settings")
    assert await _tapped(ada, screen, "af:one_tap") == EL("flow_saved")
    for number in (4, 5):
        question = ada.question_message()  # question 4 was sent before the change
        language = EN if number == 4 else EL
        assert language("question_header", number=number, total=8) in question["text"]
        before = len(ada.bot_messages())
        label = correct_label(question, bank, language.language)
        assert await _tapped(ada, question, _labelled(question, label)) is None
        await fake.wait_for(lambda b=before: len(ada.bot_messages()) > b)
        assert EL("question_header", number=number + 1, total=8) in ada.bot_messages()[-1]["text"]
    assert instances.both_took(since)


async def test_a_second_next_or_tap_on_the_other_instance_sends_nothing_again(
    fake, banks, instances
):
    """A "Next" tapped twice, the second tap reaching the other instance, is stale there too;
    so is a second tap on an answered question in the one-tap flow: the instance that sent
    what followed told the other one (``storage.order``), and nothing is sent twice."""
    bank = banks[BANK_ID]
    cy = Person(fake, 9303, "Cy", "en")
    await cy.say("/start", replies=2)
    question = cy.question_message()
    assert (
        await _tapped(cy, question, _labelled(question, correct_label(question, bank, "en")))
        is None
    )
    feedback = await fake.wait_for(
        lambda: (
            lambda m: (
                m if any(b.get("callback_data", "").startswith("n:") for b in buttons(m)) else None
            )
        )(fake.message(cy.user_id, question["message_id"]))
    )
    before = len(cy.bot_messages())
    assert await _tapped(cy, feedback, _button(feedback, "n:")) is None
    await fake.wait_for(lambda: len(cy.bot_messages()) > before)
    assert await _tapped(cy, feedback, _button(feedback, "n:")) == EN("toast_stale")
    assert instances.last_two_apart()
    # the one-tap flow: the answered question's button tapped again, on the other instance
    [screen] = await cy.say("/settings")
    assert await _tapped(cy, screen, "af:one_tap") == EN("flow_saved")
    question = cy.question_message()
    assert EN("question_header", number=2, total=8) in question["text"]
    before = len(cy.bot_messages())
    option = _labelled(question, correct_label(question, bank, "en"))
    assert await _tapped(cy, question, option) is None
    await fake.wait_for(lambda: len(cy.bot_messages()) > before)
    third = cy.bot_messages()[-1]
    assert EN("question_header", number=3, total=8) in third["text"]
    query = await cy.tap(question, option, check_button=False)
    assert fake.callback_answers[query]["text"] == EN("toast_answered")
    assert instances.last_two_apart()
    # the user's next update is handled after that tap's handler ended, wherever it runs
    [help_text] = await cy.say("/help")
    assert help_text["text"].startswith(EN("help")[:20])
    thirds = [m for m in cy.bot_messages() if EN("question_header", number=3, total=8) in m["text"]]
    assert thirds == [third]


async def test_deletemydata_confirmed_on_the_other_instance(fake, pg_db, instances):
    """/deletemydata asked by one instance is confirmed by a tap the other instance takes;
    the confirmation is used up (tapped again: no longer works, nothing more deleted)."""
    bo = Person(fake, 9302, "Bo", "en")
    await bo.say("/start", replies=2)
    [question] = await bo.say("/deletemydata")
    delete = _button(question, "d:1:")
    assert await _tapped(bo, question, delete) is None
    await fake.wait_for(
        lambda: fake.message(bo.user_id, question["message_id"])["text"] == EN("deletemydata_done")
    )
    db = await asyncpg.connect(pg_db)
    try:
        assert (
            await db.fetchval("SELECT COUNT(*) FROM attempts WHERE user_id = $1", bo.user_id) == 0
        )
    finally:
        await db.close()
    assert instances.last_two_apart()  # asked on one, confirmed on the other
    query = await bo.tap(question, delete, check_button=False)  # on the other instance again
    assert fake.callback_answers[query]["text"] == EN("deletemydata_expired")


async def test_a_draft_and_a_myquizzes_edit_across_the_instances(fake, instances):
    """/newquiz: the title, /skip and two typed questions, each step on the other instance
    than the one before; /done publishes; /myquizzes' Rename is tapped on one instance and the
    new title sent to the other, which renames the quiz."""
    cy = Person(fake, 9303, "Cy", "en")
    since = instances.mark()
    [ask] = await cy.say("/newquiz")
    [ask] = await cy.say("Capitals")
    assert ask["text"] == EN("newquiz.ask_description")
    await cy.say("/skip")
    for text in (
        "What is the capital of Spain?\nMadrid ✅\nSeville\nValencia",
        "What is the capital of Italy?\nRome ✅\nMilan\nTurin",
    ):
        [added] = await cy.say(text)
        assert added["text"].startswith(
            EN("newquiz.added", number=1 if "Spain" in text else 2, prompt=text.split("\n")[0])
        )
    head, _card = await cy.say("/done", replies=2)
    assert "🎉" in head["text"]
    (listing,) = await cy.say("/myquizzes")
    await cy.tap(listing, _labelled(listing, "1. Capitals"))
    screen = await fake.wait_for(
        lambda: (lambda m: m if m["text"] != listing["text"] else None)(
            fake.message(cy.user_id, listing["message_id"])
        )
    )
    await cy.tap(screen, _labelled(screen, EN("quizzes.button_edit")))
    editing = await fake.wait_for(
        lambda: (lambda m: m if m["text"] != screen["text"] else None)(
            fake.message(cy.user_id, listing["message_id"])
        )
    )
    before = len(cy.bot_messages())
    assert await _tapped(cy, editing, _labelled(editing, EN("quizzes.button_rename"))) is None
    await fake.wait_for(lambda: len(cy.bot_messages()) > before)
    assert cy.bot_messages()[-1]["text"] == EN("quizzes.ask_title", title="Capitals")
    said, _ = await cy.say("Capitals of Europe", replies=2)
    assert instances.last_two_apart()  # the prompt on one, the title on the other
    assert said["text"] == EN("quizzes.renamed", title="Capitals of Europe", version=2)
    assert instances.both_took(since)


async def test_a_group_session_with_taps_on_both_instances(fake, banks, instances):
    """Two members play a whole group session started on instance 0 (which holds its lease
    and runs its steps), their taps on both instances: every tap is recorded (the toast says
    so); from question 2 on, each question closes early once both answered, also when the
    answer that completes it reaches instance 1 (which asks instance 0 to close it); the
    leaderboard ranks them."""
    bank = banks[BANK_ID]
    dee, eli = Member(fake, 9304, "Dee", "en"), Member(fake, 9305, "Eli", "en")
    for member in (dee, eli):
        fake.add_user(member.user_id, member.name, language_code=member.language)
    fake.add_group(GROUP, "Study group", admins=[dee.user_id], members=[eli.user_id])
    balancer = instances.balancer
    balancer.plan = [0]
    fake.send_message(dee.user_id, f"/quiz@{fake.bot_username}", chat_id=GROUP)
    previous = None
    for number in range(1, 9):
        question = await next_question(fake, previous)
        assert EN("question_header", number=number, total=8) in question["text"]
        balancer.plan = [number % 2, 1]  # the completing answer: on instance 1, without the lease
        right = correct_label(question, bank, "en")
        assert (await dee.tap(question, right))["text"] == EN("group_recorded", label=right)
        wrong = wrong_label(question, bank, "en")
        assert (await eli.tap(question, wrong))["text"] == EN("group_recorded", label=wrong)
        await fake.wait_for(
            lambda q=question: not answer_buttons(fake.message(GROUP, q["message_id"])), timeout=30
        )
        previous = question["message_id"]
    board = await fake.wait_for(
        lambda: next((m for m in bot_messages(fake) if EN("group_leaderboard") in m["text"]), None),
        timeout=30,
    )
    ranked = [line for line in board["text"].splitlines() if "—" in line]
    assert ranked[0].startswith("🥇 Dee — ") and "Eli — " in ranked[1]
    asked = (
        instances.logs[0]
        .read_text()
        .count("closes early (everyone answered, as another instance found)")
    )
    assert asked == 7  # questions 2 to 8, completed on instance 1
