"""The kinds of button: one frozen dataclass per kind, encoded as a short prefix and its fields
(``a:42:3:1``) within Telegram's 64 bytes (:data:`~bot.render.limits.MAX_CALLBACK_DATA_BYTES`).

Each kind owns its prefix, the pattern of its fields and their types (``PREFIX``, ``FIELDS``, its
annotations): encoding, decoding (no branch per kind, :class:`~bot.render.codec.Codec`) and the
Telegram layer's routes (one ``CallbackQueryHandler`` per kind, matching :func:`callback_pattern`)
read that one declaration.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass
from typing import ClassVar

from bot.render.codec import BANK_ID, INT, REPS, SLOT, TICKS, Codec
from bot.render.teacher_callbacks import (  # re-exported: every kind is one of this module's
    AssignButton as AssignButton,
)
from bot.render.teacher_callbacks import (
    DailyAnswerButton as DailyAnswerButton,
)
from bot.render.teacher_callbacks import (
    DailyChannelButton as DailyChannelButton,
)
from bot.render.teacher_callbacks import (
    DailySettingButton as DailySettingButton,
)
from bot.render.teacher_callbacks import (
    ExamAnswerButton as ExamAnswerButton,
)
from bot.render.teacher_callbacks import (
    ExamStartButton as ExamStartButton,
)
from bot.render.teacher_callbacks import (
    ExamTickButton as ExamTickButton,
)
from bot.render.teacher_callbacks import (
    HomeworkButton as HomeworkButton,
)


@dataclass(frozen=True)
class AnswerButton:
    """Choose ``slot`` (0 = "A") for the question at ``position`` of an attempt."""

    PREFIX: ClassVar[str] = "a"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{SLOT}"

    attempt_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class NextButton:
    """Go on from the answered question at ``position`` of an attempt."""

    PREFIX: ClassVar[str] = "n"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}"

    attempt_id: int
    position: int


@dataclass(frozen=True)
class FlowButton:
    """A private ``/settings`` choice of what follows an answer (a
    :class:`~bot.features.preferences.flow.AnswerFlow` value)."""

    PREFIX: ClassVar[str] = "af"
    FIELDS: ClassVar[str | None] = r"(next|one_tap)"

    flow: str


@dataclass(frozen=True)
class RetakeButton:
    """Start the bank again."""

    PREFIX: ClassVar[str] = "r"
    FIELDS: ClassVar[str | None] = BANK_ID

    bank_id: str


@dataclass(frozen=True)
class ReviewButton:
    """Review the questions missed in a finished attempt."""

    PREFIX: ClassVar[str] = "v"
    FIELDS: ClassVar[str | None] = INT

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
    FIELDS: ClassVar[str | None] = BANK_ID

    bank_id: str


@dataclass(frozen=True)
class GroupAnswerButton:
    """A member's choice of ``slot`` for the question at ``position`` of a group session."""

    PREFIX: ClassVar[str] = "g"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{SLOT}"

    session_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class PlaceButton:
    """ "My place" on a group session's leaderboard: the tapper's own rank, as a toast."""

    PREFIX: ClassVar[str] = "p"
    FIELDS: ClassVar[str | None] = INT

    session_id: int


@dataclass(frozen=True)
class DeleteDataButton:
    """The answer to /deletemydata's question: ``confirm`` 0 keeps everything; 1 deletes (the
    question asked nothing about created quizzes: any are kept without owner); 2 deletes the
    user's created quizzes too; 3 keeps them without owner;
    ``nonce`` is the question's one-time nonce (16 hex digits,
    :meth:`bot.features.privacy.service.PrivacyService.ask`).
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
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{SLOT}:{INT}"

    card_id: int
    reps: int
    slot: int
    attempt_id: int


@dataclass(frozen=True)
class CardNextButton:
    """Go on from the feedback of a review card rated to ``reps`` ratings."""

    PREFIX: ClassVar[str] = "k"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{INT}"

    card_id: int
    reps: int
    attempt_id: int


@dataclass(frozen=True)
class StartReviewButton:
    """Start reviewing the due cards (in /stats and on a reminder)."""

    PREFIX: ClassVar[str] = "w"
    FIELDS: ClassVar[str | None] = None


@dataclass(frozen=True)
class ShownButton:
    """An option marked under its answer (``marked_keyboard``); a tap only stops the spinner."""

    PREFIX: ClassVar[str] = "x"
    FIELDS: ClassVar[str | None] = None


@dataclass(frozen=True)
class SettingButton:
    """A group settings menu's choice: set ``field`` to ``value``, if the settings are still at
    ``version`` (the one the menu showed)."""

    PREFIX: ClassVar[str] = "s"
    FIELDS: ClassVar[str | None] = (
        rf"{INT}:(who|seconds|scoring|bank|language|count):([a-z0-9-]{{1,32}})"
    )

    version: int
    field: str
    value: str


# --- /newquiz (bot/features/newquiz/handlers.py): each names its draft by when it was opened (ms)
# ---


@dataclass(frozen=True)
class DraftButton:
    """/newquiz over an open draft: ``restart`` 1 starts over, 0 goes on with the draft opened
    at ``started``."""

    PREFIX: ClassVar[str] = "nd"
    FIELDS: ClassVar[str | None] = rf"([01]):{INT}"

    restart: int
    started: int


@dataclass(frozen=True)
class UndoButton:
    """Undo question ``serial`` of the draft opened at ``started``."""

    PREFIX: ClassVar[str] = "nu"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}"

    started: int
    serial: int


@dataclass(frozen=True)
class KeepOriginalButton:
    """Give question ``serial`` of the draft opened at ``started`` its forwarded poll's
    question as it came (not cleaned of a counter or signature)."""

    PREFIX: ClassVar[str] = "nk"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}"

    started: int
    serial: int


@dataclass(frozen=True)
class RightOptionButton:
    """``option`` is right (or, with several right, toggled) for the pending poll ``serial``
    of the draft opened at ``started``."""

    PREFIX: ClassVar[str] = "no"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:([0-9]|1[01])"

    started: int
    serial: int
    option: int


@dataclass(frozen=True)
class RightDoneButton:
    """The options chosen for the pending poll ``serial`` (several right) are the right ones."""

    PREFIX: ClassVar[str] = "nc"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}"

    started: int
    serial: int


QUIZ_ACTIONS = (
    "list",
    "open",
    "edit",
    "export",
    "results",
    "public",
    "link",
    "delete",
    "confirm",
    "add",
    "rename",
    "question",
    "up",
    "down",
    "replace",
    "drop",
    "page",
    "addlang",
    "lang",
    "later",
    "droplang",
    "skiplang",
    "exam",
    "examset",
    "keep",
)
"""What a :class:`QuizButton` does (``bot.features.myquizzes.handlers`` handles each)."""


@dataclass(frozen=True)
class QuizButton:
    """A /myquizzes button on the creator's quiz ``quiz_id`` (a created quiz's id, ``c-`` and
    10 characters: ``bot.features.myquizzes.service``) as it was at ``version``: ``action`` is what
    it does (:data:`QUIZ_ACTIONS`), ``number`` a question's 1-based number or a page (0 where it has
    none). A tap on a version that moved on is stale."""

    PREFIX: ClassVar[str] = "m"
    FIELDS: ClassVar[str | None] = rf"({'|'.join(QUIZ_ACTIONS)}):(c-[a-z0-9]{{10}}):{INT}:{INT}"
    action: str
    quiz_id: str
    version: int
    number: int


@dataclass(frozen=True)
class SheetButton:
    """/myquizzes' Excel export of the creator's quiz ``quiz_id`` (a created quiz's id) as it
    was at ``version`` (``bot.features.importing.sheet_handlers``: the export is the importing
    room's, which writes quiz sheets)."""

    PREFIX: ClassVar[str] = "xl"
    FIELDS: ClassVar[str | None] = rf"(c-[a-z0-9]{{10}}):{INT}"
    quiz_id: str
    version: int


# --- questions with several right options: tick options, then Submit ------------------------


@dataclass(frozen=True)
class TickButton:
    """Tick or untick ``slot`` of the question at ``position`` of an attempt, whose ticked
    slots were ``ticked`` (bit ``s`` for slot ``s``) when the keyboard was drawn. The ticks
    live in the buttons until Submit: nothing is stored, and a restart loses nothing."""

    PREFIX: ClassVar[str] = "at"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{SLOT}:{TICKS}"

    attempt_id: int
    position: int
    slot: int
    ticked: int


@dataclass(frozen=True)
class SubmitButton:
    """Submit the ticked slots ``ticked`` as the answer to the question at ``position``."""

    PREFIX: ClassVar[str] = "as"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{TICKS}"

    attempt_id: int
    position: int
    ticked: int


@dataclass(frozen=True)
class GroupTickButton:
    """A member's tick of ``slot`` on the open question at ``position`` of a group session
    (each member's ticks are stored: the keyboard is the group's)."""

    PREFIX: ClassVar[str] = "gt"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{SLOT}"

    session_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class GroupSubmitButton:
    """A member's Submit of their ticks on the open question at ``position``."""

    PREFIX: ClassVar[str] = "gs"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}"

    session_id: int
    position: int


@dataclass(frozen=True)
class CardTickButton:
    """Tick ``slot`` of a review card's question (several right options); as
    :class:`CardAnswerButton`, with the ticked slots ``ticked`` before the tap."""

    PREFIX: ClassVar[str] = "ct"
    FIELDS: ClassVar[str | None] = rf"{INT}:{REPS}:{SLOT}:{TICKS}:{INT}"

    card_id: int
    reps: int
    slot: int
    ticked: int
    attempt_id: int


@dataclass(frozen=True)
class CardSubmitButton:
    """Submit the ticked slots ``ticked`` as the answer to a review card's question."""

    PREFIX: ClassVar[str] = "cs"
    FIELDS: ClassVar[str | None] = rf"{INT}:{REPS}:{TICKS}:{INT}"

    card_id: int
    reps: int
    ticked: int
    attempt_id: int


# --- the question of the day (bot/features/daily/handlers.py)
# ---------------------------------------


# --- homework in a group (bot/features/homework/handlers.py)
# ----------------------------------------


CallbackButton = (
    AnswerButton
    | NextButton
    | RetakeButton
    | ReviewButton
    | LanguageButton
    | BankButton
    | GroupAnswerButton
    | PlaceButton
    | DeleteDataButton
    | CardAnswerButton
    | CardNextButton
    | StartReviewButton
    | ShownButton
    | SettingButton
    | DraftButton
    | UndoButton
    | KeepOriginalButton
    | RightOptionButton
    | RightDoneButton
    | QuizButton
    | SheetButton
    | HomeworkButton
    | AssignButton
    | TickButton
    | SubmitButton
    | GroupTickButton
    | GroupSubmitButton
    | CardTickButton
    | CardSubmitButton
    | FlowButton
    | DailyAnswerButton
    | DailySettingButton
    | DailyChannelButton
    | ExamStartButton
    | ExamAnswerButton
    | ExamTickButton
)

BUTTON_KINDS: tuple[type[CallbackButton], ...] = typing.get_args(CallbackButton)
"""Every kind of button: each owns its prefix (``PREFIX``, unique) and the pattern of its
fields (``FIELDS``, a group per field; None: it has none), read by :func:`encode`, :func:`decode`
(with the fields' types) and :func:`callback_pattern`."""

_CODEC: Codec[CallbackButton] = Codec(BUTTON_KINDS)

callback_pattern = _CODEC.pattern
"""The whole callback data of buttons of a kind (its prefix, then its fields), for ``re.match``
(PTB's ``CallbackQueryHandler`` pattern) or ``fullmatch``."""

encode = _CODEC.encode
"""Encode a button as callback data, e.g. ``a:42:3:1`` (its prefix, then its fields); raises
ValueError over 64 bytes (Bot API limit on callback_data)."""

decode = _CODEC.decode
"""Decode callback data made by :func:`encode`, each field as its declared type; raises
:class:`~bot.render.codec.InvalidCallbackData` on anything else (empty, garbage, forged, over 64
bytes)."""
