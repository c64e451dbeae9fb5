"""Group sessions' use cases over the group rules and the storage port (private quizzes' are
:mod:`bot.features.private.service`).

Each method takes plain data (chat ids, session ids, positions), applies the rules of
:mod:`bot.features.groups.rules` and :mod:`bot.features.groups.settings` and persists through
:class:`~bot.features.groups.ports.GroupStore`. Refusals are raised as
:class:`~bot.kernel.engine.QuizError` subclasses; storage failures as
:class:`~bot.kernel.ports.StorageError`. No Telegram, no SQL.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import replace

from bot.features.groups import pacing, settings
from bot.features.groups import rules as group
from bot.features.groups.ports import GroupStore
from bot.features.groups.rules import GroupAnswer, GroupSession
from bot.features.groups.settings import (
    GroupSettings,  # annotations: the method settings() hides the module
)
from bot.kernel import engine
from bot.kernel.bank import Bank
from bot.kernel.engine import AlreadyAnswered, InvalidOption, QuizError, UnknownAttempt
from bot.kernel.ports import CLOSED, DUPLICATE, AnswerHook
from bot.kernel.registry import BankRegistry


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
        banks: The bank registry shared by the services (a plain mapping: those featured
            banks alone, see :meth:`BankRegistry.of`).
        question_seconds: Answer window per question, in seconds, unless the group chose one.
        clock: Returns the time in seconds since the epoch.
        rng: Random generator for option shuffles and random selections of questions.
        languages: The UI languages a group may choose (the application's catalogs).
    """

    def __init__(
        self,
        store: GroupStore,
        banks: BankRegistry | Mapping[str, Bank],
        *,
        question_seconds: float,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        languages: tuple[str, ...] = ("en", "hi", "el"),
    ) -> None:
        self.store = store
        self.languages = tuple(languages)
        self.registry = BankRegistry.of(banks)
        self.question_seconds = question_seconds
        self._clock = clock
        self._rng = rng or random.Random()
        self._open: dict[int, GroupSession] = {}  # session id -> its open question, as opened
        self.on_answer: AnswerHook | None = None

    def now(self) -> float:
        """The service's clock: seconds since the epoch."""
        return self._clock()

    async def bank_of(self, session: GroupSession) -> Bank:
        """The session's bank, at the version the session was planned on.

        Raises:
            BankChanged: that version cannot be served any more (a featured bank gone or at
                another version, a created quiz taken down or deleted).
            StorageError: the library of created quizzes could not be read.
        """
        return engine.check_bank(session, await self._planned(session))

    async def _planned(self, session: GroupSession) -> Bank | None:
        return await self.registry.find(session.bank_id, session.bank_version)

    async def choosable(self, chat_id: int, chosen: GroupSettings) -> list[Bank]:
        """The banks the group's settings menu offers: the featured ones, then the group's
        choice and the bank of its last session when they are created quizzes that can be
        started (so that a created quiz played with ``/quiz <id>`` can be made the group's).

        Raises:
            StorageError: the storage could not be read.
        """
        offered = dict(self.registry.featured)
        last = await self.store.last_session(chat_id)
        extra = [
            bank_id
            for bank_id in (chosen.bank_id, last.bank_id if last else None)
            if bank_id is not None and bank_id not in offered
        ]
        offered.update(await self.registry.loaded(extra))
        return list(offered.values())

    async def settings(self, chat_id: int) -> GroupSettings:
        """The group's settings (the defaults if it never changed any)."""
        return await self.store.group_settings(chat_id) or settings.GroupSettings()

    async def change_setting(
        self, chat_id: int, version: int, field: str, value: str
    ) -> GroupSettings:
        """Apply an admin's settings-menu tap (see :func:`bot.features.groups.settings.change`).

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
        banks = set(self.registry.featured)
        if field == "bank" and value not in banks and await self.registry.startable(value):
            banks.add(value)  # a created quiz may be the group's bank too
        new = settings.change(current, version, field, value, banks, self.languages)
        if not await self.store.save_group_settings(
            chat_id, new, current.version, language=value if field == "language" else None
        ):
            raise settings.StaleSettings(version)
        return new

    def window(self, chosen: GroupSettings) -> float:
        """The answer window a session starts with: the group's choice, else the default."""
        return float(chosen.question_seconds or self.question_seconds)

    async def last_session(self, chat_id: int) -> GroupSession | None:
        """The chat's most recent ended session (finished or stopped), or None."""
        return await self.store.last_session(chat_id)

    async def start(
        self,
        chat_id: int,
        bank_id: str,
        starter_id: int,
        starter_language: str,
        *,
        message_thread_id: int | None = None,
    ) -> GroupSession:
        """Start a session with the group's settings (window, scoring, a random selection of
        questions); the group's language is the starter's when the group has none.
        ``message_thread_id``: the forum topic it runs in (None: none, or General).

        Raises:
            UnknownBank: no such bank (or a created quiz taken down).
            SessionRunning: the chat has a running session.
        """
        bank = await self.registry.bank(bank_id)
        chosen = await self.settings(chat_id)
        await self.store.set_group_language(chat_id, starter_language, by_admin=False)
        language = await self.store.group_language(chat_id) or starter_language
        plan = settings.select(
            engine.plan_attempt(bank, self._rng), chosen.question_count, self._rng
        )
        session = await self.store.start_session(
            chat_id,
            bank.id,
            bank.version,
            language,
            starter_id,
            plan,
            self.window(chosen),
            self._clock(),
            message_thread_id=message_thread_id,
            scoring=chosen.scoring,
        )
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

    async def tap(
        self,
        session_id: int,
        chat_id: int,
        position: int,
        slot: int,
        user_id: int,
        name: str,
        *,
        received_at: float | None = None,
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
        answer = group.grade_tap(
            session, await self._planned(session), chat_id, position, slot, user_id, now
        )
        tally = await self.store.record_group_answer(
            session.id, position, answer, name, session.language
        )
        if tally.outcome == DUPLICATE:
            raise AlreadyAnswered(answer.question_id)
        if tally.outcome == CLOSED:
            raise group.TooLate(position)
        return (
            session,
            answer,
            pacing.everyone_answered(tally.answered, tally.players, tally.joined),
        )

    async def tick(
        self, session_id: int, chat_id: int, position: int, slot: int, user_id: int
    ) -> tuple[GroupSession, int]:
        """Tick or untick ``slot`` in a member's choice on the open question with several right
        options (stored: a restart before Submit loses nothing).

        Returns:
            The session and the member's ticked slots after it (bit ``s`` for slot ``s``).

        Raises:
            UnknownAttempt, WrongChat, SessionClosed, BankChanged, StaleQuestion, TooLate,
            InvalidOption (no such slot, or the question has one right option): refused,
            nothing changes.
        """
        session = await self._current(session_id, chat_id, position)
        question, slots = group.open_question(
            session, await self._planned(session), chat_id, position, self._clock()
        )
        if not question.several or not 0 <= slot < len(slots):
            raise InvalidOption(slot)
        return session, await self.store.tick_group_pick(session.id, position, user_id, slot)

    async def submit(
        self,
        session_id: int,
        chat_id: int,
        position: int,
        user_id: int,
        name: str,
        *,
        received_at: float | None = None,
    ) -> tuple[GroupSession, GroupAnswer, bool]:
        """Record a member's ticked choice (:meth:`tick`) as their answer: as :meth:`tap`,
        graded right only for the exact set of right options.

        Raises:
            NothingChosen: nothing ticked. The refusals of :meth:`tap`.
        """
        session = await self._current(session_id, chat_id, position)
        mask = await self.store.group_pick(session.id, position, user_id)
        now = self._clock() if received_at is None else min(received_at, self._clock())
        answer = group.grade_choice(
            session, await self._planned(session), chat_id, position, mask, user_id, now
        )
        return await self._record(session, position, answer, name)

    async def _current(self, session_id: int, chat_id: int, position: int) -> GroupSession:
        """The session, from the open ones kept when it is the one asked for."""
        session = self._open.get(session_id)
        if session is None or session.position != position or session.chat_id != chat_id:
            session = await self.session(session_id)
        return session

    async def _record(
        self, session: GroupSession, position: int, answer: GroupAnswer, name: str
    ) -> tuple[GroupSession, GroupAnswer, bool]:
        """Store a graded answer; the session, the answer and whether the question may close
        early (as :meth:`tap`, which keeps its own copy of these lines). Raises
        AlreadyAnswered or TooLate when the store refused it."""
        tally = await self.store.record_group_answer(
            session.id, position, answer, name, session.language
        )
        if tally.outcome == DUPLICATE:
            raise AlreadyAnswered(answer.question_id)
        if tally.outcome == CLOSED:
            raise group.TooLate(position)
        return (
            session,
            answer,
            pacing.everyone_answered(tally.answered, tally.players, tally.joined),
        )

    async def answered(self, session: GroupSession, answer: GroupAnswer) -> None:
        """After a recorded tap was acknowledged: let :attr:`on_answer` (spaced review) rate the
        member's card. Kept out of :meth:`tap`, so the acknowledgement never waits for it."""
        if self.on_answer is not None:
            await self.on_answer(
                answer.user_id,
                session.bank_id,
                answer.question_id,
                answer.correct,
                answer.answered_at,
            )

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
        return (
            await self.store.group_answers(session.id),
            await self.store.group_players(session.id),
        )

    async def end(self, session: GroupSession, status: group.SessionStatus) -> bool:
        """Finish or stop the session; False if it had ended already."""
        ended = await self.store.end_session(session.id, status, self._clock())
        self._open.pop(session.id, None)
        return ended
