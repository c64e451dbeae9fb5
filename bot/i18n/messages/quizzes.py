"""The messages of managing created quizzes: /myquizzes, documents sent to the bot, a quiz
file's problems."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

MESSAGES: tuple[Text | Plural, ...] = (
    # --- created quizzes: managing them (/myquizzes, documents sent to the bot, problems) ---
    # Translators: the problems below follow a field of a quiz file, e.g. "option 2.text: is
    # missing"; keep the keys of the file (id, prompt, options, correct, ...) as they are.
    N_("problem.invalid", "is not valid here"),
    N_("problem.missing", "is missing"),
    N_("problem.not_mapping", "must be a list of keys with their values"),
    N_("problem.unknown_key", "is not a key I know (allowed: {allowed})"),
    N_("problem.not_text", "must be a text that is not empty"),
    N_("problem.not_url", "must be an http(s) link"),
    N_(
        "problem.control_character",
        "contains an invisible control character (U+{code}) at character {position}: only plain "
        "text, tabs and line breaks are allowed",
    ),
    N_("problem.bad_id", "must be 1 to 32 characters of a-z, 0-9 and “-”"),
    N_("problem.bad_version", "must be a whole number from 1 up"),
    N_("problem.bad_languages", "must be a list of language codes such as “en”"),
    N_("problem.language_twice", "lists a language twice"),
    N_("problem.bad_default_language", "must be one of the quiz's languages: {languages}"),
    N_("problem.bad_level", "must be one of: {levels}"),
    NP_(
        "problem.guide_label_long",
        "must be at most {limit} character (it is a button)",
        "must be at most {limit} characters (it is a button)",
        number="limit",
    ),
    N_("problem.no_questions", "must be a list with at least one question"),
    NP_(
        "problem.too_many_questions",
        "has {count} question; a quiz may have at most {limit}",
        "has {count} questions; a quiz may have at most {limit}",
    ),
    N_("problem.duplicate_id", "is already the id of question {number}"),
    NP_(
        "problem.option_count",
        "must be a list of {low} to {high} option",
        "must be a list of {low} to {high} options",
        number="high",
    ),
    N_("problem.not_boolean", "must be true or false, without quotes"),
    N_("problem.no_correct", "must have at least one option with “correct: true”"),
    N_(
        "problem.all_correct",
        "has every option marked “correct: true”: at least one must be wrong, or there is "
        "nothing to choose",
    ),
    N_(
        "problem.answer_not_true_false",
        "is only for a question with “kind: true-false”; mark the right options with "
        "“correct: true”",
    ),
    N_("problem.bad_kind", "must be one of: {kinds}"),
    N_(
        "problem.options_true_false",
        "must not be given for “kind: true-false”: I show my own True and False; give "
        "“answer: true” or “answer: false”",
    ),
    NP_(
        "problem.bad_picture",
        "must be an https link to a photo or a Telegram file_id (at most {limit} character)",
        "must be an https link to a photo or a Telegram file_id (at most {limit} characters)",
        number="limit",
    ),
    N_("problem.same_option", "has the same text as option {number}"),
    NP_(
        "problem.question_too_long",
        "is too long: the question, its options, explanation and source together have {size} "
        "character, and at most {limit} fit in one Telegram message",
        "is too long: the question, its options, explanation and source together have {size} "
        "characters, and at most {limit} fit in one Telegram message",
        number="size",
    ),
    NP_(
        "problem.too_many_problems",
        "the check stopped after {count} problem: fix these first, then send the file again",
        "the check stopped after {count} problems: fix these first, then send the file again",
    ),
    NP_(
        "problem.too_large",
        "the file has {size} byte, more than the 1 MB allowed",
        "the file has {size} bytes, more than the 1 MB allowed",
        number="size",
    ),
    N_(
        "problem.yaml",
        "is not valid YAML: check the indentation, the “: ” after each key, and put texts "
        "that contain “: ” in quotes",
    ),
    N_("problem.unreadable", "cannot be read: send a UTF-8 text file"),
    N_(
        "check.longest-correct",
        "the right option is much longer than the others, which gives it away: shorten it or "
        "lengthen the others",
    ),
    N_(
        "check.uneven-lengths",
        "the options are very uneven in length (the longest is twice the shortest or more): "
        "make them about as long",
    ),
    N_(
        "check.all-none-of-the-above",
        "“all of the above” and “none of the above” mean nothing once the options are "
        "shuffled: write a real option",
    ),
    N_(
        "check.option-in-stem",
        "every word of this option is in the question, which gives it away (or rules it out): "
        "reword it",
    ),
    N_("check.import-placeholder", "still holds the “TODO” placeholder of the import: write it"),
    N_("check.answer-leak", "gives away the answer of question {other}: reword it"),
    N_(
        "check.picture-format",
        "Telegram cannot send this kind of picture from its link: link a JPEG, PNG or WebP picture",
    ),
    N_(
        "check.leak-check-stopped",
        "the check for answers given away stopped here: the explanations share too many words "
        "with the other questions' answers to compare them all; make them less alike",
    ),
    NP_(
        "quizzes.problems",
        "I didn't save the quiz: {count} thing to fix.",
        "I didn't save the quiz: {count} things to fix.",
    ),
    N_("quizzes.problem_question_line", "• Question {number}, {field} (line {line}): {problem}"),
    N_("quizzes.problem_question", "• Question {number}, {field}: {problem}"),
    N_("quizzes.problem_quiz_line", "• {field} (line {line}): {problem}"),
    N_("quizzes.problem_quiz", "• {field}: {problem}"),
    N_("quizzes.problem_file", "• {problem}"),
    NP_("quizzes.problems_more", "… and {count} more.", "… and {count} more."),
    N_("quizzes.field_option", "option {number}"),
    NP_(
        "quizzes.too_many",
        "You already have {limit} quiz, the most one creator can have: delete it in "
        "/myquizzes first.",
        "You already have {limit} quizzes, the most one creator can have: delete one in "
        "/myquizzes first.",
        number="limit",
    ),
    NP_(
        "quizzes.too_many_questions",
        "This quiz already has {limit} question, the most a quiz can have.",
        "This quiz already has {limit} questions, the most a quiz can have.",
        number="limit",
    ),
    N_("quizzes.no_question", "There is no question {number} in this quiz."),
    N_(
        "quizzes.last_question",
        "A quiz needs at least one question: add another one before deleting this one.",
    ),
    N_(
        "documents.too_large",
        "This file is too big: I take files of up to 1 MB. Split the quiz into smaller ones.",
    ),
    N_("documents.not_text", "I can't read this file: send it as UTF-8 text."),
    N_(
        "documents.download_failed",
        "I couldn't get the file from Telegram just now. Please send it again in a moment.",
    ),
    NP_(
        "documents.none_converted",
        "I found no question I could use in this file ({count} found). Each question needs 2 "
        "to 12 options and a right answer.",
        "I found no question I could use in this file ({count} found). Each question needs 2 "
        "to 12 options and a right answer.",
    ),
    NP_(
        "documents.skipped",
        "{count} question of the file could not be converted and was left out.",
        "{count} questions of the file could not be converted and were left out.",
    ),
    N_("documents.imported_title", "Quiz from {name}"),
    N_("documents.imported_description", "Questions imported from {name}."),
    NP_(
        "quizzes.created",
        "✅ Your quiz “{title}” is saved, with {count} question.",
        "✅ Your quiz “{title}” is saved, with {count} questions.",
    ),
    NP_(
        "quizzes.updated",
        "✅ “{title}” is updated: version {version}, {count} question.",
        "✅ “{title}” is updated: version {version}, {count} questions.",
    ),
    N_(
        "documents.new_not_yours",
        "The id “{id}” in this file is not one of your quizzes, so I made a new quiz of it.",
    ),
    N_("quizzes.list_header", "📚 Your quizzes"),
    N_(
        "quizzes.list_empty",
        "You haven't made a quiz yet. Send /newquiz to make one, or send me a file: an Excel "
        "sheet (/template sends you one to fill in), a Word document, a PDF or a text of "
        "numbered questions, or a quiz in YAML, GIFT, Aiken or CSV.",
    ),
    N_("quizzes.list_line", "{number}. {title} · {questions} · {visibility}"),
    NP_("quizzes.questions", "{count} question", "{count} questions"),
    N_("quizzes.visibility_link", "🔗 link only"),
    N_("quizzes.visibility_public", "🌐 public"),
    N_("quizzes.disabled", "⛔ taken down"),
    N_("quizzes.quiz_meta", "{questions} · version {version} · {visibility}"),
    # Translators: on a quiz's screen, when the quiz has several languages; {languages} is
    # their names, each in itself, separated by commas ("English, Русский, العربية").
    N_("quizzes.languages", "Languages: {languages}"),
    N_("quizzes.link_hint", "Whoever has this link can play it: {link}"),
    N_("quizzes.public_hint", "It is public: everyone can also find it in inline search."),
    N_(
        "quizzes.disabled_hint",
        "⛔ The bot's operator took this quiz down: nobody can play it. You can still export or "
        "delete it.",
    ),
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
    N_(
        "quizzes.delete_confirm",
        "Delete “{title}” with all its versions? Its link stops working; answers already given "
        "stay in the players' scores.\n\nThis cannot be undone.",
    ),
    N_("quizzes.button_delete_confirm", "🗑 Yes, delete it"),
    N_("quizzes.button_delete_keep", "Keep it"),
    N_("quizzes.deleted", "🗑 “{title}” is deleted."),
    N_("quizzes.toast_public", "Public now: it shows up in inline search."),
    N_("quizzes.toast_link", "Link-only now: only people with the link can play it."),
    N_("quizzes.toast_not_yours", "This quiz isn't yours, so I changed nothing."),
    N_("quizzes.toast_gone", "This quiz no longer exists."),
    N_("quizzes.toast_stale", "This menu is out of date: here is the quiz as it is now."),
    N_("quizzes.toast_busy", "The quiz was changed at the same time: please try again."),
    N_(
        "quizzes.export_caption",
        "“{title}”, version {version}. To add a language, add its code to “languages” and a "
        "text in it under every title, description, question, option and explanation, then "
        "send me the file back: the quiz keeps its id and gets a new version.",
    ),
    N_("quizzes.results_header", "📊 Results: {title}"),
    N_("quizzes.results_none", "Nobody has played it yet. Share its link: {link}"),
    NP_("quizzes.results_attempts", "{count} attempt", "{count} attempts"),
    NP_("quizzes.results_players", "{count} player", "{count} players"),
    N_("quizzes.results_totals", "{attempts} · {players} · average score {average}%"),
    NP_("quizzes.results_answers", "{count} answer", "{count} answers"),
    N_("quizzes.results_question", "{number}. {prompt}: {right} right ({answers})"),
    NP_(
        "quizzes.results_wrong",
        "    most chosen wrong option: {option} ({count}×)",
        "    most chosen wrong option: {option} ({count}×)",
    ),
    N_("quizzes.results_unanswered", "{number}. {prompt}: no answers yet"),
    N_("quizzes.results_hint", "Private and group plays together, every version."),
    N_(
        "quizzes.edit_header",
        "✏️ Edit “{title}” (version {version}). Every change makes a new version; quizzes "
        "already started finish on theirs. Choose a question, or:",
    ),
    N_("quizzes.button_add", "➕ Add a question"),
    N_("quizzes.button_rename", "🏷 Rename"),
    N_("quizzes.button_more", "More ▶"),
    N_("quizzes.question_header", "Question {number} of {total}"),
    N_("quizzes.button_up", "⬆️ Move up"),
    N_("quizzes.button_down", "⬇️ Move down"),
    N_("quizzes.button_replace", "🔁 Replace"),
    N_("quizzes.button_delete_question", "🗑 Delete this question"),
    N_(
        "quizzes.ask_question",
        "Send the question as one message: the question on the first line, then one option per "
        "line, the right one marked with * at its start, and a last line starting with > for "
        "the explanation; or send a quiz poll. For example:\n\nWhat is the capital of "
        "France?\nBerlin\n*Paris\nMadrid\n> Paris has been the capital of France since "
        "987.\n\nSend /cancel to stop.",
    ),
    N_("quizzes.ask_title", "Send the new title of “{title}” (send /cancel to stop)."),
    N_(
        "quizzes.bad_question",
        "I couldn't read a question in that message. Send the question on the first line, then "
        "at least two options, the right one marked with *. Send /cancel to stop.",
    ),
    N_("quizzes.bad_title", "Send the title as a text of 1 to 100 characters."),
    N_(
        "quizzes.poll_no_answer",
        "I can't see the right answer of this poll: send a quiz poll you made yourself, or type "
        "the question with the right option marked *.",
    ),
    N_("quizzes.cancelled", "Stopped: nothing was changed."),
    N_("quizzes.renamed", "🏷 Renamed to “{title}” (version {version})."),
    N_("quizzes.question_added", "➕ Question {number} added (version {version})."),
    N_("quizzes.question_replaced", "🔁 Question {number} replaced (version {version})."),
    N_("quizzes.question_moved", "↕️ Question moved to place {number} (version {version})."),
    N_("quizzes.question_deleted", "🗑 Question {number} deleted (version {version})."),
    N_("command_myquizzes", "Your quizzes: play, share, edit, export"),
)
