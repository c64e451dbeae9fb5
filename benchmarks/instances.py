"""Benchmark: one quizbot instance on SQLite against one and two instances on PostgreSQL, under
the same load, in the same run.

Each measurement starts the fake Bot API server(s) in this process, the real ``quizbot run``
process(es), and plays N simulated users through the whole bank (``tests/support/loadgen.py``, as
``benchmarks/run.py`` does). Configurations:

- ``sqlite-1``: one instance, a SQLite file (the default deployment);
- ``postgres-1``: one instance, a throwaway PostgreSQL server (``tests/support/pgserver.py``);
- ``postgres-2``: two instances sharing that database. Telegram serves one ``getUpdates``
  consumer per bot, so two instances of one polling bot cannot share its updates (the second
  waits as a standby: ``storage/leases.py``). What two instances sharing the load look like is
  webhooks behind a load balancer that sends each user to one instance; this stands in for it
  with two fake Bot API servers (two bot ids, so each instance holds its own poller lease),
  each with half of the users, and one database.

With ``--webhook`` every instance gets its updates by webhook instead of polling (each fake
POSTs them to its instance, one at a time): on PostgreSQL each update is then registered and
handled in its (chat, sender)'s turn across instances (``storage/order.py``), which polling
does not need; the difference shows what that costs.

Every measurement gets an empty database (a new SQLite file; a new PostgreSQL database).
Configurations alternate run by run; medians are reported, with ratios against ``sqlite-1``
of the same run. CPU is counted for the bot process(es) and, separately, for the PostgreSQL
server's processes.

    python -m benchmarks.instances                         # 400 users, 3 runs each
    python -m benchmarks.instances --users 1000 --runs 1
    python -m benchmarks.instances --webhook                # the same, updates by webhook

Prints a markdown table and writes JSON (default ``benchmarks/results/instances.json``), with
the command, the git commit, the machine and the date. The README's figures are written from
that JSON: ``python -m benchmarks.instances --readme-from benchmarks/results/instances.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import asyncpg

from benchmarks.run import QUESTIONS, ROOT, check_answers, cpu_seconds, machine, peak_rss_mb
from tests.support.fakebotapi import FakeBotAPI
from tests.support.loadgen import LoadGenerator, percentile
from tests.support.pgserver import PgServer
from tests.support.processes import free_port

CONFIGS = ("sqlite-1", "postgres-1", "postgres-2")
FIRST_USER = 100_000


def server_pids(server: PgServer) -> list[int]:
    """The PostgreSQL server's processes: the postmaster and its children."""
    postmaster = int((server.folder / "data" / "postmaster.pid").read_text().split()[0])
    pids = [postmaster]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == postmaster:
                pids.append(int(entry.name))
    return pids


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds so far per process (processes gone meanwhile are left out)."""
    out = {}
    for pid in pids:
        try:
            out[pid] = cpu_seconds(pid)
        except OSError:
            continue
    return out


async def new_database(server: PgServer, name: str) -> str:
    """Create an empty database ``name``; its URL."""
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    return server.url.replace("/quizbot?", f"/{name}?")


async def pg_check_answers(url: str, user_ids: list[int]) -> tuple[int, int]:
    """(missing, doubled) answers of ``user_ids`` in the PostgreSQL database (see
    :func:`benchmarks.run.check_answers`)."""
    db = await asyncpg.connect(url)
    try:
        rows = await db.fetch(
            "SELECT a.user_id, s.question_id, COUNT(*) FROM answers s JOIN attempts a"
            " USING (attempt_id) WHERE a.user_id BETWEEN $1 AND $2"
            " GROUP BY a.user_id, s.question_id",
            min(user_ids),
            max(user_ids),
        )
    finally:
        await db.close()
    doubled = sum(count - 1 for _, _, count in rows if count > 1)
    return len(user_ids) * QUESTIONS - len(rows), doubled


async def measure(
    config: str,
    users: int,
    *,
    think_ms: float,
    step_timeout: float,
    server: PgServer,
    tag: str,
    webhook: bool = False,
) -> dict[str, object]:
    """Run one configuration under one load and measure it (updates by long polling, or by
    webhook)."""
    instances = 2 if config == "postgres-2" else 1
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-instances-"))
    if config == "sqlite-1":
        db = str(workdir / "bench.sqlite3")
    else:
        db = await new_database(server, f"bench_{tag}")
    fakes = [
        FakeBotAPI(
            token=f"{700000 + i}:BENCH", bot_id=700000 + i, bot_username=f"quizbot_bench_{i}_bot"
        )
        for i in range(instances)
    ]
    processes: list[asyncio.subprocess.Process] = []
    logs = []
    try:
        for i, fake in enumerate(fakes):
            await fake.start()
            env = {
                **os.environ,
                "TELEGRAM_BOT_TOKEN": fake.token,
                "TELEGRAM_BASE_URL": fake.base_url,
                "QUIZBOT_DB": db,
                "PYTHONUNBUFFERED": "1",
            }
            if webhook:
                port = free_port()
                env.update(
                    {
                        "QUIZBOT_WEBHOOK_URL": f"http://127.0.0.1:{port}/tg",
                        "QUIZBOT_LISTEN": f"127.0.0.1:{port}",
                        "QUIZBOT_WEBHOOK_SECRET": "bench-secret",
                    }
                )
            log = (workdir / f"bot{i}.log").open("wb")
            logs.append(log)
            processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot",
                    "run",
                    env=env,
                    stdout=log,
                    stderr=log,
                    stdin=subprocess.DEVNULL,
                    cwd=ROOT,
                )
            )
        for fake, process in zip(fakes, processes, strict=True):
            await fake.wait_for(
                lambda f=fake, p=process: (
                    (f.webhook_delivering if webhook else f.polling) or p.returncode is not None
                ),
                timeout=60,
                recheck=0.05,
            )
            if process.returncode is not None:
                raise RuntimeError(f"{config} did not start: see {workdir}")
        shares = [
            users // instances + (1 if i < users % instances else 0) for i in range(instances)
        ]
        generators = [
            LoadGenerator(
                fake,
                share,
                questions=QUESTIONS,
                think=think_ms / 1000,
                first_user_id=FIRST_USER + sum(shares[:i]),
                step_timeout=step_timeout,
            )
            for i, (fake, share) in enumerate(zip(fakes, shares, strict=True))
        ]
        bot_pids = [p.pid for p in processes]
        db_pids = server_pids(server) if config != "sqlite-1" else []
        bots_before, db_before = cpu_of(bot_pids), cpu_of(db_pids)
        reports = await asyncio.gather(*(g.run() for g in generators))
        bots_after = cpu_of(bot_pids)
        db_after = cpu_of(server_pids(server)) if db_pids else {}
        rss = max(peak_rss_mb(pid) for pid in bot_pids)
    finally:
        for process in processes:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
        for log in logs:
            log.close()
        for fake in fakes:
            await fake.stop()
    user_ids = [u for g in generators for u in g.user_ids]
    if config == "sqlite-1":
        missing, doubled = check_answers(Path(db), user_ids)
    else:
        missing, doubled = await pg_check_answers(db, user_ids)
    shutil.rmtree(workdir, ignore_errors=True)  # kept only when the run failed (its logs)
    answers = sum(r.answers for r in reports)
    seconds = max(r.ended for r in reports) - min(r.started for r in reports)
    latencies = [x for r in reports for x in r.latencies]
    bot_cpu = sum(bots_after[p] - bots_before.get(p, 0.0) for p in bots_after)
    db_cpu = sum(db_after[p] - db_before.get(p, 0.0) for p in db_after)
    per_1k = 1000 / answers if answers else float("nan")
    return {
        "config": config,
        "instances": instances,
        "users": users,
        "think_ms": think_ms,
        "delivery": "webhook" if webhook else "polling",
        "answers": answers,
        "seconds": round(seconds, 2),
        "answers_per_second": round(answers / seconds, 1) if seconds else 0.0,
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "bot_cpu_s_per_1k": round(bot_cpu * per_1k, 2),
        "db_cpu_s_per_1k": round(db_cpu * per_1k, 2),
        "total_cpu_s_per_1k": round((bot_cpu + db_cpu) * per_1k, 2),
        "peak_rss_mb": round(rss, 1),
        "stalled_users": sum(r.stalled for r in reports),
        "missing_answers": missing,
        "doubled_answers": doubled,
    }


NUMBERS = (
    "answers_per_second",
    "p50_ms",
    "p99_ms",
    "bot_cpu_s_per_1k",
    "db_cpu_s_per_1k",
    "total_cpu_s_per_1k",
    "peak_rss_mb",
)
WORST = ("stalled_users", "missing_answers", "doubled_answers")


def medians(rows: list[dict[str, object]]) -> dict[str, object]:
    """Medians of the numbers, worst of the problem counts."""
    out = {k: rows[0][k] for k in ("config", "instances", "users", "think_ms")}
    for key in NUMBERS:
        out[key] = round(statistics.median(float(r[key]) for r in rows), 2)  # type: ignore[arg-type]
    for key in WORST:
        out[key] = max(int(r[key]) for r in rows)  # type: ignore[call-overload]
    out["runs"] = len(rows)
    return out


def table(rows: list[dict[str, object]]) -> str:
    """The markdown table of the README (from the results' medians and ratios)."""
    base = next((r for r in rows if r["config"] == "sqlite-1"), None)
    lines = [
        "| configuration | answers/s | p50 ms | p99 ms | CPU s per 1k answers: bots"
        " + database = total | vs SQLite: throughput, total CPU per answer |"
        " missing / doubled | stalled |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        ratio = (
            "-"
            if base is None or r is base
            else (
                f"{float(r['answers_per_second']) / float(base['answers_per_second']):.2f}x, "  # type: ignore[arg-type]
                f"{float(r['total_cpu_s_per_1k']) / float(base['total_cpu_s_per_1k']):.2f}x"
            )
        )  # type: ignore[arg-type]
        lines.append(
            f"| {r['config']} | {r['answers_per_second']} | {r['p50_ms']} | {r['p99_ms']} |"
            f" {r['bot_cpu_s_per_1k']} + {r['db_cpu_s_per_1k']} = {r['total_cpu_s_per_1k']} |"
            f" {ratio} | {r['missing_answers']} / {r['doubled_answers']} |"
            f" {r['stalled_users']} |"
        )
    return "\n".join(lines)


README_BEGIN, README_END = "<!-- instances:begin -->", "<!-- instances:end -->"


def readme_section(results: dict) -> str:  # type: ignore[type-arg]
    """The README's figures of several instances, written from a results JSON."""
    rows = results["medians"]
    by = {r["config"]: r for r in rows}
    m = results["machine"]
    lines = [
        f"**Figures** ({m['date']}; {m['cores']} cores, Python {m['python']}; "
        f"`{results['command'].strip()}` at commit {results['commit'][:10]}; medians of "
        f"{rows[0]['runs']} runs alternating the configurations; {rows[0]['users']} users "
        "tapping without pause, so latency is mostly queueing):",
        "",
        table(rows),
        "",
    ]
    load = results.get("load_average")
    if load:
        lines += [
            f"The machine was shared: its load average (1 min) was {load['before'][0]} before "
            f"the runs and {load['after'][0]} after, on {m['cores']} cores (other work ran "
            "beside the benchmark); single runs varied widely"
            + _spread(results.get("measurements", []))
            + ", so read the ratios as rough.",
            "",
        ]
    base, one, two = by.get("sqlite-1"), by.get("postgres-1"), by.get("postgres-2")
    if base and one and two:

        def x(a: dict, b: dict, key: str) -> str:  # type: ignore[type-arg]
            return f"{float(a[key]) / float(b[key]):.2f}x"

        problems = sum(int(r[k]) for r in rows for k in WORST)
        lines += [
            "What these figures show: on this machine one instance on PostgreSQL answers "
            f"{x(one, base, 'answers_per_second')} as fast as on SQLite, at "
            f"{x(one, base, 'total_cpu_s_per_1k')} the CPU per answer (bot and server "
            "together: each write is a round trip to another process, where SQLite's is a "
            "call into a library thread); two instances sharing the database reach "
            f"{x(two, base, 'answers_per_second')} of SQLite's throughput at "
            f"{x(two, base, 'total_cpu_s_per_1k')} its CPU per answer. On "
            f"{m['cores']} cores, shared by the load generator, the fake Bot API servers, the "
            "bot processes and PostgreSQL, a second instance brings no cores of its own, only "
            "a second process to schedule: these runs show the cost of PostgreSQL and that "
            "sharing it stays correct ("
            + (
                "no answer missing or doubled, no user stalled, in any run"
                if problems == 0
                else f"{problems} problems counted: see the JSON"
            )
            + "), not scaling.",
            "",
            "On a bigger machine (on paper, not measured here): quizbot's own work is one "
            "Python process per instance, about one core each at saturation "
            "(`python -m benchmarks.run`: a few hundred answers/s per core), and PostgreSQL "
            "spends a fraction of that per answer on its side (the database column above). "
            "With the cores to run them, N instances behind a load balancer (webhooks) should "
            "approach N times one instance's throughput until the database's CPU or its WAL "
            "flushes (one per batch of writes, shared by concurrent commits) become the "
            "limit; with polling, one instance handles all updates and the others are "
            "standbys, so extra instances buy failover, not throughput.",
        ]
    return "\n".join(lines)


def _spread(measurements: list[dict]) -> str:  # type: ignore[type-arg]
    """`` (answers/s from LOW to HIGH per configuration)``, or nothing without measurements."""
    ranges = {}
    for row in measurements:
        low, high = ranges.get(row["config"], (float("inf"), 0.0))
        ranges[row["config"]] = (
            min(low, row["answers_per_second"]),
            max(high, row["answers_per_second"]),
        )
    if not ranges:
        return ""
    return (
        " (answers/s from low to high: "
        + "; ".join(f"{config} {low:g} to {high:g}" for config, (low, high) in ranges.items())
        + ")"
    )


def update_readme(readme: Path, results: dict) -> None:  # type: ignore[type-arg]
    """Replace the README's text between the instances markers with :func:`readme_section`.

    Raises:
        ValueError: the markers are missing.
    """
    text = readme.read_text(encoding="utf-8")
    start, end = text.index(README_BEGIN) + len(README_BEGIN), text.index(README_END)
    readme.write_text(
        text[:start] + "\n" + readme_section(results) + "\n" + text[end:], encoding="utf-8"
    )


def git_commit() -> str:
    """The checked-out commit (with ``+dirty`` when the tree has changes)."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    return git("rev-parse", "HEAD") + ("+dirty" if git("status", "--porcelain") else "")


async def main(args: argparse.Namespace) -> int:
    """Run the configurations, alternating; print the table; write the JSON."""
    if args.readme_from:
        update_readme(ROOT / "docs/operations.md", json.loads(Path(args.readme_from).read_text()))
        print(f"docs/operations.md updated from {args.readme_from}")
        return 0
    configs = args.configs.split(",")
    results: dict[str, object] = {
        "command": "python -m benchmarks.instances " + " ".join(sys.argv[1:]),
        "commit": git_commit(),
        "machine": machine(),
        "args": vars(args),
    }
    print(f"machine: {results['machine']}\n")
    load_before = os.getloadavg()
    server = await asyncio.to_thread(PgServer.start)
    runs: dict[str, list[dict[str, object]]] = {c: [] for c in configs}
    try:
        for run in range(args.runs):
            for number, config in enumerate(configs if run % 2 == 0 else configs[::-1]):
                m = await measure(
                    config,
                    args.users,
                    think_ms=args.think,
                    step_timeout=args.step_timeout,
                    server=server,
                    tag=f"{run}_{number}",
                    webhook=args.webhook,
                )
                runs[config].append(m)
                print(
                    f"  run {run + 1}/{args.runs} {config:10} {m['answers_per_second']}"
                    f" answers/s, p99 {m['p99_ms']} ms, CPU {m['bot_cpu_s_per_1k']} +"
                    f" {m['db_cpu_s_per_1k']} s/1k, missing {m['missing_answers']},"
                    f" doubled {m['doubled_answers']}",
                    flush=True,
                )
    finally:
        await asyncio.to_thread(server.stop)
    rows = [medians(runs[c]) for c in configs]
    results["load_average"] = {
        "before": [round(x, 2) for x in load_before],
        "after": [round(x, 2) for x in os.getloadavg()],
    }
    results["measurements"] = [m for c in configs for m in runs[c]]
    results["medians"] = rows
    print("\n" + table(rows))
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print(f"\nwrote {out}")
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line flags."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.instances",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--users", type=int, default=400, help="simulated users (default 400)")
    parser.add_argument("--runs", type=int, default=3, help="runs per configuration (default 3)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="ms each user reads a question before tapping (default 0)",
    )
    parser.add_argument(
        "--configs",
        default=",".join(CONFIGS),
        help=f"comma-separated, of {', '.join(CONFIGS)} (default all)",
    )
    parser.add_argument(
        "--webhook",
        action="store_true",
        help="updates by webhook instead of long polling (on PostgreSQL: each "
        "update in its user's turn across instances)",
    )
    parser.add_argument(
        "--step-timeout",
        type=float,
        default=60.0,
        help="seconds a user waits for the bot before counting as stalled",
    )
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "instances.json"))
    parser.add_argument(
        "--readme-from",
        metavar="JSON",
        help="run nothing: rewrite docs/operations.md's figures of several "
        "instances from this results file",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
