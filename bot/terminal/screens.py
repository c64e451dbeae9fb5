"""Screens of the terminal front end (``quizbot play``) that differ from Telegram's: the end of
an attempt, whose buttons a terminal cannot show, says what to run instead."""

from __future__ import annotations

from bot.features.learning.ports import ScorePoint
from bot.features.private.screens import review, score_lines
from bot.i18n import Catalog
from bot.kernel.bank import Bank
from bot.kernel.engine import Attempt, result
from bot.render.text import Markup


def end_screen(
    bank: Bank,
    attempt: Attempt,
    t: Catalog,
    m: Markup,
    previous_best: ScorePoint | None = None,
    command: str = "quizbot play",
) -> str:
    """The end of a finished attempt in the terminal: the score compared with the best earlier
    attempt (``previous_best``), then each missed question once, with its right answer and
    explanation, and the command that reviews them (``command``, the one that played, with
    ``--review``)."""
    lines = score_lines(bank, attempt, t, m, previous_best)
    if not result(attempt).missed:
        return "\n".join([*lines, "", m.escape(t("result_perfect"))])
    missed = "\n\n".join(screen.text for screen in review(bank, attempt, t, m))
    return "\n".join([*lines, "", missed, "", m.escape(t("play.review_pointer", command=command))])
