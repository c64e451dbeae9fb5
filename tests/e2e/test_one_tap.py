"""End to end, the one-tap flow: a private /settings choice, kept per user, after which the
answer's message turns into the feedback and the next question comes at once below it."""

from __future__ import annotations

from bot import i18n
from tests.support.banks import BANK_ID
from tests.support.person import Person
from tests.support.screens import buttons, correct_label, wrong_label

ANSWER_CALLS = ("answerCallbackQuery", "editMessageText", "sendMessage")


async def choose(person: Person, t, label_key: str) -> dict:
    """Send /settings and tap the button ``label_key`` names; the edited settings screen."""
    [screen] = await person.say("/settings")
    data = next(b["callback_data"] for b in buttons(screen) if t(label_key) in b["text"])
    await person.tap(screen, data)
    chat_id, message_id = screen["chat"]["id"], screen["message_id"]
    return await person.fake.wait_for(
        lambda: (
            lambda m: (
                m
                if any(  # the screen edited
                    b["text"] == "✓ " + t(label_key) for b in buttons(m)
                )
                else None
            )
        )(person.fake.message(chat_id, message_id))
    )


def calls(fake, before: int) -> list[str]:
    """The Bot API methods called since call number ``before`` (getUpdates left out)."""
    return [c.method for c in fake.calls[before:] if c.method != "getUpdates"]


async def test_one_tap_in_greek_from_settings_to_the_score_and_after_a_restart(
    fake, running_bot, banks
):
    """A Greek user's /settings is in Greek with "Next" ticked; after choosing one tap, each
    answer is three calls (the query answered, the message edited into the feedback without a
    button, the next question sent below it) and one update, to the score; the choice is kept
    across a restart."""
    bank, t = banks[BANK_ID], i18n.catalog("el")
    person = Person(fake, 701, "Ελένη", "el")
    [screen] = await person.say("/settings")
    assert t("flow_title") in screen["text"] and t("flow_next_about") in screen["text"]
    labels = [b["text"] for b in buttons(screen)]
    assert labels == ["✓ " + t("flow_next"), t("flow_one_tap")]
    data = next(b["callback_data"] for b in buttons(screen) if b["text"] == t("flow_one_tap"))
    query_id = await person.tap(screen, data)
    assert fake.callback_answers[query_id].get("text") == t("flow_saved")
    ticked = [t("flow_next"), "✓ " + t("flow_one_tap")]
    await fake.wait_for(
        lambda: (
            [b["text"] for b in buttons(fake.message(screen["chat"]["id"], screen["message_id"]))]
            == ticked
        )
    )  # the screen edited

    await person.say("/start", replies=2)
    lang = bank.language_for("el")
    for number, q in enumerate(bank.questions, start=1):
        if number == 4:
            await running_bot.restart()  # the choice is stored, not remembered
        question = person.question_message()
        assert q.prompt.by_language[lang] in question["text"]
        label = (correct_label if number % 2 else wrong_label)(question, bank, "el")
        data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
        before, seen = len(fake.calls), len(person.bot_messages())
        fake.tap(person.user_id, question["chat"]["id"], question["message_id"], data)
        await fake.wait_for(lambda: len(person.bot_messages()) > seen)  # noqa: B023
        feedback = fake.message(question["chat"]["id"], question["message_id"])
        assert q.explanation.by_language[lang] in feedback["text"]
        # no "Next": what follows is already below; the options shown marked, styled
        assert {b["callback_data"] for b in buttons(feedback)} == {"x"}
        assert {b.get("style") for b in buttons(feedback)} >= {"success"}
        following = person.bot_messages()[-1]
        assert following["message_id"] > question["message_id"]
        assert calls(fake, before) == list(ANSWER_CALLS)
    assert t("result_score", score=4, total=8) in following["text"]


async def test_back_to_next_and_a_lost_send_made_good_by_a_second_tap(fake, running_bot, banks):
    """With one tap, a next question whose send failed is sent by a second tap on the answered
    option (never a learner without a way on); choosing "Next" again brings the button back."""
    bank, t = banks[BANK_ID], i18n.catalog("en")
    person = Person(fake, 702, "Ada", "en")
    await choose(person, t, "flow_one_tap")
    await person.say("/start", replies=2)
    question = person.question_message()
    data = next(
        b["callback_data"]
        for b in buttons(question)
        if b["text"] == correct_label(question, bank, "en")
    )
    fake.fail_next("sendMessage", error_code=403, description="Forbidden: bot was blocked")
    seen = len(person.bot_messages())
    await person.tap(question, data)
    await fake.wait_for(lambda: len(fake.calls_to("sendMessage")) >= 3)  # intro, q1, refused
    assert len(person.bot_messages()) == seen  # the feedback is in, no question below it
    query_id = await person.tap(question, data)
    assert fake.callback_answers[query_id].get("text") == t("toast_answered")
    await fake.wait_for(lambda: len(person.bot_messages()) > seen)
    assert t("question_header", number=2, total=8) in person.bot_messages()[-1]["text"]

    await choose(person, t, "flow_next")
    feedback = await person.answer(correct_label(person.question_message(), bank, "en"))
    assert [b["text"] for b in buttons(feedback)][-1] == t("button_next")


async def test_a_next_question_lost_to_a_502_page_leaves_a_next_button(fake, running_bot, banks):
    """With one tap, the next question's send answered 502 by Telegram's front end (an HTML
    page; a send that may have arrived is not repeated): the feedback, which has no buttons in
    this flow, gets "Next", and that brings question 2 (issue 31, item 3)."""
    bank, t = banks[BANK_ID], i18n.catalog("en")
    person = Person(fake, 703, "Lin", "en")
    await choose(person, t, "flow_one_tap")
    await person.say("/start", replies=2)
    question = person.question_message()
    fake.fail_next("sendMessage", error_code=502, description="Bad Gateway", front_end=True)
    before = len(fake.calls)
    await person.tap(
        question,
        next(
            b["callback_data"]
            for b in buttons(question)
            if b["text"] == correct_label(question, bank, "en")
        ),
    )
    await fake.wait_for_call("sendMessage", after=before, where=lambda c: c.status == 502)
    feedback = await fake.wait_for(
        lambda: (
            lambda m: m if [b["text"] for b in buttons(m)][-1:] == [t("button_next")] else None
        )(fake.message(703, question["message_id"]))
    )
    assert "✅" in feedback["text"]  # the feedback kept, the button added
    following = await person.next(feedback)
    assert t("question_header", number=2, total=8) in following["text"]
    assert buttons(following)
