"""The bot's life: :func:`serve` starts it (by webhook or long polling, with the poller lease),
runs it until a :class:`StopRequest` (SIGTERM, SIGINT, or a fault it cannot get over), and
stops it in bounded steps (:data:`STOP_SECONDS` each), so that a stop is prompt and a fault
ends the process with a non-zero status for its supervisor."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import weakref
from collections.abc import Awaitable, Callable

from bot.config import Settings
from bot.services import services_of
from bot.telegram.common import QuizApplication
from bot.telegram.ordering import PerUserOrderedProcessor
from bot.telegram.webhook import WebhookServer

log = logging.getLogger(__name__)


async def wait_to_poll(app: QuizApplication) -> None:
    """Several instances share the database: Telegram serves one getUpdates consumer per bot,
    so only the instance holding the poller lease polls (and so handles every update, each
    user's in order). Until this one holds it, it runs the group sessions it holds (its job
    queue is started early); once it does, it adopts the sessions nobody holds (their instance
    died) and returns, and polling starts. If its connection to the database drops, the lease
    is taken again once the database is back (:mod:`storage.leases`); if another instance took
    it meanwhile, or the database stays away too long, this one stops with a non-zero exit
    status (a supervisor restarts it, and it waits for the lease), so that two never poll at
    once."""
    made = services_of(app)
    assert app.job_queue is not None
    await app.job_queue.start()  # idempotent: app.start() starts it again (a no-op)
    log.info("waiting for the poller lease (another instance may be polling)")
    await made.leases.wait_poller(app.bot.id, on_lost=lambda: _poller_lost(app))
    log.info("this instance polls now")
    await made.sessions.check_all()


def _poller_lost(app: QuizApplication) -> None:
    request_stop(app, "the poller lease is lost (another instance may poll now)")


async def close_transports(app: QuizApplication) -> None:
    """Close the Bot API transports (idempotent): PTB leaves them open when its start fails."""
    for request in app.bot_data.transports:
        await request.shutdown()


def webhook_server(app: QuizApplication, settings: Settings) -> WebhookServer:
    """The webhook server for ``settings`` (webhook mode): it listens on ``settings.listen``,
    serves the webhook URL's path, and tells Telegram the URL, the secret and
    :data:`ALLOWED_UPDATES` (pending updates are kept, as with polling: what users sent while
    the bot was down is still answered). Telegram sends ``secret_token`` in the
    ``X-Telegram-Bot-Api-Secret-Token`` header of every webhook request (Bot API,
    setWebhook); the server answers 403 to a request without it, before reading its body.
    """
    return WebhookServer(app, settings, list(ALLOWED_UPDATES))


STOP_SECONDS = 5.0
"""How long each network step of a stop may take, in seconds: the last getUpdates (which
confirms the updates fetched), or the updates in flight finishing their calls. Past it the
step is given up (logged), so that a stop ends within seconds whatever the network does;
writing the queued review ratings and closing storage (local) always run after it."""


MAX_STOP_SECONDS = 4 * STOP_SECONDS
"""The longest a stop takes, in seconds: three bounded steps (the updates, the updates in
flight, PTB's shutdown), then writing the queued ratings and closing storage. A supervisor's
stop timeout must be longer (``deploy/quizbot.service``, ``compose.yaml``)."""


class StopRequest(asyncio.Event):
    """Set when the bot is to stop: by a stop signal (exit status 0), or by a fault it cannot
    get over (:meth:`fail`: a non-zero exit status, so that a supervisor restarts it).

    Attributes:
        status: The exit status the process should end with.
        reason: Why the bot stops, for the log (None: a stop signal or a test).
    """

    def __init__(self) -> None:
        super().__init__()
        self.status = 0
        self.reason: str | None = None

    def signal(self, name: str) -> None:
        """A stop signal (SIGTERM, SIGINT) arrived: stop (a second one is only logged)."""
        if self.is_set():
            log.info("%s: stopping already", name)
            return
        log.info("%s: stopping", name)
        self.set()

    def fail(self, reason: str, status: int = 1) -> None:
        """Stop because of ``reason`` (logged as an error), ending with ``status``."""
        log.error("%s: stopping (exit status %d)", reason, status)
        if not self.is_set():
            self.status, self.reason = status, reason
            self.set()


def request_stop(app: QuizApplication, reason: str, status: int = 1) -> None:
    """Stop ``app`` (run by :func:`serve`) because of a fault it cannot get over, with exit
    status ``status``; an application not served (yet) stops when :func:`serve` starts it."""
    stop = _STOPS.get(app)
    if stop is None:
        stop = _STOPS[app] = StopRequest()
    stop.fail(reason, status)


async def unless_stopped(step: Awaitable[object], stop: asyncio.Event) -> bool:
    """Await ``step`` unless ``stop`` is set first (then ``step`` is cancelled and awaited):
    whether it completed.

    Raises:
        Exception: whatever ``step`` raised.
    """
    task = asyncio.ensure_future(step)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait({task, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:  # also when the caller is cancelled
        stopped.cancel()
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task  # its own cleanup (a store half open is closed)
    if task.cancelled():
        return False
    task.result()
    return True


async def serve(app: QuizApplication, stop: asyncio.Event, *, poll_timeout: float = 10.0) -> None:
    """Run ``app`` until ``stop`` is set (what ``run_polling`` does, with the stop signals left
    to the caller): with the bot's webhook server when its settings have a ``webhook_url``
    (:func:`webhook_server`), else with long polling.

    A stop is prompt and complete whenever it comes: during the start (``getMe``, opening
    storage, waiting for the poller lease) the start is cancelled; then the updates stop
    (their last getUpdates bounded by :data:`STOP_SECONDS`), the updates in flight finish
    (bounded too), and ``post_shutdown`` always runs (the queued review ratings written,
    storage closed), even if a step before it failed. PTB's own ``run_polling`` raises
    ``SystemExit`` from its signal handler into whatever runs, so that a second signal
    during the stop skipped closing storage (and the process never exited), and with uvloop
    a signal that arrives between its steps was lost.

    Args:
        stop: Set to stop (a :class:`StopRequest` to give an exit status).
        poll_timeout: getUpdates long-polling timeout, in seconds.

    Raises:
        Exception: the start failed (after the stop's steps ran).
    """
    settings = app.bot_data.settings
    assert settings is not None  # set by build_application
    webhook = webhook_server(app, settings) if settings.webhook_url else None
    faults = _STOPS.setdefault(app, StopRequest())  # request_stop's, for a fault
    relay = asyncio.ensure_future(_relay(faults, stop))
    try:
        if await unless_stopped(_start(app, settings, webhook, poll_timeout), stop):
            await stop.wait()
    finally:
        relay.cancel()
        _STOPS.pop(app, None)
        await _stop(app, webhook)


async def _relay(source: asyncio.Event, target: asyncio.Event) -> None:
    """Set ``target`` once ``source`` is (with its exit status, if both are requests)."""
    await source.wait()
    if isinstance(source, StopRequest) and isinstance(target, StopRequest):
        if not target.is_set():
            target.status, target.reason = source.status, source.reason
    target.set()


async def _start(
    app: QuizApplication, settings: Settings, webhook: WebhookServer | None, poll_timeout: float
) -> None:
    """PTB's start: initialize, post_init, the updates (the bot's webhook server, or PTB's
    updater polling), the application. The webhook's port is bound before post_init, so that
    a port in use fails before the bot says it is ready."""
    await app.initialize()
    if webhook is not None:
        webhook.bind()
    if app.post_init:
        await app.post_init(app)
    if webhook is not None:
        await webhook.start()
    else:
        assert app.updater is not None  # build_application's polling application has one
        await app.updater.start_polling(
            poll_interval=0.0,
            timeout=int(poll_timeout),
            drop_pending_updates=False,
            allowed_updates=list(ALLOWED_UPDATES),
        )
    await app.start()


class PollAfterStop(logging.Filter):
    """Turns PTB's CRITICAL "Updater stopped unexpectedly" into the INFO line it is after our
    own stop: a getUpdates answered with updates just after ``Updater.stop`` began (a race
    inside PTB's polling loop) leaves those updates unconfirmed, so Telegram sends them again
    at the next start; nothing is lost and nothing is wrong. Other records pass unchanged."""

    PTB_TEXT = "Updater stopped unexpectedly"
    """The start of PTB's message (``telegram/ext/_updater.py``, ``polling_action_cb``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite PTB's record in place; keep every record."""
        if record.levelno == logging.CRITICAL and str(record.msg).startswith(self.PTB_TEXT):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = (
                "stop: the updates of the last poll came after the stop began; "
                "they are left unconfirmed, so Telegram sends them again at the next "
                "start"
            )
            record.args = None
        return True


_POLL_AFTER_STOP = PollAfterStop()


async def _stop(app: QuizApplication, webhook: WebhookServer | None) -> None:
    """PTB's stop, each step bounded and run whatever the one before did: the updates (the
    webhook server or the updater), the application (updates in flight), its shutdown, then
    ``post_shutdown``."""
    updater = app.updater
    logging.getLogger("telegram.ext.Updater").addFilter(_POLL_AFTER_STOP)  # once: a set
    steps: list[tuple[str, Callable[[], Awaitable[object]], float | None]] = [
        ("stopping the webhook server", webhook.stop, STOP_SECONDS)
        if webhook is not None
        else ("", _nothing, None),
        ("stopping the updates", updater.stop, STOP_SECONDS)
        if updater is not None and updater.running
        else ("", _nothing, None),
        ("finishing the updates in flight", app.stop, STOP_SECONDS)
        if app.running
        else ("", _nothing, None),
        ("shutting the application down", app.shutdown, STOP_SECONDS),
    ]
    for what, step, seconds in steps:
        try:
            async with asyncio.timeout(seconds):
                await step()
        except TimeoutError:
            log.warning("stop: %s took longer than %.0f s: given up", what, seconds)
            processor = app.update_processor
            if step == app.stop and isinstance(processor, PerUserOrderedProcessor):
                cancelled = await processor.cancel_in_flight()  # before storage closes
                log.warning("stop: %d update(s) still in flight cancelled", cancelled)
        except Exception:
            log.exception("stop: %s failed", what)
    if app.post_shutdown:
        await app.post_shutdown(app)
    log.info("stopped")


async def _nothing() -> None:
    """A step with nothing to do."""


ALLOWED_UPDATES = ("message", "callback_query", "my_chat_member", "inline_query")
# channel posts are not asked for: the question of the day needs only taps on the bot's own
# posts (callback queries) and the bot's membership (my_chat_member)
"""The update types asked of Telegram (``allowed_updates`` of getUpdates and setWebhook): the
handlers' (commands, button taps, the bot added to or removed from a chat, inline queries
"@<bot> text" to share a quiz). Edited messages, channel posts, chosen inline results and the
rest are never sent to the bot."""


_STOPS: weakref.WeakKeyDictionary[QuizApplication, StopRequest] = weakref.WeakKeyDictionary()
"""The stop request of each application :func:`serve` runs (how a fault deep in it stops it)."""


YOUNG_GENERATION_THRESHOLD = 20_000
"""Allocations (less deallocations) of container objects between two collections of the
youngest generation (CPython's default is 700): each update makes many short-lived objects
(PTB's objects of it, its request and answer) that die on their own; collecting them less
often costs less in all, and each collection surviving to the older generations happens
less often too."""


def settle_memory() -> None:
    """After start-up: move everything start-up made (the banks, catalogs, compiled patterns,
    PTB's handlers) to the collector's permanent generation (:func:`gc.freeze`), so that no
    later collection scans it again; and collect the youngest generation less often
    (:data:`YOUNG_GENERATION_THRESHOLD`). Full collections then scan only what the bot made
    since it started, and pause the event loop for that much. No collection first: in a
    process that holds more than the bot (the tests' own), a full collection at each start
    would cost more than the little start-up garbage it frees."""
    global _thresholds
    gc.freeze()
    if _thresholds is None:
        _thresholds = gc.get_threshold()
        gc.set_threshold(YOUNG_GENERATION_THRESHOLD, *_thresholds[1:])


def unsettle_memory() -> None:
    """Undo :func:`settle_memory` once the bot stopped: what it froze is collected as usual
    again (a process that starts a bot several times, as the tests do, leaks none of it)."""
    global _thresholds
    gc.unfreeze()
    if _thresholds is not None:
        gc.set_threshold(*_thresholds)
        _thresholds = None


_thresholds: tuple[int, int, int] | None = None
"""The collector's thresholds before :func:`settle_memory` changed them."""
