"""Channels as Telegram runs them for bots: the bot is added as an administrator (bots join
channels only that way), its rights change, posts it sends, taps on them and edits of them.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__`` (``_bot_rights``: the bot's rights per channel).

What it models (covered by tests/fakebotapi/test_fakebotapi_channels.py):

* :meth:`add_channel`: a channel with an owner, administrators and subscribers; with
  ``bot_admin`` the bot is added as an administrator: a my_chat_member Update (old status
  "left", new "administrator" with the channel rights ``can_post_messages``,
  ``can_edit_messages``, ``can_delete_messages``), ``from`` the admin who added it.
* :meth:`promote_bot` / :meth:`demote_bot`: the bot's rights change (my_chat_member each
  time). A demoted bot stays a subscriber (status "member"); it may no longer post or edit:
  sendMessage and editMessageText answer 400 "Bad Request: need administrator rights in the
  channel chat" (telegram-bot-api's wording of TDLib's CHAT_WRITE_FORBIDDEN/
  CHAT_ADMIN_REQUIRED in channels), and getChatAdministrators and getChatMember of anyone but
  itself answer 400 "Bad Request: member list is inaccessible". :meth:`remove_bot` (people.py)
  removes it altogether (403 "Forbidden: bot was kicked from the channel chat").
* Posts the bot sends to a channel have no ``from`` and the channel as ``sender_chat``
  (Bot API, Message.from: "may be empty for messages sent to channels"); the bot receives no
  Update for its own posts. Posts by the channel's admins arrive as channel_post Updates
  (:meth:`post_channel`, driving.py).
* Taps on a channel post (:meth:`tap`, driving.py) come from any user, subscriber or not:
  the callback query has ``from`` (the tapper) and ``message`` (the post, chat type
  "channel"); the bot cannot list a channel's subscribers.
* getChatMember of a channel: "creator"/"administrator" for admins (channel rights),
  "member" for subscribers, "left" for others; getChatAdministrators: the admins with the bot.
"""

from __future__ import annotations

import copy
from typing import Any

from tests.support.fakebotapi.protocol import ApiError, _bad, _Chat

NEED_ADMIN_RIGHTS = "Bad Request: need administrator rights in the channel chat"
"""What a post or an edit in a channel answers when the bot may not post there."""
MEMBER_LIST_INACCESSIBLE = "Bad Request: member list is inaccessible"
"""What reading a channel's members answers when the bot is no administrator there."""

CHANNEL_RIGHTS = ("can_post_messages", "can_edit_messages", "can_delete_messages")
"""The channel-only rights of ChatMemberAdministrator the fake tracks for the bot."""


class ChannelsMixin:
    """Channels: the bot as an administrator, its rights, its posts, taps and edits."""

    def add_channel(
        self,
        chat_id: int,
        title: str,
        *,
        owner: int,
        admins: list[int] | tuple[int, ...] = (),
        subscribers: list[int] | tuple[int, ...] = (),
        bot_admin: bool = True,
        can_post: bool = True,
        can_edit: bool = True,
    ) -> dict:
        """Register a channel; with ``bot_admin`` the owner adds the bot as an administrator
        (a my_chat_member Update).

        Args:
            chat_id: A -100xxxxxxxxxx id.
            owner: The creator's user id (registered with add_user).
            admins: Other administrators' user ids.
            subscribers: Ordinary subscribers' user ids.
            bot_admin: Whether the bot is added (as an administrator) now.
            can_post: The bot's can_post_messages.
            can_edit: The bot's can_edit_messages.

        Returns:
            The Chat dict.
        """
        chat = self.add_group(
            chat_id, title, type="channel", admins=[owner, *admins], members=list(subscribers)
        )
        if bot_admin:
            self.promote_bot(chat_id, by=owner, can_post=can_post, can_edit=can_edit)
        return chat

    def promote_bot(
        self, chat_id: int, *, by: int, can_post: bool = True, can_edit: bool = True
    ) -> dict:
        """An admin adds the bot to a channel as an administrator, or changes its rights: a
        my_chat_member Update (old status "left", "member" or "administrator").

        Raises:
            ValueError: for a chat that is no channel, or a bot removed from it (add_bot).
        """
        chat = self._channel(chat_id)
        if chat.bot_status is not None:
            raise ValueError(f"the bot was removed from channel {chat_id}: add_bot() first")
        old = self._channel_member(chat, self.bot_id)
        rights = {
            "can_post_messages": can_post,
            "can_edit_messages": can_edit,
            "can_delete_messages": True,
        }
        self._bot_rights[chat_id] = rights
        if self.bot_id not in chat.admins:
            chat.admins.append(self.bot_id)
        if self.bot_id in chat.members:
            chat.members.remove(self.bot_id)
        return self._my_chat_member(chat, by, old, self._channel_member(chat, self.bot_id))

    def demote_bot(self, chat_id: int, *, by: int) -> dict:
        """An admin takes the bot's administrator rights away: it stays a subscriber
        ("member"); posting and editing answer :data:`NEED_ADMIN_RIGHTS`.

        Raises:
            ValueError: for a chat that is no channel, or a bot that is no admin there.
        """
        chat = self._channel(chat_id)
        if self.bot_id not in chat.admins:
            raise ValueError(f"the bot is no administrator of channel {chat_id}")
        old = self._channel_member(chat, self.bot_id)
        chat.admins.remove(self.bot_id)
        chat.members.append(self.bot_id)
        self._bot_rights.pop(chat_id, None)
        return self._my_chat_member(chat, by, old, self._channel_member(chat, self.bot_id))

    def channel_posts(self, chat_id: int) -> list[dict]:
        """The posts the bot sent to a channel that are still there, oldest first."""
        chat = self._channel(chat_id)
        return [copy.deepcopy(m) for m in chat.messages.values() if self._is_bot_message(chat, m)]

    # -- hooks of the shared parts ---------------------------------------------------------

    def _sender_fields(self, chat: _Chat) -> dict[str, Any]:
        """Who a message the bot sends to ``chat`` is from: itself, or in a channel no one
        (``sender_chat`` the channel), once its right to post is checked."""
        if chat.type != "channel":
            return {"from": self.bot_user}
        if not self._rights(chat).get("can_post_messages"):
            raise ApiError(400, NEED_ADMIN_RIGHTS)
        return {"sender_chat": chat.chat}

    def _rights(self, chat: _Chat) -> dict[str, bool]:
        """The bot's channel rights in ``chat``: as promote_bot set them, all of them for a
        bot made an admin through add_group, none for a bot that is no admin."""
        if self.bot_id not in chat.admins:
            return {}
        return self._bot_rights.get(chat.id) or dict.fromkeys(CHANNEL_RIGHTS, True)

    def _note_bot_post(self, chat: _Chat, message: dict) -> None:
        """Remember that the bot sent ``message`` (channel posts carry no ``from``)."""
        if chat.type == "channel":
            self._bot_posts.add((chat.id, message["message_id"]))

    def _is_bot_message(self, chat: _Chat, message: dict) -> bool:
        """Whether the bot sent ``message`` to ``chat``."""
        if chat.type == "channel":
            return (chat.id, message["message_id"]) in self._bot_posts
        return message.get("from", {}).get("id") == self.bot_id

    def _check_channel_edit(self, chat: _Chat) -> None:
        """An edit of the bot's own post needs its admin rights (can_post_messages or
        can_edit_messages) still."""
        if chat.type != "channel":
            return
        rights = self._rights(chat)
        if not (rights.get("can_post_messages") or rights.get("can_edit_messages")):
            raise ApiError(400, NEED_ADMIN_RIGHTS)

    def _channel_member(self, chat: _Chat, user_id: int) -> dict:
        """The ChatMember of ``user_id`` in a channel."""
        if user_id != self.bot_id and user_id not in self._users:
            raise _bad("user not found")
        user = self._user(user_id)
        if user_id == self.bot_id and user_id in chat.admins:
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_change_info": False,
                "can_invite_users": False,
                "can_restrict_members": False,
                "can_promote_members": False,
                "can_manage_video_chats": False,
                "can_post_stories": False,
                "can_edit_stories": False,
                "can_delete_stories": False,
                **{right: bool(self._rights(chat).get(right)) for right in CHANNEL_RIGHTS},
            }
        if chat.admins and user_id == chat.admins[0]:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in chat.admins:
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_change_info": True,
                "can_invite_users": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_manage_video_chats": True,
                "can_post_stories": True,
                "can_edit_stories": True,
                "can_delete_stories": True,
                **dict.fromkeys(CHANNEL_RIGHTS, True),
            }
        return {"status": "member" if user_id in chat.members else "left", "user": user}

    def _channel_admin_read(self, chat: _Chat, user_id: int | None) -> None:
        """Reading a channel's members other than the bot itself needs the bot to be an
        administrator there."""
        if user_id != self.bot_id and self.bot_id not in chat.admins:
            raise ApiError(400, MEMBER_LIST_INACCESSIBLE)
