"""Tests for bot.features.preferences.service: users' and groups' choices, cached per user, on a
real SQLite file."""

from __future__ import annotations

from bot.features.preferences.flow import AnswerFlow
from bot.features.preferences.service import PreferencesService
from storage import SQLiteStore


async def test_choices_are_cached_and_dropped_when_changed_elsewhere_or_forgotten(tmp_path):
    """Two services on one store (two instances): a choice made on one is seen by the other
    only once it drops its cache (news of a change for that user, or for anyone); a deletion
    drops the user's choices here."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        here, there = PreferencesService(store), PreferencesService(store)
        assert await there.chosen_language(1) is None
        assert await there.answer_flow(1) is AnswerFlow.NEXT
        await here.choose_language(1, "el")
        await here.choose_answer_flow(1, AnswerFlow.ONE_TAP)
        assert await there.chosen_language(1) is None  # cached there
        there.changed_elsewhere(1)
        assert await there.chosen_language(1) == "el"
        assert await there.answer_flow(1) is AnswerFlow.ONE_TAP
        await here.choose_language(1, "hi")
        there.changed_elsewhere(None)  # news may have been missed: everyone's read again
        assert await there.chosen_language(1) == "hi"
        assert there.cached == {"languages": 1, "flows": 0}
        await there.forget(1)
        assert there.cached == {"languages": 0, "flows": 0}
    finally:
        await store.close()


async def test_a_groups_language_is_an_admins_choice(tmp_path):
    """A group has no language until one is set; an admin's choice replaces it."""
    store = await SQLiteStore.open(tmp_path / "quiz.sqlite3")
    try:
        preferences = PreferencesService(store)
        assert await preferences.group_language(-100) is None
        await preferences.set_group_language(-100, "el")
        await preferences.set_group_language(-100, "hi")
        assert await preferences.group_language(-100) == "hi"
    finally:
        await store.close()
