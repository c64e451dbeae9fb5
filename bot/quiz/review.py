"""Use cases of spaced review and reminders over :class:`~bot.quiz.ports.CardStore`, shared by
the Telegram and terminal front ends. No Telegram, no SQL: the rules are in
:mod:`bot.quiz.learning`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from bot.quiz import engine, learning
from bot.quiz.bank import Bank
from bot.quiz.engine import Attempt
from bot.quiz.learning import Card, CardGone, CardReviewed, NoSuchCard, ReviewItem
from bot.quiz.ports import CardStore, CardUpdate, Learner, ScorePoint, StorageError

log = logging.getLogger(__name__)

DUE_PAGE = 20
"""Due cards read at once: the earliest due whose bank and question are still installed is
served (a question removed from its bank without a version change is skipped)."""

DUE_COUNT_UPTO = 100
"""Due cards are counted up to this many ("99+" beyond): counting 10,000 would cost a scan."""

MIN_REMINDER_GAP = 20 * 3600.0
"""Seconds between two reminders at least (at most one a day, even when the usual hour moves
later)."""


@dataclass(frozen=True)
class Progress:
    """What the progress chart and the text summary show.

    Attributes:
        scores: Finished attempts and group sessions, oldest first.
        cards: Each card with its retrievability now (0-1), in bank and question order of the
            installed banks (cards of removed banks or questions are left out).
    """

    scores: tuple[ScorePoint, ...]
    cards: tuple[tuple[Bank, str, float], ...]

    @property
    def empty(self) -> bool:
        """Whether there is nothing to chart."""
        return not self.scores and not self.cards


class LearningService:
    """Spaced review's use cases.

    Args:
        store: Where cards and learners are kept.
        banks: Loaded banks by id.
        clock: Returns the time in seconds since the epoch (a fake one in tests).
    """

    def __init__(self, store: CardStore, banks: Mapping[str, Bank], *,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.banks = dict(banks)
        self._clock = clock
        self._blocked: set[int] = set()
        self._nexted: set[tuple[int, int]] = set()  # (card id, reps) whose "next" was served
        self._queued: list[CardUpdate] = []
        self._writer: asyncio.Task[None] | None = None

    def now(self) -> float:
        """The service's clock: seconds since the epoch."""
        return self._clock()

    def replace_banks(self, banks: Mapping[str, Bank]) -> None:
        """Serve ``banks`` from now on (a reload): cards of removed banks are skipped."""
        self.banks = dict(banks)

    async def load(self) -> None:
        """Read the users known to have blocked the bot (once, at start)."""
        self._blocked = set(await self.store.blocked_users())

    # --- cards from answers ----------------------------------------------------------------

    def _study(self, at: float) -> Callable[[Learner], Learner]:
        def study(learner: Learner) -> Learner:
            hours = tuple(learning.study_hours(learner.hours, at))
            learner = replace(learner, hours=hours)
            return replace(learner, next_remind_at=self._plan(learner, self.now()))
        return study

    def _plan(self, learner: Learner, now: float) -> float | None:
        """The learner's next reminder time (None: reminders off, or no usual hour yet)."""
        if not learner.remind:
            return None
        after = now
        if learner.last_reminded_at is not None:
            after = max(after, learner.last_reminded_at + MIN_REMINDER_GAP)
        return learning.next_reminder(learner.user_id, learner.hours, after)

    async def answered(self, user_id: int, bank_id: str, question_id: str, correct: bool,
                       at: float) -> Card | None:
        """Rate the user's card of a question answered in a quiz or a group session (a new
        card for a first answer). A storage failure is logged, not raised: the answer itself
        is recorded already, and the card catches up at the next answer.
        """
        try:
            return await self.store.update_card(
                user_id, bank_id, question_id, lambda card: learning.rate(card, correct, at),
                self._study(at))
        except StorageError:
            log.exception("could not update the card of user %s, %s/%s", user_id, bank_id,
                          question_id)
            return None

    async def answered_soon(self, user_id: int, bank_id: str, question_id: str, correct: bool,
                            at: float) -> None:
        """Queue the rating :meth:`answered` makes, and return at once: the ratings queued
        meanwhile are written together, in their order, by one background writer
        (:meth:`bot.quiz.ports.CardStore.update_cards`), while the first batch is being written
        the next one gathers. What the bot's handlers use, so that neither a tap's
        acknowledgement nor its update's slot waits for the card; :meth:`drain` before closing
        the store. A rating is derived data (the answer itself is stored first): one lost in a
        crash is made up by the next answer or review of the question.
        """
        self._queued.append(CardUpdate(
            user_id, bank_id, question_id,
            lambda card: learning.rate(card, correct, at), self._study(at)))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued(), name="review-cards")

    async def _write_queued(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []
            try:
                await self.store.update_cards(batch)
            except StorageError:
                log.exception("could not update %d review card(s)", len(batch))

    async def drain(self) -> None:
        """Wait until every rating queued by :meth:`answered_soon` is written (or failed and
        logged)."""
        while self._writer is not None and not self._writer.done():
            await asyncio.shield(self._writer)

    # --- review ----------------------------------------------------------------------------

    async def due(self, user_id: int) -> ReviewItem | None:
        """The user's earliest due card that can still be shown, or None."""
        cards, count = await self.store.due_cards(user_id, list(self.banks), self.now(),
                                                  DUE_PAGE, DUE_COUNT_UPTO)
        for card in cards:
            try:
                return learning.item(card, self.banks, count)
            except CardGone:
                count -= 1
        return None

    async def missed(self, user_id: int, attempt: Attempt) -> ReviewItem | None:
        """The first question missed in the finished ``attempt`` whose card was not rated
        since it ended ("review what I missed" is a review session of those), or None.

        Raises:
            NotYourAttempt, BankChanged, NotFinished: see :func:`bot.quiz.engine.check_review`.
        """
        bank = engine.check_review(attempt, self.banks.get(attempt.bank_id), user_id)
        missed = engine.result(attempt).missed
        if not missed:
            return None
        cards = {c.question_id: c for c in await self.store.cards(user_id, bank.id, missed)}
        ended = attempt.ended_at or 0.0
        left = []
        for question_id in missed:
            card = cards.get(question_id)
            if card is not None and (card.last_review or 0.0) <= ended:
                try:
                    left.append(learning.item(card, self.banks))
                except CardGone:
                    continue
        return replace(left[0], due_count=len(left)) if left else None

    async def next_item(self, user_id: int, attempt: Attempt | None) -> ReviewItem | None:
        """What a review session shows next: the attempt's missed questions first (when the
        session began on an end screen), then the due cards."""
        if attempt is not None:
            found = await self.missed(user_id, attempt)
            if found is not None:
                return found
        return await self.due(user_id)

    async def card(self, card_id: int) -> Card:
        """The card with ``card_id``.

        Raises:
            NoSuchCard: there is none.
        """
        card = await self.store.card(card_id)
        if card is None:
            raise NoSuchCard(card_id)
        return card

    async def review(self, user_id: int, card_id: int, reps: int,
                     slot: int) -> tuple[ReviewItem, bool, Card]:
        """Grade and record a review tap: the card is rated, nothing else changes.

        Returns:
            The item as shown, whether the answer was right, and the card after the rating.

        Raises:
            NoSuchCard, CardReviewed, CardGone, InvalidOption: refused; nothing changes.
            StorageError: it could not be stored.
        """
        card = await self.card(card_id)
        shown, correct = learning.grade(card, self.banks, user_id, reps, slot)
        now = self.now()

        def update(stored: Card) -> Card | None:
            return learning.rate(stored, correct, now) if stored.reps == reps else None

        rated = await self.store.update_card(user_id, card.bank_id, card.question_id, update,
                                             self._study(now))
        if rated is None:
            raise CardReviewed(card_id)  # a concurrent tap rated it first
        return shown, correct, rated

    def take_next(self, card_id: int, reps: int) -> bool:
        """Whether the "next" tap on the feedback of ``card_id`` rated to ``reps`` is the first
        one (a second tap on the same feedback is stale: it would show the next card twice)."""
        if (card_id, reps) in self._nexted:
            return False
        if len(self._nexted) > 100_000:
            self._nexted.clear()
        self._nexted.add((card_id, reps))
        return True

    async def next_due(self, user_id: int) -> float | None:
        """When the user's next card is due (seconds since the epoch), or None: no cards."""
        return await self.store.next_due(user_id, list(self.banks))

    # --- reminders -------------------------------------------------------------------------

    async def learner(self, user_id: int) -> Learner:
        """The user's habits and reminder setting."""
        return await self.store.learner(user_id)

    async def set_reminders(self, user_id: int, on: bool, language: str | None = None) -> Learner:
        """Turn the daily reminder on or off, to be written in ``language``; returns the
        learner as stored (with the time of the next reminder when on and the usual hour is
        known)."""
        learner = replace(await self.store.learner(user_id), remind=on, blocked=False,
                          language=language)
        self._blocked.discard(user_id)
        learner = replace(learner, next_remind_at=self._plan(learner, self.now()))
        await self.store.save_learner(learner)
        return learner

    async def reminders_due(self, limit: int) -> list[Learner]:
        """Up to ``limit`` learners to remind now. Those with nothing due, or whose reminder
        time passed long ago (the bot was down), are rescheduled to their next day without a
        reminder."""
        now = self.now()
        due = []
        for learner, has_due in await self.store.reminders_due(now, list(self.banks), limit):
            late = now - (learner.next_remind_at or now) > learning.REMINDER_LATE
            if has_due and not late:
                due.append(learner)
            else:
                await self.store.save_learner(replace(
                    learner, next_remind_at=self._plan(learner, now)))
        return due

    async def reminded(self, learner: Learner) -> None:
        """Note that ``learner`` was sent their reminder now; plan the next one."""
        now = self.now()
        learner = replace(learner, last_reminded_at=now)
        await self.store.save_learner(replace(learner, next_remind_at=self._plan(learner, now)))

    async def blocked(self, learner: Learner) -> None:
        """The user blocked the bot (403): no reminders until they come back."""
        self._blocked.add(learner.user_id)
        await self.store.save_learner(replace(learner, blocked=True, next_remind_at=None))

    async def came_back(self, user_id: int) -> bool:
        """The user sent something: if they had blocked the bot, their reminders resume.
        Costs nothing (a set lookup) for everyone else. Returns whether they were blocked."""
        if user_id not in self._blocked:
            return False
        self._blocked.discard(user_id)
        learner = replace(await self.store.learner(user_id), blocked=False)
        await self.store.save_learner(replace(learner,
                                              next_remind_at=self._plan(learner, self.now())))
        return True

    # --- progress --------------------------------------------------------------------------

    async def progress(self, user_id: int) -> Progress:
        """The user's scores over time and how well each question is known now."""
        now = self.now()
        scores = await self.store.score_history(user_id)
        by_key = {(c.bank_id, c.question_id): c for c in await self.store.cards(user_id)}
        known = []
        for bank in self.banks.values():
            for question in bank.questions:
                card = by_key.get((bank.id, question.id))
                if card is not None:
                    known.append((bank, question.id, learning.retrievability(card, now)))
        return Progress(tuple(scores), tuple(known))

    async def previous_best(self, attempt: Attempt) -> ScorePoint | None:
        """The user's best finished attempt or session on the attempt's bank before it (by
        share of correct answers), or None for a first one."""
        ended = attempt.ended_at if attempt.ended_at is not None else self.now()
        earlier = [p for p in await self.store.score_history(attempt.user_id)
                   if p.bank_id == attempt.bank_id and p.ended_at < ended and p.total]
        return max(earlier, key=lambda p: (p.score / p.total, p.score), default=None)


__all__ = ["CardGone", "CardReviewed", "LearningService", "NoSuchCard", "Progress"]
