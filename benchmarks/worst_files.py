"""Worst files: a creator sends the worst 1 MB files of each format while another user plays.

The real ``quizbot run`` process polls the fake Bot API server. For each file (YAML, GIFT, Aiken
and CSV, each built to cost the bot the most for its size: repeated keys, labels and ids,
thousands of options or problems, open tags, long lines, texts the YAML makes larger) a creator
sends it as a document while a probe user plays private quizzes without pause; the probe's
tap-to-feedback latency (answer tap pushed -> the feedback edit reached the server) during the
file's check is compared with the same probe's with no file, and the check time (document pushed
-> the bot's first reply to the creator) and the bot's CPU seconds for it are recorded.

    python -m benchmarks.worst_files                     # writes worst-files.json
    python -m benchmarks.worst_files --scale 0.01 --json /tmp/w.json   # a quick look
    python -m benchmarks.worst_files --markdown benchmarks/results/worst-files.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.abuse import bot_process, git_commit
from benchmarks.run import ROOT, cpu_seconds, machine
from tests.support.fakebotapi import FakeBotAPI
from tests.support.loadgen import LoadGenerator, percentile

RESULTS = ROOT / "benchmarks" / "results" / "worst-files.json"
MB = 1024 * 1024
CREATOR = 7_000_000


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds so far of process ``pid`` and every process below it (the bot and its
    check's worker, which a forkserver starts), from /proc."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    tree, todo = set(), [pid]
    while todo:
        here = todo.pop()
        tree.add(here)
        todo += [child for child, parent in parents.items() if parent == here]
    total = 0.0
    for member in tree:
        try:
            total += cpu_seconds(member)
        except OSError:
            continue
    return total


def _fill(size: int, piece: Callable[[int], str], head: str = "", tail: str = "") -> str:
    """``head``, then ``piece(0)``, ``piece(1)``... while the text stays within ``size`` UTF-8
    bytes, then ``tail``."""
    parts, used, n = [head], len(head.encode()) + len(tail.encode()), 0
    while True:
        part = piece(n)
        used += len(part.encode())
        if used > size:
            break
        parts.append(part)
        n += 1
    return "".join(parts) + tail


def _bank_head() -> str:
    return (
        "id: worst\nversion: 1\ndefault_language: en\nlanguages: [en]\nlevel: easy\n"
        "title: {en: Worst}\ndescription: {en: Worst}\nquestions:\n"
    )


def _leaking(size: int) -> str:
    """200 valid questions in two halves whose explanations are the other half's prompt words
    and both its options' words, over and over: every pair of questions is compared for answer
    leaks, each cue of the other's prompt looked for near the short answers, and none is
    nearer to one option than to the other (no leak ends the search)."""
    per = min(size // 200 - 400, 3300)  # a question's texts fit one message (3,500)
    out = [_bank_head()]
    for n in range(200):
        mine, theirs = ("alpha bravo", "delta echo") if n % 2 else ("delta echo", "alpha bravo")
        first, second = theirs.split()
        words = f"lima {first} mike lima {second} mike " * (per // 35)  # each cue between both
        out.append(
            f"- id: q{n}\n  prompt: {{en: 'What does {mine} {n} mean here?'}}\n"
            f"  options:\n  - text: {{en: 'lima {n}'}}\n    correct: true\n"
            f"  - text: {{en: 'mike {n}'}}\n"
            f"  explanation: {{en: '{words.strip()}'}}\n"
            f"  source: {{title: Atlas, url: 'https://example.org/atlas'}}\n"
        )
    return "".join(out)


def _paraphrasing(size: int) -> str:
    """200 valid questions in two halves whose explanations are sentences of the other half's
    prompt words and most words of its long answers, but as many of a distractor's: every
    sentence is compared with every question of the other half for a paraphrase of its answer
    (the comparisons stop at ``bot.kernel.leaks.LEAK_COMPARISONS``), and names one's answer."""
    per = min(size // 200 - 400, 3300)
    out = [_bank_head()]
    for n in range(200):
        mine, theirs = ("alpha bravo", "delta echo") if n % 2 else ("delta echo", "alpha bravo")
        said = " ".join(f"{theirs} lima mike november {k}." for k in range(max(1, per // 40)))
        out.append(
            f"- id: q{n}\n  prompt: {{en: 'What does {mine} {n} mean here?'}}\n"
            f"  options:\n  - text: {{en: 'lima mike november {n}'}}\n    correct: true\n"
            f"  - text: {{en: 'lima mike november oscar {n}'}}\n"
            f"  explanation: {{en: '{said}'}}\n"
            f"  source: {{title: Atlas, url: 'https://example.org/atlas'}}\n"
        )
    return "".join(out)


def files(scale: float = 1.0) -> dict[str, tuple[str, str]]:
    """The worst files, name -> (file name, text), each at most ``scale`` MB (1 MiB)."""
    size = int(MB * scale)
    questions = max(2, min(200, int(200 * scale)))
    long_text = max(1, (size - 2000) // questions - 60)
    return {
        # YAML
        "yaml unknown keys": ("keys.yaml", _fill(size, lambda n: f"unknown-key-{n:09d}: 1\n")),
        "yaml answer leaks": ("leaks.yaml", _leaking(size)),
        "yaml paraphrases": ("paraphrases.yaml", _paraphrasing(size)),
        "yaml syntax error at the end": (
            "late.yaml",
            _fill(
                size,
                lambda n: f"- id: q{n}\n  prompt: {{en: 'Question {n}'}}\n",
                _bank_head(),
                "- id: x\n  prompt: {en: 'a': b}\n",
            ),
        ),
        "yaml nesting": ("deep.yaml", "a: " + "[" * (size - 10) + "\n"),
        # GIFT
        "gift open tags": ("tags.gift", _fill(size, lambda n: "<a ", "[html]Q", "{=yes ~no}\n")),
        "gift long texts": (
            "long.gift",
            "".join(
                "::same::" + "\x01 " * (long_text // 2) + "{=a ~b}\n\n" for _ in range(questions)
            ),
        ),
        "gift options": ("options.gift", _fill(size, lambda n: f"~o{n} ", "Q {=a ", "}\n")),
        "gift problems": ("notes.gift", _fill(size, lambda n: f"::same::Q{n} {{=a ~b ~b}}\n\n")),
        # Aiken
        "aiken options": ("options.aiken", _fill(size, lambda n: "A. x\n", "Q\n", "ANSWER: A\n")),
        "aiken long texts": (
            "long.aiken",
            "".join("\x01" * long_text + "\nA. a\nB. b\nANSWER: A\n" for _ in range(questions)),
        ),
        "aiken problems": ("notes.aiken", _fill(size, lambda n: "Q\nA. x\nA. y\nANSWER: Z\n")),
        # CSV
        "csv long texts": (
            "long.csv",
            "prompt,A,B,correct\n"
            + "".join("\x01" * long_text + ",a,b,A\n" for _ in range(questions)),
        ),
        "csv wide rows": (
            "wide.csv",
            _fill(size, lambda n: "x," * 2000 + "x\n", "prompt,A,B,correct\n"),
        ),
        "csv problems": ("notes.csv", _fill(size, lambda n: "q,a,a,Z\n", "prompt,A,B,correct\n")),
    }


async def _probe(
    fake: FakeBotAPI, first_user: int, until: Callable[[], bool], minimum: float
) -> tuple[list[float], int]:
    """A probe user plays private quizzes (one after another, no pause) until ``until()`` and
    ``minimum`` seconds have passed; its tap-to-feedback latencies, and the quizzes played."""
    latencies: list[float] = []
    started, played = time.monotonic(), 0
    while not until() or time.monotonic() - started < minimum:
        generator = LoadGenerator(fake, 1, first_user_id=first_user + played, step_timeout=120)
        report = await generator.run()
        if report.stalled:
            raise RuntimeError(f"the probe user stalled: {report.runs}")
        latencies += report.latencies
        played += 1
    return latencies, played


def _figures(latencies: list[float]) -> dict[str, float]:
    return {
        "taps": len(latencies),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 1),
    }


async def measure(scale: float = 1.0, baseline_seconds: float = 5.0) -> dict[str, object]:
    """Send each worst file (at ``scale``) while a probe user plays; the figures."""
    fake = FakeBotAPI()
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="quizbot-worst-"))
    rows = []
    try:
        async with bot_process(fake, workdir) as process:
            fake.add_user(CREATOR, "Creator")
            await _probe(fake, 10_000_000, lambda: True, 0)  # warm up: banks, first plays
            quiet, _ = await _probe(fake, 11_000_000, lambda: True, baseline_seconds)
            baseline = _figures(quiet)
            print(
                f"  no file: p50 {baseline['p50_ms']} ms, p99 {baseline['p99_ms']} ms, "
                f"max {baseline['max_ms']} ms ({baseline['taps']} taps)",
                flush=True,
            )
            for index, (name, (file_name, text)) in enumerate(files(scale).items()):
                data = text.encode()
                before = len(fake.messages(CREATOR))
                cpu = tree_cpu_seconds(process.pid)
                pushed = time.monotonic()
                fake.send_document(CREATOR, data, file_name)
                answered: list[float] = []

                def replied(before: int = before, answered: list[float] = answered) -> bool:
                    if not answered and any(
                        m.get("from", {}).get("id") == fake.bot_id
                        for m in fake.messages(CREATOR)[before:]
                    ):
                        answered.append(time.monotonic())
                    return bool(answered)

                latencies, _ = await _probe(fake, 20_000_000 + index * 10_000, replied, 0)
                cpu = tree_cpu_seconds(process.pid) - cpu
                reply = next(
                    m
                    for m in fake.messages(CREATOR)[before:]
                    if m.get("from", {}).get("id") == fake.bot_id
                )
                row = {
                    "file": name,
                    "name": file_name,
                    "bytes": len(data),
                    "check_s": round(answered[0] - pushed, 2),
                    "bot_cpu_s": round(cpu, 2),
                    "reply": reply.get("text", "")[:80],
                    **_figures(latencies),
                }
                rows.append(row)
                print(
                    f"  {name:30} {len(data):>9} B: check {row['check_s']} s, "
                    f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms, max {row['max_ms']} ms "
                    f"({row['taps']} taps) | {row['reply'][:40]!r}",
                    flush=True,
                )
                await fake.wait_for(lambda: fake.pending_updates() == 0, timeout=120)
    finally:
        await fake.stop()
    shutil.rmtree(workdir, ignore_errors=True)
    return {"scale": scale, "baseline": baseline, "files": rows}


def markdown(results: dict) -> str:
    """The docs table, from a results JSON."""
    base = results["baseline"]
    lines = [
        "| file sent | bytes | check (s) | bot CPU (s) | probe taps | p50 (ms) | p99 (ms) "
        "| max (ms) |",
        "|---|---|---|---|---|---|---|---|",
        f"| none (baseline) | | | | {base['taps']} | {base['p50_ms']} | {base['p99_ms']} "
        f"| {base['max_ms']} |",
    ]
    for row in results["files"]:
        lines.append(
            f"| {row['file']} | {row['bytes']:,} | {row['check_s']} | "
            f"{row['bot_cpu_s']} | {row['taps']} | {row['p50_ms']} | {row['p99_ms']} "
            f"| {row['max_ms']} |"
        )
    meta = results["meta"]
    lines += [
        "",
        f"Measured {meta['date']} at commit {meta['commit'][:10]} on "
        f"{meta['machine']['nproc']} cores, Python {meta['machine']['python']}: "
        f"`{meta['command']}`.",
    ]
    return "\n".join(lines)


async def main(args: argparse.Namespace, argv: list[str]) -> int:
    """Run the benchmark; print; write the JSON."""
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text())))
        return 0
    results: dict[str, object] = {
        "meta": {
            "command": " ".join(["python -m benchmarks.worst_files", *argv]),
            "commit": git_commit(),
            "machine": machine(),
            "date": time.strftime("%Y-%m-%d"),
        }
    }
    results.update(await measure(args.scale, args.baseline))
    out = Path(args.json)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    print("\n" + markdown(results) + f"\n\nwrote {out}")
    return 0


def parse(argv: list[str]) -> argparse.Namespace:
    """Command-line flags."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.worst_files",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--scale", type=float, default=1.0, help="file size, in MB")
    parser.add_argument("--baseline", type=float, default=5.0, help="seconds of play, no file")
    parser.add_argument("--json", default=str(RESULTS))
    parser.add_argument("--markdown", help="print the docs table of a results JSON")
    return parser.parse_args(argv)


if __name__ == "__main__":
    argv = sys.argv[1:]
    sys.exit(asyncio.run(main(parse(argv), argv)))
