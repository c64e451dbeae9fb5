"""Zip-based files (.xlsx, .docx) checked before a library opens them.

An Office file is a zip archive. A small archive can declare parts that expand to gigabytes
(a zip bomb), hold thousands of parts, hold a zip inside a part (nesting), or reuse one
compressed stream for many parts (overlapping entries, D. Fifield's "A better zip bomb",
WOOT 2019). :func:`check_archive` reads only the archive's central directory and refuses all
of these before any part is decompressed. Python's :mod:`zipfile` stops reading a part at its
declared size, so bounding the declared sizes bounds what openpyxl or python-docx can expand.

Pure: bytes in, a :class:`ArchiveRefused` out (no files, no Telegram).
"""

from __future__ import annotations

import io
import itertools
import zipfile
from dataclasses import dataclass

MAX_PARTS = 1_000
"""Most parts an accepted archive may list."""

MAX_EXPANDED_BYTES = 32 * 1024 * 1024
"""Most bytes an accepted archive's parts may declare in all, once decompressed (32 MiB)."""

MAX_RATIO = 200
"""Largest expansion of one part (declared size over compressed size) accepted; XML of an
Office file compresses about 10 to 30 times, a zip bomb's part about 1,000 times."""

_NESTED = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")


@dataclass(frozen=True)
class ArchiveRefused(Exception):
    """An archive refused before it was read.

    Attributes:
        reason: ``"not a zip"``, ``"too many parts"``, ``"too large expanded"``,
            ``"expands too much"``, ``"overlapping parts"``, ``"encrypted"`` or ``"nested"``.
        part: The part's name inside the archive, where one part is at fault; else ``""``.
    """

    reason: str
    part: str = ""

    def __str__(self) -> str:
        return f"{self.reason}: {self.part}" if self.part else self.reason


def check_archive(
    data: bytes,
    *,
    max_parts: int = MAX_PARTS,
    max_expanded: int = MAX_EXPANDED_BYTES,
    max_ratio: int = MAX_RATIO,
) -> None:
    """Refuse ``data`` unless it is a zip archive safe to open.

    Reads the central directory and each part's first bytes only (a nested archive is found by
    its signature at the start of a part, which costs at most a few bytes of decompression).

    Raises:
        ArchiveRefused: see its ``reason`` for what was refused.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        raise ArchiveRefused("not a zip") from error
    with archive:
        parts = archive.infolist()
        if len(parts) > max_parts:
            raise ArchiveRefused("too many parts")
        expanded = 0
        spans: list[tuple[int, int, str]] = []
        for part in parts:
            if part.flag_bits & 0x1:
                raise ArchiveRefused("encrypted", part.filename)
            expanded += part.file_size
            if expanded > max_expanded:
                raise ArchiveRefused("too large expanded", part.filename)
            if part.file_size > max(part.compress_size, 1) * max_ratio:
                raise ArchiveRefused("expands too much", part.filename)
            spans.append(
                (part.header_offset, part.header_offset + part.compress_size, part.filename)
            )
        spans.sort()
        for (_, end, _), (start, _, name) in itertools.pairwise(spans):
            if start < end:
                raise ArchiveRefused("overlapping parts", name)
        for part in parts:
            if part.is_dir() or part.file_size < 4:
                continue
            try:
                with archive.open(part) as stream:
                    head = stream.read(4)
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError) as error:
                raise ArchiveRefused("not a zip", part.filename) from error
            if head in _NESTED:
                raise ArchiveRefused("nested", part.filename)
