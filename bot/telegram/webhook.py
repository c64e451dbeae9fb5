"""The webhook server: Telegram POSTs each update to it (webhook mode, ``QUIZBOT_WEBHOOK_URL``).

python-telegram-bot's own server (``Updater.start_webhook``, tornado) reads the whole body
(tornado's limit: 100 MB) before its handler checks the secret, answers 500 to a body that is not
JSON and 400 to an update it cannot parse; Telegram retries a non-2xx answer until it gives up
on the update. This one is PTB's documented custom-webhook approach (an application without an
updater, ``ApplicationBuilder.updater(None)``; a web server of the bot's own putting each
update on ``Application.update_queue``; the ``customwebhookbot.py`` example), on aiohttp, the
bot's HTTP library already:

- *The secret first*: a request without the ``X-Telegram-Bot-Api-Secret-Token`` header Telegram
  sends (Bot API, setWebhook ``secret_token``), or with another value, is answered 403 before
  any of its body is read.
- *The body capped before it is read*: a ``Content-Length`` over :data:`MAX_BODY_BYTES` is
  answered 413 at once; a chunked body is read up to the cap (aiohttp's ``client_max_size``).
  aiohttp stops reading from a connection whose unread body fills its buffer (64 KiB), so an
  unread body is never held in memory, and the connection of a refused request is closed once
  answered (no lingering read of the rest).
- *A malformed update is answered 200*: logged and dropped (Telegram would send it again and
  again).
- *An update the store cannot register is answered 500*: Telegram sends it again later
  (:class:`bot.telegram.arrivals.OrderedQueue`).
- *The port is bound before the bot says it is ready* (:meth:`WebhookServer.bind`), and the
  error names the setting; requests are served only once the bot is set up
  (:meth:`WebhookServer.start`).
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
import socket
from http import HTTPStatus

from aiohttp import web
from telegram import Update
from telegram.error import BadRequest
from telegram.ext import ExtBot

from bot.config import ConfigError, Settings
from bot.kernel.ports import StorageError
from bot.telegram.common import QuizApplication

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 1 << 20
"""The largest webhook request body read, in bytes (1 MiB). An update is a few kilobytes: a
message's text is at most 4096 characters, a caption 1024, entities and a reply's quoted
message add some; nothing the bot asks for (``allowed_updates``) comes near a mebibyte."""

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
"""The header of Telegram's webhook requests that carries ``secret_token`` (Bot API,
setWebhook)."""

SHOWN_BODY = 200
"""Characters of a malformed update's body quoted in the log."""


class WebhookServer:
    """The bot's webhook server (see the module's docstring).

    Args:
        app: The bot (built without an updater in webhook mode).
        settings: ``listen`` (where to listen), ``webhook_url`` (told to Telegram; its path is
            the path served), ``webhook_secret``.
        allowed_updates: The update types asked of Telegram (setWebhook).
    """

    def __init__(
        self, app: QuizApplication, settings: Settings, allowed_updates: list[str]
    ) -> None:
        self.app = app
        self.settings = settings
        self.allowed_updates = allowed_updates
        self.malformed = 0
        """Requests answered 200 whose body was not an update (for tests)."""
        self._socket: socket.socket | None = None
        self._runner: web.AppRunner | None = None

    def bind(self) -> None:
        """Bind the listening socket (connections wait in its backlog until :meth:`start`).

        Raises:
            ConfigError: the address cannot be listened on (in use, not this machine's, a
                privileged port); the message names ``QUIZBOT_LISTEN`` and the address.
        """
        address = self.settings.listen
        try:
            infos = socket.getaddrinfo(
                address.host or None, address.port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
            )
            family, kind, proto, _name, where = infos[0]
            sock = socket.socket(family, kind, proto)
        except OSError as exc:
            raise ConfigError(
                f"cannot listen for webhooks on {address} (QUIZBOT_LISTEN / "
                f"--listen): {exc.strerror or exc}"
            ) from None
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(where)
            sock.listen(128)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise ConfigError(
                f"cannot listen for webhooks on {address} (QUIZBOT_LISTEN / "
                f"--listen): {exc.strerror or exc}"
            ) from None
        self._socket = sock

    async def start(self) -> None:
        """Serve the webhook path on the bound socket (binding it first if needed), then tell
        Telegram the webhook URL and secret (setWebhook, pending updates kept).

        Raises:
            ConfigError: see :meth:`bind`; or Telegram refused the URL (setWebhook's 400).
            telegram.error.TelegramError: setWebhook failed otherwise.
        """
        if self._socket is None:
            self.bind()
        assert self._socket is not None
        server = web.Application(client_max_size=MAX_BODY_BYTES)
        server.router.add_post(self.settings.webhook_path, self.on_request)
        # lingering_time 0: the unread body of a refused request is not read and dropped for
        # 10 s (aiohttp's default): the connection is closed once answered
        self._runner = web.AppRunner(
            server, handle_signals=False, access_log=None, lingering_time=0
        )
        await self._runner.setup()
        await web.SockSite(self._runner, self._socket).start()
        url = self.settings.webhook_url or ""
        try:
            await self.app.bot.set_webhook(
                url=url,
                secret_token=self.settings.webhook_secret,
                allowed_updates=self.allowed_updates,
                drop_pending_updates=False,
            )
        except BadRequest as exc:  # e.g. "bad webhook: An HTTPS URL must be provided"
            raise ConfigError(
                f"Telegram refused the webhook URL {url} (QUIZBOT_WEBHOOK_URL / "
                f"--webhook-url): {exc.message}"
            ) from None

    async def stop(self) -> None:
        """Stop serving and close the socket (idempotent). The webhook stays set: Telegram
        keeps the updates that come meanwhile and sends them to the next start."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()
        sock, self._socket = self._socket, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.close()

    async def on_request(self, request: web.Request) -> web.Response:
        """Take one update: 403 without the secret and 413 for a body over
        :data:`MAX_BODY_BYTES` (neither reads the body); 200 once the update is queued, or
        when it is malformed (logged, dropped); 500 when the store could not register it."""
        secret = self.settings.webhook_secret
        if secret is not None and not hmac.compare_digest(
            request.headers.get(SECRET_HEADER, "").encode(), secret.encode()
        ):
            return web.Response(status=HTTPStatus.FORBIDDEN)
        if (request.content_length or 0) > MAX_BODY_BYTES:
            return web.Response(status=HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return web.Response(status=HTTPStatus.REQUEST_ENTITY_TOO_LARGE)
        update = self._parse(body)
        if update is None:
            return web.Response(status=HTTPStatus.OK)
        bot = self.app.bot
        if isinstance(bot, ExtBot):  # as PTB's own webhook does (arbitrary callback data)
            bot.insert_callback_data(update)
        try:
            await self.app.update_queue.put(update)
        except StorageError as exc:
            log.warning(
                "update %s not registered (%s): answered 500, Telegram sends it again",
                update.update_id,
                exc,
            )
            return web.Response(status=HTTPStatus.INTERNAL_SERVER_ERROR)
        return web.Response(status=HTTPStatus.OK)

    def _parse(self, body: bytes) -> Update | None:
        """The update in ``body``; None (logged, counted) when it is not one."""
        try:
            data = json.loads(body)
            if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
                raise ValueError("not a JSON object with an integer update_id")
            update = Update.de_json(data, self.app.bot)
        except Exception as exc:  # anything the body does to the parser: one malformed update
            self.malformed += 1
            log.warning(
                "webhook: a malformed update was answered 200 and dropped (%s: %s): %r",
                type(exc).__name__,
                exc,
                body[:SHOWN_BODY].decode("utf-8", "replace"),
            )
            return None
        return update
