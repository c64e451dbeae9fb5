"""The spaced-review benchmark code runs (tiny loads; no timing asserts)."""

from __future__ import annotations

from benchmarks.learning import reminder_benchmark


async def test_reminder_benchmark_runs_and_reminds_once_a_day():
    """200 learners spread over a day: a simulated hour reminds about 1/24 of them, each once."""
    result = await reminder_benchmark(learners=240, seconds=3600, per_pass=5)
    assert 0 < result["reminders_sent"] <= 240 // 24 * 2
    assert result["passes"] == 3600
