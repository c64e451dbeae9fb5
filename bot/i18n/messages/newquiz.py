"""The messages of /newquiz: making a quiz by chatting (``bot/features/newquiz/handlers.py``)."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    # /newquiz: making a quiz by chatting (bot/features/newquiz/handlers.py,
    # bot/features/newquiz/screens.py)
    N_("command_newquiz", "Make a quiz of your own"),
    N_(
        "newquiz.ask_title",
        "Let's make a quiz! First, send me its title.\n\n(/cancel stops and deletes the draft.)",
    ),
    N_(
        "newquiz.ask_description",
        "Now a short description of the quiz (one or two sentences), or /skip.",
    ),
    N_(
        "newquiz.ask_questions",
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
        "to replace it.",
    ),
    N_(
        "newquiz.example",
        "What is the capital of Greece?\n"
        "Sparta\n"
        "*Athens\n"
        "Thessaloniki\n"
        "> Athens has been the capital since 1834.",
    ),
    N_("newquiz.button_poll", "📊 Make a quiz poll"),
    N_(
        "newquiz.draft_open",
        "You already have a quiz in the making: “{title}”, {questions}. Go on with it, or start "
        "over (the draft is then deleted)?",
    ),
    N_("newquiz.untitled", "untitled"),
    N_("newquiz.button_continue", "▶️ Go on"),
    N_("newquiz.button_restart", "🗑 Start over"),
    N_("newquiz.added", "✅ Question {number} added: {prompt}"),
    N_("newquiz.added_several", "Several options are right: players choose all that apply."),
    N_("newquiz.added_true_false", "A true/false question."),
    N_("newquiz.added_picture", "With its picture."),
    N_(
        "newquiz.added_no_explanation",
        "No explanation yet: reply to this message with one (players see it after answering).",
    ),
    N_("newquiz.added_hint", "Send the next question, or /done."),
    N_("newquiz.button_undo", "↩️ Undo"),
    N_("newquiz.undone", "↩️ Question {number} taken out."),
    N_("newquiz.ask_right", "Which option is right?"),
    N_("newquiz.ask_right_several", "Which options are right? Tap each, then “Done”."),
    N_("newquiz.button_right_done", "✔️ Done"),
    N_("newquiz.explanation_added", "📝 Explanation of question {number} saved."),
    N_("newquiz.replaced", "✏️ Question {number} replaced."),
    N_("newquiz.picture_kept", "🖼 Photo saved: it goes with the next question you send."),
    # Translators: photos sent together as an album (count is 2 or more in practice)
    NP_(
        "newquiz.album",
        "🖼 An album of {count} photo: the first one is kept as the picture. A question has "
        "only one picture, so the others are left out.",
        "🖼 An album of {count} photos: the first one is kept as the picture. A question has "
        "only one picture, so the others are left out.",
        number="count",
    ),
    N_(
        "newquiz.flooded",
        "That's a lot of questions at once: I take up to 20 a minute. Wait a moment, then send "
        "the ones I haven't confirmed again.",
    ),
    N_("newquiz.stale", "This button no longer applies: nothing changed."),
    N_(
        "newquiz.undo_stale",
        "Only the last question can be undone, and only once: nothing changed.",
    ),
    N_("newquiz.no_draft", "You have no quiz in the making. Send /newquiz to start one."),
    N_("newquiz.cancelled", "Draft deleted. Send /newquiz to start again."),
    N_("newquiz.no_description", "A quiz made in Telegram."),
    N_("newquiz.published", "🎉 Your quiz “{title}” is ready: {questions}."),
    N_("newquiz.published_link", "Anyone with this link can play it: {link}"),
    N_(
        "newquiz.published_hint",
        "Share it in a chat, or start it in a group to play it together. /myquizzes lists your "
        "quizzes.",
    ),
    N_("newquiz.button_play", "▶️ Play it"),
    N_("newquiz.button_share", "📤 Share"),
    N_("newquiz.button_group", "👥 Start in a group"),
    N_("newquiz.rejected", "I can't publish the quiz yet. Please fix this, then send /done again:"),
    N_("newquiz.rejected_question", "Question {number}: {problem}"),
    N_(
        "newquiz.rejected_hint",
        "To fix a question, reply to it with the corrected question, or with its explanation; "
        "Undo takes out the last one. Your draft is kept.",
    ),
    N_("newquiz.problem.title_empty", "The title can't be empty: send me the title."),
    NP_(
        "newquiz.problem.title_too_long",
        "That title is {size} character long; a title has at most {limit}.",
        "That title is {size} characters long; a title has at most {limit}.",
        number="size",
    ),
    NP_(
        "newquiz.problem.description_too_long",
        "That description is {size} character long; a description has at most {limit}.",
        "That description is {size} characters long; a description has at most {limit}.",
        number="size",
    ),
    N_(
        "newquiz.problem.not_a_question",
        "I couldn't read a question there. Put the question on the first line and each option on "
        "a line of its own, the right one marked with *:\n"
        "\n"
        "{example}",
    ),
    NP_(
        "newquiz.problem.prompt_too_long",
        "That question is {size} character long; a question has at most {limit}.",
        "That question is {size} characters long; a question has at most {limit}.",
        number="size",
    ),
    NP_(
        "newquiz.problem.too_few_options",
        "A question needs at least {limit} option.",
        "A question needs at least {limit} options.",
        number="limit",
    ),
    NP_(
        "newquiz.problem.too_many_options",
        "That question has {count} option; a question has at most {limit}.",
        "That question has {count} options; a question has at most {limit}.",
    ),
    N_("newquiz.problem.option_empty", "Option {number} is empty."),
    NP_(
        "newquiz.problem.option_too_long",
        "Option {number} is {size} character long; an option has at most {limit}.",
        "Option {number} is {size} characters long; an option has at most {limit}.",
        number="size",
    ),
    N_("newquiz.problem.options_duplicate", "Options {other} and {number} are the same."),
    N_(
        "newquiz.problem.no_right_option",
        "Which option is right? Mark it with * at the start of its line.",
    ),
    N_(
        "newquiz.problem.all_right",
        "Every option is marked right: at least one must be wrong, or there is nothing to choose.",
    ),
    NP_(
        "newquiz.problem.question_too_long",
        "That question is {size} character long with its options and explanation; at most "
        "{limit} fit in one message.",
        "That question is {size} characters long with its options and explanation; at most "
        "{limit} fit in one message.",
        number="size",
    ),
    NP_(
        "newquiz.problem.too_many_questions",
        "The quiz has {limit} question, as many as a quiz may have. Send /done to publish it.",
        "The quiz has {limit} questions, as many as a quiz may have. Send /done to publish it.",
        number="limit",
    ),
    N_("newquiz.problem.answer_pending", "First tell me which option is right in the poll above."),
    N_(
        "newquiz.problem.questions_first",
        "Questions come after the title and the description: answer the question above first.",
    ),
    N_(
        "newquiz.problem.no_questions",
        "The quiz has no questions yet: send at least one, then /done.",
    ),
    NP_(
        "newquiz.problem.explanation_too_long",
        "That explanation is too long for question {number}: with the question and its "
        "options, at most {limit} character fits.",
        "That explanation is too long for question {number}: with the question and its "
        "options, at most {limit} characters fit.",
        number="limit",
    ),
    N_("newquiz.problem.choose_one", "Tap at least one right option first."),
)
