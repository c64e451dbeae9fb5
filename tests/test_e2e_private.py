"""End to end: the real PTB Application against the fake Bot API server, in private chats."""

from __future__ import annotations

import sqlite3

import pytest

from bot import i18n
from tests.conftest import BANK_ID, Person, buttons, correct_label, wrong_label


@pytest.mark.parametrize(("language_code", "language"), [
    ("en", "en"), ("hi", "hi"), ("el-GR", "el"), ("de", "en"), (None, "en")])
async def test_full_quiz_in_each_language(fake, running_bot, banks, language_code, language):
    """A user plays the whole bank with right and wrong answers, all in their language."""
    bank = banks[BANK_ID]
    t = i18n.catalog(language)
    lang = bank.language_for(language)
    person = Person(fake, 501, "Ada <&> Lovelace", language_code)

    greeting, question = await person.say("/start", replies=2)
    assert greeting["text"].startswith(t("greeting", name="Ada <&> Lovelace"))
    assert bank.title.by_language[lang] in greeting["text"]
    assert [b.get("url") for b in buttons(greeting)] == [bank.guide.url]

    expected_score = 0
    for number, q in enumerate(bank.questions, start=1):
        question = person.question_message()
        assert q.prompt.by_language[lang] in question["text"]
        assert t("question_header", number=number, total=8) in question["text"]
        assert [b["text"] for b in buttons(question)] == ["A", "B", "C", "D"]
        right = number % 3 != 0  # wrong on questions 3 and 6
        label = (correct_label if right else wrong_label)(question, bank, language)
        feedback = await person.answer(label)
        expected_score += right
        assert feedback["message_id"] == question["message_id"]  # edited in place
        verdict = t("feedback_correct") if right else t("feedback_wrong",
                                                        label=correct_label(question, bank,
                                                                            language))
        assert verdict in feedback["text"]
        assert q.explanation.by_language[lang] in feedback["text"]
        assert q.source.title in feedback["text"]
        following = await person.next(feedback)
        assert "reply_markup" not in fake.message(person.user_id, feedback["message_id"])

    result = following
    assert t("result_score", score=expected_score, total=8) in result["text"]
    assert bank.questions[2].prompt.by_language[lang] in result["text"]  # missed ones listed
    assert bank.questions[5].prompt.by_language[lang] in result["text"]
    assert [b["text"] for b in buttons(result)] == [t("button_retake"), t("button_review")]

    db = sqlite3.connect(running_bot.db)
    rows = db.execute("SELECT question_id, correct FROM answers").fetchall()
    assert len(rows) == 8 and sum(c for _, c in rows) == expected_score
    assert db.execute("SELECT status FROM attempts").fetchall() == [("finished",)]

    review = next(b for b in buttons(result) if b["text"] == t("button_review"))
    before = len(person.bot_messages())
    await person.tap(result, review["callback_data"])
    await fake.wait_for(lambda: len(person.bot_messages()) > before)
    text = person.bot_messages()[-1]["text"]
    assert t("review_header") in text and bank.questions[2].explanation.by_language[lang] in text
    assert bank.questions[0].explanation.by_language[lang] not in text

    stats = (await person.say("/stats"))[0]["text"]
    assert t("stats_attempts", count=1) in stats
    assert t("stats_scores", best=expected_score, last=expected_score, total=8) in stats
