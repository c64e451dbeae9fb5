"""Driving the bot: what users do (messages, taps, edits, deletions, special senders),
queued as updates.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
import itertools
import time
from typing import Any

from tests.support.fakebotapi.markup import (
    _user_text,
)
from tests.support.fakebotapi.protocol import (
    _OPT_IN_UPDATES,
    CHANNEL_BOT,
    GROUP_ANONYMOUS_BOT,
    TELEGRAM_SERVICE,
    _Chat,
)


class DrivingMixin:
    """Driving the bot: what users do (messages, taps, edits, deletions, special senders),"""

    def push_update(self, update: dict) -> dict:
        """Queue a raw Update (without update_id) for getUpdates and return it with its id.

        Like Telegram, an update of a type outside the last allowed_updates is not queued.
        """
        update = {"update_id": self._next_update_id, **update}
        self._next_update_id += 1
        kind = next(key for key in update if key != "update_id")
        allowed = self._allowed or frozenset(self._update_types) - _OPT_IN_UPDATES
        if kind in allowed:
            self._updates.append(update)
            self._notify()
        self.signal()
        return update

    def send_message(
        self,
        user_id: int,
        text: str,
        *,
        chat_id: int | None = None,
        message_thread_id: int | None = None,
        sender_chat_id: int | None = None,
        reply_to: int | None = None,
    ) -> dict:
        """A user sends a text message, in their private chat (chat_id None) or in a group.

        A text starting with "/" gets a bot_command entity over the command token
        ("/start" or "/start@botname"), as Telegram adds.

        Args:
            user_id: The sender; in a group, a participant (see :meth:`add_group`).
            text: The text.
            chat_id: A group; None for the user's private chat.
            message_thread_id: A forum topic of the group (see :meth:`create_topic`); None
                for the General topic.
            sender_chat_id: Post on behalf of this channel (registered with
                ``add_group(type="channel")``): ``from`` is Telegram's placeholder user
                136817688 "Channel" (@Channel_Bot) and ``sender_chat`` the channel.
            reply_to: The id of a message in the chat (the bot's, typically) this one replies
                to: the message carries it as ``reply_to_message``.

        Returns:
            The message Update.

        Raises:
            ValueError: for an unknown user, chat, topic or replied-to message, or a chat the
                bot is not in.
        """
        chat, user = self._user_in_chat(user_id, chat_id)
        fields: dict[str, Any] = {"from": user}
        if sender_chat_id is not None:
            fields = {"from": CHANNEL_BOT, "sender_chat": self._channel(sender_chat_id).chat}
        fields.update(self._topic_fields(chat, message_thread_id))
        fields.update(self._reply_fields(chat, reply_to))
        message = self._store(chat, {**fields, **_user_text(text)})
        return self.push_update({"message": copy.deepcopy(message)})

    def send_as_anonymous_admin(self, chat_id: int, text: str) -> dict:
        """An anonymous administrator writes in a group: a message Update.

        ``from`` is Telegram's placeholder user 1087968824 "Group" (@GroupAnonymousBot) and
        ``sender_chat`` the group itself. A leading "/command" gets its bot_command entity.

        Raises:
            ValueError: for a chat that is no group the bot is in.
        """
        chat = self._group_for_driver(chat_id)
        message = self._store(
            chat, {"from": GROUP_ANONYMOUS_BOT, "sender_chat": chat.chat, **_user_text(text)}
        )
        return self.push_update({"message": copy.deepcopy(message)})

    def auto_forward(self, group_id: int, channel_id: int, text: str) -> dict:
        """A post in a linked channel is automatically forwarded to its discussion group.

        The post is stored in the channel (no channel_post Update; see :meth:`post_channel`)
        and its copy arrives in the group from Telegram's service user 777000 "Telegram", with
        ``sender_chat`` the channel, ``is_automatic_forward: true`` and a ``forward_origin`` of
        type "channel" naming the channel post. A leading "/command" gets its bot_command entity.

        Returns:
            The group's message Update.

        Raises:
            ValueError: for an unknown group or channel.
        """
        group = self._group_for_driver(group_id)
        channel = self._channel(channel_id)
        post = self._store(channel, {"sender_chat": channel.chat, "text": text})
        origin = {
            "type": "channel",
            "chat": channel.chat,
            "message_id": post["message_id"],
            "date": post["date"],
        }
        message = self._store(
            group,
            {
                "from": TELEGRAM_SERVICE,
                "sender_chat": channel.chat,
                "forward_origin": origin,
                "is_automatic_forward": True,
                **_user_text(text),
            },
        )
        return self.push_update({"message": copy.deepcopy(message)})

    def delete_message(self, chat_id: int, message_id: int) -> None:
        """A user or admin deletes a message (the bot is not told, as on Telegram).

        Later edits of it answer 400 "Bad Request: message to edit not found".

        Raises:
            KeyError: if the chat has no such message.
        """
        chat = self._chats.get(chat_id)
        if chat is None or message_id not in chat.messages:
            raise KeyError(f"no message {message_id} in chat {chat_id}")
        del chat.messages[message_id]
        chat.raw.pop(message_id, None)

    def _channel(self, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None or chat.type != "channel":
            raise ValueError(f"{chat_id} is not a channel: add_group(..., type='channel') first")
        return chat

    def _group_for_driver(self, chat_id: int) -> _Chat:
        chat = self._chats.get(chat_id)
        if chat is None or chat.type not in ("group", "supergroup"):
            raise ValueError(f"{chat_id} is not a group: add_group() first")
        self._check_open(chat)
        return chat

    @staticmethod
    def _check_open(chat: _Chat) -> None:
        """Refuse driving a chat that was upgraded or that the bot was removed from."""
        if chat.migrated_to is not None:
            raise ValueError(f"chat {chat.id} was upgraded to {chat.migrated_to}")
        if chat.bot_status is not None:
            raise ValueError(f"the bot is not in chat {chat.id} ({chat.bot_status})")

    def _topic_fields(self, chat: _Chat, thread_id: int | None) -> dict[str, Any]:
        """The fields of a message in a forum topic (none for General), or ValueError."""
        if thread_id is None:
            return {}
        if thread_id not in chat.topics:
            raise ValueError(f"no topic {thread_id} in chat {chat.id}: create_topic() first")
        fields: dict[str, Any] = {"message_thread_id": thread_id, "is_topic_message": True}
        root = chat.messages.get(thread_id)
        if root is not None:  # messages in a topic reply to its creation message
            fields["reply_to_message"] = copy.deepcopy(root)
        return fields

    def send_sticker(self, user_id: int, *, chat_id: int | None = None) -> dict:
        """A user sends a sticker (a message without text). Returns the Update."""
        chat, user = self._user_in_chat(user_id, chat_id)
        sticker = {
            "file_id": "CAACAgIAAxkBAAEBsticker",
            "file_unique_id": "AgADsticker",
            "type": "regular",
            "width": 512,
            "height": 512,
            "is_animated": False,
            "is_video": False,
            "emoji": "👍",
        }
        message = self._store(chat, {"from": user, "sticker": sticker})
        return self.push_update({"message": copy.deepcopy(message)})

    def edit_user_message(
        self, user_id: int, message_id: int, new_text: str, *, chat_id: int | None = None
    ) -> dict:
        """A user edits their own text message. Returns the edited_message Update."""
        chat, _ = self._user_in_chat(user_id, chat_id)
        message = chat.messages.get(message_id)
        if message is None or message.get("from", {}).get("id") != user_id or "text" not in message:
            raise ValueError(f"user {user_id} has no text message {message_id} in chat {chat.id}")
        message.pop("entities", None)
        message.update(_user_text(new_text), edit_date=int(time.time()))
        return self.push_update({"edited_message": copy.deepcopy(message)})

    def post_channel(self, chat_id: int, text: str) -> dict:
        """A post appears in a channel registered with add_group(type="channel")."""
        chat = self._chats.get(chat_id)
        if chat is None or chat.type != "channel":
            raise ValueError(f"{chat_id} is not a channel: add_group(..., type='channel') first")
        message = self._store(chat, {"sender_chat": chat.chat, "text": text})
        return self.push_update({"channel_post": copy.deepcopy(message)})

    def tap(
        self,
        user_id: int,
        chat_id: int,
        message_id: int,
        data: str,
        *,
        check_button: bool = True,
    ) -> dict:
        """A user taps an inline button of a message the bot sent: a callback_query Update.

        The query carries the bot's current message, a chat_instance, ``data`` and a fresh
        string id; answerCallbackQuery must follow within ``query_ttl`` seconds.

        Args:
            check_button: Require a button with this callback_data on the current keyboard,
                as only such taps exist on Telegram.
        """
        user = self._user(user_id)
        chat = self._chats.get(chat_id)
        message = chat.messages.get(message_id) if chat else None
        if message is None or not self._is_bot_message(chat, message):
            raise ValueError(f"the bot has no message {message_id} in chat {chat_id}")
        buttons = message.get("reply_markup", {}).get("inline_keyboard", [])
        datas = [b.get("callback_data") for b in itertools.chain.from_iterable(buttons)]
        if check_button and data not in datas:
            raise ValueError(f"no button with callback_data {data!r} on the message: {datas}")
        query_id = str(next(self._query_ids))
        self._queries[query_id] = self._clock()
        return self.push_update(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user,
                    "message": copy.deepcopy(message),
                    "chat_instance": str(abs(chat_id) * 7919 + 31),
                    "data": data,
                }
            }
        )
