"""User-interface catalogs, locale negotiation and plural forms (Babel's CLDR data).

Catalogs are ``catalogs/<language>.yaml``: message key -> plain text with ``{placeholders}``, or,
for a plural message, CLDR plural category (``one``, ``few``, ``other`` ...) -> text, chosen by the
``count`` argument with Babel's plural rules. Nested mappings of other names (``level``) are
groups of keys, flattened as ``level.hard``.
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from datetime import timedelta
from functools import cache
from importlib import resources

import yaml
from babel import Locale, negotiate_locale
from babel.dates import format_timedelta
from babel.numbers import format_decimal

SUPPORTED: tuple[str, ...] = ("en", "hi", "el")
"""Languages with a UI catalog (and in which the bundled bank is written)."""

DEFAULT = "en"
"""The fallback when Telegram's language_code is absent or unsupported."""

PLURAL_CATEGORIES = frozenset({"zero", "one", "two", "few", "many", "other"})


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
        messages: Flattened key -> text, or key -> {plural category -> text}.
    """

    def __init__(self, language: str, messages: Mapping[str, str | Mapping[str, str]]) -> None:
        self.language = language
        self.messages = dict(messages)
        self._locale = Locale.parse(language)

    def __call__(self, key: str, /, **params: object) -> str:
        """Format the message ``key`` with ``params``.

        A plural message needs ``count`` (an int) and picks the form with Babel's CLDR plural rule
        for the language (``Locale.plural_form``).

        Raises:
            KeyError: unknown key, or a placeholder without a parameter.
        """
        message = self.messages[key]
        if isinstance(message, Mapping):
            count = params["count"]
            category = self._locale.plural_form(count)  # type: ignore[arg-type]
            message = message.get(category) or message["other"]
        return message.format(**params)

    def decimal(self, value: float, digits: int = 1) -> str:
        """``value`` with ``digits`` decimals in the language's notation (Babel/CLDR: ``41.2``
        in English, ``41,2`` in Greek)."""
        return format_decimal(value, format="0." + "0" * digits if digits else "0",
                              locale=self._locale)

    def relative(self, seconds: float) -> str:
        """A time ``seconds`` from now, in words of the language ("in 2 days", "σε 2 ημέρες",
        "2 दिन में"): Babel's ``format_timedelta`` with CLDR's plural forms, rounded to the
        largest unit that fits (at least a minute)."""
        return format_timedelta(timedelta(seconds=max(seconds, 60.0)), add_direction=True,
                                locale=self._locale)

    def language_name(self, code: str) -> str:
        """The name of language ``code`` in that language itself (``hi`` -> ``हिन्दी``)."""
        name = Locale.parse(code).get_display_name(code) or code
        return name[:1].upper() + name[1:]

    def plural_categories(self) -> frozenset[str]:
        """The CLDR plural categories this language uses (e.g. ``{'one', 'other'}``)."""
        return frozenset(self._locale.plural_form.tags | {"other"})


def _flatten(raw: Mapping[str, object], prefix: str = "") -> dict[str, str | dict[str, str]]:
    flat: dict[str, str | dict[str, str]] = {}
    for key, value in raw.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            if set(value) <= PLURAL_CATEGORIES:
                flat[name] = {str(k): str(v) for k, v in value.items()}
            else:
                flat.update(_flatten(value, f"{name}."))
        else:
            flat[name] = str(value)
    return flat


@cache
def catalog(language: str) -> Catalog:
    """The catalog of ``language`` (cached); unsupported languages get :data:`DEFAULT`'s."""
    if language not in SUPPORTED:
        language = DEFAULT
    text = resources.files("bot.i18n").joinpath("catalogs", f"{language}.yaml").read_text("utf-8")
    return Catalog(language, _flatten(yaml.safe_load(text)))


def placeholders(message: str | Mapping[str, str]) -> frozenset[str]:
    """The ``{placeholder}`` names used by a message (all plural forms together)."""
    texts = message.values() if isinstance(message, Mapping) else [message]
    return frozenset(name for text in texts
                     for _, name, _, _ in string.Formatter().parse(text) if name)
