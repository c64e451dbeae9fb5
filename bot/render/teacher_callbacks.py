"""The button kinds of exams, homework and the question of the day (encoded as every kind
is: :mod:`bot.render.callbacks`, whose union names them and re-exports them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from bot.render.codec import BANK_ID, CHAT, INT, SLOT, TICKS


@dataclass(frozen=True)
class DailyAnswerButton:
    """Anyone's choice of ``slot`` on a day's question ``post_id`` (in a group or channel)."""

    PREFIX: ClassVar[str] = "da"
    FIELDS: ClassVar[str | None] = rf"{INT}:{SLOT}"

    post_id: int
    slot: int


@dataclass(frozen=True)
class DailySettingButton:
    """An admin's change of a chat's question of the day: ``setting`` ``then`` (``choice``
    ``again``/``stop``), ``board`` (a weekday 0-6, or ``none``) or ``off``."""

    PREFIX: ClassVar[str] = "ds"
    FIELDS: ClassVar[str | None] = rf"{CHAT}:(then|board|off):([a-z0-9]{{1,5}})"

    chat_id: int
    setting: str
    choice: str


@dataclass(frozen=True)
class DailyChannelButton:
    """The channel chosen in the private chat for ``/daily``: ``mode`` ``on`` (with the
    ``minute`` of day, or ``k`` to keep it, and the ``bank`` id, or ``-`` to keep it) or
    ``off``."""

    PREFIX: ClassVar[str] = "dc"
    FIELDS: ClassVar[str | None] = (
        rf"{CHAT}:(on|off):(k|[0-9]{{1,4}})"
        r":(-|[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)"
    )

    chat_id: int
    mode: str
    minute: str
    bank: str


HOMEWORK_ACTIONS = ("close", "extend", "by", "cancel", "confirm", "keep", "report", "list")
"""What a :class:`HomeworkButton` does: ``close`` early, ``extend`` (the choice of how long),
``by`` (extend by ``value`` seconds), ``cancel`` (asks), ``confirm`` (cancels), ``keep``
(cancels nothing), ``report`` (the results file to the tapper), ``list`` (/assignments again)."""


@dataclass(frozen=True)
class HomeworkButton:
    """An /assignments button on homework ``assignment_id``: ``step`` is what it does
    (:data:`HOMEWORK_ACTIONS`), ``value`` seconds for ``by`` (0 otherwise)."""

    PREFIX: ClassVar[str] = "h"
    FIELDS: ClassVar[str | None] = rf"({'|'.join(HOMEWORK_ACTIONS)}):{INT}:{INT}"

    step: str
    assignment_id: int
    value: int


@dataclass(frozen=True)
class AssignButton:
    """/assign's menu: the quiz ``bank_id`` chosen; with ``seconds`` above 0, the deadline too
    (that many seconds from the tap)."""

    PREFIX: ClassVar[str] = "ha"
    FIELDS: ClassVar[str | None] = rf"{BANK_ID}:{INT}"

    bank_id: str
    seconds: int


@dataclass(frozen=True)
class ExamStartButton:
    """Start an exam of the bank (its timer starts with this tap)."""

    PREFIX: ClassVar[str] = "xs"
    FIELDS: ClassVar[str | None] = BANK_ID

    bank_id: str


@dataclass(frozen=True)
class ExamAnswerButton:
    """Answer the question at ``position`` of an exam attempt with the slots ``ticked`` (bit
    ``s`` for slot ``s``): one slot for one tap, the ticked ones for Submit."""

    PREFIX: ClassVar[str] = "xa"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{TICKS}"

    attempt_id: int
    position: int
    ticked: int


@dataclass(frozen=True)
class ExamTickButton:
    """Tick or untick ``slot`` of the exam question at ``position`` (ticks as
    :class:`TickButton`'s: in the buttons until Submit)."""

    PREFIX: ClassVar[str] = "xt"
    FIELDS: ClassVar[str | None] = rf"{INT}:{INT}:{SLOT}:{TICKS}"

    attempt_id: int
    position: int
    slot: int
    ticked: int
