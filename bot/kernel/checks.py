"""Item-writing checks for question banks: the warnings of ``quizbot validate``.

A bank can be valid (:mod:`bot.bankload`) and still give its answers away. These checks follow
the multiple-choice item-writing guidelines of Haladyna, Downing & Rodriguez, "A Review of
Multiple-Choice Item-Writing Guidelines for Classroom Assessment", *Applied Measurement in
Education* 15(3), 309-333 (2002); the guideline numbers below are theirs. Each check runs per
language, since a translation can add a tell that the original does not have.

A true/false question has no options of its own (the bot shows True and False): the option
rules skip it, and its answer is not looked for in other explanations.

Rules (the ``rule`` of a :class:`Finding`):

``longest-correct``
    The correct option is the longest by a clear margin: at least :data:`LONGEST_RATIO` times as
    long as the longest distractor and :data:`LONGEST_MIN_EXTRA` characters longer (guideline 28d,
    "conspicuous correct choice"; test-wise students pick the longest option). Only for a
    question with one right option.
``uneven-lengths``
    The longest option is at least :data:`UNEVEN_RATIO` times as long as the shortest and says
    more: it has at least :data:`UNEVEN_MIN_WORDS` more meaningful words (:func:`words`) than
    the shortest (guideline 24, "keep the length of choices about equal"). Lengths alone are
    no tell when the options are of one kind: "Oslo" against "Trondheim", "80" against "8080"
    are one word each and pass; a qualified option ("Some accuracy, as activations are stored
    at lower precision") against bare ones ("Network bandwidth") does not.
``all-none-of-the-above``
    An option is "all of the above" or "none of the above", or the same in Hindi or Greek
    (:data:`ABOVE_PHRASES`): options are shuffled, so "above" means nothing, and these options
    are weak anyway (guidelines 25 and 26).
``option-in-stem``
    Every word of an option is in the prompt (guideline 28b, "clang associations").
``import-placeholder``
    An explanation, or the source, still holds the placeholder ``quizbot import`` wrote where
    the file it converted had none (:data:`bot.kernel.bank.EXPLANATION_PLACEHOLDER`,
    :data:`~bot.kernel.bank.SOURCE_PLACEHOLDER`): learners would be shown "TODO".
``answer-leak``
    The explanation of one question gives away the answer of another: the bot shows each
    explanation as soon as the question is answered, and the preview shows them all (guideline
    4, "keep the content of each item independent from content of other items"). See
    :func:`leaks` for the heuristic, and :func:`names_answer` for the plain case: the
    explanation names the correct option of a question that comes later in the bank.

``picture-format``
    The question's ``picture`` is a URL of a kind Telegram cannot send as a photo (an SVG, a
    PDF, a TIFF, HEIC or AVIF: :data:`UNSENDABLE_PICTURES`, by the URL path's extension): the
    question would come without it. Telegram fetches a URL itself and sends JPEG, PNG and
    WebP pictures (Bot API ``sendPhoto``).
``leak-check-stopped``
    The ``answer-leak`` check stopped at this explanation: its paraphrase test had compared
    :data:`LEAK_COMPARISONS` sentences with other questions' answers in the bank (sentences
    that have words of many answers, over and over), and compared no more; the other
    questions may give answers away unseen. A bound on the work one file may cost
    (:func:`leaking_pairs`).

A question may waive rules that are wrong for it: the bank format's ``waive: [uneven-lengths]``
(:attr:`bot.kernel.bank.Question.waived`; any rule of :data:`WAIVABLE` may be listed) leaves
that question's findings of those rules out. ``import-placeholder``, ``picture-format`` and
``leak-check-stopped`` cannot be waived.

Lengths are counted in characters without combining marks (:func:`visible_length`), so that a
Devanagari vowel sign or a Greek accent does not count as a letter of its own.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.kernel import leaks as leak_check
from bot.kernel.bank import EXPLANATION_PLACEHOLDER, SOURCE_PLACEHOLDER, TRUE_FALSE, Bank, Question
from bot.kernel.itemtext import _fold, _option, words
from bot.kernel.languages import LANGUAGES
from bot.kernel.leaks import LeakWork, leaking_pairs

LONGEST_RATIO = 1.08
"""The correct option is conspicuously the longest when it is at least this many times as long as
the longest distractor (and :data:`LONGEST_MIN_EXTRA` characters longer)."""
LONGEST_MIN_EXTRA = 4
"""...and at least this many characters longer, so that short options ("Stage 10" against
"Stage 1") are not flagged for one character."""
UNEVEN_RATIO = 2.0
"""Options are very uneven in length when the longest is at least this many times the shortest
(and has :data:`UNEVEN_MIN_WORDS` more meaningful words)."""
UNEVEN_MIN_WORDS = 2
"""...and the longest option has at least this many more meaningful words than the shortest:
one-word answers of different lengths ("Oslo", "Trondheim") are not uneven in content."""
RULES = (
    "longest-correct",
    "uneven-lengths",
    "all-none-of-the-above",
    "option-in-stem",
    "import-placeholder",
    "answer-leak",
    "picture-format",
    "leak-check-stopped",
)
"""Every rule, in the order the module's docstring describes them."""
WAIVABLE = tuple(
    rule
    for rule in RULES
    if rule not in ("import-placeholder", "picture-format", "leak-check-stopped")
)
"""The rules a question may waive (``waive:`` in the bank format): all but
``import-placeholder`` (a "TODO" shown to learners is never right), ``picture-format`` (a
picture that cannot be sent is never shown) and ``leak-check-stopped`` (the check of the other
questions is not done)."""
UNSENDABLE_PICTURES = frozenset(
    {".svg", ".svgz", ".pdf", ".tif", ".tiff", ".heic", ".heif", ".avif", ".ico", ".eps", ".psd"}
)
"""Extensions of picture URLs Telegram does not send as a photo (it takes JPEG, PNG and WebP;
``sendPhoto``'s "photo" by URL)."""

ABOVE_PHRASES = {code: language.above_phrases for code, language in LANGUAGES.items()}
"""Per language, "all of the above" and "none of the above" and their usual variants, matched
case-insensitively in text without Greek accents (:func:`_fold`; each language's
:attr:`~bot.kernel.languages.Language.above_phrases`). Languages not listed here are not checked
for this rule."""


@dataclass(frozen=True)
class Finding:
    """One item-writing warning.

    Attributes:
        file: The bank's file (or ``<bank id>`` for a bank not read from a file).
        line: 1-based line of the text, None if unknown.
        column: 1-based column of the text, None if unknown.
        question_id: The question's id.
        language: The language of the text.
        field: The field, as in the loader's problems: ``option 2.text.hi``, ``explanation.el``.
        rule: Which rule (see the module's docstring).
        message: What is wrong.
    """

    file: str
    line: int | None
    column: int | None
    question_id: str
    language: str
    field: str
    rule: str
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}" + (f":{self.column}" if self.column else "")
        language = (
            f" language {self.language!r}," if self.field.endswith(f".{self.language}") else ""
        )  # not the source's
        return (
            f"{where}: question {self.question_id!r},{language} "
            f"field {self.field!r}: {self.message} [{self.rule}]"
        )


def visible_length(text: str) -> int:
    """Length of ``text`` without combining marks (Unicode categories Mn, Mc, Me)."""
    return sum(1 for char in text if not unicodedata.category(char).startswith("M"))


def check_bank(bank: Bank) -> list[Finding]:
    """Run every rule on every question and language of ``bank``.

    Returns:
        The findings, in the order of the questions, then of the rules; without those a
        question waives (:attr:`~bot.kernel.bank.Question.waived`).
    """
    findings: list[Finding] = []
    work = LeakWork()
    leaked = {language: leaking_pairs(bank, language, work) for language in bank.languages}
    for index, question in enumerate(bank.questions):
        findings += [
            finding
            for finding in _question_findings(bank, index, question, leaked, work.stopped)
            if finding.rule not in question.waived or finding.rule not in WAIVABLE
        ]
    return findings


def _question_findings(
    bank: Bank,
    index: int,
    question: Question,
    leaked: dict[str, set[tuple[int, int]]],
    stopped: tuple[int, str] | None = None,
) -> list[Finding]:
    """Every rule's findings for the question at ``index`` of ``bank``, waived ones too;
    ``leaked`` is :func:`leaking_pairs` per language, ``stopped`` where it stopped."""
    findings: list[Finding] = [*_placeholders(bank, question), *_picture_format(bank, question)]
    for language in bank.languages:
        if question.kind != TRUE_FALSE:  # the bot's own True and False: nothing to check
            findings += _lengths(bank, question, language)
            findings += _above(bank, question, language)
            findings += _in_stem(bank, question, language)
        for number, other in enumerate(bank.questions):
            if (index, number) in leaked[language]:
                findings.append(
                    _finding(
                        bank,
                        question,
                        language,
                        "explanation",
                        "answer-leak",
                        f"gives away the answer of question {other.id!r} "
                        f"({_option(other, language, other.correct_index)!r})",
                    )
                )
        if stopped == (index, language):
            findings.append(
                _finding(
                    bank,
                    question,
                    language,
                    "explanation",
                    "leak-check-stopped",
                    f"the answer-leak check stopped here, after {leak_check.LEAK_COMPARISONS} "
                    "comparisons of sentences with other questions' answers: the explanations "
                    "share too many words with the answers to compare them all; make them less "
                    "alike",
                )
            )
    return findings


def _picture_format(bank: Bank, question: Question) -> Iterable[Finding]:
    picture = question.picture
    if picture is None or not picture.startswith("https://"):
        return
    path = urlsplit(picture).path.lower()
    extension = path[path.rfind(".") :] if "." in path.rsplit("/", 1)[-1] else ""
    if extension in UNSENDABLE_PICTURES:
        yield _finding(
            bank,
            question,
            bank.default_language,
            "picture",
            "picture-format",
            f"is a {extension[1:].upper()} picture, which Telegram does not send as a "
            "photo: link a JPEG, PNG or WebP picture",
            localized=False,
        )


def _placeholders(bank: Bank, question: Question) -> Iterable[Finding]:
    for language in bank.languages:
        if (
            question.explanation is not None
            and question.explanation.by_language[language] == EXPLANATION_PLACEHOLDER
        ):
            yield _finding(
                bank,
                question,
                language,
                "explanation",
                "import-placeholder",
                "still the placeholder `quizbot import` wrote: explain why the "
                "correct option is right",
            )
    if question.source is None:
        return
    for field, value, placeholder in (
        ("title", question.source.title, SOURCE_PLACEHOLDER[0]),
        ("url", question.source.url, SOURCE_PLACEHOLDER[1]),
    ):
        if value == placeholder:
            path = f"source.{field}"
            line, column = bank.positions.get((question.id, path), (None, None))
            yield Finding(
                str(bank.path) if bank.path else f"<{bank.id}>",
                line,
                column,
                question.id,
                bank.languages[0],
                path,
                "import-placeholder",
                "still the placeholder `quizbot import` wrote: cite the paper or "
                "document the explanation comes from",
            )


def _finding(
    bank: Bank,
    question: Question,
    language: str,
    field: str,
    rule: str,
    message: str,
    *,
    localized: bool = True,
) -> Finding:
    path = f"{field}.{language}" if localized else field
    line, column = bank.positions.get((question.id, path), (None, None))
    file = str(bank.path) if bank.path else f"<{bank.id}>"
    return Finding(file, line, column, question.id, language, path, rule, message)


def _lengths(bank: Bank, question: Question, language: str) -> Iterable[Finding]:
    lengths = [visible_length(_option(question, language, i)) for i in range(len(question.options))]
    correct = question.correct_index
    longest_other = max(n for i, n in enumerate(lengths) if i != correct)
    if (
        not question.several
        and lengths[correct] >= LONGEST_RATIO * longest_other
        and lengths[correct] - longest_other >= LONGEST_MIN_EXTRA
    ):
        yield _finding(
            bank,
            question,
            language,
            f"option {correct + 1}.text",
            "longest-correct",
            f"the correct option is the longest by far ({lengths[correct]} characters;"
            f" the longest other option has {longest_other}): shorten it or lengthen"
            " the others",
        )
    short, long = lengths.index(min(lengths)), lengths.index(max(lengths))
    counts = [len(words(_option(question, language, i), language)) for i in (short, long)]
    if max(lengths) >= UNEVEN_RATIO * min(lengths) and counts[1] - counts[0] >= UNEVEN_MIN_WORDS:
        yield _finding(
            bank,
            question,
            language,
            f"option {short + 1}.text",
            "uneven-lengths",
            f"options are very uneven in length: option {short + 1} has {min(lengths)}"
            f" characters ({counted(counts[0], 'word')}), option {long + 1} has"
            f" {max(lengths)} ({counted(counts[1], 'word')}): say no more in one option"
            " than in the others, or, if they are right as they are, add"
            " 'waive: [uneven-lengths]' to the question",
        )


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 word``, ``2 words``: a count with an English noun, singular or plural (``plural``
    for an irregular one; the messages of ``quizbot validate`` and the operator's summaries,
    which are English only)."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def _above(bank: Bank, question: Question, language: str) -> Iterable[Finding]:
    patterns = ABOVE_PHRASES.get(language, ())
    for index in range(len(question.options)):
        text = _fold(_option(question, language, index))
        if any(re.search(pattern, text) for pattern in patterns):
            yield _finding(
                bank,
                question,
                language,
                f"option {index + 1}.text",
                "all-none-of-the-above",
                '"all/none of the above" means nothing once options are shuffled: '
                "write a real option",
            )


def _in_stem(bank: Bank, question: Question, language: str) -> Iterable[Finding]:
    stem = set(words(question.prompt.by_language[language], language))
    for index in range(len(question.options)):
        option = set(words(_option(question, language, index), language))
        if option and option <= stem:
            yield _finding(
                bank,
                question,
                language,
                f"option {index + 1}.text",
                "option-in-stem",
                "every word of this option is in the prompt: it points to itself (or "
                "is ruled out by it)",
            )


# --- words ------------------------------------------------------------------------------------


# --- leaks ------------------------------------------------------------------------------------


# --- leaks of a whole bank --------------------------------------------------------------------
