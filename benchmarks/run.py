"""Benchmark quizbot against the bots a bot author would write instead, through the fake Bot API.

Each measurement starts the fake server in this process, the bot as a separate process (the real
``quizbot run``, ``benchmarks/baseline_bot.py`` on python-telegram-bot, or
``benchmarks/aiogram_bot.py`` on aiogram) polling it over loopback, and plays N simulated users
through the whole bank (every answer and every "next" tap). Every bot does the same interaction
with the same texts (``benchmarks/screens.py``). Bots alternate run by run; the tables give
medians and the ratios of quizbot to each other bot in the same invocation.

    python -m benchmarks.run                       # 1,000 users, 3 runs each, all four bots
    python -m benchmarks.run --users 200 --api-delay 50 --think 5000 --runs 1
    python -m benchmarks.run --scale 100,1000,5000 --bots quizbot --preload 100000
    python -m benchmarks.run --storage             # also: storage layer vs plain sqlite3
    python -m benchmarks.run --one-tap --bots quizbot,aiogram   # the one-tap flow
    python -m benchmarks.run --table               # README tables from the committed results

Prints markdown tables and writes JSON (command, git commit, machine, date, package versions,
every run, medians, ratios) to ``benchmarks/results/private-<shape>.json`` (``--json``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shlex
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path

from bot.kernel.engine import Answer, Plan, with_answer
from storage import SQLiteStore
from tests.support.fakebotapi import FakeBotAPI
from tests.support.loadgen import LoadGenerator, percentile

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PROFILE_DIR = os.environ.get("QUIZBOT_PROFILE_DIR")
"""When set, each bot runs under py-spy and its samples land in this folder."""
QUESTIONS = 8
RESULTS = ROOT / "benchmarks" / "results"
BOTS = {
    "quizbot": "quizbot (aiohttp, updates concurrent across chats)",
    "baseline": "bare PTB 22.8, one update at a time (httpx)",
    "baseline-concurrent": "bare PTB 22.8, `concurrent_updates` (httpx)",
    "baseline-aiohttp": "bare PTB 22.8, one update at a time, quizbot's aiohttp transport",
    "aiogram": "bare aiogram 3 (aiohttp)",
}
"""The bots ``--bots`` can name, with their labels in the tables."""
DEFAULT_BOTS = "quizbot,baseline,baseline-concurrent,aiogram"


@dataclass
class Measurement:
    """One run of one bot."""

    bot: str
    users: int
    api_delay_ms: float
    think_ms: float
    preload: int
    answers: int
    seconds: float
    answers_per_second: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    callback_p99_ms: float
    callback_max_ms: float
    late_queries: int
    unanswered_queries: int
    stalled_users: int
    cpu_seconds_per_1000_answers: float
    peak_rss_mb: float
    missing_answers: int | None
    doubled_answers: int | None
    one_tap: bool = False
    """The one-tap flow (quizbot's users chose it in /settings; the bare bots play it)."""
    calls: dict[str, int] | None = None
    """Bot API calls during the load, by method (getUpdates included): the same for every bot
    but getUpdates, or the bots did not do the same thing."""


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


SETTLED_CPU = 0.02
"""CPU seconds a bot may use in :data:`SETTLE_SECONDS` of a quiet wait and count as settled."""
SETTLE_SECONDS = 0.5


async def settled(pid: int, *, bound: float = 60.0) -> None:
    """Wait until the bot's start-up work is done (its CPU quiet for :data:`SETTLE_SECONDS`),
    so the load's CPU is the load's: quizbot warms its chart fonts in a thread at start (a
    second of CPU), aiogram builds its models at import; at most ``bound`` seconds."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        before = cpu_seconds(pid)
        await asyncio.sleep(SETTLE_SECONDS)
        if cpu_seconds(pid) - before < SETTLED_CPU:
            return


def peak_rss_mb(pid: int) -> float:
    """Peak resident set size of a process (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def preload_answers(db: Path, rows: int) -> None:
    """Fill a new database with ``rows`` stored answers (finished attempts of other users)."""

    async def migrate() -> None:
        store = await SQLiteStore.open(db)
        await store.close()

    asyncio.run(migrate())
    attempts = rows // QUESTIONS
    order = json.dumps([f"q{i}" for i in range(QUESTIONS)])
    options = json.dumps([[0, 1, 2, 3]] * QUESTIONS)
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO attempts (attempt_id, user_id, bank_id, bank_version, question_order,"
            " option_orders, position, status, started_at, ended_at)"
            " VALUES (?, ?, 'deepspeed-megatron', 1, ?, ?, 8, 'finished', 0, 1)",
            ((i + 1, 5_000_000 + i, order, options) for i in range(attempts)),
        )
        conn.executemany(
            "INSERT INTO answers VALUES (?, ?, 0, 1, 0)",
            ((i + 1, f"q{q}") for i in range(attempts) for q in range(QUESTIONS)),
        )


def choose_one_tap(db: Path, user_ids: list[int]) -> None:
    """Store the one-tap flow as the /settings choice of ``user_ids`` (a new database is
    migrated first)."""
    if not db.exists():

        async def migrate() -> None:
            store = await SQLiteStore.open(db)
            await store.close()

        asyncio.run(migrate())
    with sqlite3.connect(db) as conn:
        conn.executemany(
            "INSERT INTO users (user_id, answer_flow, updated_at) VALUES (?, 'one_tap', 0)",
            ((u,) for u in user_ids),
        )


def check_answers(db: Path, user_ids: list[int]) -> tuple[int, int]:
    """(missing, doubled): answers each user should have (one per question) against the file."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT a.user_id, s.question_id, COUNT(*) FROM answers s JOIN attempts a"
            " USING (attempt_id) WHERE a.user_id BETWEEN ? AND ?"
            " GROUP BY a.user_id, s.question_id",
            (min(user_ids), max(user_ids)),
        ).fetchall()
    doubled = sum(count - 1 for _, _, count in rows if count > 1)
    missing = len(user_ids) * QUESTIONS - len(rows)
    return missing, doubled


async def measure(
    bot: str,
    users: int,
    *,
    api_delay_ms: float,
    think_ms: float,
    preload: int,
    step_timeout: float,
    one_tap: bool = False,
) -> Measurement:
    """Run one bot under one load and measure it (``one_tap``: in the one-tap flow)."""
    fake = FakeBotAPI()
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-bench-"))
    db = workdir / "bench.sqlite3"
    generator = LoadGenerator(
        fake,
        users,
        questions=QUESTIONS,
        think=think_ms / 1000,
        step_timeout=step_timeout,
        one_tap=one_tap,
    )
    if preload and bot == "quizbot":
        await asyncio.to_thread(preload_answers, db, preload)
    if one_tap and bot == "quizbot":
        await asyncio.to_thread(choose_one_tap, db, generator.user_ids)
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "QUIZBOT_DB": str(db),
        "PYTHONUNBUFFERED": "1",
    }
    flags = {"baseline-concurrent": ["--concurrent"], "baseline-aiohttp": ["--aiohttp"]}
    if bot == "quizbot":
        command = [sys.executable, "-m", "bot", "run"]
    elif bot == "aiogram":
        command = [sys.executable, str(ROOT / "benchmarks" / "aiogram_bot.py")]
    elif bot in BOTS:
        command = [
            sys.executable,
            str(ROOT / "benchmarks" / "baseline_bot.py"),
            *flags.get(bot, []),
        ]
    else:
        raise ValueError(f"unknown bot {bot!r}: one of {', '.join(BOTS)}")
    if one_tap and bot != "quizbot":
        command.append("--one-tap")
    if PROFILE_DIR:  # py-spy samples the bot; collapsed stacks for flame graphs or grep
        out = Path(PROFILE_DIR) / f"{bot}-{users}-{int(time.time())}.txt"
        out.parent.mkdir(parents=True, exist_ok=True)  # else py-spy fails, and nothing says so
        command = [
            "py-spy",
            "record",
            "--format",
            "raw",
            "--rate",
            "200",
            "-o",
            str(out),
            "--",
            *command,
        ]
    log = (workdir / "bot.log").open("wb")
    process = await asyncio.create_subprocess_exec(
        *command, env=env, stdout=log, stderr=log, stdin=subprocess.DEVNULL, cwd=ROOT
    )
    try:
        # a guard only: importing aiogram builds its pydantic models (seconds of CPU, far
        # more on a loaded machine); the process may exit without a call
        await fake.wait_for(
            lambda: fake.polling or process.returncode is not None, timeout=300, recheck=0.1
        )
        if process.returncode is not None:
            raise RuntimeError(f"{bot} did not start: {(workdir / 'bot.log').read_text()}")
        await settled(process.pid)
        if api_delay_ms:
            fake.delay(api_delay_ms / 1000)
        cpu_before = cpu_seconds(process.pid)
        calls_before = len(fake.calls)
        report = await generator.run()
        calls = Counter(call.method for call in fake.calls[calls_before:])
        cpu = cpu_seconds(process.pid) - cpu_before
        rss = peak_rss_mb(process.pid)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()
        log.close()
        await fake.stop()
    missing = doubled = None
    if bot == "quizbot":
        missing, doubled = check_answers(db, generator.user_ids)
    shutil.rmtree(workdir, ignore_errors=True)  # kept only when the run failed (its bot.log)
    answers = report.answers
    return Measurement(
        bot=bot,
        users=users,
        api_delay_ms=api_delay_ms,
        think_ms=think_ms,
        preload=preload,
        answers=answers,
        seconds=round(report.seconds, 2),
        answers_per_second=round(answers / report.seconds, 1) if report.seconds else 0.0,
        p50_ms=round(percentile(report.latencies, 50) * 1000, 1),
        p95_ms=round(percentile(report.latencies, 95) * 1000, 1),
        p99_ms=round(percentile(report.latencies, 99) * 1000, 1),
        callback_p99_ms=round(percentile(report.callback_latencies, 99) * 1000, 1),
        callback_max_ms=round(max(report.callback_latencies, default=float("nan")) * 1000, 1),
        late_queries=report.late_queries,
        unanswered_queries=report.unanswered_queries,
        stalled_users=report.stalled,
        cpu_seconds_per_1000_answers=round(cpu / answers * 1000, 2) if answers else float("nan"),
        peak_rss_mb=round(rss, 1),
        missing_answers=missing,
        doubled_answers=doubled,
        one_tap=one_tap,
        calls=dict(sorted(calls.items())),
    )


def median_of(rows: list[Measurement]) -> dict[str, float | int | str | None]:
    """Field-wise median of repeated measurements (worst case for counts of problems)."""
    first = asdict(rows[0])
    out: dict[str, float | int | str | None] = {}
    for key, value in first.items():
        values = [asdict(r)[key] for r in rows]
        if key == "calls":
            continue
        if key in (
            "late_queries",
            "unanswered_queries",
            "stalled_users",
            "missing_answers",
            "doubled_answers",
        ):
            out[key] = None if value is None else max(v for v in values if v is not None)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = round(statistics.median(values), 2)
        else:
            out[key] = value
    per_answer = [
        sum(n for method, n in r.calls.items() if method != "getUpdates") / r.answers
        for r in rows
        if r.calls is not None and r.answers
    ]
    out["calls_per_answer"] = round(statistics.median(per_answer), 2) if per_answer else None
    out["runs"] = len(rows)
    return out


COLUMNS = [
    ("bot", "bot"),
    ("users", "users"),
    ("api_delay_ms", "RTT ms"),
    ("think_ms", "think ms"),
    ("answers_per_second", "answers/s"),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
    ("p99_ms", "p99 ms"),
    ("callback_p99_ms", "query p99 ms"),
    ("calls_per_answer", "calls/answer"),
    ("cpu_seconds_per_1000_answers", "CPU s/1k answers"),
    ("peak_rss_mb", "peak RSS MB"),
    ("stalled_users", "stalled"),
    ("late_queries", "late queries"),
    ("missing_answers", "missing"),
    ("doubled_answers", "doubled"),
]


def _ratio(numerator: object, denominator: object) -> float | None:
    """numerator / denominator rounded, or None when the baseline did nothing measurable."""
    try:
        value = float(numerator) / float(denominator)  # type: ignore[arg-type]
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return None if value != value else round(value, 2)  # NaN


def table(rows: list[dict[str, float | int | str | None]], *, labels: bool = False) -> str:
    """A markdown table of median rows (``labels``: bots by their :data:`BOTS` label)."""
    lines = ["| " + " | ".join(title for _, title in COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for row in rows:
        cells = ["-" if row.get(k) is None else str(row.get(k)) for k, _ in COLUMNS]
        if labels:
            cells[0] = BOTS.get(str(row["bot"]), str(row["bot"]))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> dict[str, object]:
    """The machine the numbers come from (platform, Python, nproc: ``group_load.machine``)."""
    from benchmarks import group_load  # imports this module: not at the top

    return group_load.machine()


def packages() -> dict[str, str | None]:
    """Versions of the frameworks and HTTP stacks the bots run on (None: not installed)."""
    versions: dict[str, str | None] = {}
    for name in ("python-telegram-bot", "aiogram", "aiohttp", "httpx", "httpcore", "sniffio"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def shape_name(args: argparse.Namespace) -> str:
    """The results file's stem for a load shape, e.g. ``private-1000u-rtt0ms-think0ms``."""
    users = args.scale.replace(",", "-") if args.scale else str(args.users)
    delays = str(args.api_delay).replace(",", "-")
    think = f"{args.think:g}"
    bots = "" if args.bots == DEFAULT_BOTS else "-" + args.bots.replace(",", "-")
    flow = "-onetap" if getattr(args, "one_tap", False) else ""
    return f"private-{users}u-rtt{delays}ms-think{think}ms{flow}{bots}"


def ratio_lines(data: dict) -> list[str]:
    """One line per compared bot and load: quizbot's answers/s and CPU per answer over its."""
    lines = []
    for r in data.get("ratios", []):
        lines.append(
            f"- quizbot / {BOTS.get(r['against'], r['against'])} ({r['users']} users, "
            f"{r['api_delay_ms']:g} ms RTT): **{r['throughput_ratio']}x the answers/s, "
            f"{r['cpu_per_answer_ratio']}x the CPU per answer**"
        )
    return lines


def results_table(path: Path) -> str:
    """The markdown for one committed results file: where it comes from, the medians, the
    ratios, and the storage benchmark if it ran."""
    data = json.loads(path.read_text())
    m = data["machine"]
    runs = max((int(row.get("runs", 1)) for row in data["medians"]), default=0)
    args = data["args"]
    out = [
        f"`{path.name}`: `{data['command']}` (commit {data['git_commit'][:7]}, "
        f"{data['date'][:10]}; {m['platform']}, {m['nproc']} cores, Python {m['python']}; "
        f"medians of {runs} run{'s' if runs != 1 else ''} per bot, alternating; "
        f"think {args['think']:g} ms"
        f"{'; the one-tap flow' if args.get('one_tap') else ''})",
        "",
        table(data["medians"], labels=True),
    ]
    lines = ratio_lines(data)
    if lines:
        out += ["", *lines]
    storage = data.get("storage")
    if storage:
        s = storage["median"]
        out += [
            "",
            f"Storage (same run): {s['writers']:g} concurrent writers through the "
            f"storage layer, each answer durable before it is acknowledged: "
            f"{s['layer_answers_per_second']:g} answers/s ({s['layer_commits']:g} commits for "
            f"{s['layer_writes']:g} answers) against {s['plain_sqlite3_answers_per_second']:g}"
            f"/s for plain sqlite3 with one commit per answer: **{s['ratio']}x**.",
        ]
    return "\n".join(out)


def committed_tables(folder: Path = RESULTS) -> str:
    """The README's tables: every ``private-*.json`` in ``folder``, then the group load table
    (``group_load.committed_table``) when there are ``group-load-*.json`` files."""
    from benchmarks import group_load  # imports this module: not at the top

    parts = [results_table(path) for path in sorted(folder.glob("private-*.json"))]
    if any(folder.glob("group-load-*.json")):
        parts.append(group_load.committed_table(folder))
    return "\n\n".join(parts)


async def storage_benchmark(writers: int, rounds: int) -> dict[str, float]:
    """Durable answers per second: the storage layer (group commit) with ``writers`` concurrent
    writers, against plain sqlite3 with one commit per answer on one connection."""
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-storage-"))
    plan = Plan(
        tuple(f"q{i}" for i in range(QUESTIONS)), tuple((0, 1, 2, 3) for _ in range(QUESTIONS))
    )
    store = await SQLiteStore.open(workdir / "store.sqlite3")
    attempts = [await store.start_attempt(user, "bank", 1, plan, 0.0) for user in range(writers)]
    commits_before = store.commits
    started = time.perf_counter()
    for position in range(rounds):
        answer = Answer(f"q{position}", 1, True, 1.0)
        moved = [with_answer(a, answer) for a in attempts]
        outcomes = await asyncio.gather(
            *(
                store.record_answer(a.id, position, answer, m)
                for a, m in zip(attempts, moved, strict=True)
            )
        )
        assert all(o == "recorded" for o in outcomes), outcomes[:3]
        attempts = moved
    layer_seconds = time.perf_counter() - started
    commits = store.commits - commits_before
    await store.close()

    conn = sqlite3.connect(workdir / "plain.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute(
        "CREATE TABLE answers (attempt_id INTEGER, question_id TEXT, option_index"
        " INTEGER, correct INTEGER, answered_at REAL,"
        " PRIMARY KEY (attempt_id, question_id)) WITHOUT ROWID"
    )
    started = time.perf_counter()
    for position in range(rounds):
        for attempt in range(writers):
            conn.execute("BEGIN")
            conn.execute("INSERT INTO answers VALUES (?, ?, 1, 1, 1.0)", (attempt, f"q{position}"))
            conn.execute("COMMIT")
    plain_seconds = time.perf_counter() - started
    conn.close()
    shutil.rmtree(workdir, ignore_errors=True)
    total = writers * rounds
    return {
        "writers": writers,
        "answers": total,
        "layer_answers_per_second": round(total / layer_seconds, 1),
        "plain_sqlite3_answers_per_second": round(total / plain_seconds, 1),
        "ratio": round(plain_seconds / layer_seconds, 2),
        "layer_commits": commits,
        "layer_writes": total,
    }


async def main(args: argparse.Namespace, argv: list[str] | None = None) -> int:
    """Run what the flags ask for; print tables; write JSON (or, with ``--table``, print the
    committed results' tables and stop)."""
    if args.table:
        print(committed_tables())
        return 0
    from benchmarks.group_load import git_commit  # imports this module: not at the top

    bots = args.bots.split(",")
    for bot in bots:
        if bot not in BOTS:
            raise SystemExit(f"unknown bot {bot!r}: one of {', '.join(BOTS)}")
    results: dict[str, object] = {
        "command": "python -m benchmarks.run " + shlex.join(sys.argv[1:] if argv is None else argv),
        "git_commit": git_commit(),
        "machine": machine(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "packages": packages(),
        "args": vars(args),
    }
    print(f"machine: {results['machine']}\n")
    if args.storage:
        rows = [await storage_benchmark(args.writers, QUESTIONS) for _ in range(args.runs)]
        summary = {key: statistics.median(r[key] for r in rows) for key in rows[0]}
        results["storage"] = {"runs": rows, "median": summary}
        print("| storage | answers/s (median) |\n|---|---|")
        print(
            f"| storage layer, {args.writers} concurrent writers, group commit | "
            f"{summary['layer_answers_per_second']} |"
        )
        print(
            f"| plain sqlite3, one commit per answer | "
            f"{summary['plain_sqlite3_answers_per_second']} |"
        )
        print(
            f"\nratio layer/plain: {summary['ratio']}x "
            f"({summary['layer_commits']} commits for {summary['layer_writes']} writes)\n"
        )
    sizes = [int(x) for x in args.scale.split(",")] if args.scale else [args.users]
    configs = [
        (users, delay)
        for users in sizes
        for delay in [float(x) for x in str(args.api_delay).split(",")]
    ]
    medians: list[dict[str, float | int | str | None]] = []
    ratios: list[dict[str, object]] = []
    all_runs: list[dict[str, object]] = []
    for users, delay in configs:
        measurements: dict[str, list[Measurement]] = {bot: [] for bot in bots}
        for run in range(args.runs):
            for bot in bots if run % 2 == 0 else list(reversed(bots)):
                m = await measure(
                    bot,
                    users,
                    api_delay_ms=delay,
                    think_ms=args.think,
                    preload=args.preload,
                    step_timeout=args.step_timeout,
                    one_tap=args.one_tap,
                )
                measurements[bot].append(m)
                all_runs.append({"run": run + 1, **asdict(m)})
                print(
                    f"  run {run + 1}/{args.runs} {bot:19} users={users} delay={delay}ms: "
                    f"{m.answers_per_second} answers/s, p99 {m.p99_ms} ms, "
                    f"CPU {m.cpu_seconds_per_1000_answers} s/1k, stalled {m.stalled_users}",
                    flush=True,
                )
        rows = [median_of(measurements[bot]) for bot in bots]
        if "quizbot" in bots:
            q = rows[bots.index("quizbot")]
            for bot, row in zip(bots, rows, strict=True):
                if bot == "quizbot":
                    continue
                ratios.append(
                    {
                        "users": users,
                        "api_delay_ms": delay,
                        "against": bot,
                        "throughput_ratio": _ratio(
                            q["answers_per_second"], row["answers_per_second"]
                        ),
                        "cpu_per_answer_ratio": _ratio(
                            q["cpu_seconds_per_1000_answers"], row["cpu_seconds_per_1000_answers"]
                        ),
                    }
                )
        medians.extend(rows)
    results.update(measurements=all_runs, medians=medians, ratios=ratios)
    print("\n" + table(medians, labels=True))
    for line in ratio_lines(results):
        print(line)
    out = Path(args.json or RESULTS / f"{shape_name(args)}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\nwrote {out}")
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line flags."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.run",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--users", type=int, default=1000, help="simulated users (default 1000)")
    parser.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        help="comma-separated, run in this order (reversed every other run):"
        " quizbot, baseline (bare PTB, one update at a time),"
        " baseline-concurrent (PTB's concurrent_updates on),"
        " baseline-aiohttp (PTB on quizbot's transport), aiogram (bare"
        f" aiogram 3; needs the bench extra) (default {DEFAULT_BOTS})",
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per bot (default 3)")
    parser.add_argument(
        "--api-delay",
        default="0",
        help="ms added to every Bot API call but getUpdates; a comma-separated"
        " list runs each (default 0)",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="ms each user reads a question before tapping (default 0)",
    )
    parser.add_argument(
        "--scale", default="", help="comma-separated user counts to run instead of --users"
    )
    parser.add_argument(
        "--preload",
        type=int,
        default=0,
        help="answers already stored in quizbot's database (e.g. 100000)",
    )
    parser.add_argument(
        "--step-timeout",
        type=float,
        default=60.0,
        help="seconds a user waits for the bot before counting as stalled",
    )
    parser.add_argument(
        "--one-tap",
        action="store_true",
        help="the one-tap flow: quizbot's users chose it in /settings, the"
        " bare bots play it (an answer: the feedback edited in, the next"
        " question sent at once)",
    )
    parser.add_argument(
        "--storage",
        action="store_true",
        help="also benchmark the storage layer against plain sqlite3",
    )
    parser.add_argument(
        "--writers",
        type=int,
        default=1000,
        help="concurrent writers in the storage benchmark (default 1000)",
    )
    parser.add_argument(
        "--json", default="", help="results file (default benchmarks/results/private-<shape>.json)"
    )
    parser.add_argument(
        "--table",
        action="store_true",
        help="print the README tables from the committed results and exit",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse(), sys.argv[1:])))
