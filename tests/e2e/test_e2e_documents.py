"""End to end: files sent to the bot in a private chat become created quizzes (a quiz YAML,
GIFT, Aiken, CSV), fetched with getFile from the fake Bot API server and downloaded from its
file URL; broken, oversized and unknown files are refused in the sender's language."""

from __future__ import annotations

import os
import threading
from typing import Any

from bot import i18n
from bot.bankload import parse_bank
from bot.bankload.dump import dump_bank
from tests.support.person import Person
from tests.support.screens import buttons

SOURCE = {"title": "World atlas", "url": "https://example.org/atlas"}


def quiz_data(title: str = "Capitals", quiz_id: str = "capitals") -> dict[str, Any]:
    """A valid two-question bank mapping in English."""
    return {
        "id": quiz_id,
        "version": 1,
        "default_language": "en",
        "languages": ["en"],
        "level": "easy",
        "title": {"en": title},
        "description": {"en": "Two capitals."},
        "questions": [
            {
                "id": "fr",
                "prompt": {"en": "What is the capital of France?"},
                "options": [
                    {"text": {"en": "Paris"}, "correct": True},
                    {"text": {"en": "Lyon"}},
                    {"text": {"en": "Nice"}},
                ],
                "explanation": {"en": "The seat of government has been there since 987."},
                "source": SOURCE,
            },
            {
                "id": "it",
                "prompt": {"en": "What is the capital of Italy?"},
                "options": [
                    {"text": {"en": "Rome"}, "correct": True},
                    {"text": {"en": "Milan"}},
                    {"text": {"en": "Turin"}},
                ],
                "explanation": {"en": "It became the capital in 1871."},
                "source": SOURCE,
            },
        ],
    }


async def stored(running_bot, owner_id: int) -> list:
    """The owner's quizzes as stored (the bot's own storage)."""
    return await running_bot.app.bot_data.services.quizzes.quizzes(owner_id)


async def test_a_yaml_file_makes_a_quiz(fake, running_bot):
    """A quiz YAML sent as a document is fetched (getFile and the file URL), checked and
    stored as a new quiz with a c- id; the bot answers with the quiz's screen."""
    person = Person(fake, 601, "Grace")
    t = i18n.catalog("en")
    saved, screen = await person.send_document(
        dump_bank(quiz_data()).encode(), "capitals.yaml", replies=2
    )
    assert fake.calls_to("getFile")
    (record,) = await stored(running_bot, 601)
    assert record.id.startswith("c-") and record.version == 1 and record.questions == 2
    assert saved["text"] == t("quizzes.created", title="Capitals", count=2)
    assert f"https://t.me/{fake.bot_username}?start={record.id}" in screen["text"]
    assert all("switch_inline_query" not in b for b in buttons(screen))  # inline mode off


def in_russian_too(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (:func:`quiz_data`) with every text in Russian as well."""
    russian = {
        "Capitals": "Столицы",
        "Two capitals.": "Две столицы.",
        "What is the capital of France?": "Какой город — столица Франции?",
        "What is the capital of Italy?": "Какой город — столица Италии?",
        "Paris": "Париж",
        "Lyon": "Лион",
        "Nice": "Ницца",
        "Rome": "Рим",
        "Milan": "Милан",
        "Turin": "Турин",
        "The seat of government has been there since 987.": "Правительство там с 987 года.",
        "It became the capital in 1871.": "Столицей он стал в 1871 году.",
    }

    def add(text: dict[str, str]) -> None:
        text["ru"] = russian[text["en"]]

    data["languages"] = ["en", "ru"]
    add(data["title"])
    add(data["description"])
    for question in data["questions"]:
        add(question["prompt"])
        add(question["explanation"])
        for option in question["options"]:
            add(option["text"])
    return data


async def test_a_quiz_sent_in_two_languages_says_so_and_plays_in_each(fake, running_bot):
    """A maker sends a quiz written in English and Russian: its screen names both languages;
    a Russian-speaking player gets it in Russian, an English-speaking one in English."""
    maker = Person(fake, 615, "Grace")
    _, screen = await maker.send_document(
        dump_bank(in_russian_too(quiz_data())).encode(), "capitals.yaml", replies=2
    )
    en = i18n.catalog("en")
    assert en("quizzes.languages", languages="English, Русский") in screen["text"]
    (record,) = await stored(running_bot, 615)
    for user_id, code, prompt in (
        (616, "ru", "Какой город — столица"),
        (617, "en", "What is the capital of"),
    ):
        player = Person(fake, user_id, "Player", code)
        fake.follow_link(user_id, f"https://t.me/{fake.bot_username}?start={record.id}")
        await fake.wait_for(
            lambda p=player, w=prompt: any(w in m["text"] for m in p.bot_messages())
        )


async def test_a_csv_file_makes_a_quiz_in_the_senders_language(fake, running_bot):
    """A CSV file becomes a quiz in the sender's language, its columns its questions."""
    person = Person(fake, 602, "Eleni", "el")
    csv = (
        "prompt,A,B,C,correct,explanation,source_title,source_url\n"
        "Ποια είναι η πρωτεύουσα της Ελλάδας;,Αθήνα,Σπάρτη,Θήβα,A,"
        "Είναι πρωτεύουσα από το 1834.,Άτλας,https://example.org/atlas\n"
        "Ποιο είναι το μεγαλύτερο νησί;,Κρήτη,Ρόδος,Κως,A,"
        "Η Κρήτη έχει 8.336 τετραγωνικά χιλιόμετρα.,Άτλας,https://example.org/atlas\n"
    )
    saved, _ = await person.send_document(csv.encode(), "ellada.csv", replies=2)
    (record,) = await stored(running_bot, 602)
    assert (record.language, record.questions) == ("el", 2)
    t = i18n.catalog("el")
    assert saved["text"] == t(
        "quizzes.created", title=t("documents.imported_title", name="ellada"), count=2
    )


async def test_a_gift_file_makes_a_quiz(fake, running_bot):
    """A GIFT file with general feedback becomes a quiz; nothing asks for a source it cannot
    give."""
    person = Person(fake, 603, "Ada")
    gift = (
        "::fr:: What is the capital of France? {=Paris ~Lyon ~Nice "
        "####The seat of government has been there since 987.}\n\n"
        "::it:: What is the capital of Italy? {=Rome ~Milan ~Turin "
        "####It became the capital in 1871.}\n"
    )
    saved, _ = await person.send_document(gift.encode(), "capitals.gift", replies=2)
    records = await stored(running_bot, 603)
    assert [r.questions for r in records] == [2], saved["text"]


async def test_a_broken_file_is_explained_in_hindi_and_stores_nothing(fake, running_bot):
    """A YAML with two problems gets, in Hindi, what to fix by question number, field and line;
    nothing is stored."""
    person = Person(fake, 604, "Asha", "hi")
    t = i18n.catalog("hi")
    data = quiz_data()
    data["questions"][1]["options"][2]["text"]["en"] = "Milan"
    del data["questions"][0]["prompt"]
    (answer,) = await person.send_document(dump_bank(data).encode(), "broken.yaml")
    assert answer["text"].startswith(t("quizzes.problems", count=2))
    assert "प्रश्न 1, prompt" in answer["text"] and t("problem.missing") in answer["text"]
    assert "प्रश्न 2, विकल्प 3.text.en (पंक्ति" in answer["text"]
    assert t("problem.same_option", number=2) in answer["text"]
    assert await stored(running_bot, 604) == []


async def test_an_oversized_file_is_refused_before_the_download(fake, running_bot):
    """A document over 1 MB is refused from its file_size, without getFile."""
    person = Person(fake, 605, "Linus")
    (answer,) = await person.send_document(b"x" * (1024 * 1024 + 1), "big.yaml")
    assert answer["text"] == i18n.catalog("en")("documents.too_large")
    assert not fake.calls_to("getFile")


async def test_a_file_larger_than_its_size_said_is_refused_after_the_download(fake, running_bot):
    """A file whose Document claimed a small size but is larger is refused once downloaded."""
    person = Person(fake, 606, "Linus")
    update = fake.send_document(606, b"y" * (1024 * 1024 + 10), "big.yaml")
    assert update["message"]["document"]["file_size"] > 1024 * 1024
    update["message"]["document"]["file_size"] = 10  # as a client might misreport it
    before = len(person.bot_messages())
    fake.push_update({"update_id": update["update_id"] + 1000, "message": update["message"]})
    await fake.wait_for(lambda: len(person.bot_messages()) > before)
    assert person.bot_messages()[-1]["text"] == i18n.catalog("en")("documents.too_large")
    assert fake.calls_to("getFile")
    assert await stored(running_bot, 606) == []


async def test_an_unknown_kind_of_file_is_named(fake, running_bot):
    """A file that is none of the formats gets the list of formats, and no download."""
    person = Person(fake, 607, "Ada")
    (answer,) = await person.send_document(b"\x89PNG", "photo.png")
    assert answer["text"] == i18n.catalog("en")("documents.formats")
    assert not fake.calls_to("getFile")


async def test_a_yaml_with_someone_elses_id_makes_a_new_quiz(fake, running_bot):
    """A YAML naming another creator's quiz (or a featured bank) makes a new quiz, and says
    so; the other quiz is unchanged."""
    owner, other = Person(fake, 608, "Owner"), Person(fake, 609, "Other")
    await owner.send_document(dump_bank(quiz_data()).encode(), "q.yaml", replies=2)
    (theirs,) = await stored(running_bot, 608)
    data = quiz_data(title="Mine now", quiz_id=theirs.id)
    said, _, _ = await other.send_document(dump_bank(data).encode(), "q.yaml", replies=3)
    assert said["text"] == i18n.catalog("en")("documents.new_not_yours", id=theirs.id)
    (mine,) = await stored(running_bot, 609)
    assert mine.id != theirs.id and mine.title == "Mine now"
    (unchanged,) = await stored(running_bot, 608)
    assert (unchanged.version, unchanged.title) == (1, "Capitals")
    featured = quiz_data(quiz_id="deepspeed-megatron")
    said, _, _ = await other.send_document(dump_bank(featured).encode(), "d.yaml", replies=3)
    assert said["text"] == i18n.catalog("en")("documents.new_not_yours", id="deepspeed-megatron")


async def test_a_yaml_with_the_senders_id_updates_the_quiz(fake, running_bot):
    """The creator's own quiz sent back, with a language added, is its version 2 (same id)."""
    person = Person(fake, 610, "Grace")
    await person.send_document(dump_bank(quiz_data()).encode(), "q.yaml", replies=2)
    (record,) = await stored(running_bot, 610)
    document = (await running_bot.app.bot_data.services.quizzes.export(610, record.id))[1]
    bank = parse_bank(document)
    assert bank.id == record.id
    data = quiz_data(quiz_id=record.id)
    data["languages"] = ["en", "hi"]
    for text in (data["title"], data["description"]):
        text["hi"] = text["en"] + " (हिन्दी)"
    for q in data["questions"]:
        q["prompt"]["hi"] = q["prompt"]["en"] + " (हिन्दी)"
        q["explanation"]["hi"] = q["explanation"]["en"] + " (हिन्दी)"
        for option in q["options"]:
            option["text"]["hi"] = option["text"]["en"] + " हि"
    saved, _ = await person.send_document(dump_bank(data).encode(), "q.yaml", replies=2)
    assert saved["text"] == i18n.catalog("en")(
        "quizzes.updated", title="Capitals", version=2, count=2
    )
    (updated,) = await stored(running_bot, 610)
    assert (updated.id, updated.version) == (record.id, 2)


async def test_an_aiken_file_makes_a_quiz(fake, running_bot):
    """An Aiken file (a .txt with ANSWER: lines) becomes a quiz without explanations."""
    person = Person(fake, 611, "Ada")
    aiken = (
        "What is the capital of France?\nA. Paris\nB. Lyon\nC. Nice\nANSWER: A\n\n"
        "What is the capital of Italy?\nA. Milan\nB. Rome\nC. Turin\nANSWER: B\n"
    )
    await person.send_document(aiken.encode(), "capitals.txt", replies=2)
    (record,) = await stored(running_bot, 611)
    assert record.questions == 2


async def test_a_transient_getfile_failure_is_retried(fake, running_bot):
    """getFile answered 500 once is tried again, and the quiz is made."""
    person = Person(fake, 612, "Grace")
    fake.fail_next("getFile", error_code=500, description="Internal Server Error")
    await person.send_document(dump_bank(quiz_data()).encode(), "q.yaml", replies=2)
    assert len(fake.calls_to("getFile")) == 2
    assert len(await stored(running_bot, 612)) == 1


async def test_a_permanent_getfile_failure_asks_to_send_again(fake, running_bot):
    """getFile refused for good gets a polite answer to send the file again; nothing stored."""
    person = Person(fake, 613, "Grace")
    fake.fail_next("getFile", error_code=400, description="Bad Request: file is too big")
    (answer,) = await person.send_document(dump_bank(quiz_data()).encode(), "q.yaml")
    assert answer["text"] == i18n.catalog("en")("documents.download_failed")
    assert await stored(running_bot, 613) == []


async def test_a_file_being_converted_holds_up_no_other_chat(fake, running_bot, monkeypatch):
    """A file is converted off the event loop, in the worker process: while a maker's CSV is
    being converted (held here until another user's /start was answered), the bot goes on
    answering others; then the maker gets their quiz. On the loop, the conversion would hold
    every chat: the held conversion would wait in vain and the maker get no quiz."""
    release, entered = threading.Event(), threading.Event()
    waited_in_vain = []
    pids = []
    imports = running_bot.app.bot_data.services.imports
    run = imports._run  # the worker process's

    def held(function, *args, **kwargs):
        entered.set()
        if not release.wait(timeout=20):  # only on failure: the loop itself was held
            waited_in_vain.append(True)
        pids.append(run(os.getpid))
        return run(function, *args, **kwargs)

    monkeypatch.setattr(imports, "_run", held)
    maker, player = Person(fake, 611, "Grace"), Person(fake, 612, "Linus")
    csv = "prompt,A,B,correct\nWhat is the capital of France?,Paris,Lyon,A\n"
    fake.send_document(611, csv.encode(), "capitals.csv")
    await fake.wait_for(entered.is_set)
    (welcome, *_) = await player.say("/start")
    assert welcome["text"]
    release.set()
    await fake.wait_for(lambda: len(maker.bot_messages()) >= 2)
    assert not waited_in_vain
    assert [r.questions for r in await stored(running_bot, 611)] == [1]
    assert pids and pids[0] != os.getpid()  # converted in the worker, not in the bot's process


async def test_a_file_with_more_questions_than_a_quiz_holds_is_refused_before_a_bank(
    fake, running_bot
):
    """A CSV of 10,000 rows sharing one id is refused by its number of questions, in the
    sender's language, before a bank is made of it; nothing is stored."""
    person = Person(fake, 613, "Ada")
    rows = "id,prompt,A,B,correct\n" + "".join(f"same,Q{i}?,a,b,A\n" for i in range(10_000))
    (answer,) = await person.send_document(rows.encode(), "many.csv")
    t = i18n.catalog("en")
    assert answer["text"] == t(
        "quizzes.problem_file", problem=t("problem.too_many_questions", count=10_000, limit=200)
    )
    assert await stored(running_bot, 613) == []


async def test_a_yaml_of_nested_brackets_gets_an_answer(fake, running_bot):
    """A kilobyte of ``[`` (PyYAML's composer recurses once per level) is a bad YAML file,
    said to the sender, not a traceback with no answer."""
    person = Person(fake, 614, "Eleni", "el")
    (answer,) = await person.send_document(b"[" * 1024, "nested.yaml")
    t = i18n.catalog("el")
    assert answer["text"].startswith(t("quizzes.problems", count=1))
    assert await stored(running_bot, 614) == []


async def test_a_stop_with_a_file_being_checked_is_prompt_and_touches_no_closed_storage(
    fake, running_bot, monkeypatch, caplog
):
    """A stop while a maker's file is being converted (held here past the stop's bound for
    the updates in flight) ends within its bound: the update is cancelled before storage is
    closed, so nothing runs against closed storage once the conversion ends (issue 31, item
    17: the process waited for the checks, then logged tracebacks from closed storage)."""
    import logging

    from bot import lifecycle

    monkeypatch.setattr(lifecycle, "STOP_SECONDS", 0.2)  # the bound, not a pause to wait out
    release, entered = threading.Event(), threading.Event()
    imports = running_bot.app.bot_data.services.imports
    run = imports._run

    def held(function, *args, **kwargs):
        entered.set()
        release.wait(timeout=30)
        return run(function, *args, **kwargs)

    monkeypatch.setattr(imports, "_run", held)
    csv = "prompt,A,B,correct\nWhat is the capital of France?,Paris,Lyon,A\n"
    Person(fake, 614, "Ada")
    fake.send_document(614, csv.encode(), "capitals.csv")
    await fake.wait_for(entered.is_set)
    with caplog.at_level(logging.INFO):
        await running_bot.stop()  # returns: the held update did not hold the stop
        release.set()
        assert any(
            r.getMessage() == "stop: 1 update(s) still in flight cancelled" for r in caplog.records
        )
        assert any(
            r.name == "bot.lifecycle" and r.getMessage() == "stopped" for r in caplog.records
        )
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def long_gift(questions: int, lines: int) -> str:
    """A GIFT file of ``questions`` questions whose prompts are ``lines`` short lines (``\\n``):
    small as GIFT, several times larger as the YAML of the quiz (each line indented there)."""
    return "".join(
        f"::poem {number}:: Which word ends poem {number}?\\n"
        + "la\\n" * lines
        + "{=alpha ~gamma ~delta}\n\n"
        for number in range(1, questions + 1)
    )


async def test_a_gift_under_the_limit_is_taken_whatever_the_size_of_its_yaml(fake, running_bot):
    """The 1 MB limit is the file's as sent: a GIFT under it becomes a quiz though the YAML the
    bot writes of it is over 1 MB."""
    person = Person(fake, 612, "Emily")
    gift = long_gift(questions=150, lines=1100)
    assert len(gift.encode()) < 1024 * 1024
    saved, _ = await person.send_document(gift.encode(), "poems.gift", replies=2)
    (record,) = await stored(running_bot, 612)
    assert record.questions == 150, saved["text"]
    services = running_bot.app.bot_data.services
    version = await services.store.quiz_version(record.id, 1)
    assert len(version.document.encode()) > 1024 * 1024  # its YAML is over the file limit
    services.banks.forget(record.id)
    assert len((await services.banks.bank(record.id)).questions) == 150  # and it is played


async def test_a_gift_over_the_limit_is_refused_in_the_senders_language(fake, running_bot):
    """A GIFT file over 1 MB is refused as too large, in Greek for a Greek sender; nothing is
    stored."""
    person = Person(fake, 613, "Eleni", "el")
    gift = long_gift(questions=150, lines=1800)
    assert len(gift.encode()) > 1024 * 1024
    (answer,) = await person.send_document(gift.encode(), "poems.gift")
    assert answer["text"] == i18n.catalog("el")("documents.too_large")
    assert await stored(running_bot, 613) == []
