"""Tests for bot.features.private.starting: who starts what (pure rules, no event loop)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.features.groups.settings import ADMINS, EVERYONE, GroupSettings
from bot.features.groups.starting import BankPick, Permission, may_start, may_stop, resolve_bank
from bot.features.private.starting import resumes


@pytest.mark.parametrize(
    ("requested", "expected"), [(None, True), ("alpha", True), ("beta", False)]
)
def test_an_active_attempt_is_resumed_unless_another_bank_is_asked_for(requested, expected):
    """/start (no bank) or /start alpha resumes the active attempt on alpha; /start beta
    starts beta."""
    active = SimpleNamespace(bank_id="alpha")
    assert resumes(active, requested) is expected  # type: ignore[arg-type]


def test_nothing_is_resumed_without_an_active_attempt():
    """With no active attempt there is nothing to resume, whatever is asked for."""
    assert not resumes(None, None) and not resumes(None, "alpha")


def test_who_may_start_follows_the_group_setting():
    """Anyone may start a session, unless the settings say admins only."""
    assert may_start(GroupSettings(who_starts=EVERYONE)) is Permission.ALLOWED
    assert may_start(GroupSettings(who_starts=ADMINS)) is Permission.IF_ADMIN


@pytest.mark.parametrize(
    ("who", "sender", "as_person", "expected"),
    [
        (EVERYONE, 7, True, Permission.ALLOWED),  # the starter
        (EVERYONE, 8, True, Permission.IF_ADMIN),  # someone else
        (EVERYONE, 7, False, Permission.IF_ADMIN),  # the starter's id, sent as the group/a channel
        (EVERYONE, None, True, Permission.IF_ADMIN),
        (ADMINS, 7, True, Permission.IF_ADMIN),  # admins only: the starter is no exception
    ],
)
def test_who_may_stop(who, sender, as_person, expected):
    """The starter may stop their session (as themselves) unless only admins may start; an
    admin always may."""
    session = SimpleNamespace(starter_id=7)
    assert (
        may_stop(
            GroupSettings(who_starts=who),
            session,
            sender,  # type: ignore[arg-type]
            as_person=as_person,
        )
        is expected
    )


@pytest.mark.parametrize(
    ("requested", "chosen", "banks", "expected"),
    [
        ("beta", None, ["alpha", "beta"], BankPick("beta", None)),
        ("gamma", None, ["alpha", "beta"], BankPick(None, None)),  # not installed: choose one
        (None, "beta", ["alpha", "beta"], BankPick("beta", None)),
        (None, None, ["alpha"], BankPick("alpha", None)),  # the only bank
        (None, None, ["alpha", "beta"], BankPick(None, None)),  # several: choose one
        (None, "gone", ["alpha"], BankPick("alpha", "gone")),  # the chosen one is gone: the only
        (None, "gone", ["alpha", "beta"], BankPick(None, "gone")),  # ... or the group is told
        ("beta", "gone", ["alpha", "beta"], BankPick("beta", None)),  # named: the setting is moot
    ],
)
def test_resolve_bank(requested, chosen, banks, expected):
    """The bank a group's /quiz starts, and the chosen bank that is gone (named)."""
    assert resolve_bank(requested, GroupSettings(bank_id=chosen), banks) == expected
