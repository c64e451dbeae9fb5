"""CreatorService: /newquiz drafts through DraftStore on each engine (a SQLite file and
PostgreSQL), published through the real QuizzesService with the strict checks."""

from __future__ import annotations

import pytest

from bot.bankload import parse_bank
from bot.bankload.creators import check_document
from bot.bankload.dump import dump_bank
from bot.features.myquizzes.service import Published, QuizzesService, Rejected
from bot.features.newquiz import rules as creating
from bot.features.newquiz.draft import Step
from bot.features.newquiz.rules import Added, PollSent, Refused, Stale
from bot.features.newquiz.service import (
    Changed,
    CreatorService,
    DraftOpen,
    Flooded,
    NoDraft,
    Opened,
)
from tests.support.clock import FakeClock

ADA, BO = 901, 902


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


def make(store, clock) -> CreatorService:
    quizzes = QuizzesService(
        store, store, check=check_document, parse=parse_bank, dump=dump_bank, clock=clock
    )
    return CreatorService(
        store,
        lambda owner, data, language: quizzes.publish(owner, data, language=language),
        clock=clock,
    )


async def collecting(service: CreatorService, user_id: int = ADA) -> None:
    opened = await service.new(user_id, "el")
    assert isinstance(opened, Opened) and opened.fresh
    await service.text(user_id, "Πρωτεύουσες", message_id=1)
    await service.skip(user_id)


async def test_a_draft_is_stored_after_each_step_and_read_by_a_new_service(engine, store):
    """Another service over another connection to the same database goes on with the draft."""
    clock = FakeClock()
    service = make(store, clock)
    await collecting(service)
    added = await service.text(ADA, "Πρώτη;\n*α\nβ", message_id=2)
    assert isinstance(added, Changed) and isinstance(added.outcome, Added)
    other = await engine.open()
    try:
        again = await make(other, clock).draft(ADA)
    finally:
        await other.close()
    assert again == added.draft and again.step is Step.QUESTIONS and again.language == "el"


async def test_newquiz_over_an_open_draft_and_stale_choices(store):
    """/newquiz with a draft open asks; Go on and Start over name the draft they were shown
    with, so an older button changes nothing."""
    clock = FakeClock()
    service = make(store, clock)
    await collecting(service)
    asked = await service.new(ADA, "el")
    assert isinstance(asked, DraftOpen)
    started = asked.draft.started
    resumed = await service.resume(ADA, started)
    assert isinstance(resumed, Opened) and resumed.outcome == creating.Prompt(Step.QUESTIONS)
    clock.advance(1)
    restarted = await service.restart(ADA, "en", started)
    assert isinstance(restarted, Opened) and restarted.draft.started != started
    assert await service.resume(ADA, started) == Stale()
    assert await service.restart(ADA, "en", started) == Stale()
    draft = await service.draft(ADA)
    assert draft is not None and draft.step is Step.TITLE and draft.language == "en"


async def test_buttons_of_another_draft_are_stale(store):
    """An Undo or a right-option tap names its draft: after /cancel and a new draft, it is
    stale, and nothing changes."""
    clock = FakeClock()
    service = make(store, clock)
    await collecting(service)
    added = await service.text(ADA, "Q?\n*a\nb", message_id=2)
    assert isinstance(added, Changed) and isinstance(added.outcome, Added)
    old, serial = added.draft.started, added.outcome.question.serial
    assert await service.cancel(ADA)
    assert await service.undo(ADA, old, serial) == NoDraft()
    clock.advance(1)
    await collecting(service)
    await service.text(ADA, "Q?\n*a\nb", message_id=3)
    stale = await service.undo(ADA, old, serial)
    assert isinstance(stale, Changed) and stale.outcome == Stale()
    assert len((await service.draft(ADA)).questions) == 1


async def test_a_flood_gets_one_answer_and_nothing_is_lost(store):
    """The 21st new question in a minute is refused with a first answer, the 22nd silently;
    the 20 stay, and a minute later questions are taken again."""
    service = make(store, FakeClock())
    await collecting(service)
    for number in range(creating.QUESTIONS_PER_MINUTE):
        result = await service.text(ADA, f"Q{number}?\n*a\nb", message_id=10 + number)
        assert isinstance(result, Changed) and isinstance(result.outcome, Added)
    assert await service.text(ADA, "Q20?\n*a\nb", message_id=40) == Flooded(first=True)
    assert await service.poll(
        ADA, PollSent("Q21?", ("a", "b"), True, (0,), "", False, 41)
    ) == Flooded(first=False)
    other = await service.text(BO, "not in a draft", message_id=1)
    assert other == NoDraft()
    explained = await service.text(ADA, "Why.", message_id=42, reply_to=10)
    assert isinstance(explained, Changed)  # a reply adds no question: not limited
    assert len((await service.draft(ADA)).questions) == creating.QUESTIONS_PER_MINUTE


async def test_done_publishes_and_drops_the_draft(store):
    """/done stores the quiz (a c- id, the creator's language) and drops the draft."""
    service = make(store, FakeClock())
    await collecting(service)
    await service.text(
        ADA,
        "Ποια είναι η πρωτεύουσα της Ελλάδας;\nΣπάρτη\n*Αθήνα\nΠάτρα\n> Από το 1834.",
        message_id=2,
    )
    published = await service.done(ADA, description="Ένα κουίζ.")
    assert isinstance(published, Published), published
    assert published.bank.id.startswith("c-") and published.bank.default_language == "el"
    assert [q.id for q in published.bank.questions] == ["q1"]
    assert await service.draft(ADA) is None
    record = await store.quiz(published.bank.id)
    assert record is not None and record.owner_id == ADA


async def test_done_with_problems_keeps_the_draft_and_names_the_question(store):
    """A quiz the strict checks refuse is not stored; the problems name question 2."""
    service = make(store, FakeClock())
    await collecting(service)
    await service.text(ADA, "Πρώτη;\n*Αθήνα\nΣπάρτη", message_id=2)
    await service.text(ADA, "Δεύτερη;\n*Η σωστή και πολύ πιο μακριά απάντηση\nΌχι", message_id=3)
    rejected = await service.done(ADA, description="")
    assert isinstance(rejected, Rejected)
    assert {p.question for p in rejected.problems} == {2}
    assert await service.draft(ADA) is not None
    assert await store.quizzes_of(ADA) == []


async def test_done_without_questions_or_with_a_pending_poll(store):
    """/done needs a question, and no poll waiting for its right option."""
    service = make(store, FakeClock())
    assert await service.done(ADA, description="") == NoDraft()
    await collecting(service)
    assert await service.done(ADA, description="") == Refused("no_questions")
    await service.poll(ADA, PollSent("Q?", ("a", "b"), False, None, "", False, 5))
    assert await service.done(ADA, description="") == Refused("answer_pending")


async def test_drafts_left_a_week_are_dropped(store):
    """A draft unchanged for over 7 days is gone when read, and prune drops the others."""
    clock = FakeClock(1_000_000.0)
    service = make(store, clock)
    await collecting(service, ADA)
    await collecting(service, BO)
    clock.advance(creating.DRAFT_SECONDS - 10)
    await service.text(BO, "Q?\n*a\nb", message_id=9)  # Bo's changed lately
    clock.advance(20)
    assert await service.draft(ADA) is None
    await collecting(service, ADA)
    clock.advance(creating.DRAFT_SECONDS + 1)
    assert await service.prune() == 2
    assert await service.draft(BO) is None


async def test_an_unreadable_draft_is_dropped(store):
    """A stored draft of another shape is dropped, not shown."""
    service = make(store, FakeClock())
    await store.save_draft(ADA, {"v": 99}, now=1000.0)
    assert await service.draft(ADA) is None
    assert await store.draft(ADA) is None
