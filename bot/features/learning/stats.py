"""A user's record per bank (/stats): which attempts count, and what is made of them.

Storage selects the rows (:meth:`bot.kernel.ports.QuizStore.stats`); the rules are here: a
finished attempt counts (:data:`COUNTED_ATTEMPT`), and so does a finished group session the user
answered in (:data:`COUNTED_SESSION`; its score: the user's right answers); abandoned attempts and
stopped sessions do not.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from bot.features.groups.rules import SessionStatus
from bot.kernel.engine import AttemptStatus
from bot.kernel.ports import BankStats

COUNTED_ATTEMPT = AttemptStatus.FINISHED
"""The status of the private attempts that count in a user's record."""
COUNTED_SESSION = SessionStatus.FINISHED
"""The status of the group sessions that count in the record of each member who answered."""
MOST_MISSED = 3
"""How many of the questions missed most often a bank's record names."""


def bank_stats(
    finished: Iterable[Sequence[Any]], misses: Iterable[Sequence[Any]]
) -> list[BankStats]:
    """A user's record per bank, the bank played last first.

    Args:
        finished: ``(bank_id, total, score)`` of each counted attempt or group session, oldest
            first.
        misses: ``(bank_id, question_id, misses)`` over the counted attempts and sessions, most
            missed first.

    Returns:
        One :class:`~bot.kernel.ports.BankStats` per bank played: attempts counted, best score,
        last score and its total, the :data:`MOST_MISSED` questions missed most often.
    """
    finished, misses = list(finished), list(misses)
    per_bank: dict[str, list[tuple[int, int]]] = {}
    for bank_id, total, score in finished:
        per_bank.setdefault(bank_id, []).append((int(score), int(total)))
    result = []
    for bank_id, scores in per_bank.items():
        result.append(
            BankStats(
                bank_id=bank_id,
                attempts=len(scores),
                best=max(s for s, _ in scores),
                last=scores[-1][0],
                total=scores[-1][1],
                most_missed=tuple((q, int(n)) for b, q, n in misses if b == bank_id)[:MOST_MISSED],
            )
        )
    order = {bank_id: i for i, (bank_id, _, _) in enumerate(finished)}
    return sorted(result, key=lambda s: order[s.bank_id], reverse=True)
