"""What the callbacks of group chats share: names, topics, admin checks, short replies.

Telegram's rules about who sent what: an anonymous admin posts as the group itself
(``sender_chat``), a forum topic is named only on a topic message (``is_topic_message``).
"""

from __future__ import annotations

from telegram import Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.render.text import HTML
from bot.telegram.common import Context
from bot.telegram.ordering import PerUserOrderedProcessor


def display_name(user: User) -> str:
    """A member's name for the leaderboard: first and last name, never an @-mention."""
    return " ".join(filter(None, (user.first_name, user.last_name))) or str(user.id)


def received_at(context: Context, update: object) -> float | None:
    """When ``update`` reached the bot (see :meth:`PerUserOrderedProcessor.received_at`), or
    None when updates are not processed by it."""
    processor = context.application.update_processor
    if isinstance(processor, PerUserOrderedProcessor):
        return processor.received_at(update)
    return None


def thread_of(message: Message | None) -> int | None:
    """The forum topic a message was sent in; None outside topics and in a forum's General
    topic (Bot API: ``message_thread_id`` is meaningful only with ``is_topic_message``)."""
    if message is None or not message.is_topic_message:
        return None
    return message.message_thread_id


async def is_admin(
    context: Context, chat: Chat, user: User | None, message: Message | None = None
) -> bool:
    """Whether ``user`` administers ``chat`` (an anonymous admin posts as the chat itself)."""
    if message is not None and message.sender_chat is not None:
        return message.sender_chat.id == chat.id
    if user is None:
        return False
    member = await context.bot.get_chat_member(chat.id, user.id)
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def reply(update: Update, context: Context, text: str) -> None:
    """A short plain reply in the group, in the topic the command came from."""
    assert update.effective_chat is not None
    await context.bot.send_message(
        update.effective_chat.id,
        HTML.escape(text),
        message_thread_id=thread_of(update.effective_message),
    )


def actor_name(update: Update) -> str:
    """Who sent a command: the member's name, or the group's title for an anonymous admin."""
    if (
        update.effective_user is not None
        and update.effective_message is not None
        and (update.effective_message.sender_chat is None)
    ):
        return display_name(update.effective_user)
    chat = update.effective_chat
    return (chat.title if chat is not None else None) or ""


async def is_admin_id(context: Context, chat_id: int, user_id: int) -> bool | None:
    """Whether user ``user_id`` administers ``chat_id`` now (getChatMember); None when
    Telegram cannot tell (the bot removed from the chat, the chat gone)."""
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return None
    return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


async def is_member(context: Context, chat_id: int, user_id: int) -> bool | None:
    """Whether user ``user_id`` is in ``chat_id`` (getChatMember: the owner, an admin, a member,
    or a restricted member still in it); None when Telegram cannot tell (the bot removed from
    the chat, or the chat gone)."""
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except TelegramError:
        return None
    if member.status == ChatMemberStatus.RESTRICTED:
        return bool(getattr(member, "is_member", False))
    return member.status in (
        ChatMemberStatus.ADMINISTRATOR,
        ChatMemberStatus.OWNER,
        ChatMemberStatus.MEMBER,
    )


def migration(message: Message) -> tuple[int, int]:
    """The old and the new chat id of a group's upgrade to a supergroup, from either of its
    service messages (``migrate_to_chat_id`` in the old chat, ``migrate_from_chat_id`` in the
    new one); each of its handlers sees both, so what they move must be moved once."""
    if message.migrate_to_chat_id:
        return message.chat.id, message.migrate_to_chat_id
    assert message.migrate_from_chat_id is not None
    return message.migrate_from_chat_id, message.chat.id
