"""The messages of quizbot's user interface, in English: the source of every translation.

Each message has a key (``greeting``, ``level.hard``), used by the code
(``catalog(language)("greeting", name=...)``) and, in the gettext catalogs, as the message's
context (``msgctxt``); its English text is the message id (``msgid``) that translators
translate. Texts are plain text (the renderer escapes them) with ``{name}`` placeholders
(Python's ``str.format``); a plural message (``NP_``) has a singular and a plural English text
and is chosen by its ``count`` parameter with the Plural-Forms rule of each language's catalog.

``pybabel extract`` (configured in pyproject.toml: keywords ``N_:1c,2`` and ``NP_:1c,2,3``) reads
this file into ``locales/messages.pot``; see the README's "Translating" section. A comment
starting with ``Translators:`` just above a message reaches the translators in the catalogs.
"""

from __future__ import annotations

from typing import NamedTuple


class Text(NamedTuple):
    """A message with one text.

    Attributes:
        key: The message's key (its gettext context).
        text: The English text (its gettext message id).
    """

    key: str
    text: str


class Plural(NamedTuple):
    """A message whose text depends on a number, its ``count`` parameter.

    Attributes:
        key: The message's key (its gettext context).
        singular: The English text for a count of 1.
        plural: The English text for any other count.
    """

    key: str
    singular: str
    plural: str


def N_(key: str, text: str) -> Text:
    """Declare a message ``key`` with the English ``text`` (extracted as ``N_:1c,2``)."""
    return Text(key, text)


def NP_(key: str, singular: str, plural: str) -> Plural:
    """Declare a plural message ``key`` with its English forms (extracted as ``NP_:1c,2,3``)."""
    return Plural(key, singular, plural)


def _by_key(*messages: Text | Plural) -> dict[str, Text | Plural]:
    """Index ``messages`` by key.

    Raises:
        ValueError: two messages share a key (gettext would merge them into one entry).
    """
    index: dict[str, Text | Plural] = {}
    for message in messages:
        if message.key in index:
            raise ValueError(f"two messages have the key {message.key!r}")
        index[message.key] = message
    return index


MESSAGES: dict[str, Text | Plural] = _by_key(
    N_("greeting", "Hi, {name}! I ask multiple-choice questions and explain every answer."),
    N_("resume", "Welcome back! Let's go on where you left off: question {number} of {total}."),
    N_("question_updated",
       "This question was updated since you started; here it is as it is now."),
    N_("level.easy", "Easy"),
    N_("level.medium", "Medium"),
    N_("level.hard", "Hard"),
    N_("level_line", "Level: {level}"),
    NP_("question_count", "{count} question", "{count} questions"),
    N_("question_header", "Question {number}/{total}"),
    N_("feedback_correct", "✅ Correct!"),
    N_("feedback_wrong", "❌ Not quite. The correct answer is {label}."),
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
    N_("preview_footer",
       "Answers and explanations appear as you take the quiz. Send /quiz to start."),
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
    N_("unknown_text",
       "I understand commands and button taps. Send /quiz to start a quiz, or /help to see what "
       "I can do."),
    N_("help",
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
       "/help: this message"),
    N_("help_creators",
       "Make your own quiz:\n"
       "/newquiz: make a quiz by sending quiz polls or typed questions, or send me a quiz file "
       "(YAML, GIFT, Aiken or CSV)\n"
       "/myquizzes: your quizzes: play, share, edit, export, results"),
    N_("toast_stale", "That question is closed: answer the one below."),
    N_("toast_answered", "You've already answered this question."),
    N_("toast_closed", "This quiz is over. Send /quiz to start a new one."),
    N_("toast_bank_changed", "This quiz has changed in the meantime. Send /quiz to start again."),
    N_("slow_down",
       "You're going a little fast: some of your messages were skipped. Please wait a few "
       "seconds, then try again."),
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
    N_("play_quit", "Bye! Your progress is saved: run quizbot play again to go on."),
    N_("group_announce",
       "🎯 Group quiz, started by {name}. Everyone may answer each question once; the correct "
       "answer is revealed when time is up."),
    NP_("group_seconds", "⏱ {count} second per question", "⏱ {count} seconds per question"),
    N_("group_recorded",
       "Answer {label} recorded. The correct answer is revealed when time is up."),
    N_("group_too_late", "Time is up for that question."),
    NP_("group_answer_count", "{count} answer", "{count} answers"),
    N_("group_leaderboard", "🏆 Leaderboard"),
    N_("group_no_players", "Nobody answered this time."),
    NP_("group_more_players", "… and {count} more player", "… and {count} more players"),
    N_("button_my_place", "🙋 My place"),
    N_("group_your_place",
       "🏆 Your place: {rank} of {players}. Score: {score}/{total} · {seconds} s"),
    N_("group_not_played", "You didn't answer any question in this quiz."),
    N_("group_score_line", "{score}/{total} · {seconds} s"),
    N_("group_running",
       "A quiz is already running in this chat. Whoever started it, or an admin, can /stop it."),
    N_("group_stopped", "⏹ Quiz stopped by {name}."),
    N_("group_stop_denied", "Only whoever started the quiz, or a group admin, can stop it."),
    N_("group_ended_error",
       "⚠️ The quiz had to end here: I could not go on with it in this chat. Answers so far are "
       "kept; send /quiz to start a new one."),
    N_("group_language_denied", "Only group admins can change the group's language."),
    N_("group_language_set", "From now on I'll speak English in this group."),
    N_("group_choose_bank", "Which quiz? Send /quiz followed by one of: {banks}"),
    N_("group_help",
       "I run live quizzes for everyone in this group. Each question stays open for a while: tap "
       "a letter to answer (once). When time is up I reveal the correct answer and explain it; "
       "at the end comes the leaderboard.\n"
       "\n"
       "/quiz: start a quiz for the group\n"
       "/stop: stop the quiz (whoever started it, or an admin)\n"
       "/language: set the group's language (admins)\n"
       "/settings: the group's quiz settings (admins)\n"
       "/results: the last quiz's results, sent to you privately (admins)\n"
       "/help: this message"),
    N_("toast_not_admin", "Only group admins can do that."),
    N_("command_group_quiz", "Start a quiz for the whole group"),
    N_("command_group_stop", "Stop the group's quiz"),
    N_("command_group_language", "Set the group's language (admins)"),
    N_("command_group_help", "How group quizzes work"),
    N_("play_prompt_letters", "Your answer (A-{last}), or q to quit: "),
    N_("play_invalid_letters", "Please type a letter from A to {last} (or q to quit)."),
    NP_("reload_done",
        "Quizzes reloaded: {count} in service.",
        "Quizzes reloaded: {count} in service."),
    N_("reload_added", "New: {bank} (version {version})"),
    N_("reload_updated", "Updated: {bank} (version {old} → {new})"),
    N_("reload_removed", "Removed: {bank} (its file is gone)"),
    NP_("reload_unchanged", "{count} quiz unchanged", "{count} quizzes unchanged"),
    N_("reload_kept", "Kept: {bank} (version {version}), because its file has problems"),
    NP_("reload_failed",
        "{count} problem; the quizzes concerned keep their previous version in service:",
        "{count} problems; the quizzes concerned keep their previous version in service:"),
    N_("deleted_user", "deleted user"),
    N_("deletemydata_confirm",
       "Delete everything I keep about you? That is your quiz answers and attempts, your scores, "
       "your review cards and reminder, and your language choice. On the leaderboards of group "
       "quizzes you played, you will be shown as “deleted user”.\n"
       "\n"
       "This cannot be undone."),
    N_("button_delete_confirm", "🗑 Delete my data"),
    N_("button_delete_cancel", "Keep it"),
    N_("deletemydata_done",
       "Done: your answers, attempts, scores, review cards, reminder and language choice are "
       "deleted. If you send me a command again, I start afresh."),
    N_("deletemydata_cancelled", "Nothing was deleted."),
    N_("deletemydata_expired",
       "This button no longer works: nothing was deleted. Send /deletemydata to be asked "
       "again."),
    N_("deletemydata_failed",
       "Sorry, I couldn't delete your data just now: nothing was deleted. Send /deletemydata "
       "to try again in a moment."),
    # /deletemydata: the quizzes a user made, and their draft
    N_("deletemydata_draft", "The quiz you have started making and not finished is deleted too."),
    NP_("deletemydata_quizzes",
        "You also made {count} quiz. Delete it too, or keep it playable for whoever has its "
        "link, shown without your name? If you keep it, nobody can edit it any more.",
        "You also made {count} quizzes. Delete them too, or keep them playable for whoever has "
        "their links, shown without your name? If you keep them, nobody can edit them any "
        "more."),
    N_("button_delete_with_quizzes", "🗑 Delete my data and my quizzes"),
    N_("button_delete_keep_quizzes", "🗑 Delete my data, keep my quizzes (shown without my name)"),
    NP_("deletemydata_quizzes_deleted", "The {count} quiz you made is deleted.",
        "The {count} quizzes you made are deleted."),
    NP_("deletemydata_quizzes_kept",
        "The {count} quiz you made stays playable, shown without your name.",
        "The {count} quizzes you made stay playable, shown without your name."),
    N_("command_review", "Review the questions that are due"),
    N_("command_remind", "Daily review reminder on or off"),
    NP_("review_due", "🔁 Review · {count} question due", "🔁 Review · {count} questions due"),
    N_("review_due_many", "🔁 Review · over 99 questions due"),
    N_("review_next_in", "Next review {when}."),
    N_("review_all_done", "🎉 Nothing else is due."),
    N_("review_none_yet",
       "You have nothing to review yet: every question you answer in a quiz becomes a review "
       "card. Send /quiz to start."),
    N_("review_nothing_due", "Nothing is due for review. Next review {when}."),
    N_("button_review_next", "Next question ▶"),
    N_("button_review_start", "🔁 Review now"),
    N_("toast_card_reviewed", "You've already reviewed this question."),
    N_("toast_card_gone", "This question is no longer available."),
    N_("remind_on",
       "🔔 Daily reminder on: once a day, only when questions are due, at about the time you "
       "usually study. Send /remind again to turn it off."),
    N_("remind_off", "🔕 Daily reminder off. Send /remind to turn it on again."),
    NP_("reminder",
        "🔔 {count} question is due for review.",
        "🔔 {count} questions are due for review."),
    N_("reminder_many", "🔔 Over 99 questions are due for review."),
    N_("result_improved", "{before}/{before_total} → {score}/{total}, your best!"),
    N_("result_best", "Your best so far: {best}/{best_total}."),
    NP_("stats_due", "🔁 {count} question due for review", "🔁 {count} questions due for review"),
    N_("chart_scores", "Score per quiz (%)"),
    N_("chart_known", "How well you know each question (%)"),
    N_("chart_question", "Question"),
    N_("group_scoring_speed",
       "⚡ Points for right answers: the faster, the more, plus a bonus for a streak of right "
       "answers."),
    N_("group_scoring_right", "✅ One point per right answer."),
    NP_("group_clock", "⏱ {count} s", "⏱ {count} s"),
    NP_("group_clock_left", "⏱ {count} s left", "⏱ {count} s left"),
    N_("button_in_my_language", "📖 Explanation in my language"),
    N_("group_points_line", "{points} pts · {right}/{total} right · 🔥 {streak}"),
    N_("group_your_place_points",
       "🏆 Your place: {rank} of {players}. {points} points · {right}/{total} right · longest "
       "streak {streak}"),
    N_("question_not_available",
       "That question can't be shown: it is still open in its group, or its quiz has changed "
       "since."),
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
    N_("results_none",
       "No quiz has ended in this group yet: the results come after the first one."),
    N_("results_sent", "{name}, I've sent you the results of the last quiz privately."),
    N_("results_open_bot",
       "{name}, I can't write to you first: open a private chat with me, press Start, then send "
       "/results here again."),
    N_("results_anonymous",
       "I can't tell who you are while you post anonymously: send /results as yourself to get "
       "the results privately."),
    N_("button_open_bot", "🤖 Open a chat with me"),
    N_("results_title", "📊 Results: {title}"),
    N_("results_meta", "{date} · {players} players · {questions} questions"),
    N_("results_question_line",
       "{number}. {prompt}: {right}/{answers} right · {seconds} s on average"),
    N_("results_caption", "One row per member and question."),
    N_("command_group_settings", "Group quiz settings (admins)"),
    N_("command_group_results", "Results of the last quiz (admins)"),
    N_("inline.button_start", "▶️ Start quiz"),
    N_("inline.button_start_group", "👥 Start in this group"),
    N_("inline.button_share", "📤 Share this quiz"),
    N_("inline.card_hint", "Tap “Start quiz” to take it in a private chat with @{bot}."),
    N_("inline.card_hint_group",
       "Tap “Start quiz” to take it on your own with @{bot}, or “Start in this group” to play it "
       "here together."),
    N_("inline.no_match", "No quiz matches. See all quizzes"),
    N_("inline.group_unknown_bank",
       "I don't have a quiz called “{name}”. Send /quiz followed by one of: {banks}"),
    N_("settings.bank_gone",
       "The quiz chosen in /settings (“{name}”) is no longer installed. Send /quiz followed by "
       "one of: {banks}, or choose another quiz in /settings."),
    N_("settings.bank_gone_started",
       "The quiz chosen in /settings (“{name}”) is no longer installed, so I am starting "
       "“{title}”."),
    # /newquiz: making a quiz by chatting (bot/telegram/creators.py, bot/render/creators.py)
    N_("command_newquiz", "Make a quiz of your own"),
    N_("newquiz.ask_title",
       "Let's make a quiz! First, send me its title.\n"
       "\n"
       "(/cancel stops and deletes the draft.)"),
    N_("newquiz.ask_description",
       "Now a short description of the quiz (one or two sentences), or /skip."),
    N_("newquiz.ask_questions",
       "Now send the questions, one message each, and /done when you have them all.\n"
       "\n"
       "📊 A quiz poll: tap the button below (or send or forward any quiz poll).\n"
       "✍️ Or type a question: the question on the first line, then one option per line, the "
       "right one marked with *, and an explanation line starting with > if you like:\n"
       "\n"
       "{example}\n"
       "\n"
       "Several options marked with * make a question with several right answers; *True and "
       "False make a true/false question. A photo sent just before a question becomes its "
       "picture. Reply to a question with a longer explanation, or with a corrected question "
       "to replace it."),
    N_("newquiz.example",
       "What is the capital of Greece?\n"
       "Sparta\n"
       "*Athens\n"
       "Thessaloniki\n"
       "> Athens has been the capital since 1834."),
    N_("newquiz.button_poll", "📊 Make a quiz poll"),
    N_("newquiz.draft_open",
       "You already have a quiz in the making: “{title}”, {questions}. Go on with it, or start "
       "over (the draft is then deleted)?"),
    N_("newquiz.untitled", "untitled"),
    N_("newquiz.button_continue", "▶️ Go on"),
    N_("newquiz.button_restart", "🗑 Start over"),
    N_("newquiz.added", "✅ Question {number} added: {prompt}"),
    N_("newquiz.added_several", "Several options are right: players choose all that apply."),
    N_("newquiz.added_true_false", "A true/false question."),
    N_("newquiz.added_picture", "With its picture."),
    N_("newquiz.added_no_explanation",
       "No explanation yet: reply to this message with one (players see it after answering)."),
    N_("newquiz.added_hint", "Send the next question, or /done."),
    N_("newquiz.button_undo", "↩️ Undo"),
    N_("newquiz.undone", "↩️ Question {number} taken out."),
    N_("newquiz.ask_right", "Which option is right?"),
    N_("newquiz.ask_right_several", "Which options are right? Tap each, then “Done”."),
    N_("newquiz.button_right_done", "✔️ Done"),
    N_("newquiz.explanation_added", "📝 Explanation of question {number} saved."),
    N_("newquiz.replaced", "✏️ Question {number} replaced."),
    N_("newquiz.picture_kept", "🖼 Photo saved: it goes with the next question you send."),
    N_("newquiz.flooded",
       "That's a lot of questions at once: I take up to 20 a minute. Wait a moment, then send "
       "the ones I haven't confirmed again."),
    N_("newquiz.stale", "This button no longer applies: nothing changed."),
    N_("newquiz.undo_stale",
       "Only the last question can be undone, and only once: nothing changed."),
    N_("newquiz.no_draft", "You have no quiz in the making. Send /newquiz to start one."),
    N_("newquiz.cancelled", "Draft deleted. Send /newquiz to start again."),
    N_("newquiz.no_description", "A quiz made in Telegram."),
    N_("newquiz.published", "🎉 Your quiz “{title}” is ready: {questions}."),
    N_("newquiz.published_link", "Anyone with this link can play it: {link}"),
    N_("newquiz.published_hint",
       "Share it in a chat, or start it in a group to play it together. /myquizzes lists your "
       "quizzes."),
    N_("newquiz.button_play", "▶️ Play it"),
    N_("newquiz.button_share", "📤 Share"),
    N_("newquiz.button_group", "👥 Start in a group"),
    N_("newquiz.rejected", "I can't publish the quiz yet. Please fix this, then send /done again:"),
    N_("newquiz.rejected_question", "Question {number}: {problem}"),
    N_("newquiz.rejected_hint",
       "To fix a question, reply to it with the corrected question, or with its explanation; "
       "Undo takes out the last one. Your draft is kept."),
    N_("newquiz.problem.title_empty", "The title can't be empty: send me the title."),
    N_("newquiz.problem.title_too_long",
       "That title is {size} characters long; a title has at most {limit}."),
    N_("newquiz.problem.description_too_long",
       "That description is {size} characters long; a description has at most {limit}."),
    N_("newquiz.problem.not_a_question",
       "I couldn't read a question there. Put the question on the first line and each option on "
       "a line of its own, the right one marked with *:\n"
       "\n"
       "{example}"),
    N_("newquiz.problem.prompt_too_long",
       "That question is {size} characters long; a question has at most {limit}."),
    N_("newquiz.problem.too_few_options", "A question needs at least {limit} options."),
    N_("newquiz.problem.too_many_options",
       "That question has {count} options; a question has at most {limit}."),
    N_("newquiz.problem.option_empty", "Option {number} is empty."),
    N_("newquiz.problem.option_too_long",
       "Option {number} is {size} characters long; an option has at most {limit}."),
    N_("newquiz.problem.options_duplicate", "Options {other} and {number} are the same."),
    N_("newquiz.problem.no_right_option",
       "Which option is right? Mark it with * at the start of its line."),
    N_("newquiz.problem.all_right",
       "Every option is marked right: at least one must be wrong, or there is nothing to "
       "choose."),
    N_("newquiz.problem.question_too_long",
       "That question is {size} characters long with its options and explanation; at most "
       "{limit} fit in one message."),
    N_("newquiz.problem.too_many_questions",
       "The quiz has {limit} questions, as many as a quiz may have. Send /done to publish it."),
    N_("newquiz.problem.answer_pending",
       "First tell me which option is right in the poll above."),
    N_("newquiz.problem.questions_first",
       "Questions come after the title and the description: answer the question above first."),
    N_("newquiz.problem.no_questions",
       "The quiz has no questions yet: send at least one, then /done."),
    N_("newquiz.problem.explanation_too_long",
       "That explanation is too long for question {number}: with the question and its "
       "options, at most {limit} characters fit."),
    N_("newquiz.problem.choose_one", "Tap at least one right option first."),
    # --- created quizzes: managing them (/myquizzes, documents sent to the bot, problems) ---
    # Translators: the problems below follow a field of a quiz file, e.g. "option 2.text: is
    # missing"; keep the keys of the file (id, prompt, options, correct, ...) as they are.
    N_("problem.invalid", "is not valid here"),
    N_("problem.missing", "is missing"),
    N_("problem.not_mapping", "must be a list of keys with their values"),
    N_("problem.unknown_key", "is not a key I know (allowed: {allowed})"),
    N_("problem.not_text", "must be a text that is not empty"),
    N_("problem.not_url", "must be an http(s) link"),
    N_("problem.control_character",
       "contains an invisible control character (U+{code}) at character {position}: only plain "
       "text, tabs and line breaks are allowed"),
    N_("problem.bad_id", "must be 1 to 32 characters of a-z, 0-9 and “-”"),
    N_("problem.bad_version", "must be a whole number from 1 up"),
    N_("problem.bad_languages", "must be a list of language codes such as “en”"),
    N_("problem.language_twice", "lists a language twice"),
    N_("problem.bad_default_language", "must be one of the quiz's languages: {languages}"),
    N_("problem.bad_level", "must be one of: {levels}"),
    N_("problem.guide_label_long", "must be at most {limit} characters (it is a button)"),
    N_("problem.no_questions", "must be a list with at least one question"),
    N_("problem.too_many_questions", "has {count} questions; a quiz may have at most {limit}"),
    N_("problem.duplicate_id", "is already the id of question {number}"),
    N_("problem.option_count", "must be a list of {low} to {high} options"),
    N_("problem.not_boolean", "must be true or false, without quotes"),
    N_("problem.no_correct", "must have at least one option with “correct: true”"),
    N_("problem.all_correct",
       "has every option marked “correct: true”: at least one must be wrong, or there is "
       "nothing to choose"),
    N_("problem.answer_not_true_false",
       "is only for a question with “kind: true-false”; mark the right options with "
       "“correct: true”"),
    N_("problem.bad_kind", "must be one of: {kinds}"),
    N_("problem.options_true_false",
       "must not be given for “kind: true-false”: I show my own True and False; give "
       "“answer: true” or “answer: false”"),
    N_("problem.bad_picture",
       "must be an https link to a photo or a Telegram file_id (at most {limit} characters)"),
    N_("problem.same_option", "has the same text as option {number}"),
    N_("problem.question_too_long",
       "is too long: the question, its options, explanation and source together have {size} "
       "characters, and at most {limit} fit in one Telegram message"),
    N_("problem.too_large", "the file has {size} bytes; at most {limit} bytes (1 MB) are allowed"),
    N_("problem.yaml",
       "is not valid YAML: check the indentation, the “: ” after each key, and put texts "
       "that contain “: ” in quotes"),
    N_("problem.unreadable", "cannot be read: send a UTF-8 text file"),
    N_("check.longest-correct",
       "the right option is much longer than the others, which gives it away: shorten it or "
       "lengthen the others"),
    N_("check.uneven-lengths",
       "the options are very uneven in length (the longest is twice the shortest or more): "
       "make them about as long"),
    N_("check.all-none-of-the-above",
       "“all of the above” and “none of the above” mean nothing once the options are "
       "shuffled: write a real option"),
    N_("check.option-in-stem",
       "every word of this option is in the question, which gives it away (or rules it out): "
       "reword it"),
    N_("check.import-placeholder", "still holds the “TODO” placeholder of the import: write it"),
    N_("check.answer-leak", "gives away the answer of question {other}: reword it"),
    NP_("quizzes.problems",
        "I didn't save the quiz: {count} thing to fix.",
        "I didn't save the quiz: {count} things to fix."),
    N_("quizzes.problem_question_line", "• Question {number}, {field} (line {line}): {problem}"),
    N_("quizzes.problem_question", "• Question {number}, {field}: {problem}"),
    N_("quizzes.problem_quiz_line", "• {field} (line {line}): {problem}"),
    N_("quizzes.problem_quiz", "• {field}: {problem}"),
    N_("quizzes.problem_file", "• {problem}"),
    NP_("quizzes.problems_more", "… and {count} more.", "… and {count} more."),
    N_("quizzes.field_option", "option {number}"),
    N_("quizzes.too_many",
       "You already have {limit} quizzes, the most one creator can have: delete one in "
       "/myquizzes first."),
    N_("quizzes.too_many_questions", "This quiz already has {limit} questions, the most a quiz "
                                     "can have."),
    N_("quizzes.no_question", "There is no question {number} in this quiz."),
    N_("quizzes.last_question",
       "A quiz needs at least one question: add another one before deleting this one."),
    N_("documents.too_large",
       "This file is too big: I take files of up to 1 MB. Split the quiz into smaller ones."),
    N_("documents.unknown_format",
       "I can make a quiz of a file in one of these formats: a quiz YAML (.yaml), GIFT (.gift), "
       "Aiken (.txt) or CSV (.csv). Name the file with one of these endings and send it again."),
    N_("documents.not_text", "I can't read this file: send it as UTF-8 text."),
    N_("documents.download_failed",
       "I couldn't get the file from Telegram just now. Please send it again in a moment."),
    NP_("documents.none_converted",
        "I found no question I could use in this file ({count} found). Each question needs 2 "
        "to 12 options and a right answer.",
        "I found no question I could use in this file ({count} found). Each question needs 2 "
        "to 12 options and a right answer."),
    NP_("documents.skipped",
        "{count} question of the file could not be converted and was left out.",
        "{count} questions of the file could not be converted and were left out."),
    N_("documents.imported_title", "Quiz from {name}"),
    N_("documents.imported_description", "Questions imported from {name}."),
    NP_("quizzes.created",
        "✅ Your quiz “{title}” is saved, with {count} question.",
        "✅ Your quiz “{title}” is saved, with {count} questions."),
    NP_("quizzes.updated",
        "✅ “{title}” is updated: version {version}, {count} question.",
        "✅ “{title}” is updated: version {version}, {count} questions."),
    N_("documents.new_not_yours",
       "The id “{id}” in this file is not one of your quizzes, so I made a new quiz of it."),
    N_("quizzes.list_header", "📚 Your quizzes"),
    N_("quizzes.list_empty",
       "You haven't made a quiz yet. Send /newquiz to make one, or send me a file: a quiz "
       "YAML, GIFT, Aiken or CSV."),
    N_("quizzes.list_line", "{number}. {title} · {questions} · {visibility}"),
    NP_("quizzes.questions", "{count} question", "{count} questions"),
    N_("quizzes.visibility_link", "🔗 link only"),
    N_("quizzes.visibility_public", "🌐 public"),
    N_("quizzes.disabled", "⛔ taken down"),
    N_("quizzes.quiz_meta", "{questions} · version {version} · {visibility}"),
    N_("quizzes.link_hint", "Whoever has this link can play it: {link}"),
    N_("quizzes.public_hint", "It is public: everyone can also find it in inline search."),
    N_("quizzes.disabled_hint",
       "⛔ The bot's operator took this quiz down: nobody can play it. You can still export or "
       "delete it."),
    N_("quizzes.button_play", "▶️ Play"),
    N_("quizzes.button_share", "📤 Share"),
    N_("quizzes.button_edit", "✏️ Edit"),
    N_("quizzes.button_export", "📄 Export"),
    N_("quizzes.button_results", "📊 Results"),
    N_("quizzes.button_make_public", "🌐 Make public"),
    N_("quizzes.button_make_link", "🔗 Make link-only"),
    N_("quizzes.button_delete", "🗑 Delete"),
    N_("quizzes.button_back", "⬅️ Back"),
    N_("quizzes.button_list", "⬅️ My quizzes"),
    N_("quizzes.delete_confirm",
       "Delete “{title}” with all its versions? Its link stops working; answers already given "
       "stay in the players' scores.\n\nThis cannot be undone."),
    N_("quizzes.button_delete_confirm", "🗑 Yes, delete it"),
    N_("quizzes.button_delete_keep", "Keep it"),
    N_("quizzes.deleted", "🗑 “{title}” is deleted."),
    N_("quizzes.toast_public", "Public now: it shows up in inline search."),
    N_("quizzes.toast_link", "Link-only now: only people with the link can play it."),
    N_("quizzes.toast_not_yours", "This quiz isn't yours, so I changed nothing."),
    N_("quizzes.toast_gone", "This quiz no longer exists."),
    N_("quizzes.toast_stale", "This menu is out of date: here is the quiz as it is now."),
    N_("quizzes.toast_busy", "The quiz was changed at the same time: please try again."),
    N_("quizzes.export_caption",
       "“{title}”, version {version}. To add a language, add its code to “languages” and a "
       "text in it under every title, description, question, option and explanation, then "
       "send me the file back: the quiz keeps its id and gets a new version."),
    N_("quizzes.results_header", "📊 Results: {title}"),
    N_("quizzes.results_none", "Nobody has played it yet. Share its link: {link}"),
    NP_("quizzes.results_attempts", "{count} attempt", "{count} attempts"),
    NP_("quizzes.results_players", "{count} player", "{count} players"),
    N_("quizzes.results_totals", "{attempts} · {players} · average score {average}%"),
    NP_("quizzes.results_answers", "{count} answer", "{count} answers"),
    N_("quizzes.results_question", "{number}. {prompt}: {right} right ({answers})"),
    N_("quizzes.results_wrong", "    most chosen wrong option: {option} ({count}×)"),
    N_("quizzes.results_unanswered", "{number}. {prompt}: no answers yet"),
    N_("quizzes.results_hint", "Private and group plays together, every version."),
    N_("quizzes.edit_header",
       "✏️ Edit “{title}” (version {version}). Every change makes a new version; quizzes "
       "already started finish on theirs. Choose a question, or:"),
    N_("quizzes.button_add", "➕ Add a question"),
    N_("quizzes.button_rename", "🏷 Rename"),
    N_("quizzes.button_more", "More ▶"),
    N_("quizzes.question_header", "Question {number} of {total}"),
    N_("quizzes.button_up", "⬆️ Move up"),
    N_("quizzes.button_down", "⬇️ Move down"),
    N_("quizzes.button_replace", "🔁 Replace"),
    N_("quizzes.button_delete_question", "🗑 Delete this question"),
    N_("quizzes.ask_question",
       "Send the question as one message: the question on the first line, then one option per "
       "line, the right one marked with * at its start, and a last line starting with > for "
       "the explanation; or send a quiz poll. For example:\n\nWhat is the capital of "
       "France?\nBerlin\n*Paris\nMadrid\n> Paris has been the capital of France since "
       "987.\n\nSend /cancel to stop."),
    N_("quizzes.ask_title", "Send the new title of “{title}” (send /cancel to stop)."),
    N_("quizzes.bad_question",
       "I couldn't read a question in that message. Send the question on the first line, then "
       "at least two options, the right one marked with *. Send /cancel to stop."),
    N_("quizzes.bad_title", "Send the title as a text of 1 to 100 characters."),
    N_("quizzes.poll_no_answer",
       "I can't see the right answer of this poll: send a quiz poll you made yourself, or type "
       "the question with the right option marked *."),
    N_("quizzes.cancelled", "Stopped: nothing was changed."),
    N_("quizzes.renamed", "🏷 Renamed to “{title}” (version {version})."),
    N_("quizzes.question_added", "➕ Question {number} added (version {version})."),
    N_("quizzes.question_replaced", "🔁 Question {number} replaced (version {version})."),
    N_("quizzes.question_moved", "↕️ Question moved to place {number} (version {version})."),
    N_("quizzes.question_deleted", "🗑 Question {number} deleted (version {version})."),
    N_("command_myquizzes", "Your quizzes: play, share, edit, export"),
    # question kinds: several right options (tick, then Submit), true/false
    N_("select_all", "Select all that apply, then tap Submit."),
    N_("button_submit", "✔ Submit"),
    N_("option_true", "True"),
    N_("option_false", "False"),
    N_("feedback_wrong_several", "❌ Not quite. The right options are {labels}."),
    N_("toast_nothing_chosen", "Tick at least one option, then tap Submit."),
    N_("group_ticked", "Your choice so far: {labels}. Tap Submit when you're done."),
    N_("group_ticked_none", "Nothing ticked yet. Tick options, then tap Submit."),
)
