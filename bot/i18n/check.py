"""Is every catalog complete and every generated file up to date? (``python -m bot.i18n check``)

Checks, each problem naming the language and message key:

* the messages (``bot/i18n/messages/``): every text is a valid format string with named
  placeholders; the two English forms of a plural message have the same placeholders.
* ``messages.pot`` is what ``pybabel extract`` makes of them now (the date aside).
* each ``<language>/LC_MESSAGES/messages.po``: the language is in :data:`bot.i18n.SUPPORTED`
  (and every supported language but English has one); its ``Plural-Forms`` rule agrees with
  CLDR's plural categories of the language for 0 to 1000; it has exactly the messages of the
  template, with the same English texts (else ``pybabel update`` is due); none fuzzy, none
  untranslated, every plural form given; every form uses exactly the English placeholders.
* each ``messages.mo`` holds what ``pybabel compile`` makes of its ``.po``: the same
  translations and Plural-Forms rule.

And the wording (:mod:`bot.i18n.wording`, rules in ``locales/style.toml`` and each language's
``locales/<language>/style.toml``): a count shown is a
plural message, one form of address per audience, one term for one thing.
"""

from __future__ import annotations

import functools
import gettext
import io
import os
import string
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog as PoCatalog
from babel.messages.catalog import Message
from babel.messages.mofile import read_mo, write_mo
from babel.messages.plurals import get_plural

from bot.i18n import DEFAULT, DOMAIN, SUPPORTED
from bot.i18n.messages import MESSAGES, Plural
from bot.i18n.wording import STYLE, check_counts, check_wording, load_style, parsed

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
"""The repository's root (whose pyproject.toml configures pybabel) in a source checkout."""
LOCALES = HERE / "locales"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"
DATE_HEADERS = ('"POT-Creation-Date:', '"PO-Revision-Date:')
COUNTS = (*range(1001), 1_000_000, 1_000_001, 2_000_000)
"""The counts on which a catalog's Plural-Forms rule must agree with CLDR (0 to 1000, and exact
millions, which some languages give a category of their own: Spanish's 'many')."""


def _texts(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def _forms(message: Message) -> tuple[str, ...]:
    return (
        tuple(message.string)
        if isinstance(message.string, (list, tuple))
        else (message.string or "",)
    )  # None (Babel's type allows it) is no translation


def _names(texts: Iterable[str]) -> frozenset[str] | str:
    """The replacement fields of ``texts`` (``name``; ``""`` for ``{}``; ``0`` for ``{0}``;
    ``name.attribute``), or why they are not valid format strings."""
    try:
        return frozenset(
            field
            for text in texts
            for _, field, _, _ in string.Formatter().parse(text)
            if field is not None
        )
    except ValueError as error:
        return f"not a valid format string ({error})"


def _shown(names: frozenset[str]) -> str:
    return ", ".join("{" + name + "}" for name in sorted(names)) if names else "none"


def check_english() -> list[str]:
    """Problems of :data:`bot.i18n.messages.MESSAGES` (the English texts)."""
    problems = []
    for key, message in MESSAGES.items():
        texts = (
            (message.singular, message.plural) if isinstance(message, Plural) else (message.text,)
        )
        names = [_names([text]) for text in texts]
        for found in names:
            if isinstance(found, str):
                problems.append(f"en: {key}: {found}")
            elif bad := frozenset(name for name in found if not name.isidentifier()):
                problems.append(f"en: {key}: placeholders must be names, not {_shown(bad)}")
        if (
            len(names) == 2
            and isinstance(names[0], frozenset)
            and isinstance(names[1], frozenset)
            and names[0] != names[1]
        ):
            problems.append(
                f"en: {key}: the singular has placeholders {_shown(names[0])}, "
                f"the plural {_shown(names[1])}"
            )
    return problems


def _without_dates(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.startswith(DATE_HEADERS))


def _read(path: Path, locale: str | None = None) -> PoCatalog:
    return parsed(path.read_bytes(), locale)


def check_template(root: Path = ROOT) -> list[str]:
    """Whether ``pybabel extract``, run in ``root`` (as configured by its pyproject.toml), makes
    the committed template (``root/bot/i18n/locales/messages.pot``), dates aside."""
    pyproject = root / "pyproject.toml"
    template = root / TEMPLATE.relative_to(ROOT)
    if not pyproject.is_file():
        return [
            f"messages.pot: cannot re-extract it: no {pyproject} (run the check in a "
            "source checkout)"
        ]
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / f"{DOMAIN}.pot"
        run = subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", "-q", "extract", "-o", str(fresh)],
            cwd=root,
            capture_output=True,
            text=True,
            env={**os.environ, "BABEL_PYPROJECT_TOML": str(pyproject)},
        )
        if run.returncode:
            return [f"messages.pot: pybabel extract failed: {run.stderr.strip()}"]
        if not template.is_file():
            return [f"messages.pot: missing ({template}): run pybabel extract"]
        if _without_dates(fresh.read_text("utf-8")) == _without_dates(template.read_text("utf-8")):
            return []
        new, old = _read(fresh), _read(template)
    new_ids = {m.context: _texts(m) for m in new if m.id}
    old_ids = {m.context: _texts(m) for m in old if m.id}
    problems = [
        f"messages.pot: {key}: "
        + (
            "new in the messages"
            if key not in old_ids
            else "no longer in the messages"
            if key not in new_ids
            else "its English text changed in the messages"
        )
        for key in sorted(new_ids.keys() | old_ids.keys(), key=str)  # context: str | None
        if new_ids.get(key) != old_ids.get(key)
    ]
    return [f"{problem}: run pybabel extract, then pybabel update" for problem in problems] or [
        "messages.pot: differs from what pybabel extract makes of the messages (comments, flags, "
        "header or order): run pybabel extract"
    ]


def check_plural_forms(language: str, catalog: PoCatalog) -> list[str]:
    """Whether the catalog's ``Plural-Forms`` rule picks form ``i`` for exactly the counts of
    one CLDR plural category of ``language`` (Babel's ``Locale.plural_form``), for each form."""
    try:
        rule = gettext.c2py(catalog.plural_expr)
    except ValueError as error:
        return [f"{language}: Plural-Forms {catalog.plural_forms!r}: {error}"]
    cldr = Locale.parse(language).plural_form
    categories: dict[int, set[str]] = {}
    for n in COUNTS:
        categories.setdefault(rule(n), set()).add(cldr(n))
    shared = {index: sorted(c) for index, c in categories.items() if len(c) > 1}
    unused = sorted(set(range(catalog.num_plurals)) - set(categories))
    if shared or unused or max(categories) >= catalog.num_plurals:
        detail = ", ".join(f"form {i} serves CLDR's {' and '.join(c)}" for i, c in shared.items())
        detail += "".join(f", form {i} is never used" for i in unused)
        return [
            f"{language}: Plural-Forms {catalog.plural_forms!r} disagrees with CLDR's plural "
            f"rules ({detail.strip(', ') or 'a form beyond nplurals'}); Babel's (which "
            f"pybabel init writes) is {get_plural(language).plural_forms!r}"
        ]
    return []


def check_catalog(language: str, po: Path, template: PoCatalog) -> list[str]:
    """Problems of the catalog ``po`` of ``language`` against ``template``."""
    try:
        catalog = _read(po)  # the language as its header says
    except Exception as error:  # any parse error of a hand-edited file is a problem to report
        return [f"{language}: {po.name} cannot be read: {error}"]
    problems = []
    if catalog.fuzzy:
        problems.append(
            f"{language}: the header is marked fuzzy (pybabel compile skips the "
            "whole catalog): remove the flag"
        )
    if str(catalog.locale) != language:
        problems.append(f"{language}: its header says Language: {catalog.locale}")
    problems += check_plural_forms(language, catalog)
    wanted = {m.context: m for m in template if m.id}
    have = {m.context: m for m in catalog if m.id}
    for key in sorted(wanted.keys() - have.keys(), key=str):  # context: str | None
        problems.append(f"{language}: {key}: not in the catalog: run pybabel update")
    for key in sorted(have.keys() - wanted.keys(), key=str):
        problems.append(f"{language}: {key}: no longer in messages.pot: run pybabel update")
    for key, english in wanted.items():
        message = have.get(key)
        if message is None:
            continue
        if _texts(message) != _texts(english):
            problems.append(
                f"{language}: {key}: translates an older English text: run pybabel update"
            )
            continue
        if message.fuzzy:
            problems.append(
                f"{language}: {key}: marked fuzzy (English is shown until a "
                "translator reviews it and removes the flag)"
            )
        forms = _forms(message)
        if english.pluralizable and len(forms) != catalog.num_plurals:
            problems.append(
                f"{language}: {key}: {len(forms)} plural forms, Plural-Forms says "
                f"{catalog.num_plurals}"
            )
        if not all(forms):
            problems.append(
                f"{language}: {key}: "
                + (
                    "not translated"
                    if not any(forms)
                    else f"plural form {[i for i, f in enumerate(forms) if not f]} not translated"
                )
            )
            continue
        want = _names(_texts(english))
        for index, form in enumerate(forms):
            got = _names([form])
            if got == want or isinstance(want, str):  # an English problem: check_english's
                continue
            where = f" (plural form {index})" if english.pluralizable else ""
            problems.append(
                f"{language}: {key}{where}: "
                + (
                    got
                    if isinstance(got, str)
                    else f"placeholders {_shown(got)}, the English text has {_shown(want)}"
                )
            )
    return problems


def compiled(po: Path, language: str) -> bytes:
    """The ``.mo`` that ``pybabel compile`` makes of ``po`` (fuzzy messages left out)."""
    return _compiled(po.read_bytes(), language)


@functools.lru_cache(maxsize=64)
def _compiled(data: bytes, language: str) -> bytes:
    out = io.BytesIO()
    write_mo(out, parsed(data, language), use_fuzzy=False)
    return out.getvalue()


@functools.lru_cache(maxsize=64)
def _content(mo: bytes) -> tuple[str, dict[tuple[str | None, tuple[str, ...]], tuple[str, ...]]]:
    """What the bot reads in a ``.mo``: its Plural-Forms rule and its translations."""
    catalog = read_mo(io.BytesIO(mo))
    return catalog.plural_forms, {(m.context, _texts(m)): _forms(m) for m in catalog if m.id}


def check_compiled(language: str, po: Path) -> list[str]:
    """Whether ``messages.mo`` beside ``po`` holds what ``pybabel compile`` makes of it: the
    same translations and Plural-Forms rule (so a ``.mo`` that Poedit compiled with GNU
    ``msgfmt``, laid out otherwise, passes as well)."""
    mo = po.with_suffix(".mo")
    if not mo.is_file():
        return [f"{language}: {mo.name} is missing: run pybabel compile"]
    try:
        want_rule, want = _content(compiled(po, language))
    except Exception:  # an unreadable .po: reported by check_catalog
        return []
    try:
        have_rule, have = _content(mo.read_bytes())
    except Exception as error:  # a truncated or foreign file
        return [f"{language}: {mo.name} cannot be read ({error}): run pybabel compile"]
    differ = sorted(
        {str(key[0]) for key in want.keys() ^ have.keys()}
        | {str(key[0]) for key in want.keys() & have.keys() if want[key] != have[key]}
    )
    if have_rule != want_rule:
        differ.insert(0, "Plural-Forms")
    if differ:
        shown = ", ".join(differ[:5]) + (f" and {len(differ) - 5} more" if len(differ) > 5 else "")
        return [
            f"{language}: {mo.name} is not the compiled {po.name} ({shown}): run pybabel compile"
        ]
    return []


def problems(root: Path = ROOT, locales: Path | None = None) -> list[str]:
    """Everything :mod:`bot.i18n.check` checks, as messages naming the language and key.

    Args:
        root: The repository's root, where ``pybabel extract`` is re-run.
        locales: The catalogs' folder (default: ``root/bot/i18n/locales``).

    Returns:
        The problems found, empty when every catalog is complete and up to date.
    """
    locales = locales or root / LOCALES.relative_to(ROOT)
    style, found = load_style(locales / STYLE)
    found = check_english() + check_counts(style) + found + check_template(root)
    template_path = locales / f"{DOMAIN}.pot"
    if not template_path.is_file():
        return found
    template = _read(template_path)
    catalogs = {p.parent.parent.name: p for p in sorted(locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))}
    for language in SUPPORTED:
        if language != DEFAULT and language not in catalogs:
            found.append(
                f"{language}: in SUPPORTED but has no catalog "
                f"(locales/{language}/LC_MESSAGES/{DOMAIN}.po): run pybabel init -l "
                f"{language}"
            )
    for language, po in catalogs.items():
        if language not in SUPPORTED:
            found.append(f"{language}: has a catalog but is not in bot.i18n.SUPPORTED")
        found += check_catalog(language, po, template)
        found += check_wording(language, po, template, style)
        found += check_compiled(language, po)
    return found


def main() -> int:
    """Print the problems found (on stderr) or a summary.

    Returns:
        0 when every catalog is complete and up to date, else 1.
    """
    found = problems()
    for problem in found:
        print(f"i18n check: {problem}", file=sys.stderr)
    if found:
        print(
            f"i18n check: FAILED: {len(found)} problem(s); the workflow is in "
            "docs/development.md (Translating)",
            file=sys.stderr,
        )
        return 1
    languages = ", ".join(language for language in SUPPORTED if language != DEFAULT)
    print(
        f"i18n check: OK: {len(MESSAGES)} messages, complete in {languages}; messages.pot "
        "and the .mo files up to date"
    )
    return 0
