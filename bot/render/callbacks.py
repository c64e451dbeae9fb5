"""The callback-data codec: one frozen dataclass per kind of button, encoded as a short prefix
and its fields (``a:42:3:1``) within Telegram's 64 bytes
(:data:`~bot.render.limits.MAX_CALLBACK_DATA_BYTES`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.render.limits import MAX_CALLBACK_DATA_BYTES


class InvalidCallbackData(ValueError):
    """Callback data that this bot did not make (garbage, forged or from an old format)."""


@dataclass(frozen=True)
class AnswerButton:
    """Choose ``slot`` (0 = "A") for the question at ``position`` of an attempt."""

    attempt_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class NextButton:
    """Go on from the answered question at ``position`` of an attempt."""

    attempt_id: int
    position: int


@dataclass(frozen=True)
class RetakeButton:
    """Start the bank again."""

    bank_id: str


@dataclass(frozen=True)
class ReviewButton:
    """Review the questions missed in a finished attempt."""

    attempt_id: int


@dataclass(frozen=True)
class LanguageButton:
    """Choose the UI language."""

    language: str


@dataclass(frozen=True)
class BankButton:
    """Start the chosen bank."""

    bank_id: str


@dataclass(frozen=True)
class GroupAnswerButton:
    """A member's choice of ``slot`` for the question at ``position`` of a group session."""

    session_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class PlaceButton:
    """"My place" on a group session's leaderboard: the tapper's own rank, as a toast."""

    session_id: int


@dataclass(frozen=True)
class DeleteDataButton:
    """The answer to /deletemydata's question: ``confirm`` 1 deletes, 0 keeps; ``nonce`` is
    the question's one-time nonce (16 hex digits, :meth:`bot.quiz.privacy.PrivacyService.ask`).
    """

    confirm: int
    nonce: str



@dataclass(frozen=True)
class CardAnswerButton:
    """Choose ``slot`` for a review card's question shown when the card had ``reps`` ratings;
    ``attempt_id`` is the attempt whose missed questions the session reviews first (0: none)."""

    card_id: int
    reps: int
    slot: int
    attempt_id: int


@dataclass(frozen=True)
class CardNextButton:
    """Go on from the feedback of a review card rated to ``reps`` ratings."""

    card_id: int
    reps: int
    attempt_id: int


@dataclass(frozen=True)
class StartReviewButton:
    """Start reviewing the due cards (in /stats and on a reminder)."""


@dataclass(frozen=True)
class SettingButton:
    """A group settings menu's choice: set ``field`` to ``value``, if the settings are still at
    ``version`` (the one the menu showed)."""

    version: int
    field: str
    value: str


CallbackButton = (AnswerButton | NextButton | RetakeButton | ReviewButton | LanguageButton
                  | BankButton | GroupAnswerButton | PlaceButton | DeleteDataButton
                  | CardAnswerButton | CardNextButton | StartReviewButton | SettingButton)

_INT = r"(0|[1-9][0-9]{0,17})"
_ID = r"([a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)"
_DECODERS: Sequence[tuple[re.Pattern[str], type]] = (
    (re.compile(rf"a:{_INT}:{_INT}:([0-9])"), AnswerButton),
    (re.compile(rf"n:{_INT}:{_INT}"), NextButton),
    (re.compile(rf"r:{_ID}"), RetakeButton),
    (re.compile(rf"v:{_INT}"), ReviewButton),
    (re.compile(r"l:([a-z]{2,3})"), LanguageButton),
    (re.compile(rf"b:{_ID}"), BankButton),
    (re.compile(rf"g:{_INT}:{_INT}:([0-9])"), GroupAnswerButton),
    (re.compile(rf"p:{_INT}"), PlaceButton),
    (re.compile(r"d:([01]):([0-9a-f]{16})"), DeleteDataButton),
    (re.compile(rf"c:{_INT}:{_INT}:([0-9]):{_INT}"), CardAnswerButton),
    (re.compile(rf"k:{_INT}:{_INT}:{_INT}"), CardNextButton),
    (re.compile(r"w"), StartReviewButton),
    (re.compile(rf"s:{_INT}:(who|seconds|scoring|bank|language|count):([a-z0-9-]{{1,32}})"),
     SettingButton),
)
_PREFIX = {AnswerButton: "a", NextButton: "n", RetakeButton: "r", ReviewButton: "v",
           LanguageButton: "l", BankButton: "b", GroupAnswerButton: "g", PlaceButton: "p",
           DeleteDataButton: "d", CardAnswerButton: "c", CardNextButton: "k",
           StartReviewButton: "w", SettingButton: "s"}
_TEXT_FIELDS = (RetakeButton, BankButton)
"""Kinds whose fields are all text (a bank id of digits stays a string)."""


def encode(button: CallbackButton) -> str:
    """Encode a button as callback data, e.g. ``a:42:3:1``.

    Raises:
        ValueError: the encoding would exceed 64 bytes (Bot API limit on callback_data).
    """
    fields = [str(v) for v in button.__dict__.values()]
    data = ":".join([_PREFIX[type(button)], *fields])
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
    for pattern, kind in _DECODERS:
        match = pattern.fullmatch(data)
        if match:
            groups = [int(g) if g.isdigit() and kind not in _TEXT_FIELDS else g
                      for g in match.groups()]
            if kind is SettingButton:  # the value stays text: "0" is a count, "30" seconds
                groups[2] = match[3]
            if kind is DeleteDataButton:  # a nonce of digits only stays text
                groups[1] = match[2]
            return kind(*groups)  # type: ignore[no-any-return]
    raise InvalidCallbackData(data)
