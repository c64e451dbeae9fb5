"""The messages of playing: private quizzes, group sessions, review, stats, settings, privacy."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    N_("greeting", "Hi, {name}! I ask multiple-choice questions and explain every answer."),
    N_("resume", "Welcome back! Let's go on where you left off: question {number} of {total}."),
    N_("question_updated", "This question was updated since you started; here it is as it is now."),
    N_("level.easy", "Easy"),
    N_("level.medium", "Medium"),
    N_("level.hard", "Hard"),
    N_("level_line", "Level: {level}"),
    NP_("question_count", "{count} question", "{count} questions"),
    N_("question_header", "Question {number}/{total}"),
    N_("feedback_correct", "✅ Correct!"),
    N_("feedback_wrong", "❌ Not quite. The correct answer is {label}."),
    # Translators: after a wrong answer to a true/false question whose statement is true
    N_("feedback_wrong_true", "❌ Not quite. The statement is true."),
    # Translators: after a wrong answer to a true/false question whose statement is false
    N_("feedback_wrong_false", "❌ Not quite. The statement is false."),
    N_("your_answer", "your answer"),
    N_("source", "Source: {source}"),
    N_("button_next", "Next question ▶"),
    N_("button_results", "See my score 🏁"),
    N_("button_retake", "🔁 Retake the quiz"),
    N_("button_review", "📖 Review what I missed"),
    N_("result_title", "Quiz complete!"),
    N_("result_score", "Your score: {score}/{total}"),
    N_("result_perfect", "A perfect score. Well done!"),
    N_("result_missed", "Questions you missed:"),
    N_("review_header", "The questions you missed, with their answers:"),
    N_("review_none", "You didn't miss a single question: nothing to review."),
    N_("language_prompt", "Choose your language:"),
    N_("language_set", "From now on I'll speak English with you."),
    N_("preview_header", "Preview"),
    N_(
        "preview_footer",
        "Answers and explanations appear as you take the quiz. Send /quiz to start.",
    ),
    N_("stats_none", "You haven't finished a quiz yet. Send /quiz to start one."),
    N_("stats_header", "Your scores"),
    NP_("stats_attempts", "{count} attempt", "{count} attempts"),
    N_("stats_scores", "best {best}/{total}, last {last}/{total}"),
    N_("stats_most_missed", "Most missed:"),
    NP_("stats_missed_times", "missed {count} time", "missed {count} times"),
    N_("stop_done", "Quiz stopped. Send /quiz whenever you want to start again."),
    N_("stop_none", "There is no quiz running. Send /quiz to start one."),
    N_("choose_bank", "Which quiz would you like to take?"),
    N_("unknown_bank", "I don't have a quiz called “{name}”. Here is what I have:"),
    # Translators: a link to a quiz someone made that was deleted or taken down by its maker
    N_(
        "quiz_gone",
        "This quiz is no longer available: the person who made it deleted it or took it down. "
        "Here is what I have:",
    ),
    N_(
        "unknown_text",
        "I understand commands and button taps. Send /quiz to start a quiz, or /help to see what "
        "I can do.",
    ),
    N_(
        "help",
        "I ask multiple-choice questions, one at a time. Tap a letter to answer: I tell you right "
        "away whether you were right and explain why.\n"
        "\n"
        "/quiz: start a quiz from the beginning\n"
        "/start: start or go on with your quiz\n"
        "/preview: see the questions before you start\n"
        "/stats: your scores and the questions you miss most\n"
        "/review: review the questions that are due (spaced repetition)\n"
        "/remind: a daily reminder when questions are due (off by default)\n"
        "/language: change the language\n"
        "/stop: stop the current quiz\n"
        "/deletemydata: delete everything I keep about you\n"
        "/help: this message",
    ),
    N_(
        "help_creators",
        "Make your own quiz:\n"
        "/newquiz: make a quiz by sending quiz polls or typed questions, or send me a quiz file "
        "(an Excel sheet, a Word document, a PDF or a text of numbered questions; YAML, GIFT, "
        "Aiken or CSV)\n"
        "/template: an Excel sheet to fill in with your questions\n"
        "/myquizzes: your quizzes: play, share, edit, export, results",
    ),
    N_("toast_stale", "That question is closed: answer the one below."),
    N_("toast_answered", "You've already answered this question."),
    N_("toast_closed", "This quiz is over. Send /quiz to start a new one."),
    N_("toast_bank_changed", "This quiz has changed in the meantime. Send /quiz to start again."),
    N_(
        "slow_down",
        "You're going a little fast: some of your messages were skipped. Please wait a few "
        "seconds, then try again.",
    ),
    N_("toast_invalid", "This button no longer works. Send /quiz to start a quiz."),
    N_("toast_not_answered", "Answer the question first."),
    N_("storage_failed", "Sorry, I couldn't record that. Please tap again in a moment."),
    N_("command_start", "Start or go on with the quiz"),
    N_("command_quiz", "Start a quiz from the beginning"),
    N_("command_preview", "Preview the questions"),
    N_("command_stats", "Your scores"),
    N_("command_language", "Change the language"),
    N_("command_stop", "Stop the current quiz"),
    N_("command_help", "How to use this bot"),
    N_("play_prompt", "Your answer (A-D), or q to quit: "),
    N_("play_invalid", "Please type one of A, B, C or D (or q to quit)."),
    N_("play_continue", "Press Enter to go on (q to quit): "),
    N_("play_quit", "Bye! Your progress is saved: run {command} again to go on."),
    # Translators: to a group (its members, in the plural)
    N_(
        "group_announce",
        "🎯 Group quiz, started by {name}. Everyone may answer each question once; the correct "
        "answer is revealed when time is up.",
    ),
    NP_("group_seconds", "⏱ {count} second per question", "⏱ {count} seconds per question"),
    N_(
        "group_recorded", "Answer {label} recorded. The correct answer is revealed when time is up."
    ),
    N_("group_too_late", "Time is up for that question."),
    NP_("group_answer_count", "{count} answer", "{count} answers"),
    N_("group_leaderboard", "🏆 Leaderboard"),
    N_("group_no_players", "Nobody answered this time."),
    NP_("group_more_players", "… and {count} more player", "… and {count} more players"),
    N_("button_my_place", "🙋 My place"),
    N_(
        "group_your_place",
        "🏆 Your place: {rank} of {players}. Score: {score}/{total} · {seconds} s",
    ),
    N_("group_not_played", "You didn't answer any question in this quiz."),
    N_("group_score_line", "{score}/{total} · {seconds} s"),
    N_(
        "group_running",
        "A quiz is already running in this chat. Whoever started it, or an admin, can /stop it.",
    ),
    N_("group_stopped", "⏹ Quiz stopped by {name}."),
    N_("group_stop_denied", "Only whoever started the quiz, or a group admin, can stop it."),
    # Translators: to a group (its members, in the plural)
    N_(
        "group_ended_error",
        "⚠️ The quiz had to end here: I could not go on with it in this chat. Answers so far are "
        "kept; send /quiz to start a new one.",
    ),
    N_("group_language_denied", "Only group admins can change the group's language."),
    # Translators: to a group (its members, in the plural)
    N_("group_language_set", "From now on I'll speak English in this group."),
    N_("group_choose_bank", "Which quiz? Send /quiz followed by one of: {banks}"),
    # Translators: to a group (its members, in the plural)
    N_(
        "group_help",
        "I run live quizzes for everyone in this group. Each question stays open for a while: tap "
        "a letter to answer (once). When time is up I reveal the correct answer and explain it; "
        "at the end comes the leaderboard.\n"
        "\n"
        "/quiz: start a quiz for the group\n"
        "/stop: stop the quiz (whoever started it, or an admin)\n"
        "/language: set the group's language (admins)\n"
        "/settings: the group's quiz settings (admins)\n"
        "/results: the last quiz's results, sent to you privately (admins)\n"
        "/help: this message",
    ),
    N_("toast_not_admin", "Only group admins can do that."),
    N_("command_group_quiz", "Start a quiz for the whole group"),
    N_("command_group_stop", "Stop the group's quiz"),
    N_("command_group_language", "Set the group's language (admins)"),
    N_("command_group_help", "How group quizzes work"),
    N_("play_prompt_letters", "Your answer (A-{last}), or q to quit: "),
    N_("play_invalid_letters", "Please type a letter from A to {last} (or q to quit)."),
    N_(
        "play.one_letter",
        "This question has one right answer: type one letter from A to {last} (or q to quit).",
    ),
    NP_(
        "reload_done",
        "Quizzes reloaded: {count} in service.",
        "Quizzes reloaded: {count} in service.",
    ),
    N_("reload_added", "New: {bank} (version {version})"),
    N_("reload_updated", "Updated: {bank} (version {old} → {new})"),
    N_(
        "reload_unbumped",
        "Updated: {bank}, but still version {version}: raise `version` in its file whenever "
        "you change its questions.",
    ),
    N_("reload_removed", "Removed: {bank} (its file is gone)"),
    NP_("reload_unchanged", "{count} quiz unchanged", "{count} quizzes unchanged"),
    N_("reload_kept", "Kept: {bank} (version {version}), because its file has problems"),
    NP_(
        "reload_failed",
        "{count} problem; the quizzes concerned keep their previous version in service:",
        "{count} problems; the quizzes concerned keep their previous version in service:",
    ),
    N_("deleted_user", "deleted user"),
    N_(
        "deletemydata_confirm",
        "Delete everything I keep about you? That is your quiz answers and attempts, your scores, "
        "your review cards and reminder, and your language choice. On the leaderboards of group "
        "quizzes you played, you will be shown as “deleted user”.\n"
        "\n"
        "This cannot be undone.",
    ),
    N_("button_delete_confirm", "🗑 Delete my data"),
    N_("button_delete_cancel", "Keep it"),
    N_(
        "deletemydata_done",
        "Done: your answers, attempts, scores, review cards, reminder and language choice are "
        "deleted. If you send me a command again, I start afresh.",
    ),
    N_("deletemydata_cancelled", "Nothing was deleted."),
    N_(
        "deletemydata_expired",
        "This button no longer works: nothing was deleted. Send /deletemydata to be asked again.",
    ),
    N_(
        "deletemydata_failed",
        "Sorry, I couldn't delete your data just now: nothing was deleted. Send /deletemydata "
        "to try again in a moment.",
    ),
    # /deletemydata: the quizzes a user made, and their draft
    N_("deletemydata_draft", "The quiz you have started making and not finished is deleted too."),
    NP_(
        "deletemydata_quizzes",
        "You also made {count} quiz. Delete it too, or keep it playable for whoever has its "
        "link, shown without your name? If you keep it, nobody can edit it any more.",
        "You also made {count} quizzes. Delete them too, or keep them playable for whoever has "
        "their links, shown without your name? If you keep them, nobody can edit them any "
        "more.",
    ),
    N_("button_delete_with_quizzes", "🗑 Delete my data and my quizzes"),
    N_("button_delete_keep_quizzes", "🗑 Delete my data, keep my quizzes (shown without my name)"),
    NP_(
        "deletemydata_quizzes_deleted",
        "The {count} quiz you made is deleted.",
        "The {count} quizzes you made are deleted.",
    ),
    NP_(
        "deletemydata_quizzes_kept",
        "The {count} quiz you made stays playable, shown without your name.",
        "The {count} quizzes you made stay playable, shown without your name.",
    ),
    N_("command_review", "Review the questions that are due"),
    N_("command_remind", "Daily review reminder on or off"),
    NP_("review_due", "🔁 Review · {count} question due", "🔁 Review · {count} questions due"),
    N_("review_due_many", "🔁 Review · over 99 questions due"),
    N_("review_next_in", "Next review {when}."),
    N_("review_all_done", "🎉 Nothing else is due."),
    N_(
        "review_none_yet",
        "You have nothing to review yet: every question you answer in a quiz becomes a review "
        "card. Send /quiz to start.",
    ),
    N_("review_nothing_due", "Nothing is due for review. Next review {when}."),
    N_("button_review_next", "Next question ▶"),
    N_("button_review_start", "🔁 Review now"),
    N_("toast_card_reviewed", "You've already reviewed this question."),
    N_("toast_card_gone", "This question is no longer available."),
    N_(
        "remind_on",
        "🔔 Daily reminder on: once a day, only when questions are due, at about the time you "
        "usually study. Send /remind again to turn it off.",
    ),
    N_("remind_off", "🔕 Daily reminder off. Send /remind to turn it on again."),
    NP_(
        "reminder",
        "🔔 {count} question is due for review.",
        "🔔 {count} questions are due for review.",
    ),
    N_("reminder_many", "🔔 Over 99 questions are due for review."),
    N_("result_improved", "{before}/{before_total} → {score}/{total}, your best!"),
    N_("result_best", "Your best so far: {best}/{best_total}."),
    NP_("stats_due", "🔁 {count} question due for review", "🔁 {count} questions due for review"),
    N_("chart_scores", "Score per quiz (%)"),
    N_("chart_known", "How well you know each question (%)"),
    N_("chart_question", "Question"),
    N_(
        "group_scoring_speed",
        "⚡ Points for right answers: the faster, the more, plus a bonus for a streak of right "
        "answers.",
    ),
    N_("group_scoring_right", "✅ One point per right answer."),
    NP_("group_clock", "⏱ {count} s", "⏱ {count} s"),
    NP_("group_clock_left", "⏱ {count} s left", "⏱ {count} s left"),
    N_("button_in_my_language", "📖 Explanation in my language"),
    # Translators: {points} is the number of points, {count} the same number rounded (it
    # picks the form); {streak}: the most right answers in a row
    NP_(
        "group_points_line",
        "{points} pt · {right}/{total} right · 🔥 {streak}",
        "{points} pts · {right}/{total} right · 🔥 {streak}",
    ),
    # Translators: {points} is the number of points, {count} the same number rounded (it
    # picks the form); {rank}: the player's place
    NP_(
        "group_your_place_points",
        "🏆 Your place: {rank} of {players}. {points} point · {right}/{total} right · longest "
        "streak {streak}",
        "🏆 Your place: {rank} of {players}. {points} points · {right}/{total} right · longest "
        "streak {streak}",
    ),
    N_(
        "question_not_available",
        "That question can't be shown: it is still open in its group, or its quiz has changed "
        "since.",
    ),
    N_("settings_title", "⚙️ Group settings"),
    N_("settings_who", "Who can start and stop quizzes: {value}"),
    N_("settings_who_everyone", "Everyone"),
    N_("settings_who_admins", "Admins only"),
    NP_("settings_seconds", "Seconds per question: {count}", "Seconds per question: {count}"),
    NP_("settings_seconds_button", "{count} s", "{count} s"),
    N_("settings_scoring", "Scoring: {value}"),
    N_("settings_scoring_speed", "⚡ Speed and streaks"),
    N_("settings_scoring_right", "✅ Right answers only"),
    N_("settings_bank", "Quiz: {value}"),
    N_("settings_bank_ask", "ask each time"),
    N_("settings_bank_missing", "no longer installed (ask each time)"),
    N_("settings_language", "Language: {value}"),
    N_("settings_count", "Questions per quiz: {value}"),
    N_("settings_count_all", "All"),
    N_("settings_hint", "Changes apply to the next quiz. Only group admins can change them."),
    N_("settings_denied", "Only group admins can change the group's settings."),
    N_("settings_saved", "Saved. It applies to the next quiz."),
    N_("settings_stale", "This menu is out of date: send /settings for the current one."),
    N_("settings_invalid", "That setting can't be chosen."),
    N_("group_start_denied", "In this group only admins can start quizzes (see /settings)."),
    N_("results_denied", "Only group admins can get the results."),
    # Translators: to a group (its members, in the plural)
    N_(
        "results_none", "No quiz has ended in this group yet: the results come after the first one."
    ),
    N_("results_sent", "{name}, I've sent you the results of the last quiz privately."),
    N_(
        "results_open_bot",
        "{name}, I can't write to you first: open a private chat with me, press Start, then send "
        "/results here again.",
    ),
    N_(
        "results_anonymous",
        "I can't tell who you are while you post anonymously: send /results as yourself to get "
        "the results privately.",
    ),
    N_("button_open_bot", "🤖 Open a chat with me"),
    N_("results_title", "📊 Results: {title}"),
    # Translators: {players} is "5 players" (quizzes.results_players), {questions} is
    # "8 questions" (question_count)
    N_("results_meta", "{date} · {players} · {questions}"),
    N_(
        "results_question_line",
        "{number}. {prompt}: {right}/{answers} right · {seconds} s on average",
    ),
    N_("results_caption", "One row per member and question."),
    N_("command_group_settings", "Group quiz settings (admins)"),
    N_("command_group_results", "Results of the last quiz (admins)"),
    N_("inline.button_start", "▶️ Start quiz"),
    N_("inline.button_start_group", "👥 Start in this group"),
    N_("inline.button_share", "📤 Share this quiz"),
    N_("inline.card_hint", "Tap “Start quiz” to take it in a private chat with @{bot}."),
    N_(
        "inline.card_hint_group",
        "Tap “Start quiz” to take it on your own with @{bot}, or “Start in this group” to play it "
        "here together.",
    ),
    N_("inline.no_match", "No quiz matches. See all quizzes"),
    N_(
        "inline.group_unknown_bank",
        "I don't have a quiz called “{name}”. Send /quiz followed by one of: {banks}",
    ),
    N_(
        "settings.bank_gone",
        "The quiz chosen in /settings (“{name}”) is no longer installed. Send /quiz followed by "
        "one of: {banks}, or choose another quiz in /settings.",
    ),
    # Translators: to a group (its members, in the plural)
    N_(
        "settings.bank_gone_started",
        "The quiz chosen in /settings (“{name}”) is no longer installed, so I am starting "
        "“{title}”.",
    ),
    # question kinds: several right options (tick, then Submit), true/false
    N_("select_all", "Select all that apply, then tap Submit."),
    N_("button_submit", "✔ Submit"),
    N_("option_true", "True"),
    # Translators: above a question whose picture Telegram could not send (a broken link)
    N_("picture_not_shown", "🖼 The picture for this question could not be shown."),
    N_("option_false", "False"),
    N_("feedback_wrong_several", "❌ Not quite. The right options are {labels}."),
    N_("toast_nothing_chosen", "Tick at least one option, then tap Submit."),
    N_("group_ticked", "Your choice so far: {labels}. Tap Submit when you're done."),
    N_("group_ticked_none", "Nothing ticked yet. Tick options, then tap Submit."),
)
