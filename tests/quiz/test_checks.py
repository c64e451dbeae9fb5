"""Tests for bot.kernel.checks: the item-writing warnings of ``quizbot validate``."""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.bankload import load_bank, parse_bank
from bot.kernel import checks, itemtext
from bot.kernel import leaks as leak_check
from bot.kernel.bank import TRUE_FALSE, Bank, Option, Question, Text, true_false_options
from bot.kernel.checks import Finding, check_bank, visible_length
from bot.kernel.leaks import leaks

REAL_BANK = Path(__file__).resolve().parents[2] / "banks" / "deepspeed-megatron.yaml"


def question(
    question_id: str,
    prompt: dict[str, str],
    options: list[dict[str, str]],
    correct: int,
    explanation: dict[str, str],
) -> dict[str, Any]:
    """A question in the bank schema; option ``correct`` is the right one."""
    return {
        "id": question_id,
        "prompt": prompt,
        "options": [
            {"text": text, **({"correct": True} if i == correct else {})}
            for i, text in enumerate(options)
        ],
        "explanation": explanation,
        "source": {"title": "A paper", "url": "https://example.org/paper"},
    }


def opt(en: str, hi: str, el: str) -> dict[str, str]:
    """A localized text in en, hi and el."""
    return {"en": en, "hi": hi, "el": el}


CLEAN = question(
    "clean",
    opt(
        "How many days has a leap year?",
        "लीप वर्ष में कितने दिन होते हैं?",
        "Πόσες ημέρες έχει ένα δίσεκτο έτος;",
    ),
    [
        opt("366 days", "366 दिन", "366 ημέρες"),
        opt("365 days", "365 दिन", "365 ημέρες"),
        opt("364 days", "364 दिन", "364 ημέρες"),
        opt("360 days", "360 दिन", "360 ημέρες"),
    ],
    0,
    opt(
        "A leap year adds 29 February.",
        "लीप वर्ष में 29 फ़रवरी जुड़ती है।",
        "Το δίσεκτο έτος προσθέτει την 29η Φεβρουαρίου.",
    ),
)


def make_bank(*questions: dict[str, Any]) -> dict[str, Any]:
    """A bank in en, hi and el: the clean question, then ``questions``."""
    return {
        "id": "checks",
        "version": 1,
        "default_language": "en",
        "languages": ["en", "hi", "el"],
        "level": "easy",
        "title": opt("T", "टी", "Τ"),
        "description": opt("D", "डी", "Δ"),
        "questions": [copy.deepcopy(CLEAN), *questions],
    }


def findings_of(tmp_path: Path, data: dict[str, Any]) -> list[Finding]:
    """Write ``data`` as a bank file, load it and run the checks."""
    path = tmp_path / "bank.yaml"
    path.write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8"
    )
    return check_bank(load_bank(path))


def located(finding: Finding, tmp_path: Path) -> str:
    """The line of the file the finding points at, from its column on."""
    line = (tmp_path / "bank.yaml").read_text(encoding="utf-8").splitlines()[finding.line - 1]
    return line[finding.column - 1 :]


def test_a_clean_bank_has_no_findings(tmp_path):
    assert findings_of(tmp_path, make_bank()) == []


def test_the_shipped_bank_is_clean():
    """The bundled bank passes every check in every language (CI runs validate --strict)."""
    assert [str(f) for f in check_bank(load_bank(REAL_BANK))] == []


def test_longest_correct_option_is_flagged_per_language(tmp_path):
    """A correct option far longer than the others is flagged in the language where it is so,
    naming file, line, column, question, language and field."""
    data = make_bank()
    data["questions"][0]["options"][0]["text"]["hi"] = "366 दिन (लीप)"
    (finding,) = findings_of(tmp_path, data)
    assert (finding.rule, finding.question_id, finding.language, finding.field) == (
        "longest-correct",
        "clean",
        "hi",
        "option 1.text.hi",
    )
    assert located(finding, tmp_path).startswith("366 दिन (लीप)")
    assert str(finding).startswith(
        f"{tmp_path / 'bank.yaml'}:{finding.line}:{finding.column}: "
        "question 'clean', language 'hi', field 'option 1.text.hi': "
    )


def test_a_slightly_longer_correct_option_is_not_flagged(tmp_path):
    """One more letter ("Stage 10" against "Stage 1") is no tell."""
    data = make_bank()
    data["questions"][0]["options"][0]["text"]["en"] = "366 days!"  # 9 against 8
    assert findings_of(tmp_path, data) == []


def test_very_uneven_options_are_flagged(tmp_path):
    """The longest option twice the shortest or more, and saying more (two more meaningful
    words): flagged at the shortest, with the waiver named."""
    data = make_bank()
    data["questions"][0]["options"][1]["text"]["el"] = "365 ημέρες, όπως σε κάθε κοινό έτος"
    (finding,) = findings_of(tmp_path, data)
    assert (finding.rule, finding.language, finding.field) == (
        "uneven-lengths",
        "el",
        "option 1.text.el",
    )
    assert "option 1 has 10 characters (2 words), option 2 has 35 (4 words)" in finding.message


@pytest.mark.parametrize(
    ("options", "language"),
    [
        (["Oslo", "Trondheim", "Bergen", "Tromsø"], "en"),
        (["80", "8080", "443", "8443"], "en"),
        (["ओस्लो", "ट्रॉनहैम", "बर्गन", "ट्रोम्सो"], "hi"),
        (["Όσλο", "Τρόντχαϊμ", "Μπέργκεν", "Τρόμσο"], "el"),
    ],
)
def test_short_answers_of_one_kind_are_not_uneven(tmp_path, options, language):
    """ "Oslo" against "Trondheim", "80" against "8080": more than twice as long, but one word
    each, so the length says nothing about which is right."""
    data = make_bank()
    for index, text in enumerate(options):
        data["questions"][0]["options"][index]["text"][language] = text
    assert findings_of(tmp_path, data) == []


def test_a_question_may_waive_a_rule(tmp_path):
    """``waive: [uneven-lengths]`` leaves that rule's findings out for that question only;
    the other rules still apply to it."""
    data = make_bank(copy.deepcopy(CLEAN) | {"id": "other"})
    for question_data in data["questions"]:
        question_data["options"][1]["text"]["en"] = "365 days, as in every common year"
    assert {f.question_id for f in findings_of(tmp_path, data)} == {"clean", "other"}
    data["questions"][0]["waive"] = ["uneven-lengths"]
    assert [(f.question_id, f.rule) for f in findings_of(tmp_path, data)] == [
        ("other", "uneven-lengths")
    ]
    data["questions"][0]["prompt"]["en"] = "How many days has a leap year: 366 days?"
    assert [(f.question_id, f.rule) for f in findings_of(tmp_path, data)] == [
        ("clean", "option-in-stem"),
        ("other", "uneven-lengths"),
    ]


def test_the_import_placeholder_cannot_be_waived():
    """A "TODO" shown to learners is never right: the rule is not among those a question may
    waive (the loader refuses ``waive: [import-placeholder]``)."""
    assert "import-placeholder" in checks.RULES
    assert "import-placeholder" not in checks.WAIVABLE
    assert set(checks.WAIVABLE) == set(checks.RULES) - {
        "import-placeholder",
        "picture-format",
        "leak-check-stopped",
    }


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "All of the above"),
        ("en", "None of the above"),
        ("hi", "उपरोक्त सभी"),
        ("hi", "इनमें से कोई नहीं"),
        ("el", "Όλα τα παραπάνω"),
        ("el", "Κανένα από τα παραπάνω"),
        ("el", "ΚΑΝΈΝΑ ΑΠΌ ΤΑ ΠΑΡΑΠΆΝΩ"),
    ],
)
def test_all_or_none_of_the_above_is_flagged_in_each_language(tmp_path, language, text):
    data = make_bank()
    data["questions"][0]["options"][3]["text"][language] = text
    flagged = [f for f in findings_of(tmp_path, data) if f.rule == "all-none-of-the-above"]
    assert [(f.language, f.field) for f in flagged] == [(language, f"option 4.text.{language}")]


def test_an_option_repeated_in_the_stem_is_flagged(tmp_path):
    data = make_bank()
    data["questions"][0]["prompt"]["en"] = "How many days has a leap year: 366 days?"
    (finding,) = findings_of(tmp_path, data)
    assert (finding.rule, finding.language, finding.field) == (
        "option-in-stem",
        "en",
        "option 1.text.en",
    )


LAYERS = question(
    "layers",
    opt(
        "How does pipeline parallelism split the model?",
        "पाइपलाइन पैरेललिज़्म मॉडल को कैसे बाँटता है?",
        "Πώς χωρίζει το μοντέλο ο παραλληλισμός pipeline;",
    ),
    [
        opt(
            "By slicing the weight matrices inside each layer",
            "हर लेयर के अंदर मैट्रिक्स को टुकड़ों में काटकर",
            "Τεμαχίζοντας τους πίνακες βαρών μέσα σε κάθε στρώμα",
        ),
        opt(
            "By replicating the entire model on every GPU",
            "हर GPU पर पूरे मॉडल की कॉपी रखकर",
            "Αντιγράφοντας ολόκληρο το μοντέλο σε κάθε GPU",
        ),
        opt(
            "By assigning different layers to different GPUs",
            "अलग-अलग GPU को अलग-अलग लेयर सौंपकर",
            "Αναθέτοντας διαφορετικά στρώματα σε διαφορετικές GPU",
        ),
        opt(
            "By quantizing the weights to a lower precision",
            "सभी वेट को कम प्रिसिज़न में क्वांटाइज़ करके",
            "Κβαντίζοντας τα βάρη του μοντέλου σε χαμηλότερη ακρίβεια",
        ),
    ],
    2,
    opt(
        "Each stage holds consecutive layers.",
        "हर स्टेज में एक के बाद एक आने वाली लेयर होती हैं।",
        "Κάθε στάδιο έχει διαδοχικά στρώματα.",
    ),
)

STAGES = question(
    "stages",
    opt(
        "Which ZeRO stage is the first to shard optimizer states?",
        "ZeRO किस स्टेज से ऑप्टिमाइज़र स्टेट को शार्ड करना शुरू करता है?",
        "Από ποιο στάδιο και μετά διαμερίζει το ZeRO τις καταστάσεις του βελτιστοποιητή;",
    ),
    [
        opt("Stage 0", "स्टेज 0", "Στάδιο 0"),
        opt("Stage 2", "स्टेज 2", "Στάδιο 2"),
        opt("Stage 1", "स्टेज 1", "Στάδιο 1"),
        opt("Stage 3", "स्टेज 3", "Στάδιο 3"),
    ],
    2,
    opt("It saves memory.", "यह मेमोरी बचाता है।", "Εξοικονομεί μνήμη."),
)


def with_explanation(text: dict[str, str]) -> dict[str, Any]:
    """The clean question, with another explanation."""
    changed = copy.deepcopy(CLEAN)
    changed["explanation"] = text
    return changed


@pytest.mark.parametrize(
    ("explanation", "language"),
    [
        ("Putting different layers on different GPUs is pipeline parallelism.", "en"),
        ("अलग-अलग GPU पर अलग-अलग लेयर रखना पाइपलाइन पैरेललिज़्म है।", "hi"),
        (
            "Η τοποθέτηση διαφορετικών στρωμάτων σε διαφορετικές GPU είναι παραλληλισμός pipeline.",
            "el",
        ),
        ("Unlike February, it is done by assigning different layers to different GPUs.", "en"),
    ],
)
def test_an_explanation_that_answers_another_question_is_flagged(tmp_path, explanation, language):
    """A paraphrase (or the very words) of another question's correct option, in a sentence
    about that question, is a leak: the explanation is shown before the other is answered."""
    data = make_bank(copy.deepcopy(LAYERS))
    data["questions"][0]["explanation"][language] = explanation
    (finding,) = findings_of(tmp_path, data)
    assert (finding.rule, finding.question_id, finding.language, finding.field) == (
        "answer-leak",
        "clean",
        language,
        f"explanation.{language}",
    )
    assert "question 'layers'" in finding.message
    assert located(finding, tmp_path).startswith(explanation[:10])


@pytest.mark.parametrize(
    ("explanation", "language"),
    [
        ("Its mass dwarfs the optimizer states (stage 1) and gradients (stage 2) alike.", "en"),
        ("स्टेज 3, ऑप्टिमाइज़र स्टेट (स्टेज 1) और ग्रेडिएंट (स्टेज 2) की तरह।", "hi"),
        ("Όπως οι καταστάσεις του βελτιστοποιητή (στάδιο 1) και οι κλίσεις (στάδιο 2).", "el"),
    ],
)
def test_a_short_answer_next_to_its_question_is_a_leak(tmp_path, explanation, language):
    """ "optimizer states (stage 1)" answers "which stage first shards optimizer states?",
    although stages 2 (and 3) are named too: stage 1 is the one next to the cue."""
    data = make_bank(copy.deepcopy(STAGES))
    data["questions"][0]["explanation"][language] = explanation
    (finding,) = findings_of(tmp_path, data)
    assert (finding.rule, finding.language) == ("answer-leak", language)
    assert "question 'stages'" in finding.message


@pytest.mark.parametrize(
    "explanation",
    [
        "Data parallelism here runs with ZeRO stage 1.",  # a name is no cue
        "Stage 1 to stage 3 all save memory.",  # no cue of the other question
        "Layers are what the model is made of, and GPUs run them.",  # shared words, no cue
    ],
)
def test_mentions_that_do_not_answer_are_not_leaks(explanation):
    """The heuristic of :func:`leaks` (cues of the other question next to its answer) does
    not flag a mere mention; naming a later question's answer is another test (below)."""
    from bot.bankload import parse_bank

    data = make_bank(copy.deepcopy(STAGES), copy.deepcopy(LAYERS))
    data["questions"][0]["explanation"]["en"] = explanation
    first, *others = parse_bank(yaml.safe_dump(data, allow_unicode=True)).questions
    assert not any(leaks(first, other, "en") for other in others)


@pytest.mark.parametrize(
    ("explanation", "language"),
    [
        ("Data parallelism here runs with ZeRO stage 1.", "en"),
        ("DeepSpeed's pipeline engine combines it with ZeRO stage 1 only.", "en"),
        ("DeepSpeed का पाइपलाइन इंजन इसे सिर्फ़ ZeRO स्टेज 1 के साथ जोड़ता है।", "hi"),
        ("Η μηχανή pipeline του DeepSpeed το συνδυάζει μόνο με το στάδιο 1 του ZeRO.", "el"),
        ("Stage 1 to stage 3 all save memory.", "en"),  # narrows it to two of the four
    ],
)
def test_an_explanation_naming_a_later_questions_answer_is_a_leak(tmp_path, explanation, language):
    """The plain case validate --strict must catch: an explanation names the correct option
    of a question asked later ("Stage 1"), in any language, even without the other question's
    words around it."""
    data = make_bank(copy.deepcopy(STAGES))
    data["questions"][0]["explanation"][language] = explanation
    (finding,) = findings_of(tmp_path, data)
    assert (finding.rule, finding.question_id, finding.field) == (
        "answer-leak",
        "clean",
        f"explanation.{language}",
    )
    assert "question 'stages'" in finding.message


@pytest.mark.parametrize(
    "explanation",
    [
        "Stage 10 and stage 12 are no stages at all.",  # "Stage 1" is not a whole word here
        "Stage 0, stage 1, stage 2 and stage 3 all exist.",  # every option named: none singled out
    ],
)
def test_naming_no_answer_or_every_option_is_no_leak(tmp_path, explanation):
    """The answer must stand as whole words, and naming all the options singles none out."""
    data = make_bank(copy.deepcopy(STAGES))
    data["questions"][0]["explanation"]["en"] = explanation
    assert findings_of(tmp_path, data) == []


def test_naming_an_earlier_questions_answer_is_not_this_leak(tmp_path):
    """An earlier question was answered before this explanation is shown: naming its answer
    gives nothing away (the heuristic of :func:`leaks` still looks both ways)."""
    early = question(
        "early",
        opt("How many stages has ZeRO?", "ZeRO के कितने स्टेज हैं?", "Πόσα στάδια έχει το ZeRO;"),
        [opt("Four", "चार", "Τέσσερα"), opt("Three", "तीन", "Τρία")],
        0,
        opt("They run from 0 to 3.", "वे 0 से 3 तक हैं।", "Είναι από το 0 έως το 3."),
    )
    data = make_bank(early)
    data["questions"][0]["explanation"]["en"] = "Four, counting stage 0."
    (finding,) = findings_of(tmp_path, data)  # the first question names the second's answer
    assert (finding.question_id, finding.rule) == ("clean", "answer-leak")
    data["questions"].reverse()  # now the question whose answer is named comes first
    assert findings_of(tmp_path, data) == []


def test_the_v2_leak_of_the_shipped_bank_is_found():
    """Version 2's 3d-parallelism explanation said the pipeline engine combines with "ZeRO
    stage 1 only", the answer of zero-stage-optimizer-state (asked next); version 3's does
    not name it."""
    bank = load_bank(REAL_BANK)
    three_d = bank.question("3d-parallelism")
    optimizer = bank.question("zero-stage-optimizer-state")
    v2 = (
        "Data, tensor and pipeline parallelism form the three axes of a grid of GPUs: "
        "data parallelism over the rest, which DeepSpeed's pipeline engine combines with "
        "ZeRO stage 1 only."
    )
    assert leak_check.names_answer(_with_en_explanation(three_d, v2), optimizer, "en")
    assert not leak_check.names_answer(three_d, optimizer, "en")


V2_PROMPTS = {
    "pipeline-vs-tensor": "Unlike tensor parallelism, how does pipeline parallelism split the "
    "model?",
    "zero-stage-params": "Which ZeRO stage gives the largest memory savings by also sharding the "
    "model parameters themselves?",
    "zero-stage-optimizer-state": "Which ZeRO stage is the first to shard optimizer states "
    "across data-parallel workers?",
}
"""The English prompts of versions 1 and 2 that version 3 reworded (they spelled out the first
question's answer in the preview): the v1 explanations leaked against these."""


def test_the_v1_leaks_of_the_shipped_bank_are_found():
    """The explanations of version 1 (tensor-parallel-split answered pipeline-vs-tensor;
    zero-stage-params and zero-stage-optimizer-state answered each other) are caught, against
    the prompts they were written for; the shipped explanations are not leaks."""
    bank = load_bank(REAL_BANK)
    tensor = bank.question("tensor-parallel-split")
    pipeline = _with_en_prompt(bank.question("pipeline-vs-tensor"))
    params = _with_en_prompt(bank.question("zero-stage-params"))
    optimizer = _with_en_prompt(bank.question("zero-stage-optimizer-state"))
    v1_tensor = "Putting different layers on different GPUs is pipeline parallelism."
    v1_params = (
        "Stage 3 partitions the parameters themselves on top of the optimizer states "
        "(stage 1) and gradients (stage 2)."
    )
    v1_optimizer = "Stage 2 adds the gradients (about 8×) and stage 3 the parameters."
    for q, text, other in (
        (tensor, v1_tensor, pipeline),
        (params, v1_params, optimizer),
        (optimizer, v1_optimizer, params),
    ):
        changed = _with_en_explanation(q, text)
        assert leaks(changed, other, "en"), q.id
        assert not leaks(q, other, "en"), q.id


def _with_en_prompt(q: Question) -> Question:
    return replace(q, prompt=Text({**q.prompt.by_language, "en": V2_PROMPTS[q.id]}))


def _with_en_explanation(q: Question, text: str) -> Question:
    return replace(q, explanation=Text({**q.explanation.by_language, "en": text}))


def test_visible_length_ignores_combining_marks():
    """Devanagari vowel signs and virama, and decomposed Greek accents, are not letters."""
    assert visible_length("स्टेज") == 3  # स ट ज
    assert visible_length("Στα\u0301διο") == 6
    assert visible_length("Stage") == 5


def test_words_fold_stem_and_drop_function_words():
    assert itemtext.words("The Stages of the pipeline", "en") == ["stage", "pipel"]
    assert itemtext.words("Τα ΣΤΆΔΙΑ του pipeline", "el") == ["σταδι", "pipel"]
    assert itemtext.words("हर लेयर के अंदर है।", "hi") == ["लेयर", "अंदर"]


@pytest.mark.parametrize(
    ("picture", "flagged"),
    [
        ("https://example.org/charts/zero.svg", "SVG"),
        ("https://example.org/zero.PDF?download=1", "PDF"),
        ("https://example.org/zero.png", None),
        ("https://example.org/zero.webp", None),
        ("https://example.org/pictures/zero", None),  # no extension: Telegram will tell
        ("AgACAgIAAxkBAAIBbGZpicture0123456789", None),  # a file id
    ],
)
def test_a_picture_telegram_cannot_send_is_found_with_its_line(tmp_path, picture, flagged):
    """``picture-format``: a picture URL of a kind Telegram does not send as a photo (an SVG,
    a PDF, ...) is a finding naming the file's line and the field; JPEG, PNG, WebP, a URL
    without an extension and a file id are not (issue 31, item 1)."""
    data = make_bank(copy.deepcopy(CLEAN) | {"id": "pictured", "picture": picture})
    found = [f for f in findings_of(tmp_path, data) if f.rule == "picture-format"]
    if flagged is None:
        assert found == []
        return
    [finding] = found
    assert (finding.question_id, finding.field) == ("pictured", "picture")
    assert f"is a {flagged} picture" in finding.message
    lines = (tmp_path / "bank.yaml").read_text().splitlines()
    assert finding.line is not None and "picture:" in lines[finding.line - 1]


def test_a_long_explanation_is_read_word_by_word_near_each_cue(monkeypatch):
    """The short-answer test looks at the words within LEAK_WINDOW of each cue, not at the
    whole explanation again for each one (a 3,500-character explanation of cues was read
    once per cue, per pair of questions: a 200-question quiz took minutes)."""
    from bot.bankload import parse_bank

    data = make_bank(copy.deepcopy(STAGES))
    cue_words = "optimizer states gradients " * 100
    data["questions"][0]["explanation"]["en"] = cue_words + "(stage 1)"
    first, stages = parse_bank(yaml.safe_dump(data, allow_unicode=True)).questions
    seen: list[int] = []
    nearest = leak_check._nearest

    def counted(said, position, own_words):  # type: ignore[no-untyped-def]
        seen.append(len(said))
        return nearest(said, position, own_words)

    monkeypatch.setattr(leak_check, "_nearest", counted)
    assert leaks(first, stages, "en")
    assert seen and max(seen) <= 2 * leak_check.LEAK_WINDOW + 1


def test_an_option_of_function_words_only_does_not_stop_the_check(tmp_path):
    """A distractor without a meaningful word ("The") has a share of 0 in the paraphrase test:
    a sentence with the other question's cues used to divide by its zero words."""
    long_answer = question(
        "long",
        opt("Which pipeline schedule splits microbatches?", "ह", "Ε"),
        [opt("interleaved pipeline schedule with microbatches", "क", "Α"), opt("The", "ख", "Β")],
        0,
        opt("Some words.", "ग", "Γ"),
    )
    data = make_bank(long_answer)
    data["questions"][0]["explanation"]["en"] = "The microbatches schedule splits."
    assert [(f.question_id, f.rule) for f in findings_of(tmp_path, data)] == [
        ("clean", "answer-leak"),
        ("long", "longest-correct"),
        ("long", "uneven-lengths"),
    ]


ADVERSARIAL_HEAD = (
    "id: worst\nversion: 1\ndefault_language: en\nlanguages: [en]\nlevel: easy\n"
    "title: {en: Worst}\ndescription: {en: Worst}\nquestions:\n"
)


def adversarial(questions: int, repeats: int, *, leaking: bool = False) -> Bank:
    """The worst-files benchmark's answer-leak quiz, small: two halves whose explanations are
    the other half's cues between both its options' words, over and over, so that every cue is
    as near to a distractor as to the answer (no leak ends the search). ``leaking`` ends the
    first explanation with a cue next to the answer alone, and a later answer named."""
    out = [ADVERSARIAL_HEAD]
    for n in range(questions):
        mine, theirs = ("alpha bravo", "delta echo") if n % 2 else ("delta echo", "alpha bravo")
        first, second = theirs.split()
        words = f"lima {first} mike lima {second} mike " * repeats
        if leaking and n == 0:
            words += "; alpha lima. Lima 4."
        out.append(
            f"- id: q{n}\n  prompt: {{en: 'What does {mine} {n} mean here?'}}\n"
            f"  options:\n  - text: {{en: 'lima {n}'}}\n    correct: true\n"
            f"  - text: {{en: 'mike {n}'}}\n"
            f"  explanation: {{en: '{words.strip()}'}}\n"
            f"  source: {{title: Atlas, url: 'https://example.org/atlas'}}\n"
        )
    return parse_bank("".join(out))


def test_an_adversarial_quiz_has_the_findings_it_had():
    """The adversarial quiz's findings are those of the check before it compared all pairs at
    once (commit 8290bfc): the same questions, wording and order."""
    assert check_bank(adversarial(8, 3)) == []
    assert [
        (f.question_id, f.field, f.message) for f in check_bank(adversarial(8, 3, leaking=True))
    ] == [
        ("q0", "explanation.en", f"gives away the answer of question 'q{n}' ('lima {n}')")
        for n in (1, 3, 4, 5, 7)
    ]


def reference_pairs(bank: Bank, language: str) -> set[tuple[int, int]]:
    """:func:`leak_check.leaking_pairs` asked pair by pair, as the check did before."""
    return {
        (k, j)
        for k, q in enumerate(bank.questions)
        for j, o in enumerate(bank.questions)
        if o is not q
        and o.kind != TRUE_FALSE
        and (leaks(q, o, language) or (j > k and leak_check.names_answer(q, o, language)))
    }


def test_all_pairs_at_once_agree_with_each_pair_asked():
    """:func:`leak_check.leaking_pairs` finds the pairs :func:`leaks` and ``names_answer`` find,
    on the shipped bank, the adversarial quiz and random quizzes of a few shared words where
    every test fires (short answers, paraphrases, verbatim answers, named answers)."""
    shipped = load_bank(REAL_BANK)
    for language in shipped.languages:
        assert leak_check.leaking_pairs(shipped, language) == reference_pairs(shipped, language)
    quiz = adversarial(8, 3, leaking=True)
    assert leak_check.leaking_pairs(quiz, "en") == reference_pairs(quiz, "en") != set()
    found = 0
    for seed in range(300):
        bank = random_bank(random.Random(seed))
        expected = reference_pairs(bank, "en")
        assert leak_check.leaking_pairs(bank, "en") == expected, seed
        found += len(expected)
    assert found > 500


RANDOM_WORDS = [
    "stage",
    "stages",
    "1",
    "2",
    "ZeRO",
    "optimizer",
    "states",
    "the",
    "of",
    "gradients",
    "pipeline",
    "layers",
    "GPUs",
    "lima",
    "mike",
    "1.5",
    "memory",
    "shard",
    "first",
]
RANDOM_BETWEEN = [" ", " ", " ", ", ", "; ", ": ", " (", ") ", "-", ". "]


def random_text(rng: random.Random, low: int, high: int) -> str:
    """``low`` to ``high`` words of :data:`RANDOM_WORDS` with spaces and marks between."""
    count = rng.randint(low, high)
    return "".join(
        rng.choice(RANDOM_WORDS) + (rng.choice(RANDOM_BETWEEN) if i < count - 1 else "")
        for i in range(count)
    )


def random_bank(rng: random.Random) -> Bank:
    """2 to 7 questions (some true/false, some with several right options, some without an
    explanation) of :data:`RANDOM_WORDS`; half the explanations end with another question's
    answer, in capitals, inside a word or not."""
    made: list[Question] = []
    for n in range(rng.randint(2, 7)):
        explanation = (
            None
            if rng.random() < 0.1
            else Text(
                {
                    "en": " ".join(
                        random_text(rng, 2, 12) + rng.choice([".", "", "!"])
                        for _ in range(rng.randint(1, 4))
                    )
                }
            )
        )
        prompt = Text({"en": random_text(rng, 2, 8) + "?"})
        if rng.random() < 0.15:
            made.append(
                Question(
                    f"q{n}",
                    prompt,
                    true_false_options(rng.random() < 0.5, ("en",)),
                    explanation,
                    None,
                    TRUE_FALSE,
                )
            )
            continue
        texts: list[str] = []
        while len(texts) < rng.randint(2, 4):
            text = random_text(rng, 1, 5)
            if text not in texts:
                texts.append(text)
        right = set(rng.sample(range(len(texts)), rng.choice([1, 1, 1, 2])))
        made.append(
            Question(
                f"q{n}",
                prompt,
                tuple(Option(Text({"en": text}), i in right) for i, text in enumerate(texts)),
                explanation,
                None,
            )
        )
    for n, q in enumerate(made):
        if q.explanation is not None and rng.random() < 0.5:
            other = rng.choice(made)
            answer = (
                rng.choice(["", "x", " "])
                + _option_text(other).upper()
                + rng.choice(["", "s", ".", " and"])
            )
            made[n] = replace(
                q,
                explanation=Text(
                    {"en": q.explanation.by_language["en"] + rng.choice([" ", ". ", ""]) + answer}
                ),
            )
    return Bank(
        "random", 1, "en", ("en",), "easy", Text({"en": "T"}), Text({"en": "D"}), tuple(made)
    )


def _option_text(q: Question) -> str:
    return q.options[q.correct_index].text.by_language["en"]


def test_the_leak_check_work_grows_with_the_quiz_not_its_square():
    """The work of the answer-leak check (words read, sentences and questions compared,
    searches: :class:`leak_check.LeakWork`) on the adversarial quiz doubles, no more, when its
    questions double or its explanations do; every pair of 200 questions compared, each
    reading the other's explanation, took 21 s of CPU for a 638 kB file."""

    def work(questions: int, repeats: int) -> int:
        counted = leak_check.LeakWork()
        assert leak_check.leaking_pairs(adversarial(questions, repeats), "en", counted) == set()
        return counted.total

    base = work(20, 10)
    assert base <= 20 * 10 * 6 * 2  # each explanation word read twice (words, sentences)
    assert work(40, 10) <= 2.1 * base
    assert work(20, 20) <= 2.1 * base
    assert work(200, 10) <= 10.5 * base


def paraphrasing(questions: int, sentences: int) -> Bank:
    """A quiz whose explanations are sentences of the other half's cues and most of every
    long answer's words, but as many of a distractor's: every sentence is compared with
    every question of the other half, and none paraphrases an answer."""
    out = [ADVERSARIAL_HEAD]
    for n in range(questions):
        mine, theirs = ("alpha bravo", "delta echo") if n % 2 else ("delta echo", "alpha bravo")
        said = " ".join(f"{theirs} lima mike november {k}." for k in range(sentences))
        out.append(
            f"- id: q{n}\n  prompt: {{en: 'What does {mine} {n} mean here?'}}\n"
            f"  options:\n  - text: {{en: 'lima mike november {n}'}}\n    correct: true\n"
            f"  - text: {{en: 'lima mike november oscar {n}'}}\n"
            f"  explanation: {{en: '{said}'}}\n"
            f"  source: {{title: Atlas, url: 'https://example.org/atlas'}}\n"
        )
    return parse_bank("".join(out))


def test_the_paraphrase_test_stops_at_its_limit_and_says_where(monkeypatch):
    """Sentences with words of many long answers are compared with each (the work of the
    questions times the sentences): at LEAK_COMPARISONS the check compares no more and says
    so, at the explanation where it stopped, in a finding that cannot be waived."""
    quiz = paraphrasing(12, 6)
    counted = leak_check.LeakWork()
    everything = leak_check.leaking_pairs(quiz, "en", counted)
    assert counted.comparisons == 12 * 6 * 6 and counted.stopped is None  # each, the other half
    assert not any(f.rule == "leak-check-stopped" for f in check_bank(quiz))

    limited = leak_check.LeakWork(limit=100)
    assert leak_check.leaking_pairs(quiz, "en", limited) <= everything
    assert (limited.comparisons, limited.stopped) == (100, (2, "en"))  # 36 a question
    monkeypatch.setattr(leak_check, "LEAK_COMPARISONS", 100)
    found = check_bank(quiz)
    [stop] = [f for f in found if f.rule == "leak-check-stopped"]
    assert (stop.question_id, stop.field) == ("q2", "explanation.en")
    assert "stopped here, after 100 comparisons" in stop.message
    assert "leak-check-stopped" not in checks.WAIVABLE
