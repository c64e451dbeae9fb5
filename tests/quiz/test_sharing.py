"""Sharing a quiz, without Telegram: matching inline queries (bot.features.sharing.rules), the pages
of results, and the rendered results, cards, links and "Share" buttons (bot.render)."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path

import pytest

from bot.bankload import load_bank
from bot.features.private import screens as private_screens
from bot.features.sharing import rules as sharing
from bot.features.sharing import screens as sharing_screens
from bot.i18n import SUPPORTED, catalog
from bot.kernel import engine
from bot.kernel.bank import ID_PATTERN, Bank, Text
from bot.render import limits as render_limits
from bot.render import links as render_links
from bot.render import screen as render_screen
from bot.render.screen import ShareButton, UrlButton
from bot.render.text import HTML
from tests.support import bankgen
from tests.support.fakebotapi import parse_html, utf16_len

REAL_BANK = Path(__file__).resolve().parents[2] / "banks" / "deepspeed-megatron.yaml"
BOT = "quizbot_test_bot"


@pytest.fixture(scope="module")
def bank() -> Bank:
    return load_bank(REAL_BANK)


def many(bank: Bank, count: int) -> list[Bank]:
    """``count`` copies of ``bank`` under the ids b0, b1, ..."""
    return [replace(bank, id=f"b{n}") for n in range(count)]


# --- matching --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "folded"),
    [
        ("DeepSpeed", "deepspeed"),
        ("ΜΕΓΆΛΑ Μοντέλα", "μεγαλα μοντελα"),  # case and accents
        ("Ｍｅｇａｔｒｏｎ", "megatron"),  # full-width forms
        ("Deep\u200bSpeed\u200d", "deepspeed"),  # zero-width space and joiner
        ("\u202eZeRO\u200f\ufeff", "zero"),  # right-to-left override and mark, BOM
        ("e\u0301\u0308\u0327", "e"),  # stacked combining marks
        ("deepspeed-megatron!", "deepspeed megatron"),  # punctuation separates words
        ("🚀🔥 zero  \t3D 🧠", "zero 3d"),  # emoji and spaces
        ("ट्रेनिंग", "ट्रेनिंग"),  # Devanagari keeps its letters and spacing vowel signs
    ],
)
def test_normalize(typed: str, folded: str) -> None:
    assert sharing.normalize(typed) == folded


def test_search_matches_ids_titles_and_descriptions_in_every_language(bank: Bank) -> None:
    other = replace(
        bank,
        id="other",
        title=Text({"en": "Cooking", "hi": "खाना", "el": "Μαγειρική"}),
        description=Text({"en": "Pasta.", "hi": "पास्ता।", "el": "Ζυμαρικά."}),
    )
    banks = [bank, other]
    for query in ("", "   ", "\u200b\u200f", "🚀", "\u0301"):  # nothing to filter by: all
        assert sharing.search(banks, query) == banks, query
    cases = {
        "megatron": [bank],
        "MEGATRON": [bank],
        "deepspeed-megatron": [bank],
        "Megatron ZeRO": [bank],  # every word, title and description
        "πλαισια εκπαιδευσης": [bank],  # Greek without accents
        "ट्रेनिंग": [bank],
        "μαγειρ": [other],  # a word being typed
        "खाना": [other],
        "pasta": [other],
        "megatron pasta": [],
        "Mega\u200btron": [bank],  # an invisible character inside a word
    }
    for query, expected in cases.items():
        assert sharing.search(banks, query) == expected, query


def test_any_text_is_a_query(bank: Bank) -> None:
    """500 characters, right-to-left text, combining marks, emoji, control characters: a list
    (empty when nothing matches), never an error."""
    weird = [
        "x" * 500,
        "א" * 300 + "megatron",
        "\u202e" * 40 + "ZeRO",
        "e" + "\u0301" * 300,
        "👨‍👩‍👧‍👦" * 60,
        "\x00\x1b[31m",
        "\ufffd" * 10,
        "megatron" + "\u0300" * 1000,
    ]
    for query in weird:
        assert isinstance(sharing.search([bank], query), list), query
    assert sharing.search([bank], "x" * 500) == []
    assert sharing.search([bank], "megatron" + " " * 300 + "nomatch") == [bank]  # 256 read


def test_pages_of_at_most_50(bank: Bank) -> None:
    banks = many(bank, 120)
    first, offset = sharing.page(banks, "")
    assert (first, offset) == (banks[:50], "50")
    second, offset = sharing.page(banks, offset)
    third, offset = sharing.page(banks, offset)
    assert (second, third, offset) == (banks[50:100], banks[100:], "")
    assert sharing.page(banks, "500") == ([], "")  # banks were removed since
    for forged in ("abc", "-1", "1e3", "٣", "9" * 40, " 5"):
        assert sharing.page(banks, forged) == (banks[:50], "50"), forged
    assert sharing.page(banks[:50], "") == (banks[:50], "")


# --- results, cards and links ----------------------------------------------------------------


def test_bank_ids_always_fit_a_deep_link(bank: Bank) -> None:
    """A bank id is 1-32 characters of a-z, 0-9 and "-" (the loader refuses others), so it is
    its own deep-link payload (1-64 of A-Za-z0-9_-) and inline result id (1-64 bytes)."""
    longest = "a" + "-" * 30 + "z"
    assert ID_PATTERN.fullmatch(longest) and not ID_PATTERN.fullmatch("a" * 33)
    assert render_links.bank_link(BOT, longest) == f"https://t.me/{BOT}?start={longest}"
    assert render_links.group_bank_link(BOT, longest) == f"https://t.me/{BOT}?startgroup={longest}"
    assert not ID_PATTERN.fullmatch(render_links.LIST_PAYLOAD)  # never taken for a bank
    assert render_links.parse_question_payload(render_links.LIST_PAYLOAD) is None
    for bad in ("", "x" * 65, "with space", "ünï"):
        with pytest.raises(ValueError):
            render_links.group_deep_link(BOT, bad)


@pytest.mark.parametrize("language", SUPPORTED)
def test_articles_in_the_users_language(bank: Bank, language: str) -> None:
    t = catalog(language)
    (article,) = sharing_screens.inline_articles([bank], t, HTML, BOT, in_group=False)
    assert article.id == bank.id
    assert article.title == bank.title.by_language[language]
    assert t("level." + bank.level) in article.description
    assert t("question_count", count=len(bank.questions)) in article.description
    text, _ = parse_html(article.card.text)
    assert bank.title.by_language[language] in text
    assert bank.description.by_language[language] in text
    assert f"@{BOT}" in text
    ((start,),) = article.card.keyboard
    assert start.label == t("inline.button_start")
    assert start.action == UrlButton(f"https://t.me/{BOT}?start={bank.id}")


def test_in_a_group_the_card_can_start_the_quiz_there(bank: Bank) -> None:
    t = catalog("el")
    (article,) = sharing_screens.inline_articles([bank], t, HTML, BOT, in_group=True)
    (start,), (group_start,) = article.card.keyboard
    assert start.action == UrlButton(f"https://t.me/{BOT}?start={bank.id}")
    assert group_start.label == t("inline.button_start_group")
    assert group_start.action == UrlButton(f"https://t.me/{BOT}?startgroup={bank.id}")
    assert t("inline.card_hint_group", bot=BOT) in parse_html(article.card.text)[0]


def test_results_stay_within_telegrams_limits(tmp_path: Path) -> None:
    """A long title, a very long description full of characters to escape: the title is
    clipped to 64 characters, the description to 128 UTF-16 units, the card to far below
    4096 after parsing; the HTML is well formed."""
    long = load_bank(bankgen.write_bank(tmp_path, 2))
    huge = "𝔸<&>" * 3000  # astral characters count two UTF-16 units
    long = replace(long, description=Text({"en": huge, "hi": huge, "el": huge}))
    for language in SUPPORTED:
        (article,) = sharing_screens.inline_articles(
            [long], catalog(language), HTML, BOT, in_group=True
        )
        assert len(article.title) <= sharing_screens.MAX_RESULT_TITLE and article.title.endswith(
            "…"
        )
        assert utf16_len(article.description) <= sharing_screens.MAX_RESULT_DESCRIPTION
        assert "\n" not in article.description
        text, _ = parse_html(article.card.text)
        assert (
            utf16_len(text)
            < 2 * sharing_screens.MAX_CARD_DESCRIPTION
            < render_limits.MAX_MESSAGE_UTF16
        )
        assert html.unescape(re.sub("<[^>]+>", "", article.card.text)) == text


def test_no_match_button_is_short() -> None:
    for language in SUPPORTED:
        assert 1 <= utf16_len(sharing_screens.no_match_button(catalog(language))) <= 64


# --- "Share" buttons -------------------------------------------------------------------------


def test_end_screen_and_preview_share_the_bank_only_when_asked(bank: Bank) -> None:
    t = catalog("hi")
    plan = engine.Plan(
        tuple(q.id for q in bank.questions),
        tuple(tuple(range(len(q.options))) for q in bank.questions),
    )
    attempt = engine.Attempt(1, 42, bank.id, bank.version, plan, 0, engine.ACTIVE, 0.0)
    for position in range(len(bank.questions)):
        attempt = engine.with_answer(attempt, engine.grade(attempt, bank, 42, position, 0, 0.0))
    for screens in (
        private_screens.outcome(bank, attempt, t, HTML, share=True),
        private_screens.preview(bank, t, HTML, share=True),
    ):
        last = screens[-1].keyboard
        assert last[-1] == (render_screen.Button(t("inline.button_share"), ShareButton(bank.id)),)
        assert sum(map(len, last)) <= render_limits.MAX_KEYBOARD_BUTTONS
    for screens in (
        private_screens.outcome(bank, attempt, t, HTML),
        private_screens.preview(bank, t, HTML),
    ):  # the terminal, or inline mode off
        assert not any(
            isinstance(b.action, ShareButton) for s in screens for row in s.keyboard for b in row
        )
