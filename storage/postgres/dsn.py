"""``QUIZBOT_DB`` values that name a PostgreSQL database: telling them from a SQLite file, and
showing them without their password."""

from __future__ import annotations

import re


def is_postgres_url(value: object) -> bool:
    """Whether ``value`` (a ``QUIZBOT_DB`` setting) names a PostgreSQL database
    (``postgresql://`` or ``postgres://``) rather than a SQLite file."""
    return isinstance(value, str) and value.startswith(("postgresql://", "postgres://"))


def redact_dsn(dsn: str) -> str:
    """``dsn`` with its password (if any) replaced by ``***``, for messages and logs."""
    return re.sub(r"(://[^:/@?]*:)[^@/?]*@", r"\1***@", dsn)
