"""Operations on the SQLite file: consistent backups of a live database, restores, and the lock
file that tells a restore whether the database is in use.

A backup uses SQLite's online backup API (``sqlite3.Connection.backup``, sqlite3_backup_*),
which copies a consistent snapshot: in WAL mode it reads as any reader does, so the bot keeps
writing while it runs and the copy holds exactly the transactions committed before it started.
The copy is written to a temporary file beside the target, checked (``PRAGMA quick_check``),
switched to a self-contained rollback journal (no ``-wal`` file to carry along), fsynced and
renamed into place, so a backup that exists is complete.

Every process that opens the database (:meth:`storage.sqlite.SQLiteStore.open`: ``quizbot run``,
``play``, ``delete-user``) holds a shared ``flock`` on ``<database>.lock`` while it has it open;
:func:`restore` takes it exclusively, so it refuses to overwrite a database in use, and nothing
opens the database while a restore writes it. (POSIX only; on Windows stop the bot first.)
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from bot.kernel.ports import StorageError

try:
    import fcntl
except ImportError:  # Windows: no flock; the restore procedure says to stop the bot first
    fcntl = None  # type: ignore[assignment]

BUSY_TIMEOUT_MS = 5000
"""How long the backup waits for a lock held by a writer, in milliseconds."""


def lock_path(db: Path) -> Path:
    """The lock file of database ``db``: ``<db>.lock`` beside it."""
    return db.with_name(db.name + ".lock")


class DatabaseLock:
    """An ``flock`` on the database's lock file, shared (processes using the database) or
    exclusive (a restore). Released by :meth:`release` or when the process ends, however it
    ends (the kernel drops the lock with the file descriptor: a ``kill -9`` leaves none).

    Raises:
        StorageError: the lock is held the other way by another process (see the message), or
            the lock file cannot be created.
    """

    def __init__(self, db: Path, *, exclusive: bool) -> None:
        self._fd: int | None = None
        if fcntl is None:
            return
        path = lock_path(db)
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise StorageError(f"cannot create the lock file {path}: {exc.strerror}") from exc
        try:
            fcntl.flock(self._fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            self._fd = None
            if exclusive:
                raise StorageError(
                    f"database {db} is in use (a quizbot process has it open): stop the bot "
                    "(and any `quizbot play`) first, then restore"
                ) from None
            raise StorageError(
                f"database {db} is being restored: start again once the restore is done"
            ) from None

    def release(self) -> None:
        """Release the lock (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class InstanceLock:
    """An exclusive ``flock`` on ``<db>.run.lock``, held by the one bot (``quizbot run``)
    using a SQLite database: a second bot on the same file would poll Telegram beside it (each
    then gets ``409 Conflict``) and run every session's jobs twice. ``quizbot play`` and the
    operator commands do not take it. Released by :meth:`release` or when the process ends,
    however it ends.

    Raises:
        StorageError: another bot holds it, or the lock file cannot be created.
    """

    def __init__(self, db: Path) -> None:
        self._fd: int | None = None
        if fcntl is None:  # Windows: no flock; one bot a database is the operator's care
            return
        path = db.with_name(db.name + ".run.lock")
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise StorageError(f"cannot create the lock file {path}: {exc.strerror}") from exc
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._fd)
            self._fd = None
            raise StorageError(
                f"another quizbot run already uses {db}: a SQLite database serves one bot; "
                "stop the other one, or use PostgreSQL for several instances"
            ) from None

    def release(self) -> None:
        """Release the lock (idempotent)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


@dataclass(frozen=True)
class BackupInfo:
    """What a backup (or a restored database) holds.

    Attributes:
        path: The file.
        schema_version: Its ``PRAGMA user_version`` (the migrations applied).
        answers: Answers of private quizzes in it.
        group_answers: Answers of group sessions in it.
        size: Its size in bytes.
        kept: After a restore, where the database it replaced was kept (None: there was none).
    """

    path: Path
    schema_version: int
    answers: int
    group_answers: int
    size: int
    kept: Path | None = None


QUIZBOT_TABLES = ("attempts", "answers")
"""Tables every quizbot database has (migration 0001): a file without them is not a backup."""


def _kept_name(db: Path) -> Path:
    """``<db>.before-restore``, or ``.before-restore.2``, ``.3`` ... if taken: a restore never
    overwrites the database an earlier restore kept."""
    keep = db.with_name(db.name + ".before-restore")
    number = 1
    while keep.exists():
        number += 1
        keep = db.with_name(f"{db.name}.before-restore.{number}")
    return keep


def _count(db: sqlite3.Connection, table: str) -> int:
    exists = db.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).fetchone()
    return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]) if exists else 0


def _inspect(db: sqlite3.Connection, path: Path) -> BackupInfo:
    """Check the database ``db`` (``quick_check``) and describe it.

    Raises:
        StorageError: it is not a sound SQLite database.
    """
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise StorageError(f"{path} is damaged: {'; '.join(problems[:3])}")
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        return BackupInfo(
            path, version, _count(db, "answers"), _count(db, "group_answers"), path.stat().st_size
        )
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"{path} is not a quizbot database: {exc}") from exc


@contextlib.contextmanager
def _connect(path: Path, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
    uri = f"{path.resolve().as_uri()}?mode=ro" if read_only else str(path)
    try:
        db = sqlite3.connect(uri, uri=read_only, isolation_level=None)
    except sqlite3.Error as exc:
        raise StorageError(f"cannot open {path}: {exc}") from exc
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        yield db
    finally:
        db.close()


def _create_private(path: Path) -> None:
    """Create ``path`` empty with mode 0600 (it will hold user ids and answers).

    Raises:
        FileExistsError: it exists.
    """
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup(db: str | Path, target: str | Path) -> BackupInfo:
    """Copy the live database ``db`` to the new file ``target``, consistently.

    Safe while the bot runs (WAL mode): the copy is one snapshot, taken in one step of the
    backup API, so the bot's writes neither wait for it nor restart it.

    Returns:
        What the backup holds.

    Raises:
        StorageError: ``db`` does not exist or cannot be read, ``target`` exists or cannot be
            written (nothing is left behind at ``target``).
    """
    db, target = Path(db), Path(target)
    if not db.is_file():
        raise StorageError(f"no database at {db} (QUIZBOT_DB / --db)")
    if target.exists():
        raise StorageError(f"{target} exists: give a new file name for the backup")
    if not target.parent.is_dir():
        raise StorageError(
            f"cannot back up to {target}: there is no folder {target.parent} (create it first)"
        )
    partial = target.with_name(f".{target.name}.partial")
    try:
        partial.unlink(missing_ok=True)
        _create_private(partial)
        with _connect(db) as source, _connect(partial) as copy:
            source.backup(copy)  # pages=-1: everything in one step, one snapshot
            copy.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
            info = _inspect(copy, partial)
        _fsync(partial)
        os.replace(partial, target)
        with contextlib.suppress(OSError):  # the rename itself, durable
            _fsync(target.parent)
    except (OSError, sqlite3.Error) as exc:
        partial.unlink(missing_ok=True)
        # an OSError names the hidden partial file, which the operator never asked for
        reason = exc.strerror or exc if isinstance(exc, OSError) else exc
        raise StorageError(f"cannot back up {db} to {target}: {reason}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return BackupInfo(
        target, info.schema_version, info.answers, info.group_answers, target.stat().st_size
    )


SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite database file (https://www.sqlite.org/fileformat.html)."""


def _check_target(db: Path) -> None:
    """Refuse to restore onto ``db`` unless it is absent, empty or a SQLite database file, so
    that a mistyped ``QUIZBOT_DB`` (``/etc/passwd``) gets no file made beside it.

    Raises:
        StorageError: ``db`` is a folder, another kind of file, or not a SQLite database.
    """
    try:
        if db.is_dir():
            raise StorageError(
                f"cannot restore to {db}: it is a folder (QUIZBOT_DB / --db "
                "names the database file)"
            )
        if not db.exists() or not db.stat().st_size:
            return
        if not db.is_file():
            raise StorageError(f"cannot restore to {db}: it is not a regular file")
        with db.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StorageError(f"cannot restore to {db}: {exc.strerror}") from exc
    if header != SQLITE_HEADER:
        raise StorageError(
            f"cannot restore to {db}: it is not a SQLite database (QUIZBOT_DB / "
            "--db names the database file): nothing was changed"
        )


def restore(source: str | Path, db: str | Path, *, known_version: int) -> BackupInfo:
    """Replace database ``db`` by the backup ``source``, if nothing uses ``db``.

    Takes ``db``'s lock exclusively for the whole restore (so no bot starts meanwhile), checks
    the backup (``quick_check``, a schema this quizbot knows), keeps the current database as
    ``<db>.before-restore`` (``.before-restore.2`` ... when an earlier restore kept one: never
    overwritten), then copies the backup in
    with the backup API (which also clears a leftover ``-wal`` of the old database).

    Args:
        known_version: The newest schema version this quizbot knows (a newer backup is
            refused: migrations only go forward).

    Returns:
        What the restored database holds.

    Raises:
        StorageError: ``db`` is in use, the backup is missing, damaged, not a quizbot database
            (no schema version, or without quizbot's tables) or newer than this quizbot;
            nothing was changed.
    """
    source, db = Path(source), Path(db)
    if not source.is_file():
        raise StorageError(f"no backup at {source}")
    if not db.parent.is_dir():
        raise StorageError(f"cannot restore to {db}: folder {db.parent} does not exist")
    _check_target(db)  # before the lock file or a kept copy is made beside it
    lock = DatabaseLock(db, exclusive=True)
    try:
        with _connect(source, read_only=True) as backup_db:
            info = _inspect(backup_db, source)
            if info.schema_version > known_version:
                raise StorageError(
                    f"{source} has schema version {info.schema_version}, newer than this "
                    f"quizbot knows ({known_version}): restore it with the quizbot that made it"
                )
            tables = {
                row[0]
                for row in backup_db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if info.schema_version < 1 or not set(QUIZBOT_TABLES) <= tables:
                raise StorageError(
                    f"{source} is not a quizbot database (schema version "
                    f"{info.schema_version}, tables: {', '.join(sorted(tables)) or 'none'}): "
                    "nothing was changed"
                )
            keep: Path | None = None
            if db.exists():
                keep = _kept_name(db)
                with _connect(db) as current, _connect(keep) as copy:
                    current.backup(copy)
                    copy.execute("PRAGMA journal_mode = DELETE")
                os.chmod(keep, 0o600)
            else:
                _create_private(db)
            with _connect(db) as target:
                backup_db.backup(target)
                restored = replace(_inspect(target, db), kept=keep)
    except (OSError, sqlite3.Error) as exc:
        raise StorageError(f"cannot restore {source} to {db}: {exc}") from exc
    finally:
        lock.release()
    return restored
