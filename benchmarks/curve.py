"""The load curve of ``docs/benchmarks.md``: tap-to-feedback latency (p50, p99) and CPU per
answer against the number of users, quizbot and bare aiogram 3, with and without a round trip
per Bot API call, drawn from one results file of ``python -m benchmarks.run --scale``.

    python -m benchmarks.curve benchmarks/results/private-curve-think5000ms-quizbot-aiogram.json \\
        docs/benchmarks-curve.png

The picture is a pure function of the results file (matplotlib's Agg backend, no date in the
PNG), so ``tests/benchmarks/test_curve.py`` draws it again from the committed file and finds
the committed picture.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

BOTS = {"quizbot": ("quizbot", "#1f6fb4"), "aiogram": ("bare aiogram 3", "#d9822b")}
"""The bots drawn: results name -> (legend label, colour)."""

Series = dict[tuple[str, float], list[tuple[int, float, float, float]]]
"""(bot, round trip ms) -> [(users, p50 ms, p99 ms, CPU s per 1k answers)], by users."""


def series(results: Mapping[str, Any]) -> Series:
    """The medians of a results file, per bot and round trip, ordered by users.

    Raises:
        ValueError: the file has fewer than two loads of a bot (no curve to draw).
    """
    found: Series = {}
    for row in results["medians"]:
        if row["bot"] in BOTS:
            found.setdefault((row["bot"], float(row["api_delay_ms"])), []).append(
                (
                    int(row["users"]),
                    float(row["p50_ms"]),
                    float(row["p99_ms"]),
                    float(row["cpu_seconds_per_1000_answers"]),
                )
            )
    if not found or any(len(points) < 2 for points in found.values()):
        raise ValueError("a curve needs at least two loads per bot and round trip")
    return {key: sorted(points) for key, points in sorted(found.items())}


def render_png(results: Mapping[str, Any]) -> bytes:
    """The curve as a PNG: latency (p50 solid, p99 dashed) and CPU per answer against users,
    one column per round trip."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    curves = series(results)
    delays = sorted({delay for _, delay in curves})
    figure = Figure(figsize=(4.2 * len(delays), 6.4), dpi=100)
    axes = figure.subplots(2, len(delays), squeeze=False)
    for column, delay in enumerate(delays):
        latency, cpu = axes[0][column], axes[1][column]
        for bot, (label, colour) in BOTS.items():
            points = curves.get((bot, delay))
            if not points:
                continue
            users = [p[0] for p in points]
            latency.plot(users, [p[1] for p in points], "-o", color=colour, label=f"{label} p50")
            latency.plot(users, [p[2] for p in points], "--o", color=colour, label=f"{label} p99")
            cpu.plot(users, [p[3] for p in points], "-o", color=colour, label=label)
        for axis in (latency, cpu):
            axis.set_xscale("log")
            axis.set_xticks(sorted({p[0] for pts in curves.values() for p in pts}))
            axis.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
            axis.grid(True, alpha=0.3)
        latency.set_title(f"{delay:g} ms per Bot API call", fontsize=10)
        latency.set_ylabel("tap to feedback, ms")
        latency.set_ylim(bottom=0)
        cpu.set_ylabel("CPU s per 1,000 answers")
        cpu.set_xlabel("users (each reads a question for 5 s)")
        cpu.set_ylim(bottom=0)
        latency.legend(fontsize=7)
        cpu.legend(fontsize=7)
    figure.tight_layout()
    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def table(results: Mapping[str, Any]) -> str:
    """The curve's points as a markdown table (users, round trip, then per bot p50, p99, CPU)."""
    curves = series(results)
    lines = [
        "| users | RTT ms | "
        + " | ".join(f"{BOTS[b][0]} p50 ms | p99 ms | CPU s/1k" for b in BOTS)
        + " |",
        "|---|---|" + "---|---|---|" * len(BOTS),
    ]
    keys = sorted(
        {(p[0], delay) for (_, delay), pts in curves.items() for p in pts},
        key=lambda k: (k[1], k[0]),
    )
    for users, delay in keys:
        cells = []
        for bot in BOTS:
            point = next((p for p in curves.get((bot, delay), []) if p[0] == users), None)
            cells += [f"{v:g}" for v in point[1:]] if point else ["-", "-", "-"]
        lines.append(f"| {users} | {delay:g} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """``curve.py RESULTS PNG``: draw the curve of RESULTS into PNG; print its table."""
    if len(argv) != 2:
        print("usage: python -m benchmarks.curve RESULTS.json OUT.png", file=sys.stderr)
        return 2
    results = json.loads(Path(argv[0]).read_text())
    Path(argv[1]).write_bytes(render_png(results))
    print(table(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
