"""The worst-files benchmark still runs (tiny files; no timing asserts), and the documentation's
table is what it writes from the committed results."""

from __future__ import annotations

import json

from benchmarks import worst_files
from benchmarks.worst_files import MB, files
from tests.benchmarks.test_benchmarks import readme_block, results


def test_the_worst_files_are_of_each_format_and_within_the_limit():
    """Every format has its worst files, none over 1 MB, each named by its format."""
    built = files()
    assert {name.split()[0] for name in built} == {"yaml", "gift", "aiken", "csv"}
    assert all(len(text.encode()) <= MB for _, text in built.values())


async def test_the_benchmark_runs_and_every_file_is_answered(tmp_path):
    """Files of a hundredth of the size, each answered while the probe plays without stalling;
    the table renders from the results."""
    out = tmp_path / "worst.json"
    argv = ["--scale", "0.01", "--baseline", "0.5", "--json", str(out)]
    assert await worst_files.main(worst_files.parse(argv), argv) == 0
    data = json.loads(out.read_text())
    assert [row["file"] for row in data["files"]] == list(files(0.01))
    assert all(row["reply"] and row["taps"] >= 8 for row in data["files"])
    assert "| none (baseline) |" in worst_files.markdown(data)


def test_the_docs_table_is_written_from_the_committed_results():
    """docs/benchmarks.md's worst-files block is ``python -m benchmarks.worst_files --markdown
    benchmarks/results/worst-files.json``."""
    assert readme_block("worst-files") == worst_files.markdown(results("worst-files.json"))
