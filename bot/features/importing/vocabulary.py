"""The words of a quiz sheet (.xlsx) in each supported language: the one table
(:data:`VOCABULARY`) that :mod:`bot.features.importing.headers` reads sheets and writes the
template and exports by, built from each language's module (:mod:`bot.kernel.languages`).
"""

from __future__ import annotations

from bot.kernel.languages import LANGUAGES
from bot.kernel.languages import Sheet as Words

__all__ = ["VOCABULARY", "Words"]

VOCABULARY: dict[str, Words] = {code: language.sheet for code, language in LANGUAGES.items()}
"""Each language's words for a quiz sheet (its :attr:`~bot.kernel.languages.Language.sheet`),
in the order of :data:`bot.i18n.SUPPORTED`: where two languages give one word two meanings,
the first language's wins."""
