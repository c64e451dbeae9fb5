"""Screens for a group's admins: the settings menu and the summary sent with a session's
results.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.groups.results import QuestionSummary
from bot.features.groups.rules import GroupSession, Scoring
from bot.features.groups.screens import MAX_TITLE
from bot.features.groups.settings import COUNT_CHOICES, SECONDS_CHOICES, GroupSettings, WhoStarts
from bot.i18n import SUPPORTED, Catalog
from bot.kernel.bank import Bank
from bot.render.callbacks import SettingButton
from bot.render.screen import (
    LANGUAGES_PER_ROW,
    MAX_BUTTON_LABEL,
    Button,
    Screen,
    as_screens,
    rows_of,
)
from bot.render.text import Markup, clip


def settings_menu(
    chosen: GroupSettings,
    default_seconds: float,
    banks: Sequence[Bank],
    language: str,
    t: Catalog,
    m: Markup,
) -> Screen:
    """A group's settings and the buttons to change them (each carries ``chosen.version``, so
    an older menu's buttons are stale). Current choices are ticked; the bank row is shown only
    when several banks are installed (at most 40 of them: the keyboard's 100 buttons).
    ``default_seconds``: the window when the group chose none."""
    seconds = chosen.question_seconds or round(default_seconds)
    bank_titles = {
        b.id: clip(b.title.get(b.language_for(t.language), b.default_language), MAX_BUTTON_LABEL)
        for b in banks
    }
    bank_line = (
        bank_titles.get(chosen.bank_id, t("settings_bank_missing"))
        if chosen.bank_id
        else t("settings_bank_ask")
    )
    lines = [
        m.bold(t("settings_title")),
        "",
        m.escape(t("settings_who", value=t(f"settings_who_{chosen.who_starts}"))),
        m.escape(t("settings_seconds", count=seconds)),
        m.escape(t("settings_scoring", value=t(f"settings_scoring_{chosen.scoring}"))),
        m.escape(t("settings_bank", value=bank_line)),
        m.escape(t("settings_language", value=t.language_name(language))),
        m.escape(
            t(
                "settings_count",
                value=t("settings_count_all")
                if chosen.question_count is None
                else str(chosen.question_count),
            )
        ),
        "",
        m.italic(t("settings_hint")),
    ]

    def button(label: str, field_name: str, value: object, current: bool) -> Button:
        return Button(
            ("✓ " if current else "") + label, SettingButton(chosen.version, field_name, str(value))
        )

    rows: list[tuple[Button, ...]] = [
        tuple(
            button(t(f"settings_who_{who}"), "who", who, chosen.who_starts == who)
            for who in WhoStarts
        ),
    ]
    choices = [
        button(t("settings_seconds_button", count=n), "seconds", n, n == seconds)
        for n in SECONDS_CHOICES
    ]
    rows += [tuple(choices[:5]), tuple(choices[5:])]
    rows.append(
        tuple(
            button(t(f"settings_scoring_{s}"), "scoring", s, chosen.scoring == s) for s in Scoring
        )
    )
    if len(banks) > 1:
        rows += [
            (button(bank_titles[b.id], "bank", b.id, chosen.bank_id == b.id),) for b in banks[:40]
        ]
    rows += rows_of(
        [button(t.language_name(code), "language", code, code == language) for code in SUPPORTED],
        LANGUAGES_PER_ROW,
    )
    rows.append(
        tuple(
            button(
                t("settings_count_all") if n == 0 else str(n),
                "count",
                n,
                (chosen.question_count or 0) == n,
            )
            for n in COUNT_CHOICES
        )
    )
    return Screen("\n".join(lines), tuple(rows))


def results_summary(
    bank: Bank,
    session: GroupSession,
    questions: Sequence[QuestionSummary],
    players: int,
    date: str,
    t: Catalog,
    m: Markup,
) -> list[Screen]:
    """The per-question summary sent with a session's CSV: per question its number, prompt
    (clipped to 120 characters), right answers of all answers and the mean answer time.
    ``date``: when the session started, formatted by the caller. Split into messages of at most
    :data:`MAX_MESSAGE_UTF16` visible UTF-16 units."""
    lang = bank.language_for(t.language)
    prompts = {q.id: q.prompt.get(lang, bank.default_language) for q in bank.questions}
    lines = [
        m.bold(
            t("results_title", title=clip(bank.title.get(lang, bank.default_language), MAX_TITLE))
        ),
        m.escape(
            t(
                "results_meta",
                date=date,
                players=t("quizzes.results_players", count=players),
                questions=t("question_count", count=len(questions)),
            )
        ),
        "",
    ]
    for q in questions:
        lines.append(
            m.escape(
                t(
                    "results_question_line",
                    number=q.number,
                    prompt=clip(prompts.get(q.question_id, q.question_id), 120),
                    right=q.right,
                    answers=q.answers,
                    seconds=t.decimal(q.mean_seconds),
                )
            )
        )
    return as_screens("\n".join(lines), m)
