"""A created quiz's check in a worker process (bot/checkpool.py): the same result as in the
bot's own process, found in another process, and a worker that dies is replaced."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.bankload.creators import check_document
from bot.checkpool import CheckPool

BANK = (Path(__file__).resolve().parents[2] / "banks" / "deepspeed-megatron.yaml").read_text()


@pytest.fixture
def pool():
    made = CheckPool()
    yield made
    made.close()


def test_the_worker_checks_as_the_bot_would(pool):
    """A valid quiz and a broken one: the worker's answer is the in-process check's."""
    broken = BANK.replace("correct: true", "correct: maybe", 1)
    assert pool.check(BANK, "quiz.yaml") == check_document(BANK, "quiz.yaml")
    problems = pool.check(broken, "quiz.yaml")
    assert isinstance(problems, list) and problems == check_document(broken, "quiz.yaml")


def test_the_check_runs_in_another_process(pool):
    pool.check(BANK)
    assert pool._executor().submit(os.getpid).result() != os.getpid()


def test_a_worker_that_dies_is_replaced(pool):
    """A check that meets a dead worker fails; the next one has a new worker."""
    first = pool._executor().submit(os.getpid).result()
    os.kill(first, signal.SIGKILL)
    with pytest.raises(BrokenProcessPool):
        pool.check(BANK)
    assert pool.check(BANK) == check_document(BANK)
    assert pool._executor().submit(os.getpid).result() not in (first, os.getpid())


def _started_then_stuck(started) -> None:
    """A check that never ends (run in the worker): says it began, then sleeps."""
    started.set()
    time.sleep(600)


def test_closing_abandons_a_check_under_way(pool):
    """A stop does not wait for a check: the worker is stopped and the check fails."""
    with multiprocessing.Manager() as manager:
        started = manager.Event()
        running = pool._executor().submit(_started_then_stuck, started)
        started.wait()
        pool.close()
        assert isinstance(running.exception(), BrokenProcessPool)
