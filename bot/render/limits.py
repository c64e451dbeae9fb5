"""Telegram's size limits that the screens keep to, in one place (Bot API and app config).

Counted in the unit Telegram counts them in: UTF-16 code units for texts (after entity parsing),
bytes for callback data, characters for deep-link payloads. Not to be confused with
:mod:`bot.telegram.limits`, the rate limits (how often the bot may call the Bot API).
"""

from __future__ import annotations

MAX_CALLBACK_DATA_BYTES = 64
"""Bot API: ``InlineKeyboardButton.callback_data`` is 1-64 bytes."""

MAX_MESSAGE_UTF16 = 4096
"""Bot API: message text is 1-4096 characters after entity parsing, counted in UTF-16 units."""

MAX_CAPTION_UTF16 = 1024
"""Bot API ``sendPhoto``: a caption is 0-1024 characters after entities parsing."""

MAX_TOAST_UTF16 = 200
"""Bot API ``answerCallbackQuery``: the notification text is 0-200 characters (UTF-16 units)."""

MAX_KEYBOARD_BUTTONS = 100
"""Telegram refuses an inline keyboard of more than 100 buttons (``BUTTONS_TOO_MUCH``;
``inline_keyboard_button_count_max`` in https://core.telegram.org/api/config)."""

MAX_START_PAYLOAD = 64
"""Bot API deep linking: a ``start`` parameter is 1-64 characters of ``A-Z``, ``a-z``, ``0-9``,
``_`` and ``-`` (https://core.telegram.org/bots/features#deep-linking)."""

MAX_RESULTS_BUTTON = 64
"""UTF-16 units of the text of the button above inline results (Bot API
``InlineQueryResultsButton``; its predecessor ``switch_pm_text`` was 1-64 characters)."""
