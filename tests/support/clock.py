"""A clock the test moves by hand."""

from __future__ import annotations


class FakeClock:
    """A clock the test moves by hand: seconds (since the epoch, or any origin), returned when
    called, as ``time.time``/``time.monotonic`` would."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on."""
        self.now += seconds
