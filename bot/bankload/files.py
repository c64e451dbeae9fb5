"""Bank files on disk: read one (bounded in size, UTF-8), expand folders, load them all."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bot.bankload.problems import BankError, BankProblem
from bot.bankload.schema import MAX_BANK_BYTES, parse_bank, too_large_problem
from bot.kernel.bank import Bank


def load_bank(path: str | Path) -> Bank:
    """Load and validate one bank file.

    Reads at most :data:`MAX_BANK_BYTES` (plus one, to tell a larger file).

    Raises:
        BankError: the file cannot be read, is larger than :data:`MAX_BANK_BYTES`, is not
            UTF-8, does not parse, or breaks the schema.
    """
    path = Path(path)
    try:
        with path.open("rb") as file:
            data = file.read(MAX_BANK_BYTES + 1)
        if len(data) > MAX_BANK_BYTES:
            size = max(path.stat().st_size, len(data))
            raise BankError([too_large_problem(str(path), size)])
        document = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problem = BankProblem(
            str(path), None, None, "(file)", f"cannot read: {exc}", key="problem.unreadable"
        )
        raise BankError([problem]) from exc
    bank = parse_bank(document, str(path))
    return Bank(**{**bank.__dict__, "path": path})


def bank_files(paths: Iterable[str | Path]) -> list[Path]:
    """Expand folders to their ``*.yaml``/``*.yml`` files (sorted); files are kept as given."""
    files: list[Path] = []
    for entry in map(Path, paths):
        if entry.is_dir():
            files.extend(sorted(p for p in entry.iterdir() if p.suffix in (".yaml", ".yml")))
        else:
            files.append(entry)
    return files


def load_banks(paths: Iterable[str | Path]) -> dict[str, Bank]:
    """Load every bank under ``paths`` (files or folders of ``*.yaml``), keyed by bank id.

    Raises:
        BankError: any file is invalid, two files share a bank id, or no bank was found;
            the problems of every file are listed together.
    """
    paths = list(paths)
    banks: dict[str, Bank] = {}
    problems: list[BankProblem] = []
    files = bank_files(paths)
    for file in files:
        try:
            bank = load_bank(file)
        except BankError as exc:
            problems.extend(exc.problems)
            continue
        if bank.id in banks:
            problems.append(
                BankProblem(
                    str(file),
                    None,
                    None,
                    "id",
                    f"bank id {bank.id!r} is also used by {banks[bank.id].path}",
                )
            )
            continue
        banks[bank.id] = bank
    if not files:
        problems.append(
            BankProblem(
                ", ".join(map(str, paths)), None, None, "(file)", "no bank files (*.yaml) found"
            )
        )
    if problems:
        raise BankError(problems)
    return banks
