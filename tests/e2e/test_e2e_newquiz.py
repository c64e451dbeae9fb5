"""End to end: /newquiz in a private chat, through PTB's real HTTP stack and the fake Bot API:
quiz polls, regular and forwarded polls, typed questions, photos, explanations as replies,
Undo, the limits, a restart mid-draft, /done and a play of the published quiz by someone else."""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.features.newquiz import rules as creating
from bot.features.newquiz.draft import Draft, DraftQuestion, Step
from bot.services import services_of
from tests.support.botrun import RunningBot
from tests.support.clock import FakeClock
from tests.support.person import Person
from tests.support.screens import buttons

T = i18n.catalog("en")
LINK = re.compile(r"https://t\.me/quizbot_test_bot\?start=(c-[a-z0-9]{10})")


def _creators(bot: RunningBot):
    assert bot.app is not None
    return services_of(bot.app).creators


async def _sent(person: Person, send, replies: int = 1) -> list[dict]:
    """Do ``send()`` (something the person sends) and wait for ``replies`` bot messages."""
    before = len(person.bot_messages())
    send()
    await person.fake.wait_for(lambda: len(person.bot_messages()) >= before + replies)
    return person.bot_messages()[before:]


async def _collecting(person: Person, title: str = "Capitals") -> None:
    """/newquiz, a title, /skip: the bot waits for questions."""
    [ask] = await person.say("/newquiz")
    assert ask["text"].startswith(T("newquiz.ask_title").split("\n")[0])
    [ask] = await person.say(title)
    assert ask["text"] == T("newquiz.ask_description")
    [ask] = await person.say("/skip")
    assert T("newquiz.ask_questions", example=T("newquiz.example")) == ask["text"]


async def _tap(person: Person, message: dict, data: str) -> dict:
    """Tap a button; return the callback query's answer."""
    query_id = await person.tap(message, data)
    return person.fake.callback_answers[query_id]


async def _edited(person: Person, message: dict, data: str) -> dict:
    """Tap a button that edits its message; return the edited message."""
    await person.tap(message, data)
    chat_id, message_id = message["chat"]["id"], message["message_id"]
    return await person.fake.wait_for(
        lambda: (lambda m: m if m != message else None)(person.fake.message(chat_id, message_id))
    )


def _data(message: dict, prefix: str) -> list[str]:
    return [
        b["callback_data"]
        for b in buttons(message)
        if b.get("callback_data", "").startswith(prefix)
    ]


async def _publish(person: Person) -> str:
    """/done; return the published quiz's id (its deep link's payload)."""
    head, card = await person.say("/done", replies=2)
    assert "🎉" in head["text"]
    return LINK.search(card["text"])[1]


async def test_quiz_polls_one_and_several_right_then_played_through_the_deep_link(
    fake, running_bot
):
    """Quiz polls from the reply keyboard's button become questions (one and several right,
    with a long explanation as a reply); /done publishes them with the deep link, Share and
    "Start in a group"; another user plays the quiz through the link."""
    fake.inline_mode = True  # BotFather's /setinline: the bot reads it from getMe at its start
    await running_bot.restart()
    ada = Person(fake, 801, "Ada")
    await _collecting(ada)
    keyboard = fake.reply_keyboard(ada.user_id)
    [[button]] = keyboard["keyboard"]
    assert button == {"text": T("newquiz.button_poll"), "request_poll": {"type": "quiz"}}

    [added] = await _sent(
        ada,
        lambda: fake.press(
            ada.user_id,
            T("newquiz.button_poll"),
            question="Capital of France?",
            options=["Berlin", "Paris", "Rome"],
            correct_option_ids=(1,),
            explanation="Paris, since 508.",
        ),
    )
    assert added["text"].startswith(T("newquiz.added", number=1, prompt="Capital of France?"))
    assert _data(added, "nu:")
    long = "Clovis made Paris his capital in 508; " * 8
    [saved] = await _sent(
        ada, lambda: fake.send_message(ada.user_id, long, reply_to=added["message_id"])
    )
    assert saved["text"] == T("newquiz.explanation_added", number=1)

    [added] = await _sent(
        ada,
        lambda: fake.send_poll(
            ada.user_id,
            "Which are in Europe?",
            ["Spain", "Peru", "Italy", "Chad"],
            correct_option_ids=(0, 2),
        ),
    )
    assert T("newquiz.added_several") in added["text"]
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and draft.questions[0].explanation == long.strip()
    assert draft.questions[1].correct == (0, 2)

    _, card = await ada.say("/done", replies=2)
    assert fake.reply_keyboard(ada.user_id) is None  # removed with the draft
    quiz_id = LINK.search(card["text"])[1]
    urls = [b.get("url") for b in buttons(card) if b.get("url")]
    assert urls == [
        f"https://t.me/quizbot_test_bot?start={quiz_id}",
        f"https://t.me/quizbot_test_bot?startgroup={quiz_id}",
    ]
    assert [b.get("switch_inline_query") for b in buttons(card) if "switch_inline_query" in b] == [
        quiz_id
    ]
    assert await _creators(running_bot).draft(ada.user_id) is None

    bo = Person(fake, 802, "Bo")
    replies = await _sent(bo, lambda: fake.follow_link(bo.user_id, urls[0]), replies=2)
    assert "Capitals" in replies[0]["text"]
    question = bo.question_message()
    assert "Capital of France?" in question["text"]
    [label] = [
        line.split(". ", 1)[0][-1]
        for line in question["text"].splitlines()
        if line.endswith(". Paris")
    ]
    feedback = await bo.answer(label)
    assert T("feedback_correct") in feedback["text"] and long.strip() in feedback["text"]


async def test_a_regular_poll_asks_which_option_is_right(fake, running_bot):
    """A regular poll is asked about with one button per option; the tap adds the question,
    and a second tap on the old buttons changes nothing."""
    ada = Person(fake, 803, "Ada")
    await _collecting(ada)
    [ask] = await _sent(
        ada,
        lambda: fake.send_poll(
            ada.user_id, "Largest ocean?", ["Atlantic", "Pacific", "Indian"], type="regular"
        ),
    )
    assert T("newquiz.ask_right") in ask["text"] and "B. Pacific" in ask["text"]
    [_, right, _] = _data(ask, "no:")
    edited = await _edited(ada, ask, right)
    assert edited["text"].startswith(T("newquiz.added", number=1, prompt="Largest ocean?"))
    stale = await ada.tap(ask, right, check_button=False)  # its buttons are gone
    assert fake.callback_answers[stale]["text"] == T("newquiz.stale")
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and [q.correct for q in draft.questions] == [(1,)]


async def test_a_forwarded_quiz_with_a_hidden_answer_and_several_right(fake, running_bot):
    """A forwarded open quiz hides its answer: the creator toggles the right options, then
    confirms; /done before the answer is refused."""
    ada = Person(fake, 804, "Ada")
    Person(fake, 805, "Cy")
    await _collecting(ada)
    [ask] = await _sent(
        ada,
        lambda: fake.send_poll(
            ada.user_id,
            "Primes?",
            ["2", "4", "5", "9"],
            correct_option_ids=(0, 2),
            allows_multiple_answers=True,
            forward_from=805,
            answer_visible=False,
        ),
    )
    assert T("newquiz.ask_right_several") in ask["text"]
    [refused] = await ada.say("/done")
    assert refused["text"] == T("newquiz.problem.answer_pending")
    first, _, third, _ = _data(ask, "no:")
    [done] = _data(ask, "nc:")
    assert (await _tap(ada, ask, done))["text"] == T("newquiz.problem.choose_one")
    ask = await _edited(ada, ask, first)
    ask = await _edited(ada, ask, third)
    assert [b["text"] for b in buttons(ask)][:4] == ["✅ A", "B", "✅ C", "D"]
    edited = await _edited(ada, ask, done)
    assert T("newquiz.added_several") in edited["text"]
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and draft.questions[0].correct == (0, 2)


async def test_typed_questions_a_photo_true_false_and_markup_as_typed(fake, running_bot):
    """A photo then a typed question make a question with that picture; a typed true/false
    question; HTML and Markdown are shown as typed."""
    ada = Person(fake, 806, "Ada")
    await _collecting(ada, title="<b>Bold</b> & **co**")
    [kept] = await _sent(ada, lambda: fake.send_photo(ada.user_id))
    assert kept["text"] == T("newquiz.picture_kept")
    photo = fake.messages(ada.user_id)[-2]["photo"][-1]["file_id"]
    [added] = await ada.say("Which <i>city</i>?\nA) Sparta\nB) *Athens\n> It is **the** capital.")
    assert "Which <i>city</i>?" in added["text"] and T("newquiz.added_picture") in added["text"]
    [added] = await ada.say("The Sun is a star.\n*True\nFalse")
    assert T("newquiz.added_true_false") in added["text"]
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None
    first, second = draft.questions
    assert (first.picture, first.options, first.correct) == (photo, ("Sparta", "Athens"), (1,))
    assert first.explanation == "It is **the** capital." and second.answer is True
    head, _ = await ada.say("/done", replies=2)
    assert "<b>Bold</b> & **co**" in head["text"]


async def test_undo_and_a_stale_undo(fake, running_bot):
    """Undo takes the last question out; an Undo of an earlier question, or a second one,
    is answered politely and changes nothing."""
    ada = Person(fake, 807, "Ada")
    await _collecting(ada)
    [first] = await ada.say("One?\n*a\nb")
    [second] = await ada.say("Two?\n*a\nb")
    [undo_second] = _data(second, "nu:")
    assert (await _edited(ada, second, undo_second))["text"] == T("newquiz.undone", number=2)
    assert (await _edited(ada, first, _data(first, "nu:")[0]))["text"] == T(
        "newquiz.undone", number=1
    )
    [third] = await ada.say("Three?\n*a\nb")
    stale = await ada.tap(second, undo_second, check_button=False)  # a second time
    assert fake.callback_answers[stale]["text"] == T("newquiz.undo_stale")
    assert third["text"].startswith(T("newquiz.added", number=1, prompt="Three?"))
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and [q.prompt for q in draft.questions] == ["Three?"]


async def test_a_stale_undo_of_an_earlier_question(fake, running_bot):
    """Undo under question 1 once question 2 is in: refused politely, both stay."""
    ada = Person(fake, 808, "Ada")
    await _collecting(ada)
    [first] = await ada.say("One?\n*a\nb")
    await ada.say("Two?\n*a\nb")
    answer = await _tap(ada, first, _data(first, "nu:")[0])
    assert answer["text"] == T("newquiz.undo_stale")
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and len(draft.questions) == 2


async def test_limits_too_long_texts_empty_and_duplicate_options(fake, running_bot):
    """Texts over Telegram's limits, an empty option, duplicate options, /done without a
    question: each gets its answer, and the draft stays as it was."""
    ada = Person(fake, 809, "Ada")
    await ada.say("/newquiz")
    [refused] = await ada.say("T" * 200)
    assert refused["text"] == T(
        "newquiz.problem.title_too_long", size=200, limit=creating.MAX_TITLE
    )
    await ada.say("Title")
    await ada.say("/skip")
    [refused] = await ada.say("/done")
    assert refused["text"] == T("newquiz.problem.no_questions")
    [refused] = await ada.say("Q?\n*a\n" + "b" * 101)
    assert refused["text"] == T(
        "newquiz.problem.option_too_long", number=2, size=101, limit=creating.MAX_OPTION
    )
    [refused] = await ada.say("Q?\n*Paris\nparis")
    assert refused["text"] == T("newquiz.problem.options_duplicate", number=2, other=1)
    [refused] = await ada.say("Q?\n*\nb")
    assert refused["text"] == T("newquiz.problem.option_empty", number=1)
    [refused] = await ada.say("Q" * 3600 + "\n*a\nb")
    assert refused["text"].startswith(
        T("newquiz.problem.question_too_long", size=3602, limit=3500)[:20]
    )
    [refused] = await ada.say("hello")
    assert refused["text"] == T("newquiz.problem.not_a_question", example=T("newquiz.example"))
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and draft.questions == ()


async def test_two_hundred_questions_then_no_more(fake, running_bot):
    """A draft with 200 questions (stored as such) takes no 201st."""
    ada = Person(fake, 810, "Ada")
    await _collecting(ada)
    service = _creators(running_bot)
    draft = await service.draft(ada.user_id)
    assert draft is not None
    full = Draft(
        draft.language,
        draft.started,
        Step.QUESTIONS,
        draft.title,
        "",
        tuple(DraftQuestion(n, f"Question {n}?", ("yes", "no"), (0,)) for n in range(1, 201)),
        next_serial=201,
    )
    await running_bot.app.bot_data.services.store.save_draft(  # type: ignore[union-attr]
        ada.user_id, full.to_data(), now=running_bot.app.bot_data.clock()
    )
    [refused] = await ada.say("One more?\n*a\nb")
    assert refused["text"] == T("newquiz.problem.too_many_questions", limit=200)
    assert len((await service.draft(ada.user_id)).questions) == 200


async def test_a_flood_of_questions_gets_one_answer(fake, running_bot):
    """More than 20 new questions in a minute: the first refused one gets a polite answer,
    the next none, and nothing is lost of the 20."""
    running_bot.app.update_processor.user_rate = (100, 60)  # the sender's own flood guard off
    ada = Person(fake, 811, "Ada")
    await _collecting(ada)
    for number in range(1, creating.QUESTIONS_PER_MINUTE + 1):
        [added] = await ada.say(f"Question {number}?\n*a\nb")
        assert added["text"].startswith(
            T("newquiz.added", number=number, prompt=f"Question {number}?")
        )
    [flooded] = await ada.say("Question 21?\n*a\nb")
    assert flooded["text"] == T("newquiz.flooded")
    fake.send_message(ada.user_id, "Question 22?\n*a\nb")  # no answer: the same burst
    [again] = await ada.say("/newquiz")  # handled after it (each user's updates in order)
    assert again["text"].startswith(
        T("newquiz.draft_open", title="Capitals", questions=T("question_count", count=20))[:20]
    )
    assert [m.get("text") for m in ada.bot_messages()].count(T("newquiz.flooded")) == 1
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and len(draft.questions) == 20


async def test_newquiz_over_an_open_draft_continue_or_start_over(fake, running_bot):
    """/newquiz with a draft open asks: "Go on" shows where it was; "Start over" deletes it
    and asks for a title; the first message's buttons are then stale."""
    ada = Person(fake, 812, "Ada")
    await _collecting(ada)
    await ada.say("One?\n*a\nb")
    [choice] = await ada.say("/newquiz")
    go_on, restart = _data(choice, "nd:")
    replies = await _sent(
        ada, lambda: fake.tap(ada.user_id, ada.user_id, choice["message_id"], go_on)
    )
    assert replies[-1]["text"] == T("newquiz.ask_questions", example=T("newquiz.example"))
    [choice] = await ada.say("/newquiz")
    go_on, restart = _data(choice, "nd:")
    replies = await _sent(
        ada, lambda: fake.tap(ada.user_id, ada.user_id, choice["message_id"], restart)
    )
    assert replies[-1]["text"].startswith(T("newquiz.ask_title").split("\n")[0])
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and draft.step is Step.TITLE and draft.questions == ()
    stale = await ada.tap(choice, restart, check_button=False)
    assert fake.callback_answers[stale]["text"] == T("newquiz.stale")


async def test_a_draft_survives_a_restart(fake, running_bot):
    """A new application on the same database file goes on with the draft."""
    ada = Person(fake, 813, "Ada", "el")
    await _collecting_in(ada, "el")
    await ada.say("Πρώτη;\n*α\nβ")
    await running_bot.restart()
    t = i18n.catalog("el")
    [added] = await ada.say("Δεύτερη;\n*α\nβ")
    assert added["text"].startswith(t("newquiz.added", number=2, prompt="Δεύτερη;"))
    quiz_id = await _publish(ada)
    assert quiz_id.startswith("c-")


async def _collecting_in(person: Person, language: str) -> None:
    t = i18n.catalog(language)
    await person.say("/newquiz")
    await person.say("Κουίζ")
    [ask] = await person.say("/skip")
    assert ask["text"] == t("newquiz.ask_questions", example=t("newquiz.example"))


async def test_done_with_problems_names_the_question(fake, running_bot):
    """/done on a quiz the strict checks refuse names the question to fix, in the creator's
    language, and keeps the draft; a corrected question as a reply fixes it."""
    ada = Person(fake, 814, "Ada", "hi")
    t = i18n.catalog("hi")
    await ada.say("/newquiz")
    await ada.say("जल")
    await ada.say("/skip")
    await ada.say("पानी किससे बनता है?\nनमक\n*हाइड्रोजन और ऑक्सीजन के परमाणुओं से")
    [added] = await ada.say("हवा में सबसे ज़्यादा कौन-सी गैस है?\n*नाइट्रोजन\nऑक्सीजन")
    [rejected] = await ada.say("/done")
    assert rejected["text"].startswith(t("newquiz.rejected"))
    assert t("newquiz.rejected_question", number=1, problem="") in rejected["text"]
    assert t("newquiz.rejected_question", number=2, problem="") not in rejected["text"]
    assert await _creators(running_bot).draft(ada.user_id) is not None
    first = ada.bot_messages()[-3]
    [replaced] = await _sent(
        ada,
        lambda: fake.send_message(
            ada.user_id,
            "पानी किससे बनता है?\nनाइट्रोजन और कार्बन\n*हाइड्रोजन और ऑक्सीजन",
            reply_to=first["message_id"],
        ),
    )
    assert replaced["text"] == t("newquiz.replaced", number=1)
    assert (await _publish(ada)).startswith("c-")
    assert added


async def test_drafts_left_a_week_are_dropped(fake, tmp_path):
    """A draft unchanged for more than 7 days is gone: when read, and by the daily job."""
    clock = FakeClock(1_000_000.0)
    bot = await RunningBot(fake, tmp_path / "quiz.sqlite3", clock=clock).start()
    try:
        ada, bo = Person(fake, 815, "Ada"), Person(fake, 816, "Bo")
        await _collecting(ada)
        await _collecting(bo)
        clock.advance(creating.DRAFT_SECONDS + 1)
        [gone] = await ada.say("/done")
        assert gone["text"] == T("newquiz.no_draft")
        assert await _creators(bot).prune() == 1  # Bo's
        assert await _creators(bot).draft(bo.user_id) is None
    finally:
        await bot.stop()


@pytest.mark.parametrize("text", ["hello", "/skip"])
async def test_without_a_draft_private_chat_is_as_before(fake, running_bot, text):
    """Without a draft open, texts get the usual hint and /skip says there is no draft."""
    ada = Person(fake, 817, "Ada")
    [reply] = await ada.say(text)
    expected = T("unknown_text") if text == "hello" else T("newquiz.no_draft")
    assert reply["text"] == expected


async def test_an_unknown_command_is_no_title(fake, running_bot):
    """An unknown command while the bot waits for a title gets the usual hint, not a title."""
    ada = Person(fake, 818, "Ada")
    await ada.say("/newquiz")
    [hint] = await ada.say("/frobnicate")
    assert hint["text"] == T("unknown_text")
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and draft.step is Step.TITLE and draft.title == ""


async def test_an_album_is_answered_once_and_its_first_photo_is_the_picture(fake, running_bot):
    """Three photos sent at once (an album: three updates sharing a media_group_id) get one
    answer, edited to say that 3 came and the first is kept as the picture; the next typed
    question has that picture. An album whose first photo carries a question makes that
    question with it, and one answer names the album (issue 31, item 2)."""
    ada = Person(fake, 815, "Ada")
    await _collecting(ada)
    before = len(ada.bot_messages())
    fake.send_album(ada.user_id, 3)
    album_text = T("newquiz.album", count=3)
    answer = await fake.wait_for(
        lambda: next((m for m in ada.bot_messages()[before:] if m.get("text") == album_text), None)
    )
    assert len(ada.bot_messages()) == before + 1  # one answer for the album
    first_photo = next(m for m in fake.messages(ada.user_id) if m.get("photo"))
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and draft.picture == first_photo["photo"][-1]["file_id"]
    [added] = await ada.say("Which city?\nA) Sparta\nB) *Athens")
    assert T("newquiz.added_picture") in added["text"]

    before = len(ada.bot_messages())
    fake.send_album(ada.user_id, 2, caption="Which sea?\n*Aegean\nBaltic")
    await fake.wait_for(
        lambda: any(
            m.get("text") == T("newquiz.album", count=2) for m in ada.bot_messages()[before:]
        )
    )
    replies = ada.bot_messages()[before:]
    assert len(replies) == 2 and T("newquiz.added_picture") in replies[0]["text"]
    draft = await _creators(running_bot).draft(ada.user_id)
    assert draft is not None and draft.picture is None
    photos = [m for m in fake.messages(ada.user_id) if m.get("photo")]
    assert [q.picture for q in draft.questions] == [
        first_photo["photo"][-1]["file_id"],
        photos[-2]["photo"][-1]["file_id"],
    ]
    assert answer["message_id"] != replies[1]["message_id"]


async def test_cancel_drops_the_draft_and_another_bots_cancel_does_not(fake, running_bot):
    """/cancel (and /cancel@<this bot>) drops the open draft; /cancel@<another bot> is not
    this bot's command: the hint, and the draft stays."""
    ada = Person(fake, 803, "Ada")
    await _collecting(ada)
    [hint] = await ada.say("/cancel@some_other_bot")
    assert hint["text"] == T("unknown_text")
    assert await _creators(running_bot).draft(ada.user_id) is not None
    [done] = await ada.say(f"/cancel@{fake.bot_username}")
    assert done["text"] == T("newquiz.cancelled")
    assert await _creators(running_bot).draft(ada.user_id) is None
    [none] = await ada.say("/cancel")
    assert none["text"] == T("newquiz.no_draft")
