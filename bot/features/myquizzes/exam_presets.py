"""/myquizzes' exam presets: the times, draws and markings a creator picks from, and what a
pick makes of a quiz's ``exam`` block (:func:`exam_choice`). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

EXAM_MINUTES = (10, 20, 30, 60, 90)
"""The /myquizzes presets of an exam's time, in minutes."""
EXAM_DRAWS = (0, 10, 20, 30, 50)
"""The presets of an exam's draw: 0 for every question (a draw at or above the quiz's size is
not offered)."""
EXAM_MARKINGS = ((1.0, 0.0), (4.0, 1.0), (1.0, 0.25))
"""The presets of an exam's marking: (marks for a right answer, penalty for a wrong one)."""
EXAM_OFF, EXAM_MINUTES_AT, EXAM_DRAW_AT, EXAM_MARKING_AT = 1, 100, 200, 300
"""How a preset is numbered on its button: off, then each table from its base (its index
added)."""
EXAM_DEFAULT_MINUTES = 30
"""The time of an exam turned on by choosing its draw or marking first."""


def exam_choice(current: Any, choice: int, questions: int) -> dict[str, Any] | None:
    """The ``exam`` block after the preset ``choice`` on the block ``current`` (bank data, or
    None when exam mode is off) of a quiz of ``questions`` questions: None for off; else the
    block with the chosen minutes, draw or marking (the rest kept, or the defaults). An unknown
    choice, or a draw not below the quiz's size, changes nothing."""
    block: dict[str, Any] = (
        dict(current) if isinstance(current, Mapping) else {"minutes": EXAM_DEFAULT_MINUTES}
    )
    kind, index = choice // 100 * 100, choice % 100
    if choice == EXAM_OFF:
        return None
    if kind == EXAM_MINUTES_AT and index < len(EXAM_MINUTES):
        block["minutes"] = EXAM_MINUTES[index]
    elif kind == EXAM_DRAW_AT and index < len(EXAM_DRAWS):
        draw = EXAM_DRAWS[index]
        if draw == 0:
            block.pop("draw", None)
        elif draw < questions:
            block["draw"] = draw
    elif kind == EXAM_MARKING_AT and index < len(EXAM_MARKINGS):
        marks, penalty = EXAM_MARKINGS[index]
        block["marks"], block["penalty"] = _whole(marks), _whole(penalty)
    else:
        return dict(current) if isinstance(current, Mapping) else None
    return block


def _whole(value: float) -> int | float:
    return int(value) if value == int(value) else value
