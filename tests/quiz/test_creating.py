"""The draft machine of /newquiz and the text format of a typed question (pure, no Telegram)."""

from __future__ import annotations

import json

import pytest

from bot.features.newquiz import draftbank, steps
from bot.features.newquiz import rules as creating
from bot.features.newquiz.draft import Draft, Step
from bot.features.newquiz.rules import (
    Added,
    AskRight,
    ExplanationAdded,
    PictureKept,
    PollSent,
    Prompt,
    Refused,
    Stale,
    Undone,
)
from bot.kernel.bank import MAX_OPTIONS, MAX_QUESTION_UTF16
from bot.kernel.textformat import parse_question


def collecting(language: str = "en") -> Draft:
    """A draft past its title and description."""
    draft, _ = steps.start(language, now=1000.0)
    draft, _ = steps.take_text(draft, "Capitals", message_id=1)
    draft, _ = steps.skip(draft)
    return draft


def poll(
    question="Capital of France?",
    options=("Berlin", "Paris", "Rome"),
    *,
    quiz=True,
    correct=(1,),
    explanation="",
    several=False,
    message_id=10,
) -> PollSent:
    return PollSent(question, tuple(options), quiz, correct, explanation, several, message_id)


# --- the text format ----------------------------------------------------------------------------


def test_text_format_reads_question_options_mark_and_explanation():
    """The first line is the question, a leading * marks the right option, > the explanation."""
    typed = parse_question("What is 2+2?\n3\n*4\n5\n> Two and two make four.")
    assert typed is not None
    assert (typed.prompt, typed.options, typed.correct) == ("What is 2+2?", ("3", "4", "5"), (1,))
    assert typed.explanation == "Two and two make four."


def test_text_format_is_forgiving_about_labels_bullets_blank_lines_and_trailing_marks():
    """Labels A) B) and bullets are dropped when every option has one; ✓ at the end marks too."""
    typed = parse_question("Largest planet?\n\nA) Mars\nB) Jupiter ✓\nC) *Venus\n")
    assert typed is not None
    assert typed.options == ("Mars", "Jupiter", "Venus") and typed.correct == (1, 2)
    bullets = parse_question("Pick one\n- *yes\n- no")
    assert bullets is not None and bullets.options == ("yes", "no") and bullets.correct == (0,)


def test_text_format_keeps_a_label_like_text_when_not_every_option_has_one():
    """ "A. Lincoln" among unlabelled options is an option text, not a label."""
    typed = parse_question("Who wrote the Gettysburg Address?\n*A. Lincoln\nG. Washington")
    assert typed is not None and typed.options == ("A. Lincoln", "G. Washington")


def test_text_format_quote_blocks_are_the_explanation():
    """A quote block (Telegram's apps make one of a typed > line) is the explanation."""
    text = "Capital of Greece?\n*Athens\nSparta\nIt has been since 1834."
    typed = parse_question(text, quotes=["It has been since 1834."])
    assert typed is not None
    assert typed.options == ("Athens", "Sparta") and typed.explanation == "It has been since 1834."


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("The Sun is a star.\n*True\nFalse", True),
        ("Η Γη είναι επίπεδη.\nΣωστό\n*Λάθος", False),
        ("पृथ्वी गोल है।\n*सही\nगलत", True),
    ],
)
def test_text_format_true_false(text, answer):
    """Two options True and False (in any of the bot's languages), one marked: true/false."""
    typed = parse_question(text)
    assert typed is not None and typed.answer is answer and typed.options == ()


def test_text_format_needs_a_question_and_an_option_line():
    """A single line is not a question in the format."""
    assert parse_question("hello") is None
    assert parse_question("\n\n") is None


def test_markup_is_kept_as_typed():
    """HTML and Markdown are plain text in the format: nothing is interpreted or stripped."""
    typed = parse_question("<b>Bold</b> **or** _not_?\n*<i>yes</i>\n&amp;")
    assert typed is not None
    assert typed.prompt == "<b>Bold</b> **or** _not_?" and typed.options == ("<i>yes</i>", "&amp;")


# --- the steps ----------------------------------------------------------------------------------


def test_steps_title_description_questions():
    """/newquiz asks a title, then a description, then questions."""
    draft, prompt = steps.start("hi", now=5.0)
    assert prompt == Prompt(Step.TITLE) and draft.started == 5000
    draft, prompt = steps.take_text(draft, "  My   quiz ", message_id=1)
    assert prompt == Prompt(Step.DESCRIPTION) and draft.title == "My quiz"
    draft, prompt = steps.take_text(draft, "About things.", message_id=2)
    assert prompt == Prompt(Step.QUESTIONS) and draft.description == "About things."
    assert draft.step is Step.QUESTIONS


def test_skip_leaves_the_description_empty():
    """/skip at the description goes on to the questions."""
    draft = collecting()
    assert draft.step is Step.QUESTIONS and draft.description == ""


def test_title_limits():
    """An empty or too long title is refused, and the draft stays at the title."""
    draft, _ = steps.start("en", now=0.0)
    assert steps.take_text(draft, "   ", message_id=1) == (draft, Refused("title_empty"))
    assert steps.take_text(draft, "\u200b\ufeff\u200e", message_id=1) == (
        draft,
        Refused("title_empty"),
    )  # zero-width and direction marks show nothing
    same, refused = steps.take_text(draft, "x" * 129, message_id=1)
    assert same is draft and isinstance(refused, Refused) and refused.problem == "title_too_long"


def test_polls_and_photos_before_the_questions_are_refused():
    """A poll or a photo at the title step: "questions come after the title"."""
    draft, _ = steps.start("en", now=0.0)
    assert steps.take_poll(draft, poll())[1] == Refused("questions_first")
    assert steps.take_photo(draft, "F" * 30, caption="", message_id=3)[1] == Refused(
        "questions_first"
    )


def test_quiz_poll_becomes_a_question():
    """A quiz poll with its right option and explanation is added as it is."""
    draft, added = steps.take_poll(collecting(), poll(explanation="Since 508."))
    assert isinstance(added, Added) and added.number == 1
    q = draft.questions[0]
    assert (q.prompt, q.options, q.correct, q.explanation) == (
        "Capital of France?",
        ("Berlin", "Paris", "Rome"),
        (1,),
        "Since 508.",
    )
    assert q.messages == (10,)


def test_quiz_poll_with_several_right_options():
    """correct_option_ids with two ids: a question with several right options."""
    _, added = steps.take_poll(
        collecting(), poll("Primes?", ("2", "3", "4"), correct=(1, 0), several=True)
    )
    assert isinstance(added, Added) and added.question.correct == (0, 1)
    assert added.question.several


def test_regular_poll_asks_which_option_is_right():
    """A regular poll waits for the creator's choice, then becomes a question."""
    draft, asked = steps.take_poll(collecting(), poll(quiz=False, correct=None))
    assert isinstance(asked, AskRight) and not asked.pending.several
    serial = asked.pending.question.serial
    assert steps.finish(draft) == Refused("answer_pending")
    assert steps.choose(draft, serial, 7)[1] == Stale()  # no such option
    draft, added = steps.choose(draft, serial, 2)
    assert isinstance(added, Added) and added.question.correct == (2,)
    assert draft.pending == () and steps.finish(draft) is None
    assert steps.choose(draft, serial, 1) == (draft, Stale())  # a second tap


def test_hidden_quiz_answer_with_several_options_toggles_then_confirms():
    """A forwarded multiple-answer quiz whose answer is hidden: toggle, then confirm."""
    draft, asked = steps.take_poll(collecting(), poll(correct=None, several=True))
    assert isinstance(asked, AskRight) and asked.pending.several
    serial = asked.pending.question.serial
    assert steps.confirm(draft, serial)[1] == Refused("choose_one")
    draft, again = steps.choose(draft, serial, 0)
    draft, again = steps.choose(draft, serial, 2)
    draft, again = steps.choose(draft, serial, 0)  # toggled off
    assert isinstance(again, AskRight) and again.pending.question.correct == (2,)
    draft, _ = steps.choose(draft, serial, 1)
    draft, added = steps.confirm(draft, serial)
    assert isinstance(added, Added) and added.question.correct == (1, 2)
    assert steps.confirm(draft, serial)[1] == Stale()


def test_all_options_right_is_refused_at_confirm():
    """Every option right leaves nothing to choose: refused, the poll still waits."""
    draft, asked = steps.take_poll(
        collecting(), poll(options=("a", "b"), correct=None, several=True)
    )
    assert isinstance(asked, AskRight)
    serial = asked.pending.question.serial
    draft, _ = steps.choose(draft, serial, 0)
    draft, _ = steps.choose(draft, serial, 1)
    same, refused = steps.confirm(draft, serial)
    assert refused == Refused("all_right") and same is draft and draft.pending


def test_typed_question_with_a_photo_before_it():
    """A photo without caption is the picture of the next question; then it is used up."""
    draft, kept = steps.take_photo(collecting(), "AgAD" + "x" * 30, caption="", message_id=4)
    assert kept == PictureKept()
    draft, added = steps.take_text(draft, "Where?\n*Here\nThere", message_id=5)
    assert isinstance(added, Added) and added.question.picture == "AgAD" + "x" * 30
    draft, added = steps.take_text(draft, "Again?\n*Yes\nNo", message_id=6)
    assert isinstance(added, Added) and added.question.picture is None


def test_photo_with_a_caption_is_a_question_with_its_picture():
    """A photo whose caption is a question in the text format is that question."""
    _, added = steps.take_photo(collecting(), "P" * 30, caption="What?\n*A\nB", message_id=4)
    assert isinstance(added, Added) and added.question.picture == "P" * 30


def test_long_explanation_as_a_reply():
    """A text replying to a question's message (the creator's or the bot's) explains it."""
    draft, _ = steps.take_poll(collecting(), poll(explanation="Short."))
    draft = steps.noted(draft, draft.questions[0].serial, 99)
    long = "Because " * 60
    draft, outcome = steps.take_text(draft, long, message_id=11, reply_to=99)
    assert outcome == ExplanationAdded(1) and draft.questions[0].explanation == long.strip()
    too_long = "y" * MAX_QUESTION_UTF16
    same, refused = steps.take_text(draft, too_long, message_id=12, reply_to=10)
    assert same is draft and isinstance(refused, Refused)
    assert refused.problem == "explanation_too_long"


def test_undo_takes_out_the_last_question_and_a_stale_undo_changes_nothing():
    """Undo removes its question only while it is the last one."""
    draft, first = steps.take_text(collecting(), "One?\n*a\nb", message_id=1)
    draft, second = steps.take_text(draft, "Two?\n*a\nb", message_id=2)
    assert isinstance(first, Added) and isinstance(second, Added)
    assert steps.undo(draft, first.question.serial) == (draft, Stale())
    draft, undone = steps.undo(draft, second.question.serial)
    assert undone == Undone(2) and len(draft.questions) == 1
    assert steps.undo(draft, second.question.serial) == (draft, Stale())
    draft, third = steps.take_text(draft, "Three?\n*a\nb", message_id=3)
    assert isinstance(third, Added) and third.number == 2
    assert third.question.serial != second.question.serial  # the old Undo stays stale
    assert steps.undo(draft, second.question.serial)[1] == Stale()


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Q?\n*a\na", "options_duplicate"),
        ("Q?\n*Paris\nPARIS", "options_duplicate"),
        ("Q?\na\nb", "no_right_option"),
        ("Q?\n*a\n*b", "all_right"),
        ("Q?\n*\nb", "option_empty"),
        ("Q?\n*a\n\u200b\u200d", "option_empty"),  # zero-width characters only: invisible
        ("Q?\n*a\n" + "b" * 101, "option_too_long"),
        (
            "Q?\n" + "\n".join(f"*o{i}" if i == 0 else f"o{i}" for i in range(MAX_OPTIONS + 1)),
            "too_many_options",
        ),
        ("just one line", "not_a_question"),
        ("Q" * 4097 + "\n*a\nb", "question_too_long"),
        ("Q" * 3500 + "\n*a\nb", "question_too_long"),
    ],
)
def test_typed_question_limits(text, problem):
    """Each bad question is refused with its problem; the draft is unchanged."""
    draft = collecting()
    same, refused = steps.take_text(draft, text, message_id=1)
    assert same is draft and isinstance(refused, Refused) and refused.problem == problem


def test_poll_limits():
    """A poll question over 300 characters or with one option is refused."""
    draft = collecting()
    refused = steps.take_poll(draft, poll("Q" * 301))[1]
    assert isinstance(refused, Refused) and refused.problem == "prompt_too_long"
    assert steps.take_poll(draft, poll(options=("only",), correct=(0,)))[1] == Refused(
        "too_few_options", {"limit": 2}
    )


def test_two_hundred_questions_at_most():
    """The 201st question is refused; the 200 stay."""
    draft = collecting()
    for number in range(creating.MAX_DRAFT_QUESTIONS):
        draft, added = steps.take_text(draft, f"Q{number}?\n*a\nb", message_id=number)
        assert isinstance(added, Added)
    same, refused = steps.take_text(draft, "One more?\n*a\nb", message_id=999)
    assert same is draft and refused == Refused("too_many_questions", {"limit": 200})


def test_done_needs_a_question():
    """/done without a question is refused."""
    assert steps.finish(collecting()) == Refused("no_questions")
    draft, _ = steps.start("en", now=0.0)
    assert steps.finish(draft) == Refused("no_questions")


def test_draft_data_round_trips_through_json():
    """A draft survives JSON (how DraftStore keeps it) with every field."""
    draft, _ = steps.take_photo(collecting("el"), "F" * 25, caption="", message_id=3)
    draft, _ = steps.take_text(draft, "Q?\n*a\nb\n> why", message_id=4)
    draft, _ = steps.take_poll(draft, poll(quiz=False, correct=None, several=True))
    draft = steps.noted(draft, 1, 77)
    again = Draft.from_data(json.loads(json.dumps(draft.to_data())))
    assert again == draft
    with pytest.raises(ValueError):
        Draft.from_data({"v": 99})
    with pytest.raises(ValueError):
        Draft.from_data({"v": 1})


def test_bank_data_in_the_creators_language():
    """The draft becomes bank data: ids q1.., several right, true/false, picture."""
    draft, _ = steps.start("el", now=0.0)
    draft, _ = steps.take_text(draft, "Κουίζ", message_id=1)
    draft, _ = steps.take_text(draft, "Για όλους.", message_id=2)
    draft, _ = steps.take_text(
        draft, "Πρώτοι;\n*2\n*3\n4\n> Διαιρούνται μόνο με το 1.", message_id=3
    )
    draft, _ = steps.take_photo(draft, "F" * 25, caption="", message_id=4)
    draft, _ = steps.take_text(draft, "Η Γη γυρίζει.\n*Σωστό\nΛάθος", message_id=5)
    data = draftbank.bank_data(draft)
    assert data["default_language"] == "el" and data["languages"] == ["el"]
    assert data["title"] == {"el": "Κουίζ"} and data["description"] == {"el": "Για όλους."}
    first, second = data["questions"]
    assert first["id"] == "q1" and first["explanation"] == {"el": "Διαιρούνται μόνο με το 1."}
    assert [o.get("correct", False) for o in first["options"]] == [True, True, False]
    assert second == {
        "id": "q2",
        "prompt": {"el": "Η Γη γυρίζει."},
        "kind": "true-false",
        "answer": True,
        "picture": "F" * 25,
    }


def test_bank_data_description_when_skipped():
    """A skipped description is the one given (a default sentence), else the title."""
    draft, _ = steps.take_text(collecting(), "Q?\n*a\nb", message_id=1)
    assert draftbank.bank_data(draft, description="A quiz.")["description"] == {"en": "A quiz."}
    assert draftbank.bank_data(draft)["description"] == {"en": "Capitals"}


def test_resume_shows_the_oldest_pending_poll_first():
    """Going on with a draft asks again about a waiting poll before anything else."""
    draft = collecting()
    assert steps.resume(draft) == Prompt(Step.QUESTIONS)
    draft, asked = steps.take_poll(draft, poll(quiz=False, correct=None))
    assert steps.resume(draft) == asked


def test_expired_after_seven_days():
    """A draft unchanged for more than 7 days is left for good."""
    assert not steps.expired(0.0, 7 * 86_400.0)
    assert steps.expired(0.0, 7 * 86_400.0 + 1)


def test_a_corrected_question_as_a_reply_replaces_it():
    """A question in the text format replying to question 1 replaces it in place."""
    draft, _ = steps.take_text(collecting(), "Frist?\n*a\nb\n> Why.", message_id=1)
    draft, _ = steps.take_text(draft, "Second?\n*a\nb", message_id=2)
    serial = draft.questions[0].serial
    draft, replaced = steps.take_text(draft, "First?\n*a\nb\nc", message_id=3, reply_to=1)
    assert replaced == creating.Replaced(1)
    first = draft.questions[0]
    assert (first.prompt, first.options, first.explanation) == ("First?", ("a", "b", "c"), "Why.")
    assert first.serial == serial and 3 in first.messages and len(draft.questions) == 2
    same, refused = steps.take_text(draft, "Bad?\n*a\na", message_id=4, reply_to=3)
    assert same is draft and isinstance(refused, Refused)
