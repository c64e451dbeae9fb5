""" "Add a language" in /myquizzes: a maker sends a created quiz's texts in another language,
one message per question, and the quiz gets that language once every text is given.

One message per question (not per field): the bot shows the question as /newquiz reads one
(the question on the first line, each option on its own line, the explanation after ``>``),
and the maker copies it, translates it line for line and sends it back. A field per message
would make an eight-question quiz of four options some fifty messages; a question per message
keeps the translation of a question and its options together, which is also how a translator
reads them. The title (and the description, when the quiz has one) is the first message.

The progress is a prompt (:class:`~bot.kernel.ports.PromptStore`, kind ``translate``): any
instance takes the next message, and a restart loses nothing. It is kept for
:data:`KEEP_SECONDS` after the last text given (the prompts are pruned after a day); the maker's
messages are read as its texts only within
:data:`~bot.features.myquizzes.edits.EDIT_PROMPT_SECONDS` of the last prompt and until they
choose to finish later (:meth:`Translations.active`). Texts are
kept per question id, so that a question edited meanwhile (a new id) is asked again and the
others are not. Pure: bank data in, bank data out.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.features.myquizzes.edits import EDIT_PROMPT_SECONDS
from bot.kernel.ports import PromptStore
from bot.kernel.textformat import EXPLANATION_MARK, MARK, TRAILING_MARKS, text_lines

KEEP_SECONDS = 24 * 60 * 60
"""How long a translation in progress is kept after its last change (a day: the prompts'
pruning, ``bot.features.private.service``)."""
TITLE = "title"
"""The key of the first message: the title, and the description under it."""
MAX_TITLE = 100
"""Longest title taken, in characters (as a rename)."""
_BIDI_MARKS = re.compile("[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]")
"""The directional marks and isolates the bot puts into right-to-left messages
(``bot.i18n.bidi``), which a copied original carries; the joiners (ZWNJ) stay."""


@dataclass(frozen=True)
class Original:
    """The texts of one message to translate, in the quiz's default language.

    Attributes:
        key: :data:`TITLE` or a question's id.
        lines: The lines to translate, in order: the title and the description (when there is
            one), or the question, its options (none for true/false).
        explanation: The question's explanation ("" when it has none; always "" for the title).
    """

    key: str
    lines: tuple[str, ...]
    explanation: str = ""

    def as_text(self) -> str:
        """The message as the maker sends it back: each text on its line (a text of several
        lines on as many: blank lines left out), each line of the explanation after ``>``."""
        texts = [line for text in self.lines for line in _lines(text)]
        tail = [f"{EXPLANATION_MARK} {line}" for line in _lines(self.explanation)]
        return "\n".join((*texts, *tail))

    def grouped(self, lines: Sequence[str]) -> tuple[str, ...] | None:
        """The lines of a reply as this message's texts (a text of several lines gets as many,
        joined again); None when their count differs."""
        counts = [max(1, len(_lines(text))) for text in self.lines]
        if len(lines) != sum(counts):
            return None
        texts, at = [], 0
        for count in counts:
            texts.append("\n".join(lines[at : at + count]))
            at += count
        return tuple(texts)


def _lines(text: str) -> list[str]:
    """The non-blank lines of ``text``, stripped."""
    return [line.strip() for line in text.splitlines() if line.strip()]


@dataclass(frozen=True)
class Translation:
    """A translation in progress.

    Attributes:
        quiz_id: The created quiz.
        language: The language being added.
        given: Texts given, by :attr:`Original.key`: the translated lines, then the
            explanation ("" when none).
        asked: The key of the message last asked for ("" before the first).
        paused: The maker chose to finish later: their messages are not read as texts.
        skipped: Keys the maker skipped for now: asked once the others are given.
    """

    quiz_id: str
    language: str
    given: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    asked: str = ""
    paused: bool = False
    skipped: tuple[str, ...] = ()

    def to_payload(self) -> str:
        """As a prompt's payload (JSON)."""
        return json.dumps(
            {
                "quiz": self.quiz_id,
                "language": self.language,
                "given": {key: list(texts) for key, texts in self.given.items()},
                "asked": self.asked,
                "paused": self.paused,
                "skipped": list(self.skipped),
            },
            ensure_ascii=False,
        )

    @classmethod
    def from_payload(cls, payload: str) -> Translation:
        """The translation a payload of :meth:`to_payload` holds.

        Raises:
            ValueError, KeyError, TypeError: not such a payload.
        """
        data = json.loads(payload)
        given = {str(key): tuple(map(str, texts)) for key, texts in data["given"].items()}
        skipped = tuple(map(str, data.get("skipped", ())))
        return cls(
            str(data["quiz"]),
            str(data["language"]),
            given,
            str(data["asked"]),
            bool(data["paused"]),
            skipped,
        )


def originals(data: Mapping[str, Any]) -> list[Original]:
    """The messages to translate of a quiz's bank data (``bot.kernel.bankdata.bank_data``), in
    order: the title (with the description when it has one), then each question."""
    source = data["default_language"]
    description = data.get("description", {}).get(source, "")
    found = [Original(TITLE, (data["title"][source], *((description,) if description else ())))]
    for question in data["questions"]:
        options = tuple(option["text"][source] for option in question.get("options", ()))
        explanation = question.get("explanation", {}).get(source, "")
        found.append(Original(question["id"], (question["prompt"][source], *options), explanation))
    return found


def fits(original: Original, texts: Sequence[str]) -> bool:
    """Whether texts given (lines, then the explanation) translate ``original``: as many lines,
    none empty, and an explanation exactly when it has one."""
    *lines, explanation = texts
    return (
        len(lines) == len(original.lines)
        and all(line.strip() for line in lines)
        and bool(explanation) == bool(original.explanation)
        and (original.key != TITLE or len(lines[0]) <= MAX_TITLE)
    )


def next_original(data: Mapping[str, Any], translation: Translation) -> Original | None:
    """The first message of the quiz still to translate (none given, or given for a question
    whose shape changed since), those skipped for now (:attr:`Translation.skipped`) last;
    None when every text is given."""
    missing = [
        original
        for original in originals(data)
        if (given := translation.given.get(original.key)) is None or not fits(original, given)
    ]
    waiting = [original for original in missing if original.key not in translation.skipped]
    first = waiting or missing
    return first[0] if first else None


def position(data: Mapping[str, Any], original: Original) -> tuple[int, int]:
    """``original``'s place among the quiz's messages to translate (1-based) and their count."""
    keys = [found.key for found in originals(data)]
    return keys.index(original.key) + 1, len(keys)


def read_reply(text: str, quotes: Sequence[str], original: Original) -> tuple[str, ...] | None:
    """The texts of a reply translating ``original`` (its lines, then its explanation, "" when
    none): the explanation on lines starting with ``>`` or in quote blocks (``quotes``), a
    right option's ``*`` or trailing check mark dropped (copied from the original), as are the
    bidi marks a right-to-left message gives its lines (:data:`_BIDI_MARKS`); None when it does
    not fit (:func:`fits`)."""
    lines, explanation = text_lines(
        _BIDI_MARKS.sub("", text), [_BIDI_MARKS.sub("", quote) for quote in quotes]
    )
    if original.key != TITLE:  # a right option's mark, copied from the original, dropped
        lines[1:] = [_unmarked(line) for line in lines[1:]]
    grouped = original.grouped(lines)
    if grouped is None:
        return None
    texts = (*grouped, "\n".join(part for part in explanation if part))
    return texts if fits(original, texts) else None


def _unmarked(line: str) -> str:
    """An option line without a right option's mark."""
    if line.startswith(MARK):
        return line[len(MARK) :].strip()
    for mark in TRAILING_MARKS:
        if line.endswith(mark):
            return line[: -len(mark)].strip()
    return line


def with_language(
    data: dict[str, Any], language: str, given: Mapping[str, Sequence[str]]
) -> dict[str, Any] | None:
    """Bank ``data`` with ``language`` added and its texts set from ``given``; the guide's label,
    a link's, is the default language's. None when a text is missing or no longer fits (the
    quiz changed)."""
    by_key = {original.key: original for original in originals(data)}
    for key, original in by_key.items():
        if key not in given or not fits(original, given[key]):
            return None
    source = data["default_language"]
    title = given[TITLE]
    data["title"] = {**data["title"], language: title[0]}
    if len(by_key[TITLE].lines) > 1:
        data["description"] = {**data["description"], language: title[1]}
    elif data.get("description"):
        data["description"] = {**data["description"], language: ""}
    if data.get("guide"):
        label = data["guide"]["label"]
        data["guide"] = {**data["guide"], "label": {**label, language: label[source]}}
    for question in data["questions"]:
        prompt, *options, explanation = given[question["id"]]
        question["prompt"] = {**question["prompt"], language: prompt}
        for option, text in zip(question.get("options", ()), options, strict=True):
            option["text"] = {**option["text"], language: text}
        if explanation:
            question["explanation"] = {**question["explanation"], language: explanation}
    data["languages"] = [*data["languages"], language]
    return data


def forget(translation: Translation, keys: Sequence[str]) -> Translation:
    """``translation`` without the texts of ``keys`` (asked again)."""
    kept = {key: texts for key, texts in translation.given.items() if key not in keys}
    return replace(translation, given=kept)


class Translations:
    """Each maker's translation in progress (one at a time), stored as a prompt of kind
    :data:`KIND` for :data:`KEEP_SECONDS` after its last change.

    Args:
        store: Where the prompts are kept.
        clock: Seconds since the epoch.
    """

    KIND = "translate"

    def __init__(self, store: PromptStore, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        self._clock = clock

    async def save(self, user_id: int, translation: Translation) -> None:
        """Keep ``translation`` as ``user_id``'s (replacing another).

        Raises:
            StorageError: it could not be stored.
        """
        await self._store.set_prompt(user_id, self.KIND, translation.to_payload(), self._clock())

    async def current(self, user_id: int) -> Translation | None:
        """``user_id``'s translation in progress, if any (paused or not).

        Raises:
            StorageError: the prompts could not be read.
        """
        payload = await self._store.prompt(user_id, self.KIND, since=self._clock() - KEEP_SECONDS)
        if payload is None:
            return None
        try:
            return Translation.from_payload(payload)
        except (ValueError, KeyError, TypeError):
            return None

    async def active(self, user_id: int) -> Translation | None:
        """``user_id``'s translation whose messages are read as its texts: not finished later,
        and asked within :data:`~bot.features.myquizzes.edits.EDIT_PROMPT_SECONDS` (a maker who
        went on to something else is not taken at their word an hour later: the progress
        stays, and the language picker goes on with it).

        Raises:
            StorageError: the prompts could not be read.
        """
        payload = await self._store.prompt(
            user_id, self.KIND, since=self._clock() - EDIT_PROMPT_SECONDS
        )
        if payload is None:
            return None
        try:
            found = Translation.from_payload(payload)
        except (ValueError, KeyError, TypeError):
            return None
        return None if found.paused else found

    async def drop(self, user_id: int) -> None:
        """Forget ``user_id``'s translation.

        Raises:
            StorageError: the prompt could not be dropped.
        """
        await self._store.drop_prompt(user_id, self.KIND)
