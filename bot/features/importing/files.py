"""``quizbot import``: convert a GIFT, Aiken, CSV or .xlsx file, or a numbered quiz as a text,
Word or PDF file (:mod:`bot.features.importing.numbered`), into a bank file.

The parsers are pure (:mod:`bot.features.importing.rules`); this module reads the file, writes the
YAML and checks it with the loader that ``quizbot validate`` and the bot use: a question the loader
refuses (two options with the same text, a question too long for one Telegram message) is left
out and reported, so the file written always loads.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from pathlib import Path
from typing import cast

import yaml

from bot.bankload import MAX_BANK_BYTES, BankError, parse_bank
from bot.config import BUNDLED_BANKS
from bot.features.importing.imported import Note, Parsed
from bot.features.importing.numbered import parse_numbered, txt_kind
from bot.features.importing.readers import READERS, Unreadable, read
from bot.features.importing.rules import PARSERS, bank_data, slug
from bot.features.importing.sheets import (
    Sheet,
    SheetRefused,
    read_sheet,
    sheet_bank_data,
    sheet_notes,
)
from bot.kernel.bank import LEVELS, MAX_QUESTIONS

FORMATS = sorted([*PARSERS, *READERS, "xlsx"])
"""``--format``'s choices: the text formats' parsers, the numbered quiz's readers (txt, docx,
pdf) and Excel sheets (read as bytes)."""

SCHEMA_LINE = "# yaml-language-server: $schema=./schema.json"
"""The first line of every bank in ``banks/``: editors with the YAML language server check the
file against ``banks/schema.json`` as it is typed (the path is relative to the bank's folder;
see :func:`schema_line` for a bank written elsewhere)."""


def schema_line(out: Path) -> str:
    """The first line of a bank to be written at ``out``: it names the bundled
    ``banks/schema.json`` relative to ``out``'s folder (``./schema.json`` in ``banks/``), or by
    its ``file:`` URI where no relative path leads there (another drive)."""
    schema = BUNDLED_BANKS / "schema.json"
    try:
        path = Path(os.path.relpath(schema.resolve(), out.resolve().parent)).as_posix()
    except ValueError:
        return f"# yaml-language-server: $schema={schema.resolve().as_uri()}"
    return "# yaml-language-server: $schema=" + (path if path.startswith("../") else f"./{path}")


MAX_INPUT_BYTES = 4 * MAX_BANK_BYTES
"""Largest file ``quizbot import`` reads, in bytes (4 MiB): a source with HTML and feedback is
larger than the bank it becomes, which may have at most 1 MiB."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``import`` subcommand to the ``quizbot`` parser."""
    parser = sub.add_parser(
        "import",
        help="convert a GIFT, Aiken, CSV, .xlsx, numbered text, Word or PDF file into a bank file",
        description="Convert the questions of a Moodle GIFT, Aiken, CSV or Excel (.xlsx) file, "
        "or a numbered quiz in a text, Word (.docx) or PDF file, "
        "into a bank (banks/README.md); everything that could not be converted is "
        "listed with its line. Exit 1 if no question could be converted.",
    )
    parser.add_argument(
        "file", metavar="FILE", help="the file to convert (text in UTF-8, or .xlsx, .docx, .pdf)"
    )
    parser.add_argument(
        "--format",
        required=True,
        choices=FORMATS,
        help="the file's format (txt, docx, pdf: a numbered quiz; txt may be Aiken or GIFT too)",
    )
    parser.add_argument(
        "--out", required=True, metavar="PATH", help="the bank file to write, e.g. banks/NEW.yaml"
    )
    parser.add_argument("--lang", default="en", help="the language of the texts (default en)")
    parser.add_argument(
        "--id", dest="bank_id", help="the bank's id (default: from the --out file name)"
    )
    parser.add_argument("--title", help="the bank's title (default: from FILE's name)")
    parser.add_argument("--description", help="the bank's description")
    parser.add_argument("--level", choices=LEVELS, default="medium", help="default medium")
    parser.add_argument(
        "--source-title",
        dest="source_title",
        help="source title for questions without one (with --source-url)",
    )
    parser.add_argument(
        "--source-url", dest="source_url", help="source URL for questions without one"
    )
    parser.add_argument("--force", action="store_true", help="overwrite --out if it exists")


def _parsed(source_file: Path, format: str) -> tuple[Parsed, Sheet | None]:
    """What the parser of ``format`` finds in ``source_file`` (read and converted here), and
    the sheet read for an .xlsx file.

    Raises:
        ValueError: the file is too large or cannot be read, said in one line.
    """
    try:
        with source_file.open("rb") as file:
            raw = file.read(MAX_INPUT_BYTES + 1)
        if len(raw) > MAX_INPUT_BYTES:
            raise ValueError(f"{source_file} is larger than {MAX_INPUT_BYTES:,} bytes")
        if format == "xlsx":
            sheet = read_sheet(raw, limit=MAX_QUESTIONS)
            return Parsed(notes=sheet_notes(sheet), found=sheet.found), sheet
        text = read(format, raw) if format in READERS else raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError, Unreadable, SheetRefused) as exc:
        raise ValueError(f"cannot read {source_file}: {exc}") from exc
    kind = txt_kind(text) if format == "txt" else format
    return (PARSERS[kind](text) if kind in PARSERS else parse_numbered(text)), None


def run(args: argparse.Namespace) -> int:
    """Carry out ``quizbot import``; return the exit status (0 written, 1 nothing converted,
    2 a bad argument or an unreadable file)."""
    source_file, out = Path(args.file), Path(args.out)
    if out.exists() and not args.force:
        return _fail(f"{out} exists: pass --force to overwrite it")
    if bool(args.source_title) and not args.source_url:
        return _fail("--source-title needs --source-url")
    try:
        parsed, sheet = _parsed(source_file, args.format)
    except ValueError as exc:
        return _fail(str(exc))
    bank_id = args.bank_id or slug(out.stem) or "imported"
    title = args.title or source_file.stem.replace("_", " ").replace("-", " ").strip() or bank_id
    description = args.description or f"Questions imported from {source_file.name}."
    source = (args.source_title or args.source_url, args.source_url) if args.source_url else None
    convert = bank_data if sheet is None else functools.partial(sheet_bank_data, sheet)
    data, lines = convert(
        parsed,
        language=args.lang,
        bank_id=bank_id,
        title=title,
        description=description,
        level=args.level,
        source=source,
    )
    # cast: bank_data's "questions" is the list of question mappings (edited in place below)
    questions = cast(list[dict[str, object]], data["questions"])
    document = ""
    while questions:
        document = (
            schema_line(out)
            + "\n"
            + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)
        )
        try:
            parse_bank(document, str(out))
            break
        except BankError as exc:
            refused = {p.question_id: p for p in exc.problems if p.question_id in lines}
            bank_level = [p for p in exc.problems if p.question_id not in lines]
            if bank_level:
                return _fail("; ".join(f"{p.field}: {p.message}" for p in bank_level))
            for question_id, problem in refused.items():
                parsed.notes.append(
                    Note(
                        lines[question_id],
                        f"refused by the loader: {problem.field}: {problem.message}",
                    )
                )
            questions[:] = [q for q in questions if q["id"] not in refused]
    for note in sorted(parsed.notes, key=lambda n: n.line or 0):
        where = f"{source_file}:{note.line}" if note.line else str(source_file)
        print(f"{where}: {'skipped' if note.skipped else 'note'}: {note.message}", file=sys.stderr)
    if not questions:
        print(
            f"quizbot: no question of {source_file} could be converted "
            f"({parsed.found} found); nothing written",
            file=sys.stderr,
        )
        return 1
    out.write_text(document, encoding="utf-8")
    print(
        f"wrote {out}: bank {bank_id!r}, {len(questions)} of {parsed.found} question(s) "
        f"converted; check it with `quizbot validate {out}`"
    )
    return 0


def _fail(message: str) -> int:
    print(f"quizbot: {message}", file=sys.stderr)
    return 2
