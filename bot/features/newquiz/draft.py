"""A quiz in the making (``/newquiz``): the draft as data, and as JSON-compatible data for
``DraftStore`` (the steps that change it: :mod:`bot.features.newquiz.steps`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

DATA_VERSION = 1
"""The version of :meth:`Draft.to_data`'s shape."""


class Step(StrEnum):
    """Where a draft is."""

    TITLE = "title"
    DESCRIPTION = "description"
    QUESTIONS = "questions"


@dataclass(frozen=True)
class DraftQuestion:
    """A question of a draft.

    Attributes:
        serial: Its number among everything added to this draft (never reused: an Undo
            button names it, so a stale one changes nothing).
        prompt: The question.
        options: The options (empty for a true/false question).
        correct: Indexes of the right options (one, or several).
        explanation: Why the answer is right ("" when none was given yet).
        picture: The Telegram file_id of its photo, or None.
        answer: A true/false question's answer; None for options.
        messages: Ids of the messages that stand for it in the creator's chat (theirs and the
            bot's confirmation): a reply to one of them is its explanation.
        original: A forwarded poll's question as it came, when ``prompt`` is it cleaned of a
            channel's counter or signature ("" otherwise): the creator may keep it.
    """

    serial: int
    prompt: str
    options: tuple[str, ...]
    correct: tuple[int, ...]
    explanation: str = ""
    picture: str | None = None
    answer: bool | None = None
    messages: tuple[int, ...] = ()
    original: str = ""

    @property
    def several(self) -> bool:
        """Whether several options are right."""
        return len(self.correct) > 1


@dataclass(frozen=True)
class Pending:
    """A poll whose right option the creator is asked for (a regular poll, or a quiz whose
    answer Telegram hides): the question it becomes once answered.

    Attributes:
        question: The question, its ``correct`` the options chosen so far.
        several: Whether several options may be right (toggled, then confirmed).
    """

    question: DraftQuestion
    several: bool


@dataclass(frozen=True)
class Draft:
    """A quiz in the making (one per creator).

    Attributes:
        language: The creator's language: the quiz's language.
        started: When the draft was opened (milliseconds): names it on its buttons.
        step: Where it is.
        title, description: What the creator gave ("" for none yet).
        questions: The questions so far, in order.
        picture: A photo's file_id waiting for the next question, or None.
        album: The ``media_group_id`` of the album ``picture`` is the first photo of, or None.
        album_photos: How many photos of that album came (the first is the picture).
        album_note: The bot's message that answered the album (edited as more photos come).
        pending: Polls waiting for their right option, oldest first.
        next_serial: The serial of the next question.
    """

    language: str
    started: int
    step: Step = Step.TITLE
    title: str = ""
    description: str = ""
    questions: tuple[DraftQuestion, ...] = ()
    picture: str | None = None
    pending: tuple[Pending, ...] = ()
    next_serial: int = 1
    album: str | None = None
    album_photos: int = 0
    album_note: int | None = None

    def to_data(self) -> dict[str, Any]:
        """The draft as JSON-compatible data (for ``DraftStore.save_draft``)."""
        return {
            "v": DATA_VERSION,
            "language": self.language,
            "started": self.started,
            "step": str(self.step),
            "title": self.title,
            "description": self.description,
            "questions": [_question_data(q) for q in self.questions],
            "picture": self.picture,
            "next_serial": self.next_serial,
            "album": self.album,
            "album_photos": self.album_photos,
            "album_note": self.album_note,
            "pending": [
                {"several": p.several, "question": _question_data(p.question)} for p in self.pending
            ],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Draft:
        """The draft :meth:`to_data` made.

        Raises:
            ValueError: the data is not a draft of this shape.
        """
        try:
            if data["v"] != DATA_VERSION:
                raise ValueError(f"draft data version {data['v']!r}")
            return cls(
                language=str(data["language"]),
                started=int(data["started"]),
                step=Step(data["step"]),
                title=str(data["title"]),
                description=str(data["description"]),
                questions=tuple(_question_of(q) for q in data["questions"]),
                picture=data["picture"],
                next_serial=int(data["next_serial"]),
                album=data.get("album"),
                album_photos=int(data.get("album_photos", 0)),
                album_note=data.get("album_note"),
                pending=tuple(
                    Pending(_question_of(p["question"]), bool(p["several"]))
                    for p in data["pending"]
                ),
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a draft: {exc!r}") from None

    def number_of(self, serial: int) -> int | None:
        """The 1-based number of the question with ``serial``, or None."""
        for number, question in enumerate(self.questions, start=1):
            if question.serial == serial:
                return number
        return None


def _question_data(q: DraftQuestion) -> dict[str, Any]:
    return {
        "serial": q.serial,
        "prompt": q.prompt,
        "options": list(q.options),
        "correct": list(q.correct),
        "explanation": q.explanation,
        "picture": q.picture,
        "answer": q.answer,
        "messages": list(q.messages),
        "original": q.original,
    }


def _question_of(data: Mapping[str, Any]) -> DraftQuestion:
    return DraftQuestion(
        serial=int(data["serial"]),
        prompt=str(data["prompt"]),
        options=tuple(str(o) for o in data["options"]),
        correct=tuple(int(i) for i in data["correct"]),
        explanation=str(data["explanation"]),
        picture=data["picture"],
        answer=data["answer"],
        messages=tuple(int(m) for m in data["messages"]),
        original=str(data.get("original", "")),  # drafts saved before it have none
    )
