"""Created quizzes against bundled banks: an answer's cost, and a database of many quizzes.

In one process, on a real SQLite file (``--db`` for a PostgreSQL URL), through the services the
bot uses (``QuizService`` over the ``BankRegistry`` of the featured banks and the library of
created quizzes, ``sharing.find`` for inline search):

* **answer cost**: the bundled bank and a created quiz of the same questions (its document is
  the bank file with another id), played alternately attempt by attempt; each answer is graded
  and recorded durably (``QuizService.grade`` + ``record``), and the medians are compared;
* **many quizzes**: with ``--quizzes`` (10,000) created quizzes stored (half of them public),
  p50 and p99 of an inline search (``sharing.find`` of a word of the titles, a different one
  each time) and of a quiz start (``QuizService.start``) of a created quiz: the first one
  (its record and document read, the document parsed, the attempt stored), its database
  reads alone, and a start of it again (its parsed version kept by the registry).

    python -m benchmarks.creators                      # 10,000 quizzes, 40 attempts a side
    python -m benchmarks.creators --markdown benchmarks/results/creators.json

Writes ``benchmarks/results/creators.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from benchmarks.group_load import git_commit, machine
from bot.bankload import load_banks, parse_bank
from bot.features.private.service import QuizService
from bot.features.sharing import rules as sharing
from bot.kernel.library import QuizSummary, Visibility
from bot.kernel.registry import BankRegistry
from storage import open_store

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "creators.json"
WORDS = (
    "algebra",
    "biology",
    "chemistry",
    "history",
    "geography",
    "physics",
    "music",
    "grammar",
    "football",
    "cinema",
    "coding",
    "poetry",
)
"""Words the created quizzes' titles are made of (what the inline searches look for)."""
OWNERS = 100
"""Creators the quizzes are spread over (100 quizzes each at most, issue 21's quota)."""
ANSWER_RATIO_BOUND = 1.10
"""A created quiz's answer may cost at most this much of a bundled bank's (issue 21)."""
P99_BOUND_MS = 50.0
"""A quiz start and an inline search stay under this p99 with the quizzes stored (issue 21)."""


def percentile(values: list[float], share: float) -> float:
    """The ``share`` (0-1) percentile of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def spread(values: list[float]) -> dict[str, float]:
    """p50 and p99 of millisecond timings."""
    return {"p50": round(percentile(values, 0.5), 2), "p99": round(percentile(values, 0.99), 2)}


def created_document(
    featured: dict[str, Any], quiz_id: str, title: str, questions: int | None = None
) -> str:
    """A created quiz's document (version 1): the featured bank's data with another id and
    title, and its first ``questions`` questions (all when None)."""
    data = dict(
        featured,
        id=quiz_id,
        version=1,
        title={language: title for language in featured["languages"]},
    )
    if questions is not None:
        data["questions"] = featured["questions"][:questions]
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


async def fill(store: Any, featured: dict[str, Any], count: int, rng: random.Random) -> list[str]:
    """Store ``count`` created quizzes of one question (half public); their ids."""
    ids = [f"c-{n:010d}" for n in range(count)]

    async def one(n: int, quiz_id: str) -> None:
        title = " ".join(rng.sample(WORDS, 3)) + f" {n}"
        await store.create_quiz(
            quiz_id,
            1000 + n % OWNERS,
            created_document(featured, quiz_id, title, 1),
            QuizSummary(title, featured["default_language"], 1),
            visibility=Visibility.PUBLIC if n % 2 else Visibility.LINK,
            now=time.time(),
        )

    for start in range(0, count, 500):  # one group commit per few hundred
        await asyncio.gather(*(one(n, ids[n]) for n in range(start, min(count, start + 500))))
    return ids


async def play(quiz: QuizService, user_id: int, bank_id: str) -> list[float]:
    """One attempt through ``bank_id``: the seconds of each answer (grade + durable record)."""
    attempt = await quiz.start(user_id, bank_id)
    times = []
    for position in range(attempt.total):
        began = time.perf_counter()
        attempt, answer = await quiz.grade(user_id, attempt.id, position, 0)
        attempt = await quiz.record(attempt, answer)
        times.append(time.perf_counter() - began)
    return times


async def run(
    *, quizzes: int, attempts: int, probes: int, db: str | None, seed: int = 7
) -> dict[str, Any]:
    """Measure (see the module); the results as stored in the JSON file."""
    rng = random.Random(seed)
    banks = load_banks([ROOT / "banks"])
    bank = next(iter(banks.values()))
    assert bank.path is not None
    featured = yaml.safe_load(bank.path.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(db or str(Path(tmp) / "creators.sqlite3"), create=True)
        try:
            began = time.perf_counter()
            ids = await fill(store, featured, quizzes, rng)
            fill_s = time.perf_counter() - began
            copy_id = "c-copyofbank"
            await store.create_quiz(
                copy_id,
                1,
                created_document(featured, copy_id, "copy"),
                QuizSummary("copy", featured["default_language"], len(bank.questions)),
                visibility=Visibility.LINK,
                now=time.time(),
            )
            registry = BankRegistry(banks, store, parse=parse_bank)
            quiz = QuizService(store, registry)
            bundled: list[float] = []
            created: list[float] = []
            for n in range(attempts):  # alternately, so that drift hits both alike
                for bank_id, times in ((bank.id, bundled), (copy_id, created))[:: 1 - 2 * (n % 2)]:
                    times.extend(await play(quiz, 10_000 + 2 * n + (bank_id == copy_id), bank_id))
            cold, warm, reads, searches = [], [], [], []
            for n, quiz_id in enumerate(rng.sample(ids, probes)):
                began = time.perf_counter()
                await store.quiz(quiz_id)
                await store.quiz_version(quiz_id, 1)
                reads.append(1000 * (time.perf_counter() - began))  # what a start reads
                began = time.perf_counter()
                await quiz.start(1_000_000 + n, quiz_id)  # read, parsed, the attempt stored
                cold.append(1000 * (time.perf_counter() - began))
                began = time.perf_counter()
                await quiz.start(2_000_000 + n, quiz_id)  # its parsed version is kept
                warm.append(1000 * (time.perf_counter() - began))
                word = f"{WORDS[n % len(WORDS)]} {rng.randrange(quizzes)}"[:-1]
                began = time.perf_counter()
                await sharing.find(registry, word, "")
                searches.append(1000 * (time.perf_counter() - began))
            document = created_document(featured, ids[0], "parse", 1)
            parses = []
            for _ in range(20):
                began = time.perf_counter()
                parse_bank(document, "parse")
                parses.append(1000 * (time.perf_counter() - began))
        finally:
            await store.close()
    bundled_ms, created_ms = (1000 * statistics.median(bundled), 1000 * statistics.median(created))
    return {
        "command": " ".join(["python -m benchmarks.creators", *sys.argv[1:]]),
        "git_commit": git_commit(),
        "machine": machine(),
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "engine": "postgresql" if db and "://" in db else "sqlite",
        "quizzes": quizzes,
        "fill_s": round(fill_s, 1),
        "answer": {
            "attempts_each": attempts,
            "answers_each": len(bundled),
            "bundled_median_ms": round(bundled_ms, 3),
            "created_median_ms": round(created_ms, 3),
            "ratio": round(created_ms / bundled_ms, 3),
        },
        "probes": probes,
        "start_cold_ms": spread(cold),
        "start_warm_ms": spread(warm),
        "start_reads_ms": spread(reads),
        "search_ms": spread(searches),
        "parse_median_ms": round(statistics.median(parses), 2),
        "document_bytes": len(document.encode()),
    }


def readme_paragraph(results: dict[str, Any]) -> str:
    """The README's figures of created quizzes, written from a results JSON."""
    a = results["answer"]
    cold, warm, reads, search = (
        results[k] for k in ("start_cold_ms", "start_warm_ms", "start_reads_ms", "search_ms")
    )

    def bound(p99: float) -> str:
        return "within" if p99 <= P99_BOUND_MS else "over"

    return (
        f"Latest ({results['date']}, {results['cpus']} cores, commit "
        f"{results['git_commit'][:7]}, {results['engine']}): an answer to a created quiz "
        f"(grade and durable write) took {a['created_median_ms']:.2f} ms, "
        f"{a['ratio']:.2f}x a bundled bank's {a['bundled_median_ms']:.2f} ms in the same run "
        f"(medians of {a['answers_each']:,} answers each, the same questions, alternating; "
        f"{'within' if a['ratio'] <= ANSWER_RATIO_BOUND else 'over'} the 10% bound). With "
        f"{results['quizzes']:,} created quizzes stored ({results['probes']} probes each, "
        f"p50 / p99): an inline search {search['p50']:.1f} / {search['p99']:.1f} ms "
        f"({bound(search['p99'])} 50 ms); a start of a created quiz already read "
        f"{warm['p50']:.1f} / {warm['p99']:.1f} ms ({bound(warm['p99'])} 50 ms); the "
        f"database reads of a first start {reads['p50']:.1f} / {reads['p99']:.1f} ms; a "
        f"first start in all {cold['p50']:.1f} / {cold['p99']:.1f} ms "
        f"({bound(cold['p99'])} 50 ms), most of it parsing the quiz's document "
        f"({results['parse_median_ms']:.1f} ms for {results['document_bytes']:,} bytes of "
        "YAML, whatever the number of quizzes stored)."
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quizzes", type=int, default=10_000)
    parser.add_argument("--attempts", type=int, default=40, help="attempts a side")
    parser.add_argument("--probes", type=int, default=200, help="quiz starts and searches")
    parser.add_argument("--db", help="a PostgreSQL URL (default: a SQLite file)")
    parser.add_argument("--json", default=str(RESULTS))
    parser.add_argument(
        "--markdown", metavar="JSON", help="print the README paragraph from a results file and exit"
    )
    args = parser.parse_args(argv)
    if args.markdown:
        print(readme_paragraph(json.loads(Path(args.markdown).read_text())))
        return
    results = asyncio.run(
        run(quizzes=args.quizzes, attempts=args.attempts, probes=args.probes, db=args.db)
    )
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(readme_paragraph(results))


if __name__ == "__main__":
    main()
