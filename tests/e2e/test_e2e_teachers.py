"""End to end through the fake Bot API: the clock on group questions within the group's budget,
per-group settings (/settings), results for teachers (/results) and a reveal's private link."""

from __future__ import annotations

import csv
import io
import re
import sqlite3

import pytest

from bot import i18n
from bot.features.groups import rules as group
from tests.support.botrun import RunningBot
from tests.support.fakebotapi import FakeBotAPI
from tests.support.screens import answer_buttons, buttons, correct_label

GROUP = -1001234567890
BASIC = -4242
ELENI, ARJUN, SAM = 701, 702, 703
EN, HI, EL = i18n.catalog("en"), i18n.catalog("hi"), i18n.catalog("el")


@pytest.fixture
def people(fake):
    """Eleni (el, admin), Arjun (hi) and Sam (en) in a supergroup and a basic group."""
    fake.add_user(ELENI, "Eleni", language_code="el")
    fake.add_user(ARJUN, "Arjun", language_code="hi")
    fake.add_user(SAM, "Sam", language_code="en")
    fake.add_group(GROUP, "Class 7B", admins=[ELENI], members=[ARJUN, SAM])
    fake.add_group(BASIC, "Old group", type="group", admins=[ELENI], members=[ARJUN, SAM])


async def start_bot(fake, tmp_path, seconds: float) -> RunningBot:
    return await RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=seconds).start()


@pytest.fixture
async def bot(fake, tmp_path, people):
    runner = await start_bot(fake, tmp_path, 1.5)
    yield runner
    await runner.stop()


def bot_messages(fake: FakeBotAPI, chat_id: int) -> list[dict]:
    return [m for m in fake.messages(chat_id) if m.get("from", {}).get("id") == fake.bot_id]


async def say(fake: FakeBotAPI, user_id: int, text: str, chat_id: int = GROUP) -> dict:
    """A member writes in a chat; the bot's next message there."""
    before = len(bot_messages(fake, chat_id))
    fake.send_message(user_id, text, chat_id=chat_id)
    await fake.wait_for(lambda: len(bot_messages(fake, chat_id)) > before)
    return bot_messages(fake, chat_id)[before]


async def tap(fake: FakeBotAPI, user_id: int, message: dict, data: str) -> str:
    """Tap callback ``data`` on ``message`` (forged data allowed); the toast's text."""
    update = fake.tap(
        user_id, message["chat"]["id"], message["message_id"], data, check_button=False
    )
    query_id = update["callback_query"]["id"]
    await fake.wait_for(lambda: query_id in fake.callback_answers)
    return fake.callback_answers[query_id].get("text", "")


def data_of(message: dict, label_part: str, field: str) -> str:
    """The callback data of the settings button of ``field`` whose label holds ``label_part``."""
    return next(
        b["callback_data"]
        for b in buttons(message)
        if f":{field}:" in b.get("callback_data", "") and label_part in b["text"]
    )


def settings_row(db, chat_id: int) -> tuple | None:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT who_starts, question_seconds, scoring, bank_id, question_count, version"
            " FROM group_settings WHERE chat_id = ?",
            (chat_id,),
        ).fetchone()


def open_question(fake: FakeBotAPI, chat_id: int = GROUP) -> dict | None:
    for message in reversed(bot_messages(fake, chat_id)):
        if answer_buttons(message):
            return message
    return None


async def next_question(fake: FakeBotAPI, after: int | None, chat_id: int = GROUP) -> dict:
    return await fake.wait_for(
        lambda: (lambda m: m if m and m["message_id"] != after else None)(
            open_question(fake, chat_id)
        ),
        timeout=15,
    )


async def test_settings_menu_for_admins_only_and_applied_to_the_next_session(fake, bot, banks):
    """A member gets a polite no; an admin's menu changes each setting; a member's tap, an old
    menu's tap and forged values change nothing; the next session follows the settings."""
    assert (await say(fake, ARJUN, "/settings"))["text"] == EN("settings_denied")
    menu = await say(fake, ELENI, "/settings")
    assert EN("settings_title") in menu["text"]
    assert EN("settings_seconds", count=2) in menu["text"]  # the bot's default, 1.5 s rounded
    # a member's tap on the admin's menu: told in their own language, nothing stored
    assert await tap(fake, ARJUN, menu, data_of(menu, EN("settings_who_admins"), "who")) == (
        HI("settings_denied")
    )
    assert settings_row(bot.db, GROUP) is None
    old = menu
    for field, label in (
        ("scoring", EN("settings_scoring_right")),
        ("count", "5"),
        ("seconds", EN("settings_seconds_button", count=5)),
        ("who", EN("settings_who_admins")),
    ):
        toast = await tap(fake, ELENI, menu, data_of(menu, label, field))
        assert toast == EL("settings_saved")
        menu = await fake.wait_for(
            lambda m=menu: (
                lambda new: new if new["text"] != m["text"] or buttons(new) != buttons(m) else None
            )(fake.message(GROUP, m["message_id"]))
        )
    assert settings_row(bot.db, GROUP)[:5] == ("admins", 5, "right", None, 5)
    assert "✓ 5" in [b["text"] for b in buttons(menu)]
    # the first menu's buttons are stale now; forged values are refused
    assert await tap(fake, ELENI, old, data_of(old, EN("settings_who_everyone"), "who")) == (
        EL("settings_stale")
    )
    version = settings_row(bot.db, GROUP)[5]
    for forged in (
        f"s:{version}:seconds:301",
        f"s:{version}:seconds:4",
        f"s:{version}:bank:removed-bank",
        f"s:{version}:who:nobody",
    ):
        assert await tap(fake, ELENI, menu, forged) == EL("settings_invalid")
    assert await tap(fake, ELENI, menu, "s:1:seconds:" + "9" * 40) == EL("toast_invalid")
    assert settings_row(bot.db, GROUP) == ("admins", 5, "right", None, 5, version)
    # the next session: admins only, 5 questions, 5 s, right answers
    assert (await say(fake, SAM, "/quiz"))["text"] == EN("group_start_denied")
    fake.send_message(ELENI, "/quiz", chat_id=GROUP)
    first = await next_question(fake, None)
    assert "1/5" in first["text"] and EL("group_clock", count=5) in first["text"]  # her language
    with sqlite3.connect(bot.db) as conn:
        assert conn.execute(
            "SELECT question_seconds, scoring, json_array_length(question_order)"
            " FROM group_sessions"
        ).fetchone() == (5.0, "right", 5)
    assert (await say(fake, SAM, "/stop"))["text"] == EL("group_stop_denied")  # admins only


async def test_settings_survive_a_restart_and_a_supergroup_migration(fake, bot):
    menu = await say(fake, ELENI, "/settings", chat_id=BASIC)
    await tap(fake, ELENI, menu, data_of(menu, "Ελληνικά", "language"))
    await fake.wait_for(lambda: settings_row(bot.db, BASIC) is not None)
    await bot.restart()
    assert settings_row(bot.db, BASIC)[5] == 1
    fake.migrate_group(BASIC, -100424242)
    await fake.wait_for(lambda: settings_row(bot.db, -100424242) is not None)
    assert settings_row(bot.db, BASIC) is None
    menu = await say(fake, ELENI, "/settings", chat_id=-100424242)  # in Greek now
    assert EL("settings_title") in menu["text"]


async def test_results_for_admins_privately_as_csv_with_a_summary(fake, bot, banks):
    """/results: refused to members, nothing before a session; an admin who never opened the
    bot is told in the group with a button; then the CSV and summary arrive privately."""
    assert (await say(fake, ARJUN, "/results"))["text"] == EN("results_denied")
    assert (await say(fake, ELENI, "/results"))["text"] == EN("results_none")
    fake.send_message(SAM, "/quiz", chat_id=GROUP)
    question = await next_question(fake, None)
    bank = next(iter(banks.values()))
    right = correct_label(question, bank, "en")
    await tap(
        fake,
        ARJUN,
        question,
        next(b["callback_data"] for b in answer_buttons(question) if b["text"] == right),
    )
    board = await say(fake, SAM, "/stop")
    assert EN("group_leaderboard") in board["text"]
    anonymous_before = len(bot_messages(fake, GROUP))
    fake.send_as_anonymous_admin(GROUP, "/results")
    await fake.wait_for(lambda: len(bot_messages(fake, GROUP)) > anonymous_before)
    assert bot_messages(fake, GROUP)[-1]["text"] == EN("results_anonymous")
    # Eleni never started the bot: Telegram refuses the private message
    reply = await say(fake, ELENI, "/results")
    assert reply["text"] == EN("results_open_bot", name="Eleni")
    assert buttons(reply)[0]["url"] == f"https://t.me/{fake.bot_username}"
    # she opens the bot, then asks again
    fake.send_message(ELENI, "/start")
    await fake.wait_for(lambda: bot_messages(fake, ELENI))
    assert (await say(fake, ELENI, "/results"))["text"] == EN("results_sent", name="Eleni")
    document = await fake.wait_for(
        lambda: next((m for m in bot_messages(fake, ELENI) if "document" in m), None)
    )
    assert document["document"]["file_name"].endswith(".csv")
    assert document["caption"] == EL("results_caption")
    rows = list(
        csv.DictReader(
            io.StringIO(fake.documents[document["document"]["file_id"]].decode("utf-8-sig"))
        )
    )
    assert [(r["user_id"], r["question_number"], r["option"], r["result"]) for r in rows] == [
        (str(ARJUN), "1", right, "right")
    ]
    with sqlite3.connect(bot.db) as conn:  # the answer time the bot stored with the tap
        [(elapsed,)] = conn.execute("SELECT elapsed FROM group_answers").fetchall()
    assert 0 <= elapsed <= 1.5  # a tap counts only within the question's 1.5 s window
    assert (rows[0]["answer_ms"], rows[0]["points"]) == (
        str(round(elapsed * 1000)),
        str(group.answer_points(True, elapsed, 1.5)),
    )
    summary = await fake.wait_for(
        lambda: next(
            (m for m in bot_messages(fake, ELENI) if m.get("text", "").startswith("📊")), None
        )
    )
    assert (
        EL(
            "results_meta",
            date=re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", summary["text"])[0],
            players=EL("quizzes.results_players", count=1),
            questions=EL("question_count", count=1),
        )
        in summary["text"]
    )
    assert "1 παίκτης · 1 ερώτηση" in summary["text"]  # the counts agree with their nouns
    assert "1/1" in summary["text"]


async def test_reveal_links_each_member_to_the_question_in_their_language(fake, bot, banks):
    fake.send_message(SAM, "/quiz", chat_id=GROUP)
    question = await next_question(fake, None)
    link = await fake.wait_for(
        lambda: next(
            (b["url"] for b in buttons(fake.message(GROUP, question["message_id"])) if "url" in b),
            None,
        ),
        timeout=10,
    )
    match = re.fullmatch(rf"https://t\.me/{fake.bot_username}\?start=(q_\d+_0)", link)
    assert match, link
    shown = await say(fake, ARJUN, f"/start {match[1]}", chat_id=ARJUN)
    bank = next(iter(banks.values()))
    first = bank.question(next(q for q in [bank.questions[0].id]))
    assert first.explanation.by_language["hi"] in shown["text"]
    assert "✅" in shown["text"]
    # a question still open (or never asked) is not shown
    session_id = match[1].split("_")[1]
    later = await say(fake, ARJUN, f"/start q_{session_id}_7", chat_id=ARJUN)
    assert later["text"] == HI("question_not_available")
    garbage = await say(fake, ARJUN, "/start q_99999_0", chat_id=ARJUN)
    assert garbage["text"] == HI("question_not_available")


async def test_clock_edit_counts_in_the_budget_and_is_skipped_beyond_it(
    fake, tmp_path, people, banks
):
    """A 3 s window: each question is edited once to "1 s left" (answer buttons kept) while
    the group's 20 a minute allow it with the reveal and the next question; beyond that the
    edit is skipped; no rolling minute ever holds more than 20 sends and edits."""
    fake.group_limit_per_minute = 20
    runner = await start_bot(fake, tmp_path, 3.0)
    try:
        fake.send_message(SAM, "/quiz", chat_id=GROUP)
        board = await fake.wait_for(
            lambda: next(
                (m for m in bot_messages(fake, GROUP) if EN("group_leaderboard") in m["text"]), None
            ),
            timeout=60,
        )
        assert board
    finally:
        await runner.stop()
    clock_text = EN("group_clock_left", count=1)
    clock_edits = [
        c for c in fake.calls_to("editMessageText") if clock_text in str(c.params.get("text"))
    ]
    reveals = [
        c for c in fake.calls_to("editMessageText") if clock_text not in str(c.params.get("text"))
    ]
    assert len(reveals) == 8
    # 8 questions + 8 reveals + the leaderboard = 17 in about 30 s: room for 3 clock edits,
    # made while the calls still to come in the minute leave room (questions 1-3)
    assert len(clock_edits) == 3
    for call in clock_edits:
        assert "g:" in str(call.params.get("reply_markup"))  # still answerable
    assert fake.bot_messages_in_window(GROUP, 60.0) <= 20
    assert all(c.ok for c in fake.calls_to("editMessageText") + fake.calls_to("sendMessage"))
