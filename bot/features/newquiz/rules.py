"""/newquiz's vocabulary: the limits of a created quiz's texts, what the creator sends (a
:class:`PollSent`) and what comes of it (an :data:`Outcome`, each refusal a :class:`Refused` of
one of :data:`PROBLEMS`). The steps that read and give them are
:mod:`bot.features.newquiz.steps`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.features.newquiz.draft import DraftQuestion, Pending, Step

MAX_DRAFT_QUESTIONS = 200
"""Questions a created quiz may have (issue 21: 200 a quiz)."""
MAX_TITLE = 128
"""UTF-16 units of a title (shown on one line: cards, lists, inline results)."""
MAX_DESCRIPTION = 1024
"""UTF-16 units of a description (as much as a shared card shows)."""
MAX_POLL_QUESTION = 300
"""UTF-16 units of a poll's question (Bot API ``sendPoll``: 1-300 characters)."""
MAX_OPTION = 100
"""UTF-16 units of an option (Bot API ``sendPoll``: 1-100 characters), for every question,
typed or polled: a created question can always be sent as a Telegram quiz poll."""
MAX_MESSAGE = 4096
"""UTF-16 units of a text message (Bot API ``sendMessage``)."""
DRAFT_DAYS = 7
"""A draft left this many days is dropped."""
DRAFT_SECONDS = DRAFT_DAYS * 86_400.0
QUESTIONS_PER_MINUTE = 20
"""New questions a creator may add in a minute (a flood gets one polite answer)."""
# --- what the creator sends, and what comes of it --------------------------------------------


@dataclass(frozen=True)
class PollSent:
    """A poll the creator sent or forwarded (Bot API ``Poll``).

    Attributes:
        question: Its question.
        options: Its options' texts.
        quiz: Whether it is a quiz poll (``type == "quiz"``).
        correct: Its ``correct_option_ids``; None when Telegram hides them (a forwarded quiz
            still open) or it is a regular poll.
        explanation: Its explanation ("" for none).
        several: Whether it allows several answers (``allows_multiple_answers``).
        message_id: The creator's message.
        forwarded: Whether it was forwarded (the message's ``forward_origin``): its question
            is cleaned of a channel's counter and signature
            (:mod:`bot.kernel.cleaning`).
    """

    question: str
    options: tuple[str, ...]
    quiz: bool
    correct: tuple[int, ...] | None
    explanation: str
    several: bool
    message_id: int
    forwarded: bool = False


@dataclass(frozen=True)
class Prompt:
    """Ask for what ``step`` needs (the title, the description, the questions)."""

    step: Step


@dataclass(frozen=True)
class Added:
    """A question was added: it is question ``number``."""

    number: int
    question: DraftQuestion


@dataclass(frozen=True)
class AskRight:
    """Ask which option of a pending poll is right (again, after a toggle)."""

    pending: Pending


@dataclass(frozen=True)
class ExplanationAdded:
    """Question ``number`` has a new explanation."""

    number: int


@dataclass(frozen=True)
class Replaced:
    """Question ``number`` was replaced by a corrected one (typed as a reply to it)."""

    number: int


@dataclass(frozen=True)
class OriginalKept:
    """Question ``number`` has its forwarded poll's question back, as it came."""

    number: int


@dataclass(frozen=True)
class PictureKept:
    """A photo waits for the next question."""


@dataclass(frozen=True)
class AlbumGrew:
    """Another photo of the album whose first photo waits for the next question: ``photos``
    came in all; the answer to the album (``note``, a message id, or None) says so."""

    photos: int
    note: int | None


@dataclass(frozen=True)
class Undone:
    """Question ``number`` was taken out."""

    number: int


@dataclass(frozen=True)
class Stale:
    """A button of a question or a poll that is no longer there: nothing changed."""


@dataclass(frozen=True)
class Refused:
    """Nothing changed: ``problem`` (a code the screens translate) with its ``params``."""

    problem: str
    params: Mapping[str, object] = field(default_factory=dict)


Outcome = (
    Prompt
    | Added
    | AskRight
    | ExplanationAdded
    | Replaced
    | OriginalKept
    | PictureKept
    | AlbumGrew
    | Undone
    | Stale
    | Refused
)

PROBLEMS = (
    "title_empty",
    "title_too_long",
    "description_too_long",
    "not_a_question",
    "prompt_too_long",
    "too_few_options",
    "too_many_options",
    "option_empty",
    "option_too_long",
    "options_duplicate",
    "no_right_option",
    "all_right",
    "question_too_long",
    "too_many_questions",
    "answer_pending",
    "questions_first",
    "no_questions",
    "explanation_too_long",
    "choose_one",
)
"""Every :class:`Refused` problem code (the screens have a message for each)."""
