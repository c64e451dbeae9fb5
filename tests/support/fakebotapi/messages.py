"""Sending, editing and deleting messages; callback and inline query answers.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
import math
import time
from typing import Any

from tests.support.fakebotapi.markup import (
    _inline_keyboard,
    _trim,
    parse_html,
)
from tests.support.fakebotapi.protocol import (
    _FLOOD_METHODS,
    _START_PARAMETER_RE,
    FLOOD_WINDOW,
    MAX_CALLBACK_ANSWER_UTF16,
    MAX_INLINE_RESULTS,
    MAX_NEXT_OFFSET_BYTES,
    MAX_RESULT_ID_BYTES,
    MAX_TEXT_UTF16,
    NEXT_OFFSET_INVALID,
    NOT_MODIFIED,
    PRIVATE_FLOOD_WINDOW,
    QUERY_TOO_OLD,
    RESULT_ID_DUPLICATE,
    RESULT_ID_INVALID,
    RESULTS_TOO_MUCH,
    START_PARAM_INVALID,
    TEXT_EMPTY,
    THREAD_NOT_FOUND,
    ApiError,
    _bad,
    _Chat,
    _flag,
    utf16_len,
)


class MessagesMixin:
    """Sending, editing and deleting messages; callback and inline query answers."""

    def _send_message(self, p: dict) -> dict:
        """sendMessage: text 1-4096 UTF-16 units after parsing, inline keyboard and reply keyboard
        rules, reply."""
        chat = self._chat_of(p, sending=True)
        text, entities = self._text(p)
        markup = self._send_markup(chat, p)
        reply_to = self._reply_to(chat, p)
        topic = self._thread(chat, p)
        self._check_flood(chat, "sendMessage")
        fields: dict[str, Any] = {**self._sender_fields(chat), **topic, "text": text}
        if entities:
            fields["entities"] = entities
        if markup:
            fields["reply_markup"] = markup
        if reply_to:
            fields["reply_to_message"] = reply_to
        message = self._store(chat, fields)
        self._note_bot_post(chat, message)
        chat.raw[message["message_id"]] = str(p["text"])
        self._note_keyboard(chat, message, p)
        chat.activity.append(self._clock())
        return copy.deepcopy(message)

    def _edit_message_text(self, p: dict) -> dict:
        """editMessageText; an omitted reply_markup removes the inline keyboard."""
        chat, message = self._editable(p)
        if "text" not in message:
            raise _bad("there is no text in the message to edit")
        text, entities = self._text(p)
        markup = _inline_keyboard(p.get("reply_markup"), edit=True)
        if (text, entities, markup) == (
            message["text"],
            message.get("entities", []),
            message.get("reply_markup"),
        ):
            raise ApiError(400, NOT_MODIFIED)
        self._check_flood(chat, "editMessageText")
        message.update(text=text, entities=entities, reply_markup=markup)
        chat.raw[message["message_id"]] = str(p["text"])
        return self._finish_edit(chat, message)

    def _edit_message_reply_markup(self, p: dict) -> dict:
        """editMessageReplyMarkup; an omitted reply_markup removes the inline keyboard."""
        chat, message = self._editable(p)
        markup = _inline_keyboard(p.get("reply_markup"), edit=True)
        if markup == message.get("reply_markup"):
            raise ApiError(400, NOT_MODIFIED)
        self._check_flood(chat, "editMessageReplyMarkup")
        message["reply_markup"] = markup
        return self._finish_edit(chat, message)

    def _editable(self, p: dict) -> tuple[_Chat, dict]:
        if p.get("inline_message_id") not in (None, ""):
            raise _bad("inline messages are not supported by FakeBotAPI")
        chat = self._chat_of(p, sending=True)
        message = chat.messages.get(self._message_id(p))
        if message is None:
            raise _bad("message to edit not found")
        if not self._is_bot_message(chat, message):
            raise _bad("message can't be edited")
        self._check_channel_edit(chat)
        return chat, message

    def _finish_edit(self, chat: _Chat, message: dict) -> dict:
        for key in ("entities", "reply_markup"):
            if not message.get(key):
                message.pop(key, None)
        message["edit_date"] = int(time.time())
        chat.activity.append(self._clock())
        return copy.deepcopy(message)

    def _delete_message(self, p: dict) -> bool:
        """deleteMessage: any message in private chats; in groups its own, or any as admin."""
        chat = self._chat_of(p)
        message_id = self._message_id(p)
        message = chat.messages.get(message_id)
        if message is None:
            raise _bad("message to delete not found")
        own = message.get("from", {}).get("id") == self.bot_id
        if not (own or chat.type == "private" or self.bot_id in chat.admins):
            raise _bad("message can't be deleted")
        del chat.messages[message_id]
        return True

    def _answer_callback_query(self, p: dict) -> bool:
        """answerCallbackQuery: once per query, within query_ttl s, text <= 200 UTF-16 units."""
        query_id = str(p["callback_query_id"])
        tapped = self._queries.get(query_id)
        if (
            tapped is None
            or query_id in self.callback_answers
            or self._clock() - tapped > self.query_ttl
        ):
            raise ApiError(400, QUERY_TOO_OLD)
        if utf16_len(str(p.get("text", ""))) > MAX_CALLBACK_ANSWER_UTF16:
            raise _bad("MESSAGE_TOO_LONG")
        self.callback_answers[query_id] = dict(p)
        return True

    def _answer_inline_query(self, p: dict) -> bool:
        """answerInlineQuery: once per query, within query_ttl s; at most 50 results with
        unique ids of 1-64 bytes; articles with a title and a message text of 1-4096 UTF-16
        units after parsing, inline keyboards as for messages; next_offset at most 64 bytes; a
        button with a text and a start_parameter of 1-64 ``A-Za-z0-9_-``. A refused answer
        leaves the query open (Telegram answers nothing to the user then).

        Only article results are modelled (others: 501). Error descriptions of the parsing
        checks are close to telegram-bot-api's; QUERY_TOO_OLD, RESULTS_TOO_MUCH,
        RESULT_ID_DUPLICATE and RESULT_ID_INVALID are Telegram's.
        """
        results = p["results"]
        if not isinstance(results, list):
            raise _bad("can't parse inline query results JSON object")
        for result in results:
            self._check_inline_result(result)
        offset = p.get("next_offset")
        if offset is not None and len(str(offset).encode()) > MAX_NEXT_OFFSET_BYTES:
            raise ApiError(400, NEXT_OFFSET_INVALID)
        if p.get("cache_time") is not None:
            self._int(p["cache_time"], "cache_time")
        button = p.get("button")
        if button is not None:
            if (
                not isinstance(button, dict)
                or not isinstance(button.get("text"), str)
                or (not button["text"])
            ):
                raise _bad(
                    'can\'t parse InlineQueryResultsButton: field "text" must be a non-empty String'
                )
            if ("start_parameter" in button) == ("web_app" in button):
                raise _bad("InlineQueryResultsButton must have exactly one optional field")
            start = button.get("start_parameter")
            if start is not None and not _START_PARAMETER_RE.fullmatch(str(start)):
                raise ApiError(400, START_PARAM_INVALID)
        query_id = str(p["inline_query_id"])
        asked = self._inline_queries.get(query_id)
        if (
            asked is None
            or query_id in self.inline_answers
            or self._clock() - asked[0] > self.query_ttl
        ):
            raise ApiError(400, QUERY_TOO_OLD)
        if len(results) > MAX_INLINE_RESULTS:
            raise ApiError(400, RESULTS_TOO_MUCH)
        ids = [result["id"] for result in results]
        if len(set(ids)) != len(ids):
            raise ApiError(400, RESULT_ID_DUPLICATE)
        self.inline_answers[query_id] = {**p, "results": copy.deepcopy(results)}
        return True

    def _check_inline_result(self, result: Any) -> None:
        """One InlineQueryResult of answerInlineQuery (articles only), or ApiError."""
        if not isinstance(result, dict):
            raise _bad("can't parse inline query result: expected an Object")
        kind = result.get("type")
        if kind != "article":
            raise ApiError(
                501, f"Not Implemented: FakeBotAPI only takes article results, not {kind!r}"
            )
        result_id = result.get("id")
        if not isinstance(result_id, str) or not (
            1 <= len(result_id.encode()) <= MAX_RESULT_ID_BYTES
        ):
            raise ApiError(400, RESULT_ID_INVALID)
        if not isinstance(result.get("title"), str) or not result["title"]:
            raise _bad('can\'t parse inline query result: field "title" must be a non-empty String')
        content = result.get("input_message_content")
        if not isinstance(content, dict) or "message_text" not in content:
            raise _bad(
                "can't parse inline query result: can't find field \"input_message_content\""
            )
        self._text(
            {
                "text": content["message_text"],
                "parse_mode": content.get("parse_mode"),
                "entities": content.get("entities"),
            }
        )
        markup = result.get("reply_markup")
        if markup is not None and not (isinstance(markup, dict) and "inline_keyboard" in markup):
            raise _bad("inline keyboard expected")
        _inline_keyboard(markup, edit=False)

    def _text(
        self, p: dict, *, limit: int = MAX_TEXT_UTF16, too_long: str = "", allow_empty: bool = False
    ) -> tuple[str, list[dict]]:
        """Parse ``text`` per parse_mode, trim it and check it is 1-4096 UTF-16 units long
        (a caption: 0-``limit``, refused as ``too_long``)."""
        raw = str(p.get("text", ""))
        mode = str(p.get("parse_mode") or "").lower()
        if mode == "html":
            text, entities = parse_html(raw, strict_ampersand=self.strict_ampersand)
        elif mode in ("markdown", "markdownv2"):
            raise ApiError(501, "Not Implemented: FakeBotAPI only parses parse_mode HTML")
        elif mode:
            raise _bad("unsupported parse_mode")
        else:
            text, entities = raw, list(p.get("entities") or [])
        text, entities = _trim(text, entities)
        if not text and not allow_empty:
            raise ApiError(400, TEXT_EMPTY)
        if utf16_len(text) > limit:
            raise ApiError(400, too_long) if too_long else _bad("message is too long")
        return text, entities

    def _reply_to(self, chat: _Chat, p: dict) -> dict | None:
        """The replied-to message of reply_parameters (or legacy reply_to_message_id)."""
        params = p.get("reply_parameters")
        if not isinstance(params, dict):
            params = {
                "message_id": p.get("reply_to_message_id"),
                "allow_sending_without_reply": p.get("allow_sending_without_reply"),
            }
        if params.get("message_id") in (None, ""):
            return None
        target = chat.messages.get(self._int(params["message_id"], "message_id"))
        if target is None:
            if _flag(params.get("allow_sending_without_reply")):
                return None
            raise _bad("message to be replied not found")
        target = copy.deepcopy(target)
        target.pop("reply_to_message", None)
        return target

    def _thread(self, chat: _Chat, p: dict) -> dict[str, Any]:
        """The forum-topic fields for message_thread_id; 400 for a thread that does not exist.

        Without message_thread_id a message lands in General (no thread fields). Like real
        Telegram, the General topic's own id is refused (messages to it omit the parameter).
        """
        if p.get("message_thread_id") in (None, ""):
            return {}
        thread_id = self._int(p["message_thread_id"], "message_thread_id")
        if thread_id not in chat.topics:
            raise ApiError(400, THREAD_NOT_FOUND)
        return self._topic_fields(chat, thread_id)

    def _check_flood(self, chat: _Chat, method: str) -> None:
        """429 beyond group_limit_per_minute (groups) or private_limit_per_second (private)."""
        if method not in _FLOOD_METHODS:
            return
        if chat.type in ("group", "supergroup"):
            limit, window = self.group_limit_per_minute, FLOOD_WINDOW
        elif chat.type == "private":
            limit, window = self.private_limit_per_second, PRIVATE_FLOOD_WINDOW
        else:
            return
        if limit is None:
            return
        now = self._clock()
        recent = [moment for moment in chat.activity if now - moment < window]
        if len(recent) >= limit:
            retry_after = max(1, math.ceil(recent[len(recent) - limit] + window - now))
            raise ApiError(
                429, f"Too Many Requests: retry after {retry_after}", {"retry_after": retry_after}
            )

    def _store(self, chat: _Chat, fields: dict) -> dict:
        """Add a message with the chat's next message_id and the current date."""
        message: dict[str, Any] = {"message_id": chat.next_id}
        if "from" in fields:
            message["from"] = fields["from"]
        message.update(chat=chat.chat, date=int(time.time()))
        message.update({k: v for k, v in fields.items() if k != "from"})
        chat.next_id += 1
        chat.messages[message["message_id"]] = message
        return message
