"""Storage outages are transient faults: every update is answered meanwhile (the polite
"couldn't record that, tap again"), and the bot carries on once the storage is back."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator

import asyncpg
import pytest

from bot import i18n
from bot.services import services_of
from storage.leases import PostgresLeases
from tests.support.banks import BANK_ID
from tests.support.botrun import RunningBot
from tests.support.person import Person
from tests.support.pgserver import PgServer, PgUnavailable, find_bin, run_as
from tests.support.screens import buttons, correct_label


async def test_a_new_users_start_during_a_storage_fault_is_answered(fake, tmp_path):
    """A new user's /start while the database cannot take a write (another process holds its
    lock): the polite fault message in their app's language, not silence; once the fault
    clears, /start starts the quiz."""
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3").start()
    try:
        t = i18n.catalog("hi")
        person = Person(fake, 902, "Asha", "hi")
        holder = sqlite3.connect(runner.db, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")  # another process locks the file past the timeout
        try:
            fake.send_message(902, "/start")  # the write waits out SQLite's busy timeout
            sorry = (await fake.wait_for(lambda: person.bot_messages(), timeout=15))[0]
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert sorry["text"] == t("storage_failed")
        _greeting, question = await person.say("/start", replies=2)
        assert person.question_message() == question
    finally:
        await runner.stop()


def _pg_ctl(server: PgServer, action: str) -> None:
    """``pg_ctl stop`` (fast: connections are ended, as a restart ends them) or ``start``."""
    as_user = run_as()  # runuser, found where a trimmed PATH leaves it out too
    extra = ["-m", "fast"] if action == "stop" else ["-l", str(server.folder / "server.log")]
    subprocess.run(
        [
            *as_user,
            find_bin("pg_ctl"),
            "-D",
            str(server.folder / "data"),
            *extra,
            "-w",
            "-t",
            "60",
            action,
        ],
        check=True,
        capture_output=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def own_pg() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server of this test's own (it is stopped and started again)."""
    if os.environ.get("QUIZBOT_SKIP_PG") == "1":
        pytest.skip("QUIZBOT_SKIP_PG=1: the PostgreSQL tests are skipped")
    try:
        server = PgServer.start()  # a folder of its own (the server runs as another user)
    except PgUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


async def test_postgresql_restarted_mid_session_is_a_transient_fault(fake, own_pg, banks):
    """PostgreSQL stops mid-quiz: the bot keeps running, a tap meanwhile is answered with the
    polite "couldn't record that", and once the server is back the bot takes the poller lease
    again and the same tap is recorded."""
    runner = await RunningBot(fake, own_pg.url).start()  # type: ignore[arg-type]
    try:
        assert runner.app is not None
        leases = services_of(runner.app).leases
        assert isinstance(leases, PostgresLeases) and leases.poller_held.is_set()
        t = i18n.catalog("el")
        person = Person(fake, 903, "Eva", "el")
        await person.say("/start", replies=2)
        question = person.question_message()
        label = correct_label(question, banks[BANK_ID], "el")
        data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)

        await asyncio.to_thread(_pg_ctl, own_pg, "stop")
        await fake.wait_for(lambda: not leases.poller_held.is_set())  # the loss is noticed
        before = len(person.bot_messages())
        await person.tap(question, data)
        sorry = await fake.wait_for(lambda: person.bot_messages()[before:], timeout=15)
        assert sorry[0]["text"] == t("storage_failed")

        await asyncio.to_thread(_pg_ctl, own_pg, "start")
        await asyncio.wait_for(leases.poller_held.wait(), 60)  # taken again
        feedback = await person.answer(label)
        assert t("feedback_correct") in feedback["text"]
        assert runner._task is not None and not runner._task.done()  # it never stopped
    finally:
        await runner.stop()
    admin = await asyncpg.connect(own_pg.url)
    try:
        assert await admin.fetchval("SELECT COUNT(*) FROM answers") == 1
    finally:
        await admin.close()


async def test_a_start_while_postgresql_is_down_retries_then_exits_non_zero(fake, tmp_path):
    """`quizbot run` with PostgreSQL unreachable: it tries again for the outage bound
    (``QUIZBOT_DB_OUTAGE_SECONDS``), then exits 1 with one line saying so."""
    url = f"postgresql://quizbot@/quizbot?host={tmp_path}&port=5999"  # no server there
    env = {
        **os.environ,
        "TELEGRAM_BOT_TOKEN": fake.token,
        "TELEGRAM_BASE_URL": fake.base_url,
        "QUIZBOT_DB": url,
        "QUIZBOT_DB_OUTAGE_SECONDS": "1",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    _out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 1, err
    assert "still unreachable after 1 s: giving up" in err.decode()
