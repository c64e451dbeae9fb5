"""A created quiz's check, and a sent file's conversion, in a process of its own: a large file
sent to the bot is converted (:func:`bot.features.importing.rules.convert`), read and checked
(:func:`bot.bankload.creators.check_document`) without holding the bot's interpreter, so that
the other users' taps are answered meanwhile (issue 31: the check of a large valid file held
every tap while it ran in a thread).

One worker process, started on the first check (``forkserver``: a clean process, none of the
bot's threads or sockets), used one check at a time, replaced if it dies.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.bankload.creators import check_document
from bot.bankload.problems import BankProblem
from bot.kernel.bank import Bank

log = logging.getLogger(__name__)

T = TypeVar("T")


class CheckPool:
    """Checks created quizzes in a worker process (:meth:`check`, the signature of
    :func:`~bot.bankload.creators.check_document`, to be called from a thread: it blocks
    until the worker answers, with the interpreter free meanwhile)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                context = multiprocessing.get_context("forkserver")
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=context)
            return self._pool

    def check(self, document: str, file: str = "<quiz>") -> Bank | list[BankProblem]:
        """``check_document(document, file)``, run in the worker process.

        Raises:
            BrokenProcessPool: the worker died during the check (it is replaced for the next
                one).
        """
        return self.run(check_document, document, file)

    def run(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)`` (a module-level function, picklable arguments and
        result), run in the worker process, one call at a time.

        Raises:
            BrokenProcessPool: the worker died during the call (it is replaced for the next
                one); what ``function`` raises.
        """
        pool = self._executor()
        try:
            return pool.submit(function, *args, **kwargs).result()
        except BrokenProcessPool:
            log.error(
                "the worker process died (%s); starting another", getattr(function, "__name__", "?")
            )
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        """Stop the worker at once: a check under way is abandoned (its caller gets
        ``BrokenProcessPool``), so that a stop is prompt whatever is being checked; idempotent."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is None:
            return
        running = getattr(pool, "_processes", None) or {}  # no public way before Python 3.14
        workers = list(running.values())
        pool.shutdown(wait=False, cancel_futures=True)
        for worker in workers:
            worker.terminate()
