"""Screens of the question of the day: the day's post with its answer buttons, its reveal (the
answer, how many chose each option, the explanation), the weekly leaderboard, a chat's
schedule with its settings, and the channel list of ``/daily`` in the private chat.

Dates, times and weekday names are Babel's, in the reader's language and the chat's zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from babel.dates import format_time, get_datetime_format, get_day_names

from bot.features.daily.rules import (
    BoardPlace,
    BotChat,
    DailyPost,
    DailySchedule,
    RunOut,
    Tally,
    zone_of,
)
from bot.features.groups.screens import MAX_NAME, MAX_TITLE, MEDALS
from bot.i18n import Catalog
from bot.i18n.dates import format_date
from bot.kernel.bank import Bank, Question
from bot.kernel.engine import LABELS, QuestionView
from bot.kernel.members import is_deleted
from bot.render.question import notes_lines, option_text, question_keyboard, slot_label
from bot.render.screen import Button, Screen
from bot.render.teacher_callbacks import DailyAnswerButton, DailyChannelButton, DailySettingButton
from bot.render.text import TIME_SLOT, Markup, clip, timed

DAILY_SYNTAX = "/daily <quiz> <HH:MM>"
"""How ``/daily`` is typed (in its messages' ``{syntax}``)."""
DAILY_TIME_FORMAT = "HH:MM"
"""How a time of day is typed (in ``daily_bad_time``'s ``{format}``)."""

MAX_CHAT_TITLE = 64
"""Characters of a chat's title shown in a reply or a button."""


def _view(post: DailyPost, question: Question) -> QuestionView:
    correct = next((s for s, o in enumerate(post.slots) if o in question.correct_indices), 0)
    return QuestionView(
        question=question,
        position=post.position,
        total=post.position + 1,
        slots=post.slots,
        correct_slot=correct,
    )


def _head(bank: Bank, question: Question, t: Catalog, m: Markup, title: str) -> list[str]:
    lang = bank.language_for(t.language)
    return [
        m.bold(t(title)),
        m.escape(clip(bank.title.get(lang, bank.default_language), MAX_TITLE)),
        "",
        m.bold(question.prompt.get(lang, bank.default_language)),
        "",
    ]


def daily_question(
    bank: Bank, post: DailyPost, question: Question, t: Catalog, m: Markup
) -> Screen:
    """The day's question in the chat's language: the quiz, the prompt, the options A, B, ...
    and one answer button each (True and False for a true/false question)."""
    v = _view(post, question)
    lines = _head(bank, question, t, m, "daily_title")
    for slot, option_index in enumerate(post.slots):
        lines.append(
            f"{slot_label(question, slot)}{m.escape(option_text(bank, question, option_index, t))}"
        )
    lines += ["", m.italic(t("daily_answer_hint"))]
    return Screen(
        "\n".join(lines),
        question_keyboard(v, t, lambda slot: DailyAnswerButton(post.post_id, slot)),
    )


def daily_reveal(
    bank: Bank | None,
    post: DailyPost,
    question: Question | None,
    tally: Tally,
    t: Catalog,
    m: Markup,
    *,
    last: bool = False,
) -> Screen:
    """The day's question closed (an edit of its post, without buttons): the right option ✅,
    how many chose each option, how many answered and were right, the explanation and its
    source; with ``last``, that the quiz ended. Without the bank (gone), only that it closed."""
    if bank is None or question is None:
        return Screen(m.escape(t("daily_gone")))
    lines = _head(bank, question, t, m, "daily_reveal_title")
    for slot, option_index in enumerate(post.slots):
        text = (
            f"{slot_label(question, slot)}"
            f"{m.escape(option_text(bank, question, option_index, t))}"
            f" — {tally.counts[slot]}"
        )
        lines.append(f"✅ {text}" if option_index in question.correct_indices else text)
    lines.append("")
    lines.append(
        m.escape(
            t("daily_answered", count=tally.answered, right=tally.right)
            if tally.answered
            else t("daily_nobody")
        )
    )
    lines += notes_lines(bank, question, t, m)
    if last:
        lines += ["", m.italic(t("daily_last"))]
    return Screen("\n".join(lines))


def daily_board(bank: Bank, places: Sequence[BoardPlace], t: Catalog, m: Markup) -> Screen:
    """The weekly leaderboard: rank, name (escaped, never a mention, so nobody is notified)
    and right answers of those answered, at most :data:`bot.features.daily.rules.BOARD_PLACES`
    places; one message whatever the names (each clipped to :data:`MAX_NAME` characters)."""
    lang = bank.language_for(t.language)
    lines = [
        m.bold(t("daily_board_title")),
        m.escape(clip(bank.title.get(lang, bank.default_language), MAX_TITLE)),
        "",
    ]
    if not places:
        lines.append(m.escape(t("daily_board_empty")))
    for place in places:
        medal = MEDALS[place.rank - 1] if place.rank <= len(MEDALS) else f"{place.rank}."
        name = t("deleted_user") if is_deleted(place.user_id) else place.name
        figures = t("daily_board_line", count=place.right, answered=place.answered)
        lines.append(f"{medal} {m.bold(clip(name, MAX_NAME))} — {m.escape(figures)}")
    return Screen("\n".join(lines))


def weekday_name(day: int, t: Catalog) -> str:
    """Weekday ``day`` (0 Monday) in the reader's language (CLDR's wide form)."""
    return str(get_day_names("wide", locale=t.language)[day])


def daily_when(when: float, zone: str, t: Catalog) -> str:
    """A date and time in the chat's zone and the reader's language ("Dec 8, 2026, 9:00 AM":
    CLDR's medium date and short time, joined as the language's medium date-time pattern
    joins them; a post goes at a minute, so no seconds)."""
    moment = datetime.fromtimestamp(when, zone_of(zone))
    return str(
        str(get_datetime_format("medium", locale=t.language)).format(
            format_time(moment, "short", locale=t.language),
            format_date(moment, "medium", t.language),
        )
    )


def daily_status(
    schedule: DailySchedule,
    bank: Bank,
    chat_title: str,
    zone: str,
    now: float,
    t: Catalog,
    m: Markup,
    *,
    new: bool = False,
) -> Screen:
    """A chat's question of the day and its settings: the quiz, the time in the chat's zone,
    when the next question comes; buttons for the run-out setting, the leaderboard's weekday
    (each tap the next day, then none) and turning it off. ``new``: it was just set."""
    lang = bank.language_for(t.language)
    chat = clip(chat_title, MAX_CHAT_TITLE)
    if schedule.status != "on":
        return Screen(m.escape(t("daily_status_off", chat=chat)))
    when = f"{TIME_SLOT} ({t.relative(schedule.next_at - now)})"
    text = t(
        "daily_set" if new else "daily_changed",
        chat=chat,
        title=clip(bank.title.get(lang, bank.default_language), MAX_TITLE),
        time=schedule.hhmm,
        zone=zone,
        when=when,
    )
    then = t("daily_then_again" if schedule.run_out is RunOut.AGAIN else "daily_then_stop")
    board = (
        t("daily_board_day", day=weekday_name(schedule.board_day, t))
        if schedule.board_day is not None
        else t("daily_board_none")
    )
    lines = [
        timed(m, text, daily_when(schedule.next_at, zone, t), schedule.next_at),
        "",
        m.escape(then),
        m.escape(board),
    ]
    chat_id = schedule.chat_id
    flip = "stop" if schedule.run_out is RunOut.AGAIN else "again"
    next_day = (
        "0"
        if schedule.board_day is None
        else "none"
        if schedule.board_day == 6
        else str(schedule.board_day + 1)
    )
    keyboard = (
        (
            Button(
                t(f"button_daily_then_{schedule.run_out}"),
                DailySettingButton(chat_id, "then", flip),
            ),
        ),
        (
            Button(
                t("button_daily_board", day=weekday_name(schedule.board_day, t))
                if schedule.board_day is not None
                else t("button_daily_board_none"),
                DailySettingButton(chat_id, "board", next_day),
            ),
        ),
        (Button(t("button_daily_off"), DailySettingButton(chat_id, "off", "1")),),
    )
    return Screen("\n".join(lines), keyboard)


def daily_channels(
    chats: Sequence[BotChat],
    t: Catalog,
    m: Markup,
    *,
    action: str,
    minute: int | None,
    bank_id: str | None,
) -> Screen:
    """``/daily`` in the private chat: one button per channel where the bot may post (the
    user added it there), or how to add the bot to one."""
    if not chats:
        return Screen(m.escape(t("daily_no_channels")))
    keyboard = tuple(
        (
            Button(
                clip(chat.title, MAX_CHAT_TITLE),
                DailyChannelButton(
                    chat.chat_id, action, "k" if minute is None else str(minute), bank_id or "-"
                ),
            ),
        )
        for chat in chats
    )
    key = "daily_choose_channel" if action == "on" else "daily_choose_channel_off"
    return Screen(m.escape(t(key)), keyboard)


def daily_usage(banks: Sequence[Bank], zone: str, t: Catalog, m: Markup) -> Screen:
    """How to use ``/daily``, with the quizzes it takes."""
    ids = [bank.id for bank in banks]
    example = f"/daily {ids[0] if ids else 'quiz'} 09:00"
    return Screen(
        m.escape(
            t(
                "daily_usage",
                syntax=DAILY_SYNTAX,
                example=example,
                zone=zone,
                off="/daily off",
                banks=", ".join(ids),
            )
        )
    )


def daily_option_label(
    question: Question, post: DailyPost, slot: int, bank: Bank, t: Catalog
) -> str:
    """What a tap's toast calls the chosen option: its letter, or True/False."""
    if question.kind == "true-false":
        return option_text(bank, question, post.slots[slot], t)
    return LABELS[slot]
