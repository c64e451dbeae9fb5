"""Right-to-left text (bot/i18n/bidi.py): each line of a Persian or Arabic message laid out
right to left in Telegram, values isolated in right-to-left sentences, visual order in the
terminal; the transport's and the keyboard's use of it."""

from __future__ import annotations

import unicodedata

import pytest

from bot import i18n
from bot.i18n import bidi
from bot.i18n.bidi import FSI, PDI, RLM
from bot.render.callbacks import LanguageButton
from bot.render.screen import Button, Screen
from bot.telegram.common import keyboard
from bot.telegram.transport import mark_directions
from bot.terminal.play import TERMINAL_BIDI_ENV, wrap

QUESTION = "ZeRO در DeepSpeed چگونه حافظهٔ GPU را کاهش می‌دهد؟"
"""A Persian question whose first letter is a Latin one: left to right unless marked."""


def first_strong(line: str) -> str | None:
    for char in line:
        kind = unicodedata.bidirectional(char)
        if kind in ("L", "R", "AL"):
            return kind
    return None


def test_right_to_left_languages_are_cldrs():
    codes = ("en", "hi", "el", "ru", "uk", "es", "pt", "id", "tr", "uz", "fa", "ar")
    assert [code for code in codes if bidi.right_to_left(code)] == ["fa", "ar"]
    assert not bidi.right_to_left("not a language")
    assert bidi.right_to_left("fa-IR") and bidi.right_to_left("ar_EG")


def test_the_right_to_left_languages_are_those_of_cldr():
    """The list kept to spare loading locale data is CLDR's, as Babel ships it."""
    from babel import Locale, localedata

    cldr = {
        code
        for code in localedata.locale_identifiers()
        if "_" not in code and Locale.parse(code).character_order == "right-to-left"
    }
    assert cldr == bidi.RIGHT_TO_LEFT_LANGUAGES


def test_each_line_a_latin_letter_would_start_gets_a_right_to_left_mark():
    """The question's line, a "3/8" line and an option line with a Latin start are marked; a
    line that starts right to left, or is blank, is left as it is."""
    text = f"سؤال ۳ از ۸\n{QUESTION}\n\n3/8 ▰▰▰▱▱\nA. Stage 3 از ZeRO"
    lines = bidi.directed(text).split("\n")
    assert lines == [
        "سؤال ۳ از ۸",
        RLM + QUESTION,
        "",
        RLM + "3/8 ▰▰▰▱▱",
        RLM + "A. Stage 3 از ZeRO",
    ]
    assert all(first_strong(line) in ("R", "AL") for line in lines if line)


def test_left_to_right_text_is_left_as_it_is():
    """English (with a Persian name in it), Greek and Hindi texts come back unchanged, the
    same object: nothing is looked at without a right-to-left letter."""
    for text in ("Well done, مریم! 3/8", "Σωστά! ZeRO", "सही उत्तर: ZeRO", "ZeRO\n3/8"):
        assert bidi.directed(text) is text or bidi.directed(text) == text


def test_html_tags_are_not_a_lines_first_letter():
    """In Telegram HTML a bold Latin term still starts the line (marked); a tag before Persian
    text does not make the line left to right (not marked)."""
    marked = bidi.directed(f"<b>ZeRO</b> {QUESTION[5:]}\n<b>پاسخ درست</b>", html=True)
    assert marked.split("\n") == [RLM + f"<b>ZeRO</b> {QUESTION[5:]}", "<b>پاسخ درست</b>"]


def test_values_with_letters_are_isolated_numbers_and_links_are_not():
    assert bidi.isolate("DeepSpeed Basics") == f"{FSI}DeepSpeed Basics{PDI}"
    assert bidi.isolate("مریم") == f"{FSI}مریم{PDI}"
    for value in ("3", "3/8", "12,5 %", "", "https://t.me/quizbot?start=x"):
        assert bidi.isolate(value) == value


def test_a_right_to_left_catalog_isolates_the_values_it_puts_into_a_sentence():
    """A Persian catalog (its English texts here: what matters is the language's direction)
    isolates a name, not a count; an English catalog isolates nothing."""
    persian, english = i18n.Catalog("fa"), i18n.Catalog("en")
    assert persian.right_to_left and not english.right_to_left
    key = next(
        key
        for key, message in i18n.MESSAGES.items()
        if not isinstance(message, i18n.Plural) and "{name}" in message.text
    )
    assert f"{FSI}Ada{PDI}" in persian(key, name="Ada")
    assert FSI not in english(key, name="Ada") and "Ada" in english(key, name="Ada")
    assert FSI not in persian("question_header", number=3, total=8)  # "3/8" reads as it is


def test_the_terminal_shows_right_to_left_lines_in_visual_order():
    """Wrapped first (by display width), then each line reordered: the Persian words come out
    reversed as a left-to-right terminal draws them, the Latin term and the number kept in
    reading order; no formatting character is left. A terminal that reorders by itself gets
    the logical order."""
    shown = wrap(f"{QUESTION} {FSI}3/8{PDI}", 24, environ={})
    lines = shown.split("\n")
    assert len(lines) > 1 and all(bidi.CONTROLS.search(line) is None for line in lines)
    assert "ZeRO" in shown and "DeepSpeed" in shown
    assert lines[0].endswith("ZeRO")  # the first word read, at the right end as drawn
    logical = wrap(QUESTION, 24, environ={TERMINAL_BIDI_ENV: "1"})
    assert logical.split("\n")[0].startswith("ZeRO")
    assert wrap("Which stage?", 24, environ={}) == "Which stage?"


def test_the_transport_marks_texts_captions_and_toasts_within_telegrams_limits():
    """sendMessage's HTML text and a photo's caption are marked; a toast too, unless the marks
    would take it past 200 characters; an English text is not touched."""
    sent = {"chat_id": 1, "text": f"<b>{QUESTION}</b>", "parse_mode": "HTML"}
    mark_directions("https://api.telegram.org/bot1:x/sendMessage", sent)
    assert sent["text"] == RLM + f"<b>{QUESTION}</b>"
    photo = {"chat_id": 1, "caption": "3/8\nنمودار پیشرفت شما"}
    mark_directions("https://api.telegram.org/bot1:x/sendPhoto", photo)
    assert photo["caption"] == RLM + "3/8\nنمودار پیشرفت شما"
    long_toast = {"callback_query_id": "1", "text": "\n".join(["ZeRO پاسخ"] * 20)[:200]}
    before = dict(long_toast)
    mark_directions("https://api.telegram.org/bot1:x/answerCallbackQuery", long_toast)
    assert long_toast == before
    english = {"chat_id": 1, "text": "ZeRO\n3/8"}
    mark_directions("https://api.telegram.org/bot1:x/sendMessage", english)
    assert english["text"] == "ZeRO\n3/8"


def test_a_right_to_left_button_label_starting_with_a_latin_term_is_marked():
    labels = ("Stage 3 در ZeRO", "مرحلهٔ ۲", "Stage 1")
    markup = keyboard(Screen("x", ((*(Button(label, LanguageButton("fa")) for label in labels),),)))
    assert markup is not None
    shown = [button["text"] for button in markup.to_dict()["inline_keyboard"][0]]
    assert shown == [RLM + "Stage 3 در ZeRO", "مرحلهٔ ۲", "Stage 1"]
    assert [button.text for button in markup.inline_keyboard[0]] == shown


def test_commands_options_and_signed_numbers_keep_their_sign_in_front():
    """In a right-to-left text, "/quiz", "--review" and "-0.35" get LEFT-TO-RIGHT MARK before
    them (their slash or sign would otherwise be laid out after them: "quiz/"); in the
    terminal they come out in reading order; left-to-right text is not touched."""
    text = "برای شروع /quiz را بفرستید یا --review و ضریب -0.35 است"
    marked = bidi.directed(text)
    assert marked.count(bidi.LRM) == 3
    assert all(f"{bidi.LRM}{token}" in marked for token in ("/quiz", "--review", "-0.35"))
    shown = bidi.visual(bidi.anchored(text))
    assert all(token in shown for token in ("/quiz", "--review", "-0.35"))
    assert bidi.directed("Send /quiz or --review") == "Send /quiz or --review"


def test_formulas_keep_their_order_and_links_are_left_whole():
    """A formula in a right-to-left text is isolated left to right as a whole ("(p-1)/m",
    "2 + 14/N", "n = p × t × d"), so the terminal shows it in reading order; a link, with its
    slashes and "=", is not touched."""
    text = "حباب (p-1)/m است و 2 + 14/N و n = p × t × d؛ لینک https://t.me/bot?start=a-1/b"
    marked = bidi.anchored(text)
    for formula in ("(p-1)/m", "2 + 14/N", "n = p × t × d"):
        assert f"{bidi.LRI}{formula}{PDI}" in marked
        assert formula in bidi.visual(marked)
    assert "https://t.me/bot?start=a-1/b" in marked
    assert bidi.anchored("Use (p-1)/m") != "Use (p-1)/m"  # only right-to-left texts get it:
    assert bidi.directed("Use (p-1)/m") == "Use (p-1)/m"  # directed() looks first


def test_the_terminal_keeps_brackets_paired_and_persian_joiners():
    """Visual order resolves bracket pairs (a Latin term in brackets stays "(...)", Persian in
    brackets comes out mirrored, so it reads "(...)" right to left) and keeps ZWNJ (بهینه‌ساز),
    as a newcomer's Persian game showed they were not."""
    shown = bidi.visual("ZeRO (Zero Redundancy Optimizer) و (پاسخ شما) بهینه‌ساز به O(√n)")
    assert "ZeRO (Zero Redundancy Optimizer)" in shown and "O(√n)" in shown
    assert "(امش خساپ)" in shown  # (پاسخ شما) drawn left to right
    assert "\u200c" in shown


def test_an_isolated_command_is_kept_on_one_line_in_a_right_to_left_sentence():
    """A command put into a Persian sentence (isolated by the catalog) and the option after it
    stay on one line when the terminal wraps, as in a left-to-right one."""
    from bot.terminal import text as termtext

    words = f"برای مرور سؤال‌ها {FSI}quizbot play --lang fa{PDI} --review را اجرا کنید".split()
    runs = termtext.kept_together(words)
    assert [f"{FSI}quizbot", "play", "--lang", f"fa{PDI}", "--review"] in runs


def test_the_terminal_aligns_a_right_to_left_paragraph_to_the_right():
    """Each line of a Persian paragraph in visual order ends at the wrap width (as a
    right-to-left paragraph is laid out); a blank line stays empty; a left-to-right text and
    a terminal that reorders by itself get no padding."""
    from bot.terminal import text as termtext

    shown = wrap(f"{QUESTION}\n\n{QUESTION}", 30, environ={})
    lines = shown.split("\n")
    assert "" in lines
    drawn = [line for line in lines if line]
    assert len(drawn) > 2 and all(termtext.width(line) == 30 for line in drawn)
    assert any(line.startswith(" ") for line in drawn)
    assert not wrap(QUESTION, 30, environ={TERMINAL_BIDI_ENV: "1"}).startswith(" ")
    assert wrap("Which stage?", 30, environ={}) == "Which stage?"


@pytest.mark.parametrize(
    ("logical", "base_and_marks"),
    [
        ("مرحبًا", "\u0628\u064b"),  # BEH, FATHATAN: the mark after its letter, as drawn
        ("المحدَّثة", "\u062f\u064e\u0651"),  # DAL, FATHA, SHADDA: the marks in their order
        ("حافظهٔ مدل", "\u0647\u0654"),  # HEH, HAMZA ABOVE: not on the space
    ],
)
def test_the_terminal_draws_a_vowel_mark_on_its_own_letter(logical, base_and_marks):
    """UAX #9 L3: in visual order a combining mark follows its base letter (a terminal draws
    a mark on the character before it), not the letter logically after it or a space."""
    shown = bidi.visual(logical)
    assert base_and_marks in shown, [hex(ord(c)) for c in shown]
    assert not any(
        unicodedata.category(c) == "Mn" and (i == 0 or shown[i - 1] == " ")
        for i, c in enumerate(shown)
    )
    assert sorted(shown) == sorted(logical)  # nothing lost or added
