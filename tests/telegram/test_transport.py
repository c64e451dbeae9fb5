"""The aiohttp transport against real local HTTP servers: file uploads (multipart), the write
timeout, and proxies from the environment."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import TimedOut

from bot.telegram.transport import AiohttpRequest

TOKEN = "123:abc"
MESSAGE = {"message_id": 5, "date": 0, "chat": {"id": 1, "type": "private"}}


async def serve(handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
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
            received[name] = ((value.filename, value.content_type, value.file.read())
                              if isinstance(value, web.FileField) else value)
        return web.json_response({"ok": True, "result": {
            **MESSAGE, "document": {"file_id": "f", "file_unique_id": "u"}}})

    runner, origin = await serve(handler)
    try:
        bot = Bot(TOKEN, base_url=f"{origin}/bot", request=transport,
                  get_updates_request=AiohttpRequest())
        message = await bot.send_document(1, b"col1,col2\n1,2\n", filename="results.csv",
                                          caption="Results")
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
                await transport.do_request(f"{origin}/bot{TOKEN}/getMe", "POST",
                                           read_timeout=None, write_timeout=0.3,
                                           connect_timeout=0.5, pool_timeout=0.5)
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
        status, body = await request.do_request(f"http://api.example.invalid/bot{TOKEN}/close",
                                                "POST")
    finally:
        await request.shutdown()
        await runner.cleanup()
    assert status == 200 and b'"ok": true' in body
    assert seen == [f"http://api.example.invalid/bot{TOKEN}/close"]
