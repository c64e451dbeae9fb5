"""A local fake Telegram Bot API server for end-to-end tests.

:class:`FakeBotAPI` runs an aiohttp server on 127.0.0.1 that speaks the Bot API wire protocol
(``POST /bot<TOKEN>/<method>`` with form, multipart or JSON parameters, answered with
``{"ok": true, "result": ...}`` or ``{"ok": false, "error_code": ..., "description": ...}``), so
python-telegram-bot's real HTTP stack can be pointed at it::

    fake = FakeBotAPI()
    await fake.start()
    app = ApplicationBuilder().token(fake.token).base_url(fake.base_url).build()
    fake.add_user(42, "Ada", language_code="en")
    fake.send_message(42, "/start")                # a user writes to the bot
    call = await fake.wait_for_call("sendMessage")  # the bot answered
    await fake.stop()

Tests play the users (:meth:`FakeBotAPI.send_message`, :meth:`FakeBotAPI.tap`, ...) and observe the
bot through :attr:`FakeBotAPI.calls` and the chat history (:meth:`FakeBotAPI.messages`).

What the fake models (each covered by tests/test_fakebotapi.py):

* Wire protocol: token check (401), unknown methods (404), unimplemented ones (501), form,
  multipart and JSON bodies, Telegram's wording for missing parameters.
* getUpdates: long polling, offsets, allowed_updates, 409 when a second poll starts.
* Webhooks: setWebhook (url, secret_token, allowed_updates, drop_pending_updates), then every
  update is POSTed to the url as JSON with the header ``X-Telegram-Bot-Api-Secret-Token``, in
  order, one at a time (Telegram may use up to max_connections in parallel); an answer other
  than 2xx, or no answer, is retried with a growing pause and reported by getWebhookInfo
  (pending_update_count, last_error_date, last_error_message); getUpdates answers 409 while a
  webhook is set; deleteWebhook stops the deliveries.
* Sending and editing: HTML parsing like TDLib, text of 1-4096 UTF-16 units after parsing
  ("message is too long"), inline keyboards (one action per button, callback_data 1-64 bytes,
  non-empty button text, at most 100 buttons: "reply markup is too long"), replies,
  "message is not modified", edits of missing/foreign messages, deleteMessage.
* Callback queries: taps (also forged ones, ``check_button=False``), one answer within
  ``query_ttl`` s, answer text <= 200 UTF-16 units ("MESSAGE_TOO_LONG").
* Inline mode (``inline_mode``, what BotFather's /setinline turns on; getMe's
  ``supports_inline_queries``): inline queries (:meth:`FakeBotAPI.inline_query`), one
  answerInlineQuery within ``query_ttl`` s with at most 50 results of unique 1-64-byte ids,
  articles checked like messages, the chosen article posted into a chat ``via_bot``
  (:meth:`FakeBotAPI.choose_inline_result`; chosen_inline_result updates only with
  ``inline_feedback``, BotFather's /setinlinefeedback), and t.me deep links followed
  (:meth:`FakeBotAPI.follow_link`: ``?start=`` in the private chat, ``?startgroup=`` in a group);
  covered by tests/test_fakebotapi_inline.py.
* Chats and members: private chats open when the user writes (403 before), blocked users
  (403 "bot was blocked by the user" for sends and edits; callback answers still work),
  groups, supergroups, channels, member statuses, commands per scope and language.
* Group -> supergroup upgrade (:meth:`FakeBotAPI.migrate_group`): service messages, then 400
  "group chat was upgraded to a supergroup chat" with ``migrate_to_chat_id``.
* Forum topics (:meth:`FakeBotAPI.create_topic`): ``message_thread_id``/``is_topic_message``,
  400 "message thread not found", General without a thread id.
* The bot removed from or re-added to a chat (:meth:`FakeBotAPI.remove_bot`,
  :meth:`FakeBotAPI.add_bot`): my_chat_member updates, then 403 "bot was kicked from the ...
  chat" / "bot is not a member of the ... chat".
* Special senders: on behalf of a channel (136817688 @Channel_Bot), anonymous admins
  (1087968824 @GroupAnonymousBot), a linked channel's automatic forwards (777000 Telegram).
* Messages deleted by people (:meth:`FakeBotAPI.delete_message`): edits find nothing.
* Flood control: per group per minute, per private chat per second, injected per chat
  (:meth:`FakeBotAPI.flood`): 429 "Too Many Requests: retry after N" with ``retry_after``.
* Faults: injected errors per method, dropped connections, latency, random chaos.

Rules follow https://core.telegram.org/bots/api; error descriptions are Telegram's own wording
(telegram-bot-api and TDLib) where known. Method names and required parameters come from the
machine-readable Bot API 10.0 description, the version python-telegram-bot 22.8 implements:
by default ``../shared/telegram-bot-api/api-10.0.json`` next to the repository, or the file named
by the ``FAKEBOTAPI_SPEC`` environment variable.

Everything runs on the test's event loop: call the driving methods from that loop's thread only.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import io
import itertools
import json
import math
import os
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

__all__ = ["ApiError", "Call", "FakeBotAPI", "parse_html", "utf16_len"]

SPEC_ENV = "FAKEBOTAPI_SPEC"
DEFAULT_SPEC = Path(__file__).resolve().parent / "data" / "telegram-bot-api-10.0.json"
"""Bot API 10.0, the version PTB 22.8 speaks (see data/telegram-bot-api-SOURCE.txt)."""

MAX_TEXT_UTF16 = 4096  # sendMessage/editMessageText: "1-4096 characters after entities parsing"
MAX_CAPTION_UTF16 = 1024  # sendPhoto: caption "0-1024 characters after entities parsing"
MAX_PHOTO_BYTES = 10 * 1024 * 1024  # sendPhoto: "The photo must be at most 10 MB in size"
MAX_PHOTO_SIDES = 10_000  # sendPhoto: "width and height must not exceed 10000 in total"
MAX_PHOTO_RATIO = 20  # sendPhoto: "Width and height ratio must be at most 20"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
PHOTO_INVALID_DIMENSIONS = "Bad Request: PHOTO_INVALID_DIMENSIONS"
PHOTO_NOT_IMAGE = "Bad Request: IMAGE_PROCESS_FAILED"
PHOTO_TOO_BIG = "Bad Request: file is too big"
MAX_CALLBACK_DATA_BYTES = 64  # InlineKeyboardButton.callback_data: "1-64 bytes"
MAX_CALLBACK_ANSWER_UTF16 = 200  # answerCallbackQuery.text: "0-200 characters"
MAX_INLINE_BUTTONS = 100  # buttons per inline keyboard (undocumented; PTB's TOTAL_BUTTON_NUMBER)
MAX_INLINE_RESULTS = 50  # answerInlineQuery: "No more than 50 results per query are allowed."
MAX_RESULT_ID_BYTES = 64  # InlineQueryResult*.id: "Unique identifier for this result, 1-64 Bytes"
MAX_INLINE_QUERY = 256  # InlineQuery.query: "Text of the query (up to 256 characters)"
MAX_NEXT_OFFSET_BYTES = 64  # answerInlineQuery.next_offset: "Offset length can't exceed 64 bytes"
INLINE_CHAT_TYPES = ("sender", "private", "group", "supergroup", "channel")
"""InlineQuery.chat_type: where the query was typed ("sender": the chat with the bot)."""
MAX_UPLOAD_BYTES = 50 * 1024 * 1024  # Bot API: bots send files of up to 50 MB
MAX_CAPTION_UTF16 = 1024  # Bot API: a caption is 0-1024 characters after entities parsing
WAIT_TIMEOUT = 30.0
"""Seconds :meth:`FakeBotAPI.wait_for` waits by default before it fails: a guard against a
hang on a loaded machine, never a pace (waits end on the fake's signals)."""
FLOOD_WINDOW = 60.0  # seconds; the rolling window of group_limit_per_minute
PRIVATE_FLOOD_WINDOW = 1.0  # seconds; the rolling window of private_limit_per_second

NOT_FOUND = "Not Found"
UNAUTHORIZED = "Unauthorized"
CHAT_NOT_FOUND = "Bad Request: chat not found"
TEXT_EMPTY = "Bad Request: message text is empty"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
GROUP_MIGRATED = "Bad Request: group chat was upgraded to a supergroup chat"
THREAD_NOT_FOUND = "Bad Request: message thread not found"
MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
BUTTON_TEXT_EMPTY = "Bad Request: inline keyboard button text must be non-empty"
BLOCKED = "Forbidden: bot was blocked by the user"
# answerInlineQuery refusals: Telegram's own error names, passed on by the Bot API server
RESULTS_TOO_MUCH = "Bad Request: RESULTS_TOO_MUCH"
RESULT_ID_DUPLICATE = "Bad Request: RESULT_ID_DUPLICATE"
RESULT_ID_INVALID = "Bad Request: RESULT_ID_INVALID"
NEXT_OFFSET_INVALID = "Bad Request: NEXT_OFFSET_INVALID"
START_PARAM_INVALID = "Bad Request: START_PARAM_INVALID"
CONFLICT_POLLING = (
    "Conflict: terminated by other getUpdates request; "
    "make sure that only one bot instance is running"
)
CONFLICT_WEBHOOK = (
    "Conflict: can't use getUpdates method while webhook is active; "
    "use deleteWebhook to delete the webhook first"
)
# telegram-bot-api's Client::check_chat_access, per chat type: the bot was banned, or is not in
# the chat ("left"). Telegram calls a supergroup "supergroup" and a channel "channel" here.
_REMOVED = {
    "kicked": "Forbidden: bot was kicked from the {} chat",
    "left": "Forbidden: bot is not a member of the {} chat",
}
# Telegram's placeholder senders (python-telegram-bot's constants.ChatID).
CHANNEL_BOT = {"id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}
"""``from`` of a message a member sends on behalf of a channel (sender_chat is the channel)."""
GROUP_ANONYMOUS_BOT = {
    "id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot",
}
"""``from`` of a message by an anonymous group admin (sender_chat is the group itself)."""
TELEGRAM_SERVICE = {"id": 777000, "is_bot": False, "first_name": "Telegram"}
"""``from`` of a linked channel's post automatically forwarded to its discussion group."""
TOPIC_ICON_COLOR = 7322096  # 0x6FB9F0, the default icon colour of a new forum topic

# Telegram's wording for some missing parameters; others get "Bad Request: <name> is empty".
_MISSING = {
    "chat_id": "Bad Request: chat_id is empty",
    "text": TEXT_EMPTY,
    "message_id": "Bad Request: message identifier is not specified",
    "callback_query_id": QUERY_TOO_OLD,
    "user_id": "Bad Request: invalid user_id specified",
}

# Update types Telegram leaves out unless allowed_updates names them.
_OPT_IN_UPDATES = frozenset({"chat_member", "message_reaction", "message_reaction_count"})
# Calls that post or change a message, counted by group_limit_per_minute.
_FLOOD_METHODS = frozenset({
    "sendMessage", "editMessageText", "editMessageReplyMarkup", "editMessageCaption",
    "editMessageMedia", "sendPhoto", "sendDocument", "sendSticker", "sendPoll", "copyMessage",
    "forwardMessage",
})
_CHAT_ACTIONS = frozenset({
    "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
    "upload_document", "choose_sticker", "find_location", "record_video_note",
    "upload_video_note",
})
# HTML tag -> MessageEntity type (https://core.telegram.org/bots/api#html-style).
_HTML_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "span": "spoiler", "tg-spoiler": "spoiler", "a": "text_link", "code": "code", "pre": "pre",
    "blockquote": "blockquote", "tg-emoji": "custom_emoji",
}
# The fields of InlineKeyboardButton of which a button must have exactly one.
_BUTTON_KINDS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
)
_SPACES = " \t\n\r\v\f"
_TOKEN_RE = re.compile(r"\d+:[A-Za-z0-9_-]+")
_PATH_RE = re.compile(r"/bot(?P<token>[^/]*)/(?P<method>[^/]*)/?")
_URL_RE = re.compile(r"(?i)(https?|tg)://\S+")
_COMMAND_RE = re.compile(r"/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{1,64})?")
_COMMAND_NAME_RE = re.compile(r"[a-z0-9_]{1,32}")
_START_PARAMETER_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A deep link's start parameter (Bot API "Deep linking"; InlineQueryResultsButton)."""
_LINK_RE = re.compile(r"https://t\.me/(?P<bot>[A-Za-z0-9_]{5,32})"
                      r"(?:\?(?P<kind>start|startgroup)=(?P<payload>[^&#]*))?")


def utf16_len(text: str) -> int:
    """Length of ``text`` in UTF-16 code units, the unit of Telegram's text limits and offsets."""
    return len(text.encode("utf-16-le")) // 2


class ApiError(Exception):
    """A failed Bot API call, answered as ``{"ok": false, ...}`` with HTTP status ``error_code``.

    Args:
        error_code: HTTP status and ``error_code`` (400, 401, 403, 404, 409, 429, 5xx).
        description: Telegram's description, e.g. ``"Bad Request: chat not found"``.
        parameters: Optional ResponseParameters, e.g. ``{"retry_after": 5}`` (seconds).
    """

    def __init__(self, error_code: int, description: str, parameters: dict | None = None):
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def body(self) -> dict[str, Any]:
        """The JSON answer Telegram would send."""
        body: dict[str, Any] = {
            "ok": False, "error_code": self.error_code, "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def _bad(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


@dataclass
class Chaos:
    """Random faults on Bot API calls (every method but getUpdates), drawn per call.

    Attributes:
        rate_limited: Probability of 429 "Too Many Requests: retry after N" (N = ``retry_after``).
        server_error: Probability of a 5xx (500/502).
        drop_before: Probability the connection drops before the call is carried out.
        drop_after: Probability the call is carried out, then the connection drops (the bot
            never learns it succeeded).
        slow: Probability of ``slow_seconds`` of extra latency.
        slow_seconds: That latency, in seconds.
        retry_after: Seconds in the 429's ``parameters.retry_after``.
        seed: Seed of the random generator (runs repeat exactly).
    """

    rate_limited: float = 0.0
    server_error: float = 0.0
    drop_before: float = 0.0
    drop_after: float = 0.0
    slow: float = 0.0
    slow_seconds: float = 0.3
    retry_after: int = 1
    seed: int = 0
    injected: dict[str, int] = field(default_factory=dict)
    """How many faults of each kind were injected so far."""

    def __post_init__(self) -> None:
        import random

        self._random = random.Random(self.seed)

    def draw(self) -> str | None:
        """The fault for one call, or None."""
        roll = self._random.random()
        for kind in ("rate_limited", "server_error", "drop_before", "drop_after", "slow"):
            probability = getattr(self, kind)
            if roll < probability:
                self.injected[kind] = self.injected.get(kind, 0) + 1
                return kind
            roll -= probability
        return None


@dataclass
class Call:
    """One request the bot made, recorded when it was answered.

    Attributes:
        method: Bot API method name as spelled by Telegram (``"sendMessage"``), or as requested
            when the method is unknown.
        params: Parameters with JSON-encoded values decoded (``reply_markup`` is a dict,
            ``chat_id`` an int); fields the Bot API types as String stay strings.
        status: HTTP status of the answer.
        response: The JSON answer (``{"ok": ..., "result" | "description": ...}``).
        at: The server clock (see ``FakeBotAPI(clock=...)``) when the request arrived, in seconds.
    """

    method: str
    params: dict[str, Any]
    status: int
    response: dict[str, Any]
    at: float

    @property
    def ok(self) -> bool:
        """Whether Telegram would have answered ``"ok": true``."""
        return bool(self.response.get("ok"))

    @property
    def result(self) -> Any:
        """The ``result`` of a successful call (None for failures)."""
        return self.response.get("result")


@dataclass
class _Chat:
    chat: dict[str, Any]  # the Chat object
    admins: list[int] = field(default_factory=list)  # first one is the creator
    members: list[int] = field(default_factory=list)
    messages: dict[int, dict] = field(default_factory=dict)  # message_id -> Message, in order
    raw: dict[int, str] = field(default_factory=dict)  # message_id -> text as the bot sent it
    next_id: int = 1
    activity: list[float] = field(default_factory=list)  # clock times of bot sends and edits
    topics: dict[int, str] = field(default_factory=dict)  # forum: message_thread_id -> name
    migrated_to: int | None = None  # a basic group upgraded to this supergroup
    bot_status: str | None = None  # "kicked" or "left" once the bot was removed

    @property
    def id(self) -> int:
        return self.chat["id"]

    @property
    def type(self) -> str:
        return self.chat["type"]


@cache
def _load_spec(path: str) -> tuple[dict[str, dict[str, dict]], tuple[str, ...]]:
    """Methods (name -> field name -> field) and Update types of a Bot API description."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RuntimeError(
            f"Bot API description not found at {path}: set {SPEC_ENV} to api-10.0.json"
        ) from None
    methods = {
        name: {f["name"]: f for f in method.get("fields", [])}
        for name, method in data["methods"].items()
    }
    updates = tuple(f["name"] for f in data["types"]["Update"]["fields"])[1:]
    return methods, updates


def _decode_entity(s: str, i: int) -> tuple[str | None, int]:
    """Decode the HTML character reference at ``s[i] == "&"`` like TDLib does.

    Returns:
        (character, index after the reference, including an optional ";"), or (None, i) when
        there is none: named &lt; &gt; &amp; &quot; and numeric &#NN; / &#xHH; only.
    """
    n, j = len(s), i + 1
    if j < n and s[j] == "#":
        j += 1
        base = 16 if j < n and s[j] in "xX" else 10
        j += base == 16
        start = j
        while j < n and s[j] in ("0123456789abcdefABCDEF" if base == 16 else "0123456789"):
            j += 1
        code = int(s[start:j], base) if j > start and j - i < 12 else 0
        if code == 0 or code >= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None, i
        char = chr(code)
    else:
        while j < n and s[j].isascii() and s[j].isalpha():
            j += 1
        char = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}.get(s[i + 1:j])
        if char is None:
            return None, i
    return char, j + (j < n and s[j] == ";")


def parse_html(source: str, *, strict_ampersand: bool = True) -> tuple[str, list[dict[str, Any]]]:
    """Parse text sent with ``parse_mode="HTML"`` the way Telegram (TDLib) does.

    Supported (https://core.telegram.org/bots/api#html-style): b, strong, i, em, u, ins, s,
    strike, del, tg-spoiler, span class="tg-spoiler", a href, code (class="language-x" inside
    pre), pre, blockquote (expandable), tg-emoji emoji-id; character references &lt; &gt; &amp;
    &quot; and numeric ones. Tag and attribute names are case-insensitive.

    Args:
        source: The text as sent.
        strict_ampersand: Reject an "&" that starts no character reference. Telegram itself
            keeps such an "&" literally; the default rejects it so a missing ``html.escape``
            in the bot shows up in tests.

    Returns:
        (plain text, MessageEntity dicts with UTF-16 offsets/lengths, sorted like Telegram).

    Raises:
        ApiError: 400 "Bad Request: can't parse entities: ..." with byte offsets into the
            UTF-8 encoded ``source``.
    """
    out: list[str] = []
    offset = 0  # UTF-16 units emitted so far
    stack: list[tuple[str, str, int, int]] = []  # tag, argument, UTF-16 start, index into out
    entities: list[dict[str, Any]] = []
    n, i = len(source), 0

    def fail(message: str) -> ApiError:
        return _bad(f"can't parse entities: {message}")

    def at(pos: int) -> str:
        return f"at byte offset {len(source[:pos].encode())}"

    while i < n:
        c = source[i]
        if c == "&":
            char, end = _decode_entity(source, i)
            if char is not None:
                out.append(char)
                offset += utf16_len(char)
                i = end
                continue
            if strict_ampersand:
                raise fail(f"Character entity expected {at(i)}; escape \"&\" as \"&amp;\"")
        if c != "<":
            out.append(c)
            offset += utf16_len(c)
            i += 1
            continue
        begin, i = i, i + 1
        if i < n and source[i] == "/":  # an end tag
            if not stack:
                raise fail(f"Unexpected end tag {at(begin)}")
            j = i + 1
            while j < n and source[j] not in _SPACES and source[j] != ">":
                j += 1
            name = source[i + 1:j]
            while j < n and source[j] in _SPACES:
                j += 1
            if j >= n or source[j] != ">":
                raise fail(f"Unclosed end tag {at(begin)}")
            tag, argument, start, out_start = stack.pop()
            if name and name.lower() != tag:
                raise fail(
                    f'Unmatched end tag {at(begin)}, expected "</{tag}>", found "</{name}>"'
                )
            _add_entity(entities, tag, argument, start, offset, "".join(out[out_start:]))
            i = j + 1
            continue
        j = i
        while j < n and source[j] not in _SPACES and source[j] != ">":
            j += 1
        if j >= n:
            raise fail(f"Unclosed start tag {at(begin)}")
        tag = source[i:j].lower()
        if tag not in _HTML_TAGS:
            raise fail(f'Unsupported start tag "{tag}" {at(begin)}')
        argument, i = _parse_attributes(source, j, tag, begin, fail, at)
        if tag == "span" and argument != "spoiler":
            raise fail(f'Tag "span" must have class "tg-spoiler" {at(begin)}')
        stack.append((tag, argument, offset, len(out)))
    if stack:
        raise fail(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    for entity in entities:
        entity.pop("_language", None)
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _parse_attributes(
    s: str, i: int, tag: str, begin: int,
    fail: Callable[[str], ApiError], at: Callable[[int], str],
) -> tuple[str, int]:
    """Parse the attributes of a start tag from ``s[i]``; return (argument, index after ">")."""
    n, argument = len(s), ""
    while True:
        while i < n and s[i] in _SPACES:
            i += 1
        if i >= n:
            raise fail(f"Unclosed start tag {at(begin)}")
        if s[i] == ">":
            return argument, i + 1
        name_start = i
        while i < n and s[i] not in _SPACES and s[i] not in "=>":
            i += 1
        name = s[name_start:i].lower()
        if not name:
            raise fail(f'Empty attribute name in the tag "{tag}" {at(begin)}')
        while i < n and s[i] in _SPACES:
            i += 1
        if i >= n or s[i] != "=":
            if tag == "blockquote" and name == "expandable":
                argument = "expandable"
                continue
            raise fail(
                f'Expected equal sign in declaration of an attribute of the tag "{tag}" {at(begin)}'
            )
        i += 1
        while i < n and s[i] in _SPACES:
            i += 1
        if i >= n:
            raise fail(f'Unclosed start tag "{tag}" {at(begin)}')
        if s[i] in "'\"":  # a quoted value, with character references
            quote, chars = s[i], []
            i += 1
            while i < n and s[i] != quote:
                char, end = _decode_entity(s, i) if s[i] == "&" else (None, i)
                chars.append(char if char is not None else s[i])
                i = end if char is not None else i + 1
            value, i = "".join(chars), i + 1
        else:  # a name token: letters, digits, periods, hyphens
            token_start = i
            while i < n and ((s[i].isascii() and s[i].isalnum()) or s[i] in ".-"):
                i += 1
            value = s[token_start:i].lower()
            if i < n and s[i] not in _SPACES and s[i] != ">":
                raise fail(f"Unexpected end of name token {at(token_start)}")
        if i >= n:
            raise fail(f"Unclosed start tag {at(begin)}")
        if tag == "a" and name == "href":
            argument = value
        elif tag == "code" and name == "class" and value.startswith("language-"):
            argument = value.removeprefix("language-")
        elif tag == "span" and name == "class" and value.startswith("tg-"):
            argument = value.removeprefix("tg-")
        elif tag == "tg-emoji" and name == "emoji-id":
            argument = value


def _add_entity(
    entities: list[dict], tag: str, argument: str, start: int, end: int, inner: str
) -> None:
    """Append the MessageEntity a closed tag makes; empty ones are dropped like Telegram does."""
    if end <= start:
        return
    entity: dict[str, Any] = {"type": _HTML_TAGS[tag], "offset": start, "length": end - start}
    if tag == "a":
        entity["url"] = argument or inner
    elif tag == "blockquote" and argument:
        entity["type"] = "expandable_blockquote"
    elif tag == "tg-emoji":
        entity["custom_emoji_id"] = argument
    elif tag == "code" and argument:
        entity["_language"] = argument  # becomes the language of an enclosing pre
    elif tag == "pre" and entities:
        last = entities[-1]
        if last["type"] == "code" and (last["offset"], last["length"]) == (start, end - start):
            entities.pop()
            if "_language" in last:
                entity["language"] = last["_language"]
    entities.append(entity)


def _trim(text: str, entities: list[dict]) -> tuple[str, list[dict]]:
    """Strip leading/trailing whitespace as Telegram does, shifting and clipping entities."""
    left = len(text) - len(text.lstrip(_SPACES))
    text = text.strip(_SPACES)
    size, kept = utf16_len(text), []
    for entity in entities:
        start = max(0, entity["offset"] - left)
        end = min(size, entity["offset"] + entity["length"] - left)
        if end > start:
            kept.append({**entity, "offset": start, "length": end - start})
    return text, kept


def _inline_keyboard(markup: Any, *, edit: bool) -> dict | None:
    """Validate a reply_markup; return the InlineKeyboardMarkup a Message echoes, or None.

    Enforces https://core.telegram.org/bots/api#inlinekeyboardbutton: exactly one action
    field per button, callback_data of 1-64 bytes (UTF-8), url of scheme http, https or tg;
    a non-empty text (TDLib's "Inline keyboard button text must be non-empty"); and at most
    100 buttons in all (Telegram's REPLY_MARKUP_TOO_LONG, "reply markup is too long", an
    undocumented limit PTB records as InlineKeyboardMarkupLimit.TOTAL_BUTTON_NUMBER; the real
    server also rejects a markup whose serialised size is too large, which is not modelled).
    Reply keyboards are accepted for sends (a Message never echoes them) but not for edits.
    An empty inline keyboard means no keyboard.

    Raises:
        ApiError: 400 with Telegram's description of the first rule broken.
    """
    if markup is None:
        return None
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            markup = None
    if not isinstance(markup, dict):
        raise _bad("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if edit:
            raise _bad("inline keyboard expected")
        return None
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays')
    for button in itertools.chain.from_iterable(rows):
        if not isinstance(button, dict) or not isinstance(button.get("text"), str):
            raise _bad('can\'t parse inline keyboard button: Field "text" must be of type String')
        if not button["text"]:
            raise ApiError(400, BUTTON_TEXT_EMPTY)
        kinds = [kind for kind in _BUTTON_KINDS if button.get(kind) is not None]
        if not kinds:
            raise _bad("text buttons are unallowed in the inline keyboard")
        if len(kinds) > 1:
            raise _bad("BUTTON_TYPE_INVALID")
        data = button.get("callback_data")
        if data is not None and not (
            isinstance(data, str) and 1 <= len(data.encode()) <= MAX_CALLBACK_DATA_BYTES
        ):
            raise _bad("BUTTON_DATA_INVALID")
        url = button.get("url")
        if url is not None and not (isinstance(url, str) and _URL_RE.fullmatch(url)):
            raise _bad("BUTTON_URL_INVALID")
    if sum(len(row) for row in rows) > MAX_INLINE_BUTTONS:
        raise ApiError(400, MARKUP_TOO_LONG)
    if not any(rows):
        return None
    return {"inline_keyboard": [list(row) for row in rows if row]}


def _user_text(text: str) -> dict[str, Any]:
    """The text fields of a user's message: a leading command gets a bot_command entity."""
    fields: dict[str, Any] = {"text": text}
    command = _COMMAND_RE.match(text)
    if command:
        length = utf16_len(command.group())
        fields["entities"] = [{"type": "bot_command", "offset": 0, "length": length}]
    return fields


def _flag(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1")


class FakeBotAPI:
    """A fake Telegram Bot API server with simulated users, chats and fault injection.

    Args:
        token: The bot token the server accepts; others get 401 "Unauthorized".
        bot_id: The bot's user id (the number before ":" in real tokens).
        bot_username: The bot's username, without "@".
        query_ttl: Seconds after a tap within which answerCallbackQuery is accepted.
        clock: Monotonic clock in seconds used for query_ttl, rate limits and ``Call.at``;
            pass a fake one to step time in tests.
        strict_ampersand: See :func:`parse_html`.
        spec_path: The Bot API description JSON; default ``$FAKEBOTAPI_SPEC`` or DEFAULT_SPEC.
        inline_mode: Whether the bot's inline mode is on (BotFather's /setinline): getMe's
            ``supports_inline_queries``, and the only way users can send inline queries.

    Attributes:
        calls: Every answered request, in answer order.
        callback_answers: callback query id -> the answerCallbackQuery parameters.
        inline_answers: inline query id -> the answerInlineQuery parameters (``results`` as a
            list of InlineQueryResult dicts).
        inline_feedback: Whether choosing an inline result sends the bot a
            chosen_inline_result update (BotFather's /setinlinefeedback; off by default).
        commands: (scope key, language_code) -> list of BotCommand dicts set by setMyCommands.
            The scope key is the scope's ``type`` ("default", "all_private_chats", ...), with
            ":<chat_id>" appended for chat scopes and ":<chat_id>:<user_id>" for chat_member.
        group_limit_per_minute: If set, the most sends and edits (see _FLOOD_METHODS) the bot may
            make to one group or supergroup in any rolling 60 s; more answer 429.
        private_limit_per_second: If set, the most sends and edits the bot may make to one
            private chat in any rolling second; more answer 429 "Too Many Requests: retry
            after 1". Telegram documents "avoid sending more than one message per second" to a
            chat (https://core.telegram.org/bots/faq#my-bot-is-hitting-limits-how-do-i-avoid-this)
            and enforces it loosely, so tests pick the N they mean.
    """

    def __init__(
        self,
        token: str = "123456:TEST",
        *,
        bot_id: int = 1000,
        bot_username: str = "quizbot_test_bot",
        query_ttl: float = 15.0,
        clock: Callable[[], float] = time.monotonic,
        strict_ampersand: bool = True,
        spec_path: str | os.PathLike[str] | None = None,
        inline_mode: bool = False,
    ):
        self.token = token
        self.inline_mode = inline_mode
        self.inline_feedback = False
        self.inline_answers: dict[str, dict] = {}
        self._inline_queries: dict[str, tuple[float, dict]] = {}  # id -> (clock time, query)
        self.bot_id = bot_id
        self.bot_username = bot_username
        self.query_ttl = query_ttl
        self.strict_ampersand = strict_ampersand
        self.group_limit_per_minute: int | None = None
        self.private_limit_per_second: int | None = None
        self.calls: list[Call] = []
        self.callback_answers: dict[str, dict] = {}
        self.commands: dict[tuple[str, str], list[dict]] = {}
        self.photos: dict[tuple[int, int], bytes] = {}
        """(chat id, message id) -> the bytes of a photo uploaded with sendPhoto."""
        self.bot_user = {
            "id": bot_id, "is_bot": True, "first_name": "Quizbot Test", "username": bot_username,
        }
        self.base_url = ""
        self.webhook_url = ""
        self.webhook_secret: str | None = None
        self.webhook_retry_seconds = (0.02, 1.0)
        """First and longest pause before a failed webhook delivery is tried again, in seconds
        (Telegram's are longer and unpublished)."""
        self.webhook_timeout = 10.0
        """Seconds a webhook request may take before it counts as failed."""
        self.webhook_deliveries: list[tuple[int, int | str]] = []
        """Every webhook delivery attempt: (update_id, HTTP status or the connection error)."""
        self.last_webhook_error: tuple[float, str] | None = None
        self._webhook_task: asyncio.Task[None] | None = None
        self._webhook_session: aiohttp.ClientSession | None = None
        self._clock = clock
        spec = spec_path or os.environ.get(SPEC_ENV) or DEFAULT_SPEC
        self._spec, self._update_types = _load_spec(str(spec))
        self._method_names = {name.lower(): name for name in self._spec}
        self._users: dict[int, dict] = {}
        self._blocked: set[int] = set()
        self._chats: dict[int, _Chat] = {}
        self._updates: list[dict] = []
        self._next_update_id = 1
        self._allowed: frozenset[str] | None = None  # None: Telegram's default set
        self._queries: dict[str, float] = {}  # callback query id -> clock time of the tap
        self._query_ids = itertools.count(4_611_686_018_427_387_904)
        self._failures: dict[str, list[list]] = {}  # method -> [[ApiError, times left], ...]
        self._delay: tuple[float, frozenset[str] | None] = (0.0, None)
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        """How a call waits out a simulated delay (:meth:`delay`, :meth:`delay_chat`, a slow
        :class:`Chaos` fault); a test of the fake may record the waits instead."""
        self._chat_delays: dict[int, float] = {}
        self._chat_floods: dict[int, list[int]] = {}  # chat_id -> [retry_after, calls left]
        self.chaos: Chaos | None = None
        self._drops: dict[str, list[bool]] = {}
        """Random faults to inject (see :class:`Chaos`); None for none."""
        self.documents: dict[str, bytes] = {}
        """The bytes of every document the bot sent (sendDocument), by file id."""
        self.observers: list[Callable[[Call], None]] = []
        """Called with every answered call (for load generators that react to the bot)."""
        self._wakeup = asyncio.Event()
        self._changed = asyncio.Event()  # set and replaced by signal(): wakes every wait_for
        self._poll: asyncio.Event | None = None  # set to terminate the waiting getUpdates
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._handlers: dict[str, Callable[[dict], Any]] = {
            "getMe": lambda p: {
                **self.bot_user, "can_join_groups": True, "can_read_all_group_messages": False,
                "supports_inline_queries": self.inline_mode,
            },
            "logOut": lambda p: True,
            "close": lambda p: True,
            "setWebhook": self._set_webhook,
            "deleteWebhook": self._delete_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "sendMessage": self._send_message,
            "sendPhoto": self._send_photo,
            "sendDocument": self._send_document,
            "editMessageText": self._edit_message_text,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "deleteMessage": self._delete_message,
            "answerCallbackQuery": self._answer_callback_query,
            "answerInlineQuery": self._answer_inline_query,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": lambda p: copy.deepcopy(self.commands.get(self._scope_key(p), [])),
            "deleteMyCommands": lambda p: self.commands.pop(self._scope_key(p), None) or True,
            "getChat": self._get_chat,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "getChatMemberCount": lambda p: len(self._participants(self._chat_of(p)) | {bot_id}),
            "sendChatAction": self._send_chat_action,
        }

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving on 127.0.0.1 on an ephemeral port and set :attr:`base_url`."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{path:.*}", self._handle)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, handler_cancellation=True,
            shutdown_timeout=1.0,
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base_url = f"http://127.0.0.1:{port}/bot"

    async def stop(self) -> None:
        """Answer any waiting getUpdates, stop webhook deliveries and stop serving."""
        self._closing = True
        self._notify()
        if self._webhook_task is not None:
            self._webhook_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._webhook_task
            self._webhook_task = None
        if self._webhook_session is not None:
            await self._webhook_session.close()
            self._webhook_session = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- simulated people and chats ----------------------------------------------------------

    def add_user(
        self, user_id: int, first_name: str, *, language_code: str | None = None,
        username: str | None = None, last_name: str | None = None, is_bot: bool = False,
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

    def add_group(
        self, chat_id: int, title: str, *, type: str = "supergroup",
        admins: list[int] | tuple[int, ...] = (), members: list[int] | tuple[int, ...] = (),
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
        self._chats[chat_id] = _Chat(chat, admins=list(admins), members=list(members),
                                     next_id=2 if is_forum else 1)
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
        new = _Chat({"id": new_id, "type": "supergroup", "title": old.chat["title"]},
                    admins=list(old.admins), members=list(old.members))
        self._chats[new_id] = new
        to_message = self._store(old, {"from": user, "migrate_to_chat_id": new_id})
        old.migrated_to = new_id
        from_message = self._store(new, {"from": user, "migrate_from_chat_id": old_id})
        return (self.push_update({"message": copy.deepcopy(to_message)}),
                self.push_update({"message": copy.deepcopy(from_message)}))

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
        message = self._store(chat, {
            "from": user, "message_thread_id": thread_id,
            "forum_topic_created": {"name": name, "icon_color": TOPIC_ICON_COLOR},
            "is_topic_message": True,
        })
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
            joined = self._store(chat, {"from": self._user(by),
                                        "new_chat_members": [self.bot_user]})
            self.push_update({"message": copy.deepcopy(joined)})
        return update

    def _my_chat_member(self, chat: _Chat, by: int, old: dict, new: dict) -> dict:
        return self.push_update({"my_chat_member": {
            "chat": copy.deepcopy(chat.chat), "from": self._user(by), "date": int(time.time()),
            "old_chat_member": old, "new_chat_member": new,
        }})

    def _creator(self, chat: _Chat) -> int:
        if not chat.admins:
            raise ValueError(f"chat {chat.id} has no creator: pass by=")
        return chat.admins[0]

    def block(self, user_id: int, blocked: bool = True) -> None:
        """Make ``user_id`` block (or unblock) the bot: sends to them answer 403."""
        (self._blocked.add if blocked else self._blocked.discard)(user_id)

    # -- driving the bot ---------------------------------------------------------------------

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
        self, user_id: int, text: str, *, chat_id: int | None = None,
        message_thread_id: int | None = None, sender_chat_id: int | None = None,
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

        Returns:
            The message Update.

        Raises:
            ValueError: for an unknown user, chat or topic, or a chat the bot is not in.
        """
        chat, user = self._user_in_chat(user_id, chat_id)
        fields: dict[str, Any] = {"from": user}
        if sender_chat_id is not None:
            fields = {"from": CHANNEL_BOT, "sender_chat": self._channel(sender_chat_id).chat}
        fields.update(self._topic_fields(chat, message_thread_id))
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
        message = self._store(chat, {"from": GROUP_ANONYMOUS_BOT, "sender_chat": chat.chat,
                                     **_user_text(text)})
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
        origin = {"type": "channel", "chat": channel.chat, "message_id": post["message_id"],
                  "date": post["date"]}
        message = self._store(group, {
            "from": TELEGRAM_SERVICE, "sender_chat": channel.chat, "forward_origin": origin,
            "is_automatic_forward": True, **_user_text(text),
        })
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
            "file_id": "CAACAgIAAxkBAAEBsticker", "file_unique_id": "AgADsticker",
            "type": "regular", "width": 512, "height": 512, "is_animated": False,
            "is_video": False, "emoji": "👍",
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
        self, user_id: int, chat_id: int, message_id: int, data: str, *,
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
        if message is None or message.get("from", {}).get("id") != self.bot_id:
            raise ValueError(f"the bot has no message {message_id} in chat {chat_id}")
        buttons = message.get("reply_markup", {}).get("inline_keyboard", [])
        datas = [b.get("callback_data") for b in itertools.chain.from_iterable(buttons)]
        if check_button and data not in datas:
            raise ValueError(f"no button with callback_data {data!r} on the message: {datas}")
        query_id = str(next(self._query_ids))
        self._queries[query_id] = self._clock()
        return self.push_update({"callback_query": {
            "id": query_id, "from": user, "message": copy.deepcopy(message),
            "chat_instance": str(abs(chat_id) * 7919 + 31), "data": data,
        }})

    # -- inline mode ---------------------------------------------------------------------------

    def inline_query(
        self, user_id: int, query: str, *, offset: str = "", chat_type: str | None = "sender",
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
        self, user_id: int, query_id: str, result_id: str, *, chat_id: int | None = None,
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
            raise ValueError(f"no article {result_id!r} among the answers: "
                             f"{[r.get('id') for r in answer['results']]}")
        chat, user = self._user_in_chat(user_id, chat_id)
        content = result["input_message_content"]
        text, entities = self._text({"text": content["message_text"],
                                     "parse_mode": content.get("parse_mode"),
                                     "entities": content.get("entities")})
        fields: dict[str, Any] = {"from": user, "via_bot": self.bot_user, "text": text}
        if entities:
            fields["entities"] = entities
        markup = _inline_keyboard(result.get("reply_markup"), edit=False)
        if markup:
            fields["reply_markup"] = markup
        message = self._store(chat, fields)
        if self.inline_feedback:
            chosen: dict[str, Any] = {"result_id": result_id, "from": user,
                                      "query": asked[1]["query"]}
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
        return self.send_message(user_id, f"{command} {payload}" if payload else command,
                                 chat_id=chat_id)

    def pending_updates(self) -> int:
        """Number of queued updates not yet confirmed by a getUpdates offset."""
        return len(self._updates)

    def drop_pending_updates(self) -> int:
        """Forget the queued updates, as Telegram does after 24 hours or when a bot sets
        ``drop_pending_updates``; return how many were dropped."""
        dropped = len(self._updates)
        self._updates.clear()
        return dropped

    @property
    def webhook_delivering(self) -> bool:
        """Whether a webhook is set and its deliveries are running."""
        return bool(self.webhook_url) and self._webhook_task is not None and (
            not self._webhook_task.done())

    @property
    def polling(self) -> bool:
        """Whether a getUpdates request is waiting for updates right now."""
        return self._poll is not None

    # -- observing ---------------------------------------------------------------------------

    def calls_to(self, method: str) -> list[Call]:
        """The recorded calls of one method, in order."""
        return [call for call in self.calls if call.method == method]

    def messages(self, chat_id: int) -> list[dict]:
        """Copies of a chat's messages (users' and the bot's, edits applied, deletions gone)."""
        chat = self._chats.get(chat_id)
        return copy.deepcopy(list(chat.messages.values())) if chat else []

    def topic_messages(self, chat_id: int, thread_id: int | None) -> list[dict]:
        """Copies of the messages of one forum topic, or of General for ``thread_id`` None.

        A topic's messages include its ``forum_topic_created`` service message.
        """
        return [m for m in self.messages(chat_id) if m.get("message_thread_id") == thread_id]

    def peek_messages(self, chat_id: int) -> list[dict]:
        """The chat's live message dicts, without copying (read them, never change them)."""
        chat = self._chats.get(chat_id)
        return list(chat.messages.values()) if chat else []

    def message(self, chat_id: int, message_id: int) -> dict:
        """A copy of one message; KeyError if it does not exist (or was deleted)."""
        chat = self._chats.get(chat_id)
        if chat is None or message_id not in chat.messages:
            raise KeyError(f"no message {message_id} in chat {chat_id}")
        return copy.deepcopy(chat.messages[message_id])

    def last_bot_message(self, chat_id: int) -> dict:
        """A copy of the newest message the bot has in the chat; AssertionError if none."""
        for message in reversed(self.messages(chat_id)):
            if message.get("from", {}).get("id") == self.bot_id:
                return message
        raise AssertionError(f"the bot has no message in chat {chat_id}\n{self.dump_calls()}")

    def raw_text(self, chat_id: int, message_id: int) -> str:
        """The text of a bot message exactly as sent (HTML tags and references intact)."""
        return self._chats[chat_id].raw[message_id]

    def bot_messages_in_window(self, chat_id: int, seconds: float = 60.0) -> int:
        """The most bot sends and edits to the chat within any rolling window of ``seconds``."""
        chat = self._chats.get(chat_id)
        times, best, first = (chat.activity if chat else []), 0, 0
        for last, moment in enumerate(times):
            while moment - times[first] >= seconds:
                first += 1
            best = max(best, last - first + 1)
        return best

    def dump_calls(self, last: int = 15) -> str:
        """A readable listing of the last calls, for assertion messages."""
        lines = []
        for index, call in enumerate(self.calls[-last:], start=max(0, len(self.calls) - last)):
            outcome = "ok" if call.ok else call.response.get("description")
            params = json.dumps(call.params, ensure_ascii=False, default=str)
            lines.append(f"  #{index} {call.method} {call.status} {params[:200]} -> {outcome}")
        return "last calls:\n" + ("\n".join(lines) or "  (none)")

    def signal(self) -> None:
        """Wake every :meth:`wait_for` to check its predicate again.

        The fake calls it whenever it records something a test can observe: an answered (or
        dropped) request, a queued update, a webhook delivery. Tests call it when state outside
        the fake changes in a way they can hook (a task done, a process ended).
        """
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = WAIT_TIMEOUT,  # noqa: ASYNC109 - a safety bound in seconds, not a pace
        *,
        recheck: float | None = None,
    ) -> Any:
        """Wait until ``predicate`` returns something truthy, and return that.

        The predicate is checked now and again after every :meth:`signal` (each request the
        fake answers, each update it queues): there is no polling. ``timeout`` (seconds) only
        bounds a wait that would otherwise hang when the condition never comes.

        Args:
            predicate: Reads the fake's state (calls, chats, callback answers) and returns a
                truthy value once the awaited condition holds.
            timeout: Seconds after which the wait fails.
            recheck: For a predicate over state outside the fake that changes without any Bot
                API call (a database row, a log file, a process's exit): also check it every
                ``recheck`` seconds. None: only on signals.

        Raises:
            AssertionError: after ``timeout`` seconds, with a dump of the last calls.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (value := predicate()):
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"condition not met within {timeout} s\n{self.dump_calls()}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, recheck or remaining))
        return value

    async def wait_for_call(
        self, method: str, *, after: int = 0, where: Callable[[Call], bool] = lambda call: True,
        timeout: float = 5.0,  # noqa: ASYNC109 - as in wait_for
    ) -> Call:
        """Wait for the first call to ``method`` at index >= ``after`` in :attr:`calls`."""

        def find() -> Call | None:
            return next(
                (c for c in self.calls[after:] if c.method == method and where(c)), None
            )

        return await self.wait_for(find, timeout)

    # -- fault injection ---------------------------------------------------------------------

    def fail_next(
        self, method: str, *, error_code: int, description: str,
        retry_after: int | None = None, times: int = 1,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` with this error instead of handling them.

        ``retry_after`` (seconds) adds ``parameters.retry_after``, which PTB raises as RetryAfter.
        """
        name = self._method_names.get(method.lower())
        if name is None:
            raise ValueError(f"unknown Bot API method {method!r}")
        parameters = {"retry_after": retry_after} if retry_after is not None else None
        error = ApiError(error_code, description, parameters)
        self._failures.setdefault(name, []).append([error, times])

    def delay(self, seconds: float, methods: set[str] | None = None) -> None:
        """Add ``seconds`` of latency to every call but getUpdates, or to ``methods`` only."""
        self._delay = (seconds, frozenset(methods) if methods is not None else None)

    def drop_next(self, method: str, *, after_carrying_out: bool) -> None:
        """Drop the connection of the next call to ``method``, before or after carrying it out
        (after: the call takes effect, but the bot never hears so)."""
        self._drops.setdefault(method, []).append(after_carrying_out)

    def delay_chat(self, chat_id: int, seconds: float) -> None:
        """Add ``seconds`` of latency to every call about one chat (0 removes it)."""
        self._chat_delays[chat_id] = seconds

    def flood(self, chat_id: int, retry_after: int, times: int = 1) -> None:
        """Answer the next ``times`` calls naming ``chat_id`` (any method) with a flood wait.

        They answer 429 "Too Many Requests: retry after N" with ``parameters.retry_after`` = N
        (seconds; PTB raises RetryAfter), the answer Telegram gives a bot that writes to one
        chat too fast. Other chats, and calls without a chat_id such as answerCallbackQuery,
        are unaffected.
        """
        if retry_after < 1 or times < 1:
            raise ValueError("retry_after and times must be positive")
        self._chat_floods[chat_id] = [retry_after, times]

    # -- HTTP --------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.Response:
        arrived = self._clock()
        match = _PATH_RE.fullmatch(request.path)
        method = match["method"] if match else request.path
        params: dict[str, Any] = {}
        try:
            if match is None or not _TOKEN_RE.fullmatch(match["token"]):
                raise ApiError(404, NOT_FOUND)
            if match["token"] != self.token:
                raise ApiError(401, UNAUTHORIZED)
            method = self._method_names.get(method.lower(), method)
            if method not in self._spec:
                raise ApiError(404, NOT_FOUND)
            params = await self._read_params(request, method)
            seconds, methods = self._delay
            if seconds and (method in methods if methods is not None else method != "getUpdates"):
                await self.sleep(seconds)
            chat_delay = self._chat_delays.get(params.get("chat_id"))  # type: ignore[arg-type]
            if chat_delay:
                await self.sleep(chat_delay)
            arrived = self._clock()  # after the simulated network delay: when Telegram acts
            fault = self.chaos.draw() if self.chaos and method != "getUpdates" else None
            if self._drops.get(method):
                fault = "drop_after" if self._drops[method].pop(0) else "drop_before"
            if fault == "slow":
                await self.sleep(self.chaos.slow_seconds)  # type: ignore[union-attr]
            elif fault == "rate_limited":
                seconds = self.chaos.retry_after  # type: ignore[union-attr]
                raise ApiError(429, f"Too Many Requests: retry after {seconds}",
                               {"retry_after": seconds})
            elif fault == "server_error":
                raise ApiError(502, "Bad Gateway")
            elif fault == "drop_before":
                return self._drop(request, method, params, arrived)
            result = await self._dispatch(method, params)
            if fault == "drop_after":
                return self._drop(request, method, params, arrived)
            status, body = 200, {"ok": True, "result": result}
        except ApiError as error:
            status, body = error.error_code, error.body()
        except Exception as error:  # a bug in the fake: answer it visibly rather than hang up
            status, body = 500, ApiError(500, f"Internal Server Error: {error!r}").body()
        call = Call(method, params, status, body, arrived)
        self.calls.append(call)
        for observer in self.observers:
            observer(call)
        self.signal()
        return web.json_response(
            body, status=status, dumps=lambda obj: json.dumps(obj, ensure_ascii=False)
        )

    def _drop(self, request: web.Request, method: str, params: dict[str, Any],
              arrived: float) -> web.Response:
        """Close the connection without an answer (the client sees a network error)."""
        self.calls.append(Call(method, params, 0, {"ok": False, "dropped": True}, arrived))
        self.signal()
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=499)

    async def _read_params(self, request: web.Request, method: str) -> dict[str, Any]:
        """Read query, form, multipart or JSON parameters; decode JSON-encoded values."""
        fields = self._spec[method]
        raw: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json" and request.can_read_body:
            try:
                body = await request.json()
            except ValueError:
                raise _bad("can't parse JSON encoded request") from None
            if not isinstance(body, dict):
                raise _bad("JSON object expected")
            raw.update({k: json.dumps(v) if isinstance(v, (dict, list)) else v
                        for k, v in body.items()})
        elif request.method == "POST":
            for key, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    data = value.file.read()
                    value = {"filename": value.filename, "content_type": value.content_type,
                             "size": len(data), "data": data}
                raw[key] = value
        params = {}
        for key, value in raw.items():
            string_only = fields.get(key, {}).get("types") == ["String"]
            if isinstance(value, str) and not string_only:
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            elif string_only and isinstance(value, (int, float)) and not isinstance(value, bool):
                value = str(value)
            params[key] = value
        return params

    async def _dispatch(self, method: str, params: dict[str, Any]) -> Any:
        failures = self._failures.get(method)
        if failures:
            error = failures[0][0]
            failures[0][1] -= 1
            if failures[0][1] <= 0:
                failures.pop(0)
            raise error
        for name, spec_field in self._spec[method].items():
            if spec_field["required"] and params.get(name) in (None, ""):
                raise ApiError(400, _MISSING.get(name, f"Bad Request: {name} is empty"))
        self._check_chat_state(params)
        if method == "getUpdates":
            return await self._get_updates(params)
        handler = self._handlers.get(method)
        if handler is None:
            raise ApiError(501, f"Not Implemented: FakeBotAPI does not implement {method}")
        return handler(params)

    def _check_chat_state(self, p: dict) -> None:
        """Flood waits injected by flood(), then upgraded groups and chats without the bot."""
        try:
            chat_id = int(p["chat_id"])
        except (KeyError, TypeError, ValueError):
            return
        flood = self._chat_floods.get(chat_id)
        if flood:
            retry_after, flood[1] = flood[0], flood[1] - 1
            if flood[1] <= 0:
                del self._chat_floods[chat_id]
            raise ApiError(429, f"Too Many Requests: retry after {retry_after}",
                           {"retry_after": retry_after})
        chat = self._chats.get(chat_id)
        if chat is None:
            return
        if chat.migrated_to is not None:
            raise ApiError(400, GROUP_MIGRATED, {"migrate_to_chat_id": chat.migrated_to})
        if chat.bot_status is not None:
            raise ApiError(403, _REMOVED[chat.bot_status].format(chat.type))

    def _notify(self) -> None:
        """Wake every waiting getUpdates."""
        self._wakeup.set()
        self._wakeup = asyncio.Event()

    # -- updates -----------------------------------------------------------------------------

    async def _get_updates(self, p: dict) -> list[dict]:
        """getUpdates: offset confirms (negative counts from the end), limit 1-100, timeout."""
        if self.webhook_url:
            raise ApiError(409, CONFLICT_WEBHOOK)
        offset = self._int(p.get("offset", 0), "offset")
        limit = min(max(self._int(p.get("limit", 100), "limit"), 1), 100)
        try:
            timeout = max(float(p.get("timeout") or 0), 0.0)
        except (TypeError, ValueError):
            raise _bad("invalid timeout specified") from None
        allowed = p.get("allowed_updates")
        if isinstance(allowed, list):  # absent keeps the previous setting; [] the default
            self._allowed = frozenset(allowed) or None
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        elif offset < 0:
            self._updates = self._updates[offset:]
        if self._poll is not None:  # Telegram terminates the earlier request
            self._poll.set()
            self._notify()
        terminated = self._poll = asyncio.Event()
        self.signal()  # a poll is held now (``polling``)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        try:
            while True:
                wakeup = self._wakeup
                if terminated.is_set():
                    raise ApiError(409, CONFLICT_POLLING)
                remaining = deadline - loop.time()
                if self._updates or self._closing or remaining <= 0:
                    return copy.deepcopy(self._updates[:limit])
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wakeup.wait(), remaining)
        finally:
            if self._poll is terminated:
                self._poll = None

    def _set_webhook(self, p: dict) -> bool:
        """setWebhook: an empty url removes the webhook (as deleteWebhook)."""
        secret = p.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise _bad("secret token contains unallowed characters")
        if _flag(p.get("drop_pending_updates")):
            self._updates.clear()
        self.webhook_url = str(p["url"]) if p.get("url") else ""
        self.webhook_secret = str(secret) if secret is not None else None
        if isinstance(p.get("allowed_updates"), list):
            self._allowed = frozenset(p["allowed_updates"]) or None
        if self.webhook_url and (self._webhook_task is None or self._webhook_task.done()):
            self._webhook_task = asyncio.get_running_loop().create_task(
                self._deliver_webhooks(), name="fakebotapi-webhook")
        self._notify()
        return True

    def _delete_webhook(self, p: dict) -> bool:
        if _flag(p.get("drop_pending_updates")):
            self._updates.clear()
        self.webhook_url = ""
        self.webhook_secret = None
        self._notify()
        return True

    def _get_webhook_info(self, p: dict) -> dict:
        info: dict[str, Any] = {"url": self.webhook_url, "has_custom_certificate": False,
                                "pending_update_count": len(self._updates)}
        if self.webhook_url:
            info["max_connections"] = 40
        if self.last_webhook_error is not None:
            info["last_error_date"] = int(self.last_webhook_error[0])
            info["last_error_message"] = self.last_webhook_error[1]
        if self._allowed:
            info["allowed_updates"] = sorted(self._allowed)
        return info

    async def _deliver_webhooks(self) -> None:
        """POST the queued updates to the webhook, oldest first, until it is removed; an
        update leaves the queue once the webhook answered it with a 2xx status."""
        if self._webhook_session is None:
            self._webhook_session = aiohttp.ClientSession()
        pause = self.webhook_retry_seconds[0]
        while self.webhook_url and not self._closing:
            wakeup = self._wakeup
            if not self._updates:
                await wakeup.wait()
                continue
            url, update = self.webhook_url, self._updates[0]
            headers = ({"X-Telegram-Bot-Api-Secret-Token": self.webhook_secret}
                       if self.webhook_secret is not None else {})
            try:
                async with self._webhook_session.post(
                        url, json=update, headers=headers,
                        timeout=aiohttp.ClientTimeout(total=self.webhook_timeout)) as response:
                    await response.read()
                    status: int | str = response.status
                    error = (None if 200 <= response.status < 300 else
                             f"Wrong response from the webhook: {response.status} "
                             f"{response.reason}")
            except (aiohttp.ClientConnectionError, TimeoutError) as exc:
                status = type(exc).__name__
                error = ("Read timeout expired" if isinstance(exc, TimeoutError)
                         else "Connection refused")
            self.webhook_deliveries.append((update["update_id"], status))
            self.signal()
            if error is None:
                pause = self.webhook_retry_seconds[0]
                if self._updates and self._updates[0] is update:
                    self._updates.pop(0)
                self._notify()
                continue
            self.last_webhook_error = (time.time(), error)
            self.signal()
            with contextlib.suppress(TimeoutError):  # a new setWebhook retries at once
                await asyncio.wait_for(self._wakeup.wait(), pause)
            pause = min(pause * 2, self.webhook_retry_seconds[1])

    # -- messages ----------------------------------------------------------------------------

    def _send_message(self, p: dict) -> dict:
        """sendMessage: text 1-4096 UTF-16 units after parsing, inline keyboard rules, reply."""
        chat = self._chat_of(p, sending=True)
        text, entities = self._text(p)
        markup = _inline_keyboard(p.get("reply_markup"), edit=False)
        reply_to = self._reply_to(chat, p)
        topic = self._thread(chat, p)
        self._check_flood(chat, "sendMessage")
        fields: dict[str, Any] = {"from": self.bot_user, **topic, "text": text}
        if entities:
            fields["entities"] = entities
        if markup:
            fields["reply_markup"] = markup
        if reply_to:
            fields["reply_to_message"] = reply_to
        message = self._store(chat, fields)
        chat.raw[message["message_id"]] = str(p["text"])
        chat.activity.append(self._clock())
        return copy.deepcopy(message)

    def _send_photo(self, p: dict) -> dict:
        """sendPhoto of an uploaded file (multipart): at most 10 MB, width + height at most
        10,000 px, aspect ratio at most 20 (decoded with Pillow, as Telegram decodes it);
        caption 0-1024 UTF-16 units after parsing; inline keyboard rules. A file id or URL
        instead of an upload is not modelled (501)."""
        chat = self._chat_of(p, sending=True)
        photo = p.get("photo")
        if not isinstance(photo, dict) or "data" not in photo:
            raise ApiError(501, "Not Implemented: FakeBotAPI only takes uploaded photos")
        data: bytes = photo["data"]
        if len(data) > MAX_PHOTO_BYTES:
            raise _bad(PHOTO_TOO_BIG.removeprefix("Bad Request: "))
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(data)) as image:
                image.load()
                width, height = image.size
        except (UnidentifiedImageError, OSError):
            raise ApiError(400, PHOTO_NOT_IMAGE) from None
        if (width + height > MAX_PHOTO_SIDES or not width or not height
                or max(width, height) / min(width, height) > MAX_PHOTO_RATIO):
            raise ApiError(400, PHOTO_INVALID_DIMENSIONS)
        fields: dict[str, Any] = {"from": self.bot_user}
        if p.get("caption"):
            caption, entities = self._text(
                {"text": p["caption"], "parse_mode": p.get("parse_mode")},
                limit=MAX_CAPTION_UTF16, too_long=CAPTION_TOO_LONG, allow_empty=True)
            if caption:
                fields["caption"] = caption
            if entities:
                fields["caption_entities"] = entities
        markup = _inline_keyboard(p.get("reply_markup"), edit=False)
        self._check_flood(chat, "sendPhoto")
        unique = f"photo{len(self.photos) + 1}"
        fields["photo"] = [{"file_id": f"{unique}-id", "file_unique_id": unique,
                            "width": width, "height": height, "file_size": len(data)}]
        if markup:
            fields["reply_markup"] = markup
        message = self._store(chat, fields)
        self.photos[(chat.id, message["message_id"])] = data
        chat.activity.append(self._clock())
        return copy.deepcopy(message)

    def _send_document(self, p: dict) -> dict:
        """sendDocument with an uploaded file (multipart/form-data): a non-empty file of at
        most 50 MB (Bot API: "Bots can currently send files of up to 50 MB in size"), a caption
        of 0-1024 UTF-16 units after parsing, an inline keyboard. The file's bytes are kept in
        :attr:`documents` by file id. A file id or URL instead of an upload is refused: the
        fake stores no files to send again."""
        chat = self._chat_of(p, sending=True)
        upload = p.get("document")
        if not isinstance(upload, dict) or "data" not in upload:
            raise _bad("wrong file identifier/HTTP URL specified")
        if not upload["data"]:
            raise _bad("file must be non-empty")
        if upload["size"] > MAX_UPLOAD_BYTES:
            raise ApiError(413, "Request Entity Too Large")
        caption, entities = "", []
        if p.get("caption") not in (None, ""):
            caption, entities = self._text({"text": p["caption"], "parse_mode": p.get("parse_mode"),
                                            "entities": p.get("caption_entities")})
            if utf16_len(caption) > MAX_CAPTION_UTF16:
                raise _bad("message caption is too long")
        markup = _inline_keyboard(p.get("reply_markup"), edit=False)
        topic = self._thread(chat, p)
        self._check_flood(chat, "sendDocument")
        file_id = f"doc{len(self.documents) + 1}"
        self.documents[file_id] = upload["data"]
        fields: dict[str, Any] = {"from": self.bot_user, **topic, "document": {
            "file_id": file_id, "file_unique_id": f"u{file_id}",
            "file_name": upload["filename"], "mime_type": upload["content_type"],
            "file_size": upload["size"]}}
        if caption:
            fields["caption"] = caption
            if entities:
                fields["caption_entities"] = entities
        if markup:
            fields["reply_markup"] = markup
        message = self._store(chat, fields)
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
            message["text"], message.get("entities", []), message.get("reply_markup")
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
        if message.get("from", {}).get("id") != self.bot_id:
            raise _bad("message can't be edited")
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
        if (tapped is None or query_id in self.callback_answers
                or self._clock() - tapped > self.query_ttl):
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
            if not isinstance(button, dict) or not isinstance(button.get("text"), str) or (
                    not button["text"]):
                raise _bad("can't parse InlineQueryResultsButton: field \"text\" must be a "
                           "non-empty String")
            if ("start_parameter" in button) == ("web_app" in button):
                raise _bad("InlineQueryResultsButton must have exactly one optional field")
            start = button.get("start_parameter")
            if start is not None and not _START_PARAMETER_RE.fullmatch(str(start)):
                raise ApiError(400, START_PARAM_INVALID)
        query_id = str(p["inline_query_id"])
        asked = self._inline_queries.get(query_id)
        if (asked is None or query_id in self.inline_answers
                or self._clock() - asked[0] > self.query_ttl):
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
            raise ApiError(501, f"Not Implemented: FakeBotAPI only takes article results, "
                                f"not {kind!r}")
        result_id = result.get("id")
        if not isinstance(result_id, str) or not (
                1 <= len(result_id.encode()) <= MAX_RESULT_ID_BYTES):
            raise ApiError(400, RESULT_ID_INVALID)
        if not isinstance(result.get("title"), str) or not result["title"]:
            raise _bad('can\'t parse inline query result: field "title" must be a non-empty '
                       'String')
        content = result.get("input_message_content")
        if not isinstance(content, dict) or "message_text" not in content:
            raise _bad('can\'t parse inline query result: can\'t find field '
                       '"input_message_content"')
        self._text({"text": content["message_text"], "parse_mode": content.get("parse_mode"),
                    "entities": content.get("entities")})
        markup = result.get("reply_markup")
        if markup is not None and not (isinstance(markup, dict) and "inline_keyboard" in markup):
            raise _bad("inline keyboard expected")
        _inline_keyboard(markup, edit=False)

    def _text(self, p: dict, *, limit: int = MAX_TEXT_UTF16, too_long: str = "",
              allow_empty: bool = False) -> tuple[str, list[dict]]:
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
            params = {"message_id": p.get("reply_to_message_id"),
                      "allow_sending_without_reply": p.get("allow_sending_without_reply")}
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
            raise ApiError(429, f"Too Many Requests: retry after {retry_after}",
                           {"retry_after": retry_after})

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

    # -- chats, members, commands ------------------------------------------------------------

    def _get_chat(self, p: dict) -> dict:
        """getChat: a ChatFullInfo with the fields Bot API 10.0 requires."""
        chat = self._chat_of(p)
        gifts = dict.fromkeys(("unlimited_gifts", "limited_gifts", "unique_gifts",
                               "premium_subscription", "gifts_from_channels"), False)
        return {**chat.chat, "accent_color_id": 0, "max_reaction_count": 11,
                "accepted_gift_types": gifts}

    def _get_chat_member(self, p: dict) -> dict:
        """getChatMember: creator/administrator/member per add_group, "left" otherwise."""
        chat = self._chat_of(p)
        user_id = self._int(p["user_id"], "user_id", "invalid user_id specified")
        if chat.type == "private" and user_id in (chat.id, self.bot_id):
            return {"status": "member", "user": self._user(user_id)}
        return self._member(chat, user_id)

    def _get_chat_administrators(self, p: dict) -> list[dict]:
        chat = self._chat_of(p)
        if chat.type == "private":
            raise _bad("there are no administrators in the private chat")
        return [self._member(chat, user_id) for user_id in chat.admins]

    def _member(self, chat: _Chat, user_id: int) -> dict:
        """The ChatMember object of a user in a group."""
        if user_id != self.bot_id and user_id not in self._users:
            raise _bad("user not found")
        user = self._user(user_id)
        if chat.admins and user_id == chat.admins[0] and user_id != self.bot_id:
            return {"status": "creator", "user": user, "is_anonymous": False}
        if user_id in chat.admins:
            rights = dict.fromkeys((
                "can_manage_chat", "can_delete_messages", "can_manage_video_chats",
                "can_restrict_members", "can_change_info", "can_invite_users",
                "can_post_stories", "can_edit_stories", "can_delete_stories",
            ), True)
            return {"status": "administrator", "user": user, "can_be_edited": False,
                    "is_anonymous": False, "can_promote_members": False, **rights}
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

    # -- helpers -----------------------------------------------------------------------------

    def _user(self, user_id: int) -> dict:
        if user_id == self.bot_id:
            return self.bot_user
        if user_id not in self._users:
            raise ValueError(f"unknown user {user_id}: call add_user() first")
        return self._users[user_id]

    def _user_in_chat(self, user_id: int, chat_id: int | None) -> tuple[_Chat, dict]:
        """The chat a user writes in; opens their private chat on first use."""
        user = self._user(user_id)
        if chat_id is None or chat_id == user_id:
            chat = self._chats.get(user_id)
            if chat is None:
                private = {"id": user_id, "type": "private", "first_name": user["first_name"]}
                private.update({k: user[k] for k in ("last_name", "username") if k in user})
                chat = self._chats[user_id] = _Chat(private)
            return chat, user
        chat = self._chats.get(chat_id)
        if chat is None or user_id not in self._participants(chat):
            raise ValueError(f"user {user_id} is not in chat {chat_id}: see add_group()")
        self._check_open(chat)
        return chat, user

    def _chat_of(self, p: dict, *, sending: bool = False) -> _Chat:
        """The chat named by chat_id: 400 chat not found, 403 for blocked/unstarted users."""
        raw = p.get("chat_id")
        if raw in (None, ""):
            raise ApiError(400, _MISSING["chat_id"])
        try:
            chat = self._chats.get(int(raw))
        except (TypeError, ValueError):  # "@username": no public chats here
            chat = None
        if chat is None:
            if sending and isinstance(raw, int) and raw in self._users:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            raise ApiError(400, CHAT_NOT_FOUND)
        if sending and chat.type == "private" and chat.id in self._blocked:
            raise ApiError(403, BLOCKED)
        return chat

    def _message_id(self, p: dict) -> int:
        if p.get("message_id") in (None, ""):
            raise ApiError(400, _MISSING["message_id"])
        return self._int(p["message_id"], "message_id", "message identifier is not specified")

    @staticmethod
    def _int(value: Any, name: str, problem: str | None = None) -> int:
        try:
            return int(value)
        except (TypeError, ValueError):
            raise _bad(problem or f"invalid {name} specified") from None
