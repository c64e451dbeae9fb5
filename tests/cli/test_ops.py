"""Operations: backups of a live database, restores, newer databases refused, users' data
deleted (storage and the `quizbot` commands)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot import i18n
from bot.config import BUNDLED_BANKS
from bot.features.groups import screens as groups_screens
from bot.features.groups.rules import GroupAnswer, GroupSession, Standing
from bot.features.privacy.service import PrivacyService
from bot.kernel.engine import Answer, Plan, with_answer
from bot.kernel.ports import StorageError
from bot.render import text as render_text
from storage import SQLiteStore, migrations
from storage.backup import DatabaseLock, backup, restore
from tests.support.banks import BANK_ID
from tests.support.botrun import MODES
from tests.support.engines import record
from tests.support.loadgen import LoadGenerator
from tests.support.person import Person
from tests.support.processes import start_bot_process
from tests.support.screens import buttons

PLAN = Plan(("q1", "q2"), ((0, 1, 2, 3), (3, 2, 1, 0)))


def quizbot(*args: str, db) -> subprocess.CompletedProcess[str]:
    """Run the real `quizbot` command on database ``db``."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args, "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_a_database_newer_than_the_code_is_refused(tmp_path):
    """A schema version above the last migration: open refuses with a clear message and
    changes nothing; so does `quizbot run`'s start (exit 1, one line)."""
    path = tmp_path / "newer.sqlite3"
    store = await SQLiteStore.open(path)
    await store.close()
    newer = len(migrations()) + 1
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version = {newer}")
    with pytest.raises(StorageError, match=f"schema version {newer}.*newer quizbot"):
        await SQLiteStore.open(path)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (newer,)
    done = quizbot("delete-user", "5", db=path)
    assert done.returncode == 1 and "newer quizbot" in done.stderr


async def test_backup_while_open_and_restore(tmp_path):
    """A backup of an open database holds every committed answer and is one self-contained
    file; restore refuses while a store has the database open, then replaces it (keeping the
    old one) and the restored database opens and reads."""
    path, copy = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    store = await SQLiteStore.open(path)
    attempt = await store.start_attempt(7, "bank", 1, PLAN, 1.0)
    first = Answer("q1", 2, False, 2.0)
    await record(store, attempt, first)
    info = backup(path, copy)
    assert (info.answers, info.schema_version) == (1, len(migrations()))
    assert not (tmp_path / "copy.sqlite3-wal").exists()
    with pytest.raises(StorageError, match="exists"):
        backup(path, copy)
    await record(store, with_answer(attempt, first), Answer("q2", 0, True, 3.0))  # after it
    with pytest.raises(StorageError, match="in use"):
        restore(copy, path, known_version=len(migrations()))
    await store.close()
    restored = restore(copy, path, known_version=len(migrations()))
    assert restored.answers == 1
    assert restored.kept == tmp_path / "live.sqlite3.before-restore" and restored.kept.exists()
    store = await SQLiteStore.open(path)
    try:
        again = await store.attempt(attempt.id)
        assert again is not None and list(again.answers) == ["q1"] and again.position == 1
    finally:
        await store.close()


def test_restore_refuses_damaged_newer_or_missing_backups(tmp_path):
    """Not a database, a newer schema, no file: refused, nothing changed."""
    db = tmp_path / "db.sqlite3"
    junk = tmp_path / "junk"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StorageError, match="not a quizbot database"):
        restore(junk, db, known_version=5)
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StorageError, match="newer than this quizbot"):
        restore(newer, db, known_version=5)
    with pytest.raises(StorageError, match="no backup"):
        restore(tmp_path / "missing", db, known_version=5)
    assert not db.exists()


def test_a_store_cannot_open_during_a_restore(tmp_path):
    """While a restore holds the lock exclusively, opening the database is refused."""
    db = tmp_path / "db.sqlite3"
    lock = DatabaseLock(db, exclusive=True)
    try:
        with pytest.raises(StorageError, match="being restored"):
            asyncio.run(SQLiteStore.open(db))
    finally:
        lock.release()


async def test_a_backup_into_a_missing_folder_names_that_folder(tmp_path):
    """`quizbot backup` to a folder that does not exist exits 1 naming the folder, not the
    hidden partial file it would have written; so does a folder it may not write in."""
    db = tmp_path / "live.sqlite3"
    store = await SQLiteStore.open(db)
    await store.close()
    target = tmp_path / "nowhere" / "copy.sqlite3"
    done = quizbot("backup", str(target), db=db)
    assert done.returncode == 1
    assert done.stderr == (
        f"quizbot: cannot back up to {target}: there is no folder "
        f"{target.parent} (create it first)\n"
    )
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        denied = quizbot("backup", str(locked / "copy.sqlite3"), db=db)
        assert denied.returncode == 1 and "Permission denied" in denied.stderr
        assert ".partial" not in denied.stderr
    assert not list(tmp_path.glob("**/.*.partial"))


async def test_backup_under_load_restores_every_acknowledged_answer(fake, tmp_path):
    """`quizbot backup` while 60 users play against the real `quizbot run`: restored (after
    `quizbot restore` was refused while the bot ran), the database holds every answer whose
    feedback had reached the users before the backup started, exactly once."""
    db, log, copy = tmp_path / "live.sqlite3", tmp_path / "bot.log", tmp_path / "b.sqlite3"
    proc = await start_bot_process(fake, db, log)
    generator = LoadGenerator(fake, 60, step_timeout=60)
    load = asyncio.create_task(generator.run())
    try:
        await fake.wait_for(lambda: len(fake.calls_to("editMessageText")) >= 150, timeout=60)
        acknowledged = {u.user_id: list(u.feedback_seen) for u in generator.runs}
        made = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "backup",
            str(copy),
            "--db",
            str(db),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        out, err = await made.communicate()
        assert made.returncode == 0, err
        assert b"backed up" in out
        refused = quizbot("restore", str(copy), db=db)
        assert refused.returncode == 1 and "in use" in refused.stderr
        report = await asyncio.wait_for(load, timeout=120)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
            await asyncio.wait_for(proc.wait(), timeout=30)
    assert report.finished == 60
    assert sum(len(v) for v in acknowledged.values()) >= 100
    done = quizbot("restore", str(copy), db=db)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as conn:
        order = {
            u: json.loads(q)
            for u, q in conn.execute("SELECT user_id, question_order FROM attempts")
        }
        counts = {
            (u, q): n
            for u, q, n in conn.execute(
                "SELECT a.user_id, s.question_id, COUNT(*) FROM answers s JOIN attempts a"
                " USING (attempt_id) GROUP BY a.user_id, s.question_id"
            )
        }
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    for user_id, positions in acknowledged.items():
        for position in positions:
            assert counts[(user_id, order[user_id][position])] == 1


async def test_delete_user_deletes_private_data_and_anonymises_group_answers(engine):
    """Attempts, answers and the language go; in group sessions the user becomes a pseudonym
    (negative, one per session) with no name, the other players' standings stay; nothing of
    another user changes; deleting again deletes nothing."""
    store = await engine.open()
    try:
        privacy = PrivacyService(store)
        for user in (7, 8):
            attempt = await store.start_attempt(user, "bank", 1, PLAN, 1.0)
            await record(store, attempt, Answer("q1", 1, True, 2.0))
            await store.set_user_language(user, "el")
        session_ids = []
        for chat in (-100, -200):
            session = await store.start_session(chat, "bank", 1, "en", 7, PLAN, 30.0, 1.0)
            assert session is not None
            session_ids.append(session.id)
            await store.open_question(session.id, 0, 100.0)
            for user in (7, 8):
                await store.record_group_answer(
                    session.id, 0, GroupAnswer(user, "q1", 0, True, 1.5, 2.0), f"User {user}"
                )
            await store.end_session(session.id, "finished", 3.0)
        for user in (7, 8):  # a review card each
            assert await store.update_card(user, "bank", "q1", lambda card: card) is not None
        deleted = await privacy.delete_user(7)
        assert (
            deleted.answers,
            deleted.attempts,
            deleted.settings,
            deleted.group_answers,
            deleted.sessions,
        ) == (1, 1, 1, 2, 2)
        assert await store.cards(7) == [] and len(await store.cards(8)) == 1
        assert await store.user_language(7) is None and await store.stats(7) == []
        assert await store.active_attempt(7) is None
        assert await store.user_language(8) == "el"
        pseudonyms = set()
        for session_id in session_ids:
            players = await store.group_players(session_id)
            assert players[8] == "User 8" and 7 not in players
            [(pseudonym, name)] = [(u, n) for u, n in players.items() if u != 8]
            assert pseudonym < 0 and name == ""
            pseudonyms.add(pseudonym)
            assert {a.user_id for a in await store.group_answers(session_id)} == {8, pseudonym}
            assert (await store.session(session_id)).starter_id == 0
        assert len(pseudonyms) == 2
        assert str(await privacy.delete_user(7)).startswith("0 answers, 0 attempts")
        with pytest.raises(ValueError):
            await privacy.delete_user(-5)
    finally:
        await store.close()


def test_quizbot_delete_user_command(tmp_path):
    """`quizbot delete-user ID` deletes and prints the counts once (one attempt, one setting:
    singular); run again it says nothing was stored and exits 1; without a database it says
    so."""
    db = tmp_path / "db.sqlite3"

    async def fill() -> None:
        store = await SQLiteStore.open(db)
        await store.set_user_language(42, "hi")
        attempt = await store.start_attempt(42, "bank", 1, PLAN, 1.0)
        await record(store, attempt, Answer("q1", 0, True, 2.0))
        await store.close()

    asyncio.run(fill())
    done = quizbot("delete-user", "42", db=db)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "deleted user 42: 1 answer, 1 attempt, 1 setting deleted; 0 group "
        "answers in 0 sessions made anonymous; 0 drafts and 0 created "
        "quizzes deleted, 0 kept without their owner; 0 other records "
        "deleted or unlinked\n"
    )
    assert done.stderr == ""  # the summary is not repeated by a log line
    again = quizbot("delete-user", "42", db=db)
    assert (again.returncode, again.stdout) == (1, "")
    assert (
        "no data of user 42 is stored (deleted already, or they never used the bot): "
        "nothing was deleted"
    ) in again.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM users").fetchone() == (0,)
    missing = quizbot("delete-user", "42", db=tmp_path / "none.sqlite3")
    assert missing.returncode == 1 and "no database" in missing.stderr


@pytest.mark.parametrize("running_bot", MODES, indirect=True)
async def test_deletemydata_asks_then_deletes(fake, running_bot):
    """/deletemydata asks first (in the user's language); "keep" deletes nothing; "delete"
    removes the user's attempts, answers and language choice, not another user's, and the
    question turns into the outcome in the language the user had."""
    ada, bob = Person(fake, 501, "Ada", "el"), Person(fake, 502, "Bob", "en")
    for person in (ada, bob):
        await person.say("/start", replies=2)
        await person.answer("A")
    t = i18n.catalog("el")
    [question] = await ada.say("/deletemydata")
    assert question["text"].startswith(t("deletemydata_confirm").splitlines()[0])
    delete, keep = (b["callback_data"] for b in buttons(question))
    await ada.tap(question, keep)
    await fake.wait_for(
        lambda: fake.message(501, question["message_id"])["text"] == t("deletemydata_cancelled")
    )
    with sqlite3.connect(running_bot.db) as db:
        assert db.execute("SELECT COUNT(*) FROM attempts WHERE user_id = 501").fetchone() == (1,)
    [question] = await ada.say("/deletemydata")
    delete = buttons(question)[0]["callback_data"]  # each question has a nonce of its own
    await ada.tap(question, delete)
    await fake.wait_for(
        lambda: fake.message(501, question["message_id"])["text"] == t("deletemydata_done")
    )
    with sqlite3.connect(running_bot.db) as db:
        assert db.execute("SELECT user_id, COUNT(*) FROM attempts GROUP BY user_id").fetchall() == [
            (502, 1)
        ]
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone() == (1,)  # Bob's
        assert db.execute("SELECT COUNT(*) FROM users WHERE user_id = 501").fetchone() == (0,)


def test_a_deleted_user_is_shown_as_such_on_the_leaderboard(banks):
    """A pseudonym (negative id) is "deleted user" in the reader's language, not a name."""
    bank = banks["deepspeed-megatron"]
    session = GroupSession(1, -100, bank.id, bank.version, "hi", 0, PLAN, 30.0)
    standings = [Standing(1, 8, "Bob", 2, 2, 3.0), Standing(2, -1, "", 1, 2, 4.0)]
    t = i18n.catalog("hi")
    screen = groups_screens.group_leaderboard(bank, session, standings, t, render_text.PLAIN)
    assert f"🥈 {t('deleted_user')} — 1/2" in screen.text


async def test_skip_invalid_banks_starts_with_the_valid_ones(fake, tmp_path):
    """With QUIZBOT_SKIP_INVALID_BANKS=1 `quizbot run` starts despite a broken bank file,
    logs that file with its problem, and serves the valid bank; without it, it refuses."""
    folder = tmp_path / "banks"
    folder.mkdir()
    shutil.copy(BUNDLED_BANKS / f"{BANK_ID}.yaml", folder)
    (folder / "broken.yaml").write_text("id: broken\nversion: x\n", encoding="utf-8")
    refused = subprocess.run(
        [
            sys.executable,
            "-m",
            "bot",
            "run",
            "--banks",
            str(folder),
            "--db",
            str(tmp_path / "x.sqlite3"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TELEGRAM_BOT_TOKEN": fake.token, "TELEGRAM_BASE_URL": fake.base_url},
    )
    assert refused.returncode == 1 and "broken.yaml" in refused.stderr
    log = tmp_path / "bot.log"
    proc = await start_bot_process(
        fake,
        tmp_path / "quiz.sqlite3",
        log,
        env={"QUIZBOT_BANKS": str(folder), "QUIZBOT_SKIP_INVALID_BANKS": "1"},
    )
    try:
        greeting, _question = await Person(fake, 501, "Ada").say("/start", replies=2)
        assert greeting["chat"]["id"] == 501
    finally:
        proc.terminate()
        await proc.wait()
    text = log.read_text()
    assert f"skipped the invalid bank file {folder / 'broken.yaml'}" in text
    assert "1 bank(s)" in text


async def test_quizbot_delete_user_command_on_either_engine(engine):
    """`quizbot delete-user` works on the database QUIZBOT_DB names, a SQLite file or a
    PostgreSQL URL; a PostgreSQL it cannot reach is named without its password."""
    store = await engine.open()
    await store.set_user_language(42, "hi")
    await store.close()
    done = await asyncio.to_thread(quizbot, "delete-user", "42", db=engine.target)
    assert done.returncode == 0, done.stderr
    assert "deleted user 42: 0 answers, 0 attempts, 1 setting deleted" in done.stdout
    store = await engine.open()
    try:
        assert await store.user_language(42) is None
    finally:
        await store.close()
    if engine.name == "postgres":
        gone = await asyncio.to_thread(
            quizbot, "delete-user", "42", db="postgresql://quizbot:s3cret@127.0.0.1:1/none"
        )
        assert gone.returncode == 1 and "s3cret" not in gone.stderr + gone.stdout
        assert "quizbot:***@127.0.0.1:1/none" in gone.stderr


def test_restore_refuses_what_is_not_a_quizbot_database_and_keeps_every_replaced_one(tmp_path):
    """An empty file, or another program's SQLite database, is refused and changes nothing; two
    restores in a row keep both databases they replaced (never overwritten); backup and restore
    of a PostgreSQL URL point to pg_dump, without the password."""
    live, good = tmp_path / "live.sqlite3", tmp_path / "good.sqlite3"

    async def make(path, user: int) -> None:
        store = await SQLiteStore.open(path)
        await store.set_user_language(user, "hi")
        await store.close()

    asyncio.run(make(live, 1))
    asyncio.run(make(good, 2))
    original = live.read_bytes()
    empty, other = tmp_path / "empty.sqlite3", tmp_path / "other.sqlite3"
    empty.write_bytes(b"")
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
        db.execute("PRAGMA user_version = 3")
    for wrong in (empty, other):
        with pytest.raises(StorageError, match="not a quizbot database"):
            restore(wrong, live, known_version=len(migrations()))
        assert live.read_bytes() == original
        assert not (tmp_path / "live.sqlite3.before-restore").exists()
    first = restore(good, live, known_version=len(migrations()))
    second = restore(good, live, known_version=len(migrations()))
    assert first.kept == tmp_path / "live.sqlite3.before-restore"
    assert second.kept == tmp_path / "live.sqlite3.before-restore.2"
    with sqlite3.connect(first.kept) as db:  # the original database, kept by the first
        assert db.execute("SELECT user_id FROM users").fetchall() == [(1,)]
    for command in (["backup", str(tmp_path / "x")], ["restore", str(good)]):
        done = quizbot(*command, db="postgresql://quizbot:s3cret@127.0.0.1:1/none")
        assert done.returncode == 1 and "pg_dump" in done.stderr
        assert "s3cret" not in done.stderr + done.stdout


async def test_a_second_bot_on_one_sqlite_database_is_refused(fake, tmp_path):
    """SQLite serves one bot: a second `quizbot run` on the same file ends with one line
    (exit 1) instead of polling beside the first; `quizbot play` still opens it; once the
    first bot stops, a bot starts again."""
    db, log = tmp_path / "one.sqlite3", tmp_path / "bot.log"
    first = await start_bot_process(fake, db, log)
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "QUIZBOT_DB": str(db),
    }
    try:
        second = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "bot", "run"],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
            stdin=subprocess.DEVNULL,
        )
        assert second.returncode == 1, second.stderr
        assert f"another quizbot run already uses {db}" in second.stderr
        assert "Traceback" not in second.stderr
        played = await asyncio.to_thread(quizbot, "play", db=db)
        assert played.returncode == 0, played.stderr
    finally:
        first.terminate()
        await first.wait()
    store = await SQLiteStore.open(db)  # the lock went with the first bot
    try:
        assert store.leases() is store.leases()
        other = await SQLiteStore.open(db)
        try:
            with pytest.raises(StorageError, match="another quizbot run"):
                other.leases()
        finally:
            await other.close()
    finally:
        await store.close()
    reopened = await SQLiteStore.open(db)
    try:
        reopened.leases()  # released by close()
    finally:
        await reopened.close()


async def test_restore_onto_what_is_not_a_database_makes_no_file_beside_it(tmp_path):
    """A mistyped database path (a text file, a folder): the restore is refused before a lock
    file or a kept copy is made beside it, and the file is left as it was."""
    path = tmp_path / "db.sqlite3"
    store = await SQLiteStore.open(path)
    await store.close()
    copy = tmp_path / "copy.sqlite3"
    backup(path, copy)
    notes = tmp_path / "notes" / "passwd"
    notes.parent.mkdir()
    notes.write_text("root:x:0:0:root:/root:/bin/bash\n")
    with pytest.raises(StorageError, match="not a SQLite database"):
        restore(copy, notes, known_version=len(migrations()))
    with pytest.raises(StorageError, match="is a folder"):
        restore(copy, notes.parent, known_version=len(migrations()))
    assert sorted(p.name for p in notes.parent.iterdir()) == ["passwd"]
    assert notes.read_text() == "root:x:0:0:root:/root:/bin/bash\n"
    result = quizbot("restore", str(copy), db=notes)
    assert result.returncode == 1 and "not a SQLite database" in result.stderr
    assert sorted(p.name for p in notes.parent.iterdir()) == ["passwd"]


async def test_the_files_beside_the_database_are_ignored_by_git(tmp_path):
    """What backups, restores and a store leave beside ``quizbot.sqlite3`` in a checkout (the
    kept ``.before-restore`` and ``.before-restore.2``, a rescued copy, a hidden closing
    file, a backup's partial file) is ignored by the repository's .gitignore, so that a
    ``git status`` after following the docs shows nothing new."""
    root = Path(__file__).resolve().parents[2]
    path, copy = tmp_path / "quizbot.sqlite3", tmp_path / "quizbot-backup.sqlite3"
    store = await SQLiteStore.open(path)
    await store.close()
    backup(path, copy)
    restore(copy, path, known_version=len(migrations()))
    restore(copy, path, known_version=len(migrations()))
    names = {p.name for p in tmp_path.iterdir()}
    assert {"quizbot.sqlite3.before-restore", "quizbot.sqlite3.before-restore.2"} <= names
    names |= {
        "quizbot.sqlite3.rescued-20261207T143000Z",
        ".quizbot.sqlite3.closing",
        ".quizbot-backup.sqlite3.partial",
    }
    for name in sorted(names):
        ignored = subprocess.run(
            ["git", "check-ignore", "--no-index", "-q", name], cwd=root, check=False
        )
        assert ignored.returncode == 0, f"{name} is not in .gitignore"
