"""The answer-leak check of ``quizbot validate --strict`` (:mod:`bot.kernel.checks`): whether one
question's explanation gives away another question's answer. :func:`leaks` and
:func:`names_answer` define it for one pair; :func:`leaking_pairs` finds every pair of a bank
at once, reading each explanation once against an index of the other questions, within
:data:`LEAK_COMPARISONS`. Pure."""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from bot.kernel.bank import TRUE_FALSE, Bank, Question
from bot.kernel.itemtext import _fold, _option, _sentences, tokens, words

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
        own_words = [
            set(option) - {w for j, o in enumerate(options) if j != i for w in o}
            for i, option in enumerate(options)
        ]
        said_words = [(word, position) for word, _, position in tokens(explanation, language)]
        positions = [position for _, position in said_words]  # increasing
        for word, position in said_words:
            if word in cues:
                near = said_words[
                    bisect.bisect_left(positions, position - LEAK_WINDOW) : bisect.bisect_right(
                        positions, position + LEAK_WINDOW
                    )
                ]
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
    named = [
        _names(explanation, _option(other, language, i), language)
        for i in range(len(other.options))
    ]
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


def _nearest(
    said: Sequence[tuple[str, int]], position: int, own_words: Sequence[set[str]]
) -> int | None:
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
        return self.positions + self.sentence_words + self.comparisons + self.pairs + self.scans


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

    def named(
        self,
        index: int,
        folded: str,
        runs: set[str],
        pairs: set[tuple[str, str, str]],
        work: LeakWork,
    ) -> bool:
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
                rf"(?<![\w\u0900-\u097f]){re.escape(text)}(?![\w\u0900-\u097f])"
            )
        work.scans += 1
        return self.patterns[index].search(folded) is not None


def _other(question: Question, language: str) -> _Other:
    options = [
        tuple(words(_option(question, language, i), language)) for i in range(len(question.options))
    ]
    in_options = {word for option in options for word in option}
    prompt = tokens(question.prompt.by_language[language], language)
    names = {word for word, name, _ in prompt if name}
    own = [
        set(option) - {w for j, o in enumerate(options) if j != i for w in o}
        for i, option in enumerate(options)
    ]
    phrases: list[tuple[str, list[str], list[tuple[str, str, str]]] | None] = []
    for index, option in enumerate(options):
        if not option:
            phrases.append(None)
            continue
        text = _fold(_option(question, language, index)).strip().rstrip(".")
        phrases.append((text, *_runs(text)))
    return _Other(
        options,
        question.correct_index,
        {word for word, _, _ in prompt} - names - in_options,
        own,
        [frozenset(option) for option in options],
        _fold(_option(question, language, question.correct_index)).strip(" ."),
        phrases,
        {},
    )


def _runs(folded: str) -> tuple[list[str], list[tuple[str, str, str]]]:
    """The runs of word characters of ``folded`` (:data:`_RUN`), and each two adjacent ones
    with what stands between them."""
    found = list(_RUN.finditer(folded))
    return (
        [match[0] for match in found],
        [
            (first[0], folded[first.end() : second.start()], second[0])
            for first, second in itertools.pairwise(found)
        ],
    )


def _bits(mask: int) -> Iterator[int]:
    """The indices of the bits set in ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def leaking_pairs(  # noqa: C901 - indexes every question in one pass
    bank: Bank,
    language: str,
    work: LeakWork | None = None,
) -> set[tuple[int, int]]:
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
    others = {
        j: _other(other, language) for j, other in enumerate(questions) if other.kind != TRUE_FALSE
    }
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
        found = _short_answers(
            explanation, language, own, ~(1 << k), work, short_cue, short_right, short_wrong
        )
        found |= _paraphrases(
            explanation, (k, language), own, ~(1 << k) & ~found, work, long_cue, long_answer, others
        )
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
                for i in range(len(other.options))
                if i not in right
            ):
                found |= 1 << j
        leaked.update((k, j) for j in _bits(found))
    return leaked


def _short_answers(
    explanation: str,
    language: str,
    own: set[str],
    allowed: int,
    work: LeakWork,
    cue: dict[str, int],
    right: dict[str, int],
    wrong: dict[str, int],
) -> int:
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


def _paraphrases(
    explanation: str,
    where: tuple[int, str],
    own: set[str],
    allowed: int,
    work: LeakWork,
    cue: dict[str, int],
    answer: dict[str, int],
    others: dict[int, _Other],
) -> int:
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
            shares = [
                len(option & said) / len(option) if option else 0.0 for option in other.sets
            ]  # as _share
            right = shares[other.correct]
            rest = max(share for i, share in enumerate(shares) if i != other.correct)
            if right >= LEAK_COVERAGE and right >= 2 * rest:
                found |= 1 << j
    return found
