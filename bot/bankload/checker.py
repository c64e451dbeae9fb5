"""The checker of a parsed bank file (:class:`Checker`): it records each problem with its
place, question and field (at most :data:`MAX_PROBLEMS`), and checks the shapes every level of
the file shares: a mapping's keys, a localized text, a URL, plain text. The schema
(:mod:`bot.bankload.schema`) walks the file with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from bot.bankload.problems import BankProblem, show
from bot.bankload.values import MAX_KEY_SHOWN, described, got
from bot.bankload.yaml_positions import Pos, YamlMapping
from bot.kernel.bank import CONTROL_CHARACTERS, Text, blank

MAX_PROBLEMS = 100
"""Problems a check records before it stops: a creator reads the first few (a reply shows 15)
and fixes them; a file with thousands of bad keys is not walked to its end."""


class TooManyProblems(Exception):
    """Raised by the checker when :data:`MAX_PROBLEMS` problems are recorded."""


def too_many_problems(file: str) -> BankProblem:
    """The last problem of a check stopped at :data:`MAX_PROBLEMS`."""
    return BankProblem(
        file,
        None,
        None,
        "(file)",
        f"the check stopped after {MAX_PROBLEMS} problems: fix these first",
        None,
        "problem.too_many_problems",
        {"count": MAX_PROBLEMS},
    )


class Checker:
    """Collects problems while walking one parsed bank file.

    Places are :data:`Pos` pairs; ``positions`` collects where each localized text was found
    (:attr:`Bank.positions`).
    """

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[BankProblem] = []
        self.question_id: str | None = None
        self.question_number: int | None = None
        self.positions: dict[tuple[str | None, str], Pos] = {}
        self.missing: set[tuple[int | None, str]] = set()
        """(question number, field) of each field reported missing: a field under it is not
        reported again (a set, so that each problem is recorded in time of its field's depth,
        however many there are)."""

    def problem(
        self,
        at: Pos | None,
        field_path: str,
        message: str,
        key: str = "problem.invalid",
        **params: object,
    ) -> None:
        """Record a problem, unless the field was already reported missing; ``key`` and
        ``params`` say the same for the UI catalogs (:class:`BankProblem`).

        Raises:
            TooManyProblems: :data:`MAX_PROBLEMS` are recorded already (the walk stops).
        """
        parts = field_path.split(".")
        if any(
            (self.question_number, ".".join(parts[:depth])) in self.missing
            for depth in range(1, len(parts) + 1)
        ):
            return
        if len(self.problems) >= MAX_PROBLEMS:
            raise TooManyProblems
        if message == "is missing":
            self.missing.add((self.question_number, field_path))
        line, column = at if at is not None else (None, None)
        self.problems.append(
            BankProblem(
                self.file,
                line,
                self.question_id,
                field_path,
                message,
                column,
                key,
                params,
                self.question_number,
            )
        )

    def mapping(
        self,
        value: Any,
        at: Pos | None,
        field_path: str,
        required: Iterable[str],
        optional: Iterable[str] = (),
    ) -> YamlMapping | None:
        """Check ``value`` is a mapping with the required keys and no unknown ones."""
        if not isinstance(value, YamlMapping):
            self.problem(
                at, field_path, f"must be a mapping, got {described(value)}", "problem.not_mapping"
            )
            return None
        required = tuple(required)
        allowed = set(required) | set(optional)
        for key in required:
            if key not in value:
                self.problem(value.pos, _join(field_path, key), "is missing", "problem.missing")
        for key in value:
            if key not in allowed:
                shown = key if len(key) <= MAX_KEY_SHOWN else key[:MAX_KEY_SHOWN] + "…"
                self.problem(
                    value.at(key),
                    _join(field_path, shown),
                    f"unknown key (allowed: {', '.join(sorted(allowed))})",
                    "problem.unknown_key",
                    allowed=", ".join(sorted(allowed)),
                )
        return value

    def text(
        self, value: Any, at: Pos | None, field_path: str, languages: Sequence[str]
    ) -> Text | None:
        """Check a localized text: exactly ``languages`` as keys, each a non-empty string."""
        node = self.mapping(value, at, field_path, required=languages)
        if node is None:
            return None
        texts: dict[str, str] = {}
        for language in languages:
            if language not in node:
                continue
            text = node[language]
            path = _join(field_path, language)
            if not isinstance(text, str) or blank(text):
                self.problem(
                    node.value_at(language),
                    path,
                    f"must be non-empty text, got {got(node, language)}",
                    "problem.not_text",
                )
                continue
            if self.plain(text, node.value_at(language), path):
                texts[language] = text.strip()
                self.positions[(self.question_id, path)] = node.value_at(language)
        return Text(texts) if len(texts) == len(languages) else None

    def url(self, value: Any, at: Pos | None, field_path: str) -> str | None:
        """Check an http(s) URL without spaces or control characters."""
        if not isinstance(value, str) or not re.fullmatch(r"https?://\S+", value):
            self.problem(
                at, field_path, f"must be an http(s) URL, got {show(value)}", "problem.not_url"
            )
            return None
        return value if self.plain(value, at, field_path) else None

    def plain(self, text: str, at: Pos | None, field_path: str) -> bool:
        """Check ``text`` has no control character but tab and line feed
        (:data:`CONTROL_CHARACTERS`); report the first one found."""
        found = CONTROL_CHARACTERS.search(text)
        if found:
            self.problem(
                at,
                field_path,
                f"contains the control character U+{ord(found[0]):04X} at character "
                f"{found.start() + 1}; only plain text, tabs and line breaks are allowed",
                "problem.control_character",
                code=f"{ord(found[0]):04X}",
                position=found.start() + 1,
            )
        return not found


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path and path != "(bank)" else key
