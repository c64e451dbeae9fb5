"""Reply keyboards: ReplyKeyboardMarkup (with KeyboardButtonPollType), ReplyKeyboardRemove and
ForceReply on the bot's messages, checked as Telegram checks them; the keyboard a chat shows;
a user pressing one of its buttons.

A Message never echoes a reply keyboard (Message.reply_markup is an inline keyboard only), so
the fake keeps them apart: :attr:`FakeBotAPI.reply_markups` per message, and the keyboard a
chat currently shows (:meth:`FakeBotAPI.reply_keyboard`). One keyboard per chat: ``selective``
is kept but not applied per user.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
import itertools
from typing import Any

from tests.support.fakebotapi.markup import _inline_keyboard
from tests.support.fakebotapi.protocol import (
    KEYBOARD_TEXT_EMPTY,
    MAX_PLACEHOLDER,
    ApiError,
    _bad,
    _Chat,
    _flag,
)

# KeyboardButton fields "available in private chats only", with TDLib's refusal elsewhere
# (telegram-bot-api passes TDLib's message on with its first letter lowered).
_PRIVATE_ONLY = {
    "request_users": "users can be requested in private chats only",
    "request_chat": "chats can be requested in private chats only",
    "request_managed_bot": "managed bots can be requested in private chats only",
    "request_contact": "phone number can be requested in private chats only",
    "request_location": "location can be requested in private chats only",
    "request_poll": "poll can be requested in private chats only",
    "web_app": "web App buttons can be used in private chats only",
}
_FLAGS = ("is_persistent", "resize_keyboard", "one_time_keyboard", "selective")
_PARSE_FAILED = "can't parse reply keyboard markup JSON object"


def reply_markup(markup: Any, *, private: bool) -> dict | None:
    """Check a ReplyKeyboardMarkup, ReplyKeyboardRemove or ForceReply; return it normalised
    (buttons as KeyboardButton dicts, flags as booleans), or None for an inline keyboard,
    no markup or a keyboard without buttons (Telegram sends none then).

    Rules (https://core.telegram.org/bots/api#replykeyboardmarkup): rows of buttons, each a
    String or a KeyboardButton with a non-empty text; at most one of its request_* / web_app
    fields; request_poll a KeyboardButtonPollType whose ``type`` "quiz" or "regular" forces
    that kind (anything else: any kind); the request fields in private chats only (TDLib's
    "poll can be requested in private chats only", ...); input_field_placeholder of 1-64
    characters (Telegram's answer to a longer one is undocumented: the fake refuses it).

    Raises:
        ApiError: 400 with Telegram's description of the first rule broken.
    """
    if markup is None or (isinstance(markup, dict) and "inline_keyboard" in markup):
        return None
    if not isinstance(markup, dict):
        raise _bad(_PARSE_FAILED)
    if "keyboard" in markup:
        return _keyboard_markup(markup, private=private)
    if "remove_keyboard" in markup:
        if not _flag(markup["remove_keyboard"]):
            raise _bad(_PARSE_FAILED)
        return {"remove_keyboard": True, "selective": _flag(markup.get("selective"))}
    if "force_reply" in markup:
        if not _flag(markup["force_reply"]):
            raise _bad(_PARSE_FAILED)
        out = {"force_reply": True, "selective": _flag(markup.get("selective"))}
        out.update(_placeholder(markup))
        return out
    raise _bad(_PARSE_FAILED)


def _keyboard_markup(markup: dict, *, private: bool) -> dict | None:
    rows = markup["keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad('field "keyboard" of the ReplyKeyboardMarkup must be an Array of Arrays')
    keyboard = [[_keyboard_button(button, private=private) for button in row] for row in rows]
    keyboard = [row for row in keyboard if row]
    if not keyboard:
        return None
    out: dict[str, Any] = {"keyboard": keyboard}
    out.update({flag: _flag(markup.get(flag)) for flag in _FLAGS})
    out.update(_placeholder(markup))
    return out


def _keyboard_button(button: Any, *, private: bool) -> dict[str, Any]:
    if isinstance(button, str):
        button = {"text": button}
    if not isinstance(button, dict):
        raise _bad("can't parse keyboard button: KeyboardButton must be a String or an Object")
    if not isinstance(button.get("text"), str):
        raise _bad('can\'t parse keyboard button: Field "text" must be of type String')
    if not button["text"]:
        raise ApiError(400, KEYBOARD_TEXT_EMPTY)
    kinds = [kind for kind in _PRIVATE_ONLY if button.get(kind) not in (None, False)]
    if len(kinds) > 1:
        raise _bad("BUTTON_TYPE_INVALID")
    if kinds and not private:
        raise _bad(_PRIVATE_ONLY[kinds[0]])
    poll = button.get("request_poll")
    if poll is not None and not isinstance(poll, dict):
        raise _bad('can\'t parse keyboard button: Field "request_poll" must be of type Object')
    return copy.deepcopy(button)


def _placeholder(markup: dict) -> dict[str, str]:
    placeholder = markup.get("input_field_placeholder")
    if placeholder in (None, ""):
        return {}
    if not isinstance(placeholder, str):
        raise _bad('field "input_field_placeholder" must be of type String')
    if len(placeholder) > MAX_PLACEHOLDER:
        raise _bad(f"input_field_placeholder must be 1-{MAX_PLACEHOLDER} characters long")
    return {"input_field_placeholder": placeholder}


class KeyboardsMixin:
    """Reply keyboards on the bot's messages, the keyboard a chat shows, pressing a button."""

    def _send_markup(self, chat: _Chat, p: dict) -> dict | None:
        """Check a send's reply_markup; return the inline keyboard the Message echoes, if any."""
        raw = p.get("reply_markup")
        reply_markup(raw, private=chat.type == "private")
        return _inline_keyboard(raw, edit=False)

    def _note_keyboard(self, chat: _Chat, message: dict, p: dict) -> None:
        """After a send: keep its reply keyboard and show (or remove) it in the chat."""
        markup = reply_markup(p.get("reply_markup"), private=chat.type == "private")
        if markup is None:
            return
        self.reply_markups[(chat.id, message["message_id"])] = markup
        if "keyboard" in markup:
            chat.keyboard, chat.keyboard_hidden = markup, False
        elif "remove_keyboard" in markup:
            chat.keyboard, chat.keyboard_hidden = None, False

    def reply_keyboard(self, chat_id: int) -> dict | None:
        """A copy of the ReplyKeyboardMarkup the chat shows (None: none, or removed). A
        one-time keyboard stays after a press, hidden (see :meth:`keyboard_hidden`), as
        Telegram's apps keep it a tap away."""
        chat = self._chats.get(chat_id)
        return copy.deepcopy(chat.keyboard) if chat and chat.keyboard else None

    def keyboard_hidden(self, chat_id: int) -> bool:
        """Whether the chat's one-time keyboard was hidden by a press."""
        chat = self._chats.get(chat_id)
        return bool(chat and chat.keyboard_hidden)

    def press(self, user_id: int, text: str, *, chat_id: int | None = None, **poll: Any) -> dict:
        """A user presses a button of the reply keyboard the chat shows.

        A text button sends its text (:meth:`send_message`); a request_poll button opens
        poll creation, and the user sends the poll described by ``poll`` (the arguments of
        :meth:`send_poll` after ``user_id``: ``question``, ``options``, ...; a button of type
        "quiz" or "regular" allows only that kind, and sets it when ``type`` is left out). A
        one-time keyboard is hidden afterwards.

        Raises:
            ValueError: no keyboard, no button with that text, a kind of poll the button
                does not allow, poll arguments for a text button, or a button kind the fake
                does not model (contact, location, users, chat, Web App).
        """
        chat = self._chats.get(user_id if chat_id is None else chat_id)
        keyboard = chat.keyboard if chat else None
        if keyboard is None:
            raise ValueError(f"chat {chat_id or user_id} shows no reply keyboard")
        buttons = [
            b for b in itertools.chain.from_iterable(keyboard["keyboard"]) if b["text"] == text
        ]
        if not buttons:
            texts = [b["text"] for b in itertools.chain.from_iterable(keyboard["keyboard"])]
            raise ValueError(f"no button {text!r} on the keyboard: {texts}")
        button = buttons[0]
        other = [kind for kind in _PRIVATE_ONLY if kind != "request_poll" and button.get(kind)]
        if other:
            raise ValueError(f"FakeBotAPI does not model pressing a {other[0]} button")
        if keyboard.get("one_time_keyboard"):
            chat.keyboard_hidden = True
        if "request_poll" not in button:
            if poll:
                raise ValueError("a text button sends its text, not a poll")
            return self.send_message(user_id, text, chat_id=chat_id)
        forced = button["request_poll"].get("type")
        if forced in ("quiz", "regular"):
            if poll.setdefault("type", forced) != forced:
                raise ValueError(f"the button allows only {forced} polls")
        return self.send_poll(user_id, chat_id=chat_id, **poll)
