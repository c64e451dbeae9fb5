"""The session leases of an instance alone with its storage (:data:`SOLO`): it holds them all,
so a :class:`~bot.features.groups.sessions.SessionRunner` given no
:class:`~bot.features.groups.ports.SessionLeases` claims every session at once.
"""

from __future__ import annotations

from collections.abc import Callable


class SoloLeases:
    """The leases of an instance alone with its storage: it holds them all (a
    :class:`~bot.features.groups.ports.SessionLeases`)."""

    shared = False

    on_early: Callable[[int, int], None] | None = None
    """Never told: no other instance asks this one anything."""

    async def claim(self, session_id: int) -> bool:
        """Always True."""
        return True

    async def release(self, session_id: int) -> None:
        """Nothing to release."""

    async def ask_early(self, session_id: int, position: int) -> None:
        """Nothing to ask: this instance holds every lease."""


SOLO = SoloLeases()
"""The one instance's leases, shared by its runners."""
