"""benchmarks/sheets.py: a small .xlsx, .docx and PDF are read and their figures written; the
documentation's table is the one written from the committed results."""

from __future__ import annotations

import json

from benchmarks import sheets
from tests.benchmarks.test_benchmarks import readme_block, results


def test_the_file_benchmark_writes_the_figures_of_each_format(tmp_path):
    out = tmp_path / "sheets.json"
    assert sheets.main(["--questions", "5", "--runs", "1", "--json", str(out)]) == 0
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["questions"] == 5
    assert list(result["formats"]) == ["xlsx", "docx", "pdf"]
    for figures in result["formats"].values():
        assert figures["file_bytes"] > 0 and figures["read_seconds_median"] > 0
        assert figures["python_peak_bytes"] > 0 and figures["rss_growth_kib"] >= 0


def test_the_docs_table_is_written_from_the_committed_results():
    """Regenerate on change: ``python -m benchmarks.sheets --markdown
    benchmarks/results/sheets.json``, pasted between the ``sheets`` markers."""
    assert readme_block("sheets") == sheets.readme_paragraph(results("sheets.json"))
