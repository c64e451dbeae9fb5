"""The messages of the question of the day: /daily in groups and for channels, the day's post,
its reveal, the weekly leaderboard, the toasts of taps, and the settings."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    # --- the question of the day: /daily (bot/features/daily/handlers.py)
    # ---------------------------
    N_("command_daily", "A question of the day for your channel"),
    # Translators: to a group (its members, in the plural)
    N_("command_group_daily", "A question of the day for the group (admins)"),
    N_("daily_title", "❓ Question of the day"),
    # Translators: to a group (its members, in the plural)
    N_(
        "daily_answer_hint",
        "Tap an option to answer (once). The answer comes with the next question.",
    ),
    N_("daily_reveal_title", "❓ Question of the day: the answer"),
    NP_(
        "daily_answered",
        "{count} answered, {right} of them right",
        "{count} answered, {right} of them right",
    ),
    N_("daily_nobody", "Nobody answered this one."),
    N_("daily_last", "That was the quiz's last question. An admin can start again with /daily."),
    N_("daily_gone", "This question has closed (its quiz is no longer available)."),
    N_("daily_board_title", "🏆 This week's leaderboard"),
    # Translators: to a group (its members, in the plural)
    NP_("daily_board_line", "{count} right of {answered}", "{count} right of {answered}"),
    N_("daily_board_empty", "Nobody got a question right this week. A new week starts now!"),
    # Translators: a toast after a tap on a question of the day; {label} is the option (B)
    N_("daily_recorded", "Recorded: {label}. The answer comes with the next question."),
    N_("daily_already", "You have answered this question already."),
    N_("daily_closed", "This question has closed: its answer is shown in the chat."),
    N_(
        "daily_set",
        "Question of the day is on in {chat}: “{title}”, every day at {time} ({zone}). "
        "The first question comes {when}.",
    ),
    N_(
        "daily_changed",
        "Question of the day in {chat}: “{title}”, every day at {time} ({zone}). "
        "The next question comes {when}.",
    ),
    N_("daily_status_off", "The question of the day in {chat} is off."),
    N_(
        "daily_off",
        "Question of the day in {chat} is off. The last question's answer is still "
        "shown at its time.",
    ),
    # Translators: {syntax} is the command as typed, "/daily <quiz> <HH:MM>"; {off} is
    # "/daily off"
    N_("daily_not_on", "There is no question of the day in {chat}. Start one with {syntax}."),
    # Translators: to a group (its members, in the plural)
    N_(
        "daily_usage",
        "Send {syntax} to post one question a day, e.g. {example} (the time in {zone}); "
        "{off} stops it. Quizzes: {banks}",
    ),
    # Translators: to a group (its members, in the plural)
    N_("daily_admins_only", "Only the group's admins can set the question of the day."),
    N_("daily_unknown_quiz", "I don't know the quiz “{quiz}”. Quizzes: {banks}"),
    N_("daily_bad_time", "“{text}” is not a time of day: write it as {format}, e.g. 09:00."),
    N_(
        "daily_no_questions",
        "This quiz has no question for a question of the day: each of its questions has several "
        "right answers.",
    ),
    N_("daily_choose_channel", "Choose the channel for the question of the day:"),
    N_("daily_choose_channel_off", "Choose the channel whose question of the day to turn off:"),
    N_(
        "daily_no_channels",
        "Add me to your channel as an administrator who may post messages, then send /daily "
        "here again.",
    ),
    N_("daily_not_admin", "You are not an administrator of that channel (any more)."),
    N_(
        "daily_cannot_post",
        "I can't post in {chat}: make me an administrator there who may post messages, then "
        "try again.",
    ),
    N_(
        "daily_lost",
        "I can no longer post in {chat}, so its question of the day has stopped. Make me an "
        "administrator who may post messages again, then send /daily.",
    ),
    N_("daily_then_again", "When the quiz runs out: start over"),
    N_("daily_then_stop", "When the quiz runs out: stop"),
    N_("daily_board_day", "Weekly leaderboard: {day}"),
    N_("daily_board_none", "Weekly leaderboard: none"),
    N_("button_daily_then_again", "🔁 Then: start over"),
    N_("button_daily_then_stop", "⏹ Then: stop"),
    N_("button_daily_board", "🏆 Leaderboard: {day}"),
    N_("button_daily_board_none", "🏆 Leaderboard: none"),
    N_("button_daily_off", "Turn off"),
    N_("daily_setting_saved", "Saved."),
)
