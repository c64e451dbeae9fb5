"""A database server that cannot be reached is a transient fault: how long the bot waits for
it to come back, which failures say it is unreachable, and the back-off of the reconnects.

Used at start-up (opening PostgreSQL) and by the poller lease (:mod:`storage.leases`), whose
connection a restart of the server breaks. A failure that is no outage (a refused login, a
database that does not exist, a migration that fails) is never retried.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping

import asyncpg
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_delay,
    wait_exponential,
)

OUTAGE_ENV = "QUIZBOT_DB_OUTAGE_SECONDS"
"""The environment variable overriding :data:`OUTAGE_SECONDS`."""

OUTAGE_SECONDS = 120.0
"""How long the bot waits for an unreachable database server (a restart, a failover) before
it gives up and exits non-zero, so that its supervisor restarts it, in seconds."""

MAX_WAIT = 5.0
"""Longest pause between two reconnects, in seconds (the pauses grow from 0.2 s)."""

_UNREACHABLE = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.CannotConnectNowError,
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.InterfaceError,
)
"""What a server that is down, restarting or out of reach raises (08xxx connection errors,
57P01-57P03: shut down, crashed, starting up; a connection closed under a query)."""


def outage_seconds(env: Mapping[str, str] = os.environ) -> float:
    """:data:`OUTAGE_SECONDS`, or ``QUIZBOT_DB_OUTAGE_SECONDS`` when set (a positive number).

    Raises:
        ValueError: the variable is set to something else (the message names it).
    """
    text = env.get(OUTAGE_ENV)
    if text is None:
        return OUTAGE_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise ValueError(f"{OUTAGE_ENV}={text!r}: not a positive number of seconds")
    return seconds


def unreachable(exc: BaseException) -> bool:
    """Whether ``exc``, or an exception it was raised from, says the database server could not
    be reached (rather than that it refused what was asked)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, _UNREACHABLE):
            return True
        seen = seen.__cause__
    return False


def reconnecting(seconds: float) -> AsyncRetrying:
    """Tenacity's retrying of an unreachable server for up to ``seconds``, with exponential
    back-off (0.2 s doubling up to :data:`MAX_WAIT`); the last failure is re-raised."""
    return AsyncRetrying(
        retry=retry_if_exception(unreachable),
        wait=wait_exponential(multiplier=0.2, max=MAX_WAIT),
        stop=stop_after_delay(seconds),
        reraise=True,
    )
