"""Adding a language to a created quiz (bot/features/myquizzes/translating.py): the messages to
translate, a reply read line for line, the progress as a payload, the bank data with the
language added."""

from __future__ import annotations

import copy
from typing import Any

from bot.features.myquizzes import translating
from bot.features.myquizzes.translating import TITLE, Original, Translation


def quiz() -> dict[str, Any]:
    """Bank data of an English quiz: a description, a question with options and explanation,
    a true/false one without explanation whose prompt has two lines."""
    return {
        "id": "c-abcdefghij",
        "version": 3,
        "default_language": "en",
        "languages": ["en"],
        "level": "easy",
        "title": {"en": "Capitals"},
        "description": {"en": "Two capitals."},
        "questions": [
            {
                "id": "q1",
                "prompt": {"en": "Capital of France?"},
                "options": [{"text": {"en": "Paris"}, "correct": True}, {"text": {"en": "Lyon"}}],
                "explanation": {"en": "Since 987."},
            },
            {
                "id": "q2",
                "kind": "true-false",
                "prompt": {"en": "Rome is the capital of Italy.\nSince 1871."},
                "answer": True,
            },
        ],
    }


def test_the_messages_to_translate_are_the_title_then_each_question_line_for_line():
    """The title with the description under it, then each question as /newquiz reads one: a
    prompt of two lines on two, a true/false question without options."""
    found = translating.originals(quiz())
    assert [o.key for o in found] == [TITLE, "q1", "q2"]
    assert found[0].as_text() == "Capitals\nTwo capitals."
    assert found[1].as_text() == "Capital of France?\nParis\nLyon\n> Since 987."
    assert found[2].as_text() == "Rome is the capital of Italy.\nSince 1871."
    assert translating.position(quiz(), found[2]) == (3, 3)


def test_a_reply_is_read_line_for_line_and_refused_when_it_does_not_match():
    """Marks copied from a right option are dropped, the explanation comes from ``>`` lines or
    quote blocks; a line missing, an explanation missing or one added is refused."""
    france = translating.originals(quiz())[1]
    reply = "Столица Франции?\n*Париж\nЛион ✅\n> С 987 года."
    assert translating.read_reply(reply, (), france) == (
        "Столица Франции?",
        "Париж",
        "Лион",
        "С 987 года.",
    )
    quoted = "Столица Франции?\nПариж\nЛион\nС 987 года."
    assert translating.read_reply(quoted, ["С 987 года."], france)[-1] == "С 987 года."
    assert translating.read_reply("Столица Франции?\nПариж\n> С 987 года.", (), france) is None
    assert translating.read_reply("Столица Франции?\nПариж\nЛион", (), france) is None
    rome = translating.originals(quiz())[2]
    assert translating.read_reply("Рим — столица Италии.\nС 1871 года.", (), rome) == (
        "Рим — столица Италии.\nС 1871 года.",
        "",
    )
    assert translating.read_reply("Рим — столица Италии.\nС 1871 года.\n> Да.", (), rome) is None
    title = Original(TITLE, ("Capitals",))
    assert translating.read_reply("x" * 101, (), title) is None


def test_the_language_is_added_once_every_text_fits():
    """Every text given: the language is listed and each field has its text, the others
    unchanged; a text missing, or given for a question since replaced, gives None."""
    given = {
        TITLE: ("Столицы", "Две столицы.", ""),
        "q1": ("Столица Франции?", "Париж", "Лион", "С 987 года."),
        "q2": ("Рим — столица Италии.\nС 1871 года.", ""),
    }
    data = translating.with_language(copy.deepcopy(quiz()), "ru", given)
    assert data is not None and data["languages"] == ["en", "ru"]
    assert data["title"] == {"en": "Capitals", "ru": "Столицы"}
    assert data["description"]["ru"] == "Две столицы."
    first, second = data["questions"]
    assert [o["text"]["ru"] for o in first["options"]] == ["Париж", "Лион"]
    assert first["options"][0]["correct"] and first["explanation"]["ru"] == "С 987 года."
    assert second["prompt"]["ru"] == "Рим — столица Италии.\nС 1871 года."
    assert "explanation" not in second and second["answer"] is True
    partial = {key: texts for key, texts in given.items() if key != "q2"}
    assert translating.with_language(copy.deepcopy(quiz()), "ru", partial) is None
    going = Translation("c-abcdefghij", "ru", partial)
    assert translating.next_original(quiz(), going).key == "q2"
    replaced = quiz()
    replaced["questions"][0]["id"] = "q3"  # question 1 replaced since: asked again
    assert translating.next_original(replaced, Translation("c-abcdefghij", "ru", given)).key == (
        "q3"
    )


def test_the_progress_goes_through_its_payload_and_forgets_what_is_named():
    """A translation comes back from its payload as it was; :func:`forget` drops the texts of
    the keys named (asked again)."""
    going = Translation("c-abcdefghij", "fa", {TITLE: ("پایتخت‌ها", "")}, "q1", paused=True)
    assert Translation.from_payload(going.to_payload()) == going
    assert translating.forget(going, [TITLE]).given == {}


class Prompts:
    """An in-memory prompt store (:class:`bot.kernel.ports.PromptStore`'s reads and writes)."""

    def __init__(self) -> None:
        self.rows: dict[tuple[int, str], tuple[str, float]] = {}

    async def set_prompt(self, user_id: int, kind: str, payload: str, now: float) -> None:
        self.rows[user_id, kind] = (payload, now)

    async def prompt(self, user_id: int, kind: str, *, since: float) -> str | None:
        found = self.rows.get((user_id, kind))
        return found[0] if found is not None and found[1] >= since else None

    async def drop_prompt(self, user_id: int, kind: str) -> bool:
        return self.rows.pop((user_id, kind), None) is not None


async def test_messages_are_read_as_texts_only_while_the_maker_is_at_it():
    """Within the prompts' quarter of an hour and not finished later, the maker's messages are
    the translation's; later, or paused, they are not, and the progress stays for a day."""
    from bot.features.myquizzes.edits import EDIT_PROMPT_SECONDS

    now = [1000.0]
    translations = translating.Translations(Prompts(), lambda: now[0])  # type: ignore[arg-type]
    going = Translation("c-abcdefghij", "ru", {TITLE: ("Столицы", "")}, "q1")
    await translations.save(7, going)
    assert await translations.active(7) == going
    now[0] += EDIT_PROMPT_SECONDS + 1
    assert await translations.active(7) is None and await translations.current(7) == going
    await translations.save(7, Translation("c-abcdefghij", "ru", paused=True))
    assert await translations.active(7) is None
    now[0] += translating.KEEP_SECONDS + 1
    assert await translations.current(7) is None


def test_the_bidi_marks_of_a_copied_right_to_left_message_are_dropped():
    """An original copied from a Persian maker's message carries a right-to-left mark at the
    start of each Latin line: the reply's texts come without it, the Persian joiner kept."""
    france = translating.originals(quiz())[1]
    reply = "\u200fپایتخت فرانسه؟\n\u200fParis\n\u2068Lyon\u2069\n> \u200fاز ۹۸۷ می‌گویند."
    assert translating.read_reply(reply, (), france) == (
        "پایتخت فرانسه؟",
        "Paris",
        "Lyon",
        "از ۹۸۷ می‌گویند.",
    )


def test_a_text_skipped_for_now_is_asked_after_the_others():
    """Skipped texts come last, in the order skipped; alone left, it is asked again."""
    going = Translation("c-abcdefghij", "ru", skipped=(TITLE,))
    assert translating.next_original(quiz(), going).key == "q1"
    given = {"q1": ("Столица Франции?", "Париж", "Лион", "С 987 года.")}
    going = Translation("c-abcdefghij", "ru", given, skipped=(TITLE, "q2"))
    assert translating.next_original(quiz(), going).key == TITLE
    assert Translation.from_payload(going.to_payload()) == going
