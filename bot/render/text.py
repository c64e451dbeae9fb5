"""Markup and text lengths: Telegram HTML or plain terminal text (:class:`Markup`), lengths in
UTF-16 units as Telegram counts them, clipping, and splitting long texts into messages of at most
4,096 UTF-16 units (:data:`~bot.render.limits.MAX_MESSAGE_UTF16`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Protocol

from bot.render.limits import MAX_MESSAGE_UTF16


class Markup(Protocol):
    """How a screen formats text: Telegram HTML or plain terminal text."""

    several_hint: str
    """The message key of the hint under a question with several right options (Telegram's
    buttons are tapped, then Submit; the terminal's letters are typed)."""

    def escape(self, text: str) -> str:
        """Make plain text safe to embed."""
        ...

    def bold(self, text: str) -> str:
        """Bold plain text."""
        ...

    def italic(self, text: str) -> str:
        """Italic plain text."""
        ...

    def link(self, text: str, url: str) -> str:
        """A link with plain text ``text``."""
        ...

    def time(self, text: str, when: float) -> str:
        """Plain text ``text`` that writes the moment ``when`` (seconds since the epoch)."""
        ...

    def copyable(self, text: str) -> str:
        """Plain text the reader copies whole with one tap (a text to send back edited)."""
        ...

    def length(self, text: str) -> int:
        """The length of marked-up ``text`` as the reader sees it, in UTF-16 units."""
        ...

    def chunks(self, text: str, limit: int) -> list[str]:
        """Marked-up ``text`` split into texts of at most ``limit`` visible UTF-16 units."""
        ...


class Html:
    """Telegram HTML (Bot API "HTML style"): only ``<``, ``>``, ``&`` and ``"`` need escaping."""

    several_hint = "select_all"

    def escape(self, text: str) -> str:
        """Escape ``<``, ``>``, ``&`` and ``"`` as HTML entities."""
        return html.escape(text, quote=True)

    def bold(self, text: str) -> str:
        """``<b>`` around escaped text."""
        return f"<b>{self.escape(text)}</b>"

    def italic(self, text: str) -> str:
        """``<i>`` around escaped text."""
        return f"<i>{self.escape(text)}</i>"

    def link(self, text: str, url: str) -> str:
        """``<a href>`` with the URL and the text escaped."""
        return f'<a href="{self.escape(url)}">{self.escape(text)}</a>'

    def time(self, text: str, when: float) -> str:
        """``<tg-time>`` around escaped text: a ``date_time`` entity (Bot API 9.5) with the
        Unix time of ``when`` and no format, so the text shows as written (in the chat's zone,
        which it names) and each reader's app can tell them the moment in their own zone;
        apps that predate it show the text."""
        return f'<tg-time unix="{int(when)}">{self.escape(text)}</tg-time>'

    def copyable(self, text: str) -> str:
        """A ``<pre>`` block: Telegram's apps give it a copy button."""
        return f"<pre>{self.escape(text)}</pre>"

    def length(self, text: str) -> int:
        """The visible length of Telegram HTML, see :func:`html_length`."""
        return html_length(text)

    def chunks(self, text: str, limit: int) -> list[str]:
        """Telegram HTML split at line boundaries, see :func:`split_html`."""
        return split_html(text, limit)


class Plain:
    """Terminal text: nothing to escape, no formatting; links show their URL."""

    several_hint = "play.select_all"

    def escape(self, text: str) -> str:
        """Return text unchanged."""
        return text

    def bold(self, text: str) -> str:
        """Return text unchanged."""
        return text

    def italic(self, text: str) -> str:
        """Return text unchanged."""
        return text

    def link(self, text: str, url: str) -> str:
        """``text (url)``."""
        return f"{text} ({url})"

    def time(self, text: str, when: float) -> str:
        """Return text unchanged."""
        return text

    def copyable(self, text: str) -> str:
        """Return text unchanged."""
        return text

    def length(self, text: str) -> int:
        """UTF-16 units of the text itself."""
        return utf16_length(text)

    def chunks(self, text: str, limit: int) -> list[str]:
        """``[text]``: a terminal has no message length limit."""
        return [text]


HTML = Html()
PLAIN = Plain()

TIME_SLOT = "\x00"
"""Where :func:`timed` puts a moment: a character no catalog text or name holds."""


def timed(m: Markup, text: str, shown: str, when: float) -> str:
    """Plain ``text`` escaped, its :data:`TIME_SLOT` replaced by ``shown`` marked as the
    moment ``when`` (:meth:`Markup.time`): a message from the catalog whose date placeholder
    was given :data:`TIME_SLOT`."""
    return m.escape(text).replace(TIME_SLOT, m.time(shown, when), 1)


def clip(text: str, limit: int = 64) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis: for echoing what a user typed
    (a deep-link payload, a bank name) without overflowing a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's text limits."""
    if text.isascii():  # one unit per character, without encoding
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def clip_utf16(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-16 units, the cut marked with "…".

    Cuts between code points, so a surrogate pair (an emoji) is never halved. For Telegram's
    limits counted in UTF-16 units, such as a toast's 200 (:data:`MAX_TOAST_UTF16`).

    Raises:
        ValueError: ``limit`` is below 1 (no room for the ellipsis).
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if utf16_length(text) <= limit:
        return text
    kept, size = [], 1  # the ellipsis is one unit
    for char in text:
        size += utf16_length(char)
        if size > limit:
            break
        kept.append(char)
    return "".join(kept) + "…"


_HTML_TOKEN = re.compile(r"<[^>]*>|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z]+);|.", re.DOTALL)
"""A tag, a character reference, or one character (code point) of Telegram HTML."""
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")


def _token_length(token: str) -> int:
    """Visible UTF-16 units of an :data:`_HTML_TOKEN`: 0 for a tag, the decoded character for a
    character reference (``&amp;`` is one unit)."""
    if token[0] == "<" and len(token) > 1:
        return 0
    if token[0] == "&" and len(token) > 1:
        return utf16_length(html.unescape(token))
    return utf16_length(token)


def html_length(text: str) -> int:
    """The length of Telegram HTML after entity parsing, in UTF-16 units: tags count nothing,
    a character reference counts as the character it stands for.

    This is what the Bot API limits ("1-4096 characters after entities parsing",
    ``sendMessage``). It assumes well-formed markup as :class:`Html` makes it (every ``<`` in
    text escaped); Telegram also trims leading and trailing whitespace, which only shortens.
    """
    return sum(_token_length(token) for token in _HTML_TOKEN.findall(text))


def split_html(text: str, limit: int = MAX_MESSAGE_UTF16) -> list[str]:  # noqa: C901 - one pass keeps tags and references whole
    """Split Telegram HTML into messages of at most ``limit`` UTF-16 units after parsing.

    Texts are filled greedily with whole lines; the line break where one text ends is dropped.
    A line longer than ``limit`` on its own is cut between characters (code points). A tag or
    character reference is never cut: a tag still open where a text ends is closed there and
    opened again (with the same attributes) at the start of the next text, so every text is
    well-formed and keeps its formatting. Texts that would be blank are left out (Telegram
    refuses an empty message). Markup is expected as :class:`Html` makes it.

    Args:
        text: Telegram HTML (``parse_mode`` HTML).
        limit: Visible UTF-16 units per text; Bot API ``sendMessage`` allows 4096.

    Returns:
        The texts in order (one, unchanged, when ``text`` fits; none when it is blank).

    Raises:
        ValueError: ``limit`` is below 2 (an astral character needs two units).
    """
    if limit < 2:
        raise ValueError(f"limit must be at least 2, got {limit}")
    if html_length(text) <= limit:
        return [text] if text.strip() else []
    texts: list[str] = []
    open_tags: list[str] = []  # start tags open at the current point
    parts: list[str] = []  # the current text, starting with the tags it reopens
    size = 0  # visible units of the current text
    started = False  # whether the current text holds a line (so the next needs a line break)
    blank = True  # whether the current text is all whitespace so far

    def add(token: str, width: int) -> None:
        nonlocal size, blank
        parts.append(token)
        size += width
        if token[0] == "<" and len(token) > 1:
            if token.startswith("</"):
                if open_tags:
                    open_tags.pop()
            else:
                open_tags.append(token)
        elif blank and width and not html.unescape(token).isspace():
            blank = False

    def flush() -> None:
        nonlocal parts, size, started, blank
        if not blank:
            closing = (
                f"</{_TAG_NAME.match(tag)[1]}>"  # type: ignore[index]
                for tag in reversed(open_tags)
            )
            texts.append("".join(parts) + "".join(closing))
        parts, size, started, blank = list(open_tags), 0, False, True

    for line in text.split("\n"):
        tokens = _HTML_TOKEN.findall(line)
        widths = [_token_length(token) for token in tokens]
        width = sum(widths)
        if started and size + 1 + width > limit:
            flush()
        if width <= limit - size - started:
            if started:
                add("\n", 1)
            for token, token_width in zip(tokens, widths, strict=True):
                add(token, token_width)
            started = True
            continue
        for token, token_width in zip(tokens, widths, strict=True):  # a line over the limit
            if size + token_width > limit:
                flush()
            add(token, token_width)
        started = True
    flush()
    return texts


def pack(
    blocks: Iterable[str], limit: int = MAX_MESSAGE_UTF16, separator: str = "\n\n", m: Markup = HTML
) -> list[str]:
    """Join blocks into as few texts as possible, each at most ``limit`` UTF-16 units as
    measured by ``m.length`` (for HTML: after entity parsing, as Telegram counts).

    A block that fits is never split across texts; a block over the limit on its own is split
    by ``m.chunks`` (at line boundaries, see :func:`split_html`). Blocks must be balanced markup
    (every tag closed), so lengths add up.
    """
    texts: list[str] = []
    sizes: list[int] = []
    gap = m.length(separator)
    for block in blocks:
        for part in m.chunks(block, limit):
            size = m.length(part)
            if texts and sizes[-1] + gap + size <= limit:
                texts[-1] += separator + part
                sizes[-1] += gap + size
            else:
                texts.append(part)
                sizes.append(size)
    return texts
