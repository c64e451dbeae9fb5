"""The Bot API's wire rules as the fake applies them: limits, Telegram's error wording,
special senders, the machine-readable method description, and the records the fake keeps
(:class:`Call`, :class:`Chaos`, chats)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

SPEC_ENV = "FAKEBOTAPI_SPEC"
DEFAULT_SPEC = Path(__file__).resolve().parents[2] / "data" / "telegram-bot-api-10.0.json"
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
MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024  # getFile: "bots can download files of up to 20MB in size"
INVALID_FILE_ID = "Bad Request: invalid file_id"  # getFile of a file id Telegram does not know
FILE_TOO_BIG = "Bad Request: file is too big"  # getFile of a file over 20 MB
WRONG_FILE = "Bad Request: wrong file identifier/HTTP URL specified"
URL_FAILED = "Bad Request: failed to get HTTP URL content"  # telegram-bot-api's WEBPAGE_CURL_FAILED
URL_NOT_MEDIA = "Bad Request: wrong type of the web page content"  # WEBPAGE_MEDIA_EMPTY
PHOTO_SIZE_BOXES = (90, 320, 800, 1280, 2560)
"""The longest sides of the sizes Telegram keeps of a photo (thumbnail "s" to "w"): a photo
gets every box smaller than its longest side, then itself (scaled into 2560 px)."""
POLL_PRIVATE_ONLY = "Bad Request: poll can be requested in private chats only"  # TDLib's words
KEYBOARD_TEXT_EMPTY = "Bad Request: keyboard button text must be non-empty"  # TDLib's words
MAX_PLACEHOLDER = 64  # ReplyKeyboardMarkup/ForceReply.input_field_placeholder: "1-64 characters"
MAX_POLL_QUESTION = 300  # Poll.question: "1-300 characters"
MAX_POLL_OPTION = 100  # PollOption.text: "1-100 characters"
MAX_POLL_OPTIONS = 12  # sendPoll.options: "A JSON-serialized list of 1-12 answer options"
MAX_POLL_EXPLANATION = 200  # sendPoll.explanation: "0-200 characters with at most 2 line feeds"
MAX_EXPLANATION_LINE_FEEDS = 2
_OPTION_EMPTY = "Bad Request: text must be non-empty"  # TDLib's words for an empty poll text
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
    "id": 1087968824,
    "is_bot": True,
    "first_name": "Group",
    "username": "GroupAnonymousBot",
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
_FLOOD_METHODS = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "editMessageMedia",
        "sendPhoto",
        "sendDocument",
        "sendSticker",
        "sendPoll",
        "copyMessage",
        "forwardMessage",
    }
)
_CHAT_ACTIONS = frozenset(
    {
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    }
)
# HTML tag -> MessageEntity type (https://core.telegram.org/bots/api#html-style).
_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "span": "spoiler",
    "tg-spoiler": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
    "tg-time": "date_time",
}
BUTTON_STYLES = ("danger", "success", "primary")
"""InlineKeyboardButton.style (Bot API 9.4): "Must be one of "danger" (red), "success" (green)
or "primary" (blue)"."""
BUTTON_STYLE_INVALID = "Bad Request: BUTTON_STYLE_INVALID"
"""The fake's answer to another style (Telegram's wording is not documented; the fake uses
the form of its other button errors, such as BUTTON_DATA_INVALID)."""
DATE_TIME_FORMAT_RE = re.compile(r"r|w?[dD]?[tT]?")
"""MessageEntity.date_time_format (Bot API 9.5, "date-time entity formatting"): "r" (relative
time), or an optional weekday "w", then an optional short "d" or long "D" date, then an optional
short "t" or long "T" time; empty: the text as written."""
# The fields of InlineKeyboardButton of which a button must have exactly one.
_BUTTON_KINDS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_SPACES = " \t\n\r\v\f"
_TOKEN_RE = re.compile(r"\d+:[A-Za-z0-9_-]+")
_PATH_RE = re.compile(r"/bot(?P<token>[^/]*)/(?P<method>[^/]*)/?")
_URL_RE = re.compile(r"(?i)(https?|tg)://\S+")
_COMMAND_RE = re.compile(r"/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{1,64})?")
_COMMAND_NAME_RE = re.compile(r"[a-z0-9_]{1,32}")
_START_PARAMETER_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
"""A deep link's start parameter (Bot API "Deep linking"; InlineQueryResultsButton)."""
_LINK_RE = re.compile(
    r"https://t\.me/(?P<bot>[A-Za-z0-9_]{5,32})"
    r"(?:\?(?P<kind>start|startgroup)=(?P<payload>[^&#]*))?"
)


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

    def __init__(
        self,
        error_code: int,
        description: str,
        parameters: dict | None = None,
        *,
        page: str | None = None,
    ):
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters
        self.page = page
        """An HTML page answered instead of the JSON body: Telegram's front end (nginx)
        answers a 502 or 504 so when the Bot API server behind it is out of reach."""

    def body(self) -> dict[str, Any]:
        """The JSON answer Telegram would send."""
        body: dict[str, Any] = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


FRONT_END_PAGE = (
    "<html>\r\n<head><title>{status}</title></head>\r\n<body>\r\n"
    "<center><h1>{status}</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n"
    "</body>\r\n</html>\r\n"
)
"""The page Telegram's front end answers when the Bot API server behind it fails."""


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
    keyboard: dict | None = None  # the reply keyboard shown (ReplyKeyboardMarkup), if any
    keyboard_hidden: bool = False  # a one-time keyboard after a press (still summonable)

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


def _flag(value: Any) -> bool:
    return value is True or str(value).lower() in ("true", "1")
