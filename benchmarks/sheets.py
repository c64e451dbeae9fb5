"""Reading a maker's file: the time and memory to read a 500-question .xlsx, .docx and PDF into
a quiz.

Each file is made by the library that writes such files, as a maker's program would save it:
the .xlsx with openpyxl (a header row, then a row per question: four options, an answer and an
explanation of a typical length), the .docx with python-docx and the PDF with fpdf2 (the same
questions in the numbered form, a paragraph or a line each). Each is then read as the bot's
worker process reads a file sent to it (:func:`convert_sheet`: the archive check, openpyxl
read-only, the rows made questions; :func:`convert_file`: the archive check and python-docx, or
pypdf's text layer, then the numbered form), ``--runs`` times. Recorded per format: the file's
size, the median and worst time of a read, the peak of Python's allocations during one read
(``tracemalloc``: not what lxml allocates in C), and the growth of the peak resident size of a
fresh process that reads the file once (what the first read takes from the machine, lxml and
the modules it first imports included; Linux's ``/proc``).

    python -m benchmarks.sheets                    # writes benchmarks/results/sheets.json
    python -m benchmarks.sheets --questions 50 --json /tmp/s.json   # a quick look
    python -m benchmarks.sheets --markdown benchmarks/results/sheets.json  # docs/benchmarks.md
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
from fpdf import FPDF
from openpyxl import Workbook

from benchmarks.abuse import git_commit
from benchmarks.run import ROOT, machine
from bot.features.importing.readers import convert_file
from bot.features.importing.rules import Converted
from bot.features.importing.sheets import convert_sheet

RESULTS = ROOT / "benchmarks" / "results" / "sheets.json"

FORMATS = ("xlsx", "docx", "pdf")
"""The formats measured, in the order the results and the documentation list them."""

NAMES = {"xlsx": "Excel sheet (.xlsx)", "docx": "Word file (.docx)", "pdf": "PDF"}


def _question(n: int) -> tuple[str, list[str], str, str]:
    """Question ``n``: its prompt, four options, the right letter and an explanation."""
    return (
        f"Which of these statements about topic {n} is the right one?",
        [f"The {nth} statement about topic {n}" for nth in ("first", "second", "third", "fourth")],
        "ABCD"[n % 4],
        f"The statement is right because the source says so, in two sentences of a typical "
        f"length. The others describe neighbouring ideas of topic {n}.",
    )


def numbered_lines(questions: int) -> list[str]:
    """The numbered form's lines of ``questions`` questions (a blank line after each)."""
    lines: list[str] = []
    for n in range(1, questions + 1):
        prompt, options, answer, explanation = _question(n)
        lines.append(f"{n}. {prompt}")
        lines += [f"{letter}) {text}" for letter, text in zip("ABCD", options, strict=True)]
        lines += [f"Answer: {answer}", f"Explanation: {explanation}", ""]
    return lines


def sheet(questions: int) -> bytes:
    """An .xlsx file of ``questions`` rows of the documented layout (openpyxl)."""
    book = Workbook()
    rows = book.active
    assert rows is not None
    rows.append(["Question", "A", "B", "C", "D", "Answer", "Explanation"])
    for n in range(1, questions + 1):
        prompt, options, answer, explanation = _question(n)
        rows.append([f"Question {n}: {prompt}", *options, answer, explanation])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def word(questions: int) -> bytes:
    """A .docx of ``questions`` questions in the numbered form, a paragraph a line
    (python-docx)."""
    document = docx.Document()
    for line in numbered_lines(questions):
        document.add_paragraph(line)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def pdf(questions: int) -> bytes:
    """A PDF with a text layer of ``questions`` questions in the numbered form (fpdf2, the
    core Helvetica at 8 points, so that 500 questions fit the pages a PDF may have)."""
    document = FPDF()
    document.set_auto_page_break(auto=True, margin=10)
    document.add_page()
    document.set_font("helvetica", size=8)
    for line in numbered_lines(questions):
        document.multi_cell(0, 3.6, line or " ", new_x="LMARGIN", new_y="NEXT")
    return bytes(document.output())


MAKERS: dict[str, Callable[[int], bytes]] = {"xlsx": sheet, "docx": word, "pdf": pdf}


def read(kind: str, data: bytes, questions: int) -> int:
    """Read a ``kind`` file as the bot does; the number of questions made."""
    if kind == "xlsx":
        converted: object = convert_sheet(
            data, language="en", title="Benchmark", description="A benchmark.", limit=questions
        )
    else:
        converted = convert_file(
            kind,
            data,
            language="en",
            title="Benchmark",
            description="A benchmark.",
            limit=questions,
        )
    assert isinstance(converted, Converted), converted
    made = converted.data["questions"]
    assert isinstance(made, list)
    return len(made)


def rss_growth(kind: str, data: bytes, questions: int) -> int:
    """KiB the peak resident size of a fresh process grows by when it reads the file once
    (after its imports and the file's bytes are in memory)."""
    with tempfile.NamedTemporaryFile(suffix=f".{kind}") as file:
        file.write(data)
        file.flush()
        command = [sys.executable, "-m", "benchmarks.sheets", "--child", kind, file.name]
        done = subprocess.run(
            [*command, "--questions", str(questions)],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    return int(done.stdout.split()[-1])


def _status(key: str) -> int:
    """A field of ``/proc/self/status`` in KiB (``VmRSS``: resident now; ``VmHWM``: its peak)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(f"{key}:"):
            return int(line.split()[1])
    raise KeyError(key)


def child(kind: str, path: Path, questions: int) -> int:
    """In the fresh process of :func:`rss_growth`: with the file's bytes read and the peak
    resident size reset to the resident size now (``/proc/self/clear_refs``, Linux), read the
    file once and print by how many KiB the peak grew."""
    data = path.read_bytes()
    Path("/proc/self/clear_refs").write_text("5")
    before = _status("VmRSS")
    read(kind, data, questions)
    print(_status("VmHWM") - before)
    return 0


def measure(kind: str, questions: int, runs: int) -> dict[str, object]:
    """Make a ``kind`` file and read it ``runs`` times (once more under ``tracemalloc``, and
    once in a fresh process)."""
    data = MAKERS[kind](questions)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        assert read(kind, data, questions) == questions
        times.append(time.perf_counter() - start)
    tracemalloc.start()
    read(kind, data, questions)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "file_bytes": len(data),
        "read_seconds_median": round(statistics.median(times), 4),
        "read_seconds_max": round(max(times), 4),
        "python_peak_bytes": peak,
        "rss_growth_kib": rss_growth(kind, data, questions),
    }


def readme_paragraph(results: dict[str, Any]) -> str:
    """The documentation's paragraph on the committed results (``--markdown``)."""
    rows = [
        "| file | size | read (median) | slowest | Python's peak | resident growth |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind in FORMATS:
        row = results["formats"][kind]
        rows.append(
            f"| {NAMES[kind]} | {row['file_bytes'] / 1000:,.0f} KB "
            f"| {row['read_seconds_median']:.2f} s | {row['read_seconds_max']:.2f} s "
            f"| {row['python_peak_bytes'] / 1e6:.1f} MB | {row['rss_growth_kib'] / 1024:.1f} MiB |"
        )
    rows.append("")
    rows.append(
        f"{results['questions']} questions a file, {results['runs']} reads each "
        f"(`python -m benchmarks.sheets`, commit {results['commit'][:7]}, "
        f"{results['machine']['nproc']} cores, Python {results['machine']['python']})."
    )
    return "\n".join(rows)


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument("--markdown", type=Path, help="print the docs' table of a results file")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "FILE"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str]) -> int:
    """Measure and write the JSON (or print the docs' table of a results file); 0."""
    args = parse(argv)
    if args.child:
        return child(args.child[0], Path(args.child[1]), args.questions)
    if args.markdown:
        print(readme_paragraph(json.loads(args.markdown.read_text(encoding="utf-8"))))
        return 0
    result = {
        "commit": git_commit(),
        "machine": machine(),
        "questions": args.questions,
        "runs": args.runs,
        "formats": {kind: measure(kind, args.questions, args.runs) for kind in FORMATS},
    }
    args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
