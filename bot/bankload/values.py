"""How a value read from a bank file is described in a problem ("got '1.5', which YAML reads as
the number 1.5"), and which texts would be valid where the advice is to quote a value."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.bankload.problems import show
from bot.bankload.yaml_positions import YamlMapping
from bot.kernel.bank import ID_PATTERN, MAX_PICTURE, PICTURE_PATTERN

MAX_KEY_SHOWN = 40
"""Longest key, or unquoted value, quoted in a problem, in characters."""


def got(
    node: YamlMapping, key: str, valid: Callable[[str], bool] = lambda text: bool(text.strip())
) -> str:
    """Describe the value of ``key`` for a "got ..." message. An unquoted scalar that YAML
    read as something other than text (``no`` as false, ``1:30`` as 90: YAML 1.1 booleans and
    base-60 numbers, which PyYAML follows) is shown as written, and what YAML made of it; the
    advice to quote it is given only where the quoted text would be ``valid`` for the field
    (``version: "1.5"`` would still be no whole number)."""
    value = node.get(key)
    source = node.plain_source.get(key, "")
    if source and not isinstance(value, str | list | dict):
        read = (
            "nothing"
            if value is None
            else str(value).lower()
            if isinstance(value, bool)
            else f"the number {value}"
            if isinstance(value, int | float)
            else f"a {type(value).__name__}"
        )
        if not valid(source):
            return f"{show(source)}, which YAML reads as {read}"
        return (
            f"{show(source)}, which YAML reads as {read} when it is not quoted: "
            f'quote it ("{source if len(source) <= MAX_KEY_SHOWN else "…"}")'
        )
    return described(value)


def is_id(text: str) -> bool:
    """For :func:`got`: whether ``text`` is a valid bank or question id."""
    return ID_PATTERN.fullmatch(text) is not None


def is_picture(text: str) -> bool:
    """For :func:`got`: whether ``text`` is a valid ``picture`` (an https URL or a file_id)."""
    return len(text) <= MAX_PICTURE and PICTURE_PATTERN.fullmatch(text) is not None


def never(text: str) -> bool:
    """For :func:`got`: no quoted text is valid for the field (a number or a boolean)."""
    return False


def described(value: Any) -> str:
    """``value`` from a bank file in words, for a "got ..." message (``a list``, ``text 'x'``)."""
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "empty text" if not value.strip() else f"text {show(value)}"
    return f"{type(value).__name__} {show(value)}"
