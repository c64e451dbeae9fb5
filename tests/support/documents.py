"""Word and PDF files made by the libraries that write them (python-docx, fpdf2), for the
importers' tests: a numbered quiz as a .docx or a PDF with a text layer, a scan-like PDF (a
picture and no text), a password-protected PDF."""

from __future__ import annotations

import io
from collections.abc import Iterable

import docx
import pypdf
from fpdf import FPDF
from PIL import Image

from bot.features.learning.chart import font_path


def docx_bytes(lines: Iterable[str], *, list_style: str = "") -> bytes:
    """A .docx of one paragraph per line; a line starting with ``#`` is a paragraph of
    ``list_style`` (a numbered list style such as "List Number", Word drawing its number)
    without the ``#``."""
    document = docx.Document()
    for line in lines:
        if line.startswith("#") and list_style:
            document.add_paragraph(line[1:].strip(), style=list_style)
        else:
            document.add_paragraph(line)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def pdf_bytes(lines: Iterable[str], *, language: str = "en", per_page: int = 0) -> bytes:
    """A PDF with a text layer: one line of text per line, in the Noto font of ``language``'s
    script (as the /stats chart finds it); a new page every ``per_page`` lines when given."""
    pdf = FPDF()
    pdf.add_page()
    pdf.add_font("noto", "", str(font_path(language)))
    pdf.set_font("noto", size=11)
    for number, line in enumerate(lines, start=1):
        pdf.multi_cell(0, 6, line or " ", new_x="LMARGIN", new_y="NEXT")
        if per_page and number % per_page == 0:
            pdf.add_page()
    return bytes(pdf.output())


def scan_pdf() -> bytes:
    """A PDF as a scanner makes it: a picture of a page and no text layer."""
    picture = Image.new("RGB", (420, 594), "white")
    for x in range(40, 380):  # a "line of text", drawn, not written
        for y in range(60, 66):
            picture.putpixel((x, y), (0, 0, 0))
    buffer = io.BytesIO()
    picture.save(buffer, "PNG")
    buffer.seek(0)
    pdf = FPDF()
    pdf.add_page()
    pdf.image(buffer, x=0, y=0, w=210)
    return bytes(pdf.output())


def locked_pdf(data: bytes, password: str = "secret") -> bytes:
    """``data`` (a PDF) encrypted so that it opens only with ``password`` (pypdf, RC4)."""
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(data))
    writer.encrypt(user_password=password, owner_password=password + "!", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()
