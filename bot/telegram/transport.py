"""An aiohttp transport for python-telegram-bot (a ``telegram.request.BaseRequest``).

PTB's default transport is httpx. Measured here (``benchmarks/run.py``, README), httpx's
connection pool costs the bot more CPU per Bot API call than the rest of the quiz put together
once updates run concurrently: httpcore scans every pooled connection and queued request on each
request, and checks each idle socket for readability through anyio. aiohttp's pool does not,
and parses HTTP in C. This class only maps PTB's request contract onto ``aiohttp``: what to
send (form fields, or multipart with files), timeouts, and errors (``TimedOut``,
``NetworkError``), as ``HTTPXRequest`` does, with one distinction more: a connection that could
not be made raises ``outcomes.ConnectFailed`` (``ConnectTimedOut`` for a connect time-out), so
the rate limiter knows such a request surely did not reach Telegram. PTB still builds the
requests, reads the responses and raises Telegram's errors.

As PTB's own transport, it honours the proxy settings of the environment (``HTTPS_PROXY``,
``HTTP_PROXY``, ``NO_PROXY``), read once per host when the first request goes there, as httpx
reads them once when its client is made: aiohttp's own ``trust_env`` reads the environment and
parses ``~/.netrc`` (in a worker thread) on every request, which cost more CPU than the quiz on
a busy group (profiled with py-spy, ``benchmarks/group_load.py``). It also honours the four
timeouts of each call.
aiohttp has no timeout for sending alone, so a write timeout bounds the whole exchange together
with the others (``total`` = connect + pool + write + read, an unlimited one counting as 0): an
upload that stalls fails in bounded time, as with httpx. Without a write timeout there is no total.

Two savings per call, both through this class, PTB's documented place for how requests are
sent and what comes back (``BaseRequest.do_request``):

* a request without files is sent as one JSON body (``application/json``, which the Bot API
  accepts for every method: https://core.telegram.org/bots/api#making-requests), encoded once
  from ``RequestData.parameters`` by one ``json.dumps``, instead of a form whose every field is
  JSON-encoded on its own and then URL-encoded;
* a call made inside :func:`results_unread` (the feedback edit, the next question: calls whose
  answer the bot never reads) gets ``True`` back from PTB instead of the ``Message`` Telegram
  sent: a successful answer's body is replaced by ``{"ok":true,"result":true}`` before PTB
  parses it, so PTB neither decodes the JSON nor builds the message's objects (its
  ``_send_message`` returns ``True`` for such a result, as for an inline message's edit).
  Failures are never replaced: PTB raises Telegram's errors from the real body.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

import aiohttp
from aiohttp.helpers import get_env_proxy_for_url
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData
from yarl import URL

from bot.telegram.outcomes import ConnectFailed, ConnectTimedOut

_UNREAD: ContextVar[bool] = ContextVar("quizbot_results_unread", default=False)

UNREAD_RESULT = b'{"ok":true,"result":true}'
"""The body a successful call made inside :func:`results_unread` is given to PTB instead of
Telegram's: PTB returns ``True`` for it without building objects."""

JSON_HEADERS = {"Content-Type": "application/json"}


@contextlib.contextmanager
def results_unread() -> Iterator[None]:
    """Mark the Bot API calls made inside the block (in this task) as calls whose result
    nobody reads: each returns ``True`` on success instead of the object Telegram sent (a
    ``Message``), which is never built. Errors are raised as always."""
    token = _UNREAD.set(True)
    try:
        yield
    finally:
        _UNREAD.reset(token)


def json_body(request_data: RequestData) -> bytes:
    """The request's parameters as one UTF-8 JSON object (``RequestData.parameters``: plain
    values, already converted from PTB's objects), encoded once."""
    return json.dumps(request_data.parameters, ensure_ascii=False,
                      separators=(",", ":")).encode()


class AiohttpRequest(BaseRequest):
    """Send Bot API requests with one ``aiohttp.ClientSession``.

    Args:
        connection_pool_size: Most connections open at once (aiohttp's ``TCPConnector`` limit);
            more requests wait for a free one.
        pace: Returns the seconds to wait before each request (the getUpdates transport's:
            a short pause while updates are in flight, none when the bot is idle: see
            ``bot.app.POLL_PACE``); None: no wait.
        read_timeout: Seconds to wait for a response (per read), default 5.
        write_timeout: Seconds to send a request (applied to the whole request), default 5.
        connect_timeout: Seconds to connect, default 5.
        pool_timeout: Seconds to wait for a free connection, default 1 (PTB's default).
    """

    def __init__(self, connection_pool_size: int = 16, read_timeout: float | None = 5.0,
                 write_timeout: float | None = 5.0, connect_timeout: float | None = 5.0,
                 pool_timeout: float | None = 1.0,
                 pace: Callable[[], float] | None = None) -> None:
        self._pool_size = connection_pool_size
        self._pace = pace
        self._defaults = {"read": read_timeout, "write": write_timeout,
                          "connect": connect_timeout, "pool": pool_timeout}
        self._session: aiohttp.ClientSession | None = None
        self._proxies: dict[tuple[str, str], tuple[URL | None, aiohttp.BasicAuth | None]] = {}

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout in seconds (PTB adds it to getUpdates' long-poll time)."""
        return self._defaults["read"]

    async def initialize(self) -> None:
        """Open the session (idempotent)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT})
            self._proxies.clear()

    def _proxy(self, url: str) -> tuple[URL | None, aiohttp.BasicAuth | None]:
        """The proxy (URL or None) and its credentials for requests to ``url``'s scheme and host,
        from the environment (``*_PROXY``, ``NO_PROXY``, ``~/.netrc`` for the proxy's
        credentials: aiohttp's rules), looked up once per session and host."""
        target = URL(url)
        key = (target.scheme, target.host or "")
        if key not in self._proxies:
            try:
                self._proxies[key] = get_env_proxy_for_url(target)
            except LookupError:
                self._proxies[key] = (None, None)
        return self._proxies[key]

    async def shutdown(self) -> None:
        """Close the session (idempotent)."""
        if self._session is not None and not self._session.closed:
            await self._session.close()

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        """Send one request; return the HTTP status and the body.

        Each timeout is in seconds, None for no limit, or ``BaseRequest.DEFAULT_NONE`` for this
        transport's default.

        Raises:
            ConnectTimedOut: connecting, or waiting for a free connection, timed out (a
                ``TimedOut`` and a ``ConnectFailed``): nothing was sent.
            ConnectFailed: the connection could not be made (refused, DNS, TLS): nothing was
                sent.
            TimedOut: the answer did not come in time (the request may have been carried out).
            NetworkError: the connection dropped (the request may have been carried out).
            RuntimeError: not initialised.
        """
        if self._session is None or self._session.closed:
            raise RuntimeError("AiohttpRequest is not initialized")
        if self._pace is not None:
            wait = self._pace()
            if wait > 0:
                await asyncio.sleep(wait)

        def pick(value: Any, kind: str) -> float | None:
            return self._defaults[kind] if value is BaseRequest.DEFAULT_NONE else value

        connect, pool = pick(connect_timeout, "connect"), pick(pool_timeout, "pool")
        read, write = pick(read_timeout, "read"), pick(write_timeout, "write")
        parts = (connect, pool, write, read)
        timeout = aiohttp.ClientTimeout(
            total=None if write is None else sum(p for p in parts if p is not None),
            connect=None if connect is None or pool is None else connect + pool,
            sock_connect=connect,
            sock_read=read)
        body: aiohttp.FormData | bytes | None = None
        headers = None
        if request_data is not None:
            if request_data.multipart_data:
                form = aiohttp.FormData()
                for name, value in request_data.json_parameters.items():
                    form.add_field(name, value)
                for name, (filename, content, mimetype) in request_data.multipart_data.items():
                    form.add_field(name, content, filename=filename, content_type=mimetype)
                body = form
            else:
                body, headers = json_body(request_data), JSON_HEADERS
        proxy, proxy_auth = self._proxy(url)
        try:
            async with self._session.request(method, url, data=body, headers=headers,
                                             timeout=timeout, proxy=proxy,
                                             proxy_auth=proxy_auth) as response:
                payload = await response.read()
                if response.status == 200 and _UNREAD.get():
                    return 200, UNREAD_RESULT
                return response.status, payload
        except aiohttp.ConnectionTimeoutError as exc:
            raise ConnectTimedOut(f"Connect timed out: {exc}") from exc
        except TimeoutError as exc:
            raise TimedOut from exc
        except aiohttp.ClientConnectorError as exc:
            raise ConnectFailed(f"aiohttp.{type(exc).__name__}: {exc}") from exc
        except aiohttp.ClientError as exc:
            raise NetworkError(f"aiohttp.{type(exc).__name__}: {exc}") from exc
