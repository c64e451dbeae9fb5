"""House rules of the test tree that no linter states: ``tests/conftest.py`` holds fixtures
only, and what tests import lives in ``tests/support/``."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


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
    for source in ("import tests.conftest", "from tests.conftest import BANK_ID",
                   "from tests import conftest", "from . import conftest",
                   "from ..conftest import x", "def f():\n    from tests.conftest import y\n"):
        assert conftest_imports(source), source
    assert not conftest_imports("from tests.support.botrun import RunningBot\nimport contest")


def test_no_file_imports_conftest_as_a_library():
    """Fixtures reach tests through pytest; helpers, classes and constants are imported from
    ``tests/support/`` (botrun, person, screens, clock, banks, processes ...)."""
    offenders = [f"{path.relative_to(ROOT)}:{line}"
                 for folder in ("tests", "benchmarks")
                 for path in sorted((ROOT / folder).rglob("*.py"))
                 for line in conftest_imports(path.read_text(encoding="utf-8"))]
    assert not offenders, offenders
