"""Tests for bot.i18n: the gettext catalogs at run time (fallbacks, plural forms, placeholders),
locale negotiation and language names. The completeness check is tested in test_i18n_check.py."""

from __future__ import annotations

import ast
import io
import logging
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

import bot.i18n
from bot.i18n import (
    DEFAULT,
    STRICT_ENV,
    SUPPORTED,
    Catalog,
    bidi,
    catalog,
    negotiate,
    placeholders,
    translations,
)
from bot.i18n.messages import MESSAGES, Plural

LOCALES = Path(bot.i18n.__file__).parent / "locales"
BOT = Path(bot.__file__).parent
OTHERS = [language for language in SUPPORTED if language != "en"]
COUNTS = (0, 1, 2, 5)
PLURALS = [key for key, message in MESSAGES.items() if isinstance(message, Plural)]

SCRIPT = {
    "hi": "DEVANAGARI",
    "el": "GREEK",
    "id": "LATIN",
    "uk": "CYRILLIC",
    "ar": "ARABIC",
    "ru": "CYRILLIC",
    "tr": "LATIN",
    "fa": "ARABIC",
    "es": "LATIN",
    "pt": "LATIN",
    "uz": "LATIN",
}
"""The Unicode script (as in character names) each non-English catalog is written in."""

ENGLISH_WORDS = {"the", "and", "or", "of", "to", "for", "with", "is", "are", "you", "your"}
ENGLISH_WORDS |= {"this", "that", "question", "questions", "answer", "send", "tap", "quiz"}
"""English words a catalog in the Latin script (id, es) must not have: there every word is Latin,
so the check for Latin words left looks for these instead."""

PLURAL_CATEGORIES = {
    "id": {"other"},
    "ru": {"one", "few", "many", "other"},
    "uk": {"one", "few", "many", "other"},
    "es": {"one", "many", "other"},
    "pt": {"one", "many", "other"},
    "ar": {"zero", "one", "two", "few", "many", "other"},
}
"""The CLDR plural categories of the languages that do not use 'one' and 'other'."""

LOANWORDS = {"pt": {"quiz"}}
"""Words of ENGLISH_WORDS that a Latin-script language has made its own (o quiz, os quizzes)."""

PRODUCT_NAMES = {"Telegram", "Word", "Excel", "PDF"}
"""Names of products a native text keeps in Latin letters (Russian «документ Word», Arabic
«مصنف Excel»): a translation may write them so, or in its own script (Persian «تلگرام»)."""

LATIN_ALLOWED = (
    {"A", "B", "C", "D", "q", "Enter", "quizbot", "play", "bot"}
    | PRODUCT_NAMES
    | {
        "inline",
        "YAML",
        "GIFT",
        "Aiken",
        "CSV",
        "docx",
        "pdf",
        "UTF",
        "MB",
        "bytes",
        "U",
        "http",
        "https",
        "s",
        "a",
        "z",
        "byte",
        "en",
        "TODO",
        "yaml",
        "gift",
        "txt",
        "csv",
        "id",
        "file_id",
        "languages",
        "correct",
        "true",
        "false",
        "kind",
        "answer",
        "yes",
        "y",
        "JPEG",
        "PNG",
        "WebP",
        "xlsx",
    }
)
"""Latin words a translated catalog may keep: option letters, the quit key, a key name, the
``quizbot play`` command and the word "bot" (used as is in Greek); product names
(:data:`PRODUCT_NAMES`); for created quizzes, Telegram's inline mode, file formats and endings,
units, and the keys and values of a quiz file, which a creator types as they are
(``correct: true``); "yes" and "y", which the terminal's confirmations accept on any keyboard.
Commands like /quiz, command-line options like --review and placeholders are removed before
looking."""


def forms(message: str | Mapping[str, str]) -> list[str]:
    """The texts of a message: itself, or each plural form."""
    return list(message.values()) if isinstance(message, Mapping) else [message]


def letters_left(text: str) -> str:
    """``text`` without placeholders, /commands, `code` (a file's key, as typed) and the
    allowed Latin words."""
    text = re.sub(r"\{\w+\}", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"/\w+", " ", text)
    text = re.sub(r"--\w+", " ", text)
    return " ".join(
        w for w in re.findall(r"\w+", text) if w not in LATIN_ALLOWED and not w.isdigit()
    )


def in_script(char: str, script: str) -> bool:
    """Whether ``char`` is a letter (or sign) of ``script``."""
    return unicodedata.name(char, "").startswith(script)


def fill(key: str, message: str | Mapping[str, str], count: int = 2) -> dict[str, object]:
    """Parameters for every placeholder of the message ``key`` as a catalog shows it, its
    number (``count``, or the parameter its ``number`` names) being ``count``."""
    params: dict[str, object] = {name: f"<{name}>" for name in placeholders(message)}
    declared = MESSAGES[key]
    if isinstance(declared, Plural):
        params[declared.number] = count
    elif "count" in params:
        params["count"] = count
    return params


def english_id(key: str) -> str | tuple[str, str]:
    """The gettext message id of ``key``: its English text, or (singular, plural)."""
    message = MESSAGES[key]
    return (message.singular, message.plural) if isinstance(message, Plural) else message.text


def compiled(po: PoCatalog) -> Translations:
    """``po`` compiled as ``pybabel compile`` does (fuzzy messages left out) and loaded."""
    out = io.BytesIO()
    write_mo(out, po)
    out.seek(0)
    return Translations(out, domain="messages")


def made_catalog(
    language: str, strings: Mapping[str, str | tuple[str, ...]], fuzzy: frozenset[str] = frozenset()
) -> Catalog:
    """A Catalog of ``language`` whose gettext catalog translates just ``strings`` (key ->
    text or plural forms), marking the keys in ``fuzzy`` fuzzy; Plural-Forms: Babel's."""
    po = PoCatalog(locale=language, fuzzy=False)
    for key, string in strings.items():
        po.add(english_id(key), string, context=key, flags={"fuzzy"} if key in fuzzy else ())
    return Catalog(language, compiled(po))


def committed_with(language: str, key: str, string: tuple[str, ...]) -> Catalog:
    """The committed catalog of ``language`` with ``key`` translated as ``string`` instead."""
    with (LOCALES / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        po = read_po(file, locale=language)
    po.get(english_id(key), context=key).string = string
    return Catalog(language, compiled(po))


# --- catalogs -----------------------------------------------------------------------------


def test_a_compiled_catalog_per_translated_language():
    """locales/ has a .po and its .mo for each supported language but English, and no other."""
    found = sorted(p.parent.parent.name for p in LOCALES.glob("*/LC_MESSAGES/messages.po"))
    assert found == sorted(OTHERS)
    for language in OTHERS:
        assert (LOCALES / language / "LC_MESSAGES" / "messages.mo").is_file()
    assert DEFAULT in SUPPORTED
    assert not list(LOCALES.parent.glob("catalogs/*.yaml")), "the YAML catalogs are gone"


@pytest.mark.parametrize("language", OTHERS)
def test_catalog_is_loaded_from_its_mo(language):
    """catalog() really reads the language's compiled catalog (not English for want of it)."""
    assert isinstance(translations(language), Translations)
    assert catalog(language)("button_next") != catalog("en")("button_next")


@pytest.mark.parametrize("language", OTHERS)
def test_catalog_uses_the_english_placeholders(language):
    """Every message uses the same {placeholders} as its English original."""
    english = catalog("en").messages
    for key, message in catalog(language).messages.items():
        assert placeholders(message) == placeholders(english[key]), key


@pytest.mark.parametrize("language", SUPPORTED)
def test_plural_forms_rule_agrees_with_cldr(language):
    """For 0 to 1000, every plural message shows the form of the count's CLDR category: the
    Plural-Forms rule of the catalog's header and Babel's CLDR rule agree."""
    t = catalog(language)
    rule = Locale.parse(language).plural_form
    assert PLURALS, "the catalogs have plural messages (question_count, stats_attempts ...)"
    # the categories of whole numbers: Ukrainian "other" is for fractions only
    whole = {rule(count) for count in range(1001)}
    assert whole <= t.plural_categories()
    for key in PLURALS:
        assert set(t.messages[key]) == whole, key
        for count in range(1001):
            params = fill(key, t.messages[key], count)
            shown = bidi.CONTROLS.sub("", t(key, **params))  # right to left: values isolated
            assert shown == t.messages[key][rule(count)].format(**params), (key, count)


@pytest.mark.parametrize("language", OTHERS)
def test_plural_forms_rule_is_babels(language):
    """Each catalog's Plural-Forms header is the one Babel gives the language (pybabel init)."""
    with (LOCALES / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        header = read_po(file).plural_forms
    assert header == PoCatalog(locale=language).plural_forms


@pytest.mark.parametrize("language", SUPPORTED)
def test_plural_categories_of_the_supported_languages(language):
    """en, hi, el, tr, uz and fa use CLDR's 'one' and 'other' only; the others as
    PLURAL_CATEGORIES says (ru, uk: 'one', 'few', 'many', and 'other' for fractions; id:
    'other' only; ar all six), as CLDR's plural rules give them."""
    expected = PLURAL_CATEGORIES.get(language, {"one", "other"})
    assert catalog(language).plural_categories() == expected


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_message_formats(language):
    """Every message formats with its placeholders filled, for every count, leaving no braces."""
    t = catalog(language)
    for key, message in t.messages.items():
        for count in COUNTS if isinstance(message, Mapping) else (2,):
            params = fill(key, message, count)
            text = t(key, **params)
            assert text.strip(), key
            assert "{" not in text and "}" not in text, key
            for name, value in params.items():
                if name != "count":
                    assert str(value) in text, (key, name)


def test_placeholders_of_plain_and_plural_messages():
    """placeholders() finds the names in a text and in all plural forms together."""
    assert placeholders("Question {number}/{total}") == {"number", "total"}
    assert placeholders({"one": "{count} x", "other": "{count} xs of {name}"}) == {"count", "name"}
    assert placeholders(("{count} x", "{count} xs of {name}")) == {"count", "name"}
    assert placeholders("no placeholders") == frozenset()
    with pytest.raises(ValueError):
        placeholders("a lone { brace")


def test_a_missing_parameter_raises_key_error():
    """Formatting without a needed parameter raises KeyError, as documented (also for a
    plural message without count)."""
    with pytest.raises(KeyError):
        catalog("en")("greeting")
    with pytest.raises(KeyError):
        catalog("el")("greeting")
    with pytest.raises(KeyError):
        catalog("hi")("question_count")


def test_unknown_key_raises_in_strict_mode(monkeypatch):
    """With QUIZBOT_I18N_STRICT=1 (the test suite's conftest sets it) an unknown key raises."""
    monkeypatch.setenv(STRICT_ENV, "1")
    with pytest.raises(KeyError, match="no_such_message"):
        catalog("en")("no_such_message")


def test_unknown_key_shows_the_key_with_a_warning(monkeypatch, caplog):
    """Without strict mode (production) an unknown key shows as itself and is logged once."""
    monkeypatch.delenv(STRICT_ENV, raising=False)
    t = made_catalog("el", {})
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert t("no_such_message", name="x") == "no_such_message"
        assert t("no_such_message") == "no_such_message"
    warnings = [r for r in caplog.records if "no_such_message" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING


def test_call_sites_use_known_keys():
    """Every key literal passed to a catalog (``t(...)``, ``new(...)``) in bot/ is a message,
    and every f-string or ``+`` key starts like one. (Keys held in variables and tables are
    caught at run time by strict mode.)"""
    unknown, prefixes = [], set()

    def keys(node: ast.AST, where: str) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value not in MESSAGES:
                unknown.append((where, node.value))
        elif isinstance(node, ast.IfExp):
            keys(node.body, where)
            keys(node.orelse, where)
        elif isinstance(node, ast.JoinedStr) and isinstance(node.values[0], ast.Constant):
            prefixes.add(node.values[0].value)
            if not any(key.startswith(node.values[0].value) for key in MESSAGES):
                unknown.append((where, ast.unparse(node)))
        elif isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant):
            keys(ast.JoinedStr([node.left]), where)

    for path in BOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in {"t", "new"}
                and node.args
            ):
                keys(node.args[0], f"{path.relative_to(BOT)}:{node.lineno}")
    assert not unknown
    assert {"level.", "command_"} <= prefixes  # the scan sees the dynamic keys too


def test_unsupported_language_gets_the_default_catalog():
    """catalog() of a language without a catalog returns the English one."""
    assert catalog("kl").language == DEFAULT
    assert catalog("kl")("button_next") == catalog("en")("button_next")


def test_dotted_keys():
    """Keys may be dotted names (the levels: level.easy, level.medium, level.hard)."""
    for language in SUPPORTED:
        assert {"level.easy", "level.medium", "level.hard"} <= set(catalog(language).messages)
    assert catalog("el")("level.hard") == "Δύσκολο"


# --- falling back to English --------------------------------------------------------------


def test_a_missing_translation_falls_back_to_english():
    """A message the catalog lacks is shown in English, singular and plural (with the English
    plural rule), while the translated ones are translated."""
    t = made_catalog("hi", {"button_next": "अगला ▶", "stats_attempts": ("{count} प्रयास",) * 2})
    assert t("button_next") == "अगला ▶"
    assert t("button_results") == catalog("en")("button_results")
    assert (
        t("greeting", name="Ada") == "Hi, Ada! I ask multiple-choice questions and explain "
        "every answer."
    )
    assert t("question_count", count=1) == "1 question"
    assert t("question_count", count=0) == "0 questions"
    assert t("stats_attempts", count=0) == "0 प्रयास"


def test_a_fuzzy_translation_falls_back_to_english():
    """A translation marked fuzzy (not reviewed since its English text changed) is left out
    by the compiler, so English is shown."""
    t = made_catalog(
        "el",
        {"button_next": "Επόμενη ▶", "button_results": "Βαθμολογία"},
        fuzzy=frozenset({"button_results"}),
    )
    assert t("button_next") == "Επόμενη ▶"
    assert t("button_results") == "See my score 🏁"


def test_a_broken_translation_falls_back_to_english(caplog):
    """A translation with a placeholder the English text lacks shows English, logged."""
    t = made_catalog(
        "el",
        {
            "result_score": "Βαθμολογία: {scor}/{total}",
            "group_more_players": ("{count} {oops}", "{count} {oops}"),
        },
    )
    with caplog.at_level(logging.ERROR, logger="bot.i18n"):
        assert t("result_score", score=7, total=8) == "Your score: 7/8"
        assert t("group_more_players", count=1) == "… and 1 more player"
        assert t("group_more_players", count=3) == "… and 3 more players"
    assert {"result_score", "group_more_players"} <= {r.args[1] for r in caplog.records}
    with pytest.raises(KeyError):
        t("result_score", total=8)  # the caller's mistake still raises


def test_a_missing_compiled_catalog_falls_back_to_english(caplog):
    """A language without a .mo gets the English texts (and an error in the log)."""
    with caplog.at_level(logging.ERROR, logger="bot.i18n"):
        t = Catalog("kl", translations("kl"))
    assert t("button_next") == catalog("en")("button_next")
    assert any("kl" in r.getMessage() for r in caplog.records)


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
    """Apart from commands, option letters and product names, no Latin-script word remains
    (in a language written in Latin script: no common English word)."""
    for key, message in catalog(language).messages.items():
        for text in forms(message):
            assert not english_left(language, text), (key, english_left(language, text))


def english_left(language: str, text: str) -> list[str]:
    """The Latin-script words of ``text`` that :func:`letters_left` keeps (in a language written
    in Latin script: its common English words)."""
    latin = [w for w in letters_left(text).split() if re.search(r"[A-Za-z]", w)]
    if SCRIPT[language] == "LATIN":
        english = ENGLISH_WORDS - LOANWORDS.get(language, set())
        latin = [w for w in latin if w.lower() in english]
    return latin


@pytest.mark.parametrize(
    ("language", "text", "left"),
    [
        ("ru", "Пришлите документ Word (.docx) или книгу Excel", []),
        ("ar", "أرسل مستند Word أو ملف PDF عبر Telegram", []),
        ("el", "Στείλε ένα έγγραφο Word", []),
        ("ru", "Пришлите document Word", ["document"]),
        ("ru", "Пришлите документ word", ["word"]),
        ("es", "Envía un documento Word", []),
        ("es", "Envía the documento Word", ["the"]),
    ],
)
def test_product_names_may_stay_in_latin_letters(language, text, left):
    """A product name (:data:`PRODUCT_NAMES`) in Latin letters is not English left in a
    translation; an English word beside it still is, and so is the name in lower case."""
    assert english_left(language, text) == left


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
        ("pt-BR", "pt"),
        ("pt-pt", "pt"),
        ("kl-GL", "en"),
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


TWELVE = ("en", "hi", "el", "ru", "uk", "es", "pt", "id", "tr", "uz", "fa", "ar")


@pytest.mark.parametrize(
    ("language_code", "expected"),
    [
        ("pt-br", "pt"),  # Telegram's Brazilian Portuguese
        ("pt-PT", "pt"),  # European Portuguese reads the Brazilian catalog (CLDR's pt)
        ("pt", "pt"),
        ("uz", "uz"),
        ("uz-Cyrl", "uz"),  # Uzbek in Cyrillic: the Latin catalog, the script Uzbekistan uses
        ("fa-IR", "fa"),
        ("fa-AF", "fa"),  # Dari
        ("ar-EG", "ar"),
        ("ar", "ar"),
        ("uk-UA", "uk"),
        ("ru", "ru"),
        ("es-419", "es"),
        ("es-ES", "es"),
        ("id", "id"),
        ("tr-TR", "tr"),
        ("kk", "en"),  # not a catalog: English, not a neighbour's language
        ("be", "en"),
    ],
)
def test_negotiate_maps_telegrams_codes_onto_the_twelve_catalogs(language_code, expected):
    """A language_code (IETF, as Telegram sends it) goes to its catalog by its primary subtag;
    a language without a catalog gets English (docs/translating.md, "The right language")."""
    assert negotiate(language_code, available=TWELVE) == expected


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
        ("es", "question_count", 0, "0 preguntas"),
        ("es", "question_count", 1, "1 pregunta"),
        ("es", "question_count", 5, "5 preguntas"),
        ("es", "question_count", 1_000_000, "1000000 de preguntas"),
        ("es", "question_count", 1_000_001, "1000001 preguntas"),
        ("es", "group_more_players", 2_000_000, "… y 2000000 de participantes más"),
    ],
)
def test_plural_forms(language, key, count, expected):
    """Plural messages pick the form of the count's CLDR category."""
    assert catalog(language)(key, count=count) == expected


@pytest.mark.parametrize(
    ("language", "params", "expected"),
    [
        (
            "en",
            {"size": 1, "limit": 100},
            "That title is 1 character long; a title has at most 100.",
        ),
        (
            "en",
            {"size": 120, "limit": 100},
            "That title is 120 characters long; a title has at most 100.",
        ),
        (
            "el",
            {"size": 1, "limit": 100},
            "Αυτός ο τίτλος έχει 1 χαρακτήρα· ένας τίτλος έχει το πολύ 100.",
        ),
        (
            "el",
            {"size": 120, "limit": 100},
            "Αυτός ο τίτλος έχει 120 χαρακτήρες· ένας τίτλος έχει το πολύ 100.",
        ),
    ],
)
def test_a_plural_picked_by_its_named_number(language, params, expected):
    """A plural message whose number has another name than ``count`` (``{size} characters``)
    picks its form by that parameter; without it, formatting raises KeyError."""
    t = catalog(language)
    assert t("newquiz.problem.title_too_long", **params) == expected
    with pytest.raises(KeyError):
        t("newquiz.problem.title_too_long", count=1, limit=100)


@pytest.mark.parametrize(
    ("language", "count", "expected"),
    [
        ("en", 1, "1 pt"),
        ("en", 2, "2 pts"),
        ("el", 1, "1 πόντος"),
        ("el", 0, "0 πόντοι"),
        ("el", 7, "7 πόντοι"),
    ],
)
def test_points_have_a_plural_form(language, count, expected):
    """A leaderboard line's points agree with their number ("1 πόντος", "7 πόντοι"): the form
    is picked by ``count`` while ``points`` shows the number formatted."""
    line = catalog(language)(
        "group_points_line", count=count, points=str(count), right=1, total=8, streak=1
    )
    assert line.startswith(expected + " ·"), line


@pytest.mark.parametrize(
    ("language", "categories"),
    [
        ("en", {0: "other", 1: "one", 2: "other", 5: "other"}),
        ("el", {0: "other", 1: "one", 2: "other", 5: "other"}),
        ("hi", {0: "one", 1: "one", 2: "other", 5: "other"}),  # CLDR hi: one is i = 0 or n = 1
    ],
)
def test_plural_category_per_count(language, categories):
    """The form chosen for 0, 1, 2 and 5 follows CLDR (Hindi uses 'one' for 0): the committed
    catalog's Plural-Forms rule, with forms that tell which one was picked."""
    if language == "en":
        t = catalog("en")
        chosen = {
            n: "one" if t("question_count", count=n) == f"{n} question" else "other"
            for n in categories
        }
    else:
        t = committed_with(language, "question_count", ("one:{count}", "other:{count}"))
        chosen = {n: t("question_count", count=n).split(":")[0] for n in categories}
    assert chosen == categories


# --- language names -----------------------------------------------------------------------


@pytest.mark.parametrize(("code", "name"), [("en", "English"), ("hi", "हिन्दी"), ("el", "Ελληνικά")])
def test_language_name_in_its_own_script(code, name):
    """Each language is named in itself, whatever the catalog's language."""
    for language in SUPPORTED:
        assert catalog(language).language_name(code) == name
