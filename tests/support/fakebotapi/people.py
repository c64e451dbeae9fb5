"""Simulated users and chats: users, groups, supergroups, channels, topics, the bot
added and removed, blocked users.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
import time
from typing import Any

from tests.support.fakebotapi.protocol import (
    _REMOVED,
    TOPIC_ICON_COLOR,
    _Chat,
)


class PeopleMixin:
    """Simulated users and chats: users, groups, supergroups, channels, topics, the bot"""

    def add_user(
        self,
        user_id: int,
        first_name: str,
        *,
        language_code: str | None = None,
        username: str | None = None,
        last_name: str | None = None,
        is_bot: bool = False,
    ) -> dict:
        """Register a Telegram user; their private chat (id == user_id) opens when they write.

        Returns:
            The User dict (id, is_bot, first_name and the optional fields given).
        """
        user: dict[str, Any] = {"id": user_id, "is_bot": is_bot, "first_name": first_name}
        optional = {"last_name": last_name, "username": username, "language_code": language_code}
        user.update({k: v for k, v in optional.items() if v is not None})
        self._users[user_id] = user
        return user

    def open_private(self, user_id: int) -> dict:
        """Open a registered user's private chat as if they had started the bot earlier (the
        bot may write to them), without an update now.

        Returns:
            The Chat dict.
        """
        chat, _ = self._user_in_chat(user_id, None)
        return chat.chat

    def add_group(
        self,
        chat_id: int,
        title: str,
        *,
        type: str = "supergroup",
        admins: list[int] | tuple[int, ...] = (),
        members: list[int] | tuple[int, ...] = (),
        is_forum: bool = False,
    ) -> dict:
        """Register a group, supergroup or channel the bot is in.

        Args:
            chat_id: A negative chat id (supergroups and channels look like -100xxxxxxxxxx).
            title: The chat title.
            type: "group", "supergroup" or "channel".
            admins: User ids of administrators; the first is the creator ("creator" status).
                Include ``bot_id`` to make the bot an administrator.
            members: User ids of ordinary members.
            is_forum: A supergroup with topics (Chat.is_forum); see :meth:`create_topic`.
                Message id 1 is taken by the chat's creation, as on Telegram, where it is
                also the id of the General topic; messages in General carry no thread id.

        Returns:
            The Chat dict.

        Raises:
            ValueError: for a non-negative id, an unknown type, or a forum that is no supergroup.
        """
        if chat_id >= 0 or type not in ("group", "supergroup", "channel"):
            raise ValueError("a group needs a negative chat_id and type group/supergroup/channel")
        if is_forum and type != "supergroup":
            raise ValueError("only supergroups can be forums")
        chat: dict[str, Any] = {"id": chat_id, "type": type, "title": title}
        if is_forum:
            chat["is_forum"] = True
        self._chats[chat_id] = _Chat(
            chat, admins=list(admins), members=list(members), next_id=2 if is_forum else 1
        )
        return chat

    def migrate_group(
        self, old_id: int, new_id: int, *, by: int | None = None
    ) -> tuple[dict, dict]:
        """Upgrade a basic group (type "group") to a supergroup with a new chat id.

        The supergroup keeps the title, admins and members; its message ids start afresh. As
        on Telegram, two service messages arrive: in the old chat one with
        ``migrate_to_chat_id=new_id``, in the new chat one with ``migrate_from_chat_id=old_id``.
        Afterwards every call naming ``old_id`` answers 400 "Bad Request: group chat was upgraded
        to a supergroup chat" with ``parameters.migrate_to_chat_id`` (PTB raises ChatMigrated).
        telegram-bot-api (Client::check_chat_access) answers this for calls that write to the
        chat; the fake answers it for every call naming the old chat, which is stricter.

        Args:
            old_id: The basic group's id (registered with ``add_group(type="group")``).
            new_id: The supergroup's id (-100xxxxxxxxxx on Telegram); must be unused.
            by: The user who upgraded the group; default its creator (first admin).

        Returns:
            The two message Updates (old chat's, new chat's).

        Raises:
            ValueError: if ``old_id`` is no active basic group or ``new_id`` is taken.
        """
        old = self._chats.get(old_id)
        if old is None or old.type != "group" or old.migrated_to is not None:
            raise ValueError(f"{old_id} is not an active basic group: add_group(type='group')")
        if new_id in self._chats or new_id >= 0:
            raise ValueError(f"{new_id} is not a free negative chat id")
        user = self._user(by if by is not None else self._creator(old))
        new = _Chat(
            {"id": new_id, "type": "supergroup", "title": old.chat["title"]},
            admins=list(old.admins),
            members=list(old.members),
        )
        self._chats[new_id] = new
        to_message = self._store(old, {"from": user, "migrate_to_chat_id": new_id})
        old.migrated_to = new_id
        from_message = self._store(new, {"from": user, "migrate_from_chat_id": old_id})
        return (
            self.push_update({"message": copy.deepcopy(to_message)}),
            self.push_update({"message": copy.deepcopy(from_message)}),
        )

    def create_topic(self, chat_id: int, name: str, *, by: int | None = None) -> int:
        """A user creates a forum topic; return its message_thread_id.

        The thread id is the id of the topic's service message (``forum_topic_created`` with
        the name and the default icon colour), which is pushed as a message Update. Later
        messages in the topic carry ``message_thread_id``, ``is_topic_message: true`` and,
        unless they reply to something else, ``reply_to_message`` = this service message, as
        Telegram sends them (https://core.telegram.org/api/forum: a topic is the message thread
        of its creation message).

        Args:
            chat_id: A chat registered with ``add_group(..., is_forum=True)``.
            name: The topic name (1-128 characters on Telegram).
            by: The creating user; default the chat's creator (first admin).

        Raises:
            ValueError: if the chat is no forum.
        """
        chat = self._chats.get(chat_id)
        if chat is None or not chat.chat.get("is_forum"):
            raise ValueError(f"{chat_id} is not a forum: add_group(..., is_forum=True)")
        user = self._user(by if by is not None else self._creator(chat))
        thread_id = chat.next_id
        message = self._store(
            chat,
            {
                "from": user,
                "message_thread_id": thread_id,
                "forum_topic_created": {"name": name, "icon_color": TOPIC_ICON_COLOR},
                "is_topic_message": True,
            },
        )
        chat.topics[thread_id] = name
        self.push_update({"message": copy.deepcopy(message)})
        return thread_id

    def remove_bot(self, chat_id: int, *, by: int, status: str = "kicked") -> dict:
        """Remove the bot from a group, supergroup or channel: a my_chat_member Update.

        The old status is "administrator" (if the bot was an admin) or "member"; the new one
        "kicked" (banned, ``until_date`` 0 = forever) or "left". Afterwards every call naming
        the chat answers 403 with telegram-bot-api's wording (Client::check_chat_access):
        "Forbidden: bot was kicked from the group chat" (or "supergroup chat", "channel
        chat"), or for "left" "Forbidden: bot is not a member of the group chat" (likewise).
        The real server still lets some reads of a basic group through; the fake refuses all.
        The bot loses its admin rights; users can no longer write there (ValueError).

        Args:
            chat_id: The chat.
            by: The user who removed the bot (``bot_id`` when the bot left by itself).
            status: "kicked" or "left".

        Raises:
            ValueError: for a private chat, an unknown status, or a bot already removed.
        """
        chat = self._chats.get(chat_id)
        if chat is None or chat.type == "private" or chat.bot_status is not None:
            raise ValueError(f"the bot is not in group {chat_id}")
        if status not in _REMOVED:
            raise ValueError("status must be 'kicked' or 'left'")
        old = self._member(chat, self.bot_id)
        new: dict[str, Any] = {"status": status, "user": self.bot_user}
        if status == "kicked":
            new["until_date"] = 0
        chat.bot_status = status
        if self.bot_id in chat.admins:
            chat.admins.remove(self.bot_id)
        self._bot_rights.pop(chat_id, None)
        return self._my_chat_member(chat, by, old, new)

    def add_bot(self, chat_id: int, *, by: int) -> dict:
        """A user adds the bot back to a chat it was removed from; calls about it work again.

        Pushes a my_chat_member Update (old status "kicked"/"left", new "member") and, as
        Telegram does in groups, a message Update with ``new_chat_members`` = [the bot].

        Returns:
            The my_chat_member Update.

        Raises:
            ValueError: if the bot was not removed from the chat.
        """
        chat = self._chats.get(chat_id)
        if chat is None or chat.bot_status is None:
            raise ValueError(f"the bot was not removed from chat {chat_id}")
        old: dict[str, Any] = {"status": chat.bot_status, "user": self.bot_user}
        if chat.bot_status == "kicked":
            old["until_date"] = 0
        chat.bot_status = None
        update = self._my_chat_member(chat, by, old, {"status": "member", "user": self.bot_user})
        if chat.type != "channel":
            joined = self._store(
                chat, {"from": self._user(by), "new_chat_members": [self.bot_user]}
            )
            self.push_update({"message": copy.deepcopy(joined)})
        return update

    def _my_chat_member(self, chat: _Chat, by: int, old: dict, new: dict) -> dict:
        return self.push_update(
            {
                "my_chat_member": {
                    "chat": copy.deepcopy(chat.chat),
                    "from": self._user(by),
                    "date": int(time.time()),
                    "old_chat_member": old,
                    "new_chat_member": new,
                }
            }
        )

    def _creator(self, chat: _Chat) -> int:
        if not chat.admins:
            raise ValueError(f"chat {chat.id} has no creator: pass by=")
        return chat.admins[0]

    def block(self, user_id: int, blocked: bool = True) -> None:
        """Make ``user_id`` block (or unblock) the bot: sends to them answer 403."""
        (self._blocked.add if blocked else self._blocked.discard)(user_id)
