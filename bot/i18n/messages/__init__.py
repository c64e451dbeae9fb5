"""The messages of quizbot's user interface, in English: the source of every translation.

Each message has a key (``greeting``, ``level.hard``), used by the code
(``catalog(language)("greeting", name=...)``) and, in the gettext catalogs, as the message's
context (``msgctxt``); its English text is the message id (``msgid``) that translators
translate. Texts are plain text (the renderer escapes them) with ``{name}`` placeholders
(Python's ``str.format``); a plural message (``NP_``) has a singular and a plural English text
and is chosen by its ``count`` parameter with the Plural-Forms rule of each language's catalog.

``pybabel extract`` (configured in pyproject.toml: keywords ``N_:1c,2`` and ``NP_:1c,2,3``) reads
this package into ``locales/messages.pot``; see docs/development.md, "Translating". Each
feature has its module here (``players``, ``newquiz``, ``quizzes``, ...), its messages in one
``MESSAGES`` tuple; a new feature adds a module and names it below. A comment starting with
``Translators:`` just above a message reaches the translators in the catalogs.
"""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text
from bot.i18n.messages import (
    daily,
    documents,
    exams,
    homework,
    learners,
    newquiz,
    players,
    polls,
    quizzes,
    sheets,
    speed,
    translations,
)

__all__ = ["MESSAGES", "NP_", "N_", "Plural", "Text"]


def _by_key(*messages: Text | Plural) -> dict[str, Text | Plural]:
    """Index ``messages`` by key.

    Raises:
        ValueError: two messages share a key (gettext would merge them into one entry).
    """
    index: dict[str, Text | Plural] = {}
    for message in messages:
        if message.key in index:
            raise ValueError(f"two messages have the key {message.key!r}")
        index[message.key] = message
    return index


MESSAGES: dict[str, Text | Plural] = _by_key(
    *players.MESSAGES,
    *newquiz.MESSAGES,
    *quizzes.MESSAGES,
    *daily.MESSAGES,
    *learners.MESSAGES,
    *homework.MESSAGES,
    *speed.MESSAGES,
    *polls.MESSAGES,
    *translations.MESSAGES,
    *sheets.MESSAGES,
    *documents.MESSAGES,
    *exams.MESSAGES,
)
"""Every message of the user interface by key."""
