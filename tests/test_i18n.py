"""Tests for bot.i18n: catalog parity, plural forms, locale negotiation and language names."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path

import pytest

import bot.i18n
from bot.i18n import DEFAULT, SUPPORTED, Catalog, catalog, negotiate, placeholders

CATALOGS = Path(bot.i18n.__file__).parent / "catalogs"
OTHERS = [language for language in SUPPORTED if language != "en"]
COUNTS = (0, 1, 2, 5)

SCRIPT = {"hi": "DEVANAGARI", "el": "GREEK"}
"""The Unicode script (as in character names) each non-English catalog is written in."""

LATIN_ALLOWED = {"A", "B", "C", "D", "q", "Enter", "quizbot", "play", "bot"}
"""Latin words a translated catalog may keep: option letters, the quit key, a key name, the
``quizbot play`` command and the word "bot" (used as is in Greek). Commands like /quiz and
placeholders are removed before looking."""


def forms(message: str | Mapping[str, str]) -> list[str]:
    """The texts of a message: itself, or each plural form."""
    return list(message.values()) if isinstance(message, Mapping) else [message]


def letters_left(text: str) -> str:
    """``text`` without placeholders, /commands and the allowed Latin words."""
    text = re.sub(r"\{\w+\}", " ", text)
    text = re.sub(r"/\w+", " ", text)
    return " ".join(w for w in re.findall(r"\w+", text) if w not in LATIN_ALLOWED
                    and not w.isdigit())


def in_script(char: str, script: str) -> bool:
    """Whether ``char`` is a letter (or sign) of ``script``."""
    return unicodedata.name(char, "").startswith(script)


def fill(message: str | Mapping[str, str], count: int = 2) -> dict[str, object]:
    """Parameters for every placeholder of a message (``count`` for plural messages)."""
    params: dict[str, object] = {name: f"<{name}>" for name in placeholders(message)}
    if isinstance(message, Mapping) or "count" in params:
        params["count"] = count
    return params


# --- catalogs -----------------------------------------------------------------------------

def test_a_catalog_per_supported_language():
    """The catalogs folder has exactly one YAML file per supported language."""
    assert sorted(p.stem for p in CATALOGS.glob("*.yaml")) == sorted(SUPPORTED)
    assert DEFAULT in SUPPORTED


@pytest.mark.parametrize("language", OTHERS)
def test_catalog_has_exactly_the_english_keys(language):
    """Every catalog has the keys of en.yaml, no more and no less."""
    assert set(catalog(language).messages) == set(catalog("en").messages)


@pytest.mark.parametrize("language", OTHERS)
def test_catalog_uses_the_english_placeholders(language):
    """Every message uses the same {placeholders} as its English original."""
    english = catalog("en").messages
    for key, message in catalog(language).messages.items():
        assert placeholders(message) == placeholders(english[key]), key


@pytest.mark.parametrize("language", OTHERS)
def test_plural_messages_stay_plural(language):
    """A message that is plural in English is plural in every catalog, and the other way round."""
    english = catalog("en").messages
    for key, message in catalog(language).messages.items():
        assert isinstance(message, Mapping) == isinstance(english[key], Mapping), key


@pytest.mark.parametrize("language", SUPPORTED)
def test_plural_messages_cover_every_category(language):
    """Each plural message gives a form for exactly the CLDR categories of its language."""
    t = catalog(language)
    plural = {k: m for k, m in t.messages.items() if isinstance(m, Mapping)}
    assert plural, "the catalogs have plural messages (question_count, stats_attempts ...)"
    for key, message in plural.items():
        assert set(message) == t.plural_categories(), key


@pytest.mark.parametrize("language", SUPPORTED)
def test_plural_categories_of_the_supported_languages(language):
    """en, hi and el use CLDR's 'one' and 'other' only."""
    assert catalog(language).plural_categories() == {"one", "other"}


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_message_formats(language):
    """Every message formats with its placeholders filled, for every count, leaving no braces."""
    t = catalog(language)
    for key, message in t.messages.items():
        for count in COUNTS if isinstance(message, Mapping) else (2,):
            params = fill(message, count)
            text = t(key, **params)
            assert text.strip(), key
            assert "{" not in text and "}" not in text, key
            for name, value in params.items():
                if name != "count":
                    assert str(value) in text, (key, name)


def test_placeholders_of_plain_and_plural_messages():
    """placeholders() finds the names in a text and in all plural forms together."""
    assert placeholders("Question {number}/{total}") == {"number", "total"}
    assert placeholders({"one": "{count} x", "other": "{count} xs of {name}"}) == {
        "count", "name"}
    assert placeholders("no placeholders") == frozenset()


def test_a_missing_parameter_raises_key_error():
    """Formatting without a needed parameter raises KeyError, as documented."""
    with pytest.raises(KeyError):
        catalog("en")("greeting")
    with pytest.raises(KeyError):
        catalog("en")("no_such_message")


def test_unsupported_language_gets_the_default_catalog():
    """catalog() of a language without a catalog returns the English one."""
    assert catalog("pt").language == DEFAULT
    assert catalog("pt")("button_next") == catalog("en")("button_next")


def test_groups_are_flattened():
    """The level group is flattened into level.easy, level.medium and level.hard."""
    for language in SUPPORTED:
        t = catalog(language)
        assert {"level.easy", "level.medium", "level.hard"} <= set(t.messages)
        assert "level" not in t.messages
    assert catalog("el")("level.hard") == "Δύσκολο"


# --- translations -------------------------------------------------------------------------

@pytest.mark.parametrize("language", OTHERS)
def test_no_untranslated_english_left(language):
    """No message equals its English text, except one without any letters."""
    english = catalog("en").messages
    for key, message in catalog(language).messages.items():
        if message == english[key]:
            assert not any(letters_left(text) for text in forms(message)), key


@pytest.mark.parametrize("language", OTHERS)
def test_no_english_words_left(language):
    """Apart from commands, option letters and product names, no Latin-script word remains."""
    for key, message in catalog(language).messages.items():
        for text in forms(message):
            latin = [w for w in letters_left(text).split() if re.search(r"[A-Za-z]", w)]
            assert not latin, (key, latin)


@pytest.mark.parametrize("language", OTHERS)
def test_catalog_is_written_in_its_own_script(language):
    """Every message with letters has letters in its language's script (Devanagari, Greek)."""
    script = SCRIPT[language]
    for key, message in catalog(language).messages.items():
        for text in forms(message):
            rest = letters_left(text)
            if any(c.isalpha() for c in rest):
                assert any(in_script(c, script) for c in rest), (key, text)


def test_script_check_catches_english():
    """The script check used above rejects an English sentence (so it can fail)."""
    rest = letters_left("Choose your language: /language {name}")
    assert rest
    assert not any(in_script(c, "GREEK") for c in rest)
    assert any(in_script(c, "GREEK") for c in letters_left("Διάλεξε γλώσσα"))


# --- negotiation --------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("language_code", "expected"),
    [
        ("el-GR", "el"),
        ("el", "el"),
        ("el_GR", "el"),
        ("hi", "hi"),
        ("HI", "hi"),
        ("hi-IN", "hi"),
        ("en-US", "en"),
        ("en", "en"),
        ("pt-BR", "en"),
        ("de", "en"),
        (None, "en"),
        ("", "en"),
        ("zh-hans", "en"),
        ("x", "en"),
    ],
)
def test_negotiate(language_code, expected):
    """Telegram's language_code maps to a supported UI language, else English."""
    assert negotiate(language_code) == expected


def test_negotiate_only_picks_available_languages():
    """With a narrower list of available languages, a missing one falls back to English."""
    assert negotiate("el-GR", available=["en", "hi"]) == "en"
    assert negotiate("hi-IN", available=["en", "hi"]) == "hi"


# --- plural forms -------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("language", "key", "count", "expected"),
    [
        ("en", "question_count", 0, "0 questions"),
        ("en", "question_count", 1, "1 question"),
        ("en", "question_count", 2, "2 questions"),
        ("en", "question_count", 5, "5 questions"),
        ("el", "question_count", 0, "0 ερωτήσεις"),
        ("el", "question_count", 1, "1 ερώτηση"),
        ("el", "question_count", 2, "2 ερωτήσεις"),
        ("el", "question_count", 5, "5 ερωτήσεις"),
        ("hi", "question_count", 0, "0 प्रश्न"),
        ("hi", "question_count", 1, "1 प्रश्न"),
        ("hi", "question_count", 2, "2 प्रश्न"),
        ("hi", "question_count", 5, "5 प्रश्न"),
        ("en", "stats_attempts", 1, "1 attempt"),
        ("en", "stats_attempts", 0, "0 attempts"),
        ("el", "stats_attempts", 1, "1 προσπάθεια"),
        ("el", "stats_attempts", 5, "5 προσπάθειες"),
        ("en", "stats_missed_times", 1, "missed 1 time"),
        ("en", "stats_missed_times", 2, "missed 2 times"),
        ("el", "stats_missed_times", 1, "λάθος 1 φορά"),
        ("el", "stats_missed_times", 2, "λάθος 2 φορές"),
        ("hi", "stats_missed_times", 5, "5 बार ग़लत"),
        ("en", "group_more_players", 1, "… and 1 more player"),
        ("en", "group_more_players", 280, "… and 280 more players"),
        ("el", "group_more_players", 1, "… και 1 ακόμη παίκτης"),
        ("el", "group_more_players", 280, "… και 280 ακόμη παίκτες"),
        ("hi", "group_more_players", 280, "… और 280 अन्य खिलाड़ी"),
    ],
)
def test_plural_forms(language, key, count, expected):
    """Plural messages pick the form of the count's CLDR category."""
    assert catalog(language)(key, count=count) == expected


@pytest.mark.parametrize(
    ("language", "categories"),
    [
        ("en", {0: "other", 1: "one", 2: "other", 5: "other"}),
        ("el", {0: "other", 1: "one", 2: "other", 5: "other"}),
        ("hi", {0: "one", 1: "one", 2: "other", 5: "other"}),  # CLDR hi: one is i = 0 or n = 1
    ],
)
def test_plural_category_per_count(language, categories):
    """The category chosen for 0, 1, 2 and 5 follows CLDR (Hindi uses 'one' for 0)."""
    t = Catalog(language, {"n": {"one": "one:{count}", "other": "other:{count}"}})
    for count, category in categories.items():
        assert t("n", count=count) == f"{category}:{count}"


def test_missing_plural_form_falls_back_to_other():
    """A plural message without the count's category uses its 'other' form."""
    t = Catalog("en", {"n": {"other": "{count} things"}})
    assert t("n", count=1) == "1 things"


# --- language names -----------------------------------------------------------------------

@pytest.mark.parametrize(("code", "name"), [("en", "English"), ("hi", "हिन्दी"),
                                            ("el", "Ελληνικά")])
def test_language_name_in_its_own_script(code, name):
    """Each language is named in itself, whatever the catalog's language."""
    for language in SUPPORTED:
        assert catalog(language).language_name(code) == name
