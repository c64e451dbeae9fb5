"""The messages about a quiz sent as a text, Word or PDF file: a file whose text could not be
read (bot/features/importing/handlers.py, bot/features/importing/readers.py), and the problems
of the questions left out, by line and question (bot/features/importing/numbered.py)."""

from __future__ import annotations

from bot.i18n.declare import N_, Plural, Text

__all__ = ["MESSAGES"]

MESSAGES: tuple[Text | Plural, ...] = (
    N_(
        "documents.formats",
        "I can make a quiz of a file in one of these formats: a quiz YAML (.yaml), GIFT "
        "(.gift), CSV (.csv), an Excel sheet (.xlsx), Aiken or a numbered quiz as text (.txt), "
        "a document (.docx) or a PDF (.pdf). Name the file with one of these endings and send "
        "it again.",
    ),
    N_(
        "documents.damaged",
        "I can't open this file: it is damaged or is not what its ending says. Save it again "
        "and send it.",
    ),
    N_(
        "documents.too_long",
        "This file is too long for one quiz. Split it into smaller files and send them one by one.",
    ),
    N_(
        "documents.pdf_no_text",
        "This PDF has no text I can read: PDFs made from scans are only pictures of pages. Send "
        "the quiz as text or as a .docx file.",
    ),
    N_(
        "documents.pdf_encrypted",
        "This PDF is protected by a password, so I can't read it. Send it without the "
        "password, or send the quiz as text or as a .docx file.",
    ),
    # Translators: one problem of a file, under the count of questions left out; {problem} is
    # one of the documents.problem.* messages
    N_("documents.problem_question", "Line {line}, question {question}: {problem}"),
    # Translators: a line of a file that is no part of any question
    N_("documents.problem_line", "Line {line}: {problem}"),
    # Translators: "Answer: B" is what the maker writes in the file, in your language's word
    N_("documents.problem.no_answer", "no answer line after it (such as Answer: B)"),
    # Translators: {answer} is what the file's answer line says
    N_("documents.problem.no_option_named", "the answer names none of its options: {answer}"),
    N_(
        "documents.problem.not_true_false",
        "it has no options, and its answer is neither True nor False: {answer}",
    ),
    N_("documents.problem.option_count", "a question needs 2 to 12 options"),
    # Translators: {label} is an option's letter or number in the file (B, б, 2)
    N_("documents.problem.label_twice", "two options have the label {label}"),
    N_(
        "documents.problem.all_right",
        "every option is marked right: at least one must be wrong",
    ),
    N_("documents.problem.stray", "this line belongs to no question"),
)
