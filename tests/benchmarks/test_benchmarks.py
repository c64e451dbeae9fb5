"""The benchmark code still runs (tiny loads; the numbers are not checked: no timing asserts),
and the README's benchmark tables are the ones the committed results give."""

from __future__ import annotations

import json

import pytest

from benchmarks import group_load
from benchmarks.run import (
    BOTS,
    RESULTS,
    ROOT,
    check_answers,
    committed_tables,
    main,
    measure,
    parse,
    results_table,
    storage_benchmark,
)

CALLS = {"answerCallbackQuery": 16, "editMessageText": 8, "sendMessage": 10}
"""Bot API calls per user for the whole quiz (but getUpdates), the same for every bot: 8 answer
and 8 "next" queries, 8 feedback edits, the intro, 8 questions and the score."""


async def test_storage_benchmark_runs():
    """The storage benchmark records every answer through both paths."""
    result = await storage_benchmark(writers=20, rounds=2)
    assert result["answers"] == 40
    assert result["layer_commits"] <= 40


@pytest.mark.parametrize("bot", ["quizbot", "baseline", "baseline-concurrent", "aiogram"])
async def test_measure_plays_every_bot(bot):
    """One tiny measurement of each bot: all users finish, with the same Bot API calls;
    quizbot stores every answer once."""
    m = await measure(bot, 3, api_delay_ms=0, think_ms=0, preload=0, step_timeout=30)
    assert (m.answers, m.stalled_users, m.unanswered_queries) == (24, 0, 0), m
    assert m.calls is not None
    assert {k: v for k, v in m.calls.items() if k != "getUpdates"} == {
        method: 3 * n for method, n in CALLS.items()
    }, m.calls
    if bot == "quizbot":
        assert (m.missing_answers, m.doubled_answers) == (0, 0)


ONE_TAP_CALLS = {"answerCallbackQuery": 8, "editMessageText": 8, "sendMessage": 10}
"""The same in the one-tap flow: no "next" query; the feedback edits and the sends as before."""


@pytest.mark.parametrize("bot", ["quizbot", "aiogram"])
async def test_measure_plays_the_one_tap_flow(bot):
    """One tiny measurement of the one-tap flow (quizbot's users chose it in /settings, the
    bare bot plays it): all users finish with three calls per answer; quizbot stores every
    answer once."""
    m = await measure(bot, 3, api_delay_ms=0, think_ms=0, preload=0, step_timeout=30, one_tap=True)
    assert (m.answers, m.stalled_users, m.unanswered_queries) == (24, 0, 0), m
    assert m.calls is not None
    assert {k: v for k, v in m.calls.items() if k != "getUpdates"} == {
        method: 3 * n for method, n in ONE_TAP_CALLS.items()
    }, m.calls
    if bot == "quizbot":
        assert (m.missing_answers, m.doubled_answers) == (0, 0)


async def test_main_writes_the_results_file(tmp_path):
    """A whole (tiny) invocation writes where the figures come from, every run, medians and a
    ratio of quizbot to the other bot."""
    out = tmp_path / "r.json"
    argv = ["--users", "2", "--runs", "1", "--bots", "quizbot,baseline", "--json", str(out)]
    assert await main(parse(argv), argv) == 0
    data = json.loads(out.read_text())
    assert data["command"] == "python -m benchmarks.run " + " ".join(argv)
    assert data["git_commit"] and data["date"]
    assert {"platform", "python", "nproc"} <= set(data["machine"])
    assert [m["bot"] for m in data["measurements"]] == ["quizbot", "baseline"]
    assert [r["against"] for r in data["ratios"]] == ["baseline"]
    assert all(row["stalled_users"] == 0 for row in data["medians"])


def test_readme_has_the_tables_of_the_committed_results():
    """The README's Benchmarks section holds ``python -m benchmarks.run --table``'s output, so
    every figure there comes from a committed results file (regenerate and paste on change):
    each private-chat results file's block, and the group load table in its own subsection."""
    paths = sorted(RESULTS.glob("private-*.json"))
    assert paths, "no committed benchmark results"
    readme = documentation()
    for path in paths:
        assert results_table(path) in readme, f"README out of date with {path.name}"
    if list(RESULTS.glob("group-load-*.json")):
        assert group_load.committed_table() in readme
        assert group_load.committed_table() in committed_tables()


def documentation() -> str:
    """The README and the pages of ``docs/`` it links, one after the other (the benchmark
    figures are in ``docs/benchmarks.md``, those of several instances in ``docs/operations.md``)."""
    return "\n".join(
        path.read_text() for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    )


def readme_block(name: str) -> str:
    """The documentation's text between ``<!-- name:begin -->`` and ``<!-- name:end -->``."""
    readme = documentation()
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    assert readme.count(begin) == readme.count(end) == 1, f"README: no {name} block"
    return readme[readme.index(begin) + len(begin) : readme.index(end)].strip("\n")


def results(name: str) -> dict:
    """A committed results file."""
    return json.loads((RESULTS / name).read_text())


def test_readme_blocks_are_written_from_their_results_files():
    """The learning, abuse, instances and group-load summary blocks of the README are what
    their generators write from the committed results (regenerate and paste on change:
    ``python -m benchmarks.instances --readme-from benchmarks/results/instances.json``,
    ``python -m benchmarks.abuse --markdown benchmarks/results/abuse.json``,
    ``python -m benchmarks.sheets --markdown benchmarks/results/sheets.json`` (reading a
    500-question .xlsx, .docx and PDF), and
    ``benchmarks.learning.readme_paragraph``, ``benchmarks.group_load.committed_summary``)."""
    from benchmarks import abuse, instances, learning, sheets

    assert readme_block("learning") == learning.readme_paragraph(results("learning.json"))
    assert readme_block("abuse") == abuse.markdown(results("abuse.json"))
    assert readme_block("instances") == instances.readme_section(results("instances.json"))
    assert readme_block("group-load-summary") == group_load.committed_summary()
    assert readme_block("sheets") == sheets.readme_paragraph(results("sheets.json"))


def test_readme_prose_figures_match_the_code_and_results():
    """Figures the README's prose states are the code's constants and the committed results'
    numbers: updates in flight, the clock edit's moment, the CI group load window, and the
    ratios the benchmark discussion quotes."""
    from bot.features.groups.pacing import CLOCK_FRACTION
    from bot.telegram.ordering import DEFAULT_MAX_CONCURRENT_UPDATES
    from tests.e2e.test_group_load import WINDOW

    readme = " ".join(documentation().split())
    assert f"run at once (up to {DEFAULT_MAX_CONCURRENT_UPDATES})" in readme
    assert CLOCK_FRACTION == 1 / 3 and "when a third of the window is left" in readme
    assert f"members, {WINDOW:g} s windows, through the in-process bot" in readme
    slow = results("private-200u-rtt50ms-think5000ms.json")
    [aiogram] = [r for r in slow["ratios"] if r["against"] == "aiogram"]
    assert f"quizbot spends {aiogram['cpu_per_answer_ratio']:g}x aiogram's CPU per answer" in readme
    fast = results("private-1000u-rtt0ms-think0ms-quizbot-aiogram.json")
    [aiogram] = [r for r in fast["ratios"] if r["against"] == "aiogram"]
    assert (
        f"quizbot answered {aiogram['throughput_ratio']:g}x as fast at "
        f"{aiogram['cpu_per_answer_ratio']:g}x aiogram's CPU per answer"
    ) in readme
    one_tap = results("private-1000u-rtt0ms-think0ms-onetap-quizbot-aiogram.json")
    [aiogram] = [r for r in one_tap["ratios"] if r["against"] == "aiogram"]
    assert (
        f"answers {aiogram['throughput_ratio']:g}x as fast as aiogram doing the "
        f"same, at {aiogram['cpu_per_answer_ratio']:g}x its CPU per answer"
    ) in readme
    storage = fast["storage"]["median"]
    assert (
        f"{storage['ratio']:g}x in this one, where the plain loop reached "
        f"{round(storage['plain_sqlite3_answers_per_second']):,} commits a second"
    ) in readme


def test_committed_results_name_their_bots_and_origin():
    """Each committed results file says what ran, where and when, for bots the code knows."""
    for path in RESULTS.glob("private-*.json"):
        data = json.loads(path.read_text())
        assert data["command"].startswith("python -m benchmarks.run"), path
        assert len(data["git_commit"]) >= 40 and data["date"], path
        assert {"platform", "python", "nproc"} <= set(data["machine"]), path
        assert {row["bot"] for row in data["medians"]} <= set(BOTS), path


def test_check_answers_counts_missing_and_doubled(tmp_path):
    """check_answers reads the database the way the benchmark reports it."""
    import sqlite3

    db = tmp_path / "x.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE attempts (attempt_id INTEGER, user_id INTEGER)")
        conn.execute("CREATE TABLE answers (attempt_id INTEGER, question_id TEXT)")
        conn.executemany("INSERT INTO attempts VALUES (?, ?)", [(1, 10), (2, 11)])
        conn.executemany(
            "INSERT INTO answers VALUES (?, ?)",
            [(1, f"q{i}") for i in range(8)] + [(2, "q0"), (2, "q0")],
        )
    assert check_answers(db, [10, 11]) == (7, 1)


async def test_instances_benchmark_plays_each_configuration(pg_url):
    """One tiny measurement of SQLite, PostgreSQL and two instances on PostgreSQL: every user
    finishes, nothing missing or doubled; the README section is written from the results.
    (``pg_url``: PostgreSQL is installed, or this fails or is skipped as the storage tests.)"""
    import asyncio

    from benchmarks.instances import CONFIGS, medians, readme_section
    from benchmarks.instances import measure as measure_instances
    from tests.support.pgserver import PgServer

    server = await asyncio.to_thread(PgServer.start)
    try:
        rows = [
            await measure_instances(
                config, 4, think_ms=0, step_timeout=30, server=server, tag=f"t{n}"
            )
            for n, config in enumerate(CONFIGS)
        ]
    finally:
        await asyncio.to_thread(server.stop)
    for row in rows:
        assert (
            row["answers"],
            row["stalled_users"],
            row["missing_answers"],
            row["doubled_answers"],
        ) == (32, 0, 0, 0), row
    assert [row["instances"] for row in rows] == [1, 1, 2]
    section = readme_section(
        {
            "medians": [medians([row]) for row in rows],
            "command": "x",
            "commit": "0" * 40,
            "machine": {"date": "d", "cores": 2, "python": "3"},
        }
    )
    assert "| postgres-2 | " in section and "no answer missing or doubled" in section


async def test_instances_benchmark_by_webhook(pg_url):
    """The instances benchmark with updates by webhook: two `quizbot run` processes on one
    PostgreSQL, each update registered and handled in its user's turn across instances; every
    user finishes, nothing missing or doubled, and no registration is left behind."""
    import asyncio

    from benchmarks.instances import measure as measure_instances
    from tests.support.pgserver import PgServer

    server = await asyncio.to_thread(PgServer.start)
    try:
        row = await measure_instances(
            "postgres-2", 4, think_ms=0, step_timeout=30, server=server, tag="webhook", webhook=True
        )
        import asyncpg

        db = await asyncpg.connect(server.url.replace("/quizbot?", "/bench_webhook?"))
        try:
            left = await db.fetchval("SELECT COUNT(*) FROM pending_updates")
        finally:
            await db.close()
    finally:
        await asyncio.to_thread(server.stop)
    assert (
        row["answers"],
        row["stalled_users"],
        row["missing_answers"],
        row["doubled_answers"],
        row["delivery"],
    ) == (32, 0, 0, 0, "webhook"), row
    assert left == 0


async def test_creators_benchmark_runs():
    """The created-quizzes benchmark plays both sides on a tiny library and reports every
    figure its README paragraph names."""
    from benchmarks import creators

    result = await creators.run(quizzes=12, attempts=1, probes=3, db=None)
    assert result["answer"]["answers_each"] == 8 and result["quizzes"] == 12
    assert result["answer"]["ratio"] > 0
    for key in ("start_cold_ms", "start_warm_ms", "start_reads_ms", "search_ms"):
        assert result[key]["p50"] <= result[key]["p99"], key
    assert "12 created quizzes stored" in creators.readme_paragraph(result)


def test_restructure_summary_takes_medians_per_side_and_their_quotient():
    """The before/after comparison takes each side's median ratio against each bare bot
    (leaving out invocations where that bot stalled) and divides after by before."""
    from benchmarks import restructure

    def invocation(side: str, baseline: float | None, aiogram: float) -> dict:
        return {
            "side": side,
            "ratios": {
                "baseline": {"throughput_ratio": baseline, "cpu_per_answer_ratio": baseline},
                "aiogram": {"throughput_ratio": aiogram, "cpu_per_answer_ratio": aiogram},
            },
        }

    runs = [
        invocation("before", 2.0, 1.0),
        invocation("after", 2.2, 1.1),
        invocation("after", None, 0.9),
        invocation("before", 1.8, 1.2),
    ]
    summary = restructure.summarise(runs)
    assert summary["before"]["baseline"]["throughput_ratio"] == 1.9
    assert summary["after"]["baseline"]["throughput_ratio"] == 2.2  # the stalled run left out
    assert summary["after"]["aiogram"]["cpu_per_answer_ratio"] == 1.0
    assert restructure.change(summary, "baseline", "throughput_ratio") == round(2.2 / 1.9, 3)


def test_readme_blocks_of_created_quizzes_and_the_restructuring():
    """The README's figures of created quizzes and of the benchmark before and after the
    restructuring are what their generators write from the committed results
    (``python -m benchmarks.creators --markdown benchmarks/results/creators.json``,
    ``python -m benchmarks.restructure --markdown benchmarks/results/restructure.json``)."""
    from benchmarks import creators, restructure

    assert readme_block("creators") == creators.readme_paragraph(results("creators.json"))
    assert readme_block("restructure") == restructure.markdown(results("restructure.json"))


async def test_homework_benchmark_runs(tmp_path):
    """A tiny homework deadline minute through the real bot: every group gets its results and
    every admin their results file, the fake refuses nothing, and the documentation paragraph
    is written from the results file."""
    from benchmarks import homework

    out = tmp_path / "homework.json"
    # --soon: the deadline is moved to the restart, so a long lead costs nothing (the /assign
    # must still name a future minute on a loaded machine)
    argv = ["--groups", "3", "--members", "2", "--players", "2", "--lead", "60", "--soon"]
    argv += ["--json", str(out)]
    assert await homework.main(homework.parse(argv), argv) == 0
    data = json.loads(out.read_text())
    row = data["row"]
    assert (row["results_posted"], row["reports_sent"], row["refused_429"]) == (3, 3, 0), row
    assert row["finished"] + row["stopped"] == 6 and row["bot_log_errors"] == 0, row
    assert row["group_most_per_minute"] <= homework.GROUP_LIMIT, row
    assert data["command"] == "python -m benchmarks.homework " + " ".join(argv)
    assert "3 groups with homework due at the same minute" in (homework.readme_paragraph(data))


def test_readme_homework_block_is_written_from_its_results_file():
    """The documentation's homework deadline paragraph is what ``python -m benchmarks.homework
    --markdown benchmarks/results/homework.json`` writes from the committed results."""
    from benchmarks import homework

    assert readme_block("homework") == homework.readme_paragraph(results("homework.json"))


async def test_sendbudget_benchmark_runs(tmp_path, pg_url):
    """Every job due at one moment, tiny, on one and on two instances on PostgreSQL: every
    job's sends go out, none refused with 429 by the fake (Telegram's limits), no reminder
    sent twice, the replies answered; the documentation paragraph is written from the results
    file. (``pg_url``: PostgreSQL is installed, or this fails or is skipped as the storage
    tests.)"""
    from benchmarks import sendbudget

    out = tmp_path / "sendbudget.json"
    argv = [
        "--groups",
        "3",
        "--reminders",
        "30",
        "--daily",
        "2",
        "--repliers",
        "2",
        "--lead",
        "1",
        "--soon",
        "--json",
        str(out),
    ]
    assert await sendbudget.main(sendbudget.parse(argv), argv) == 0
    data = json.loads(out.read_text())
    for row in data["rows"]:
        assert (
            row["homework_results"],
            row["homework_reports"],
            row["daily_posts"],
            row["reminders_sent"],
            row["reminders_doubled"],
            row["refused_429"],
            row["bot_log_errors"],
        ) == (3, 3, 2, 30, 0, 0, 0), row
        assert row["most_per_second"] <= sendbudget.OVERALL_LIMIT and row["replies"] > 0, row
    assert [row["instances"] for row in data["rows"]] == [1, 2]
    assert "3 groups' homework at its deadline" in sendbudget.readme_paragraph(data)


def test_readme_sendbudget_block_is_written_from_its_results_file():
    """The documentation's send-budget paragraph is what ``python -m benchmarks.sendbudget
    --markdown benchmarks/results/sendbudget.json`` writes from the committed results."""
    from benchmarks import sendbudget

    assert readme_block("sendbudget") == sendbudget.readme_paragraph(results("sendbudget.json"))
