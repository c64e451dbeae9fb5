"""The SQLite file under the bot: deleted, replaced or overwritten while it runs (noticed, not
acknowledged, saved), never silently recreated empty at a restart, and checked before any file
is created beside it."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot import i18n
from bot.config import Address
from bot.kernel.ports import StorageError
from storage import SQLiteStore, migrations
from storage.backup import backup, restore
from tests.support.botrun import RunningBot
from tests.support.person import Person
from tests.support.processes import free_port, start_bot_process


def answers(db: Path) -> int:
    """How many private answers the database ``db`` holds (checked sound first)."""
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return int(conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])


async def health(runner: RunningBot) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://{runner.metrics}/healthz") as response:
            return response.status, await response.json()


async def tap_is_refused(person: Person) -> None:
    """Tap option A of the question on screen: the bot says it could not record it."""
    question = person.question_message()
    data = next(b["callback_data"] for b in question["reply_markup"]["inline_keyboard"][0])
    before = len(person.bot_messages())
    await person.tap(question, data)
    sorry = await person.fake.wait_for(lambda: person.bot_messages()[before:])
    assert sorry[0]["text"] == i18n.catalog("en")("storage_failed")


def logged(
    caplog: pytest.LogCaptureFixture, text: str, logger: str | None = None
) -> list[logging.LogRecord]:
    """The records whose message holds ``text`` (of ``logger`` only, if given: the review
    cards' retries quote the storage error too)."""
    return [
        r for r in caplog.records if text in r.getMessage() and (logger is None or r.name == logger)
    ]


async def bot_with_health(fake, db: Path) -> RunningBot:
    return await RunningBot(fake, db, metrics=Address("127.0.0.1", free_port())).start()


async def test_database_deleted_mid_session_is_refused_told_and_saved(fake, tmp_path, caplog):
    """The database file deleted while a user plays: /healthz fails naming it, the next tap
    gets "couldn't record that", the log says so once; what the bot had open is saved beside
    the path (its WAL set aside at the stop), a restart refuses instead of creating an empty
    database, and restoring the saved copy brings the acknowledged answer back."""
    db = tmp_path / "quiz.sqlite3"
    runner = await bot_with_health(fake, db)
    try:
        ada = Person(fake, 501, "Ada")
        await ada.say("/start", replies=2)
        await ada.next(await ada.answer("A"))  # acknowledged: question 2 on screen
        os.unlink(db)
        status, body = await health(runner)
        assert status == 503 and body["status"] == "unhealthy"
        assert f"the database file {db} was deleted" in body["database"]
        await tap_is_refused(ada)
    finally:
        await runner.stop()
    [line] = logged(caplog, "was deleted while the bot had it open", "storage.writer")
    assert line.levelno == logging.ERROR and str(db) in line.getMessage()
    [rescued] = tmp_path.glob("quiz.sqlite3.rescued-*")
    assert answers(rescued) == 1 and rescued.stat().st_mode & 0o777 == 0o600
    assert logged(caplog, f"saved the database the bot had open (answers: 1) to {rescued}")
    assert not (tmp_path / "quiz.sqlite3-wal").exists()  # set aside: never applied elsewhere

    with pytest.raises(StorageError) as refused:
        await SQLiteStore.open(db)
    message = str(refused.value)
    assert f"QUIZBOT_DB / --db is {str(db)!r}" in message and "QUIZBOT_CREATE_DB=1" in message
    assert f"quizbot restore {rescued}" in message
    assert not db.exists()
    for lock in tmp_path.glob("quiz.sqlite3.*lock"):
        lock.unlink()  # `rm quiz.sqlite3*` before the bot noticed: the saved copy still tells
    with pytest.raises(StorageError, match=f"while {rescued} shows one was used"):
        await SQLiteStore.open(db)

    restore(rescued, db, known_version=len(migrations()))
    store = await SQLiteStore.open(db)
    await store.close()
    assert answers(db) == 1


@pytest.mark.parametrize("how", ["moved", "copied"])
async def test_database_replaced_by_a_copy_is_refused_and_the_copy_kept(
    fake, tmp_path, caplog, how
):
    """A backup put in place of the live file while the bot runs, moved over it (a new file)
    or copied onto it (the same file overwritten): /healthz fails, the next tap gets "couldn't
    record that", the log says what changed once, and after the stop the file at the path is
    the backup as it was, not overwritten by the bot's pages (a moved-over file's answers are
    also saved beside it)."""
    db = tmp_path / "quiz.sqlite3"
    runner = await bot_with_health(fake, db)
    try:
        ada = Person(fake, 502, "Ada")
        await ada.say("/start", replies=2)
        await ada.next(await ada.answer("A"))
        backup(db, tmp_path / "backup.sqlite3")  # one answer
        await ada.next(await ada.answer("A"))  # a second one, in the live file only
        if how == "moved":
            shutil.copyfile(tmp_path / "backup.sqlite3", tmp_path / "incoming")
            os.replace(tmp_path / "incoming", db)
        else:
            shutil.copyfile(tmp_path / "backup.sqlite3", db)  # cp onto the live file
        await tap_is_refused(ada)
        status, body = await health(runner)
        change = "replaced" if how == "moved" else "overwritten"
        assert status == 503 and f"the database file {db} was {change}" in body["database"]
    finally:
        await runner.stop()
    [line] = logged(caplog, f"was {change} while the bot had it open", "storage.writer")
    assert str(db) in line.getMessage()
    assert answers(db) == 1
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)  # the backup's
    rescued = list(tmp_path.glob("quiz.sqlite3.rescued-*"))
    assert [answers(r) for r in rescued] == ([2] if how == "moved" else [])
    store = await SQLiteStore.open(db)  # the bot starts on the backup
    await store.close()
    assert answers(db) == 1


async def test_a_path_that_is_not_a_database_is_refused_before_any_file_is_made(tmp_path):
    """QUIZBOT_DB naming a text file (like /etc/passwd) or a folder is refused naming the
    setting and its value, and nothing is created beside it."""
    passwd = tmp_path / "passwd"
    passwd.write_text("root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(StorageError) as refused:
        await SQLiteStore.open(passwd)
    assert str(refused.value).startswith(
        f"QUIZBOT_DB / --db is {str(passwd)!r}, which is not a SQLite database"
    )
    with pytest.raises(StorageError, match="which is a folder"):
        await SQLiteStore.open(tmp_path)
    with pytest.raises(StorageError, match="does not exist"):
        await SQLiteStore.open(tmp_path / "nowhere" / "quiz.sqlite3")
    assert list(tmp_path.iterdir()) == [passwd]
    assert passwd.read_text() == "root:x:0:0:root:/root:/bin/bash\n"

    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play"],
        text=True,
        capture_output=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "QUIZBOT_DB": str(passwd)},
        timeout=60,
    )
    assert proc.returncode == 1
    assert f"quizbot: QUIZBOT_DB / --db is {str(passwd)!r}, which is not a SQLite" in proc.stderr
    assert list(tmp_path.iterdir()) == [passwd]


async def test_another_applications_database_is_refused_and_left_unchanged(tmp_path):
    """QUIZBOT_DB naming another application's SQLite file (tables, no quizbot schema) is
    refused naming its tables; no table of quizbot's is added to it (issue 31, item 19)."""
    import sqlite3

    other = tmp_path / "shop.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL)")
        db.execute("INSERT INTO orders (total) VALUES (9.5)")
    db.close()
    with pytest.raises(StorageError, match=r"is not quizbot's: it holds other tables \(orders\)"):
        await SQLiteStore.open(other)
    with sqlite3.connect(other) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        version = db.execute("PRAGMA user_version").fetchone()[0]
    db.close()
    assert (tables, version) == (["orders"], 0)


async def test_another_applications_postgresql_schema_is_refused_and_left_unchanged(pg_db):
    """The same on PostgreSQL: a schema with another application's tables and no quizbot
    schema is refused naming them, and nothing is created in it."""
    import asyncpg

    from storage import PostgresStore

    db = await asyncpg.connect(pg_db)
    try:
        await db.execute("CREATE TABLE orders (id SERIAL PRIMARY KEY)")
        with pytest.raises(StorageError, match=r"not quizbot's: .* other tables \(orders\)"):
            await PostgresStore.open(pg_db)
        tables = await db.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    finally:
        await db.close()
    assert [row[0] for row in tables] == ["orders"]


async def test_restart_after_deletion_refuses_until_told_to_create(fake, tmp_path):
    """`quizbot run` on a folder whose database was deleted (its lock files left) exits 1 with
    a message naming QUIZBOT_DB and creates nothing; with QUIZBOT_CREATE_DB=1 it starts on a
    new database and says so in the log."""
    db, log = tmp_path / "quiz.sqlite3", tmp_path / "bot.log"
    store = await SQLiteStore.open(db)
    store.leases()  # what `quizbot run` does: <db>.run.lock too
    await store.close()
    db.unlink()
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "QUIZBOT_DB": str(db),
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    output, _ = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode == 1, output
    text = output.decode()
    assert f"QUIZBOT_DB / --db is {str(db)!r}, but there is no database there" in text
    assert f"{db}.lock" in text and "QUIZBOT_CREATE_DB=1" in text
    assert not db.exists()

    proc = await start_bot_process(fake, db, log, env={"QUIZBOT_CREATE_DB": "1"})
    proc.send_signal(signal.SIGINT)
    assert await asyncio.wait_for(proc.wait(), timeout=30) == 0
    assert f"created a new database at {db}" in log.read_text()
    assert answers(db) == 0


async def test_a_fresh_folder_starts_and_says_a_new_database_was_created(fake, tmp_path):
    """The README's quick start: no database, nothing beside it: `quizbot run` creates one and
    says so; the next start opens it without a word about creating."""
    db, log = tmp_path / "quizbot.sqlite3", tmp_path / "bot.log"
    for _ in range(2):
        proc = await start_bot_process(fake, db, log)
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), timeout=30) == 0
    assert log.read_text().count(f"created a new database at {db}") == 1
