"""Health and metrics: ``/healthz`` and Prometheus ``/metrics`` on ``--metrics HOST:PORT``.

The counters are prometheus-client's (:class:`~bot.telegram.metrics.Metrics`), in a registry
per application (several bots in one test process do not mix). They are fed by thin wrappers
around the parts every update and call passes through, so the handlers know nothing of them:

* :class:`MeteredProcessor` (the update processor): updates handled, by type, and the tap-to-
  feedback latency: from a callback query reaching the bot (stamped on arrival, before it waits
  for its turn) to the end of its handling (query answered, feedback edited or sent);
* :class:`MeteredRequest` (the Bot API transport): calls and errors by method, 429s;
* :func:`counted` (the services' hook called once per recorded answer): answers recorded
  (private and group);
* the number of active group sessions is read from storage at each scrape.

``/healthz`` answers 200 when the bot is receiving updates (its updater runs: polling, or the
webhook server) and the database takes a write within :data:`HEALTH_TIMEOUT` seconds, else
503; the body is a short JSON object saying which.

The server is aiohttp's (already the Bot API transport) on the bot's own event loop, so the
health check awaits the real storage; the metrics text is prometheus-client's
``generate_latest``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sized
from typing import Any, Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from telegram import Update

from bot.config import Address
from bot.kernel.ports import AnswerHook, StorageError
from bot.telegram.common import QuizApplication
from bot.telegram.metrics import Metrics
from bot.telegram.ordering import PerUserOrderedProcessor
from bot.telegram.transport import AiohttpRequest


class HealthStore(Protocol):
    """What ``/healthz`` and ``/metrics`` ask of the open storage (``bot.services.OpenStore``
    has it)."""

    async def check_writable(self) -> None:
        """Raise ``StorageError`` unless the database takes a write."""
        ...

    async def active_sessions(self) -> Sized:
        """The group sessions under way (counted for ``/metrics``)."""
        ...


log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 10.0
"""Seconds the health check waits for its test write before answering 503 (longer than
storage's busy timeout, so that a locked database is reported as such)."""


def update_type(update: object) -> str:
    """The update's type (``message``, ``callback_query``, ...), ``other`` if none."""
    if isinstance(update, Update):
        for name in (
            "message",
            "callback_query",
            "my_chat_member",
            "inline_query",
            "edited_message",
            "channel_post",
            "chat_member",
        ):
            if getattr(update, name, None) is not None:
                return name
    return "other"


class MeteredProcessor(PerUserOrderedProcessor):
    """:class:`PerUserOrderedProcessor` that counts updates and times button taps."""

    def __init__(self, metrics: Metrics, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics

    async def do_process_update(self, update: object, coroutine: Any) -> None:
        """Handle the update as :class:`PerUserOrderedProcessor` does, then count it (and time
        it from its arrival, for a callback query)."""
        received = self._clock()
        try:
            await super().do_process_update(update, coroutine)
        finally:
            kind = update_type(update)
            self.metrics.updates.labels(kind).inc()
            if kind == "callback_query":
                self.metrics.feedback_latency.observe(max(0.0, self._clock() - received))


class MeteredRequest(AiohttpRequest):
    """:class:`AiohttpRequest` that counts calls, errors and 429s by Bot API method."""

    def __init__(self, metrics: Metrics, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.metrics = metrics
        self._calls: dict[str, Any] = {}  # method -> its counter (prometheus' labels())

    async def do_request(
        self, url: str, method: str, *args: Any, **kwargs: Any
    ) -> tuple[int, bytes]:
        """Send the request (see :meth:`AiohttpRequest.do_request`) and count it; the method
        is the URL's last part (the URL holds the token: it is never used as a label)."""
        name = url.rsplit("/", 1)[-1] or "unknown"
        counter = self._calls.get(name)
        if counter is None:  # labels() takes a lock and builds a key: once per method
            counter = self._calls[name] = self.metrics.api_calls.labels(name)
        counter.inc()
        try:
            status, body = await super().do_request(url, method, *args, **kwargs)
        except Exception:
            self.metrics.api_errors.labels(name, "network").inc()
            raise
        if status >= 400:
            self.metrics.api_errors.labels(name, str(status)).inc()
        if status == 429:
            self.metrics.rate_limited.labels(name).inc()
        return status, body


def counted(metrics: Metrics, chat: str, hook: AnswerHook) -> AnswerHook:
    """``hook`` (a service's ``on_answer``: called once per recorded answer), counting each
    answer in ``quizbot_answers_recorded`` under ``chat`` (``private`` or ``group``) first."""
    answers = metrics.answers.labels(chat)

    async def on_answer(
        user_id: int, bank_id: str, question_id: str, correct: bool, answered_at: float
    ) -> object:
        answers.inc()
        return await hook(user_id, bank_id, question_id, correct, answered_at)

    return on_answer


class MonitoringServer:
    """``/healthz`` and ``/metrics`` for ``app``, served by aiohttp at ``address``.

    Args:
        app: The bot (its updater, and its settings).
        store: The open storage (its test write; the group sessions it holds).
        metrics: The metrics to serve.
        address: Where to listen.
    """

    def __init__(
        self, app: QuizApplication, store: HealthStore, metrics: Metrics, address: Address
    ) -> None:
        self.app = app
        self.store = store
        self.metrics = metrics
        self.address = address
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Start listening.

        Raises:
            OSError: the address cannot be bound (in use, not local).
        """
        server = web.Application()
        server.router.add_get("/healthz", self.healthz)
        server.router.add_get("/metrics", self.metrics_page)
        self._runner = web.AppRunner(server, handle_signals=False, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.address.host, self.address.port).start()
        log.info("health and metrics on http://%s/healthz and /metrics", self.address)

    async def stop(self) -> None:
        """Stop listening (idempotent)."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def health(self) -> tuple[bool, dict[str, object]]:
        """Whether the bot is healthy, and the details: ``updates`` (``polling`` or
        ``webhook`` when running, else ``stopped``) and ``database`` (``writable`` or the
        error)."""
        updater = self.app.updater  # None in webhook mode: the bot's own server serves then
        running = bool((updater is None or updater.running) and self.app.running)
        settings = self.app.bot_data.settings
        mode = "webhook" if settings is not None and settings.webhook_url else "polling"
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT):
                await self.store.check_writable()
            database = "writable"
        except (StorageError, TimeoutError) as exc:
            database = f"not writable: {exc or 'timed out'}"
        healthy = running and database == "writable"
        return healthy, {
            "status": "ok" if healthy else "unhealthy",
            "updates": mode if running else "stopped",
            "database": database,
        }

    async def healthz(self, request: web.Request) -> web.Response:
        """GET /healthz: 200 or 503 with the JSON of :meth:`health`."""
        healthy, body = await self.health()
        return web.Response(
            status=200 if healthy else 503, text=json.dumps(body), content_type="application/json"
        )

    async def metrics_page(self, request: web.Request) -> web.Response:
        """GET /metrics: Prometheus's text format."""
        try:
            self.metrics.group_sessions.set(len(await self.store.active_sessions()))
        except StorageError as exc:
            log.warning("metrics: cannot count the group sessions: %s", exc)
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
