"""getChat, chat members and administrators, chat actions, bot commands.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

from tests.support.fakebotapi.protocol import (
    _CHAT_ACTIONS,
    _COMMAND_NAME_RE,
    _bad,
    _Chat,
)


class ChatsMixin:
    """getChat, chat members and administrators, chat actions, bot commands."""

    def _get_chat(self, p: dict) -> dict:
        """getChat: a ChatFullInfo with the fields Bot API 10.0 requires."""
        chat = self._chat_of(p)
        gifts = dict.fromkeys(
            (
                "unlimited_gifts",
                "limited_gifts",
                "unique_gifts",
                "premium_subscription",
                "gifts_from_channels",
            ),
            False,
        )
        return {
            **chat.chat,
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": gifts,
        }

    def _get_chat_member(self, p: dict) -> dict:
        """getChatMember: creator/administrator/member per add_group, "left" otherwise."""
        chat = self._chat_of(p)
        user_id = self._int(p["user_id"], "user_id", "invalid user_id specified")
        if chat.type == "private" and user_id in (chat.id, self.bot_id):
            return {"status": "member", "user": self._user(user_id)}
        if chat.type == "channel":
            self._channel_admin_read(chat, user_id)
        return self._member(chat, user_id)

    def _get_chat_administrators(self, p: dict) -> list[dict]:
        chat = self._chat_of(p)
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        if chat.type == "channel":
            self._channel_admin_read(chat, None)
        return [self._member(chat, user_id) for user_id in chat.admins]

    def _member(self, chat: _Chat, user_id: int) -> dict:
        """The ChatMember object of a user in a group (or a channel: channels.py)."""
        if chat.type == "channel":
            return self._channel_member(chat, user_id)
        if user_id != self.bot_id and user_id not in self._users:
            raise _bad("user not found")
        user = self._user(user_id)
        if chat.admins and user_id == chat.admins[0] and user_id != self.bot_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in chat.admins:
            rights = dict.fromkeys(
                (
                    "can_manage_chat",
                    "can_delete_messages",
                    "can_manage_video_chats",
                    "can_restrict_members",
                    "can_change_info",
                    "can_invite_users",
                    "can_post_stories",
                    "can_edit_stories",
                    "can_delete_stories",
                ),
                True,
            )
            return {
                "status": "administrator",
                "user": user,
                "can_be_edited": False,
                "is_anonymous": False,
                "can_promote_members": False,
                **rights,
            }
        in_chat = user_id in chat.members or user_id == self.bot_id
        return {"status": "member" if in_chat else "left", "user": user}

    def _participants(self, chat: _Chat) -> set[int]:
        return {chat.id} if chat.type == "private" else {*chat.admins, *chat.members}

    def _send_chat_action(self, p: dict) -> bool:
        self._chat_of(p, sending=True)
        if p["action"] not in _CHAT_ACTIONS:
            raise _bad("wrong parameter action in request")
        return True

    def _set_my_commands(self, p: dict) -> bool:
        """setMyCommands: at most 100 commands of 1-32 chars [a-z0-9_], descriptions 1-256."""
        commands = p["commands"]
        if not isinstance(commands, list) or len(commands) > 100:
            raise _bad("can't parse commands JSON object")
        for command in commands:
            if not isinstance(command, dict) or not _COMMAND_NAME_RE.fullmatch(
                str(command.get("command", "")).removeprefix("/")
            ):
                raise _bad("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise _bad("BOT_COMMAND_DESCRIPTION_INVALID")
        self.commands[self._scope_key(p)] = [
            {"command": str(c["command"]).removeprefix("/"), "description": c["description"]}
            for c in commands
        ]
        return True

    @staticmethod
    def _scope_key(p: dict) -> tuple[str, str]:
        scope = p.get("scope") if isinstance(p.get("scope"), dict) else {"type": "default"}
        key = str(scope.get("type", "default"))
        for part in ("chat_id", "user_id"):
            if part in scope:
                key += f":{scope[part]}"
        return key, str(p.get("language_code") or "")
