"""House rules that no linter states: ``tests/conftest.py`` holds fixtures only (what tests
import lives in ``tests/support/``), and the functions over ruff's complexity limit are the
ones ``pyproject.toml`` counts, each naming why."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINTED = ("bot", "storage", "tests", "benchmarks")  # what `ruff check` covers (.ci/run)


def conftest_imports(source: str) -> list[int]:
    """The line numbers of the statements in ``source`` that import a ``conftest`` module (by
    any spelling: ``tests.conftest``, ``from tests import conftest``, ``from . import
    conftest``, ``from .conftest``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            names = [module, *(f"{module}.{alias.name}" for alias in node.names)]
        else:
            continue
        if any("conftest" in name.split(".") for name in names):
            found.append(node.lineno)
    return found


def test_the_check_sees_every_spelling():
    for source in (
        "import tests.conftest",
        "from tests.conftest import BANK_ID",
        "from tests import conftest",
        "from . import conftest",
        "from ..conftest import x",
        "def f():\n    from tests.conftest import y\n",
    ):
        assert conftest_imports(source), source
    assert not conftest_imports("from tests.support.botrun import RunningBot\nimport contest")


def test_no_file_imports_conftest_as_a_library():
    """Fixtures reach tests through pytest; helpers, classes and constants are imported from
    ``tests/support/`` (botrun, person, screens, clock, banks, processes ...)."""
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for folder in ("tests", "benchmarks")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for line in conftest_imports(path.read_text(encoding="utf-8"))
    ]
    assert not offenders, offenders


def test_the_complexity_exceptions_are_the_ones_pyproject_counts():
    """Every ``# noqa: C901`` is on a ``def`` line and says why after a dash; their number is
    the one the comment of ``[tool.ruff.lint.mccabe]`` states (ruff's RUF100 flags one that is
    no longer needed)."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert tomllib.loads(pyproject)["tool"]["ruff"]["lint"]["mccabe"]["max-complexity"] <= 15
    [stated] = re.findall(r"# \(`# noqa: C901 - reason`\)\. Exceptions: (\d+) ", pyproject)
    pragma = re.compile(r"#\s*noqa:[^#]*\bC901\b")
    found, unexplained = [], []
    for folder in LINTED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pragma.search(line):
                    where = f"{path.relative_to(ROOT)}:{number}"
                    found.append(where)
                    if not re.match(r"\s*(async )?def \w+\(.*# noqa: C901 - \S", line):
                        unexplained.append(where)
    assert not unexplained, unexplained
    assert len(found) == int(stated), found
