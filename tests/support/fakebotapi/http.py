"""The HTTP side: the aiohttp handler, parameter decoding and method dispatch.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from aiohttp import web

from tests.support.fakebotapi.protocol import (
    _FLOOD_METHODS,
    _MISSING,
    _PATH_RE,
    _REMOVED,
    _TOKEN_RE,
    GROUP_MIGRATED,
    NOT_FOUND,
    PRIVATE_FLOOD_WINDOW,
    UNAUTHORIZED,
    ApiError,
    Call,
    _bad,
    _flag,
)


class HttpMixin:
    """The HTTP side: the aiohttp handler, parameter decoding and method dispatch."""

    async def _handle(self, request: web.Request) -> web.Response:  # noqa: C901 - the fake's request path: check, fault, reply
        arrived = self._clock()
        match = _PATH_RE.fullmatch(request.path)
        method = match["method"] if match else request.path
        params: dict[str, Any] = {}
        try:
            if match is None or not _TOKEN_RE.fullmatch(match["token"]):
                raise ApiError(404, NOT_FOUND)
            if match["token"] != self.token:
                raise ApiError(401, UNAUTHORIZED)
            method = self._method_names.get(method.lower(), method)
            if method not in self._spec:
                raise ApiError(404, NOT_FOUND)
            params = await self._read_params(request, method)
            seconds, methods = self._delay
            if seconds and (method in methods if methods is not None else method != "getUpdates"):
                await self.sleep(seconds)
            chat_delay = self._chat_delays.get(params.get("chat_id"))  # type: ignore[arg-type]
            if chat_delay:
                await self.sleep(chat_delay)
            arrived = self._clock()  # after the simulated network delay: when Telegram acts
            fault = self.chaos.draw() if self.chaos and method != "getUpdates" else None
            if self._drops.get(method):
                fault = "drop_after" if self._drops[method].pop(0) else "drop_before"
            if fault == "slow":
                await self.sleep(self.chaos.slow_seconds)  # type: ignore[union-attr]
            elif fault == "rate_limited":
                seconds = self.chaos.retry_after  # type: ignore[union-attr]
                raise ApiError(
                    429, f"Too Many Requests: retry after {seconds}", {"retry_after": seconds}
                )
            elif fault == "server_error":
                raise ApiError(502, "Bad Gateway")
            elif fault == "drop_before":
                return self._drop(request, method, params, arrived)
            self._check_bot_flood(method, params)
            result = await self._dispatch(method, params)
            self._note_bot_send(method, params)
            if fault == "drop_after":
                return self._drop(request, method, params, arrived)
            status, body = 200, {"ok": True, "result": result}
        except ApiError as error:
            status, body = error.error_code, error.body()
            if error.page is not None:
                self._answered(Call(method, params, status, body, arrived))
                return web.Response(text=error.page, status=status, content_type="text/html")
        except Exception as error:  # a bug in the fake: answer it visibly rather than hang up
            status, body = 500, ApiError(500, f"Internal Server Error: {error!r}").body()
        self._answered(Call(method, params, status, body, arrived))
        return web.json_response(
            body, status=status, dumps=lambda obj: json.dumps(obj, ensure_ascii=False)
        )

    def _answered(self, call: Call) -> None:
        """Record an answered call and tell the observers and waiters."""
        self.calls.append(call)
        for observer in self.observers:
            observer(call)
        self.signal()

    def _drop(
        self, request: web.Request, method: str, params: dict[str, Any], arrived: float
    ) -> web.Response:
        """Close the connection without an answer (the client sees a network error)."""
        self.calls.append(Call(method, params, 0, {"ok": False, "dropped": True}, arrived))
        self.signal()
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=499)

    async def _read_params(self, request: web.Request, method: str) -> dict[str, Any]:
        """Read query, form, multipart or JSON parameters; decode JSON-encoded values."""
        fields = self._spec[method]
        raw: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json" and request.can_read_body:
            try:
                body = await request.json()
            except ValueError:
                raise _bad("can't parse JSON encoded request") from None
            if not isinstance(body, dict):
                raise _bad("JSON object expected")
            raw.update(
                {k: json.dumps(v) if isinstance(v, (dict, list)) else v for k, v in body.items()}
            )
        elif request.method == "POST":
            for key, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    data = value.file.read()
                    value = {
                        "filename": value.filename,
                        "content_type": value.content_type,
                        "size": len(data),
                        "data": data,
                    }
                raw[key] = value
        params = {}
        for key, value in raw.items():
            string_only = fields.get(key, {}).get("types") == ["String"]
            if isinstance(value, str) and not string_only:
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            elif string_only and isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            params[key] = value
        return params

    async def _dispatch(self, method: str, params: dict[str, Any]) -> Any:
        failures = self._failures.get(method)
        if failures:
            error = failures[0][0]
            failures[0][1] -= 1
            if failures[0][1] <= 0:
                failures.pop(0)
            raise error
        for name, spec_field in self._spec[method].items():
            if spec_field["required"] and params.get(name) in (None, ""):
                raise ApiError(400, _MISSING.get(name, f"Bad Request: {name} is empty"))
        self._check_chat_state(params)
        if method == "getUpdates":
            return await self._get_updates(params)
        handler = self._handlers.get(method)
        if handler is None:
            raise ApiError(501, f"Not Implemented: FakeBotAPI does not implement {method}")
        return handler(params)

    def _check_bot_flood(self, method: str, p: dict) -> None:
        """429 beyond bot_limit_per_second sends and edits in all (paid_limit_per_second for
        those with allow_paid_broadcast)."""
        if self.bot_limit_per_second is None or method not in _FLOOD_METHODS:
            return
        paid = _flag(p.get("allow_paid_broadcast"))
        limit = self.paid_limit_per_second if paid else self.bot_limit_per_second
        sent, now = self._bot_sends[paid], self._clock()
        while sent and now - sent[0] >= PRIVATE_FLOOD_WINDOW:
            sent.popleft()
        if len(sent) >= limit:
            raise ApiError(429, "Too Many Requests: retry after 1", {"retry_after": 1})

    def _note_bot_send(self, method: str, p: dict) -> None:
        """Count a send or edit that went through in the bot's broadcasting limit."""
        if method in _FLOOD_METHODS:
            self._bot_sends[_flag(p.get("allow_paid_broadcast"))].append(self._clock())

    def _check_chat_state(self, p: dict) -> None:
        """Flood waits injected by flood(), then upgraded groups and chats without the bot."""
        try:
            chat_id = int(p["chat_id"])
        except (KeyError, TypeError, ValueError):
            return
        flood = self._chat_floods.get(chat_id)
        if flood:
            retry_after, flood[1] = flood[0], flood[1] - 1
            if flood[1] <= 0:
                del self._chat_floods[chat_id]
            raise ApiError(
                429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
            )
        chat = self._chats.get(chat_id)
        if chat is None:
            return
        if chat.migrated_to is not None:
            raise ApiError(400, GROUP_MIGRATED, {"migrate_to_chat_id": chat.migrated_to})
        if chat.bot_status is not None:
            raise ApiError(403, _REMOVED[chat.bot_status].format(chat.type))

    def _notify(self) -> None:
        """Wake every waiting getUpdates."""
        self._wakeup.set()
        self._wakeup = asyncio.Event()
