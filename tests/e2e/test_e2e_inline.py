"""End to end through the fake Bot API: sharing a quiz in inline mode ("@<bot> text" lists the
banks, a chosen one posts a card whose deep links start it privately or in a group), the Share
buttons, and the bank a group chooses in /settings."""

from __future__ import annotations

import html
import logging
import sqlite3

import pytest

from bot import i18n
from bot.bankload import load_bank
from bot.config import BUNDLED_BANKS
from bot.kernel.bank import Bank
from tests.support import optionbanks
from tests.support.banks import BANK_ID
from tests.support.botrun import MODES, RunningBot
from tests.support.fakebotapi import FakeBotAPI
from tests.support.person import Person
from tests.support.screens import answer_buttons, buttons

GROUP = -1001234567890
ELENI, ARJUN, SAM = 701, 702, 703
EN, HI, EL = i18n.catalog("en"), i18n.catalog("hi"), i18n.catalog("el")
OTHER_ID = "options-3"  # the second bank: 2 questions of 3 options, in English and Greek


@pytest.fixture
def people(fake: FakeBotAPI) -> None:
    """Eleni (el, the group's admin), Arjun (hi) and Sam (en) in a supergroup; inline mode on."""
    fake.inline_mode = True
    fake.add_user(ELENI, "Eleni", language_code="el")
    fake.add_user(ARJUN, "Arjun", language_code="hi")
    fake.add_user(SAM, "Sam", language_code="en")
    fake.add_group(GROUP, "Class 7B", admins=[ELENI], members=[ARJUN, SAM])


@pytest.fixture
def other_bank(tmp_path) -> Bank:
    return load_bank(optionbanks.write_bank(tmp_path, 3, questions=2))


async def start_bot(request, fake, tmp_path, other_bank: Bank) -> RunningBot:
    return await RunningBot(
        fake,
        tmp_path / "quiz.sqlite3",
        question_seconds=30.0,
        bank_paths=(BUNDLED_BANKS, other_bank.path),
        mode=getattr(request, "param", "polling"),
    ).start()


@pytest.fixture
async def bot(request, fake, tmp_path, people, other_bank):
    """The bot with two banks installed (the bundled one and ``other_bank``)."""
    runner = await start_bot(request, fake, tmp_path, other_bank)
    yield runner
    await runner.stop()


async def ask(fake: FakeBotAPI, user_id: int, text: str, **kwargs) -> tuple[str, dict]:
    """A user types "@<bot> text"; the query id and the bot's answer (answerInlineQuery)."""
    query_id = fake.inline_query(user_id, text, **kwargs)["inline_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.inline_answers)
    return query_id, fake.inline_answers[query_id]


def bot_messages(fake: FakeBotAPI, chat_id: int) -> list[dict]:
    return [m for m in fake.messages(chat_id) if m.get("from", {}).get("id") == fake.bot_id]


async def said(fake: FakeBotAPI, chat_id: int, before: int) -> dict:
    """The bot's first message in a chat after the first ``before``."""
    await fake.wait_for(lambda: len(bot_messages(fake, chat_id)) > before)
    return bot_messages(fake, chat_id)[before]


def sessions(runner: RunningBot) -> list[tuple[str, int]]:
    """(bank, starter) of every group session in the bot's database, oldest first."""
    with sqlite3.connect(runner.db) as db:
        return db.execute(
            "SELECT bank_id, starter_id FROM group_sessions ORDER BY session_id"
        ).fetchall()


def running(runner: RunningBot) -> int:
    with sqlite3.connect(runner.db) as db:
        return db.execute(
            "SELECT count(*) FROM group_sessions WHERE status = 'running'"
        ).fetchone()[0]


def open_question(fake: FakeBotAPI, chat_id: int = GROUP) -> dict | None:
    for message in reversed(bot_messages(fake, chat_id)):
        if answer_buttons(message):
            return message
    return None


# --- the inline list ---------------------------------------------------------------------------


@pytest.mark.parametrize("bot", MODES, indirect=True)
async def test_the_banks_listed_in_each_users_language_and_filtered(fake, bot, banks, other_bank):
    """An empty query lists both banks, in the asker's language (Greek for Eleni, English for
    Sam), per user and cached a minute; text filters them; polling and webhook alike."""
    bundled = banks[BANK_ID]
    for user_id, t in ((ELENI, EL), (SAM, EN)):
        _, answer = await ask(fake, user_id, "", chat_type="supergroup")
        assert (answer["is_personal"], answer["cache_time"]) == (True, 60)
        assert [r["id"] for r in answer["results"]] == [BANK_ID, OTHER_ID]
        first, second = answer["results"]
        assert first["title"] == bundled.title.by_language[t.language]
        assert second["title"] == other_bank.title.by_language[t.language]
        assert first["description"].startswith(
            f"{t('level.hard')} · {t('question_count', count=8)} · "
        )
        assert t("question_count", count=2) in second["description"]
        assert (
            html.escape(bundled.description.by_language[t.language][:20])
            in (first["input_message_content"]["message_text"])
        )  # HTML: "ZeRO's" as "ZeRO&#x27;s"
        assert "button" not in answer
    _, answer = await ask(fake, ARJUN, "ट्रेनिंग स्टैक")  # Hindi words of the bundled title
    assert [r["id"] for r in answer["results"]] == [BANK_ID]
    assert answer["results"][0]["title"] == bundled.title.by_language["hi"]
    _, answer = await ask(fake, ELENI, "ΕΠΙΛΟΓΕΣ")  # the other bank's Greek title, any case
    assert [r["id"] for r in answer["results"]] == [OTHER_ID]
    _, answer = await ask(fake, SAM, OTHER_ID)  # a Share button's prefill: the bank id
    assert [r["id"] for r in answer["results"]] == [OTHER_ID]


async def test_long_and_odd_queries_get_a_list_or_a_hint(fake, bot, banks):
    """500 characters, right-to-left marks, emoji, combining marks and zero-width characters:
    each query is answered (no error), with the matching banks, or with none and a button
    that opens the private chat on the list of quizzes."""
    odd = {
        "x" * 500: [],
        "\u200fmega\u200btron\u200e 🚀": [BANK_ID],  # RTL/LTR marks, zero-width space, emoji
        "ΖΕΡΟ" + "\u0301" * 50: [],
        "ze\u0301ro\u0327": [BANK_ID],  # combining accents on a Latin word
        "🚀" * 100: [BANK_ID, OTHER_ID],  # nothing to filter by
        "\u2067\u05e9\u05dc\u05d5\u05dd\u2069": [],  # Hebrew in an RTL isolate
        "megatron " + "y" * 491: [],
    }
    for query, expected in odd.items():
        _, answer = await ask(fake, SAM, query, check_length=False)
        assert [r["id"] for r in answer["results"]] == expected, query
        if expected:
            assert "button" not in answer
        else:
            assert answer["button"] == {
                "text": EN("inline.no_match"),
                "start_parameter": "list_quizzes",
            }
    assert all(call.ok for call in fake.calls_to("answerInlineQuery"))
    sam = Person(fake, SAM, "Sam", "en")
    (choice,) = await sam.say("/start list_quizzes")  # the button's deep link
    assert choice["text"] == EN("choose_bank")
    assert [b["callback_data"] for b in buttons(choice)] == [f"b:{BANK_ID}", f"b:{OTHER_ID}"]


async def test_more_than_50_banks_come_in_pages(fake, tmp_path, people):
    """Telegram takes at most 50 results per answer: 60 banks come as a page of 50 with a
    next_offset, then the last 10."""
    folder = tmp_path / "banks"
    folder.mkdir()
    for number in range(60):
        optionbanks.write_bank(folder, 2, bank_id=f"quiz-{number:02d}", questions=1)
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3", bank_paths=(folder,)).start()
    try:
        _, first = await ask(fake, SAM, "")
        assert (len(first["results"]), first["next_offset"]) == (50, "50")
        _, second = await ask(fake, SAM, "", offset=first["next_offset"])
        assert [r["id"] for r in second["results"]] == [f"quiz-{n}" for n in range(50, 60)]
        assert second.get("next_offset", "") == ""  # no more pages (an absent one is "")
        ids = {r["id"] for r in first["results"] + second["results"]}
        assert ids == {f"quiz-{n:02d}" for n in range(60)}
    finally:
        await runner.stop()


# --- the card and its deep links ---------------------------------------------------------------


async def test_the_card_starts_the_quiz_privately_or_in_the_group(fake, bot, banks):
    """Chosen in a group, the card has "Start quiz" (t.me/<bot>?start=<bank>) and "Start in this
    group" (?startgroup=<bank>); the first starts the quiz in the private chat, the second a
    group session; the card itself is answered by nothing."""
    query_id, _ = await ask(fake, ELENI, "megatron", chat_type="supergroup")
    card = fake.choose_inline_result(ELENI, query_id, BANK_ID, chat_id=GROUP)
    assert card["via_bot"]["id"] == fake.bot_id
    assert banks[BANK_ID].title.by_language["el"] in card["text"]
    assert EL("inline.card_hint_group", bot=fake.bot_username) in card["text"]
    start, start_group = buttons(card)
    assert (start["text"], start["url"]) == (
        EL("inline.button_start"),
        f"https://t.me/{fake.bot_username}?start={BANK_ID}",
    )
    assert (start_group["text"], start_group["url"]) == (
        EL("inline.button_start_group"),
        f"https://t.me/{fake.bot_username}?startgroup={BANK_ID}",
    )
    # Sam opens the private link: the bank's intro, then its first question
    fake.follow_link(SAM, start["url"])
    intro = await said(fake, SAM, 0)
    assert banks[BANK_ID].title.by_language["en"] in intro["text"]
    question = await said(fake, SAM, 1)
    assert any(b["callback_data"].startswith("a:") for b in buttons(question))
    # Eleni (an admin) picks this group for the other link: the session starts here
    fake.follow_link(ELENI, start_group["url"], chat_id=GROUP)
    first = await fake.wait_for(lambda: open_question(fake))
    assert EL("group_announce", name="Eleni") in first["text"]
    assert sessions(bot) == [(BANK_ID, ELENI)]
    # the card in the group got no reply: the bot's messages there are the session's only
    assert [m["message_id"] for m in bot_messages(fake, GROUP)] == [first["message_id"]]


async def test_a_card_shared_in_the_private_chat_needs_no_answer(fake, bot):
    """Chosen in the bot's own chat ("sender"): a card without the group button, and no "I did
    not understand" hint for it."""
    sam = Person(fake, SAM, "Sam", "en")
    query_id, _ = await ask(fake, SAM, "", chat_type="sender")
    card = fake.choose_inline_result(SAM, query_id, OTHER_ID)
    assert [b["text"] for b in buttons(card)] == [EN("inline.button_start")]
    # Sam's updates are handled in order: the first reply after the card is the one to /help
    replies = await sam.say("/help")
    assert [m["text"] for m in replies] == [EN("help") + "\n\n" + EN("help_creators")]
    assert [m["text"] for m in (await sam.say("hello"))] == [EN("unknown_text")]


async def test_start_in_group_obeys_who_may_start(fake, bot):
    """In an admins-only group a member's "Start in this group" is refused politely and nothing
    starts; an unknown payload is answered with the banks; an admin's starts the session."""
    menu_before = len(bot_messages(fake, GROUP))
    fake.send_message(ELENI, "/settings", chat_id=GROUP)
    menu = await said(fake, GROUP, menu_before)
    data = next(
        b["callback_data"] for b in buttons(menu) if ":who:admins" in b.get("callback_data", "")
    )
    query_id = fake.tap(ELENI, GROUP, menu["message_id"], data)["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    link = f"https://t.me/{fake.bot_username}?startgroup={OTHER_ID}"
    before = len(bot_messages(fake, GROUP))
    fake.follow_link(SAM, link, chat_id=GROUP)
    assert (await said(fake, GROUP, before))["text"] == EN("group_start_denied")
    assert sessions(bot) == []
    before = len(bot_messages(fake, GROUP))
    fake.follow_link(
        ELENI, f"https://t.me/{fake.bot_username}?startgroup=no-such-quiz", chat_id=GROUP
    )
    assert (await said(fake, GROUP, before))["text"] == EN(
        "inline.group_unknown_bank", name="no-such-quiz", banks=f"{BANK_ID}, {OTHER_ID}"
    )
    assert sessions(bot) == []
    fake.follow_link(ELENI, link, chat_id=GROUP)
    first = await fake.wait_for(lambda: open_question(fake))
    assert "3 επιλογές" in first["text"]  # the bank's title in Eleni's language
    assert sessions(bot) == [(OTHER_ID, ELENI)]


async def test_start_in_a_group_the_bot_was_removed_from(fake, bot):
    """ "Start in this group" into a group without the bot adds it back, then starts."""
    fake.remove_bot(GROUP, by=ELENI)
    fake.follow_link(SAM, f"https://t.me/{fake.bot_username}?startgroup={BANK_ID}", chat_id=GROUP)
    await fake.wait_for(lambda: open_question(fake))
    assert sessions(bot) == [(BANK_ID, SAM)]


# --- Share buttons -----------------------------------------------------------------------------


def share_buttons(message: dict) -> list[dict]:
    return [b for b in buttons(message) if "switch_inline_query" in b]


async def test_share_buttons_on_the_end_screen_and_in_preview(fake, bot, other_bank):
    """The end screen of a private quiz and /preview carry a Share button prefilled with the
    bank id; the query it types lists that bank."""
    sam = Person(fake, SAM, "Sam", "en")
    previews = await sam.say(f"/preview {OTHER_ID}")
    assert share_buttons(previews[-1]) == [
        {"text": EN("inline.button_share"), "switch_inline_query": OTHER_ID}
    ]
    await sam.say(f"/quiz {OTHER_ID}", replies=2)
    for _ in other_bank.questions:
        feedback = await sam.answer("A")
        end = await sam.next(feedback)
    assert EN("result_title") in end["text"]
    assert share_buttons(end) == [
        {"text": EN("inline.button_share"), "switch_inline_query": OTHER_ID}
    ]
    _, answer = await ask(fake, SAM, share_buttons(end)[0]["switch_inline_query"])
    assert [r["id"] for r in answer["results"]] == [OTHER_ID]


async def test_no_share_buttons_while_inline_mode_is_off(
    fake, tmp_path, people, other_bank, caplog
):
    """A bot whose inline mode is off (BotFather's /setinline) says so in its log and shows no
    Share button: it would do nothing."""
    fake.inline_mode = False
    caplog.set_level(logging.INFO, logger="bot.app")
    runner = await RunningBot(
        fake, tmp_path / "quiz.sqlite3", bank_paths=(BUNDLED_BANKS, other_bank.path)
    ).start()
    try:
        assert "inline mode is off" in caplog.text and "/setinline" in caplog.text
        sam = Person(fake, SAM, "Sam", "en")
        previews = await sam.say(f"/preview {OTHER_ID}")
        assert buttons(previews[-1]) == [] and share_buttons(previews[-1]) == []
    finally:
        await runner.stop()


# --- the bank in a group's /settings -------------------------------------------------------------


async def settings_tap(fake: FakeBotAPI, menu: dict, field: str, value: str) -> dict:
    """Eleni taps the menu's button for ``field`` = ``value``; the menu as edited."""
    data = next(
        b["callback_data"]
        for b in buttons(menu)
        if b.get("callback_data", "").split(":")[2:] == [field, value]
    )
    query_id = fake.tap(ELENI, GROUP, menu["message_id"], data)["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    return await fake.wait_for(
        lambda: (lambda m: m if m != menu else None)(fake.message(GROUP, menu["message_id"]))
    )


async def test_the_group_bank_setting_with_two_banks(
    request, fake, tmp_path, people, other_bank, banks
):
    """With two banks the menu offers both; the choice is stored and the next /quiz without a
    bank starts it; once it is removed, /quiz names it and says how to choose (two banks
    left), or starts the only bank left saying so; with one bank the choice is hidden."""
    bot = await start_bot(request, fake, tmp_path, other_bank)
    try:
        fake.send_message(ELENI, "/settings", chat_id=GROUP)
        menu = await said(fake, GROUP, 0)
        bank_buttons = [b["text"] for b in buttons(menu) if ":bank:" in b["callback_data"]]
        assert bank_buttons == [
            banks[BANK_ID].title.by_language["en"],
            other_bank.title.by_language["en"],
        ]
        assert EN("settings_bank", value=EN("settings_bank_ask")) in menu["text"]
        menu = await settings_tap(fake, menu, "bank", OTHER_ID)
        assert f"✓ {other_bank.title.by_language['en']}" in [b["text"] for b in buttons(menu)]
        assert EN("settings_bank", value=other_bank.title.by_language["en"]) in menu["text"]
        fake.send_message(SAM, "/quiz", chat_id=GROUP)
        first = await fake.wait_for(lambda: open_question(fake))
        assert other_bank.title.by_language["en"] in first["text"]
        assert sessions(bot) == [(OTHER_ID, SAM)]
        fake.send_message(ELENI, "/stop", chat_id=GROUP)
        await fake.wait_for(lambda: running(bot) == 0)
        await bot.stop()
        # the chosen bank is removed; two others are installed: /quiz says so, starts nothing
        third = load_bank(optionbanks.write_bank(tmp_path, 4, questions=2))
        bot.bank_paths = (BUNDLED_BANKS, third.path)
        await bot.start()
        before = len(bot_messages(fake, GROUP))
        fake.send_message(SAM, "/quiz", chat_id=GROUP)
        assert (await said(fake, GROUP, before))["text"] == EN(
            "settings.bank_gone", name=OTHER_ID, banks=f"{BANK_ID}, options-4"
        )
        assert len(sessions(bot)) == 1
        fake.send_message(ELENI, "/settings", chat_id=GROUP)
        menu = await said(fake, GROUP, before + 1)
        assert EN("settings_bank", value=EN("settings_bank_missing")) in menu["text"]
        await bot.stop()
        # only the bundled bank is left: /quiz starts it, naming the bank that is gone
        bot.bank_paths = (BUNDLED_BANKS,)
        await bot.start()
        before = len(bot_messages(fake, GROUP))
        fake.send_message(SAM, "/quiz", chat_id=GROUP)
        assert (await said(fake, GROUP, before))["text"] == EN(
            "settings.bank_gone_started",
            name=OTHER_ID,
            title=banks[BANK_ID].title.by_language["en"],
        )
        second = await fake.wait_for(
            lambda: (lambda m: m if m and m["message_id"] != (first["message_id"]) else None)(
                open_question(fake)
            )
        )
        assert banks[BANK_ID].title.by_language["en"] in second["text"]
        assert sessions(bot)[-1] == (BANK_ID, SAM)
        before = len(bot_messages(fake, GROUP))
        fake.send_message(ELENI, "/settings", chat_id=GROUP)
        menu = await said(fake, GROUP, before)
        assert not [b for b in buttons(menu) if ":bank:" in b["callback_data"]]
    finally:
        await bot.stop()
