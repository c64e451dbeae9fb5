"""Screens of homework in a group: the group message (the quiz, the deadline in the group's
language and time zone, the progress, the deep-link button), the member's private first screen,
reminders, the results in the group, the item analysis for the admin who set it, /assignments
and its confirmations, /assign's menu.

Dates are shown with Babel in the catalog's language and the chat's time zone
(``format_date``/``format_time``), spans with ``format_timedelta`` ("in 2 days"). Names are
shown as typed, escaped, and never as a mention: an ``@`` in a name is followed by a word joiner
(U+2060), so Telegram links no username.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from babel.dates import format_time, format_timedelta
from babel.numbers import format_percent

from bot.features.groups.screens import MAX_NAME, MAX_TITLE, MEDALS
from bot.features.homework.rules import CLOSED, MAX_DAYS, OPEN, Assignment, HomeworkResults, Opened
from bot.i18n import Catalog
from bot.i18n.dates import format_date
from bot.kernel.bank import Bank
from bot.kernel.members import is_deleted
from bot.kernel.zones import zone_info
from bot.render.callbacks import AssignButton, BankButton, HomeworkButton
from bot.render.limits import MAX_MESSAGE_UTF16
from bot.render.links import deep_link
from bot.render.screen import MAX_BUTTON_LABEL, Button, Screen, UrlButton, as_screens
from bot.render.text import TIME_SLOT, Markup, clip, html_length, timed

HOMEWORK_TOP_PLACES = 5
"""Places the group's results list; the others are counted in one line."""

DEADLINE_CHOICES = (12 * 3600, 86_400, 3 * 86_400, 7 * 86_400)
"""The deadlines /assign's menu offers, in seconds from the tap."""

EXTEND_CHOICES = (3600, 86_400, 3 * 86_400, 7 * 86_400)
"""By how long /assignments' "Extend" offers to move a deadline, in seconds."""

MAX_MISSED_PROMPT = 90
"""Characters of a question's prompt shown in the results and the item analysis."""

DURATION_EXAMPLES = "90m, 12h, 3d, 1w"
"""Deadlines as durations, as typed (shown as they are in every language)."""

ZONE_EXAMPLES = "Europe/Athens, Asia/Kolkata, America/New_York, UTC"
"""Time zones as /timezone reads them (IANA names, shown as they are)."""

MAX_LISTED = 30
"""Homework listed at most by /assignments, each with its row of buttons (three for an open
one: 90 buttons, within Telegram's 100 per keyboard)."""

MAX_ASSIGN_BANKS = 40
"""Quizzes /assign's menu offers at most (one button each)."""


def local_time(moment: float, zone: str, t: Catalog) -> str:
    """``moment`` (seconds since the epoch) as a date and time in ``zone``, in ``t``'s
    language ("Saturday, December 5, 2026, 5:00 PM")."""
    local = datetime.fromtimestamp(moment, zone_info(zone))
    return (
        f"{format_date(local, 'full', t.language)}, "
        f"{format_time(local, 'short', locale=t.language)}"
    )


def span_text(seconds: float, t: Catalog) -> str:
    """A span of time in ``t``'s language, without direction ("1 day", "4 minutes")."""
    return format_timedelta(timedelta(seconds=max(seconds, 1.0)), locale=t.language)


def unmention(name: str) -> str:
    """``name`` as shown in a group: an ``@`` is followed by a word joiner, so that Telegram
    never takes it for a mention (nobody is notified)."""
    return name.replace("@", "@\u2060")


def homework_title(bank: Bank | None, assignment: Assignment, t: Catalog) -> str:
    """The quiz's title in ``t``'s language (its id when the quiz is gone), clipped."""
    if bank is None:
        return assignment.bank_id
    return clip(bank.title.get(bank.language_for(t.language), bank.default_language), MAX_TITLE)


def finished_line(finished: int, t: Catalog) -> str:
    """ "7 have finished." (or that nobody has yet)."""
    return t("hw.finished", count=finished) if finished else t("hw.finished_none")


def homework_post(
    assignment: Assignment,
    bank: Bank | None,
    finished: int,
    *,
    zone: str,
    now: float,
    bot_username: str,
    t: Catalog,
    m: Markup,
) -> Screen:
    """The group message of homework: the quiz, the deadline (the group's language and time
    zone, and how far off it is), who set it, the progress, and a URL button that opens the
    homework's deep link (a callback button cannot open a private chat with someone who never
    wrote to the bot). Closed: when it closed, and the button offers the quiz as practice (the
    same link, which then says so). Cancelled: no button."""
    lines = [m.bold(t("hw.post_title", title=homework_title(bank, assignment, t)))]
    link = deep_link(bot_username, assignment.token)
    keyboard: tuple[tuple[Button, ...], ...] = ()
    if assignment.status == OPEN:
        lines.append(
            timed(
                m,
                t(
                    "hw.post_deadline",
                    date=TIME_SLOT,
                    zone=zone,
                    relative=t.relative(assignment.deadline - now),
                ),
                local_time(assignment.deadline, zone, t),
                assignment.deadline,
            )
        )
        if assignment.set_by_name and not is_deleted(assignment.set_by):
            lines.append(
                m.escape(
                    t("hw.post_set_by", name=unmention(clip(assignment.set_by_name, MAX_NAME)))
                )
            )
        lines += ["", m.escape(t("hw.post_how")), "", m.escape(finished_line(finished, t))]
        keyboard = ((Button(t("hw.button_start"), UrlButton(link)),),)
    elif assignment.status == CLOSED:
        closed = assignment.closed_at or assignment.deadline
        lines += [
            m.escape(t("hw.post_closed", date=local_time(closed, zone, t), zone=zone)),
            m.escape(finished_line(finished, t)),
        ]
        keyboard = ((Button(t("hw.button_practice"), UrlButton(link)),),)
    else:
        lines.append(m.escape(t("hw.post_cancelled")))
    return Screen("\n".join(lines), keyboard)


def homework_opened(opened: Opened, zone: str, now: float, t: Catalog, m: Markup) -> Screen:
    """What a member reads first when the homework's deep link opens it: a first attempt says
    that the first finished attempt before the deadline counts (and that they may stop and go
    on); a resumed one that it goes on; practice that it does not count."""
    assignment = opened.assignment
    date, relative = local_time(assignment.deadline, zone, t), t.relative(assignment.deadline - now)
    if not opened.counts:
        text = t("hw.practice")
    elif opened.resumed:
        text = t("hw.resumed", date=date, zone=zone, relative=relative)
    else:
        text = t("hw.first", date=date, zone=zone, relative=relative)
        if opened.restarted:
            text += "\n\n" + t("hw.restarted")
    return Screen(m.escape(text))


def homework_closed(assignment: Assignment, zone: str, t: Catalog, m: Markup) -> Screen:
    """The deep link of closed homework: when it closed, and a button that starts the quiz as
    practice."""
    closed = assignment.closed_at or assignment.deadline
    return Screen(
        m.escape(t("hw.closed", date=local_time(closed, zone, t), zone=zone)),
        ((Button(t("hw.button_practice_private"), BankButton(assignment.bank_id)),),),
    )


def homework_notice(key: str, t: Catalog, m: Markup, **params: object) -> Screen:
    """A one-line message of the catalog (``hw.unknown``, ``hw.cancelled``, ...)."""
    return Screen(m.escape(t(key, **params)))


def homework_reminder(
    assignment: Assignment,
    bank: Bank | None,
    *,
    zone: str,
    now: float,
    bot_username: str,
    t: Catalog,
    m: Markup,
) -> Screen:
    """A member's private reminder: the quiz, how long is left and until when, and a button
    that resumes the homework (its deep link: the attempt goes on where it stands)."""
    text = t(
        "hw.reminder",
        title=homework_title(bank, assignment, t),
        relative=t.relative(assignment.deadline - now),
        date=local_time(assignment.deadline, zone, t),
        zone=zone,
    )
    return Screen(
        m.escape(text),
        ((Button(t("hw.button_resume"), UrlButton(deep_link(bot_username, assignment.token))),),),
    )


def homework_cancelled_member(
    assignment: Assignment, bank: Bank | None, t: Catalog, m: Markup
) -> Screen:
    """What a member with an attempt in progress is told privately when homework is
    cancelled."""
    return homework_notice("hw.cancelled_member", t, m, title=homework_title(bank, assignment, t))


def _prompt(bank: Bank | None, question_id: str, t: Catalog) -> str:
    if bank is None:
        return question_id
    for question in bank.questions:
        if question.id == question_id:
            return clip(
                question.prompt.get(bank.language_for(t.language), bank.default_language),
                MAX_MISSED_PROMPT,
            )
    return question_id


def homework_results(
    results: HomeworkResults, bank: Bank | None, *, bot_username: str, t: Catalog, m: Markup
) -> Screen:
    """The results posted in the group at the deadline: how many finished (of those who
    opened it), the average, the first :data:`HOMEWORK_TOP_PLACES` places (names escaped, never a
    mention) and the questions most got wrong; a button offers the quiz as practice. One
    message whatever the number of members: names and prompts are clipped."""
    assignment = results.assignment
    lines = [m.bold(t("hw.results_title", title=homework_title(bank, assignment, t)))]
    if not results.finished:
        lines.append(m.escape(t("hw.results_nobody")))
    else:
        lines.append(
            m.escape(t("hw.results_finished", count=results.finished, opened=results.opened))
        )
        key = "exam.results_average" if results.in_marks else "hw.results_average"
        total = t.number(results.total)
        lines.append(m.escape(t(key, average=t.decimal(results.average), total=total)))
        lines += ["", m.bold(t("hw.results_top"))]
        for place in results.places[:HOMEWORK_TOP_PLACES]:
            medal = (
                MEDALS[place.rank - 1]
                if place.rank <= len(MEDALS) and place.score
                else (f"{place.rank}.")
            )
            name = t("deleted_user") if is_deleted(place.user_id) else unmention(place.name)
            figures = t(
                "hw.results_place",
                score=f"{place.score:g}",
                total=f"{place.total:g}",
                time=span_text(place.seconds, t),
            )
            lines.append(f"{medal} {m.bold(clip(name, MAX_NAME))} — {m.escape(figures)}")
        more = len(results.places) - HOMEWORK_TOP_PLACES
        if more > 0:
            lines.append(m.escape(t("hw.results_more", count=more)))
        if results.missed:
            lines += ["", m.bold(t("hw.results_missed"))]
            for missed in results.missed:
                lines.append(
                    m.escape(
                        t(
                            "hw.results_missed_line",
                            number=missed.number or "?",
                            prompt=_prompt(bank, missed.question_id, t),
                            count=missed.wrong,
                            answers=missed.answers,
                        )
                    )
                )
    button = Button(t("hw.button_practice"), UrlButton(deep_link(bot_username, assignment.token)))
    return Screen("\n".join(lines), ((button,),))


def item_analysis(
    results: HomeworkResults, bank: Bank | None, t: Catalog, m: Markup
) -> list[Screen]:
    """The per-question item analysis sent privately with the CSV: per question (and language
    it was shown in) its answers, proportion right, discrimination and what stands out; split
    into messages within Telegram's limit."""
    lines = [m.bold(t("hw.items_title", title=homework_title(bank, results.assignment, t))), ""]
    if not results.items:
        lines.append(m.escape(t("hw.items_none")))
        return as_screens("\n".join(lines), m)
    numbers = {q.id: n for n, q in enumerate(bank.questions, start=1)} if bank else {}
    several = len({item.language for item in results.items}) > 1
    for item in sorted(results.items, key=lambda i: (numbers.get(i.question_id, 0), i.language)):
        disc = "–" if item.discrimination is None else t.decimal(item.discrimination, 2)
        line = t(
            "hw.items_line",
            number=numbers.get(item.question_id, "?"),
            prompt=_prompt(bank, item.question_id, t),
            count=item.answers,
            right=format_percent(item.difficulty, locale=t.language),
            discrimination=disc,
        )
        if several and item.language:
            line += " " + t("hw.items_language", language=t.language_name(item.language))
        flags = [t(f"hw.flag.{flag}") for flag in item.flags]
        lines.append(m.escape(line + ("; " + "; ".join(flags) if flags else "")))
    lines += ["", m.italic(t("hw.items_hint"))]
    return as_screens("\n".join(lines), m)


def assignments_list(
    assignments: Sequence[Assignment],
    banks: Mapping[str, Bank | None],
    *,
    zone: str,
    now: float,
    t: Catalog,
    m: Markup,
) -> Screen:
    """/assignments: open homework (by deadline) then closed, each with its progress; for
    open ones the buttons to close it early, extend it or cancel it, for closed ones the
    results file. As many as fit one message (:data:`MAX_MESSAGE_UTF16`) and one keyboard
    (:data:`MAX_LISTED` rows), each listed with its buttons; then how many more there are."""
    if not assignments:
        return homework_notice("hw.list_none", t, m)
    lines = [m.bold(t("hw.list_title")), ""]
    footer = ["", m.italic(t("hw.list_zone", zone=zone))]
    # room kept for the footer and the "and N more" line (a count of at most 5 digits)
    room = (
        MAX_MESSAGE_UTF16
        - sum(html_length(line) + 1 for line in (*lines, *footer))
        - html_length(m.escape(t("quizzes.problems_more", count=99_999)))
        - 1
    )
    rows: list[tuple[Button, ...]] = []
    for a in assignments:
        title = homework_title(banks.get(a.bank_id), a, t)
        if a.status == OPEN:
            line = m.escape(
                t(
                    "hw.list_open",
                    number=a.id,
                    title=title,
                    date=local_time(a.deadline, zone, t),
                    relative=t.relative(a.deadline - now),
                    finished=finished_line(a.finished, t),
                )
            )
            row: tuple[Button, ...] = (
                Button(t("hw.button_close", number=a.id), HomeworkButton("close", a.id, 0)),
                Button(t("hw.button_extend", number=a.id), HomeworkButton("extend", a.id, 0)),
                Button(t("hw.button_cancel", number=a.id), HomeworkButton("cancel", a.id, 0)),
            )
        else:
            line = m.escape(
                t(
                    "hw.list_closed",
                    number=a.id,
                    title=title,
                    date=local_time(a.closed_at or a.deadline, zone, t),
                    finished=finished_line(a.finished, t),
                )
            )
            row = (Button(t("hw.button_report", number=a.id), HomeworkButton("report", a.id, 0)),)
        room -= html_length(line) + 1
        if room < 0 or len(rows) == MAX_LISTED:
            break
        lines.append(line)
        rows.append(row)
    if len(rows) < len(assignments):
        lines.append(m.escape(t("quizzes.problems_more", count=len(assignments) - len(rows))))
    return Screen("\n".join(lines + footer), tuple(rows))


def extend_choice(
    assignment: Assignment, bank: Bank | None, zone: str, t: Catalog, m: Markup
) -> Screen:
    """How long to extend homework by (:data:`EXTEND_CHOICES`), and "Back" to the list."""
    text = t(
        "hw.extend_ask",
        title=homework_title(bank, assignment, t),
        date=local_time(assignment.deadline, zone, t),
        zone=zone,
    )
    choices = tuple(
        Button(
            t("hw.extend_by", span=span_text(seconds, t)),
            HomeworkButton("by", assignment.id, seconds),
        )
        for seconds in EXTEND_CHOICES
    )
    return Screen(
        m.escape(text), (choices, (Button(t("hw.button_back"), HomeworkButton("list", 0, 0)),))
    )


def cancel_question(
    assignment: Assignment, bank: Bank | None, in_progress: int, t: Catalog, m: Markup
) -> Screen:
    """Cancel homework? (how many members with an attempt in progress will be told)."""
    text = t("hw.cancel_ask", title=homework_title(bank, assignment, t), count=in_progress)
    return Screen(
        m.escape(text),
        (
            (
                Button(t("hw.button_confirm_cancel"), HomeworkButton("confirm", assignment.id, 0)),
                Button(t("hw.button_keep"), HomeworkButton("list", 0, 0)),
            ),
        ),
    )


def assign_menu(banks: Iterable[Bank], t: Catalog, m: Markup) -> Screen:
    """/assign without arguments: a button per quiz (at most :data:`MAX_ASSIGN_BANKS`)."""
    rows = tuple(
        (
            Button(
                clip(b.title.get(b.language_for(t.language), b.default_language), MAX_BUTTON_LABEL),
                AssignButton(b.id, 0),
            ),
        )
        for b in list(banks)[:MAX_ASSIGN_BANKS]
    )
    return Screen(m.escape(t("hw.assign_choose")), rows)


def assign_deadline(bank: Bank, zone: str, t: Catalog, m: Markup) -> Screen:
    """/assign's second step: deadline buttons (:data:`DEADLINE_CHOICES`), and how to type
    any other one."""
    title = clip(bank.title.get(bank.language_for(t.language), bank.default_language), MAX_TITLE)
    choices = tuple(
        Button(span_text(seconds, t), AssignButton(bank.id, seconds))
        for seconds in DEADLINE_CHOICES
    )
    return Screen(
        m.escape(
            t(
                "hw.assign_deadline",
                title=title,
                bank=bank.id,
                zone=zone,
                durations=DURATION_EXAMPLES,
            )
        ),
        (choices,),
    )


def deadline_refusal(key: str, deadline: float | None, text: str, zone: str, t: Catalog) -> str:
    """The reply to a deadline refused: ``hw.deadline_unreadable`` (``text`` as typed),
    ``hw.deadline_past`` or ``hw.deadline_far`` (``deadline`` as read). Plain text."""
    if key == "hw.deadline_unreadable" or deadline is None:
        return t(
            "hw.deadline_unreadable", text=clip(text, 64), zone=zone, durations=DURATION_EXAMPLES
        )
    if key == "hw.deadline_far":
        return t(key, date=local_time(deadline, zone, t), zone=zone, count=MAX_DAYS)
    return t(key, date=local_time(deadline, zone, t), zone=zone)
