"""The by-hand sandbox (``python -m tests.support.sandbox``, docs/development.md): a scripted
session through the real command, and the fake's own pointers for a newcomer."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import tests.support.fakebotapi as fakebotapi
from bot.terminal import text as termtext
from tests.support.fakebotapi import DEFAULT_SPEC

ROOT = Path(__file__).resolve().parents[2]


def sandbox(script: str, columns: int = 100) -> str:
    """Run the real sandbox command on ``script`` at ``columns`` columns; its output (exit 0)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.sandbox"],
        input=script,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=180,
        check=False,
        env={**os.environ, "COLUMNS": str(columns)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_scripted_session_starts_answers_and_stops():
    """Lines from standard input, each echoed: /start gets the greeting (to the fake user's
    first name) and the first question with its buttons numbered; ``:tap 1`` answers it (the
    question edited into its feedback); the sandbox's own commands answer; at the end of the
    input the bot is stopped, exit 0, and the temporary folder is gone."""
    out = sandbox("/start\n:tap 1\n:tap 7\n:nonsense\n:help\n")
    assert "quizbot is running against the fake Bot API at http://127.0.0.1:" in out
    assert "> /start\n" in out and "> :tap 1\n" in out
    assert "bot sent #2:\n  Hi, Alex!" in out
    assert "bot sent #3:" in out and "[1] A  [2] B  [3] C  [4] D" in out
    edited = out.split("bot edited #3:", 1)[1]
    assert "✅ " in edited and "[5] Next question ▶" in edited, out
    assert "(tap a button from 1 to 5: :tap N)" in out  # the feedback: 4 options, "Next"
    assert "(unknown sandbox command ':nonsense': see :help)" in out
    assert ":tap N      tap button N" in out
    log = re.search(r"its log:\s+(\S+)", out)
    assert log and not Path(log[1]).parent.exists()


def test_a_tap_after_a_stray_word_taps_the_newest_keyboard_at_once():
    """A word the bot answers without buttons, then ``:tap 5``: "Next question" of the
    feedback sent before the word is tapped at once (the second question comes), not "no
    message with buttons" after a wait."""
    out = sandbox("/start\n:tap 1\nhello\n:tap 5\n")
    assert "no message with buttons" not in out
    assert "Question 2/8" in out.split("> :tap 5", 1)[1], out


def test_output_is_wrapped_and_a_photo_is_named():
    """At 40 columns every line fits, words are not cut and continuation lines keep the
    two-space indent, a button's label is never cut; the /stats chart shows as ``[photo:
    PNG, WIDTHxHEIGHT, N bytes]``."""
    # one answer is a history to chart: /stats waits for its review card (settled)
    out = sandbox("/start\n:tap 1\n/stats\n", columns=40)
    lines = out.splitlines()
    assert all(termtext.width(line) <= 40 for line in lines if "://" not in line), out
    body = re.split(r"\n(?:bot|>) ", out.split("bot sent #2:\n", 1)[1])[0].splitlines()
    assert len(body) > 3 and all(line.startswith("  ") for line in body if line), out
    assert "[5] Next question ▶" in out
    assert re.search(r"\[photo: PNG, [0-9]+×[0-9]+, [0-9]+ bytes\]", out), out


def test_the_docs_name_the_sandbox_and_the_spec_the_fake_reads():
    """docs/development.md gives the sandbox's command; the fake's docstring names the Bot API
    description it reads by default, a file of the repository."""
    assert "python -m tests.support.sandbox" in (ROOT / "docs" / "development.md").read_text(
        "utf-8"
    )
    named = re.search(r"by default ``([^`]+)``", fakebotapi.__doc__ or "")
    assert named and (ROOT / named[1]).resolve() == DEFAULT_SPEC.resolve()
    assert DEFAULT_SPEC.is_file()
