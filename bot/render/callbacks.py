"""The callback-data codec: one frozen dataclass per kind of button, encoded as a short prefix
and its fields (``a:42:3:1``) within Telegram's 64 bytes
(:data:`~bot.render.limits.MAX_CALLBACK_DATA_BYTES`).

Each kind owns its prefix and the pattern of its fields (``PREFIX``, ``FIELDS``): encoding,
decoding and the Telegram layer's routes (one ``CallbackQueryHandler`` per kind, matching
:func:`callback_pattern`) read that one table.
"""

from __future__ import annotations

import re
import typing
from dataclasses import dataclass
from typing import Any, ClassVar

from bot.render.limits import MAX_CALLBACK_DATA_BYTES

_INT = r"(0|[1-9][0-9]{0,17})"
"""A field that is a whole number (an id, a position, a version)."""
_ID = r"([a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)"
"""A field that is a bank id."""


class InvalidCallbackData(ValueError):
    """Callback data that this bot did not make (garbage, forged or from an old format)."""


@dataclass(frozen=True)
class AnswerButton:
    """Choose ``slot`` (0 = "A") for the question at ``position`` of an attempt."""

    PREFIX: ClassVar[str] = "a"
    FIELDS: ClassVar[str | None] = rf"{_INT}:{_INT}:([0-9])"

    attempt_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class NextButton:
    """Go on from the answered question at ``position`` of an attempt."""

    PREFIX: ClassVar[str] = "n"
    FIELDS: ClassVar[str | None] = rf"{_INT}:{_INT}"

    attempt_id: int
    position: int


@dataclass(frozen=True)
class RetakeButton:
    """Start the bank again."""

    PREFIX: ClassVar[str] = "r"
    FIELDS: ClassVar[str | None] = _ID

    bank_id: str


@dataclass(frozen=True)
class ReviewButton:
    """Review the questions missed in a finished attempt."""

    PREFIX: ClassVar[str] = "v"
    FIELDS: ClassVar[str | None] = _INT

    attempt_id: int


@dataclass(frozen=True)
class LanguageButton:
    """Choose the UI language."""

    PREFIX: ClassVar[str] = "l"
    FIELDS: ClassVar[str | None] = r"([a-z]{2,3})"

    language: str


@dataclass(frozen=True)
class BankButton:
    """Start the chosen bank."""

    PREFIX: ClassVar[str] = "b"
    FIELDS: ClassVar[str | None] = _ID

    bank_id: str


@dataclass(frozen=True)
class GroupAnswerButton:
    """A member's choice of ``slot`` for the question at ``position`` of a group session."""

    PREFIX: ClassVar[str] = "g"
    FIELDS: ClassVar[str | None] = rf"{_INT}:{_INT}:([0-9])"

    session_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class PlaceButton:
    """"My place" on a group session's leaderboard: the tapper's own rank, as a toast."""

    PREFIX: ClassVar[str] = "p"
    FIELDS: ClassVar[str | None] = _INT

    session_id: int


@dataclass(frozen=True)
class DeleteDataButton:
    """The answer to /deletemydata's question: ``confirm`` 0 keeps everything; 1 deletes (the
    question asked nothing about created quizzes: any are kept without owner); 2 deletes the
    user's created quizzes too; 3 keeps them without owner;
    ``nonce`` is the question's one-time nonce (16 hex digits,
    :meth:`bot.quiz.privacy.PrivacyService.ask`).
    """

    PREFIX: ClassVar[str] = "d"
    FIELDS: ClassVar[str | None] = r"([0-3]):([0-9a-f]{16})"

    confirm: int
    nonce: str



@dataclass(frozen=True)
class CardAnswerButton:
    """Choose ``slot`` for a review card's question shown when the card had ``reps`` ratings;
    ``attempt_id`` is the attempt whose missed questions the session reviews first (0: none)."""

    PREFIX: ClassVar[str] = "c"
    FIELDS: ClassVar[str | None] = rf"{_INT}:{_INT}:([0-9]):{_INT}"

    card_id: int
    reps: int
    slot: int
    attempt_id: int


@dataclass(frozen=True)
class CardNextButton:
    """Go on from the feedback of a review card rated to ``reps`` ratings."""

    PREFIX: ClassVar[str] = "k"
    FIELDS: ClassVar[str | None] = rf"{_INT}:{_INT}:{_INT}"

    card_id: int
    reps: int
    attempt_id: int


@dataclass(frozen=True)
class StartReviewButton:
    """Start reviewing the due cards (in /stats and on a reminder)."""

    PREFIX: ClassVar[str] = "w"
    FIELDS: ClassVar[str | None] = None


@dataclass(frozen=True)
class SettingButton:
    """A group settings menu's choice: set ``field`` to ``value``, if the settings are still at
    ``version`` (the one the menu showed)."""

    PREFIX: ClassVar[str] = "s"
    FIELDS: ClassVar[str | None] = (
        rf"{_INT}:(who|seconds|scoring|bank|language|count):([a-z0-9-]{{1,32}})")

    version: int
    field: str
    value: str


CallbackButton = (AnswerButton | NextButton | RetakeButton | ReviewButton | LanguageButton
                  | BankButton | GroupAnswerButton | PlaceButton | DeleteDataButton
                  | CardAnswerButton | CardNextButton | StartReviewButton | SettingButton)

BUTTON_KINDS: tuple[type[CallbackButton], ...] = typing.get_args(CallbackButton)
"""Every kind of button: each owns its prefix (``PREFIX``, unique) and the pattern of its
fields (``FIELDS``; None: it has none), read by :func:`encode`, :func:`decode` and
:func:`callback_pattern`."""

_BY_PREFIX: dict[str, type[CallbackButton]] = {kind.PREFIX: kind for kind in BUTTON_KINDS}
assert len(_BY_PREFIX) == len(BUTTON_KINDS), "two kinds of button share a prefix"


_PATTERNS: dict[type[CallbackButton], re.Pattern[str]] = {
    kind: re.compile(kind.PREFIX + (f":{kind.FIELDS}" if kind.FIELDS else "") + r"\Z")
    for kind in BUTTON_KINDS}


def callback_pattern(kind: type[CallbackButton]) -> re.Pattern[str]:
    """The whole callback data of buttons of ``kind`` (its prefix, then its fields), for
    ``re.match`` (PTB's ``CallbackQueryHandler`` pattern) or ``fullmatch``."""
    return _PATTERNS[kind]

_TEXT_FIELDS = (RetakeButton, BankButton)
"""Kinds whose fields are all text (a bank id of digits stays a string)."""


def encode(button: CallbackButton) -> str:
    """Encode a button as callback data, e.g. ``a:42:3:1``.

    Raises:
        ValueError: the encoding would exceed 64 bytes (Bot API limit on callback_data).
    """
    fields = [str(v) for v in button.__dict__.values()]
    data = ":".join([button.PREFIX, *fields])
    if len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
        raise ValueError(f"callback data over {MAX_CALLBACK_DATA_BYTES} bytes: {data!r}")
    return data


def decode(data: str | None) -> CallbackButton:
    """Decode callback data made by :func:`encode`.

    Raises:
        InvalidCallbackData: anything else (empty, garbage, forged, over 64 bytes).
    """
    if not data or len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
        raise InvalidCallbackData(data)
    kind = _BY_PREFIX.get(data.split(":", 1)[0])
    match = _PATTERNS[kind].match(data) if kind is not None else None
    if kind is None or match is None:
        raise InvalidCallbackData(data)
    groups: list[Any] = [int(g) if g.isdigit() and kind not in _TEXT_FIELDS else g
                         for g in match.groups()]
    if kind is SettingButton:  # the value stays text: "0" is a count, "30" seconds
        groups[2] = match[3]
    if kind is DeleteDataButton:  # a nonce of digits only stays text
        groups[1] = match[2]
    return kind(*groups)
