"""Exam mode's messages (:mod:`bot.features.exams`): the exam's intro, its timer, its end
screen, and the loader's problems with an ``exam`` block."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    # --- the intro ---
    NP_("exam.questions", "📝 Exam: {count} question", "📝 Exam: {count} questions"),
    NP_(
        "exam.minutes",
        "⏱ {count} minute for the whole exam",
        "⏱ {count} minutes for the whole exam",
    ),
    # Translators: {marks} and {penalty} are numbers of marks (points), such as 4 and 1.
    N_(
        "exam.marking",
        "A right answer scores {marks}, a wrong one loses {penalty}, a blank one scores 0.",
    ),
    N_(
        "exam.rules",
        "No answers are shown until the end. The timer starts when you tap Start and keeps "
        "running if you leave; when time is up, what you answered is submitted.",
    ),
    N_("exam.button_start", "Start the exam"),
    # --- the intro in the terminal (quizbot play): Enter starts the exam ---
    N_(
        "play.exam_rules",
        "No answers are shown until the end. The timer starts when you press Enter and keeps "
        "running if you quit; when time is up, what you answered is submitted.",
    ),
    N_("play.exam_start", "Press Enter to start the exam (q to quit): "),
    # Translators: {command} is the command to run again, such as "quizbot play".
    N_(
        "play.exam_quit",
        "Bye! Your exam is saved and its time keeps running: run {command} again to go on.",
    ),
    # --- a question ---
    # Translators: {clock} is the time left, such as "12:30" (minutes and seconds).
    N_("exam.time_left", "⏱ {clock} left"),
    N_("exam.resume", "📝 Your exam goes on: question {number} of {total}."),
    N_("exam.toast_time_up", "Time is up: your answers were submitted."),
    # --- the end ---
    N_("exam.result_title", "🏁 Exam submitted"),
    N_("exam.time_up", "⏰ Time is up: what you answered was submitted."),
    # Translators: {score} and {total} are numbers of marks (points), such as 13 and 20.
    N_("exam.result_marks", "Score: {score} of {total} marks"),
    N_("exam.result_counts", "Right: {right} · Wrong: {wrong} · Blank: {blank}"),
    N_("exam.your_answer", "Your answer: {answer}"),
    N_("exam.right_answer", "Right answer: {answer}"),
    N_("exam.blank", "none"),
    # --- homework sat as an exam: its results in the group ---
    # Translators: to a group. {average} and {total} are numbers of marks, such as 11.5 and 16.
    # Translators: {most} is the most minutes an exam may take (600); the admin typed
    # "/assign <quiz> <deadline> exam <minutes>" with minutes outside 1 to {most}.
    N_(
        "exam.assign_minutes",
        "An exam's time, in minutes, is 1 to {most}. Send /assign again with a time in that range.",
    ),
    N_("exam.results_average", "Average: {average} of {total} marks."),
    # --- the maker's setting in /myquizzes ---
    N_("exam.button_setting", "📝 Exam mode"),
    N_("exam.setting_off", "Off: the quiz is played with feedback after each question."),
    N_(
        "exam.setting_hint",
        "Choose the time, the questions each learner draws and the marking: learners then "
        "play it as an exam, with one timer and the answers at the end.",
    ),
    N_("exam.draw_all", "all"),
    N_("exam.button_off", "Turn exam mode off"),
    N_("exam.toast_saved", "Saved as version {version}."),
    # --- the loader's problems with an exam block ---
    N_("problem.exam_minutes", "must be a whole number of minutes from 1 to {limit}"),
    N_("problem.exam_marks", "must be a number above 0, at most {limit}"),
    N_("problem.exam_penalty", "must be a number from 0 to {limit}, or blank"),
    N_("problem.exam_draw", "must be a whole number from 1 to the number of questions ({limit})"),
)
