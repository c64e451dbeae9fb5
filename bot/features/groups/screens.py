"""Screens of a group session: the open question with its clock, the reveal, the leaderboard
and the "My place" toast, and a closed question shown again in a member's private chat.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.groups.rules import SPEED, GroupSession, Standing
from bot.i18n import Catalog
from bot.kernel.bank import Bank
from bot.kernel.engine import LABELS, QuestionView
from bot.kernel.members import is_deleted
from bot.render.callbacks import (
    GroupAnswerButton,
    GroupSubmitButton,
    GroupTickButton,
    PlaceButton,
)
from bot.render.limits import MAX_TOAST_UTF16
from bot.render.links import question_link
from bot.render.question import (
    _question_lines,
    answer_rows,
    marked_keyboard,
    notes_lines,
    option_text,
    question_keyboard,
    slot_label,
)
from bot.render.screen import Button, Screen, UrlButton
from bot.render.text import Markup, clip, clip_utf16

LEADERBOARD_PLACES = 20
"""How many places the group leaderboard lists; the others are counted in one line."""

MAX_NAME = 48
"""Characters of a member's name shown on the leaderboard (Telegram allows 64 + 64)."""

MAX_TITLE = 128
"""Characters of a bank title shown on the leaderboard (bank titles have no length limit)."""


def group_question(
    bank: Bank,
    session: GroupSession,
    t: Catalog,
    m: Markup,
    *,
    starter_name: str | None = None,
    left: int | None = None,
) -> Screen:
    """A group session's open question, with one button per option (A-L, in rows that fit a
    phone: :func:`answer_rows`) and its clock: the window ("⏱ 30 s"), or with ``left`` the
    seconds left (the one mid-window edit, "⏱ 10 s left"); the first one carries the
    announcement (who started it, how many questions, seconds per question, the scoring)."""
    v = _session_view(bank, session, session.position)
    lines = _question_lines(bank, v, t, m, marks=False)
    header: list[str] = []
    if starter_name is not None:
        header = [
            m.escape(t("group_announce", name=starter_name)),
            m.escape(
                f"{t('question_count', count=session.total)} · "
                f"{t('group_seconds', count=round(session.question_seconds))}"
            ),
            m.escape(t(f"group_scoring_{session.scoring}")),
            "",
        ]
    clock = (
        t("group_clock", count=round(session.question_seconds))
        if left is None
        else t("group_clock_left", count=left)
    )
    lines.insert(2, m.escape(clock))
    if v.question.several:  # each member's ticks are stored: the boxes stay empty
        boxes = [
            Button(f"☐ {LABELS[slot]}", GroupTickButton(session.id, session.position, slot))
            for slot in range(len(v.slots))
        ]
        keyboard = (
            *answer_rows(boxes),
            (Button(t("button_submit"), GroupSubmitButton(session.id, session.position)),),
        )
    else:
        keyboard = question_keyboard(
            v, t, lambda slot: GroupAnswerButton(session.id, session.position, slot)
        )
    return Screen("\n".join(header + lines), keyboard, photo=v.question.picture)


def group_reveal(
    bank: Bank,
    session: GroupSession,
    position: int,
    counts: Sequence[int],
    t: Catalog,
    m: Markup,
    *,
    bot_username: str | None = None,
) -> Screen:
    """A closed group question: the correct option, how many chose each option, the
    explanation and its source; the option buttons with the right one marked and green
    (:func:`marked_keyboard`); with ``bot_username`` a URL button that opens the bot's private
    chat on this question, its answer and explanation in the member's own language
    (:func:`question_link`)."""
    v = _session_view(bank, session, position)
    lines = [*_question_lines(bank, v, t, m, marks=False, closed=True)[:4], ""]
    for slot, option_index in enumerate(v.slots):
        text = option_text(bank, v.question, option_index, t)
        label = slot_label(v.question, slot)
        count = f" — {counts[slot]}"
        if slot in v.correct_slots:
            lines.append(f"✅ {label}{m.escape(text)}{count}")
        else:
            lines.append(f"{label}{m.escape(text)}{count}")
    total = sum(counts)
    lines += [
        "",
        m.escape(f"👥 {t('group_answer_count', count=total)}"),
        *notes_lines(bank, v.question, t, m),
    ]
    keyboard = marked_keyboard(v, t)
    if bot_username:
        keyboard += (
            (
                Button(
                    t("button_in_my_language"),
                    UrlButton(question_link(bot_username, session.id, position)),
                ),
            ),
        )
    return Screen("\n".join(lines), keyboard)


MEDALS = ("🥇", "🥈", "🥉")


def group_leaderboard(
    bank: Bank,
    session: GroupSession,
    standings: Sequence[Standing],
    t: Catalog,
    m: Markup,
    *,
    stopped_by: str | None = None,
) -> Screen:
    """The leaderboard: rank, name (escaped; no mention, so nobody is notified), score and
    total answer time, for the first :data:`LEADERBOARD_PLACES` places, then a line counting
    the others, and a "My place" button (:class:`PlaceButton`) whose answer tells each
    player their own place. ``stopped_by`` names who stopped the session early.

    Always one message, whatever the number of players and their names: names are clipped to
    :data:`MAX_NAME` characters (Telegram allows 64 + 64) and the title to :data:`MAX_TITLE`,
    so the text stays far below :data:`MAX_MESSAGE_UTF16` visible UTF-16 units (about 3,000
    at worst, with every character an astral one).
    """
    lang = bank.language_for(t.language)
    lines = []
    if stopped_by is not None:
        lines += [m.escape(t("group_stopped", name=clip(stopped_by, MAX_NAME))), ""]
    lines += [
        m.bold(t("group_leaderboard")),
        m.bold(clip(bank.title.get(lang, bank.default_language), MAX_TITLE)),
        "",
    ]
    if not standings:
        lines.append(m.escape(t("group_no_players")))
    for standing in standings[:LEADERBOARD_PLACES]:
        medal = standing.rank <= len(MEDALS) and standing.score > 0  # no gold for 0 points
        place = MEDALS[standing.rank - 1] if medal else f"{standing.rank}."
        score = _standing_line(session, standing, t)
        name = t("deleted_user") if is_deleted(standing.user_id) else standing.name
        lines.append(f"{place} {m.bold(clip(name, MAX_NAME))} — {m.escape(score)}")
    more = len(standings) - LEADERBOARD_PLACES
    if more > 0:
        lines.append(m.escape(t("group_more_players", count=more)))
    keyboard = ((Button(t("button_my_place"), PlaceButton(session.id)),),) if standings else ()
    return Screen("\n".join(lines), keyboard)


def group_place(
    session: GroupSession, standings: Sequence[Standing], user_id: int, t: Catalog
) -> str:
    """The answer to a "My place" tap: the player's rank of all players, score and total
    answer time (seconds), or that they did not play; plain text for a callback query's toast,
    at most :data:`MAX_TOAST_UTF16` UTF-16 units (Bot API ``answerCallbackQuery``)."""
    mine = next((s for s in standings if s.user_id == user_id), None)
    if mine is None:
        text = t("group_not_played")
    elif session.scoring == SPEED:
        text = t(
            "group_your_place_points",
            rank=mine.rank,
            players=len(standings),
            count=round(mine.score),
            points=t.decimal(mine.score, 0),
            right=mine.right,
            total=session.total,
            streak=mine.best_streak,
        )
    else:
        text = t(
            "group_your_place",
            rank=mine.rank,
            players=len(standings),
            score=mine.score,
            total=session.total,
            seconds=t.decimal(mine.seconds),
        )
    return clip_utf16(text, MAX_TOAST_UTF16)


def _standing_line(session: GroupSession, standing: Standing, t: Catalog) -> str:
    """A leaderboard line's figures: points, right answers and the longest streak (speed
    scoring), or right answers and total time (right-answers scoring)."""
    if session.scoring == SPEED:
        return t(
            "group_points_line",
            count=round(standing.score),
            points=t.decimal(standing.score, 0),
            right=standing.right,
            total=session.total,
            streak=standing.best_streak,
        )
    return t(
        "group_score_line",
        score=standing.score,
        total=session.total,
        seconds=t.decimal(standing.seconds),
    )


def _session_view(bank: Bank, session: GroupSession, position: int) -> QuestionView:
    question = bank.question(session.plan.question_order[position])
    slots = session.plan.option_orders[position]
    return QuestionView(
        question=question,
        position=position,
        total=session.total,
        slots=slots,
        correct_slot=slots.index(question.correct_index),
    )


def private_question(
    bank: Bank, session: GroupSession, position: int, t: Catalog, m: Markup
) -> Screen:
    """A group session's closed question for one member's private chat, in their language:
    the question, its options with the right one marked, the explanation and its source."""
    v = _session_view(bank, session, position)
    lines = [*_question_lines(bank, v, t, m, marks=False, closed=True)[:4], ""]
    for slot, option_index in enumerate(v.slots):
        text = m.escape(option_text(bank, v.question, option_index, t))
        mark = "✅ " if slot in v.correct_slots else ""
        lines.append(f"{mark}{slot_label(v.question, slot)}{text}")
    lines += notes_lines(bank, v.question, t, m)
    return Screen("\n".join(lines))
