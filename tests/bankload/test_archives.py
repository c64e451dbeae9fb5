"""The zip guard in front of .xlsx and .docx files: bombs, nesting, overlaps and encryption are
refused from the central directory, a real Office file made by openpyxl passes."""

from __future__ import annotations

import io
import struct
import zipfile

import openpyxl
import pytest

from bot.features.importing.archives import ArchiveRefused, check_archive


def _zip(parts: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        for name, body in parts.items():
            archive.writestr(name, body)
    return buffer.getvalue()


def _workbook() -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["question", "A", "B", "answer"])
    book.active.append(["What is ZeRO?", "a", "b", "A"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def test_a_workbook_made_by_openpyxl_passes() -> None:
    check_archive(_workbook())


def test_bytes_that_are_not_a_zip_are_refused() -> None:
    with pytest.raises(ArchiveRefused) as refused:
        check_archive(b"question,A,B\n")
    assert refused.value.reason == "not a zip"


def test_a_part_that_expands_a_thousandfold_is_refused() -> None:
    bomb = _zip({"xl/worksheets/sheet1.xml": b"\0" * 10_000_000})
    assert len(bomb) < 20_000
    with pytest.raises(ArchiveRefused) as refused:
        check_archive(bomb)
    assert refused.value == ArchiveRefused("expands too much", "xl/worksheets/sheet1.xml")


def test_parts_that_expand_past_the_bound_in_all_are_refused() -> None:
    parts = {
        f"p{n}.xml": bytes(range(256)) * 4096 for n in range(40)
    }  # 1 MiB each, barely compressible
    with pytest.raises(ArchiveRefused) as refused:
        check_archive(_zip(parts, zipfile.ZIP_STORED), max_expanded=16 * 1024 * 1024)
    assert refused.value.reason == "too large expanded"


def test_too_many_parts_are_refused() -> None:
    with pytest.raises(ArchiveRefused) as refused:
        check_archive(_zip({f"p{n}": b"x" for n in range(1_001)}))
    assert refused.value.reason == "too many parts"


def test_a_zip_inside_a_part_is_refused() -> None:
    inner = _zip({"a.xml": b"<a/>"}, zipfile.ZIP_STORED)
    with pytest.raises(ArchiveRefused) as refused:
        check_archive(_zip({"word/document.xml": b"<w/>", "word/media/x.bin": inner}))
    assert refused.value == ArchiveRefused("nested", "word/media/x.bin")


def test_parts_sharing_one_compressed_stream_are_refused() -> None:
    """Fifield's overlapping zip bomb: two central-directory entries point at one local file."""
    one = _zip({"a.xml": b"<a/>" * 100})
    archive = zipfile.ZipFile(io.BytesIO(one))
    info = archive.infolist()[0]
    end = one.rindex(b"PK\x05\x06")
    directory = one[archive.start_dir : end]
    twin = directory.replace(b"a.xml", b"b.xml")
    eocd = bytearray(one[end:])
    struct.pack_into("<HHI", eocd, 8, 2, 2, len(directory) * 2)
    forged = one[: archive.start_dir] + directory + twin + bytes(eocd)
    assert info.header_offset == 0
    with pytest.raises(ArchiveRefused) as refused:
        check_archive(forged)
    assert refused.value.reason == "overlapping parts"


def test_an_encrypted_part_is_refused() -> None:
    one = bytearray(_zip({"a.xml": b"<a/>"}))
    start = one.rindex(b"PK\x01\x02")
    struct.pack_into("<H", one, start + 8, 0x1)  # the central directory's general purpose flag
    with pytest.raises(ArchiveRefused) as refused:
        check_archive(bytes(one))
    assert refused.value == ArchiveRefused("encrypted", "a.xml")
