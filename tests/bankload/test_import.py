"""`quizbot import`: GIFT, Aiken and CSV files to banks that load, validate and play."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from bot import i18n
from bot.bankload import load_bank, parse_bank
from bot.config import BUNDLED_BANKS
from bot.features.importing.files import SCHEMA_LINE, schema_line
from bot.features.importing.rules import Parsed, bank_data, parse_aiken, parse_csv, parse_gift
from bot.features.private.service import QuizService
from bot.kernel.bank import EXPLANATION_PLACEHOLDER
from bot.terminal.play import play
from storage import SQLiteStore
from tests.support.optionbanks import correct_label, shown_options

DATA = Path(__file__).resolve().parents[1] / "data" / "import"
GIFT = DATA / "computing.gift"
SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "banks" / "schema.json").read_text(encoding="utf-8")
)


def quizbot(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `quizbot` (this checkout's) to its end."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )


def line_of(path: Path, needle: str) -> int:
    """1-based number of the first line of ``path`` containing ``needle``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, start=1) if needle in line)


def options_of(parsed: Parsed, number: int) -> list[tuple[str, bool]]:
    """The options of the ``number``-th converted question (1-based)."""
    return list(parsed.questions[number - 1].options)


# --- the 20-question GIFT file, through the real command ---------------------------------------


async def test_a_gift_file_imports_validates_and_plays(tmp_path):
    """The GIFT file's 20 multiple-choice questions, its true/false and its several-right
    question become a bank that `quizbot validate` accepts, that passes the schema, and that
    plays to 22/22; each question type quizbot cannot ask is reported with its line, and the
    exit status is 0."""
    out = tmp_path / "computing.yaml"
    proc = quizbot(
        "import",
        str(GIFT),
        "--format",
        "gift",
        "--lang",
        "en",
        "--out",
        str(out),
        "--source-title",
        "Computing notes",
        "--source-url",
        "https://example.org/computing",
    )
    assert proc.returncode == 0, proc.stderr
    assert f"wrote {out}: bank 'computing', 22 of 28 question(s) converted" in proc.stdout
    for needle, kind in [
        ("::short::", "a short answer question"),
        ("::match::", "a matching question"),
        ("::numeric::", "a numerical question"),
        ("::essay::", "an essay question"),
        ("::description::", "a description"),
        ("::broken::", "unbalanced braces"),
    ]:
        assert f"{GIFT}:{line_of(GIFT, needle)}: skipped: {kind}" in proc.stderr, needle
    assert (
        f"{GIFT}:{line_of(GIFT, '~4 #That is a nibble.')}: note: feedback of answer 2 "
        "('That is a nibble.') dropped"
    ) in proc.stderr
    assert f"{GIFT}:{line_of(GIFT, '~%50%9')}: note: partial credit (50%) dropped" in (proc.stderr)

    validated = quizbot("validate", str(out))
    assert validated.returncode == 0, validated.stderr
    assert "computing v1, 22 questions, languages en" in validated.stdout
    document = out.read_text(encoding="utf-8")
    schema = document.splitlines()[0].removeprefix("# yaml-language-server: $schema=")
    assert (out.parent / schema).resolve() == BUNDLED_BANKS.resolve() / "schema.json", schema
    jsonschema.validate(yaml.safe_load(document), SCHEMA)

    bank = load_bank(out)
    shown: list[str] = []
    t = i18n.catalog("en")

    async def ask(prompt: str) -> str:
        several = prompt.startswith(t("play.prompt_several", last="J")[:12])
        if not (several or prompt.startswith(t("play_prompt_letters", last="J")[:12])):
            return ""
        on_screen = next(text for text in reversed(shown) if shown_options(text))
        if several:  # every right option's label
            [question] = [q for q in bank.questions if q.prompt.by_language["en"] in on_screen]
            right = {o.text.by_language["en"] for o in question.options if o.correct}
            return " ".join(k for k, v in shown_options(on_screen).items() if v in right)
        return correct_label(on_screen, bank)

    store = await SQLiteStore.open(tmp_path / "play.sqlite3")
    try:
        result = await play(
            QuizService(store, {bank.id: bank}), bank, "en", ask=ask, write=shown.append
        )
    finally:
        await store.close()
    assert result is not None and (result.score, result.total) == (22, 22)


def test_the_schema_line_leads_to_the_schema_from_where_the_bank_is_written(tmp_path):
    """A bank written into banks/ names ``./schema.json`` as the shipped banks do; written
    elsewhere it names the same file by the path from its own folder."""
    assert schema_line(BUNDLED_BANKS / "new.yaml") == SCHEMA_LINE
    line = schema_line(tmp_path / "deep" / "new.yaml")
    assert line.startswith("# yaml-language-server: $schema=../")
    schema = tmp_path / "deep" / line.removeprefix("# yaml-language-server: $schema=")
    assert schema.resolve() == (BUNDLED_BANKS / "schema.json").resolve()


def test_gift_texts_escapes_feedback_and_formats():
    """Titles become ids; escapes, multi-line text, missing-word blanks, [html] and feedback
    come out as Moodle reads them."""
    parsed = parse_gift(GIFT.read_text(encoding="utf-8"))
    by_name = {q.name: q for q in parsed.questions}
    escapes = by_name["escapes"]
    assert escapes.prompt == "Which of these is a C++ scope resolution operator: ::, ~, = or {}?"
    assert escapes.options == (("::", True), ("~", False), ("=", False), ("{}", False))
    assert escapes.explanation == "Two colons (::) name a member of a namespace or class."
    assert by_name["missing-word"].prompt == "The _____ protocol retransmits lost segments."
    assert by_name["dns"].prompt == "What does DNS translate domain names into?"
    assert by_name["html-question"].prompt == "Which tag makes bold text in HTML?"
    assert by_name["html-question"].options[0] == ("<b>", True)
    # general feedback wins; else the correct answer's own feedback is the explanation
    assert by_name["bits-in-byte"].explanation == (
        "A byte has 8 bits on every machine in use today."
    )
    assert by_name["ssh"].explanation == "Twenty-two: SSH's well-known port."
    assert by_name["binary"].explanation == "Yes: 8 + 2."
    assert by_name["Hex Digits"].explanation is None
    assert by_name["partial"].options == (("7", True), ("9", False), ("4", False), ("6", False))
    assert len(by_name["ten-options"].options) == 10
    assert parsed.found == 28
    assert [q.line for q in parsed.questions][:2] == [
        line_of(GIFT, "::bits-in-byte::"),
        line_of(GIFT, "::Hex Digits::"),
    ]


def test_gift_line_breaks_comments_and_weights():
    """`\\n` is a line break; `//` lines are dropped even inside a question; `\\\\` is a
    backslash; a 100% weight marks the right answer; two full-credit answers are refused."""
    parsed = parse_gift(
        "// header\n"
        "First line\\nsecond line, with a back\\\\slash?{\n"
        "// inside\n"
        "~%100%yes\n"
        "~no}\n"
        "\n"
        "Two right?{=a =b ~c}\n"
    )
    [question] = parsed.questions
    assert question.prompt == "First line\nsecond line, with a back\\slash?"
    assert question.options == (("yes", True), ("no", False))
    [note] = parsed.notes
    assert (note.line, note.skipped) == (7, True)
    assert note.message.startswith("2 answers have full credit")


GIFT_KINDS = """\
// true/false, with and without feedback
::sun::The sun is a star.{T}

::boil::Water boils at 50 degrees Celsius at sea level.{FALSE#It boils at 100.#Right: 100.}

::tf-general::Light is faster than sound.{TRUE####Light: 300,000 km/s; sound: 343 m/s.}

// several right: positive weights adding up to 100%
::langs::Which of these are programming languages?{
  ~%50%Python #Yes.
  ~%50%Go
  ~%-100%HTML
}

::thirds::Which are primes?{~%33.333%2 ~%33.333%3 ~%33.333%5 ~%-50%4 ~%0%9}

// weights that make no several-right question
::half::Which is even?{~4 ~%50%6 ~7}

::too-much::Which are vowels?{
  ~%50%a
  ~%60%e
  ~x
}

::all-right::Which are letters?{~%50%a ~%50%b}
"""


def test_gift_true_false_and_several_right_from_a_file(tmp_path):
    """A GIFT file with true/false (``{T}``, ``{FALSE#wrong#right}``, general feedback) and
    several-right questions (``%`` weights adding up to 100%) converts to the bank's kinds; a
    bank made of it loads; weights that make no several-right question are named by line."""
    source = tmp_path / "kinds.gift"
    source.write_text(GIFT_KINDS, encoding="utf-8")
    parsed = parse_gift(source.read_text(encoding="utf-8"))
    by_name = {q.name: q for q in parsed.questions}
    assert sorted(by_name) == ["boil", "langs", "sun", "tf-general", "thirds"]
    assert (by_name["sun"].answer, by_name["sun"].options) == (True, ())
    assert (by_name["boil"].answer, by_name["boil"].explanation) == (False, "It boils at 100.")
    assert by_name["tf-general"].explanation == "Light: 300,000 km/s; sound: 343 m/s."
    assert by_name["langs"].options == (("Python", True), ("Go", True), ("HTML", False))
    assert by_name["langs"].explanation == "Yes."
    assert [c for _, c in by_name["thirds"].options] == [True, True, True, False, False]
    problems = {(n.line, n.message.split(":")[0]) for n in parsed.notes if n.skipped}
    assert problems == {
        (line_of(source, "::half::"), "the positive % weights add up to 50%"),
        (line_of(source, "~%50%a"), "the positive % weights add up to 110%"),
        (line_of(source, "::all-right::"), "every answer is right"),
    }
    dropped = [n for n in parsed.notes if not n.skipped]
    assert [(n.line, n.message) for n in dropped] == [
        (
            line_of(source, "::boil::"),
            "feedback 'Right: 100.' dropped: a bank question has one explanation",
        )
    ]
    data, _ = bank_data(parsed, language="es", bank_id="kinds", title="T", description="D.")
    questions = {q["id"]: q for q in data["questions"]}
    assert (questions["sun"]["kind"], questions["sun"]["answer"]) == ("true-false", True)
    assert "options" not in questions["sun"]
    bank = parse_bank(yaml.safe_dump(data, allow_unicode=True))
    assert bank.question("sun").answer is True
    assert bank.question("langs").several
    jsonschema.validate(data, SCHEMA)


def test_bank_data_ids_placeholders_and_sources():
    """Ids come from titles (slugged, made unique) or the question's number; missing
    explanations and sources get placeholders, each noted; the bank loads."""
    parsed = parse_gift("::Same Name::A?{=x ~y}\n\n::same name::B?{=x ~y}\n\nC?{=x #why ~y}")
    data, lines = bank_data(
        parsed, language="el", bank_id="greek", title="Τίτλος", description="Περιγραφή."
    )
    questions = data["questions"]
    assert [q["id"] for q in questions] == ["same-name", "same-name-2", "q3"]
    assert lines == {"same-name": 1, "same-name-2": 3, "q3": 5}
    assert questions[0]["explanation"] == {"el": EXPLANATION_PLACEHOLDER}
    assert questions[2]["explanation"] == {"el": "why"}
    assert sum("no explanation" in n.message for n in parsed.notes) == 2
    assert any("3 question(s) without a source" in n.message for n in parsed.notes)
    bank = parse_bank(yaml.safe_dump(data, allow_unicode=True))
    assert bank.languages == ("el",)


# --- Aiken -----------------------------------------------------------------------------------

AIKEN = """\
What is the correct answer to this question?
A. Is it this one?
B. Maybe this answer?
C. Possibly this one?
D. Must be this one!
ANSWER: D

Which LMS has the most quiz import formats?
A) Moodle
B) ATutor
C) Claroline
D) Blackboard
E) WebCT
F) Ilias
ANSWER: A

A question that wraps
onto a second line?
A. yes
B. no
ANSWER: A

A question without its answer line
A. one
B. two

Another one?
A. one
B. two
ANSWER: C
"""


def test_aiken_questions_and_problems():
    """Both option styles, a question on two lines; a missing ANSWER: line and an answer
    naming no option are reported at the question's line."""
    parsed = parse_aiken(AIKEN)
    assert [q.prompt for q in parsed.questions] == [
        "What is the correct answer to this question?",
        "Which LMS has the most quiz import formats?",
        "A question that wraps onto a second line?",
    ]
    assert parsed.questions[0].options[3] == ("Must be this one!", True)
    assert [correct for _, correct in parsed.questions[1].options] == [True] + [False] * 5
    assert [(n.line, n.message) for n in parsed.notes] == [
        (23, "no ANSWER: line after the options"),
        (27, "ANSWER: 'C' (line 30) names no option (options: A, B)"),
    ]
    assert parsed.found == 5


def test_aiken_says_one_right_answer_and_true_false_as_two_options(tmp_path):
    """Aiken names one letter: ``ANSWER: A, C`` is reported (not read as A); options True and
    False (in any of the bot's languages) make a true/false question."""
    source = tmp_path / "kinds.txt"
    source.write_text(
        "Is the sun a star?\nA. True\nB. False\nANSWER: A\n\n"
        "Which are primes?\nA. 2\nB. 4\nC. 5\nANSWER: A, C\n\n"
        "¿Es azul el mar?\nA) Verdadero\nB) Falso\nANSWER: B\n",
        encoding="utf-8",
    )
    parsed = parse_aiken(source.read_text(encoding="utf-8"))
    assert [(q.line, q.answer, q.options) for q in parsed.questions] == [
        (1, True, ()),
        (line_of(source, "¿Es azul"), False, ()),
    ]
    [note] = parsed.notes
    assert note.line == line_of(source, "Which are primes?")
    assert note.message.startswith("ANSWER: 'A, C' (line 10) names several options")


def test_aiken_through_the_command(tmp_path):
    """`quizbot import --format aiken`: 3 of 5 converted, explanations left as placeholders
    (Aiken has none), the bank validates."""
    source = tmp_path / "lms.txt"
    source.write_text(AIKEN, encoding="utf-8")
    out = tmp_path / "lms.yaml"
    proc = quizbot(
        "import",
        str(source),
        "--format",
        "aiken",
        "--out",
        str(out),
        "--id",
        "lms-quiz",
        "--title",
        "LMS",
        "--level",
        "easy",
    )
    assert proc.returncode == 0, proc.stderr
    assert "3 of 5 question(s) converted" in proc.stdout
    assert f"{source}:23: skipped: no ANSWER: line after the options" in proc.stderr
    bank = load_bank(out)
    assert (bank.id, bank.level, bank.title.by_language["en"]) == ("lms-quiz", "easy", "LMS")
    assert bank.questions[0].explanation.by_language["en"] == EXPLANATION_PLACEHOLDER
    # valid, but `validate --strict` refuses the placeholders left to write (and names them)
    lenient = quizbot("validate", str(out))
    assert lenient.returncode == 0, lenient.stderr
    strict = quizbot("validate", "--strict", str(out))
    assert strict.returncode == 1
    placeholders = [
        line
        for line in (strict.stdout + strict.stderr).splitlines()
        if "[import-placeholder]" in line
    ]
    assert len(placeholders) == 3 * 3  # explanation, source title and url of 3 questions
    # each names the line and column of the text to write (the source's too)
    assert all(
        re.match(rf"error: {re.escape(str(out))}:\d+:\d+: ", line) for line in placeholders
    ), placeholders
    assert any("field 'source.url'" in line for line in placeholders)
    assert any("field 'explanation.en'" in line for line in placeholders)


# --- CSV -------------------------------------------------------------------------------------

CSV = """\
id,prompt,A,B,C,D,correct,explanation,source_title,source_url
bits,How many bits in a byte?,8,4,16,,A,Eight bits.,Notes,https://example.org/notes
,"A prompt with a comma, and
a line break?",yes,no,,,b,"Because ""yes"".",,
bad,No such option?,x,y,,,C,,,
dup,Same texts?,same,same,,,A,,,
"""


def test_csv_rows_and_problems():
    """One row per question; quoted cells span lines; the letter names the correct column;
    a row whose letter names no option is reported with its line."""
    parsed = parse_csv(CSV)
    first, second = parsed.questions[:2]
    assert (first.name, first.options, first.source) == (
        "bits",
        (("8", True), ("4", False), ("16", False)),
        ("Notes", "https://example.org/notes"),
    )
    assert first.explanation == "Eight bits."
    assert second.prompt == "A prompt with a comma, and a line break?"
    assert (second.line, second.options[1], second.explanation) == (
        3,
        ("no", True),
        'Because "yes".',
    )
    assert [(n.line, n.message.split(":")[0]) for n in parsed.notes] == [(5, "correct is 'C'")]


def test_csv_takes_up_to_twelve_options_a_to_l():
    """Columns A to L make up to 12 options (the Bot API's and the bank's limit), the letter L
    naming the last as correct."""
    labels = "ABCDEFGHIJKL"
    row = "Twelve?," + ",".join(f"o{i}" for i in range(12)) + ",L"
    parsed = parse_csv("prompt," + ",".join(labels) + ",correct\n" + row + "\n")
    [question] = parsed.questions
    assert [text for text, _ in question.options] == [f"o{i}" for i in range(12)]
    assert [correct for _, correct in question.options] == [False] * 11 + [True]
    assert not parsed.notes


def test_csv_header_must_name_known_columns():
    """A typo in the header stops the import with the list of columns."""
    parsed = parse_csv("prompt,A,B,corect\nQ?,x,y,A\n")
    [note] = parsed.notes
    assert note.line == 1 and "unknown column(s) 'corect'" in note.message
    assert "missing column(s) correct" in note.message
    assert not parsed.questions


CSV_KINDS = """\
id,kind,prompt,A,B,C,D,correct,explanation
primes,,Which are primes?,2,4,5,9,"A,C",Two and five.
vowels,,Which are vowels?,a,b,e,,A;C,
sun,true-false,The sun is a star.,,,,,TRUE,A G-type star.
boil,,Water boils at 50 C at sea level.,,,,,false,At 100 C.
tf-options,true-false,Options too?,yes,no,,,TRUE,
bad-letter,,Which?,x,y,,,"B,Z",
all,,Every one?,x,y,,,"A,B",
bad-kind,multi,Which?,x,y,,,A,
tf-word,true-false,Is it?,,,,,yes,
one,,Only one?,x,,,,A,
formula,,=1+1,@SUM(A1),-2,,,B,
"""


def test_csv_several_right_and_true_false_from_a_file(tmp_path):
    """A CSV file says several right options (``A,C``, ``A;C``) and true/false (``kind``
    ``true-false``, or ``TRUE``/``FALSE`` with no options); each problem is named by the
    row's line and its column; a cell a spreadsheet would take for a formula is only text;
    the bank loads and passes the schema."""
    source = tmp_path / "kinds.csv"
    source.write_text(CSV_KINDS, encoding="utf-8")
    parsed = parse_csv(source.read_text(encoding="utf-8"))
    by_name = {q.name: q for q in parsed.questions}
    assert sorted(by_name) == ["boil", "formula", "primes", "sun", "vowels"]
    assert [c for _, c in by_name["primes"].options] == [True, False, True, False]
    assert [c for _, c in by_name["vowels"].options] == [True, False, True]
    assert (by_name["sun"].answer, by_name["sun"].explanation) == (True, "A G-type star.")
    assert (by_name["boil"].answer, by_name["boil"].options) == (False, ())
    assert by_name["formula"].prompt == "=1+1"
    assert by_name["formula"].options == (("@SUM(A1)", False), ("-2", True))
    assert [(n.line, n.message.split(":")[0]) for n in parsed.notes] == [
        (line_of(source, "tf-options"), "a true-false question has no options"),
        (line_of(source, "bad-letter"), "correct is 'B,Z'"),
        (line_of(source, "all,"), "correct is 'A,B'"),
        (line_of(source, "bad-kind"), "kind is 'multi'"),
        (line_of(source, "tf-word"), "correct is 'yes'"),
        (line_of(source, "one,"), "1 options"),
    ]
    assert "columns A, B must be empty" in parsed.notes[0].message
    assert "every option is right" in parsed.notes[2].message
    data, _ = bank_data(parsed, language="pt", bank_id="kinds", title="T", description="D.")
    jsonschema.validate(data, SCHEMA)
    bank = parse_bank(yaml.safe_dump(data, allow_unicode=True))
    assert bank.question("primes").several and bank.question("sun").answer is True


def test_csv_without_option_columns_holds_true_false_questions():
    """A file of true/false questions needs no option columns."""
    parsed = parse_csv("prompt,correct\nThe sky is blue.,True\nFish fly.,FALSE\n")
    assert [q.answer for q in parsed.questions] == [True, False]
    assert not parsed.notes


def test_csv_through_the_command_drops_what_the_loader_refuses(tmp_path):
    """A row the loader refuses (two options with the same text) is left out and reported
    with its line; the rest is written and loads."""
    source = tmp_path / "q.csv"
    source.write_text(CSV, encoding="utf-8")
    out = tmp_path / "q.yaml"
    proc = quizbot("import", str(source), "--format", "csv", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "2 of 4 question(s) converted" in proc.stdout
    assert (
        f"{source}:6: skipped: refused by the loader: option 2.text.en: has the same text "
        "as option 1"
    ) in proc.stderr
    assert [q.id for q in load_bank(out).questions] == ["bits", "q2"]


# --- exit statuses ---------------------------------------------------------------------------


def test_nothing_converted_is_exit_1_and_writes_nothing(tmp_path):
    """A file with no question of a bank's kinds: every question reported, exit 1, no file."""
    source = tmp_path / "none.gift"
    source.write_text(
        "::a::Who?{=Knuth =Donald Knuth}\n\n::b::Two plus two?{#4}\n", encoding="utf-8"
    )
    out = tmp_path / "none.yaml"
    proc = quizbot("import", str(source), "--format", "gift", "--out", str(out))
    assert proc.returncode == 1
    assert f"{source}:1: skipped: a short answer question" in proc.stderr
    assert f"{source}:3: skipped: a numerical question" in proc.stderr
    assert "no question of" in proc.stderr and "2 found" in proc.stderr
    assert not out.exists()


@pytest.mark.parametrize("problem", ["exists", "bad-id", "unreadable"])
def test_bad_arguments_are_exit_2(tmp_path, problem):
    """An existing --out without --force, an invalid --id, an unreadable file: exit 2, one
    line, nothing written."""
    out = tmp_path / "out.yaml"
    source = GIFT
    args = []
    if problem == "exists":
        out.write_text("keep me", encoding="utf-8")
    elif problem == "bad-id":
        args = ["--id", "Not An Id"]
    else:
        source = tmp_path / "missing.gift"
    proc = quizbot("import", str(source), "--format", "gift", "--out", str(out), *args)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].startswith("quizbot: ")
    if problem == "exists":
        assert out.read_text(encoding="utf-8") == "keep me"
    else:
        assert not out.exists()


def test_a_header_of_a_hundred_thousand_commas_is_refused_by_its_width():
    """A header row wider than any layout needs is refused by its number of cells, before its
    names are compared (comparing each with all the others made a 300 kB header of commas
    freeze the bot for half a minute)."""
    parsed = parse_csv("," * 100_000 + "\nq,a,b,A\n")
    assert parsed.questions == []
    (note,) = parsed.notes
    assert note.line == 1 and "100001 columns, at most" in note.message


def test_repeated_option_labels_and_ids_are_found_and_numbered_in_one_pass():
    """An Aiken question whose labels repeat is reported once per label; a CSV of rows that
    share one id gets the ids id, id-2, id-3, ... in row order (each number tried once)."""
    aiken = "Q?\n" + "".join(f"{label}. x\n" for label in "ABAB") + "ANSWER: A\n"
    (note,) = parse_aiken(aiken).notes
    assert note.message == "option label A, B used twice"
    rows = "id,prompt,A,B,correct\n" + "".join(f"same,p{i},a,b,A\n" for i in range(5))
    rows += "same-3,named,a,b,A\n"
    data, lines = bank_data(parse_csv(rows), language="en", bank_id="x", title="t", description="d")
    ids = [q["id"] for q in data["questions"]]
    assert ids == ["same", "same-2", "same-3", "same-4", "same-5", "same-3-2"]
    assert len(set(ids)) == len(ids) == len(lines)


@pytest.mark.parametrize(
    "markup, text",
    [
        ("a <b>bold</b> word", "a bold word"),
        ("one<br>two<p>three</p>", "one two three"),
        ("x <!-- a comment --> y", "x y"),
        ("x <!-- never closed", "x"),
        ("a < b and c > d", "a < b and c > d"),
        ("a <b", "a <b"),
        ("a <![ b", "a <![ b"),
        ("&lt;b&gt; &amp; &#65;", "<b> & A"),
        ("<![CDATA[x]]> y <!DOCTYPE html> <?php z ?>", "y"),
    ],
)
def test_gift_html_text(markup, text):
    """[html] text loses its markup as a browser shows it; a '<' that opens no tag is text."""
    (question,) = parse_gift(f"[html]{markup}{{=yes ~no}}").questions
    assert question.prompt == text


def test_gift_html_of_a_megabyte_of_open_tags_is_read_in_one_pass():
    """A run of unclosed tags (which html.parser reads in quadratic time) and a '<![' (on
    which it raises) are read: the question is converted, its markup left as text."""
    parsed = parse_gift("[html]Q" + "<a " * 300_000 + "<![{=yes ~no}")
    (question,) = parsed.questions
    assert question.prompt.startswith("Q<a <a")
