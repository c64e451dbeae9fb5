"""The private-chat benchmark before and after a restructuring, back to back on one machine.

``python -m benchmarks.run`` measures quizbot against bare bots in the same invocation; the
machine is shared, so absolute figures move by several times between runs. What must hold
across a restructuring is quizbot's *ratio* to those bots. This runs that benchmark alternately
in two checkouts (``--before``, e.g. a ``git worktree add --detach`` of the old commit, and
``--after``), round by round (before, after, after, before, ...), each invocation with its own
bare bots, and compares the median ratios.

    python -m benchmarks.restructure --before ../old --after . --rounds 3 --users 200
    python -m benchmarks.restructure --markdown benchmarks/results/restructure.json

Writes ``benchmarks/results/restructure.json`` (commands, both commits, every invocation's
ratios and the machine's load average around it, the medians and their quotient).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "restructure.json"
AGAINST = ("baseline", "aiogram")
"""The bare bots each ratio is taken against (labels as in ``benchmarks.run.BOTS``)."""
MEASURES = ("throughput_ratio", "cpu_per_answer_ratio")


def commit_of(tree: Path) -> str:
    """The commit checked out in ``tree``."""
    return subprocess.run(
        ["git", "-C", str(tree), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


def invoke(tree: Path, users: int, out: Path) -> dict:  # type: ignore[type-arg]
    """One ``python -m benchmarks.run`` in ``tree`` (its own code, its own bare bots); its
    results JSON, with the load average before and after."""
    command = [
        sys.executable,
        "-m",
        "benchmarks.run",
        "--users",
        str(users),
        "--runs",
        "1",
        "--bots",
        ",".join(("quizbot", *AGAINST)),
        "--json",
        str(out),
    ]
    load_before = os.getloadavg()[0]
    subprocess.run(command, cwd=tree, check=True, stdout=subprocess.DEVNULL)
    data: dict = json.loads(out.read_text())  # type: ignore[type-arg]
    data["load_before"], data["load_after"] = load_before, os.getloadavg()[0]
    return data


def ratios_of(data: dict) -> dict[str, dict[str, float | None]]:  # type: ignore[type-arg]
    """``{against: {measure: ratio}}`` of one invocation."""
    return {r["against"]: {m: r[m] for m in MEASURES} for r in data["ratios"]}


def summarise(runs: list[dict]) -> dict[str, dict[str, dict[str, float | None]]]:  # type: ignore[type-arg]
    """Per side, per bare bot, per measure: the median of the invocations' ratios (a bare
    bot that stalled in an invocation gives no ratio there)."""
    out: dict[str, dict[str, dict[str, float | None]]] = {}
    for side in ("before", "after"):
        out[side] = {}
        for against in AGAINST:
            out[side][against] = {}
            for measure in MEASURES:
                values = [
                    r["ratios"][against][measure]
                    for r in runs
                    if r["side"] == side and r["ratios"].get(against, {}).get(measure)
                ]
                out[side][against][measure] = (
                    round(statistics.median(values), 3) if values else None
                )
    return out


def change(summary: dict, against: str, measure: str) -> float | None:  # type: ignore[type-arg]
    """After's median ratio over before's (1.0: the same)."""
    before, after = summary["before"][against][measure], summary["after"][against][measure]
    return round(after / before, 3) if before and after else None


def main_run(args: argparse.Namespace) -> dict[str, object]:
    before, after = Path(args.before).resolve(), Path(args.after).resolve()
    order = [("before", before), ("after", after), ("after", after), ("before", before)]
    sides = [order[i % 4] for i in range(2 * args.rounds)]
    runs: list[dict] = []  # type: ignore[type-arg]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, (side, tree) in enumerate(sides):
            print(f"invocation {i + 1}/{len(sides)}: {side} ({tree.name})", flush=True)
            try:
                data = invoke(tree, args.users, Path(tmp) / f"{i}.json")
            except subprocess.CalledProcessError as exc:  # e.g. a bot that never started
                print(f"  failed ({exc}); left out", flush=True)
                failed += 1
                continue
            runs.append(
                {
                    "side": side,
                    "commit": data["git_commit"],
                    "date": data["date"],
                    "load_before": data["load_before"],
                    "load_after": data["load_after"],
                    "ratios": ratios_of(data),
                    "answers_per_second": {
                        m["bot"]: m["answers_per_second"] for m in data["medians"]
                    },
                    "stalled_users": {m["bot"]: m["stalled_users"] for m in data["medians"]},
                }
            )
    summary = summarise(runs)
    return {
        "command": " ".join(["python -m benchmarks.restructure", *sys.argv[1:]]),
        "benchmark": f"python -m benchmarks.run --users {args.users} --runs 1 --bots "
        + ",".join(("quizbot", *AGAINST)),
        "before": commit_of(before),
        "after": commit_of(after),
        "date": time.strftime("%Y-%m-%d"),
        "cpus": os.cpu_count(),
        "users": args.users,
        "runs": runs,
        "failed_invocations": failed,
        "medians": summary,
        "change": {a: {m: change(summary, a, m) for m in MEASURES} for a in AGAINST},
    }


def markdown(results: dict) -> str:  # type: ignore[type-arg]
    """The README's line on the restructuring, written from a results JSON."""
    med, ch = results["medians"], results["change"]

    def part(against: str, label: str) -> str:
        b, a = med["before"][against], med["after"][against]
        if not (b["throughput_ratio"] and a["throughput_ratio"]):
            return f"against {label}: no ratio (the bare bot stalled)"
        return (
            f"against {label} {b['throughput_ratio']:.2f}x before and "
            f"{a['throughput_ratio']:.2f}x after the answers/s "
            f"({ch[against]['throughput_ratio']:.2f} of it), "
            f"{b['cpu_per_answer_ratio']:.2f}x and {a['cpu_per_answer_ratio']:.2f}x the CPU "
            f"per answer"
        )

    loads = [r["load_before"] for r in results["runs"]]
    return (
        f"Before and after the restructuring ({results['date']}, {results['cpus']} cores, "
        f"`{results['benchmark']}` alternately at commits {results['before'][:7]} and "
        f"{results['after'][:7]}, {len(results['runs'])} invocations, load average "
        f"{min(loads):.1f} to {max(loads):.1f}): quizbot's median ratios "
        f"{part('baseline', 'bare PTB')}; {part('aiogram', 'bare aiogram')}."
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", help="the checkout before (its own benchmarks/ run)")
    parser.add_argument("--after", default=str(ROOT), help="the checkout after (default: this)")
    parser.add_argument(
        "--rounds", type=int, default=3, help="invocations per side, alternating (default 3)"
    )
    parser.add_argument("--users", type=int, default=200, help="simulated users (default 200)")
    parser.add_argument("--json", default=str(RESULTS), help="results file")
    parser.add_argument(
        "--markdown", metavar="JSON", help="print the README line from a results file and exit"
    )
    args = parser.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads(Path(args.markdown).read_text())))
        return
    if not args.before:
        parser.error("--before is required")
    results = main_run(args)
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(markdown(results))


if __name__ == "__main__":
    main()
