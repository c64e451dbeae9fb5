"""A generator of large, valid question banks for tests of long messages.

:func:`write_bank` writes a bank YAML (schema: banks/README.md) in every language of the user
interface with up to 100 questions whose prompts, options and explanations are long and full
of characters Telegram HTML must escape (``<``, ``>``, ``&``, ``"``), so that every screen that
lists questions (preview, stats, the final score, the review) outgrows one Telegram message.
"""

from __future__ import annotations

import random
from pathlib import Path

import yaml

from bot.i18n import SUPPORTED

LANGUAGES = SUPPORTED
"""The bank's languages: every language of the user interface."""

WORDS = {
    "en": (
        "gradient",
        "pipeline",
        "shard",
        "tensor",
        "optimizer",
        "memory",
        "bandwidth",
        "checkpoint",
        "stage",
        "parallel",
        "activation",
        "batch",
        "<kernel>",
        "R&D",
        '"fused"',
        "NVMe",
    ),
    "hi": (
        "ग्रेडिएंट",
        "पाइपलाइन",
        "शार्ड",
        "टेंसर",
        "ऑप्टिमाइज़र",
        "मेमोरी",
        "बैंडविड्थ",
        "चेकपॉइंट",
        "स्टेज",
        "समानांतर",
        "एक्टिवेशन",
        "बैच",
        "<कर्नेल>",
        "अनुसंधान&विकास",
        '"फ़्यूज़्ड"',
        "NVMe",
    ),
    "el": (
        "κλίση",
        "διοχέτευση",
        "θραύσμα",
        "τανυστής",
        "βελτιστοποιητής",
        "μνήμη",
        "εύρος ζώνης",
        "σημείο ελέγχου",
        "στάδιο",
        "παράλληλος",
        "ενεργοποίηση",
        "παρτίδα",
        "<πυρήνας>",
        "Ε&Α",
        '"συγχωνευμένος"',
        "NVMe",
    ),
    "id": (
        "gradien",
        "pipeline",
        "partisi",
        "tensor",
        "optimizer",
        "memori",
        "bandwidth",
        "checkpoint",
        "tahap",
        "paralel",
        "aktivasi",
        "batch",
        "<kernel>",
        "litbang&inovasi",
        '"digabung"',
        "NVMe",
    ),
    "uk": (
        "градієнт",
        "конвеєр",
        "шард",
        "тензор",
        "оптимізатор",
        "пам’ять",
        "пропускна здатність",
        "контрольна точка",
        "стадія",
        "паралельний",
        "активація",
        "батч",
        "<ядро>",
        "НДДКР&розробка",
        '"злитий"',
        "NVMe",
    ),
    "ru": (
        "градиент",
        "конвейер",
        "шард",
        "тензор",
        "оптимизатор",
        "память",
        "пропускная способность",
        "контрольная точка",
        "стадия",
        "параллельный",
        "активация",
        "батч",
        "<ядро>",
        "НИОКР&разработка",
        '"слитый"',
        "NVMe",
    ),
    "es": (
        "gradiente",
        "canalización",
        "fragmento",
        "tensor",
        "optimizador",
        "memoria",
        "ancho de banda",
        "punto de control",
        "etapa",
        "paralelo",
        "activación",
        "lote",
        "<núcleo>",
        "I+D&innovación",
        '"fusionado"',
        "NVMe",
    ),
    "pt": (
        "gradiente",
        "pipeline",
        "fragmento",
        "tensor",
        "otimizador",
        "memória",
        "largura de banda",
        "checkpoint",
        "estágio",
        "paralelo",
        "ativação",
        "lote",
        "<núcleo>",
        "P&D",
        '"fundido"',
        "NVMe",
    ),
    "tr": (
        "gradyan",
        "boru hattı",
        "parça",
        "tensör",
        "optimize edici",
        "bellek",
        "bant genişliği",
        "kontrol noktası",
        "aşama",
        "paralel",
        "aktivasyon",
        "yığın",
        "<çekirdek>",
        "Ar&Ge",
        '"birleşik"',
        "NVMe",
    ),
    "uz": (
        "gradiyent",
        "konveyer",
        "boʻlak",
        "tenzor",
        "optimizator",
        "xotira",
        "oʻtkazuvchanlik",
        "nazorat nuqtasi",
        "bosqich",
        "parallel",
        "aktivatsiya",
        "paket",
        "<yadro>",
        "ITT&ishlanma",
        '"birlashgan"',
        "NVMe",
    ),
    "fa": (
        "گرادیان",
        "خط لوله",
        "بخش",
        "تنسور",
        "بهینه‌ساز",
        "حافظه",
        "پهنای باند",
        "نقطهٔ بازبینی",
        "مرحله",
        "موازی",
        "فعال‌سازی",
        "دسته",
        "<هسته>",
        "تحقیق&توسعه",
        '"ادغام‌شده"',
        "NVMe",
    ),
    "ar": (
        "التدرج",
        "خط الأنابيب",
        "جزء",
        "موتر",
        "المحسِّن",
        "الذاكرة",
        "عرض النطاق",
        "نقطة حفظ",
        "مرحلة",
        "متوازٍ",
        "تفعيل",
        "دفعة",
        "<نواة>",
        "البحث&التطوير",
        '"مدمج"',
        "NVMe",
    ),
}
"""Words per language, some with characters that Telegram HTML must escape."""


GUIDE = {
    "en": "Guide",
    "hi": "गाइड",
    "el": "Οδηγός",
    "id": "Panduan",
    "uk": "Посібник",
    "ru": "Руководство",
    "es": "Guía",
    "pt": "Guia",
    "tr": "Kılavuz",
    "uz": "Qoʻllanma",
    "fa": "راهنما",
    "ar": "دليل",
}
"""The guide link's label per language."""


def sentence(language: str, seed: int, words: int) -> str:
    """A deterministic pseudo-sentence of ``words`` words in ``language``."""
    rng = random.Random(f"{language}-{seed}")
    return " ".join(rng.choice(WORDS[language]) for _ in range(words)).capitalize() + "."


def prompt(language: str, number: int, words: int = 40) -> str:
    """The prompt of question ``number`` (1-based): a unique tag, then long text."""
    return f"[{number:03d}] {sentence(language, number, words)[:-1]}?"


def question(
    number: int,
    *,
    prompt_words: int,
    option_words: int,
    explanation_words: int,
    languages: tuple[str, ...] = LANGUAGES,
) -> dict:
    """One question in ``languages``: long prompt, four distinct long options (the first
    correct), a long explanation and a source."""
    options = []
    for slot in range(4):
        options.append(
            {
                "text": {
                    lang: f"{'ABCD'[slot]}{number}: "
                    + sentence(lang, number * 4 + slot, option_words)
                    for lang in languages
                }
            }
        )
    options[0]["correct"] = True
    return {
        "id": f"q{number:03d}",
        "prompt": {lang: prompt(lang, number, prompt_words) for lang in languages},
        "options": options,
        "explanation": {
            lang: f"[E{number:03d}] {sentence(lang, number, explanation_words)}"
            for lang in languages
        },
        "source": {
            "title": f'Source <{number}> & "notes"',
            "url": f"https://example.org/q{number}?a=1&b=2",
        },
    }


def bank_data(
    questions: int = 100,
    *,
    bank_id: str = "long-bank",
    prompt_words: int = 40,
    option_words: int = 12,
    explanation_words: int = 80,
    languages: tuple[str, ...] = LANGUAGES,
) -> dict:
    """The bank as a mapping, ready to dump as YAML.

    Args:
        questions: 1-100 (the schema's maximum is 100).
        bank_id: The bank's id.
        prompt_words, option_words, explanation_words: Length of those texts, in words.
        languages: The bank's languages, English first (a bank of 100 long questions in
            every language would pass a bank file's size limit).
    """
    long_title = {lang: f"{sentence(lang, 1, 30)} <&>" for lang in languages}
    return {
        "id": bank_id,
        "version": 1,
        "default_language": "en",
        "languages": list(languages),
        "level": "hard",
        "title": long_title,
        "description": {lang: sentence(lang, 2, 60) for lang in languages},
        "guide": {
            "url": "https://example.org/guide",
            "label": {lang: GUIDE[lang] for lang in languages},
        },
        "questions": [
            question(
                n,
                prompt_words=prompt_words,
                option_words=option_words,
                explanation_words=explanation_words,
                languages=languages,
            )
            for n in range(1, questions + 1)
        ],
    }


def write_bank(folder: Path, questions: int = 100, **kwargs: object) -> Path:
    """Write a generated bank (see :func:`bank_data`) to ``folder/<id>.yaml``; return its path."""
    data = bank_data(questions, **kwargs)  # type: ignore[arg-type]
    path = folder / f"{data['id']}.yaml"
    path.write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000), encoding="utf-8"
    )
    return path
