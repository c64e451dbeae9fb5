"""A simulated Telegram user in a private chat with the bot."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.support.fakebotapi import FakeBotAPI
from tests.support.screens import buttons


@dataclass
class Person:
    """A simulated Telegram user in a private chat with the bot."""

    fake: FakeBotAPI
    user_id: int
    name: str
    language_code: str | None = None

    def __post_init__(self) -> None:
        self.fake.add_user(self.user_id, self.name, language_code=self.language_code)

    @property
    def chat(self) -> list[dict]:
        """The private chat's messages, oldest first."""
        return self.fake.messages(self.user_id)

    def bot_messages(self) -> list[dict]:
        """The bot's messages in the private chat."""
        return [m for m in self.chat if m.get("from", {}).get("id") == self.fake.bot_id]

    async def say(self, text: str, *, replies: int = 1, reply_to: int | None = None) -> list[dict]:
        """Send ``text`` (replying to message ``reply_to``); wait for ``replies`` new bot
        messages and return them."""
        return await self._expect(
            lambda: self.fake.send_message(self.user_id, text, reply_to=reply_to), replies
        )

    async def send_poll(
        self, question: str, options: list[str], *, replies: int = 1, **poll: Any
    ) -> list[dict]:
        """Send (or forward) a poll, as :meth:`FakeBotAPI.send_poll` takes it; wait for
        ``replies`` new bot messages and return them."""
        return await self._expect(
            lambda: self.fake.send_poll(self.user_id, question, options, **poll), replies
        )

    async def send_document(
        self, data: bytes, file_name: str, *, replies: int = 1, **fields: Any
    ) -> list[dict]:
        """Send a file as a document (see :meth:`FakeBotAPI.send_document`); wait for
        ``replies`` new bot messages and return them."""
        return await self._expect(
            lambda: self.fake.send_document(self.user_id, data, file_name, **fields), replies
        )

    async def send_photo(
        self, data: bytes | None = None, *, replies: int = 1, **fields: Any
    ) -> list[dict]:
        """Send a photo (see :meth:`FakeBotAPI.send_photo`); wait for ``replies`` new bot
        messages and return them."""
        return await self._expect(
            lambda: self.fake.send_photo(self.user_id, data, **fields), replies
        )

    async def press(self, text: str, *, replies: int = 1, **poll: Any) -> list[dict]:
        """Press a reply-keyboard button (see :meth:`FakeBotAPI.press`); wait for ``replies``
        new bot messages and return them."""
        return await self._expect(lambda: self.fake.press(self.user_id, text, **poll), replies)

    async def _expect(self, act: Callable[[], object], replies: int) -> list[dict]:
        before = len(self.bot_messages())
        act()
        await self.fake.wait_for(lambda: len(self.bot_messages()) >= before + replies)
        return self.bot_messages()[before:]

    def question_message(self) -> dict:
        """The newest bot message with answer buttons (callback data "a:...")."""
        for message in reversed(self.bot_messages()):
            if any(b.get("callback_data", "").startswith("a:") for b in buttons(message)):
                return message
        raise AssertionError("no question on screen")

    async def tap(self, message: dict, data: str, *, check_button: bool = True) -> str:
        """Tap a button and wait until the callback query is answered; return the query id."""
        update = self.fake.tap(
            self.user_id,
            message["chat"]["id"],
            message["message_id"],
            data,
            check_button=check_button,
        )
        query_id = update["callback_query"]["id"]
        await self.fake.wait_for(lambda: query_id in self.fake.callback_answers)
        return query_id

    async def answer(self, label: str) -> dict:
        """Tap option ``label`` (A-D) of the current question; return the edited message."""
        message = self.question_message()
        data = next(b["callback_data"] for b in buttons(message) if b["text"] == label)
        await self.tap(message, data)
        chat_id, message_id = message["chat"]["id"], message["message_id"]
        return await self.fake.wait_for(
            lambda: (
                lambda m: (
                    m
                    if any(b.get("callback_data", "").startswith("n:") for b in buttons(m))
                    else None
                )
            )(self.fake.message(chat_id, message_id))
        )

    async def next(self, feedback: dict) -> dict:
        """Tap the "next" button of a feedback message; return the bot's next message."""
        before = len(self.bot_messages())
        data = next(
            b["callback_data"]
            for b in buttons(feedback)
            if b.get("callback_data", "").startswith("n:")
        )
        await self.tap(feedback, data)
        await self.fake.wait_for(lambda: len(self.bot_messages()) > before)
        return self.bot_messages()[-1]
