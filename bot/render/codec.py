"""How a kind of button's declaration becomes callback data and back: :class:`Codec` reads each
kind's prefix (``PREFIX``), the pattern of its fields (``FIELDS``, a group per field) and its
annotated fields, with no branch per kind; :mod:`bot.render.callbacks` declares the kinds.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from collections.abc import Callable
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from bot.render.limits import MAX_CALLBACK_DATA_BYTES


class InvalidCallbackData(ValueError):
    """Callback data that this bot did not make (garbage, forged or from an old format)."""


class ButtonKind(Protocol):
    """A frozen dataclass of a kind of button: its prefix, the pattern of its fields (None: it
    has none) and the fields themselves (``int`` or ``str``)."""

    PREFIX: ClassVar[str]
    FIELDS: ClassVar[str | None]
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


B = TypeVar("B", bound=ButtonKind)

# --- the patterns of the kinds' fields on the wire

INT = r"(0|[1-9][0-9]{0,17})"
"""A field that is a whole number (an id, a position, a version)."""
BANK_ID = r"([a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)"
"""A field that is a bank id."""
SLOT = r"(1[01]|[0-9])"
"""A field that is an option slot: 0 ("A") to 11 ("L"), :data:`bot.kernel.bank.MAX_OPTIONS`."""
TICKS = r"(0|[1-9][0-9]{0,3})"
"""A field that is a set of ticked slots: bit ``s`` set for slot ``s`` (0 to 4095 for twelve
slots)."""
REPS = r"(0|[1-9][0-9]{0,5})"
"""A review card's count of ratings, in the buttons of a card's ticks (at most 999,999: the
card's tick buttons carry the ticks too, and all must fit in 64 bytes)."""
CHAT = r"(-[1-9][0-9]{0,15})"
"""A field that is a group's or channel's chat id (negative)."""

_CODECS: dict[type, Callable[[str], Any]] = {int: int, str: str}
"""How a field of each type reads back from its text (written as ``str(value)``)."""


def field_readers(kind: type[ButtonKind]) -> tuple[Callable[[str], Any], ...]:
    """The reader of each of ``kind``'s fields, in order, from their declared types.

    Raises:
        TypeError: a type without a codec, or ``FIELDS`` capturing another number of fields.
    """
    hints = typing.get_type_hints(kind)
    readers = tuple(_CODECS.get(hints[field.name]) for field in dataclasses.fields(kind))
    if None in readers or re.compile(kind.FIELDS or "").groups != len(readers):
        raise TypeError(f"{kind.__name__}: fields {hints} don't fit codecs or FIELDS")
    return typing.cast(tuple[Callable[[str], Any], ...], readers)


class Codec(Generic[B]):
    """The callback data of the buttons of ``kinds`` (each with a unique ``PREFIX``), within
    Telegram's 64 bytes (:data:`~bot.render.limits.MAX_CALLBACK_DATA_BYTES`).

    Raises:
        TypeError: a kind whose fields don't fit the codecs or its ``FIELDS``.
    """

    def __init__(self, kinds: tuple[type[B], ...]) -> None:
        self._by_prefix: dict[str, type[B]] = {kind.PREFIX: kind for kind in kinds}
        assert len(self._by_prefix) == len(kinds), "two kinds of button share a prefix"
        self._patterns: dict[type[B], re.Pattern[str]] = {
            kind: re.compile(kind.PREFIX + (f":{kind.FIELDS}" if kind.FIELDS else "") + r"\Z")
            for kind in kinds
        }
        self._readers: dict[type[B], tuple[Callable[[str], Any], ...]] = {
            kind: field_readers(kind) for kind in kinds
        }

    def pattern(self, kind: type[B]) -> re.Pattern[str]:
        """The whole callback data of buttons of ``kind`` (its prefix, then its fields), for
        ``re.match`` (PTB's ``CallbackQueryHandler`` pattern) or ``fullmatch``."""
        return self._patterns[kind]

    def encode(self, button: B) -> str:
        """Encode a button as callback data, e.g. ``a:42:3:1`` (its prefix, then its fields).

        Raises:
            ValueError: the encoding would exceed 64 bytes (Bot API limit on callback_data).
        """
        fields = [str(v) for v in button.__dict__.values()]  # the fields, in declared order
        data = ":".join([button.PREFIX, *fields])
        if len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
            raise ValueError(f"callback data over {MAX_CALLBACK_DATA_BYTES} bytes: {data!r}")
        return data

    def decode(self, data: str | None) -> B:
        """Decode callback data made by :meth:`encode`, each field as its declared type.

        Raises:
            InvalidCallbackData: anything else (empty, garbage, forged, over 64 bytes).
        """
        if not data or len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
            raise InvalidCallbackData(data)
        kind = self._by_prefix.get(data.split(":", 1)[0])
        match = self._patterns[kind].match(data) if kind is not None else None
        if kind is None or match is None:
            raise InvalidCallbackData(data)
        readers = self._readers[kind]
        return kind(*(read(text) for read, text in zip(readers, match.groups(), strict=True)))
