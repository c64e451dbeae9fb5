"""Tests for the layout of bot.render: the package re-exports every public name of its modules."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from types import ModuleType

import pytest

from bot import render

MODULES = sorted(info.name for info in pkgutil.iter_modules(render.__path__))


def public_names(module: ModuleType) -> set[str]:
    """The public names a module defines at its top level (not those it imports)."""
    tree = ast.parse(inspect.getsource(module))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {name for name in names if not name.startswith("_")}


@pytest.mark.parametrize("name", MODULES)
def test_every_public_name_is_re_exported(name):
    """``render.X`` works for every public function, class and constant of every module, and is
    the module's own object, so callers need not know which module holds a screen."""
    module = importlib.import_module(f"bot.render.{name}")
    missing = sorted(n for n in public_names(module) if getattr(render, n, None) is not
                     getattr(module, n))
    assert not missing


def test_all_lists_exactly_the_re_exports():
    """``__all__`` names every re-exported name and nothing else."""
    defined = set().union(*(public_names(importlib.import_module(f"bot.render.{name}"))
                            for name in MODULES))
    assert set(render.__all__) == defined
    assert len(render.__all__) == len(set(render.__all__))
