"""Text as a terminal draws it, for ``quizbot play``: the columns a string takes, and wrapping
to the terminal's width by them.

A terminal draws text one grapheme cluster (a user-perceived character, UAX #29, as
``wcwidth.iter_graphemes`` splits it) at a time, in columns: a mark that combines with the
character before it (Unicode category Mn or Me: a Devanagari virama, anusvara or a vowel sign
above or below, a Greek accent typed as a combining one) takes none; a *spacing* vowel sign
(category Mc: Devanagari ा, ि, ी, ो) takes a column of its own, as terminals draw it (a
per-code-point width table that counts it as 0 makes Hindi lines run past the edge);
East Asian wide and fullwidth characters (CJK, emoji with emoji presentation) take two, and
so does an emoji sequence (a ZWJ sequence, a skin tone, a flag of two regional indicators, a
character made emoji by U+FE0F) drawn as one glyph; format characters (ZWJ, ZWNJ, variation
selectors) take none.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

import wcwidth

EMOJI_PRESENTATION = "\ufe0f"
"""VARIATION SELECTOR-16: the character before it is drawn as an emoji, two columns wide."""

ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc"})
"""Unicode general categories a terminal draws in no column of their own."""

LIST_MARKER = re.compile(r"(\s*)(?:[A-L1-9][0-9]?[.)]|[•✅❌☑☐▶🔹·-])\s+(?=\S)")
"""The start of an item of a list (an option "A) ", a numbered question "3. ", a mark "✅ "):
its continuation lines hang under the text after it."""


URL = re.compile(r"\(?https?://")
"""A word that is a link: never cut, even when wider than a line (it runs past the edge, and
the terminal's own wrapping keeps it one link)."""


def graphemes(text: str) -> Iterator[str]:
    """``text``'s grapheme clusters, in order (UAX #29, by ``wcwidth.iter_graphemes``)."""
    return iter(wcwidth.iter_graphemes(text))


def _regional(char: str) -> bool:
    return "\U0001f1e6" <= char <= "\U0001f1ff"


def grapheme_width(cluster: str) -> int:
    """Columns a terminal draws one grapheme cluster in: 0, 1 or 2 (see the module's notes)."""
    first = cluster[0]
    wide = unicodedata.east_asian_width(first) in "WF"
    if len(cluster) > 1 and (wide or EMOJI_PRESENTATION in cluster or _regional(first)):
        return 2  # an emoji sequence, or a wide character with marks: one glyph
    width = 0
    for char in cluster:
        if unicodedata.category(char) in ZERO_WIDTH_CATEGORIES:
            continue
        width += 2 if unicodedata.east_asian_width(char) in "WF" else 1
    return width


def width(text: str) -> int:
    """Columns a terminal draws ``text`` (one line) in."""
    return sum(grapheme_width(cluster) for cluster in graphemes(text))


def _hang(line: str) -> str:
    """The indentation of a line's continuation lines: under the text of a list item, else
    the line's own leading spaces."""
    found = LIST_MARKER.match(line)
    if found is not None:
        return " " * width(found.group(0))
    return line[:len(line) - len(line.lstrip(" "))]


def _split_word(word: str, room: int) -> tuple[str, str]:
    """``word`` cut after the grapheme clusters that fit in ``room`` columns (at least one)."""
    taken: list[str] = []
    used = 0
    clusters = list(graphemes(word))
    for cluster in clusters:
        cells = grapheme_width(cluster)
        if taken and used + cells > room:
            break
        taken.append(cluster)
        used += cells
    head = "".join(taken)
    return head, word[len(head):]


def wrap_line(line: str, columns: int) -> list[str]:
    """One line of text cut at spaces into lines of at most ``columns`` columns (a word wider
    than a line is cut between grapheme clusters, never inside one; a link (:data:`URL`) is
    not cut), continuation lines indented (:func:`_hang`)."""
    if width(line) <= columns:
        return [line.rstrip(" ")]
    indent = _hang(line)
    if width(indent) > columns // 2:
        indent = ""
    start = line[:len(line) - len(line.lstrip(" "))]
    words = line.split()
    lines: list[str] = []
    current, used = start, width(start)
    fresh = True  # nothing but indentation on the current line yet
    while words:
        word = words.pop(0)
        cells = width(word)
        gap = 0 if fresh else 1
        if used + gap + cells <= columns:
            current += ("" if fresh else " ") + word
            used += gap + cells
            fresh = False
            continue
        if not fresh:  # the word starts the next line
            lines.append(current)
            current, used, fresh = indent, width(indent), True
            words.insert(0, word)
            continue
        if URL.match(word):  # kept whole, so that the terminal still finds the link
            lines.append(current + word)
            current, used, fresh = indent, width(indent), True
            continue
        head, rest = _split_word(word, columns - used)  # wider than a whole line
        lines.append(current + head)
        current, used, fresh = indent, width(indent), True
        if rest:
            words.insert(0, rest)
    if not fresh:
        lines.append(current)
    return lines


def wrap(text: str, columns: int) -> str:
    """``text`` wrapped to ``columns`` columns as a terminal draws it (:func:`wrap_line` per
    line); line breaks and blank lines are kept."""
    return "\n".join(wrapped for line in text.split("\n")
                     for wrapped in wrap_line(line, columns))
