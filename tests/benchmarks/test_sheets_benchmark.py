"""benchmarks/sheets.py: a small .xlsx, .docx and PDF are read and their figures written (the
documentation's table of the committed results: tests/benchmarks/test_benchmarks.py)."""

from __future__ import annotations

import json

from benchmarks import sheets


def test_the_file_benchmark_writes_the_figures_of_each_format(tmp_path):
    out = tmp_path / "sheets.json"
    assert sheets.main(["--questions", "5", "--runs", "1", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["questions"] == 5
    assert list(result["formats"]) == ["xlsx", "docx", "pdf"]
    for figures in result["formats"].values():
        assert figures["file_bytes"] > 0 and figures["read_seconds_median"] > 0
        assert figures["python_peak_bytes"] > 0 and figures["rss_growth_kib"] >= 0
