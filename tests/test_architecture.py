"""docs/architecture.md stays true to the code: every path it names exists, every room has its
row, and every module of a room is named in it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "architecture.md").read_text("utf-8")
FEATURES = sorted(
    f"bot/features/{p.name}/"
    for p in (ROOT / "bot" / "features").iterdir()
    if (p / "__init__.py").exists()
)
ROOMS = [
    "bot/kernel/",
    "bot/telegram/",
    "bot/render/",
    "bot/terminal/",
    "bot/bankload/",
    "bot/i18n/",
    "storage/",
    *FEATURES,
]


def rows() -> dict[str, str]:
    """The rooms table's rows, by the folder in their first cell."""
    found = {}
    for line in PAGE.splitlines():
        cells = line.split("|")
        if len(cells) > 3 and (first := re.fullmatch(r"\s*`([\w/]+/)`\s*", cells[1])):
            found[first[1]] = cells[2]
    return found


def test_every_path_named_exists():
    """A path in backticks (``bot/...``, ``storage/...``, ``tests/...``) is a file or folder."""
    named = set(re.findall(r"`((?:bot|storage|tests|docs)/[\w/.]*)`", PAGE))
    assert named, "the page names no path"
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


@pytest.mark.parametrize("room", ROOMS)
def test_every_room_has_its_row_naming_each_of_its_modules(room):
    """A room without a row, or a module its row does not name, is a change the page missed."""
    row = rows().get(room)
    assert row is not None, f"no row for {room}"
    modules = sorted(p.name for p in (ROOT / room).glob("*.py") if p.name != "__init__.py")
    assert [m for m in modules if f"`{m}`" not in row] == []
    assert [m for m in re.findall(r"`(\w+\.py)`", row) if not (ROOT / room / m).exists()] == []
