"""Use cases over the engine and the storage port, shared by the Telegram and terminal front ends.

Each method takes plain data (user ids, bank ids, positions), applies the engine's rules and
persists through :class:`~bot.quiz.ports.QuizStore`. Refusals are raised as
:class:`~bot.quiz.engine.QuizError` subclasses; storage failures as
:class:`~bot.quiz.ports.StorageError`. No Telegram, no SQL.
"""

from __future__ import annotations

import logging
import random
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace

from bot.quiz import engine, group, settings
from bot.quiz.bank import Bank
from bot.quiz.engine import AlreadyAnswered, Answer, Attempt, QuizError, StaleQuestion
from bot.quiz.group import GroupAnswer, GroupSession
from bot.quiz.ports import CLOSED, DUPLICATE, BankStats, GroupStore, Pruned, QuizStore
from bot.quiz.settings import GroupSettings  # annotations: the method settings() hides the module

DAY = 86_400.0
"""Seconds in a day."""


@dataclass(frozen=True)
class Retention:
    """How long personal data that no longer serves anyone is kept (see README, "Security and
    privacy"); :meth:`QuizService.prune` deletes what is older, once a day.

    Attributes:
        abandoned_attempt_days: An abandoned attempt (stopped, replaced by a new one, or on a
            bank that changed) and its answers are deleted this many days after it ended.
            Finished attempts stay: they are the user's /stats.
        player_name_days: The display names of a group session's players are blanked this many
            days after the session ended (finished or stopped); answers and scores stay, and
            leaderboards of younger sessions keep their names.
    """

    abandoned_attempt_days: float = 90.0
    player_name_days: float = 30.0

log = logging.getLogger(__name__)

AnswerHook = Callable[[int, str, str, bool, float], Awaitable[object]]
"""Called after an answer is recorded (private quiz or group session) with the user id, bank id,
question id, whether it was right and when (seconds since the epoch): spaced review rates the
user's card of the question (:meth:`bot.quiz.review.LearningService.answered`)."""


class UnknownAttempt(QuizError):
    """No attempt has this id (a forged or garbage button)."""


class UnknownBank(QuizError):
    """No bank has this id (e.g. an unknown deep-link payload)."""


class QuizService:
    """The quiz's use cases.

    Attempts are cached in memory (write-through: the cache changes only after storage
    acknowledged the write), so checking a tap needs no database read; storage re-checks every
    write atomically, so a stale cache entry can never record a wrong answer.

    Args:
        store: Where attempts and answers are kept.
        banks: Loaded banks by id (in display order).
        clock: Returns the time in seconds since the epoch.
        rng: Random generator for option shuffles.
        cache_size: How many attempts, and how many users' language choices, to keep in
            memory (least recently used go first): the caches stay bounded however many users
            ever wrote.
        retention: What :meth:`prune` deletes.
    """

    def __init__(self, store: QuizStore, banks: Mapping[str, Bank], *,
                 clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None, cache_size: int = 50_000,
                 retention: Retention | None = None) -> None:
        self.store = store
        self.banks = dict(banks)
        self.retention = retention or Retention()
        self._clock = clock
        self._rng = rng or random.Random()
        self._languages: OrderedDict[int, str | None] = OrderedDict()
        self._attempts: OrderedDict[int, Attempt] = OrderedDict()
        self._cache_size = cache_size
        self._shown: dict[int, int] = {}  # attempt id -> the furthest position "next" showed
        self._by_user: dict[int, set[int]] = {}  # user id -> ids of their cached attempts
        self._warned: set[tuple[str, str]] = set()  # (bank id, question id) logged as changed
        self._reviewed: OrderedDict[int, None] = OrderedDict()  # attempt ids reviewed, LRU
        self.on_answer: AnswerHook | None = None

    def _remember(self, attempt: Attempt) -> Attempt:
        self._attempts[attempt.id] = attempt
        self._attempts.move_to_end(attempt.id)
        self._by_user.setdefault(attempt.user_id, set()).add(attempt.id)
        while len(self._attempts) > self._cache_size:
            evicted, old = self._attempts.popitem(last=False)
            self._shown.pop(evicted, None)
            self._unindex(old.user_id, evicted)
        return attempt

    def _unindex(self, user_id: int, attempt_id: int) -> None:
        """Drop ``attempt_id`` from the user's cached attempts (and the user, once none)."""
        cached = self._by_user.get(user_id)
        if cached is not None:
            cached.discard(attempt_id)
            if not cached:
                del self._by_user[user_id]

    def _forget_user(self, user_id: int) -> None:
        """Drop the user's cached attempts (their active one is about to change)."""
        for attempt_id in self._by_user.pop(user_id, set()):
            self._attempts.pop(attempt_id, None)
            self._shown.pop(attempt_id, None)

    async def forget(self, user_id: int) -> None:
        """Drop everything cached about ``user_id`` (their data is being deleted): their
        attempts and what was shown or reviewed of them, and their language choice. Their old
        buttons then read storage, which has nothing: they are refused."""
        for attempt_id in self._by_user.get(user_id, set()):
            self._reviewed.pop(attempt_id, None)
        self._forget_user(user_id)
        self._languages.pop(user_id, None)

    def replace_banks(self, banks: Mapping[str, Bank]) -> None:
        """Serve ``banks`` from now on (a reload). Attempts planned on a bank whose version
        changed, or that is gone, are refused as :class:`~bot.quiz.engine.BankChanged` (stale
        buttons) and abandoned when next resumed, as after a restart."""
        self.banks = dict(banks)

    def _cache_language(self, user_id: int, language: str | None) -> None:
        self._languages[user_id] = language
        self._languages.move_to_end(user_id)
        while len(self._languages) > self._cache_size:
            self._languages.popitem(last=False)

    @property
    def cached(self) -> dict[str, int]:
        """Entries per in-memory cache (for tests and benchmarks)."""
        return {"attempts": len(self._attempts), "users": len(self._by_user),
                "languages": len(self._languages), "shown": len(self._shown),
                "reviewed": len(self._reviewed)}

    def bank(self, bank_id: str) -> Bank:
        """The bank with ``bank_id``.

        Raises:
            UnknownBank: no such bank.
        """
        try:
            return self.banks[bank_id]
        except KeyError:
            raise UnknownBank(bank_id) from None

    @property
    def default_bank(self) -> Bank | None:
        """The only bank when exactly one is installed, else None (the user must choose)."""
        return next(iter(self.banks.values())) if len(self.banks) == 1 else None

    async def chosen_language(self, user_id: int) -> str | None:
        """The language the user chose with /language (cached after the first read), or None."""
        if user_id in self._languages:
            self._languages.move_to_end(user_id)
            return self._languages[user_id]
        language = await self.store.user_language(user_id)
        self._cache_language(user_id, language)
        return language

    async def choose_language(self, user_id: int, language: str) -> None:
        """Store the user's language choice."""
        await self.store.set_user_language(user_id, language)
        self._cache_language(user_id, language)

    async def start(self, user_id: int, bank_id: str) -> Attempt:
        """Start a fresh attempt at ``bank_id``, abandoning the user's active one.

        Raises:
            UnknownBank: no such bank.
            StorageError: it could not be stored.
        """
        bank = self.bank(bank_id)
        plan = engine.plan_attempt(bank, self._rng)
        attempt = await self.store.start_attempt(user_id, bank.id, bank.version, plan,
                                                 self._clock(), engine.fingerprints(bank))
        self._forget_user(user_id)
        return self._remember(attempt)

    async def active(self, user_id: int) -> Attempt | None:
        """The user's active attempt, if it can still be played (its bank version is loaded).

        An active attempt on a bank that was removed or changed version is abandoned.
        """
        attempt = await self.store.active_attempt(user_id)
        if attempt is None:
            return None
        try:
            engine.check_bank(attempt, self.banks.get(attempt.bank_id))
        except engine.BankChanged:
            await self.store.abandon(attempt.id, self._clock())
            self._forget_user(user_id)
            return None
        return self._remember(attempt)

    async def current(self, attempt: Attempt) -> tuple[Attempt, bool]:
        """Make the attempt's question at its position fit to show, after a bank edit without a
        version bump (see :func:`bot.quiz.engine.revise`): questions gone from the bank are
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
            revision = engine.revise(attempt, self.banks.get(attempt.bank_id), self._clock())
            if revision is None:
                return attempt, False
            self._warn(attempt, revision)
            revised = revision.attempt
            if await self.store.revise_attempt(
                    attempt.id, attempt.position, revised.plan, revised.fingerprints,
                    revised.ended_at if revised.status == engine.FINISHED else None):
                return self._remember(revised), revision.updated is not None
            # it moved on or ended meanwhile (another tap, /stop): look again at what is stored
            stored = await self.store.attempt(attempt.id)
            if stored is None:
                raise UnknownAttempt(attempt.id)
            attempt = self._remember(stored)
        return attempt, False

    def _warn(self, attempt: Attempt, revision: engine.Revision) -> None:
        """Log each question changed without a version bump, once per bank and question."""
        for question_id in (*revision.removed, revision.updated):
            if question_id is None or (attempt.bank_id, question_id) in self._warned:
                continue
            self._warned.add((attempt.bank_id, question_id))
            log.warning(
                "bank %s version %s: question %s was %s without a version bump; attempt %s %s",
                attempt.bank_id, attempt.bank_version, question_id,
                "removed" if question_id in revision.removed else "edited", attempt.id,
                "skips it" if question_id in revision.removed
                else "shows it as it is now, with new option order")

    async def attempt(self, attempt_id: int) -> Attempt:
        """The attempt with ``attempt_id`` (from the cache when it is there).

        Raises:
            UnknownAttempt: no such attempt.
        """
        cached = self._attempts.get(attempt_id)
        if cached is not None:
            return cached
        attempt = await self.store.attempt(attempt_id)
        if attempt is None:
            raise UnknownAttempt(attempt_id)
        return self._remember(attempt)

    async def grade(self, user_id: int, attempt_id: int, position: int,
                    slot: int) -> tuple[Attempt, Answer]:
        """Check and grade an answer without recording it (no write; usually no read).

        Raises:
            UnknownAttempt, NotYourAttempt, BankChanged, AttemptClosed, StaleQuestion,
            AlreadyAnswered, InvalidOption: refused; nothing changes.
            QuestionChanged: the question was edited since it was shown: show it again after
                :meth:`current`.
        """
        attempt = await self.attempt(attempt_id)
        answer = engine.grade(attempt, self.banks.get(attempt.bank_id), user_id, position, slot,
                              self._clock())
        return attempt, answer

    async def record(self, attempt: Attempt, answer: Answer) -> Attempt:
        """Record a graded answer durably, with the attempt moved on by the core's rule
        (:func:`bot.quiz.engine.with_answer`) in the same write; return that attempt.

        Raises:
            AlreadyAnswered: the database holds an answer for the question already.
            AttemptClosed: the attempt ended or moved on before the answer was stored.
            StorageError: the answer could not be stored.
        """
        moved = engine.with_answer(attempt, answer)
        outcome = await self.store.record_answer(attempt.id, attempt.position, answer, moved)
        if outcome == DUPLICATE:
            raise AlreadyAnswered(answer.question_id)
        if outcome == CLOSED:
            if self._attempts.pop(attempt.id, None) is not None:
                self._shown.pop(attempt.id, None)
                self._unindex(attempt.user_id, attempt.id)
            raise engine.AttemptClosed(attempt.id)
        return self._remember(moved)

    async def answered(self, attempt: Attempt, answer: Answer) -> None:
        """After a recorded answer's feedback was shown: let :attr:`on_answer` (spaced review)
        rate the user's card. Kept out of :meth:`record`, so the feedback never waits for it."""
        if self.on_answer is not None:
            await self.on_answer(attempt.user_id, attempt.bank_id, answer.question_id,
                                 answer.correct, answer.answered_at)

    async def next(self, user_id: int, attempt_id: int, position: int) -> Attempt:
        """Check a "next" tap on the feedback of the question at ``position``; nothing is stored
        (the answer moved the attempt on). A second "next" on the same feedback is stale.

        Returns:
            The attempt: pass it to :meth:`current`, then show its question at
            ``attempt.position``, or its score if finished.

        Raises:
            UnknownAttempt, NotYourAttempt, BankChanged, AttemptClosed, StaleQuestion,
            NotAnswered: refused; nothing changes.
        """
        attempt = await self.attempt(attempt_id)
        shown = engine.check_next(attempt, self.banks.get(attempt.bank_id), user_id, position)
        if self._shown.get(attempt.id, -1) >= shown:
            raise StaleQuestion(position)  # "next" tapped twice: shown already
        self._shown[attempt.id] = shown
        return attempt

    def not_shown(self, attempt_id: int, position: int) -> None:
        """Undo :meth:`next` for the feedback at ``position``: showing what came after it
        failed, so another "next" tap on it is not stale."""
        if self._shown.get(attempt_id) == position + 1:
            del self._shown[attempt_id]

    async def review(self, user_id: int, attempt_id: int) -> tuple[Attempt, Bank]:
        """Check a "review" tap on a finished attempt's end screen; once per attempt (while
        the process runs): a second tap is stale and sends nothing again.

        Raises:
            UnknownAttempt, NotYourAttempt, BankChanged, NotFinished: refused.
            StaleQuestion: reviewed already.
        """
        attempt = await self.attempt(attempt_id)
        bank = engine.check_review(attempt, self.banks.get(attempt.bank_id), user_id)
        if attempt.id in self._reviewed:
            raise StaleQuestion(attempt.total)
        self._reviewed[attempt.id] = None
        while len(self._reviewed) > self._cache_size:
            self._reviewed.popitem(last=False)
        return attempt, bank

    def not_reviewed(self, attempt_id: int) -> None:
        """Undo :meth:`review`: showing the review failed, so another tap may show it."""
        self._reviewed.pop(attempt_id, None)

    async def prune(self) -> Pruned:
        """Delete what :attr:`retention` keeps no longer (see :class:`Retention`), as of the
        service's clock.

        Raises:
            StorageError: nothing was deleted.
        """
        now = self._clock()
        return await self.store.prune(
            abandoned_before=now - self.retention.abandoned_attempt_days * DAY,
            names_before=now - self.retention.player_name_days * DAY)

    async def stop(self, user_id: int) -> bool:
        """Abandon the user's active attempt; False if there was none."""
        attempt = await self.store.active_attempt(user_id)
        self._forget_user(user_id)
        return attempt is not None and await self.store.abandon(attempt.id, self._clock())

    async def stats(self, user_id: int) -> list[BankStats]:
        """The user's record per bank (see :meth:`QuizStore.stats`)."""
        return await self.store.stats(user_id)


class SessionRunning(QuizError):
    """The chat has a running session already (one per chat)."""


class GroupService:
    """Group quiz sessions' use cases.

    The open question of each session is cached as this service opened it, so grading a tap
    needs no database read; storage re-checks every answer's window atomically, so a cache that
    lags a close can never record a late answer, and a tap that does not match the cache (another
    question, another chat) is graded against the stored state instead.

    Args:
        store: Where sessions and their answers are kept.
        banks: Loaded banks by id.
        question_seconds: Answer window per question, in seconds, unless the group chose one.
        clock: Returns the time in seconds since the epoch.
        rng: Random generator for option shuffles and random selections of questions.
        languages: The UI languages a group may choose (the application's catalogs).
    """

    def __init__(self, store: GroupStore, banks: Mapping[str, Bank], *,
                 question_seconds: float, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None,
                 languages: tuple[str, ...] = ("en", "hi", "el")) -> None:
        self.store = store
        self.languages = tuple(languages)
        self.banks = dict(banks)
        self.question_seconds = question_seconds
        self._clock = clock
        self._rng = rng or random.Random()
        self._open: dict[int, GroupSession] = {}  # session id -> its open question, as opened
        self.on_answer: AnswerHook | None = None

    def replace_banks(self, banks: Mapping[str, Bank]) -> None:
        """Serve ``banks`` from now on (a reload); a session on a bank whose version changed,
        or that is gone, meets :class:`~bot.quiz.engine.BankChanged`, as after a restart."""
        self.banks = dict(banks)

    def now(self) -> float:
        """The service's clock: seconds since the epoch."""
        return self._clock()

    def bank_of(self, session: GroupSession) -> Bank:
        """The session's bank.

        Raises:
            BankChanged: the bank is gone or has another version now.
        """
        return engine.check_bank(session, self.banks.get(session.bank_id))

    async def language(self, chat_id: int) -> str | None:
        """The group's language, if set."""
        return await self.store.group_language(chat_id)

    async def set_language(self, chat_id: int, language: str) -> None:
        """Set the group's language (an admin's choice)."""
        await self.store.set_group_language(chat_id, language, by_admin=True)

    async def settings(self, chat_id: int) -> GroupSettings:
        """The group's settings (the defaults if it never changed any)."""
        return await self.store.group_settings(chat_id) or settings.GroupSettings()

    async def change_setting(self, chat_id: int, version: int, field: str,
                             value: str) -> GroupSettings:
        """Apply an admin's settings-menu tap (see :func:`bot.quiz.settings.change`).

        Returns:
            The settings as stored after it.

        Raises:
            StaleSettings: the menu is older than the stored settings (or another change came
                first); nothing changed.
            InvalidSetting: a value out of range or a bank that is not installed; nothing
                changed.
            StorageError: it could not be stored.
        """
        current = await self.settings(chat_id)
        new = settings.change(current, version, field, value, set(self.banks), self.languages)
        if not await self.store.save_group_settings(
                chat_id, new, current.version,
                language=value if field == "language" else None):
            raise settings.StaleSettings(version)
        return new

    def window(self, chosen: GroupSettings) -> float:
        """The answer window a session starts with: the group's choice, else the default."""
        return float(chosen.question_seconds or self.question_seconds)

    def pick_bank(self, requested: str | None, chosen: GroupSettings) -> str | None:
        """The bank ``/quiz`` starts: the one named, else the group's (if still installed),
        else the only one installed; None when the group must choose."""
        if requested is not None:
            return requested
        if chosen.bank_id in self.banks:
            return chosen.bank_id
        return next(iter(self.banks)) if len(self.banks) == 1 else None

    async def last_session(self, chat_id: int) -> GroupSession | None:
        """The chat's most recent ended session (finished or stopped), or None."""
        return await self.store.last_session(chat_id)

    async def start(self, chat_id: int, bank_id: str, starter_id: int,
                    starter_language: str, *,
                    message_thread_id: int | None = None) -> GroupSession:
        """Start a session with the group's settings (window, scoring, a random selection of
        questions); the group's language is the starter's when the group has none.
        ``message_thread_id``: the forum topic it runs in (None: none, or General).

        Raises:
            UnknownBank: no such bank.
            SessionRunning: the chat has a running session.
        """
        if bank_id not in self.banks:
            raise UnknownBank(bank_id)
        bank = self.banks[bank_id]
        chosen = await self.settings(chat_id)
        await self.store.set_group_language(chat_id, starter_language, by_admin=False)
        language = await self.store.group_language(chat_id) or starter_language
        plan = settings.select(engine.plan_attempt(bank, self._rng), chosen.question_count,
                               self._rng)
        session = await self.store.start_session(
            chat_id, bank.id, bank.version, language, starter_id, plan, self.window(chosen),
            self._clock(), message_thread_id=message_thread_id, scoring=chosen.scoring)
        if session is None:
            raise SessionRunning(chat_id)
        return session

    async def active(self, chat_id: int) -> GroupSession | None:
        """The chat's running session, or None."""
        return await self.store.active_session(chat_id)

    async def running(self) -> list[GroupSession]:
        """Every running session (to restore after a restart)."""
        return await self.store.active_sessions()

    async def session(self, session_id: int) -> GroupSession:
        """The session.

        Raises:
            UnknownAttempt: no such session (a forged button).
        """
        session = await self.store.session(session_id)
        if session is None:
            raise UnknownAttempt(session_id)
        return session

    async def open(self, session: GroupSession) -> GroupSession | None:
        """Open the question at ``session.position`` for ``question_seconds`` from now (before
        posting it); None if the session moved on meanwhile (stopped)."""
        deadline = self._clock() + session.question_seconds
        if not await self.store.open_question(session.id, session.position, deadline):
            return None
        opened = self._open[session.id] = replace(session, message_id=None, deadline=deadline)
        return opened

    async def posted(self, session: GroupSession, message_id: int) -> GroupSession:
        """Record the message showing the open question."""
        await self.store.set_question_message(session.id, session.position, message_id)
        posted = self._open[session.id] = replace(session, message_id=message_id)
        return posted

    async def unopen(self, session: GroupSession) -> None:
        """Undo :meth:`open` after the question could not be posted."""
        self._open.pop(session.id, None)
        await self.store.unopen_question(session.id, session.position)

    async def tap(self, session_id: int, chat_id: int, position: int, slot: int, user_id: int,
                  name: str, *, received_at: float | None = None
                  ) -> tuple[GroupSession, GroupAnswer, bool]:
        """Record a member's answer to the open question.

        Args:
            received_at: When the tap reached the bot, in seconds since the epoch (default:
                now): a tap counts if it came before the deadline, however long the bot took
                to get to it.

        Returns:
            The session, the recorded answer, and whether the question may now close early
            (everyone who took part earlier has answered it).

        Raises:
            UnknownAttempt, WrongChat, SessionClosed, BankChanged, StaleQuestion, TooLate,
            InvalidOption, AlreadyAnswered: refused, nothing recorded.
            StorageError: the answer could not be stored.
        """
        session = self._open.get(session_id)
        if session is None or session.position != position or session.chat_id != chat_id:
            session = await self.session(session_id)
        now = self._clock() if received_at is None else min(received_at, self._clock())
        answer = group.grade_tap(session, self.banks.get(session.bank_id), chat_id, position,
                                 slot, user_id, now)
        tally = await self.store.record_group_answer(session.id, position, answer, name)
        if tally.outcome == DUPLICATE:
            raise AlreadyAnswered(answer.question_id)
        if tally.outcome == CLOSED:
            raise group.TooLate(position)
        return session, answer, group.everyone_answered(tally.answered, tally.players,
                                                        tally.joined)

    async def answered(self, session: GroupSession, answer: GroupAnswer) -> None:
        """After a recorded tap was acknowledged: let :attr:`on_answer` (spaced review) rate the
        member's card. Kept out of :meth:`tap`, so the acknowledgement never waits for it."""
        if self.on_answer is not None:
            await self.on_answer(answer.user_id, session.bank_id, answer.question_id,
                                 answer.correct, answer.answered_at)

    async def close(self, session_id: int, position: int) -> GroupSession | None:
        """Close question ``position`` (compare-and-set); the session as the close left it, or
        None if it was not open at that position (closed already: exactly one caller reveals)."""
        closed = await self.store.close_question(session_id, position)
        self._open.pop(session_id, None)
        return closed

    async def revealed(self, session: GroupSession) -> GroupSession:
        """Record that the closed question's message shows its reveal (no retry edits it again).

        Raises:
            StorageError: it could not be stored.
        """
        if session.message_id is not None:
            await self.store.mark_revealed(session.id, session.position, session.message_id)
        return replace(session, message_id=None)

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> int:
        """Move a group's sessions and language to its new chat id (it became a supergroup);
        how many sessions moved."""
        moved = await self.store.move_chat(old_chat_id, new_chat_id)
        self._open = {k: v for k, v in self._open.items() if v.chat_id != old_chat_id}
        return moved

    async def results(self, session: GroupSession) -> tuple[list[GroupAnswer], dict[int, str]]:
        """Every answer of the session and the players' names."""
        return (await self.store.group_answers(session.id),
                await self.store.group_players(session.id))

    async def end(self, session: GroupSession, status: group.SessionStatus) -> bool:
        """Finish or stop the session; False if it had ended already."""
        ended = await self.store.end_session(session.id, status, self._clock())
        self._open.pop(session.id, None)
        return ended
