"""Each language's data, one module per language (``ru.py``, ``fa.py``, ...): the words quizbot
reads and checks in a text of that language, for every use (:class:`Language`). The tables that
use them are built from :data:`LANGUAGES`: :data:`bot.kernel.itemtext.STOPWORDS`,
:data:`bot.kernel.checks.ABOVE_PHRASES`, :data:`bot.kernel.textformat.TRUE_WORDS` and
``FALSE_WORDS``, :data:`bot.terminal.text.COUNT_WORDS`,
:data:`bot.features.importing.vocabulary.VOCABULARY` and
:data:`bot.features.importing.numbered.WORDS`.

Adding a language is adding its module here and its name below, beside its catalog and style
file (docs/translating.md); a test checks that the modules are the languages of
:data:`bot.i18n.SUPPORTED`, each with every field filled. Pure data: the kernel's lowest floor,
so the kernel, the terminal and the features may all read it.
"""

from __future__ import annotations

from bot.kernel.languages import ar, el, en, es, fa, hi, pt, ru, tr, uk, uz
from bot.kernel.languages import id as id_
from bot.kernel.languages._shape import CYRILLIC, LATIN, Language, Numbered, Sheet

__all__ = ["CYRILLIC", "LANGUAGES", "LATIN", "Language", "Numbered", "Sheet"]

LANGUAGES: dict[str, Language] = {
    module.LANGUAGE.code: module.LANGUAGE
    for module in (en, hi, el, ru, uk, es, pt, id_, tr, uz, fa, ar)
}
"""Each language's data by its code, in the order of :data:`bot.i18n.SUPPORTED`."""
