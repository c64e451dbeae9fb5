"""Benchmark spaced review through the real storage layer and services (no Telegram).

1. **/review with 10,000 cards**: the time to find a user's next due card
   (``LearningService.due``, what /review and every review answer read) for a user with 10,000
   cards, against the time of a quiz answer in the same run (``QuizService.grade`` and
   ``record``, the answer's durable write), and against the same read with 10 cards.
2. **Reminder passes with 100,000 learners**: 100,000 users with cards and reminders on, their
   reminder times spread over a day; one simulated hour of passes (3,600 passes, one a second,
   each sending at most 5 reminders, with a no-op send) is timed in CPU seconds of the whole
   process (``time.process_time``: SQLite's thread included).

    python -m benchmarks.learning                 # writes benchmarks/results/learning.json
    python -m benchmarks.learning --learners 20000 --runs 50

Compare the ratios, not the absolute times: the machine is shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from bot.features.learning.rules import DAY, reminder_time
from bot.features.learning.service import LearningService
from bot.features.private.service import QuizService
from storage import SQLiteStore

ROOT = Path(__file__).resolve().parent.parent
BANK_ID = "deepspeed-megatron"  # the reminder benchmark's cards are of the bundled bank
T0 = 1_780_000_000.0


def _banks(folder: Path, count: int = 100, questions: int = 100) -> dict:
    """``count`` generated banks of ``questions`` questions each (tests/support/bankgen.py): 10,000
    real questions for one user's 10,000 cards, in the banks the service serves."""
    from tests.support.bankgen import write_bank

    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        write_bank(folder, questions, bank_id=f"bench-{n}", prompt_words=8)
    return load_banks([folder])


def _seed_cards(path: Path, cards: dict[int, list[tuple[str, str]]], now: float) -> None:
    """Insert cards directly (fast), due spread over 30 days around ``now``."""
    rng = random.Random(1)
    rows = [
        (
            user,
            bank_id,
            question,
            2,
            None,
            3.0,
            5.0,
            now + rng.uniform(-15, 15) * DAY,
            now - DAY,
            1,
            0,
        )
        for user, keys in cards.items()
        for bank_id, question in keys
    ]
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO cards (user_id, bank_id, question_id, state, step, stability,"
            " difficulty, due, last_review, reps, lapses) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            rows,
        )


async def review_benchmark(runs: int = 200) -> dict[str, float]:
    """Median seconds of ``due`` with 10,000 and with 10 cards, and of a quiz answer."""
    with tempfile.TemporaryDirectory() as folder:
        banks = _banks(Path(folder) / "banks")
        keys = [(b.id, q.id) for b in banks.values() for q in b.questions]
        bank_id = keys[0][0]
        path = Path(folder) / "bench.sqlite3"
        store = await SQLiteStore.open(path)
        await store.close()
        _seed_cards(path, {1: keys[:10_000], 2: keys[:10]}, T0)
        store = await SQLiteStore.open(path)
        try:
            clock = lambda: T0  # noqa: E731
            learning = LearningService(store, banks, clock=clock)
            quiz = QuizService(store, banks, clock=clock)
            big, small, answer = [], [], []
            for n in range(runs):
                started = time.perf_counter()
                assert await learning.due(1) is not None
                big.append(time.perf_counter() - started)
                started = time.perf_counter()
                await learning.due(2)
                small.append(time.perf_counter() - started)
                attempt = await quiz.start(1000 + n, bank_id)
                started = time.perf_counter()
                attempt, graded = await quiz.grade(1000 + n, attempt.id, 0, 0)
                await quiz.record(attempt, graded)
                answer.append(time.perf_counter() - started)
        finally:
            await store.close()
    result = {
        "cards": len(keys[:10_000]),
        "due_10000_cards_s": statistics.median(big),
        "due_10_cards_s": statistics.median(small),
        "quiz_answer_s": statistics.median(answer),
    }
    result["due_10000_over_answer"] = result["due_10000_cards_s"] / result["quiz_answer_s"]
    result["due_10000_over_10"] = result["due_10000_cards_s"] / result["due_10_cards_s"]
    return result


async def reminder_benchmark(
    learners: int = 100_000, seconds: int = 3600, per_pass: int = 5
) -> dict[str, float]:
    """CPU seconds of ``seconds`` one-second reminder passes over ``learners`` learners."""
    banks = load_banks([BUNDLED_BANKS])
    question = banks[BANK_ID].questions[0].id
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        store = await SQLiteStore.open(path)
        await store.close()
        hours = json.dumps([0.0] * 24)
        with sqlite3.connect(path) as db:
            db.executemany(
                "INSERT INTO cards (user_id, bank_id, question_id, state, stability, difficulty,"
                " due, last_review, reps) VALUES (?, ?, ?, 2, 1.0, 5.0, ?, ?, 1)",
                [
                    (u, BANK_ID, question, T0 - DAY * (u % 2), T0 - 2 * DAY)
                    for u in range(1, learners + 1)
                ],
            )
            db.executemany(
                "INSERT INTO learners (user_id, remind, hours, next_remind_at) VALUES (?, 1, ?, ?)",
                [(u, hours, reminder_time(u, u % 24, T0)) for u in range(1, learners + 1)],
            )
        store = await SQLiteStore.open(path)
        now = T0
        try:
            learning = LearningService(store, banks, clock=lambda: now)
            sent = 0
            cpu = time.process_time()
            wall = time.perf_counter()
            for _ in range(seconds):
                now += 1.0
                for learner in await learning.reminders_due(per_pass):
                    if await learning.due(learner.user_id) is not None:
                        sent += 1  # the send itself is Telegram's part: not measured
                    await learning.reminded(learner)
            cpu = time.process_time() - cpu
            wall = time.perf_counter() - wall
        finally:
            await store.close()
    return {
        "learners": learners,
        "passes": seconds,
        "reminders_sent": sent,
        "cpu_s": cpu,
        "wall_s": wall,
        "cpu_per_pass_ms": 1000 * cpu / seconds,
    }


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    review = await review_benchmark(args.runs)
    reminders = await reminder_benchmark(args.learners, args.seconds)
    from benchmarks.group_load import git_commit, machine

    return {
        "command": " ".join(["python -m benchmarks.learning", *sys.argv[1:]]),
        "git_commit": git_commit(),
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
        "cpus": __import__("os").cpu_count(),
        "review": review,
        "reminders": reminders,
    }


README_BEGIN, README_END = "<!-- learning:begin -->", "<!-- learning:end -->"


def readme_paragraph(results: dict) -> str:  # type: ignore[type-arg]
    """The README's figures of spaced review, written from a results JSON."""
    r, m = results["review"], results["reminders"]
    return (
        f"Latest ({results['date']}, {results['cpus']} cores, commit "
        f"{results['git_commit'][:7]}): the due card of a user with {r['cards']:,} cards in "
        f"{1000 * r['due_10000_cards_s']:.2f} ms, {r['due_10000_over_answer']:.2f}x a quiz "
        f"answer's {1000 * r['quiz_answer_s']:.2f} ms (grade and durable write: the answer and "
        "its attempt's move, two statements) in the same run (10 cards: "
        f"{1000 * r['due_10_cards_s']:.2f} ms); an hour of passes ({m['passes']:,}, one a "
        f"second) over {m['learners']:,} learners with {m['reminders_sent']:,} reminders due "
        f"cost {m['cpu_s']:.2f} CPU seconds ({m['cpu_per_pass_ms']:.2f} ms a pass)."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--learners", type=int, default=100_000)
    parser.add_argument("--seconds", type=int, default=3600)
    parser.add_argument("--json", default=str(ROOT / "benchmarks" / "results" / "learning.json"))
    args = parser.parse_args()
    result = asyncio.run(main_async(args))
    r, m = result["review"], result["reminders"]
    print("| measure | value |\n|---|---|")
    print(f"| due card, 10,000 cards (median) | {1000 * r['due_10000_cards_s']:.3f} ms |")  # type: ignore[index]
    print(f"| due card, 10 cards (median) | {1000 * r['due_10_cards_s']:.3f} ms |")  # type: ignore[index]
    print(f"| quiz answer (grade + durable write, median) | {1000 * r['quiz_answer_s']:.3f} ms |")  # type: ignore[index]
    print(f"| 10,000 cards / quiz answer | {r['due_10000_over_answer']:.2f}x |")  # type: ignore[index]
    print(
        f"| reminder passes: {m['passes']} over {m['learners']:,} learners | "  # type: ignore[index]
        f"{m['cpu_s']:.2f} CPU s ({m['cpu_per_pass_ms']:.3f} ms a pass), "  # type: ignore[index]
        f"{m['reminders_sent']} reminders |"
    )  # type: ignore[index]
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
