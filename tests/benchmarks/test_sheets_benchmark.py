"""benchmarks/sheets.py: a small sheet is read and its figures written."""

from __future__ import annotations

import json

from benchmarks import sheets


def test_the_sheet_benchmark_writes_its_figures(tmp_path):
    out = tmp_path / "sheets.json"
    assert sheets.main(["--questions", "20", "--runs", "1", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["questions"] == 20 and result["file_bytes"] > 0
    assert result["read_seconds_median"] > 0 and result["python_peak_bytes"] > 0
