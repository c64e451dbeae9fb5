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
