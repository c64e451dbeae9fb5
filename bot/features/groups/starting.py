"""Who may start or stop a group session (the group's settings: anyone, or admins only), and
which bank a session starts when the chosen one is gone. Pure."""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass

from bot.features.groups.rules import GroupSession
from bot.features.groups.settings import ADMINS, GroupSettings
from bot.kernel.registry import BankRegistry


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
