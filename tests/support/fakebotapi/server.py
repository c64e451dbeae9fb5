"""The fake Bot API server: its state, lifecycle and shared helpers; the methods of each
part live in their mixins (people, driving, inline, observing, faults, http, updates,
messages, chats, files, polls, media, keyboards, channels)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import copy
import itertools
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
from aiohttp import web

from tests.support.fakebotapi.channels import ChannelsMixin
from tests.support.fakebotapi.chats import ChatsMixin
from tests.support.fakebotapi.driving import DrivingMixin
from tests.support.fakebotapi.faults import FaultsMixin
from tests.support.fakebotapi.files import FilesMixin, StoredFile
from tests.support.fakebotapi.http import HttpMixin
from tests.support.fakebotapi.inline import InlineMixin
from tests.support.fakebotapi.keyboards import KeyboardsMixin
from tests.support.fakebotapi.media import MediaMixin
from tests.support.fakebotapi.messages import MessagesMixin
from tests.support.fakebotapi.observing import ObservingMixin
from tests.support.fakebotapi.people import PeopleMixin
from tests.support.fakebotapi.polls import PollsMixin
from tests.support.fakebotapi.protocol import (
    _MISSING,
    BLOCKED,
    CHAT_NOT_FOUND,
    DEFAULT_SPEC,
    SPEC_ENV,
    ApiError,
    Call,
    Chaos,
    _bad,
    _Chat,
    _load_spec,
)
from tests.support.fakebotapi.updates import UpdatesMixin

_SERVERS = itertools.count()
"""Servers made in this process (each one's callback query ids are its own)."""


class FakeBotAPI(
    PeopleMixin,
    DrivingMixin,
    InlineMixin,
    ObservingMixin,
    FaultsMixin,
    HttpMixin,
    UpdatesMixin,
    MessagesMixin,
    ChatsMixin,
    FilesMixin,
    PollsMixin,
    MediaMixin,
    KeyboardsMixin,
    ChannelsMixin,
):
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
        bot_limit_per_second: If set, the most sends and edits (see _FLOOD_METHODS) the bot may
            make in all, to every chat together, in any rolling second (Telegram's broadcasting
            limit, "no more than 30 messages per second", Bot API FAQ); more answer 429.
            Sends with ``allow_paid_broadcast`` do not count (Bot API: "ignoring broadcasting
            limits"): they have :attr:`paid_limit_per_second`.
        paid_limit_per_second: The most sends with ``allow_paid_broadcast`` in any rolling
            second (Bot API: "up to 1000 messages per second"), when ``bot_limit_per_second``
            is set.
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
        self.bot_limit_per_second: int | None = None
        self.paid_limit_per_second = 1000
        self._bot_sends: dict[bool, collections.deque[float]] = {
            False: collections.deque(),
            True: collections.deque(),
        }  # paid? -> clock times
        self.calls: list[Call] = []
        self.callback_answers: dict[str, dict] = {}
        self.commands: dict[tuple[str, str], list[dict]] = {}
        self.photos: dict[tuple[int, int], bytes] = {}
        """(chat id, message id) -> the bytes of a photo uploaded with sendPhoto."""
        self.bot_user = {
            "id": bot_id,
            "is_bot": True,
            "first_name": "Quizbot Test",
            "username": bot_username,
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
        self._bot_rights: dict[int, dict[str, bool]] = {}  # channel id -> the bot's rights
        self._bot_posts: set[tuple[int, int]] = set()  # (channel id, message id) the bot sent
        self._updates: list[dict] = []
        self._next_update_id = 1
        self._allowed: frozenset[str] | None = None  # None: Telegram's default set
        self._queries: dict[str, float] = {}  # callback query id -> clock time of the tap
        # query ids are unique across Telegram (the bot's error handler keeps those it
        # answered, process-wide): each server in a process starts its own range
        self._query_ids = itertools.count(4_611_686_018_427_387_904 + next(_SERVERS) * 10**9)
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
        self.files: dict[str, StoredFile] = {}
        """Every file the fake knows (users' documents and photo sizes, the bot's uploads), by
        file id: what getFile and the download URL serve."""
        self._file_paths: dict[str, StoredFile] = {}
        self._photo_groups: dict[str, list[dict]] = {}  # file id -> the PhotoSizes of its photo
        self._document_meta: dict[str, dict] = {}  # file id -> the Document the bot sent
        self.reply_markups: dict[tuple[int, int], dict] = {}
        """(chat id, message id) -> the ReplyKeyboardMarkup, ReplyKeyboardRemove or ForceReply
        the bot sent with the message (normalised; see keyboards.reply_markup)."""
        self.downloads: list[tuple[str, int]] = []
        """Every request to the file download URL: (file_path, HTTP status)."""
        self.web_files: dict[str, bytes] = {}
        """What the fake's "Internet" serves: URL -> bytes, for a photo or document the bot
        sends by HTTP URL (others answer "failed to get HTTP URL content")."""
        self._poll_ids = itertools.count(5_395_021_438_761_230_001)
        self._forward_ids = itertools.count(1)
        self._album_ids = itertools.count(13_841_726_300_416_001)  # media_group_id's shape
        self.observers: list[Callable[[Call], None]] = []
        """Called with every answered call (for load generators that react to the bot)."""
        self._wakeup = asyncio.Event()
        self._changed = asyncio.Event()  # set and replaced by signal(): wakes every wait_for
        self._poll: asyncio.Event | None = None  # set to terminate the waiting getUpdates
        self._closing = False
        self._runner: web.AppRunner | None = None
        self._handlers: dict[str, Callable[[dict], Any]] = {
            "getMe": lambda p: {
                **self.bot_user,
                "can_join_groups": True,
                "can_read_all_group_messages": False,
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
            "editMessageCaption": self._edit_message_caption,
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
            "getFile": self._get_file,
            "sendPoll": self._send_poll,
        }

    # -- lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving on 127.0.0.1 on an ephemeral port and set :attr:`base_url` (and so
        :attr:`base_file_url`)."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/file/bot{token}/{file_path:.+}", self._download)
        app.router.add_route("*", "/{path:.*}", self._handle)
        self._runner = web.AppRunner(
            app,
            handle_signals=False,
            access_log=None,
            handler_cancellation=True,
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
