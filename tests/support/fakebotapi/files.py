"""Files: documents and photos users send, the files the bot uploads, getFile and the
download URL ``GET /file/bot<token>/<file_path>``.

Every file the fake knows (a user's document or photo size, the bot's uploads) is kept in
:attr:`FakeBotAPI.files` by file id, with the path getFile hands out; the bot fetches it from
:attr:`FakeBotAPI.base_file_url` as from https://api.telegram.org/file/bot<token>/<file_path>
(PTB: ``Bot(..., base_file_url=fake.base_file_url)``, then ``File.download_as_bytearray()``).

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
import io
import mimetypes
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from aiohttp import web

from tests.support.fakebotapi.markup import _user_text
from tests.support.fakebotapi.protocol import (
    _TOKEN_RE,
    FILE_TOO_BIG,
    INVALID_FILE_ID,
    MAX_DOWNLOAD_BYTES,
    NOT_FOUND,
    PHOTO_NOT_IMAGE,
    PHOTO_SIZE_BOXES,
    UNAUTHORIZED,
    ApiError,
    _Chat,
)

# What Telegram's apps put in Document.mime_type for the quiz formats Python does not know.
_MIME_TYPES = {
    ".yaml": "application/x-yaml",
    ".yml": "application/x-yaml",
    ".gift": "text/plain",
    ".aiken": "text/plain",
}


@dataclass
class StoredFile:
    """A file on the fake's "Telegram servers".

    Attributes:
        file_id: The id the bot uses to get or re-send it.
        file_unique_id: The id that stays the same over time and across bots.
        data: The bytes a download serves.
        file_path: The path getFile answers, e.g. ``documents/file_3.csv``.
        kind: ``"document"`` or ``"photo"`` (one size of a photo).
    """

    file_id: str
    file_unique_id: str
    data: bytes
    file_path: str
    kind: str

    def as_file(self) -> dict[str, Any]:
        """The File object getFile answers."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": len(self.data),
            "file_path": self.file_path,
        }


def sample_jpeg(width: int = 640, height: int = 480) -> bytes:
    """A small real JPEG picture (a colour gradient) of ``width`` x ``height`` px."""
    from PIL import Image

    image = Image.linear_gradient("L").resize((width, height)).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=80)
    return out.getvalue()


class FilesMixin:
    """Files: documents and photos users send, the bot's uploads, getFile and downloads."""

    @property
    def base_file_url(self) -> str:
        """The file download URL prefix, for PTB's ``base_file_url`` (the token follows it)."""
        return self.base_url.removesuffix("/bot") + "/file/bot"

    def file_bytes(self, file_id: str) -> bytes:
        """The bytes of a file the fake knows; KeyError for an unknown file id."""
        return self.files[file_id].data

    # -- users send files ----------------------------------------------------------------

    def send_document(
        self,
        user_id: int,
        data: bytes,
        file_name: str,
        *,
        mime_type: str | None = None,
        caption: str | None = None,
        reply_to: int | None = None,
        chat_id: int | None = None,
    ) -> dict:
        """A user sends a file as a document: a message Update with a Document.

        The Document has a fresh file_id and file_unique_id, ``file_name``, ``mime_type``
        (default: guessed from the name as Telegram's apps do, ``application/octet-stream``
        when unknown) and ``file_size``; getFile and the download URL then serve ``data``
        (getFile refuses files over 20 MB, as Telegram does). A caption gets the entities of
        what users type (a leading /command).

        Args:
            reply_to: The id of a message in the chat (the bot's, typically) this one replies to.
            chat_id: A group; None for the user's private chat.

        Raises:
            ValueError: an unknown user or message, or an empty file (Telegram's apps send none).
        """
        if not data:
            raise ValueError("Telegram's apps send no empty files")
        chat, user = self._user_in_chat(user_id, chat_id)
        suffix = PurePosixPath(file_name).suffix.lower()
        if mime_type is None:
            mime_type = (
                _MIME_TYPES.get(suffix)
                or mimetypes.guess_type(file_name)[0]
                or "application/octet-stream"
            )
        stored = self._keep_file(data, kind="document", extension=suffix)
        document = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_name": file_name,
            "mime_type": mime_type,
            "file_size": len(data),
        }
        fields = {
            "from": user,
            **self._reply_fields(chat, reply_to),
            "document": document,
            **self._user_caption(caption),
        }
        message = self._store(chat, fields)
        return self.push_update({"message": copy.deepcopy(message)})

    def send_photo(
        self,
        user_id: int,
        data: bytes | None = None,
        *,
        caption: str | None = None,
        reply_to: int | None = None,
        chat_id: int | None = None,
        media_group_id: str | None = None,
    ) -> dict:
        """A user sends a picture as a photo: a message Update with several PhotoSize.

        As Telegram does, the picture is kept as JPEG in several sizes, smallest first: one
        per box of :data:`PHOTO_SIZE_BOXES` smaller than its longest side, then the picture
        itself (scaled into 2,560 px); each size has its own file_id and file_unique_id, and
        getFile serves its bytes.

        Args:
            data: The picture (any format Pillow reads); default :func:`sample_jpeg`.
            reply_to: The id of a message in the chat this one replies to.
            chat_id: A group; None for the user's private chat.
            media_group_id: The album this photo belongs to (:meth:`send_album`).

        Raises:
            ValueError: an unknown user or message, or data that is no picture.
        """
        chat, user = self._user_in_chat(user_id, chat_id)
        try:
            sizes = self._photo_sizes(sample_jpeg() if data is None else data)
        except ApiError as error:
            raise ValueError(f"not a picture Telegram's apps would send: {error}") from None
        fields = {
            "from": user,
            **self._reply_fields(chat, reply_to),
            **({"media_group_id": media_group_id} if media_group_id else {}),
            "photo": sizes,
            **self._user_caption(caption),
        }
        message = self._store(chat, fields)
        return self.push_update({"message": copy.deepcopy(message)})

    def send_album(
        self, user_id: int, count: int, *, caption: str | None = None, chat_id: int | None = None
    ) -> list[dict]:
        """A user sends ``count`` (2-10) photos at once, as an album: Telegram delivers one
        message Update each, sharing a new ``media_group_id`` (Bot API ``Message``: "The unique
        identifier of a media message group this message belongs to"), the caption on the
        first. Each photo is a different picture."""
        if not 2 <= count <= 10:
            raise ValueError("an album has 2 to 10 items")
        album = str(next(self._album_ids))
        return [
            self.send_photo(
                user_id,
                sample_jpeg(640 + 16 * index),
                chat_id=chat_id,
                caption=caption if index == 0 else None,
                media_group_id=album,
            )
            for index in range(count)
        ]

    @staticmethod
    def _user_caption(caption: str | None) -> dict[str, Any]:
        if not caption:
            return {}
        fields = _user_text(caption)
        out: dict[str, Any] = {"caption": fields["text"]}
        if "entities" in fields:
            out["caption_entities"] = fields["entities"]
        return out

    def _reply_fields(self, chat: _Chat, reply_to: int | None) -> dict[str, Any]:
        """``reply_to_message`` for a user's message replying to message ``reply_to``."""
        if reply_to is None:
            return {}
        target = chat.messages.get(reply_to)
        if target is None:
            raise ValueError(f"no message {reply_to} in chat {chat.id} to reply to")
        target = copy.deepcopy(target)
        target.pop("reply_to_message", None)
        return {"reply_to_message": target}

    # -- the store -------------------------------------------------------------------------

    def _keep_file(self, data: bytes, *, kind: str, extension: str) -> StoredFile:
        """Store ``data`` under a fresh file id and path; return it."""
        number = len(self.files) + 1
        prefix = {"document": "BQACAgIAAxkBAAI", "photo": "AgACAgIAAxkBAAI"}[kind]
        folder = {"document": "documents", "photo": "photos"}[kind]
        stored = StoredFile(
            file_id=f"{prefix}{number:06d}",
            file_unique_id=f"AQAD{number:06d}",
            data=data,
            file_path=f"{folder}/file_{number}{extension}",
            kind=kind,
        )
        self.files[stored.file_id] = stored
        self._file_paths[stored.file_path] = stored
        return stored

    def _photo_sizes(self, data: bytes) -> list[dict[str, Any]]:
        """Keep a picture's sizes as JPEG files; return their PhotoSize dicts, smallest first.

        Raises:
            ApiError: 400 IMAGE_PROCESS_FAILED for data Pillow cannot decode.
        """
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(data)) as opened:
                opened.load()
                image = opened.convert("RGB")
        except (UnidentifiedImageError, OSError):
            raise ApiError(400, PHOTO_NOT_IMAGE) from None
        longest = max(image.size)
        boxes = [box for box in PHOTO_SIZE_BOXES if box < longest]
        boxes.append(min(longest, PHOTO_SIZE_BOXES[-1]))
        sizes = []
        for box in boxes:
            scaled = image.copy()
            scaled.thumbnail((box, box))
            out = io.BytesIO()
            scaled.save(out, format="JPEG", quality=85)
            stored = self._keep_file(out.getvalue(), kind="photo", extension=".jpg")
            sizes.append(
                {
                    "file_id": stored.file_id,
                    "file_unique_id": stored.file_unique_id,
                    "file_size": len(stored.data),
                    "width": scaled.width,
                    "height": scaled.height,
                }
            )
        for size in sizes:  # a photo re-sent by any of its file ids is the same photo
            self._photo_groups[size["file_id"]] = sizes
        return sizes

    # -- getFile and downloads ---------------------------------------------------------------

    def _get_file(self, p: dict) -> dict:
        """getFile: the File (file_path, file_size) of a known file id; 400 "invalid file_id"
        for others, "file is too big" over 20 MB (bots download files of up to 20 MB)."""
        stored = self.files.get(str(p["file_id"]))
        if stored is None:
            raise ApiError(400, INVALID_FILE_ID)
        if len(stored.data) > MAX_DOWNLOAD_BYTES:
            raise ApiError(400, FILE_TOO_BIG)
        return stored.as_file()

    async def _download(self, request: web.Request) -> web.Response:
        """``GET /file/bot<token>/<file_path>``: the file's bytes; 404 for a malformed token
        or an unknown path, 401 for another bot's token (the Bot API's answers to methods)."""
        token, path = request.match_info["token"], request.match_info["file_path"]
        stored = self._file_paths.get(path)
        if not _TOKEN_RE.fullmatch(token):
            status, description = 404, NOT_FOUND
        elif token != self.token:
            status, description = 401, UNAUTHORIZED
        elif stored is None or request.method not in ("GET", "HEAD"):
            status, description = 404, NOT_FOUND
        else:
            self.downloads.append((path, 200))
            self.signal()
            return web.Response(body=stored.data, content_type="application/octet-stream")
        self.downloads.append((path, status))
        self.signal()
        return web.json_response(
            {"ok": False, "error_code": status, "description": description}, status=status
        )
