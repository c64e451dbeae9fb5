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
    the file it converted had none (:data:`bot.quiz.importing.EXPLANATION_PLACEHOLDER`,
    :data:`~bot.quiz.importing.SOURCE_PLACEHOLDER`): learners would be shown "TODO".
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
(:attr:`bot.quiz.bank.Question.waived`; any rule of :data:`WAIVABLE` may be listed) leaves
that question's findings of those rules out. ``import-placeholder``, ``picture-format`` and
``leak-check-stopped`` cannot be waived.

Lengths are counted in characters without combining marks (:func:`visible_length`), so that a
Devanagari vowel sign or a Greek accent does not count as a letter of its own.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.quiz.bank import TRUE_FALSE, Bank, Question
from bot.quiz.importing import EXPLANATION_PLACEHOLDER, SOURCE_PLACEHOLDER

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
RULES = ("longest-correct", "uneven-lengths", "all-none-of-the-above", "option-in-stem",
         "import-placeholder", "answer-leak", "picture-format", "leak-check-stopped")
"""Every rule, in the order the module's docstring describes them."""
WAIVABLE = tuple(rule for rule in RULES
                 if rule not in ("import-placeholder", "picture-format", "leak-check-stopped"))
"""The rules a question may waive (``waive:`` in the bank format): all but
``import-placeholder`` (a "TODO" shown to learners is never right), ``picture-format`` (a
picture that cannot be sent is never shown) and ``leak-check-stopped`` (the check of the other
questions is not done)."""
UNSENDABLE_PICTURES = frozenset({".svg", ".svgz", ".pdf", ".tif", ".tiff", ".heic", ".heif",
                                 ".avif", ".ico", ".eps", ".psd"})
"""Extensions of picture URLs Telegram does not send as a photo (it takes JPEG, PNG and WebP;
``sendPhoto``'s "photo" by URL)."""
LEAK_WINDOW = 3
"""How many words apart (not counting function words) a cue of another question and the short
answer it points to may be, for :func:`leaks`."""
LEAK_COVERAGE = 0.4
"""Share of a long correct option's words that one sentence of another explanation must contain,
for :func:`leaks`."""
LEAK_COMPARISONS = 200_000
"""Sentences compared with another question's answer, word by word, in one bank (all its
languages) by :func:`leaking_pairs`'s paraphrase test, before it stops (``leak-check-stopped``):
the test's only work that can grow with the questions times the words (sentences that have
words of many answers); a real quiz of 200 questions compares thousands."""

ABOVE_PHRASES = {
    "en": (r"\ball of the above\b", r"\bnone of the above\b", r"\bboth of the above\b",
           r"\ball the above\b"),
    "hi": (r"उपरोक्त सभी", r"उपर्युक्त सभी", r"ऊपर के सभी", r"ऊपर दिए गए सभी", r"इनमें से सभी",
           r"उपरोक्त में से कोई (?:भी )?नहीं", r"उपर्युक्त में से कोई (?:भी )?नहीं",
           r"इनमें से कोई (?:भी )?नहीं", r"ऊपर (?:दिए गए |के )?में से कोई (?:भी )?नहीं"),
    "el": (r"\b(?:ολα|ολες|ολοι) (?:τα|οι) (?:παραπανω|ανωτερω)\b",
           r"\b(?:κανενα|καμια|κανενας|τιποτα) (?:απο )?(?:τα |τις |τους )?(?:παραπανω|ανωτερω)\b"),
}
"""Per language, "all of the above" and "none of the above" and their usual variants, matched
case-insensitively in text without Greek accents (:func:`_fold`). Languages not listed here are
not checked for this rule."""

STOPWORDS = {
    "en": frozenset("""a an the of to in on at by for from with without and or but not no is are
        was were be been being it its this that these those as so than then into onto over under
        each every all any some one two does do did done what which who whom how why when where
        only also their there they them he she his her we you your i our us can may must will
        would should could such via per up down out off about across between more most less
        very just same other own""".split()),
    "hi": frozenset("""का के की को में से पर है हैं था थे थी और या भी तो ही एक यह वह ये वे इस उस इन
        उन जो कि लिए साथ तक नहीं न कर करके करता करती करते किया किए गया गए होता होती होते हो
        कैसे क्या कौन सा सी किस किसी हर सब सभी अपने अपनी अपना बीच द्वारा जैसे जैसा बजाय करना
        इसलिए वाला वाले वाली रूप जाता जाती जाते जाना रहा रही रहे रहता रहती सकता सकती सकते
        होना होने""".split()),
    "el": frozenset("""ο η το οι τα του της των τον την τους τις ενα ενας μια μιας ενος και ή η
        να σε στο στη στην στον στα στους στις στου στης απο με για ως προς κατα μετα χωρις
        δεν μη μην ειναι ηταν που ποιο ποια ποιος πως τι οτι αυτο αυτη αυτος αυτα αυτες
        αυτους αυτον αυτων κάθε καθε ολο ολα ολες ολοι μονο επισης αλλα ενω οπως οταν αν
        ομως""".split()),
}
"""Function words, not counted as words of a text by :func:`leaks` and ``option-in-stem``
(Greek ones written without accents, as :func:`_fold` leaves them)."""

_WORD = re.compile(r"\d+(?:[.,]\d+)+|[\w\u0900-\u0963\u0966-\u097f]+|[,;:]")
"""A word (Devanagari signs included, the danda not), a decimal number, or a clause mark."""
_NAME = re.compile(r"^[^\W\d_]+[A-Z][\w]*$")  # ZeRO, NVMe, DeepSpeed: a capital after the first
STEM = 5
"""Words are compared by their first 5 letters (after folding): a crude stemmer that is the same
in every language, so "stage"/"stages", "παραλληλισμός"/"παραλληλισμού" and "लेयर"/"लेयरों"
match."""


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
        language = (f" language {self.language!r},"
                    if self.field.endswith(f".{self.language}") else "")  # not the source's
        return (f"{where}: question {self.question_id!r},{language} "
                f"field {self.field!r}: {self.message} [{self.rule}]")


def visible_length(text: str) -> int:
    """Length of ``text`` without combining marks (Unicode categories Mn, Mc, Me)."""
    return sum(1 for char in text if not unicodedata.category(char).startswith("M"))


def check_bank(bank: Bank) -> list[Finding]:
    """Run every rule on every question and language of ``bank``.

    Returns:
        The findings, in the order of the questions, then of the rules; without those a
        question waives (:attr:`~bot.quiz.bank.Question.waived`).
    """
    findings: list[Finding] = []
    work = LeakWork()
    leaked = {language: leaking_pairs(bank, language, work) for language in bank.languages}
    for index, question in enumerate(bank.questions):
        findings += [finding for finding in _question_findings(bank, index, question, leaked,
                                                               work.stopped)
                     if finding.rule not in question.waived or finding.rule not in WAIVABLE]
    return findings


def _question_findings(bank: Bank, index: int, question: Question,
                       leaked: dict[str, set[tuple[int, int]]],
                       stopped: tuple[int, str] | None = None) -> list[Finding]:
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
                findings.append(_finding(
                    bank, question, language, "explanation", "answer-leak",
                    f"gives away the answer of question {other.id!r} "
                    f"({_option(other, language, other.correct_index)!r})"))
        if stopped == (index, language):
            findings.append(_finding(
                bank, question, language, "explanation", "leak-check-stopped",
                f"the answer-leak check stopped here, after {LEAK_COMPARISONS} comparisons of "
                "sentences with other questions' answers: the explanations share too many "
                "words with the answers to compare them all; make them less alike"))
    return findings


def _picture_format(bank: Bank, question: Question) -> Iterable[Finding]:
    picture = question.picture
    if picture is None or not picture.startswith("https://"):
        return
    path = urlsplit(picture).path.lower()
    extension = path[path.rfind("."):] if "." in path.rsplit("/", 1)[-1] else ""
    if extension in UNSENDABLE_PICTURES:
        yield _finding(bank, question, bank.default_language, "picture", "picture-format",
                       f"is a {extension[1:].upper()} picture, which Telegram does not send as a "
                       "photo: link a JPEG, PNG or WebP picture", localized=False)


def _placeholders(bank: Bank, question: Question) -> Iterable[Finding]:
    for language in bank.languages:
        if (question.explanation is not None
                and question.explanation.by_language[language] == EXPLANATION_PLACEHOLDER):
            yield _finding(bank, question, language, "explanation", "import-placeholder",
                           "still the placeholder `quizbot import` wrote: explain why the "
                           "correct option is right")
    if question.source is None:
        return
    for field, value, placeholder in (("title", question.source.title, SOURCE_PLACEHOLDER[0]),
                                      ("url", question.source.url, SOURCE_PLACEHOLDER[1])):
        if value == placeholder:
            path = f"source.{field}"
            line, column = bank.positions.get((question.id, path), (None, None))
            yield Finding(str(bank.path) if bank.path else f"<{bank.id}>", line, column,
                          question.id, bank.languages[0], path, "import-placeholder",
                          "still the placeholder `quizbot import` wrote: cite the paper or "
                          "document the explanation comes from")


def _finding(bank: Bank, question: Question, language: str, field: str, rule: str,
             message: str, *, localized: bool = True) -> Finding:
    path = f"{field}.{language}" if localized else field
    line, column = bank.positions.get((question.id, path), (None, None))
    file = str(bank.path) if bank.path else f"<{bank.id}>"
    return Finding(file, line, column, question.id, language, path, rule, message)


def _option(question: Question, language: str, index: int) -> str:
    return question.options[index].text.by_language[language]


def _lengths(bank: Bank, question: Question, language: str) -> Iterable[Finding]:
    lengths = [visible_length(_option(question, language, i))
               for i in range(len(question.options))]
    correct = question.correct_index
    longest_other = max(n for i, n in enumerate(lengths) if i != correct)
    if (not question.several and lengths[correct] >= LONGEST_RATIO * longest_other
            and lengths[correct] - longest_other >= LONGEST_MIN_EXTRA):
        yield _finding(bank, question, language, f"option {correct + 1}.text", "longest-correct",
                       f"the correct option is the longest by far ({lengths[correct]} characters;"
                       f" the longest other option has {longest_other}): shorten it or lengthen"
                       " the others")
    short, long = lengths.index(min(lengths)), lengths.index(max(lengths))
    counts = [len(words(_option(question, language, i), language)) for i in (short, long)]
    if (max(lengths) >= UNEVEN_RATIO * min(lengths)
            and counts[1] - counts[0] >= UNEVEN_MIN_WORDS):
        yield _finding(bank, question, language, f"option {short + 1}.text", "uneven-lengths",
                       f"options are very uneven in length: option {short + 1} has {min(lengths)}"
                       f" characters ({counted(counts[0], 'word')}), option {long + 1} has"
                       f" {max(lengths)} ({counted(counts[1], 'word')}): say no more in one option"
                       " than in the others, or, if they are right as they are, add"
                       " 'waive: [uneven-lengths]' to the question")


def counted(number: int, noun: str) -> str:
    """``1 word``, ``2 words``: a count with a regular English noun, singular or plural (the
    messages of ``quizbot validate``, which are English only)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _above(bank: Bank, question: Question, language: str) -> Iterable[Finding]:
    patterns = ABOVE_PHRASES.get(language, ())
    for index in range(len(question.options)):
        text = _fold(_option(question, language, index))
        if any(re.search(pattern, text) for pattern in patterns):
            yield _finding(bank, question, language, f"option {index + 1}.text",
                           "all-none-of-the-above",
                           "\"all/none of the above\" means nothing once options are shuffled: "
                           "write a real option")


def _in_stem(bank: Bank, question: Question, language: str) -> Iterable[Finding]:
    stem = set(words(question.prompt.by_language[language], language))
    for index in range(len(question.options)):
        option = set(words(_option(question, language, index), language))
        if option and option <= stem:
            yield _finding(bank, question, language, f"option {index + 1}.text", "option-in-stem",
                           "every word of this option is in the prompt: it points to itself (or "
                           "is ruled out by it)")


# --- words ------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=8192)
def _fold(text: str) -> str:
    """Case-fold and drop Greek accents and diaeresis (not Devanagari signs, which are letters)."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if c not in "\u0301\u0308\u0344\u0342"))


@functools.cache
def _stopwords(language: str) -> frozenset[str]:
    """:data:`STOPWORDS` of ``language`` folded as words are (:func:`_fold`: case folding
    makes a Greek final sigma σ, so "όπως" is compared as "οπωσ")."""
    return frozenset(_fold(word) for word in STOPWORDS.get(language, ()))


def tokens(text: str, language: str) -> list[tuple[str, bool, int]]:
    """The words of ``text`` that carry meaning, stemmed (:data:`STEM`), each with whether it
    is a name (a capital after the first letter: ZeRO, NVMe) and its position: words count 1,
    and a comma, semicolon or colon between two words 2 more (a clause apart is farther)."""
    return list(_tokens(text, language))


@functools.lru_cache(maxsize=4096)
def _tokens(text: str, language: str) -> tuple[tuple[str, bool, int], ...]:
    """:func:`tokens`, computed once per text: :func:`leaks` compares every question with every
    other, so each text is read once per pair otherwise (quadratic in a 200-question quiz)."""
    found = []
    position = 0
    for match in _WORD.finditer(text):
        word = match[0]
        if word in ",;:":
            position += 2
            continue
        folded = _fold(word)
        if folded in _stopwords(language) or folded in _stopwords("en"):
            continue
        if language == "en" and len(folded) > 3 and folded.endswith("s"):
            folded = folded[:-1]
        position += 1
        found.append((folded if folded[0].isdigit() else folded[:STEM], bool(_NAME.match(word)),
                      position))
    return tuple(found)


def words(text: str, language: str) -> list[str]:
    """The stemmed words of ``text`` that carry meaning (:func:`tokens`, word only)."""
    return list(_words(text, language))


@functools.lru_cache(maxsize=4096)
def _words(text: str, language: str) -> tuple[str, ...]:
    return tuple(word for word, _, _ in _tokens(text, language))


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;।·])\s+", text) if s.strip()]


# --- leaks ------------------------------------------------------------------------------------

def leaks(question: Question, other: Question, language: str) -> bool:
    """Whether ``question``'s explanation gives away ``other``'s answer, in ``language``.

    A heuristic in three tests; any one is a leak:

    1. *Verbatim*: the explanation contains ``other``'s correct option word for word (options
       of three or more meaningful words; shorter ones are common phrases).
    2. *Paraphrase*: one sentence of the explanation contains at least :data:`LEAK_COVERAGE` of
       the meaningful words of ``other``'s correct option, at least twice the share of any of
       its distractors, and names ``other``'s subject: two of its *cues* (one, if it has at
       most two). The cues of a question are the meaningful words of its prompt that are in
       none of its options, not in ``question``'s own prompt and options (which its
       explanation uses anyway), and not names (ZeRO, GPU): "Putting different layers on
       different GPUs is pipeline parallelism" answers "how does pipeline parallelism split
       the model?".
    3. *Short answer*: ``other``'s correct option has at most two meaningful words (such as
       "Stage 1"), and a word that only it has among the options stands in the explanation
       within :data:`LEAK_WINDOW` words of a cue of ``other``, nearer than any word that only a
       distractor has (a comma, semicolon or colon between counts as two more words): "the
       optimizer states (stage 1)" answers "which stage is the first to shard optimizer
       states?", though "(stage 2)" follows.

    Words are compared stemmed and without function words (:func:`tokens`). The heuristic
    misses paraphrases with other words, and may flag a sentence that merely shares vocabulary;
    it is a prompt to read the explanation again, as a student who has not answered yet would.
    This is the test of one pair; :func:`check_bank` asks it of every pair at once
    (:func:`leaking_pairs`).
    """
    if question is other or question.explanation is None:
        return False
    explanation = question.explanation.by_language[language]
    options = [words(_option(other, language, i), language) for i in range(len(other.options))]
    correct = other.correct_index
    own = set(words(question.prompt.by_language[language], language))
    for index in range(len(question.options)):
        own |= set(words(_option(question, language, index), language))
    in_options = {word for option in options for word in option}
    prompt = tokens(other.prompt.by_language[language], language)
    names = {word for word, name, _ in prompt if name}
    cues = {word for word, _, _ in prompt} - names - in_options - own
    needed = 1 if len(cues) <= 2 else 2  # a sentence about the other question names its cues

    # 1. verbatim
    answer = _option(other, language, correct)
    if len(options[correct]) >= 3 and _fold(answer).strip(" .") in _fold(explanation):
        return True
    # 2. paraphrase, sentence by sentence
    if len(options[correct]) >= 3 and cues:
        for sentence in _sentences(explanation):
            said = set(words(sentence, language))
            if len(said & cues) < needed:
                continue
            shares = [_share(option, said) for option in options]
            others = max(share for i, share in enumerate(shares) if i != correct)
            if shares[correct] >= LEAK_COVERAGE and shares[correct] >= 2 * others:
                return True
    # 3. short answers: the nearest option-specific word to a cue
    if 1 <= len(options[correct]) <= 2 and cues:
        own_words = [set(option) - {w for j, o in enumerate(options) if j != i for w in o}
                     for i, option in enumerate(options)]
        said_words = [(word, position) for word, _, position in tokens(explanation, language)]
        positions = [position for _, position in said_words]  # increasing
        for word, position in said_words:
            if word in cues:
                near = said_words[bisect.bisect_left(positions, position - LEAK_WINDOW):
                                  bisect.bisect_right(positions, position + LEAK_WINDOW)]
                if _nearest(near, position, own_words) == correct:
                    return True
    return False


def _share(option: Sequence[str], said: set[str]) -> float:
    """The share of ``option``'s distinct words that are ``said``; 0 for an option without a
    meaningful word ("The"), which says nothing a sentence could repeat."""
    distinct = set(option)
    return len(distinct & said) / len(distinct) if distinct else 0.0


def names_answer(question: Question, other: Question, language: str) -> bool:
    """Whether ``question``'s explanation names ``other``'s correct option, in ``language``.

    The general case of a leak that a reader sees at once: the text of a right option of
    ``other`` (without a final full stop) stands in the explanation as whole words, compared
    case-folded and without Greek accents, and the explanation does not name every one of
    ``other``'s distractors too (naming all the options singles none out). Options made only
    of function words ("No", "None") are not looked for. :func:`check_bank` asks this of the
    questions that come later in the bank: their explanations are shown before they are
    answered ("... the pipeline engine combines with ZeRO stage 1" answers a later "which
    stage first shards optimizer states?").
    """
    if question is other or question.explanation is None:
        return False
    explanation = _fold(question.explanation.by_language[language])
    named = [_names(explanation, _option(other, language, i), language)
             for i in range(len(other.options))]
    right = [named[i] for i in other.correct_indices]
    wrong = [named[i] for i in range(len(other.options)) if i not in other.correct_indices]
    return any(right) and not all(wrong)


def _names(folded_text: str, option: str, language: str) -> bool:
    """Whether ``option`` stands as whole words in ``folded_text`` (already :func:`_fold`-ed);
    False for an option without a meaningful word."""
    if not words(option, language):
        return False
    phrase = _fold(option).strip().rstrip(".")
    pattern = rf"(?<![\w\u0900-\u097f]){re.escape(phrase)}(?![\w\u0900-\u097f])"
    return re.search(pattern, folded_text) is not None


def _nearest(said: Sequence[tuple[str, int]], position: int,
             own_words: Sequence[set[str]]) -> int | None:
    """Index of the option whose own word stands nearest to ``position`` among the ``said``
    (word, position) pairs, within :data:`LEAK_WINDOW`; None if none does or two options are
    as near. :func:`leaks` hands it only the words within the window (positions increase), so
    that each cue costs the window's words, not the explanation's."""
    best: dict[int, int] = {}
    for word, where in said:
        distance = abs(where - position)
        if 0 < distance <= LEAK_WINDOW:
            for index, own in enumerate(own_words):
                if word in own:
                    best[index] = min(best.get(index, distance), distance)
    if not best:
        return None
    nearest = min(best.values())
    winners = [index for index, distance in best.items() if distance == nearest]
    return winners[0] if len(winners) == 1 else None


# --- leaks of a whole bank --------------------------------------------------------------------

_RUN = re.compile(r"[\w\u0900-\u097f]+")
"""A run of the characters :func:`names_answer`'s whole-word bounds count as a word's."""


@dataclass
class LeakWork:
    """What :func:`leaking_pairs` did, counted: the measure of its work that tests bound.

    Attributes:
        positions: Words of explanations read by the short-answer test (each a few bit
            operations, whatever the number of questions).
        sentence_words: Words of explanations' sentences read by the paraphrase test.
        comparisons: Sentence and question pairs compared word by word (the paraphrase test's
            shares), for the questions whose cue and answer words a sentence has.
        pairs: Questions looked at for an explanation by the verbatim and naming tests: those
            with a long answer, and those whose right option's first and last words the
            explanation has.
        scans: Searches of an explanation for a phrase (a verbatim answer, a named option),
            for the phrases whose every word, and every two words with what stands between,
            the explanation has.
    """

    positions: int = 0
    sentence_words: int = 0
    comparisons: int = 0
    pairs: int = 0
    scans: int = 0
    limit: int | None = None
    """Comparisons at most (:data:`LEAK_COMPARISONS` if None)."""
    stopped: tuple[int, str] | None = None
    """The index of the question and the language where the comparisons reached the limit."""

    @property
    def total(self) -> int:
        """Every unit counted."""
        return (self.positions + self.sentence_words + self.comparisons + self.pairs
                + self.scans)


@dataclass
class _Other:
    """A question as :func:`leaks` and :func:`names_answer` see it as the ``other``, in one
    language: computed once per bank, not once per pair."""

    options: list[tuple[str, ...]]
    correct: int
    cues: set[str]  # prompt words but names and option words (less the explainer's own)
    own: list[set[str]]  # per option, its words that no other option has
    sets: list[frozenset[str]]  # per option, its words
    answer: str  # the correct option as the verbatim test looks for it
    phrases: list[tuple[str, list[str], list[tuple[str, str, str]]] | None]
    patterns: dict[int, re.Pattern[str]]  # the phrases' searches, compiled when first needed

    def named(self, index: int, folded: str, runs: set[str],
              pairs: set[tuple[str, str, str]], work: LeakWork) -> bool:
        """:func:`_names` of option ``index`` in the folded explanation whose runs and
        adjacent runs (with what stands between) are ``runs`` and ``pairs``."""
        phrase = self.phrases[index]
        if phrase is None:
            return False
        text, words_of, adjacent = phrase
        if len(words_of) == 1 and words_of[0] == text:  # one whole run: named if a run
            return text in runs
        if any(run not in runs for run in words_of) or any(p not in pairs for p in adjacent):
            return False
        if index not in self.patterns:
            self.patterns[index] = re.compile(
                rf"(?<![\w\u0900-\u097f]){re.escape(text)}(?![\w\u0900-\u097f])")
        work.scans += 1
        return self.patterns[index].search(folded) is not None


def _other(question: Question, language: str) -> _Other:
    options = [tuple(words(_option(question, language, i), language))
               for i in range(len(question.options))]
    in_options = {word for option in options for word in option}
    prompt = tokens(question.prompt.by_language[language], language)
    names = {word for word, name, _ in prompt if name}
    own = [set(option) - {w for j, o in enumerate(options) if j != i for w in o}
           for i, option in enumerate(options)]
    phrases: list[tuple[str, list[str], list[tuple[str, str, str]]] | None] = []
    for index, option in enumerate(options):
        if not option:
            phrases.append(None)
            continue
        text = _fold(_option(question, language, index)).strip().rstrip(".")
        phrases.append((text, *_runs(text)))
    return _Other(options, question.correct_index,
                  {word for word, _, _ in prompt} - names - in_options, own,
                  [frozenset(option) for option in options],
                  _fold(_option(question, language, question.correct_index)).strip(" ."),
                  phrases, {})


def _runs(folded: str) -> tuple[list[str], list[tuple[str, str, str]]]:
    """The runs of word characters of ``folded`` (:data:`_RUN`), and each two adjacent ones
    with what stands between them."""
    found = list(_RUN.finditer(folded))
    return ([match[0] for match in found],
            [(first[0], folded[first.end():second.start()], second[0])
             for first, second in itertools.pairwise(found)])


def _bits(mask: int) -> Iterator[int]:
    """The indices of the bits set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def leaking_pairs(bank: Bank, language: str,  # noqa: C901 - indexes every question in one pass
                  work: LeakWork | None = None) -> set[tuple[int, int]]:
    """Every ``(index, other)`` pair of question indices of ``bank`` where the explanation of
    the first gives away the answer of the second in ``language``, as :func:`check_bank`
    reports them: :func:`leaks`, or :func:`names_answer` for a question that comes later; a
    true/false question is never the other.

    The same answers as asking those two of every pair, computed for all the pairs at once:
    each question is read once as the other (its cues, answer and option words, indexed by
    word as bit sets of questions), and each explanation once against that index, so that the
    work grows with the words of the bank, not with them times the questions. Only the
    questions a sentence has cue and answer words of are compared with it word by word, and
    only the phrases whose words the explanation has are searched for (``work``, if given,
    counts both, and the words read: :class:`LeakWork`).
    """
    work = work if work is not None else LeakWork()
    questions = bank.questions
    others = {j: _other(other, language) for j, other in enumerate(questions)
              if other.kind != TRUE_FALSE}
    short_cue: dict[str, int] = {}  # word -> questions it is a cue of (short answers)
    short_right: dict[str, int] = {}  # word -> questions only its correct option has
    short_wrong: dict[str, int] = {}  # word -> questions only one of its distractors has
    long_cue: dict[str, int] = {}
    long_answer: dict[str, int] = {}  # word -> questions whose long correct option has it
    named_first: dict[str, int] = {}  # run -> questions a right option's phrase starts with
    named_last: dict[str, int] = {}  # run -> questions a right option's phrase ends with
    verbatim = 0  # questions whose correct option is long
    for j, other in others.items():
        bit = 1 << j
        size = len(other.options[other.correct])
        if 1 <= size <= 2:
            for word in other.cues:
                short_cue[word] = short_cue.get(word, 0) | bit
            for index, own in enumerate(other.own):
                table = short_right if index == other.correct else short_wrong
                for word in own:
                    table[word] = table.get(word, 0) | bit
        elif size >= 3:
            verbatim |= bit
            for word in other.cues:
                long_cue[word] = long_cue.get(word, 0) | bit
            for word in other.options[other.correct]:
                long_answer[word] = long_answer.get(word, 0) | bit
        for index in questions[j].correct_indices:
            phrase = other.phrases[index]
            if phrase is not None:  # "" for a phrase without a run: looked for everywhere
                first, last = (phrase[1][0], phrase[1][-1]) if phrase[1] else ("", "")
                named_first[first] = named_first.get(first, 0) | bit
                named_last[last] = named_last.get(last, 0) | bit
    leaked: set[tuple[int, int]] = set()
    for k, question in enumerate(questions):
        if question.explanation is None:
            continue
        explanation = question.explanation.by_language[language]
        own = set(words(question.prompt.by_language[language], language))
        for index in range(len(question.options)):
            own |= set(words(_option(question, language, index), language))
        found = _short_answers(explanation, language, own, ~(1 << k), work,
                               short_cue, short_right, short_wrong)
        found |= _paraphrases(explanation, (k, language), own, ~(1 << k) & ~found, work,
                              long_cue, long_answer, others)
        folded = _fold(explanation)
        runs_of, adjacent = _runs(folded)
        runs, pairs = set(runs_of), set(adjacent)
        for j in _bits(verbatim & ~found & ~(1 << k)):
            work.pairs += 1
            answer = others[j].answer
            if all(run in runs for run in _runs(answer)[0][1:-1]):  # its inner words whole
                work.scans += 1
                if answer in folded:
                    found |= 1 << j
        starts, ends = named_first.get("", 0), named_last.get("", 0)
        for run in runs:
            starts |= named_first.get(run, 0)
            ends |= named_last.get(run, 0)
        for j in _bits(starts & ends & ~found & ~((2 << k) - 1)):
            work.pairs += 1
            other = others[j]
            right = sorted(questions[j].correct_indices)
            if any(other.named(i, folded, runs, pairs, work) for i in right) and not all(
                    other.named(i, folded, runs, pairs, work)
                    for i in range(len(other.options)) if i not in right):
                found |= 1 << j
        leaked.update((k, j) for j in _bits(found))
    return leaked


def _short_answers(explanation: str, language: str, own: set[str], allowed: int,
                   work: LeakWork, cue: dict[str, int], right: dict[str, int],
                   wrong: dict[str, int]) -> int:
    """The questions (bits) whose short answer ``explanation`` gives away (:func:`leaks`'s
    third test) among ``allowed``: for each word of the explanation that is a cue of some, the
    words one, two and three apart, nearest first; a question's answer is given away where a
    word only its correct option has stands nearer than any word only a distractor has."""
    found = 0
    said = tokens(explanation, language)
    at = {position: word for word, _, position in said}
    for word, _, position in said:
        work.positions += 1
        if word in own:
            continue
        candidates = cue.get(word, 0) & allowed & ~found
        blocked = 0
        distance = 0
        while candidates and distance < LEAK_WINDOW:
            distance += 1
            near = 0
            for other in (at.get(position - distance), at.get(position + distance)):
                if other is not None:
                    blocked |= wrong.get(other, 0)
                    near |= right.get(other, 0)
            candidates &= ~blocked
            found |= near & candidates
            candidates &= ~found
    return found


def _paraphrases(explanation: str, where: tuple[int, str], own: set[str], allowed: int,
                 work: LeakWork, cue: dict[str, int], answer: dict[str, int],
                 others: dict[int, _Other]) -> int:
    """The questions (bits) among ``allowed`` whose long answer a sentence of ``explanation``
    (of the question and language ``where``) paraphrases (:func:`leaks`'s second test),
    comparing a sentence only with the questions it has a cue and an answer word of, and no
    more once ``work`` has done its limit (then ``work.stopped`` is set, if it was not)."""
    language = where[1]
    limit = LEAK_COMPARISONS if work.limit is None else work.limit
    found = 0
    cues: dict[int, tuple[set[str], int]] = {}
    for sentence in _sentences(explanation):
        said = set(words(sentence, language))
        work.sentence_words += len(said)
        named = has_answer = 0
        for word in said:
            has_answer |= answer.get(word, 0)
            if word not in own:
                named |= cue.get(word, 0)
        for j in _bits(named & has_answer & allowed & ~found):
            other = others[j]
            if j not in cues:
                theirs = other.cues - own
                cues[j] = theirs, 1 if len(theirs) <= 2 else 2
            theirs, needed = cues[j]
            if work.comparisons >= limit:
                work.stopped = work.stopped or where
                return found
            work.comparisons += 1
            if len(said & theirs) < needed:
                continue
            shares = [len(option & said) / len(option) if option else 0.0
                      for option in other.sets]  # as _share
            right = shares[other.correct]
            rest = max(share for i, share in enumerate(shares) if i != other.correct)
            if right >= LEAK_COVERAGE and right >= 2 * rest:
                found |= 1 << j
    return found
