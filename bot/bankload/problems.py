"""Problems found in bank files, and how a value from a file is quoted in one."""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BankProblem:
    """One problem found in a bank file.

    Attributes:
        file: The file's path as given.
        line: 1-based line number, or None where the problem has no place in the file.
        question_id: The question's id (or ``#N`` when it has none), None for bank-level fields.
        field: Dotted path of the field, options counted from 1, e.g. ``option 2.text.hi``.
        message: What is wrong, with a hint where the usual fix is known (English, for the
            CLI and the logs).
        column: 1-based column, or None where the problem has no place in the file.
        key: The key of the same message in the UI catalogs (``bot.i18n.messages``, keys
            ``problem.*`` and ``check.*``), for showing it to a creator in their language.
        params: The key's ``{placeholder}`` values (numbers, and texts quoted from the file).
        question: The question's 1-based number in the file, None for bank-level fields.
    """

    file: str
    line: int | None
    question_id: str | None
    field: str
    message: str
    column: int | None = None
    key: str = "problem.invalid"
    params: Mapping[str, object] = dataclasses.field(default_factory=dict, compare=False)
    question: int | None = None

    def __str__(self) -> str:
        return (
            f"{_where(self.file, self.line, self.column)}:{_question(self.question_id)} "
            f"field {self.field!r}: {self.message}"
        )


def _where(file: str, line: int | None, column: int | None) -> str:
    """``file:line:column``, as compilers and editors write a place in a file."""
    if not line:
        return file
    return f"{file}:{line}:{column}" if column else f"{file}:{line}"


def _question(question_id: str | None) -> str:
    return f" question {question_id!r}," if question_id else ""


class BankError(Exception):
    """A bank file is invalid. ``problems`` lists every problem found (at least one)."""

    def __init__(self, problems: Sequence[BankProblem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class _ShortRepr(reprlib.Repr):
    """``repr`` cut to a few dozen characters, whatever the size of the value: error messages
    quote values from the file, which may be huge (or huge once aliases are expanded)."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 2
        self.maxstring = self.maxother = self.maxlong = 60
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = self.maxfrozenset = 4

    # the loader's mappings (bot.bankload.yaml_positions.YamlMapping, a dict subclass):
    # reprlib dispatches on the type's name
    repr_YamlMapping = reprlib.Repr.repr_dict


_short_repr = _ShortRepr().repr
MAX_SHOWN = 100
"""Longest value quoted in a problem, in characters."""


def show(value: Any) -> str:
    """The ``repr`` of a value from a bank file, cut for an error message."""
    shown = _short_repr(value)
    return shown if len(shown) <= MAX_SHOWN else shown[: MAX_SHOWN - 1] + "…"
