"""The abuse benchmark still runs (tiny loads; the numbers are not checked: no timing asserts)."""

from __future__ import annotations

from benchmarks.abuse import CONDITIONS, floods, markdown, tap_cost


async def test_floods_and_tap_cost_run_and_render():
    """One tiny round of each benchmark: every probe user finishes under every flood, every
    tap is answered, and the README tables render from the results."""
    a = await floods(rounds=1, users=2, think_ms=0, backlog=500)  # drained on a busy machine
    assert [r["condition"] for r in a["rounds"]] == list(CONDITIONS)  # type: ignore[index]
    assert all(r["stalled"] == 0 and r["unanswered"] == 0 for r in a["rounds"])  # type: ignore[union-attr]
    b = await tap_cost(rounds=1, big=20, small=5, small_groups=1, measured=10)
    assert b["rounds"][0]["big_taps"] == 10 and b["rounds"][0]["small_taps"] == 5  # type: ignore[index]
    meta = {
        "command": "x",
        "commit": "0" * 40,
        "date": "today",
        "machine": {"cores": 2, "python": "3"},
    }
    text = markdown({"meta": meta, "floods": a, "tap_cost": b})
    assert "| start spam |" in text and "20 players" in text
