"""Private quizzes' use cases over the engine and the storage port, shared by the Telegram and
terminal front ends (group sessions' are :mod:`bot.features.groups.service`).

Each method takes plain data (user ids, bank ids, positions), applies the engine's rules and
persists through :class:`~bot.kernel.ports.QuizStore`. Refusals are raised as
:class:`~bot.kernel.engine.QuizError` subclasses; storage failures as
:class:`~bot.kernel.ports.StorageError`. No Telegram, no SQL.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from cachetools import LRUCache

from bot.features.private.cache import AttemptCache
from bot.features.private.retention import DAY, Retention
from bot.kernel import engine
from bot.kernel.bank import Bank
from bot.kernel.engine import (
    AlreadyAnswered,
    Answer,
    Attempt,
    QuizError,
    StaleQuestion,
    UnknownAttempt,
)
from bot.kernel.ports import (
    CLOSED,
    DUPLICATE,
    REVIEWED,
    SHOWN,
    Announce,
    AnswerHook,
    BankStats,
    Begin,
    Planner,
    Pruned,
    QuizStore,
)
from bot.kernel.registry import BankRegistry

log = logging.getLogger(__name__)

T = TypeVar("T")


class QuizService:
    """The quiz's use cases.

    Attempts are cached in memory (:class:`~bot.features.private.cache.AttemptCache`; write-through:
    the cache changes only after storage acknowledged the write), so checking a tap needs no
    database read; storage re-checks every write atomically, so a stale cache entry can never record
    a wrong answer. A tap that the cached attempt refuses is checked again against the stored one
    (:meth:`_checked`): with several instances, another one may have moved the attempt on (an
    answer, a "next"), so the cache is behind and only a refusal can tell; the read costs nothing on
    the usual path.

    Args:
        store: Where attempts and answers are kept.
        banks: The bank registry shared by the services (a plain mapping: those featured
            banks alone, see :meth:`BankRegistry.of`).
        clock: Returns the time in seconds since the epoch.
        rng: Random generator for option shuffles.
        cache_size: How many attempts (and reviewed attempts' marks) to keep in memory (least
            recently used go first): the caches stay bounded however many users ever wrote.
            Users' choices of language and answer flow are
            :class:`~bot.features.preferences.service.PreferencesService`'s.
        retention: What :meth:`prune` deletes.
    """

    def __init__(
        self,
        store: QuizStore,
        banks: BankRegistry | Mapping[str, Bank],
        *,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        cache_size: int = 50_000,
        retention: Retention | None = None,
    ) -> None:
        self.store = store
        self.registry = BankRegistry.of(banks)
        self.retention = retention or Retention()
        self._clock = clock
        self._rng = rng or random.Random()
        self._cache = AttemptCache(cache_size)
        self._warned: set[tuple[str, str]] = set()  # (bank id, question id) logged as changed
        self._reviewed: LRUCache[int, None] = LRUCache(cache_size)  # attempt ids reviewed
        self.on_answer: AnswerHook | None = None
        self.announce: Announce | None = None
        """Tells the other instances what this one sent of an attempt (:meth:`note_shown`,
        :meth:`note_reviewed`); None: this instance is alone (SQLite, polling)."""

    async def forget(self, user_id: int) -> None:
        """Drop everything cached about ``user_id`` (their data is being deleted): their
        attempts and what was shown or reviewed of them (their choices are
        :meth:`PreferencesService.forget
        <bot.features.preferences.service.PreferencesService.forget>`'s). Their old buttons then
        read storage, which has nothing: they are refused."""
        for attempt_id in self._cache.of_user(user_id):
            self._reviewed.pop(attempt_id, None)
        self._cache.forget_user(user_id)

    def changed_elsewhere(self, user_id: int | None) -> None:
        """Another instance changed what is stored about ``user_id`` (their attempts, their
        data deleted): drop their cached attempts, so that they are read again. None: anyone
        may have changed (news of changes may have been missed): drop every user's. (Their
        choices: :meth:`PreferencesService.changed_elsewhere
        <bot.features.preferences.service.PreferencesService.changed_elsewhere>`.)"""
        if user_id is None:
            self._cache.clear()
            return
        self._cache.forget_user(user_id)

    @property
    def cached(self) -> dict[str, int]:
        """Entries per in-memory cache (for tests and benchmarks)."""
        return {**self._cache.sizes, "reviewed": len(self._reviewed)}

    async def bank(self, bank_id: str) -> Bank:
        """The bank ``bank_id`` at its latest version (featured, or a created quiz that may be
        started).

        Raises:
            UnknownBank: no such bank, or a created quiz taken down.
            StorageError: the library of created quizzes could not be read.
        """
        return await self.registry.bank(bank_id)

    async def bank_of(self, attempt: Attempt) -> Bank:
        """The bank ``attempt`` was planned on, at its version.

        Raises:
            BankChanged: that version cannot be served any more (see
                :meth:`BankRegistry.bank`).
            StorageError: the library of created quizzes could not be read.
        """
        return engine.check_bank(attempt, await self._planned(attempt))

    async def _planned(self, attempt: Attempt) -> Bank | None:
        """What the engine checks ``attempt`` against (:meth:`BankRegistry.find`)."""
        return await self.registry.find(attempt.bank_id, attempt.bank_version)

    @property
    def default_bank(self) -> Bank | None:
        """The only featured bank when exactly one is installed, else None (the user
        chooses)."""
        return self.registry.default_bank

    async def start(
        self, user_id: int, bank_id: str, plan: Planner | None = None, *, begin: Begin | None = None
    ) -> Attempt:
        """Start a fresh attempt at ``bank_id``, abandoning the user's active one; ``plan``
        plans it instead of :func:`bot.kernel.engine.plan_attempt` (an exam's draw), ``begin``
        stores it instead of :meth:`QuizStore.start_attempt
        <bot.kernel.ports.QuizStore.start_attempt>` (an exam's start, with its terms).

        Raises:
            UnknownBank: no such bank (or a created quiz taken down).
            StorageError: it could not be stored.
        """
        bank, now = await self.bank(bank_id), self._clock()
        planned = engine.plan_attempt(bank, self._rng) if plan is None else plan(bank, now)
        if begin is not None:
            attempt = await begin(bank, planned, now)
        else:
            attempt = await self.store.start_attempt(
                user_id, bank.id, bank.version, planned, now, engine.fingerprints(bank)
            )
        self._cache.forget_user(user_id)
        return self._cache.remember(attempt)

    async def active(self, user_id: int) -> Attempt | None:
        """The user's active attempt, if it can still be played (its bank version is loaded).

        An active attempt on a bank that was removed or changed version is abandoned.
        """
        attempt = await self.store.active_attempt(user_id)
        if attempt is None:
            return None
        try:
            engine.check_bank(attempt, await self._planned(attempt))
        except engine.BankChanged:
            await self.store.abandon(attempt.id, self._clock())
            self._cache.forget_user(user_id)
            return None
        return self._cache.remember(attempt)

    async def current(self, attempt: Attempt) -> tuple[Attempt, bool]:
        """Make the attempt's question at its position fit to show, after a bank edit without a
        version bump (see :func:`bot.kernel.engine.revise`): questions gone from the bank are
        skipped, and an edited question gets a new option order for its new content, stored
        before it is shown. Call it before showing the attempt's question (or its score).

        Returns:
            The attempt as stored (finished if no question was left), and whether the question
            at its position was edited since the attempt started (show it with a notice).

        Raises:
            BankChanged: the attempt's bank is gone or has another version.
            UnknownAttempt: the attempt vanished from storage.
            StorageError: the revision could not be stored.
        """
        for _ in range(3):
            revision = engine.revise(attempt, await self._planned(attempt), self._clock())
            if revision is None:
                return attempt, False
            self._warn(attempt, revision)
            revised = revision.attempt
            if await self.store.revise_attempt(
                attempt.id,
                attempt.position,
                revised.plan,
                revised.fingerprints,
                revised.ended_at if revised.status == engine.FINISHED else None,
            ):
                return self._cache.remember(revised), revision.updated is not None
            # it moved on or ended meanwhile (another tap, /stop): look again at what is stored
            stored = await self.store.attempt(attempt.id)
            if stored is None:
                raise UnknownAttempt(attempt.id)
            attempt = self._cache.remember(stored)
        return attempt, False

    def _warn(self, attempt: Attempt, revision: engine.Revision) -> None:
        """Log each question changed without a version bump, once per bank and question."""
        for question_id in (*revision.removed, revision.updated):
            if question_id is None or (attempt.bank_id, question_id) in self._warned:
                continue
            self._warned.add((attempt.bank_id, question_id))
            log.warning(
                "bank %s version %s: question %s was %s without a version bump; attempt %s %s",
                attempt.bank_id,
                attempt.bank_version,
                question_id,
                "removed" if question_id in revision.removed else "edited",
                attempt.id,
                "skips it"
                if question_id in revision.removed
                else "shows it as it is now, with new option order",
            )

    async def attempt(self, attempt_id: int) -> Attempt:
        """The attempt with ``attempt_id`` (from the cache when it is there).

        Raises:
            UnknownAttempt: no such attempt.
        """
        cached = self._cache.get(attempt_id)
        if cached is not None:
            return cached
        attempt = await self.store.attempt(attempt_id)
        if attempt is None:
            raise UnknownAttempt(attempt_id)
        return self._cache.remember(attempt)

    async def grade(
        self, user_id: int, attempt_id: int, position: int, slot: int
    ) -> tuple[Attempt, Answer]:
        """Check and grade an answer without recording it (no write; usually no read).

        Raises:
            UnknownAttempt, NotYourAttempt, BankChanged, AttemptClosed, StaleQuestion,
            AlreadyAnswered, InvalidOption: refused; nothing changes.
            QuestionChanged: the question was edited since it was shown: show it again after
                :meth:`current`.
        """
        return await self._checked(
            attempt_id,
            lambda attempt, bank: engine.grade(
                attempt, bank, user_id, position, slot, self._clock()
            ),
        )

    async def _checked(
        self, attempt_id: int, check: Callable[[Attempt, Bank | None], T]
    ) -> tuple[Attempt, T]:
        """``check`` (an engine rule, which raises a :class:`~bot.kernel.engine.QuizError` to
        refuse) on the attempt and its planned bank: on the cached attempt first, and when that
        refuses, once more on the stored one (another instance may have moved it on since this
        one cached it: the stored state decides a refusal).

        Raises:
            UnknownAttempt: no such attempt.
            QuizError: ``check`` refused the stored attempt.
        """
        cached = self._cache.get(attempt_id)
        if cached is not None:
            try:
                return cached, check(cached, await self._planned(cached))
            except QuizError:
                pass  # the stored attempt decides
        stored = await self.store.attempt(attempt_id)
        if stored is None:
            raise UnknownAttempt(attempt_id)
        attempt = self._cache.remember(stored)
        return attempt, check(attempt, await self._planned(attempt))

    # --- questions with several right options: ticks, then Submit ---------------------------

    async def grade_choice(
        self, user_id: int, attempt_id: int, position: int, mask: int
    ) -> tuple[Attempt, Answer]:
        """Check and grade a Submit of the ticked slots ``mask`` (bit ``s`` for slot ``s``),
        without recording it (see :func:`bot.kernel.engine.grade_choice`).

        Raises:
            NothingChosen: nothing ticked. The refusals of :meth:`grade`.
        """
        return await self._checked(
            attempt_id,
            lambda attempt, bank: engine.grade_choice(
                attempt, bank, user_id, position, mask, self._clock()
            ),
        )

    async def tick(
        self, user_id: int, attempt_id: int, position: int, mask: int
    ) -> tuple[Attempt, Bank]:
        """Check a tick that makes the ticked slots ``mask`` on the question at ``position``;
        nothing is stored (the ticks live in the question's buttons until Submit).

        Returns:
            The attempt and its bank, to show the question with the ticks.

        Raises:
            InvalidOption: a slot the question lacks, or the question has one right option.
            The refusals of :meth:`grade`.
        """

        def check(attempt: Attempt, bank: Bank | None) -> Bank:
            question, slots = engine.asking(attempt, bank, user_id, position)
            engine.chosen_slots(mask, len(slots))
            if not question.several or bank is None:
                raise engine.InvalidOption(mask)
            return bank

        return await self._checked(attempt_id, check)

    async def record(
        self, attempt: Attempt, answer: Answer, *, language: str | None = None
    ) -> Attempt:
        """Record a graded answer durably, with the attempt moved on by the core's rule
        (:func:`bot.kernel.engine.with_answer`) in the same write; return that attempt.
        ``language`` is the one the question was shown in (for ``quizbot report``).

        Raises:
            AlreadyAnswered: the database holds an answer for the question already.
            AttemptClosed: the attempt ended or moved on before the answer was stored.
            StorageError: the answer could not be stored.
        """
        moved = engine.with_answer(attempt, answer)
        outcome = await self.store.record_answer(
            attempt.id, attempt.position, answer, moved, language
        )
        if outcome == DUPLICATE:
            raise AlreadyAnswered(answer.question_id)
        if outcome == CLOSED:
            self._cache.drop(attempt)
            raise engine.AttemptClosed(attempt.id)
        return self._cache.remember(moved)

    async def answered(self, attempt: Attempt, answer: Answer) -> None:
        """After a recorded answer's feedback was shown: let :attr:`on_answer` (spaced review)
        rate the user's card. Kept out of :meth:`record`, so the feedback never waits for it."""
        await self.rate(attempt, answer.question_id, answer.correct, answer.answered_at)

    async def rate(self, attempt: Attempt, question_id: str, correct: bool, at: float) -> None:
        """Let :attr:`on_answer` (spaced review) rate the user's card of ``question_id`` as an
        answer, right or not, given at ``at`` (seconds since the epoch; rated once per ``at``):
        a recorded answer's (:meth:`answered`), or each question of a submitted exam."""
        if self.on_answer is not None:
            await self.on_answer(attempt.user_id, attempt.bank_id, question_id, correct, at)

    async def next(self, user_id: int, attempt_id: int, position: int) -> Attempt:
        """Check a "next" tap on the feedback of the question at ``position``; nothing is stored
        (the answer moved the attempt on). A "next" on a feedback whose next question was
        shown already (:meth:`shown`) is stale.

        Returns:
            The attempt: pass it to :meth:`current`, then show its question at
            ``attempt.position``, or its score if finished, then call :meth:`shown`.

        Raises:
            UnknownAttempt, NotYourAttempt, BankChanged, AttemptClosed, StaleQuestion,
            NotAnswered: refused; nothing changes.
        """
        attempt, shown = await self._checked(
            attempt_id, lambda attempt, bank: engine.check_next(attempt, bank, user_id, position)
        )
        if self._cache.shown.get(attempt.id, -1) >= shown:
            raise StaleQuestion(position)  # "next" tapped twice: shown already
        return attempt

    def shown(self, attempt_id: int, position: int) -> None:
        """Note that what comes after the question at ``position`` (the next question, or
        the score) was sent: a later "next" on that question's feedback is stale. Noted only
        once it was sent, so a tap whose showing failed, or was cut short, can be tried
        again: never a user left without a way on."""
        if self._cache.shown.get(attempt_id, -1) < position + 1:
            self._cache.shown[attempt_id] = position + 1

    async def note_shown(self, attempt_id: int, position: int) -> None:
        """:meth:`shown`, told to the other instances too (:attr:`announce`) before the update
        that sent it ends its turn: a second "Next" (or, in the one-tap flow, a second tap on
        the answered question) reaching another instance is stale there as well, and sends
        nothing again."""
        self.shown(attempt_id, position)
        if self.announce is not None:
            await self.announce(attempt_id, SHOWN, position + 1)

    async def note_reviewed(self, attempt_id: int) -> None:
        """Tell the other instances (:attr:`announce`) that the review of ``attempt_id``'s
        missed questions was sent (:meth:`review`): a second tap on another instance is stale."""
        if self.announce is not None:
            await self.announce(attempt_id, REVIEWED, 1)

    def noted_elsewhere(self, attempt_id: int, what: str, value: int) -> None:
        """Another instance (or this one) told what it sent of ``attempt_id``
        (:meth:`note_shown`, :meth:`note_reviewed`); news of another kind is ignored."""
        if what == SHOWN and self._cache.shown.get(attempt_id, -1) < value:
            self._cache.shown[attempt_id] = value
        elif what == REVIEWED:
            self._reviewed[attempt_id] = None

    def was_shown(self, attempt_id: int, position: int) -> bool:
        """Whether what comes after the question at ``position`` was sent (:meth:`shown`;
        this process only)."""
        return self._cache.shown.get(attempt_id, -1) >= position + 1

    def not_shown(self, attempt_id: int, position: int) -> None:
        """Forget :meth:`shown` for the feedback at ``position``: what came after it may not
        have reached the user, so another "next" tap on it is not stale."""
        if self._cache.shown.get(attempt_id) == position + 1:
            del self._cache.shown[attempt_id]

    async def review(self, user_id: int, attempt_id: int) -> tuple[Attempt, Bank]:
        """Check a "review" tap on a finished attempt's end screen; once per attempt (while
        the process runs): a second tap is stale and sends nothing again.

        Raises:
            UnknownAttempt, NotYourAttempt, BankChanged, NotFinished: refused.
            StaleQuestion: reviewed already.
        """
        attempt, bank = await self._checked(
            attempt_id, lambda attempt, planned: engine.check_review(attempt, planned, user_id)
        )
        if attempt.id in self._reviewed:
            raise StaleQuestion(attempt.total)
        self._reviewed[attempt.id] = None
        return attempt, bank

    def not_reviewed(self, attempt_id: int) -> None:
        """Undo :meth:`review`: showing the review failed, so another tap may show it."""
        self._reviewed.pop(attempt_id, None)

    async def prune(self) -> Pruned:
        """Delete what :attr:`retention` keeps no longer (see :class:`Retention`), and the
        prompts (:class:`~bot.kernel.ports.PromptStore`) asked over a day ago, as of the
        service's clock.

        Raises:
            StorageError: nothing was deleted.
        """
        now = self._clock()
        return await self.store.prune(
            abandoned_before=now - self.retention.abandoned_attempt_days * DAY,
            names_before=now - self.retention.player_name_days * DAY,
            prompts_before=now - DAY,
        )  # a prompt is answered within minutes, or never

    async def stop(self, user_id: int) -> bool:
        """Abandon the user's active attempt; False if there was none."""
        attempt = await self.store.active_attempt(user_id)
        self._cache.forget_user(user_id)
        return attempt is not None and await self.store.abandon(attempt.id, self._clock())

    async def stats(self, user_id: int) -> list[BankStats]:
        """The user's record per bank (see :meth:`QuizStore.stats`)."""
        return await self.store.stats(user_id)

    async def named_banks(self, bank_ids: Iterable[str]) -> dict[str, Bank]:
        """The featured banks, and of ``bank_ids`` the created quizzes that can be started (at
        their latest version), by id: what /stats names its lines with (a line of a bank gone
        is shown without a title, as before).

        Raises:
            StorageError: the library of created quizzes could not be read.
        """
        named = dict(self.registry.featured)
        named.update(
            await self.registry.loaded([i for i in dict.fromkeys(bank_ids) if i not in named])
        )
        return named
