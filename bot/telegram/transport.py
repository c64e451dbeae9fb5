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
``HTTP_PROXY``, ``NO_PROXY``), read once per URL (one per Bot API method) when the first
request goes there, as httpx reads them once when its client is made: aiohttp's own
``trust_env`` reads the environment and parses ``~/.netrc`` (in a worker thread) on every
request, which cost more CPU than the quiz on a busy group (profiled with py-spy,
``benchmarks/group_load.py``). It also honours the four timeouts of each call.
aiohttp has no timeout for sending alone, so a write timeout bounds the whole exchange together
with the others (``total`` = connect + pool + write + read, an unlimited one counting as 0): an
upload that stalls fails in bounded time, as with httpx. Without a write timeout there is no total.

Two savings per call, both through this class, PTB's documented place for how requests are
sent and what comes back (``BaseRequest.do_request``):

* a request without files is sent as one JSON body (``application/json``, which the Bot API
  accepts for every method: https://core.telegram.org/bots/api#making-requests), encoded once
  from ``RequestData.parameters`` by one ``json.dumps``, instead of a form whose every field is
  JSON-encoded on its own and then URL-encoded;
* JSON is encoded and Telegram's answers decoded by ``orjson`` (C, several times the standard
  library's speed), the decoding through ``BaseRequest.parse_json_payload``, the method PTB
  documents for choosing the JSON library; a body orjson refuses (invalid UTF-8) is read by
  PTB's own method, which replaces the bad bytes as before;
* what each call's URL means to aiohttp (its parsed ``yarl.URL``, the proxy) and each set of
  timeouts (``aiohttp.ClientTimeout``) are worked out once, not per call, and the session keeps
  no cookies (the Bot API sets none), so none are looked up for each request;
* a call made inside :func:`results_unread` (the feedback edit, the next question: calls whose
  answer the bot never reads) gets ``True`` back from PTB instead of the ``Message`` Telegram
  sent: a successful answer's body is replaced by ``{"ok":true,"result":true}`` before PTB
  parses it, so PTB neither decodes the JSON nor builds the message's objects (its
  ``_send_message`` returns ``True`` for such a result, as for an inline message's edit).
  Failures are never replaced: PTB raises Telegram's errors from the real body;
* in the updates getUpdates returns, a callback query's message keeps what the handlers read
  of it (its chat, id, date, sender, text or photo, ...) as PTB objects. Its ``entities``, one
  object per bold or link of the question, are dropped, and its keyboard (one object per
  button) is kept as Telegram sent it, under :data:`SENT_KEYBOARD`, which PTB leaves unparsed
  in the message's ``api_kwargs`` (PTB's place for data without an attribute). This is done
  in ``BaseRequest.parse_json_payload``, where PTB decodes each answer, before it builds the
  updates. Updates that come by webhook are parsed whole.

The getUpdates transport of a polling bot also has a ``confirm``
(:class:`bot.telegram.polling.PolledUpdates`): each getUpdates' ``offset`` is the one it says
(confirming only the updates handled), and the updates its answer carries again (fetched
before, still in hand) are dropped there too, before PTB builds them.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any, Protocol

import aiohttp
import orjson
from aiohttp.helpers import get_env_proxy_for_url
from aiohttp.payload import BytesPayload
from telegram._utils.types import JSONDict
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData
from yarl import URL

from bot.i18n import bidi
from bot.render.limits import MAX_CAPTION_UTF16, MAX_MESSAGE_UTF16, MAX_TOAST_UTF16
from bot.telegram.outcomes import ConnectFailed, ConnectTimedOut

_UNREAD: ContextVar[bool] = ContextVar("quizbot_results_unread", default=False)

UNREAD_RESULT = b'{"ok":true,"result":true}'
"""The body a successful call made inside :func:`results_unread` is given to PTB instead of
Telegram's: PTB returns ``True`` for it without building objects."""

UNREAD_FIELDS = ("entities",)
"""What of a callback query's message (the bot's own message with the button) no handler
reads: dropped from polled updates before PTB builds them. A handler that needs one must
remove it from here (``tests/telegram/test_transport.py`` checks where the handlers read one).
"""

SENT_KEYBOARD = "quizbot_sent_keyboard"
"""The key under which a polled callback query's message keeps its ``reply_markup`` as
Telegram sent it (a dict, in ``Message.api_kwargs``; its ``reply_markup`` is then None): the
only reader, ``common.sent_keyboard``, compares it with a screen's."""


def slim_updates(updates: list[JSONDict]) -> list[JSONDict]:
    """``updates`` (getUpdates' result, as decoded), each callback query's message without
    :data:`UNREAD_FIELDS` and with its keyboard under :data:`SENT_KEYBOARD`; changed in place
    and returned."""
    for update in updates:
        query = update.get("callback_query")
        if query is not None:
            message = query.get("message")
            if message is not None:
                for name in UNREAD_FIELDS:
                    message.pop(name, None)
                markup = message.pop("reply_markup", None)
                if markup is not None:
                    message[SENT_KEYBOARD] = markup
    return updates


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


class Confirming(Protocol):
    """What getUpdates confirms (:class:`bot.telegram.polling.PolledUpdates`)."""

    def offset(self, asked: int) -> int:
        """The ``offset`` to send when PTB asks for ``asked``."""
        ...

    def fresh(self, updates: list[Any]) -> list[Any]:
        """The updates of an answer that PTB is to get."""
        ...


def json_body(request_data: RequestData) -> bytes:
    """The request's parameters as one UTF-8 JSON object (``RequestData.parameters``: plain
    values, already converted from PTB's objects), encoded once (by orjson: compact, non-ASCII
    characters as they are, as ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``)."""
    return orjson.dumps(request_data.parameters)


class AiohttpRequest(BaseRequest):
    """Send Bot API requests with one ``aiohttp.ClientSession``.

    Args:
        connection_pool_size: Most connections open at once (aiohttp's ``TCPConnector`` limit);
            more requests wait for a free one.
        pace: Awaited before each request (the getUpdates transport's: returns at once
            while the bot has room for more updates, else once it has: see
            ``bot.app.poll_pace``); None: no wait.
        confirm: The getUpdates transport's: the ``offset`` each getUpdates sends
            (``confirm.offset`` of PTB's), and the updates of each answer PTB gets
            (``confirm.fresh`` of Telegram's): see :mod:`bot.telegram.polling`; None: as PTB
            asks.
        read_timeout: Seconds to wait for a response (per read), default 5.
        write_timeout: Seconds to send a request (applied to the whole request), default 5.
        connect_timeout: Seconds to connect, default 5.
        pool_timeout: Seconds to wait for a free connection, default 1 (PTB's default).
    """

    def __init__(
        self,
        connection_pool_size: int = 16,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        pace: Callable[[], Awaitable[None]] | None = None,
        confirm: Confirming | None = None,
    ) -> None:
        self._pool_size = connection_pool_size
        self._pace = pace
        self._confirm = confirm
        self._defaults = {
            "read": read_timeout,
            "write": write_timeout,
            "connect": connect_timeout,
            "pool": pool_timeout,
        }
        self._session: aiohttp.ClientSession | None = None
        self._targets: dict[str, tuple[URL, URL | None, aiohttp.BasicAuth | None]] = {}
        self._timeouts: dict[tuple[float | None, ...], aiohttp.ClientTimeout] = {}

    @property
    def read_timeout(self) -> float | None:
        """The default read timeout in seconds (PTB adds it to getUpdates' long-poll time)."""
        return self._defaults["read"]

    async def initialize(self) -> None:
        """Open the session (idempotent)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(limit=self._pool_size),
                headers={"User-Agent": self.USER_AGENT},
                cookie_jar=aiohttp.DummyCookieJar(),
            )  # the Bot API sets no cookies
            self._targets.clear()

    def parse_json_payload(self, payload: bytes) -> JSONDict:  # type: ignore[override]
        """Telegram's answer as a dict (PTB's documented place to pick the JSON library):
        decoded by orjson; a body it refuses goes to PTB's own method, which replaces invalid
        UTF-8 and raises ``TelegramError("Invalid server response")`` for what is not JSON.
        A list of updates (getUpdates' answer: the only result that is a list of objects with
        an ``update_id``) goes through ``confirm.fresh`` (when this transport has a
        ``confirm``), then :func:`slim_updates`."""
        try:
            answer: JSONDict = orjson.loads(payload)
        except orjson.JSONDecodeError:
            return BaseRequest.parse_json_payload(payload)
        result = answer.get("result") if isinstance(answer, dict) else None
        if (
            isinstance(result, list)
            and result
            and isinstance(result[0], dict)
            and "update_id" in result[0]
        ):
            if self._confirm is not None:
                result = answer["result"] = self._confirm.fresh(result)
            slim_updates(result)
        return answer

    def _target(self, url: str) -> tuple[URL, URL | None, aiohttp.BasicAuth | None]:
        """``url`` parsed, with its proxy (URL or None) and the proxy's credentials, from the
        environment (``*_PROXY``, ``NO_PROXY``, ``~/.netrc`` for the proxy's credentials:
        aiohttp's rules): worked out once per URL (one per Bot API method) and session."""
        target = self._targets.get(url)
        if target is None:
            parsed = URL(url)
            proxy: tuple[URL | None, aiohttp.BasicAuth | None]
            try:
                proxy = get_env_proxy_for_url(parsed)
            except LookupError:
                proxy = (None, None)
            target = self._targets[url] = (parsed, *proxy)
        return target

    def _timeout(
        self, connect: float | None, pool: float | None, write: float | None, read: float | None
    ) -> aiohttp.ClientTimeout:
        """The ``aiohttp.ClientTimeout`` for these four timeouts (seconds, None: no limit): a
        write timeout bounds the whole exchange (``total`` = their sum), connecting includes
        the wait for a free connection. Made once per combination."""
        key = (connect, pool, write, read)
        timeout = self._timeouts.get(key)
        if timeout is None:
            parts = [p for p in key if p is not None]
            timeout = self._timeouts[key] = aiohttp.ClientTimeout(
                total=None if write is None else sum(parts),
                connect=None if connect is None or pool is None else connect + pool,
                sock_connect=connect,
                sock_read=read,
            )
        return timeout

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
            await self._pace()

        def pick(value: Any, kind: str) -> float | None:
            return self._defaults[kind] if value is BaseRequest.DEFAULT_NONE else value

        timeout = self._timeout(
            pick(connect_timeout, "connect"),
            pick(pool_timeout, "pool"),
            pick(write_timeout, "write"),
            pick(read_timeout, "read"),
        )
        body: aiohttp.FormData | BytesPayload | None = None
        if request_data is not None:
            if request_data.multipart_data:
                form = aiohttp.FormData()
                fields = request_data.json_parameters  # a new dict: ours to change
                mark_directions(url, fields)
                for name, value in fields.items():
                    form.add_field(name, value)
                for name, (filename, content, mimetype) in request_data.multipart_data.items():
                    form.add_field(name, content, filename=filename, content_type=mimetype)
                body = form
            else:  # a payload made here: aiohttp need not look its type up
                parameters = request_data.parameters  # a new dict: ours to change
                mark_directions(url, parameters)
                if self._confirm is not None and url.endswith("/getUpdates"):
                    asked = int(parameters.get("offset") or 0)  # type: ignore[arg-type]
                    parameters["offset"] = self._confirm.offset(asked)
                body = BytesPayload(orjson.dumps(parameters), content_type="application/json")
        target, proxy, proxy_auth = self._target(url)
        try:
            async with self._session.request(
                method, target, data=body, timeout=timeout, proxy=proxy, proxy_auth=proxy_auth
            ) as response:
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


_TAG = re.compile(r"<[^>]*>")


def mark_directions(url: str, parameters: dict[str, Any]) -> None:
    """Start each line of a right-to-left message text, caption or toast that Telegram's apps
    would lay out left to right (its first letter a Latin one: "ZeRO ...", or none: "3/8") with
    RIGHT-TO-LEFT MARK (:func:`bot.i18n.bidi.directed`), in place: the apps take a line's
    direction from its first strong character. Not when the marks would take the text past
    Telegram's length limit (it is sent as it is then)."""
    method = url.rsplit("/", 1)[-1]
    for field, limit in (("text", MAX_MESSAGE_UTF16), ("caption", MAX_CAPTION_UTF16)):
        value = parameters.get(field)
        if not isinstance(value, str) or not bidi.RIGHT_TO_LEFT_LETTER.search(value):
            continue
        html = parameters.get("parse_mode") == "HTML"
        marked = bidi.directed(value, html=html)
        if method == "answerCallbackQuery":
            limit = MAX_TOAST_UTF16
        shown = _TAG.sub("", marked) if html else marked
        if marked != value and len(shown.encode("utf-16-le")) // 2 <= limit:
            parameters[field] = marked
