"""The real quizbot as a separate process against the fake Bot API server, and free ports."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.support.fakebotapi import FakeBotAPI

__all__ = ["HeldCalls", "free_port", "start_bot_process"]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def start_bot_process(
    fake: FakeBotAPI,
    db: Path | str,
    log: Path,
    *,
    env: dict[str, str] | None = None,
    ready: Callable[[], object] | None = None,
) -> asyncio.subprocess.Process:
    """Start the real `quizbot run` process against ``fake``; return once it is polling (or
    once ``ready()`` is true). ``db``: a SQLite file or a PostgreSQL URL; ``env``: more
    environment variables (webhook, metrics).

    Raises:
        AssertionError: the process ended first (with its log), or was not ready in 30 s.
    """
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "QUIZBOT_DB": str(db),
        **(env or {}),
    }
    with log.open("ab") as out:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            env=env,
            stdout=out,
            stderr=out,
            stdin=subprocess.DEVNULL,
        )
    ready = ready or (lambda: fake.polling)
    await fake.wait_for(
        lambda: ready() or proc.returncode is not None, timeout=30, recheck=0.1
    )  # the process may exit without a call
    assert proc.returncode is None, log.read_text()
    return proc


class HeldCalls:
    """Calls held on their way to the fake Bot API until the end of the test (a request that
    never reaches Telegram: its sender is killed meanwhile), through the fake's simulated
    latency (``delay``, ``delay_chat``): ``fake.sleep`` waits for an event nobody sets."""

    def __init__(self, fake: FakeBotAPI) -> None:
        self.fake = fake
        self._never = asyncio.Event()

    async def _hold(self, _seconds: float) -> None:
        await self._never.wait()

    def polls(self) -> None:
        """Hold every getUpdates from now on (their offsets never confirm anything)."""
        self.fake.sleep = self._hold
        self.fake.delay(1.0, {"getUpdates"})

    def chat(self, chat_id: int) -> None:
        """Hold every call about ``chat_id`` from now on."""
        self.fake.sleep = self._hold
        self.fake.delay_chat(chat_id, 1.0)

    def release(self, *chats: int) -> None:
        """No more holding for calls to come (those held stay so: their sender is gone)."""
        self.fake.delay(0.0)
        for chat_id in chats:
            self.fake.delay_chat(chat_id, 0.0)
        self.fake.sleep = asyncio.sleep
