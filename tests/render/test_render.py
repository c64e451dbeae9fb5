"""Tests for bot.render: the callback-data codec, HTML escaping and the screens."""

from __future__ import annotations

import dataclasses
import html
import itertools
import random
import re
import typing
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, ClassVar

import pytest
import yaml

from bot.bankload import load_bank, parse_bank
from bot.features.groups import rules as group
from bot.features.groups import screens as groups_screens
from bot.features.groups.rules import GroupAnswer, GroupSession
from bot.features.learning import screens as learning_screens
from bot.features.private import screens as private_screens
from bot.i18n import SUPPORTED, Catalog, catalog
from bot.kernel import engine
from bot.kernel.bank import Bank, Question
from bot.kernel.ports import BankStats
from bot.render import callbacks as render_callbacks
from bot.render import limits as render_limits
from bot.render import question as render_question
from bot.render import screen as render_screen
from bot.render import text as render_text
from bot.render.callbacks import (
    AnswerButton,
    BankButton,
    LanguageButton,
    NextButton,
    RetakeButton,
    ReviewButton,
    ShownButton,
    decode,
    encode,
)
from bot.render.codec import InvalidCallbackData
from bot.render.screen import ButtonStyle
from bot.render.text import HTML
from tests.support import bankgen
from tests.support.fakebotapi import parse_html, utf16_len

REAL_BANK = Path(__file__).resolve().parents[2] / "banks" / "deepspeed-megatron.yaml"
USER = 42
MAX_ID = 10**18 - 1
LONGEST_BANK_ID = "b" * 32


@pytest.fixture(scope="module")
def bank() -> Bank:
    """The bundled DeepSpeed/Megatron bank (8 questions in en, hi and el)."""
    return load_bank(REAL_BANK)


def only(screens: list[render_screen.Screen]) -> render_screen.Screen:
    """The one screen of a list (fails if a screen that should fit one message was split)."""
    (screen,) = screens
    return screen


def make_attempt(bank: Bank, *, seed: int = 3, position: int = 0) -> engine.Attempt:
    """An active attempt of USER on ``bank``, options shuffled with ``seed``."""
    return engine.Attempt(
        id=77,
        user_id=USER,
        bank_id=bank.id,
        bank_version=bank.version,
        plan=engine.plan_attempt(bank, random.Random(seed)),
        position=position,
        status=engine.ACTIVE,
        started_at=1000.0,
    )


def answered(
    bank: Bank, attempt: engine.Attempt, position: int, *, correct: bool
) -> engine.Attempt:
    """``attempt`` with the question at ``position`` answered rightly or wrongly (and so moved
    on to position + 1)."""
    attempt = replace(attempt, position=position)
    v = engine.view(attempt, bank)
    slot = v.correct_slot if correct else (v.correct_slot + 2) % 4
    return engine.with_answer(attempt, engine.grade(attempt, bank, USER, position, slot, 5.0))


def finished(bank: Bank, correct: set[int]) -> engine.Attempt:
    """A finished attempt with the positions in ``correct`` right and the others wrong (the
    last answer finishes it)."""
    attempt = make_attempt(bank)
    for position in range(attempt.total):
        attempt = answered(bank, attempt, position, correct=position in correct)
    assert attempt.status == engine.FINISHED
    return attempt


class TelegramHtml(HTMLParser):
    """Checks text against Telegram's HTML style as this bot uses it: only <b>, <i> and
    <a href>, balanced; only the entities &lt; &gt; &amp; &quot; and numeric ones."""

    ALLOWED: ClassVar[dict[str, list[str]]] = {"b": [], "i": [], "a": ["href"]}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in self.ALLOWED:
            self.errors.append(f"tag <{tag}>")
        elif [name for name, _ in attrs] != self.ALLOWED[tag]:
            self.errors.append(f"attributes {attrs} on <{tag}>")
        self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.errors.append(f"self-closing <{tag}/>")

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"unbalanced </{tag}>")

    def handle_entityref(self, name: str) -> None:
        if name not in {"lt", "gt", "amp", "quot"}:
            self.errors.append(f"entity &{name};")

    def handle_data(self, data: str) -> None:
        if "<" in data or ">" in data:
            self.errors.append(f"raw < or > in {data!r}")


def assert_telegram_html(text: str) -> None:
    """Assert ``text`` is valid Telegram HTML (see :class:`TelegramHtml`)."""
    parser = TelegramHtml()
    parser.feed(text)
    parser.close()
    assert not parser.errors, parser.errors
    assert not parser.stack, f"unclosed tags {parser.stack}"
    for match in re.finditer(r"&", text):
        assert re.match(r"&(lt|gt|amp|quot|#\d+|#x[0-9a-fA-F]+);", text[match.start() :]), (
            f"bare & at {match.start()} in {text!r}"
        )


def test_html_checker_catches_bad_markup():
    """The checker above rejects raw <, bare &, unknown tags and unbalanced tags."""
    for bad in [
        "a < b",
        "a & b",
        "<u>x</u>",
        "<b>x",
        "<b>x</i>",
        "x</b>",
        "&nbsp;",
        '<a title="x">y</a>',
    ]:
        with pytest.raises(AssertionError):
            assert_telegram_html(bad)
    assert_telegram_html('<b>x</b> <i>&lt;y&gt; &amp; &quot;</i> <a href="https://x">z</a>')


# --- callback data ------------------------------------------------------------------------

BUTTON_TYPES = typing.get_args(render_callbacks.CallbackButton)


def field_values(field: dataclasses.Field) -> list[Any]:  # noqa: C901 - one case per button field
    """Values for a button field, the smallest first and the largest realistic one last."""
    if field.name == "slot":
        return [0, 11]  # A to L
    if field.name == "ticked":
        return [0, 4095]  # every one of twelve slots ticked
    if field.name == "confirm":
        return [0, 1]  # DeleteDataButton: keep or delete
    if field.name == "nonce":  # DeleteDataButton's one-time nonce: 16 hex digits
        return ["0123456789012345", "abcdef0123456789"]
    if field.name == "position":
        return [0, 199]  # at most 200 questions per bank
    if field.name == "reps" and field.type in ("int", int):
        return [0, 999_999]  # a card's ratings
    if field.name == "language":
        return ["en", "el"]
    if field.name == "field":  # a settings menu's field
        return ["who", "language"]
    if field.name == "restart":  # /newquiz's "Go on" (0) or "Start over" (1)
        return [0, 1]
    if field.name == "option":  # /newquiz's right option of a poll: 12 at most, A-L
        return [0, 11]
    if field.name == "started":  # /newquiz: when the draft was opened, in milliseconds
        return [0, 99_999_999_999_999]
    if field.name == "action":  # QuizButton: what it does
        return ["up", "question"]
    if field.name == "step":  # HomeworkButton: what it does
        return ["close", "report"]
    if (
        field.name == "flow"
    ):  # FlowButton: what follows an answer (bot/features/preferences/flow.py)
        return ["next", "one_tap"]
    if field.name == "quiz_id":  # QuizButton: a created quiz's id
        return ["c-0000000000", "c-zzzzzzzzzz"]
    # the question of the day's buttons (bot/render/callbacks.py)
    if field.name == "chat_id":  # a group's or channel's id
        return [-1, -1009999999999]
    if field.name == "setting":
        return ["then", "board"]
    if field.name == "choice":
        return ["again", "none"]
    if field.name == "mode":
        return ["on", "off"]
    if field.name == "minute":  # "k": keep the time of day
        return ["k", "1439"]
    if field.name == "bank":  # "-": keep the quiz
        return ["-", LONGEST_BANK_ID]
    if field.type in ("int", int):
        return [0, MAX_ID]  # storage ids
    return ["x", "123", "deepspeed-megatron", LONGEST_BANK_ID]


def extremes(kind: type) -> list[Any]:
    """The smallest and the largest realistic button of ``kind``, built from its fields."""
    fields = dataclasses.fields(kind)
    return [
        kind(*(field_values(f)[0] for f in fields)),
        kind(*(field_values(f)[-1] for f in fields)),
    ]


BUTTONS = [
    *(button for kind in BUTTON_TYPES for button in extremes(kind)),
    AnswerButton(42, 3, 1),
    AnswerButton(5, 0, 7),
    RetakeButton("123"),
    LanguageButton("hi"),
    BankButton("007"),
    BankButton("quiz-1"),
]
MAXIMA = [extremes(kind)[-1] for kind in BUTTON_TYPES]


def test_examples_cover_every_button_type():
    """The round-trip examples include every callback button type the codec knows."""
    assert {
        AnswerButton,
        NextButton,
        RetakeButton,
        ReviewButton,
        LanguageButton,
        BankButton,
    } <= set(BUTTON_TYPES)
    assert {type(b) for b in BUTTONS} == set(BUTTON_TYPES)


def test_each_button_type_has_its_own_prefix():
    """Encodings of different button types never share a prefix."""
    prefixes = [encode(extremes(kind)[0]).split(":")[0] for kind in BUTTON_TYPES]
    assert len(set(prefixes)) == len(prefixes)


@pytest.mark.parametrize("button", BUTTONS, ids=repr)
def test_callback_data_round_trip(button):
    """Every button type decodes to an equal button (ids that look numeric stay strings)."""
    decoded = decode(encode(button))
    assert decoded == button
    assert type(decoded) is type(button)
    assert [type(v) for v in decoded.__dict__.values()] == [
        type(v) for v in button.__dict__.values()
    ]


def test_callback_data_format():
    """The encoding is short and readable: a one-letter prefix and fields joined by ':'."""
    assert encode(AnswerButton(42, 3, 1)) == "a:42:3:1"
    assert encode(NextButton(42, 3)) == "n:42:3"
    assert encode(RetakeButton("deepspeed-megatron")) == "r:deepspeed-megatron"
    assert encode(ReviewButton(9)) == "v:9"
    assert encode(LanguageButton("el")) == "l:el"
    assert encode(BankButton("quiz-1")) == "b:quiz-1"


def test_place_button_format():
    """ "My place" on a leaderboard is ``p:<session id>``."""
    assert encode(render_callbacks.PlaceButton(7)) == "p:7"
    assert decode("p:7") == render_callbacks.PlaceButton(7)


@pytest.mark.parametrize("button", MAXIMA, ids=repr)
def test_callback_data_of_realistic_maxima_fits_64_bytes(button):
    """Callback data for the largest ids, positions and slots is at most 64 bytes of UTF-8."""
    data = encode(button)
    assert data.isascii()
    assert len(data.encode("utf-8")) <= render_limits.MAX_CALLBACK_DATA_BYTES == 64


def test_encode_refuses_over_64_bytes():
    """Encoding data over 64 bytes raises ValueError instead of sending a broken button."""
    with pytest.raises(ValueError, match="64 bytes"):
        encode(RetakeButton("x" * 70))


@pytest.mark.parametrize(
    "data",
    [
        None,
        "",
        "garbage",
        ":",
        "a",
        "a:",
        "a:1:2",
        "a:1:2:3:4",
        "n:1:2:3",
        "v:1:2",
        "r:deepspeed-megatron:extra",
        "x:1:0:0",
        "A:1:0:0",
        "q:1",
        "a:-1:0:0",
        "a:1:-1:0",
        "a:1:0:-1",
        "n:-5:0",
        "v:-1",
        "a:01:0:0",
        "a:1:00:0",
        "n:007:1",
        "v:00",
        "a:١:0:0",
        "a:1:٠:0",
        "v:٣",
        "a:1:0:12",
        "a:1:0:99",
        "a:1000000000000000000:0:0",
        "a:1.0:0:0",
        "a: 1:0:0",
        "a:1:0:0 ",
        "a:1:0:0\n",
        "r:Deepspeed",
        "r:-lead",
        "r:trail-",
        "r:" + "b" * 33,
        "r:under_score",
        "b:",
        "l:e",
        "l:EN",
        "l:engl",
        "r:" + "a" * 63,
        "é" * 40,
        "a:1:0:0" + "\x00",
        "g:1:0:12",
        "g:-1:0:0",
        "g:1:0",
        "p:",
        "p:01",
        "p:-1",
        "p:1:2",
        "p:x",
        "P:1",
    ],
)
def test_decode_rejects(data):
    """Anything encode() did not make raises InvalidCallbackData."""
    with pytest.raises(InvalidCallbackData):
        decode(data)


def test_invalid_callback_data_is_a_value_error():
    """InvalidCallbackData is a ValueError, so generic handlers treat it as bad input."""
    assert issubclass(InvalidCallbackData, ValueError)


@pytest.mark.parametrize("data", ["a:1١:0:0", "n:7३:1", "v:9٩", "a:1:1٠:0", "a:1:0:٣"])
def test_decode_rejects_non_ascii_digits_after_the_first(data):
    """Digits other than ASCII 0-9 are rejected anywhere in a number (\\d alone would accept
    Arabic-Indic or Devanagari digits, and int() would read them)."""
    with pytest.raises(InvalidCallbackData):
        decode(data)


# --- small helpers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "units"),
    [
        ("", 0),
        ("abc", 3),
        ("é", 1),
        ("हिन्दी", 6),
        ("Ελληνικά", 8),
        ("😀", 2),
        ("a😀b", 4),
        ("👍🏽", 4),
        ("\U00010000", 2),
    ],
)
def test_utf16_length(text, units):
    """Length counts UTF-16 code units: astral-plane characters count 2."""
    assert render_text.utf16_length(text) == units


@pytest.mark.parametrize(
    ("done", "total", "width", "bar"),
    [
        (0, 8, 8, "▱▱▱▱▱▱▱▱"),
        (1, 8, 8, "▰▱▱▱▱▱▱▱"),
        (4, 8, 8, "▰▰▰▰▱▱▱▱"),
        (8, 8, 8, "▰▰▰▰▰▰▰▰"),
        (1, 3, 8, "▰▰▰▱▱▱▱▱"),  # 2.67 rounds to 3
        (5, 6, 8, "▰▰▰▰▰▰▰▱"),  # 6.67 rounds to 7
        (1, 2, 4, "▰▰▱▱"),
        (2, 4, 8, "▰▰▰▰▱▱▱▱"),
        (3, 3, 5, "▰▰▰▰▰"),
        (0, 0, 8, ""),
    ],
)
def test_progress_bar(done, total, width, bar):
    """The bar shows done/total filled, scaled to width; no bar without questions."""
    assert render_question.progress_bar(done, total, width) == bar


@pytest.mark.parametrize("total", [1, 3, 7, 8, 13, 100])
def test_progress_bar_has_a_fixed_width(total):
    """Whatever the progress, the bar is as wide as asked and fills monotonically."""
    filled = []
    for done in range(total + 1):
        bar = render_question.progress_bar(done, total)
        assert len(bar) == 8
        filled.append(bar.count("▰"))
    assert filled == sorted(filled)
    assert (filled[0], filled[-1]) == (0, 8)


# --- pack ---------------------------------------------------------------------------------


def test_pack_joins_small_blocks():
    """Blocks that fit together are joined with a blank line into one text."""
    assert render_text.pack(["one", "two", "three"]) == ["one\n\ntwo\n\nthree"]


def test_pack_counts_astral_characters_as_two_units():
    """Emoji count 2 UTF-16 units: blocks that fit by code points but not by units are split."""
    blocks = ["😀" * 1500, "😀" * 600]  # 2102 code points, but 4202 UTF-16 units with "\n\n"
    texts = render_text.pack(blocks)
    assert texts == blocks
    assert all(render_text.utf16_length(t) <= 4096 for t in texts)


def test_pack_limit_is_inclusive():
    """Texts of exactly 4096 units are allowed; one more unit starts a new text."""
    assert render_text.pack(["x" * 2047, "y" * 2047]) == ["x" * 2047 + "\n\n" + "y" * 2047]
    assert render_text.pack(["x" * 2047, "y" * 2048]) == ["x" * 2047, "y" * 2048]
    a, b = "😀" * 1023 + "a", "😀" * 1023 + "b"  # 2047 units each
    assert render_text.pack([a, b]) == [a + "\n\n" + b]
    assert render_text.pack([a, b + "c"]) == [a, b + "c"]


def test_pack_keeps_order_and_never_splits_a_block():
    """Long mixed blocks are packed in order, each text within the limit, blocks whole."""
    rng = random.Random(11)
    blocks = [
        f"<b>{i}</b> " + "".join(rng.choice("aé😀ह") for _ in range(rng.randint(50, 1500)))
        for i in range(30)
    ]
    texts = render_text.pack(blocks)
    assert len(texts) > 1
    assert all(render_text.utf16_length(t) <= 4096 for t in texts)
    assert "\n\n".join(texts) == "\n\n".join(blocks)
    assert [b for t in texts for b in t.split("\n\n")] == blocks
    # greedy: the next text's first block would not have fitted in the previous text
    for before, after in itertools.pairwise(texts):
        assert render_text.utf16_length(before + "\n\n" + after.split("\n\n")[0]) > 4096


def test_pack_splits_an_oversized_block():
    """A block over the limit on its own is split (by the markup's splitter) into texts within
    the limit; the blocks around it are packed as usual."""
    assert render_text.pack(["a", "x" * 5000, "b"]) == ["a", "x" * 4096, "x" * 904 + "\n\nb"]


def test_pack_with_a_custom_limit_and_separator():
    """The limit and separator are parameters."""
    assert render_text.pack(["ab", "cd", "ef"], limit=5, separator="|") == ["ab|cd", "ef"]


# --- question screen ----------------------------------------------------------------------


@pytest.mark.parametrize("language", SUPPORTED)
def test_question_screen_in_the_users_language(bank, language):
    """The question shows title, header, prompt and options in the user's language, A-D in
    the attempt's slot order, with one button per slot carrying attempt, position and slot."""
    attempt = make_attempt(bank, seed=9, position=2)
    t = catalog(language)
    screen = private_screens.attempt_question(bank, attempt, t, HTML)
    question = bank.questions[2]
    slots = attempt.plan.option_orders[2]

    (row,) = screen.keyboard
    assert [b.label for b in row] == ["A", "B", "C", "D"]
    for slot, button in enumerate(row):
        assert decode(encode(button.action)) == AnswerButton(attempt.id, 2, slot)

    lines = screen.text.split("\n")
    assert lines[0] == f"<b>{html.escape(bank.title.by_language[language])}</b>"
    assert lines[1].startswith(html.escape(t("question_header", number=3, total=8)))
    assert f"<b>{html.escape(question.prompt.by_language[language])}</b>" in lines
    expected = [
        f"{'ABCD'[slot]}. {html.escape(question.options[index].text.by_language[language])}"
        for slot, index in enumerate(slots)
    ]
    assert [line for line in lines if re.match(r"[A-D]\. ", line)] == expected
    assert lines[-4:] == expected  # the options end the question, in slot order
    assert "<b>A." not in screen.text and "<b>" not in "".join(lines[-4:])
    for other in SUPPORTED:
        if other != language:
            assert html.escape(question.prompt.by_language[other]) not in screen.text
            assert t("question_header", number=3, total=8) != catalog(other)(
                "question_header", number=3, total=8
            )
            # not the other's header (Persian's "سؤال 3/8" is a part of Arabic's "السؤال 3/8")
            header = catalog(other)("question_header", number=3, total=8)
            assert not lines[1].startswith(header)
    assert "✅" not in screen.text and "❌" not in screen.text
    assert_telegram_html(screen.text)


def test_question_screen_follows_the_shuffle(bank):
    """Two attempts whose shuffles differ list the same question's options differently."""
    t = catalog("en")
    first = make_attempt(bank, seed=1)
    other = next(
        make_attempt(bank, seed=s)
        for s in range(2, 50)
        if make_attempt(bank, seed=s).plan.option_orders[0] != first.plan.option_orders[0]
    )
    assert (
        private_screens.attempt_question(bank, first, t, HTML).text
        != private_screens.attempt_question(bank, other, t, HTML).text
    )


def test_question_screen_refuses_a_changed_bank(bank):
    """Rendering an attempt against a newer bank version raises BankChanged."""
    with pytest.raises(engine.BankChanged):
        private_screens.attempt_question(
            replace(bank, version=bank.version + 1), make_attempt(bank), catalog("en"), HTML
        )


# --- feedback -----------------------------------------------------------------------------


def option_line(text: str, label: str) -> str:
    """The line of ``text`` that shows option ``label``."""
    (line,) = [x for x in text.split("\n") if re.match(rf"(?:[✅❌] )?{label}\. ", x)]
    return line


def option_text(bank: Bank, v: engine.QuestionView, slot: int, language: str) -> str:
    """The escaped text of the option shown in ``slot``."""
    return html.escape(v.question.options[v.slots[slot]].text.by_language[language])


def source_line(question: Question, t: Catalog) -> str:
    """The plain, escaped "Source:" prefix followed by the source link."""
    return (
        html.escape(t("source", source="")) + f'<a href="{html.escape(question.source.url)}">'
        f"{html.escape(question.source.title)}</a>"
    )


@pytest.mark.parametrize("language", SUPPORTED)
def test_feedback_after_a_wrong_answer(bank, language):
    """A wrong answer: ❌ on the chosen slot, ✅ on the correct one, the explanation in the
    user's language, and a Next button for this position."""
    attempt = answered(bank, make_attempt(bank, seed=4), 1, correct=False)
    t = catalog(language)
    v = engine.view(attempt, bank, 1)
    screen = private_screens.feedback(bank, attempt, 1, t, HTML)
    correct, chosen = "ABCD"[v.correct_slot], "ABCD"[v.chosen_slot]
    assert correct != chosen
    assert option_line(screen.text, correct) == (
        f"✅ {correct}. {option_text(bank, v, v.correct_slot, language)}"
    )
    assert option_line(screen.text, chosen) == (
        f"❌ {chosen}. {option_text(bank, v, v.chosen_slot, language)} "
        f"({html.escape(t('your_answer'))})"
    )
    for slot, label in enumerate("ABCD"):
        if label not in (correct, chosen):
            assert option_line(screen.text, label) == (
                f"{label}. {option_text(bank, v, slot, language)}"
            )
    assert "<b>" not in "".join(option_line(screen.text, label) for label in "ABCD")
    assert html.escape(t("feedback_wrong", label=correct)) in screen.text
    question = bank.questions[1]
    assert html.escape(question.explanation.by_language[language]) in screen.text
    for other in SUPPORTED:
        if other != language:
            assert html.escape(question.explanation.by_language[other]) not in screen.text
    assert f'<a href="{question.source.url}">' in screen.text
    assert source_line(question, t) in screen.text.split("\n")
    assert "<i>" not in screen.text
    options, (button,) = screen.keyboard
    # the options again, marked as the text marks them, green the right one, red the choice
    assert [(b.label, b.style, b.action) for b in options] == [
        (f"✅ {label}", ButtonStyle.SUCCESS, ShownButton())
        if label == correct
        else (f"❌ {label}", ButtonStyle.DANGER, ShownButton())
        if label == chosen
        else (label, None, ShownButton())
        for label in "ABCD"
    ]
    assert button.action == NextButton(attempt.id, 1)
    assert decode(encode(button.action)) == NextButton(attempt.id, 1)
    assert button.label == t("button_next")
    assert_telegram_html(screen.text)


def test_feedback_after_a_right_answer(bank):
    """A right answer: ✅ on the chosen (correct) slot and no ❌ anywhere."""
    attempt = answered(bank, make_attempt(bank, seed=4), 0, correct=True)
    t = catalog("en")
    v = engine.view(attempt, bank, 0)
    screen = private_screens.feedback(bank, attempt, 0, t, HTML)
    correct = "ABCD"[v.correct_slot]
    assert v.chosen_slot == v.correct_slot
    assert option_line(screen.text, correct) == (
        f"✅ {correct}. {option_text(bank, v, v.correct_slot, 'en')}"
    )
    for slot, label in enumerate("ABCD"):
        if slot != v.correct_slot:
            assert option_line(screen.text, label) == f"{label}. {option_text(bank, v, slot, 'en')}"
    assert "❌" not in screen.text
    assert t("your_answer") not in screen.text
    assert f"<b>{html.escape(t('feedback_correct'))}</b>" in screen.text
    assert screen.text.count("✅") == 2  # the correct option and the verdict "✅ Correct!"
    assert_telegram_html(screen.text)


@pytest.mark.parametrize(
    ("language", "label"),
    [("en", "See my score 🏁"), ("hi", "मेरा स्कोर देखें 🏁"), ("el", "Η βαθμολογία μου 🏁")],
)
def test_feedback_on_the_last_question_offers_the_score(bank, language, label):
    """After the last question, the button says "See my score" (in the user's language)."""
    attempt = answered(bank, make_attempt(bank), 7, correct=False)
    screen = private_screens.feedback(bank, attempt, 7, catalog(language), HTML)
    _options, (button,) = screen.keyboard
    assert button.label == label
    assert button.action == NextButton(attempt.id, 7)


def test_feedback_before_the_last_question_offers_next(bank):
    """Before the last question, the button is "Next question"."""
    attempt = answered(bank, make_attempt(bank), 6, correct=True)
    *_options, row = private_screens.feedback(bank, attempt, 6, catalog("en"), HTML).keyboard
    assert row[0].label == "Next question ▶"


# --- outcome ------------------------------------------------------------------------------


def test_outcome_with_missed_questions(bank):
    """The outcome shows "6/8", lists the two missed questions by number, and offers retake
    and review."""
    attempt = finished(bank, correct={0, 1, 2, 4, 5, 7})
    t = catalog("en")
    (screen,) = private_screens.outcome(bank, attempt, t, HTML)
    assert "Your score: 6/8" in screen.text
    assert t("result_missed") in screen.text
    missed_lines = [line for line in screen.text.split("\n") if re.match(r"\d+\. ", line)]
    assert missed_lines == [
        f"4. {html.escape(bank.questions[3].prompt.by_language['en'])}",
        f"7. {html.escape(bank.questions[6].prompt.by_language['en'])}",
    ]
    assert t("result_perfect") not in screen.text
    assert [[b.action for b in row] for row in screen.keyboard] == [
        [RetakeButton(bank.id)],
        [ReviewButton(attempt.id)],
    ]
    assert [row[0].label for row in screen.keyboard] == [t("button_retake"), t("button_review")]
    assert_telegram_html(screen.text)


def test_outcome_when_perfect_has_no_review(bank):
    """A perfect score congratulates and offers only a retake."""
    attempt = finished(bank, correct=set(range(8)))
    t = catalog("en")
    (screen,) = private_screens.outcome(bank, attempt, t, HTML)
    assert "Your score: 8/8" in screen.text
    assert t("result_perfect") in screen.text
    assert t("result_missed") not in screen.text
    assert [[b.action for b in row] for row in screen.keyboard] == [[RetakeButton(bank.id)]]


@pytest.mark.parametrize("language", SUPPORTED)
def test_outcome_in_the_users_language(bank, language):
    """Score line, title and missed prompts are in the user's language."""
    attempt = finished(bank, correct={1, 2, 3, 4, 5, 6, 7})
    t = catalog(language)
    (screen,) = private_screens.outcome(bank, attempt, t, HTML)
    assert html.escape(t("result_score", score=7, total=8)) in screen.text
    assert html.escape(bank.title.by_language[language]) in screen.text
    assert f"1. {html.escape(bank.questions[0].prompt.by_language[language])}" in screen.text
    assert screen.keyboard[0][0].label == t("button_retake")


# --- review -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", SUPPORTED)
def test_review_splits_into_messages_within_the_limit(bank, language):
    """With every question missed, the review is several messages of at most 4096 visible UTF-16
    units, each valid HTML, covering every missed question once, in order."""
    attempt = finished(bank, correct=set())
    t = catalog(language)
    screens = private_screens.review(bank, attempt, t, HTML)
    assert len(screens) > 1
    for screen in screens:
        assert render_text.html_length(screen.text) <= render_limits.MAX_MESSAGE_UTF16
        assert_telegram_html(screen.text)
    assert screens[0].text.startswith(f"<b>{html.escape(t('review_header'))}</b>")
    joined = "\n\n".join(s.text for s in screens)
    found = [joined.index(f"<b>{n}. ") for n in range(1, 9)]
    assert found == sorted(found)
    for number, question in enumerate(bank.questions, start=1):
        prompt = html.escape(question.prompt.by_language[language])
        assert sum(f"<b>{number}. {prompt}</b>" in s.text for s in screens) == 1
        correct = question.options[question.correct_index].text.by_language[language]
        assert f"✅ {html.escape(correct)}" in joined
        assert html.escape(question.explanation.by_language[language]) in joined
        assert source_line(question, t) in joined.split("\n")
    assert "<i>" not in joined


def test_review_lists_only_missed_questions(bank):
    """Questions answered correctly are not in the review."""
    attempt = finished(bank, correct={0, 1, 2, 3, 4, 5, 6})
    (screen,) = private_screens.review(bank, attempt, catalog("en"), HTML)
    assert "<b>8. " in screen.text
    assert not re.search(r"<b>[1-7]\. ", screen.text)


def test_review_when_nothing_was_missed(bank):
    """A perfect attempt has a single 'nothing to review' message."""
    attempt = finished(bank, correct=set(range(8)))
    t = catalog("el")
    assert private_screens.review(bank, attempt, t, HTML) == [
        render_screen.Screen(t("review_none"))
    ]


# --- HTML escaping ------------------------------------------------------------------------


def markup_bank() -> Bank:
    """A one-language bank whose texts are full of <, >, &, quotes and *."""
    texts = {
        "title": "Tags <b>not bold</b> & *stars*",
        "prompt": "Is a<b && c>d for *all* x?",
        "options": ["<i>one</i>", "a & b", "*star* 'quote'", 'x < y > "z"'],
        "explanation": "Because <script>alert(1)</script> & more *.",
    }
    data: dict[str, Any] = {
        "id": "markup",
        "version": 1,
        "default_language": "en",
        "languages": ["en"],
        "level": "medium",
        "title": {"en": texts["title"]},
        "description": {"en": "Describes <tags> & things."},
        "guide": {"url": "https://example.org/?a=1&b=2", "label": {"en": "Guide <&>"}},
        "questions": [
            {
                "id": "q1",
                "prompt": {"en": texts["prompt"]},
                "options": [
                    {"text": {"en": text}, **({"correct": True} if i == 0 else {})}
                    for i, text in enumerate(texts["options"])
                ],
                "explanation": {"en": texts["explanation"]},
                "source": {"title": "Smith & Jones <2020>", "url": "https://example.org/?p=1&q=2"},
            }
        ],
    }
    return parse_bank(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))


def markup_screens() -> dict[str, str]:
    """Every screen for the markup bank, with the first question answered wrongly."""
    bank = markup_bank()
    t = catalog("en")
    attempt = engine.Attempt(
        1, USER, bank.id, bank.version, engine.Plan(("q1",), ((3, 2, 1, 0),)), 0, engine.ACTIVE, 0.0
    )
    question_text = private_screens.attempt_question(bank, attempt, t, HTML).text
    attempt = engine.with_answer(attempt, engine.grade(attempt, bank, USER, 0, 0, 1.0))
    assert (attempt.position, attempt.status) == (1, engine.FINISHED)
    done = attempt
    stats = [BankStats(bank.id, 2, 0, 0, 1, (("q1", 2),))]
    return {
        "intro": private_screens.intro(bank, t, HTML, name="<Bob & Alice>").text,
        "question": question_text,
        "feedback": private_screens.feedback(bank, attempt, 0, t, HTML).text,
        "outcome": only(private_screens.outcome(bank, done, t, HTML)).text,
        "review": "\n\n".join(s.text for s in private_screens.review(bank, done, t, HTML)),
        "preview": only(private_screens.preview(bank, t, HTML)).text,
        "stats": only(learning_screens.stats(stats, {bank.id: bank}, t, HTML)).text,
        "bank_choice": private_screens.bank_choice([bank], t, HTML, header="Pick <one> & go").text,
    }


@pytest.mark.parametrize(
    "name",
    ["intro", "question", "feedback", "outcome", "review", "preview", "stats", "bank_choice"],
)
def test_screens_are_valid_telegram_html(name):
    """Every screen of a bank full of <, & and * is valid Telegram HTML (b, i, a only)."""
    assert_telegram_html(markup_screens()[name])


def test_bank_text_is_escaped():
    """Bank texts appear escaped (&lt; &amp;) and never as raw markup; * stays as written."""
    screens = markup_screens()
    assert "Tags &lt;b&gt;not bold&lt;/b&gt; &amp; *stars*" in screens["question"]
    assert "Is a&lt;b &amp;&amp; c&gt;d for *all* x?" in screens["question"]
    assert "&lt;i&gt;one&lt;/i&gt;" in screens["question"]
    assert "x &lt; y &gt; &quot;z&quot;" in screens["question"]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; more *." in screens["feedback"]
    feedback_lines = screens["feedback"].split("\n")
    assert "✅ D. &lt;i&gt;one&lt;/i&gt;" in feedback_lines  # slot D shows option 0, correct
    assert "❌ A. x &lt; y &gt; &quot;z&quot; (your answer)" in feedback_lines
    assert "B. *star* &#x27;quote&#x27;" in feedback_lines and "C. a &amp; b" in feedback_lines
    assert (
        'Source: <a href="https://example.org/?p=1&amp;q=2">Smith &amp; Jones &lt;2020&gt;</a>'
    ) in feedback_lines
    assert "Smith &amp; Jones &lt;2020&gt;" in screens["feedback"]
    assert 'href="https://example.org/?p=1&amp;q=2"' in screens["feedback"]
    assert "&lt;Bob &amp; Alice&gt;" in screens["intro"]
    assert "Describes &lt;tags&gt; &amp; things." in screens["intro"]
    assert "Is a&lt;b &amp;&amp; c&gt;d for *all* x?" in screens["outcome"]
    assert "&lt;script&gt;" in screens["review"]
    assert "Is a&lt;b &amp;&amp; c&gt;d" in screens["preview"]
    assert "Is a&lt;b &amp;&amp; c&gt;d" in screens["stats"]
    assert "Pick &lt;one&gt; &amp; go" in screens["bank_choice"]
    for name, text in screens.items():
        assert "<script>" not in text and "<i>one" not in text and "a<b" not in text, name


def test_button_labels_are_not_escaped():
    """Button labels are plain text (Telegram does not parse them): no entities in them."""
    bank = markup_bank()
    screen = private_screens.bank_choice([bank], catalog("en"), HTML, header="x")
    assert screen.keyboard[0][0].label == "Tags <b>not bold</b> & *stars*"
    (guide_row,) = private_screens.intro(bank, catalog("en"), HTML).keyboard
    assert guide_row[0].label == "📘 Guide <&>"
    assert guide_row[0].action == render_screen.UrlButton("https://example.org/?a=1&b=2")


def test_plain_markup_leaves_text_as_is():
    """The terminal markup neither escapes nor formats, and shows link URLs."""
    bank = markup_bank()
    attempt = engine.Attempt(
        1, USER, bank.id, bank.version, engine.Plan(("q1",), ((0, 1, 2, 3),)), 0, engine.ACTIVE, 0.0
    )
    text = private_screens.attempt_question(bank, attempt, catalog("en"), render_text.PLAIN).text
    assert "Is a<b && c>d for *all* x?" in text
    assert "A. <i>one</i>" in text.split("\n")
    assert "<b>A.</b>" not in text
    assert render_text.PLAIN.link("Paper", "https://x.org") == "Paper (https://x.org)"


# --- language picker ----------------------------------------------------------------------


@pytest.mark.parametrize("current", SUPPORTED)
def test_language_picker(current):
    """One button per language, named in its own script, the current one marked with ✓."""
    t = catalog(current)
    screen = private_screens.language_picker(current, t, HTML)
    assert screen.text == html.escape(t("language_prompt"))
    assert all(len(row) <= 3 for row in screen.keyboard)
    row = [b for row in screen.keyboard for b in row]
    names = {
        "en": "English",
        "hi": "हिन्दी",
        "el": "Ελληνικά",
        "id": "Indonesia",
        "uk": "Українська",
        "ru": "Русский",
        "es": "Español",
        "pt": "Português",
        "tr": "Türkçe",
        "uz": "O‘zbek",
        "fa": "فارسی",
        "ar": "العربية",
    }
    assert [b.action for b in row] == [LanguageButton(code) for code in SUPPORTED]
    assert [b.label for b in row] == [
        ("✓ " if code == current else "") + names[code] for code in SUPPORTED
    ]
    assert sum(b.label.startswith("✓") for b in row) == 1


def test_language_picker_prompt_is_in_the_ui_language():
    """The picker's prompt is in the user's current language."""
    assert private_screens.language_picker("el", catalog("el"), HTML).text == "Διάλεξε γλώσσα:"
    assert private_screens.language_picker("hi", catalog("hi"), HTML).text == "अपनी भाषा चुनें:"


# --- stats --------------------------------------------------------------------------------


@pytest.mark.parametrize("language", SUPPORTED)
def test_stats_without_records(language):
    """No finished attempts: the 'no quiz yet' message and no keyboard."""
    t = catalog(language)
    (screen,) = learning_screens.stats([], {}, t, HTML)
    assert screen.text == html.escape(t("stats_none"))
    assert screen.keyboard == ()


def test_stats_with_records(bank):
    """Each bank shows attempts (plural), best and last score and the most-missed prompts."""
    q4, q1 = bank.questions[3], bank.questions[0]
    records = [BankStats(bank.id, 3, 7, 5, 8, ((q4.id, 2), (q1.id, 1)))]
    text = only(learning_screens.stats(records, {bank.id: bank}, catalog("en"), HTML)).text
    lines = text.split("\n")
    assert lines[0] == "<b>📊 Your scores</b>"
    assert f"<b>{html.escape(bank.title.by_language['en'])}</b>" in lines
    assert "3 attempts · best 7/8, last 5/8" in lines
    assert "Most missed:" in lines
    assert f"• {html.escape(q4.prompt.by_language['en'])} (missed 2 times)" in lines
    assert f"• {html.escape(q1.prompt.by_language['en'])} (missed 1 time)" in lines
    assert lines.index(f"• {html.escape(q4.prompt.by_language['en'])} (missed 2 times)") < (
        lines.index(f"• {html.escape(q1.prompt.by_language['en'])} (missed 1 time)")
    )
    assert_telegram_html(text)


@pytest.mark.parametrize(
    ("language", "attempts", "expected"),
    [
        ("en", 1, "1 attempt · best 6/8, last 6/8"),
        ("el", 1, "1 προσπάθεια · καλύτερη 6/8, τελευταία 6/8"),
        ("el", 4, "4 προσπάθειες · καλύτερη 6/8, τελευταία 6/8"),
        ("hi", 1, "1 प्रयास · सबसे अच्छा 6/8, पिछली बार 6/8"),
    ],
)
def test_stats_plural_forms_and_language(bank, language, attempts, expected):
    """The attempts count uses the language's plural form; title and prompts are localized."""
    q = bank.questions[5]
    records = [BankStats(bank.id, attempts, 6, 6, 8, ((q.id, 1),))]
    t = catalog(language)
    text = only(learning_screens.stats(records, {bank.id: bank}, t, HTML)).text
    assert expected in text.split("\n")
    assert html.escape(bank.title.by_language[language]) in text
    times = t("stats_missed_times", count=1)
    assert f"• {html.escape(q.prompt.by_language[language])} ({html.escape(times)})" in text


def test_stats_of_a_removed_bank_or_question(bank):
    """A bank no longer loaded shows its id; questions no longer in a bank are left out."""
    records = [
        BankStats("gone-bank", 1, 3, 3, 4, (("old-question", 3),)),
        BankStats(bank.id, 2, 8, 8, 8, (("removed-question", 1),)),
    ]
    text = only(learning_screens.stats(records, {bank.id: bank}, catalog("en"), HTML)).text
    assert "<b>gone-bank</b>" in text
    assert "1 attempt · best 3/4, last 3/4" in text
    assert "old-question" not in text and "removed-question" not in text
    assert "Most missed:" not in text
    assert text.index("<b>gone-bank</b>") < text.index(html.escape(bank.title.by_language["en"]))


# --- group reveal -------------------------------------------------------------------------


def test_group_reveal_lines_are_plain(bank):
    """A revealed group question: ✅ and the count on the correct option, the count on the
    others, labels and texts without markup, and the plain "Source:" prefix before the link."""
    plan = engine.plan_attempt(bank, random.Random(6))
    session = GroupSession(
        id=5,
        chat_id=-100,
        bank_id=bank.id,
        bank_version=bank.version,
        language="en",
        starter_id=USER,
        plan=plan,
        question_seconds=30.0,
        position=3,
    )
    t = catalog("en")
    counts = [3, 0, 11, 1]
    screen = groups_screens.group_reveal(bank, session, 2, counts, t, HTML)
    question = bank.questions[2]
    slots = plan.option_orders[2]
    correct_slot = slots.index(question.correct_index)
    lines = screen.text.split("\n")
    expected = [
        ("✅ " if slot == correct_slot else "")
        + f"{'ABCD'[slot]}. {html.escape(question.options[index].text.by_language['en'])}"
        + f" — {counts[slot]}"
        for slot, index in enumerate(slots)
    ]
    assert [line for line in lines if re.match(r"(?:✅ )?[A-D]\. ", line)] == expected
    assert sum(line.startswith("✅") for line in lines) == 1
    assert source_line(question, t) in lines
    assert "<i>" not in screen.text and "<b>A." not in screen.text
    (options,) = screen.keyboard  # the right one marked and green; no one's choice in a group
    assert [(b.label, b.style) for b in options] == [
        (f"✅ {label}", ButtonStyle.SUCCESS) if slot == correct_slot else (label, None)
        for slot, label in enumerate("ABCD")
    ]
    assert_telegram_html(screen.text)


# --- long messages: measuring and splitting -------------------------------------------------


def visible(text: str) -> int:
    """Visible length of Telegram HTML as the fake Bot API (like Telegram) measures it."""
    return utf16_len(parse_html(text)[0])


def styled_characters(text: str) -> list[tuple[str, frozenset[tuple[str, str | None]]]]:
    """Each visible non-space character of Telegram HTML with the entities covering it, as
    Telegram parses it (strictly: a cut character reference fails to parse)."""
    plain, entities = parse_html(text)
    styles: list[set[tuple[str, str | None]]] = [set() for _ in range(utf16_len(plain))]
    for entity in entities:
        for unit in range(entity["offset"], entity["offset"] + entity["length"]):
            styles[unit].add((entity["type"], entity.get("url")))
    result, unit = [], 0
    for char in plain:
        if not char.isspace():
            result.append((char, frozenset(styles[unit])))
        unit += utf16_len(char)
    return result


PIECES = ["देवनागरी", "Ελληνικά", "plain", "<tag>", "R&D", '"quoted"', "😀", "👩‍💻", "x", " "]


def random_html(rng: random.Random, lines: int) -> str:
    """Well-formed Telegram HTML made as the renderer makes it: escaped text, <b>, <i> and
    <a href> (some spanning lines), emoji, Devanagari, Greek, and a few very long lines."""
    out: list[str] = []
    open_tags: list[str] = []
    for _ in range(lines):
        words = rng.choice([0, 1, 3, 8, 40, 900 if rng.random() < 0.05 else 5])
        for _ in range(words):
            roll = rng.random()
            if roll < 0.08 and len(open_tags) < 2:
                tag = rng.choice(["b", "i", "a"])
                out.append(
                    '<a href="https://example.org/?a=1&amp;b=2">' if tag == "a" else f"<{tag}>"
                )
                open_tags.append(tag)
            elif roll < 0.14 and open_tags:
                out.append(f"</{open_tags.pop()}>")
            else:
                out.append(HTML.escape(rng.choice(PIECES)) + " ")
        out.append("\n")
    out.extend(f"</{tag}>" for tag in reversed(open_tags))
    return "".join(out)


@pytest.mark.parametrize("seed", range(12))
def test_html_length_is_the_length_after_entity_parsing(seed):
    """html_length counts what Telegram counts: tags nothing, &amp; one unit, 😀 two."""
    text = random_html(random.Random(seed), 30)
    assert render_text.html_length(text) == visible(text)
    assert render_text.html_length("<b>a&amp;b</b> &lt;😀&gt; &#x27;") == 10


@pytest.mark.parametrize("limit", [2, 3, 7, 50, 333, 4096])
@pytest.mark.parametrize("seed", range(8))
def test_split_html_keeps_every_chunk_valid_and_within_the_limit(seed, limit):
    """Every chunk parses as Telegram HTML (no tag or character reference cut), is at most
    ``limit`` units after parsing and is not blank; together the chunks show the same
    characters with the same formatting, in order (only line breaks at cuts go)."""
    text = random_html(random.Random(seed), 200 if limit > 100 else 40)
    chunks = render_text.split_html(text, limit)
    assert chunks
    for chunk in chunks:
        assert_telegram_html(chunk)
        assert 0 < visible(chunk) <= limit
        assert parse_html(chunk)[0].strip()
    assert [c for chunk in chunks for c in styled_characters(chunk)] == styled_characters(text)


def test_split_html_leaves_a_fitting_text_alone():
    """A text within the limit comes back as it is, in one chunk; a blank one as none."""
    text = "<b>a &amp; b</b>\n" + "x" * 4000
    assert render_text.split_html(text) == [text]
    assert render_text.split_html(" \n \n") == []


def test_split_html_cuts_at_line_boundaries():
    """Whole lines fill each chunk; the line break at a cut is dropped."""
    lines = [f"<b>{n:02d}</b> " + "&amp;" * 5 for n in range(10)]  # 8 units a line
    chunks = render_text.split_html("\n".join(lines), 26)  # three lines and two breaks
    assert chunks == ["\n".join(lines[i : i + 3]) for i in (0, 3, 6)] + [lines[9]]


def test_split_html_measures_after_entity_parsing():
    """A text of 4,096 visible units whose markup is far longer stays one message; one unit
    more and it is split."""
    text = "<b>" + "&amp;" * 4096 + "</b>"
    assert len(text) > 4096 * 5
    assert render_text.split_html(text) == [text]
    chunks = render_text.split_html("<b>" + "&amp;" * 4097 + "</b>")
    assert chunks == ["<b>" + "&amp;" * 4096 + "</b>", "<b>&amp;</b>"]


def test_split_html_reopens_tags_across_a_cut():
    """A long line is cut between characters; a tag open at the cut is closed and reopened
    with its attributes."""
    link = '<a href="https://example.org/?q=1&amp;r=2">'
    text = f"<b>{link}{'ab' * 5}</a></b>"
    assert render_text.split_html(text, 4) == [
        f"<b>{link}abab</a></b>",
        f"<b>{link}abab</a></b>",
        f"<b>{link}ab</a></b>",
    ]


def test_split_html_never_halves_an_astral_character():
    """😀 is two UTF-16 units: with three units left it goes whole into the next chunk."""
    assert render_text.split_html("😀😀😀", 3) == ["😀", "😀", "😀"]
    assert render_text.split_html("a😀b", 2) == ["a", "😀", "b"]


def test_split_html_refuses_a_limit_below_two():
    """A limit below two units cannot hold an astral character."""
    with pytest.raises(ValueError, match="at least 2"):
        render_text.split_html("abc", 1)


def test_plain_markup_is_never_split():
    """The terminal has no message length limit: plain text is one chunk."""
    text = "<b>" + "x" * 10_000
    assert render_text.PLAIN.chunks(text, 4096) == [text]
    assert render_text.PLAIN.length("a😀") == 3


def test_pack_measures_html_after_entity_parsing():
    """Blocks of many character references are packed by visible length, not raw length."""
    block = "&amp;" * 2000
    assert render_text.pack([block, block]) == [block + "\n\n" + block]
    assert render_text.pack([block, block + "&amp;" * 95]) == [block, block + "&amp;" * 95]


@pytest.mark.parametrize(
    ("text", "limit", "clipped"),
    [
        ("abc", 3, "abc"),
        ("abcd", 3, "ab…"),
        ("a😀b", 3, "a…"),
        ("😀😀", 4, "😀😀"),
        ("😀😀😀", 4, "😀…"),
        ("x" * 300, 200, "x" * 199 + "…"),
    ],
)
def test_clip_utf16(text, limit, clipped):
    """Clipping counts UTF-16 units and never halves a surrogate pair."""
    assert render_text.clip_utf16(text, limit) == clipped
    assert utf16_len(render_text.clip_utf16(text, limit)) <= limit


# --- long messages: a 100-question bank ---------------------------------------------------


_LONG_BANKS: dict[str, Bank] = {}


@pytest.fixture
def long_bank(request, tmp_path_factory) -> Bank:
    """A generated bank of 100 questions with long texts full of <, & and ", in English and the
    test's ``language`` (made once per language: in every language at once, the file would
    pass a bank file's size limit)."""
    callspec = getattr(request.node, "callspec", None)
    language = callspec.params.get("language", "en") if callspec is not None else "en"
    if language not in _LONG_BANKS:
        languages = ("en",) if language == "en" else ("en", language)
        folder = tmp_path_factory.mktemp("banks")
        _LONG_BANKS[language] = load_bank(bankgen.write_bank(folder, languages=languages))
    return _LONG_BANKS[language]


def assert_fits_telegram(screens: list[render_screen.Screen]) -> str:
    """Every screen is valid Telegram HTML of 1-4096 units after parsing, and only the last
    may have a keyboard; return the visible texts joined."""
    assert screens
    for screen in screens:
        assert_telegram_html(screen.text)
        assert 0 < visible(screen.text) <= render_limits.MAX_MESSAGE_UTF16
    assert all(screen.keyboard == () for screen in screens[:-1])
    return "\n".join(parse_html(screen.text)[0] for screen in screens)


def all_missed(bank: Bank) -> engine.Attempt:
    """A finished attempt on ``bank`` with every question answered wrongly."""
    return finished(bank, correct=set())


@pytest.mark.parametrize("language", SUPPORTED)
def test_preview_of_a_long_bank_is_split(long_bank, language):
    """/preview of 100 long questions: several messages, every prompt in order, the guide
    button under the last."""
    t = catalog(language)
    screens = private_screens.preview(long_bank, t, HTML)
    assert len(screens) > 1
    text = assert_fits_telegram(screens)
    prompts = [q.prompt.by_language[language] for q in long_bank.questions]
    positions = [text.index(f"{n}. {p}") for n, p in enumerate(prompts, start=1)]
    assert positions == sorted(positions)
    assert screens[-1].keyboard[0][0].action == render_screen.UrlButton("https://example.org/guide")


@pytest.mark.parametrize("language", SUPPORTED)
def test_outcome_with_everything_missed_is_split(long_bank, language):
    """The final score with 100 missed questions: several messages, every missed question
    listed, retake and review buttons under the last."""
    t = catalog(language)
    attempt = all_missed(long_bank)
    screens = private_screens.outcome(long_bank, attempt, t, HTML)
    assert len(screens) > 1
    text = assert_fits_telegram(screens)
    assert t("result_score", score=0, total=100) in text
    for question_id in attempt.plan.question_order:
        number = attempt.plan.question_order.index(question_id) + 1
        prompt = long_bank.question(question_id).prompt.by_language[language]
        assert f"{number}. {prompt}" in text
    assert [row[0].action for row in screens[-1].keyboard] == [
        RetakeButton(long_bank.id),
        ReviewButton(attempt.id),
    ]


@pytest.mark.parametrize("language", SUPPORTED)
def test_review_of_a_long_bank_keeps_each_question_whole(long_bank, language):
    """The review of 100 missed questions: many messages, each question's block whole in one
    of them, every explanation shown."""
    t = catalog(language)
    attempt = all_missed(long_bank)
    screens = private_screens.review(long_bank, attempt, t, HTML)
    assert len(screens) > 5
    assert_fits_telegram(screens)
    texts = [parse_html(screen.text)[0] for screen in screens]
    for question in long_bank.questions:
        holding = [text for text in texts if question.prompt.by_language[language] in text]
        assert len(holding) == 1
        assert question.explanation.by_language[language] in holding[0]


@pytest.mark.parametrize("language", SUPPORTED)
def test_stats_with_100_most_missed_questions_is_split(long_bank, language):
    """/stats listing 100 most-missed long questions: several messages, all listed."""
    t = catalog(language)
    missed = tuple((q.id, 3) for q in long_bank.questions)
    records = [BankStats(long_bank.id, 3, 0, 0, 100, missed)]
    screens = learning_screens.stats(records, {long_bank.id: long_bank}, t, HTML)
    assert len(screens) > 1
    text = assert_fits_telegram(screens)
    for question in long_bank.questions:
        assert question.prompt.by_language[language] in text


@pytest.mark.parametrize("language", ["hi"])
def test_bank_buttons_clip_long_titles_and_stop_at_100(long_bank, language):
    """A bank choice button shows at most 64 characters of the title, ending in "…"; at most
    100 buttons (Telegram's limit for an inline keyboard)."""
    screen = private_screens.bank_choice([long_bank], catalog("hi"), HTML, header="x")
    label = screen.keyboard[0][0].label
    assert len(long_bank.title.by_language["hi"]) > 64
    assert len(label) == 64 and label.endswith("…")
    assert long_bank.title.by_language["hi"].startswith(label[:-1])
    many = [replace(long_bank, id=f"b{n}") for n in range(150)]
    screen = private_screens.bank_choice(many, catalog("en"), HTML, header="x")
    assert sum(len(row) for row in screen.keyboard) == render_limits.MAX_KEYBOARD_BUTTONS == 100


# --- long messages: the group leaderboard -------------------------------------------------

LONG_NAMES = [
    "<b>&amp;" + "देवनागरी" * 7 + " " + "विश्वनाथप्रसाद" * 4,
    "Ευάγγελος & <Παπαδόπουλος> " + "Χριστοφόρου" * 9,
    '"😀" ' * 12 + "👩‍💻" * 20,
]


def crowd(players: int) -> tuple[list[GroupAnswer], dict[int, str]]:
    """``players`` players with long names (up to 64 + 64 characters, with HTML special
    characters): one answer each, scores and times spread out."""
    answers, names = [], {}
    for n in range(players):
        user_id = 1000 + n
        names[user_id] = (LONG_NAMES[n % 3] + str(n))[:129]
        answers.append(GroupAnswer(user_id, "zero-purpose", 0, n % 3 != 0, 1.0 + n / 7, 0.0))
    return answers, names


def group_session(bank: Bank) -> GroupSession:
    """A session on ``bank`` (8 questions)."""
    return GroupSession(
        id=99,
        chat_id=-100,
        bank_id=bank.id,
        bank_version=bank.version,
        language="en",
        starter_id=USER,
        plan=engine.plan_attempt(bank, random.Random(1)),
        question_seconds=30.0,
    )


@pytest.mark.parametrize("stopped_by", [None, LONG_NAMES[1] * 2])
@pytest.mark.parametrize("language", SUPPORTED)
def test_leaderboard_of_300_players_fits_one_message(bank, language, stopped_by):
    """300 players with long Devanagari, Greek and emoji names full of <, & and ": the first
    20 places in the usual format (names clipped, escaped), "… and 280 more" in the
    language's plural, a "My place" button, all within one message."""
    t = catalog(language)
    answers, names = crowd(300)
    standings = group.leaderboard(answers, names)
    session = group_session(bank)
    screen = groups_screens.group_leaderboard(
        bank, session, standings, t, HTML, stopped_by=stopped_by
    )
    assert_telegram_html(screen.text)
    assert visible(screen.text) <= render_limits.MAX_MESSAGE_UTF16
    lines = parse_html(screen.text)[0].split("\n")
    header = 5 if stopped_by else 3
    assert lines[header - 1] == ""
    if stopped_by:
        assert lines[0] == t(
            "group_stopped", name=render_text.clip(stopped_by, groups_screens.MAX_NAME)
        )
    shown = lines[header:]
    assert len(shown) == groups_screens.LEADERBOARD_PLACES + 1
    for standing, line in zip(standings, shown[:-1], strict=False):
        name = render_text.clip(standing.name, groups_screens.MAX_NAME)
        score = t(
            "group_score_line", score=standing.score, total=8, seconds=t.decimal(standing.seconds)
        )
        assert line.endswith(f" {name} — {score}")
    assert any("… — " in line for line in shown[:-1])  # a long name was clipped
    assert shown[-1] == t("group_more_players", count=280)
    assert screen.keyboard == (
        (render_screen.Button(t("button_my_place"), render_callbacks.PlaceButton(99)),),
    )
    assert encode(screen.keyboard[0][0].action) == "p:99"


@pytest.mark.parametrize(
    ("players", "more"), [(20, None), (21, "… and 1 more player"), (22, "… and 2 more players")]
)
def test_leaderboard_counts_the_players_not_shown(bank, players, more):
    """Up to 20 players all listed; beyond, one line counts the rest (CLDR one/other)."""
    answers, names = crowd(players)
    screen = groups_screens.group_leaderboard(
        bank, group_session(bank), group.leaderboard(answers, names), catalog("en"), HTML
    )
    last = parse_html(screen.text)[0].split("\n")[-1]
    assert (last == more) if more else ("more" not in last and last.endswith(" s"))


def test_leaderboard_without_players_has_no_button(bank):
    """Nobody played: the "nobody answered" line and no "My place" button."""
    screen = groups_screens.group_leaderboard(bank, group_session(bank), [], catalog("en"), HTML)
    assert catalog("en")("group_no_players") in screen.text
    assert screen.keyboard == ()


@pytest.mark.parametrize("language", SUPPORTED)
def test_my_place_toast(bank, language):
    """The toast names the tapper's rank of all players, score and time in their language (a
    decimal comma in Greek), or that they did not play; at most 200 UTF-16 units."""
    t = catalog(language)
    answers, names = crowd(300)
    standings = group.leaderboard(answers, names)
    session = group_session(bank)
    mine = standings[136]
    text = groups_screens.group_place(session, standings, mine.user_id, t)
    assert text == t(
        "group_your_place",
        rank=137,
        players=300,
        score=mine.score,
        total=8,
        seconds=t.decimal(mine.seconds),
    )
    comma = {"el", "id", "uk", "ru", "es", "pt", "tr", "uz"}  # CLDR's decimal symbols
    assert ("," if language in comma else ".") in t.decimal(mine.seconds)
    assert utf16_len(text) <= render_limits.MAX_TOAST_UTF16
    assert groups_screens.group_place(session, standings, 5, t) == t("group_not_played")


# --- answer buttons in rows that fit a phone --------------------------------------------------


@pytest.mark.parametrize(
    ("count", "rows"),
    [
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [5, 4]),
        (10, [5, 5]),
    ],
)
def test_answer_rows_fit_a_phone(count, rows):
    """2-5 answer buttons take one row; 6-10 two rows of at most five, the longer first, in
    reading order (A-E on top for ten)."""
    buttons = [
        render_screen.Button(engine.LABELS[slot], AnswerButton(1, 0, slot)) for slot in range(count)
    ]
    layout = render_question.answer_rows(buttons)
    assert [len(row) for row in layout] == rows
    assert [b for row in layout for b in row] == buttons


@pytest.mark.parametrize("language", SUPPORTED)
@pytest.mark.parametrize("answer", [True, False])
def test_a_wrong_true_false_answer_says_whether_the_statement_is_true(language, answer):
    """A wrong answer to a true/false question gets a sentence of its own, whether the statement
    is true or false: never "the correct answer is False" ("सही उत्तर ग़लत है", "η Λάθος",
    issue 35, item 1)."""
    data = {
        "id": "tf",
        "version": 1,
        "default_language": "en",
        "languages": list(SUPPORTED),
        "level": "easy",
        "title": {lang: "T" for lang in SUPPORTED},
        "description": {lang: "D" for lang in SUPPORTED},
        "questions": [
            {
                "id": "s",
                "kind": "true-false",
                "answer": answer,
                "prompt": {lang: "The sky is blue." for lang in SUPPORTED},
            }
        ],
    }
    bank = parse_bank(yaml.safe_dump(data, allow_unicode=True))
    attempt = make_attempt(bank)
    v = engine.view(attempt, bank)
    wrong = 1 - v.correct_slot
    attempt = engine.with_answer(attempt, engine.grade(attempt, bank, USER, 0, wrong, 5.0))
    t = catalog(language)
    text = private_screens.feedback(bank, attempt, 0, t, HTML).text
    assert html.escape(t("feedback_wrong_true" if answer else "feedback_wrong_false")) in text
    for label in (t("option_true"), t("option_false")):
        assert html.escape(t("feedback_wrong", label=label)) not in text
