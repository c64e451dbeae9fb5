"""End to end: a 2-option and a 10-option bank played through the fake Bot API server, in a
private chat and in a group session."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.bankload import load_bank
from tests.support.botrun import RunningBot
from tests.support.optionbanks import correct_label, shown_options, write_bank
from tests.support.person import Person
from tests.support.screens import answer_buttons, buttons

GROUP = -1009876543210


def keyboard_labels(message: dict) -> list[list[str]]:
    """The labels of a message's inline keyboard, row by row."""
    return [
        [b["text"] for b in row]
        for row in message.get("reply_markup", {}).get("inline_keyboard", [])
    ]


def revealed_message(fake, question: dict) -> dict | None:
    """The group question's message once edited into its reveal (no answer buttons left: only
    the link to the explanation in each member's language), else None."""
    message = fake.message(GROUP, question["message_id"])
    return None if answer_buttons(message) else message


@pytest.fixture
async def option_bot(fake, tmp_path):
    """The bot serving only a 2-option and a 10-option bank, with a short group window."""
    folder = tmp_path / "banks"
    folder.mkdir()
    paths = [write_bank(folder, 2), write_bank(folder, 10)]
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", bank_paths=(folder,), question_seconds=1.5)
    await runner.start()
    yield runner, {bank.id: bank for bank in map(load_bank, paths)}
    await runner.stop()


@pytest.mark.parametrize(
    ("count", "rows"), [(2, [["A", "B"]]), (10, [list("ABCDE"), list("FGHIJ")])]
)
async def test_private_quiz_with_2_and_10_options(fake, option_bot, count, rows):
    """/quiz on each bank: every question shows its labels and buttons in rows that fit a
    phone; a wrong tap names the correct label, a right one scores; the last letter's button
    works (slot 9 for ten options)."""
    _, banks = option_bot
    bank = banks[f"options-{count}"]
    person = Person(fake, 900 + count, "Dana", "en")
    t = i18n.catalog("en")
    await person.say(f"/quiz {bank.id}", replies=2)
    question = person.question_message()
    assert keyboard_labels(question) == rows
    assert list(shown_options(question["text"])) == [label for row in rows for label in row]
    right = correct_label(question["text"], bank)
    wrong = next(label for label in reversed(rows[-1]) if label != right)
    feedback = await person.answer(wrong)
    assert t("feedback_wrong", label=right) in feedback["text"]
    question = await person.next(feedback)
    assert keyboard_labels(question) == rows
    last = rows[-1][-1]
    right = correct_label(question["text"], bank)
    feedback = await person.answer(right)
    assert t("feedback_correct") in feedback["text"]
    score = await person.next(feedback)
    assert t("result_score", score=1, total=2) in score["text"]
    assert any(
        b["callback_data"].endswith(f":{count - 1}") and b["text"] == last
        for b in buttons(question)
    )


async def test_group_session_with_10_then_2_options(fake, option_bot):
    """A group session on the 10-option bank: taps on J and on the right option are counted
    per option in the reveal; then a session on the 2-option bank does the same with A-B."""
    _, banks = option_bot
    t = i18n.catalog("en")
    members = [(811, "Ann"), (812, "Ben"), (813, "Cy")]
    for user_id, name in members:
        fake.add_user(user_id, name, language_code="en")
    fake.add_group(GROUP, "Options group", admins=[811], members=[812, 813])

    for count in (10, 2):
        bank = banks[f"options-{count}"]
        before = {m["message_id"] for m in fake.messages(GROUP)}
        fake.send_message(811, f"/quiz {bank.id}", chat_id=GROUP)
        question = await fake.wait_for(
            lambda before=before: next(
                (
                    m
                    for m in fake.messages(GROUP)
                    if m["message_id"] not in before
                    and any(b.get("callback_data", "").startswith("g:") for b in buttons(m))
                ),
                None,
            ),
            timeout=10,
        )
        labels = [label for row in keyboard_labels(question) for label in row]
        assert labels == list("ABCDEFGHIJKL"[:count])
        assert max(len(row) for row in keyboard_labels(question)) <= 5
        right = correct_label(question["text"], bank)
        last = labels[-1]
        taps = {811: right, 812: last, 813: last if last != right else labels[0]}
        for user_id, label in taps.items():
            data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
            update = fake.tap(user_id, GROUP, question["message_id"], data)
            query_id = update["callback_query"]["id"]
            await fake.wait_for(lambda q=query_id: q in fake.callback_answers)
            assert fake.callback_answers[query_id]["text"] == t("group_recorded", label=label)
        revealed = await fake.wait_for(lambda q=question: revealed_message(fake, q), timeout=10)
        shown = shown_options(revealed["text"])
        assert list(shown) == labels
        counts = {label: sum(1 for chosen in taps.values() if chosen == label) for label in labels}
        for line in revealed["text"].splitlines():
            for label in labels:
                if line.removeprefix("✅ ").startswith(f"{label}. "):
                    assert line.endswith(f" — {counts[label]}"), line
                    assert line.startswith("✅") == (label == right), line
        assert t("group_answer_count", count=3) in revealed["text"]
        fake.send_message(811, "/stop", chat_id=GROUP)
        await fake.wait_for(
            lambda q=question: any(
                t("group_stopped", name="Ann") in m.get("text", "")
                and m["message_id"] > q["message_id"]
                for m in fake.messages(GROUP)
            ),
            timeout=10,
        )
