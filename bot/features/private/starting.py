"""Who starts what: a private quiz resumed or started, who may start or stop a group session,
and which bank a group session starts when the chosen one is gone.

Each rule returns a small outcome; the front ends (``bot.telegram``, ``bot.terminal.play``) turn it
into a screen.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.features.private.service import QuizService
from bot.kernel.bank import Bank
from bot.kernel.engine import Attempt

# --- private quizzes -----------------------------------------------------------------------


def resumes(active: Attempt | None, requested: str | None) -> bool:
    """Whether the active attempt is resumed rather than a bank started: there is one, and no
    bank was asked for or the one asked for is its bank."""
    return active is not None and requested in (None, active.bank_id)


@dataclass(frozen=True)
class Resumed:
    """The active attempt goes on (re-planned if its bank was edited: ``updated``)."""

    attempt: Attempt
    updated: bool


@dataclass(frozen=True)
class Started:
    """A fresh attempt of ``bank``, at its first question."""

    attempt: Attempt
    bank: Bank


async def resume_or_start(
    service: QuizService, user_id: int, bank_id: str | None
) -> Resumed | Started | None:
    """/start [bank] and the terminal's play: resume the user's active attempt when
    :func:`resumes` says so, else start ``bank_id`` (None: the only bank installed).

    Returns:
        What happened; None when no bank was asked for and several are installed (the user
        chooses).

    Raises:
        UnknownBank: ``bank_id`` names no bank that may be started (a created quiz taken down
            included).
        StorageError: the storage could not be reached.
    """
    active = await service.active(user_id)
    if active is not None and resumes(active, bank_id):
        attempt, updated = await service.current(active)
        return Resumed(attempt, updated)
    bank = await service.bank(bank_id) if bank_id else service.default_bank
    if bank is None:
        return None
    return Started(await service.start(user_id, bank.id), bank)


# --- group sessions ------------------------------------------------------------------------
