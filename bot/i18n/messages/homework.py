"""The messages of homework in a group: /assign, the group message, the member's private chat,
reminders, results, /assignments and /timezone."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    # --- command menus ---
    N_("command_group_assign", "Set a quiz as homework with a deadline (admins)"),
    N_("command_group_assignments", "Homework set in this group (admins: close, extend, cancel)"),
    N_("command_group_timezone", "The group's time zone for deadlines (admins change it)"),
    # --- the group message ---
    N_("hw.post_title", "📚 Homework: {title}"),
    # Translators: {date} is a date and time such as "Friday, 5 December 2026, 17:00", {zone} a
    # time zone such as "Europe/Athens", {relative} a span such as "in 2 days".
    N_("hw.post_deadline", "Due: {date} ({zone}), {relative}"),
    N_("hw.post_set_by", "Set by {name}"),
    # Translators: to a group (its members, in the plural).
    N_(
        "hw.post_how",
        "Tap the button to play it in a private chat with me, at your own pace and in your own "
        "language. The first attempt you finish before the deadline counts.",
    ),
    N_("hw.finished_none", "Nobody has finished yet."),
    NP_("hw.finished", "{count} has finished.", "{count} have finished."),
    N_("hw.button_start", "Start the homework"),
    # Translators: to a group (its members, in the plural).
    N_("hw.post_closed", "Closed on {date} ({zone}). It can still be played as practice."),
    N_("hw.button_practice", "Closed: play it as practice"),
    N_("hw.post_cancelled", "This homework was cancelled."),
    # --- the member's private chat ---
    N_(
        "hw.first",
        "📚 Homework, due {date} ({zone}), {relative}.\n"
        "The first attempt you finish before the deadline counts; any later one is practice. "
        "You can stop and go on later with the same button: your attempt stays open until the "
        "deadline.",
    ),
    N_("hw.resumed", "📚 Homework, due {date} ({zone}), {relative}: your attempt goes on."),
    N_(
        "hw.restarted",
        "You had started another quiz since, so this homework starts again: this new attempt is "
        "the one that counts.",
    ),
    N_(
        "hw.practice",
        "You have finished this homework already, and that attempt counts: this one is practice.",
    ),
    N_(
        "hw.closed",
        "This homework closed on {date} ({zone}). You can still play the quiz as practice; it "
        "won't count.",
    ),
    N_("hw.button_practice_private", "Play it as practice"),
    N_("hw.cancelled", "This homework was cancelled by the group's admins."),
    N_(
        "hw.unknown",
        "This homework link isn't valid: it may be mistyped or very old. Tap the button under the "
        "homework in your group.",
    ),
    N_(
        "hw.not_member",
        "This homework was set in a group you aren't a member of. Ask in your own group for its "
        "homework.",
    ),
    N_("hw.bank_gone", "The quiz of this homework is no longer available."),
    # --- reminders and cancellations, privately ---
    N_(
        "hw.reminder",
        "⏰ The homework “{title}” is due {relative} ({date}, {zone}), and you haven't finished "
        "it yet.",
    ),
    N_("hw.button_resume", "Go on with the homework"),
    N_(
        "hw.cancelled_member",
        "The homework “{title}” was cancelled by the group's admins: your attempt no longer "
        "counts as homework (your answers still count in /stats).",
    ),
    # --- results in the group ---
    N_("hw.results_title", "📚 Homework closed: {title}"),
    NP_(
        "hw.results_finished",
        "{count} member finished it, of {opened} who opened it.",
        "{count} members finished it, of {opened} who opened it.",
    ),
    N_("hw.results_nobody", "Nobody finished it before the deadline."),
    N_("hw.results_average", "Average: {average} of {total} right."),
    N_("hw.results_top", "Top places:"),
    # Translators: {time} is how long the attempt took, such as "4 minutes".
    N_("hw.results_place", "{score} of {total} · {time}"),
    NP_("hw.results_more", "and {count} more", "and {count} more"),
    N_("hw.results_missed", "Most often missed:"),
    NP_(
        "hw.results_missed_line",
        "Question {number}: {prompt} ({count} of {answers} wrong)",
        "Question {number}: {prompt} ({count} of {answers} wrong)",
    ),
    # --- the report for the admin who set it, privately ---
    N_(
        "hw.report_caption",
        "The answers to the homework “{title}”: one row per member and question (times in {zone}).",
    ),
    N_("hw.items_title", "Item analysis: {title}"),
    N_("hw.items_none", "Nobody finished the homework: there is nothing to analyse."),
    # Translators: {right} is a percentage such as "83%"; {discrimination} a number from -1 to 1
    # (how well the question told stronger members from weaker ones).
    NP_(
        "hw.items_line",
        "Question {number}: {prompt}: {count} answer, {right} right, discrimination "
        "{discrimination}",
        "Question {number}: {prompt}: {count} answers, {right} right, discrimination "
        "{discrimination}",
    ),
    N_("hw.items_language", "({language})"),
    N_("hw.flag.too_easy", "nearly everyone got it right"),
    N_("hw.flag.too_hard", "most got it wrong"),
    N_("hw.flag.negative", "stronger members missed it more often: check its right answer"),
    N_("hw.flag.few_answers", "too few answers for firm figures"),
    N_(
        "hw.items_hint",
        "Discrimination: from -1 to 1, how much more often the members who did well overall got "
        "the question right (below 0.2 it tells little; below 0, check the question).",
    ),
    N_("hw.report_sent", "{name}: I've sent you the results privately."),
    N_(
        "hw.report_open_bot",
        "{name}: I can't write to you before you start a chat with me. Tap the button, press "
        "Start, then tap “Results” under /assignments here.",
    ),
    # --- /assign ---
    N_("hw.assign_denied", "Only the group's admins can set homework."),
    N_("hw.assign_choose", "Which quiz should be the homework?"),
    # Translators: {durations} are typed forms such as "90m, 12h, 3d, 1w" (kept as they are).
    N_(
        "hw.assign_deadline",
        "Homework: {title}. By when? Tap a deadline, or send /assign {bank} and a deadline: "
        "{durations}, a date and time such as 2026-12-05 17:00, a date (until the end of that "
        "day) or a time such as 17:00. Time zone: {zone} (/timezone).",
    ),
    N_(
        "hw.deadline_unreadable",
        "I can't read “{text}” as a deadline. Give one such as {durations}, 2026-12-05 "
        "17:00, 2026-12-05 (until the end of that day) or 17:00, in the group's time zone "
        "({zone}).",
    ),
    N_("hw.deadline_past", "That deadline ({date}, {zone}) has passed already: give a later one."),
    NP_(
        "hw.deadline_far",
        "That deadline ({date}, {zone}) is more than {count} day away: give an earlier one.",
        "That deadline ({date}, {zone}) is more than {count} days away: give an earlier one.",
    ),
    N_("hw.unknown_quiz", "I don't know a quiz “{name}”. Quizzes: {banks}"),
    N_(
        "hw.post_failed",
        "I couldn't post the homework here just now (the group's message limit): try again in a "
        "minute.",
    ),
    N_("hw.toast_set", "Homework set"),
    N_("hw.toast_closed", "This homework is closed already."),
    N_("hw.toast_cancelled", "This homework was cancelled."),
    N_("hw.toast_deadline_past", "That deadline has passed already."),
    N_("hw.toast_deadline_far", "That deadline is too far away."),
    # --- /assignments ---
    N_("hw.list_title", "Homework in this group"),
    N_("hw.list_none", "No homework has been set here yet. Admins set some with /assign."),
    # Translators: {finished} is a sentence such as "3 have finished."
    N_("hw.list_open", "#{number} {title}: due {date}, {relative}. {finished}"),
    N_("hw.list_closed", "#{number} {title}: closed on {date}. {finished}"),
    N_("hw.list_zone", "Times in {zone}."),
    N_("hw.button_close", "Close #{number} now"),
    N_("hw.button_extend", "Extend #{number}"),
    N_("hw.button_cancel", "Cancel #{number}"),
    N_("hw.button_report", "Results #{number}"),
    N_("hw.button_back", "Back"),
    N_("hw.extend_ask", "Extend “{title}” (due {date}, {zone}) by:"),
    # Translators: {span} is a span of time such as "1 day".
    N_("hw.extend_by", "+{span}"),
    N_("hw.extended", "The deadline of “{title}” is now {date} ({zone}), {relative}."),
    NP_(
        "hw.cancel_ask",
        "Cancel the homework “{title}”? Nothing of it will count and there will be no results. "
        "The {count} member with an attempt in progress will be told privately.",
        "Cancel the homework “{title}”? Nothing of it will count and there will be no results. "
        "The {count} members with an attempt in progress will be told privately.",
    ),
    N_("hw.button_confirm_cancel", "Yes, cancel it"),
    N_("hw.button_keep", "No, keep it"),
    N_("hw.cancel_done", "The homework “{title}” was cancelled."),
    N_("hw.closed_early", "The homework “{title}” was closed early: the results follow."),
    # --- /timezone ---
    N_(
        "hw.zone_show",
        "This group's time zone: {zone} (it is {time} there now). Admins change it with "
        "/timezone and a zone, such as {examples}.",
    ),
    N_(
        "hw.zone_set",
        "Time zone set: {zone} (it is {time} there now). Deadlines are read and shown in it.",
    ),
    N_("hw.zone_unknown", "I don't know a time zone “{text}”. Give its name, such as {examples}."),
    N_("hw.zone_denied", "Only the group's admins can change its time zone."),
    N_("hw.settings_zone", "Time zone: {zone} (change it with /timezone)"),
)
