"""Benchmark the send budget: every job at its worst at once, on one and on two instances
sharing one PostgreSQL, through the real bot (``quizbot run`` processes) against the fake Bot
API with Telegram's limits (30 messages a second in all, 20 a minute per group, 1 a second
per private chat: it answers more with 429).

At one moment T (a whole minute, ``--lead`` seconds ahead at least), everything falls due
together, seeded in the database before the bots start:

- ``--groups`` groups' homework reaches its deadline (each group gets its results, each
  admin the results file);
- ``--reminders`` learners' daily review reminders are due (each has a card due);
- ``--daily`` groups' question of the day is due.

Meanwhile ``--repliers`` users write ``/help`` to the bot, one every 2 s each: the replies'
lag measures "replies first". Observed at the fake, from T on: the most messages in any
second, in any group's minute, 429s, and when each job's last send went (how long its sends
took); reminders sent twice (two instances must not).

    python -m benchmarks.sendbudget                      # the scale the issue asks for
    python -m benchmarks.sendbudget --groups 200 --reminders 3000 --daily 100
    python -m benchmarks.sendbudget --markdown benchmarks/results/sendbudget.json

The issue's scale (1,000 groups, 100,000 reminders, 500 daily posts) takes the budget, 20
a second, about 85 minutes per configuration: the committed results are of a smaller scale,
named in the results file and the documentation.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import shlex
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks.group_load import git_commit, log_problems, machine, stop_process
from benchmarks.homework import SENDING, most_in_window
from benchmarks.instances import new_database
from benchmarks.run import RESULTS
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS, DEFAULT_JOB_SENDS_PER_SECOND
from tests.support.fakebotapi import Call, FakeBotAPI
from tests.support.loadgen import percentile
from tests.support.pgserver import PgServer
from tests.support.processes import start_bot_process

OVERALL_LIMIT = 30
"""Messages a second the fake allows the bot in all (Telegram's, Bot API FAQ)."""
GROUP_LIMIT = 20
"""Messages a minute the fake allows the bot in one group."""
PRIVATE_LIMIT = 1
"""Messages a second the fake allows the bot in one private chat."""
HOMEWORK_GROUPS, DAILY_GROUPS = -1_001_000_000_000, -1_002_000_000_000
ADMINS, LEARNERS, REPLIERS = 10_000_000, 30_000_000, 40_000_000


class Observed:
    """What the fake saw from T on, sorted by job (a ``FakeBotAPI`` observer)."""

    def __init__(self, fake: FakeBotAPI, args: argparse.Namespace) -> None:
        self.offset = time.time() - time.monotonic()
        self.start = math.inf
        self.homework = {HOMEWORK_GROUPS - n for n in range(args.groups)}
        self.daily = {DAILY_GROUPS - n for n in range(args.daily)}
        self.admins = range(ADMINS, ADMINS + args.groups)
        self.learners = range(LEARNERS, LEARNERS + args.reminders)
        self.repliers = range(REPLIERS, REPLIERS + args.repliers)
        self.sends: list[tuple[float, int]] = []
        self.jobs: dict[str, list[float]] = defaultdict(list)
        self.results: set[int] = set()
        self.reports: set[int] = set()
        self.reminded: Counter[int] = Counter()
        self.posted: set[int] = set()
        self.replied: dict[int, asyncio.Event] = {}
        self.refused = 0
        self.refusals: Counter[str] = Counter()
        fake.observers.append(self.saw)

    def kind(self, chat: object) -> str:
        """Which job's chat ``chat`` is (for the 429s)."""
        return (
            "homework"
            if chat in self.homework or chat in self.admins
            else "daily"
            if chat in self.daily
            else "reminders"
            if chat in self.learners
            else "replies"
            if chat in self.repliers
            else "other"
        )

    def saw(self, call: Call) -> None:
        """Sort one answered call out."""
        if call.method not in SENDING:
            return
        chat = call.params.get("chat_id")
        at = call.at + self.offset
        if call.status == 429 and at >= self.start:
            self.refused += 1
            self.refusals[f"{call.method} {self.kind(chat)}"] += 1
        if not call.ok or not isinstance(chat, int):
            return
        if chat in self.repliers:
            if chat in self.replied:
                self.replied[chat].set()
        if at < self.start:
            return
        self.sends.append((at, chat))
        if chat in self.homework or (chat in self.admins and call.method == "sendDocument"):
            self.jobs["homework"].append(at)
            (self.results if chat in self.homework else self.reports).add(chat)
        elif chat in self.daily:
            self.jobs["daily"].append(at)
            self.posted.add(chat)
        elif chat in self.learners:
            self.jobs["reminders"].append(at)
            self.reminded[chat] += 1
        elif chat in self.repliers:
            self.jobs["replies"].append(at)

    def done(self) -> bool:
        """Every job's sends went out."""
        return (
            len(self.results) == len(self.homework)
            and len(self.reports) == len(self.homework)
            and len(self.posted) == len(self.daily)
            and len(self.reminded) == len(self.learners)
        )


def busiest_second(seen: Observed) -> dict[str, int]:
    """The sends of the busiest rolling second (the first, if several tie), by job: what a
    peak is made of."""
    sends = sorted(seen.sends)
    best: tuple[int, int] = (0, 0)  # (count, first index)
    start = 0
    for end, (moment, _) in enumerate(sends):
        while moment - sends[start][0] >= 1.0:
            start += 1
        if end - start + 1 > best[0]:
            best = (end - start + 1, start)
    count, first = best
    return dict(Counter(seen.kind(chat) for _, chat in sends[first : first + count]))


async def seed(url: str, args: argparse.Namespace, at: float, bank_id: str) -> None:
    """Store what falls due at ``at``: homework, daily schedules, learners with a due card."""
    from bot.features.daily.service import DailyService
    from bot.features.homework.service import HomeworkService
    from bot.features.private.service import QuizService
    from storage.postgres.store import PostgresStore

    banks = load_banks([BUNDLED_BANKS])
    store = await PostgresStore.open(url)
    try:
        quiz = QuizService(store, banks)
        homework = HomeworkService(store, store, quiz)
        daily = DailyService(store, banks, zones=store)
        minute = int(at % 86_400 // 60)
        for n in range(args.groups):
            await homework.assign(
                HOMEWORK_GROUPS - n,
                bank_id,
                at + 3600 if args.soon else at,  # soon: moved to T below (T may be past)
                language="en",
                set_by=ADMINS + n,
                set_by_name=f"Teacher {n}",
            )
        for n in range(args.daily):
            await daily.set_daily(
                DAILY_GROUPS - n,
                "supergroup",
                bank_id=bank_id,
                minute=minute,
                language="en",
                set_by=ADMINS,
            )
    finally:
        await store.close()
    question = banks[bank_id].questions[0].id
    hours = [0.0] * 24
    hours[int(at % 86_400 // 3600)] = 1.0
    db = await asyncpg.connect(url)
    try:
        users = list(range(LEARNERS, LEARNERS + args.reminders))
        await db.copy_records_to_table(
            "learners",
            columns=["user_id", "remind", "hours", "next_remind_at", "language"],
            records=[(u, 1, json.dumps(hours), at, "en") for u in users],
        )
        await db.copy_records_to_table(
            "cards",
            columns=["user_id", "bank_id", "question_id", "due", "last_review"],
            records=[(u, bank_id, question, at - 3600, at - 86_400) for u in users],
        )
        if args.soon:  # the schedules' next post at T itself, not at T's whole minute
            await db.execute("UPDATE daily_schedules SET next_at = $1", at)
            await db.execute("UPDATE assignments SET deadline = $1", at)
    finally:
        await db.close()


async def replies(fake: FakeBotAPI, seen: Observed, until: asyncio.Event) -> list[float]:
    """Each replier writes /help every 2 s until ``until``; the lag of each reply, in s."""
    lags: list[float] = []

    async def one(user_id: int) -> None:
        while not until.is_set():
            seen.replied[user_id] = asyncio.Event()
            sent = time.time()
            fake.send_message(user_id, "/help")
            try:
                await asyncio.wait_for(seen.replied[user_id].wait(), 60)
            except TimeoutError:
                lags.append(math.inf)
                continue
            if sent >= seen.start:
                lags.append(time.time() - sent)
            await asyncio.sleep(2.0)

    await asyncio.gather(*(one(u) for u in seen.repliers))
    return lags


async def measure(
    server: PgServer, instances: int, args: argparse.Namespace, bank_id: str, tag: str
) -> dict[str, Any]:
    """One configuration's run; its figures."""
    url = await new_database(server, f"sendbudget_{tag}")
    fake = FakeBotAPI()
    fake.bot_limit_per_second = OVERALL_LIMIT
    fake.group_limit_per_minute = GROUP_LIMIT
    fake.private_limit_per_second = PRIVATE_LIMIT
    for n in range(args.groups):
        fake.add_user(ADMINS + n, f"Teacher {n}", language_code="en")
        fake.open_private(ADMINS + n)
        fake.add_group(HOMEWORK_GROUPS - n, f"Class {n}", admins=[ADMINS + n])
    for n in range(args.daily):
        fake.add_group(DAILY_GROUPS - n, f"Daily {n}", admins=[ADMINS])
    for user_id in range(LEARNERS, LEARNERS + args.reminders):
        fake.add_user(user_id, f"Learner {user_id}", language_code="en")
        fake.open_private(user_id)
    for user_id in range(REPLIERS, REPLIERS + args.repliers):
        fake.add_user(user_id, f"Replier {user_id}", language_code="en")
    seen = Observed(fake, args)
    # the fake's users (a hundred thousand learners) never die: frozen out of the collector's
    # sight, so that a full collection of this process does not stall the fake's event loop
    # for seconds, after which the requests that queued meanwhile would be counted in one
    # rolling second (429s of the measuring instrument, not of the bot)
    gc.collect()
    gc.freeze()
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-sendbudget-"))
    at = time.time() + args.lead if args.soon else math.ceil((time.time() + args.lead) / 60) * 60
    seen.start = at
    processes: list[asyncio.subprocess.Process] = []
    logs = [workdir / f"bot{n}.log" for n in range(instances)]
    stop = asyncio.Event()
    try:
        await seed(url, args, at, bank_id)
        env = {"QUIZBOT_JOB_SENDS_PER_SECOND": f"{args.rate:g}", "PYTHONUNBUFFERED": "1"}
        processes.append(await start_bot_process(fake, url, logs[0], env=env))  # type: ignore[arg-type]
        for log in logs[1:]:
            processes.append(
                await start_bot_process(
                    fake,
                    url,
                    log,
                    env=env,  # type: ignore[arg-type]
                    ready=lambda log=log: "waiting for the poller lease" in log.read_text(),
                )
            )
        if time.time() >= at and not args.soon:  # soon: what is overdue at the start is due
            raise RuntimeError("the setup went past T: give a longer --lead")
        talking = asyncio.create_task(replies(fake, seen, stop))
        expected = (args.reminders + 2 * args.groups + args.daily) / args.rate
        await fake.wait_for(  # and a reply since T, so that the replies' lag is measured
            lambda: seen.done() and bool(seen.jobs["replies"]),
            timeout=at - time.time() + expected * 2 + args.timeout,
            recheck=1.0,
        )
        done_at = time.time()
        stop.set()
        lags = await talking
    finally:
        stop.set()
        for process in processes:
            await stop_process(process)
        await fake.stop()
        gc.unfreeze()  # what the run made may go now (this may be a test's process)
    times = sorted(t for t, _ in seen.sends)
    by_group: dict[int, list[float]] = defaultdict(list)
    for t, chat in seen.sends:
        if chat < 0:
            by_group[chat].append(t)
    jobs = {name: round(max(ts) - at, 1) for name, ts in seen.jobs.items() if name != "replies"}
    problems: dict[str, Any] = {"bot_log_errors": 0, "bot_log_exceptions": {}}
    for log in logs:
        found = log_problems(log)
        problems["bot_log_errors"] += found["bot_log_errors"]
        problems["bot_log_exceptions"].update(found["bot_log_exceptions"])
    reminders_s = jobs.get("reminders", 0.0)
    row = {
        "instances": instances,
        "T": datetime.fromtimestamp(at, UTC).isoformat(),
        "messages": len(times),
        "refused_429": seen.refused,
        "refused_by_kind": dict(seen.refusals),
        "most_per_second": most_in_window(times, 1.0),
        "busiest_second_by_job": busiest_second(seen),
        "mean_per_second": round(len(times) / max(done_at - at, 1e-9), 1),
        "group_most_per_minute": max(
            (most_in_window(sorted(v), 60.0) for v in by_group.values()), default=0
        ),
        "homework_results": len(seen.results),
        "homework_reports": len(seen.reports),
        "daily_posts": len(seen.posted),
        "reminders_sent": sum(seen.reminded.values()),
        "reminders_doubled": sum(c - 1 for c in seen.reminded.values() if c > 1),
        "job_seconds": jobs,
        "reminders_per_second": round(args.reminders / reminders_s, 1) if reminders_s else 0.0,
        "replies": len(lags),
        "reply_lag_p50_s": round(percentile(sorted(lags), 50), 3) if lags else None,
        "reply_lag_max_s": round(max(lags), 3) if lags else None,
        **problems,
    }
    shutil.rmtree(workdir, ignore_errors=True)
    return row


def readme_paragraph(results: dict[str, Any]) -> str:
    """The documentation's paragraph on the committed results (``--markdown``)."""
    a = results["args"]
    rows = {row["instances"]: row for row in results["rows"]}
    rate = a["rate"]

    def run(row: dict[str, Any]) -> str:
        jobs = row["job_seconds"]
        return (
            f"on {row['instances']} instance{'s' if row['instances'] > 1 else ''}: "
            f"{row['messages']:,} messages, at most {row['most_per_second']} in any second "
            f"({row['mean_per_second']:g} a second on average), at most "
            f"{row['group_most_per_minute']} in any group's minute, {row['refused_429']} "
            f"answered 429; the homework's sends were done {jobs.get('homework', 0):g} s after "
            f"T, the questions of the day's {jobs.get('daily', 0):g} s, the reminders' "
            f"{jobs.get('reminders', 0):g} s ({row['reminders_per_second']:g} reminders a "
            f"second, {row['reminders_doubled']} sent twice); the replies to /help took "
            f"{row['reply_lag_p50_s']:g} s at the median and {row['reply_lag_max_s']:g} s at "
            f"most"
        )

    return (
        f"Every job due at one moment T, through the real bot against the fake Bot API with "
        f"Telegram's limits ({OVERALL_LIMIT} a second in all, {GROUP_LIMIT} a minute per "
        f"group, {PRIVATE_LIMIT} a second per private chat), the jobs' budget at {rate:g} a "
        f"second, on PostgreSQL: {a['groups']:,} groups' homework at its deadline, "
        f"{a['reminders']:,} review reminders and {a['daily']:,} questions of the day, "
        f"while {a['repliers']} users wrote /help every 2 s. "
        + "; ".join(run(rows[n]) for n in sorted(rows)).capitalize()[:1]
        + "; ".join(run(rows[n]) for n in sorted(rows))[1:]
        + f". (`{results['command']}`, commit {results['git_commit'][:7]}, "
        f"{results['machine']['nproc']} cores, {results['date'][:10]}.)"
    )


async def main(args: argparse.Namespace, argv: list[str]) -> int:
    """Run each configuration once; print and write the figures."""
    if args.markdown:
        print(readme_paragraph(json.loads(Path(args.markdown).read_text())))
        return 0
    commit = git_commit()  # what runs, not what is checked out when the run ends
    bank_id = args.bank or next(iter(load_banks([BUNDLED_BANKS])))
    server = await asyncio.to_thread(PgServer.start)
    rows = []
    configurations = [int(n) for n in args.instances.split(",")]
    tags = [f"{number}_{int(time.time())}" for number in range(len(configurations))]
    try:
        if args.parallel:  # each with its own fake server and database, at once
            runs = zip(configurations, tags, strict=True)
            rows = list(
                await asyncio.gather(*(measure(server, n, args, bank_id, t) for n, t in runs))
            )
        else:
            for instances, tag in zip(configurations, tags, strict=True):
                rows.append(await measure(server, instances, args, bank_id, tag))
                print(json.dumps(rows[-1], indent=2), flush=True)
    finally:
        await asyncio.to_thread(server.stop)
    results = {
        "command": "python -m benchmarks.sendbudget " + shlex.join(argv),
        "git_commit": commit,
        "machine": machine(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "args": vars(args),
        "rows": rows,
    }
    out = Path(args.json or RESULTS / "sendbudget.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\n{readme_paragraph(results)}\n\nwrote {out}")
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line flags."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.sendbudget",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--groups", type=int, default=1000, help="groups whose homework is due at T (default 1000)"
    )
    parser.add_argument(
        "--reminders", type=int, default=100_000, help="review reminders due at T (default 100000)"
    )
    parser.add_argument(
        "--daily",
        type=int,
        default=500,
        help="groups whose question of the day is due at T (default 500)",
    )
    parser.add_argument(
        "--repliers",
        type=int,
        default=5,
        help="users writing /help every 2 s meanwhile (default 5)",
    )
    parser.add_argument(
        "--instances",
        default="1,2",
        help="configurations, comma-separated instance counts (default 1,2)",
    )
    parser.add_argument(
        "--rate",
        type=float,
        default=DEFAULT_JOB_SENDS_PER_SECOND,
        help="QUIZBOT_JOB_SENDS_PER_SECOND (default 20)",
    )
    parser.add_argument("--bank", default="", help="the quiz (default: the first bundled bank)")
    parser.add_argument(
        "--lead",
        type=float,
        default=60.0,
        help="least seconds from the start to T, for the setup (default 60)",
    )
    parser.add_argument(
        "--parallel",
        action="store_true",
        help="run the configurations at the same time, each against its own fake server and"
        " database, in this one process (the jobs send at the budget's rate, a light load, but"
        " a stall of this process's event loop stalls both fakes): the issue's scale takes"
        " about 85 minutes a configuration",
    )
    parser.add_argument(
        "--soon",
        action="store_true",
        help="T is --lead seconds from the start, not a whole minute (the questions of the day"
        " moved to T in the database): for the tests, which must not wait for the clock",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=120.0,
        help="seconds to wait beyond twice the budget's time (default 120)",
    )
    parser.add_argument(
        "--json", default="", help="results file (default benchmarks/results/sendbudget.json)"
    )
    parser.add_argument(
        "--markdown",
        default="",
        help="print the documentation paragraph of this results file and exit",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse(), sys.argv[1:])))
