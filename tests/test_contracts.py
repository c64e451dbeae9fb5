"""The import contracts cover the whole house: every feature is in the contracts that list
features, and every feature module is either pure (in the purity contract) or one of the kinds
that may use Telegram (handlers, jobs, sessions, screens ...)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"][
    "contracts"
]
IMPURE = {
    "handlers",
    "jobs",
    "sessions",
    "session_messages",
    "teachers",
    "screens",
    "teacher_screens",
    "chart",
    "files",
    "catalogs",
}
"""The module names of a feature that may import Telegram, screens or files."""
FEATURES = sorted(
    p.name for p in (ROOT / "bot" / "features").iterdir() if (p / "__init__.py").exists()
)


def contract(starts: str) -> dict[str, object]:
    (found,) = [c for c in CONTRACTS if str(c["name"]).startswith(starts)]
    return found


def test_every_feature_module_is_pure_or_of_a_kind_that_may_use_telegram():
    """A new module of a feature is either listed as pure or named as what it is."""
    pure = set(contract("Every feature's rules, ports and service are pure")["source_modules"])
    modules = {
        f"bot.features.{feature}.{path.stem}"
        for feature in FEATURES
        for path in (ROOT / "bot" / "features" / feature).glob("*.py")
        if path.stem != "__init__"
    }
    unlisted = sorted(
        m
        for m in modules - pure
        if m.rsplit(".", 1)[1] not in IMPURE and not m.endswith("handlers")
    )
    assert unlisted == []
    assert sorted(pure - modules) == []


def test_every_feature_is_in_the_contracts_that_list_features():
    """A new feature is layered inside (its containers) and placed among the others."""
    inside = contract("Inside a feature")["containers"]
    assert sorted(inside) == [f"bot.features.{f}" for f in FEATURES]
    among = " ".join(contract("Features depend on one another only downwards")["layers"])
    assert [f for f in FEATURES if f not in among] == []
