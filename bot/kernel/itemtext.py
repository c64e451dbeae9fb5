"""The words of a bank's texts as the item-writing checks read them (:mod:`bot.kernel.checks`,
:mod:`bot.kernel.leaks`): function words per language, folding (case, Greek accents), stemmed
tokens and sentences. Pure."""

from __future__ import annotations

import functools
import re
import unicodedata

from bot.kernel.bank import Question
from bot.kernel.languages import LANGUAGES

STOPWORDS = {code: language.stopwords for code, language in LANGUAGES.items()}
"""Function words, not counted as words of a text by :func:`leaks` and ``option-in-stem``
(each language's :attr:`~bot.kernel.languages.Language.stopwords`: Greek ones written without
accents, as :func:`_fold` leaves them; Persian ones as the parts that a zero-width non-joiner
separates: "می", "ها" of "می‌شود", "گرادیان‌ها")."""


_WORD = re.compile(r"\d+(?:[.,\u066b\u066c]\d+)+|[\w\u0900-\u0963\u0966-\u097f]+|[,;:]")
"""A word (Devanagari signs included, the danda not), a decimal number, or a clause mark."""


_NAME = re.compile(r"^[^\W\d_]+[A-Z][\w]*$")  # ZeRO, NVMe, DeepSpeed: a capital after the first


STEM = 5
"""Words are compared by their first 5 letters (after folding): a crude stemmer that is the same
in every language, so "stage"/"stages", "παραλληλισμός"/"παραλληλισμού" and "लेयर"/"लेयरों"
match."""


@functools.lru_cache(maxsize=8192)
def _fold(text: str) -> str:
    """Case-fold and drop Greek accents and diaeresis (not Devanagari signs, which are letters)."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if c not in "\u0301\u0308\u0344\u0342")
    )


@functools.cache
def _stopwords(language: str) -> frozenset[str]:
    """:data:`STOPWORDS` of ``language`` folded as words are (:func:`_fold`: case folding
    makes a Greek final sigma σ, so "όπως" is compared as "οπωσ")."""
    return frozenset(_fold(word) for word in STOPWORDS.get(language, ()))


def tokens(text: str, language: str) -> list[tuple[str, bool, int]]:
    """The words of ``text`` that carry meaning, stemmed (:data:`STEM`), each with whether it
    is a name (a capital after the first letter: ZeRO, NVMe) and its position: words count 1,
    and a comma, semicolon or colon between two words 2 more (a clause apart is farther)."""
    return list(_tokens(text, language))


@functools.lru_cache(maxsize=4096)
def _tokens(text: str, language: str) -> tuple[tuple[str, bool, int], ...]:
    """:func:`tokens`, computed once per text: :func:`leaks` compares every question with every
    other, so each text is read once per pair otherwise (quadratic in a 200-question quiz)."""
    found = []
    position = 0
    for match in _WORD.finditer(text):
        word = match[0]
        if word in ",;:":
            position += 2
            continue
        folded = _fold(word)
        if folded in _stopwords(language) or folded in _stopwords("en"):
            continue
        if language == "en" and len(folded) > 3 and folded.endswith("s"):
            folded = folded[:-1]
        position += 1
        found.append(
            (folded if folded[0].isdigit() else folded[:STEM], bool(_NAME.match(word)), position)
        )
    return tuple(found)


def words(text: str, language: str) -> list[str]:
    """The stemmed words of ``text`` that carry meaning (:func:`tokens`, word only)."""
    return list(_words(text, language))


@functools.lru_cache(maxsize=4096)
def _words(text: str, language: str) -> tuple[str, ...]:
    return tuple(word for word, _, _ in _tokens(text, language))


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;।·])\s+", text) if s.strip()]


def _option(question: Question, language: str, index: int) -> str:
    return question.options[index].text.by_language[language]
