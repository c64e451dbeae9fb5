"""/healthz and Prometheus /metrics of the running bot, scraped over HTTP."""

from __future__ import annotations

import sqlite3

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.config import Address
from tests.support.botrun import MODES, RunningBot
from tests.support.person import Person
from tests.support.processes import free_port

GROUP = -1009876543210


async def scrape(runner: RunningBot) -> dict[tuple[str, tuple], float]:
    """The bot's /metrics, as (sample name, sorted labels) -> value."""
    assert runner.metrics is not None
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://{runner.metrics}/metrics") as response:
            assert response.status == 200
            text = await response.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def health(runner: RunningBot) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://{runner.metrics}/healthz") as response:
            return response.status, await response.json()


@pytest.fixture
async def metered_bot(request, fake, tmp_path):
    runner = RunningBot(
        fake,
        tmp_path / "quiz.sqlite3",
        mode=getattr(request, "param", "polling"),
        metrics=Address("127.0.0.1", free_port()),
    )
    await runner.start()
    yield runner
    await runner.stop()


@pytest.mark.parametrize("metered_bot", MODES, indirect=True)
async def test_metrics_count_updates_answers_calls_errors_and_latency(fake, metered_bot):
    """After a /start, an answer and a 429 on one sendMessage: updates by type, the answer,
    calls and errors by method, the 429 and the tap's latency are all in /metrics; a group
    session running shows in the gauge."""
    ada = Person(fake, 501, "Ada")
    fake.fail_next(
        "sendMessage", error_code=429, description="Too Many Requests: retry after 1", retry_after=1
    )
    await ada.say("/start", replies=2)
    await ada.answer("B")
    for user_id in (701, 702):
        fake.add_user(user_id, f"M{user_id}")
    fake.add_group(GROUP, "Group", admins=[701], members=[702])
    fake.send_message(701, "/quiz", chat_id=GROUP)
    await fake.wait_for(
        lambda: any(m.get("from", {}).get("id") == fake.bot_id for m in fake.messages(GROUP))
    )
    processor = metered_bot.app.update_processor  # counted once handled: wait for that
    await fake.wait_for(lambda: processor.keys_in_flight == 0, recheck=0.05)
    metrics = await scrape(metered_bot)
    assert metrics[("quizbot_updates_handled_total", (("type", "message"),))] >= 2
    assert metrics[("quizbot_updates_handled_total", (("type", "callback_query"),))] == 1
    assert metrics[("quizbot_answers_recorded_total", (("chat", "private"),))] == 1
    assert metrics[("quizbot_bot_api_calls_total", (("method", "sendMessage"),))] >= 3
    assert (
        metrics[("quizbot_bot_api_errors_total", (("method", "sendMessage"), ("status", "429")))]
        == 1
    )
    assert metrics[("quizbot_bot_api_rate_limited_total", (("method", "sendMessage"),))] == 1
    assert metrics[("quizbot_tap_to_feedback_seconds_count", ())] == 1
    assert metrics[("quizbot_group_sessions_active", ())] == 1
    assert not any(
        fake.token in name or any(fake.token in v for _, v in labels) for name, labels in metrics
    )


@pytest.mark.parametrize("metered_bot", MODES, indirect=True)
async def test_healthz_is_200_when_receiving_and_writable(metered_bot):
    """Running and writable: 200 with a short JSON body naming the mode."""
    status, body = await health(metered_bot)
    assert status == 200
    assert body == {"status": "ok", "updates": metered_bot.mode, "database": "writable"}


async def test_healthz_is_503_while_the_database_is_locked_then_200(metered_bot):
    """Another process holding the database's write lock: 503 "not writable"; released: 200."""
    blocker = sqlite3.connect(metered_bot.db, isolation_level=None)
    try:
        blocker.execute("BEGIN EXCLUSIVE")
        status, body = await health(metered_bot)
        assert status == 503
        assert body["status"] == "unhealthy" and body["database"].startswith("not writable")
        assert body["updates"] == "polling"
    finally:
        blocker.close()
    status, body = await health(metered_bot)
    assert status == 200


async def test_healthz_is_503_once_updates_stop(metered_bot):
    """The updater stopped (polling ended): 503 with updates "stopped"."""
    assert metered_bot.app is not None and metered_bot.app.updater is not None
    await metered_bot.app.updater.stop()
    status, body = await health(metered_bot)
    assert (status, body["updates"]) == (503, "stopped")
