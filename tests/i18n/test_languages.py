"""A supported language cannot be half added: each language of :data:`bot.i18n.SUPPORTED` has its
module in ``bot/kernel/languages/`` with every field filled (or its emptiness explained), and
no module exists for another language (:mod:`bot.kernel.languages`)."""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import pytest

from bot import i18n
from bot.kernel import languages
from bot.kernel.languages import LANGUAGES, Language

FOLDER = Path(languages.__file__).parent
MODULES = sorted(p.stem for p in FOLDER.glob("*.py") if not p.stem.startswith("_"))
FIELDS = [f.name for f in dataclasses.fields(Language) if f.name not in ("code", "absent")]


def test_the_modules_are_the_supported_languages():
    """A module of a language the bot does not speak, or a spoken language without one, fails."""
    assert MODULES == sorted(i18n.SUPPORTED)
    assert list(LANGUAGES) == list(i18n.SUPPORTED)


@pytest.mark.parametrize("code", i18n.SUPPORTED)
def test_each_module_is_its_language(code):
    """``ru.py`` holds Russian's data, which the table of every language is built from."""
    module = importlib.import_module(f"bot.kernel.languages.{code}")
    assert module.__doc__
    assert module.LANGUAGE.code == code
    assert LANGUAGES[code] is module.LANGUAGE


@pytest.mark.parametrize("code", i18n.SUPPORTED)
def test_every_field_is_filled_or_its_absence_explained(code):
    """An empty field is either named in ``absent`` with a reason or a language half added; a
    field named in ``absent`` is empty."""
    language = LANGUAGES[code]
    assert sorted(language.empty_fields()) == sorted(language.absent)
    assert all(reason.strip() for reason in language.absent.values())
    assert set(language.absent) <= set(FIELDS)


def test_a_half_filled_language_is_found():
    """A language whose sheet has no title word, or whose count words are empty without a
    reason, is reported field by field."""
    language = dataclasses.replace(
        LANGUAGES["en"],
        count_words=(),
        sheet=dataclasses.replace(LANGUAGES["en"].sheet, title=()),
    )
    assert language.empty_fields() == ["count_words", "sheet.title"]


@pytest.mark.parametrize("code", i18n.SUPPORTED)
def test_every_above_phrase_compiles(code):
    """Each "all of the above" pattern is a regular expression."""
    for pattern in LANGUAGES[code].above_phrases:
        re.compile(pattern)
