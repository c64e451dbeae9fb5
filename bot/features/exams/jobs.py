"""The exams' job: :func:`exam_pass` submits every exam whose time is up, as of the services'
clock, and sends each learner their result. The deadlines are stored, and the pass runs at
start as well as every :data:`EXAM_INTERVAL` seconds, so an exam whose time ran out while the
bot was down is submitted then; each is claimed as it is submitted, so no result is sent twice.
"""

from __future__ import annotations

import logging

from telegram.error import TelegramError

from bot import i18n
from bot.features.exams import screens
from bot.features.exams.service import ExamService
from bot.render.text import HTML
from bot.telegram.common import Context, reach, send
from bot.telegram.limits import Dropped

log = logging.getLogger(__name__)

EXAM_INTERVAL = 5.0
"""Seconds between two passes (``BotData.exam_interval`` overrides it): a learner whose time
is up while they are away is told within seconds; one who taps is told at once."""


async def exam_pass(context: Context) -> None:
    """The exams' job: submit every exam whose time is up (stored: a restart loses none) and
    send each learner their result, in the language they started in."""
    for sitting, language in await reach(context, ExamService).submit_overdue():
        t = i18n.catalog(language or i18n.DEFAULT)
        try:
            for screen in screens.result(sitting, t, HTML, timed_out=True):
                await send(context, sitting.attempt.user_id, screen)
        except (Dropped, TelegramError) as exc:
            log.warning(
                "exam %s: result not sent to user %s: %r",
                sitting.attempt.id,
                sitting.attempt.user_id,
                exc,
            )
