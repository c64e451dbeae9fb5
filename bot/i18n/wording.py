"""The wording part of ``python -m bot.i18n check``: what can be told mechanically of how the
messages are written, as ``locales/style.toml`` (what the languages share) and each
language's ``locales/<language>/style.toml`` configure it (see their comments).

* a count is a plural message: an English text with ``{count}``, or with a number placeholder
  followed by a counted word (``{size} characters``; the words after the number in the plural
  messages, and ``[en] counted``), is declared with ``NP_``, picked by that number; a plural
  message showing a second count is reported too (one number picks the form).
* one form of address: no translation uses a form its language's ``address`` rules forbid for
  its audience (a person, or a group: a message whose translator comment says so).
* one term for one thing: no translation uses a word its language's ``term`` rules replace.
"""

from __future__ import annotations

import io
import re
import string
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.pofile import read_po

from bot.i18n import DEFAULT, SUPPORTED
from bot.i18n.messages import MESSAGES, Plural

STYLE = "style.toml"
"""The wording rules' file in the catalogs' folder (see its comments)."""
AUDIENCES = ("a person", "a group", "anyone")
"""Whom a rule applies to: messages to a person, to a group, or all of them."""


def _fields(texts: Iterable[str]) -> frozenset[str]:
    """The placeholder names of ``texts`` (none for a text that is not a format string: the
    completeness check reports it)."""
    try:
        return frozenset(
            name for text in texts for _, name, _, _ in string.Formatter().parse(text) if name
        )
    except ValueError:
        return frozenset()


@cache
def _word_class() -> str:
    r"""A regular-expression class of the characters a word is made of: ``\w`` and the
    combining marks of the Basic Multilingual Plane (Devanagari's vowel signs are marks, which
    ``\w`` leaves out: ``\b`` would end a Hindi word inside it)."""
    marks = [code for code in range(0x10000) if unicodedata.category(chr(code)).startswith("M")]
    ranges: list[list[int]] = []
    for code in marks:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "[\\w" + "".join(f"\\u{low:04x}-\\u{high:04x}" for low, high in ranges) + "]"


@dataclass(frozen=True)
class Rule:
    """A form that a language's catalog does not use.

    Attributes:
        kind: ``term`` (one term for one thing) or ``address`` (one form of address).
        avoid: The form, as a regular expression matched as whole words, ignoring case.
        use: What to write instead (shown with the problem).
        to: The messages it applies to: ``a person``, ``a group`` or ``anyone``.
    """

    kind: str
    avoid: re.Pattern[str]
    use: str
    to: str


@dataclass(frozen=True)
class Style:
    """The wording rules of ``locales/style.toml`` and of each language's ``<language>/style.toml``.

    Attributes:
        counted: English words that show a count after a number placeholder.
        group_marker: The words of a translator comment that make a message one to a group.
        rules: Per language, its term and address rules.
    """

    counted: frozenset[str] = frozenset()
    group_marker: str = ""
    rules: Mapping[str, tuple[Rule, ...]] = field(default_factory=dict)


def _rule(where: str, kind: str, entry: object) -> Rule | str:
    """The rule of one ``[[<language>.<kind>]]`` entry, or what is wrong with it."""
    if not isinstance(entry, dict):
        return f"{where}: must be a table (avoid, use[, to])"
    unknown = sorted(set(entry) - {"avoid", "use", "to"})
    avoid, use, to = entry.get("avoid"), entry.get("use"), entry.get("to", "anyone")
    if unknown:
        return f"{where}: unknown keys {', '.join(unknown)} (avoid, use, to)"
    if not isinstance(avoid, str) or not avoid or not isinstance(use, str) or not use:
        return f"{where}: needs `avoid` (a regular expression) and `use` (what to write)"
    if to not in AUDIENCES:
        return f"{where}: `to` must be one of {', '.join(AUDIENCES)}"
    try:
        if re.fullmatch(avoid, ""):
            return f"{where}: `avoid` matches an empty text"
        word = _word_class()
        pattern = re.compile(f"(?<!{word})(?:{avoid})(?!{word})", re.IGNORECASE)
    except re.error as error:
        return f"{where}: `avoid` is not a regular expression ({error})"
    return Rule(kind, pattern, use, to)


def _read_toml(path: Path, name: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The table of the TOML file ``path``, or None and what is wrong (``name`` names it)."""
    if not path.is_file():
        return None, [f"{name}: missing ({path})"]
    try:
        return tomllib.loads(path.read_text("utf-8")), []
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        return None, [f"{name}: cannot be read ({error})"]


def _language_rules(language: str, data: dict[str, Any]) -> tuple[tuple[Rule, ...], list[str]]:
    """The rules of one language's file (``<language>/style.toml``) and its bad entries."""
    name = f"{language}/{STYLE}"
    if set(data) - {"term", "address"}:
        return (), [f"{name}: only [[term]] and [[address]] entries"]
    problems, found = [], []
    for kind in ("term", "address"):
        entries = data.get(kind, [])
        for index, entry in enumerate(entries if isinstance(entries, list) else [entries]):
            rule = _rule(f"{name}: {kind}[{index}]", kind, entry)
            if isinstance(rule, str):
                problems.append(rule)
            else:
                found.append(rule)
    return tuple(found), problems


def load_style(path: Path) -> tuple[Style, list[str]]:
    """The wording rules of ``path`` (``locales/style.toml``: what the languages share) and of
    each language's file beside its catalog (``locales/<language>/style.toml``: its terms and
    forms of address), and the problems of the files themselves (missing, unreadable, a bad
    entry: that entry is left out; a language's file for a language not supported)."""
    if not path.is_file():
        return Style(), [
            f"{STYLE}: missing ({path}): the wording rules (counted words, terms, "
            "forms of address) are not checked"
        ]
    data, problems = _read_toml(path, STYLE)
    if data is None:
        return Style(), problems
    counted = data.get("en", {}).get("counted", []) if isinstance(data.get("en"), dict) else None
    if not isinstance(counted, list) or not all(isinstance(w, str) for w in counted):
        problems.append(f"{STYLE}: en.counted must be a list of words")
        counted = []
    marker = data.get("group_marker", "")
    if not isinstance(marker, str):
        problems.append(f"{STYLE}: group_marker must be a text")
        marker = ""
    for key, table in data.items():
        if key == "en" and isinstance(table, dict) and set(table) - {"counted"}:
            problems.append(f"{STYLE}: en: only `counted` (English has no catalog)")
        elif key not in {"group_marker", "en"}:
            problems.append(
                f"{STYLE}: {key}: only what the languages share (a language's rules are in "
                f"{key}/{STYLE})"
            )
    rules: dict[str, tuple[Rule, ...]] = {}
    folders = {p.parent.name for p in path.parent.glob(f"*/{STYLE}")}
    for language in sorted(folders - set(SUPPORTED)):
        problems.append(f"{language}/{STYLE}: not a language of bot.i18n.SUPPORTED")
    for language in (language for language in SUPPORTED if language != DEFAULT):
        table, bad = _read_toml(path.parent / language / STYLE, f"{language}/{STYLE}")
        problems += bad
        if table is not None:
            rules[language], bad = _language_rules(language, table)
            problems += bad
    return Style(frozenset(w.lower() for w in counted), marker, rules), problems


_COUNTED = re.compile(r"\{(\w+)\}\s+(?:more\s+)?([A-Za-z]+)")
"""A placeholder and the English word after it (``{size} characters``, ``{count} more
players``)."""


def counted_words(extra: Iterable[str] = ()) -> frozenset[str]:
    """The English words that show a count after a number: ``extra`` and, in each plural
    message, the word after its number in the plural form when it differs from the
    singular's (``questions`` of "{count} question" / "{count} questions")."""
    words = {word.lower() for word in extra}
    for message in MESSAGES.values():
        if isinstance(message, Plural):
            one = dict(_COUNTED.findall(message.singular)).get(message.number)
            other = dict(_COUNTED.findall(message.plural)).get(message.number)
            if one and other and one.lower() != other.lower():
                words.add(other.lower())
    return frozenset(words)


def check_counts(style: Style) -> list[str]:
    """English texts showing a count that are not plural messages, or plural messages showing
    a second count (one number picks the form). A plural message whose number is not one of
    its placeholders shows it formatted under another name (``{points}`` for ``count``): one
    counted placeholder of it stands for the number."""
    counted = counted_words(style.counted)
    problems = []
    for key, message in MESSAGES.items():
        texts = (
            (message.singular, message.plural) if isinstance(message, Plural) else (message.text,)
        )
        shown = {
            (name, word)
            for text in texts
            for name, word in _COUNTED.findall(text)
            if word.lower() in counted
        }
        if not isinstance(message, Plural):
            if "count" in _fields(texts):
                problems.append(
                    f"en: {key}: has {{count}} but is not a plural message: declare it with NP_"
                )
            for name in sorted({name for name, _ in shown} - {"count"}):
                words = "/".join(sorted({w for n, w in shown if n == name}))
                problems.append(
                    f"en: {key}: shows a count ({{{name}}} {words}) but is not a "
                    f'plural message: declare it with NP_(..., number="{name}")'
                )
            continue
        others = sorted({name for name, _ in shown} - {message.number})
        if message.number not in _fields(texts) and others:
            others = others[1:]  # the number, shown formatted under another name
        for name in others:
            words = "/".join(sorted({w for n, w in shown if n == name}))
            problems.append(
                f"en: {key}: shows a second count ({{{name}}} {words}) besides its "
                f"number {{{message.number}}}, which picks the form: show it "
                "through a plural message of its own"
            )
    return problems


def audiences(template: PoCatalog, marker: str) -> dict[str | None, str]:
    """Each message key of ``template`` -> ``a group`` when a translator comment of it says
    ``marker``, else ``a person``."""
    return {
        m.context: "a group" if marker and any(marker in c for c in m.auto_comments) else "a person"
        for m in template
        if m.id
    }


@lru_cache(maxsize=64)
def parsed(data: bytes, locale: str | None = None) -> PoCatalog:
    """The catalog whose ``.po`` (or ``.pot``) file holds ``data``, parsed once per content
    (the tests check many copies of the same catalogs): shared, so never to be changed.

    Raises:
        Exception: whatever Babel's ``read_po`` raises for a file it cannot read.
    """
    return read_po(io.BytesIO(data), locale=locale)


def check_wording(language: str, po: Path, template: PoCatalog, style: Style) -> list[str]:
    """Translations of ``po`` that use a form a rule of ``language`` avoids: a term written
    otherwise, or a form of address not for the message's audience."""
    rules = style.rules.get(language, ())
    if not rules:
        return []
    audience = tuple(audiences(template, style.group_marker).items())
    return list(_wording(language, po.read_bytes(), audience, tuple(rules)))


@lru_cache(maxsize=64)
def _wording(
    language: str,
    data: bytes,
    audience_items: tuple[tuple[str | None, str], ...],
    rules: tuple[Rule, ...],
) -> tuple[str, ...]:
    """:func:`check_wording` of one catalog's content, once per content and rules."""
    try:
        catalog = parsed(data)
    except Exception:  # an unreadable catalog: reported by check.check_catalog
        return ()
    audience = dict(audience_items)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        forms = [unicodedata.normalize("NFC", form) for form in strings if form]
        to = audience.get(message.context, "a person")
        for rule in rules:
            if rule.to not in {"anyone", to}:
                continue
            found = sorted({m.group(0) for form in forms for m in rule.avoid.finditer(form)})
            if not found:
                continue
            shown = ", ".join(f"“{word}”" for word in found)
            problems.append(
                f"{language}: {message.context}: "
                + (
                    f"addresses {to} as {shown}: write {rule.use}"
                    if rule.kind == "address"
                    else f"{shown}: one term for one thing: write {rule.use}"
                )
            )
    return tuple(problems)
