"""A throwaway PostgreSQL server for the tests, CI and the benchmark.

``initdb`` into a private temporary folder, started by ``pg_ctl`` as an unprivileged user
(PostgreSQL refuses to run as root: as root, the folder is handed to ``nobody`` and the server
runs under ``runuser``), listening on a Unix socket in that folder only (no TCP), on a random
port number (which names the socket), trust authentication, role ``quizbot``. Stopped
(``pg_ctl stop -m immediate``) and the folder removed by :meth:`PgServer.stop`.

From a shell (``.ci/run``)::

    python -m tests.support.pgserver start DIR   # prints the server's URL; exit 1 if not
    python -m tests.support.pgserver stop DIR
"""

from __future__ import annotations

import glob
import os
import pwd
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROLE = "quizbot"
DATABASE = "quizbot"
RUN_AS = "nobody"
"""The unprivileged user the server runs as when the caller is root."""


class PgUnavailable(RuntimeError):
    """PostgreSQL is not installed, or could not be started; the message says which and how."""


def find_bin(name: str) -> str:
    """The path of PostgreSQL's program ``name`` (on PATH, else Debian's
    ``/usr/lib/postgresql/<version>/bin``, newest first).

    Raises:
        PgUnavailable: not found.
    """
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return candidate
    raise PgUnavailable(
        f"PostgreSQL's {name} was not found (on PATH or in /usr/lib/postgresql/*/bin): install "
        "PostgreSQL 15 or newer (Debian: apt-get install postgresql), or set QUIZBOT_TEST_PG "
        "to a server's URL, or set QUIZBOT_SKIP_PG=1 to skip the PostgreSQL tests"
    )


def run_as() -> list[str]:
    """The command prefix that runs a program as :data:`RUN_AS` when we are root (PostgreSQL
    refuses to run as root): ``runuser`` (util-linux; on PATH, else /usr/sbin or /sbin, which a
    trimmed PATH leaves out); nothing when we are not root.

    Raises:
        PgUnavailable: root, and no ``runuser``.
    """
    if os.geteuid() != 0:
        return []
    found = shutil.which("runuser") or next(
        (path for path in ("/usr/sbin/runuser", "/sbin/runuser") if os.access(path, os.X_OK)),
        None,
    )
    if found is None:
        raise PgUnavailable(
            "running as root, PostgreSQL must run as another user, but runuser (util-linux) was "
            "not found on PATH or in /usr/sbin: install util-linux, or run the tests as a "
            "non-root user, or set QUIZBOT_TEST_PG to a server's URL"
        )
    return [found, "-u", RUN_AS, "--"]


@dataclass
class PgServer:
    """A running throwaway server.

    Attributes:
        folder: The temporary folder (data in ``data/``, socket and log beside it).
        port: The port number naming the socket ``.s.PGSQL.<port>``.
    """

    folder: Path
    port: int

    @property
    def url(self) -> str:
        """``postgresql://quizbot@/quizbot?host=<folder>&port=<port>`` (Unix socket)."""
        return f"postgresql://{ROLE}@/{DATABASE}?host={self.folder}&port={self.port}"

    @classmethod
    def start(cls, folder: str | Path | None = None) -> PgServer:
        """initdb and start a server in ``folder`` (a new temporary folder if None).

        Raises:
            PgUnavailable: PostgreSQL is missing or would not start (the server's log is
                quoted).
        """
        initdb, pg_ctl = find_bin("initdb"), find_bin("pg_ctl")
        folder = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="quizbot-pg-"))
        folder.mkdir(parents=True, exist_ok=True)
        as_user: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam(RUN_AS)
            os.chown(folder, user.pw_uid, user.pw_gid)
            as_user = run_as()
        folder.chmod(0o700)
        port = random.randrange(20000, 60000)
        data, log = folder / "data", folder / "server.log"
        cls._run(
            [
                *as_user,
                initdb,
                "-D",
                str(data),
                "-U",
                ROLE,
                "--auth=trust",
                "--encoding=UTF8",
                "--no-sync",
            ],
            log,
        )
        with (data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write(
                f"listen_addresses = ''\nunix_socket_directories = '{folder}'\nport = {port}\n"
            )
        cls._run(
            [*as_user, pg_ctl, "-D", str(data), "-l", str(log), "-w", "-t", "60", "start"], log
        )
        server = cls(folder, port)
        cls._run(
            [
                *as_user,
                find_bin("createdb"),
                "-h",
                str(folder),
                "-p",
                str(port),
                "-U",
                ROLE,
                DATABASE,
            ],
            log,
        )
        return server

    @staticmethod
    def _run(command: list[str], log: Path) -> None:
        proc = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if proc.returncode != 0:
            server_log = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise PgUnavailable(
                f"PostgreSQL could not start: {' '.join(command)} exited {proc.returncode}:\n"
                f"{proc.stdout}{proc.stderr}{server_log}"
            )

    def stop(self) -> None:
        """Stop the server at once and remove its folder (idempotent)."""
        stop_folder(self.folder)


def stop_folder(folder: Path) -> None:
    """Stop the server whose data is in ``folder/data`` (if running) and remove ``folder``."""
    data = folder / "data"
    if (data / "postmaster.pid").exists():
        as_user = run_as()
        subprocess.run(
            [*as_user, find_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            timeout=60,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    """``start DIR`` (print the URL) or ``stop DIR``."""
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        print("usage: python -m tests.support.pgserver start|stop DIR", file=sys.stderr)
        return 2
    if argv[0] == "stop":
        stop_folder(Path(argv[1]))
        return 0
    try:
        print(PgServer.start(argv[1]).url)
    except PgUnavailable as exc:
        print(f"pgserver: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
