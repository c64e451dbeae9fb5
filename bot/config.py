"""Settings from the environment, overridable by command-line flags (see ``quizbot --help``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


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


class ConfigError(Exception):
    """A setting is missing or malformed; the message says which and how to set it."""


@dataclass(frozen=True)
class Settings:
    """The bot's settings.

    Attributes:
        token: Bot API token (``TELEGRAM_BOT_TOKEN``); needed by ``quizbot run`` only. Never logged.
        base_url: Bot API base URL (``TELEGRAM_BASE_URL``), passed to PTB's ``base_url``
            (e.g. ``http://127.0.0.1:8081/bot`` for a local Bot API server); None for Telegram.
        db: SQLite database file (``QUIZBOT_DB``, default ``quizbot.sqlite3``).
        banks: Bank files or folders (``QUIZBOT_BANKS``, ``os.pathsep``-separated; default the
            bundled ``banks/``).
        question_seconds: Answer window of a group question, in seconds
            (``QUIZBOT_QUESTION_SECONDS``, default 30).
    """

    token: str | None = field(default=None, repr=False)
    base_url: str | None = None
    db: Path = Path("quizbot.sqlite3")
    banks: tuple[Path, ...] = (BUNDLED_BANKS,)
    question_seconds: float = DEFAULT_QUESTION_SECONDS

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, strict: bool = True,
                 **flags: object) -> Settings:
        """Read settings from ``env`` (default ``os.environ``); non-None ``flags`` win.

        Args:
            strict: Check the settings only the bot uses (the question window); ``play`` and
                ``validate`` pass False and get the default window when it is malformed.

        Raises:
            ConfigError: with ``strict``, QUIZBOT_QUESTION_SECONDS (or the flag) is not a
                number of seconds in :data:`QUESTION_SECONDS_RANGE`.
        """
        env = os.environ if env is None else env
        banks_env = env.get("QUIZBOT_BANKS")
        values: dict[str, object] = {
            "token": env.get("TELEGRAM_BOT_TOKEN") or None,
            "base_url": env.get("TELEGRAM_BASE_URL") or None,
            "db": Path(env.get("QUIZBOT_DB") or "quizbot.sqlite3"),
            "banks": (tuple(Path(p) for p in banks_env.split(os.pathsep) if p)
                      if banks_env else (BUNDLED_BANKS,)),
            "question_seconds": env.get("QUIZBOT_QUESTION_SECONDS") or DEFAULT_QUESTION_SECONDS,
        }
        for name, value in flags.items():
            if value is not None:
                values[name] = value
        if isinstance(values["db"], str):
            values["db"] = Path(values["db"])
        if values["banks"] and isinstance(values["banks"], list | tuple):
            values["banks"] = tuple(Path(p) for p in values["banks"])  # type: ignore[union-attr]
        try:
            seconds = float(values["question_seconds"])  # type: ignore[arg-type]
        except (TypeError, ValueError):
            seconds = float("nan")
        low, high = QUESTION_SECONDS_RANGE
        if not low <= seconds <= high:  # also false for NaN
            if strict:
                raise ConfigError(
                    "QUIZBOT_QUESTION_SECONDS / --question-seconds must be a number of seconds "
                    f"from {low:g} to {high:g}, got {values['question_seconds']!r}")
            seconds = DEFAULT_QUESTION_SECONDS
        values["question_seconds"] = seconds
        return cls(**values)  # type: ignore[arg-type]

    def require_token(self) -> str:
        """The token.

        Raises:
            ConfigError: no token is set.
        """
        if not self.token:
            raise ConfigError(
                "TELEGRAM_BOT_TOKEN is not set: get a token from @BotFather and run\n"
                "  TELEGRAM_BOT_TOKEN=<your token> quizbot run\n"
                "(or pass --token; `quizbot play` runs the quiz in this terminal without one)")
        return self.token
