"""Bank files: read and validate the YAML of a question bank into a :class:`bot.kernel.bank.Bank`.

An adapter outside the pure core (it reads files and parses YAML). The schema is documented in
``banks/README.md``. :func:`load_bank` checks a file completely and raises one
:class:`BankError` listing every problem, each naming the file, the line and column, the
question id and the field (options counted from 1, as ``option 2``), with a hint in plain words
for the usual YAML slips (an unquoted ``no`` or ``1:30``, a value containing ``: ``, a
mis-indented line). A YAML syntax error is located from the layout of the text around it
(:func:`bot.bankload.locate.locate`).

The package's modules, in the order they depend on each other (an import contract keeps it):
:mod:`~bot.bankload.files` (reading files and folders) uses :mod:`~bot.bankload.schema` (the
checker, its recorder of problems in :mod:`~bot.bankload.checker`), which uses
:mod:`~bot.bankload.locate` (placing a YAML syntax error) and
:mod:`~bot.bankload.yaml_positions` (the loader that keeps positions); all of them report
:mod:`~bot.bankload.problems`. This module is the package's interface for the rest of quizbot.
"""

from bot.bankload.files import bank_files, load_bank, load_banks
from bot.bankload.problems import BankError, BankProblem
from bot.bankload.schema import MAX_BANK_BYTES, parse_bank

__all__ = [
    "MAX_BANK_BYTES",
    "BankError",
    "BankProblem",
    "bank_files",
    "load_bank",
    "load_banks",
    "parse_bank",
]
