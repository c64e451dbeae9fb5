"""User-interface messages (gettext catalogs), locale negotiation and plural forms (Babel, CLDR).

The English texts are in :mod:`bot.i18n.messages`, each under a key (``greeting``,
``level.hard``); translations are gettext catalogs, ``locales/<language>/LC_MESSAGES/
messages.po``, compiled to ``messages.mo`` (both committed), in which the key is the message
context (``msgctxt``) and the English text the message id. :func:`catalog` loads the ``.mo`` with
:class:`babel.support.Translations`; a message the catalog does not translate (missing, or marked
fuzzy, which ``pybabel compile`` leaves out) is shown in English. ``python -m bot.i18n check``
(run by CI) makes sure no committed catalog lacks a translation. The workflow (``pybabel
extract``/``update``/``compile``) is in docs/development.md, "Translating".

Texts use ``{name}`` placeholders (``str.format``). A plural message's form is picked by its
``count`` argument (or the one its ``number`` names) with the ``Plural-Forms`` rule in its
catalog's header, which ``pybabel init`` takes from Babel's plural table (checked against CLDR's
plural rules by the tests).
"""

from __future__ import annotations

import functools
import gettext
import logging
import os
import string
from collections.abc import Iterable, Mapping
from datetime import timedelta
from functools import cache
from importlib import resources
from typing import cast

from babel import Locale, negotiate_locale
from babel.dates import format_timedelta
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from bot.i18n import bidi
from bot.i18n.messages import MESSAGES, Plural

SUPPORTED: tuple[str, ...] = (
    "en",
    "hi",
    "el",
    "ru",
    "uk",
    "es",
    "pt",
    "id",
    "tr",
    "uz",
    "fa",
    "ar",
)
"""Languages with a UI catalog (and in which the bundled bank is written). English is the source
language (its texts are in :mod:`bot.i18n.messages`); every other one has a gettext catalog."""

DEFAULT = "en"
"""The fallback when Telegram's language_code is absent or unsupported."""

DOMAIN = "messages"
"""The gettext domain: the file name of the catalogs (``messages.pot``, ``.po``, ``.mo``)."""

STRICT_ENV = "QUIZBOT_I18N_STRICT"
"""Environment variable: when set to ``1``, an unknown message key raises ``KeyError`` (the test
suite sets it) instead of being shown as the key itself with a logged warning."""

PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})

log = logging.getLogger(__name__)


def negotiate(language_code: str | None, available: Iterable[str] = SUPPORTED) -> str:
    """Pick the UI language for a Telegram ``language_code`` (an IETF tag like ``el-GR``).

    Uses Babel's negotiation: an exact match, else the primary subtag (``el-GR`` -> ``el``,
    ``pt_BR`` -> ``pt``), else :data:`DEFAULT`.
    """
    available = list(available)
    if not language_code:
        return DEFAULT
    tag = language_code.strip().replace("_", "-").lower()
    found = negotiate_locale([tag, tag.split("-")[0]], available, sep="-")
    return found if found in available else DEFAULT


class Catalog:
    """The messages of one language.

    Args:
        language: Language code, e.g. ``hi``.
        translations: The language's gettext catalog; ``None`` (or a
            :class:`gettext.NullTranslations`) gives the English texts.

    Attributes:
        language: The language code.
        messages: Each message key -> its text as this catalog shows it (translated, or English
            where the catalog lacks it), or for a plural message, CLDR plural category (``one``,
            ``other`` ...) -> the form shown for the counts of that category. For looking at;
            calling the catalog is what formats a message.
    """

    def __init__(self, language: str, translations: gettext.NullTranslations | None = None) -> None:
        self.language = language
        self._locale = Locale.parse(language)
        self.right_to_left = bidi.right_to_left(language)
        """Whether the language is written right to left: each text value put into a message
        is then isolated (:func:`bot.i18n.bidi.isolate`)."""
        self._translations = translations if translations is not None else NullTranslations()
        self._warned: set[str] = set()
        # singular texts resolved once (the hot path is then a dict look-up and str.format);
        # plural ones keep their English forms for npgettext, which needs the count
        self._texts: dict[str, str | tuple[str, str]] = {
            key: (message.singular, message.plural)
            if isinstance(message, Plural)
            else self._translations.pgettext(key, message.text)
            for key, message in MESSAGES.items()
        }
        self._numbers = {
            key: message.number for key, message in MESSAGES.items() if isinstance(message, Plural)
        }

    @functools.cached_property
    def messages(self) -> dict[str, str | dict[str, str]]:
        """Each message key -> its text as this catalog shows it, or for a plural message, CLDR
        plural category -> its form (see the class); made on first use (it samples CLDR's
        plural rules: start-up does not pay for it)."""
        samples = _plural_samples(self.language)
        return {
            key: {
                category: self._translations.npgettext(key, *text, n)
                for category, n in samples.items()
            }
            if isinstance(text, tuple)
            else text
            for key, text in self._texts.items()
        }

    def __call__(self, key: str, /, **params: object) -> str:
        """Format the message ``key`` with ``params``.

        A plural message needs ``count`` (an int; or the parameter its ``number`` names) and
        picks its form with the catalog's ``Plural-Forms`` rule (gettext's ``npgettext``). A
        translation that cannot be formatted (a placeholder the English text does not have:
        ``python -m bot.i18n check`` reports it) is replaced by the English text, with a logged
        error.

        Raises:
            KeyError: a placeholder of the English text without a parameter (or a plural message
                without its number); an unknown key when :data:`STRICT_ENV` is ``1`` (otherwise
                the key itself is returned, with a logged warning).
        """
        text = self._texts.get(key)
        if text is None:
            return self._unknown(key)
        if isinstance(text, tuple):
            # cast: a plural message's number is an int (see above); gettext picks the form
            text = self._translations.npgettext(
                key, text[0], text[1], cast(int, params[self._numbers[key]])
            )
        shown: Mapping[str, object] = params
        if self.right_to_left:
            isolated: dict[str, object] = {}
            for name, value in params.items():
                if isinstance(value, str) and f"@{{{name}}}" in text:
                    # a @username: isolated with its @, which Telegram needs right before it
                    text = text.replace(f"@{{{name}}}", f"{{{name}}}")
                    value = f"@{value}"
                isolated[name] = bidi.isolate(value) if isinstance(value, str) else value
            shown = isolated
        try:
            return text.format(**shown)
        except (KeyError, IndexError, ValueError, AttributeError):
            return self._in_english(key, text, params)

    def _unknown(self, key: str) -> str:
        if os.environ.get(STRICT_ENV) == "1":
            raise KeyError(key)
        if key not in self._warned:
            self._warned.add(key)
            log.warning("i18n: no message %r (shown as its key)", key)
        return key

    def _in_english(self, key: str, translated: str, params: Mapping[str, object]) -> str:
        message = MESSAGES[key]
        english = (
            message.text
            if not isinstance(message, Plural)
            else (message.singular if params[message.number] == 1 else message.plural)
        )
        result = english.format(**params)  # raises if the caller's parameters are wrong
        if key not in self._warned:
            self._warned.add(key)
            log.error(
                "i18n: %s: the translation of %r cannot be formatted (%r); shown in English",
                self.language,
                key,
                translated,
            )
        return result

    def decimal(self, value: float, digits: int = 1) -> str:
        """``value`` with ``digits`` decimals in the language's notation (Babel/CLDR: ``41.2``
        in English, ``41,2`` in Greek)."""
        return format_decimal(
            value, format="0." + "0" * digits if digits else "0", locale=self._locale
        )

    def number(self, value: float) -> str:
        """``value`` in the language's notation with the decimals it has, up to three (Babel/
        CLDR: ``4``, ``2.5``, ``0.25`` in English; ``2,5``, ``0,25`` in Russian): marks."""
        return format_decimal(value, format="0.###", locale=self._locale)

    def relative(self, seconds: float) -> str:
        """A time ``seconds`` from now, in words of the language ("in 2 days", "σε 2 ημέρες",
        "2 दिन में"): Babel's ``format_timedelta`` with CLDR's plural forms, rounded to the
        largest unit that fits (at least a minute)."""
        return format_timedelta(
            timedelta(seconds=max(seconds, 60.0)), add_direction=True, locale=self._locale
        )

    def language_name(self, code: str) -> str:
        """The name of language ``code`` in that language itself (``hi`` -> ``हिन्दी``)."""
        name = Locale.parse(code).get_display_name(code) or code
        return name[:1].upper() + name[1:]

    def plural_categories(self) -> frozenset[str]:
        """The CLDR plural categories this language uses (e.g. ``{'one', 'other'}``)."""
        return frozenset(self._locale.plural_form.tags | {"other"})


@cache
def _plural_samples(language: str) -> dict[str, int]:
    """A whole number of each CLDR plural category of ``language`` that has one (the first of
    1, 2 ... 999, then 0), in CLDR's order of categories."""
    rule = Locale.parse(language).plural_form
    samples: dict[str, int] = {}
    for n in (*range(1, 1000), 0):
        samples.setdefault(rule(n), n)
    order = ("zero", "one", "two", "few", "many", "other")
    return {category: samples[category] for category in order if category in samples}


def translations(language: str) -> gettext.NullTranslations:
    """The compiled gettext catalog of ``language`` (``locales/<language>/LC_MESSAGES/
    messages.mo``); the English texts for :data:`DEFAULT`, or (with a logged error) when the
    file is missing."""
    if language == DEFAULT:
        return NullTranslations()
    mo = resources.files(__name__).joinpath("locales", language, "LC_MESSAGES", f"{DOMAIN}.mo")
    try:
        with mo.open("rb") as file:
            return Translations(file, domain=DOMAIN)
    except FileNotFoundError:
        log.error(
            "i18n: no compiled catalog for %s (%s): showing English; run pybabel compile",
            language,
            mo,
        )
        return NullTranslations()


@cache
def catalog(language: str) -> Catalog:
    """The catalog of ``language`` (cached); unsupported languages get :data:`DEFAULT`'s."""
    if language not in SUPPORTED:
        language = DEFAULT
    return Catalog(language, translations(language))


def placeholders(message: str | Mapping[str, str] | Iterable[str]) -> frozenset[str]:
    """The ``{placeholder}`` names used by a message: a text, or all the forms of a plural
    message together (a mapping's values, or any other collection of texts).

    Raises:
        ValueError: a text is not a valid format string (e.g. a lone ``{``).
    """
    if isinstance(message, str):
        texts: Iterable[str] = [message]
    elif isinstance(message, Mapping):
        texts = message.values()
    else:
        texts = message
    return frozenset(
        name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name
    )
