"""Settings from the environment, overridable by command-line flags (see ``quizbot --help``)."""

from __future__ import annotations

import ipaddress
import os
import re
import reprlib
import secrets
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bot.redaction import TOKEN_SHAPE, Redactor, redact_tokens


def _bundled_banks() -> Path:
    source_tree = Path(__file__).resolve().parent.parent / "banks"
    installed = Path(sys.prefix) / "share" / "quizbot" / "banks"
    return source_tree if source_tree.is_dir() or not installed.is_dir() else installed


BUNDLED_BANKS = _bundled_banks()
"""The bundled banks: the source tree's ``banks/`` (a checkout or an editable install), else
the copy a regular install puts in ``<prefix>/share/quizbot/banks``."""

DEFAULT_QUESTION_SECONDS = 30.0
QUESTION_SECONDS_RANGE = (1.0, 3600.0)
"""Allowed answer windows of group questions, in seconds (inclusive)."""

DEFAULT_JOB_SENDS_PER_SECOND = 20.0
"""What every job of the bot together may send a second by default (the question of the day,
homework, review reminders): Telegram allows a bot about 30 messages a second in all (Bot API
FAQ), and the rest is kept for replies to what users do."""
JOB_SENDS_RANGE = (1.0, 30.0)
"""Allowed ``QUIZBOT_JOB_SENDS_PER_SECOND`` (inclusive): beyond Telegram's free limit a bot
needs its paid broadcasts (``QUIZBOT_PAID_BROADCAST``, :data:`PAID_JOB_SENDS_RANGE`)."""
PAID_JOB_SENDS_RANGE = (1.0, 1000.0)
"""Allowed ``QUIZBOT_JOB_SENDS_PER_SECOND`` with ``QUIZBOT_PAID_BROADCAST`` on (inclusive):
the Bot API's ``allow_paid_broadcast`` allows "up to 1000 messages per second"."""


TOKEN_PATTERN = re.compile(r"\d+:[A-Za-z0-9_-]+")
"""What a bot token looks like: the bot's id, a colon and a secret of letters, digits, ``_``
and ``-`` (as @BotFather gives it; Bot API "Authorizing your bot")."""


WEBHOOK_SECRET_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,256}")
"""What ``setWebhook``'s ``secret_token`` may be: 1-256 characters, only ``A-Z``, ``a-z``,
``0-9``, ``_`` and ``-`` (Bot API, setWebhook)."""

DEFAULT_LISTEN = ("127.0.0.1", 8443)
"""Where the webhook server listens unless ``QUIZBOT_LISTEN`` says otherwise: loopback, for a
reverse proxy on the same host that terminates TLS (8443 is one of the ports Telegram delivers
webhooks to: 443, 80, 88 and 8443, Bot API setWebhook)."""


@dataclass(frozen=True)
class Address:
    """A TCP address to listen on.

    Attributes:
        host: IP address or host name (``0.0.0.0`` for every IPv4 interface, ``::`` for IPv6).
        port: TCP port, 1-65535.
    """

    host: str
    port: int

    def __str__(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"


def parse_address(value: str, what: str, token: str | None = None) -> Address:
    """Parse ``HOST:PORT`` (``[v6]:PORT`` for IPv6; ``:PORT`` means every interface).

    Args:
        value: The text, e.g. ``0.0.0.0:8443`` or ``[::1]:9090``.
        what: The setting's names, for the message.
        token: The bot's token, if known: replaced in the message before it is shortened
            (a shortened value no longer matches the logs' redaction).

    Raises:
        ConfigError: it is not a host and a port from 1 to 65535.
    """
    match = re.fullmatch(r"(?:\[([0-9A-Fa-f:.]+)\]|([^:\s\[\]]*)):([0-9]{1,5})", value.strip())
    port = int(match[3]) if match else 0
    host = (match[1] or match[2] or "0.0.0.0") if match else ""
    if match and match[1]:
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            port = 0
    if not 1 <= port <= 65535:
        raise ConfigError(
            f"{what} must be HOST:PORT with a port from 1 to 65535, like "
            f"127.0.0.1:8443; got {_shown(value, token)}"
        )
    return Address(host, port)


_SHORTENED = reprlib.Repr()
_SHORTENED.maxstring = 120
"""How a setting's value is quoted in an error message: whole up to 120 characters (a URL an
operator can recognise), cut in the middle beyond."""


def _shown(value: str, token: str | None) -> str:
    """``value`` for an error message: the token (if any), and anything shaped like one,
    replaced first, then shortened (:data:`_SHORTENED`)."""
    return _SHORTENED.repr(Redactor(token)(value) if token else redact_tokens(value))


def is_database_url(value: str) -> bool:
    """Whether a ``QUIZBOT_DB`` value is a PostgreSQL URL (``postgresql://`` or
    ``postgres://``) rather than a SQLite file path (a URL must stay a string: ``Path`` would
    fold its ``//``)."""
    return value.startswith(("postgresql://", "postgres://"))


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to set it (and never
    quotes the token)."""


@dataclass(frozen=True)
class Settings:
    """The bot's settings.

    Attributes:
        token: Bot API token (``TELEGRAM_BOT_TOKEN``, or the contents of the file named by
            ``TELEGRAM_BOT_TOKEN_FILE``); needed by ``quizbot run`` only. Never logged.
        base_url: Bot API base URL (``TELEGRAM_BASE_URL``), passed to PTB's ``base_url``
            (e.g. ``http://127.0.0.1:8081/bot`` for a local Bot API server); None for Telegram.
            An http or https URL with a host, checked by :meth:`from_env`.
        base_file_url: Where files sent to the bot are downloaded from
            (``TELEGRAM_BASE_FILE_URL``), passed to PTB's ``base_file_url``: PTB fetches
            ``<base_file_url><token>/<file_path>`` after ``getFile``. Defaults to the base URL's
            own host with the path ``/file/bot`` when ``TELEGRAM_BASE_URL`` is set (a local Bot
            API server serves files there), else Telegram's. Checked like the base URL.
        db: The database (``QUIZBOT_DB``): a SQLite file (default ``quizbot.sqlite3``), or a
            PostgreSQL URL ``postgresql://user@host[:port]/database`` (kept as a string, see
            :func:`is_database_url`), for one or several instances sharing it.
        banks: Bank files or folders (``QUIZBOT_BANKS``, ``os.pathsep``-separated; default the
            bundled ``banks/``).
        question_seconds: Answer window of a group question, in seconds
            (``QUIZBOT_QUESTION_SECONDS``, default 30).
        webhook_url: The public HTTPS URL Telegram delivers updates to
            (``QUIZBOT_WEBHOOK_URL``); None: long polling. Its path is the path the webhook
            server answers on.
        listen: Where the webhook server listens (``QUIZBOT_LISTEN``, default
            :data:`DEFAULT_LISTEN`); TLS is terminated by a reverse proxy in front of it.
        webhook_secret: The ``secret_token`` Telegram sends with every webhook request
            (``QUIZBOT_WEBHOOK_SECRET``; :data:`WEBHOOK_SECRET_PATTERN`); a random one per start
            when not set. Never logged.
        metrics: Where ``/healthz`` and ``/metrics`` are served (``QUIZBOT_METRICS``); None: not
            served.
        skip_invalid_banks: Start without the bank files that fail to load, logging each
            (``QUIZBOT_SKIP_INVALID_BANKS``); default False: any invalid bank stops the start.
        create_db: Create a new, empty SQLite database even where the files beside ``db``
            show one was used before and is gone (``QUIZBOT_CREATE_DB``, ``--create-db``);
            default False: such a start is refused. A folder never used needs no flag.
        job_sends_per_second: The jobs' one send budget, messages a second
            (``QUIZBOT_JOB_SENDS_PER_SECOND``, :data:`DEFAULT_JOB_SENDS_PER_SECOND`, within
            :data:`JOB_SENDS_RANGE`, or :data:`PAID_JOB_SENDS_RANGE` with ``paid_broadcast``):
            it bounds how many reminders a day the bot can send.
        paid_broadcast: Send the jobs' messages with the Bot API's ``allow_paid_broadcast``
            (``QUIZBOT_PAID_BROADCAST``; charged in Telegram Stars to the bot's balance), so
            that ``job_sends_per_second`` may go beyond Telegram's free limit; default False.
    """

    token: str | None = field(default=None, repr=False)
    base_url: str | None = None
    base_file_url: str | None = None
    db: Path | str = Path("quizbot.sqlite3")
    banks: tuple[Path, ...] = (BUNDLED_BANKS,)
    question_seconds: float = DEFAULT_QUESTION_SECONDS
    webhook_url: str | None = None
    listen: Address = Address(*DEFAULT_LISTEN)
    webhook_secret: str | None = field(default=None, repr=False)
    metrics: Address | None = None
    skip_invalid_banks: bool = False
    create_db: bool = False
    job_sends_per_second: float = DEFAULT_JOB_SENDS_PER_SECOND
    paid_broadcast: bool = False

    @property
    def file_url(self) -> str | None:
        """PTB's ``base_file_url``: :attr:`base_file_url`, else the base URL's host with
        ``/file/bot`` (:func:`default_file_url`), else None (Telegram's)."""
        if self.base_file_url:
            return self.base_file_url
        return default_file_url(self.base_url) if self.base_url else None

    @property
    def webhook_path(self) -> str:
        """The path the webhook server answers on: the webhook URL's (``/`` if it has none)."""
        return urlsplit(self.webhook_url or "").path or "/"

    @classmethod
    def from_env(  # noqa: C901 - one branch per setting of the environment
        cls,
        env: Mapping[str, str] | None = None,
        *,
        strict: bool = True,
        **flags: object,
    ) -> Settings:
        """Read settings from ``env`` (default ``os.environ``); non-None ``flags`` win.

        The token comes from ``TELEGRAM_BOT_TOKEN`` or, with ``strict``, from the file named
        by ``TELEGRAM_BOT_TOKEN_FILE`` (surrounding whitespace stripped; a path is not a
        secret, so the file keeps the token out of the environment of child processes and of
        ``/proc/<pid>/environ`` dumps). The flags ``token`` and ``token_file`` replace both.

        Args:
            env: The environment variables.
            strict: Check and read the settings only the bot uses (the token file, the base
                URL, the question window); ``play`` and ``validate`` pass False: they ignore
                the token file and a malformed base URL, and get the default window when it
                is malformed.
            **flags: Command-line values by attribute name (plus ``token_file``); None means
                not given.

        Raises:
            ConfigError: with ``strict``: both ``TELEGRAM_BOT_TOKEN`` and
                ``TELEGRAM_BOT_TOKEN_FILE`` are set; the token file cannot be read or is empty;
                the base URL is not an http(s) URL with a host; QUIZBOT_QUESTION_SECONDS (or the
                flag) is not a number of seconds in :data:`QUESTION_SECONDS_RANGE`.
        """
        env = os.environ if env is None else env
        banks_env = env.get("QUIZBOT_BANKS")
        token_flag, token_file = flags.pop("token", None), flags.pop("token_file", None)
        if token_flag is None and token_file is None:
            token_flag = env.get("TELEGRAM_BOT_TOKEN") or None
            token_file = env.get("TELEGRAM_BOT_TOKEN_FILE") or None
            if token_flag and token_file and strict:
                raise ConfigError(
                    "TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_TOKEN_FILE are both set: set only one"
                )
        token = (
            str(token_flag)
            if token_flag
            else _read_token_file(Path(str(token_file)))
            if token_file and strict
            else None
        )
        values: dict[str, object] = {
            "token": token,
            "base_url": env.get("TELEGRAM_BASE_URL") or None,
            "base_file_url": env.get("TELEGRAM_BASE_FILE_URL") or None,
            "db": env.get("QUIZBOT_DB") or "quizbot.sqlite3",
            "banks": (
                tuple(Path(p) for p in banks_env.split(os.pathsep) if p)
                if banks_env
                else (BUNDLED_BANKS,)
            ),
            "question_seconds": env.get("QUIZBOT_QUESTION_SECONDS") or DEFAULT_QUESTION_SECONDS,
            "webhook_url": env.get("QUIZBOT_WEBHOOK_URL") or None,
            "listen": env.get("QUIZBOT_LISTEN") or None,
            "webhook_secret": env.get("QUIZBOT_WEBHOOK_SECRET") or None,
            "metrics": env.get("QUIZBOT_METRICS") or None,
            "skip_invalid_banks": _flag(env.get("QUIZBOT_SKIP_INVALID_BANKS")),
            "create_db": _flag(env.get("QUIZBOT_CREATE_DB")),
            "job_sends_per_second": (
                env.get("QUIZBOT_JOB_SENDS_PER_SECOND") or DEFAULT_JOB_SENDS_PER_SECOND
            ),
            "paid_broadcast": _flag(env.get("QUIZBOT_PAID_BROADCAST")),
        }
        for name, value in flags.items():
            if value is not None:
                values[name] = value
        if isinstance(values["db"], str) and not is_database_url(values["db"]):
            values["db"] = Path(values["db"])
        if values["banks"] and isinstance(values["banks"], list | tuple):
            values["banks"] = tuple(Path(p) for p in values["banks"])
        try:  # a str, int or float (an object to mypy): float() refusing it is the check
            seconds = float(values["question_seconds"])  # type: ignore[arg-type]
        except (TypeError, ValueError):
            seconds = float("nan")
        low, high = QUESTION_SECONDS_RANGE
        if not low <= seconds <= high:  # also false for NaN
            if strict:
                raise ConfigError(
                    "QUIZBOT_QUESTION_SECONDS / --question-seconds must be a number of seconds "
                    f"from {low:g} to {high:g}, got {values['question_seconds']!r}"
                )
            seconds = DEFAULT_QUESTION_SECONDS
        values["question_seconds"] = seconds
        try:
            rate = float(values["job_sends_per_second"])  # type: ignore[arg-type]
        except (TypeError, ValueError):
            rate = float("nan")
        low, high = PAID_JOB_SENDS_RANGE if values["paid_broadcast"] else JOB_SENDS_RANGE
        if not low <= rate <= high:
            if strict:
                raise ConfigError(
                    f"QUIZBOT_JOB_SENDS_PER_SECOND must be a number from {low:g} to {high:g} "
                    + (
                        "(paid broadcasts allow up to 1000 messages a second), got "
                        if values["paid_broadcast"]
                        else "(Telegram allows a bot about 30 messages a second in all; more needs "
                        "QUIZBOT_PAID_BROADCAST=1), got "
                    )
                    + repr(values["job_sends_per_second"])
                )
            rate = DEFAULT_JOB_SENDS_PER_SECOND
        values["job_sends_per_second"] = rate
        if strict and values["base_url"] is not None:
            _check_base_url(str(values["base_url"]), token)
        if strict and values["base_file_url"] is not None:
            _check_base_url(str(values["base_file_url"]), token, "TELEGRAM_BASE_FILE_URL")
        values["listen"] = (
            Address(*DEFAULT_LISTEN)
            if values["listen"] is None
            else _address(values["listen"], "QUIZBOT_LISTEN / --listen", token)
        )
        if values["metrics"] is not None:
            values["metrics"] = _address(values["metrics"], "QUIZBOT_METRICS / --metrics", token)
        if strict and values["webhook_url"] is not None:
            _check_webhook_url(str(values["webhook_url"]), token)
        secret = values["webhook_secret"]
        if strict and secret is not None and not WEBHOOK_SECRET_PATTERN.fullmatch(str(secret)):
            raise ConfigError(
                "QUIZBOT_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, "
                "'_' and '-' (Telegram's rule for secret_token); the value is not "
                "shown here"
            )
        if strict and values["webhook_url"] is not None and secret is None:
            values["webhook_secret"] = secrets.token_urlsafe(32)  # 43 of [A-Za-z0-9_-]
        # each field's value, converted and checked above (the dict holds objects, to mypy)
        return cls(**values)  # type: ignore[arg-type]

    def require_token(self) -> str:
        """The token.

        Raises:
            ConfigError: no token is set, or it does not look like one
                (:data:`TOKEN_PATTERN`; the message does not quote it).
        """
        if not self.token:
            raise ConfigError(
                "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and run\n"
                "  TELEGRAM_BOT_TOKEN=<your token> quizbot run\n"
                "(or put it in a file readable by the bot only and set TELEGRAM_BOT_TOKEN_FILE; "
                "`quizbot play` runs the quiz in this terminal without one)"
            )
        if not TOKEN_PATTERN.fullmatch(self.token):
            raise ConfigError(
                "the bot token is malformed: @BotFather gives digits, a colon, then letters, "
                "digits, '_' and '-' (the value is not shown here)"
            )
        return self.token


def _flag(value: str | None) -> bool:
    """Whether a yes/no variable is set to yes (``1``, ``true``, ``yes`` or ``on``)."""
    return (value or "").strip().lower() in ("1", "true", "yes", "on")


def _address(value: object, what: str, token: str | None = None) -> Address:
    return value if isinstance(value, Address) else parse_address(str(value), what, token)


def _check_webhook_url(url: str, token: str | None = None) -> None:
    """Check a webhook URL: http(s) with a host, no fragment, no spaces. Telegram itself
    requires HTTPS (and ports 443, 80, 88 or 8443) and answers setWebhook with an error
    otherwise; plain http is accepted here for a local Bot API server and the tests.

    Raises:
        ConfigError: it is not such a URL.
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number 0-65535
    except ValueError:
        good = False
    else:
        good = (
            parts.scheme in ("http", "https")
            and bool(parts.hostname)
            and not parts.fragment
            and not any(c.isspace() or not c.isprintable() for c in url)
        )
    if not good:
        raise ConfigError(
            "QUIZBOT_WEBHOOK_URL / --webhook-url must be the public https URL "
            f"Telegram posts updates to, like https://example.org/tg; got "
            f"{_shown(url, token)}"
        )


def _read_token_file(path: Path) -> str:
    """The token in ``path``, stripped of surrounding whitespace.

    Raises:
        ConfigError: the file cannot be read (the OS error is named), is not UTF-8, or is
            empty.
    """
    where = f"the token file {path} (TELEGRAM_BOT_TOKEN_FILE / --token-file)"
    try:
        token = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ConfigError(f"cannot read {where}: {exc.strerror or type(exc).__name__}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"cannot read {where}: it is not UTF-8 text") from None
    if not token:
        raise ConfigError(f"{where} is empty")
    return token


def default_file_url(base_url: str) -> str:
    """The file URL of a Bot API server at ``base_url``: the same scheme, host and port, path
    ``/file/bot`` (as the Bot API serves ``/file/bot<token>/<file_path>``; Bot API
    ``getFile``)."""
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}/file/bot"


def _check_base_url(url: str, token: str | None, name: str = "TELEGRAM_BASE_URL") -> None:
    """Check a Bot API base URL: http or https, a host, a valid port, no query or fragment, no
    spaces or control characters, and a path ending in ``/bot`` (or holding PTB's ``{token}``
    placeholder): PTB appends ``<token>/<method>`` to it as a string, so without ``/bot`` the
    token lands in the host's port. A token in it (``http://host/bot<token>``, a common paste) is
    refused: the token comes from ``TELEGRAM_BOT_TOKEN`` or the token file only.

    Raises:
        ConfigError: it is not; the message quotes the URL cut short, the token redacted.
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- raises ValueError for a port that is not a number 0-65535
    except ValueError:
        good = False
    else:
        good = (
            parts.scheme in ("http", "https")
            and bool(parts.hostname)
            and not parts.query
            and not parts.fragment
            and not any(c.isspace() or not c.isprintable() for c in url)
        )
    shown = _shown(url, token)
    if not good:
        raise ConfigError(
            f"{_setting(name)} must be an http or https URL with a host, like "
            f"http://127.0.0.1:8081/{_path(name)} for a local Bot API server; got {shown}"
        )
    if (token and any(secret in url for secret in Redactor(token).secrets)) or TOKEN_SHAPE.search(
        url
    ):
        raise ConfigError(
            f"{_setting(name)} holds a bot token: give the URL up to /bot, like "
            f"http://127.0.0.1:8081/{_path(name)} (the token comes from TELEGRAM_BOT_TOKEN or "
            f"TELEGRAM_BOT_TOKEN_FILE); got {shown}"
        )
    if not parts.path.endswith("/bot") and "{token}" not in url:
        raise ConfigError(
            f"{_setting(name)} must end in /bot (the bot appends <token>/<method> "
            f"to it), like http://127.0.0.1:8081/{_path(name)}; or hold {{token}} where the token "
            f"goes; got {shown}"
        )


def _setting(name: str) -> str:
    return "TELEGRAM_BASE_URL / --base-url" if name == "TELEGRAM_BASE_URL" else name


def _path(name: str) -> str:
    return "bot" if name == "TELEGRAM_BASE_URL" else "file/bot"
