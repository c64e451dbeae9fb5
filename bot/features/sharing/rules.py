"""Sharing a quiz: which banks an inline query ("@<bot> text") finds, and its pages of results.

The pure rules (no Telegram): :func:`search` matches what a user typed against the featured
banks' ids, titles and descriptions in every language, however the text was typed (case,
accents, width forms, invisible characters); :func:`page` cuts the matches into the pages that
answerInlineQuery allows; :func:`find` adds the public created quizzes whose title contains
the text (the library's search, case-insensitive), after the featured banks.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.kernel.bank import ID_PATTERN, Bank
from bot.kernel.engine import UnknownBank
from bot.kernel.registry import BankRegistry

MAX_QUERY = 256
"""Characters of a query that are read. Telegram sends at most 256 (Bot API ``InlineQuery``:
"Text of the query (up to 256 characters)"); anything beyond is ignored rather than refused."""

PAGE_SIZE = 50
"""Results per answer: Bot API answerInlineQuery, "No more than 50 results per query are
allowed"; the next page is asked for with ``next_offset``."""

CREATED_PER_PAGE = 10
"""Created quizzes on one page of inline results, at most: each is parsed from its stored
document unless cached, and Telegram's client asks for the next page (``next_offset``) as the
user scrolls; featured banks, in memory, fill pages of :data:`PAGE_SIZE`."""

_DROPPED = frozenset({"Me", "Cf", "Cc", "Cs", "Co", "Cn"})
"""Unicode categories left out when matching: enclosing marks, format characters (zero-width
spaces and joiners, right-to-left and left-to-right marks, the BOM), control, surrogate,
private-use and unassigned code points."""

_DIACRITICS = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
)
"""The Combining Diacritical Marks blocks (and their extensions, supplement, marks for symbols
and half marks): the accents that NFKD splits off Latin, Greek and Cyrillic letters, left out
so that "Μεγαλα" finds "Μεγάλα". The marks of scripts such as Devanagari (the virama, vowel
signs) are letters of their words and stay."""

_SEPARATORS = ("P", "S", "Z")
"""Unicode major categories read as a space: punctuation (so "deepspeed-megatron" is two words),
symbols (emoji) and separators."""


def normalize(text: str) -> str:
    """``text`` folded for matching: compatibility-decomposed (NFKD: full-width letters and
    ligatures become plain ones), case-folded, without accents (:data:`_DIACRITICS`) and the
    characters of :data:`_DROPPED`, punctuation, symbols and separators turned into single
    spaces, trimmed."""
    folded = unicodedata.normalize("NFKD", text).casefold()
    kept = []
    for char in folded:
        category = unicodedata.category(char)
        if category in _DROPPED or (category == "Mn" and _diacritic(char)):
            continue
        kept.append(" " if category[0] in _SEPARATORS or char.isspace() else char)
    return " ".join("".join(kept).split())


def _diacritic(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _DIACRITICS)


def query_words(query: str) -> tuple[str, ...]:
    """The words of a query (its first :data:`MAX_QUERY` characters, :func:`normalize`\\ d);
    none for a query that is empty, blank, or only marks, emoji and invisible characters."""
    return tuple(normalize(query[:MAX_QUERY]).split())


def haystack(bank: Bank) -> str:
    """What a query is matched against: the bank's id, and its title and description in every
    language of the bank, normalized."""
    texts = [bank.id, *bank.title.by_language.values(), *bank.description.by_language.values()]
    return " " + " ".join(normalize(text) for text in texts) + " "


def search(banks: Iterable[Bank], query: str) -> list[Bank]:
    """The banks whose :func:`haystack` contains every word of ``query`` (anywhere, so a word
    being typed already matches), in the order given; every bank when the query has no words.

    Never raises, whatever the text: any string is a query.
    """
    words = query_words(query)
    return [bank for bank in banks if all(word in haystack(bank) for word in words)]


def page(items: Sequence[Bank], offset: str, size: int = PAGE_SIZE) -> tuple[Sequence[Bank], str]:
    """One page of results and the ``next_offset`` for the next one.

    Args:
        items: All matches, in order.
        offset: The inline query's ``offset``: "" for the first page, else a ``next_offset``
            this function returned; anything else (forged, or from an older page size) reads
            as the first page; one past the matches (banks were removed meanwhile) gives an
            empty page.
        size: Results per page, at most :data:`PAGE_SIZE`.

    Returns:
        The page, and the offset of the next page ("" when this is the last: Bot API, "Pass
        an empty string if there are no more results").
    """
    start = _start(offset)
    end = start + size
    return items[start:end], (str(end) if end < len(items) else "")


def _start(offset: str) -> int:
    """The first match of the page ``offset`` names (see :func:`page`)."""
    return int(offset) if offset.isascii() and offset.isdigit() and len(offset) <= 9 else 0


@dataclass(frozen=True)
class Found:
    """One page of an inline query's results.

    Attributes:
        page: The banks of this page, featured banks first, then public created quizzes.
        next_offset: The offset of the next page, "" for the last one (see :func:`page`).
        matches: How many matches were read: all of them on the last page; on an earlier
            page, at least one more than the page reaches (created quizzes are read only as
            far as the page needs).
    """

    page: Sequence[Bank]
    next_offset: str
    matches: int


async def find(registry: BankRegistry, query: str, offset: str, size: int = PAGE_SIZE) -> Found:
    """The page ``offset`` of what the inline query ``query`` finds: the featured banks that
    :func:`search` matches, then the public, enabled created quizzes whose title contains the
    query's text (its first :data:`MAX_QUERY` characters, spaces collapsed; every public one
    for an empty text), most recently updated first. Only the created quizzes up to the end of
    the page (and one more, to know whether there is a next page) are read, and only those of
    the page are parsed. A query that is exactly a created quiz's id finds that quiz, link-only
    or public (the Share button of a link-only quiz types its id; whoever has the id has the
    link). Never refuses a query.

    Raises:
        StorageError: the library of created quizzes could not be read.
    """
    exact = query.strip()
    if not offset and ID_PATTERN.fullmatch(exact) and not registry.is_featured(exact):
        try:
            return Found([await registry.bank(exact)], "", 1)
        except UnknownBank:
            pass  # no such quiz (or taken down): search its text as any other query
    featured = search(registry.featured.values(), query)
    start = _start(offset)
    end = start + min(size, PAGE_SIZE)
    end = min(end, max(len(featured), start) + CREATED_PER_PAGE)
    records = await registry.search(
        " ".join(query[:MAX_QUERY].split()), limit=end + 1 - len(featured)
    )
    total = len(featured) + len(records)
    shown = list(featured[start:end])
    for record in records[max(start - len(featured), 0) : end - len(featured)]:
        bank = await registry.find(record.id, record.version)
        if bank is not None:  # else deleted or taken down since it was found
            shown.append(bank)
    return Found(shown, str(end) if end < total else "", total)
