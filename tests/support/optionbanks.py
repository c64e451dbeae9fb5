"""Small valid banks with 2 to 10 options per question, for the tests of option counts."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.kernel.bank import Bank

LANGUAGES = ("en", "el")


def bank_data(
    options: int, *, bank_id: str | None = None, questions: int = 2, version: int = 1
) -> dict:
    """A bank (as a mapping to dump as YAML) whose every question has ``options`` options;
    question ``n`` (1-based) has its correct option at index ``n * 3 % options``, so the correct
    one is not always first."""
    bank_id = bank_id or f"options-{options}"
    return {
        "id": bank_id,
        "version": version,
        "default_language": "en",
        "languages": list(LANGUAGES),
        "level": "easy",
        "title": {"en": f"{options} options", "el": f"{options} επιλογές"},
        "description": {"en": "Option counts.", "el": "Πλήθος επιλογών."},
        "questions": [
            {
                "id": f"q{number}",
                "prompt": {
                    "en": f"Question {number} of the {options}-option bank?",
                    "el": f"Ερώτηση {number} της τράπεζας με {options} επιλογές;",
                },
                "options": [
                    {
                        "text": {
                            "en": f"Choice {number}.{index}",
                            "el": f"Επιλογή {number}.{index}",
                        },
                        **({"correct": True} if index == number * 3 % options else {}),
                    }
                    for index in range(options)
                ],
                "explanation": {
                    "en": f"Choice {number}.{number * 3 % options} is right.",
                    "el": f"Σωστή είναι η επιλογή {number}.{number * 3 % options}.",
                },
                "source": {"title": "Test source", "url": "https://example.org/source"},
            }
            for number in range(1, questions + 1)
        ],
    }


def write_bank(folder: Path, options: int, **kwargs: object) -> Path:
    """Write :func:`bank_data` to ``folder/<id>.yaml``; return the path."""
    data = bank_data(options, **kwargs)  # type: ignore[arg-type]
    path = folder / f"{data['id']}.yaml"
    path.write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8"
    )
    return path


OPTION_LINE = re.compile(r"^(?:[✅❌] )?([A-L])\. (.*?)(?: \(.*\)| — \d+)?$")


def shown_options(text: str) -> dict[str, str]:
    """Label (A-L) -> option text, as shown in a question, feedback or reveal."""
    return {m[1]: m[2] for m in map(OPTION_LINE.match, text.splitlines()) if m}


def correct_label(text: str, bank: Bank, language: str = "en") -> str:
    """The label of the correct option in a shown question, found through the bank."""
    [question] = [q for q in bank.questions if q.prompt.by_language[language] in text]
    right = question.options[question.correct_index].text.by_language[language]
    [label] = [label for label, shown in shown_options(text).items() if shown == right]
    return label
