"""The aiohttp transport against real local HTTP servers: file uploads (multipart), the write
timeout, proxies from the environment, JSON bodies and answers, and polled updates slimmed."""

from __future__ import annotations

import ast
import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import TelegramError, TimedOut

from bot.telegram.common import sent_keyboard
from bot.telegram.transport import UNREAD_FIELDS, AiohttpRequest

TOKEN = "123:abc"
MESSAGE = {"message_id": 5, "date": 0, "chat": {"id": 1, "type": "private"}}


async def serve(
    handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
) -> tuple[web.AppRunner, str]:
    """Serve ``handler`` for every path on 127.0.0.1; the runner and the server's origin."""
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    return runner, f"http://127.0.0.1:{runner.addresses[0][1]}"


@pytest.fixture
async def transport() -> AsyncIterator[AiohttpRequest]:
    """An initialised transport."""
    request = AiohttpRequest()
    await request.initialize()
    yield request
    await request.shutdown()


async def test_a_file_upload_arrives_as_multipart_with_its_fields(transport):
    """sendDocument through PTB's Bot: the server receives the file's name, type and bytes as a
    multipart part, and the other parameters as form fields."""
    received: dict[str, object] = {}

    async def handler(request: web.Request) -> web.Response:
        received["path"] = request.path
        received["content_type"] = request.content_type
        form = await request.post()
        for name, value in form.items():
            received[name] = (
                (value.filename, value.content_type, value.file.read())
                if isinstance(value, web.FileField)
                else value
            )
        return web.json_response(
            {"ok": True, "result": {**MESSAGE, "document": {"file_id": "f", "file_unique_id": "u"}}}
        )

    runner, origin = await serve(handler)
    try:
        bot = Bot(
            TOKEN, base_url=f"{origin}/bot", request=transport, get_updates_request=AiohttpRequest()
        )
        message = await bot.send_document(
            1, b"col1,col2\n1,2\n", filename="results.csv", caption="Results"
        )
    finally:
        await runner.cleanup()
    assert message.message_id == 5
    assert received["path"] == f"/bot{TOKEN}/sendDocument"
    assert received["content_type"] == "multipart/form-data"
    assert received["chat_id"] == "1" and received["caption"] == "Results"
    [(filename, mimetype, content)] = [v for v in received.values() if isinstance(v, tuple)]
    assert (filename, content) == ("results.csv", b"col1,col2\n1,2\n")
    assert mimetype == "text/csv"


async def test_the_write_timeout_bounds_a_request_even_without_a_read_timeout(transport):
    """With no read timeout, a server that never answers is still given up on after the write
    timeout (aiohttp has no separate write timeout: it bounds the whole exchange)."""
    never = asyncio.Event()
    arrived = asyncio.Event()

    async def handler(request: web.Request) -> web.Response:
        arrived.set()
        await never.wait()
        return web.Response(status=504)  # only once the test is over

    runner, origin = await serve(handler)
    try:
        async with asyncio.timeout(30):  # a hang fails the test instead of stalling the suite
            with pytest.raises(TimedOut):
                await transport.do_request(
                    f"{origin}/bot{TOKEN}/getMe",
                    "POST",
                    read_timeout=None,
                    write_timeout=0.3,
                    connect_timeout=0.5,
                    pool_timeout=0.5,
                )
        assert arrived.is_set()
    finally:
        never.set()
        await runner.cleanup()


async def test_proxies_come_from_the_environment(monkeypatch):
    """HTTP_PROXY in the environment routes Bot API requests through the proxy, as PTB's own
    transport does; NO_PROXY exempts a host."""
    seen: list[str] = []

    async def proxy(request: web.Request) -> web.Response:
        seen.append(str(request.url))
        return web.json_response({"ok": True, "result": True})

    runner, origin = await serve(proxy)
    monkeypatch.setenv("HTTP_PROXY", origin)
    monkeypatch.setenv("NO_PROXY", "exempt.invalid")
    request = AiohttpRequest()
    await request.initialize()
    try:
        status, body = await request.do_request(
            f"http://api.example.invalid/bot{TOKEN}/close", "POST"
        )
    finally:
        await request.shutdown()
        await runner.cleanup()
    assert status == 200 and b'"ok": true' in body
    assert seen == [f"http://api.example.invalid/bot{TOKEN}/close"]


async def test_a_request_without_files_is_one_json_body(transport):
    """A call without files is sent as one UTF-8 JSON object (``application/json``), its
    non-ASCII text as it is; the answer is decoded into PTB's result."""
    seen: list[tuple[str, bytes]] = []

    async def api(request: web.Request) -> web.Response:
        seen.append((request.content_type, await request.read()))
        return web.json_response({"ok": True, "result": {**MESSAGE, "text": "नमस्ते"}})

    runner, origin = await serve(api)
    bot = Bot(TOKEN, base_url=f"{origin}/bot", request=transport, get_updates_request=transport)
    try:
        message = await bot.send_message(1, "Γειά σου, नमस्ते")
    finally:
        await runner.cleanup()
    assert message.text == "नमस्ते"
    [(content_type, body)] = seen
    assert content_type == "application/json"
    assert json.loads(body) == {"chat_id": 1, "text": "Γειά σου, नमस्ते"}
    assert "Γειά σου, नमस्ते".encode() in body  # not \\u-escaped


def test_answers_orjson_refuses_are_read_as_ptb_reads_them():
    """Invalid UTF-8 in an answer is replaced, as PTB's own ``parse_json_payload`` does; a body
    that is not JSON is PTB's ``TelegramError("Invalid server response")``."""
    assert AiohttpRequest().parse_json_payload(b'{"ok":true,"result":"a\xffb"}') == {
        "ok": True,
        "result": "a\ufffdb",
    }
    with pytest.raises(TelegramError, match="Invalid server response"):
        AiohttpRequest().parse_json_payload(b"<html>502 Bad Gateway</html>")


async def test_polled_callback_queries_come_without_the_unread_fields(transport):
    """getUpdates' callback queries reach PTB without their message's entities
    (``UNREAD_FIELDS``) and with its keyboard as sent (``SENT_KEYBOARD``); the rest of that
    message, and other updates, arrive whole."""
    keyboard = {"inline_keyboard": [[{"text": "A", "callback_data": "a:1"}]]}
    bold = [{"type": "bold", "offset": 0, "length": 2}]
    updates = [
        {
            "update_id": 1,
            "callback_query": {
                "id": "q1",
                "from": {"id": 7, "is_bot": False, "first_name": "A"},
                "chat_instance": "c",
                "data": "a:1",
                "message": {
                    **MESSAGE,
                    "text": "Q1 text",
                    "entities": bold,
                    "reply_markup": keyboard,
                },
            },
        },
        {
            "update_id": 2,
            "message": {
                **MESSAGE,
                "text": "/quiz",
                "entities": [{"type": "bot_command", "offset": 0, "length": 5}],
                "reply_markup": keyboard,
            },
        },
    ]

    async def api(request: web.Request) -> web.Response:
        return web.json_response({"ok": True, "result": updates})

    runner, origin = await serve(api)
    bot = Bot(TOKEN, base_url=f"{origin}/bot", request=transport, get_updates_request=transport)
    try:
        query, message = await bot.get_updates()
    finally:
        await runner.cleanup()
    polled = query.callback_query.message
    assert (polled.text, polled.chat.id, polled.message_id) == ("Q1 text", 1, 5)
    assert polled.entities == () and polled.reply_markup is None
    assert sent_keyboard(polled) == keyboard
    assert sent_keyboard(message.message) == keyboard  # parsed whole: from its reply_markup
    assert message.message.entities[0].type == "bot_command"


def test_the_handlers_read_no_unread_field_of_a_callback_querys_message():
    """A tripwire for :data:`UNREAD_FIELDS` and ``SENT_KEYBOARD``: every place the bot's code
    reads a message's ``entities`` is one known to read a message a user sent (not a callback
    query's), and its ``reply_markup`` is read only by ``common.sent_keyboard``; a new one must
    be checked, and the field kept if it reads a query's message."""
    known = {
        ("bot/telegram/arrivals.py", "entities"),
        ("bot/features/myquizzes/quiz_handlers.py", "entities"),
        ("bot/telegram/common.py", "reply_markup"),
    }
    root = Path(__file__).resolve().parents[2]
    reads = set()
    fields = (*UNREAD_FIELDS, "reply_markup")
    for path in sorted((root / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Load)
                and node.attr in fields
            ):
                reads.add((path.relative_to(root).as_posix(), node.attr))
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "getattr"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and node.args[1].value in fields
            ):
                reads.add((path.relative_to(root).as_posix(), node.args[1].value))
    assert reads == known
