"""Tests for the question kinds (several right options, true/false, pictures, 12 options): the
bank format's rules (bot.bankload) and how the engine plans and grades them (bot.kernel.engine)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.bankload import BankError, parse_bank
from bot.features.private import screens as private_screens
from bot.kernel import engine
from bot.kernel.bank import CHOICE, TRUE_FALSE, Bank
from bot.render import callbacks as render_callbacks
from bot.render import question as render_question
from bot.render import text as render_text
from tests.bankload.test_bankload import dump, line_of, make_bank

USER = 42


def several(data: dict[str, Any], question: int = 0, right: tuple[int, ...] = (0, 2)) -> None:
    """Mark the options ``right`` of question ``question`` as the right ones."""
    for index, option in enumerate(data["questions"][question]["options"]):
        option.pop("correct", None)
        if index in right:
            option["correct"] = True


def true_false(data: dict[str, Any], question: int = 1, answer: Any = False) -> None:
    """Make question ``question`` a true/false statement whose answer is ``answer``."""
    node = data["questions"][question]
    node.pop("options")
    node["kind"] = "true-false"
    node["answer"] = answer


def problems(data: dict[str, Any]) -> tuple[str, list[Any]]:
    """The YAML text of ``data`` and the problems the loader reports for it."""
    text = dump(data)
    with pytest.raises(BankError) as info:
        parse_bank(text, "bank.yaml")
    return text, list(info.value.problems)


def kinds_bank() -> Bank:
    """A bank of three questions: q-one with options 1 and 3 right, q-two true/false (false),
    q-three with twelve options and a picture."""
    data = make_bank()
    several(data)
    true_false(data)
    third = dict(data["questions"][0], id="q-three", picture="https://example.org/a.png")
    third["options"] = [
        {"text": {"en": f"Opt {i}", "hi": f"विकल्प {i}"}, **({"correct": True} if i == 11 else {})}
        for i in range(12)
    ]
    data["questions"].append(third)
    return parse_bank(dump(data))


# --- the bank format --------------------------------------------------------------------------


def test_several_right_options_load_as_one_question_with_every_right_index():
    """Two options with ``correct: true`` make a question with several right options."""
    bank = kinds_bank()
    question = bank.question("q-one")
    assert question.kind == CHOICE and question.several
    assert question.correct_indices == {0, 2} and question.correct_index == 0


def test_true_false_loads_with_the_bots_own_two_options():
    """``kind: true-false`` with ``answer: false``: two options, False (index 1) right."""
    question = kinds_bank().question("q-two")
    assert question.kind == TRUE_FALSE and question.answer is False
    assert question.correct_indices == {1} and len(question.options) == 2


def test_twelve_options_and_a_picture_load():
    """Twelve options (labels A-L) and an https picture are kept."""
    question = kinds_bank().question("q-three")
    assert len(question.options) == 12 and question.picture == "https://example.org/a.png"
    assert engine.LABELS[11] == "L"


def test_a_true_false_question_with_options_is_refused_on_its_options_line():
    """Options on a true/false question: the problem names the line, question and field."""
    data = make_bank()
    data["questions"][1]["kind"] = "true-false"
    data["questions"][1]["answer"] = True
    text, found = problems(data)
    (problem,) = [p for p in found if p.field == "options"]
    assert problem.question_id == "q-two"
    assert problem.line == line_of(text, "options:", after="id: q-two")
    assert "true-false" in problem.message


@pytest.mark.parametrize(
    ("answer", "hint"), [("true", "remove the quotes"), (3, "int 3"), (None, "nothing")]
)
def test_a_true_false_answer_that_is_not_a_boolean_is_refused(answer, hint):
    """``answer: "true"``, a number or nothing: refused, naming the question and the field."""
    data = make_bank()
    true_false(data, answer=answer)
    text, found = problems(data)
    (problem,) = found
    assert (problem.question_id, problem.field) == ("q-two", "answer")
    assert problem.line == line_of(text, "answer:")
    assert "must be true or false" in problem.message and hint in problem.message


def test_a_true_false_question_without_an_answer_is_refused():
    """``kind: true-false`` and no ``answer``: the answer is reported missing."""
    data = make_bank()
    true_false(data)
    del data["questions"][1]["answer"]
    _, found = problems(data)
    assert [(p.question_id, p.field, p.message) for p in found] == [
        ("q-two", "answer", "is missing")
    ]


def test_an_answer_on_a_choice_question_is_refused():
    """``answer`` belongs to true/false only: on options it is refused, with the fix."""
    data = make_bank()
    data["questions"][0]["answer"] = True
    _, found = problems(data)
    (problem,) = found
    assert (problem.question_id, problem.field) == ("q-one", "answer")
    assert "correct: true" in problem.message


def test_several_right_options_all_right_are_refused():
    """A several-right question whose options are all right has nothing to choose."""
    data = make_bank()
    several(data, right=(0, 1, 2, 3))
    text, found = problems(data)
    (problem,) = found
    assert (problem.question_id, problem.field) == ("q-one", "options")
    assert problem.line == line_of(text, "options:", after="id: q-one")
    assert "all 4 options" in problem.message


@pytest.mark.parametrize(
    "picture", ["http://example.org/a.png", "ftp://x", "short", 12, "https://example.org/a b.png"]
)
def test_a_picture_that_is_no_https_url_nor_file_id_is_refused(picture):
    """A picture must be an https URL (no spaces) or a Telegram file_id."""
    data = make_bank()
    data["questions"][0]["picture"] = picture
    _, found = problems(data)
    (problem,) = found
    assert (problem.question_id, problem.field) == ("q-one", "picture")


def test_an_unknown_kind_is_refused():
    """``kind: poll`` is not a kind: refused with the kinds there are."""
    data = make_bank()
    data["questions"][0]["kind"] = "poll"
    _, found = problems(data)
    (problem,) = found
    assert problem.field == "kind" and "choice, true-false" in problem.message


def test_the_fingerprint_counts_the_kind_and_the_picture():
    """A question made true/false, or given a picture, has a new fingerprint; a plain
    question's fingerprint is the one it had before kinds existed."""
    plain = parse_bank(dump(make_bank())).question("q-two")
    assert plain.fingerprint == "5e1191e50bf38ecf"  # as stored by attempts before kinds
    data = make_bank()
    data["questions"][1]["picture"] = "https://example.org/a.png"
    assert parse_bank(dump(data)).question("q-two").fingerprint != plain.fingerprint
    data = make_bank()
    true_false(data, answer=True)
    other = make_bank()
    true_false(other, answer=False)
    assert (
        parse_bank(dump(data)).question("q-two").fingerprint
        != parse_bank(dump(other)).question("q-two").fingerprint
    )


# --- the engine -------------------------------------------------------------------------------


def attempt_on(bank: Bank, seed: int = 3) -> engine.Attempt:
    """An active attempt of USER at position 0 on ``bank``."""
    return engine.Attempt(
        1,
        USER,
        bank.id,
        bank.version,
        engine.plan_attempt(bank, random.Random(seed)),
        0,
        engine.ACTIVE,
        1000.0,
        fingerprints=engine.fingerprints(bank),
    )


def mask(*slots: int) -> int:
    """The chosen-slots mask of ``slots``."""
    return sum(1 << slot for slot in slots)


def test_several_right_is_right_only_for_the_exact_set():
    """The exact set of right slots is right; a subset, a superset or another set is wrong."""
    bank = kinds_bank()
    attempt = attempt_on(bank)
    right = sorted(engine.view(attempt, bank).correct_slots)
    wrong = next(s for s in range(4) if s not in right)
    assert engine.grade_choice(attempt, bank, USER, 0, mask(*right), 2000.0).correct
    for chosen in ([right[0]], [*right, wrong], [wrong]):
        answer = engine.grade_choice(attempt, bank, USER, 0, mask(*chosen), 2000.0)
        assert not answer.correct
    answer = engine.grade_choice(attempt, bank, USER, 0, mask(*right, wrong), 2000.0)
    slots = attempt.plan.option_orders[0]
    assert answer.chosen == tuple(sorted(slots[s] for s in (*right, wrong)))
    assert answer.option_index == answer.chosen[0]


def test_the_view_of_a_several_right_answer_shows_every_chosen_slot():
    """After the answer, the view knows every chosen slot and every right slot."""
    bank = kinds_bank()
    attempt = attempt_on(bank)
    right = engine.view(attempt, bank).correct_slots
    wrong = next(s for s in range(4) if s not in right)
    answer = engine.grade_choice(attempt, bank, USER, 0, mask(wrong, min(right)), 2000.0)
    v = engine.view(engine.with_answer(attempt, answer), bank, 0)
    assert v.chosen_slots == {wrong, min(right)} and not v.is_correct


def test_submit_without_a_choice_and_a_forged_mask_are_refused():
    """Submit with nothing chosen, a slot the question lacks, or several slots on a question
    with one right option: refused, nothing to record."""
    bank = kinds_bank()
    attempt = attempt_on(bank)
    with pytest.raises(engine.NothingChosen):
        engine.grade_choice(attempt, bank, USER, 0, 0, 2000.0)
    with pytest.raises(engine.InvalidOption):
        engine.grade_choice(attempt, bank, USER, 0, mask(4), 2000.0)
    one_right = engine.with_answer(attempt, engine.grade_choice(attempt, bank, USER, 0, 1, 2000.0))
    one_right = engine.with_answer(one_right, engine.grade(one_right, bank, USER, 1, 0, 2001.0))
    with pytest.raises(engine.InvalidOption):
        engine.grade_choice(one_right, bank, USER, 2, mask(0, 1), 2002.0)


def test_a_toggle_from_another_user_or_a_stale_position_is_refused():
    """The checks of a toggle (asking) refuse another user's attempt and another position."""
    bank = kinds_bank()
    attempt = attempt_on(bank)
    with pytest.raises(engine.NotYourAttempt):
        engine.asking(attempt, bank, USER + 1, 0)
    with pytest.raises(engine.StaleQuestion):
        engine.asking(attempt, bank, USER, 1)


@pytest.mark.parametrize("seed", range(10))
def test_true_false_keeps_true_then_false_and_grades_one_tap(seed):
    """A true/false question is never shuffled (True is slot 0) and is graded by one tap."""
    bank = kinds_bank()
    attempt = attempt_on(bank, seed)
    assert attempt.plan.option_orders[1] == (0, 1)
    attempt = engine.with_answer(
        attempt,
        engine.grade_choice(
            attempt, bank, USER, 0, mask(*engine.view(attempt, bank).correct_slots), 2000.0
        ),
    )
    assert engine.grade(attempt, bank, USER, 1, 1, 2001.0).correct  # False is right
    assert not engine.grade(attempt, bank, USER, 1, 0, 2001.0).correct


def test_the_twelfth_option_is_graded():
    """Slot 11 ("L") of a twelve-option question is a slot like any other."""
    bank = kinds_bank()
    attempt = attempt_on(bank)
    for position in range(2):
        v = engine.view(attempt, bank)
        attempt = engine.with_answer(
            attempt,
            engine.grade_choice(
                attempt, bank, USER, position, mask(*v.correct_slots), 2000.0 + position
            ),
        )
    v = engine.view(attempt, bank)
    answer = engine.grade(attempt, bank, USER, 2, v.correct_slot, 2003.0)
    assert answer.correct and engine.result(engine.with_answer(attempt, answer)).score == 3
    with pytest.raises(engine.InvalidOption):
        engine.grade(attempt, bank, USER, 2, 12, 2003.0)


# --- screens ----------------------------------------------------------------------------------


def test_the_terminal_asks_for_letters_where_telegram_asks_for_taps():
    """In the terminal a question with several right options says to type the letters (no
    "tap Submit": there is nothing to tap), and Greek capitals name all twelve labels A-L."""
    from bot import i18n
    from bot.terminal import replies

    bank = kinds_bank()
    attempt = attempt_on(bank)
    for language in i18n.SUPPORTED:
        t = i18n.catalog(language)
        text = private_screens.attempt_question(bank, attempt, t, render_text.PLAIN).text
        assert t("play.select_all") in text and t("select_all") not in text
        assert (
            t("select_all")
            in private_screens.attempt_question(bank, attempt, t, render_text.HTML).text
        )
    labels = "ABCDEFGHIJKL"
    assert [replies.read_label(c, labels) for c in "ΑΒΓΔΕΖΗΘΙΚΛΜ"] == list(labels)
    assert replies.read_labels("α λ", labels) == "AK"


def test_a_several_right_question_shows_ticks_and_submit():
    """ "Select all that apply", a ☐/☑ button per option (the ticks carried by every button),
    then Submit; the screen carries no picture."""
    from bot import i18n

    bank = kinds_bank()
    attempt = attempt_on(bank)
    t = i18n.catalog("en")
    screen = private_screens.ticked_question(bank, attempt, mask(1), t, render_text.HTML)
    assert t("select_all") in screen.text and screen.photo is None
    labels = [b.label for row in screen.keyboard for b in row]
    assert labels == ["☐ A", "☑ B", "☐ C", "☐ D", t("button_submit")]
    ticks = [b.action for row in screen.keyboard[:-1] for b in row]
    assert all(isinstance(a, render_callbacks.TickButton) and a.ticked == 2 for a in ticks)
    assert screen.keyboard[-1][0].action == render_callbacks.SubmitButton(attempt.id, 0, 2)


def test_the_feedback_of_a_wrong_set_marks_every_right_option_and_each_choice():
    """Right options ✅ (with "your answer" when chosen), a wrong choice ❌, the verdict names
    every right option."""
    from bot import i18n

    bank = kinds_bank()
    attempt = attempt_on(bank)
    t = i18n.catalog("en")
    right = sorted(engine.view(attempt, bank).correct_slots)
    wrong = next(s for s in range(4) if s not in right)
    answer = engine.grade_choice(attempt, bank, USER, 0, mask(right[0], wrong), 2000.0)
    text = private_screens.feedback(
        bank, engine.with_answer(attempt, answer), 0, t, render_text.PLAIN
    ).text
    labels = ", ".join(engine.LABELS[s] for s in right)
    assert t("feedback_wrong_several", labels=labels) in text
    lines = text.splitlines()
    assert any(
        line.startswith(f"✅ {engine.LABELS[right[0]]}. ") and t("your_answer") in line
        for line in lines
    )
    assert any(
        line.startswith(f"✅ {engine.LABELS[right[1]]}. ") and t("your_answer") not in line
        for line in lines
    )
    assert any(line.startswith(f"❌ {engine.LABELS[wrong]}. ") for line in lines)


@pytest.mark.parametrize("language", ["en", "hi", "el"])
def test_true_false_buttons_speak_the_players_language(language):
    """True and False come from the catalog, not from the bank."""
    from bot import i18n

    bank = kinds_bank()
    attempt = attempt_on(bank)
    v = engine.view(
        engine.with_answer(
            attempt,
            engine.grade_choice(
                attempt, bank, USER, 0, mask(*engine.view(attempt, bank).correct_slots), 2000.0
            ),
        ),
        bank,
    )
    t = i18n.catalog(language)
    keyboard = render_question.question_keyboard(
        v, t, lambda slot: render_callbacks.AnswerButton(1, 1, slot)
    )
    assert [b.label for row in keyboard for b in row] == [t("option_true"), t("option_false")]


def test_a_question_with_a_picture_carries_it_and_one_without_notes_shows_none():
    """The screen of a question with a picture carries it; a question without explanation and
    source shows only the verdict in its feedback."""
    from bot import i18n

    data = make_bank()
    data["questions"][0]["picture"] = "https://example.org/a.png"
    for key in ("explanation", "source"):
        data["questions"][0].pop(key)
    bank = parse_bank(dump(data))
    attempt = attempt_on(bank)
    t = i18n.catalog("en")
    assert private_screens.attempt_question(bank, attempt, t, render_text.HTML).photo == (
        "https://example.org/a.png"
    )
    v = engine.view(attempt, bank)
    answer = engine.grade(attempt, bank, USER, 0, v.correct_slot, 2000.0)
    text = private_screens.feedback(
        bank, engine.with_answer(attempt, answer), 0, t, render_text.PLAIN
    ).text
    assert text.rstrip().endswith(t("feedback_correct"))
    assert "Source" not in text


@pytest.mark.parametrize(
    ("reply", "read"),
    [("A C", "AC"), ("a,c", "AC"), ("CA", "CA"), ("Α Γ", "AC"), ("A Z", None), ("", None)],
)
def test_the_terminal_reads_several_letters(reply, read):
    """``quizbot play`` takes "A C", "a,c" or "AC" (Latin or Greek letters) for a question
    with several right options; an unknown letter makes the whole reply invalid."""
    from bot.terminal.replies import read_labels

    assert read_labels(reply.upper(), "ABCD") == read
