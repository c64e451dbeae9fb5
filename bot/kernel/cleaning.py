"""A forwarded quiz poll's question cleaned as channel owners need: the channel's counter at
its start (``[1/100]``, ``1/100``, ``Q12.``, ``12)``, ``#12``) and its signature at its end
(``@channel``, a ``t.me/...`` link, ``via @bot``) are taken off, since in a quiz of its own
the question has its own number and its place. Pure.

One cleaning for every way a forwarded poll becomes a question: /newquiz's
(:func:`bot.features.newquiz.steps.take_poll`) and /myquizzes' "Add a question" and "Replace"
(:mod:`bot.features.myquizzes.handlers`). Each shows the maker what was taken off
(:func:`removed_shown`) with a "Keep the original" button.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COUNTER = re.compile(
    r"""^\s*(?:
        [\[(]\s*(?P<bracketed>\d{1,5})\s*(?:/\s*\d{1,5}\s*)?[\])]   # [1/100], (12), [12]
      | (?P<number>\d{1,5})\s*/\s*(?P<of>\d{2,5})(?=[\s.:)|]|$)     # 1/100, 12/50
      | (?:Q|№|\#)\s?\.?\s?\d{1,5}(?!\d)\s*[.:)]?                  # Q12. Q.12 #12 №12
      | \d{1,5}\s*[.)](?!\d)                                      # 12) 12.
    )[\s.:)\-–—|]*""",
    re.VERBOSE,
)
"""A counter at the start of the question, with the punctuation and spaces after it. A
number followed by a digit (``12.5``) is not a counter, nor a fraction of a one-digit
whole or larger than its whole (``3/4 of 12``, ``7/5``): ``12/50`` is."""

_SIGNATURE = re.compile(
    r"""(?<![\w.@/])(?:
        (?:via|by)\s+@[A-Za-z0-9_]{3,32}                       # via @bot
      | (?:https?://)?(?:t|telegram)\.me/[A-Za-z0-9_+/\-?=&.]+  # t.me/... links
      | @[A-Za-z][A-Za-z0-9_]{3,31}                             # @channel
    )[\s.,;:!)\]|]*$""",
    re.VERBOSE | re.IGNORECASE,
)
"""One signature at the end of the question (not inside a word: ``name@mail``), with the
punctuation after it."""
_SIGNATURE_LEAD = re.compile(r"[\s(\[|\-–—•:,]*$")
"""What joins a signature to the question (spaces, a dash, a bar, an opening bracket)."""
_MAX_PASSES = 3
"""Counters or signatures taken off at each end at most (``[1/100] Q1.``, ``@a t.me/a``)."""


@dataclass(frozen=True)
class Cleaned:
    """A question with its counter and signature taken off.

    Attributes:
        text: The question as it is stored.
        removed: What was taken off, in the order it stood (a counter, then signatures).
    """

    text: str
    removed: tuple[str, ...]


def clean_question(question: str) -> Cleaned | None:
    """``question`` (a forwarded poll's) without the counters at its start and the
    signatures at its end; None when there is nothing to take off, or nothing would be left
    (a question that is only a link stays as it is)."""
    text = question.strip()
    removed: list[str] = []
    for _ in range(_MAX_PASSES):
        counter = _COUNTER.match(text)
        if counter is None or not text[counter.end() :].strip():
            break
        if counter["of"] is not None and not 1 <= int(counter["number"]) <= int(counter["of"]):
            break
        removed.append(counter.group().strip())
        text = text[counter.end() :].strip()
    ends: list[str] = []
    for _ in range(_MAX_PASSES):
        signature = _SIGNATURE.search(text)
        if signature is None:
            break
        lead = _SIGNATURE_LEAD.search(text, 0, signature.start())
        start = lead.start() if lead is not None else signature.start()
        if not text[:start].strip():
            break
        ends.insert(0, signature.group().strip())
        text = text[:start].rstrip()
    removed.extend(ends)
    if not removed:
        return None
    return Cleaned(text, tuple(removed))


def removed_shown(original: str, prompt: str) -> str:
    """What was taken off ``original`` to make ``prompt``, as the maker is shown it: the
    original with ``…`` where the kept question stood, spaces collapsed
    (``[12/100] … @quiz_channel``)."""
    return " ".join(original.replace(prompt, " … ", 1).split())
