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

Lines break at spaces, but not inside a run kept together (:func:`kept_together`): a number
and its unit, a name and its "et al.", a command and its options. The joins are made here,
when wrapping, so that the stored texts keep plain spaces (a command copied from the
terminal must run).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

import wcwidth

from bot.i18n import bidi
from bot.kernel.languages import LANGUAGES

EMOJI_PRESENTATION = "\ufe0f"
"""VARIATION SELECTOR-16: the character before it is drawn as an emoji, two columns wide."""

ZERO_WIDTH_CATEGORIES = frozenset({"Mn", "Me", "Cf", "Cc"})
"""Unicode general categories a terminal draws in no column of their own."""

LIST_MARKER = re.compile(r"(\s*)(?:(?:[✅❌☑☐]\s+)?[A-L1-9][0-9]?[.)]|[•✅❌☑☐▶🔹·-])\s+(?=\S)")
"""The start of an item of a list (an option "A) ", a numbered question "3. ", a mark "✅ ",
an answered option "✅ C. "): its continuation lines hang under the text after it."""


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
    return line[: len(line) - len(line.lstrip(" "))]


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
    return head, word[len(head) :]


NUMBER = re.compile(r"[^\w\s]*[-+−±~≈]?\d(?:[\d.,:٫٬]*\d)?[%×٪]?")
"""A word that is a number ("8.3", "8,3", "۸٫۳", "(76%", "10:30"; not one ending a clause, "2019,"):
kept with the word after it, its unit or what it counts ("8.3 बिलियन", "8,3 δισ."), unless
that word opens a bracket or is a link."""

INITIAL = re.compile(r"[^\w\s]*[A-ZΑ-Ω]\.")
"""A capital and a full stop ("J."): an initial, kept with the name after it."""

COMMAND = "quizbot"
"""The first word of a command named in a text; the command is kept on one line (see
:func:`_command_end`)."""

SUBCOMMANDS = frozenset(
    {"play", "run", "validate", "banks", "report", "backup", "restore", "delete-user"}
)
"""The words of ``quizbot``'s subcommands (:mod:`bot.__main__`)."""

VALUE_OPTIONS = frozenset({"--bank", "--banks", "--db", "--lang", "--chart"})
"""The options of ``quizbot play`` that take a value (the word after them); ``--banks`` takes
one or more paths."""

COUNT_WORDS = frozenset(word for language in LANGUAGES.values() for word in language.count_words)
"""The words between a number and the number it counts out of ("7 of 8", "7 από 8", "7 з 8",
"7 из 8", "7 dari 8", "8 üzerinden 7", "7 من 8", "7 از 8", "7 de 8", "8 में से प्रश्न 7", where
the noun counted may come before the second number; "8 tadan 7-savol", where the second is an
Uzbek ordinal with its noun): the two numbers and the words between them are kept together.
Each language's :attr:`~bot.kernel.languages.Language.count_words`."""

ORDINAL = re.compile(r"\d+-\w+")
"""An ordinal number with the noun it is joined to by a hyphen, as Uzbek writes it ("7-savol",
question 7): what a number counts out of in "8 tadan 7-savol" (:data:`COUNT_WORDS`)."""

PUNCTUATION = ".,;:!?·…»”’\"')]।،؛؟"
"""What may end a word in a sentence and is not part of it (the Devanagari danda and the Arabic
and Persian comma, semicolon and question mark too)."""


def _command_end(words: list[str], start: int) -> int:
    """The index of the last word of the command that starts at ``words[start]`` ("quizbot
    play --bank demo --review"): its subcommand, its options and their values."""
    end = start
    if end + 1 < len(words) and words[end + 1].rstrip(PUNCTUATION) in SUBCOMMANDS:
        end += 1
    while end + 1 < len(words) and words[end + 1].startswith("--"):
        end += 1
        option = words[end].rstrip(PUNCTUATION)
        if option != words[end] or option not in VALUE_OPTIONS:
            continue  # no value, or the sentence ends with it
        values = 0
        while (
            end + 1 < len(words)
            and not words[end + 1].startswith("-")
            and (values == 0 or (option == "--banks" and any(c in words[end + 1] for c in "/.")))
        ):
            end += 1
            values += 1
            if words[end].rstrip(PUNCTUATION) != words[end]:
                return end  # the sentence goes on after the value
    return end


def _count_end(word: str) -> bool:
    """Whether ``word`` is the number a count is out of: a number, or an ordinal with its noun
    ("7-savol", :data:`ORDINAL`)."""
    bare = word.rstrip(PUNCTUATION)
    return bool(NUMBER.fullmatch(bare) or ORDINAL.fullmatch(bare))


def kept_together(words: list[str]) -> list[list[str]]:
    """``words`` in runs that a line should not break (non-breaking joins, made here so that the
    stored texts keep plain spaces): a number and the word after it (:data:`NUMBER`), a
    number and the number it counts out of (:data:`COUNT_WORDS`), an initial and the name
    after it, a name and its "et al.", and a command with its options (``quizbot play
    --review``). Bidirectional formatting characters (an isolated command in a Persian
    sentence) do not hide a word from these rules."""
    plain = [bidi.CONTROLS.sub("", word) for word in words]
    glued = [False] * len(plain)  # glued[i]: no break between plain[i] and plain[i + 1]
    for i, word in enumerate(plain[:-1]):
        after = plain[i + 1]
        if NUMBER.fullmatch(word) or INITIAL.fullmatch(word):
            glued[i] = not after.startswith(("(", "[")) and not URL.match(after)  # a unit
            j = i + 1
            while j < len(plain) - 1 and j - i <= 2 and plain[j] in COUNT_WORDS:
                j += 1
            if j > i + 1 and j + 1 < len(plain) and not _count_end(plain[j]):
                j += 1  # the noun counted, before its number: "8 में से प्रश्न 7"
            if j > i + 1 and _count_end(plain[j]):
                for k in range(i, j):  # "7 of 8"
                    glued[k] = True
        elif after == "et" and i + 2 < len(plain) and plain[i + 2].startswith("al."):
            glued[i] = glued[i + 1] = True
        elif word.lstrip("«“\"'(") == COMMAND:
            for j in range(i, _command_end(plain, i)):
                glued[j] = True
    runs: list[list[str]] = []
    for i, word in enumerate(words):
        if i and glued[i - 1]:
            runs[-1].append(word)
        else:
            runs.append([word])
    return runs


def wrap_line(line: str, columns: int) -> list[str]:
    """One line of text cut at spaces into lines of at most ``columns`` columns, never inside
    a run that is kept together (:func:`kept_together`) unless the run is wider than a line (a
    word wider than a line is cut between grapheme clusters, never inside one; a link
    (:data:`URL`) is not cut), continuation lines indented (:func:`_hang`)."""
    if width(line) <= columns:
        return [line.rstrip(" ")]
    indent = _hang(line)
    if width(indent) > columns // 2:
        indent = ""
    start = line[: len(line) - len(line.lstrip(" "))]
    runs = kept_together(line.split())
    lines: list[str] = []
    current, used = start, width(start)
    fresh = True  # nothing but indentation on the current line yet
    while runs:
        run = runs.pop(0)
        word = " ".join(run)
        cells = width(word)
        gap = 0 if fresh else 1
        if used + gap + cells <= columns:
            current += ("" if fresh else " ") + word
            used += gap + cells
            fresh = False
            continue
        if len(run) > 1 and (fresh or cells > columns - width(indent)):  # wider than a line
            runs[:0] = [[w] for w in run]
            continue
        if not fresh:  # the run starts the next line
            lines.append(current)
            current, used, fresh = indent, width(indent), True
            runs.insert(0, run)
            continue
        if URL.match(word):  # kept whole, so that the terminal still finds the link
            lines.append(current + word)
            current, used, fresh = indent, width(indent), True
            continue
        head, rest = _split_word(word, columns - used)  # wider than a whole line
        lines.append(current + head)
        current, used, fresh = indent, width(indent), True
        if rest:
            runs.insert(0, [rest])
    if not fresh:
        lines.append(current)
    return lines


def wrap(text: str, columns: int) -> str:
    """``text`` wrapped to ``columns`` columns as a terminal draws it (:func:`wrap_line` per
    line); line breaks and blank lines are kept."""
    return "\n".join(wrapped for line in text.split("\n") for wrapped in wrap_line(line, columns))
