"""Homework's use cases over :class:`~bot.features.homework.ports.HomeworkStore` and the private
quiz's :class:`~bot.features.private.service.QuizService` (the rules are
:mod:`bot.features.homework.rules`).

The front end sets homework (:meth:`HomeworkService.assign`, then :meth:`~HomeworkService.
posted` once the group message is out), opens it for a member from the deep link
(:meth:`~HomeworkService.open`), and runs a repeating pass that asks :meth:`~HomeworkService.
due` what is due at the service's clock and does it, claiming each item first with its
compare-and-set (``close``, ``mark_*``), so that a restart or a second instance sends nothing
twice: whatever a pass claimed and could not send is not sent again.

Refusals are :class:`~bot.kernel.engine.QuizError` subclasses; storage failures
:class:`~bot.kernel.ports.StorageError`. No Telegram, no SQL.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from bot.features.exams.rules import ExamTerms
from bot.features.exams.service import ExamService
from bot.features.homework import rules as homework
from bot.features.homework.ports import HomeworkStore, NewAssignment, TimeZoneStore, TokenTaken
from bot.features.homework.results import summarize
from bot.features.homework.rules import (
    CANCELLED,
    OPEN,
    PROGRESS_SECONDS,
    REMINDERS,
    TOKEN_PATTERN,
    TOKEN_PREFIX,
    Assignment,
    Due,
    HomeworkCancelled,
    HomeworkClosed,
    HomeworkResults,
    Member,
    Opened,
    Progress,
    Reminder,
    UnknownHomework,
    check_deadline,
    parse_deadline,
    progress_due,
    reminder_due,
)
from bot.features.private.service import QuizService
from bot.kernel import engine
from bot.kernel.bank import Bank, Exam
from bot.kernel.engine import Attempt, UnknownBank
from bot.kernel.zones import DEFAULT_ZONE, parse_zone

DUE_LIMIT = 200
"""Items of each kind one :meth:`HomeworkService.due` returns at most (the next pass takes
the rest)."""
LISTED = 20
"""Assignments :meth:`HomeworkService.assignments` lists at most."""


def new_token() -> str:
    """A fresh homework deep-link payload: ``hw`` and 16 random characters of
    ``A-Za-z0-9_-`` (96 bits from :mod:`secrets`)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(12)


class HomeworkService:
    """Homework's use cases.

    Args:
        store: Where homework is kept.
        zones: Where chats' time zones are kept.
        quiz: The private quiz's service: homework attempts are its attempts.
        clock: Returns the time in seconds since the epoch.
        tokens: Makes a new deep-link payload (:func:`new_token`).
        due_limit: :data:`DUE_LIMIT`.
        exams: Exam mode's service: homework on a quiz with exam mode is sat as an exam (its
            timer from the member's first tap of the link, its results in marks); None:
            played as a quiz.
    """

    def __init__(
        self,
        store: HomeworkStore,
        zones: TimeZoneStore,
        quiz: QuizService,
        *,
        clock: Callable[[], float] = time.time,
        tokens: Callable[[], str] = new_token,
        due_limit: int = DUE_LIMIT,
        exams: ExamService | None = None,
    ) -> None:
        self.store = store
        self.exams = exams
        self.zones = zones
        self.quiz = quiz
        self._clock = clock
        self._tokens = tokens
        self.due_limit = due_limit

    def now(self) -> float:
        """The service's clock: seconds since the epoch."""
        return self._clock()

    # --- time zones and deadlines ------------------------------------------------------------

    async def zone(self, chat_id: int) -> str:
        """The chat's time zone (:data:`~bot.kernel.zones.DEFAULT_ZONE` if it never set one)."""
        return await self.zones.time_zone(chat_id) or DEFAULT_ZONE

    async def set_zone(self, chat_id: int, text: str) -> str:
        """Set the chat's time zone from what an admin typed; the zone stored.

        Raises:
            UnknownZone: ``text`` names no time zone (nothing stored).
        """
        zone = parse_zone(text)
        await self.zones.set_time_zone(chat_id, zone, self._clock())
        return zone

    async def deadline(self, chat_id: int, text: str) -> float:
        """The deadline ``text`` means in the chat's time zone, now
        (:func:`~bot.features.homework.rules.parse_deadline`).

        Raises:
            DeadlineUnreadable, DeadlinePast, DeadlineTooFar: see ``parse_deadline``.
        """
        return parse_deadline(text, await self.zone(chat_id), self._clock())

    # --- setting homework --------------------------------------------------------------------

    async def assign(
        self,
        chat_id: int,
        bank_id: str,
        deadline: float,
        *,
        language: str,
        set_by: int,
        set_by_name: str,
        thread_id: int | None = None,
        exam: Exam | None = None,
    ) -> Assignment:
        """Set homework in a group: ``bank_id`` (at its latest version) until ``deadline``.
        Who may set it (the group's admins, the "who may start" setting) is the front end's
        check. Several homework may be open in one group at once.

        Args:
            chat_id: The group.
            bank_id: The quiz.
            deadline: Seconds since the epoch.
            language: The group's language (its messages are written in it).
            set_by, set_by_name: The admin (0 and "" for an anonymous admin).
            thread_id: The forum topic, or None.
            exam: The exam its members sit (``/assign ... exam``), or None: its quiz's own
                exam mode, if any.

        Raises:
            UnknownBank: no such bank, or a created quiz taken down.
            DeadlinePast, DeadlineTooFar: see :func:`~bot.features.homework.rules.check_deadline`.
            StorageError: nothing stored.
        """
        bank = await self.quiz.bank(bank_id)
        now = self._clock()
        check_deadline(deadline, now)
        for _ in range(3):
            new = NewAssignment(
                chat_id,
                thread_id,
                self._tokens(),
                bank.id,
                bank.version,
                language,
                set_by,
                set_by_name,
                deadline,
            )
            try:
                assignment = await self.store.create_assignment(new, now)
            except TokenTaken:
                continue
            if exam is not None and self.exams is not None:
                await self.exams.set_for_homework(assignment.id, exam)
            return assignment
        raise TokenTaken(chat_id)  # three collisions of 96 random bits: the token maker is broken

    async def posted(self, assignment_id: int, message_id: int) -> bool:
        """Record the group message showing the homework (after it was sent); False if the
        homework is no longer open."""
        return await self.store.set_assignment_message(assignment_id, message_id, self._clock())

    async def assignment(self, assignment_id: int) -> Assignment:
        """The homework with ``assignment_id``.

        Raises:
            UnknownHomework: no such homework (a forged or stale button).
        """
        found = await self.store.assignment(assignment_id)
        if found is None:
            raise UnknownHomework(assignment_id)
        return found

    async def by_token(self, token: str) -> Assignment:
        """The homework whose deep-link payload is ``token``, whatever its status.

        Raises:
            UnknownHomework: no such homework (a forged or garbage token).
        """
        found = (
            await self.store.assignment_by_token(token) if TOKEN_PATTERN.fullmatch(token) else None
        )
        if found is None:
            raise UnknownHomework(token)
        return found

    async def assignments(self, chat_id: int, *, limit: int = LISTED) -> list[Assignment]:
        """The group's open homework (by deadline) then closed homework (latest first), not
        cancelled ones, each with its finished count; at most ``limit``."""
        return await self.store.assignments_of(chat_id, limit=limit)

    async def members(self, assignment_id: int) -> list[Member]:
        """Every member who opened the homework, by when they first opened it."""
        return await self.store.members(assignment_id)

    # --- playing it ----------------------------------------------------------------------------

    def _check_open(self, assignment: Assignment, now: float) -> None:
        if assignment.status == CANCELLED:
            raise HomeworkCancelled(assignment)
        if assignment.status != OPEN or now >= assignment.deadline:
            raise HomeworkClosed(assignment)

    async def open(self, token: str, user_id: int, name: str, language: str) -> Opened:
        """A member opened the homework's deep link in private: start or resume their private
        attempt (see :mod:`bot.features.homework.rules`'s rules).

        - Not opened before, or their homework attempt was replaced by another quiz: a fresh
          attempt starts (the user's attempt in progress at another bank, if any, is
          abandoned, as ``/start <bank>`` does) and becomes their homework attempt.
        - Their homework attempt in progress: it is resumed.
        - Finished already (before the deadline): practice, resumed if the user's active
          attempt is at this bank, else started; it does not count.

        Who may open it (a member of the group) is the front end's check.

        Args:
            token: The deep-link payload.
            user_id: The member.
            name: Their display name (kept for the results).
            language: Their UI language (reminders are written in it).

        Raises:
            UnknownHomework: a forged or garbage token.
            HomeworkClosed: the deadline passed (offer the quiz as practice).
            HomeworkCancelled: an admin cancelled it.
            UnknownBank: its quiz was taken down or deleted.
            StorageError: the storage could not be reached.
        """
        assignment = await self.by_token(token)
        for _ in range(3):
            self._check_open(assignment, self._clock())
            member = await self.store.member(assignment.id, user_id)
            if member is not None and member.counted:
                await self.store.refresh_member(
                    assignment.id, user_id, name=name, language=language
                )
                return await self._practice(assignment, user_id, language)
            if member is not None:
                active = await self.quiz.active(user_id)  # abandoned if its bank changed
                if active is not None and active.id == member.attempt_id:
                    await self.store.refresh_member(
                        assignment.id, user_id, name=name, language=language
                    )
                    attempt, updated = await self.quiz.current(active)
                    return Opened(assignment, attempt, counts=True, resumed=True, updated=updated)
                if self.exams is not None and await self.exams.submit_left(
                    member.attempt_id, user_id
                ):  # an exam is sat once: the one left counts as it was
                    assignment = await self.assignment(assignment.id)
                    continue
            attempt = await self._start(user_id, assignment, language)
            if await self.store.link_attempt(
                assignment.id,
                user_id,
                attempt.id,
                name=name,
                language=language,
                now=self._clock(),
                replacing=None if member is None else member.attempt_id,
            ):
                return Opened(
                    assignment, attempt, counts=True, resumed=False, restarted=member is not None
                )
            # closed meanwhile, or another open linked first: look again at what is stored
            assignment = await self.assignment(assignment.id)
        raise HomeworkClosed(assignment)  # the link kept losing: treat it as ended

    async def _start(self, user_id: int, assignment: Assignment, language: str) -> Attempt:
        """A member's homework attempt: an exam when the homework was set as one or its quiz
        has exam mode (its paper drawn, its timer started now), else a quiz's attempt."""
        if self.exams is not None:
            exam = await self.exams.for_homework(assignment.id, assignment.bank_id)
            if exam is not None:
                sitting = await self.exams.start(user_id, assignment.bank_id, exam, language)
                return sitting.attempt
        return await self.quiz.start(user_id, assignment.bank_id)

    async def _practice(self, assignment: Assignment, user_id: int, language: str) -> Opened:
        """A practice attempt at the homework's quiz: the user's active one when it is at that
        bank, else a new one (an exam, not counted, when the quiz has exam mode: such a quiz
        is always sat as an exam)."""
        active = await self.quiz.active(user_id)
        if active is not None and active.bank_id == assignment.bank_id:
            attempt, updated = await self.quiz.current(active)
            return Opened(assignment, attempt, counts=False, resumed=True, updated=updated)
        if self.exams is not None:
            _, own = await self.exams.exam_of(assignment.bank_id)
            if own is not None:
                sitting = await self.exams.start(user_id, assignment.bank_id, own, language)
                return Opened(assignment, sitting.attempt, counts=False, resumed=False)
        attempt = await self.quiz.start(user_id, assignment.bank_id)
        return Opened(assignment, attempt, counts=False, resumed=False)

    # --- the pass ------------------------------------------------------------------------------

    async def due(self, now: float | None = None) -> Due:
        """What the homework pass has to do at ``now`` (the service's clock when None): see
        :class:`~bot.features.homework.rules.Due`; up to :attr:`due_limit` items of each kind."""
        now = self._clock() if now is None else now
        limit, stale = self.due_limit, now - homework.SEND_LEASE  # older claims may be retaken
        progress = [
            Progress(a, a.finished)
            for a in await self.store.due_progress(now, min_seconds=PROGRESS_SECONDS, limit=limit)
            if progress_due(a, a.finished, now)
        ]
        reminders = []
        for assignment, member in await self.store.due_reminders(now, REMINDERS, limit=limit):
            left = (
                None
                if member.counted
                else reminder_due(assignment.deadline, member.opened_at, member.reminded, now)
            )
            if left is not None:
                reminders.append(Reminder(assignment, member, left))
        return Due(
            closing=await self.store.due_closing(now, limit=limit),
            announcing=await self.store.due_announcing(limit=limit, stale_before=stale),
            reporting=await self.store.due_reporting(limit=limit, stale_before=stale),
            progress=progress,
            reminders=reminders,
            finals=await self.store.due_finals(limit=limit),
        )

    async def close(self, assignment_id: int, *, early: bool) -> Assignment | None:
        """Close open homework: at its deadline (``early`` False: only if the deadline passed),
        or before it, by an admin (``early`` True: the deadline becomes now, so that attempts
        finished until now count). Its results are then due (:attr:`Due.announcing`).

        Returns:
            The closed homework, or None: it was not open (closed or cancelled already, or
            with ``early`` False not due yet): whoever closed it posts the results.
        """
        now = self._clock()
        return await self.store.close_assignment(assignment_id, now, due_by=None if early else now)

    async def mark_progress(self, progress: Progress) -> bool:
        """Claim a progress edit of :attr:`Due.progress` (do it only when True): the group
        message shows ``progress.finished`` from now on."""
        assignment = progress.assignment
        return await self.store.mark_progress(
            assignment.id, progress.finished, self._clock(), shown_at=assignment.shown_at
        )

    async def mark_reminded(self, reminder: Reminder) -> bool:
        """Claim a reminder of :attr:`Due.reminders` (send it only when True)."""
        return await self.store.mark_reminded(
            reminder.assignment.id, reminder.member.user_id, reminder.left
        )

    async def mark_announced(self, assignment_id: int) -> bool:
        """Claim the group results of closed homework (post them only when True, then
        :meth:`settle`): a claim not settled within :data:`~bot.features.homework.rules.SEND_LEASE`
        (the process died, or the send's result is unknown) may be claimed again."""
        now = self._clock()
        return await self.store.mark_announced(assignment_id, now, now - homework.SEND_LEASE)

    async def mark_reported(self, assignment_id: int) -> bool:
        """Claim the report of closed homework for the admin who set it (send the CSV and the
        item analysis only when True, then :meth:`settle`); a lease as for the results."""
        now = self._clock()
        return await self.store.mark_reported(assignment_id, now, now - homework.SEND_LEASE)

    async def settle(self, assignment_id: int, what: str, *, sent: bool) -> bool:
        """A claimed send (``what``: "results" or "report") went out (``sent``), or surely did
        not: its claim is released so that the next pass tries again."""
        return await self.store.settle_send(assignment_id, what, sent=sent, now=self._clock())

    async def mark_final(self, assignment_id: int) -> bool:
        """Claim the last edit of the group message of closed (results claimed) or cancelled
        homework (edit it into "closed" or "cancelled" only when True)."""
        return await self.store.mark_final(assignment_id, self._clock())

    async def results(self, assignment_id: int) -> HomeworkResults:
        """The homework's results as they stand (final once it is closed): see
        :class:`~bot.features.homework.rules.HomeworkResults`; the CSV's times are in the chat's
        time zone, its options in each member's language.

        Raises:
            UnknownHomework: no such homework.
        """
        assignment = await self.assignment(assignment_id)
        answers = await self.store.homework_answers(assignment.id)
        opened = len(await self.store.members(assignment.id))
        try:
            bank: Bank | None = await self.quiz.registry.bank(assignment.bank_id)
        except UnknownBank:
            bank = None
        zone = await self.zone(assignment.chat_id)
        terms: dict[int, ExamTerms] = {}
        if self.exams is not None:
            for attempt_id in dict.fromkeys(answer.attempt_id for answer in answers):
                found = await self.exams.terms(attempt_id)
                if found is not None:
                    terms[attempt_id] = found
        return summarize(assignment, opened, answers, bank, zone, terms)

    # --- admins' changes ---------------------------------------------------------------------

    async def extend(self, assignment_id: int, deadline: float) -> Assignment:
        """Move open homework's deadline to ``deadline`` (seconds since the epoch); members are
        reminded again before the new one.

        Raises:
            UnknownHomework: no such homework.
            HomeworkClosed, HomeworkCancelled: it is not open.
            DeadlinePast, DeadlineTooFar: see :func:`~bot.features.homework.rules.check_deadline`.
        """
        assignment = await self.assignment(assignment_id)
        now = self._clock()
        self._check_open(assignment, now)
        check_deadline(deadline, now)
        extended = await self.store.extend_assignment(assignment.id, deadline)
        if extended is None:
            self._check_open(await self.assignment(assignment_id), now)
            raise HomeworkClosed(assignment)
        return extended

    async def cancel(self, assignment_id: int) -> tuple[Assignment, list[Member]]:
        """Cancel open homework (after the admin confirmed): nothing of it counts, no results.
        The members' attempts stay, as ordinary private attempts.

        Returns:
            The cancelled homework, and the members with a homework attempt in progress (to
            be told privately).

        Raises:
            UnknownHomework: no such homework.
            HomeworkClosed, HomeworkCancelled: it is not open (nothing changed).
        """
        assignment = await self.assignment(assignment_id)
        if assignment.status == CANCELLED:
            raise HomeworkCancelled(assignment)
        if assignment.status != OPEN:
            raise HomeworkClosed(assignment)
        cancelled = await self.store.cancel_assignment(assignment.id, self._clock())
        if cancelled is None:
            self._check_open(await self.assignment(assignment_id), float("-inf"))
            raise HomeworkClosed(assignment)
        members = [
            m
            for m in await self.store.members(assignment.id)
            if not m.counted and m.attempt_status == engine.ACTIVE
        ]
        return cancelled, members

    async def move_chat(self, old_chat_id: int, new_chat_id: int) -> list[Assignment]:
        """A group became a supergroup: its homework moves to ``new_chat_id`` (the chat's time
        zone moves with the group's other settings, :meth:`bot.features.groups.ports.GroupStore.
        move_chat`). The group messages stay behind in the old chat: re-post the open ones
        (returned, with no message) and record them with :meth:`posted`."""
        return await self.store.move_assignments(old_chat_id, new_chat_id)
