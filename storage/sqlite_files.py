"""The SQLite database's file, checked before :meth:`storage.sqlite.SQLiteStore.open` creates
anything beside it: what ``QUIZBOT_DB`` names (a folder the bot may write, a SQLite database or
none yet), the traces telling a database was used there, and the refusal to create a new one in
its place (``QUIZBOT_CREATE_DB``)."""

from __future__ import annotations

import glob
import os
import stat
from pathlib import Path

from bot.kernel.ports import StorageError
from storage.writer import SQLITE_WAL_HEADER, DatabaseFile

TRACES = (".lock", ".run.lock", "-wal", "-shm")
"""Files beside a database that tell it was used: its lock files (made at every open, never
removed) and SQLite's write-ahead log and its index (left by a process that did not close)."""


def check_path(path: Path) -> DatabaseFile | None:
    """Check ``QUIZBOT_DB``'s file before anything is created beside it: the folder exists and
    is writable (SQLite writes ``-wal`` and ``-shm`` files there), and the path is a SQLite
    database (its first bytes are :data:`~storage.writer.SQLITE_WAL_HEADER`) or there is no
    database yet (absent or empty).

    Returns:
        The database file, open (the caller closes it), or None when there is none yet.

    Raises:
        StorageError: the message names the setting and its value, and what to do.
    """
    setting = f"QUIZBOT_DB / --db is {str(path)!r}"
    folder = path.parent
    if not folder.is_dir():
        raise StorageError(
            f"{setting}, but the folder {folder} does not exist: create it, or "
            "name a file in an existing folder"
        )
    try:
        found: os.stat_result | None = path.stat()
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise StorageError(f"{setting}, which cannot be read: {exc.strerror}") from exc
    if found is not None and stat.S_ISDIR(found.st_mode):
        raise StorageError(
            f"{setting}, which is a folder: name a database file in it, "
            f"like {str(path / 'quizbot.sqlite3')!r}"
        )
    if found is not None and not stat.S_ISREG(found.st_mode):
        raise StorageError(f"{setting}, which is not a regular file: name a database file")
    if not os.access(folder, os.W_OK | os.X_OK) or (
        found is not None and not os.access(path, os.R_OK | os.W_OK)
    ):
        raise StorageError(
            f"{setting}, but {'the folder ' + str(folder) if found is None else 'it'} is not "
            "writable by this user (SQLite also writes its -wal and -shm files beside it): "
            "change the owner or mode, or name a file in a folder the bot may write"
        )
    if found is None or not found.st_size:
        return None
    file: DatabaseFile | None = None
    try:
        file = DatabaseFile(path)
        header = file.header()
    except OSError as exc:
        if file is not None:
            file.close()
        raise StorageError(f"{setting}, which cannot be read: {exc.strerror}") from exc
    if header[:16] != SQLITE_WAL_HEADER:
        file.close()
        raise StorageError(
            f"{setting}, which is not a SQLite database (it does not start with "
            "'SQLite format 3'): name a quizbot database, or a new file to create one"
        )
    return file


def traces_of(path: Path) -> list[Path]:
    """The files beside ``path`` telling a database was used there: its :data:`TRACES`, and
    the copies the bot saved of it (``<db>.rescued-*``,
    :meth:`storage.sqlite.SQLiteStore._rescue`: they are made after the file is gone, so they
    are left even when everything else was deleted)."""
    return [
        trace
        for trace in (path.with_name(path.name + suffix) for suffix in TRACES)
        if trace.exists()
    ] + _rescued_copies(path)


def _rescued_copies(path: Path) -> list[Path]:
    """The saved copies of the database ``path``, oldest first (their names hold the time)."""
    return sorted(path.parent.glob(f"{glob.escape(path.name)}.rescued-*"))


def refuse_recreating(path: Path, traces: list[Path]) -> None:
    """Refuse to create a new database at ``path`` where ``traces`` show one was used.

    Raises:
        StorageError: always; the message names the setting, the files, and what to do.
    """
    rescued = _rescued_copies(path)
    hint = (
        f"; `quizbot restore {rescued[-1]}` puts the copy the bot saved last in place"
        if rescued
        else ""
    )
    raise StorageError(
        f"QUIZBOT_DB / --db is {str(path)!r}, but "
        f"{'it is empty' if path.exists() else 'there is no database there'}, while "
        f"{', '.join(map(str, traces))} {'shows' if len(traces) == 1 else 'show'} one was used "
        f"(deleted or moved?): put it back, or restore a backup (`quizbot restore BACKUP`)"
        f"{hint}. To start with a new, empty database instead, set QUIZBOT_CREATE_DB=1 (or "
        "pass --create-db) once"
    )
