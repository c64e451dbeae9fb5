"""End to end: screens longer than one Telegram message, through the fake Bot API server.

The fake server refuses a text over 4,096 UTF-16 units after entity parsing ("message is too
long") and a toast over 200 units, as Telegram does: every message below arriving is proof
that it fitted.
"""

from __future__ import annotations

import re

import pytest

from bot import i18n
from bot.bankload import load_bank
from bot.features.groups import screens as groups_screens
from bot.features.private import screens as private_screens
from bot.kernel.bank import Bank
from bot.render import limits as render_limits
from bot.render.text import HTML
from tests.support import bankgen
from tests.support.botrun import RunningBot
from tests.support.fakebotapi import FakeBotAPI, utf16_len
from tests.support.person import Person
from tests.support.screens import buttons, wrong_label

GROUP = -1009876543210


@pytest.fixture
def long_bank_path(tmp_path):
    """A generated bank of 100 long questions (en, hi, el) full of <, & and "."""
    return bankgen.write_bank(tmp_path, languages=("en", "hi", "el"))


@pytest.fixture
def long_bank(long_bank_path) -> Bank:
    """The generated bank, loaded."""
    return load_bank(long_bank_path)


@pytest.fixture
async def long_bot(fake, tmp_path, long_bank_path):
    """The bot with only the generated bank installed."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", bank_paths=(long_bank_path,))
    await runner.start()
    yield runner
    await runner.stop()


def failed_calls(fake: FakeBotAPI) -> list[str]:
    """The bot's calls the server refused (none may be "message is too long")."""
    return [f"{c.method}: {c.response.get('description')}" for c in fake.calls if not c.ok]


async def test_preview_of_100_long_questions_arrives_in_several_messages(fake, long_bot, long_bank):
    """/preview of the 100-question bank: several messages, all accepted, every prompt shown
    in order, the guide button under the last one."""
    person = Person(fake, 501, "Maya", "el")
    expected = private_screens.preview(long_bank, i18n.catalog("el"), HTML)
    assert len(expected) > 1
    replies = await person.say("/preview", replies=len(expected))
    assert failed_calls(fake) == []
    assert len(replies) == len(expected)
    for reply in replies:
        assert utf16_len(reply["text"]) <= 4096
    assert any(len(fake.raw_text(501, r["message_id"])) > 4096 for r in replies)  # markup
    text = "\n".join(reply["text"] for reply in replies)
    positions = [text.index(q.prompt.by_language["el"]) for q in long_bank.questions]
    assert positions == sorted(positions)
    assert [b.get("url") for b in buttons(replies[-1])] == ["https://example.org/guide"]
    assert all(not buttons(reply) for reply in replies[:-1])


async def test_final_score_and_review_of_100_missed_questions(fake, long_bot, long_bank):
    """Answering all 100 questions wrongly: the final score arrives as several messages with
    retake and review under the last; the review of 100 questions arrives too, all accepted."""
    person = Person(fake, 502, "Raj", "hi")
    t = i18n.catalog("hi")
    await person.say("/quiz", replies=2)  # the intro and the first question
    for number in range(1, 101):
        question = person.question_message()
        assert t("question_header", number=number, total=100) in question["text"]
        feedback = await person.answer(wrong_label(question, long_bank, "hi"))
        before = len(person.bot_messages())
        data = next(
            b["callback_data"] for b in buttons(feedback) if b["callback_data"].startswith("n:")
        )
        await person.tap(feedback, data)
        if number < 100:
            await fake.wait_for(lambda n=before: len(person.bot_messages()) > n)
    final = await fake.wait_for(
        lambda: (
            lambda m: (
                m if any(b.get("callback_data", "").startswith("v:") for b in buttons(m)) else None
            )
        )(person.bot_messages()[-1])
    )
    outcome = person.bot_messages()[before:]
    assert len(outcome) > 1 and outcome[-1] == final
    assert all(not buttons(message) for message in outcome[:-1])
    text = "\n".join(message["text"] for message in outcome)
    assert t("result_score", score=0, total=100) in text
    assert len(re.findall(r"^\d+\. \[\d{3}\]", text, re.MULTILINE)) == 100  # every one missed

    review = next(b["callback_data"] for b in buttons(final) if b["callback_data"][0] == "v")
    before = len(person.bot_messages())
    await person.tap(final, review)  # a review session of the 100 missed, one at a time
    await fake.wait_for(lambda: len(person.bot_messages()) > before)
    first = person.bot_messages()[-1]
    assert t("review_due_many") in first["text"]  # 100 left: "over 99"
    assert long_bank.questions[0].prompt.by_language["hi"] in first["text"]
    assert all(b["callback_data"].startswith("c:") for b in buttons(first))
    assert failed_calls(fake) == []


# --- a group of 300 -----------------------------------------------------------------------

PLAYERS = 300
FIRST_NAMES = [
    "<देवनागरी & " + "विश्वनाथ" * 6,
    'Ευάγγελος "<b>" ' + "Χριστοφόρος" * 4,
    "Sam & <i>" + "Alexander" * 6,
]
LAST_NAMES = ["प्रसादश्रीवास्तव" * 4, "Παπαδόπουλος" * 5, "Montgomery-Smith" * 4]
LANGUAGES = ["hi", "el", "en"]


@pytest.fixture
async def slow_group_bot(fake, tmp_path):
    """The bot with a question window long enough for 300 taps on one question."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=600.0)
    await runner.start()
    yield runner
    await runner.stop()


async def test_leaderboard_of_300_players_with_my_place(fake, slow_group_bot):
    """300 members with long names in three scripts answer the first question; the starter
    stops the quiz; the leaderboard is one accepted message listing 20 places and the rest
    counted, and "My place" tells players their own place (or that they did not play)."""
    ids = list(range(10_000, 10_000 + PLAYERS))
    for n, user_id in enumerate(ids):
        first = f"{n:03d} {FIRST_NAMES[n % 3]}"[:64]
        fake.add_user(
            user_id, first, last_name=LAST_NAMES[n % 3][:64], language_code=LANGUAGES[n % 3]
        )
    lurker = 20_000
    fake.add_user(lurker, "Lurker", language_code="el")
    fake.add_group(GROUP, "Big study group", admins=[ids[0]], members=[*ids[1:], lurker])

    fake.send_message(ids[2], "/quiz", chat_id=GROUP)  # an English speaker starts it
    question = await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.messages(GROUP)
                if any(b.get("callback_data", "").startswith("g:") for b in buttons(m))
            ),
            None,
        )
    )
    data = [b["callback_data"] for b in buttons(question)]
    taps = [
        fake.tap(user_id, GROUP, question["message_id"], data[n % len(data)])
        for n, user_id in enumerate(ids)
    ]
    query_ids = [tap["callback_query"]["id"] for tap in taps]
    await fake.wait_for(lambda: all(q in fake.callback_answers for q in query_ids), timeout=60)

    fake.send_message(ids[2], "/stop", chat_id=GROUP)
    board = await fake.wait_for(
        lambda: next(
            (
                m
                for m in fake.messages(GROUP)
                if any(b.get("callback_data", "").startswith("p:") for b in buttons(m))
            ),
            None,
        ),
        timeout=10,
    )
    assert failed_calls(fake) == []
    t = i18n.catalog("en")
    lines = board["text"].split("\n")
    ranked = [line for line in lines if " — " in line and "/8 " in line]
    assert len(ranked) == groups_screens.LEADERBOARD_PLACES
    assert lines[-1] == t("group_more_players", count=PLAYERS - groups_screens.LEADERBOARD_PLACES)
    assert "&lt;" in fake.raw_text(GROUP, board["message_id"])  # names escaped, shown verbatim
    [place_button] = buttons(board)
    assert place_button["text"] == t("button_my_place")

    # the player in 5th place taps "My place": the toast in their language matches the line
    # (speed scoring, the default: points, right answers, the longest streak)
    fifth = ranked[4]
    match = re.fullmatch(r"5\. (\d{3}) .* — ([\d,]+) pts · (\d)/8 right · 🔥 (\d)", fifth)
    assert match, fifth
    n = int(match[1])
    tapper = ids[n]
    t_tapper = i18n.catalog(LANGUAGES[n % 3])
    assert await my_place(fake, tapper, board, place_button["callback_data"]) == t_tapper(
        "group_your_place_points",
        rank=5,
        players=PLAYERS,
        count=int(match[2].replace(",", "")),
        points=t_tapper.decimal(int(match[2].replace(",", "")), 0),
        right=int(match[3]),
        total=8,
        streak=int(match[4]),
    )

    # one of the last to tap, far below the list, learns their place too (in Greek)
    last = ids[-2]
    assert LANGUAGES[(PLAYERS - 2) % 3] == "el"
    assert not any(line.split(" ")[1] == f"{PLAYERS - 2:03d}" for line in ranked)
    text = await my_place(fake, last, board, place_button["callback_data"])
    t_el = i18n.catalog("el")
    pattern = re.escape(t_el.messages["group_your_place_points"]["other"])  # 0 or 500 up
    for name in ("rank", "players", "points", "right", "total", "streak"):
        pattern = pattern.replace(re.escape("{" + name + "}"), r"([\d.,]+)")
    found = re.fullmatch(pattern, text)
    assert found, text
    assert groups_screens.LEADERBOARD_PLACES < int(found[1]) <= PLAYERS == int(found[2])
    assert utf16_len(text) <= render_limits.MAX_TOAST_UTF16
    # a member who did not play is told so, in their language
    assert await my_place(fake, lurker, board, place_button["callback_data"]) == t_el(
        "group_not_played"
    )


async def my_place(fake: FakeBotAPI, user_id: int, board: dict, data: str) -> str:
    """``user_id`` taps "My place" on the leaderboard; return the toast's text."""
    update = fake.tap(user_id, GROUP, board["message_id"], data)
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    return fake.callback_answers[query_id]["text"]
