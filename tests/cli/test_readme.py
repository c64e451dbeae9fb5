"""The README's promises to a newcomer: its first two commands, and links that lead somewhere."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "banks/README.md"]


def slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a page's headings (outside code blocks)."""
    found, fenced = set(), False
    for line in page.read_text("utf-8").splitlines():
        fenced ^= line.startswith("```")
        if not fenced and re.match(r"#{1,6} ", line):
            found.add(slug(line.lstrip("#")))
    return found


def test_the_first_commands_install_and_play_then_install_and_test():
    """The README opens with two commands: install and play in the terminal (it needs no token,
    so it does not fail when pasted as written), then install and run the tests."""
    text = (ROOT / "README.md").read_text("utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert len(block) == 2, block
    assert block[0].startswith("python3 -m venv .venv") and block[0].endswith("&& quizbot play")
    assert block[1].startswith("python3 -m venv .venv") and block[1].endswith("&& pytest")
    assert text.index("```sh") < text.index("## "), "the commands come before any section"


def test_right_below_the_commands_the_readme_says_what_the_tests_need():
    """The paragraph right after the two commands says the tests need PostgreSQL, how to skip
    those (QUIZBOT_SKIP_PG=1) and how to run one file (a file that exists)."""
    text = (ROOT / "README.md").read_text("utf-8")
    below = text.split("```sh\n", 1)[1].split("```", 1)[1].strip().split("\n\n", 1)[0]
    assert "PostgreSQL" in below and "QUIZBOT_SKIP_PG=1 pytest" in below, below
    one_file = re.search(r"`pytest -n0 (tests/\S+\.py)`", below)
    assert one_file and (ROOT / one_file[1]).is_file(), below


def test_quizbot_play_ends_cleanly_without_a_terminal(tmp_path):
    """`quizbot play` with its input closed (pasted, then Ctrl-D) exits 0 in an empty folder."""
    run = subprocess.run(
        [sys.executable, "-m", "bot", "play"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert "Question 1/" in run.stdout


def test_every_relative_link_of_the_documentation_leads_somewhere():
    """Every relative link in the README and docs/ names a file that exists, and an anchor that
    one of its headings makes."""
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text("utf-8")):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            path, _, fragment = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
                broken.append(f"{page.name}: {target} (no such heading)")
    assert broken == []


def test_ci_installs_as_the_readme_says_from_the_hashed_lock():
    """CI (`.ci/run`) runs the README's test command as written (its install line, then, with
    PostgreSQL started, `pytest`), and that command installs from the hashed test lock, whose
    pins agree with the runtime lock production installs (docs/operations.md)."""
    text = (ROOT / "README.md").read_text("utf-8")
    test_line = text.split("```sh\n", 1)[1].split("```", 1)[0].strip().splitlines()[1]
    install = test_line.removesuffix(" && pytest")
    ci = (ROOT / ".ci" / "run").read_text("utf-8").splitlines()
    assert install in ci and ci[-1] == "pytest"
    assert "--require-hashes -r requirements-test.lock" in install

    def pins(name: str) -> dict[str, str]:
        found = re.findall(r"^([a-z0-9_.-]+)==(\S+)", (ROOT / name).read_text(), re.MULTILINE)
        return dict(found)

    runtime, test = pins("requirements.lock"), pins("requirements-test.lock")
    assert runtime and {name: test.get(name) for name in runtime} == runtime
    assert {"pytest", "pytest-xdist", "aiogram"} <= set(test)
