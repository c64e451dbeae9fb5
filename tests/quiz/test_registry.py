"""The bank registry over featured banks: versions, the default bank, one swap on reload seen by
every service (created quizzes are in ``tests/quiz/test_registry_created.py``)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.features.groups.service import GroupService
from bot.features.learning.service import LearningService
from bot.features.private.service import QuizService
from bot.kernel.engine import BankChanged, UnknownBank
from bot.kernel.registry import BankRegistry
from tests.support.clock import FakeClock

BANK_ID = "deepspeed-megatron"


async def test_a_featured_bank_is_served_at_its_loaded_version_only(banks):
    """A featured bank is served latest or at its loaded version; another version is gone."""
    registry = BankRegistry(banks)
    bank = banks[BANK_ID]
    assert await registry.bank(BANK_ID) is bank
    assert await registry.bank(BANK_ID, bank.version) is bank
    with pytest.raises(BankChanged):
        await registry.bank(BANK_ID, bank.version - 1)
    # find hands the engine the loaded bank, whose own check refuses the older version
    assert await registry.find(BANK_ID, bank.version - 1) is bank
    with pytest.raises(UnknownBank):
        await registry.bank("no-such-bank")
    with pytest.raises(BankChanged):
        await registry.bank("no-such-bank", 1)
    assert await registry.find("no-such-bank", 1) is None
    assert await registry.startable(BANK_ID) and not await registry.startable("c-0000000000")
    assert await registry.search("", limit=50) == []  # no library: featured banks only


async def test_the_default_bank_is_the_only_featured_one(banks):
    """With one featured bank it is the default; with two or none, the user chooses."""
    bank = banks[BANK_ID]
    other = dataclasses.replace(bank, id="other-bank")
    assert BankRegistry({BANK_ID: bank}).default_bank is bank
    assert BankRegistry({BANK_ID: bank, "other-bank": other}).default_bank is None
    assert BankRegistry({}).default_bank is None


async def test_one_swap_on_reload_is_seen_by_every_service(engine, banks):
    """Replacing the featured banks once changes what the quiz, group and review services
    serve: a new version is started everywhere; attempts, sessions and cards planned on the
    old version are refused or skipped as a changed bank."""
    store = await engine.open()
    clock = FakeClock(1_780_000_000.0)
    registry = BankRegistry(banks)
    quiz = QuizService(store, registry, clock=clock)
    groups = GroupService(store, registry, question_seconds=30.0, languages=("en",), clock=clock)
    learning = LearningService(store, registry, clock=clock)
    try:
        bank = banks[BANK_ID]
        attempt = await quiz.start(7, BANK_ID)
        session = await groups.start(-100, BANK_ID, 7, "en")
        question = bank.questions[0].id
        await learning.answered(7, BANK_ID, question, False, clock.now)
        clock.advance(3 * 86_400)
        assert (await learning.due(7)) is not None

        bumped = dataclasses.replace(bank, version=bank.version + 1)
        registry.replace({BANK_ID: bumped})

        assert quiz.registry.featured[BANK_ID] is bumped
        with pytest.raises(BankChanged):
            await quiz.grade(7, attempt.id, 0, 0)
        with pytest.raises(BankChanged):
            await groups.bank_of(session)
        assert (await quiz.start(8, BANK_ID)).bank_version == bumped.version

        registry.replace({})  # the bank removed: its cards are no longer served
        assert await learning.due(7) is None
        with pytest.raises(UnknownBank):
            await quiz.start(8, BANK_ID)
        assert await quiz.active(8) is None  # abandoned when next resumed
    finally:
        await store.close()


def test_a_service_made_with_a_mapping_serves_those_banks_alone(banks):
    """A plain mapping of banks makes a registry of featured banks without created quizzes."""
    registry = BankRegistry.of(banks)
    assert registry.library is None and dict(registry.featured) == banks
    assert BankRegistry.of(registry) is registry
