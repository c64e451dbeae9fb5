"""Editing a copy of the bundled bank without a version bump, for tests of attempts that outlive
the edit (see ``bot.kernel.engine.revise``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from bot.config import BUNDLED_BANKS
from tests.support.banks import BANK_ID

NEW_OPTION = {
    "en": "A brand-new correct answer",
    "hi": "एक बिल्कुल नया सही उत्तर",
    "el": "Μια ολοκαίνουργια σωστή απάντηση",
    "id": "Jawaban benar yang sama sekali baru",
    "uk": "Цілком нова правильна відповідь",
    "ar": "إجابة صحيحة جديدة تمامًا",
    "ru": "Совершенно новый верный ответ",
    "tr": "Yepyeni bir doğru cevap",
    "fa": "یک پاسخ درست کاملاً تازه",
    "es": "Una respuesta correcta totalmente nueva",
    "pt": "Uma resposta correta totalmente nova",
    "uz": "Butunlay yangi toʻgʻri javob",
}
"""The text :func:`replace_correct_option` gives the new correct option."""


def copy_bank(folder: Path) -> Path:
    """Copy the bundled bank file into ``folder`` (created); return the copy's path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{BANK_ID}.yaml"
    path.write_text(
        (BUNDLED_BANKS / f"{BANK_ID}.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return path


def edit_bank(path: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    """Apply ``edit`` to the bank document at ``path`` and write it back; ``version`` is left
    as it is."""
    document = yaml.safe_load(path.read_text(encoding="utf-8"))
    version = document["version"]
    edit(document)
    assert document["version"] == version
    path.write_text(yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8")


def replace_correct_option(index: int) -> Callable[[dict[str, Any]], None]:
    """An edit: question ``index`` (0-based) gets :data:`NEW_OPTION` as its first option, which
    becomes the correct one (the old first option's text is gone)."""

    def edit(document: dict[str, Any]) -> None:
        options = document["questions"][index]["options"]
        for option in options:
            option.pop("correct", None)
        options[0] = {"text": dict(NEW_OPTION), "correct": True}

    return edit


def remove_question(index: int) -> Callable[[dict[str, Any]], None]:
    """An edit: question ``index`` (0-based) is deleted."""

    def edit(document: dict[str, Any]) -> None:
        del document["questions"][index]

    return edit
