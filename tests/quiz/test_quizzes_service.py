"""The creator-side service of created quizzes (bot/features/myquizzes/service.py) over real
storage, on each engine: publish, update, edits, visibility, export, delete, limits and
ownership."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.bankload import parse_bank
from bot.bankload.creators import check_document
from bot.bankload.dump import dump_bank
from bot.features.myquizzes import service as quizzes
from bot.features.myquizzes.problems import NotYourQuiz, QuizBusy, QuizGone
from bot.features.myquizzes.results import summarize
from bot.features.myquizzes.service import (
    ID_LENGTH,
    ID_PREFIX,
    VERSION_TRIES,
    Published,
    QuizzesService,
    Rejected,
)
from bot.kernel.analysis import Response
from bot.kernel.bankdata import bank_data
from bot.kernel.library import Visibility

OWNER, OTHER = 7, 8


def question(n: int, right: str = "Paris", wrong: str = "Lyon") -> dict[str, Any]:
    """A question mapping in English, its explanation not giving another's answer away."""
    return {
        "id": f"q{n}",
        "prompt": {"en": f"Which city is answer number {n}?"},
        "options": [{"text": {"en": right}, "correct": True}, {"text": {"en": wrong}}],
        "explanation": {"en": f"Reason number {n}."},
        "source": {"title": "Atlas", "url": "https://example.org/atlas"},
    }


def quiz_data(questions: int = 2, title: str = "Capitals") -> dict[str, Any]:
    """A valid one-language bank mapping of ``questions`` questions."""
    return {
        "id": "draft",
        "version": 1,
        "default_language": "en",
        "languages": ["en"],
        "level": "easy",
        "title": {"en": title},
        "description": {"en": "Made in a chat."},
        "questions": [question(n, f"City {n}a", f"City {n}b") for n in range(1, questions + 1)],
    }


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


@pytest.fixture
def forgotten() -> list[str]:
    return []


@pytest.fixture
def service(store, forgotten) -> QuizzesService:
    return QuizzesService(
        store,
        store,
        check=check_document,
        parse=parse_bank,
        dump=dump_bank,
        clock=lambda: 1000.0,
        forget=forgotten.append,
        rng=random.Random(4),
    )


async def published(service: QuizzesService, **kwargs: Any) -> Published:
    outcome = await service.publish(OWNER, dump_bank(quiz_data(**kwargs)), language="en")
    assert isinstance(outcome, Published), outcome
    return outcome


async def test_publish_stores_version_1_under_a_fresh_id(service, store, forgotten):
    """A valid document becomes version 1 of a new quiz with a c- id, owned by its creator."""
    outcome = await published(service)
    record = outcome.record
    assert record.id.startswith(ID_PREFIX) and len(record.id) == len(ID_PREFIX) + ID_LENGTH
    assert (record.owner_id, record.version, record.title, record.questions, record.visibility) == (
        OWNER,
        1,
        "Capitals",
        2,
        Visibility.LINK,
    )
    stored = await store.quiz_version(record.id)
    bank = parse_bank(stored.document)
    assert (bank.id, bank.version) == (record.id, 1)
    assert forgotten == [record.id]


async def test_bank_data_without_a_language_gets_the_creators(service):
    """Bank data without default_language or languages is in the creator's language."""
    data = quiz_data()
    del data["default_language"], data["languages"]
    for q in data["questions"]:
        for key in ("prompt", "explanation"):
            q[key] = {"hi": q[key]["en"]}
        for option in q["options"]:
            option["text"] = {"hi": option["text"]["en"]}
    data["title"], data["description"] = {"hi": "राजधानियाँ"}, {"hi": "चैट में बना"}
    outcome = await service.publish(OWNER, data, language="hi")
    assert isinstance(outcome, Published)
    assert (outcome.record.language, outcome.bank.languages) == ("hi", ("hi",))


async def test_an_invalid_document_stores_nothing(service, store):
    """A document with problems is rejected with each problem's key and question number, and
    nothing is stored."""
    data = quiz_data()
    data["questions"][1]["options"][1]["text"]["en"] = "City 2a"
    outcome = await service.publish(OWNER, dump_bank(data), language="en")
    assert isinstance(outcome, Rejected)
    assert [(p.key, p.question, p.field) for p in outcome.problems] == [
        ("problem.same_option", 2, "option 2.text.en")
    ]
    assert await store.quizzes_of(OWNER) == []


async def test_the_strict_checks_reject_too(service, store):
    """An item-writing finding (quizbot validate --strict) rejects the document."""
    data = quiz_data()
    data["questions"][0]["options"][0]["text"]["en"] = "A very much longer right answer here"
    outcome = await service.publish(OWNER, dump_bank(data), language="en")
    assert isinstance(outcome, Rejected)
    assert {p.key for p in outcome.problems} >= {"check.longest-correct"}
    assert await store.count_quizzes(OWNER) == 0


async def test_a_creator_has_at_most_100_quizzes(service, store, monkeypatch):
    """The quota counts stored quizzes: at the limit, publish is refused with its key."""
    monkeypatch.setattr(quizzes, "MAX_QUIZZES", 2)
    await published(service)
    await published(service)
    outcome = await service.publish(OWNER, dump_bank(quiz_data()), language="en")
    assert isinstance(outcome, Rejected)
    assert outcome.problems[0].key == "quizzes.too_many"
    assert await store.count_quizzes(OWNER) == 2
    other = await service.publish(OTHER, dump_bank(quiz_data()), language="en")
    assert isinstance(other, Published)


async def test_a_taken_id_is_drawn_again(service, store):
    """When the random id is taken, another is drawn and the quiz is stored under it."""
    first = await published(service)
    service._rng = random.Random(4)  # the same sequence: the first id drawn is taken
    second = await published(service)
    assert second.record.id != first.record.id
    assert await store.count_quizzes(OWNER) == 2


async def test_update_makes_a_new_version_with_the_same_id(service, store, forgotten):
    """The owner's update keeps the id and stores version 2; version 1 stays."""
    first = await published(service)
    data = bank_data(first.bank)
    data["languages"] = ["en", "hi"]
    data["title"]["hi"] = "राजधानियाँ"
    data["description"]["hi"] = "चैट में बना क्विज़।"
    for q in data["questions"]:
        q["prompt"]["hi"] = q["prompt"]["en"] + " (हिन्दी)"
        q["explanation"]["hi"] = q["explanation"]["en"] + " (हिन्दी)"
        for option in q["options"]:
            option["text"]["hi"] = option["text"]["en"] + " हि"
    outcome = await service.update(OWNER, first.record.id, dump_bank(data))
    assert isinstance(outcome, Published) and not outcome.created
    assert (outcome.record.id, outcome.record.version) == (first.record.id, 2)
    assert outcome.bank.languages == ("en", "hi")
    assert parse_bank((await store.quiz_version(first.record.id, 1)).document).languages == ("en",)
    assert forgotten == [first.record.id, first.record.id]


async def test_only_the_owner_changes_a_quiz(service, store):
    """Someone else's update, edit, visibility change or deletion is refused; nothing changes."""
    first = await published(service)
    quiz_id = first.record.id
    with pytest.raises(NotYourQuiz):
        await service.update(OTHER, quiz_id, dump_bank(quiz_data()))
    broken = quiz_data()
    broken["questions"] = []
    with pytest.raises(NotYourQuiz):
        await service.update(OTHER, quiz_id, dump_bank(broken))
    with pytest.raises(NotYourQuiz):
        await service.rename(OTHER, quiz_id, "Mine now")
    with pytest.raises(NotYourQuiz):
        await service.delete_question(OTHER, quiz_id, 1)
    with pytest.raises(NotYourQuiz):
        await service.set_visibility(OTHER, quiz_id, Visibility.PUBLIC)
    with pytest.raises(NotYourQuiz):
        await service.delete(OTHER, quiz_id)
    with pytest.raises(NotYourQuiz):
        await service.export(OTHER, quiz_id)
    with pytest.raises(NotYourQuiz):
        await service.results(OTHER, quiz_id)
    record = await store.quiz(quiz_id)
    assert (record.version, record.title, record.visibility) == (1, "Capitals", Visibility.LINK)
    with pytest.raises(QuizGone):
        await service.rename(OWNER, "c-nosuchquiz", "x")


class Contended:
    """The store, as seen while other edits always store their version first."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.tries = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def add_version(self, *args: Any, **kwargs: Any) -> None:
        self.tries += 1


async def test_a_version_that_never_gets_in_is_refused_as_busy(service, store):
    """Other edits moving the latest version on every time: refused after VERSION_TRIES tries;
    a sent document naming the quiz is rejected as busy instead."""
    quiz_id = (await published(service)).record.id
    contended = Contended(store)
    busy = QuizzesService(
        contended,
        store,
        check=check_document,
        parse=parse_bank,
        dump=dump_bank,
        clock=lambda: 1000.0,
    )
    with pytest.raises(QuizBusy):
        await busy.rename(OWNER, quiz_id, "New title")
    assert contended.tries == VERSION_TRIES
    document = dump_bank({**quiz_data(title="Sent"), "id": quiz_id})
    sent = await busy.submit(OWNER, document, language="en")
    assert isinstance(sent.result, Rejected)
    assert [p.key for p in sent.result.problems] == ["quizzes.toast_busy"]
    assert (await store.quiz(quiz_id)).version == 1


async def test_edits_each_make_a_version(service):
    """Rename, add, replace, move and delete a question: each stores the next version."""
    first = await published(service, questions=3)
    quiz_id = first.record.id
    renamed = await service.rename(OWNER, quiz_id, "World capitals")
    assert isinstance(renamed, Published)
    assert (renamed.record.version, renamed.record.title) == (2, "World capitals")
    typed = {
        "prompt": {"en": "Which river flows through Cairo?"},
        "options": [{"text": {"en": "Nile"}, "correct": True}, {"text": {"en": "Niger"}}],
        "explanation": {"en": "Cairo lies on its banks."},
    }
    added = await service.add_question(OWNER, quiz_id, {**typed, "source": question(0)["source"]})
    assert isinstance(added, Published)
    assert [q.id for q in added.bank.questions] == ["q1", "q2", "q3", "q4"]
    assert added.bank.questions[3].prompt.by_language["en"] == "Which river flows through Cairo?"
    moved = await service.move_question(OWNER, quiz_id, 4, 1)
    assert isinstance(moved, Published)
    assert [q.id for q in moved.bank.questions] == ["q4", "q1", "q2", "q3"]
    replaced = await service.replace_question(OWNER, quiz_id, 2, question(9, "Rome", "Milan"))
    assert isinstance(replaced, Published)
    assert replaced.bank.questions[1].options[0].text.by_language["en"] == "Rome"
    assert replaced.bank.questions[1].id not in {"q1"}
    deleted = await service.delete_question(OWNER, quiz_id, 1)
    assert isinstance(deleted, Published)
    assert deleted.record.version == 6 and deleted.record.questions == 3


async def test_a_question_in_one_language_fills_every_language(service):
    """A question typed in one language, added to a quiz in two, has its texts in both."""
    data = quiz_data(questions=1)
    data["languages"] = ["en", "el"]
    for text in (data["title"], data["description"]):
        text["el"] = text["en"] + " ελ"
    for q in data["questions"]:
        for key in ("prompt", "explanation"):
            q[key]["el"] = q[key]["en"] + " ελ"
        for option in q["options"]:
            option["text"]["el"] = option["text"]["en"] + " ελ"
    first = await service.publish(OWNER, dump_bank(data), language="en")
    assert isinstance(first, Published)
    added = await service.add_question(OWNER, first.record.id, question(2, "Athens", "Sparta"))
    assert isinstance(added, Published)
    assert added.bank.questions[1].prompt.by_language == {
        "en": "Which city is answer number 2?",
        "el": "Which city is answer number 2?",
    }


async def test_edits_refuse_impossible_numbers_and_the_last_question(service):
    """A question number out of range, or deleting the only question, is rejected by key."""
    first = await published(service, questions=1)
    quiz_id = first.record.id
    outcome = await service.delete_question(OWNER, quiz_id, 1)
    assert isinstance(outcome, Rejected) and outcome.problems[0].key == "quizzes.last_question"
    outcome = await service.move_question(OWNER, quiz_id, 1, 5)
    assert isinstance(outcome, Rejected) and outcome.problems[0].key == "quizzes.no_question"
    outcome = await service.replace_question(OWNER, quiz_id, 3, question(3))
    assert isinstance(outcome, Rejected) and dict(outcome.problems[0].params) == {"number": 3}


async def test_visibility_export_and_delete(service, store, forgotten):
    """The owner makes the quiz public, exports its document and deletes it."""
    first = await published(service)
    quiz_id = first.record.id
    public = await service.set_visibility(OWNER, quiz_id, Visibility.PUBLIC)
    assert public.visibility is Visibility.PUBLIC
    assert [r.id for r in await store.search_quizzes("capit", limit=5)] == [quiz_id]
    record, document = await service.export(OWNER, quiz_id)
    assert record.id == quiz_id and parse_bank(document) == first.bank
    deleted = await service.delete(OWNER, quiz_id)
    assert deleted.id == quiz_id
    assert await store.quiz(quiz_id) is None
    with pytest.raises(QuizGone):
        await service.delete(OWNER, quiz_id)
    assert forgotten == [quiz_id] * 3


async def test_results_without_answers(service):
    """A quiz nobody played has no attempts and no answers per question."""
    first = await published(service)
    owned, results = await service.results(OWNER, first.record.id)
    assert owned.record.id == first.record.id
    assert (results.attempts, results.players, results.average) == (0, 0, 0.0)
    assert [q.answers for q in results.questions] == [0, 0]


def test_summarize_counts_sittings_players_and_the_most_chosen_wrong_option():
    """Results: sittings and players over private and group plays, the mean score, and per
    question the share right and the wrong option chosen most."""
    bank = parse_bank(
        dump_bank(
            {
                **quiz_data(),
                "questions": [
                    question(1),
                    {
                        **question(2),
                        "options": [
                            {"text": {"en": "Rome"}, "correct": True},
                            {"text": {"en": "Milan"}},
                            {"text": {"en": "Turin"}},
                        ],
                    },
                ],
            }
        )
    )

    def r(kind: str, sitting: int, user: int, qid: str, option: int) -> Response:
        correct = option == 0
        return Response(kind, sitting, user, bank.id, qid, option, correct, "en")

    responses = [
        r("private", 1, 10, "q1", 0),
        r("private", 1, 10, "q2", 2),
        r("group", 5, 10, "q1", 1),
        r("group", 5, 10, "q2", 2),
        r("group", 5, 11, "q1", 0),
        r("group", 5, 11, "q2", 1),
        r("private", 2, 12, "gone", 0),
    ]
    results = summarize(bank, responses)
    assert (results.attempts, results.players) == (4, 3)
    assert results.average == pytest.approx((0.5 + 0.0 + 0.5 + 1.0) / 4)
    q1, q2 = results.questions
    assert (q1.answers, q1.right, q1.wrong_option, q1.wrong_count) == (3, 2 / 3, 1, 1)
    assert (q2.answers, q2.right, q2.wrong_option, q2.wrong_count) == (3, 0.0, 2, 2)
