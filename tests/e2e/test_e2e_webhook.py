"""End to end in webhook mode: the real bot's webhook server (its own,
``bot/telegram/webhook.py``) behind the fake Bot API."""

from __future__ import annotations

import sqlite3

import aiohttp
import pytest

from bot.lifecycle import ALLOWED_UPDATES
from tests.support.botrun import RunningBot
from tests.support.person import Person
from tests.support.processes import free_port, start_bot_process


@pytest.fixture
async def webhook_bot(fake, tmp_path):
    """The bot in webhook mode."""
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", mode="webhook")
    await runner.start()
    yield runner
    await runner.stop()


def _update(user_id: int, text: str) -> dict:
    return {
        "update_id": 9_000_000,
        "message": {
            "message_id": 1,
            "date": 0,
            "text": text,
            "chat": {"id": user_id, "type": "private", "first_name": "Eve"},
            "from": {"id": user_id, "is_bot": False, "first_name": "Eve"},
            "entities": [{"type": "bot_command", "offset": 0, "length": len(text)}],
        },
    }


@pytest.mark.parametrize("secret", [None, "wrong-secret", ""])
async def test_a_request_without_the_secret_gets_403_and_changes_nothing(fake, webhook_bot, secret):
    """A forged update (no secret header, a wrong one, an empty one) is refused with 403 by the
    webhook server; the bot neither answers it nor stores anything. The real one still works."""
    headers = {} if secret is None else {"X-Telegram-Bot-Api-Secret-Token": secret}
    fake.add_user(666, "Eve")
    calls_before = len(fake.calls)
    async with aiohttp.ClientSession() as session:
        async with session.post(
            webhook_bot.webhook_url, json=_update(666, "/start"), headers=headers
        ) as response:
            assert response.status == 403
    ada = Person(fake, 501, "Ada")
    greeting, _question = await ada.say("/start", replies=2)  # a genuine update after it
    assert greeting["chat"]["id"] == 501
    assert not fake.messages(666)
    assert all(call.params.get("chat_id") != 666 for call in fake.calls[calls_before:])
    with sqlite3.connect(webhook_bot.db) as db:
        assert db.execute("SELECT COUNT(*) FROM attempts WHERE user_id = 666").fetchone() == (0,)


async def test_webhook_is_set_like_polling(fake, webhook_bot):
    """setWebhook names the URL, the secret, the same allowed_updates as polling, and keeps
    pending updates."""
    [call] = fake.calls_to("setWebhook")
    assert call.params["url"] == webhook_bot.webhook_url
    assert call.params["secret_token"] == fake.webhook_secret
    assert sorted(call.params["allowed_updates"]) == sorted(ALLOWED_UPDATES)
    assert not call.params.get("drop_pending_updates")


async def test_updates_sent_while_the_bot_is_down_are_answered(fake, webhook_bot):
    """Stopped, the webhook stays set and Telegram (the fake) retries; started again, the bot
    gets the update sent meanwhile and answers it."""
    await webhook_bot.stop()
    ada = Person(fake, 501, "Ada")
    fake.send_message(ada.user_id, "/help")
    await fake.wait_for(lambda: fake.last_webhook_error is not None)
    assert fake.pending_updates() == 1
    await webhook_bot.start()
    await fake.wait_for(lambda: ada.bot_messages())
    assert fake.pending_updates() == 0


async def test_the_quizbot_run_process_in_webhook_mode(fake, tmp_path):
    """`quizbot run` with QUIZBOT_WEBHOOK_URL, QUIZBOT_LISTEN and QUIZBOT_WEBHOOK_SECRET sets
    the webhook with that secret and answers what the fake POSTs; SIGTERM stops it cleanly."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg"
    env = {
        "QUIZBOT_WEBHOOK_URL": url,
        "QUIZBOT_LISTEN": f"127.0.0.1:{port}",
        "QUIZBOT_WEBHOOK_SECRET": "process-secret",
    }
    log = tmp_path / "bot.log"
    proc = await start_bot_process(
        fake, tmp_path / "quiz.sqlite3", log, env=env, ready=lambda: fake.webhook_url == url
    )
    try:
        assert fake.webhook_secret == "process-secret"
        ada = Person(fake, 501, "Ada")
        greeting, _question = await ada.say("/start", replies=2)
        assert greeting["chat"]["id"] == 501
    finally:
        proc.terminate()
        assert await proc.wait() == 0, log.read_text()
    assert "process-secret" not in log.read_text()
