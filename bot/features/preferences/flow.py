"""How a private quiz goes on after an answer (a user's ``/settings`` choice, kept per user).

* :attr:`AnswerFlow.NEXT` (the default): the answered question's message turns into the
  feedback (the choice, the right option, the explanation) with a "Next" button; the next
  question comes when it is tapped. The learner decides when they have read the explanation,
  which is what the feedback is for: a wrong answer's explanation is the lesson, and a new
  question arriving at once pulls the eye (and, on a phone, the screen) away from it.
* :attr:`AnswerFlow.ONE_TAP`: the same feedback without the button, and the next question at
  once as a new message below it: the explanation stays above, to read before answering
  below. One tap per question instead of two, for a learner who reads on their own pace.
"""

from __future__ import annotations

from enum import StrEnum


class AnswerFlow(StrEnum):
    """What follows an answer in a private quiz (stored by its value)."""

    NEXT = "next"
    ONE_TAP = "one_tap"


DEFAULT_FLOW = AnswerFlow.NEXT
"""The flow of a user who chose none (see the module: time to read the explanation)."""


def flow_of(stored: str | None) -> AnswerFlow:
    """The flow a stored value names; :data:`DEFAULT_FLOW` for none (or one this version does
    not know, written by a newer one)."""
    try:
        return AnswerFlow(stored) if stored is not None else DEFAULT_FLOW
    except ValueError:
        return DEFAULT_FLOW
