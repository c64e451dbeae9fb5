"""What is wrong with a creator's quiz: the shape of a problem (:class:`Problem`, what the strict
check finds) and the problems the /myquizzes service finds itself (its limits, a question that
is not there, concurrent edits), each with its catalog key and English text for logs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from bot.kernel.engine import QuizError


class Problem(Protocol):
    """What is wrong with a document, for the creator (``bot.bankload.BankProblem`` fits).

    ``key`` and ``params`` name the message in the UI catalogs; ``message`` is the English
    text for logs; ``question`` is the 1-based question number (None for the quiz itself).
    """

    @property
    def line(self) -> int | None: ...
    @property
    def question(self) -> int | None: ...
    @property
    def field(self) -> str: ...
    @property
    def key(self) -> str: ...
    @property
    def params(self) -> Mapping[str, object]: ...
    @property
    def message(self) -> str: ...


@dataclass(frozen=True)
class QuizProblem:
    """A problem the service itself finds (a limit), in the shape of :class:`Problem`."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)
    message: str = ""
    field: str = "(quiz)"
    line: int | None = None
    question: int | None = None


def too_many_quizzes(limit: int) -> QuizProblem:
    """The creator has ``limit`` quizzes already (``quizzes.too_many``)."""
    return QuizProblem("quizzes.too_many", {"limit": limit}, f"at most {limit} quizzes per creator")


def too_many_questions(limit: int) -> QuizProblem:
    """The quiz has ``limit`` questions already (``quizzes.too_many_questions``)."""
    return QuizProblem(
        "quizzes.too_many_questions", {"limit": limit}, f"at most {limit} questions per quiz"
    )


def no_question(number: int) -> QuizProblem:
    """The quiz has no question ``number`` (1-based; ``quizzes.no_question``)."""
    return QuizProblem("quizzes.no_question", {"number": number}, f"there is no question {number}")


def last_question() -> QuizProblem:
    """The quiz's one question cannot be deleted (``quizzes.last_question``)."""
    return QuizProblem("quizzes.last_question", {}, "a quiz keeps at least one question")


def edited_concurrently() -> QuizProblem:
    """Other edits kept moving the quiz on while a document was stored (``quizzes.toast_busy``)."""
    return QuizProblem("quizzes.toast_busy", {}, "edited concurrently")


class QuizGone(QuizError):
    """No such created quiz (deleted, or never existed): nothing was changed."""


class NotYourQuiz(QuizError):
    """The quiz is someone else's (a forged or forwarded button): nothing was read further
    or changed."""


class QuizBusy(QuizError):
    """Other edits kept moving the latest version on (:data:`VERSION_TRIES`): nothing was
    changed."""
