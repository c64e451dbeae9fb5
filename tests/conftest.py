"""Shared fixtures: the fake Bot API server, the real bot running against it, simulated people."""

from __future__ import annotations

import asyncio
import os
import re
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.app import build_application, serve
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS, Address, Settings
from bot.quiz.bank import Bank
from bot.telegram.common import QuizApplication
from tests.support.engines import Engine
from tests.support.fakebotapi import FakeBotAPI
from tests.support.pgserver import PgServer, PgUnavailable
from tests.support.processes import free_port, start_bot_process  # noqa: F401 - tests import them here

BANK_ID = "deepspeed-megatron"
os.environ.setdefault("PTB_TIMEDELTA", "1")  # as `quizbot` sets it (bot/__main__.py)
os.environ.setdefault("QUIZBOT_I18N_STRICT", "1")  # an unknown message key raises (bot/i18n)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto`` (pyproject's addopts): two workers per core. Most tests wait on sockets, a
    process or PostgreSQL rather than compute, so one per core leaves the cores half idle;
    each worker has its own fake servers, ports and databases (fixtures per test)."""
    return 2 * (os.cpu_count() or 1)


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotAPI]:
    """A fake Bot API server on loopback."""
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
def banks() -> dict[str, Bank]:
    """The bundled banks."""
    return load_banks([BUNDLED_BANKS])


MODES = ("polling", "webhook")
"""How the bot gets its updates: ``@pytest.mark.parametrize("running_bot", MODES,
indirect=True)`` runs a test in both."""


class FakeClock:
    """A clock the test moves by hand: seconds (since the epoch, or any origin), returned when
    called, as ``time.time``/``time.monotonic`` would."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on."""
        self.now += seconds


@dataclass
class RunningBot:
    """The real quizbot ``Application`` against the fake server, started and stopped in-process.

    Attributes:
        mode: ``"polling"`` (getUpdates) or ``"webhook"``: the fake POSTs each update to the
            bot's webhook server on a free loopback port, with the secret token.
        metrics: Where the bot serves /healthz and /metrics; None: not served.
        clock: The services' clock (``BotData.clock``); None: the real one.
        reminder_interval: Seconds between reminder passes (``BotData.reminder_interval``);
            None: the bot's.
        daily_interval: Seconds between question-of-the-day passes
            (``BotData.daily_interval``); None: the bot's.
        homework_interval: Seconds between homework passes (``BotData.homework_interval``);
            None: the bot's.
    """

    fake: FakeBotAPI
    db: Path
    bank_paths: tuple[Path, ...] = (BUNDLED_BANKS,)
    question_seconds: float = 30.0
    mode: str = "polling"
    metrics: Address | None = None
    clock: Callable[[], float] | None = None
    reminder_interval: float | None = None
    daily_interval: float | None = None
    homework_interval: float | None = None
    _stop: asyncio.Event = field(default_factory=asyncio.Event)
    _task: asyncio.Task[None] | None = None
    _port: int = 0
    app: QuizApplication | None = None

    @property
    def webhook_url(self) -> str | None:
        """The bot's webhook URL in webhook mode (the same port across restarts), else None."""
        if self.mode != "webhook":
            return None
        self._port = self._port or free_port()
        return f"http://127.0.0.1:{self._port}/tg-hook"

    async def start(self) -> RunningBot:
        """Build and start the bot; return once it is long polling, or once its webhook is
        set and the bot is running."""
        assert self.mode in MODES, self.mode
        url = self.webhook_url
        settings = Settings(token=self.fake.token, base_url=self.fake.base_url, db=self.db,
                            banks=self.bank_paths, question_seconds=self.question_seconds,
                            webhook_url=url, metrics=self.metrics,
                            listen=Address("127.0.0.1", self._port or 8443),
                            webhook_secret="test-secret_0123456789" if url else None)
        app = self.app = build_application(settings, load_banks(self.bank_paths))
        if self.clock is not None:
            app.bot_data.clock = self.clock
        app.bot_data.reminder_interval = self.reminder_interval
        app.bot_data.daily_interval = self.daily_interval
        app.bot_data.homework_interval = self.homework_interval
        self._stop = asyncio.Event()
        task = self._task = asyncio.create_task(serve(app, self._stop, poll_timeout=1))
        task.add_done_callback(lambda _: self.fake.signal())  # wakes the waits below
        if url is None:
            await self.fake.wait_for(lambda: self.fake.polling or task.done(), timeout=10)
        else:
            await self.fake.wait_for(lambda: task.done() or (
                app.running and self.fake.webhook_url == url), timeout=10, recheck=0.05)
        if task.done():
            task.result()  # raise what went wrong
        return self

    async def stop(self) -> None:
        """Stop polling and shut the bot down (storage closed)."""
        if self._task is not None:
            self._stop.set()
            await asyncio.wait_for(self._task, timeout=15)
            self._task = None

    async def restart(self) -> RunningBot:
        """Stop and start again on the same database (a deploy, or a crash between updates)."""
        await self.stop()
        return await self.start()


@pytest.fixture
async def running_bot(request, fake, tmp_path) -> AsyncIterator[RunningBot]:
    """The bot, running against ``fake`` with a fresh database file; polling unless the test
    asks for a mode by indirect parametrization (see :data:`MODES`)."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3",
                        mode=getattr(request, "param", "polling"))
    await runner.start()
    yield runner
    await runner.stop()


OPTION_LINE = re.compile(r"^(?:[✅❌] )?([A-D])\. (.*?)(?: \(.*\))?$")


@dataclass
class Person:
    """A simulated Telegram user in a private chat with the bot."""

    fake: FakeBotAPI
    user_id: int
    name: str
    language_code: str | None = None

    def __post_init__(self) -> None:
        self.fake.add_user(self.user_id, self.name, language_code=self.language_code)

    @property
    def chat(self) -> list[dict]:
        """The private chat's messages, oldest first."""
        return self.fake.messages(self.user_id)

    def bot_messages(self) -> list[dict]:
        """The bot's messages in the private chat."""
        return [m for m in self.chat if m.get("from", {}).get("id") == self.fake.bot_id]

    async def say(self, text: str, *, replies: int = 1, reply_to: int | None = None) -> list[dict]:
        """Send ``text`` (replying to message ``reply_to``); wait for ``replies`` new bot
        messages and return them."""
        return await self._expect(lambda: self.fake.send_message(
            self.user_id, text, reply_to=reply_to), replies)

    async def send_poll(self, question: str, options: list[str], *, replies: int = 1,
                        **poll: Any) -> list[dict]:
        """Send (or forward) a poll, as :meth:`FakeBotAPI.send_poll` takes it; wait for
        ``replies`` new bot messages and return them."""
        return await self._expect(lambda: self.fake.send_poll(
            self.user_id, question, options, **poll), replies)

    async def send_document(self, data: bytes, file_name: str, *, replies: int = 1,
                            **fields: Any) -> list[dict]:
        """Send a file as a document (see :meth:`FakeBotAPI.send_document`); wait for
        ``replies`` new bot messages and return them."""
        return await self._expect(lambda: self.fake.send_document(
            self.user_id, data, file_name, **fields), replies)

    async def send_photo(self, data: bytes | None = None, *, replies: int = 1,
                         **fields: Any) -> list[dict]:
        """Send a photo (see :meth:`FakeBotAPI.send_photo`); wait for ``replies`` new bot
        messages and return them."""
        return await self._expect(lambda: self.fake.send_photo(
            self.user_id, data, **fields), replies)

    async def press(self, text: str, *, replies: int = 1, **poll: Any) -> list[dict]:
        """Press a reply-keyboard button (see :meth:`FakeBotAPI.press`); wait for ``replies``
        new bot messages and return them."""
        return await self._expect(lambda: self.fake.press(self.user_id, text, **poll), replies)

    async def _expect(self, act: Callable[[], object], replies: int) -> list[dict]:
        before = len(self.bot_messages())
        act()
        await self.fake.wait_for(lambda: len(self.bot_messages()) >= before + replies)
        return self.bot_messages()[before:]

    def question_message(self) -> dict:
        """The newest bot message with answer buttons (callback data "a:...")."""
        for message in reversed(self.bot_messages()):
            if any(b.get("callback_data", "").startswith("a:") for b in buttons(message)):
                return message
        raise AssertionError("no question on screen")

    async def tap(self, message: dict, data: str, *, check_button: bool = True) -> str:
        """Tap a button and wait until the callback query is answered; return the query id."""
        update = self.fake.tap(self.user_id, message["chat"]["id"], message["message_id"], data,
                               check_button=check_button)
        query_id = update["callback_query"]["id"]
        await self.fake.wait_for(lambda: query_id in self.fake.callback_answers)
        return query_id

    async def answer(self, label: str) -> dict:
        """Tap option ``label`` (A-D) of the current question; return the edited message."""
        message = self.question_message()
        data = next(b["callback_data"] for b in buttons(message) if b["text"] == label)
        await self.tap(message, data)
        chat_id, message_id = message["chat"]["id"], message["message_id"]
        return await self.fake.wait_for(lambda: (lambda m: m if any(
            b.get("callback_data", "").startswith("n:") for b in buttons(m)) else None)(
                self.fake.message(chat_id, message_id)))

    async def next(self, feedback: dict) -> dict:
        """Tap the "next" button of a feedback message; return the bot's next message."""
        before = len(self.bot_messages())
        data = next(b["callback_data"] for b in buttons(feedback)
                    if b.get("callback_data", "").startswith("n:"))
        await self.tap(feedback, data)
        await self.fake.wait_for(lambda: len(self.bot_messages()) > before)
        return self.bot_messages()[-1]


def buttons(message: dict) -> list[dict]:
    """The inline keyboard buttons of a message, row by row."""
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [button for row in rows for button in row]


def answer_buttons(message: dict) -> list[dict]:
    """A group question's answer buttons (callback data "g:..."): none once it is revealed
    (the reveal keeps the options marked, "x", and its link to the explanation in each
    member's language)."""
    return [b for b in buttons(message) if b.get("callback_data", "").startswith("g:")]


def shown_options(message: dict) -> dict[str, str]:
    """Label -> option text as shown in a question or feedback message."""
    options = {}
    for line in message["text"].splitlines():
        match = OPTION_LINE.match(line)
        if match:
            options[match[1]] = match[2]
    return options


def correct_label(message: dict, bank: Bank, language: str) -> str:
    """The label of the correct option in a question message, found through the bank."""
    lang = bank.language_for(language)
    [question] = [q for q in bank.questions if q.prompt.by_language[lang] in message["text"]]
    correct_text = question.options[question.correct_index].text.by_language[lang]
    labels = [label for label, text in shown_options(message).items() if text == correct_text]
    assert len(labels) == 1, (labels, message["text"])
    return labels[0]


def wrong_label(message: dict, bank: Bank, language: str) -> str:
    """A label of a wrong option in a question message."""
    right = correct_label(message, bank, language)
    return next(label for label in "ABCD" if label != right)


# --- storage engines: SQLite, and a throwaway PostgreSQL ---------------------------------------

@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """The URL of the PostgreSQL server the tests use: ``QUIZBOT_TEST_PG`` (CI starts one,
    `.ci/run`), else a throwaway server started here (``tests/support/pgserver.py``) for the
    session.

    Without PostgreSQL installed this fails with a message saying what to do; set
    ``QUIZBOT_SKIP_PG=1`` to skip the PostgreSQL tests instead (explicitly, never by default).
    """
    url = os.environ.get("QUIZBOT_TEST_PG")
    if url:
        yield url
        return
    if os.environ.get("QUIZBOT_SKIP_PG") == "1":
        pytest.skip("QUIZBOT_SKIP_PG=1: the PostgreSQL tests are skipped")
    try:
        server = PgServer.start()
    except PgUnavailable as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def pg_db(pg_url) -> AsyncIterator[str]:
    """A URL whose ``search_path`` is a new, empty schema: a fresh database for one test
    (dropped afterwards)."""
    import asyncpg

    schema = f"t_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"CREATE SCHEMA {schema}")
    finally:
        await admin.close()
    yield f"{pg_url}{'&' if '?' in pg_url else '?'}search_path={schema}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await admin.close()


@pytest.fixture(params=["sqlite", "postgres"])
def engine(request, tmp_path) -> Engine:
    """Each storage engine in turn, with a fresh database."""
    if request.param == "sqlite":
        return Engine("sqlite", str(tmp_path / "quiz.sqlite3"))
    return Engine("postgres", request.getfixturevalue("pg_db"))
