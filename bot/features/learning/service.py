"""Use cases of spaced review and reminders over :class:`~bot.features.learning.ports.CardStore`,
shared by the Telegram and terminal front ends. No Telegram, no SQL: the rules are in
:mod:`bot.features.learning.rules`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

from cachetools import LRUCache

from bot.features.learning import rules as learning
from bot.features.learning.ports import (
    CardStore,
    CardUpdate,
    Learner,
    Progress,
    ScorePoint,
    UnratedAnswer,
)
from bot.features.learning.ratings import REBUILD_BATCH, RatingQueue, rating
from bot.features.learning.rules import Card, CardGone, CardReviewed, NoSuchCard, ReviewItem
from bot.kernel import engine
from bot.kernel.bank import Bank
from bot.kernel.engine import Attempt
from bot.kernel.ports import NEXT_CARD, Announce, StorageError
from bot.kernel.registry import BankRegistry

log = logging.getLogger(__name__)


DUE_PAGE = 20
"""Due cards read at once: the earliest due whose bank and question are still installed is
served (a question removed from its bank without a version change is skipped)."""

DUE_COUNT_UPTO = 100
"""Due cards are counted up to this many ("99+" beyond): counting 10,000 would cost a scan."""

MIN_REMINDER_GAP = 20 * 3600.0
"""Seconds between two reminders at least (at most one a day, even when the usual hour moves
later)."""

REMINDER_CLAIM = 600.0
"""Seconds a due reminder is claimed for by the instance that takes it (its next reminder
time moved this far ahead, compare-and-set): other instances sharing the storage leave it,
and if this one dies before sending it, it is due again after this long."""


class LearningService:
    """Spaced review's use cases.

    Cards of created quizzes are due, reviewed and charted as those of featured banks (at the
    quiz's latest version; a quiz taken down or deleted is skipped as a removed bank file).
    Which created quizzes a user has cards of is read once per user (from their cards) and
    kept in an LRU cache, told of each new card. The daily reminder is sent for due cards of
    featured banks only: the reminder pass asks for many learners at once, and naming every
    created quiz there would read them all.

    Args:
        store: Where cards and learners are kept.
        banks: The bank registry shared by the services (a plain mapping: those featured
            banks alone, see :meth:`BankRegistry.of`).
        clock: Returns the time in seconds since the epoch (a fake one in tests).
        cache_size: Users whose created quizzes with cards are kept in memory.
    """

    def __init__(
        self,
        store: CardStore,
        banks: BankRegistry | Mapping[str, Bank],
        *,
        clock: Callable[[], float] = time.time,
        cache_size: int = 50_000,
    ) -> None:
        self.store = store
        self.registry = BankRegistry.of(banks)
        self._created: LRUCache[int, frozenset[str]] = LRUCache(cache_size)
        self._clock = clock
        self._blocked: set[int] = set()
        self._nexted: set[tuple[int, int]] = set()  # (card id, reps) whose "next" was served
        self._ratings = RatingQueue(store)
        """The ratings queued by :meth:`answered_soon`, written in batches."""
        self.shared = False
        """Other instances write cards too (several instances on PostgreSQL): which created
        quizzes a user has cards of is read from the store each time, not cached."""
        self.announce: Announce | None = None
        """Tells the other instances which review card's "Next" this one served
        (:meth:`note_next`); None: this instance is alone."""

    def now(self) -> float:
        """The service's clock: seconds since the epoch."""
        return self._clock()

    async def _created_of(self, user_id: int) -> frozenset[str]:
        """Ids of the created quizzes (not featured now) the user has cards of."""
        if self.registry.library is None:
            return frozenset()
        known = None if self.shared else self._created.get(user_id)
        if known is None:
            known = frozenset(
                bank_id
                for bank_id in await self.store.carded_banks(user_id)
                if not self.registry.is_featured(bank_id)
            )
            self._created[user_id] = known
        return known

    def _carded(self, user_id: int, bank_id: str) -> None:
        """Note a card of ``bank_id`` for :meth:`_created_of` (a user not cached is read in
        full when next needed)."""
        known = self._created.get(user_id)
        if known is not None and bank_id not in known and not self.registry.is_featured(bank_id):
            self._created[user_id] = known | {bank_id}

    async def _banks(self, user_id: int) -> dict[str, Bank]:
        """The banks the user's cards may be served from: the featured ones, then the
        created quizzes they have cards of that can be started (latest versions)."""
        banks = dict(self.registry.featured)
        banks.update(await self.registry.loaded(sorted(await self._created_of(user_id))))
        return banks

    async def _with(self, bank_ids: Iterable[str]) -> dict[str, Bank]:
        """The featured banks and, of ``bank_ids``, the created quizzes that can be started."""
        banks = dict(self.registry.featured)
        banks.update(await self.registry.loaded([i for i in bank_ids if i not in banks]))
        return banks

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

    async def answered(
        self, user_id: int, bank_id: str, question_id: str, correct: bool, at: float
    ) -> Card | None:
        """Rate the user's card of a question answered in a quiz or a group session (a new
        card for a first answer). A storage failure is logged, not raised: the answer itself
        is recorded already, and :meth:`rebuild` rates it at the next start.
        """
        try:
            card = await self.store.update_card(
                user_id, bank_id, question_id, rating(correct, at), self._study(at)
            )
            self._carded(user_id, bank_id)
            return card
        except StorageError:
            log.exception(
                "could not update the card of user %s, %s/%s", user_id, bank_id, question_id
            )
            return None

    async def answered_soon(
        self, user_id: int, bank_id: str, question_id: str, correct: bool, at: float
    ) -> None:
        """Queue the rating :meth:`answered` makes, and return at once: the ratings queued
        meanwhile are written together, in their order, by one background writer
        (:meth:`bot.features.learning.ports.CardStore.update_cards`), while the first batch is being
        written the next one gathers. What the bot's handlers use, so that neither a tap's
        acknowledgement nor its update's slot waits for the card; :meth:`drain` before closing
        the store. A batch that fails is tried again
        (:data:`~bot.features.learning.ratings.CARD_WRITE_ATTEMPTS`); one lost anyway (a crash, a
        long outage) is rated from its stored answer by :meth:`rebuild` at the next start, as it
        would have been.
        """
        self._ratings.put(
            CardUpdate(user_id, bank_id, question_id, rating(correct, at), self._study(at))
        )
        self._carded(user_id, bank_id)

    async def rebuild(self) -> int:
        """Rate, oldest first, the stored answers that their review cards do not reflect yet
        (:meth:`CardStore.unrated_answers`: their queued ratings were lost in a crash, or
        failed), as :meth:`answered_soon` would have; run at start, before any new answer.
        Returns how many answers were rated.

        Raises:
            StorageError: the answers could not be read, or a batch not written after
                :data:`~bot.features.learning.ratings.CARD_WRITE_ATTEMPTS` tries (the rest is rated
                at the next start).
        """
        answers: list[UnratedAnswer] = await self.store.unrated_answers()
        updates = [
            CardUpdate(
                a.user_id,
                a.bank_id,
                a.question_id,
                rating(a.correct, a.answered_at),
                self._study(a.answered_at),
            )
            for a in answers
        ]
        for start in range(0, len(updates), REBUILD_BATCH):
            await self._ratings.write(updates[start : start + REBUILD_BATCH])
        if answers:
            log.info(
                "rated %d answer(s) whose review card was not written before the last stop",
                len(answers),
            )
        return len(answers)

    async def drain(self) -> None:
        """Wait until every rating queued by :meth:`answered_soon` is written (or failed after
        its tries and logged)."""
        await self._ratings.drain()

    async def settled(self, user_id: int) -> None:
        """Wait until the ratings queued for ``user_id`` by :meth:`answered_soon` are written
        (or failed after their tries and logged), so that what the user reads next (/stats,
        /review) shows the answers they just gave; batches of other users' ratings queued
        after theirs are not waited for."""
        await self._ratings.settled(user_id)

    async def forget(self, user_id: int) -> None:
        """Drop what is kept in memory about ``user_id`` (their data is being deleted): their
        queued ratings, those of the batch being written (for its next tries), and their
        blocked mark; then wait for the batch in flight, so that no rating of theirs is written
        after this returns (a deletion that follows removes what it wrote)."""
        self._blocked.discard(user_id)
        self._created.pop(user_id, None)
        self._ratings.forget(user_id)
        await self.drain()

    # --- review ----------------------------------------------------------------------------

    async def due(self, user_id: int) -> ReviewItem | None:
        """The user's earliest due card that can still be shown, or None. Due means due within
        :data:`bot.features.learning.rules.LEARN_AHEAD` (a question missed minutes ago is
        served)."""
        banks = await self._banks(user_id)
        if not banks:  # nothing installed (the store takes no empty list of banks)
            return None
        cards, count = await self.store.due_cards(
            user_id, list(banks), self.now() + learning.LEARN_AHEAD, DUE_PAGE, DUE_COUNT_UPTO
        )
        for card in cards:
            try:
                return learning.item(card, banks, count)
            except CardGone:
                count -= 1
        return None

    async def missed(self, user_id: int, attempt: Attempt) -> ReviewItem | None:
        """The first question missed in the finished ``attempt`` whose card was not rated
        since it ended ("review what I missed" is a review session of those), or None.

        Raises:
            NotYourAttempt, BankChanged, NotFinished: see :func:`bot.kernel.engine.check_review`.
        """
        bank = engine.check_review(
            attempt, await self.registry.find(attempt.bank_id, attempt.bank_version), user_id
        )
        missed = engine.result(attempt).missed
        if not missed:
            return None
        banks = await self._with([bank.id])
        cards = {c.question_id: c for c in await self.store.cards(user_id, bank.id, missed)}
        ended = attempt.ended_at or 0.0
        left = []
        for question_id in missed:
            card = cards.get(question_id)
            if card is not None and (card.last_review or 0.0) <= ended:
                try:
                    left.append(learning.item(card, banks))
                except CardGone:
                    continue
        return replace(left[0], due_count=len(left)) if left else None

    async def next_item(self, user_id: int, attempt: Attempt | None) -> ReviewItem | None:
        """What a review session shows next: the attempt's missed questions first (when the
        session began on an end screen), then the due cards. Its count is of everything due
        (the attempt's missed questions are due too: a question missed again in this session
        is counted while the rest of them are served)."""
        if attempt is not None:
            found = await self.missed(user_id, attempt)
            if found is not None:
                due = await self.due(user_id)
                return replace(
                    found, due_count=max(found.due_count, due.due_count if due is not None else 0)
                )
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

    async def tick(self, user_id: int, card_id: int, reps: int, ticked: int) -> ReviewItem:
        """Check a tick on a card's question with several right options (the ticks ``ticked``
        live in the buttons): the item to show them on; nothing is stored.

        Raises:
            NoSuchCard, CardReviewed, CardGone, InvalidOption: refused; nothing changes.
        """
        card = await self.card(card_id)
        shown = learning.check(card, await self._with([card.bank_id]), user_id, reps)
        engine.chosen_slots(ticked, len(shown.slots))
        if not shown.question.several:
            raise engine.InvalidOption(ticked)
        return shown

    async def review(
        self, user_id: int, card_id: int, reps: int, slot: int, *, ticked: int | None = None
    ) -> tuple[ReviewItem, bool, Card]:
        """Grade and record a review tap (or, with ``ticked``, a Submit of ticked slots: see
        :func:`bot.features.learning.rules.grade`): the card is rated, nothing else changes.

        Returns:
            The item as shown, whether the answer was right, and the card after the rating.

        Raises:
            NoSuchCard, CardReviewed, CardGone, InvalidOption: refused; nothing changes.
            StorageError: it could not be stored.
        """
        card = await self.card(card_id)
        shown, correct = learning.grade(
            card, await self._with([card.bank_id]), user_id, reps, slot, ticked=ticked
        )
        now = self.now()

        def update(stored: Card) -> Card | None:
            return learning.rate(stored, correct, now) if stored.reps == reps else None

        rated = await self.store.update_card(
            user_id, card.bank_id, card.question_id, update, self._study(now)
        )
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

    async def note_next(self, card_id: int, reps: int) -> None:
        """Tell the other instances (:attr:`announce`) that the "next" on the feedback of
        ``card_id`` rated to ``reps`` was served (:meth:`take_next`): a second tap reaching
        another instance is stale there too."""
        if self.announce is not None:
            await self.announce(card_id, NEXT_CARD, reps)

    def noted_elsewhere(self, card_id: int, what: str, value: int) -> None:
        """Another instance (or this one) served the "next" of a review card's feedback
        (:meth:`note_next`); news of another kind is ignored."""
        if what == NEXT_CARD:
            self._nexted.add((card_id, value))

    async def next_due(self, user_id: int) -> float | None:
        """When the user's next card is due (seconds since the epoch), or None: no cards."""
        banks = list(await self._banks(user_id))
        return await self.store.next_due(user_id, banks) if banks else None

    # --- reminders -------------------------------------------------------------------------

    async def learner(self, user_id: int) -> Learner:
        """The user's habits and reminder setting."""
        return await self.store.learner(user_id)

    async def set_reminders(self, user_id: int, on: bool, language: str | None = None) -> Learner:
        """Turn the daily reminder on or off, to be written in ``language``; returns the
        learner as stored (with the time of the next reminder when on and the usual hour is
        known)."""
        learner = replace(
            await self.store.learner(user_id), remind=on, blocked=False, language=language
        )
        self._blocked.discard(user_id)
        learner = replace(learner, next_remind_at=self._plan(learner, self.now()))
        await self.store.save_learner(learner)
        return learner

    async def toggle_reminders(self, user_id: int, language: str | None = None) -> bool:
        """Turn the daily reminder off if it is on, else on (to be written in ``language``),
        in one atomic write; returns whether it is on now. The next reminder is planned as
        :meth:`set_reminders` plans it."""
        now = self.now()

        def toggled(learner: Learner) -> Learner:
            learner = replace(learner, remind=not learner.remind, blocked=False, language=language)
            return replace(learner, next_remind_at=self._plan(learner, now))

        self._blocked.discard(user_id)
        return (await self.store.update_learner(user_id, toggled)).remind

    async def reminders_due(self, limit: int) -> list[Learner]:
        """Up to ``limit`` learners to remind now, each claimed for :data:`REMINDER_CLAIM`
        seconds (their ``next_remind_at`` is the claim's end: another instance sharing the
        storage does not take them). Those with nothing due, or whose reminder time passed
        long ago (the bot was down), are rescheduled to their next day without a reminder."""
        now = self.now()
        due = []
        featured = list(self.registry.featured)  # created quizzes' cards: see the class
        for learner, has_due in await self.store.reminders_due(now, featured, limit):
            late = now - (learner.next_remind_at or now) > learning.REMINDER_LATE
            if has_due and not late and learner.next_remind_at is not None:
                due.append(learner)
            else:
                await self.store.save_learner(
                    replace(learner, next_remind_at=self._plan(learner, now))
                )
        # claimed in one write: those another instance sharing the storage took first are left
        claimed = now + REMINDER_CLAIM
        taken = await self.store.move_reminders(
            [(learner.user_id, learner.next_remind_at or now) for learner in due], claimed
        )
        return [
            replace(learner, next_remind_at=claimed) for learner in due if learner.user_id in taken
        ]

    async def reminded(self, learner: Learner) -> None:
        """Note that ``learner`` was sent their reminder now; plan the next one."""
        now = self.now()
        learner = replace(learner, last_reminded_at=now)
        await self.store.save_learner(replace(learner, next_remind_at=self._plan(learner, now)))

    async def not_reminded(self, learner: Learner) -> None:
        """The reminder of ``learner`` (as :meth:`reminders_due` gave it, claimed) could not
        be sent for now: due again at once, for the next pass (unless changed meanwhile)."""
        if learner.next_remind_at is not None:
            await self.store.move_reminders([(learner.user_id, learner.next_remind_at)], self.now())

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
        await self.store.save_learner(
            replace(learner, next_remind_at=self._plan(learner, self.now()))
        )
        return True

    # --- progress --------------------------------------------------------------------------

    async def progress(self, user_id: int) -> Progress:
        """The user's scores over time and, per question, the days until it is due."""
        now = self.now()
        scores = await self.store.score_history(user_id)
        by_key = {(c.bank_id, c.question_id): c for c in await self.store.cards(user_id)}
        known = []
        for bank in (await self._with(dict.fromkeys(b for b, _ in by_key))).values():
            for question in bank.questions:
                card = by_key.get((bank.id, question.id))
                if card is not None:
                    known.append((bank, question.id, learning.due_in_days(card, now)))
        return Progress(tuple(scores), tuple(known))

    async def previous_best(self, attempt: Attempt) -> ScorePoint | None:
        """The user's best finished attempt or session on the attempt's bank before it (by
        share of correct answers), or None for a first one."""
        ended = attempt.ended_at if attempt.ended_at is not None else self.now()
        earlier = [
            p
            for p in await self.store.score_history(attempt.user_id)
            if p.bank_id == attempt.bank_id and p.ended_at < ended and p.total
        ]
        return max(earlier, key=lambda p: (p.score / p.total, p.score), default=None)


__all__ = ["CardGone", "CardReviewed", "LearningService", "NoSuchCard", "Progress"]
