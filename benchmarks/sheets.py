"""Reading a quiz sheet: the time and memory to read a 500-question .xlsx into a quiz.

The sheet is made with openpyxl as a spreadsheet would save it (a header row, 500 rows of a
question, four options, an answer and an explanation of a typical length); it is then read as
the bot's worker process reads a sheet sent to it (:func:`convert_sheet`: the archive check,
openpyxl read-only, the rows made questions), ``--runs`` times. Recorded: the file's size, the
median and worst time of a read, and the peak of Python's allocations during one read
(``tracemalloc``), with the process's peak resident size for scale.

    python -m benchmarks.sheets                    # writes benchmarks/results/sheets.json
    python -m benchmarks.sheets --questions 50 --json /tmp/s.json   # a quick look
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

from openpyxl import Workbook

from benchmarks.abuse import git_commit
from benchmarks.run import ROOT, machine
from bot.features.importing.rules import Converted
from bot.features.importing.sheets import convert_sheet

RESULTS = ROOT / "benchmarks" / "results" / "sheets.json"


def sheet(questions: int) -> bytes:
    """An .xlsx file of ``questions`` rows of the documented layout."""
    book = Workbook()
    rows = book.active
    assert rows is not None
    rows.append(["Question", "A", "B", "C", "D", "Answer", "Explanation"])
    for n in range(1, questions + 1):
        rows.append(
            [
                f"Question {n}: which of these statements about topic {n} is the right one?",
                f"The first statement about topic {n}",
                f"The second statement about topic {n}",
                f"The third statement about topic {n}",
                f"The fourth statement about topic {n}",
                "ABCD"[n % 4],
                f"Explanation {n}: the statement is right because the source says so, in two "
                "sentences of a typical length. The others describe neighbouring ideas.",
            ]
        )
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def read(data: bytes, questions: int) -> int:
    """Read the sheet as the bot does; the number of questions made."""
    converted = convert_sheet(
        data, language="en", title="Benchmark", description="A benchmark.", limit=questions
    )
    assert isinstance(converted, Converted), converted
    made = converted.data["questions"]
    assert isinstance(made, list)
    return len(made)


def measure(questions: int, runs: int) -> dict[str, object]:
    """Build the sheet and read it ``runs`` times (and once more under ``tracemalloc``)."""
    data = sheet(questions)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        assert read(data, questions) == questions
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    read(data, questions)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "questions": questions,
        "file_bytes": len(data),
        "runs": runs,
        "read_seconds_median": round(statistics.median(times), 4),
        "read_seconds_max": round(max(times), 4),
        "python_peak_bytes": peak,
        "process_max_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, default=RESULTS)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Measure and write the JSON; 0."""
    args = parse(argv)
    result = {
        "commit": git_commit(),
        "machine": machine(),
        **measure(args.questions, args.runs),
    }
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
