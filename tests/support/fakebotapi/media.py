"""The bot's photos and documents: sendPhoto and sendDocument (an upload, a file id the fake
knows, or an HTTP URL), and editMessageCaption.

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
import io
import mimetypes
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from tests.support.fakebotapi.markup import _inline_keyboard
from tests.support.fakebotapi.protocol import (
    CAPTION_TOO_LONG,
    MAX_CAPTION_UTF16,
    MAX_PHOTO_BYTES,
    MAX_PHOTO_RATIO,
    MAX_PHOTO_SIDES,
    MAX_UPLOAD_BYTES,
    NOT_MODIFIED,
    PHOTO_INVALID_DIMENSIONS,
    PHOTO_NOT_IMAGE,
    PHOTO_TOO_BIG,
    URL_FAILED,
    URL_NOT_MEDIA,
    WRONG_FILE,
    ApiError,
    _bad,
    _Chat,
)

_MEDIA_KINDS = ("photo", "document", "video", "audio", "animation", "voice")
_URL_DOCUMENT_TYPES = ("image/gif", "application/pdf", "application/zip")


class MediaMixin:
    """The bot's photos and documents, and editMessageCaption."""

    def _send_photo(self, p: dict) -> dict:
        """sendPhoto of an upload (multipart), a file id of a photo the fake knows (a user's,
        or one the bot sent: the same PhotoSizes again) or an HTTP URL served by
        :attr:`web_files`. A new picture is at most 10 MB, width + height at most 10,000 px,
        aspect ratio at most 20 (decoded with Pillow, as Telegram decodes it) and is kept in
        several sizes like a user's photo; caption 0-1024 UTF-16 units after parsing; reply
        markup and replies as for messages. Telegram's refusals: "wrong file identifier/HTTP
        URL specified", "can't use file of type Document as Photo", "failed to get HTTP URL
        content", "wrong type of the web page content", IMAGE_PROCESS_FAILED,
        PHOTO_INVALID_DIMENSIONS, "file is too big"."""
        chat = self._chat_of(p, sending=True)
        photo = p.get("photo")
        if isinstance(photo, str) and not _is_url(photo):
            sizes = self._photo_groups.get(photo)
            if sizes is None:
                known = self.files.get(photo)
                if known is not None:
                    raise _bad(f"can't use file of type {known.kind.title()} as Photo")
                raise ApiError(400, WRONG_FILE)
            data = self.files[sizes[-1]["file_id"]].data
        else:
            data = self._fetch(photo, not_media=URL_NOT_MEDIA)
            try:
                _check_picture(data)
            except ApiError as error:
                if isinstance(photo, str) and error.description == PHOTO_NOT_IMAGE:
                    raise ApiError(400, URL_NOT_MEDIA) from None  # a page, not a picture
                raise
            sizes = None
        caption = self._caption(p)
        markup = self._send_markup(chat, p)
        reply_to = self._reply_to(chat, p)
        topic = self._thread(chat, p)
        self._check_flood(chat, "sendPhoto")
        if sizes is None:
            sizes = self._photo_sizes(data)
        fields: dict[str, Any] = {
            "from": self.bot_user,
            **topic,
            "photo": copy.deepcopy(sizes),
            **caption,
        }
        return self._post_media(chat, p, fields, markup, reply_to, data=data)

    def _send_document(self, p: dict) -> dict:
        """sendDocument of an upload (multipart/form-data; a non-empty file of at most 50 MB:
        "Bots can currently send files of up to 50 MB in size"), a file id of a document the
        fake knows, or an HTTP URL served by :attr:`web_files`; caption 0-1024 UTF-16 units
        after parsing; reply markup and replies as for messages. An upload's bytes are also kept
        in :attr:`documents` by file id. Unknown file ids answer "wrong file identifier/HTTP
        URL specified"; by URL only GIF, PDF and ZIP files can be sent (the Bot API's "Sending
        files"), others answer "wrong type of the web page content"."""
        chat = self._chat_of(p, sending=True)
        upload = p.get("document")
        document: dict[str, Any] | None = None
        if isinstance(upload, str) and not _is_url(upload):
            document = self._document_meta.get(upload)
            if document is None:
                known = self.files.get(upload)
                if known is not None:
                    raise _bad(f"can't use file of type {known.kind.title()} as Document")
                raise ApiError(400, WRONG_FILE)
        elif isinstance(upload, dict) and "data" in upload:
            if not upload["data"]:
                raise _bad("file must be non-empty")
            if upload["size"] > MAX_UPLOAD_BYTES:
                raise ApiError(413, "Request Entity Too Large")
        caption = self._caption(p)
        markup = self._send_markup(chat, p)
        reply_to = self._reply_to(chat, p)
        topic = self._thread(chat, p)
        if document is None:
            if isinstance(upload, dict) and "data" in upload:
                data, name = upload["data"], upload["filename"] or "file"
                mime = upload["content_type"]
            else:
                data = self._fetch(upload, not_media=URL_NOT_MEDIA)
                name = PurePosixPath(urlsplit(str(upload)).path).name or "file"
                mime = mimetypes.guess_type(name)[0] or "application/octet-stream"
                if mime not in _URL_DOCUMENT_TYPES:
                    raise ApiError(400, URL_NOT_MEDIA)
            self._check_flood(chat, "sendDocument")
            stored = self._keep_file(
                data, kind="document", extension=PurePosixPath(name).suffix.lower()
            )
            if isinstance(upload, dict):
                self.documents[stored.file_id] = data
            document = {
                "file_id": stored.file_id,
                "file_unique_id": stored.file_unique_id,
                "file_name": name,
                "mime_type": mime,
                "file_size": len(data),
            }
            self._document_meta[stored.file_id] = document
        else:
            self._check_flood(chat, "sendDocument")
        fields: dict[str, Any] = {
            "from": self.bot_user,
            **topic,
            "document": copy.deepcopy(document),
            **caption,
        }
        return self._post_media(chat, p, fields, markup, reply_to)

    def _edit_message_caption(self, p: dict) -> dict:
        """editMessageCaption of a bot message with media: caption 0-1024 UTF-16 units after
        parsing (empty removes it); an omitted reply_markup removes the inline keyboard;
        "message is not modified" when nothing changes; "there is no caption in the message
        to edit" for a message without media."""
        chat, message = self._editable(p)
        if not any(kind in message for kind in _MEDIA_KINDS):
            raise _bad("there is no caption in the message to edit")
        caption = self._caption(p)
        markup = _inline_keyboard(p.get("reply_markup"), edit=True)
        if (caption.get("caption"), caption.get("caption_entities", []), markup) == (
            message.get("caption"),
            message.get("caption_entities", []),
            message.get("reply_markup"),
        ):
            raise ApiError(400, NOT_MODIFIED)
        self._check_flood(chat, "editMessageCaption")
        message.pop("caption", None)
        message.pop("caption_entities", None)
        message.update(caption, reply_markup=markup)
        chat.raw[message["message_id"]] = str(p.get("caption") or "")
        return self._finish_edit(chat, message)

    def _caption(self, p: dict) -> dict[str, Any]:
        """``caption``/``caption_entities`` of a send or edit: 0-1024 UTF-16 units after
        parsing per parse_mode (or caption_entities)."""
        if p.get("caption") in (None, ""):
            return {}
        text, entities = self._text(
            {
                "text": p["caption"],
                "parse_mode": p.get("parse_mode"),
                "entities": p.get("caption_entities"),
            },
            limit=MAX_CAPTION_UTF16,
            too_long=CAPTION_TOO_LONG,
            allow_empty=True,
        )
        fields: dict[str, Any] = {}
        if text:
            fields["caption"] = text
            if entities:
                fields["caption_entities"] = entities
        return fields

    def _fetch(self, source: Any, *, not_media: str) -> bytes:
        """The bytes of an upload, or of an HTTP URL from :attr:`web_files`."""
        if isinstance(source, dict) and "data" in source:
            return source["data"]
        if isinstance(source, str) and _is_url(source):
            data = self.web_files.get(source)
            if data is None:
                raise ApiError(400, URL_FAILED)
            if not data:
                raise ApiError(400, not_media)
            return data
        raise ApiError(400, WRONG_FILE)

    def _post_media(
        self,
        chat: _Chat,
        p: dict,
        fields: dict[str, Any],
        markup: dict | None,
        reply_to: dict | None,
        *,
        data: bytes | None = None,
    ) -> dict:
        """Store a bot's media message (with its inline keyboard and replied-to message)."""
        if markup:
            fields["reply_markup"] = markup
        if reply_to:
            fields["reply_to_message"] = reply_to
        message = self._store(chat, fields)
        if data is not None:
            self.photos[(chat.id, message["message_id"])] = data
        chat.raw[message["message_id"]] = str(p.get("caption") or "")
        self._note_keyboard(chat, message, p)
        chat.activity.append(self._clock())
        return copy.deepcopy(message)


def _is_url(value: str) -> bool:
    return value.startswith(("http://", "https://"))


def _check_picture(data: bytes) -> None:
    """sendPhoto's rules for a new picture: at most 10 MB, width + height at most 10,000 px,
    a ratio of at most 20, decodable."""
    if len(data) > MAX_PHOTO_BYTES:
        raise ApiError(400, PHOTO_TOO_BIG)
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
            width, height = image.size
    except (UnidentifiedImageError, OSError):
        raise ApiError(400, PHOTO_NOT_IMAGE) from None
    if (
        width + height > MAX_PHOTO_SIDES
        or not width
        or not height
        or max(width, height) / min(width, height) > MAX_PHOTO_RATIO
    ):
        raise ApiError(400, PHOTO_INVALID_DIMENSIONS)
