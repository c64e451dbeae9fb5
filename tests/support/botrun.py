"""The real quizbot ``Application`` against the fake Bot API server, started and stopped in the
test's own event loop (the ``running_bot`` fixture of ``tests/conftest.py`` makes one)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.app import build_application
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS, Address, Settings
from bot.lifecycle import serve
from bot.telegram.common import QuizApplication
from tests.support.fakebotapi import FakeBotAPI
from tests.support.processes import free_port

MODES = ("polling", "webhook")
"""How the bot gets its updates: ``@pytest.mark.parametrize("running_bot", MODES,
indirect=True)`` runs a test in both."""


@dataclass
class RunningBot:
    """The real quizbot ``Application`` against the fake server, started and stopped in-process.

    Attributes:
        mode: ``"polling"`` (getUpdates) or ``"webhook"``: the fake POSTs each update to the
            bot's webhook server on a free loopback port, with the secret token.
        metrics: Where the bot serves /healthz and /metrics; None: not served.
        clock: The services' clock (``BotData.clock``); None: the real one.
        reminder_interval: Seconds between reminder passes (``BotData.reminder_interval``);
            None: the bot's.
        daily_interval: Seconds between question-of-the-day passes
            (``BotData.daily_interval``); None: the bot's.
        homework_interval: Seconds between homework passes (``BotData.homework_interval``);
            None: the bot's.
        exam_interval: Seconds between the exams' passes (``BotData.exam_interval``); None:
            the bot's.
    """

    fake: FakeBotAPI
    db: Path
    bank_paths: tuple[Path, ...] = (BUNDLED_BANKS,)
    question_seconds: float = 30.0
    mode: str = "polling"
    metrics: Address | None = None
    clock: Callable[[], float] | None = None
    reminder_interval: float | None = None
    daily_interval: float | None = None
    homework_interval: float | None = None
    exam_interval: float | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None
    _port: int = 0
    app: QuizApplication | None = None

    @property
    def webhook_url(self) -> str | None:
        """The bot's webhook URL in webhook mode (the same port across restarts), else None."""
        if self.mode != "webhook":
            return None
        self._port = self._port or free_port()
        return f"http://127.0.0.1:{self._port}/tg-hook"

    async def start(self) -> RunningBot:
        """Build and start the bot; return once it is long polling, or once its webhook is
        set and the bot is running."""
        assert self.mode in MODES, self.mode
        url = self.webhook_url
        settings = Settings(
            token=self.fake.token,
            base_url=self.fake.base_url,
            db=self.db,
            banks=self.bank_paths,
            question_seconds=self.question_seconds,
            webhook_url=url,
            metrics=self.metrics,
            listen=Address("127.0.0.1", self._port or 8443),
            webhook_secret="test-secret_0123456789" if url else None,
        )
        app = self.app = build_application(settings, load_banks(self.bank_paths))
        if self.clock is not None:
            app.bot_data.clock = self.clock
        app.bot_data.reminder_interval = self.reminder_interval
        app.bot_data.daily_interval = self.daily_interval
        app.bot_data.homework_interval = self.homework_interval
        app.bot_data.exam_interval = self.exam_interval
        self._stop = asyncio.Event()
        task = self._task = asyncio.create_task(serve(app, self._stop, poll_timeout=1))
        task.add_done_callback(lambda _: self.fake.signal())  # wakes the waits below
        if url is None:
            await self.fake.wait_for(lambda: self.fake.polling or task.done(), timeout=10)
        else:
            await self.fake.wait_for(
                lambda: task.done() or (app.running and self.fake.webhook_url == url),
                timeout=10,
                recheck=0.05,
            )
        if task.done():
            task.result()  # raise what went wrong
        return self

    async def stop(self) -> None:
        """Stop polling and shut the bot down (storage closed)."""
        if self._task is not None:
            self._stop.set()
            await asyncio.wait_for(self._task, timeout=15)
            self._task = None

    async def restart(self) -> RunningBot:
        """Stop and start again on the same database (a deploy, or a crash between updates)."""
        await self.stop()
        return await self.start()
