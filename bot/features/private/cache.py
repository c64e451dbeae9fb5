"""The private quizzes' attempts cached in memory (:class:`AttemptCache`): by id, the least
recently used let go first, with what is kept beside each (its user's index, how far "next"
showed it). Write-through: :class:`~bot.features.private.service.QuizService` changes it only
after storage acknowledged the write.
"""

from __future__ import annotations

from collections.abc import Callable

from cachetools import LRUCache

from bot.kernel.engine import Attempt


class _LeastRecent(LRUCache[int, Attempt]):
    """Cached attempts by id, the least recently used let go first; ``evicted`` is told of each
    one let go (to drop what is kept beside it)."""

    def __init__(self, size: int, evicted: Callable[[int, Attempt], None]) -> None:
        super().__init__(size)
        self._on_evicted = evicted

    def popitem(self) -> tuple[int, Attempt]:
        """Let the least recently used attempt go (cachetools calls this when full)."""
        attempt_id, attempt = super().popitem()
        self._on_evicted(attempt_id, attempt)
        return attempt_id, attempt


class AttemptCache:
    """At most ``size`` attempts by id, each user's cached attempts, and per attempt the furthest
    position whose "next" showed what follows (:attr:`shown`, attempt id -> position); an
    attempt let go takes its marks and its place in the user's index with it.
    """

    def __init__(self, size: int) -> None:
        self._attempts = _LeastRecent(size, self._evicted)
        self.shown: dict[int, int] = {}
        """Attempt id -> the furthest position "next" showed (:meth:`QuizService.shown
        <bot.features.private.service.QuizService.shown>`)."""
        self._by_user: dict[int, set[int]] = {}  # user id -> ids of their cached attempts

    def get(self, attempt_id: int) -> Attempt | None:
        """The cached attempt ``attempt_id``, or None."""
        return self._attempts.get(attempt_id)

    def remember(self, attempt: Attempt) -> Attempt:
        """Cache ``attempt`` (in place of its older copy); ``attempt`` itself."""
        self._attempts[attempt.id] = attempt  # the least recently used go, see _evicted
        self._by_user.setdefault(attempt.user_id, set()).add(attempt.id)
        return attempt

    def drop(self, attempt: Attempt) -> None:
        """Let ``attempt`` go, with its marks (it closed elsewhere)."""
        if self._attempts.pop(attempt.id, None) is not None:
            self.shown.pop(attempt.id, None)
            self._unindex(attempt.user_id, attempt.id)

    def _evicted(self, attempt_id: int, attempt: Attempt) -> None:
        """Forget what is kept beside an attempt the cache let go of."""
        self.shown.pop(attempt_id, None)
        self._unindex(attempt.user_id, attempt_id)

    def _unindex(self, user_id: int, attempt_id: int) -> None:
        """Drop ``attempt_id`` from the user's cached attempts (and the user, once none)."""
        cached = self._by_user.get(user_id)
        if cached is not None:
            cached.discard(attempt_id)
            if not cached:
                del self._by_user[user_id]

    def of_user(self, user_id: int) -> set[int]:
        """The ids of ``user_id``'s cached attempts (empty: none)."""
        return self._by_user.get(user_id, set())

    def forget_user(self, user_id: int) -> None:
        """Drop the user's cached attempts (their active one is about to change)."""
        for attempt_id in self._by_user.pop(user_id, set()):
            self._attempts.pop(attempt_id, None)
            self.shown.pop(attempt_id, None)

    def clear(self) -> None:
        """Let every attempt go (each as if evicted)."""
        self._attempts.clear()

    @property
    def sizes(self) -> dict[str, int]:
        """Entries of each part: ``attempts``, ``users``, ``shown``."""
        return {
            "attempts": len(self._attempts),
            "users": len(self._by_user),
            "shown": len(self.shown),
        }
