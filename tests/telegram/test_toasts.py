"""Tests for the refusal toasts: every refusal the core raises has one, in one feature's map."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import bot.features
import bot.kernel
from bot import i18n
from bot.kernel.engine import QuizError
from bot.routes import TOASTS, merge_toasts


def refusal_classes() -> set[type[QuizError]]:
    """Every subclass of :class:`QuizError` defined in the kernel or a feature (each of their
    modules imported first, so that none is missed)."""
    for package in (bot.kernel, bot.features):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(info.name)
    found: set[type[QuizError]] = set()
    todo = [QuizError]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found and sub.__module__.startswith(("bot.kernel.", "bot.features.")):
                found.add(sub)
                todo.append(sub)
    return found


def test_the_walk_finds_the_refusals_of_every_feature():
    """The walk reaches refusals of the engine, groups, review, homework and the daily."""
    names = {cls.__name__ for cls in refusal_classes()}
    assert {"StaleQuestion", "TooLate", "CardGone", "HomeworkClosed", "DailyClosed"} <= names


def test_every_refusal_of_the_core_has_a_toast():
    """A refusal without a toast would be answered ``toast_invalid`` whatever it means."""
    missing = sorted(cls.__qualname__ for cls in refusal_classes() - TOASTS.keys())
    assert missing == []


def test_every_toast_key_is_in_the_english_catalog():
    english = i18n.catalog(i18n.DEFAULT).messages
    assert sorted(key for key in set(TOASTS.values()) if key not in english) == []


def test_merging_refuses_a_refusal_in_two_maps():
    class Refused(QuizError):
        pass

    assert merge_toasts({Refused: "toast_invalid"}, {}) == {Refused: "toast_invalid"}
    with pytest.raises(ValueError, match="Refused"):
        merge_toasts({Refused: "toast_invalid"}, {Refused: "toast_stale"})
