"""The JobQueue passes (bot/telegram/jobpass.py): a pass still running when its next interval
comes is skipped by APScheduler, by design, and that is not logged as a warning every second."""

from __future__ import annotations

import asyncio
import logging

from apscheduler.events import EVENT_JOB_MAX_INSTANCES

from bot.telegram.jobpass import job_pass


async def test_a_pass_still_running_at_its_next_interval_logs_no_warning(running_bot, caplog):
    """A pass that outlasts its interval (a reminders' pass paced by the send budget) makes
    APScheduler skip the next run; the running bot drops that warning, and logs nothing else
    about it."""
    app = running_bot.app
    assert app is not None and app.job_queue is not None
    release, skipped = asyncio.Event(), asyncio.Event()
    app.job_queue.scheduler.add_listener(lambda _: skipped.set(), EVENT_JOB_MAX_INSTANCES)

    async def slow_pass(_context: object) -> None:
        await release.wait()

    caplog.set_level(logging.INFO)
    job = app.job_queue.run_repeating(
        job_pass(slow_pass), interval=0.05, first=0.0, job_kwargs={"max_instances": 1}
    )
    await asyncio.wait_for(skipped.wait(), 10)
    release.set()
    job.schedule_removal()
    assert not [r for r in caplog.records if "maximum number of running" in r.getMessage()]
    logging.getLogger("apscheduler.scheduler").warning("another warning of APScheduler")
    assert "another warning of APScheduler" in caplog.text  # the rest is kept
