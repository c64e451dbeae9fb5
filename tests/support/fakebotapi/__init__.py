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

What the fake models (each covered by tests/fakebotapi/test_fakebotapi.py):

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
  "message is not modified", edits of missing/foreign messages, deleteMessage. Bot API 9.4's
  button ``style`` ("danger", "success" or "primary", echoed in the message's keyboard) and
  9.5's ``date_time`` entities (HTML ``<tg-time unix="..." format="...">``: a whole Unix time,
  a format as "date-time entity formatting" allows; the entity carries ``unix_time`` and
  ``date_time_format``).
* Callback queries: taps (also forged ones, ``check_button=False``), one answer within
  ``query_ttl`` s, answer text <= 200 UTF-16 units ("MESSAGE_TOO_LONG").
* Inline mode (``inline_mode``, what BotFather's /setinline turns on; getMe's
  ``supports_inline_queries``): inline queries (:meth:`FakeBotAPI.inline_query`), one
  answerInlineQuery within ``query_ttl`` s with at most 50 results of unique 1-64-byte ids,
  articles checked like messages, the chosen article posted into a chat ``via_bot``
  (:meth:`FakeBotAPI.choose_inline_result`; chosen_inline_result updates only with
  ``inline_feedback``, BotFather's /setinlinefeedback), and t.me deep links followed
  (:meth:`FakeBotAPI.follow_link`: ``?start=`` in the private chat, ``?startgroup=`` in a group);
  covered by tests/fakebotapi/test_fakebotapi_inline.py.
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
* Channels (covered by tests/fakebotapi/test_fakebotapi_channels.py): the bot added as an
  administrator (:meth:`FakeBotAPI.add_channel`, :meth:`FakeBotAPI.promote_bot`) or demoted
  (:meth:`FakeBotAPI.demote_bot`), each a my_chat_member Update; its posts without ``from``,
  taps on them by anyone, edits of them, and "need administrator rights in the channel chat"
  / "member list is inaccessible" once it lost its rights.
* Messages deleted by people (:meth:`FakeBotAPI.delete_message`): edits find nothing.
* Flood control: per group per minute, per private chat per second, per bot per second in
  all (``bot_limit_per_second``; sends with ``allow_paid_broadcast`` have their own,
  ``paid_limit_per_second``), injected per chat (:meth:`FakeBotAPI.flood`): 429 "Too Many
  Requests: retry after N" with ``retry_after``.
* Faults: injected errors per method, dropped connections, latency, random chaos.
* For quiz creators (covered by tests/fakebotapi/test_fakebotapi_creators.py): polls users
  send or forward
  (:meth:`FakeBotAPI.send_poll`; Bot API 9.6+ ``correct_option_ids``, hidden for an open quiz
  not sent to the bot's private chat), documents and photos users send
  (:meth:`FakeBotAPI.send_document`, :meth:`FakeBotAPI.send_photo`: several PhotoSizes),
  replies (``reply_to``), getFile ("invalid file_id", "file is too big" over 20 MB) and the
  download URL ``/file/bot<token>/<file_path>`` (:attr:`FakeBotAPI.base_file_url`), the
  bot's photos and documents by upload, file id or URL (:attr:`FakeBotAPI.web_files`),
  editMessageCaption, reply keyboards with KeyboardButtonPollType (private chats only),
  ReplyKeyboardRemove and ForceReply (:attr:`FakeBotAPI.reply_markups`,
  :meth:`FakeBotAPI.reply_keyboard`, :meth:`FakeBotAPI.press`).

Rules follow https://core.telegram.org/bots/api; error descriptions are Telegram's own wording
(telegram-bot-api and TDLib) where known. Method names and required parameters come from the
machine-readable Bot API 10.0 description, the version python-telegram-bot 22.8 implements:
by default ``tests/data/telegram-bot-api-10.0.json`` in the repository (where it comes from:
``tests/data/telegram-bot-api-SOURCE.txt``), or the file named by the ``FAKEBOTAPI_SPEC``
environment variable.

To talk to the bot through the fake by hand: ``python -m tests.support.sandbox``
(docs/development.md, "Trying the bot by hand").

Layout: ``server.py`` holds :class:`FakeBotAPI` (its state, lifecycle and helpers), made of one
mixin per part: ``people`` (simulated people and chats), ``driving`` (what users do), ``inline``
(inline mode and the update queue), ``observing`` (calls, chats, :meth:`FakeBotAPI.wait_for`),
``faults``, ``http`` (the handler and dispatch), ``updates`` (getUpdates, webhooks),
``messages`` and ``chats`` (members, commands), ``files`` (users' files, getFile, downloads),
``polls``, ``media`` (the bot's photos and documents, captions), ``keyboards`` (reply
keyboards) and ``channels`` (the bot as a channel's administrator); ``protocol.py`` has the
wire rules and records, ``markup.py`` the HTML and inline
keyboard rules.

Everything runs on the test's event loop: call the driving methods from that loop's thread only.
"""

from __future__ import annotations

from tests.support.fakebotapi.files import StoredFile, sample_jpeg
from tests.support.fakebotapi.markup import parse_html
from tests.support.fakebotapi.protocol import (
    BLOCKED,
    BUTTON_STYLE_INVALID,
    BUTTON_STYLES,
    BUTTON_TEXT_EMPTY,
    CAPTION_TOO_LONG,
    CHANNEL_BOT,
    CHAT_NOT_FOUND,
    CONFLICT_POLLING,
    CONFLICT_WEBHOOK,
    DEFAULT_SPEC,
    FILE_TOO_BIG,
    FLOOD_WINDOW,
    GROUP_ANONYMOUS_BOT,
    GROUP_MIGRATED,
    INLINE_CHAT_TYPES,
    INVALID_FILE_ID,
    KEYBOARD_TEXT_EMPTY,
    MARKUP_TOO_LONG,
    MAX_CALLBACK_ANSWER_UTF16,
    MAX_CALLBACK_DATA_BYTES,
    MAX_CAPTION_UTF16,
    MAX_DOWNLOAD_BYTES,
    MAX_INLINE_BUTTONS,
    MAX_INLINE_QUERY,
    MAX_INLINE_RESULTS,
    MAX_NEXT_OFFSET_BYTES,
    MAX_PHOTO_BYTES,
    MAX_PHOTO_RATIO,
    MAX_PHOTO_SIDES,
    MAX_RESULT_ID_BYTES,
    MAX_TEXT_UTF16,
    MAX_UPLOAD_BYTES,
    NEXT_OFFSET_INVALID,
    NOT_FOUND,
    NOT_MODIFIED,
    PHOTO_INVALID_DIMENSIONS,
    PHOTO_NOT_IMAGE,
    PHOTO_TOO_BIG,
    POLL_PRIVATE_ONLY,
    PRIVATE_FLOOD_WINDOW,
    QUERY_TOO_OLD,
    RESULT_ID_DUPLICATE,
    RESULT_ID_INVALID,
    RESULTS_TOO_MUCH,
    SPEC_ENV,
    START_PARAM_INVALID,
    TELEGRAM_SERVICE,
    TEXT_EMPTY,
    THREAD_NOT_FOUND,
    TOPIC_ICON_COLOR,
    UNAUTHORIZED,
    URL_FAILED,
    URL_NOT_MEDIA,
    WAIT_TIMEOUT,
    WRONG_FILE,
    ApiError,
    Call,
    Chaos,
    utf16_len,
)
from tests.support.fakebotapi.server import FakeBotAPI

__all__ = [
    "BLOCKED",
    "BUTTON_STYLES",
    "BUTTON_STYLE_INVALID",
    "BUTTON_TEXT_EMPTY",
    "CAPTION_TOO_LONG",
    "CHANNEL_BOT",
    "CHAT_NOT_FOUND",
    "CONFLICT_POLLING",
    "CONFLICT_WEBHOOK",
    "DEFAULT_SPEC",
    "FILE_TOO_BIG",
    "FLOOD_WINDOW",
    "GROUP_ANONYMOUS_BOT",
    "GROUP_MIGRATED",
    "INLINE_CHAT_TYPES",
    "INVALID_FILE_ID",
    "KEYBOARD_TEXT_EMPTY",
    "MARKUP_TOO_LONG",
    "MAX_CALLBACK_ANSWER_UTF16",
    "MAX_CALLBACK_DATA_BYTES",
    "MAX_CAPTION_UTF16",
    "MAX_DOWNLOAD_BYTES",
    "MAX_INLINE_BUTTONS",
    "MAX_INLINE_QUERY",
    "MAX_INLINE_RESULTS",
    "MAX_NEXT_OFFSET_BYTES",
    "MAX_PHOTO_BYTES",
    "MAX_PHOTO_RATIO",
    "MAX_PHOTO_SIDES",
    "MAX_RESULT_ID_BYTES",
    "MAX_TEXT_UTF16",
    "MAX_UPLOAD_BYTES",
    "NEXT_OFFSET_INVALID",
    "NOT_FOUND",
    "NOT_MODIFIED",
    "PHOTO_INVALID_DIMENSIONS",
    "PHOTO_NOT_IMAGE",
    "PHOTO_TOO_BIG",
    "POLL_PRIVATE_ONLY",
    "PRIVATE_FLOOD_WINDOW",
    "QUERY_TOO_OLD",
    "RESULTS_TOO_MUCH",
    "RESULT_ID_DUPLICATE",
    "RESULT_ID_INVALID",
    "SPEC_ENV",
    "START_PARAM_INVALID",
    "TELEGRAM_SERVICE",
    "TEXT_EMPTY",
    "THREAD_NOT_FOUND",
    "TOPIC_ICON_COLOR",
    "UNAUTHORIZED",
    "URL_FAILED",
    "URL_NOT_MEDIA",
    "WAIT_TIMEOUT",
    "WRONG_FILE",
    "ApiError",
    "Call",
    "Chaos",
    "FakeBotAPI",
    "StoredFile",
    "parse_html",
    "sample_jpeg",
    "utf16_len",
]
