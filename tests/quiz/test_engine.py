"""Tests for bot.kernel.engine: planning, viewing, grading and scoring an attempt."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.bankload import load_bank
from bot.kernel import engine
from bot.kernel.bank import Bank, Option, Source, Text

REAL_BANK = Path(__file__).resolve().parents[2] / "banks" / "deepspeed-megatron.yaml"
USER = 42


@pytest.fixture(scope="module")
def bank() -> Bank:
    """The bundled DeepSpeed/Megatron bank (8 questions, correct options A, B, C, D, A, ...)."""
    return load_bank(REAL_BANK)


def make_attempt(bank: Bank, plan: engine.Plan | None = None, **changes) -> engine.Attempt:
    """An active attempt of USER at position 0, planned with seed 7 unless ``plan`` is given."""
    attempt = engine.Attempt(
        id=1,
        user_id=USER,
        bank_id=bank.id,
        bank_version=bank.version,
        plan=plan or engine.plan_attempt(bank, random.Random(7)),
        position=0,
        status=engine.ACTIVE,
        started_at=1000.0,
    )
    return replace(attempt, **changes)


def answer_all(bank: Bank, attempt: engine.Attempt, correct: set[int]) -> engine.Attempt:
    """Answer every question in order: correctly at the positions in ``correct``, else wrongly.

    Each answer moves the attempt on, so the result is the finished attempt as stored.
    """
    for position in range(attempt.total):
        v = engine.view(attempt, bank)
        slot = v.correct_slot if position in correct else (v.correct_slot + 1) % 4
        answer = engine.grade(attempt, bank, USER, position, slot, now=2000.0 + position)
        attempt = engine.with_answer(attempt, answer)
    return attempt


# --- plan_attempt ---------------------------------------------------------------------------


def test_plan_is_deterministic_for_a_seed(bank):
    """The same seed gives the same plan."""
    assert engine.plan_attempt(bank, random.Random(123)) == engine.plan_attempt(
        bank, random.Random(123)
    )


def test_plan_asks_questions_in_bank_order(bank):
    """Questions are asked in the bank's order, one option order per question."""
    plan = engine.plan_attempt(bank, random.Random(5))
    assert plan.question_order == tuple(q.id for q in bank.questions)
    assert len(plan.option_orders) == len(bank.questions)


@pytest.mark.parametrize("seed", range(20))
def test_every_option_order_is_a_permutation(bank, seed):
    """Each option order shows every bank option exactly once."""
    plan = engine.plan_attempt(bank, random.Random(seed))
    for order, question in zip(plan.option_orders, bank.questions, strict=True):
        assert sorted(order) == list(range(len(question.options)))


def test_without_shuffle_options_keep_bank_order(bank):
    """shuffle_options=False shows every question's options in the bank's order."""
    plan = engine.plan_attempt(bank, random.Random(5), shuffle_options=False)
    assert plan.option_orders == ((0, 1, 2, 3),) * len(bank.questions)
    assert plan.question_order == tuple(q.id for q in bank.questions)


def test_a_question_that_keeps_its_order_is_never_shuffled(bank):
    """The bank's ``shuffle: false`` questions (the ZeRO stages) keep the bank's order in every
    plan and re-plan; the other questions are still shuffled."""
    kept = [i for i, q in enumerate(bank.questions) if not q.shuffle]
    assert [bank.questions[i].id for i in kept] == [
        "zero-stage-params",
        "zero-stage-optimizer-state",
    ]
    for seed in range(20):
        plan = engine.plan_attempt(bank, random.Random(seed))
        assert [plan.option_orders[i] for i in kept] == [(0, 1, 2, 3)] * 2
        attempt = make_attempt(bank, plan, id=seed)
        assert [engine.replan_options(attempt, bank.questions[i]) for i in kept] == [
            (0, 1, 2, 3)
        ] * 2
    assert {engine.plan_attempt(bank, random.Random(s)).option_orders[0] for s in range(5)} != {
        (0, 1, 2, 3)
    }


def test_shuffle_false_counts_in_the_fingerprint(bank):
    """Keeping the order changes what a player sees, so it changes the fingerprint; the default
    leaves the fingerprint as it was before the key existed."""
    question = next(q for q in bank.questions if q.shuffle)
    assert replace(question, shuffle=False).fingerprint != question.fingerprint
    assert replace(question, shuffle=True).fingerprint == question.fingerprint


def test_different_seeds_give_different_orders(bank):
    """Two seeds give different option orders for the real bank."""
    first = engine.plan_attempt(bank, random.Random(1)).option_orders
    second = engine.plan_attempt(bank, random.Random(2)).option_orders
    assert first != second


def test_shuffle_hides_the_seed_answer_pattern(bank):
    """Over many seeds the correct option of question 1 appears in every slot, not only A."""
    slots = set()
    for seed in range(50):
        plan = engine.plan_attempt(bank, random.Random(seed))
        slots.add(plan.option_orders[0].index(bank.questions[0].correct_index))
    assert slots == {0, 1, 2, 3}


# --- view -----------------------------------------------------------------------------------


def test_view_maps_slots_to_bank_options(bank):
    """The view's slots are the plan's option order, and correct_slot is where the answer is."""
    plan = engine.Plan(
        tuple(q.id for q in bank.questions),
        ((2, 0, 3, 1),) + ((3, 2, 1, 0),) * (len(bank.questions) - 1),
    )
    attempt = make_attempt(bank, plan)
    v = engine.view(attempt, bank)
    assert v.question is bank.questions[0]
    assert v.slots == (2, 0, 3, 1)
    assert v.correct_slot == 1  # bank option 0 (correct) is shown in slot 1, "B"
    assert (v.position, v.total) == (0, 8)
    assert v.chosen_slot is None
    assert not v.answered
    assert not v.is_correct


def test_view_of_every_position_points_at_the_correct_option(bank):
    """For every position, the option shown in correct_slot is the bank's correct option."""
    attempt = make_attempt(bank)
    for position in range(attempt.total):
        v = engine.view(attempt, bank, position)
        assert v.question.id == attempt.plan.question_order[position]
        assert v.question.options[v.slots[v.correct_slot]].correct


def test_view_defaults_to_the_current_position(bank):
    """Without a position, view shows the question at attempt.position."""
    attempt = make_attempt(bank, position=3)
    assert engine.view(attempt, bank).question.id == bank.questions[3].id
    assert engine.view(attempt, bank).position == 3


def test_view_shows_the_chosen_slot(bank):
    """After an answer, chosen_slot (at the answered position) is the slot that shows the
    chosen bank option."""
    plan = engine.Plan(tuple(q.id for q in bank.questions), ((2, 0, 3, 1),) * 8)
    attempt = make_attempt(bank, plan)
    answer = engine.grade(attempt, bank, USER, 0, 3, now=5.0)  # slot D shows bank option 1
    v = engine.view(engine.with_answer(attempt, answer), bank, 0)
    assert v.question.id == bank.questions[0].id
    assert v.chosen_slot == 3
    assert v.answered
    assert not v.is_correct


def test_view_after_an_answer_defaults_to_the_next_question(bank):
    """Answering moves the attempt on: the default view is the next, unanswered question."""
    attempt = make_attempt(bank)
    answer = engine.grade(attempt, bank, USER, 0, 0, now=5.0)
    v = engine.view(engine.with_answer(attempt, answer), bank)
    assert (v.position, v.question.id) == (1, bank.questions[1].id)
    assert v.chosen_slot is None
    assert not v.answered


def test_view_shows_every_answered_question(bank):
    """Every answered question keeps its chosen slot at its own position, right or wrong, also
    once the attempt is finished; is_correct follows the answer."""
    correct = {0, 2, 3, 6}
    attempt = answer_all(bank, make_attempt(bank), correct)
    assert attempt.status == engine.FINISHED
    for position in range(attempt.total):
        v = engine.view(attempt, bank, position)
        assert v.answered
        answer = attempt.answers[v.question.id]
        assert v.slots[v.chosen_slot] == answer.option_index
        assert v.is_correct == (position in correct) == answer.correct
        expected = v.correct_slot if position in correct else (v.correct_slot + 1) % 4
        assert v.chosen_slot == expected


@pytest.mark.parametrize("position", [-1, 8, 100])
def test_view_outside_the_attempt(bank, position):
    """A position outside the attempt raises IndexError."""
    with pytest.raises(IndexError):
        engine.view(make_attempt(bank), bank, position)


def test_view_refuses_another_bank_version(bank):
    """Viewing an attempt on a bank whose version changed raises BankChanged."""
    with pytest.raises(engine.BankChanged):
        engine.view(make_attempt(bank), replace(bank, version=bank.version + 1))


# --- grade ----------------------------------------------------------------------------------


def test_grade_correct_answer_through_the_shuffled_slot(bank):
    """Choosing the slot that shows the correct option gives a correct answer for that option."""
    attempt = make_attempt(bank, position=1)
    v = engine.view(attempt, bank)
    answer = engine.grade(attempt, bank, USER, 1, v.correct_slot, now=1234.5)
    assert answer == engine.Answer(
        bank.questions[1].id, bank.questions[1].correct_index, True, 1234.5
    )


def test_grade_wrong_answer_records_the_bank_option(bank):
    """A wrong slot records the bank index of the option shown there, not the slot."""
    plan = engine.Plan(tuple(q.id for q in bank.questions), ((3, 1, 0, 2),) * 8)
    attempt = make_attempt(bank, plan)
    answer = engine.grade(attempt, bank, USER, 0, 0, now=9.0)  # "A" shows bank option 3
    assert answer == engine.Answer(bank.questions[0].id, 3, False, 9.0)
    # and "C" shows bank option 0, the correct one
    assert engine.grade(attempt, bank, USER, 0, 2, now=9.0).correct


def test_grade_every_slot(bank):
    """Exactly one of the four slots grades as correct, for every question."""
    attempt = make_attempt(bank)
    for position in range(attempt.total):
        at = replace(attempt, position=position)
        verdicts = [
            engine.grade(at, bank, USER, position, slot, now=0.0).correct for slot in range(4)
        ]
        assert verdicts.count(True) == 1
        assert verdicts.index(True) == engine.view(at, bank).correct_slot


def test_grade_refuses_another_user(bank):
    """A button pressed by someone else (a forwarded message) raises NotYourAttempt."""
    with pytest.raises(engine.NotYourAttempt):
        engine.grade(make_attempt(bank), bank, USER + 1, 0, 0, now=0.0)


@pytest.mark.parametrize("change", ["version", "id", "missing"])
def test_grade_refuses_a_changed_bank(bank, change):
    """A version bump, another bank or no bank at all raises BankChanged."""
    other: Bank | None = {
        "version": replace(bank, version=bank.version + 1),
        "id": replace(bank, id="other-bank"),
        "missing": None,
    }[change]
    with pytest.raises(engine.BankChanged):
        engine.grade(make_attempt(bank), other, USER, 0, 0, now=0.0)


@pytest.mark.parametrize("status", [engine.FINISHED, engine.ABANDONED])
def test_grade_refuses_a_closed_attempt(bank, status):
    """A finished or abandoned attempt raises AttemptClosed."""
    attempt = make_attempt(bank, status=status, ended_at=2000.0)
    with pytest.raises(engine.AttemptClosed):
        engine.grade(attempt, bank, USER, 0, 0, now=0.0)


@pytest.mark.parametrize("position", [0, 2, 7])
def test_grade_refuses_a_stale_question(bank, position):
    """A button for a question other than the one shown raises StaleQuestion."""
    attempt = make_attempt(bank, position=1)
    with pytest.raises(engine.StaleQuestion):
        engine.grade(attempt, bank, USER, position, 0, now=0.0)


def test_grade_refuses_a_second_tap_after_the_answer(bank):
    """A double tap on an answered question raises AlreadyAnswered, although the answer moved
    the attempt on (the tapped question is no longer the one asked)."""
    attempt = make_attempt(bank)
    first = engine.grade(attempt, bank, USER, 0, 0, now=1.0)
    moved_on = engine.with_answer(attempt, first)
    assert moved_on.position == 1
    with pytest.raises(engine.AlreadyAnswered):
        engine.grade(moved_on, bank, USER, 0, 1, now=2.0)


@pytest.mark.parametrize("position", [0, 1, 2])
def test_grade_refuses_an_earlier_answered_question(bank, position):
    """A tap on any earlier, answered question of an attempt further on raises
    AlreadyAnswered (not StaleQuestion)."""
    attempt = make_attempt(bank)
    for at in range(3):
        attempt = engine.with_answer(attempt, engine.grade(attempt, bank, USER, at, 0, now=1.0))
    with pytest.raises(engine.AlreadyAnswered):
        engine.grade(attempt, bank, USER, position, 2, now=2.0)


@pytest.mark.parametrize("position", [4, 7])
def test_grade_refuses_a_question_not_reached_yet(bank, position):
    """After answers moved the attempt to position 3, a tap on a later, unanswered question
    raises StaleQuestion."""
    attempt = make_attempt(bank)
    for at in range(3):
        attempt = engine.with_answer(attempt, engine.grade(attempt, bank, USER, at, 0, now=1.0))
    with pytest.raises(engine.StaleQuestion):
        engine.grade(attempt, bank, USER, position, 0, now=2.0)


def test_grade_refuses_a_question_already_in_the_answers(bank):
    """An attempt whose answers already hold the question at its position (not moved on, e.g.
    built by hand) raises AlreadyAnswered for any slot."""
    attempt = make_attempt(bank, position=2)
    recorded = engine.Answer(bank.questions[2].id, 0, True, 1.0)
    attempt = replace(attempt, answers={recorded.question_id: recorded})
    for slot in range(4):
        with pytest.raises(engine.AlreadyAnswered):
            engine.grade(attempt, bank, USER, 2, slot, now=2.0)


def test_grade_after_the_last_answer_finished_the_attempt(bank):
    """Once the last answer has finished the attempt, a tap on an answered question (e.g. a
    double tap on the last one) raises AlreadyAnswered, any other position AttemptClosed."""
    attempt = answer_all(bank, make_attempt(bank), correct=set())
    assert attempt.status == engine.FINISHED
    for position in (0, 6, 7):
        with pytest.raises(engine.AlreadyAnswered):
            engine.grade(attempt, bank, USER, position, 0, now=9.0)
    with pytest.raises(engine.AttemptClosed):
        engine.grade(attempt, bank, USER, 8, 0, now=9.0)


def test_grade_refusals_in_order(bank):
    """Another user is refused before a changed bank, a changed bank before an answered
    question, an answered question before a closed attempt, a closed attempt before a stale
    position, and a stale position before an invalid slot."""
    attempt = make_attempt(bank)
    attempt = engine.with_answer(attempt, engine.grade(attempt, bank, USER, 0, 0, now=1.0))
    abandoned = replace(attempt, status=engine.ABANDONED, ended_at=5.0)
    changed = replace(bank, version=bank.version + 1)
    with pytest.raises(engine.NotYourAttempt):
        engine.grade(abandoned, changed, USER + 1, 0, 0, now=2.0)
    with pytest.raises(engine.BankChanged):
        engine.grade(abandoned, changed, USER, 0, 0, now=2.0)
    with pytest.raises(engine.AlreadyAnswered):
        engine.grade(abandoned, bank, USER, 0, 0, now=2.0)
    with pytest.raises(engine.AttemptClosed):
        engine.grade(abandoned, bank, USER, 3, 9, now=2.0)
    with pytest.raises(engine.StaleQuestion):
        engine.grade(attempt, bank, USER, 3, 9, now=2.0)
    with pytest.raises(engine.InvalidOption):
        engine.grade(attempt, bank, USER, 1, 9, now=2.0)


@pytest.mark.parametrize("slot", [-1, 4, 7])
def test_grade_refuses_a_slot_that_does_not_exist(bank, slot):
    """A slot outside A-D raises InvalidOption."""
    with pytest.raises(engine.InvalidOption):
        engine.grade(make_attempt(bank), bank, USER, 0, slot, now=0.0)


def test_refusals_are_quiz_errors():
    """Every refusal is a QuizError, so handlers can catch them together."""
    for error in (
        engine.AttemptClosed,
        engine.BankChanged,
        engine.NotYourAttempt,
        engine.StaleQuestion,
        engine.AlreadyAnswered,
        engine.NotAnswered,
        engine.InvalidOption,
    ):
        assert issubclass(error, engine.QuizError)


# --- check_next -----------------------------------------------------------------------------


def answered_up_to(bank: Bank, position: int) -> engine.Attempt:
    """An attempt of USER with the questions before ``position`` answered (so at ``position``)."""
    attempt = make_attempt(bank)
    for at in range(position):
        attempt = engine.with_answer(attempt, engine.grade(attempt, bank, USER, at, 0, now=1.0))
    assert attempt.position == position
    return attempt


@pytest.mark.parametrize("position", [0, 2, 7])
def test_check_next_while_the_question_is_asked(bank, position):
    """Next for the question still being asked (not answered yet) raises NotAnswered."""
    attempt = answered_up_to(bank, position)
    with pytest.raises(engine.NotAnswered):
        engine.check_next(attempt, bank, USER, position)


@pytest.mark.parametrize("position", [0, 2, 6])
def test_check_next_returns_the_next_position(bank, position):
    """After the answer at ``position``, next from its feedback returns position + 1 (the
    question now asked), and changes nothing."""
    attempt = answered_up_to(bank, position + 1)
    before = attempt
    assert engine.check_next(attempt, bank, USER, position) == position + 1 == attempt.position
    assert attempt == before
    assert attempt.status == engine.ACTIVE


def test_check_next_from_the_last_question_returns_total(bank):
    """Next from the last question's feedback of a finished attempt returns the number of
    questions: the score is due."""
    attempt = answered_up_to(bank, 8)
    assert attempt.status == engine.FINISHED
    assert engine.check_next(attempt, bank, USER, 7) == attempt.total == 8


@pytest.mark.parametrize(
    ("at", "position"),
    [
        (3, 0),
        (3, 1),  # older feedback: the attempt is further on
        (3, 4),
        (3, 7),
        (0, 5),  # questions not reached yet
        (8, 0),
        (8, 6),
        (8, 8),  # finished: only the last question's feedback leads on
    ],
)
def test_check_next_refuses_any_other_position(bank, at, position):
    """Next from feedback other than that of the last answered question raises StaleQuestion
    (also on a finished attempt)."""
    attempt = answered_up_to(bank, at)
    with pytest.raises(engine.StaleQuestion):
        engine.check_next(attempt, bank, USER, position)


def test_check_next_refuses_another_user(bank):
    """Next tapped by someone else (a forwarded message) raises NotYourAttempt."""
    attempt = answered_up_to(bank, 3)
    with pytest.raises(engine.NotYourAttempt):
        engine.check_next(attempt, bank, USER + 1, 2)


@pytest.mark.parametrize("change", ["version", "id", "missing"])
def test_check_next_refuses_a_changed_bank(bank, change):
    """A version bump, another bank or no bank at all raises BankChanged."""
    other: Bank | None = {
        "version": replace(bank, version=bank.version + 1),
        "id": replace(bank, id="other-bank"),
        "missing": None,
    }[change]
    with pytest.raises(engine.BankChanged):
        engine.check_next(answered_up_to(bank, 3), other, USER, 2)


@pytest.mark.parametrize(("at", "position"), [(3, 2), (3, 3), (3, 0), (8, 7)])
def test_check_next_refuses_an_abandoned_attempt(bank, at, position):
    """An abandoned attempt raises AttemptClosed, whatever the position (even the one that
    would lead on, or the one that would be NotAnswered)."""
    attempt = replace(answered_up_to(bank, at), status=engine.ABANDONED, ended_at=5.0)
    with pytest.raises(engine.AttemptClosed):
        engine.check_next(attempt, bank, USER, position)


def test_check_next_refusals_in_order(bank):
    """Another user is refused before a changed bank, a changed bank before a closed attempt."""
    attempt = replace(answered_up_to(bank, 3), status=engine.ABANDONED, ended_at=5.0)
    changed = replace(bank, version=bank.version + 1)
    with pytest.raises(engine.NotYourAttempt):
        engine.check_next(attempt, changed, USER + 1, 2)
    with pytest.raises(engine.BankChanged):
        engine.check_next(attempt, changed, USER, 2)


def test_a_whole_attempt_moves_through_every_question(bank):
    """Each answer moves the attempt on (the questions are answered in the plan's order), and
    next from each feedback leads to the question now asked; the last answer finishes the
    attempt."""
    attempt = make_attempt(bank)
    seen = []
    while attempt.position < attempt.total:
        assert attempt.status == engine.ACTIVE and attempt.ended_at is None
        position = attempt.position
        answer = engine.grade(attempt, bank, USER, position, 0, now=10.0 + position)
        seen.append(answer.question_id)
        attempt = engine.with_answer(attempt, answer)
        assert attempt.position == position + 1
        assert engine.check_next(attempt, bank, USER, position) == attempt.position
    assert seen == list(attempt.plan.question_order)
    assert attempt.position == attempt.total
    assert attempt.status == engine.FINISHED
    assert attempt.ended_at == 17.0
    assert len(attempt.answers) == attempt.total


# --- with_answer and result ----------------------------------------------------------------


def test_with_answer_returns_a_new_attempt(bank):
    """with_answer adds the answer to a moved-on copy and leaves the original attempt
    unchanged."""
    attempt = make_attempt(bank)
    answer = engine.grade(attempt, bank, USER, 0, 0, now=1.0)
    updated = engine.with_answer(attempt, answer)
    assert updated.answers == {answer.question_id: answer}
    assert (updated.position, updated.status, updated.ended_at) == (1, engine.ACTIVE, None)
    assert updated.plan.question_order[updated.position] == bank.questions[1].id
    assert attempt.answers == {}
    assert (attempt.position, attempt.status, attempt.ended_at) == (0, engine.ACTIVE, None)
    second = engine.Answer(bank.questions[1].id, 0, False, 2.0)
    both = engine.with_answer(updated, second)
    assert both.answers == {answer.question_id: answer, second.question_id: second}
    assert both.position == 2
    assert updated.position == 1 and len(updated.answers) == 1


@pytest.mark.parametrize("position", range(8))
def test_with_answer_finishes_the_attempt_after_the_last_question(bank, position):
    """The answer at ``position`` moves the attempt to position + 1; only the last answer
    finishes it, with ended_at the answer's time; earlier ones leave it active."""
    attempt = make_attempt(bank, position=position)
    answer = engine.grade(attempt, bank, USER, position, 1, now=4321.5)
    updated = engine.with_answer(attempt, answer)
    assert updated.position == position + 1
    assert updated.answers == {answer.question_id: answer}
    assert (updated.id, updated.user_id, updated.plan, updated.started_at) == (
        attempt.id,
        attempt.user_id,
        attempt.plan,
        attempt.started_at,
    )
    if position == 7:
        assert updated.status == engine.FINISHED
        assert updated.ended_at == 4321.5
        assert updated.position == updated.total
    else:
        assert updated.status == engine.ACTIVE
        assert updated.ended_at is None
        assert updated.plan.question_order[updated.position] == bank.questions[position + 1].id


def test_result_counts_correct_answers(bank):
    """Six right and two wrong scores 6 of 8, the two wrong ones missed."""
    attempt = answer_all(bank, make_attempt(bank), correct={0, 1, 2, 4, 5, 7})
    res = engine.result(attempt)
    assert (res.score, res.total) == (6, 8)
    assert res.missed == (bank.questions[3].id, bank.questions[6].id)


def test_result_perfect_score(bank):
    """All right: full score, nothing missed."""
    attempt = answer_all(bank, make_attempt(bank), correct=set(range(8)))
    assert engine.result(attempt) == engine.Result(8, 8, ())


def test_result_unanswered_counts_as_missed(bank):
    """Questions without an answer are missed, like wrong ones."""
    attempt = make_attempt(bank)
    attempt = engine.with_answer(
        attempt,
        engine.grade(attempt, bank, USER, 0, engine.view(attempt, bank).correct_slot, now=1.0),
    )
    res = engine.result(attempt)
    assert (res.score, res.total) == (1, 8)
    assert res.missed == tuple(q.id for q in bank.questions[1:])


def test_result_lists_missed_questions_in_attempt_order(bank):
    """Missed ids follow the attempt's question order, not the bank's or the answers'."""
    order = tuple(reversed([q.id for q in bank.questions]))
    attempt = make_attempt(bank, engine.Plan(order, ((0, 1, 2, 3),) * 8))
    right = [bank.questions[i] for i in (1, 6, 3)]  # answered correctly, in neither order
    for question in right:
        attempt = engine.with_answer(
            attempt, engine.Answer(question.id, question.correct_index, True, 1.0)
        )
    wrong = bank.questions[0]
    attempt = engine.with_answer(attempt, engine.Answer(wrong.id, 3, False, 1.0))
    res = engine.result(attempt)
    assert res.score == 3
    assert res.missed == tuple(q for q in order if q not in {x.id for x in right})
    assert res.missed[0] == bank.questions[7].id and res.missed[-1] == wrong.id


def test_result_of_nothing_answered(bank):
    """An attempt with no answers scores 0 and misses every question."""
    res = engine.result(make_attempt(bank))
    assert res == engine.Result(0, 8, tuple(q.id for q in bank.questions))


# --- a bank edited without a version bump: fingerprints and revise ---------------------------


def edit_question(bank: Bank, index: int, **changes) -> Bank:
    """``bank`` with question ``index`` changed (same id, same bank version)."""
    questions = list(bank.questions)
    questions[index] = replace(questions[index], **changes)
    return replace(bank, questions=tuple(questions))


def with_new_correct_option(bank: Bank, index: int) -> Bank:
    """Question ``index``'s first option gets a new text and becomes the correct one."""
    question = bank.questions[index]
    new = Option(Text({lang: f"New option ({lang})" for lang in bank.languages}), True)
    options = (new, *(replace(o, correct=False) for o in question.options[1:]))
    return edit_question(bank, index, options=options)


def without_question(bank: Bank, *indexes: int) -> Bank:
    """``bank`` without the questions at ``indexes``."""
    return replace(
        bank, questions=tuple(q for i, q in enumerate(bank.questions) if i not in indexes)
    )


def fresh_attempt(bank: Bank, **changes) -> engine.Attempt:
    """An attempt as the service starts it: with the bank's fingerprints."""
    return make_attempt(bank, fingerprints=engine.fingerprints(bank), **changes)


def answered(
    bank: Bank, attempt: engine.Attempt, count: int, *, correct: bool = True
) -> engine.Attempt:
    """``attempt`` with its next ``count`` questions answered (correctly unless told)."""
    for _ in range(count):
        v = engine.view(attempt, bank)
        slot = v.correct_slot if correct else (v.correct_slot + 1) % len(v.slots)
        attempt = engine.with_answer(
            attempt, engine.grade(attempt, bank, USER, attempt.position, slot, now=50.0)
        )
    return attempt


def test_fingerprint_counts_prompt_options_correctness_and_explanation(bank):
    """Any change to what is asked or how it is graded changes the fingerprint; a reload, or a
    change of the source only, does not."""
    question = bank.questions[0]
    assert question.fingerprint == load_bank(REAL_BANK).questions[0].fingerprint
    assert re.fullmatch(r"[0-9a-f]{16}", question.fingerprint)  # 16 lowercase hex digits
    assert len({q.fingerprint for q in bank.questions}) == len(bank.questions)
    greek = {**question.prompt.by_language, "el": "Άλλη ερώτηση;"}
    edits = [
        replace(question, prompt=Text(greek)),
        with_new_correct_option(bank, 0).questions[0],
        replace(question, options=(*question.options[1:], question.options[0])),
        replace(question, explanation=Text({**question.explanation.by_language, "hi": "नया"})),
        replace(question, options=question.options[:3]),
    ]
    assert len({q.fingerprint for q in [question, *edits]}) == len(edits) + 1
    assert replace(question, source=Source("Other", "https://example.org")).fingerprint == (
        question.fingerprint
    )


def test_an_unchanged_bank_needs_no_revision(bank):
    """Same content: nothing to revise, at any position; old attempts (no fingerprints) too."""
    attempt = fresh_attempt(bank)
    for position in range(attempt.total):
        assert engine.revise(replace(attempt, position=position), bank, now=1.0) is None
    assert engine.revise(make_attempt(bank), bank, now=1.0) is None


def test_an_edited_question_is_refused_until_revised_then_graded_as_it_is_now(bank):
    """The edited question at the position cannot be shown or graded with its old plan; the
    revision re-plans its options for the new content and takes its new fingerprint, and the
    answer is graded against the new content."""
    attempt = answered(bank, fresh_attempt(bank), 1)
    edited = with_new_correct_option(bank, 1)
    with pytest.raises(engine.QuestionChanged):
        engine.view(attempt, edited)
    with pytest.raises(engine.QuestionChanged):
        engine.grade(attempt, edited, USER, 1, 0, now=60.0)

    revision = engine.revise(attempt, edited, now=60.0)
    assert revision is not None
    assert (revision.updated, revision.removed) == (bank.questions[1].id, ())
    revised = revision.attempt
    assert revised.fingerprints[bank.questions[1].id] == edited.questions[1].fingerprint
    assert revised.plan.question_order == attempt.plan.question_order
    assert sorted(revised.plan.option_orders[1]) == [0, 1, 2, 3]
    assert revised.plan.option_orders[:1] == attempt.plan.option_orders[:1]
    assert revised.plan.option_orders[2:] == attempt.plan.option_orders[2:]
    assert engine.revise(revised, edited, now=61.0) is None  # done once
    assert engine.revise(attempt, edited, now=99.0) == revision  # the same in every process

    v = engine.view(revised, edited)
    assert v.question.options[v.slots[v.correct_slot]].text.get("en", "en") == "New option (en)"
    verdicts = [engine.grade(revised, edited, USER, 1, slot, now=62.0).correct for slot in range(4)]
    assert verdicts == [slot == v.correct_slot for slot in range(4)]
    assert engine.grade(revised, edited, USER, 1, v.correct_slot, now=62.0).option_index == 0


def test_a_later_edited_question_is_revised_when_reached(bank):
    """An edit further on changes nothing now; it is revised (with the notice) when reached."""
    edited = with_new_correct_option(bank, 4)
    attempt = fresh_attempt(bank)
    assert engine.revise(attempt, edited, now=1.0) is None
    attempt = answered(edited, attempt, 4)
    revision = engine.revise(attempt, edited, now=2.0)
    assert revision is not None and revision.updated == bank.questions[4].id


def test_removed_questions_are_skipped_and_answers_kept(bank):
    """Questions gone from the bank are dropped from the unanswered rest; an answered one that
    is gone still counts with its recorded correctness."""
    attempt = answered(bank, fresh_attempt(bank), 2, correct=False)
    smaller = without_question(bank, 1, 2, 5)  # 1 was answered, 2 is the current one
    revision = engine.revise(attempt, smaller, now=70.0)
    assert revision is not None
    assert revision.removed == (bank.questions[2].id, bank.questions[5].id)
    assert revision.updated is None
    revised = revision.attempt
    assert revised.total == 6 and revised.position == 2 and revised.status == engine.ACTIVE
    assert revised.plan.question_order[revised.position] == bank.questions[3].id
    assert revised.plan.option_orders[2] == attempt.plan.option_orders[3]
    with pytest.raises(engine.QuestionChanged):  # no text left to show for it
        engine.view(revised, smaller, 1)
    done = answered(smaller, revised, 4)
    assert done.status == engine.FINISHED
    assert engine.result(done) == engine.Result(4, 6, tuple(q.id for q in bank.questions[:2]))


def test_removing_every_unanswered_question_finishes_the_attempt(bank):
    """Nothing left to ask: the revision finishes the attempt at ``now``."""
    attempt = answered(bank, fresh_attempt(bank), 6)
    revision = engine.revise(attempt, without_question(bank, 6, 7), now=80.0)
    assert revision is not None
    assert (revision.attempt.status, revision.attempt.ended_at) == (engine.FINISHED, 80.0)
    assert engine.result(revision.attempt) == engine.Result(6, 6, ())


def test_old_attempts_without_fingerprints_keep_their_plan_unless_it_cannot_fit(bank):
    """An attempt stored before fingerprints: a text edit goes unnoticed (as before), but a
    changed option count or a removed question is revised, not a crash."""
    attempt = make_attempt(bank)
    edited = with_new_correct_option(bank, 0)
    assert engine.revise(attempt, edited, now=1.0) is None
    three = edit_question(bank, 0, options=bank.questions[0].options[:3])
    with pytest.raises(engine.QuestionChanged):
        engine.grade(attempt, three, USER, 0, 3, now=1.0)
    revision = engine.revise(attempt, three, now=1.0)
    assert revision is not None and revision.updated == bank.questions[0].id
    assert sorted(revision.attempt.plan.option_orders[0]) == [0, 1, 2]
    assert revision.attempt.fingerprints == {bank.questions[0].id: three.questions[0].fingerprint}
    with pytest.raises(engine.InvalidOption):
        engine.grade(revision.attempt, three, USER, 0, 3, now=1.0)
    revision = engine.revise(attempt, without_question(bank, 0), now=1.0)
    assert revision is not None
    assert revision.attempt.plan.question_order[revision.attempt.position] == bank.questions[1].id


@pytest.mark.parametrize("correct", [True, False])
def test_an_answer_recorded_before_an_edit_keeps_its_correctness(bank, correct):
    """The feedback and review of an answered question edited afterwards show it as it is now,
    with the verdict as recorded (even where the recorded option is now the correct one)."""
    attempt = answered(bank, fresh_attempt(bank), 1, correct=correct)
    chosen = attempt.answers[bank.questions[0].id].option_index
    # the edit makes the recorded option the correct one, and drops an option
    question = bank.questions[0]
    options = tuple(replace(o, correct=i == chosen) for i, o in enumerate(question.options))
    keep = [i for i in range(4) if i in (chosen, question.correct_index)]
    keep += [i for i in range(4) if i not in keep][: 3 - len(keep)]
    edited = edit_question(bank, 0, options=tuple(options[i] for i in sorted(keep)))
    v = engine.view(attempt, edited, 0)
    assert v.answered and v.is_correct is correct
    assert v.chosen_slot == (v.correct_slot if correct else None)
    assert sorted(v.slots) == [0, 1, 2]
    assert engine.revise(attempt, edited, now=9.0) is None  # answered: never re-planned
    assert engine.result(answered(edited, attempt, 7)).score == 7 + correct


def test_revise_checks_the_bank_version(bank):
    """Another version is still a changed bank, as before: refused."""
    with pytest.raises(engine.BankChanged):
        engine.revise(fresh_attempt(bank), replace(bank, version=bank.version + 1), now=1.0)
    with pytest.raises(engine.BankChanged):
        engine.revise(fresh_attempt(bank), None, now=1.0)
