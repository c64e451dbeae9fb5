"""A draft as bank data: the document format of ``banks/README.md``, in the creator's language
(``/newquiz``'s ``/done``; :mod:`bot.features.newquiz.steps`)."""

from __future__ import annotations

from typing import Any

from bot.features.newquiz.draft import Draft

DRAFT_BANK_ID = "new-quiz"
"""The id in a draft's bank data (the quiz gets its own id when published)."""
LEVEL = "medium"
"""The level of a created quiz (the flow does not ask for one)."""


def bank_data(draft: Draft, *, description: str = "") -> dict[str, Any]:
    """The draft as bank data (the document format of ``banks/README.md``), in its
    language: question ids ``q1``, ``q2``, ...; several right options as several
    ``correct: true``; a true/false question as ``kind: true-false`` with its ``answer``; a
    photo as ``picture``. A question without an explanation has none in the data (the bank's
    checks then name it).

    Args:
        description: The description used when the creator skipped theirs.
    """
    lang = draft.language
    questions = []
    for number, q in enumerate(draft.questions, start=1):
        item: dict[str, Any] = {"id": f"q{number}", "prompt": {lang: q.prompt}}
        if q.answer is not None:
            item["kind"] = "true-false"
            item["answer"] = q.answer
        else:
            item["options"] = [
                {"text": {lang: text}, **({"correct": True} if i in q.correct else {})}
                for i, text in enumerate(q.options)
            ]
        if q.explanation:
            item["explanation"] = {lang: q.explanation}
        if q.picture:
            item["picture"] = q.picture
        questions.append(item)
    return {
        "id": DRAFT_BANK_ID,
        "version": 1,
        "default_language": lang,
        "languages": [lang],
        "level": LEVEL,
        "title": {lang: draft.title},
        "description": {lang: draft.description or description or draft.title},
        "questions": questions,
    }
