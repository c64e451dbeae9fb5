"""End to end through the fake Bot API: no message of the bot shows a link preview. The bot sets
``link_preview_options`` once, in PTB's ``Defaults`` (bot/app.py), not at each call; these tests
read the parameters each call carried to the server."""

from __future__ import annotations

from tests.support.botrun import RunningBot
from tests.support.fakebotapi import Call, FakeBotAPI
from tests.support.person import Person
from tests.support.screens import answer_buttons, buttons

NO_PREVIEW = {"is_disabled": True}
"""``LinkPreviewOptions(is_disabled=True)`` as a request carries it."""

USER = 501
GROUP = -1001234567890
TEXT_METHODS = ("sendMessage", "editMessageText")


def text_calls(fake: FakeBotAPI, chat_id: int) -> list[Call]:
    """The bot's successful sendMessage and editMessageText calls in a chat, in order."""
    return [
        call
        for call in fake.calls
        if call.method in TEXT_METHODS and call.ok and call.params.get("chat_id") == chat_id
    ]


async def test_private_quiz_messages_carry_no_preview(fake, running_bot):
    """The greeting and the question (sendMessage) and the feedback, whose explanation links its
    source (editMessageText), each carry ``link_preview_options`` with ``is_disabled`` true."""
    person = Person(fake, USER, "Ada", "en")
    await person.say("/start", replies=2)
    feedback = await person.answer("A")

    calls = text_calls(fake, USER)
    assert [call.method for call in calls] == ["sendMessage", "sendMessage", "editMessageText"]
    assert '<a href="' in calls[-1].params["text"]  # a link Telegram would otherwise preview
    assert [call.params.get("link_preview_options") for call in calls] == [NO_PREVIEW] * 3
    assert feedback["message_id"] == calls[1].result["message_id"]


async def test_group_session_messages_carry_no_preview(fake, tmp_path):
    """A group question (sendMessage) and its reveal with the source link (editMessageText)
    each carry ``link_preview_options`` with ``is_disabled`` true."""
    fake.add_user(USER, "Ada", language_code="en")
    fake.add_group(GROUP, "Study group", admins=[USER])
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=1.5).start()
    try:
        fake.send_message(USER, f"/quiz@{fake.bot_username}", chat_id=GROUP)
        question = await fake.wait_for(
            lambda: next((m for m in fake.messages(GROUP) if answer_buttons(m)), None), timeout=10
        )
        tap = answer_buttons(question)[0]["callback_data"]
        fake.tap(USER, GROUP, question["message_id"], tap)
        await fake.wait_for(
            lambda: not answer_buttons(fake.message(GROUP, question["message_id"])), timeout=10
        )  # revealed
    finally:
        await runner.stop()

    calls = text_calls(fake, GROUP)
    assert "sendMessage" in {c.method for c in calls}
    reveal = next(
        c
        for c in calls
        if c.method == "editMessageText"
        and c.params["message_id"] == question["message_id"]
        and not any(b.get("callback_data", "").startswith("g:") for b in buttons(c.params))
    )
    assert '<a href="' in reveal.params["text"]
    assert all(call.params.get("link_preview_options") == NO_PREVIEW for call in calls), [
        (call.method, call.params.get("link_preview_options")) for call in calls
    ]


async def test_inline_cards_carry_no_preview(fake, tmp_path):
    """The card each inline result would post (``InputTextMessageContent``) carries
    ``link_preview_options`` with ``is_disabled`` true."""
    fake.inline_mode = True
    fake.add_user(USER, "Ada", language_code="en")
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3").start()
    try:
        query_id = fake.inline_query(USER, "")["inline_query"]["id"]
        await fake.wait_for(lambda: query_id in fake.inline_answers)
    finally:
        await runner.stop()

    [answer] = fake.calls_to("answerInlineQuery")
    contents = [result["input_message_content"] for result in answer.params["results"]]
    assert contents
    assert [content.get("link_preview_options") for content in contents] == (
        [NO_PREVIEW] * len(contents)
    )
