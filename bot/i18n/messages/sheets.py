"""The messages of quiz sheets (.xlsx): a sheet sent to the bot, the /template command and the
Excel export of /myquizzes (bot/features/importing/sheets.py)."""

from __future__ import annotations

from bot.i18n.declare import N_, NP_, Plural, Text

__all__ = ["MESSAGES", "NP_"]

MESSAGES: tuple[Text | Plural, ...] = (
    N_("command_template", "An Excel template for a quiz"),
    N_(
        "sheets.unreadable",
        "I can't open this file as an Excel workbook (.xlsx): it is damaged, protected or "
        "packed in an unusual way. Save it again as .xlsx and send the new file.",
    ),
    N_(
        "sheets.save_as_xlsx",
        "I read spreadsheets in the .xlsx format. Save this one as an Excel workbook (.xlsx) "
        "and send it again.",
    ),
    NP_(
        "sheets.too_many_rows",
        "The sheet has too many rows: a quiz has at most {count} question. Split it into "
        "several files.",
        "The sheet has too many rows: a quiz has at most {count} questions. Split it into "
        "several files.",
    ),
    N_(
        "sheets.problems",
        "Nothing was saved. Fix these cells of the sheet “{sheet}” and send the file again:",
    ),
    NP_("sheets.more_problems", "…and {count} more problem.", "…and {count} more problems."),
    # Translators: {field} is the column's header as the template writes it ("Answer")
    N_("sheets.at_cell", "Row {row}, column {column} ({field}): {problem}"),
    N_("sheets.at_column", "Row {row}, column {column}: {problem}"),
    N_("sheets.formula", "a formula: type its value instead (I don't calculate formulas)"),
    N_("sheets.no_question", "the question is empty"),
    N_("sheets.no_answer", "the answer is empty: write the letter of the right option"),
    N_("sheets.answer_names_no_option", "“{value}” is not the letter of a filled option"),
    N_("sheets.true_false_answer", "a true/false question's answer is “{true}” or “{false}”"),
    N_("sheets.true_false_options", "a true/false question has no options"),
    N_("sheets.unknown_kind", "“{value}” is not a kind: write “{choice}” or “{true_false}”"),
    N_("sheets.unknown_column", "“{value}” is not a column I know"),
    N_("sheets.column_twice", "“{value}”: this column is there twice"),
    N_("sheets.missing_column", "the header row has no “{field}” column"),
    # Translators: a row of the quiz's settings worksheet; {sheet} is that worksheet's name
    N_("sheets.unknown_setting", "“{value}” is not a setting I know (worksheet “{sheet}”)"),
    N_(
        "sheets.template_caption",
        "A quiz template: one question per row, options in columns A, B, C… The answer is a "
        "letter, several letters separated by commas when several are right, or “{true}” or "
        "“{false}” for a true/false question without options. Fill it in and send it to me.",
    ),
    # Translators: the template's worked example; the options are 4, 6, 7 and 9
    N_("sheets.example_question", "Which of these numbers is prime?"),
    N_("sheets.example_explanation", "7 has no divisors other than 1 and itself."),
    N_("sheets.button_export", "📊 Excel"),
    # Translators: {button} is the label of the YAML export button ("📄 Export")
    N_(
        "sheets.export_caption",
        "“{title}” as an Excel sheet. Sent back to me, it makes a new quiz; to change this one, "
        "use {button}.",
    ),
)
