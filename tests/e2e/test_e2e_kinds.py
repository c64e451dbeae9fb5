"""End to end: the question kinds (several right options, true/false, pictures) played through
the real PTB Application against the fake Bot API server, in private chats and in a group."""

from __future__ import annotations

import io
import sqlite3
from pathlib import Path

import pytest
import yaml
from PIL import Image

from bot import i18n
from bot.bankload import load_bank
from tests.support.botrun import RunningBot
from tests.support.person import Person
from tests.support.screens import buttons

PICTURE = "https://example.org/pictures/gpu.png"
T = i18n.catalog("en")


def png() -> bytes:
    """A small PNG picture."""
    out = io.BytesIO()
    Image.new("RGB", (64, 48), (200, 30, 30)).save(out, format="PNG")
    return out.getvalue()


def question(qid: str, prompt: str, **fields) -> dict:
    """A question of the kinds bank, with an explanation."""
    return {
        "id": qid,
        "prompt": {"en": prompt},
        "explanation": {"en": f"Because of {qid}."},
        **fields,
    }


def options(*right: int, count: int = 4) -> list[dict]:
    """``count`` options, those at ``right`` (0-based) right."""
    return [
        {"text": {"en": f"Option {i}"}, **({"correct": True} if i in right else {})}
        for i in range(count)
    ]


def write_bank(folder: Path, questions: list[dict]) -> Path:
    """A bank file of ``questions`` (English only) in ``folder``."""
    data = {
        "id": "kinds",
        "version": 1,
        "default_language": "en",
        "languages": ["en"],
        "level": "easy",
        "title": {"en": "Kinds"},
        "description": {"en": "Question kinds."},
        "questions": questions,
    }
    path = folder / "kinds.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
async def kinds_bot(fake, tmp_path):
    """The bot with one bank: q1 with options 1 and 3 right, q2 true/false (true), q3 with a
    picture and a short prompt, q4 with a picture and a prompt too long for a caption."""
    fake.web_files[PICTURE] = png()
    folder = tmp_path / "banks"
    folder.mkdir()
    write_bank(
        folder,
        [
            question("several", "Which are right?", options=options(0, 2)),
            question("statement", "The sky is blue.", kind="true-false", answer=True),
            question("short-picture", "What is pictured?", picture=PICTURE, options=options(1)),
            question("long-picture", "Long " + "x" * 1100, picture=PICTURE, options=options(3)),
        ],
    )
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", bank_paths=(folder,))
    await runner.start()
    yield runner
    await runner.stop()


def bank_of(runner: RunningBot):
    """The bank the bot plays."""
    return load_bank(runner.bank_paths[0] / "kinds.yaml")


def data_of(message: dict, text: str) -> str:
    """The callback data of the button labelled ``text``."""
    return next(b["callback_data"] for b in buttons(message) if b["text"] == text)


def right_letters(runner: RunningBot, db_attempt: int, position: int) -> list[str]:
    """The labels of the right options of the question at ``position``, as the attempt shows
    them (its stored option order)."""
    import json

    with sqlite3.connect(runner.db) as db:
        orders = json.loads(
            db.execute(
                "SELECT option_orders FROM attempts WHERE attempt_id = ?", (db_attempt,)
            ).fetchone()[0]
        )
        question_id = json.loads(
            db.execute(
                "SELECT question_order FROM attempts WHERE attempt_id = ?", (db_attempt,)
            ).fetchone()[0]
        )[position]
    right = bank_of(runner).question(question_id).correct_indices
    return ["ABCDEFGHIJKL"[slot] for slot, index in enumerate(orders[position]) if index in right]


def attempt_id_of(message: dict) -> int:
    """The attempt id in a question's tick buttons."""
    return int(buttons(message)[0]["callback_data"].split(":")[1])


async def tick(person: Person, fake, letter: str) -> dict:
    """Tick ``letter`` on the current question; the message once its keyboard shows it."""
    message = next(
        m
        for m in reversed(person.bot_messages())
        if any(b.get("callback_data", "").startswith("at:") for b in buttons(m))
    )
    before = buttons(message)
    box = next(b for b in before if b["text"].endswith(f" {letter}"))
    await person.tap(message, box["callback_data"])
    return await fake.wait_for(
        lambda: (lambda m: m if buttons(m) != before else None)(
            fake.message(message["chat"]["id"], message["message_id"])
        )
    )


async def test_several_right_options_ticked_and_submitted(fake, kinds_bot):
    """The question says "Select all that apply"; ticks are edited in place (☑/☐); Submit
    without a tick is refused with a toast; the exact set is right, and the feedback shows
    every right option and the choices; the answer's set is stored."""
    person = Person(fake, 701, "Ada")
    _, first = await person.say("/start", replies=2)
    assert T("select_all") in first["text"]
    assert [b["text"] for b in buttons(first)] == ["☐ A", "☐ B", "☐ C", "☐ D", T("button_submit")]
    query = await person.tap(first, data_of(first, T("button_submit")))
    assert fake.callback_answers[query].get("text") == T("toast_nothing_chosen")
    right = right_letters(kinds_bot, attempt_id_of(first), 0)
    for letter in right:
        shown = await tick(person, fake, letter)
    assert shown["message_id"] == first["message_id"]
    assert sorted(b["text"] for b in buttons(shown) if b["text"].startswith("☑")) == [
        f"☑ {letter}" for letter in right
    ]
    await person.tap(shown, data_of(shown, T("button_submit")))
    feedback = await fake.wait_for(
        lambda: (lambda m: m if "✅ Correct" in m.get("text", "") else None)(
            fake.message(701, first["message_id"])
        )
    )
    for letter in right:
        assert f"✅ {letter}." in feedback["text"]
    with sqlite3.connect(kinds_bot.db) as db:
        ((chosen, correct),) = db.execute("SELECT chosen, correct FROM answers").fetchall()
    assert correct == 1 and len(yaml.safe_load(chosen)) == 2


async def test_a_wrong_set_shows_every_right_option(fake, kinds_bot):
    """One right option of two ticked: wrong, and the verdict names both right options."""
    person = Person(fake, 702, "Grace")
    _, first = await person.say("/start", replies=2)
    right = right_letters(kinds_bot, attempt_id_of(first), 0)
    shown = await tick(person, fake, right[0])
    await person.tap(shown, data_of(shown, T("button_submit")))
    feedback = await fake.wait_for(
        lambda: (lambda m: m if "❌" in m.get("text", "") else None)(
            fake.message(702, first["message_id"])
        )
    )
    assert T("feedback_wrong_several", labels=", ".join(right)) in feedback["text"]
    assert f"✅ {right[0]}. " in feedback["text"] and T("your_answer") in feedback["text"]


async def test_a_restart_between_ticks_and_submit_keeps_the_ticks(fake, kinds_bot):
    """The ticks live in the buttons: after a restart, Submit grades what the keyboard shows."""
    person = Person(fake, 703, "Linus")
    _, first = await person.say("/start", replies=2)
    right = right_letters(kinds_bot, attempt_id_of(first), 0)
    for letter in right:
        shown = await tick(person, fake, letter)
    await kinds_bot.restart()
    await person.tap(shown, data_of(shown, T("button_submit")))
    feedback = await fake.wait_for(
        lambda: (lambda m: m if "✅ Correct" in m.get("text", "") else None)(
            fake.message(703, first["message_id"])
        )
    )
    assert T("feedback_correct") in feedback["text"]


async def test_a_forged_tick_changes_nothing(fake, kinds_bot):
    """Another user's tick, a tick of a slot the question lacks, and a stale position are
    refused with a toast; the keyboard and the database stay as they were."""
    person = Person(fake, 704, "Ken")
    intruder = Person(fake, 705, "Eve")
    _, first = await person.say("/start", replies=2)
    attempt = attempt_id_of(first)
    for who, data in (
        (intruder, f"at:{attempt}:0:0:0"),
        (person, f"at:{attempt}:0:9:0"),
        (person, f"at:{attempt}:1:0:0"),
        (person, f"as:{attempt}:0:4095"),
    ):
        query = await who.tap(first, data, check_button=False)
        assert fake.callback_answers[query].get("text"), data
    assert buttons(fake.message(704, first["message_id"])) == buttons(first)
    with sqlite3.connect(kinds_bot.db) as db:
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0


async def answer_first(person: Person, fake, runner: RunningBot) -> dict:
    """Start and answer the several-right question rightly; the next question's message."""
    _, first = await person.say("/start", replies=2)
    for letter in right_letters(runner, attempt_id_of(first), 0):
        shown = await tick(person, fake, letter)
    await person.tap(shown, data_of(shown, T("button_submit")))
    feedback = await fake.wait_for(
        lambda: (
            lambda m: (
                m if any(b.get("callback_data", "").startswith("n:") for b in buttons(m)) else None
            )
        )(fake.message(person.user_id, first["message_id"]))
    )
    return await person.next(feedback)


async def test_true_false_has_two_buttons_and_grades_one_tap(fake, kinds_bot):
    """A true/false question shows True and False buttons (never shuffled); False is wrong,
    and the feedback says True was the answer."""
    person = Person(fake, 706, "Alan")
    statement = await answer_first(person, fake, kinds_bot)
    assert [b["text"] for b in buttons(statement)] == [T("option_true"), T("option_false")]
    await person.tap(statement, data_of(statement, T("option_false")))
    feedback = await fake.wait_for(
        lambda: (lambda m: m if "❌" in m.get("text", "") else None)(
            fake.message(706, statement["message_id"])
        )
    )
    assert T("feedback_wrong_true") in feedback["text"]


async def test_pictures_as_caption_or_first_and_the_feedback_edits_the_caption(fake, kinds_bot):
    """A question with a picture and a short prompt is one photo with the question as caption
    and the buttons; the feedback edits the caption; a prompt too long for a caption comes as
    the picture, then the question message."""
    person = Person(fake, 707, "Hedy")
    statement = await answer_first(person, fake, kinds_bot)
    await person.tap(statement, data_of(statement, T("option_true")))
    feedback = await fake.wait_for(
        lambda: (lambda m: m if "✅" in m.get("text", "") else None)(
            fake.message(707, statement["message_id"])
        )
    )
    photo = await person.next(feedback)
    assert photo.get("photo") and "What is pictured?" in photo["caption"]
    assert [b["text"] for b in buttons(photo)] == ["A", "B", "C", "D"]
    await person.tap(photo, buttons(photo)[0]["callback_data"])
    edited = await fake.wait_for(
        lambda: (lambda m: m if T("button_next") in str(m.get("reply_markup")) else None)(
            fake.message(707, photo["message_id"])
        )
    )
    assert "Because of short-picture." in edited["caption"]
    before = len(person.bot_messages())
    await person.tap(edited, data_of(edited, T("button_next")))
    await fake.wait_for(lambda: len(person.bot_messages()) >= before + 2)
    picture, long_question = person.bot_messages()[before : before + 2]
    assert picture.get("photo") and not picture.get("caption")
    assert long_question["text"].count("x") > 1024 and buttons(long_question)


# --- a group session ---------------------------------------------------------------------------

GROUP = -1009876543210


async def test_group_members_tick_then_submit_and_only_exact_sets_score(fake, tmp_path):
    """In a group, members tick options (each member's ticks stored and echoed in a toast,
    kept across a restart), then Submit; Submit with nothing ticked is refused; only the exact
    set is right, and the reveal counts every ticked option."""
    import time

    from tests.e2e.test_e2e_group import ClockedBot, open_question
    from tests.support.clock import FakeClock

    folder = tmp_path / "banks"
    folder.mkdir()
    write_bank(
        folder,
        [
            question("several", "Which are right?", options=options(0, 2)),
            question("statement", "The sky is blue.", kind="true-false", answer=True),
        ],
    )
    clock = FakeClock(time.time())
    runner = RunningBot(
        fake, tmp_path / "quiz.sqlite3", bank_paths=(folder,), question_seconds=600.0, clock=clock
    )
    for user_id, name in ((801, "Ann"), (802, "Ben"), (803, "Cy")):
        fake.add_user(user_id, name, language_code="en")
    fake.add_group(GROUP, "Kinds group", admins=[801], members=[802, 803])
    await runner.start()
    try:
        fake.send_message(801, "/quiz kinds", chat_id=GROUP)
        first = await fake.wait_for(
            lambda: (
                lambda m: (
                    m
                    if m and any(b.get("callback_data", "").startswith("gt:") for b in buttons(m))
                    else None
                )
            )(_newest_with(fake, "gt:")),
            timeout=10,
        )
        assert T("select_all") in first["text"]
        session_id = int(buttons(first)[0]["callback_data"].split(":")[1])
        with sqlite3.connect(runner.db) as db:
            order = yaml.safe_load(
                db.execute("SELECT option_orders FROM group_sessions").fetchone()[0]
            )[0]
        right = [slot for slot, index in enumerate(order) if index in (0, 2)]
        wrong = next(slot for slot in range(4) if slot not in right)

        async def tap(user_id: int, data: str) -> str:
            update = fake.tap(user_id, GROUP, first["message_id"], data, check_button=False)
            query_id = update["callback_query"]["id"]
            await fake.wait_for(lambda: query_id in fake.callback_answers)
            return fake.callback_answers[query_id].get("text", "")

        submit = f"gs:{session_id}:0"
        assert await tap(803, submit) == T("toast_nothing_chosen")
        toast = ""
        for slot in right:
            toast = await tap(801, f"gt:{session_id}:0:{slot}")
        labels = ", ".join("ABCD"[slot] for slot in right)
        assert toast == T("group_ticked", labels=labels)
        await tap(802, f"gt:{session_id}:0:{right[0]}")
        await tap(802, f"gt:{session_id}:0:{wrong}")
        await runner.restart()  # the ticks are stored: nothing is lost
        assert await tap(801, submit) == T("group_recorded", label=labels)
        await tap(802, submit)
        with sqlite3.connect(runner.db) as db:
            rows = dict(db.execute("SELECT user_id, correct FROM group_answers").fetchall())
            chosen = db.execute("SELECT chosen FROM group_answers WHERE user_id = 802").fetchone()[
                0
            ]
        assert rows == {801: 1, 802: 0}
        assert sorted(yaml.safe_load(chosen)) == sorted(order[s] for s in (right[0], wrong))
        ClockedBot(runner, clock).end_window()
        revealed = await fake.wait_for(
            lambda: (
                lambda m: (
                    m
                    if not any(b.get("callback_data", "").startswith("gt:") for b in buttons(m))
                    else None
                )
            )(fake.message(GROUP, first["message_id"])),
            timeout=10,
        )
        assert f"✅ {'ABCD'[right[0]]}. " in revealed["text"]
        assert f"{'ABCD'[right[0]]}. Option {order[right[0]]} — 2" in revealed["text"]
        statement = await fake.wait_for(
            lambda: (lambda m: m if m and m["message_id"] != first["message_id"] else None)(
                open_question(fake, GROUP)
            ),
            timeout=10,
        )
        assert [b["text"] for b in buttons(statement)] == [T("option_true"), T("option_false")]
    finally:
        await runner.stop()


def _newest_with(fake, prefix: str) -> dict | None:
    """The group's newest bot message with a button whose callback data starts ``prefix``."""
    for message in reversed(fake.messages(GROUP)):
        if any(b.get("callback_data", "").startswith(prefix) for b in buttons(message)):
            return message
    return None


# --- a picture Telegram cannot send (issue 31, items 1 and 15) ---------------------------------


async def test_a_picture_telegram_refuses_is_skipped_with_a_note_and_the_quiz_goes_on(
    fake, tmp_path, monkeypatch
):
    """A question whose picture Telegram cannot fetch (a URL it fails to get) comes as text with
    a note that its picture could not be shown, buttons and all, and is answered as usual; a
    picture that is a file id naming a file in the bot's working folder is sent as a file id
    (Telegram refuses it), never uploaded from the disk."""
    local = "AgACAgIAAxkBAAIBbGZpicture0123456789"
    monkeypatch.chdir(tmp_path)
    (tmp_path / local).write_bytes(png())  # a local file whose name looks like a file id
    folder = tmp_path / "banks"
    folder.mkdir()
    write_bank(
        folder,
        [
            question(
                "unfetchable", "What is pictured?", picture=PICTURE + "?gone", options=options(1)
            ),
            question("local", "And here?", picture=local, options=options(0)),
        ],
    )
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", bank_paths=(folder,))
    await runner.start()
    try:
        person = Person(fake, 708, "Grace")
        _, first = await person.say("/start", replies=2)
        assert T("picture_not_shown") in first["text"] and "What is pictured?" in first["text"]
        assert [b["text"] for b in buttons(first)] == ["A", "B", "C", "D"]
        await person.tap(first, buttons(first)[1]["callback_data"])
        feedback = await fake.wait_for(
            lambda: (lambda m: m if "✅" in m.get("text", "") else None)(
                fake.message(708, first["message_id"])
            )
        )
        second = await person.next(feedback)
        assert T("picture_not_shown") in second["text"] and "And here?" in second["text"]
        photos = [call.params.get("photo") for call in fake.calls if call.method == "sendPhoto"]
        assert photos == [PICTURE + "?gone", local]  # the file id as a string, no upload
    finally:
        await runner.stop()
