"""PostgreSQL storage (asyncpg), for one or several quizbot instances sharing a database: the
twin of the SQLite store, split as it is.

- :mod:`storage.postgres.store`: :class:`PostgresStore`, opened and closed, and what spans the
  ports (deleting a user's data, the health write, the item report); the twin of
  :mod:`storage.sqlite`.
- :mod:`storage.postgres.writer`: group commit on pooled connections, and reads (of
  :mod:`storage.writer`).
- :mod:`storage.postgres.schema`: the migrations of ``storage/migrations_pg/`` and their runner
  (of :mod:`storage.schema`).
- :mod:`storage.postgres.attempts`, :mod:`storage.postgres.groups`,
  :mod:`storage.postgres.learning`: the statements of each port (of :mod:`storage.attempts`,
  :mod:`storage.groups`, :mod:`storage.learning`).
- :mod:`storage.postgres.dsn`: telling a PostgreSQL URL from a SQLite path, and showing it
  without its password.
"""

from __future__ import annotations

from storage.postgres.dsn import is_postgres_url, redact_dsn
from storage.postgres.schema import MIGRATION_LOCK, migrations
from storage.postgres.store import PSEUDONYM_LOCK, PostgresStore

__all__ = [
    "MIGRATION_LOCK",
    "PSEUDONYM_LOCK",
    "PostgresStore",
    "is_postgres_url",
    "migrations",
    "redact_dsn",
]
