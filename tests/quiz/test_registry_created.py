"""Created quizzes served by the bank registry to every service, stored for real on each engine
(SQLite file and PostgreSQL): versions, takedowns, deletions, forget, group sessions, review
cards, inline search, /stats and the group's bank setting."""

from __future__ import annotations

import pytest

from bot.bankload import parse_bank
from bot.features.groups.service import GroupService
from bot.features.groups.settings import GroupSettings
from bot.features.groups.starting import pick_bank
from bot.features.learning.service import LearningService
from bot.features.private.service import QuizService
from bot.features.private.starting import Started, resume_or_start
from bot.features.sharing import rules as sharing
from bot.kernel import engine as rules
from bot.kernel.engine import BankChanged, UnknownBank
from bot.kernel.library import Visibility
from bot.kernel.registry import BankRegistry, BankUnavailable
from tests.support.clock import FakeClock
from tests.support.created import store_quiz, store_version

QUIZ = "c-abcdefghij"
T0 = 1_780_000_000.0


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


@pytest.fixture
def timer() -> FakeClock:
    """The record cache's clock."""
    return FakeClock(0.0)


@pytest.fixture
def registry(store, banks, timer) -> BankRegistry:
    return BankRegistry(banks, store, parse=parse_bank, timer=timer)


async def answer_all(quiz: QuizService, user_id: int, attempt: rules.Attempt) -> rules.Attempt:
    """Answer every question right, through the service; the finished attempt."""
    while attempt.status == rules.ACTIVE:
        bank = await quiz.bank_of(attempt)
        view = rules.view(attempt, bank)
        attempt, answer = await quiz.grade(user_id, attempt.id, attempt.position, view.correct_slot)
        attempt = await quiz.record(attempt, answer)
        attempt, _ = await quiz.current(attempt)
    return attempt


async def test_a_created_quiz_is_served_at_every_stored_version(store, registry):
    """The latest version starts; each stored version is served exactly; one not stored is
    refused as changed, a quiz that does not exist as unknown."""
    record = await store_quiz(store, QUIZ)
    first = await registry.bank(QUIZ)
    assert (first.id, first.version, len(first.questions)) == (QUIZ, 1, 3)
    await store_version(store, record, questions=2)
    registry.forget(QUIZ)
    latest = await registry.bank(QUIZ)
    assert (latest.version, len(latest.questions)) == (2, 2)
    assert await registry.bank(QUIZ, 1) is first  # parsed once, kept
    with pytest.raises(BankChanged):
        await registry.bank(QUIZ, 3)
    with pytest.raises(UnknownBank):
        await registry.bank("c-nosuchquiz")
    assert not registry.is_featured(QUIZ) and registry.default_bank is not None


async def test_an_attempt_on_version_1_finishes_on_it_after_version_2(store, registry):
    """An attempt planned on version 1 goes on and finishes on version 1 once version 2 is
    stored; a new attempt starts on version 2; /start of the quiz resumes the first."""
    record = await store_quiz(store, QUIZ, questions=3)
    quiz = QuizService(store, registry, clock=FakeClock(T0))
    started = await resume_or_start(quiz, 5, QUIZ)
    assert isinstance(started, Started) and started.attempt.bank_version == 1
    attempt, answer = await quiz.grade(
        5, started.attempt.id, 0, rules.view(started.attempt, started.bank).correct_slot
    )
    attempt = await quiz.record(attempt, answer)

    await store_version(store, record, questions=2)
    registry.forget(QUIZ)  # what the creator-side service does after storing it
    assert (await registry.bank(QUIZ)).version == 2

    resumed = await resume_or_start(quiz, 5, QUIZ)
    assert not isinstance(resumed, Started) and resumed.attempt.id == attempt.id
    bank = await quiz.bank_of(resumed.attempt)
    assert (
        bank.version == 1
        and rules.view(resumed.attempt, bank).question.prompt.get("en", "en")
        == "Question 2 of version 1?"
    )
    finished = await answer_all(quiz, 5, resumed.attempt)
    assert finished.status == rules.FINISHED and rules.result(finished).score == 3
    assert finished.total == 3 and finished.bank_version == 1
    assert (await quiz.start(6, QUIZ)).bank_version == 2


async def test_a_taken_down_quiz_starts_nothing_and_ends_what_is_in_progress(
    store, registry, timer
):
    """A disabled quiz is not startable (BankUnavailable); an attempt in progress on it is
    refused as a changed bank and abandoned when resumed. A takedown made elsewhere (another
    process) is seen once the record is read again; forget makes it immediate."""
    await store_quiz(store, QUIZ)
    quiz = QuizService(store, registry, clock=FakeClock(T0))
    attempt = await quiz.start(5, QUIZ)
    await store.set_disabled(QUIZ, True, now=T0)  # `quizbot banks disable`, another process
    assert await registry.startable(QUIZ)  # its record is still the one read
    timer.advance(31)
    assert not await registry.startable(QUIZ)
    with pytest.raises(BankUnavailable):
        await quiz.start(6, QUIZ)
    with pytest.raises(BankChanged):
        await quiz.grade(5, attempt.id, 0, 0)
    assert await quiz.active(5) is None  # abandoned

    await store.set_disabled(QUIZ, False, now=T0)
    registry.forget(QUIZ)
    assert (await quiz.start(6, QUIZ)).bank_id == QUIZ


async def test_a_deleted_quiz_is_gone_at_once_after_forget(store, registry):
    """After a deletion and forget, the quiz is unknown and an attempt on it is refused."""
    await store_quiz(store, QUIZ)
    quiz = QuizService(store, registry, clock=FakeClock(T0))
    attempt = await quiz.start(5, QUIZ)
    assert await store.delete_quiz(QUIZ)
    registry.forget(QUIZ)
    with pytest.raises(UnknownBank):
        await quiz.start(5, QUIZ)
    with pytest.raises(BankChanged):
        await quiz.next(5, attempt.id, 0)


async def test_a_group_session_on_a_created_quiz_finishes_on_its_version(store, registry):
    """A group session starts on the latest version and goes on with its own after an edit;
    the group's bank setting takes a created quiz, and /quiz then starts it."""
    record = await store_quiz(store, QUIZ, questions=3)
    groups = GroupService(
        store, registry, question_seconds=30.0, languages=("en",), clock=FakeClock(T0)
    )
    session = await groups.start(-100, QUIZ, 5, "en")
    assert session.bank_version == 1
    await store_version(store, record, questions=2)
    registry.forget(QUIZ)
    assert (await groups.bank_of(session)).version == 1
    opened = await groups.open(session)
    assert opened is not None
    _, answer, _ = await groups.tap(session.id, -100, 0, 0, 7, "Ann")
    assert answer.question_id in {"q1", "q2", "q3"}

    chosen = await groups.settings(-200)
    assert QUIZ not in [b.id for b in await groups.choosable(-200, chosen)]
    changed = await groups.change_setting(-200, chosen.version, "bank", QUIZ)
    assert changed.bank_id == QUIZ
    assert QUIZ in [b.id for b in await groups.choosable(-200, changed)]
    assert (await pick_bank(registry, None, changed)).bank_id == QUIZ
    with pytest.raises(rules.QuizError):  # a forged id that names nothing
        await groups.change_setting(-200, changed.version, "bank", "c-forgedforg")


async def test_the_group_setting_of_a_taken_down_quiz_is_gone(store, registry, banks):
    """A group's chosen created quiz that is taken down is named as gone; the only featured
    bank is started instead, and /quiz <id> of it starts nothing."""
    await store_quiz(store, QUIZ)
    await store.set_disabled(QUIZ, True, now=T0)
    chosen = GroupSettings(bank_id=QUIZ)
    pick = await pick_bank(registry, None, chosen)
    assert (pick.bank_id, pick.gone) == (next(iter(banks)), QUIZ)
    assert (await pick_bank(registry, QUIZ, GroupSettings())).bank_id is None


async def test_review_cards_of_a_created_quiz_come_due(store, registry):
    """An answer on a created quiz makes a card that comes due, is reviewed and charted, as
    on a featured bank; a restarted service finds it from the stored cards."""
    await store_quiz(store, QUIZ)
    clock = FakeClock(T0)
    learning = LearningService(store, registry, clock=clock)
    await learning.answered(5, QUIZ, "q2", True, clock.now)
    assert await learning.due(5) is None
    assert await learning.next_due(5) is not None
    clock.advance(3 * 86_400)
    item = await learning.due(5)
    assert item is not None and (item.bank.id, item.card.question_id) == (QUIZ, "q2")
    _, correct, _ = await learning.review(5, item.card.id, item.card.reps, item.correct_slot)
    assert correct
    assert [(b.id, q) for b, q, _ in (await learning.progress(5)).cards] == [(QUIZ, "q2")]
    clock.advance(30 * 86_400)
    restarted = LearningService(store, registry, clock=clock)
    assert (await restarted.due(5)).bank.id == QUIZ
    await store.set_disabled(QUIZ, True, now=T0)
    registry.forget(QUIZ)
    assert await restarted.due(5) is None  # a taken-down quiz's cards are not served


async def test_cards_written_by_another_instance_are_served_when_storage_is_shared(store, registry):
    """Several instances: a learner's first card of a created quiz, written through one
    instance, is served by another that had read the learner before; alone (not shared), an
    instance trusts what it read. A review card's "next" served on one instance is stale on
    the other once told (the store's news)."""
    await store_quiz(store, QUIZ)
    clock = FakeClock(T0)
    here, there = (LearningService(store, registry, clock=clock) for _ in range(2))
    alone = LearningService(store, registry, clock=clock)
    there.shared = True
    for service in (there, alone):
        assert await service.due(5) is None  # read: no card of a created quiz yet
    await here.answered(5, QUIZ, "q2", False, clock.now)
    clock.advance(3 * 86_400)
    item = await there.due(5)
    assert item is not None and (item.bank.id, item.card.question_id) == (QUIZ, "q2")
    assert await alone.due(5) is None

    async def announce(card_id: int, what: str, value: int) -> None:  # the store's news
        there.noted_elsewhere(card_id, what, value)

    here.announce = announce
    assert here.take_next(item.card.id, 1)
    await here.note_next(item.card.id, 1)
    assert not there.take_next(item.card.id, 1)
    assert there.take_next(item.card.id, 2)


async def test_inline_search_offers_featured_banks_then_public_created_quizzes(
    store, registry, banks
):
    """The search finds the featured banks and the public created quizzes whose title
    contains the text, never a link-only or taken-down one, at most 10 created ones a page."""
    await store_quiz(store, QUIZ, title="Capitals of Europe", visibility=Visibility.PUBLIC)
    await store_quiz(store, "c-linkonly00", title="Capitals of Asia")
    await store_quiz(
        store, "c-takendown0", title="Capitals of Africa", visibility=Visibility.PUBLIC
    )
    await store.set_disabled("c-takendown0", True, now=T0)
    found = await sharing.find(registry, "capitals", "")
    assert [b.id for b in found.page] == [QUIZ] and found.next_offset == ""
    everything = await sharing.find(registry, "", "")
    assert [b.id for b in everything.page] == [*banks, QUIZ]
    for n in range(60):
        await store_quiz(
            store, f"c-many{n:06d}", title=f"Many {n}", visibility=Visibility.PUBLIC, now=2000.0 + n
        )
    first = await sharing.find(registry, "many", "")
    assert len(first.page) == sharing.CREATED_PER_PAGE and first.next_offset == "10"
    assert first.page[0].id == "c-many000059"  # most recently updated first
    pages, offset = [first.page], first.next_offset
    while offset:
        found = await sharing.find(registry, "many", offset)
        assert 0 < len(found.page) <= sharing.CREATED_PER_PAGE
        pages.append(found.page)
        offset = found.next_offset
    assert len(pages) == 6
    assert [b.id for page in pages for b in page] == [f"c-many{n:06d}" for n in range(59, -1, -1)]
    # featured banks fill their pages; created quizzes after them come at most 10 a page
    assert [b.id for b in everything.page] == [*banks, QUIZ]


async def test_inline_search_by_exact_id_finds_a_link_only_quiz(store, registry):
    """The Share button of a link-only quiz types its id: that exact id finds it (whoever has
    the id has the link), never a taken-down one, and its title alone still finds nothing."""
    await store_quiz(store, "c-linkonly00", title="Capitals of Asia")
    await store_quiz(store, "c-takendown0", title="Capitals of Africa")
    await store.set_disabled("c-takendown0", True, now=T0)
    found = await sharing.find(registry, "  c-linkonly00 ", "")
    assert [b.id for b in found.page] == ["c-linkonly00"] and found.next_offset == ""
    assert (await sharing.find(registry, "c-takendown0", "")).page == []
    assert (await sharing.find(registry, "Capitals of Asia", "")).page == []
    assert (await sharing.find(registry, "c-nosuchquiz", "")).page == []


async def test_stats_name_created_quizzes(store, registry, banks):
    """/stats names a created quiz by its title, alongside the featured banks."""
    await store_quiz(store, QUIZ)
    quiz = QuizService(store, registry, clock=FakeClock(T0))
    await answer_all(quiz, 5, await quiz.start(5, QUIZ))
    records = await quiz.stats(5)
    named = await quiz.named_banks(r.bank_id for r in records)
    assert [r.bank_id for r in records] == [QUIZ]
    assert named[QUIZ].title.get("en", "en") == "Capitals of Europe"
    assert set(banks) < set(named)
