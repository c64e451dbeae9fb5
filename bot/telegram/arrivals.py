"""An update as it arrives: who sent it (:func:`sender_id`), its ordering key
(:func:`update_key`), whether the flood guard counts it (:func:`limited`), and the queue that
registers it across instances before the webhook answers Telegram (:class:`OrderedQueue`);
the update processor (:mod:`bot.telegram.ordering`) orders and guards by them.

The sender is the person, or the chat a message was sent on behalf of: everyone posting as a
channel arrives as the placeholder user 136817688 (and a linked channel's automatic forwards as
777000, an anonymous admin as 1087968824; Bot API, ``Message.from``: "a fake sender user in
non-channel chats"), so ``sender_chat`` is the identity when a message has one.
"""

from __future__ import annotations

import asyncio

from telegram import Chat, MessageEntity, Update

from bot.telegram.polling import PolledUpdates, held
from bot.telegram.updateorder import UpdateOrder


class OrderedQueue(asyncio.Queue):  # type: ignore[type-arg]
    """PTB's update queue (``ApplicationBuilder.update_queue``) that registers each update
    with :attr:`order` before queueing it.

    The webhook server (:mod:`bot.telegram.webhook`) answers Telegram once ``put`` returned;
    Telegram sends the next update of the same chat (messages) or sender (taps) only after that
    answer (see
    :mod:`storage.order`), so that update finds this one registered whichever instance it
    reaches. A registration that fails raises out of ``put``: the webhook answers 500 and
    Telegram sends the update again later.
    """

    order: UpdateOrder | None = None
    """Where updates are registered; None (polling, or before the store is open): nowhere."""

    polled: PolledUpdates | None = None
    """Polling: told of each update queued (not to be confirmed until it is handled)."""

    async def put(self, item: object) -> None:
        """Register ``item`` (an update with a chat or a sender), then queue it.

        Raises:
            StorageError: the registration failed; the update was not queued.
        """
        if self.polled is not None and isinstance(item, Update):
            self.polled.queued(item.update_id, hold=held(item))
        if self.order is not None and isinstance(item, Update):
            key = update_key(item)
            if key is not None:
                chat_id, sender = key
                await self.order.register(chat_id, sender, item.update_id)
        await super().put(item)


def sender_id(update: Update) -> int | None:
    """Who sent the update: the chat a message was sent on behalf of (a channel, a linked
    channel's forward, an anonymous admin's group) when it has one, else the user."""
    message = update.message or update.edited_message
    if message is not None and message.sender_chat is not None:
        return message.sender_chat.id
    user = update.effective_user
    return user.id if user is not None else None


def limited(update: Update) -> bool:
    """Whether the update counts against its sender's queue cap (and, unless it is a tap or an
    inline query, their rate limit): a button tap, an inline query (one per keystroke while
    typing), a message in a private chat, or a command in a group (group chatter the bot
    ignores, and chat events, pass untouched)."""
    if update.callback_query is not None or update.inline_query is not None:
        return True
    message = update.message
    if message is None:
        return False
    if message.chat.type == Chat.PRIVATE:
        return True
    entities = message.entities or ()
    return any(e.type == MessageEntity.BOT_COMMAND and e.offset == 0 for e in entities)


def update_key(update: object) -> tuple[int | None, int | None] | None:
    """The ordering key of an update: (chat id, sender id); None when it has neither."""
    if not isinstance(update, Update):
        return None
    chat, sender = update.effective_chat, sender_id(update)
    if chat is None and sender is None:
        return None
    return (chat.id if chat else None, sender)
