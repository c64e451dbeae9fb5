"""getUpdates long polling and webhooks (setWebhook, deliveries, getWebhookInfo).

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import time
from typing import Any

import aiohttp

from tests.support.fakebotapi.protocol import (
    CONFLICT_POLLING,
    CONFLICT_WEBHOOK,
    ApiError,
    _bad,
    _flag,
)


class UpdatesMixin:
    """getUpdates long polling and webhooks (setWebhook, deliveries, getWebhookInfo)."""

    async def _get_updates(self, p: dict) -> list[dict]:
        """getUpdates: offset confirms (negative counts from the end), limit 1-100, timeout."""
        if self.webhook_url:
            raise ApiError(409, CONFLICT_WEBHOOK)
        offset = self._int(p.get("offset", 0), "offset")
        limit = min(max(self._int(p.get("limit", 100), "limit"), 1), 100)
        try:
            timeout = max(float(p.get("timeout") or 0), 0.0)
        except (TypeError, ValueError):
            raise _bad("invalid timeout specified") from None
        allowed = p.get("allowed_updates")
        if isinstance(allowed, list):  # absent keeps the previous setting; [] the default
            self._allowed = frozenset(allowed) or None
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        if self._poll is not None:  # Telegram terminates the earlier request
            self._poll.set()
            self._notify()
        terminated = self._poll = asyncio.Event()
        self.signal()  # a poll is held now (``polling``)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while True:
                wakeup = self._wakeup
                if terminated.is_set():
                    raise ApiError(409, CONFLICT_POLLING)
                remaining = deadline - loop.time()
                if self._updates or self._closing or remaining <= 0:
                    return copy.deepcopy(self._updates[:limit])
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wakeup.wait(), remaining)
        finally:
            if self._poll is terminated:
                self._poll = None

    def _set_webhook(self, p: dict) -> bool:
        """setWebhook: an empty url removes the webhook (as deleteWebhook)."""
        secret = p.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise _bad("secret token contains unallowed characters")
        if _flag(p.get("drop_pending_updates")):
            self._updates.clear()
        self.webhook_url = str(p["url"]) if p.get("url") else ""
        self.webhook_secret = str(secret) if secret is not None else None
        if isinstance(p.get("allowed_updates"), list):
            self._allowed = frozenset(p["allowed_updates"]) or None
        if self.webhook_url and (self._webhook_task is None or self._webhook_task.done()):
            self._webhook_task = asyncio.get_running_loop().create_task(
                self._deliver_webhooks(), name="fakebotapi-webhook"
            )
        self._notify()
        return True

    def _delete_webhook(self, p: dict) -> bool:
        if _flag(p.get("drop_pending_updates")):
            self._updates.clear()
        self.webhook_url = ""
        self.webhook_secret = None
        self._notify()
        return True

    def _get_webhook_info(self, p: dict) -> dict:
        info: dict[str, Any] = {
            "url": self.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }
        if self.webhook_url:
            info["max_connections"] = 40
        if self.last_webhook_error is not None:
            info["last_error_date"] = int(self.last_webhook_error[0])
            info["last_error_message"] = self.last_webhook_error[1]
        if self._allowed:
            info["allowed_updates"] = sorted(self._allowed)
        return info

    async def _deliver_webhooks(self) -> None:
        """POST the queued updates to the webhook, oldest first, until it is removed; an
        update leaves the queue once the webhook answered it with a 2xx status."""
        if self._webhook_session is None:
            self._webhook_session = aiohttp.ClientSession()
        pause = self.webhook_retry_seconds[0]
        while self.webhook_url and not self._closing:
            wakeup = self._wakeup
            if not self._updates:
                await wakeup.wait()
                continue
            url, update = self.webhook_url, self._updates[0]
            headers = (
                {"X-Telegram-Bot-Api-Secret-Token": self.webhook_secret}
                if self.webhook_secret is not None
                else {}
            )
            try:
                async with self._webhook_session.post(
                    url,
                    json=update,
                    headers=headers,
                    timeout=aiohttp.ClientTimeout(total=self.webhook_timeout),
                ) as response:
                    await response.read()
                    status: int | str = response.status
                    error = (
                        None
                        if 200 <= response.status < 300
                        else f"Wrong response from the webhook: {response.status} {response.reason}"
                    )
            except (aiohttp.ClientConnectionError, TimeoutError) as exc:
                status = type(exc).__name__
                error = (
                    "Read timeout expired"
                    if isinstance(exc, TimeoutError)
                    else "Connection refused"
                )
            self.webhook_deliveries.append((update["update_id"], status))
            self.signal()
            if error is None:
                pause = self.webhook_retry_seconds[0]
                if self._updates and self._updates[0] is update:
                    self._updates.pop(0)
                self._notify()
                continue
            self.last_webhook_error = (time.time(), error)
            self.signal()
            with contextlib.suppress(TimeoutError):  # a new setWebhook retries at once
                await asyncio.wait_for(self._wakeup.wait(), pause)
            pause = min(pause * 2, self.webhook_retry_seconds[1])
