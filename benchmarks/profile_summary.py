"""A text summary of py-spy profiles of the bot under load (``QUIZBOT_PROFILE_DIR`` set for
``benchmarks/run.py``: each bot process runs under ``py-spy record --format raw``).

Each sample (a stack, innermost frame last) is counted once, for the package its innermost
frame is in (self time), and once for each marker it passes through (inclusive time: building
objects from responses, encoding request bodies, the rate limiter, the database thread).

    python -m benchmarks.profile_summary /tmp/profiles/quizbot-*.txt > summary.txt
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

PACKAGES = (
    ("python-telegram-bot", re.compile(r"(^|/)telegram/")),
    ("quizbot (bot/, storage/)", re.compile(r"(^|/)(bot|storage)/")),
    ("aiohttp, yarl, multidict", re.compile(r"(^|/)(aiohttp|yarl|multidict|propcache)/")),
    ("SQLite (sqlite3, aiosqlite)", re.compile(r"sqlite3|aiosqlite")),
    (
        "the event loop (asyncio; uvloop's C code shows as asyncio/runners.py)",
        re.compile(r"(^|/)asyncio/|uvloop"),
    ),
    ("json", re.compile(r"(^|/)json/")),
    (
        "prometheus-client, cachetools, aiolimiter, tenacity",
        re.compile(r"(^|/)(prometheus_client|cachetools|aiolimiter|tenacity)/"),
    ),
)
"""Where a frame belongs, by its file (the first that matches)."""

MARKERS = (
    (
        "the database threads (SQLite's work, each statement or batch)",
        re.compile(r"_connection_worker_thread|concurrent/futures/thread\.py"),
    ),
    ("PTB objects from responses and updates (de_json)", re.compile(r"de_json|de_list")),
    (
        "request bodies (RequestData, json_parameters, urlencode, json_body)",
        re.compile(
            r"json_parameters|url_encoded|urlencode|json_body|RequestParameter|"
            r"RequestData"
        ),
    ),
    ("the rate limiter with the calls it passes on (limits.py)", re.compile(r"limits\.py")),
    ("getUpdates (the updater's polling)", re.compile(r"polling_action_cb")),
    (
        "handling updates (the handlers, the router)",
        re.compile(r"bot/telegram/(handlers|router)\.py"),
    ),
)
"""Inclusive counts: samples whose stack passes through a frame matching these."""

IDLE = re.compile(
    r"^_worker \(concurrent/futures/thread\.py:81\)$|"
    r"^_connection_worker_thread \(aiosqlite/core\.py:59\)$|"
    r"^(wait|_wait_for_tstate_lock) \(threading\.py"
)
"""Innermost frames of a thread waiting for work (not CPU): left out."""

_FRAME_FILE = re.compile(r"\(([^():]+)(?::\d+)?\)$")


def frames(stack: str) -> list[str]:
    """The frames of one py-spy raw stack, outermost first."""
    return [f for f in stack.split(";") if f]


def package_of(frame: str) -> str:
    """The package a frame's file belongs to, ``other`` for the rest."""
    match = _FRAME_FILE.search(frame)
    where = match.group(1) if match else frame
    for name, pattern in PACKAGES:
        if pattern.search(where):
            return name
    return "other (the interpreter, the standard library)"


def summarise(paths: list[Path]) -> str:
    """The summary of the raw profiles at ``paths``."""
    own: Counter[str] = Counter()
    through: Counter[str] = Counter()
    total = idle = 0
    for path in paths:
        for line in path.read_text().splitlines():
            stack, _, count_text = line.rpartition(" ")
            if not stack or not count_text.isdigit():
                continue
            count = int(count_text)
            stack_frames = frames(stack)
            if stack_frames and IDLE.search(stack_frames[-1]):
                idle += count
                continue
            total += count
            own[package_of(stack_frames[-1]) if stack_frames else "other"] += count
            for name, pattern in MARKERS:
                if any(pattern.search(f) for f in stack_frames):
                    through[name] += count
    lines = [
        f"samples: {total} busy, {idle} of threads waiting for work left out (py-spy, "
        f"{len(paths)} profile(s): {', '.join(p.name for p in paths)})",
        "",
        "Self time by package (the innermost frame of each sample):",
    ]
    for name, count in own.most_common():
        lines.append(f"  {100 * count / max(total, 1):5.1f} %  {name}")
    lines += ["", "Inclusive time (samples whose stack passes through):"]
    for name, _ in MARKERS:
        lines.append(f"  {100 * through[name] / max(total, 1):5.1f} %  {name}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the summary of the profiles named on the command line."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.profile_summary",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("profiles", nargs="+", type=Path, help="py-spy raw profiles")
    args = parser.parse_args(argv)
    sys.stdout.write(summarise(args.profiles))
    return 0


if __name__ == "__main__":
    sys.exit(main())
