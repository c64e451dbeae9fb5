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


class PassStillRunning(logging.Filter):
    """Drops APScheduler's WARNING "Execution of job ... skipped: maximum number of running
    instances reached": a pass (one instance at a time, by design) still sending when its next
    interval comes, as a reminders' pass does for as long as the send budget paces its
    reminders, is not a problem, and said every second it would bury the log. Other records
    pass unchanged. Installed on the ``apscheduler.scheduler`` logger by
    :func:`quiet_passes_still_running`."""

    TEXT = "maximum number of running instances reached"
    """Part of APScheduler's message (``apscheduler/schedulers/base.py``, ``_process_jobs``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Whether to keep ``record``: all but APScheduler's "still running" warning."""
        return self.TEXT not in record.getMessage()


_STILL_RUNNING = PassStillRunning()


def quiet_passes_still_running() -> None:
    """Install :class:`PassStillRunning` (once: a logger's filters are a set)."""
    logging.getLogger("apscheduler.scheduler").addFilter(_STILL_RUNNING)


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
