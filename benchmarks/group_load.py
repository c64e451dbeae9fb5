"""Benchmark group quiz sessions under load, through the fake Bot API server.

The fake server runs in this process; the real bot (``quizbot run``, with
``QUIZBOT_QUESTION_SECONDS`` = ``--window`` and a temporary database) runs as a separate process
polling it over loopback. ``--groups`` supergroups of ``--members`` members each start a session
within ``--spread`` seconds; every member taps every question once, uniformly ``--taps`` seconds
after it appeared (``tests/support/grouploadgen.py``). In the same invocation and at the same
``--api-delay``, a short private-chat run (``tests/support/loadgen.py``, ``--private-users`` users)
measures the bot's CPU per private answer, so CPU per group tap is reported as a ratio to it.

    python -m benchmarks.group_load --groups 100 --members 50 --api-delay 0,50
    python -m benchmarks.group_load --groups 1 --members 2000 --api-delay 0,50
    python -m benchmarks.group_load --table     # the committed results as a markdown table

Prints a markdown table and writes JSON (command, git commit, machine, date, every figure) to
``benchmarks/results/group-load-<groups>x<members>[-<label>].json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from benchmarks.run import QUESTIONS, ROOT, _ratio, cpu_seconds, measure, peak_rss_mb
from tests.support.fakebotapi import FakeBotAPI
from tests.support.grouploadgen import GroupLoadGenerator
from tests.support.processes import start_bot_process

RESULTS = ROOT / "benchmarks" / "results"


@contextlib.contextmanager
def environment(**values: str) -> Iterator[None]:
    """Set environment variables for the duration (the bot process inherits them)."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


async def stop_process(process: asyncio.subprocess.Process, grace: float = 30.0) -> None:
    """SIGINT the bot (a clean shutdown); kill it if it is not gone after ``grace`` seconds."""
    if process.returncode is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        await asyncio.wait_for(process.wait(), grace)
    except TimeoutError:
        process.kill()
        await process.wait()


def stored_answers(db: Path) -> int | None:
    """Group answers in the bot's database after the run (None if unreadable)."""
    try:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            return int(conn.execute("SELECT COUNT(*) FROM group_answers").fetchone()[0])
    except sqlite3.Error:
        return None


async def measure_groups(
    groups: int,
    members: int,
    *,
    window: float,
    taps: tuple[float, float],
    api_delay_ms: float,
    spread: float,
    slack: float,
    seed: int,
) -> dict[str, object]:
    """One group-session run against the real bot process.

    Args:
        groups: Supergroups (one session each).
        members: Members per group.
        window: The bot's answer window per question, in seconds.
        taps: (lo, hi) seconds after a question appears within which each member taps.
        api_delay_ms: Milliseconds added to every Bot API call but getUpdates.
        spread: Seconds within which all sessions start.
        slack: Seconds to wait for leaderboards beyond the expected duration.
        seed: The generator's seed.

    Returns:
        The report's summary plus the bot's peak RSS (MiB), the stored answers and the load
        generator process's own CPU seconds.
    """
    fake = FakeBotAPI()
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-group-load-"))
    db, log = workdir / "bench.sqlite3", workdir / "bot.log"
    try:
        with environment(QUIZBOT_QUESTION_SECONDS=str(window), PYTHONUNBUFFERED="1"):
            process = await start_bot_process(fake, db, log)
        try:
            if api_delay_ms:
                fake.delay(api_delay_ms / 1000)
            generator = GroupLoadGenerator(
                fake,
                groups=groups,
                members=members,
                tap_window=taps,
                window=window,
                questions=QUESTIONS,
                start_spread=spread,
                slack=slack,
                seed=seed,
            )
            own_cpu = time.process_time()
            report = await generator.run(cpu_clock=lambda: cpu_seconds(process.pid))
            own_cpu = time.process_time() - own_cpu
            rss = peak_rss_mb(process.pid)
        finally:
            await stop_process(process)
    finally:
        await fake.stop()
    row = {
        "api_delay_ms": api_delay_ms,
        **report.summary(),
        "tap_window_s": list(taps),
        "peak_rss_mb": round(rss, 1),
        "stored_answers": stored_answers(db),
        "generator_cpu_seconds": round(own_cpu, 2),
    }
    row.update(log_problems(log))
    shutil.rmtree(workdir, ignore_errors=True)
    return row


EXCEPTION_LINE = re.compile(r"^(?:[a-z_]\w*\.)*[A-Z]\w*: .*")
"""The last line of a traceback: ``telegram.error.BadRequest: Message is too long``."""


def log_problems(log: Path) -> dict[str, object]:
    """What the bot logged at ERROR level: how many lines, and each distinct exception (the
    last line of its traceback) with how often it came."""
    lines = log.read_text(errors="replace").splitlines()
    exceptions = Counter(line for line in lines if EXCEPTION_LINE.match(line))
    return {
        "bot_log_errors": sum(" ERROR " in line for line in lines),
        "bot_log_exceptions": dict(exceptions.most_common(10)),
    }


COLUMNS = [
    ("shape", "groups x members"),
    ("api_delay_ms", "RTT ms"),
    ("finished_stuck", "finished / stuck"),
    ("taps", "taps"),
    ("refused_in_time", "in-time taps refused"),
    ("lost_doubled", "lost / doubled"),
    ("wrong_reveals", "wrong reveals"),
    ("closes", "early / premature closes"),
    ("lag", "reveal lag p95 / max ms"),
    ("ack", "ack p50 / p95 / p99 ms"),
    ("unanswered_queries", "unanswered"),
    ("cpu_ms_per_tap", "CPU ms per tap"),
    ("private_cpu_ms_per_answer", "CPU ms per private answer"),
    ("cpu_ratio", "tap / private CPU"),
]


def _cell(row: dict[str, object], key: str) -> str:
    def show(value: object) -> str:
        return "-" if value is None else str(value)

    if key == "shape":
        return f"{row['groups']} x {row['members']}"
    if key == "finished_stuck":
        return f"{row['finished']} / {row['stuck']}"
    if key == "lost_doubled":
        return f"{row['lost']} / {row['doubled']}"
    if key == "closes":
        return f"{row['early_closes']} / {row['premature_closes']}"
    if key == "lag":
        return f"{show(row['reveal_lag_p95_ms'])} / {show(row['reveal_lag_max_ms'])}"
    if key == "ack":
        return " / ".join(show(row[k]) for k in ("ack_p50_ms", "ack_p95_ms", "ack_p99_ms"))
    return show(row.get(key))


def table(rows: list[dict[str, object]], *, label: bool = False) -> str:
    """A markdown table of result rows (``label``: first column names the results file)."""
    columns = ([("file", "results")] if label else []) + COLUMNS
    lines = ["| " + " | ".join(title for _, title in columns) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join(_cell(row, key) for key, _ in columns) + " |")
    return "\n".join(lines)


def committed_table(folder: Path = RESULTS) -> str:
    """The table of every ``group-load-*.json`` in ``folder``, file by file."""
    rows = []
    for path in sorted(folder.glob("group-load-*.json")):
        data = json.loads(path.read_text())
        rows += [
            {"file": f"`{path.name}` ({data['git_commit'][:7]}, {data['date'][:10]})", **row}
            for row in data["rows"]
        ]
    return table(rows, label=True)


SUMMARY_BEGIN, SUMMARY_END = "<!-- group-load-summary:begin -->", "<!-- group-load-summary:end -->"


def _ceil(value: float, digits: int = 2) -> str:
    """``value`` rounded up to ``digits`` decimals (a bound is never understated)."""
    scale = 10**digits
    return f"{math.ceil(value * scale - 1e-9) / scale:.{digits}f}"


def _shapes(rows: list[dict[str, object]]) -> str:
    """``100 groups of 50, one group of 2,000 and one of 5,000``: the shapes of ``rows``."""
    shapes = sorted(
        {(int(r["groups"]), int(r["members"])) for r in rows},  # type: ignore[call-overload]
        key=lambda shape: (-shape[0], shape[1]),
    )
    words: list[str] = []
    for groups, members in shapes:
        if groups > 1:
            words.append(f"{groups:,} groups of {members:,}")
        else:
            single = any(word.startswith("one ") for word in words)
            words.append(f"one {'' if single else 'group '}of {members:,}")
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]


def committed_summary(folder: Path = RESULTS) -> str:
    """The README's paragraph on the current bot's results: the files without a label
    (``group-load-<groups>x<members>.json``), summed up as bounds over all their rows."""
    from bot.telegram.ordering import DEFAULT_MAX_CONCURRENT_UPDATES

    rows: list[dict[str, object]] = []
    for path in sorted(folder.glob("group-load-*.json")):
        if re.fullmatch(r"group-load-\d+x\d+\.json", path.name):
            rows += json.loads(path.read_text())["rows"]

    def total(*keys: str) -> int:
        return sum(int(r[k]) for r in rows for k in keys)  # type: ignore[call-overload]

    def high(key: str) -> float:
        return max(float(r[key]) for r in rows)  # type: ignore[arg-type]

    def low(key: str) -> float:
        return min(float(r[key]) for r in rows)  # type: ignore[arg-type]

    def counted(count: int, none: str, some: str) -> str:
        return none if count == 0 else f"{count} {some}"

    delays = sorted({float(r["api_delay_ms"]) for r in rows})  # type: ignore[arg-type]
    where = " and ".join("on loopback" if d == 0 else f"with {d:g} ms per call" for d in delays)
    busiest = max(
        rows,
        key=lambda r: (
            int(r["groups"])
            * int(r["members"])  # type: ignore[call-overload]
            / (float(r["tap_window_s"][1]) - float(r["tap_window_s"][0]))
        ),
    )  # type: ignore[index]
    spread = float(busiest["tap_window_s"][1]) - float(busiest["tap_window_s"][0])  # type: ignore[index]
    rate = int(busiest["groups"]) * int(busiest["members"]) / spread  # type: ignore[call-overload]
    return (
        "The other rows are the current bot, each file at the commit it names: "
        + ", ".join(
            [
                counted(total("stuck"), "every session finished", "sessions stuck"),
                counted(total("refused_in_time"), "no in-time tap refused", "in-time taps refused"),
                counted(
                    total("lost", "doubled"), "no answer lost or doubled", "answers lost or doubled"
                ),
                counted(total("wrong_reveals"), "no wrong reveal", "wrong reveals"),
                f"every reveal within {_ceil(high('reveal_lag_max_ms') / 1000)} s of its deadline "
                "(or early, once every member had answered)",
            ]
        )
        + f", and the acknowledgement p99 at most {_ceil(high('ack_p99_ms') / 1000)} s, "
        f"{where}, for {_shapes(rows)}. A tap costs {low('cpu_ratio'):.2f} to "
        f"{high('cpu_ratio'):.2f} of the CPU of a private answer (one Bot API call and one "
        "write, against four calls, a write and two screens); with "
        f"{DEFAULT_MAX_CONCURRENT_UPDATES} updates in flight a tap holds its slot for its write "
        "and its answerCallbackQuery only (its review card is rated later, in a batch). The "
        f"bot's CPU is {low('cpu_ms_per_tap'):.1f} to {high('cpu_ms_per_tap'):.1f} ms a tap, so "
        "one process keeps up with a few hundred taps a second on one core; "
        f"{_shapes([busiest])} tapping within the same {spread:g} s reach about "
        f"{rate:.0f} a second."
    )


def git_commit() -> str:
    """``git rev-parse HEAD`` of the repository (with ``-dirty`` when files are changed)."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    head = git("rev-parse", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "bot", "storage")
    return head + ("-dirty" if dirty else "")


def machine() -> dict[str, object]:
    """The machine the numbers come from."""
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "nproc": len(os.sched_getaffinity(0)),
        "cpu_count": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
    }


async def main(args: argparse.Namespace, argv: list[str]) -> int:
    """Run each --api-delay: the group load, then the private baseline; print; write JSON."""
    if args.table:
        print(committed_table())
        return 0
    commit = git_commit()  # what runs, not what is checked out when the run ends
    lo, hi = (float(x) for x in args.taps.split(","))
    rows = []
    for delay in [float(x) for x in str(args.api_delay).split(",")]:
        row = await measure_groups(
            args.groups,
            args.members,
            window=args.window,
            taps=(lo, hi),
            api_delay_ms=delay,
            spread=args.spread,
            slack=args.slack,
            seed=args.seed,
        )
        print(
            f"  groups {args.groups}x{args.members} RTT {delay} ms: finished {row['finished']},"
            f" stuck {row['stuck']}, taps {row['taps']}, refused in time "
            f"{row['refused_in_time']}, lost {row['lost']}, doubled {row['doubled']}, "
            f"CPU {row['cpu_ms_per_tap']} ms/tap",
            flush=True,
        )
        private = await measure(
            "quizbot",
            args.private_users,
            api_delay_ms=delay,
            think_ms=args.private_think,
            preload=0,
            step_timeout=60.0,
        )
        per_answer = (
            private.cpu_seconds_per_1000_answers if private.answers else None
        )  # CPU s per 1k answers = ms per answer
        row.update(
            private_users=args.private_users,
            private_think_ms=args.private_think,
            private_answers=private.answers,
            private_stalled=private.stalled_users,
            private_cpu_ms_per_answer=per_answer,
            cpu_ratio=_ratio(row["cpu_ms_per_tap"], per_answer),
        )
        print(
            f"  private {args.private_users} users RTT {delay} ms: CPU {per_answer} ms/answer;"
            f" group tap / private answer: {row['cpu_ratio']}x",
            flush=True,
        )
        rows.append(row)
    print("\n" + table(rows))
    results = {
        "command": "python -m benchmarks.group_load " + shlex.join(argv),
        "git_commit": commit,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "args": vars(args),
        "rows": rows,
    }
    suffix = f"-{args.label}" if args.label else ""
    out = Path(args.json or RESULTS / f"group-load-{args.groups}x{args.members}{suffix}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\nwrote {out}")
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line flags."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.group_load",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--groups", type=int, default=100, help="supergroups (default 100)")
    parser.add_argument("--members", type=int, default=50, help="members per group (default 50)")
    parser.add_argument(
        "--window",
        type=float,
        default=20.0,
        help="answer window per question, seconds (default 20)",
    )
    parser.add_argument(
        "--taps",
        default="2,15",
        help="lo,hi: seconds after a question appears within which each member taps (default 2,15)",
    )
    parser.add_argument(
        "--api-delay",
        default="0",
        help="ms added to every Bot API call but getUpdates; a comma-separated"
        " list runs each (default 0)",
    )
    parser.add_argument(
        "--spread",
        type=float,
        default=5.0,
        help="seconds within which all sessions start (default 5)",
    )
    parser.add_argument(
        "--slack",
        type=float,
        default=30.0,
        help="seconds to wait for leaderboards beyond spread + 8 x window before"
        " counting sessions stuck (default 30)",
    )
    parser.add_argument(
        "--private-users",
        type=int,
        default=200,
        help="users of the private-chat baseline run (default 200)",
    )
    parser.add_argument(
        "--private-think",
        type=float,
        default=1000.0,
        help="ms each private user reads a question (default 1000)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--label", default="", help="suffix of the results file, e.g. 'before'")
    parser.add_argument("--json", default="", help="results file (default from the shape)")
    parser.add_argument(
        "--table",
        action="store_true",
        help="print the committed results as a markdown table and exit",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse(), sys.argv[1:])))
