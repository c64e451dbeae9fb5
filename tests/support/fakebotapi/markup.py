"""Message markup as Telegram reads it: HTML parsed into text and entities (UTF-16
offsets), inline keyboards checked, entities of what users type."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

from tests.support.fakebotapi.protocol import (
    _BUTTON_KINDS,
    _COMMAND_RE,
    _HTML_TAGS,
    _SPACES,
    _URL_RE,
    BUTTON_STYLE_INVALID,
    BUTTON_STYLES,
    BUTTON_TEXT_EMPTY,
    DATE_TIME_FORMAT_RE,
    MARKUP_TOO_LONG,
    MAX_CALLBACK_DATA_BYTES,
    MAX_INLINE_BUTTONS,
    ApiError,
    _bad,
    utf16_len,
)


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
        char = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}.get(s[i + 1 : j])
        if char is None:
            return None, i
    return char, j + (j < n and s[j] == ";")


def parse_html(source: str, *, strict_ampersand: bool = True) -> tuple[str, list[dict[str, Any]]]:  # noqa: C901 - Telegram's HTML parser, tag by tag
    """Parse text sent with ``parse_mode="HTML"`` the way Telegram (TDLib) does.

    Supported (https://core.telegram.org/bots/api#html-style): b, strong, i, em, u, ins, s,
    strike, del, tg-spoiler, span class="tg-spoiler", a href, code (class="language-x" inside
    pre), pre, blockquote (expandable), tg-emoji emoji-id, tg-time unix (a whole Unix time,
    required) and format (optional: :data:`DATE_TIME_FORMAT_RE`; Bot API 9.5); character
    references &lt; &gt; &amp; &quot; and numeric ones. Tag and attribute names are
    case-insensitive.

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
                raise fail(f'Character entity expected {at(i)}; escape "&" as "&amp;"')
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
            name = source[i + 1 : j]
            while j < n and source[j] in _SPACES:
                j += 1
            if j >= n or source[j] != ">":
                raise fail(f"Unclosed end tag {at(begin)}")
            tag, argument, start, out_start = stack.pop()
            if name and name.lower() != tag:
                raise fail(f'Unmatched end tag {at(begin)}, expected "</{tag}>", found "</{name}>"')
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
        if tag == "tg-time":
            unix, _, style = argument.partition(" ")
            if not unix.isdigit():
                raise fail(f'Tag "tg-time" must have a valid attribute "unix" {at(begin)}')
            if not DATE_TIME_FORMAT_RE.fullmatch(style):
                raise fail(f'Invalid date and time format "{style}" specified {at(begin)}')
        stack.append((tag, argument, offset, len(out)))
    if stack:
        raise fail(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    for entity in entities:
        entity.pop("_language", None)
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def _parse_attributes(  # noqa: C901 - attribute syntax per tag
    s: str,
    i: int,
    tag: str,
    begin: int,
    fail: Callable[[str], ApiError],
    at: Callable[[int], str],
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
        elif tag == "tg-time" and name in ("unix", "format"):  # argument: "unix format"
            unix, _, style = argument.partition(" ")
            argument = f"{value} {style}" if name == "unix" else f"{unix} {value}"


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
    elif tag == "tg-time":
        unix, _, style = argument.partition(" ")
        entity["unix_time"] = int(unix)
        if style:
            entity["date_time_format"] = style
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


def _inline_keyboard(markup: Any, *, edit: bool) -> dict | None:  # noqa: C901 - one check per Bot API rule
    """Validate a reply_markup; return the InlineKeyboardMarkup a Message echoes, or None.

    Enforces https://core.telegram.org/bots/api#inlinekeyboardbutton: exactly one action
    field per button, callback_data of 1-64 bytes (UTF-8), url of scheme http, https or tg;
    a non-empty text (TDLib's "Inline keyboard button text must be non-empty"); a ``style``, if
    any, of :data:`BUTTON_STYLES` (Bot API 9.4); and at most
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
        if button.get("style") is not None and button["style"] not in BUTTON_STYLES:
            raise ApiError(400, BUTTON_STYLE_INVALID)
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
