"""Homework's screens (bot/features/homework/screens.py): the deadline in the group's language and
zone, progress, the deep-link button, names escaped and never mentions, the item analysis, the
admins' list and its buttons, all within Telegram's limits."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot import i18n
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from bot.features.homework import screens
from bot.features.homework.rules import (
    CLOSED,
    OPEN,
    Assignment,
    HomeworkResults,
    Missed,
    Opened,
    Place,
)
from bot.kernel.analysis import ItemStats
from bot.kernel.bank import Text
from bot.render import callbacks as render_callbacks
from bot.render import screen as render_screen
from bot.render import text as render_text
from bot.render.limits import MAX_MESSAGE_UTF16
from bot.render.screen import UrlButton
from bot.render.teacher_callbacks import AssignButton, HomeworkButton
from bot.render.text import HTML
from tests.support.fakebotapi import parse_html, utf16_len

EN, HI, EL = i18n.catalog("en"), i18n.catalog("hi"), i18n.catalog("el")
BANK = next(iter(load_banks([BUNDLED_BANKS]).values()))
NOW = datetime(2026, 12, 3, 10, 0, tzinfo=ZoneInfo("UTC")).timestamp()
DEADLINE = datetime(2026, 12, 5, 17, 0, tzinfo=ZoneInfo("Europe/Athens")).timestamp()
TOKEN = "hwAbCdEfGh_-123456"


def assignment(**changes: object) -> Assignment:
    base = Assignment(
        7,
        -100123,
        None,
        TOKEN,
        BANK.id,
        BANK.version,
        "el",
        701,
        "Eleni <b>@teacher</b>",
        NOW,
        DEADLINE,
        OPEN,
        message_id=55,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def buttons(screen: render_screen.Screen) -> list[render_screen.Button]:
    return [button for row in screen.keyboard for button in row]


def test_the_group_message_shows_the_deadline_in_the_groups_language_and_zone():
    """The deadline is Athens' 17:00 in Greek with "in 2 days", the progress is counted, and
    the button is a deep link to the homework's token."""
    screen = screens.homework_post(
        assignment(), BANK, 7, zone="Europe/Athens", now=NOW, bot_username="quizbot", t=EL, m=HTML
    )
    assert "5 Δεκεμβρίου 2026" in screen.text and "5:00\u202fμ.μ." in screen.text
    assert "Europe/Athens" in screen.text and "σε 2 ημέρες" in screen.text
    assert EL("hw.finished", count=7) in screen.text
    (button,) = buttons(screen)
    assert button.label == EL("hw.button_start")
    assert button.action == UrlButton(f"https://t.me/quizbot?start={TOKEN}")


def test_the_deadline_is_a_date_time_entity_that_reads_right_without_it():
    """The deadline's date is a ``date_time`` entity (Bot API 9.5, ``<tg-time>``) of its Unix
    time and no format: the text, in the group's zone, which it names, stays as written for
    apps that ignore it, and each reader's app can give them the moment in their own zone."""
    screen = screens.homework_post(
        assignment(), BANK, 7, zone="Europe/Athens", now=NOW, bot_username="quizbot", t=EL, m=HTML
    )
    date = screens.local_time(DEADLINE, "Europe/Athens", EL)
    assert f'<tg-time unix="{int(DEADLINE)}">{date}</tg-time> (Europe/Athens)' in screen.text
    text, entities = parse_html(screen.text)
    [entity] = [e for e in entities if e["type"] == "date_time"]
    assert entity == {
        "type": "date_time",
        "offset": utf16_len(text[: text.index(date)]),
        "length": utf16_len(date),
        "unix_time": int(DEADLINE),
    }
    plain = screens.homework_post(
        assignment(),
        BANK,
        7,
        zone="Europe/Athens",
        now=NOW,
        bot_username="quizbot",
        t=EL,
        m=render_text.PLAIN,
    )
    assert f"{date} (Europe/Athens)" in plain.text and "tg-time" not in plain.text


def test_the_setters_name_is_escaped_and_mentions_nobody():
    """A name with HTML and an @username is shown as typed, escaped, with no mention."""
    screen = screens.homework_post(
        assignment(), BANK, 0, zone="UTC", now=NOW, bot_username="quizbot", t=EN, m=HTML
    )
    assert "&lt;b&gt;@\u2060teacher&lt;/b&gt;" in screen.text
    assert "@teacher" not in screen.text
    assert EN("hw.finished_none") in screen.text


def test_closed_homework_offers_practice_and_cancelled_has_no_button():
    """After the deadline the button offers practice (the same link); cancelled, none."""
    closed = screens.homework_post(
        assignment(status=CLOSED, closed_at=DEADLINE),
        BANK,
        3,
        zone="UTC",
        now=DEADLINE + 5,
        bot_username="quizbot",
        t=EN,
        m=HTML,
    )
    (button,) = buttons(closed)
    assert button.label == EN("hw.button_practice")
    assert isinstance(button.action, UrlButton) and TOKEN in button.action.url
    cancelled = screens.homework_post(
        assignment(status="cancelled"),
        BANK,
        3,
        zone="UTC",
        now=NOW,
        bot_username="quizbot",
        t=EN,
        m=HTML,
    )
    assert not cancelled.keyboard and EN("hw.post_cancelled") in cancelled.text


def test_the_first_screen_says_the_first_finished_attempt_counts():
    """A first opening says what counts; a later one after finishing says it is practice."""
    attempt = object()
    first = screens.homework_opened(
        Opened(assignment(), attempt, counts=True, resumed=False),  # type: ignore[arg-type]
        "Asia/Kolkata",
        NOW,
        HI,
        HTML,
    )
    assert "पहले पूरा करेंगे, वही गिना जाएगा" in first.text and "Asia/Kolkata" in first.text
    practice = screens.homework_opened(
        Opened(
            assignment(),
            attempt,
            counts=False,  # type: ignore[arg-type]
            resumed=False,
        ),
        "UTC",
        NOW,
        EN,
        HTML,
    )
    assert practice.text == HTML.escape(EN("hw.practice"))


def results(places: int) -> HomeworkResults:
    return HomeworkResults(
        assignment(status=CLOSED),
        opened=places + 2,
        finished=places,
        average=3.5,
        total=len(BANK.questions),
        places=tuple(
            Place(
                n + 1,
                800 + n,
                f"@user{n} <i>x</i>" + "n" * 80,
                10 - n // 3,
                len(BANK.questions),
                240.0 + n,
            )
            for n in range(places)
        ),
        missed=(Missed(BANK.questions[2].id, 3, 4, 5),),
        items=(
            ItemStats(
                BANK.id, BANK.questions[0].id, "en", 5, 0.8, 0.41, [1, 4, 0, 0], ["few_answers"]
            ),
            ItemStats(
                BANK.id,
                BANK.questions[0].id,
                "hi",
                3,
                0.0,
                None,
                [0, 0, 3, 0],
                ["too_hard", "few_answers"],
            ),
        ),
    )


@pytest.mark.parametrize("t", [EN, HI, EL], ids=lambda t: t.language)
def test_results_fit_one_message_with_top_places_and_the_most_missed(t):
    """300 finishers: one message, the first five places, the rest counted, names escaped and
    never mentions, the most missed question named, and a practice button."""
    screen = screens.homework_results(results(300), BANK, bot_username="quizbot", t=t, m=HTML)
    assert render_text.html_length(screen.text) <= MAX_MESSAGE_UTF16
    assert screen.text.count("@\u2060user") == screens.HOMEWORK_TOP_PLACES
    assert "@user" not in screen.text and "&lt;i&gt;x&lt;/i&gt;" in screen.text
    assert t("hw.results_more", count=295) in screen.text
    assert "🥇" in screen.text and t("hw.results_missed") in screen.text
    (button,) = buttons(screen)
    assert isinstance(button.action, UrlButton)


def test_results_without_finishers_say_so():
    """Nobody finished: the results say so and name no places."""
    empty = HomeworkResults(assignment(status=CLOSED), opened=2, finished=0, average=0.0, total=0)
    screen = screens.homework_results(empty, BANK, bot_username="quizbot", t=EN, m=HTML)
    assert EN("hw.results_nobody") in screen.text and "🥇" not in screen.text


def test_item_analysis_names_languages_and_flags():
    """Per question and language: answers, percent right, discrimination (– when undefined)
    and what stands out, in the admin's language."""
    (screen,) = screens.item_analysis(results(3), BANK, EN, HTML)
    assert "5 answers, 80% right, discrimination 0.41" in screen.text
    assert "3 answers, 0% right, discrimination –" in screen.text
    assert "(Hindi)" in screen.text or "(हिन्दी)" in screen.text
    assert EN("hw.flag.too_hard") in screen.text


def test_the_admins_list_has_buttons_for_open_and_closed_homework():
    """Open homework: close, extend, cancel; closed: the results file; each button encodes."""
    listed = [assignment(finished=2), assignment(id=8, status=CLOSED, closed_at=DEADLINE)]
    screen = screens.assignments_list(listed, {BANK.id: BANK}, zone="UTC", now=NOW, t=EN, m=HTML)
    actions = [b.action for b in buttons(screen)]
    assert actions == [
        HomeworkButton("close", 7, 0),
        HomeworkButton("extend", 7, 0),
        HomeworkButton("cancel", 7, 0),
        HomeworkButton("report", 8, 0),
    ]
    assert all(render_callbacks.decode(render_callbacks.encode(a)) == a for a in actions)
    assert EN("hw.finished", count=2) in screen.text


def test_the_assign_menu_offers_quizzes_then_deadlines():
    """/assign's menu: a button per quiz, then the deadline choices for the chosen one."""
    menu = screens.assign_menu([BANK], EN, HTML)
    assert [b.action for b in buttons(menu)] == [AssignButton(BANK.id, 0)]
    deadlines = screens.assign_deadline(BANK, "UTC", EL, HTML)
    assert [b.action for b in buttons(deadlines)] == [
        AssignButton(BANK.id, s) for s in screens.DEADLINE_CHOICES
    ]
    assert [b.label for b in buttons(deadlines)] == ["12 ώρες", "1 ημέρα", "3 ημέρες", "1 εβδομάδα"]


@pytest.mark.parametrize("t", [EN, HI, EL], ids=["en", "hi", "el"])
def test_the_admins_list_of_many_long_titled_homework_fits_one_message(t):
    """Forty homework of a quiz with a long title: as many as fit one message are listed,
    each with its row of buttons, then how many more there are; never over Telegram's 4,096
    UTF-16 units or 100 buttons (20 of them passed 4,096 and got no reply)."""
    long_titled = replace(
        BANK,
        title=Text(
            {language: "Παράλληλη εκπαίδευση μοντέλων " * 5 for language in BANK.title.by_language}
        ),
    )
    listed = [assignment(id=n, bank_id=BANK.id) for n in range(1, 41)]
    screen = screens.assignments_list(
        listed, {BANK.id: long_titled}, zone="Asia/Kolkata", now=NOW, t=t, m=HTML
    )
    assert render_text.html_length(screen.text) <= MAX_MESSAGE_UTF16
    assert len(buttons(screen)) <= 100
    shown = len(screen.keyboard)
    assert 0 < shown < 40
    assert screen.text.count("\n#") == shown  # each listed homework starts a line "#n"
    assert [row[0].action for row in screen.keyboard] == [
        HomeworkButton("close", n, 0) for n in range(1, shown + 1)
    ]
    assert HTML.escape(t("quizzes.problems_more", count=40 - shown)) in screen.text
