"""The by-hand sandbox (``python -m tests.support.sandbox``, docs/development.md): a scripted
session through the real command, and the fake's own pointers for a newcomer."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import tests.support.fakebotapi as fakebotapi
from tests.support.fakebotapi import DEFAULT_SPEC

ROOT = Path(__file__).resolve().parents[2]


def test_a_scripted_session_starts_answers_and_stops():
    """Lines from standard input: /start gets the greeting and the first question with its
    buttons numbered; ``:tap 1`` answers it (the question edited into its feedback); the
    sandbox's own commands answer; at the end of the input the bot is stopped, exit 0."""
    script = "/start\n:tap 1\n:tap 7\n:nonsense\n:help\n"
    done = subprocess.run([sys.executable, "-m", "tests.support.sandbox"], input=script,
                          capture_output=True, text=True, cwd=ROOT, timeout=180, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert "quizbot is running against the fake Bot API at http://127.0.0.1:" in out
    assert "bot sent #2:\n  Hi, You!" in out
    assert "bot sent #3:" in out and "[1] A  [2] B  [3] C  [4] D" in out
    edited = out.split("bot edited #3:", 1)[1]
    assert "✅ " in edited and "[5] Next question ▶" in edited, out
    assert "(tap a button from 1 to 5: :tap N)" in out  # the feedback: 4 options, "Next"
    assert "(unknown sandbox command ':nonsense': see :help)" in out
    assert ":tap N      tap button N" in out
    log = re.search(r"its log: (\S+)", out)
    assert log and "SIGINT: stopping" in Path(log[1]).read_text("utf-8")


def test_the_docs_name_the_sandbox_and_the_spec_the_fake_reads():
    """docs/development.md gives the sandbox's command; the fake's docstring names the Bot API
    description it reads by default, a file of the repository."""
    assert "python -m tests.support.sandbox" in (ROOT / "docs" / "development.md").read_text(
        "utf-8")
    named = re.search(r"by default ``([^`]+)``", fakebotapi.__doc__ or "")
    assert named and (ROOT / named[1]).resolve() == DEFAULT_SPEC.resolve()
    assert DEFAULT_SPEC.is_file()
