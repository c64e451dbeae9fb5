"""Forwarded quiz polls cleaned of a channel's counter and signature
(bot/kernel/cleaning.py), and the draft steps that keep the original."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.features.newquiz import steps
from bot.features.newquiz.draft import Draft
from bot.features.newquiz.rules import Added, AskRight, OriginalKept, PollSent, Stale
from bot.kernel.cleaning import clean_question


@pytest.mark.parametrize(
    ("question", "text", "removed"),
    [
        ("[1/100] What is 2+2?", "What is 2+2?", ("[1/100]",)),
        ("(12) What is 2+2?", "What is 2+2?", ("(12)",)),
        ("1/100 Which planet is largest?", "Which planet is largest?", ("1/100",)),
        ("12/50. Which planet is largest?", "Which planet is largest?", ("12/50.",)),
        ("Q12. Capital of France?", "Capital of France?", ("Q12.",)),
        ("Q.7: Capital of France?", "Capital of France?", ("Q.7:",)),
        ("12) Who wrote Hamlet?", "Who wrote Hamlet?", ("12)",)),
        ("3. Who wrote Hamlet?", "Who wrote Hamlet?", ("3.",)),
        ("#12 Who wrote Hamlet?", "Who wrote Hamlet?", ("#12",)),
        ("№5 Кто написал «Гамлета»?", "Кто написал «Гамлета»?", ("№5",)),
        ("Who wrote Hamlet? @quiz_channel", "Who wrote Hamlet?", ("@quiz_channel",)),
        ("Who wrote Hamlet?\n\n@quiz_channel", "Who wrote Hamlet?", ("@quiz_channel",)),
        ("Who wrote Hamlet? — t.me/quizzes", "Who wrote Hamlet?", ("t.me/quizzes",)),
        (
            "Who wrote Hamlet? (https://t.me/+AbCd_12)",
            "Who wrote Hamlet?",
            ("https://t.me/+AbCd_12)",),
        ),
        ("Who wrote Hamlet? via @QuizBot", "Who wrote Hamlet?", ("via @QuizBot",)),
        (
            "[3/100] Q3. Who wrote Hamlet? | @quiz_channel t.me/quiz_channel",
            "Who wrote Hamlet?",
            ("[3/100]", "Q3.", "@quiz_channel", "t.me/quiz_channel"),
        ),
    ],
)
def test_counters_and_signatures_are_taken_off(question, text, removed):
    """Each counter at the start and signature at the end is taken off and named."""
    cleaned = clean_question(question)
    assert cleaned is not None
    assert (cleaned.text, cleaned.removed) == (text, removed)


@pytest.mark.parametrize(
    "question",
    [
        "What is 2+2?",
        "3/4 of 12 is how much?",  # a fraction, not a counter
        "12.5 kg is how many grams?",
        "3 - 1 = ?",
        "2024: which year was a leap year?",
        "Write to name@mail.example?",
        "What does @property do in Python?",
        "@quiz_channel",  # nothing would be left
        "[1/100]",
    ],
)
def test_what_is_not_a_counter_or_a_signature_stays(question):
    """Numbers that belong to the question, addresses inside it, and a question that would
    be left empty are not touched."""
    assert clean_question(question) is None


def test_a_fraction_of_the_form_of_a_counter_is_taken_for_one():
    """``7/50 of a kilogram`` has a counter's form: it is taken off, and shown, so that the
    maker keeps the original with one tap."""
    cleaned = clean_question("7/50 of a kilogram is how many grams?")
    assert cleaned is not None and cleaned.removed == ("7/50",)


def collecting() -> Draft:
    """A draft past its title and description."""
    draft, _ = steps.start("en", now=1000.0)
    draft, _ = steps.take_text(draft, "Capitals", message_id=1)
    draft, _ = steps.skip(draft)
    return draft


def forwarded(question: str, *, correct: tuple[int, ...] | None = (1,)) -> PollSent:
    return PollSent(
        question, ("Berlin", "Paris", "Rome"), True, correct, "", False, 10, forwarded=True
    )


def test_a_forwarded_poll_is_cleaned_and_its_original_kept_until_asked_for():
    """A forwarded poll's question is stored cleaned, the original beside it; "Keep the
    original" puts it back once (a second tap is stale), and the draft's data keeps both."""
    draft, added = steps.take_poll(collecting(), forwarded("[7/100] Capital of France? @geo_quiz"))
    assert isinstance(added, Added)
    q = draft.questions[0]
    assert (q.prompt, q.original) == ("Capital of France?", "[7/100] Capital of France? @geo_quiz")
    assert Draft.from_data(draft.to_data()) == draft
    kept, outcome = steps.keep_original(draft, q.serial)
    assert outcome == OriginalKept(1)
    assert (kept.questions[0].prompt, kept.questions[0].original) == (
        "[7/100] Capital of France? @geo_quiz",
        "",
    )
    again, stale = steps.keep_original(kept, q.serial)
    assert isinstance(stale, Stale) and again == kept


def test_a_poll_of_ones_own_or_a_clean_one_is_not_touched():
    """A poll made in the app is the maker's own text; a forwarded one with nothing to take
    off has no original to keep."""
    own = replace(forwarded("[7/100] Capital of France?"), forwarded=False)
    draft, _ = steps.take_poll(collecting(), own)
    assert (draft.questions[0].prompt, draft.questions[0].original) == (
        "[7/100] Capital of France?",
        "",
    )
    draft, _ = steps.take_poll(collecting(), forwarded("Capital of France?"))
    assert draft.questions[0].original == ""
    assert isinstance(steps.keep_original(draft, draft.questions[0].serial)[1], Stale)


def test_a_forwarded_quiz_with_a_hidden_answer_is_cleaned_before_its_right_option_is_asked():
    """An open quiz forwarded from a channel (answer hidden) is asked about with its cleaned
    question, and keeps the original once its right option is chosen."""
    draft, asked = steps.take_poll(collecting(), forwarded("Q1. Capital of France?", correct=None))
    assert isinstance(asked, AskRight) and asked.pending.question.prompt == "Capital of France?"
    draft, added = steps.choose(draft, asked.pending.question.serial, 1)
    assert isinstance(added, Added)
    assert added.question.original == "Q1. Capital of France?"


def test_a_draft_saved_before_the_original_was_kept_still_loads():
    """Draft data without "original" (saved before) loads with none."""
    draft, _ = steps.take_poll(collecting(), forwarded("Capital of France?"))
    data = draft.to_data()
    del data["questions"][0]["original"]
    assert Draft.from_data(data).questions[0].original == ""
