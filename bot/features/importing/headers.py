"""The words of a quiz sheet (.xlsx), per language: column headers, true/false answers, kinds,
and the settings worksheet's name and settings.

The one table of this vocabulary (:data:`~.vocabulary.VOCABULARY`, one entry per supported
language): a sheet is read by its header row when the headers say what they are in any of these
languages (:func:`column_of`), and the template is written with the first word of each entry
(:func:`template_headers`). Words are compared case-folded, with spaces collapsed, a trailing
``:`` or ``*`` dropped and the apostrophes Uzbek is typed with made one (:func:`normalized`).

Pure: no files, no Telegram.
"""

from __future__ import annotations

import re
import unicodedata

from bot.features.importing.vocabulary import VOCABULARY, Words
from bot.kernel.bank import MAX_OPTIONS

LETTERS = "ABCDEFGHIJKL"[:MAX_OPTIONS]
"""The option columns' letters, A to L."""

FIELDS = (
    "question",
    "answer",
    "explanation",
    "picture",
    "kind",
    "source",
    "link",
    "shuffle",
    "marks",
    "waive",
)
"""The columns other than the options, in the documented order (options come after
``question``)."""

SETTINGS = (
    "title",
    "description",
    "language",
    "level",
    "minutes",
    "marks",
    "penalty",
    "draw",
    "guide",
    "guide_label",
)
"""The rows of the settings worksheet, in the documented order: the quiz's title, description,
language and level; its exam mode (``minutes``, and the default ``marks``, ``penalty`` and
``draw``); its guide's link and label."""


__all__ = ["VOCABULARY", "Words"]  # the table is vocabulary.py's; read here with its helpers

_APOSTROPHES = str.maketrans({"ʻ": "'", "ʼ": "'", "’": "'", "‘": "'", "`": "'"})
_OPTION_HEADER = re.compile(r"^(?:(?P<word>.+?)[\s.:#-]*)?(?P<letter>[a-l]|1[0-2]|[1-9])[.)]?$")


def normalized(word: str) -> str:
    """``word`` as compared: NFC, case-folded, ``ـ`` (tatweel) and marks of direction dropped,
    Uzbek's apostrophes one ``'``, spaces collapsed, a trailing ``:`` or ``*`` dropped, and
    Turkish's dotless and dotted i one ``i`` (Unicode's case folding is not Turkish: "AÇIKLAMA"
    folds to "açiklama" and "İ" to "i̇", so a header typed in capitals would not match)."""
    word = unicodedata.normalize("NFC", word).translate(_APOSTROPHES)
    word = "".join(c for c in word if c != "ـ" and unicodedata.category(c) != "Cf")
    word = word.casefold().replace("ı", "i").replace("i\u0307", "i")
    return " ".join(word.split()).rstrip(":*").strip()


def _settings_index() -> tuple[dict[str, str], set[str]]:
    settings: dict[str, str] = {}
    sheets: set[str] = set()
    for words in VOCABULARY.values():
        for name in SETTINGS:
            for word in getattr(words, name):
                settings.setdefault(normalized(word), name)
        sheets.update(normalized(word) for word in words.settings)
    return settings, sheets


def _index() -> tuple[dict[str, str], set[str], set[str], set[str], set[str], set[str]]:
    columns: dict[str, str] = {}
    options: set[str] = set()
    true: set[str] = set()
    false: set[str] = set()
    choice: set[str] = set()
    true_false: set[str] = set()
    for words in VOCABULARY.values():
        for field in FIELDS:
            for word in getattr(words, field):
                columns.setdefault(normalized(word), field)
        options.update(normalized(word) for word in words.option)
        true.update(normalized(word) for word in words.true)
        false.update(normalized(word) for word in words.false)
        choice.update(normalized(word) for word in words.choice)
        true_false.update(normalized(word) for word in words.true_false)
    return columns, options, true, false, choice, true_false


_COLUMNS, _OPTION_WORDS, _TRUE, _FALSE, _CHOICE, _TRUE_FALSE = _index()
_SETTINGS, _SETTINGS_SHEETS = _settings_index()


_LOOKALIKES = str.maketrans("асвенкαβεηικ", "acbehkabehik")
"""Cyrillic and Greek letters typed for the Latin letters they look like (a Cyrillic А in an
option's header or an answer, case-folded)."""


def letter_of(text: str) -> str | None:
    """The option letter ``text`` names (``B``, ``b)``, ``(C)``, a Cyrillic ``А``), upper case;
    None when it names none of :data:`LETTERS`."""
    word = normalized(text).strip("()[].")
    if len(word) != 1:
        return None
    letter = word.translate(_LOOKALIKES).upper()
    return letter if letter in LETTERS else None


def column_of(header: str) -> str | None:
    """What a header cell names, in any language of :data:`VOCABULARY`: a field of
    :data:`FIELDS`, an option's letter (``A``, ``Option B``, ``Вариант 3``, ``C)``), or None
    when it names nothing known."""
    word = normalized(header)
    if word in _COLUMNS:
        return _COLUMNS[word]
    letter = letter_of(word)
    if letter is not None:
        return letter
    match = _OPTION_HEADER.match(word[:-1] + word[-1:].translate(_LOOKALIKES))
    if match is None or (match["word"] is not None and match["word"] not in _OPTION_WORDS):
        return None
    letter = match["letter"]
    index = int(letter) - 1 if letter.isdigit() else ord(letter) - ord("a")
    return LETTERS[index] if index < len(LETTERS) else None


def truth(value: str) -> bool | None:
    """True or False for a true/false answer in any language (``True``, ``Верно``, ``صح``),
    None when ``value`` is neither."""
    word = normalized(value)
    return True if word in _TRUE else False if word in _FALSE else None


def kind_of(value: str) -> str | None:
    """``choice`` or ``true-false`` for a kind cell in any language; ``""`` for an empty cell;
    None when ``value`` names no kind."""
    word = normalized(value)
    if not word:
        return ""
    return "choice" if word in _CHOICE else "true-false" if word in _TRUE_FALSE else None


def template_headers(language: str) -> dict[str, str]:
    """The template's header for each field and option letter in ``language`` (English for a
    language without words here)."""
    words = VOCABULARY.get(language, VOCABULARY["en"])
    headers = {field: getattr(words, field)[0] for field in FIELDS}
    headers.update({letter: letter for letter in LETTERS})
    return headers


def kind_word(language: str, true_false: bool) -> str:
    """The kind column's word in ``language``."""
    words = VOCABULARY.get(language, VOCABULARY["en"])
    return (words.true_false if true_false else words.choice)[0]


def truth_word(language: str, value: bool) -> str:
    """A true/false answer's word in ``language``."""
    words = VOCABULARY.get(language, VOCABULARY["en"])
    return (words.true if value else words.false)[0]


def setting_of(name: str) -> str | None:
    """What a settings row's name cell names, in any language of :data:`VOCABULARY`: one of
    :data:`SETTINGS`, or None."""
    return _SETTINGS.get(normalized(name))


def is_settings_sheet(title: str) -> bool:
    """Whether a worksheet called ``title`` is the settings worksheet (its name in any language
    of :data:`VOCABULARY`)."""
    return normalized(title) in _SETTINGS_SHEETS


def settings_words(language: str) -> tuple[str, dict[str, str]]:
    """The settings worksheet's name and each setting's name in ``language`` (English for a
    language without words here)."""
    words = VOCABULARY.get(language, VOCABULARY["en"])
    return words.settings[0], {name: getattr(words, name)[0] for name in SETTINGS}
