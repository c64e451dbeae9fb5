"""The webhook as Telegram and an attacker use it: deliveries repeated (same ``update_id``),
bodies too large or without the secret, malformed updates; and the start-up lines of webhook
mode (a port in use)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from pathlib import Path

import aiohttp
import pytest
from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.ext import TypeHandler

from bot.telegram.ordering import PerUserOrderedProcessor
from bot.telegram.webhook import MAX_BODY_BYTES, SECRET_HEADER
from tests.cli.test_cli import run_env, run_until_exit
from tests.support.botrun import RunningBot
from tests.support.person import Person
from tests.support.processes import free_port
from tests.telegram.test_update_order import Balancer, Instance, two_instances  # noqa: F401 (fixture)

SECRET = "test-secret_0123456789"  # RunningBot's webhook secret


@pytest.fixture
async def webhook_bot(fake, tmp_path):
    """The bot in webhook mode, on SQLite."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", mode="webhook")
    await runner.start()
    yield runner
    await runner.stop()


async def post(url: str, body: bytes | dict, *, secret: str | None = SECRET) -> int:
    """POST ``body`` (JSON if a dict) to the webhook as Telegram does; the answer's status."""
    headers = {"Content-Type": "application/json"}
    if secret is not None:
        headers[SECRET_HEADER] = secret
    data = json.dumps(body).encode() if isinstance(body, dict) else body
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=data, headers=headers) as response,
    ):
        return response.status


def processor(bot: RunningBot) -> PerUserOrderedProcessor:
    assert bot.app is not None
    update_processor = bot.app.update_processor
    assert isinstance(update_processor, PerUserOrderedProcessor)
    return update_processor


async def test_a_delivery_repeated_is_acknowledged_and_dropped(fake, webhook_bot):
    """/start delivered twice (Telegram repeats a delivery whose answer was lost): the second
    is answered 200 and dropped, so the greeting and question 1 are sent once; the user's next
    message, queued behind the repetition, is answered."""
    ada = Person(fake, 501, "Ada")
    update = fake.send_message(ada.user_id, "/start")
    await fake.wait_for(lambda: len(ada.bot_messages()) == 2)
    assert await post(webhook_bot.webhook_url, update) == 200
    await ada.say("/help")  # after the repetition: its turn comes after the repetition's
    assert processor(webhook_bot).repeated == 1
    assert len(ada.bot_messages()) == 3


async def test_a_delivery_repeated_after_a_restart_is_dropped(fake, webhook_bot):
    """The handled update is remembered in the database file: repeated after a restart, it is
    dropped too (/remind would otherwise turn reminders back off)."""
    ada = Person(fake, 502, "Ada")
    update = fake.send_message(ada.user_id, "/remind")
    await fake.wait_for(lambda: len(ada.bot_messages()) == 1)
    await webhook_bot.restart()
    assert await post(webhook_bot.webhook_url, update) == 200
    await ada.say("/help")
    assert processor(webhook_bot).repeated == 1
    assert len(ada.bot_messages()) == 2


def _message(update_id: int, user_id: int) -> Update:
    chat = Chat(user_id, Chat.PRIVATE)
    message = Message(
        update_id,
        None,
        chat,
        from_user=User(user_id, "U", False),  # type: ignore[arg-type]
        text="/remind",
    )
    return Update(update_id, message=message)


def _tap(update_id: int, user_id: int) -> Update:
    message = Message(update_id, None, Chat(user_id, Chat.PRIVATE))  # type: ignore[arg-type]
    return Update(
        update_id,
        callback_query=CallbackQuery(
            str(update_id), User(user_id, "U", False), "ci", message=message, data="x"
        ),
    )


async def test_an_update_not_handled_to_its_end_is_handled_when_delivered_again(engine):
    """The store's marks, through the real processor: an update whose handling was cut short
    (the process stopped before its handler returned) has no mark, so its repetition is
    handled; once handled, it is marked and dropped, on the same store and on another one
    opened on the same database (a restart; another instance). Other bots' updates of the same
    id are not."""
    first, second = await engine.open(), await engine.open()
    try:
        proc = PerUserOrderedProcessor()
        proc.order, proc.bot_id = first.update_order(), 42
        handled: list[int] = []
        started, never = asyncio.Event(), asyncio.Event()

        async def cut_short() -> None:
            started.set()
            await never.wait()

        async def handle(update: Update) -> None:
            handled.append(update.update_id)

        task = asyncio.create_task(proc.process_update(_tap(7, 9), cut_short()))
        await started.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert not await proc.order.handled(42, 7)
        await proc.process_update(_tap(7, 9), handle(_tap(7, 9)))
        await proc.process_update(_tap(7, 9), handle(_tap(7, 9)))
        assert handled == [7] and proc.repeated == 1
        other = PerUserOrderedProcessor()
        other.order, other.bot_id = second.update_order(), 42
        await other.process_update(_message(7, 9), handle(_message(7, 9)))
        assert handled == [7] and other.repeated == 1
        other.bot_id = 43  # another bot's update 7
        await other.process_update(_message(7, 9), handle(_message(7, 9)))
        assert handled == [7, 7]
    finally:
        await first.close()
        await second.close()


async def test_a_delivery_repeated_to_another_instance_is_handled_once(fake, pg_db, two_instances):  # noqa: F811 (the fixture imported above)
    """Two instances on PostgreSQL: /start reaches A, and while A is still handling it the
    same update reaches B (Telegram repeated it, the balancer chose B). B waits for A's turn,
    then finds it handled and drops it: the greeting and question 1 are sent once. A later
    repetition to B is dropped at once."""
    balancer, a, b = two_instances
    assert a.app is not None and b.app is not None
    entered, go = asyncio.Event(), asyncio.Event()
    held: set[int] = set()

    async def gate(update: object, context: object) -> None:
        if isinstance(update, Update) and update.update_id in held:
            entered.set()
            await go.wait()

    a.app.add_handler(TypeHandler(Update, gate), group=-2)
    ben = Person(fake, 903, "Ben")
    balancer.plan = [0]
    update = fake.send_message(ben.user_id, "/start")
    held.add(update["update_id"])
    order_b = processor(b).order
    assert order_b is not None
    try:
        async with asyncio.timeout(30):  # a safety net, not a bound under test
            await entered.wait()
        assert await post(b.local_url, update) == 200
        await fake.wait_for(lambda: order_b.waiting == 1, timeout=30)  # B waits for A's turn
    finally:
        go.set()
    # B's count changes without a Bot API call (a dropped repeat calls nothing): rechecked
    await fake.wait_for(lambda: processor(b).repeated == 1, timeout=30, recheck=0.02)
    assert await post(b.local_url, update) == 200
    await fake.wait_for(lambda: processor(b).repeated == 2, timeout=30, recheck=0.02)
    assert len(ben.bot_messages()) == 2
    assert processor(a).repeated == 0


async def test_a_body_without_the_secret_is_refused_before_it_is_read(webhook_bot):
    """A request announcing 99 MB without the secret is answered 403 before one byte of its
    body is sent (so nothing of it is buffered); with the secret, a body over the cap is
    answered 413 the same way, and a chunked one (no length given) once the cap is reached."""
    port = int(webhook_bot.webhook_url.split(":")[2].split("/")[0])
    for secret, length, status in (
        (None, 99_000_000, 403),
        ("wrong", 99_000_000, 403),
        (SECRET, MAX_BODY_BYTES + 1, 413),
    ):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        headers = (
            f"POST /tg-hook HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n"
            + (f"{SECRET_HEADER}: {secret}\r\n" if secret else "")
            + "\r\n"
        )
        writer.write(headers.encode())
        await writer.drain()
        status_line = await asyncio.wait_for(reader.readline(), 30)  # no body byte sent
        assert status_line.split()[1] == str(status).encode(), (secret, status_line)
        writer.close()

    async def chunks():
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b" " * 65536

    async with (
        aiohttp.ClientSession() as session,
        session.post(
            webhook_bot.webhook_url,
            data=chunks(),
            headers={SECRET_HEADER: SECRET, "Content-Type": "application/json"},
        ) as response,
    ):
        assert response.status == 413


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[1, 2]",
        b'{"message": {}}',
        b'{"update_id": "1"}',
        b"\xff\xfe",
        b'{"update_id": 5, "message": {"chat": 1}}',
    ],
)
async def test_a_malformed_update_is_answered_200_and_logged(fake, webhook_bot, body, caplog):
    """A body that is not an update is logged and answered 200 (Telegram would repeat a 4xx
    or 5xx answer forever); the next real update is answered."""
    caplog.set_level(logging.WARNING, logger="bot.telegram.webhook")
    assert await post(webhook_bot.webhook_url, body) == 200
    assert "malformed update" in caplog.text
    await Person(fake, 504, "Ada").say("/help")


async def test_a_port_in_use_is_one_line_naming_the_setting(fake, tmp_path):
    """`quizbot run` in webhook mode with QUIZBOT_LISTEN on a port another program holds: one
    line naming the address and the setting, before the bot says it is ready; exit 2."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _out, err = await run_until_exit(
            "run",
            "--db",
            str(tmp_path / "p.sqlite3"),
            env=run_env(
                TELEGRAM_BOT_TOKEN=fake.token,
                TELEGRAM_BASE_URL=fake.base_url,
                QUIZBOT_WEBHOOK_URL=f"http://127.0.0.1:{port}/tg",
                QUIZBOT_LISTEN=f"127.0.0.1:{port}",
            ),
        )
    assert code == 2, err
    assert err.splitlines()[-1] == (
        f"quizbot: cannot listen for webhooks on 127.0.0.1:{port} "
        "(QUIZBOT_LISTEN / --listen): Address already in use"
    )
    assert "quizbot ready" not in err and not fake.calls_to("setWebhook")


async def test_a_metrics_port_in_use_is_one_line_naming_the_setting(fake, tmp_path):
    """The same for QUIZBOT_METRICS."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, _out, err = await run_until_exit(
            "run",
            "--db",
            str(tmp_path / "m.sqlite3"),
            env=run_env(
                TELEGRAM_BOT_TOKEN=fake.token,
                TELEGRAM_BASE_URL=fake.base_url,
                QUIZBOT_METRICS=f"127.0.0.1:{port}",
            ),
        )
    assert code == 2, err
    assert (
        f"quizbot: cannot serve /healthz and /metrics on 127.0.0.1:{port} "
        "(QUIZBOT_METRICS / --metrics): Address already in use"
    ) in err.splitlines()


async def test_the_process_drops_a_repeated_delivery_and_stops_on_sigterm(fake, tmp_path):
    """The real `quizbot run` in webhook mode: a delivery repeated by raw HTTP is dropped, and
    SIGTERM ends the process with status 0."""
    from tests.support.processes import start_bot_process

    port = free_port()
    url = f"http://127.0.0.1:{port}/tg"
    log = tmp_path / "bot.log"
    proc = await start_bot_process(
        fake,
        tmp_path / "r.sqlite3",
        log,
        ready=lambda: fake.webhook_url == url,
        env={
            "QUIZBOT_WEBHOOK_URL": url,
            "QUIZBOT_LISTEN": f"127.0.0.1:{port}",
            "QUIZBOT_WEBHOOK_SECRET": "process-secret",
        },
    )
    try:
        ada = Person(fake, 505, "Ada")
        update = fake.send_message(ada.user_id, "/start")
        await fake.wait_for(lambda: len(ada.bot_messages()) == 2, timeout=30)
        assert await post(url, update, secret="process-secret") == 200
        await ada.say("/help")
        assert len(ada.bot_messages()) == 3
    finally:
        proc.terminate()
        assert await proc.wait() == 0, log.read_text()
    assert "delivered again: handled already, dropped" in Path(log).read_text()


async def test_health_in_webhook_mode(fake, tmp_path):
    """/healthz of a bot receiving webhooks: 200, updates by webhook."""
    from bot.config import Address

    bot = RunningBot(
        fake, tmp_path / "h.sqlite3", mode="webhook", metrics=Address("127.0.0.1", free_port())
    )
    await bot.start()
    try:
        assert bot.metrics is not None
        async with (
            aiohttp.ClientSession() as session,
            session.get(f"http://127.0.0.1:{bot.metrics.port}/healthz") as response,
        ):
            assert response.status == 200
            assert (await response.json())["updates"] == "webhook"
    finally:
        await bot.stop()


async def test_a_webhook_url_telegram_refuses_is_one_line_naming_it(fake, tmp_path):
    """setWebhook answered 400 (Telegram wants HTTPS on ports 443, 80, 88 or 8443): the start
    fails with a ConfigError naming QUIZBOT_WEBHOOK_URL and the URL."""
    from bot.config import ConfigError

    bot = RunningBot(fake, tmp_path / "w.sqlite3", mode="webhook")
    fake.fail_next(
        "setWebhook",
        error_code=400,
        description="Bad Request: bad webhook: An HTTPS URL must be provided for webhook",
    )
    with pytest.raises(ConfigError) as refused:
        await bot.start()
    message = str(refused.value)
    assert message.startswith(
        f"Telegram refused the webhook URL {bot.webhook_url} "
        "(QUIZBOT_WEBHOOK_URL / --webhook-url): "
    ), message
    assert "https url must be provided" in message.lower()
