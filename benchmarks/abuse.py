"""Abuse benchmarks: the real ``quizbot run`` process against the fake Bot API server.

(a) **Floods.** Probe users play the whole quiz (every answer and "next" tap) while one sender
floods, and their tap-to-acknowledgement p99 (tap pushed -> answerCallbackQuery reached the
server) is compared with the same number of probe users playing with no flood, in the same
bot process and the same run (rounds alternate: quiet, then each flood):

* ``start_spam``: one account sends /start as fast as the server takes it;
* ``held_chat``: one account's private chat answers every call 429 (``retry_after`` 5 s), while
  that account sends /help twenty times a second;
* ``group_floods``: 20 groups, in each a member sends ``/help@bot`` fifty times a second, the
  server enforcing Telegram's 20 messages a minute per group.

(b) **Group tap cost.** CPU seconds of the bot per recorded tap in a session with 5,000 players
(the last 500 taps of 5,000 on the first question) against taps in sessions of 50 players
(10 groups, 50 taps each), same bot process and run.

    python -m benchmarks.abuse                 # writes benchmarks/results/abuse.json
    python -m benchmarks.abuse --rounds 1 --probe-users 10 --big 500   # a quick look
    python -m benchmarks.abuse --markdown benchmarks/results/abuse.json  # README tables
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

from benchmarks.run import ROOT, cpu_seconds, machine, peak_rss_mb
from tests.support.fakebotapi import FakeBotAPI
from tests.support.loadgen import LoadGenerator, percentile

QUESTIONS = 8
CONDITIONS = ("quiet", "start_spam", "held_chat", "group_floods")


@contextlib.asynccontextmanager
async def bot_process(
    fake: FakeBotAPI, workdir: Path, question_seconds: float = 600.0
) -> AsyncIterator[asyncio.subprocess.Process]:
    """The real ``quizbot run`` polling ``fake``; stopped with SIGINT at the end."""
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "QUIZBOT_DB": str(workdir / "bench.sqlite3"),
        "PYTHONUNBUFFERED": "1",
        "QUIZBOT_QUESTION_SECONDS": str(question_seconds),
    }
    log = (workdir / "bot.log").open("wb")
    process = await asyncio.create_subprocess_exec(
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
    try:
        await fake.wait_for(
            lambda: fake.polling or process.returncode is not None, timeout=60, recheck=0.05
        )
        if process.returncode is not None:
            raise RuntimeError(f"quizbot did not start: {(workdir / 'bot.log').read_text()}")
        yield process
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(process.wait(), 60)
            except TimeoutError:
                process.kill()
        log.close()


# --- (a) floods ----------------------------------------------------------------------------


async def _repeat(
    push: Callable[[], None],
    per_tick: int,
    tick: float,
    stop: asyncio.Event,
    fake: FakeBotAPI,
    backlog: int | None,
) -> int:
    """Call ``push`` ``per_tick`` times every ``tick`` seconds until ``stop``; how many.
    With ``backlog``, skip a tick while that many updates wait at the server (a flood the bot
    can drain on a slow machine: the CI-sized test's, not the benchmark's)."""
    pushed = 0
    while not stop.is_set():
        if backlog is None or fake.pending_updates() < backlog:
            for _ in range(per_tick):
                push()
            pushed += per_tick
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), tick)
    return pushed


async def flood(
    fake: FakeBotAPI, condition: str, round_: int, stop: asyncio.Event, backlog: int | None = None
) -> int:
    """Run one flood until ``stop``; how many updates it pushed (``backlog``: see
    :func:`_repeat`)."""
    base = 900_000 + round_ * 1_000
    if condition == "start_spam":
        fake.add_user(base, "Spammer")
        return await _repeat(
            lambda: fake.send_message(base, "/start"), 100, 0.05, stop, fake, backlog
        )
    if condition == "held_chat":
        fake.add_user(base + 1, "Held")
        fake.flood(base + 1, retry_after=5, times=1_000_000)
        try:
            return await _repeat(
                lambda: fake.send_message(base + 1, "/help"), 1, 0.05, stop, fake, backlog
            )
        finally:
            fake.flood(base + 1, retry_after=1, times=1)  # the next call ends the flood waits
    if condition == "group_floods":
        fake.group_limit_per_minute = 20
        groups = []
        for i in range(20):
            member, chat_id = base + 100 + i, -(1_009_000_000_000 + base + i)
            fake.add_user(member, f"Member {i}")
            fake.add_group(chat_id, f"Group {i}", admins=[member])
            groups.append((member, chat_id))

        def push() -> None:
            for member, chat_id in groups:
                fake.send_message(member, f"/help@{fake.bot_username}", chat_id=chat_id)

        return await _repeat(push, 1, 0.02, stop, fake, backlog) * len(groups)
    return 0


async def probe(
    fake: FakeBotAPI,
    condition: str,
    round_: int,
    users: int,
    think_ms: float,
    backlog: int | None = None,
) -> dict[str, float | int | str]:
    """Probe users play while ``condition``'s flood runs; their tap-to-ack figures."""
    first = 100_000 + (round_ * len(CONDITIONS) + CONDITIONS.index(condition)) * 1_000
    generator = LoadGenerator(
        fake,
        users,
        questions=QUESTIONS,
        think=think_ms / 1000,
        first_user_id=first,
        step_timeout=60,
    )
    stop = asyncio.Event()
    flooding = asyncio.create_task(flood(fake, condition, round_, stop, backlog))
    try:
        report = await generator.run()
    finally:
        stop.set()
        pushed = await flooding
    # let the bot take the rest of the flood before the next condition
    await fake.wait_for(lambda: fake.pending_updates() == 0, timeout=120)
    latencies = report.callback_latencies
    return {
        "condition": condition,
        "round": round_,
        "taps": len(latencies),
        "flood_updates": pushed,
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 1),
        "unanswered": report.unanswered_queries,
        "stalled": report.stalled,
    }


async def floods(
    rounds: int, users: int, think_ms: float, backlog: int | None = None
) -> dict[str, object]:
    """Benchmark (a) in one bot process (``backlog``: see :func:`_repeat`; None in the
    benchmark)."""
    fake = FakeBotAPI()
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-abuse-"))
    rows = []
    try:
        async with bot_process(fake, workdir) as process:
            for round_ in range(rounds):
                for condition in CONDITIONS:
                    fake.group_limit_per_minute = None
                    row = await probe(fake, condition, round_, users, think_ms, backlog)
                    rows.append(row)
                    print(
                        f"  round {round_ + 1}/{rounds} {condition:12}: p99 {row['p99_ms']} ms,"
                        f" p50 {row['p50_ms']} ms, {row['flood_updates']} flood updates,"
                        f" stalled {row['stalled']}",
                        flush=True,
                    )
            rss = peak_rss_mb(process.pid)
    finally:
        await fake.stop()
    shutil.rmtree(workdir, ignore_errors=True)  # kept only when the run failed (its bot.log)
    medians = {
        c: statistics.median(r["p99_ms"] for r in rows if r["condition"] == c) for c in CONDITIONS
    }
    return {
        "probe_users": users,
        "think_ms": think_ms,
        "rounds": rows,
        "median_p99_ms": medians,
        "peak_rss_mb": round(rss, 1),
        "p99_ratio_vs_quiet": {
            c: round(medians[c] / medians["quiet"], 2) if medians["quiet"] else None
            for c in CONDITIONS
            if c != "quiet"
        },
    }


# --- (b) group tap cost ----------------------------------------------------------------------


async def _session(fake: FakeBotAPI, chat_id: int, members: list[int]) -> dict:
    """Add the group, start a session; the first question's message."""
    for user_id in members:
        fake.add_user(user_id, f"P{user_id}")
    fake.add_group(chat_id, f"Group {chat_id}", admins=members[:1], members=members[1:])
    fake.send_message(members[0], "/quiz", chat_id=chat_id)
    return await fake.wait_for(
        lambda: next(
            (
                m
                for m in reversed(fake.messages(chat_id))
                if any(
                    b.get("callback_data", "").startswith("g:")
                    for row in m.get("reply_markup", {}).get("inline_keyboard", [])
                    for b in row
                )
            ),
            None,
        ),
        timeout=30,
    )


async def _taps(fake: FakeBotAPI, taps: list[tuple[int, int, dict]]) -> None:
    """Push the taps (user, chat, question message), 200 at a time; wait for every answer."""
    ids = []
    for i, (user_id, chat_id, message) in enumerate(taps):
        data = message["reply_markup"]["inline_keyboard"][0][0]["callback_data"]
        ids.append(fake.tap(user_id, chat_id, message["message_id"], data)["callback_query"]["id"])
        if i % 200 == 199:
            await fake.wait_for(lambda: all(q in fake.callback_answers for q in ids), timeout=120)
    await fake.wait_for(lambda: all(q in fake.callback_answers for q in ids), timeout=120)


async def _measured(pid: int, work: Awaitable[None]) -> float:
    before = cpu_seconds(pid)
    await work
    return cpu_seconds(pid) - before


async def tap_cost(
    rounds: int, big: int, small: int, small_groups: int, measured: int
) -> dict[str, object]:
    """Benchmark (b) in one bot process: CPU per tap with ``big`` players against ``small``."""
    fake = FakeBotAPI()
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-taps-"))
    rows = []
    try:
        async with bot_process(fake, workdir) as process:
            for round_ in range(rounds):
                base = 2_000_000 + round_ * 100_000
                results = {}
                for kind in ("big", "small") if round_ % 2 == 0 else ("small", "big"):
                    if kind == "big":
                        chat_id = -(1_008_000_000_000 + round_)
                        members = list(range(base, base + big))
                        question = await _session(fake, chat_id, members)
                        warm = [(u, chat_id, question) for u in members[: big - measured]]
                        await _taps(fake, warm)  # the session has big - measured players now
                        timed = [(u, chat_id, question) for u in members[big - measured :]]
                    else:
                        timed = []
                        for g in range(small_groups):
                            chat_id = -(1_007_000_000_000 + round_ * 100 + g)
                            members = list(
                                range(base + 50_000 + g * small, base + 50_000 + (g + 1) * small)
                            )
                            question = await _session(fake, chat_id, members)
                            timed += [(u, chat_id, question) for u in members]
                    cpu = await _measured(process.pid, _taps(fake, timed))
                    results[kind] = (cpu, len(timed))
                row = {
                    "round": round_,
                    "big_cpu_ms_per_tap": round(results["big"][0] / results["big"][1] * 1000, 3),
                    "small_cpu_ms_per_tap": round(
                        results["small"][0] / results["small"][1] * 1000, 3
                    ),
                    "big_taps": results["big"][1],
                    "small_taps": results["small"][1],
                }
                row["ratio"] = (
                    round(row["big_cpu_ms_per_tap"] / row["small_cpu_ms_per_tap"], 2)
                    if row["small_cpu_ms_per_tap"]
                    else None
                )  # below a clock tick
                rows.append(row)
                print(
                    f"  round {round_ + 1}/{rounds}: {big} players "
                    f"{row['big_cpu_ms_per_tap']} ms CPU/tap, {small} players "
                    f"{row['small_cpu_ms_per_tap']} ms CPU/tap, ratio {row['ratio']}",
                    flush=True,
                )
    finally:
        await fake.stop()
    shutil.rmtree(workdir, ignore_errors=True)  # kept only when the run failed (its bot.log)
    return {
        "big_players": big,
        "small_players": small,
        "small_groups": small_groups,
        "rounds": rows,
        "median_big_cpu_ms_per_tap": statistics.median(r["big_cpu_ms_per_tap"] for r in rows),
        "median_small_cpu_ms_per_tap": statistics.median(r["small_cpu_ms_per_tap"] for r in rows),
        "median_ratio": statistics.median(r["ratio"] for r in rows if r["ratio"] is not None)
        if any(r["ratio"] is not None for r in rows)
        else None,
    }


# --- output ----------------------------------------------------------------------------------


def markdown(results: dict) -> str:
    """The README tables, from a results JSON."""
    lines = []
    a = results.get("floods")
    if a:
        lines += [
            f"Tap-to-acknowledgement p99 of {a['probe_users']} probe users playing the "
            f"quiz, median of {len(a['rounds']) // len(CONDITIONS)} round(s):",
            "",
            "| while | p99 (ms) | vs no flood, same run |",
            "|---|---|---|",
        ]
        for condition in CONDITIONS:
            ratio = a["p99_ratio_vs_quiet"].get(condition)
            lines.append(
                f"| {condition.replace('_', ' ')} | {a['median_p99_ms'][condition]} | "
                f"{'baseline' if condition == 'quiet' else f'{ratio}x'} |"
            )
        lines.append("")
    b = results.get("tap_cost")
    if b:
        lines += [
            "| group session | bot CPU per tap (ms) |",
            "|---|---|",
            f"| {b['small_players']} players ({b['small_groups']} groups) | "
            f"{b['median_small_cpu_ms_per_tap']} |",
            f"| {b['big_players']} players | {b['median_big_cpu_ms_per_tap']} |",
            "",
            f"Ratio {b['big_players']}/{b['small_players']} players: "
            f"{b['median_ratio']}x (median of {len(b['rounds'])} round(s)).",
            "",
        ]
    meta = results["meta"]
    lines.append(
        f"Measured {meta['date']} at commit {meta['commit'][:10]} on "
        f"{meta['machine']['cores']} cores, Python {meta['machine']['python']}: "
        f"`{meta['command']}`."
    )
    return "\n".join(lines)


def git_commit() -> str:
    """The commit measured (with "-dirty" when the tree has changes)."""
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    return commit + ("-dirty" if dirty else "")


async def main(args: argparse.Namespace, argv: list[str]) -> int:
    """Run the benchmarks; print; write the JSON."""
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text())))
        return 0
    results: dict[str, object] = {
        "meta": {
            "command": " ".join(["python -m benchmarks.abuse", *argv]),
            "commit": git_commit(),
            "machine": machine(),
            "date": time.strftime("%Y-%m-%d"),
        }
    }
    if not args.skip_floods:
        print("(a) floods")
        results["floods"] = await floods(args.rounds, args.probe_users, args.think)
    if not args.skip_taps:
        print("(b) group tap cost")
        results["tap_cost"] = await tap_cost(
            args.rounds, args.big, args.small, args.small_groups, args.measured
        )
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n")
    print("\n" + markdown(results) + f"\n\nwrote {out}")
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    """Command-line flags."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.abuse",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--probe-users", type=int, default=30)
    parser.add_argument("--think", type=float, default=50.0, help="ms before each tap")
    parser.add_argument("--big", type=int, default=5000)
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--small-groups", type=int, default=10)
    parser.add_argument("--measured", type=int, default=500, help="timed taps, big session")
    parser.add_argument("--skip-floods", action="store_true")
    parser.add_argument("--skip-taps", action="store_true")
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "abuse.json"))
    parser.add_argument("--markdown", help="print the README tables of a results JSON")
    return parser.parse_args(argv)


if __name__ == "__main__":
    argv = sys.argv[1:]
    sys.exit(asyncio.run(main(parse(argv), argv)))
