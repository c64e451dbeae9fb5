"""The load curve of docs/benchmarks.md is drawn from its committed results file
(``python -m benchmarks.curve``), and its table and picture are in the documentation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import curve

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "benchmarks" / "results" / "private-curve-think5000ms-quizbot-aiogram.json"
PICTURE = ROOT / "docs" / "benchmarks-curve.png"


def test_the_committed_picture_is_the_committed_results_drawn():
    """Drawing the committed results again gives the committed picture, byte for byte, and
    the documentation shows it (its figures are the file's table there, which
    ``tests/benchmarks/test_benchmarks.py`` checks)."""
    results = json.loads(RESULTS.read_text())
    assert curve.render_png(results) == PICTURE.read_bytes()
    docs = (ROOT / "docs" / "benchmarks.md").read_text()
    assert "](benchmarks-curve.png)" in docs


def test_every_load_of_the_curve_has_both_bots_at_both_round_trips():
    """The curve has 50, 200 and 1,000 users at 0 and 50 ms per call, for quizbot and
    aiogram, with nothing stalled, missing or doubled."""
    results = json.loads(RESULTS.read_text())
    points = curve.series(results)
    assert set(points) == {(bot, delay) for bot in ("quizbot", "aiogram") for delay in (0.0, 50.0)}
    assert all([p[0] for p in pts] == [50, 200, 1000] for pts in points.values())
    assert all(row["stalled_users"] == 0 for row in results["medians"])
    assert all(
        row["missing_answers"] in (0, None) and row["doubled_answers"] in (0, None)
        for row in results["medians"]
    )


def test_a_curve_needs_two_loads():
    """One load per bot is no curve: refused with a reason."""
    one = {
        "medians": [
            {
                "bot": "quizbot",
                "users": 50,
                "api_delay_ms": 0,
                "p50_ms": 1,
                "p99_ms": 2,
                "cpu_seconds_per_1000_answers": 3,
            }
        ]
    }
    with pytest.raises(ValueError, match="two loads"):
        curve.series(one)


def test_the_curves_prose_figures_are_the_results():
    """The figures docs/benchmarks.md quotes about the curve and the 200-user comparison are
    those of the committed files."""
    docs = " ".join((ROOT / "docs" / "benchmarks.md").read_text().split())
    results = json.loads(RESULTS.read_text())
    rows = {(r["bot"], r["users"], r["api_delay_ms"]): r for r in results["medians"]}
    ratios = {(r["users"], r["api_delay_ms"]): r for r in results["ratios"]}
    assert (
        f"({rows['quizbot', 200, 50.0]['p99_ms']} against "
        f"{rows['aiogram', 200, 50.0]['p99_ms']} ms in this single run"
    ) in docs
    assert f"({ratios[50, 0.0]['cpu_per_answer_ratio']:g}x at 50 users on loopback)" in docs
    assert f"({ratios[1000, 50.0]['cpu_per_answer_ratio']:g}x at 50 ms per call)" in docs
    gaps = {
        delay: max(
            rows["quizbot", users, delay]["p50_ms"] - rows["aiogram", users, delay]["p50_ms"]
            for users in (50, 200, 1000)
        )
        for delay in (0.0, 50.0)
    }
    assert gaps[0.0] <= 2.5 and gaps[50.0] <= 1.5
    assert "within 2.5 ms on loopback and within 1.5 ms at 50 ms per call" in docs
    three = json.loads((RESULTS.parent / "private-200u-rtt50ms-think5000ms.json").read_text())
    q, a = (next(r for r in three["medians"] if r["bot"] == bot) for bot in ("quizbot", "aiogram"))
    assert f"{q['p99_ms']} against {a['p99_ms']} ms over the three runs" in docs
    assert (
        f"(p50 {q['p50_ms']} against {a['p50_ms']} ms, p99 {q['p99_ms']} against {a['p99_ms']} ms)"
    ) in docs
