"""The messages about a quiz sent as a text, Word or PDF file whose text could not be read
(bot/features/importing/handlers.py, bot/features/importing/readers.py)."""

from __future__ import annotations

from bot.i18n.declare import N_, Plural, Text

__all__ = ["MESSAGES"]

MESSAGES: tuple[Text | Plural, ...] = (
    N_(
        "documents.damaged",
        "I can't open this file: it is damaged or is not what its ending says. Save it again "
        "and send it.",
    ),
    N_(
        "documents.too_long",
        "This file is too long for one quiz. Split it into smaller files and send them one by one.",
    ),
    N_(
        "documents.pdf_no_text",
        "This PDF has no text I can read: PDFs made from scans are only pictures of pages. Send "
        "the quiz as text or as a .docx file.",
    ),
    N_(
        "documents.pdf_encrypted",
        "This PDF is protected by a password, so I can't read it. Send it without the "
        "password, or send the quiz as text or as a .docx file.",
    ),
)
