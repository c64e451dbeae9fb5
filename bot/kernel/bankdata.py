"""A bank as plain data: the mapping of the bank format (``banks/README.md``), key for key.

Pure: :func:`bank_data` turns a :class:`~bot.kernel.bank.Bank` back into the mapping its YAML
document holds, in the order the format documents its keys, so that the document dumped from
it (``bot.bankload.dump``) parses to the same bank. Edits of created quizzes work on this data
(:mod:`bot.features.myquizzes.service`) and are checked again by the loader.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.kernel.bank import Bank, Exam, Question, Text
from bot.kernel.textformat import TypedQuestion

TRUE_FALSE = "true-false"
"""The ``kind`` of a true/false question in the bank format."""


def text_data(text: Text) -> dict[str, str]:
    """A localized text as its mapping (language code -> text)."""
    return dict(text.by_language)


def question_data(question: Question) -> dict[str, object]:
    """One question as the mapping of the bank format."""
    data: dict[str, object] = {"id": question.id}
    kind = str(question.kind)
    if kind == TRUE_FALSE:
        data["kind"] = TRUE_FALSE
    data["prompt"] = text_data(question.prompt)
    if question.picture:
        data["picture"] = question.picture
    if kind == TRUE_FALSE:
        data["answer"] = question.options[0].correct
    else:
        options: list[dict[str, object]] = []
        for option in question.options:
            entry: dict[str, object] = {"text": text_data(option.text)}
            if option.correct:
                entry["correct"] = True
            options.append(entry)
        data["options"] = options
        if not question.shuffle:
            data["shuffle"] = False
    if question.explanation is not None and any(question.explanation.by_language.values()):
        data["explanation"] = text_data(question.explanation)
    if question.source is not None:
        data["source"] = {"title": question.source.title, "url": question.source.url}
    if question.waived:
        data["waive"] = sorted(question.waived)
    if question.marks is not None:
        data["marks"] = _number(question.marks)
    return data


def _number(value: float) -> int | float:
    """A number of marks as YAML writes it best: 4, not 4.0."""
    return int(value) if value == int(value) else value


def exam_data(exam: Exam) -> dict[str, object]:
    """A quiz's exam mode as the ``exam`` block of the bank format (defaults left out)."""
    data: dict[str, object] = {"minutes": exam.minutes}
    if exam.marks != 1:
        data["marks"] = _number(exam.marks)
    if exam.penalty:
        data["penalty"] = _number(exam.penalty)
    if exam.draw is not None:
        data["draw"] = exam.draw
    return data


def bank_data(bank: Bank) -> dict[str, object]:
    """The bank as the mapping of the bank format (keys in the order ``banks/README.md``
    lists them; ``guide`` only when the bank has one)."""
    data: dict[str, object] = {
        "id": bank.id,
        "version": bank.version,
        "default_language": bank.default_language,
        "languages": list(bank.languages),
        "level": bank.level,
        "title": text_data(bank.title),
        "description": text_data(bank.description),
    }
    if bank.guide is not None:
        data["guide"] = {"url": bank.guide.url, "label": text_data(bank.guide.label)}
    if bank.exam is not None:
        data["exam"] = exam_data(bank.exam)
    data["questions"] = [question_data(question) for question in bank.questions]
    return data


def in_every_language(text: str, languages: tuple[str, ...] | list[str]) -> dict[str, str]:
    """A localized text with ``text`` in each of ``languages`` (a question typed in one
    language, added to a quiz that has several: the creator translates it in an export)."""
    return {language: text for language in languages}


def localized(data: Mapping[str, Any], languages: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """A question mapping whose texts are in one language, with each text given in every one of
    ``languages`` (see :func:`in_every_language`); other keys as they are."""

    def widen(value: Any) -> Any:
        if isinstance(value, Mapping):
            if value and all(isinstance(v, str) for v in value.values()):
                text = next(iter(value.values()))
                return {language: value.get(language, text) for language in languages}
            return {key: widen(item) for key, item in value.items()}
        if isinstance(value, list):
            return [widen(item) for item in value]
        return value

    kept = ("id", "kind", "picture", "answer", "shuffle", "source", "waive", "marks")
    return {key: (value if key in kept else widen(value)) for key, value in data.items()}


def typed_question_data(typed: TypedQuestion, language: str) -> dict[str, Any]:
    """A question typed in a chat (:func:`bot.kernel.textformat.parse_question`) as bank data in
    ``language`` (no id: the quiz gives it one)."""
    item: dict[str, Any] = {"prompt": {language: typed.prompt}}
    if typed.answer is not None:
        item["kind"] = TRUE_FALSE
        item["answer"] = typed.answer
    else:
        item["options"] = [
            {"text": {language: text}, **({"correct": True} if i in typed.correct else {})}
            for i, text in enumerate(typed.options)
        ]
    if typed.explanation:
        item["explanation"] = {language: typed.explanation}
    return item
