"""The JobQueue passes' wrapper (reminders, homework, the question of the day): their Bot API
calls are a job's own (:func:`bot.telegram.jobsends.job_calls`: one send budget, never dropped as
replies), and a storage outage ends a pass quietly until the next one."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from bot.kernel.ports import StorageError
from bot.telegram.common import Context
from bot.telegram.jobsends import JOB_SOON, job_calls

log = logging.getLogger(__name__)


OUTAGE_LOG_SECONDS = 60.0
"""A job that meets a storage outage says so at most once in this many seconds (it runs again
at its next interval, which is what retrying it means)."""

_OUTAGE_LOGGED: dict[str, float] = {}


def job_pass(
    callback: Callable[[Context], Coroutine[Any, Any, object]],
    clock: Callable[[], float] = time.monotonic,
    *,
    turn: int = JOB_SOON,
) -> Callable[[Context], Coroutine[Any, Any, None]]:
    """A JobQueue pass: its sends are a job's own (``jobsends.job_calls``, in ``turn``), and a
    storage outage (``StorageError``: PostgreSQL down, a locked SQLite) ends the pass with one
    WARNING line per :data:`OUTAGE_LOG_SECONDS`, without a traceback; the next interval tries
    again (two tracebacks a second otherwise, from jobs that run every second)."""

    @functools.wraps(callback)
    async def run(context: Context) -> None:
        try:
            with job_calls(turn):
                await callback(context)
        except StorageError as exc:
            name, now = callback.__name__, clock()
            if now - _OUTAGE_LOGGED.get(name, -OUTAGE_LOG_SECONDS) >= OUTAGE_LOG_SECONDS:
                _OUTAGE_LOGGED[name] = now
                log.warning(
                    "%s: storage unavailable, trying again at the next pass (said "
                    "once a minute while it lasts): %s",
                    name,
                    exc,
                )

    return run
