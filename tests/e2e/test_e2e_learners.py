"""End to end: what learners and teachers read after a private quiz, through the real PTB
Application and the fake Bot API: the language each answer was shown in reaches
``quizbot report``."""

from __future__ import annotations

from bot import report
from tests.support.banks import BANK_ID
from tests.support.person import Person
from tests.support.screens import correct_label, wrong_label


async def test_private_answers_keep_their_language_for_the_report(fake, running_bot, banks):
    """Two users answer in Hindi and in Greek (their Telegram language, no /language choice):
    the report names each answer's language, and none is "-"."""
    bank = banks[BANK_ID]
    for user_id, language in ((901, "hi"), (902, "el")):
        person = Person(fake, user_id, "Mira", language)
        await person.say("/quiz", replies=2)
        for number in range(1, 3):
            question = person.question_message()
            label = (correct_label if number == 1 else wrong_label)(question, bank, language)
            await person.next(await person.answer(label))
    table = await report.build(running_bot.db, banks, bank_id=None, chat_id=None, since=None)
    assert sorted({row["language"] for row in table}) == ["el", "hi"]
    assert all(row["answers"] == 1 for row in table)
    first = bank.questions[0]
    hindi = next(row for row in table if row["language"] == "hi" and row["question_id"] == first.id)
    assert hindi["question"] == first.prompt.by_language["hi"]
