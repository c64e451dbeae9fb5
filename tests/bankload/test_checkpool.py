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


async def test_a_sent_file_is_converted_in_the_worker_as_in_the_bot(pool):
    """The import service with the pool's ``run`` converts a CSV as the conversion in the
    bot's own process does, in another process; a file over the question limit is refused."""
    from bot.features.importing import rules
    from bot.features.importing.service import ImportService

    csv = "prompt,A,B,correct\nWhat is the capital of France?,Paris,Lyon,A\n"
    fields = {"language": "en", "title": "Capitals", "description": "Cities", "limit": 200}
    in_worker = await ImportService(run=pool.run).convert("csv", csv, **fields)
    assert in_worker == rules.convert("csv", csv, **fields)
    assert isinstance(in_worker, rules.Converted) and in_worker.skipped == 0
    assert pool.run(os.getpid) != os.getpid()
    too_many = await ImportService(run=pool.run).convert("csv", csv, **{**fields, "limit": 0})
    assert too_many == rules.TooManyQuestions(1, 0)
    aiken = "Which city is the capital of France?\nA. Paris\nB. Lyon\nANSWER: A\n"
    assert isinstance(await ImportService().convert("txt", aiken, **fields), rules.Converted)
    assert await ImportService().convert("txt", "no question here", **fields) == (
        rules.NoneConverted(1)  # GIFT: one block, not a question
    )
