"""Inline mode: inline queries, chosen results, t.me deep links, and the update queue's
state (pending updates, polling, webhook deliveries).

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
from typing import Any

from tests.support.fakebotapi.markup import (
    _inline_keyboard,
)
from tests.support.fakebotapi.protocol import (
    _LINK_RE,
    _START_PARAMETER_RE,
    INLINE_CHAT_TYPES,
    MAX_INLINE_QUERY,
)


class InlineMixin:
    """Inline mode: inline queries, chosen results, t.me deep links, and the update queue's"""

    def inline_query(
        self,
        user_id: int,
        query: str,
        *,
        offset: str = "",
        chat_type: str | None = "sender",
        check_length: bool = True,
    ) -> dict:
        """A user types "@<bot> <query>" in a chat's input field: an inline_query Update.

        The query carries a fresh string id, the user (with their ``language_code``), the text,
        the ``offset`` the bot's last answer asked for (``next_offset``) and ``chat_type``;
        answerInlineQuery must follow within ``query_ttl`` seconds.

        Args:
            query: The text after the bot's username.
            offset: "" for a first page.
            chat_type: "sender" (the user's chat with the bot), "private", "group",
                "supergroup" or "channel"; None leaves the field out, as for a query from a
                secret chat.
            check_length: Refuse a query longer than Telegram's 256 characters (InlineQuery:
                "up to 256 characters"); False lets a test send any text.

        Raises:
            ValueError: an unknown user, the bot's inline mode is off (clients send it no
                inline queries), a query over 256 characters, or an unknown chat type.
        """
        user = self._user(user_id)
        if not self.inline_mode:
            raise ValueError("the bot's inline mode is off: FakeBotAPI(inline_mode=True)")
        if check_length and len(query) > MAX_INLINE_QUERY:
            raise ValueError(f"an inline query is at most {MAX_INLINE_QUERY} characters")
        if chat_type is not None and chat_type not in INLINE_CHAT_TYPES:
            raise ValueError(f"chat_type must be one of {INLINE_CHAT_TYPES} or None")
        query_id = str(next(self._query_ids))
        inline: dict[str, Any] = {"id": query_id, "from": user, "query": query, "offset": offset}
        if chat_type is not None:
            inline["chat_type"] = chat_type
        self._inline_queries[query_id] = (self._clock(), copy.deepcopy(inline))
        return self.push_update({"inline_query": inline})

    def inline_results(self, query_id: str) -> list[dict]:
        """The results the bot answered an inline query with.

        Raises:
            KeyError: the query was not answered (yet).
        """
        return copy.deepcopy(self.inline_answers[query_id]["results"])

    def choose_inline_result(
        self,
        user_id: int,
        query_id: str,
        result_id: str,
        *,
        chat_id: int | None = None,
    ) -> dict:
        """The user taps one of the bot's answers to their inline query: it is sent to the
        chat where they typed, as their own message ``via_bot`` the bot.

        The message has the article's ``input_message_content`` (text parsed per its
        parse_mode) and ``reply_markup``. The bot receives it as a message update: in a
        private chat with the bot as any message; in a group also with privacy mode on
        (https://core.telegram.org/bots/features#privacy-mode: a bot in privacy mode still
        receives "messages sent via this bot"). With :attr:`inline_feedback` on, a
        chosen_inline_result update comes first (with an ``inline_message_id`` when the message
        has an inline keyboard, as Bot API ChosenInlineResult says).

        Args:
            query_id: An inline query of ``user_id`` the bot answered.
            result_id: The id of one of its results (an article).
            chat_id: A group the user is in; None for the user's chat with the bot (the fake
                has no chats between two users).

        Returns:
            The message as stored in the chat.

        Raises:
            ValueError: not the user's query, not answered, no such result, not an article, or a
                chat the user is not in.
        """
        asked = self._inline_queries.get(query_id)
        if asked is None or asked[1]["from"]["id"] != user_id:
            raise ValueError(f"user {user_id} sent no inline query {query_id}")
        answer = self.inline_answers.get(query_id)
        if answer is None:
            raise ValueError(f"inline query {query_id} was not answered")
        result = next((r for r in answer["results"] if r.get("id") == result_id), None)
        if result is None or result.get("type") != "article":
            raise ValueError(
                f"no article {result_id!r} among the answers: "
                f"{[r.get('id') for r in answer['results']]}"
            )
        chat, user = self._user_in_chat(user_id, chat_id)
        content = result["input_message_content"]
        text, entities = self._text(
            {
                "text": content["message_text"],
                "parse_mode": content.get("parse_mode"),
                "entities": content.get("entities"),
            }
        )
        fields: dict[str, Any] = {"from": user, "via_bot": self.bot_user, "text": text}
        if entities:
            fields["entities"] = entities
        markup = _inline_keyboard(result.get("reply_markup"), edit=False)
        if markup:
            fields["reply_markup"] = markup
        message = self._store(chat, fields)
        if self.inline_feedback:
            chosen: dict[str, Any] = {
                "result_id": result_id,
                "from": user,
                "query": asked[1]["query"],
            }
            if markup:
                chosen["inline_message_id"] = f"inline-{chat.id}-{message['message_id']}"
            self.push_update({"chosen_inline_result": chosen})
        self.push_update({"message": copy.deepcopy(message)})
        return copy.deepcopy(message)

    def follow_link(self, user_id: int, url: str, *, chat_id: int | None = None) -> dict:
        """A user opens a t.me link to the bot (a URL button, a link in a message).

        ``https://t.me/<bot>?start=<payload>`` opens the user's private chat with the bot and,
        on Start, sends "/start <payload>" there. ``https://t.me/<bot>?startgroup=<payload>``
        asks the user for a group (``chat_id``), adds the bot if it was removed from it
        (:meth:`add_bot`) and sends "/start@<bot> <payload>" there from the user (Telegram's
        messages.startBot; https://core.telegram.org/api/links#bot-links). A bare
        ``https://t.me/<bot>`` sends "/start".

        Returns:
            The message Update with the /start command.

        Raises:
            ValueError: not a link to this bot, a payload that is not 1-64 characters of
                ``A-Za-z0-9_-`` (Bot API "Deep linking"), ``startgroup`` without a group or
                into a chat that is no group of the user's.
        """
        match = _LINK_RE.fullmatch(url)
        if match is None or match["bot"].lower() != self.bot_username.lower():
            raise ValueError(f"not a t.me link to @{self.bot_username}: {url!r}")
        payload = match["payload"]
        if payload is not None and not _START_PARAMETER_RE.fullmatch(payload):
            raise ValueError(f"invalid start parameter {payload!r}")
        if match["kind"] != "startgroup":
            if chat_id is not None:
                raise ValueError("a ?start= link opens the private chat: no chat_id")
            return self.send_message(user_id, f"/start {payload}" if payload else "/start")
        if chat_id is None:
            raise ValueError("a ?startgroup= link needs the group the user picks: chat_id")
        chat = self._chats.get(chat_id)
        if chat is None or chat.type not in ("group", "supergroup"):
            raise ValueError(f"{chat_id} is not a group: add_group() first")
        if chat.bot_status is not None:
            self.add_bot(chat_id, by=user_id)
        command = f"/start@{self.bot_username}"
        return self.send_message(
            user_id, f"{command} {payload}" if payload else command, chat_id=chat_id
        )

    def pending_updates(self) -> int:
        """Number of queued updates not yet confirmed by a getUpdates offset."""
        return len(self._updates)

    def fetched(self, update_id: int) -> bool:
        """Whether a getUpdates answer carried update ``update_id`` (the bot has it, whether
        it confirmed it yet or not)."""
        return any(
            update.get("update_id") == update_id
            for call in self.calls
            if call.method == "getUpdates" and call.response.get("ok")
            for update in call.response["result"]
        )

    def drop_pending_updates(self) -> int:
        """Forget the queued updates, as Telegram does after 24 hours or when a bot sets
        ``drop_pending_updates``; return how many were dropped."""
        dropped = len(self._updates)
        self._updates.clear()
        return dropped

    @property
    def webhook_delivering(self) -> bool:
        """Whether a webhook is set and its deliveries are running."""
        return (
            bool(self.webhook_url)
            and self._webhook_task is not None
            and (not self._webhook_task.done())
        )

    @property
    def polling(self) -> bool:
        """Whether a getUpdates request is waiting for updates right now."""
        return self._poll is not None
