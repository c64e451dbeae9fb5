"""The messages of what learners read about their learning (review headers, when each
question is due) and of the terminal (``quizbot play``), whose texts name commands to run, not
Telegram commands to send."""

from __future__ import annotations

from bot.i18n.declare import N_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    # Translators: the header of a review question's feedback when nothing else is due.
    N_("review_title", "🔁 Review"),
    N_("known_header", "When each question is due for review (soonest first):"),
    # Translators: in a list "due now: <question>", "in 3 days: <question>".
    N_("known_due_now", "due now"),
    # Translators: the title of the chart's panel of bars, one per question; the axis shows
    # numbers of days.
    N_("chart_due", "Days until each question is due for review (0: due now)"),
    # Translators: {command} is the command that plays a quiz, as the player typed its options
    # ("quizbot play", "quizbot play --banks physics.yaml"): keep it as it is, a word of its
    # own (here and in the messages after it).
    N_("play.stats_none", "You haven't finished a quiz yet. Run {command} to start one."),
    N_(
        "play.review_none_yet",
        "You have nothing to review yet: every question you answer in a quiz becomes a review "
        "card. Run {command} to start.",
    ),
    N_(
        "play.review_pointer",
        "The questions you missed are due for review now: run {command} --review.",
    ),
    # Translators: when the player quits a review.
    N_(
        "play.review_quit",
        "Bye! Your answers so far are saved: run {command} --review to go on reviewing.",
    ),
    # Translators: in --stats, in place of the title of a bank whose file was not given this
    # time; {bank} is its id.
    N_("play.bank_not_loaded", "{bank} (not loaded: give its file with --banks to see its title)"),
    # Translators: a question ending in the answer to type; {yes} is the first word of
    # play.yes_words.
    N_(
        "play.other_bank",
        "You have an unfinished quiz, “{name}” (question {number} of {total}). Leave it and "
        "start “{new}”? ({yes} to start) ",
    ),
    N_(
        "play.other_bank_kept",
        "Nothing changed: run {command} --bank {bank} to go on with “{name}”.",
    ),
    N_(
        "play.reset_prompt",
        "Delete all your progress in this terminal (attempts, scores and review cards)? Type "
        "{yes} to confirm: ",
    ),
    N_("play.reset_done", "Your progress in this terminal is deleted."),
    N_("play.reset_kept", "Nothing was deleted."),
    # Translators: the words accepted as "yes", separated by spaces; the first is the one the
    # prompts ask for. Keep "y" and "yes", so that an English keyboard works too.
    N_("play.yes_words", "yes y"),
    # a question with several right options, in the terminal: letters are typed, nothing tapped
    N_("play.select_all", "Select all that apply: type their letters, e.g. A C."),
    N_("play.prompt_several", "Your answers (letters A-{last}), or q to quit: "),
    # Translators: above a question in the terminal; {url} is the picture's web address.
    N_("play.picture_link", "🖼 This question has a picture: {url}"),
    # Translators: above a question in the terminal, whose picture is kept on Telegram's
    # servers (a file id, no web address).
    N_(
        "play.picture_not_shown",
        "🖼 This question has a picture, which only Telegram can show (it has no web address).",
    ),
)
"""The learners' and the terminal's messages, in English."""
