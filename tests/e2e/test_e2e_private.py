"""End to end: the real PTB Application against the fake Bot API server, in private chats."""

from __future__ import annotations

import logging
import sqlite3
import unicodedata

import pytest

from bot import i18n
from bot.bankload import load_banks
from bot.i18n import bidi
from tests.support.bankedit import NEW_OPTION, copy_bank, edit_bank, replace_correct_option
from tests.support.banks import BANK_ID
from tests.support.botrun import MODES, RunningBot
from tests.support.person import Person
from tests.support.screens import buttons, correct_label, shown_options, wrong_label


@pytest.mark.parametrize("running_bot", MODES, indirect=True)
@pytest.mark.parametrize(
    ("language_code", "language"),
    [("en", "en"), ("hi", "hi"), ("el-GR", "el"), ("de", "en"), (None, "en")],
)
async def test_full_quiz_in_each_language(fake, running_bot, banks, language_code, language):
    """A user plays the whole bank with right and wrong answers, all in their language."""
    await full_quiz(fake, running_bot, banks, language_code, language)


NEW_LANGUAGE_CODES = [
    (code, language)
    for code, language in (
        ("ru-RU", "ru"),
        ("uk", "uk"),
        ("es-419", "es"),
        ("pt-br", "pt"),
        ("pt-PT", "pt"),
        ("id", "id"),
        ("tr", "tr"),
        ("uz", "uz"),
        ("fa-IR", "fa"),
        ("ar-EG", "ar"),
    )
    if language in i18n.SUPPORTED
]
"""Telegram language codes of the languages added after English, Hindi and Greek, and the
catalog each gets (Brazilian Portuguese for any Portuguese: CLDR's pt is Brazil's)."""


@pytest.mark.parametrize("running_bot", ["webhook"], indirect=True)
@pytest.mark.parametrize(("language_code", "language"), NEW_LANGUAGE_CODES)
async def test_full_quiz_in_each_new_language(fake, running_bot, banks, language_code, language):
    """The same game in each language added since: the bank's text, the explanations and the
    bot's words in the player's language, no English message left; right-to-left screens
    (Persian, Arabic) laid out right to left on every line."""
    await full_quiz(fake, running_bot, banks, language_code, language)


def right_to_left_lines(text: str) -> bool:
    """Whether each non-empty line of a message starts (first strong character, a mark
    included) right to left, as Telegram's apps lay a line out."""
    for line in text.split("\n"):
        kinds = [unicodedata.bidirectional(c) for c in line]
        first = next((k for k in kinds if k in ("L", "R", "AL")), None)
        if first == "L":
            return False
    return True


async def full_quiz(fake, running_bot, banks, language_code, language) -> None:
    """Play the whole bank in ``language`` (Telegram's ``language_code``), wrong on questions
    3 and 6; check each screen, the stored answers, a review card and /stats."""
    bank = banks[BANK_ID]
    english = i18n.catalog("en")
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
        assert q.prompt.by_language[lang] in bidi.CONTROLS.sub("", question["text"])
        assert t("question_header", number=number, total=8) in question["text"]
        assert [b["text"] for b in buttons(question)] == ["A", "B", "C", "D"]
        right = number % 3 != 0  # wrong on questions 3 and 6
        label = (correct_label if right else wrong_label)(question, bank, language)
        feedback = await person.answer(label)
        expected_score += right
        assert feedback["message_id"] == question["message_id"]  # edited in place
        verdict = (
            t("feedback_correct")
            if right
            else t("feedback_wrong", label=correct_label(question, bank, language))
        )
        assert verdict in feedback["text"]
        # right to left, formulas ("15.1 PFLOP/s") are isolated: the text as drawn
        assert q.explanation.by_language[lang] in bidi.CONTROLS.sub("", feedback["text"])
        assert q.source.title in bidi.CONTROLS.sub("", feedback["text"])
        if language != "en":  # no English message left on the screens
            assert english("question_header", number=number, total=8) not in question["text"]
            assert english("feedback_correct") not in feedback["text"]
        if t.right_to_left:
            assert right_to_left_lines(question["text"]) and right_to_left_lines(feedback["text"])
        following = await person.next(feedback)

    result = following
    assert t("result_score", score=expected_score, total=8) in result["text"]
    listed = bidi.CONTROLS.sub("", result["text"])
    assert bank.questions[2].prompt.by_language[lang] in listed  # missed ones listed
    assert bank.questions[5].prompt.by_language[lang] in listed
    assert [b["text"] for b in buttons(result)] == [t("button_retake"), t("button_review")]

    db = sqlite3.connect(running_bot.db)
    rows = db.execute("SELECT question_id, correct FROM answers").fetchall()
    assert len(rows) == 8 and sum(c for _, c in rows) == expected_score
    assert db.execute("SELECT status FROM attempts").fetchall() == [("finished",)]

    review = next(b for b in buttons(result) if b["text"] == t("button_review"))
    before = len(person.bot_messages())
    await person.tap(result, review["callback_data"])
    await fake.wait_for(lambda: len(person.bot_messages()) > before)
    text = person.bot_messages()[-1]["text"]  # the first review card: the first one missed
    assert t("review_due", count=2) in text and bank.questions[2].prompt.by_language[lang] in text
    assert all(b["callback_data"].startswith("c:") for b in buttons(person.bot_messages()[-1]))

    stats = (await person.say("/stats"))[0]["caption"]  # a chart, with the summary as caption
    assert t("stats_attempts", count=1) in stats
    assert t("stats_scores", best=expected_score, last=expected_score, total=8) in stats


async def _answered_first(person, bank, language="en"):
    """Start, answer question 1 correctly; return (question message, feedback)."""
    await person.say("/start", replies=2)
    question = person.question_message()
    feedback = await person.answer(correct_label(question, bank, language))
    return question, feedback


def _answer_count(db_path) -> int:
    with sqlite3.connect(db_path) as db:
        return db.execute("SELECT COUNT(*) FROM answers").fetchone()[0]


@pytest.mark.parametrize("running_bot", MODES, indirect=True)
async def test_resume_after_restart_same_question_same_order(fake, running_bot, banks):
    """After a restart, /start resumes at the same question with the same option order."""
    bank = banks[BANK_ID]
    person = Person(fake, 502, "Grace", "el")
    await person.say("/start", replies=2)
    for _ in range(3):
        feedback = await person.answer(correct_label(person.question_message(), bank, "el"))
        await person.next(feedback)
    shown = person.question_message()

    await running_bot.restart()
    resume, again = await person.say("/start", replies=2)
    assert resume["text"] == i18n.catalog("el")("resume", number=4, total=8)
    assert again["text"] == shown["text"]  # same question, same shuffled option order
    assert buttons(again) == buttons(shown)
    feedback = await person.answer(correct_label(again, bank, "el"))
    assert i18n.catalog("el")("feedback_correct") in feedback["text"]
    assert _answer_count(running_bot.db) == 4


async def test_restart_after_an_answer_resumes_at_the_next_question(fake, running_bot, banks):
    """An answer moves the attempt on: after a restart, /start asks the next question, and the
    answered one cannot be answered again."""
    t = i18n.catalog("hi")
    person = Person(fake, 503, "Linus", "hi")
    question, _feedback = await _answered_first(person, banks[BANK_ID], "hi")
    await running_bot.restart()
    resume, shown = await person.say("/start", replies=2)
    assert resume["text"] == t("resume", number=2, total=8)
    assert t("question_header", number=2, total=8) in shown["text"]
    query = await person.tap(question, buttons(question)[1]["callback_data"], check_button=False)
    assert fake.callback_answers[query]["text"] == t("toast_answered")
    assert _answer_count(running_bot.db) == 1


async def test_deep_link_starts_the_bank_and_unknown_payload_changes_nothing(
    fake, running_bot, banks
):
    """/start <bank> starts that bank; an unknown payload gets the list and starts nothing."""
    person = Person(fake, 504, "Edsger")
    [reply] = await person.say("/start no-such-quiz")
    assert i18n.catalog("en")("unknown_bank", name="no-such-quiz") in reply["text"]
    assert [b["callback_data"] for b in buttons(reply)] == [f"b:{BANK_ID}"]
    with sqlite3.connect(running_bot.db) as db:
        assert db.execute("SELECT COUNT(*) FROM attempts").fetchone()[0] == 0
    _greeting, question = await person.say(f"/start {BANK_ID}", replies=2)
    assert banks[BANK_ID].questions[0].prompt.by_language["en"] in question["text"]


@pytest.mark.parametrize("running_bot", MODES, indirect=True)
async def test_double_tap_and_stale_buttons_are_answered_and_change_nothing(
    fake, running_bot, banks
):
    """A second tap on an answered question, and taps on an earlier question, only get a toast."""
    bank = banks[BANK_ID]
    t = i18n.catalog("en")
    person = Person(fake, 505, "Barbara")
    question, feedback = await _answered_first(person, bank)
    original = [b["callback_data"] for b in buttons(question)]

    # the double tap: the first tap's button, delivered again (Telegram may deliver both);
    # the message shows the recorded feedback already, so it is not edited again
    edits = len(fake.calls_to("editMessageText"))
    query = await person.tap(feedback, original[0], check_button=False)
    assert fake.callback_answers[query]["text"] == t("toast_answered")
    assert _answer_count(running_bot.db) == 1

    second = await person.next(feedback)
    query = await person.tap(question, original[1], check_button=False)  # question 1 again
    assert fake.callback_answers[query]["text"] == t("toast_answered")
    attempt_id = original[0].split(":")[1]
    query = await person.tap(question, f"a:{attempt_id}:5:0", check_button=False)  # ahead
    assert fake.callback_answers[query]["text"] == t("toast_stale")
    next_data = next(
        b["callback_data"] for b in buttons(feedback) if b["callback_data"].startswith("n:")
    )
    query = await person.tap(feedback, next_data, check_button=False)  # "next" twice
    assert fake.callback_answers[query]["text"] == t("toast_stale")
    assert fake.message(person.user_id, second["message_id"]) == second  # untouched
    assert len(person.bot_messages()) == 3  # intro, question 1, question 2: nothing new
    assert _answer_count(running_bot.db) == 1
    assert len(fake.calls_to("editMessageText")) == edits  # no edit refused "not modified"


async def test_the_feedback_marks_the_right_and_the_chosen_option_with_styles(
    fake, running_bot, banks
):
    """A wrong answer: the feedback keeps the options as buttons, the right one "✅" and green
    (style "success"), the choice "❌" and red ("danger"), the others plain, then "Next"; in the
    same one edit as before (the answer costs no extra call); a tap on a marked option only
    stops the spinner."""
    person = Person(fake, 522, "Nora")
    _greeting, question = await person.say("/start", replies=2)
    bank = banks[BANK_ID]
    right, wrong = correct_label(question, bank, "en"), wrong_label(question, bank, "en")
    before = len(fake.calls)
    feedback = await person.answer(wrong)
    assert [c.method for c in fake.calls[before:] if c.method != "getUpdates"] == [
        "answerCallbackQuery",
        "editMessageText",
    ]
    *options, (next_button,) = feedback["reply_markup"]["inline_keyboard"]
    shown = [button for row in options for button in row]
    assert [(b["text"], b.get("style")) for b in shown] == [
        (f"✅ {label}", "success")
        if label == right
        else (f"❌ {label}", "danger")
        if label == wrong
        else (label, None)
        for label in "ABCD"
    ]
    assert {b["callback_data"] for b in shown} == {"x"}
    assert next_button["callback_data"].startswith("n:")
    assert f"✅ {right}. " in feedback["text"] and f"❌ {wrong}. " in feedback["text"]
    query = await person.tap(feedback, "x")
    assert not fake.callback_answers[query].get("text")
    assert fake.message(person.user_id, feedback["message_id"]) == feedback


async def test_a_lost_feedback_edit_is_made_good_by_the_next_tap(fake, running_bot, banks, caplog):
    """The feedback edit is refused "message to edit not found" (skipped, logged at INFO): the
    answer is recorded; a second tap on the question, which still shows its options, shows the
    recorded feedback."""
    caplog.set_level(logging.INFO)
    person = Person(fake, 521, "Mary")
    _greeting, question = await person.say("/start", replies=2)
    label = correct_label(question, banks[BANK_ID], "en")
    data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
    fake.fail_next(
        "editMessageText", error_code=400, description="Bad Request: message to edit not found"
    )
    before = len(fake.calls)
    await person.tap(question, data)
    await fake.wait_for_call("editMessageText", after=before)
    assert fake.message(person.user_id, question["message_id"]) == question  # not edited
    feedback = await person.answer(label)
    assert i18n.catalog("en")("feedback_correct") in feedback["text"]
    assert _answer_count(running_bot.db) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_user_who_blocks_the_bot_right_after_tapping(fake, running_bot, banks, caplog):
    """The feedback edit is answered 403 "bot was blocked by the user": the answer stays
    recorded, the outcome is logged at INFO (no error, no traceback), and the callback query
    is answered exactly once."""
    caplog.set_level(logging.INFO)
    person = Person(fake, 522, "Ida")
    _greeting, question = await person.say("/start", replies=2)
    label = correct_label(question, banks[BANK_ID], "en")
    data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
    fake.fail_next(
        "editMessageText", error_code=403, description="Forbidden: bot was blocked by the user"
    )
    before = len(fake.calls)
    query = await person.tap(question, data)
    blocked = await fake.wait_for_call("editMessageText", after=before)
    assert blocked.status == 403
    await person.say("/help")  # handled after the tap's update, error handler included
    assert _answer_count(running_bot.db) == 1
    answers = [c for c in fake.calls[before:] if c.method == "answerCallbackQuery"]
    assert [(c.params["callback_query_id"], c.status) for c in answers] == [(query, 200)]
    told = [r for r in caplog.records if "blocked by the user" in r.getMessage()]
    assert [r.levelno for r in told] == [logging.INFO]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]


@pytest.mark.parametrize(
    "data",
    [
        "garbage",
        "a:1",
        "a:1:0:12",
        "a:-1:0:0",
        "a:01:0:0",
        "a:1:0:0:0",
        "x" * 64,
        "l:xx",
        "r:Nope",
        "b:no-such-bank",
        "v:424242",
        "a:424242:0:0",
        "n:424242:0",
    ],
)
async def test_forged_or_garbage_callback_data(fake, running_bot, banks, data):
    """Callback data the bot never made is answered politely; nothing is stored or sent."""
    person = Person(fake, 506, "Mallory")
    question, _ = await _answered_first(person, banks[BANK_ID])
    calls_before = {m: len(fake.calls_to(m)) for m in ("sendMessage", "editMessageText")}
    query = await person.tap(question, data, check_button=False)
    assert fake.callback_answers[query]["text"] == i18n.catalog("en")("toast_invalid")
    assert {m: len(fake.calls_to(m)) for m in calls_before} == calls_before
    assert _answer_count(running_bot.db) == 1


async def test_another_users_button_is_refused(fake, running_bot, banks):
    """A button of someone else's attempt (e.g. in a forwarded message) changes nothing."""
    owner = Person(fake, 507, "Alice")
    await owner.say("/start", replies=2)
    question = owner.question_message()
    intruder = Person(fake, 508, "Eve", "el")
    data = buttons(question)[0]["callback_data"]
    update = fake.tap(intruder.user_id, owner.user_id, question["message_id"], data)
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    assert fake.callback_answers[query_id]["text"] == i18n.catalog("el")("toast_invalid")
    assert _answer_count(running_bot.db) == 0
    assert fake.message(owner.user_id, question["message_id"]) == question


async def test_buttons_of_a_stopped_attempt(fake, running_bot, banks):
    """/stop abandons the attempt; its buttons then say the quiz is over."""
    t = i18n.catalog("en")
    person = Person(fake, 509, "Ken")
    await person.say("/start", replies=2)
    question = person.question_message()
    [reply] = await person.say("/stop")
    assert reply["text"] == t("stop_done")
    query = await person.tap(question, buttons(question)[0]["callback_data"])
    assert fake.callback_answers[query]["text"] == t("toast_closed")
    [reply] = await person.say("/stop")
    assert reply["text"] == t("stop_none")
    assert _answer_count(running_bot.db) == 0


async def test_buttons_of_an_older_bank_version(fake, running_bot, banks, tmp_path):
    """After the bank's version is bumped, old buttons are stale and /start begins afresh."""
    person = Person(fake, 510, "Dennis")
    await person.say("/start", replies=2)
    question = person.question_message()
    newer = tmp_path / "banks"
    newer.mkdir()
    text = banks[BANK_ID].path.read_text(encoding="utf-8")
    version = banks[BANK_ID].version
    (newer / "bank.yaml").write_text(
        text.replace(f"version: {version}\n", f"version: {version + 1}\n", 1), "utf-8"
    )
    running_bot.bank_paths = (newer,)
    await running_bot.restart()
    query = await person.tap(question, buttons(question)[0]["callback_data"])
    assert fake.callback_answers[query]["text"] == i18n.catalog("en")("toast_bank_changed")
    assert _answer_count(running_bot.db) == 0
    _intro, fresh = await person.say("/start", replies=2)
    assert i18n.catalog("en")("question_header", number=1, total=8) in fresh["text"]
    with sqlite3.connect(running_bot.db) as db:
        assert db.execute(
            "SELECT bank_version, status FROM attempts ORDER BY attempt_id"
        ).fetchall() == [(version, "abandoned"), (version + 1, "active")]


async def test_updates_the_bot_does_not_handle(fake, running_bot):
    """Edited messages and channel posts are ignored; stickers and text get a hint."""
    t = i18n.catalog("hi")
    person = Person(fake, 511, "Ravi", "hi")
    [hint] = await person.say("hello there")
    assert hint["text"] == t("unknown_text")
    [hint] = await person.say("/frobnicate")
    assert hint["text"] == t("unknown_text")
    before = len(person.bot_messages())
    fake.send_sticker(person.user_id)
    await fake.wait_for(lambda: len(person.bot_messages()) == before + 1)
    first_text = next(m for m in person.chat if m.get("text") == "hello there")
    fake.edit_user_message(person.user_id, first_text["message_id"], "/quiz")
    fake.add_group(-1001, "News", type="channel")
    fake.post_channel(-1001, "/start")
    await fake.wait_for(lambda: fake.pending_updates() == 0)
    [reply] = await person.say("/help")  # still responsive, and nothing else was sent
    assert reply["text"] == t("help") + "\n\n" + t("help_creators")
    assert len(person.bot_messages()) == before + 2
    assert fake.messages(-1001)[-1].get("from", {}).get("id") != fake.bot_id


async def test_telegram_errors_are_survived(fake, running_bot, banks):
    """ "not modified", "query is too old" and 429 retry_after are handled; nothing is lost."""
    bank = banks[BANK_ID]
    person = Person(fake, 512, "Margaret")
    fake.fail_next(
        "sendMessage", error_code=429, description="Too Many Requests: retry after 1", retry_after=1
    )
    _greeting, question = await person.say("/start", replies=2)  # delivered after the retry
    assert len([c for c in fake.calls_to("sendMessage") if c.status == 429]) == 1

    fake.fail_next(
        "answerCallbackQuery",
        error_code=400,
        description="Bad Request: query is too old and response timeout expired "
        "or query ID is invalid",
    )
    label = correct_label(question, bank, "en")
    data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
    fake.tap(person.user_id, person.user_id, question["message_id"], data)
    feedback = await fake.wait_for(
        lambda: (lambda m: m if "n:" in str(m.get("reply_markup")) else None)(
            fake.message(person.user_id, question["message_id"])
        )
    )
    assert _answer_count(running_bot.db) == 1  # recorded and shown despite the old query

    second = await person.next(feedback)
    # the feedback edit goes through but its answer is lost: the retried edit is answered
    # "message is not modified", which is success
    fake.drop_next("editMessageText", after_carrying_out=True)
    feedback = await person.answer(correct_label(second, bank, "en"))
    assert _answer_count(running_bot.db) == 2
    edits = await fake.wait_for(
        lambda: (lambda e: e if len(e) == 2 else None)(
            [
                c
                for c in fake.calls_to("editMessageText")
                if c.params.get("message_id") == second["message_id"]
            ]
        )
    )
    assert [c.status for c in edits] == [0, 400]
    assert "not modified" in edits[1].response["description"]
    # a send that may have reached Telegram is not tried again (the question could be posted
    # twice, with live buttons): after a dropped connection, and after a 502, the user's next
    # tap on "next" sends it
    next_data = next(
        b["callback_data"] for b in buttons(feedback) if b["callback_data"].startswith("n:")
    )
    fake.drop_next("sendMessage", after_carrying_out=False)
    before = len(fake.calls)
    await person.tap(feedback, next_data)
    await fake.wait_for_call("sendMessage", after=before)
    fake.fail_next("sendMessage", error_code=502, description="Bad Gateway")
    before = len(fake.calls)
    await person.tap(feedback, next_data)
    await fake.wait_for_call("sendMessage", after=before)
    third = await person.next(feedback)
    assert "3/8" in third["text"]
    assert [c.status for c in fake.calls_to("sendMessage")[-3:]] == [0, 502, 200]
    # an edit is tried again after a 502 and a dropped connection, until it gets through
    fake.fail_next("editMessageText", error_code=502, description="Bad Gateway")
    fake.drop_next("editMessageText", after_carrying_out=False)
    await person.answer(correct_label(third, bank, "en"))
    edits = [
        c.status
        for c in fake.calls_to("editMessageText")
        if c.params.get("message_id") == third["message_id"]
    ]
    assert edits == [0, 502, 200]
    assert _answer_count(running_bot.db) == 3
    assert running_bot._task is not None and not running_bot._task.done()


async def test_language_choice_wins_over_telegram_language(fake, running_bot):
    """/language offers the languages in their own script; the choice is stored and used."""
    person = Person(fake, 513, "Nikos", "en-US")
    [picker] = await person.say("/language")
    names = [b["text"] for b in buttons(picker)]
    assert names[:3] == ["✓ English", "हिन्दी", "Ελληνικά"] and len(names) == len(i18n.SUPPORTED)
    assert "Русский" in names and "العربية" in names and "فارسی" in names
    greek = next(b for b in buttons(picker) if b["text"] == "Ελληνικά")
    await person.tap(picker, greek["callback_data"])
    await fake.wait_for(
        lambda: (
            fake.message(person.user_id, picker["message_id"])["text"]
            == i18n.catalog("el")("language_set")
        )
    )
    [reply] = await person.say("/help")
    el = i18n.catalog("el")
    assert reply["text"] == el("help") + "\n\n" + el("help_creators")
    # the creators' commands, in Greek
    assert "/newquiz: φτιάξε ένα κουίζ" in reply["text"]
    assert "/myquizzes: τα κουίζ σου" in reply["text"]
    await running_bot.restart()
    [reply] = await person.say("/stop")
    assert reply["text"] == i18n.catalog("el")("stop_none")


async def test_preview_help_and_commands_menu(fake, running_bot, banks):
    """/preview lists the questions without answers; setMyCommands is set per language."""
    bank = banks[BANK_ID]
    person = Person(fake, 514, "Sophie", "hi")
    [preview] = await person.say("/preview")
    for q in bank.questions:
        assert q.prompt.by_language["hi"] in preview["text"]
        assert q.options[q.correct_index].text.by_language["hi"] not in preview["text"]
    assert i18n.catalog("hi")("level.hard") in preview["text"]
    assert [b.get("url") for b in buttons(preview)] == [bank.guide.url]
    for language in ("hi", "el", "en", ""):
        commands = fake.commands[("all_private_chats", language)]
        t = i18n.catalog(language or "en")
        assert [(c["command"], c["description"]) for c in commands] == [
            (name, t(f"command_{name}"))
            for name in (
                "start",
                "quiz",
                "review",
                "stats",
                "remind",
                "preview",
                "newquiz",
                "myquizzes",
                "template",
                "daily",
                "language",
                "settings",
                "stop",
                "help",
            )
        ]


async def test_retake_starts_a_new_attempt(fake, running_bot, banks):
    """Retake from the result starts again at question 1; /quiz restarts mid-way too."""
    bank = banks[BANK_ID]
    person = Person(fake, 515, "Tim")
    await person.say("/start", replies=2)
    for _ in range(8):
        feedback = await person.answer(correct_label(person.question_message(), bank, "en"))
        result = await person.next(feedback)
    assert i18n.catalog("en")("result_perfect") in result["text"]
    assert [b["callback_data"] for b in buttons(result)] == [f"r:{BANK_ID}"]
    before = len(person.bot_messages())
    await person.tap(result, f"r:{BANK_ID}")
    await fake.wait_for(lambda: len(person.bot_messages()) >= before + 2)
    assert "1/8" in person.question_message()["text"]
    await person.answer("A")
    _intro, question = await person.say("/quiz", replies=2)
    assert "1/8" in question["text"]
    with sqlite3.connect(running_bot.db) as db:
        assert db.execute("SELECT status FROM attempts ORDER BY attempt_id").fetchall() == [
            ("finished",),
            ("abandoned",),
            ("active",),
        ]


SPECIAL = """\
id: special
version: 1
default_language: en
languages: [en]
level: easy
title: {en: "Bits & <bytes> *bold*"}
description: {en: "Is 2 < 3 && 5 > 4? *Yes*."}
questions:
  - id: q1
    prompt: {en: "Which is <b>true</b> & right?"}
    options:
      - text: {en: "a < b & c > d"}
        correct: true
      - text: {en: "*not* this"}
      - text: {en: "_nor_ `this`"}
      - text: {en: "&amp; or &lt;"}
    explanation: {en: "Because <i> & </i> are just text here; *stars* too."}
    source: {title: "A <source> & co", url: "https://example.org/?a=1&b=2"}
"""


async def test_text_with_html_special_characters_displays_verbatim(fake, tmp_path):
    """<, & and * in a bank reach the user exactly as written (Telegram HTML escaping)."""
    folder = tmp_path / "banks"
    folder.mkdir()
    (folder / "special.yaml").write_text(SPECIAL, encoding="utf-8")
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3", (folder,)).start()
    try:
        person = Person(fake, 520, "Q")
        intro, question = await person.say("/start", replies=2)
        assert "Bits & <bytes> *bold*" in intro["text"]
        assert "Is 2 < 3 && 5 > 4? *Yes*." in intro["text"]
        assert "Which is <b>true</b> & right?" in question["text"]
        assert set(shown_options(question).values()) == {
            "a < b & c > d",
            "*not* this",
            "_nor_ `this`",
            "&amp; or &lt;",
        }
        label = next(k for k, v in shown_options(question).items() if v == "a < b & c > d")
        feedback = await person.answer(label)
        assert "Because <i> & </i> are just text here; *stars* too." in feedback["text"]
        assert "A <source> & co" in feedback["text"]
        link = next(e for e in feedback["entities"] if e["type"] == "text_link")
        assert link["url"] == "https://example.org/?a=1&b=2"
    finally:
        await runner.stop()


async def test_review_of_a_running_attempt_reveals_nothing(fake, running_bot, banks):
    """A forged "review" button for one's own running attempt is refused: no answers shown."""
    person = Person(fake, 521, "Peeker")
    question, _ = await _answered_first(person, banks[BANK_ID])
    attempt_id = buttons(question)[0]["callback_data"].split(":")[1]
    before = len(person.bot_messages())
    query = await person.tap(question, f"v:{attempt_id}", check_button=False)
    assert fake.callback_answers[query]["text"] == i18n.catalog("en")("toast_invalid")
    assert len(person.bot_messages()) == before


async def test_a_very_long_payload_is_answered(fake, running_bot):
    """/start with a 4,000-character payload gets the usual reply, the payload cut short."""
    person = Person(fake, 522, "Longwinded")
    [reply] = await person.say("/start " + "x" * 4000)
    assert "x" * 63 + "…" in reply["text"] and "x" * 65 not in reply["text"]
    assert [b["callback_data"] for b in buttons(reply)] == [f"b:{BANK_ID}"]


async def test_next_after_a_bank_edit_without_a_version_bump(fake, tmp_path, caplog):
    """Mid-attempt, the bot restarts with question 2 edited in its bank file (a new correct
    option, same version): "Next" shows question 2 as it is now with the notice, and answering
    it is graded against the new content; the edit is logged once."""
    path = copy_bank(tmp_path / "banks")
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3", (path,)).start()
    try:
        t = i18n.catalog("el")
        person = Person(fake, 530, "Eleni", "el")
        await person.say("/start", replies=2)
        first = person.question_message()
        old_bank = load_banks([path])[BANK_ID]
        feedback = await person.answer(correct_label(first, old_bank, "el"))

        edit_bank(path, replace_correct_option(1))
        bank = load_banks([path])[BANK_ID]
        caplog.set_level(logging.WARNING, logger="bot.features.private.service")
        await runner.restart()
        question = await person.next(feedback)
        assert question["text"].startswith(t("question_updated"))
        assert t("question_header", number=2, total=8) in question["text"]
        assert NEW_OPTION["el"] in shown_options(question).values()
        gone = old_bank.questions[1].options[0].text.by_language["el"]
        assert gone not in question["text"]
        label = correct_label(question, bank, "el")
        assert shown_options(question)[label] == NEW_OPTION["el"]

        feedback = await person.answer(label)
        assert t("feedback_correct") in feedback["text"]
        with sqlite3.connect(runner.db) as db:
            assert db.execute(
                "SELECT option_index, correct FROM answers WHERE question_id = ?",
                (bank.questions[1].id,),
            ).fetchall() == [(0, 1)]
        third = await person.next(feedback)
        assert t("question_updated") not in third["text"]
        assert t("question_header", number=3, total=8) in third["text"]
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1 and bank.questions[1].id in warnings[0]
    finally:
        await runner.stop()


async def test_a_tap_on_a_question_edited_since_it_was_shown(fake, tmp_path):
    """The question on screen is edited and the bot restarted: a tap on its old buttons records
    nothing and brings the question as it is now, with the notice; that one can be answered."""
    path = copy_bank(tmp_path / "banks")
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3", (path,)).start()
    try:
        t = i18n.catalog("hi")
        person = Person(fake, 531, "Anil", "hi")
        await person.say("/start", replies=2)
        old = person.question_message()
        edit_bank(path, replace_correct_option(0))
        bank = load_banks([path])[BANK_ID]
        await runner.restart()
        before = len(person.bot_messages())
        await person.tap(old, buttons(old)[0]["callback_data"])
        await fake.wait_for(lambda: len(person.bot_messages()) > before)
        fresh = person.bot_messages()[-1]
        assert fresh["text"].startswith(t("question_updated"))
        assert NEW_OPTION["hi"] in fresh["text"]
        assert _answer_count(runner.db) == 0
        feedback = await person.answer(correct_label(fresh, bank, "hi"))
        assert t("feedback_correct") in feedback["text"]
        assert _answer_count(runner.db) == 1
    finally:
        await runner.stop()
