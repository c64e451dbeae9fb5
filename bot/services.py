"""The services that live as long as the process: made once in post_init
(:func:`open_services`), installed in the application by :func:`install` (whole for the wiring,
:func:`services_of`; each by its type for the handlers, :func:`bot.telegram.common.reach`), and
closed in post_shutdown (:meth:`Services.close`).

The callbacks never build a service: they reach the ones they use by type, so that a feature's
handlers depend on its services, not on this module, which knows them all; the session runner,
the health server and the core services take what they need as arguments.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from bot import i18n
from bot.bankload.creators import parse_document
from bot.bankload.dump import dump_bank
from bot.checkpool import CheckPool
from bot.features.daily.ports import DailyStore
from bot.features.daily.service import DailyService
from bot.features.exams.ports import ExamStore
from bot.features.exams.service import ExamService
from bot.features.groups.ports import GroupStore, SessionLeases
from bot.features.groups.service import GroupService
from bot.features.groups.sessions import SessionRunner
from bot.features.homework.ports import HomeworkStore, TimeZoneStore
from bot.features.homework.service import HomeworkService
from bot.features.importing.service import ImportService
from bot.features.learning import chart
from bot.features.learning.ports import CardStore
from bot.features.learning.service import LearningService
from bot.features.myquizzes.edits import PollOriginals, QuizEdits
from bot.features.myquizzes.service import QuizzesService
from bot.features.myquizzes.translating import Translations
from bot.features.newquiz.service import CreatorService
from bot.features.preferences.ports import PreferenceStore
from bot.features.preferences.service import PreferencesService
from bot.features.privacy.ports import PrivacyStore
from bot.features.privacy.service import PrivacyService
from bot.features.private.service import QuizService
from bot.kernel.library import DraftStore, QuizLibrary
from bot.kernel.ports import QuizStore, ReportStore
from bot.kernel.registry import BankRegistry
from bot.telegram.common import Context, QuizApplication, app_of
from bot.telegram.jobsends import SharedSends
from bot.telegram.limits import QuizRateLimiter
from bot.telegram.monitoring import MonitoringServer, counted
from bot.telegram.ordering import PerUserOrderedProcessor

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Services:
    """The long-lived services of one application (``context.bot_data.services``)."""

    banks: BankRegistry
    """Every bank, shared by the services: the featured ones (swapped on a reload) and the
    created quizzes. Whoever publishes, updates, takes down or deletes a created quiz calls
    ``banks.forget(quiz_id)`` after storing it, so that the change is seen at once."""
    quiz: QuizService
    """Private quizzes: attempts, answers, retention."""
    preferences: PreferencesService
    """Users' language and answer flow, groups' language."""
    groups: GroupService
    """Group sessions and their settings."""
    learning: LearningService
    """Spaced review: cards, reminders, /stats."""
    privacy: PrivacyService
    """/deletemydata."""
    quizzes: QuizzesService
    """Created quizzes from their creator's side: /myquizzes and the files sent to the bot."""
    quiz_edits: QuizEdits
    """The /myquizzes prompts waiting for a creator's message."""
    originals: PollOriginals
    """The forwarded poll questions /myquizzes cleaned, for "Keep the original"."""
    translations: Translations
    """The languages makers are adding to their quizzes ("Add a language" in /myquizzes)."""
    store: OpenStore
    """The open storage (closed last)."""
    leases: Leases
    """The session and poller leases of the open storage."""
    sessions: SessionRunner
    """Moves the group sessions on (:mod:`bot.features.groups.sessions`)."""
    creators: CreatorService
    """/newquiz drafts."""
    homework: HomeworkService
    """Homework in groups: /assign, its deep links, the homework pass; chats' time zones."""
    exams: ExamService
    """Exam mode: exams started, answered without feedback, submitted at their deadline."""
    monitoring: MonitoringServer | None
    """``/healthz`` and ``/metrics`` (``--metrics``), not started yet when made."""
    chart_warm_up: asyncio.Task[None]
    """matplotlib's import and font loading, in a thread (the first /stats chart would pay it)."""
    daily: DailyService
    """The question of the day in groups and channels (:mod:`bot.features.daily.handlers`)."""
    checks: CheckPool
    """The created quizzes' checks, in a worker process (started on the first one)."""
    imports: ImportService
    """GIFT, Aiken, CSV and .xlsx files converted to created quizzes, in the checks' worker
    process; quizzes written as .xlsx files."""

    def changed_elsewhere(self, user_id: int | None) -> None:
        """Another instance changed what is stored about ``user_id`` (None: anyone may have):
        drop what the quiz and the preferences cache about them (told by the store's news of
        changes, ``storage.order``)."""
        self.quiz.changed_elsewhere(user_id)
        self.preferences.changed_elsewhere(user_id)

    def noted_elsewhere(self, attempt_id: int, what: str, value: int) -> None:
        """Another instance told what it sent of an attempt or a review card (the store's
        news, ``storage.order``): the quiz and spaced review note it
        (:meth:`QuizService.noted_elsewhere`, :meth:`LearningService.noted_elsewhere`)."""
        self.quiz.noted_elsewhere(attempt_id, what, value)
        self.learning.noted_elsewhere(attempt_id, what, value)

    async def close(self) -> None:
        """Stop the health server, write the review cards the last answers queued, close the
        storage (leases included); each is done even if one before it fails."""
        try:
            self.checks.close()
            if self.monitoring is not None:
                await self.monitoring.stop()
        finally:
            try:
                await self.learning.drain()
            finally:
                await self.store.close()


async def open_services(app: QuizApplication, store: OpenStore) -> Services:
    """Make the services of ``app`` over the open ``store`` (its settings, banks, metrics and
    clock are ``app.bot_data``'s). The store is closed if this fails.

    Raises:
        StorageError: the review cards could not be read.
    """
    data = app.bot_data
    settings, metrics = data.settings, data.metrics
    assert settings is not None and metrics is not None  # set by build_application
    assert app.job_queue is not None  # build_application gives one
    try:
        leases = store.leases()
        shared = store.send_budget(app.bot.id)
        limiter = app.bot.rate_limiter
        if shared is not None and isinstance(limiter, QuizRateLimiter):
            limiter.share(shared, app.bot.id)  # one budget for every instance of the bot
        banks = BankRegistry(data.banks, store, parse=parse_document)  # created quizzes: the store
        quiz = QuizService(store, banks, clock=data.clock)
        preferences = PreferencesService(store, clock=data.clock)
        groups = GroupService(
            store,
            banks,
            question_seconds=settings.question_seconds,
            languages=i18n.SUPPORTED,
            clock=data.clock,
        )
        learning = LearningService(store, banks, clock=data.clock)
        await learning.load()
        await learning.rebuild()  # the review cards of answers whose queued rating was lost
    except BaseException:
        await store.close()
        raise
    # ratings are queued and written in batches, after the feedback (see answered_soon); each
    # recorded answer is counted on its way there
    quiz.on_answer = counted(metrics, "private", learning.answered_soon)
    groups.on_answer = counted(metrics, "group", learning.answered_soon)
    processor = app.update_processor
    runner = SessionRunner(
        app.bot,
        app.job_queue,
        groups,
        leases,
        processor if isinstance(processor, PerUserOrderedProcessor) else None,
    )
    monitoring = (
        MonitoringServer(app, store, metrics, settings.metrics)
        if settings.metrics is not None
        else None
    )
    # a deletion forgets the user in every cache, queue and in-flight state first, and the
    # registry the quizzes they made
    privacy = PrivacyService(
        store,
        library=store,
        drafts=store,
        forget=(quiz.forget, preferences.forget, learning.forget, runner.forget_starter),
        quiz_changed=(banks.forget,),
        clock=data.clock,
    )
    # created quizzes: checked as `quizbot validate --strict` checks a bank file, in a worker
    # process (a large file holds no one's taps); each change makes the registry load the quiz
    # afresh
    checks = CheckPool()
    quizzes = QuizzesService(
        store,
        store,
        check=checks.check,
        parse=parse_document,
        dump=dump_bank,
        clock=data.clock,
        forget=banks.forget,
        featured=lambda bank_id: bank_id in banks.featured,
    )
    # /newquiz drafts, published through the quizzes service at /done
    creators = CreatorService(
        store,
        lambda owner, bank, language: quizzes.publish(owner, bank, language=language),
        clock=data.clock,
    )
    # homework: its attempts are private attempts of the quiz service; the store keeps both
    # homework and the chats' time zones
    # exams: private attempts of the quiz service, with their terms and deadlines
    exams = ExamService(quiz, store, clock=data.clock)
    homework = HomeworkService(store, store, quiz, clock=data.clock, exams=exams)
    return Services(
        banks=banks,
        quiz=quiz,
        preferences=preferences,
        groups=groups,
        learning=learning,
        privacy=privacy,
        quizzes=quizzes,
        quiz_edits=QuizEdits(store, data.clock),
        originals=PollOriginals(store, data.clock),
        translations=Translations(store, data.clock),
        creators=creators,
        homework=homework,
        exams=exams,
        store=store,
        leases=leases,
        sessions=runner,
        monitoring=monitoring,
        chart_warm_up=asyncio.create_task(asyncio.to_thread(chart.warm)),
        daily=DailyService(store, banks, clock=data.clock, zones=store),
        checks=checks,
        imports=ImportService(run=checks.run),
    )


class OpenStore(
    QuizStore,
    PreferenceStore,
    GroupStore,
    CardStore,
    PrivacyStore,
    QuizLibrary,
    DraftStore,
    ReportStore,
    DailyStore,
    HomeworkStore,
    TimeZoneStore,
    ExamStore,
    Protocol,
):
    """The open storage: the services' ports, and what the front end does with it besides
    (``storage``: ``SQLiteStore``, ``PostgresStore``; the handlers may not import it)."""

    def leases(self) -> Leases:
        """The session and poller leases over this storage."""
        ...

    def send_budget(self, bot_id: int) -> SharedSends | None:
        """The send budgets the instances sharing this storage keep together (None: this
        instance is the only one)."""
        ...

    async def check_writable(self) -> None:
        """Raise ``StorageError`` unless the database takes a write."""
        ...

    async def close(self) -> None:
        """Close the database (and the leases)."""
        ...


class Leases(SessionLeases, Protocol):
    """The session leases and the poller lease of the open storage (``storage/leases.py``:
    ``LocalLeases``, ``PostgresLeases``)."""

    async def wait_poller(self, bot_id: int, on_lost: Callable[[], None]) -> None:
        """Return once this instance holds the poller lease; ``on_lost()`` if it loses it."""
        ...


def install(app: QuizApplication, made: Services) -> None:
    """Put the services ``made`` in ``app.bot_data``: whole for the wiring
    (:func:`services_of`), and each by its type for the handlers
    (:func:`bot.telegram.common.reach`)."""
    app.bot_data.services = made
    app.bot_data.reachable = {
        type(service): service
        for service in (
            made.banks,
            made.quiz,
            made.preferences,
            made.groups,
            made.learning,
            made.privacy,
            made.quizzes,
            made.quiz_edits,
            made.originals,
            made.translations,
            made.creators,
            made.homework,
            made.exams,
            made.sessions,
            made.daily,
            made.imports,
        )
    }


def services_of(app: QuizApplication) -> Services:
    """The services of ``app``.

    Raises:
        RuntimeError: used before post_init made them, or after post_shutdown closed them.
    """
    made = app.bot_data.services
    if not isinstance(made, Services):
        raise RuntimeError("services not initialised (post_init has not run)")
    return made


def services(context: Context) -> Services:
    """The services, from a callback's or a job's context (see :func:`services_of`)."""
    return services_of(app_of(context))


def take_services(app: QuizApplication) -> Services | None:
    """Remove the services from ``app`` for closing them; None if post_init never made them."""
    made, app.bot_data.services = app.bot_data.services, None
    app.bot_data.reachable = {}
    return made if isinstance(made, Services) else None
