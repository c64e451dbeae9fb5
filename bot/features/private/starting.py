"""Who starts what: a private quiz resumed or started, who may start or stop a group session,
and which bank a group session starts when the chosen one is gone.

Each rule returns a small outcome; the front ends (``bot.telegram``, ``bot.terminal.play``) turn it
into a screen.
"""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass

from bot.features.groups.rules import GroupSession
from bot.features.groups.settings import ADMINS, GroupSettings
from bot.features.private.service import QuizService
from bot.kernel.bank import Bank
from bot.kernel.engine import Attempt
from bot.kernel.registry import BankRegistry

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


class Permission(enum.Enum):
    """Whether a member may start or stop a group session."""

    ALLOWED = "allowed"
    IF_ADMIN = "if_admin"
    """Only if they administer the group (the front end asks Telegram)."""


def may_start(settings: GroupSettings) -> Permission:
    """Who may start a session: anyone, or the group's admins when its settings say so."""
    return Permission.IF_ADMIN if settings.who_starts == ADMINS else Permission.ALLOWED


def may_stop(
    settings: GroupSettings, session: GroupSession, sender_id: int | None, *, as_person: bool
) -> Permission:
    """Who may stop a running session: its starter (writing as themselves, not as the group or
    a channel) unless only admins may start sessions; the group's admins always."""
    by_starter = (
        settings.who_starts != ADMINS
        and as_person
        and sender_id is not None
        and sender_id == session.starter_id
    )
    return Permission.ALLOWED if by_starter else Permission.IF_ADMIN


@dataclass(frozen=True)
class BankPick:
    """The bank a group's /quiz starts.

    Attributes:
        bank_id: The bank to start; None: none can be (the group must name one).
        gone: The bank the group's settings chose, when it is no longer installed (the group
            is told), else None.
    """

    bank_id: str | None
    gone: str | None


def resolve_bank(
    requested: str | None, settings: GroupSettings, banks: Collection[str]
) -> BankPick:
    """The bank ``/quiz [requested]`` starts: the one named (if installed), else the group's
    choice (if still installed), else the only bank installed; a choice that is gone is named
    in the outcome."""
    gone = (
        settings.bank_id
        if requested is None and settings.bank_id is not None and settings.bank_id not in banks
        else None
    )
    if requested is not None:
        bank_id: str | None = requested
    elif settings.bank_id in banks:
        bank_id = settings.bank_id
    else:
        bank_id = next(iter(banks)) if len(banks) == 1 else None
    return BankPick(bank_id if bank_id in banks else None, gone)


async def pick_bank(
    registry: BankRegistry, requested: str | None, settings: GroupSettings
) -> BankPick:
    """:func:`resolve_bank` over the registry: the featured banks, and the bank named or the
    group's choice when it is a created quiz that may be started (one taken down or deleted
    is gone, as a removed bank file).

    Raises:
        StorageError: the library of created quizzes could not be read.
    """
    banks = set(registry.featured)
    for bank_id in (requested, settings.bank_id):
        if bank_id is not None and bank_id not in banks and await registry.startable(bank_id):
            banks.add(bank_id)
    # resolve_bank's "the only bank installed" counts featured banks: keep their order first
    ordered = [*registry.featured, *(b for b in banks if b not in registry.featured)]
    return resolve_bank(requested, settings, ordered)
