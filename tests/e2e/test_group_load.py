"""Group sessions under load (CI size): 20 groups of 20 members through the real in-process bot.

Every member taps every question once, well inside the answer window. Every session must end
with its leaderboard, every acknowledged answer must be counted exactly once in its reveal, no
in-time tap may be refused, and every callback query must be answered. The generator reacts to
the bot's calls (``FakeBotAPI.observers``) and waits for the leaderboards; nothing here asserts
on wall-clock time. The same generator, at benchmark size and against the bot as a separate
process, is ``python -m benchmarks.group_load``.
"""

from __future__ import annotations

import json

import pytest

from bot import i18n
from bot.features.groups import screens as groups_screens
from bot.features.groups.rules import GroupSession
from bot.kernel.engine import plan_attempt
from bot.render import text as render_text
from tests.support.banks import BANK_ID
from tests.support.botrun import RunningBot
from tests.support.grouploadgen import GroupLoadGenerator, reveal_counts

WINDOW = 12.0
"""Seconds per question. Every member taps every question, so from the second question on
each closes early, once all have answered; only the first waits its whole window. A tap is
refused only if the bot gets it more than 10 s after it was made (WINDOW - TAPS[1]): a refusal
then says the bot stalled, not that the machine was busy."""
TAPS = (0.3, 1.5)  # seconds after a question appears


def test_reveal_counts_reads_the_rendered_reveal(banks):
    """The parser reads the counts render.group_reveal writes (as the server shows the text)."""
    import random

    bank = banks[BANK_ID]
    session = GroupSession(
        1, -100, bank.id, bank.version, "el", 7, plan_attempt(bank, random.Random(3)), WINDOW
    )
    screen = groups_screens.group_reveal(
        bank, session, 2, [3, 0, 11, 1], i18n.catalog("el"), render_text.PLAIN
    )
    assert reveal_counts(screen.text) == [3, 0, 11, 1]
    with pytest.raises(ValueError):
        reveal_counts("🏆 Leaderboard")


async def test_twenty_groups_of_twenty_members(fake, tmp_path, banks):
    """20 sessions at once, 20 members each tapping every question: nothing stuck, lost,
    doubled, refused or unanswered."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=WINDOW)
    generator = GroupLoadGenerator(
        fake,
        groups=20,
        members=20,
        tap_window=TAPS,
        window=WINDOW,
        questions=len(banks[BANK_ID].questions),
        start_spread=1.0,
        slack=10.0,
        seed=7,
    )
    await runner.start()
    try:
        report = await generator.run()
    finally:
        await runner.stop()
    summary = json.dumps(report.summary(), ensure_ascii=False)  # shown in full on failure
    assert report.taps > 0, summary
    assert (report.finished, report.stuck) == (20, 0), summary
    assert report.refused_in_time == 0, summary
    assert report.unanswered_queries == 0, summary
    assert (report.wrong_reveals, report.premature_closes) == (0, 0), summary
    assert (report.lost, report.doubled, report.acknowledged_unrevealed) == (0, 0, 0), summary
    assert report.other_answers == {}, summary
    assert report.acknowledged == report.taps == 20 * 20 * 8, summary
