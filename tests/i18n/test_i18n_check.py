"""Tests for bot.i18n.check (``python -m bot.i18n check``, run by CI): the committed catalogs pass
it, and each kind of problem in a copy of them is reported, naming the language and key."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from bot.i18n import check, wording
from bot.i18n.messages import N_, NP_, Plural, Text

HI = Path("bot/i18n/locales/hi/LC_MESSAGES/messages.po")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A copy of what the check reads: pyproject.toml, the messages and the catalogs."""
    shutil.copy(check.ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "bot/i18n").mkdir(parents=True)
    shutil.copytree(
        check.HERE / "messages",
        tmp_path / "bot/i18n/messages",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    shutil.copytree(check.LOCALES, tmp_path / "bot/i18n/locales")
    return tmp_path


def edit(path: Path, old: str, new: str) -> None:
    """Replace ``old`` (which must be there) by ``new`` in the file ``path``."""
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def recompile(repo: Path, language: str = "hi") -> None:
    """Compile the copy's catalog of ``language``, as pybabel compile would."""
    po = repo / "bot/i18n/locales" / language / "LC_MESSAGES/messages.po"
    po.with_suffix(".mo").write_bytes(check.compiled(po, language))


def test_the_committed_catalogs_pass():
    """The repository's catalogs are complete and its generated files up to date."""
    assert check.problems() == []


def test_a_copy_passes_until_edited(repo):
    """The copy the other tests break passes as it is (so their problems are the edits')."""
    assert check.problems(repo) == []


def test_the_command():
    """``python -m bot.i18n check`` exits 0 with a summary when everything is in order."""
    run = subprocess.run(
        [sys.executable, "-m", "bot.i18n", "check"], cwd=check.ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    assert "i18n check: OK" in run.stdout


def test_the_command_fails_naming_the_problems(monkeypatch, capsys):
    """With problems, main() returns 1 and prints each one."""
    monkeypatch.setattr(check, "problems", lambda: ["hi: greeting: not translated"])
    assert check.main() == 1
    err = capsys.readouterr().err
    assert "i18n check: hi: greeting: not translated" in err and "FAILED: 1 problem" in err


Edit = Callable[[Path], None]

CATALOG_EDITS: dict[str, tuple[Edit, str]] = {
    "untranslated": (
        lambda po: edit(po, 'msgstr "कठिन"', 'msgstr ""'),
        "hi: level.hard: not translated",
    ),
    "fuzzy": (
        lambda po: edit(
            po,
            '#, python-brace-format\nmsgctxt "question_header"',
            '#, fuzzy, python-brace-format\nmsgctxt "question_header"',
        ),
        "hi: question_header: marked fuzzy",
    ),
    "placeholder": (
        lambda po: edit(po, 'msgstr "स्तर: {level}"', 'msgstr "स्तर: {levl}"'),
        "hi: level_line: placeholders {levl}, the English text has {level}",
    ),
    "placeholder dropped": (
        lambda po: edit(po, 'msgstr "स्रोत: {source}"', 'msgstr "स्रोत"'),
        "hi: source: placeholders none, the English text has {source}",
    ),
    "bad format": (
        lambda po: edit(po, 'msgstr "स्तर: {level}"', 'msgstr "स्तर: {level"'),
        "hi: level_line: not a valid format string",
    ),
    "plural form missing": (
        lambda po: edit(po, 'msgstr[1] "{count} प्रश्न"', 'msgstr[1] ""'),
        "hi: question_count: plural form [1] not translated",
    ),
    "plural form placeholder": (
        lambda po: edit(po, 'msgstr[1] "{count} प्रश्न"', 'msgstr[1] "कई प्रश्न"'),
        "hi: question_count (plural form 1): placeholders none, the English text has {count}",
    ),
    # Poedit's default rule for Hindi: 0 would take the plural form, CLDR says "one"
    "Plural-Forms": (
        lambda po: edit(po, "plural=(n > 1);", "plural=(n != 1);"),
        "hi: Plural-Forms 'nplurals=2; plural=(n != 1);' disagrees with CLDR",
    ),
    "header fuzzy": (
        lambda po: edit(po, '\nmsgid ""\nmsgstr ""\n', '\n#, fuzzy\nmsgid ""\nmsgstr ""\n'),
        "hi: the header is marked fuzzy",
    ),
    "Language": (
        lambda po: edit(po, '"Language: hi\\n"', '"Language: el\\n"'),
        "hi: its header says Language: el",
    ),
    "message missing": (
        lambda po: edit(po, 'msgctxt "level.easy"\nmsgid "Easy"\nmsgstr "आसान"\n', ""),
        "hi: level.easy: not in the catalog: run pybabel update",
    ),
    "older English": (
        lambda po: edit(po, 'msgid "Easy"', 'msgid "Simple"'),
        "hi: level.easy: translates an older English text: run pybabel update",
    ),
    "obsolete message": (
        lambda po: po.write_text(
            po.read_text("utf-8") + ('\nmsgctxt "gone"\nmsgid "Gone"\nmsgstr "गया"\n'), "utf-8"
        ),
        "hi: gone: no longer in messages.pot: run pybabel update",
    ),
}


@pytest.mark.parametrize("name", CATALOG_EDITS)
def test_a_catalog_problem_is_reported(repo, name):
    """Each kind of incomplete or wrong catalog is reported with its language and key (the
    .mo compiled again, so that the problem is the only one)."""
    change, expected = CATALOG_EDITS[name]
    change(repo / HI)
    recompile(repo)
    found = check.problems(repo)
    assert any(problem.startswith(expected) for problem in found), found
    assert all(problem.startswith("hi: ") and "messages.mo" not in problem for problem in found)


def test_a_stale_mo_is_reported(repo):
    """A .po edited but not compiled again is reported, naming the messages that differ;
    compiling it clears the problem; a missing .mo is reported."""
    edit(repo / HI, 'msgstr "कठिन"', 'msgstr "बहुत कठिन"')
    edit(repo / HI, 'msgstr "आसान"', 'msgstr "बहुत आसान"')
    assert check.problems(repo) == [
        "hi: messages.mo is not the compiled messages.po (level.easy, "
        "level.hard): run pybabel compile"
    ]
    recompile(repo)
    assert check.problems(repo) == []
    (repo / HI).with_suffix(".mo").unlink()
    assert check.problems(repo) == ["hi: messages.mo is missing: run pybabel compile"]


def test_a_mo_compiled_by_another_tool_passes(repo):
    """A .mo with the .po's translations but another header (as Poedit's msgfmt writes it)
    passes; one whose Plural-Forms rule differs does not."""
    po = repo / HI
    with po.open("rb") as file:
        catalog = read_po(file, locale="hi")
    catalog.last_translator = "Someone <someone@example.org>"
    out = io.BytesIO()
    write_mo(out, catalog)
    assert out.getvalue() != po.with_suffix(".mo").read_bytes()
    po.with_suffix(".mo").write_bytes(out.getvalue())
    assert check.problems(repo) == []
    poedit_rule = po.read_text("utf-8").replace("plural=(n > 1);", "plural=(n != 1);")
    out = io.BytesIO()
    write_mo(out, read_po(io.StringIO(poedit_rule), locale="hi"))
    po.with_suffix(".mo").write_bytes(out.getvalue())
    assert check.problems(repo) == [
        "hi: messages.mo is not the compiled messages.po (Plural-Forms): run pybabel compile"
    ]


def test_a_stale_template_is_reported(repo):
    """A message changed but not extracted again: the template's keys that differ are named."""
    messages = repo / "bot/i18n/messages/players.py"
    edit(
        messages,
        'N_("level.hard", "Hard"),',
        'N_("level.hard", "Difficult"),\n    N_("level.expert", "Expert"),',
    )
    edit(messages, 'N_("level.easy", "Easy"),\n', "")
    assert check.problems(repo) == [
        f"messages.pot: {key}: {what}: run pybabel extract, then pybabel update"
        for key, what in [
            ("level.easy", "no longer in the messages"),
            ("level.expert", "new in the messages"),
            ("level.hard", "its English text changed in the messages"),
        ]
    ]


def test_a_template_differing_otherwise_is_reported(repo):
    """A difference that is not a message's text (here a translator comment) is reported too,
    while the date of extraction is not."""
    messages = repo / "bot/i18n/messages/players.py"
    edit(messages, '    N_("level.hard"', '    # Translators: of a question\n    N_("level.hard"')
    found = check.problems(repo)
    assert len(found) == 1 and found[0].startswith("messages.pot: differs"), found
    pot = repo / "bot/i18n/locales/messages.pot"
    text = pot.read_text("utf-8")
    date = next(line for line in text.splitlines() if line.startswith('"POT-Creation-Date:'))
    edit(messages, "    # Translators: of a question\n", "")
    edit(pot, date, '"POT-Creation-Date: 2000-01-01 00:00+0000\\n"')
    assert check.problems(repo) == []


def test_languages_must_match_supported(repo):
    """A catalog of a language not in SUPPORTED, and a supported language without a catalog,
    are reported."""
    locales = repo / "bot/i18n/locales"
    shutil.copytree(locales / "hi", locales / "kl")
    edit(locales / "kl/LC_MESSAGES/messages.po", '"Language: hi\\n"', '"Language: kl\\n"')
    shutil.rmtree(locales / "el")
    found = check.problems(repo)
    assert "kl: has a catalog but is not in bot.i18n.SUPPORTED" in found
    assert any(p.startswith("el: in SUPPORTED but has no catalog") for p in found), found


def test_english_problems_are_reported(monkeypatch):
    """The English texts: placeholders that are not names, invalid format strings, and plural
    forms whose placeholders differ."""
    monkeypatch.setattr(
        check,
        "MESSAGES",
        {
            "good": N_("good", "Hi, {name}"),
            "positional": N_("positional", "Hi, {}"),
            "brace": N_("brace", "Hi, {name"),
            "plural": NP_("plural", "{count} thing", "{count} things of {name}"),
            "plural_ok": NP_("plural_ok", "one thing", "{count} things"),
        },
    )
    assert check.check_english() == [
        "en: positional: placeholders must be names, not {}",
        "en: brace: not a valid format string (expected '}' before end of string)",
        "en: plural: the singular has placeholders {count}, the plural {count}, {name}",
        "en: plural_ok: the singular has placeholders none, the plural {count}",
    ]


def test_messages_have_unique_keys():
    """Two messages with one key are refused when the messages are loaded."""
    from bot.i18n.messages import _by_key

    with pytest.raises(ValueError, match="level"):
        _by_key(Text("level", "Level"), N_("level", "Stage"))


# --- the wording (locales/style.toml): counts, forms of address, terms --------------------

EL = Path("bot/i18n/locales/el/LC_MESSAGES/messages.po")

WORDING_EDITS: dict[str, tuple[Path, str, str, str]] = {
    "a Hindi term written otherwise": (
        HI,
        'msgstr "⚙️ ग्रुप की सेटिंग"',
        'msgstr "⚙️ समूह की सेटिंग"',
        "hi: settings_title: “समूह”: one term for one thing: write ग्रुप",
    ),
    "seconds abbreviated": (
        HI,
        'msgstr[0] "{count} सेकंड"\nmsgstr[1] "{count} सेकंड"\n\n#, python-brace-format\n'
        'msgctxt "settings_scoring"',
        'msgstr[0] "{count} से."\nmsgstr[1] "{count} से."\n\n#, python-brace-format\n'
        'msgctxt "settings_scoring"',
        "hi: settings_seconds_button: “से.”: one term for one thing: write सेकंड",
    ),
    "a feminine quiz": (
        HI,
        "बदलाव अगले क्विज़ से लागू होंगे।",
        "बदलाव अगली क्विज़ से लागू होंगे।",
        "hi: settings_hint: “अगली क्विज़”: one term for one thing",
    ),
    "तुम in Hindi": (
        HI,
        'msgstr "अपनी भाषा चुनें:"',
        'msgstr "अपनी भाषा चुनो:"',
        "hi: language_prompt: addresses a person as “चुनो”: write the imperative of आप",
    ),
    "Greek polite plural to a person": (
        EL,
        "Στείλε /quiz για να ξεκινήσεις.",
        "Στείλτε /quiz για να ξεκινήσετε.",
        "el: stats_none: addresses a person as “Στείλτε”: write the informal singular",
    ),
    "Greek singular to a group": (
        EL,
        "πατήστε ένα γράμμα για να απαντήσετε",
        "πάτησε ένα γράμμα για να απαντήσεις",
        "el: group_help: addresses a group as “πάτησε”: write the plural",
    ),
    "a Greek place not written as an ordinal": (
        EL,
        "Η θέση σου: {rank}η από {players}. Βαθμολογία",
        "Η θέση σου: {rank} από {players}. Βαθμολογία",
        "el: group_your_place: “{rank}”: one term for one thing: write {rank}η",
    ),
}


@pytest.mark.parametrize("name", WORDING_EDITS)
def test_a_wording_problem_is_reported(repo, name):
    """A term written otherwise, or a form of address not for the message's audience (a
    person, or a group), is reported with its language, key and what to write; nothing else
    is (the .mo compiled again)."""
    po, old, new, expected = WORDING_EDITS[name]
    edit(repo / po, old, new)
    recompile(repo, po.parts[3])
    found = check.problems(repo)
    assert len(found) == 1 and found[0].startswith(expected), found


def test_words_are_matched_whole(repo):
    """A rule's form inside a longer word is not reported (लय in कार्यालय, the Greek plural
    ending in ώστε), and the same word on its own is."""
    edit(repo / HI, 'msgstr "अपनी भाषा चुनें:"', 'msgstr "कार्यालय की भाषा चुनें:"')
    edit(repo / EL, "Στείλε /quiz για να ξεκινήσεις.", "Στείλε /quiz ώστε να ξεκινήσεις.")
    recompile(repo, "hi")
    recompile(repo, "el")
    assert check.problems(repo) == []
    edit(repo / HI, 'msgstr "कार्यालय की भाषा चुनें:"', 'msgstr "लय की भाषा चुनें:"')
    recompile(repo, "hi")
    assert [p.split(":")[:2] for p in check.problems(repo)] == [["hi", " language_prompt"]]


def test_a_message_to_a_group_is_told_by_its_translator_comment(repo):
    """Without its "to a group" translator comment, group_help (in the plural) reads as a
    message to a person, and its plural is reported."""
    messages = repo / "bot/i18n/messages/players.py"
    edit(
        messages,
        "    # Translators: to a group (its members, in the plural)\n"
        '    N_(\n        "group_help",',
        '    N_(\n        "group_help",',
    )
    for name in ("extract", "update"):
        subprocess.run(
            [sys.executable, "-m", "babel.messages.frontend", "-q", name],
            cwd=repo,
            check=True,
            capture_output=True,
            env={**os.environ, "BABEL_PYPROJECT_TOML": str(repo / "pyproject.toml")},
        )
    found = check.problems(repo)
    assert any(p.startswith("el: group_help: addresses a person as “πατήστε”") for p in found), (
        found
    )


def test_the_style_file_is_checked(repo):
    """A missing style file, one that is not TOML, and entries that are wrong (a bad regular
    expression, one matching nothing at all, an unknown audience or key, a language without a
    catalog) are reported; the good entries still apply."""
    style = repo / "bot/i18n/locales/style.toml"
    text = style.read_text("utf-8")
    style.unlink()
    assert check.problems(repo) == [
        f"style.toml: missing ({style}): the wording rules (counted words, terms, forms of "
        "address) are not checked"
    ]
    style.write_text("[hi\n", "utf-8")
    assert check.problems(repo)[0].startswith("style.toml: cannot be read")
    style.write_text(text, "utf-8")
    hindi = repo / "bot/i18n/locales/hi/style.toml"
    shipped = hindi.read_text("utf-8").count("\n[[term]]")  # the added terms are numbered after
    hindi.write_text(
        hindi.read_text("utf-8") + '\n[[term]]\navoid = "(a"\nuse = "b"\n'
        '[[term]]\navoid = "x*"\nuse = "b"\n'
        '[[term]]\navoid = "y"\nuse = "b"\nto = "a crowd"\n'
        '[[term]]\navoid = "z"\nuse = "b"\nwhy = "c"\n',
        "utf-8",
    )
    (repo / "bot/i18n/locales/kl").mkdir()
    (repo / "bot/i18n/locales/kl/style.toml").write_text('[[term]]\navoid = "z"\nuse = "b"\n')
    edit(repo / HI, 'msgstr "⚙️ ग्रुप की सेटिंग"', 'msgstr "⚙️ समूह की सेटिंग"')
    recompile(repo)
    found = check.problems(repo)
    assert [p.split(":")[:2] for p in found] == [
        ["kl/style.toml", " not a language of bot.i18n.SUPPORTED"],
        *(["hi/style.toml", f" term[{shipped + i}]"] for i in range(4)),
        ["hi", " settings_title"],
    ]
    assert "not a regular expression" in found[1] and "empty text" in found[2]


def test_each_language_has_its_style_file(repo):
    """A supported language's style file missing, or not TOML, or with an entry of another
    kind, is reported by its name; the rules of a language stay out of the shared file."""
    greek = repo / "bot/i18n/locales/el/style.toml"
    greek.unlink()
    assert [p.split(" (")[0] for p in check.problems(repo)] == ["el/style.toml: missing"]
    greek.write_text("[[term]\n", "utf-8")
    assert check.problems(repo)[0].startswith("el/style.toml: cannot be read")
    greek.write_text('[[tone]]\navoid = "a"\nuse = "b"\n', "utf-8")
    assert check.problems(repo) == ["el/style.toml: only [[term]] and [[address]] entries"]
    greek.write_text("", "utf-8")
    shared = repo / "bot/i18n/locales/style.toml"
    shared.write_text(shared.read_text("utf-8") + '\n[[el.term]]\navoid = "a"\nuse = "b"\n')
    assert check.problems(repo) == [
        "style.toml: el: only what the languages share (a language's rules are in el/style.toml)"
    ]


def test_a_rule_in_a_language_file_applies_to_its_catalog_only(repo):
    """A term added to the Greek file is reported in the Greek catalog, not in the others."""
    greek = repo / "bot/i18n/locales/el/style.toml"
    greek.write_text(greek.read_text("utf-8") + '\n[[term]]\navoid = "Ρυθμίσεις"\nuse = "x"\n')
    found = check.problems(repo)
    assert found and {p.split(":")[0] for p in found} == {"el"}, found


COUNT_CASES: dict[str, tuple[Text | Plural, list[str]]] = {
    "count in a plain message": (
        N_("k", "{count} options"),
        ["en: k: has {count} but is not a plural message: declare it with NP_"],
    ),
    "a named count": (
        N_("k", "That is {size} characters long."),
        [
            "en: k: shows a count ({size} characters) but is not a plural message: declare it with "
            'NP_(..., number="size")'
        ],
    ),
    "a counted word of the plural messages": (
        N_("k", "{n} more players"),
        ["en: k: shows a count ({n} players)"],
    ),
    "a second count": (
        NP_("k", "{count} byte of {limit} bytes", "{count} bytes of {limit} bytes"),
        ["en: k: shows a second count ({limit} bytes) besides its number {count}"],
    ),
    "picked by its named number": (
        NP_("k", "{size} character", "{size} characters", number="size"),
        [],
    ),
    "its number shown formatted": (
        NP_("k", "{points} pt · {streak}", "{points} pts · {streak}"),
        [],
    ),
    "a unit and a preformatted count": (N_("k", "{seconds} s · {players} · {title} is long"), []),
}


@pytest.mark.parametrize("name", COUNT_CASES)
def test_a_count_must_be_a_plural_message(monkeypatch, name):
    """An English text that shows a count ({count}, or a number followed by a counted word)
    must be a plural message, picked by that number, and a plural message shows one count."""
    message, expected = COUNT_CASES[name]
    monkeypatch.setattr(
        wording,
        "MESSAGES",
        {
            "k": message,
            "question_count": NP_("question_count", "{count} question", "{count} questions"),
            "players": NP_("players", "… and {count} more player", "… and {count} more players"),
        },
    )
    style, _ = wording.load_style(check.LOCALES / wording.STYLE)
    found = wording.check_counts(style)
    assert len(found) == len(expected), found
    assert all(p.startswith(e) for p, e in zip(found, expected, strict=True)), found


def test_counted_words_come_from_the_plural_messages():
    """The words after a plural message's number that differ between its forms count, with
    the configured ones; words that do not change (a unit: "s") do not."""
    words = wording.counted_words(["characters"])
    assert {"questions", "attempts", "players", "characters"} <= words
    assert "s" not in words and "question" not in words
