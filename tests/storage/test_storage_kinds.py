"""Storage of the question kinds on both engines: an answer's set of chosen options (private
and group), a group member's ticks before Submit, and the item analysis reading them."""

from __future__ import annotations

import pytest

from bot.features.groups.rules import GroupAnswer
from bot.kernel.analysis import analyse, most_chosen_wrong
from bot.kernel.engine import Answer, Plan
from bot.kernel.ports import RECORDED
from tests.support.engines import record

PLAN = Plan(("q1", "q2"), ((0, 1, 2, 3), (3, 2, 1, 0)))


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


async def test_a_private_answer_keeps_its_set_of_chosen_options(store):
    """An answer of several options reads back with every chosen option; one of a single
    option reads back without a set."""
    attempt = await store.start_attempt(7, "bank", 1, PLAN, now=100.0)
    several = Answer("q1", 0, False, 101.0, (0, 3))
    assert await record(store, attempt, several) == RECORDED
    stored = await store.attempt(attempt.id)
    assert stored.answers["q1"] == several and stored.answers["q1"].choice == {0, 3}
    single = Answer("q2", 2, True, 102.0)
    assert await record(store, stored, single) == RECORDED
    assert (await store.attempt(attempt.id)).answers["q2"] == single


async def test_group_ticks_are_stored_toggled_and_dropped_when_the_session_ends(store):
    """Ticks toggle per member and question, survive reopening the store (a restart), and go
    with the session's end and with the member's data."""
    session = await store.start_session(-5, "bank", 1, "en", 7, PLAN, 30.0, 1.0)
    assert session is not None
    assert await store.group_pick(session.id, 0, 8) == 0
    assert await store.tick_group_pick(session.id, 0, 8, 2) == 0b100
    assert await store.tick_group_pick(session.id, 0, 8, 0) == 0b101
    assert await store.tick_group_pick(session.id, 0, 8, 2) == 0b001
    assert await store.tick_group_pick(session.id, 0, 9, 3) == 0b1000
    assert await store.group_pick(session.id, 0, 8) == 0b001
    await store.delete_user(9)
    assert await store.group_pick(session.id, 0, 9) == 0
    assert await store.end_session(session.id, "stopped", 2.0)
    assert await store.group_pick(session.id, 0, 8) == 0


async def test_a_group_answer_keeps_its_set_and_the_analysis_counts_each_option(store):
    """A member's set of options is stored with the answer and read back; the item analysis
    counts each chosen option, and the most chosen wrong option leaves the right ones out."""
    session = await store.start_session(-6, "bank", 1, "en", 7, PLAN, 30.0, 1.0)
    assert session is not None and await store.open_question(session.id, 0, 100.0)
    for user, chosen, correct in ((8, (0, 2), True), (9, (0, 1), False), (10, (1, 2), False)):
        answer = GroupAnswer(user, "q1", chosen[0], correct, 1.0, 50.0, chosen)
        tally = await store.record_group_answer(session.id, 0, answer, f"U{user}")
        assert tally.outcome == RECORDED
    answers = await store.group_answers(session.id)
    assert sorted(a.chosen for a in answers) == [(0, 1), (0, 2), (1, 2)]
    (item,) = analyse(await store.item_responses(bank_id="bank"), {("bank", "q1"): 4})
    assert item.options == [2, 2, 2, 0] and item.answers == 3
    assert most_chosen_wrong(item, {0, 2}) == 1
    assert most_chosen_wrong(item, {0, 1, 2}) is None
