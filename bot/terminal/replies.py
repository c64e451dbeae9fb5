"""What a player types in ``quizbot play``, read: an option's label in Latin, Greek, Cyrillic,
Persian or Arabic letters or as its number, several labels, True and False in words, yes, and
quitting."""

from __future__ import annotations

from collections.abc import Sequence

from bot import i18n
from bot.kernel import engine

GREEK_LABELS = "ΑΒΓΔΕΖΗΘΙΚΛΜ"
"""Greek capitals typed for the option labels A-L (on a Greek keyboard layout the Latin letters
are a layout switch away): Α Β Γ Δ are A B C D, in the order of the alphabet."""


ABJAD_LABELS = "ابجدهوزحطیکل"
"""Persian and Arabic letters typed for the option labels A-L, in abjad order (الف، ب، ج، د,
as Persian and Arabic school tests letter their options): alif, ba, jim, dal ... The options
are labelled A-L on every screen (one keyboard of a group's question serves members of every
language, and the labels sit beside Latin terms: ZeRO, GPU), but a learner on a Persian or
Arabic keyboard types them without switching layouts (:func:`read_label`)."""


CYRILLIC_LABELS = {"А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "К": "K"}
"""Cyrillic capitals read as the Latin option label they look like (lower case too: ``а`` is
A, ``в`` is B). The screens label options A-L in Latin letters, so a Russian or Ukrainian
learner who has not switched layout types the letter that looks like the label they read.
Neither the Cyrillic alphabet's order (а б в г, as Russian school tests letter options) nor
the keys' places on a Russian layout (ф on the A key, в on the D key) is read: each disagrees
with these look-alikes (в would be C by the alphabet, D by its key, B by its look), and a
reading that works for some letters and silently misreads others grades a wrong answer. Any
other Cyrillic letter is refused and asked again; the option's number works on every layout."""


_ABJAD_FORMS = str.maketrans(
    {"أ": "ا", "إ": "ا", "آ": "ا", "ي": "ی", "ى": "ی", "ك": "ک", "ـ": None}
)
"""Arabic forms of the letters of :data:`ABJAD_LABELS` (Arabic ya and kaf, alif with hamza or
madda) and the tatweel of "هـ", read as the Persian ones."""


QUIT = ("Q", ";", "ض", "Й")
"""Replies that quit: "q", ";" (the q key of a Greek keyboard layout types it), "ض" (that
of a Persian or Arabic one) or "й" (that of a Russian or Ukrainian one)."""


def is_yes(reply: str, t: i18n.Catalog) -> bool:
    """Whether a typed reply says yes, in the catalog's words or English ones."""
    return reply.strip().lower() in t("play.yes_words").lower().split()


def yes_word(t: i18n.Catalog) -> str:
    """The word the prompts ask for to say yes."""
    return t("play.yes_words").split()[0]


def read_label(reply: str, labels: str) -> str | None:
    """The option label (A-L) a typed reply names: a Latin or Greek letter (:data:`GREEK_LABELS`)
    or a Cyrillic look-alike of a label (:data:`CYRILLIC_LABELS`), either case, a Persian or
    Arabic one (:data:`ABJAD_LABELS`; "الف" too), or the option's
    number in any script's digits (1, ۱, ١ for A), among ``labels``; None for anything else."""
    reply = _abjad(reply.strip()).upper()
    if reply.isdecimal() and 1 <= int(reply) <= len(engine.LABELS):
        reply = engine.LABELS[int(reply) - 1]
    elif len(reply) == 1 and reply in GREEK_LABELS:
        reply = engine.LABELS[GREEK_LABELS.index(reply)]
    elif len(reply) == 1 and reply in ABJAD_LABELS:
        reply = engine.LABELS[ABJAD_LABELS.index(reply)]
    elif reply in CYRILLIC_LABELS:
        reply = CYRILLIC_LABELS[reply]
    return reply if len(reply) == 1 and reply in labels else None


def _abjad(reply: str) -> str:
    """``reply`` with "الف" as its one letter and the Arabic forms read as the Persian ones."""
    return reply.translate(_ABJAD_FORMS).replace("الف", "ا")


def true_false_words(t: i18n.Catalog, order: Sequence[int]) -> dict[str, str]:
    """What a reply to a true/false question may say instead of its letter, each mapped to the
    letter of that option (``order``: the question's option order, option 0 being True): T/F,
    TRUE/FALSE, and the catalog's own True and False words, in capitals."""
    true, false = engine.LABELS[order.index(0)], engine.LABELS[order.index(1)]
    words = {"T": true, "TRUE": true, "F": false, "FALSE": false}
    words[t("option_true").strip().upper()] = true
    words[t("option_false").strip().upper()] = false
    return words


def read_labels(reply: str, labels: str) -> str | None:
    """The option labels a typed reply names for a question with several right options
    ("A C", "a,c" or "AC"; Latin, Greek, Cyrillic, Persian or Arabic letters or single digits, as
    :func:`read_label`), in the order typed;
    None if any is not among ``labels``."""
    letters = [c for c in _abjad(reply) if not c.isspace() and c not in ",;،"]
    named = [read_label(c, labels) for c in letters]
    return "".join(label for label in named if label) if named and all(named) else None
