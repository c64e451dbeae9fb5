"""Created quizzes for tests: a valid bank document of a created quiz, stored through the
library (:meth:`bot.kernel.library.QuizLibrary.create_quiz` / ``add_version``) as the
creator-side service stores it."""

from __future__ import annotations

from bot.kernel.library import QuizLibrary, QuizRecord, QuizSummary, Visibility


def quiz_document(
    quiz_id: str, version: int = 1, *, title: str = "Capitals of Europe", questions: int = 3
) -> str:
    """A bank document (``banks/README.md``) of ``quiz_id`` at ``version``: ``questions``
    questions ``q1``.. of four options each, the first one right; each prompt names the
    version ("Question 2 of version 1?"), so a test sees which version it is shown."""
    lines = [
        f"id: {quiz_id}",
        f"version: {version}",
        "default_language: en",
        "languages: [en]",
        "level: easy",
        f"title: {{en: {title!r}}}",
        "description: {en: 'Made in Telegram'}",
        "questions:",
    ]
    for n in range(1, questions + 1):
        lines += [
            f"  - id: q{n}",
            f"    prompt: {{en: 'Question {n} of version {version}?'}}",
            "    options:",
        ]
        for o in range(4):
            lines.append(f"      - text: {{en: 'Answer {o + 1} to {n} v{version}'}}")
            if o == 0:
                lines.append("        correct: true")
        lines += [
            f"    explanation: {{en: 'Answer 1 is right for {n}.'}}",
            "    source: {title: 'The creator', url: 'https://example.org/quiz'}",
        ]
    return "\n".join(lines) + "\n"


async def store_quiz(
    library: QuizLibrary,
    quiz_id: str,
    *,
    owner_id: int = 9001,
    title: str = "Capitals of Europe",
    questions: int = 3,
    visibility: Visibility = Visibility.LINK,
    now: float = 1000.0,
) -> QuizRecord:
    """Store a new created quiz (version 1)."""
    return await library.create_quiz(
        quiz_id,
        owner_id,
        quiz_document(quiz_id, title=title, questions=questions),
        QuizSummary(title=title, language="en", questions=questions),
        visibility=visibility,
        now=now,
    )


async def store_version(
    library: QuizLibrary, record: QuizRecord, *, questions: int = 3, now: float = 2000.0
) -> QuizRecord:
    """Store the quiz's next version (same title, ``questions`` questions)."""
    version = record.version + 1
    stored = await library.add_version(
        record.id,
        quiz_document(record.id, version, title=record.title, questions=questions),
        QuizSummary(title=record.title, language="en", questions=questions),
        now=now,
    )
    assert stored is not None and stored.version == version
    return stored
