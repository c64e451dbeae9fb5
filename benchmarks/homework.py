"""Benchmark the homework deadline minute: many groups whose homework is due at the same
moment, through the real bot (``quizbot run``, a separate process with a temporary database)
polling the fake Bot API server in this process.

1. ``--groups`` supergroups, each with an admin and ``--members`` members. Each admin writes to
   the bot privately (so that it may send them the results file) and sends
   ``/assign <bank> YYYY-MM-DD HH:MM`` in their group: every homework is due at the same
   minute, the first whole minute at least ``--lead`` seconds ahead. The bot posts each group's
   homework message.
2. The bot is stopped and ``--players`` members of each group play the homework privately
   through the core on the bot's database (``HomeworkService.open``, then the private quiz's
   grade and record; some right, some wrong, one in five stopping halfway), then the bot is
   started again, as a deploy would: only the deadline minute is measured with the bot at work.
3. At the deadline every group gets its results, the admins their reports. Observed at the
   fake: each group's results message's lag after the deadline, the reports', the closed
   edits, each group's most messages in any 60 s (the fake answers a 21st with 429) and the
   most messages the bot sent in any second overall (Telegram: about 30).

    python -m benchmarks.homework --groups 1000
    python -m benchmarks.homework --markdown benchmarks/results/homework.json

Prints the figures and writes JSON (command, git commit, machine, date, every figure) to
``benchmarks/results/homework.json`` (``--json``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import re
import shlex
import shutil
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchmarks.group_load import git_commit, log_problems, machine, stop_process
from benchmarks.run import RESULTS, cpu_seconds, peak_rss_mb
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from tests.support.fakebotapi import Call, FakeBotAPI
from tests.support.loadgen import percentile
from tests.support.processes import start_bot_process

SENDING = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "sendDocument",
        "sendPhoto",
        "editMessageReplyMarkup",
        "sendPoll",
        "copyMessage",
        "forwardMessage",
    }
)
"""The Bot API calls that are messages for Telegram's flood limits (sends and edits)."""
TOKEN = re.compile(r"start=(hw[A-Za-z0-9_-]{16})")
"""A homework deep link in a URL button."""
GROUP_LIMIT = 20
"""Messages a minute Telegram allows a bot in one group (the fake enforces it here)."""
OVERALL_LIMIT = 30
"""Messages a second Telegram allows a bot overall (Bot API FAQ), as the figure to compare."""
FIRST_GROUP = -1_001_000_000_000
ADMINS, MEMBERS = 10_000_000, 20_000_000


def wall(call: Call, offset: float) -> float:
    """When the fake received ``call``, in seconds since the epoch (``offset``: epoch minus
    the fake's monotonic clock)."""
    return call.at + offset


def most_in_window(times: Sequence[float], seconds: float) -> int:
    """The most of ``times`` (sorted) that fall in any window of ``seconds``."""
    best, start = 0, 0
    for end, moment in enumerate(times):
        while moment - times[start] >= seconds:
            start += 1
        best = max(best, end - start + 1)
    return best


class Observed:
    """What the fake saw, sorted out as the calls are answered (a ``FakeBotAPI`` observer).

    Attributes:
        offset: Epoch seconds minus the fake's clock.
        deadline: The homework's deadline (epoch seconds), once chosen.
        posts: Group id -> the homework token of the message posted there.
        replies: Admins answered privately.
        results: Group id -> epoch seconds of its first message after the deadline.
        reports: Admin id -> epoch seconds of the results file sent to them.
        sends: (epoch seconds, chat id) of every message the bot sent or edited.
        refused: Sends the fake refused with 429.
    """

    def __init__(self, fake: FakeBotAPI, groups: Sequence[int], admins: Sequence[int]) -> None:
        self.fake = fake
        self.offset = time.time() - time.monotonic()
        self.deadline = math.inf
        self.groups, self.admins = set(groups), set(admins)
        self.posts: dict[int, str] = {}
        self.replies: set[int] = set()
        self.results: dict[int, float] = {}
        self.reports: dict[int, float] = {}
        self.closed_edits = 0
        self.sends: list[tuple[float, int]] = []
        self.refused = 0
        fake.observers.append(self.saw)

    def saw(self, call: Call) -> None:
        """Sort one answered call out."""
        if call.method not in SENDING:
            return
        chat = call.params.get("chat_id")
        if call.status == 429:
            self.refused += 1
        if not call.ok or not isinstance(chat, int):
            return
        at = wall(call, self.offset)
        self.sends.append((at, chat))
        if chat in self.groups:
            if call.method == "sendMessage" and chat not in self.posts:
                found = TOKEN.search(json.dumps(call.params.get("reply_markup") or {}))
                if found:
                    self.posts[chat] = found[1]
            elif call.method == "sendMessage" and at >= self.deadline:
                self.results.setdefault(chat, at)
            elif call.method == "editMessageText" and at >= self.deadline:
                self.closed_edits += 1
        elif chat in self.admins:
            if call.method == "sendDocument":
                self.reports.setdefault(chat, at)
            else:
                self.replies.add(chat)


async def play_homework(
    db: Path, tokens: dict[int, str], members: dict[int, list[int]], players: int, seed: int
) -> dict[str, int]:
    """Play each group's homework for ``players`` of its members through the core on the
    (stopped) bot's database: each answer right with probability 0.6, one player in five
    stopping halfway. Returns how many attempts finished and stopped."""
    from bot.features.homework.service import HomeworkService
    from bot.features.private.service import QuizService
    from storage import SQLiteStore

    store = await SQLiteStore.open(db)
    rng = random.Random(seed)
    quiz = QuizService(store, load_banks([BUNDLED_BANKS]), rng=rng)
    homework = HomeworkService(store, store, quiz)
    counts = {"finished": 0, "stopped": 0}

    async def play(token: str, user_id: int) -> None:
        opened = await homework.open(token, user_id, f"Member {user_id}", "en")
        attempt = opened.attempt
        bank = await quiz.bank_of(attempt)
        stop_at = attempt.total // 2 if rng.random() < 0.2 else attempt.total
        while attempt.position < stop_at:
            question = bank.question(attempt.plan.question_order[attempt.position])
            slots = attempt.plan.option_orders[attempt.position]
            right = [s for s, index in enumerate(slots) if question.options[index].correct]
            wrong = [s for s in range(len(slots)) if s not in right]
            slot = rng.choice(right if rng.random() < 0.6 or not wrong else wrong)
            attempt, answer = await quiz.grade(user_id, attempt.id, attempt.position, slot)
            attempt = await quiz.record(attempt, answer)
        counts["finished" if stop_at == attempt.total else "stopped"] += 1

    async def group(chat_id: int) -> None:
        for user_id in members[chat_id][:players]:
            await play(tokens[chat_id], user_id)

    try:
        await asyncio.gather(*(group(chat_id) for chat_id in tokens))
    finally:
        await store.close()
    return counts


async def measure(
    groups: int,
    members: int,
    players: int,
    *,
    lead: float,
    patience: float,
    soon: bool = False,
    seed: int,
    bank_id: str,
) -> dict[str, Any]:
    """One run; the figures (see the module docstring). ``patience``: seconds to wait for each
    phase (after the deadline: for every result and report); ``soon``: the deadline is moved
    to the restart in the database rather than waited for at its whole minute."""
    fake = FakeBotAPI()
    fake.group_limit_per_minute = GROUP_LIMIT
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-homework-"))
    db, log = workdir / "bench.sqlite3", workdir / "bot.log"
    chat_ids = [FIRST_GROUP - n for n in range(groups)]
    admin_of = {chat: ADMINS + n for n, chat in enumerate(chat_ids)}
    members_of = {
        chat: [MEMBERS + n * members + m for m in range(members)] for n, chat in enumerate(chat_ids)
    }
    for chat in chat_ids:
        fake.add_user(admin_of[chat], f"Teacher {admin_of[chat]}", language_code="en")
        for user_id in members_of[chat]:
            fake.add_user(user_id, f"Member {user_id}", language_code="en")
        fake.add_group(chat, f"Class {chat}", admins=[admin_of[chat]], members=members_of[chat])
    seen = Observed(fake, chat_ids, admin_of.values())
    started = time.time()
    deadline = math.ceil((started + lead) / 60) * 60
    when = datetime.fromtimestamp(deadline, UTC).strftime("%Y-%m-%d %H:%M")
    try:
        process = await start_bot_process(fake, db, log)
        try:
            for admin in admin_of.values():
                fake.send_message(admin, "/help")
            await fake.wait_for(lambda: len(seen.replies) == groups, timeout=patience)
            for chat in chat_ids:
                fake.send_message(admin_of[chat], f"/assign {bank_id} {when}", chat_id=chat)
            await fake.wait_for(lambda: len(seen.posts) == groups, timeout=patience)
        finally:
            await stop_process(process)
        played = await play_homework(db, seen.posts, members_of, players, seed)
        if soon:
            deadline = time.time()
            with contextlib.closing(sqlite3.connect(db)) as connection, connection:
                connection.execute("UPDATE assignments SET deadline = ?", (deadline,))
        process = await start_bot_process(fake, db, log)
        setup_seconds = time.time() - started
        if time.time() >= deadline and not soon:
            raise RuntimeError(
                f"the setup took {setup_seconds:.0f} s, past the deadline: give a longer --lead"
            )
        seen.deadline = deadline
        try:
            cpu_before = cpu_seconds(process.pid)
            await fake.wait_for(
                lambda: len(seen.results) == groups and len(seen.reports) == groups,
                timeout=deadline - time.time() + patience,
            )
            done_at = time.time()
            cpu = cpu_seconds(process.pid) - cpu_before
            rss = peak_rss_mb(process.pid)
        finally:
            await stop_process(process)
    finally:
        await fake.stop()
    lags = sorted(at - deadline for at in seen.results.values())
    report_lags = sorted(at - deadline for at in seen.reports.values())
    by_group: dict[int, list[float]] = defaultdict(list)
    for at, chat in seen.sends:
        if chat in seen.groups:
            by_group[chat].append(at)
    minute = [at for at, _ in seen.sends if at >= deadline]
    row = {
        "groups": groups,
        "members": members,
        "players": players,
        "bank": bank_id,
        "deadline": datetime.fromtimestamp(deadline, UTC).isoformat(),
        "setup_seconds": round(setup_seconds, 1),
        **played,
        "results_posted": len(seen.results),
        "reports_sent": len(seen.reports),
        "closed_edits": seen.closed_edits,
        "results_lag_p50_s": round(percentile(lags, 50), 2),
        "results_lag_p95_s": round(percentile(lags, 95), 2),
        "results_lag_max_s": round(lags[-1], 2),
        "reports_lag_max_s": round(report_lags[-1], 2),
        "all_done_s": round(done_at - deadline, 2),
        "group_most_per_minute": max(most_in_window(sorted(v), 60.0) for v in by_group.values()),
        "overall_most_per_second": most_in_window(sorted(minute), 1.0),
        "overall_mean_per_second": round(len(minute) / max(done_at - deadline, 1e-9), 1),
        "messages_after_deadline": len(minute),
        "refused_429": seen.refused,
        "bot_cpu_seconds_after_deadline": round(cpu, 2),
        "peak_rss_mb": round(rss, 1),
        **log_problems(log),
    }
    shutil.rmtree(workdir, ignore_errors=True)
    return row


def readme_paragraph(results: dict[str, Any]) -> str:
    """The documentation's paragraph on the committed results (``--markdown``)."""
    row = results["row"]
    groups = row["groups"]

    def every(count: int, what: str) -> str:
        return f"every {what}" if count == groups else f"{count:,} of {groups:,} {what}s"

    return (
        f"{groups:,} groups with homework due at the same minute ({row['players']} of each "
        f"group's {row['members']} members played it: {row['finished']:,} attempts finished, "
        f"{row['stopped']:,} stopped halfway), through the real bot against the fake Bot API: "
        f"{every(row['results_posted'], 'group')} got its results "
        f"{row['results_lag_p50_s']:g} s after the deadline at the median, "
        f"{row['results_lag_p95_s']:g} s at the 95th percentile and "
        f"{row['results_lag_max_s']:g} s at the latest; {row['closed_edits']:,} group messages "
        f'were edited into "closed", and {every(row["reports_sent"], "admin")} got the '
        f"results file within {row['reports_lag_max_s']:g} s (the group results go first). "
        f"No group got more than {row['group_most_per_minute']} messages in any minute "
        f"({row['refused_429']} answered 429 by the fake, which allows {GROUP_LIMIT}); the bot "
        f"sent at most {row['overall_most_per_second']} messages in any second, "
        f"{row['overall_mean_per_second']:g} a second on average from the deadline to the last "
        f"report (Telegram: about {OVERALL_LIMIT}). The bot's CPU from the deadline on: "
        f"{row['bot_cpu_seconds_after_deadline']:g} s for {row['messages_after_deadline']:,} "
        f"messages (`{results['command']}`, commit {results['git_commit'][:7]}, "
        f"{results['machine']['nproc']} cores, {results['date'][:10]})."
    )


async def main(args: argparse.Namespace, argv: list[str]) -> int:
    """Run once (or print the paragraph of a results file); write JSON."""
    if args.markdown:
        print(readme_paragraph(json.loads(Path(args.markdown).read_text())))
        return 0
    bank_id = args.bank or next(iter(load_banks([BUNDLED_BANKS])))
    row = await measure(
        args.groups,
        args.members,
        args.players,
        lead=args.lead,
        patience=args.timeout,
        soon=args.soon,
        seed=args.seed,
        bank_id=bank_id,
    )
    print(json.dumps(row, indent=2))
    results = {
        "command": "python -m benchmarks.homework " + shlex.join(argv),
        "git_commit": git_commit(),
        "machine": machine(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "args": vars(args),
        "row": row,
    }
    out = Path(args.json or RESULTS / "homework.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print(f"\n{readme_paragraph(results)}\n\nwrote {out}")
    return 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line flags."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.homework",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--groups", type=int, default=1000, help="groups (default 1000)")
    parser.add_argument(
        "--members", type=int, default=4, help="members per group besides the admin (default 4)"
    )
    parser.add_argument(
        "--players", type=int, default=3, help="members per group who play the homework (default 3)"
    )
    parser.add_argument("--bank", default="", help="the quiz (default: the first bundled bank)")
    parser.add_argument(
        "--lead",
        type=float,
        default=240.0,
        help="least seconds from the start to the deadline, for the setup (default 240)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds to wait for each phase (after the deadline: for every"
        " result and report; default 300)",
    )
    parser.add_argument(
        "--soon",
        action="store_true",
        help="the deadline moved to the bot's restart in the database, not waited for at its"
        " whole minute: for the tests, which must not wait for the clock",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--json", default="", help="results file (default benchmarks/results/homework.json)"
    )
    parser.add_argument(
        "--markdown",
        default="",
        help="print the documentation paragraph of this results file and exit",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse(), sys.argv[1:])))
