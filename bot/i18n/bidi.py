"""Right-to-left text (Persian, Arabic) as the Unicode bidirectional algorithm (UAX #9) and
Telegram's apps lay it out.

A line's direction is its first strong character's (UAX #9, P2-P3; Telegram's apps, like
browsers, decide each paragraph so). A Persian question that starts with "ZeRO" would be laid
out left to right, its punctuation at the wrong end: :func:`directed` starts each such line
of a right-to-left message with RIGHT-TO-LEFT MARK. A value put into a right-to-left sentence
(a name, a title, a command) is isolated (:func:`isolate`: FIRST STRONG ISOLATE ... POP
DIRECTIONAL ISOLATE), so that its own letters and its edges' punctuation do not mix with the
sentence's. ``quizbot play`` shows right-to-left lines in visual order (:func:`visual`), for
terminals that do not reorder.
"""

from __future__ import annotations

import re
import unicodedata

FSI, PDI = "\u2068", "\u2069"
"""FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: what is between them takes its own
direction (from its first strong character) and counts as one neutral character outside."""

RLM = "\u200f"
"""RIGHT-TO-LEFT MARK: a strong right-to-left character that is not drawn."""

CONTROLS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")
"""The bidirectional formatting characters (marks, embeddings, overrides, isolates)."""

_TAG = re.compile(r"<[^>]*>|&[#\w]+;")
"""An HTML tag or character reference: not drawn, so no part of a line's direction."""

RIGHT_TO_LEFT_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]")
"""A letter of a right-to-left script (Hebrew, Arabic script: Persian, Arabic, Urdu): a text
without one is left as it is, unlooked at (a regular expression's search: the hot path of
every other language)."""

_RIGHT = frozenset({"R", "AL"})
_STRONG = frozenset({"L", "R", "AL"})


RIGHT_TO_LEFT_LANGUAGES = frozenset(
    {
        *("apc", "ar", "ary", "bal", "bgn", "bqi", "brh", "ckb", "dv", "fa", "he", "ks", "lrc"),
        *("mzn", "nqo", "ps", "rhg", "sd", "sdh", "skr", "syr", "trw", "ug", "ur", "yi"),
    }
)
"""The languages CLDR writes right to left (its character order ``right-to-left``), listed so
that no locale data is loaded to know it (a test compares the list with Babel's CLDR)."""


def right_to_left(language: str) -> bool:
    """Whether ``language`` (a code, e.g. ``fa``, ``fa-IR``) is written right to left."""
    return language.replace("_", "-").split("-")[0].lower() in RIGHT_TO_LEFT_LANGUAGES


def _strong(text: str) -> str | None:
    """The direction of the first strong character of ``text`` ("L" or "R"), None if none.
    Isolated runs (between an isolate initiator and its PDI) are skipped (UAX #9, P2)."""
    depth = 0
    for char in text:
        if char in "\u2066\u2067\u2068":
            depth += 1
        elif char == PDI:
            depth = max(0, depth - 1)
        elif depth == 0:
            kind = unicodedata.bidirectional(char)
            if kind in _STRONG:
                return "R" if kind in _RIGHT else "L"
    return None


def mostly_right_to_left(text: str) -> bool:
    """Whether most of the strong characters (letters) of ``text`` are right-to-left ones
    (Arabic script, Hebrew): a message of a right-to-left language, its Latin terms aside."""
    right = left = 0
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in _RIGHT:
            right += 1
        elif kind == "L":
            left += 1
    return right > left


LRM = "\u200e"
"""LEFT-TO-RIGHT MARK: a strong left-to-right character that is not drawn."""

_LEADING_SIGN = re.compile(r"(?<![^\s(«\"'>])(?=[/\-−+]{1,2}[\w.])")
"""Where a command, an option or a signed number starts ("/quiz", "--lang", "-0.35", "+4") at
the start of a word: its slash or sign is neutral (or weak) and would be laid out on the far
side of what follows it in right-to-left text ("quiz/", "review--", "0.35-")."""


LRI = "\u2066"
"""LEFT-TO-RIGHT ISOLATE: what follows, up to PDI, is laid out left to right on its own."""

_TERM = r"[A-Za-z0-9(][A-Za-z0-9().,\-]*"
_FORMULA = re.compile(rf"(?<![\w/:@.\-]){_TERM}(?:\s?[+−×/=^·*]\s?{_TERM})+(?![\w/:])")
"""A formula in Latin letters and digits ("(p-1)/m", "2 + 14/N", "n = p × t × d"): terms
joined by operators, not part of a link, a path or a command (a hyphen joins a term's parts:
"Megatron-LM", "p-1")."""


_LINK = re.compile(r"\S*(?:://|t\.me/|www\.)\S*")
"""A link: left as it is, so that Telegram still finds it whole."""


def _with_formulas(text: str) -> str:
    parts = []
    at = 0
    for link in _LINK.finditer(text):
        parts.append(_isolate_formulas(text[at : link.start()]))
        parts.append(link[0])
        at = link.end()
    parts.append(_isolate_formulas(text[at:]))
    return "".join(parts)


def _isolate_formulas(text: str) -> str:
    return _FORMULA.sub(_isolated_formula, _LEADING_SIGN.sub(LRM, text))


def _isolated_formula(match: re.Match[str]) -> str:
    """A formula with a letter or a bracket, isolated; digits alone ("3/8", "12.5") read left
    to right in right-to-left text already."""
    found = match[0]
    return f"{LRI}{found}{PDI}" if re.search(r"[A-Za-z()]", found) else found


def anchored(text: str, *, html: bool = False) -> str:
    """``text`` with LEFT-TO-RIGHT MARK before each command, option or signed number
    (:data:`_LEADING_SIGN`), so that its slash or sign stays at its start in a right-to-left
    line (for right-to-left text only; Telegram's apps still see the command). ``html``: the
    text is Telegram HTML, whose tags are left as they are. A formula (:data:`_FORMULA`) is
    isolated left to right as a whole, so that its brackets and operators keep their order."""
    if not html:
        return _with_formulas(text)
    parts = re.split(r"(<[^>]*>)", text)
    return "".join(part if part.startswith("<") else _with_formulas(part) for part in parts)


def directed(text: str, *, html: bool = False, mostly: bool = True) -> str:
    """``text`` with RIGHT-TO-LEFT MARK at the start of each line that would otherwise be laid
    out left to right (its first strong character is a Latin one, or it has none: "ZeRO ...",
    "3/8", a progress bar), when the text is mostly right to left
    (:func:`mostly_right_to_left`); any other text is returned as it is. ``html``: the text is
    Telegram HTML, whose tags and character references are not part of a line's direction.
    ``mostly=False``: any right-to-left letter makes the text right to left (a button's label,
    "Stage 3 در ZeRO", short and often mostly Latin)."""
    if not RIGHT_TO_LEFT_LETTER.search(text):
        return text
    if mostly and not mostly_right_to_left(_TAG.sub("", text) if html else text):
        return text
    lines = anchored(text, html=html).split("\n")
    for number, line in enumerate(lines):
        shown = _TAG.sub("", line) if html else line
        if shown.strip() and _strong(shown) != "R":
            lines[number] = RLM + line
    return "\n".join(lines)


def isolate(value: str) -> str:
    """``value`` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE when it has letters (a
    name, a title, a command put into a right-to-left sentence); a number, a link or an empty
    value as it is (digits already read left to right in right-to-left text, and a link's
    end must stay where Telegram's link detection looks for it)."""
    if "://" in value or _strong(value) is None:
        return value
    return f"{FSI}{value}{PDI}"


def balanced(lines: list[str]) -> list[str]:
    """``lines`` (one text wrapped) with each isolate a wrap cut in two closed at the end of its
    first line and opened again at the start of the next, so that each line can be laid out on
    its own (UAX #9 takes an unmatched initiator to the end of its paragraph)."""
    out, open_ = [], ""
    for line in lines:
        line = open_ + line
        stack: list[str] = []
        for char in line:
            if char in "\u2066\u2067\u2068":
                stack.append(char)
            elif char == PDI and stack:
                stack.pop()
        open_ = "".join(stack)
        out.append(line + PDI * len(stack))
    return out


_LEVEL = re.compile(r"Level\(\s*(\d+),?\s*\)")


def _levels(line: str) -> list[int]:
    """The embedding level of each character of ``line`` in a right-to-left paragraph (UAX #9,
    by python-bidi's Rust implementation, which resolves isolates and bracket pairs; it gives
    them per byte of the UTF-8 text, in its debug output)."""
    from bidi import get_display  # python-bidi: only `quizbot play` needs it

    debug = str(get_display(line, base_dir="R", debug=True))
    start = debug.index("levels: [")
    per_byte = [int(level) for level in _LEVEL.findall(debug, start, debug.index("]", start))]
    levels, offset = [], 0
    for char in line:
        levels.append(per_byte[offset] if offset < len(per_byte) else 1)
        offset += len(char.encode())
    return levels


def visual(line: str) -> str:
    """One line of a right-to-left paragraph in visual order (left to right as drawn): UAX #9's
    levels (isolates and bracket pairs resolved), each run reversed from the highest level down
    (L2), a bracket or quotation mark at a right-to-left level mirrored (L4), the formatting
    characters removed; for a terminal that does not reorder. ZWNJ and the other joiners stay."""
    from bidi.mirror import MIRRORED

    levels = _levels(line)
    chars = [
        MIRRORED.get(char, char) if level % 2 else char
        for char, level in zip(line, levels, strict=True)
    ]
    order = list(range(len(chars)))
    for level in range(max(levels, default=0), 0, -1):  # L2: highest level first
        at = 0
        while at < len(order):
            if levels[order[at]] >= level:
                end = at
                while end < len(order) and levels[order[end]] >= level:
                    end += 1
                order[at:end] = reversed(order[at:end])
                at = end
            else:
                at += 1
    _marks_after_their_base(order, chars, levels)
    return CONTROLS.sub("", "".join(chars[i] for i in order))


def _marks_after_their_base(order: list[int], chars: list[str], levels: list[int]) -> None:
    """UAX #9 L3: a right-to-left run, reversed, puts its combining marks (an Arabic vowel
    sign, shadda, Persian hamza above) before their base letter; a terminal draws a mark on
    the character before it, so each base goes back in front of its marks, which keep their
    logical order. ``order`` (indexes into ``chars``, as drawn) is changed in place."""
    at = 0
    while at < len(order):
        end = at
        while end < len(order) and levels[order[end]] % 2 and _is_mark(chars[order[end]]):
            end += 1
        if end > at and end < len(order) and levels[order[end]] % 2:
            order[at : end + 1] = [order[end], *reversed(order[at:end])]
            at = end + 1
        else:
            at = max(end, at + 1)


def _is_mark(char: str) -> bool:
    return unicodedata.category(char) in ("Mn", "Me")
