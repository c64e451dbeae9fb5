"""The benchmark code still runs (tiny loads; the numbers are not checked: no timing asserts)."""

from __future__ import annotations

from benchmarks.run import check_answers, measure, storage_benchmark


async def test_storage_benchmark_runs():
    """The storage benchmark records every answer through both paths."""
    result = await storage_benchmark(writers=20, rounds=2)
    assert result["answers"] == 40
    assert result["layer_commits"] <= 40


async def test_measure_plays_quizbot_and_the_baseline():
    """One tiny measurement of each bot: all users finish, nothing missing or doubled."""
    for bot in ("quizbot", "baseline"):
        m = await measure(bot, 5, api_delay_ms=0, think_ms=0, preload=0, step_timeout=30)
        assert (m.answers, m.stalled_users, m.unanswered_queries) == (40, 0, 0), m
        if bot == "quizbot":
            assert (m.missing_answers, m.doubled_answers) == (0, 0)


def test_check_answers_counts_missing_and_doubled(tmp_path):
    """check_answers reads the database the way the benchmark reports it."""
    import sqlite3

    db = tmp_path / "x.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE attempts (attempt_id INTEGER, user_id INTEGER)")
        conn.execute("CREATE TABLE answers (attempt_id INTEGER, question_id TEXT)")
        conn.executemany("INSERT INTO attempts VALUES (?, ?)", [(1, 10), (2, 11)])
        conn.executemany("INSERT INTO answers VALUES (?, ?)",
                         [(1, f"q{i}") for i in range(8)] + [(2, "q0"), (2, "q0")])
    assert check_answers(db, [10, 11]) == (7, 1)


async def test_instances_benchmark_plays_each_configuration(pg_url):
    """One tiny measurement of SQLite, PostgreSQL and two instances on PostgreSQL: every user
    finishes, nothing missing or doubled; the README section is written from the results.
    (``pg_url``: PostgreSQL is installed, or this fails or is skipped as the storage tests.)"""
    import asyncio

    from benchmarks.instances import CONFIGS, medians, readme_section
    from benchmarks.instances import measure as measure_instances
    from tests.pgserver import PgServer

    server = await asyncio.to_thread(PgServer.start)
    try:
        rows = [await measure_instances(config, 4, think_ms=0, step_timeout=30, server=server,
                                        tag=f"t{n}") for n, config in enumerate(CONFIGS)]
    finally:
        await asyncio.to_thread(server.stop)
    for row in rows:
        assert (row["answers"], row["stalled_users"], row["missing_answers"],
                row["doubled_answers"]) == (32, 0, 0, 0), row
    assert [row["instances"] for row in rows] == [1, 1, 2]
    section = readme_section({"medians": [medians([row]) for row in rows], "command": "x",
                              "commit": "0" * 40, "machine": {"date": "d", "cores": 2,
                                                              "python": "3"}})
    assert "| postgres-2 | " in section and "no answer missing or doubled" in section
