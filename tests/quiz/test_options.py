"""Questions with 2 to 10 options: the loader, the engine, the callback-data codec, the screens,
the terminal front end and group sessions (the end-to-end tests are in test_e2e_options.py)."""

from __future__ import annotations

import random

import pytest

from bot import i18n
from bot.bankload import load_bank
from bot.features.groups import rules as group
from bot.features.groups import screens as groups_screens
from bot.features.groups.rules import GroupAnswer, GroupSession
from bot.features.private import screens as private_screens
from bot.features.private.service import QuizService
from bot.kernel import engine
from bot.kernel.bank import MAX_OPTIONS, MIN_OPTIONS, Bank
from bot.render import limits as render_limits
from bot.render import question as render_question
from bot.render.callbacks import AnswerButton, GroupAnswerButton, decode, encode
from bot.render.text import HTML, PLAIN
from bot.terminal.play import play
from storage import SQLiteStore
from tests.support.optionbanks import correct_label, shown_options, write_bank

USER = 42
COUNTS = range(MIN_OPTIONS, MAX_OPTIONS + 1)


@pytest.fixture(scope="module")
def banks(tmp_path_factory) -> dict[int, Bank]:
    """A loaded bank per option count, 2 to 10."""
    folder = tmp_path_factory.mktemp("banks")
    return {count: load_bank(write_bank(folder, count)) for count in COUNTS}


def attempt_on(bank: Bank, seed: int = 1) -> engine.Attempt:
    """A fresh attempt of USER on ``bank``, options shuffled with ``seed``."""
    return engine.Attempt(
        id=7,
        user_id=USER,
        bank_id=bank.id,
        bank_version=bank.version,
        plan=engine.plan_attempt(bank, random.Random(seed)),
        position=0,
        status=engine.ACTIVE,
        started_at=0.0,
    )


@pytest.mark.parametrize("count", COUNTS)
def test_the_loader_accepts_2_to_10_options(banks, count):
    """Every count from 2 to 10 loads, with exactly one correct option per question."""
    bank = banks[count]
    for question in bank.questions:
        assert len(question.options) == count
        assert sum(option.correct for option in question.options) == 1


def test_labels_cover_the_largest_question():
    """Labels A-L: one per option of the largest question the loader accepts."""
    assert engine.LABELS == "ABCDEFGHIJKL"
    assert len(engine.LABELS) == MAX_OPTIONS


@pytest.mark.parametrize("count", COUNTS)
def test_every_slot_grades_and_one_past_the_last_is_refused(banks, count):
    """Each slot of an attempt maps to a distinct option; exactly one slot is right; the slot
    after the last one is an InvalidOption."""
    bank = banks[count]
    attempt = attempt_on(bank)
    assert sorted(attempt.plan.option_orders[0]) == list(range(count))
    answers = [engine.grade(attempt, bank, USER, 0, slot, 1.0) for slot in range(count)]
    assert sorted(a.option_index for a in answers) == list(range(count))
    assert sum(a.correct for a in answers) == 1
    with pytest.raises(engine.InvalidOption):
        engine.grade(attempt, bank, USER, 0, count, 1.0)


@pytest.mark.parametrize("slot", range(MAX_OPTIONS))
def test_the_codec_carries_every_slot(slot):
    """Answer and group-answer buttons encode slots 0-11 (A-L) and decode to the same."""
    for button in (AnswerButton(10**17, 99, slot), GroupAnswerButton(5, 0, slot)):
        data = encode(button)
        assert len(data.encode()) <= render_limits.MAX_CALLBACK_DATA_BYTES
        assert decode(data) == button


@pytest.mark.parametrize("count", COUNTS)
def test_a_question_shows_every_label_and_a_button_each(banks, count):
    """The question lists options A.. up to the count's letter, and has one button per label,
    in reading order, at most five a row."""
    bank = banks[count]
    attempt = attempt_on(bank)
    screen = private_screens.attempt_question(bank, attempt, i18n.catalog("en"), HTML)
    labels = list(engine.LABELS[:count])
    assert list(shown_options(screen.text)) == labels
    assert [b.label for row in screen.keyboard for b in row] == labels
    assert [b.action.slot for row in screen.keyboard for b in row] == list(range(count))
    assert all(len(row) <= render_question.MAX_ANSWER_BUTTONS_PER_ROW for row in screen.keyboard)
    assert len(screen.keyboard) == -(-count // render_question.MAX_ANSWER_BUTTONS_PER_ROW)


def test_feedback_names_a_late_label(banks):
    """A wrong answer's feedback names the correct label, also when it is past D."""
    bank = banks[10]
    seed = next(s for s in range(100) if engine.view(attempt_on(bank, s), bank).correct_slot >= 4)
    attempt = attempt_on(bank, seed)
    right = engine.LABELS[engine.view(attempt, bank).correct_slot]
    wrong = 9 if right != "J" else 0
    attempt = engine.with_answer(attempt, engine.grade(attempt, bank, USER, 0, wrong, 1.0))
    t = i18n.catalog("en")
    screen = private_screens.feedback(bank, attempt, 0, t, PLAIN)
    assert t("feedback_wrong", label=right) in screen.text
    assert f"❌ {engine.LABELS[wrong]}. " in screen.text and f"✅ {right}. " in screen.text


@pytest.mark.parametrize("count", [2, 10])
async def test_play_accepts_the_letters_of_the_question(tmp_path, banks, count):
    """The terminal prompt names the question's last letter; lower case works; a letter past
    the last is refused with a hint, then the right one scores."""
    bank = banks[count]
    t = i18n.catalog("en")
    last = engine.LABELS[count - 1]
    too_far = engine.LABELS[count] if count < MAX_OPTIONS else "K"
    shown: list[str] = []
    prompts: list[str] = []
    replies: list[str] = []

    async def ask(prompt: str) -> str:
        prompts.append(prompt)
        if prompt != t("play_prompt_letters", last=last):
            return ""
        if not replies or replies[-1] != too_far.lower():
            replies.append(too_far.lower())
        else:
            on_screen = next(text for text in reversed(shown) if shown_options(text))
            replies.append(correct_label(on_screen, bank).lower())
        return replies[-1]

    store = await SQLiteStore.open(tmp_path / "play.sqlite3")
    try:
        result = await play(
            QuizService(store, {bank.id: bank}), bank, "en", ask=ask, write=shown.append
        )
    finally:
        await store.close()
    assert result is not None and (result.score, result.total) == (2, 2)
    assert shown.count(t("play_invalid_letters", last=last)) == 2
    assert f"(A-{last})" in prompts[0]


def session_on(bank: Bank, seed: int = 2) -> GroupSession:
    """A group session on ``bank`` with its first question open until t=100."""
    return GroupSession(
        id=3,
        chat_id=-100,
        bank_id=bank.id,
        bank_version=bank.version,
        language="en",
        starter_id=USER,
        plan=engine.plan_attempt(bank, random.Random(seed)),
        question_seconds=30.0,
        position=0,
        deadline=100.0,
    )


@pytest.mark.parametrize("count", [2, 10])
def test_group_taps_tally_and_reveal(banks, count):
    """Group taps on every slot are graded; the tally counts per slot; the reveal shows every
    option with its count and marks the one correct option."""
    bank = banks[count]
    session = session_on(bank)
    answers: list[GroupAnswer] = []
    for slot in range(count):  # slot s chosen by s + 1 members
        for member in range(slot + 1):
            answers.append(
                group.grade_tap(session, bank, -100, 0, slot, 1000 * slot + member, 90.0)
            )
    with pytest.raises(engine.InvalidOption):
        group.grade_tap(session, bank, -100, 0, count, 1, 90.0)
    counts = group.tally(session, 0, answers)
    assert counts == [slot + 1 for slot in range(count)]
    screen = groups_screens.group_reveal(bank, session, 0, counts, i18n.catalog("en"), HTML)
    lines = [
        line
        for line in screen.text.splitlines()
        if line[:1] in "✅ABCDEFGHIJKL" and ". " in line[:5]
    ]
    assert len(lines) == count
    for slot, line in enumerate(lines):
        assert line.endswith(f" — {slot + 1}")
    assert sum(line.startswith("✅") for line in lines) == 1
    question = groups_screens.group_question(bank, session, i18n.catalog("en"), HTML)
    assert [b.label for row in question.keyboard for b in row] == list(engine.LABELS[:count])
