"""quizbot's own screens for the bundled bank, rendered once, for the baseline bots.

The baseline bots (``benchmarks/baseline_bot.py`` on python-telegram-bot,
``benchmarks/aiogram_bot.py`` on aiogram) send these texts and keyboards verbatim, so every bot in
the benchmark moves the same bytes and entities over the same Bot API calls:

* ``/start``: ``sendMessage`` (the bank's intro) and ``sendMessage`` (question 1);
* an option tap ``a:<attempt>:<position>:<slot>``: ``answerCallbackQuery``, then
  ``editMessageText`` into the feedback, with a "Next" button ``n:<attempt>:<position>``;
* "Next": ``answerCallbackQuery``, then ``sendMessage`` of the next question (a new message; the
  feedback stays), or of the score, whose "Retake" button is ``r:<bank>``.

In the one-tap flow (``--one-tap``; a quizbot user's /settings choice) an option tap is
``answerCallbackQuery``, ``editMessageText`` into the feedback without a button
(:attr:`Screens.one_tap_feedbacks`), then ``sendMessage`` of the next question or the score:
three calls and one update per answer instead of four and two.

That is quizbot's private-chat interaction (``bot/features/private/handlers.py``); what the
comparison measures is quizbot's logic, storage and transport against a framework's bare cost. Texts
are HTML; every message is sent with link previews disabled, as quizbot does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot import i18n
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from bot.features.private import screens as private_screens
from bot.kernel import engine
from bot.render import callbacks as render_callbacks
from bot.render import screen as render_screen
from bot.render import text as render_text

Keyboard = tuple[tuple[tuple[str, str, str], ...], ...]
"""Rows of buttons ``(label, kind, value)``: kind ``"data"`` (callback data) or ``"url"``."""


@dataclass(frozen=True)
class Screens:
    """Every screen a simulated user sees, as plain text and keyboards.

    Attributes:
        intro: The bank's introduction, sent before the first question.
        questions: Question ``position``, with its four answer buttons.
        feedbacks: The feedback after answering question ``position``, with its "Next" button.
        outcome: The score after the last "Next" (quizbot's buttons: Retake, Review).
        one_tap_feedbacks: The feedback of the one-tap flow: no button.
    """

    intro: tuple[str, Keyboard]
    questions: list[tuple[str, Keyboard]]
    feedbacks: list[tuple[str, Keyboard]]
    outcome: tuple[str, Keyboard]
    one_tap_feedbacks: list[tuple[str, Keyboard]]


def _plain(screen: render_screen.Screen) -> tuple[str, Keyboard]:
    """A rendered screen as text and ``(label, kind, value)`` rows."""
    rows = tuple(
        tuple(
            (b.label, "url", b.action.url)
            if isinstance(b.action, render_screen.UrlButton)
            else (b.label, "data", render_callbacks.encode(b.action))
            for b in row
        )
        for row in screen.keyboard
    )
    return screen.text, rows


def render_screens() -> Screens:
    """Render the bundled bank's screens with quizbot's renderer (one language per position,
    by turn, as the load generator's users have)."""
    bank = next(iter(load_banks([BUNDLED_BANKS]).values()))
    plan = engine.plan_attempt(bank, random.Random(0))
    attempt = engine.Attempt(1, 1, bank.id, bank.version, plan, 0, engine.ACTIVE, 0.0)
    questions, feedbacks, one_tap = [], [], []
    for position in range(len(bank.questions)):
        t = i18n.catalog(i18n.SUPPORTED[position % len(i18n.SUPPORTED)])
        questions.append(
            _plain(private_screens.attempt_question(bank, attempt, t, render_text.HTML))
        )
        answer = engine.grade(attempt, bank, 1, position, 0, 0.0)
        attempt = engine.with_answer(attempt, answer)
        feedbacks.append(
            _plain(private_screens.feedback(bank, attempt, position, t, render_text.HTML))
        )
        one_tap.append(
            _plain(
                private_screens.feedback(bank, attempt, position, t, render_text.HTML, one_tap=True)
            )
        )
    t = i18n.catalog(i18n.DEFAULT)
    outcome = private_screens.outcome(bank, attempt, t, render_text.HTML)[-1]
    return Screens(
        _plain(private_screens.intro(bank, t, render_text.HTML)),
        questions,
        feedbacks,
        _plain(outcome),
        one_tap,
    )


def parse_tap(data: str) -> tuple[str, int]:
    """``(kind, position)`` of an ``a:...`` or ``n:...`` callback data.

    Raises:
        ValueError: other data (the load generator never taps "Retake" or "Review").
    """
    kind, _, position, *_ = data.split(":")
    if kind not in ("a", "n"):
        raise ValueError(data)
    return kind, int(position)
