"""Deep links into the bot (``t.me/<bot>?start=...`` and ``?startgroup=...``) and the payloads
they carry (https://core.telegram.org/bots/features#deep-linking).
"""

from __future__ import annotations

import re

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
_QUESTION_PAYLOAD = re.compile(r"q_(0|[1-9][0-9]{0,17})_(0|[1-9][0-9]{0,3})")


def deep_link(bot_username: str, payload: str | None = None) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the bot's private chat, and on Start sends
    it ``/start <payload>``.

    Raises:
        ValueError: ``payload`` is not 1-64 characters of ``A-Za-z0-9_-``
            (:data:`MAX_START_PAYLOAD`).
    """
    if payload is None:
        return f"https://t.me/{bot_username}"
    if not _PAYLOAD.fullmatch(payload):
        raise ValueError(f"invalid deep-link payload: {payload!r}")
    return f"https://t.me/{bot_username}?start={payload}"


def question_link(bot_username: str, session_id: int, position: int) -> str:
    """The deep link of a group question's reveal (payload ``q_<session>_<position>``, at most
    25 characters; bank ids never contain ``_``, so it is never taken for one)."""
    return deep_link(bot_username, f"q_{session_id}_{position}")


def parse_question_payload(payload: str) -> tuple[int, int] | None:
    """``(session id, position)`` from a :func:`question_link` payload, else None."""
    match = _QUESTION_PAYLOAD.fullmatch(payload)
    return (int(match[1]), int(match[2])) if match else None


def group_deep_link(bot_username: str, payload: str) -> str:
    """``https://t.me/<bot>?startgroup=<payload>``: asks the user for a group, adds the bot to it
    if it is not there yet, and sends ``/start@<bot> <payload>`` there from the user
    (https://core.telegram.org/bots/features#deep-linking; Telegram's messages.startBot).

    Raises:
        ValueError: ``payload`` is not 1-64 characters of ``A-Za-z0-9_-``
            (:data:`MAX_START_PAYLOAD`).
    """
    if not _PAYLOAD.fullmatch(payload):
        raise ValueError(f"invalid deep-link payload: {payload!r}")
    return f"https://t.me/{bot_username}?startgroup={payload}"


LIST_PAYLOAD = "list_quizzes"
"""The deep-link payload that asks the private chat for the list of quizzes (the button above
an inline query's empty results). Bank ids never contain ``_``, so it is never taken for one."""


def bank_link(bot_username: str, bank_id: str) -> str:
    """The deep link that starts ``bank_id`` in the bot's private chat (payload: the bank id,
    1-32 characters of ``a-z0-9-``, which always fits: :data:`bot.kernel.bank.ID_PATTERN`)."""
    return deep_link(bot_username, bank_id)


def group_bank_link(bot_username: str, bank_id: str) -> str:
    """The deep link that starts ``bank_id`` as a session in a group the user picks
    (:func:`group_deep_link`; the group's ``/start <bank id>`` obeys its settings)."""
    return group_deep_link(bot_username, bank_id)
