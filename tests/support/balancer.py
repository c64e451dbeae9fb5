"""A round-robin load balancer in front of several webhook servers (what nginx or HAProxy does
in front of quizbot's instances): each update Telegram (the fake) POSTs goes to the instance
:attr:`Balancer.plan` names next, else to the next one in turn; the instance's answer goes
back to the fake as it came."""

from __future__ import annotations

import json

import aiohttp
from aiohttp import web

from tests.support.processes import free_port

__all__ = ["Balancer"]


class Balancer:
    """A small aiohttp reverse proxy on a free loopback port: :attr:`url` is the webhook URL
    to give Telegram, :attr:`targets` the instances' own URLs (set before the first update),
    :attr:`routed` each update id with the index of the instance it went to."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/tg-hook"
        self.targets: list[str] = []
        self.plan: list[int] = []
        self.routed: list[tuple[int, int]] = []  # (update_id, instance)
        self._next = 0
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> Balancer:
        """Listen on :attr:`port`."""
        app = web.Application()
        app.router.add_post("/tg-hook", self._forward)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession()
        return self

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        if self.plan:
            index = self.plan.pop(0)
        else:
            index, self._next = self._next % len(self.targets), self._next + 1
        self.routed.append((json.loads(body)["update_id"], index))
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() in ("content-type", "x-telegram-bot-api-secret-token")
        }
        assert self._session is not None
        async with self._session.post(self.targets[index], data=body, headers=headers) as response:
            return web.Response(status=response.status, body=await response.read())

    def instances_of(self, update_ids: set[int]) -> set[int]:
        """The instances that got any of ``update_ids``."""
        return {index for update_id, index in self.routed if update_id in update_ids}

    async def stop(self) -> None:
        """Stop listening."""
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()
