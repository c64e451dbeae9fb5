"""Spaced review: every answered question is a review card of its user, scheduled with FSRS.

Pure and Telegram-free: the rules of cards, review taps and reminders, over the
:class:`~bot.features.learning.ports.CardStore` port. Scheduling is the ``fsrs`` package (the Free
Spaced Repetition Scheduler, which Anki uses), with these choices:

- **Ratings.** A wrong answer rates *Again*, a right one *Good*. A fast right answer is *not*
  rated *Easy*: in a multiple-choice question a quick tap is as often recognition or a lucky
  guess as recall, and the time a Telegram user takes includes reading the question and the
  network, so speed says little; *Easy* would push the card out by weeks on weak evidence.
- **Learning and relearning steps of 10 minutes** (:data:`LEARNING_STEPS`,
  :data:`RELEARNING_STEPS`: the ``fsrs`` package's own steps, in minutes as Anki's): a missed
  question is due again 10 minutes later instead of the next day, and a review session
  serves cards due within :data:`LEARN_AHEAD` (Anki's "learn ahead limit") as due, so
  ``/review`` right after a quiz serves the questions just missed, and a question missed in
  review comes back in the same sitting until it is answered right. One learning step, not
  Anki's two (1 and 10 minutes): a question answered right in a quiz leaves the steps at
  once (*Good* on the last step), so only the missed ones come back that day.
- **No fuzzing**, so that due dates are reproducible (tests, and a user comparing devices);
  reminders are spread over time by :func:`reminder_time` instead.

Answers in review update the card only: they never change quiz attempts or scores.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import fsrs

from bot.kernel.bank import Bank, Question
from bot.kernel.engine import QuizError

DAY = 86_400.0
"""Seconds in a day."""

LEARNING_STEPS = (timedelta(minutes=10),)
"""FSRS learning steps of a new card (its first answer): *Again* keeps it 10 minutes away,
*Good* takes it out of learning (due in days, as FSRS computes)."""

RELEARNING_STEPS = (timedelta(minutes=10),)
"""FSRS relearning steps of a card that lapsed (*Again* on a card in review): 10 minutes, as
Anki's default."""

LEARN_AHEAD = 20 * 60.0
"""Seconds ahead a card counts as due for review (Anki's "learn ahead limit", 20 minutes by
default): a card in a 10-minute step is served at once rather than after a wait."""

SCHEDULER = fsrs.Scheduler(
    learning_steps=LEARNING_STEPS, relearning_steps=RELEARNING_STEPS, enable_fuzzing=False
)
"""The FSRS scheduler with its default parameters (desired retention 0.9). Cards stored before
the steps existed (in review, ``step`` None) are scheduled by it as they are: nothing to
migrate."""

REMINDER_LATE = 3 * 3600.0
"""A reminder whose time passed more than this many seconds ago (the bot was down) is skipped
to the next day: it would no longer come at the hour the user studies."""


class CardReviewed(QuizError):
    """The card was reviewed (or answered in a quiz) since its question was shown."""


class CardGone(QuizError):
    """The card's bank or question is no longer installed."""


class NoSuchCard(QuizError):
    """No card has this id, or it belongs to someone else (a forged or forwarded button)."""


@dataclass(frozen=True)
class Card:
    """One user's review card for one question, as stored.

    Attributes:
        id: Storage id (0 before it is stored).
        user_id: Its user.
        bank_id: The question's bank.
        question_id: The question's id in the bank.
        state: FSRS state (1 learning, 2 review, 3 relearning).
        step: FSRS learning step, or None.
        stability: FSRS stability in days, or None for a card never rated (made from history
            older than the cards).
        difficulty: FSRS difficulty (1-10), or None likewise.
        due: When it is due, in seconds since the epoch.
        last_review: When it was last rated, in seconds since the epoch, or None.
        reps: How many times it was rated (answered in a quiz or reviewed): a tap on its
            question shown at another count is stale.
        lapses: How many of those ratings were wrong.
    """

    id: int
    user_id: int
    bank_id: str
    question_id: str
    state: int = 1
    step: int | None = 0
    stability: float | None = None
    difficulty: float | None = None
    due: float = 0.0
    last_review: float | None = None
    reps: int = 0
    lapses: int = 0


def _dt(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def _fsrs_card(card: Card) -> fsrs.Card:
    return fsrs.Card(
        card_id=card.id or 1,
        state=fsrs.State(card.state),
        step=card.step,
        stability=card.stability,
        difficulty=card.difficulty,
        due=_dt(card.due),
        last_review=None if card.last_review is None else _dt(card.last_review),
    )


def rate(card: Card, correct: bool, at: float) -> Card:
    """The card after an answer at ``at`` (seconds since the epoch): *Again* if wrong, *Good*
    if right (see the module's notes), due when FSRS says."""
    rating = fsrs.Rating.Good if correct else fsrs.Rating.Again
    # a rating dated before the card's last one (clocks of two processes) counts as at it
    at = max(at, card.last_review or at)
    new, _ = SCHEDULER.review_card(_fsrs_card(card), rating, _dt(at))
    return replace(
        card,
        state=int(new.state),
        step=new.step,
        stability=new.stability,
        difficulty=new.difficulty,
        due=new.due.timestamp(),
        last_review=at,
        reps=card.reps + 1,
        lapses=card.lapses + (0 if correct else 1),
    )


def due_in_days(card: Card, now: float) -> float:
    """Days from ``now`` until ``card`` is due for review, 0 when it is due (within
    :data:`LEARN_AHEAD`: a question just missed, or never rated). With FSRS's desired retention
    of 0.9 it is the time left until the user's chance of recalling it falls to 90%: what /stats
    and the chart show for "how well you know each question"."""
    left = card.due - now
    return 0.0 if left <= LEARN_AHEAD else left / DAY


def retrievability(card: Card, now: float) -> float:
    """FSRS retrievability: the probability (0-1) that the user recalls the card at ``now``;
    0 for a card never rated."""
    if card.stability is None or card.last_review is None:
        return 0.0
    return float(SCHEDULER.get_card_retrievability(_fsrs_card(card), _dt(now)))


@dataclass(frozen=True)
class ReviewItem:
    """A due card with what showing it needs.

    Attributes:
        card: The card.
        bank: Its bank as installed.
        question: Its question as the bank has it now.
        slots: Bank option index per displayed slot (slot 0 is "A"): shuffled afresh for each
            review (:func:`review_slots`).
        due_count: How many cards of the user are due, this one included.
    """

    card: Card
    bank: Bank
    question: Question
    slots: tuple[int, ...]
    due_count: int = 1

    @property
    def correct_slot(self) -> int:
        """The slot of the correct option."""
        return self.slots.index(self.question.correct_index)


def review_slots(card: Card, question: Question) -> tuple[int, ...]:
    """The option order for showing ``card`` now: shuffled by a generator seeded with the card
    id and its rating count, so it is new for every review yet the same for every process
    grading a tap on it (nothing to store)."""
    order = list(range(len(question.options)))
    if question.shuffled:  # True, then False, as in a quiz; or the order the bank keeps
        random.Random(f"review/{card.id}/{card.reps}/{question.fingerprint}").shuffle(order)
    return tuple(order)


def item(card: Card, banks: Mapping[str, Bank], due_count: int = 1) -> ReviewItem:
    """The card ready to show.

    Raises:
        CardGone: its bank or question is no longer installed.
    """
    bank = banks.get(card.bank_id)
    if bank is None:
        raise CardGone(card.id)
    try:
        question = bank.question(card.question_id)
    except KeyError:
        raise CardGone(card.id) from None
    return ReviewItem(card, bank, question, review_slots(card, question), due_count)


def grade(
    card: Card,
    banks: Mapping[str, Bank],
    user_id: int,
    reps: int,
    slot: int,
    *,
    ticked: int | None = None,
) -> tuple[ReviewItem, bool]:
    """Check and grade a review tap on ``card`` shown at rating count ``reps``: the option at
    ``slot``, or with ``ticked`` (a Submit on a question with several right options) the
    slots ticked (bit ``s`` for slot ``s``), right only when they are exactly the right
    options (as :func:`bot.kernel.engine.grade_choice`).

    Returns:
        The item as it was shown, and whether the answer is correct.

    Raises:
        NoSuchCard: someone else's card.
        CardReviewed: rated since it was shown.
        CardGone: bank or question removed.
        InvalidOption: no such slot.
        NothingChosen: ``ticked`` is 0.
    """
    from bot.kernel.engine import InvalidOption, NothingChosen, chosen_slots

    shown = check(card, banks, user_id, reps)
    if ticked is None:
        if not 0 <= slot < len(shown.slots):
            raise InvalidOption(slot)
        return shown, frozenset((shown.slots[slot],)) == shown.question.correct_indices
    chosen = chosen_slots(ticked, len(shown.slots))
    if not chosen:
        raise NothingChosen(card.id)
    return shown, frozenset(shown.slots[s] for s in chosen) == shown.question.correct_indices


def check(card: Card, banks: Mapping[str, Bank], user_id: int, reps: int) -> ReviewItem:
    """The card as shown at rating count ``reps``, if ``user_id`` may answer it (also the
    check of a tick, which changes nothing stored).

    Raises:
        NoSuchCard, CardReviewed, CardGone: see :func:`grade`.
    """
    if card.user_id != user_id:
        raise NoSuchCard(card.id)
    if card.reps != reps:
        raise CardReviewed(card.id)
    return item(card, banks)


# --- when people study, and reminders ------------------------------------------------------

HOURS = 24


def study_hours(hours: Sequence[float], at: float, *, decay: float = 0.98) -> list[float]:
    """The user's answers by hour of day (UTC), with the answer at ``at`` counted in; older
    answers weigh a little less each time (``decay``), so the hour follows a changed habit."""
    counts = [float(h) * decay for h in hours] if len(hours) == HOURS else [0.0] * HOURS
    counts[int(at // 3600) % HOURS] += 1.0
    return counts


def usual_hour(hours: Sequence[float]) -> int | None:
    """The UTC hour the user usually studies (the busiest of the histogram, then the earliest),
    or None before any answer. Telegram does not tell the bot a user's time zone: the hours
    they answer at are the only hint."""
    if len(hours) != HOURS or not any(hours):
        return None
    return max(range(HOURS), key=lambda h: (hours[h], -h))


def reminder_time(user_id: int, hour: int, after: float) -> float:
    """The first reminder time after ``after`` (seconds since the epoch): each day at ``hour``
    UTC plus a fixed offset per user within that hour, so that users who study at the same hour
    are spread over its 3,600 seconds instead of all being reminded at one second."""
    offset = hour * 3600 + (user_id * 2654435761) % 3600  # Knuth's multiplicative hash
    day = after - after % DAY
    at = day + offset
    return at if at > after else at + DAY


def next_reminder(user_id: int, hours: Sequence[float], now: float) -> float | None:
    """When to remind next (see :func:`reminder_time`), or None when the usual hour is not
    known yet (no answers)."""
    hour = usual_hour(hours)
    return None if hour is None else reminder_time(user_id, hour, now)
