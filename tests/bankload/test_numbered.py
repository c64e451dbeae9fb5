"""The numbered form people write quizzes in: questions, options in several scripts, answers
and explanations in the twelve languages' words, several right options, true/false, and
problems named by line, question and field."""

from __future__ import annotations

import time

import pytest

from bot.bankload import parse_bank
from bot.bankload.dump import dump_bank
from bot.features.importing.headers import VOCABULARY
from bot.features.importing.imported import Parsed
from bot.features.importing.numbered import MAX_LINES, WORDS, parse_numbered, txt_kind
from bot.features.importing.rules import Converted, NoneConverted, bank_data, convert


def right(parsed: Parsed, number: int) -> list[str]:
    """The right options' texts of the ``number``-th converted question (1-based)."""
    return [text for text, correct in parsed.questions[number - 1].options if correct]


def test_an_english_quiz_with_every_kind() -> None:
    """One right option, several (``A, C``), true/false without options and with True/False
    options, an explanation over two lines, options numbered under a numbered question."""
    parsed = parse_numbered(
        "1. Which city is the capital of France?\n"
        "A) Lyon\n"
        "B) Paris\n"
        "C) Nice\n"
        "Answer: B\n"
        "Explanation: The seat of government\n"
        "has been there since 987.\n"
        "\n"
        "2) Which of these are prime?\n"
        "(a) 2\n"
        "(b) 4\n"
        "(c) 5\n"
        "answer - a, c\n"
        "\n"
        "3. The Earth is flat.\n"
        "Answer: False\n"
        "\n"
        "4. Water boils at 100 °C at sea level.\n"
        "a. True\n"
        "b. False\n"
        "ANSWER: a\n"
        "\n"
        "5. Which number is even?\n"
        "1) three\n"
        "2) four\n"
        "Answer: 2\n"
    )
    assert parsed.notes == [] and parsed.found == 5
    first, several, flat, boils, numbered = parsed.questions
    assert first.prompt == "Which city is the capital of France?"
    assert right(parsed, 1) == ["Paris"] and first.line == 1
    assert first.explanation == "The seat of government has been there since 987."
    assert right(parsed, 2) == ["2", "5"] and several.answer is None
    assert (flat.answer, flat.options) == (False, ())
    assert (boils.answer, boils.options) == (True, ())
    assert [text for text, _ in numbered.options] == ["three", "four"]
    assert right(parsed, 5) == ["four"]


def test_a_russian_quiz_with_cyrillic_letters() -> None:
    """Ответ and Объяснение; options а) б) в); a Latin B typed for the Cyrillic В names it;
    a true/false answer in Russian."""
    parsed = parse_numbered(
        "1. Какой город — столица Франции?\n"
        "а) Лион\n"
        "б) Париж\n"
        "в) Ницца\n"
        "Ответ: б\n"
        "Объяснение: Правительство там с 987 года.\n"
        "\n"
        "2. Какая река самая длинная в Европе?\n"
        "А) Дунай\n"
        "Б) Днепр\n"
        "В) Волга\n"
        "ОТВЕТ: B\n"
        "\n"
        "3. Москва — столица России.\n"
        "Правильный ответ: Верно\n"
    )
    assert parsed.notes == []
    assert right(parsed, 1) == ["Париж"]
    assert parsed.questions[0].explanation == "Правительство там с 987 года."
    assert right(parsed, 2) == ["Волга"]
    assert parsed.questions[2].answer is True


def test_an_arabic_quiz() -> None:
    """الإجابة and الشرح, options أ) ب) ج), several right joined by و."""
    parsed = parse_numbered(
        "١. ما عاصمة فرنسا؟\n"
        "أ) ليون\n"
        "ب) باريس\n"
        "ج) نيس\n"
        "الإجابة: ب\n"
        "الشرح: مقر الحكومة هناك منذ عام 987.\n"
        "\n"
        "٢. أي هذه الأعداد أولية؟\n"
        "أ) 2\n"
        "ب) 4\n"
        "ج) 5\n"
        "الإجابة: أ و ج\n"
        "\n"
        "٣. الأرض مسطحة.\n"
        "الإجابة: خطأ\n"
    )
    assert parsed.notes == []
    assert right(parsed, 1) == ["باريس"]
    assert parsed.questions[0].explanation == "مقر الحكومة هناك منذ عام 987."
    assert right(parsed, 2) == ["2", "5"]
    assert parsed.questions[2].answer is False


@pytest.mark.parametrize("language", sorted(WORDS))
def test_every_language_s_answer_and_explanation_words(language: str) -> None:
    """Each language's first answer and explanation words, in any case, with ':' or '-',
    under options in its own letters."""
    words = WORDS[language]
    first, second = words.letters[:2]
    for answer, explanation in (
        (f"{words.answer[0]}: {second}", f"{words.explanation[0]}: why"),
        (f"{words.answer[0].upper()} - {second.lower()}", f"{words.explanation[0].lower()} - why"),
    ):
        parsed = parse_numbered(
            f"1. Question?\n{first}) one\n{second}) two\n{answer}\n{explanation}\n"
        )
        assert parsed.notes == [], (language, answer)
        assert right(parsed, 1) == ["two"] and parsed.questions[0].explanation == "why"


def test_problems_are_named_by_line_question_and_field() -> None:
    """An answer naming no option, a question without an answer, one option, a label used
    twice: each left out with its line, its question's number and the field; the others
    converted."""
    parsed = parse_numbered(
        "1. Good?\nA) yes\nB) no\nAnswer: A\n"  # lines 1-4
        "2. Bad answer?\nA) yes\nB) no\nAnswer: E\n"  # 5-8
        "3. No answer?\nA) yes\nB) no\n"  # 9-11
        "4. One option?\nA) yes\nAnswer: A\n"  # 12-14
        "5. Twice?\nA) yes\nA) no\nAnswer: A\n"  # 15-18
        "6. Everything right?\nA) yes\nB) also\nAnswer: A, B\n"  # 19-22
        "7. Not true or false\nAnswer: maybe\n"  # 23-24
        "Answer: C\n"  # 25
    )
    assert [q.prompt for q in parsed.questions] == ["Good?"] and parsed.found == 7
    assert [(note.line, note.message) for note in parsed.notes] == [
        (8, "question 2, answer: 'E' names no option (options: A, B)"),
        (9, "question 3, answer: no answer line after its options (Answer: B)"),
        (13, "question 4, options: 1 options: a bank question has 2 to 12"),
        (16, "question 5, options: label A used twice"),
        (22, "question 6, answer: every option is right; at least one must be wrong"),
        (
            24,
            "question 7, answer: 'maybe' is not True or False, and the question has no options",
        ),
        (25, "an answer line without a question"),
    ]


def test_an_answer_may_repeat_the_option_or_give_its_text() -> None:
    parsed = parse_numbered(
        "1. Capital?\nA) Lyon\nB) Paris\nAnswer: B) Paris\n\n"
        "2. Capital?\nA) Lyon\nB) Paris\nAnswer: Paris\n"
    )
    assert parsed.notes == [] and right(parsed, 1) == right(parsed, 2) == ["Paris"]


def test_unnumbered_questions_and_long_prompts() -> None:
    """Questions without numbers (Aiken's layout in the answer words of a language); a prompt
    over two lines; an option continued on the next line."""
    parsed = parse_numbered(
        "Which layer\nnormalises activations?\nA) LayerNorm, applied\nper token\nB) Dropout\n"
        "Jawaban: A\nWhich is a GPU?\nA) H100\nB) Xeon\nJawaban: A\n"
    )
    assert parsed.notes == []
    assert parsed.questions[0].prompt == "Which layer normalises activations?"
    assert right(parsed, 1) == ["LayerNorm, applied per token"]
    assert right(parsed, 2) == ["H100"] and parsed.questions[1].line == 7


def test_a_text_of_ten_thousand_lines_is_refused_before_it_is_read() -> None:
    text = "1. Q?\nA) a\nB) b\nAnswer: A\n" * 2_500
    assert text.count("\n") >= MAX_LINES
    started = time.perf_counter()
    parsed = parse_numbered(text)
    assert time.perf_counter() - started < 1
    assert parsed.questions == [] and parsed.found == 0
    assert parsed.notes[0].line is None and "lines" in parsed.notes[0].message


def test_the_largest_text_taken_is_read_in_linear_time() -> None:
    """Under the line limit, four times the questions take about four times the time, not
    sixteen times."""

    def seconds(count: int) -> float:
        text = "1. Q?\nA) a\nB) b\nC) c\nAnswer: A, B\nExplanation: because\n\n" * count
        started = time.process_time()  # this process's CPU: other processes' load aside
        assert len(parse_numbered(text).questions) == count
        return time.process_time() - started

    seconds(100)  # warm the patterns
    small, large = min(seconds(200) for _ in range(3)), min(seconds(800) for _ in range(3))
    assert large < 9 * small


def test_a_txt_file_s_kind() -> None:
    """Aiken's ANSWER: stays Aiken; GIFT stays GIFT; numbered questions or another
    language's answer word are the numbered form."""
    assert txt_kind("What?\nA. a\nB. b\nANSWER: A\n") == "aiken"
    assert txt_kind("What? {=a ~b}\n") == "gift"
    assert txt_kind("1. What?\nA. a\nB. b\nANSWER: A\n") == "numbered"
    assert txt_kind("What?\nA) a\nB) b\nCevap: A\n") == "numbered"
    assert txt_kind("1. What?\nA) a\nB) b\n") == "numbered"


def test_every_kind_becomes_a_bank_that_loads() -> None:
    """One right, several right and true/false, as a created quiz's bank (``convert``) and as
    a bank file (``bank_data``): both load."""
    text = (
        "1. Capital?\nA) Lyon\nB) Paris\nAnswer: B\nExplanation: Since 987.\n\n"
        "2. Primes?\nA) 2\nB) 4\nC) 5\nAnswer: A, C\n\n"
        "3. The Earth is flat.\nAnswer: False\n"
    )
    converted = convert("txt", text, language="en", title="Quiz", description="Three.", limit=200)
    assert isinstance(converted, Converted) and converted.skipped == 0
    kinds = [q.get("kind", "choice") for q in converted.data["questions"]]  # type: ignore[union-attr]
    assert kinds == ["choice", "choice", "true-false"]
    parsed = parse_numbered(text)
    data, _ = bank_data(parsed, language="en", bank_id="three", title="T", description="D.")
    bank = parse_bank(dump_bank(data), "three.yaml")
    assert [len(q.correct_indices) for q in bank.questions] == [1, 2, 1]
    assert bank.questions[2].kind == "true-false"
    assert convert(
        "numbered", "1. Q?\nA) a\n", language="en", title="Q", description="D.", limit=200
    ) == NoneConverted(1)


def test_an_option_continued_over_thousands_of_lines_is_read_in_linear_time() -> None:
    """Each continuation line is kept as a part and joined once (not the option's text copied
    again at each line)."""
    text = "1. Q?\nA) start\n" + "the option goes on and on for a while\n" * 5_500
    started = time.process_time()
    parsed = parse_numbered(text + "B) b\nAnswer: A\n")
    assert time.process_time() - started < 1
    assert len(parsed.questions[0].options[0][0]) > 5_500 * 30


def test_arabic_true_false_answers_in_either_word() -> None:
    """صح and صواب both say True, in a numbered file as in a sheet (the Arabic reader's report:
    a teacher writing «الإجابة: صح» was refused)."""

    for word in ("صح", "صواب"):
        parsed = parse_numbered(f"1. الأرض كروية.\nالإجابة: {word}\n")
        assert [q.answer for q in parsed.questions] == [True], (word, parsed.notes)
        assert word in VOCABULARY["ar"].true
