"""A screen: a message's text and inline keyboard as plain data. ``bot.telegram`` turns the
keyboard into an ``InlineKeyboardMarkup``; ``quizbot play`` prints it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from bot.render.callbacks import CallbackButton
from bot.render.limits import MAX_MESSAGE_UTF16
from bot.render.text import Markup

MAX_BUTTON_LABEL = 64
"""Characters of a button label made from bank text (a title); longer ones are clipped with
"…" (Telegram shows a button's text on one line, cut by the client)."""


@dataclass(frozen=True)
class UrlButton:
    """An inline keyboard button that opens ``url``."""

    url: str


@dataclass(frozen=True)
class ShareButton:
    """An inline keyboard button that lets the user pick a chat and types "@<bot> ``query``"
    into its input field, so the bot's inline results come up there (Bot API
    ``InlineKeyboardButton.switch_inline_query``)."""

    query: str


class ButtonStyle(StrEnum):
    """A button's colour in Telegram's apps (Bot API 9.4, ``InlineKeyboardButton.style``;
    apps that predate it show the button plainly, so a label must say the same)."""

    SUCCESS = "success"  # green
    DANGER = "danger"  # red


@dataclass(frozen=True)
class Button:
    """An inline keyboard button: a label and callback data, a URL, or a share action; and
    its style, if any."""

    label: str
    action: CallbackButton | UrlButton | ShareButton
    style: ButtonStyle | None = None


@dataclass(frozen=True)
class Screen:
    """A message to show: text (in the markup it was rendered with), a keyboard (rows), and
    a photo (an https URL or a Telegram file_id) sent with it: as the photo's caption when
    the text fits one, else the photo first (``bot.telegram.common.send``)."""

    text: str
    keyboard: tuple[tuple[Button, ...], ...] = field(default=())
    photo: str | None = None
    photo_note: str = ""
    """Put above the text when the photo cannot be sent (Telegram could not fetch it)."""


LANGUAGES_PER_ROW = 3
"""Language buttons in a row of the language pickers (/language, a group's /settings)."""


def rows_of(buttons: Sequence[Button], size: int) -> tuple[tuple[Button, ...], ...]:
    """``buttons`` in rows of ``size`` (the last one shorter)."""
    return tuple(tuple(buttons[i : i + size]) for i in range(0, len(buttons), size))


def as_screens(
    text: str,
    m: Markup,
    keyboard: tuple[tuple[Button, ...], ...] = (),
    limit: int = MAX_MESSAGE_UTF16,
) -> list[Screen]:
    """``text`` as one or more screens of at most ``limit`` visible UTF-16 units each (split
    by ``m.chunks``), the keyboard on the last one (it follows what the user read)."""
    texts = m.chunks(text, limit) or [text]
    return [Screen(part) for part in texts[:-1]] + [Screen(texts[-1], keyboard)]
