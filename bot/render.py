"""Rendering: core values -> message text and inline keyboards; the callback-data codec.

Screens are built once for both front ends: :class:`Html` markup for Telegram (``parse_mode``
HTML, with ``<``, ``>`` and ``&`` escaped as the Bot API requires) and :class:`Plain` for the
terminal. A :class:`Screen` holds the text and the keyboard as plain data; ``bot.telegram``
turns it into an ``InlineKeyboardMarkup``.

No message may exceed Telegram's limits: screens that grow with the bank or the user's history
(preview, stats, the final score, the review) are lists of screens split by :func:`split_html`
at 4,096 UTF-16 units after entity parsing; the group leaderboard is bounded to one message;
toasts stay within 200 units (:func:`clip_utf16`).
"""

from __future__ import annotations

import html
import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.i18n import SUPPORTED, Catalog
from bot.quiz.bank import Bank
from bot.quiz.engine import LABELS, Attempt, QuestionView, Result, result, view
from bot.quiz.group import RIGHT, SPEED, GroupSession, Standing
from bot.quiz.learning import ReviewItem
from bot.quiz.ports import BankStats, ScorePoint
from bot.quiz.privacy import is_deleted
from bot.quiz.review import Progress
from bot.quiz.settings import COUNT_CHOICES, SECONDS_CHOICES, GroupSettings
from bot.results import QuestionSummary

MAX_CALLBACK_DATA_BYTES = 64
"""Bot API: ``InlineKeyboardButton.callback_data`` is 1-64 bytes."""

MAX_MESSAGE_UTF16 = 4096
"""Bot API: message text is 1-4096 characters after entity parsing, counted in UTF-16 units."""

MAX_TOAST_UTF16 = 200
"""Bot API ``answerCallbackQuery``: the notification text is 0-200 characters (UTF-16 units)."""

MAX_KEYBOARD_BUTTONS = 100
"""Telegram refuses an inline keyboard of more than 100 buttons (``BUTTONS_TOO_MUCH``;
``inline_keyboard_button_count_max`` in https://core.telegram.org/api/config)."""

MAX_BUTTON_LABEL = 64
"""Characters of a button label made from bank text (a title); longer ones are clipped with
"…" (Telegram shows a button's text on one line, cut by the client)."""

MAX_ANSWER_BUTTONS_PER_ROW = 5
"""Answer buttons in one keyboard row (see :func:`answer_rows`). Telegram's apps give every
button of a row the same share of the message's width; on a phone (about 360 dp wide) five
one-letter buttons still leave each a thumb-sized target, so 2-5 options take one row and
6-10 two rows."""

LEADERBOARD_PLACES = 20
"""How many places the group leaderboard lists; the others are counted in one line."""

MAX_NAME = 48
"""Characters of a member's name shown on the leaderboard (Telegram allows 64 + 64)."""

MAX_TITLE = 128
"""Characters of a bank title shown on the leaderboard (bank titles have no length limit)."""


# --- callback data -------------------------------------------------------------------------

class InvalidCallbackData(ValueError):
    """Callback data that this bot did not make (garbage, forged or from an old format)."""


@dataclass(frozen=True)
class AnswerButton:
    """Choose ``slot`` (0 = "A") for the question at ``position`` of an attempt."""

    attempt_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class NextButton:
    """Go on from the answered question at ``position`` of an attempt."""

    attempt_id: int
    position: int


@dataclass(frozen=True)
class RetakeButton:
    """Start the bank again."""

    bank_id: str


@dataclass(frozen=True)
class ReviewButton:
    """Review the questions missed in a finished attempt."""

    attempt_id: int


@dataclass(frozen=True)
class LanguageButton:
    """Choose the UI language."""

    language: str


@dataclass(frozen=True)
class BankButton:
    """Start the chosen bank."""

    bank_id: str


@dataclass(frozen=True)
class GroupAnswerButton:
    """A member's choice of ``slot`` for the question at ``position`` of a group session."""

    session_id: int
    position: int
    slot: int


@dataclass(frozen=True)
class PlaceButton:
    """"My place" on a group session's leaderboard: the tapper's own rank, as a toast."""

    session_id: int


@dataclass(frozen=True)
class DeleteDataButton:
    """The answer to /deletemydata's question: ``confirm`` 1 deletes, 0 keeps."""

    confirm: int



@dataclass(frozen=True)
class CardAnswerButton:
    """Choose ``slot`` for a review card's question shown when the card had ``reps`` ratings;
    ``attempt_id`` is the attempt whose missed questions the session reviews first (0: none)."""

    card_id: int
    reps: int
    slot: int
    attempt_id: int


@dataclass(frozen=True)
class CardNextButton:
    """Go on from the feedback of a review card rated to ``reps`` ratings."""

    card_id: int
    reps: int
    attempt_id: int


@dataclass(frozen=True)
class StartReviewButton:
    """Start reviewing the due cards (in /stats and on a reminder)."""


@dataclass(frozen=True)
class SettingButton:
    """A group settings menu's choice: set ``field`` to ``value``, if the settings are still at
    ``version`` (the one the menu showed)."""

    version: int
    field: str
    value: str


CallbackButton = (AnswerButton | NextButton | RetakeButton | ReviewButton | LanguageButton
                  | BankButton | GroupAnswerButton | PlaceButton | DeleteDataButton
                  | CardAnswerButton | CardNextButton | StartReviewButton | SettingButton)

_INT = r"(0|[1-9][0-9]{0,17})"
_ID = r"([a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)"
_DECODERS: Sequence[tuple[re.Pattern[str], type]] = (
    (re.compile(rf"a:{_INT}:{_INT}:([0-9])"), AnswerButton),
    (re.compile(rf"n:{_INT}:{_INT}"), NextButton),
    (re.compile(rf"r:{_ID}"), RetakeButton),
    (re.compile(rf"v:{_INT}"), ReviewButton),
    (re.compile(r"l:([a-z]{2,3})"), LanguageButton),
    (re.compile(rf"b:{_ID}"), BankButton),
    (re.compile(rf"g:{_INT}:{_INT}:([0-9])"), GroupAnswerButton),
    (re.compile(rf"p:{_INT}"), PlaceButton),
    (re.compile(r"d:([01])"), DeleteDataButton),
    (re.compile(rf"c:{_INT}:{_INT}:([0-9]):{_INT}"), CardAnswerButton),
    (re.compile(rf"k:{_INT}:{_INT}:{_INT}"), CardNextButton),
    (re.compile(r"w"), StartReviewButton),
    (re.compile(rf"s:{_INT}:(who|seconds|scoring|bank|language|count):([a-z0-9-]{{1,32}})"),
     SettingButton),
)
_PREFIX = {AnswerButton: "a", NextButton: "n", RetakeButton: "r", ReviewButton: "v",
           LanguageButton: "l", BankButton: "b", GroupAnswerButton: "g", PlaceButton: "p",
           DeleteDataButton: "d", CardAnswerButton: "c", CardNextButton: "k",
           StartReviewButton: "w", SettingButton: "s"}
_TEXT_FIELDS = (RetakeButton, BankButton)
"""Kinds whose fields are all text (a bank id of digits stays a string)."""


def encode(button: CallbackButton) -> str:
    """Encode a button as callback data, e.g. ``a:42:3:1``.

    Raises:
        ValueError: the encoding would exceed 64 bytes (Bot API limit on callback_data).
    """
    fields = [str(v) for v in button.__dict__.values()]
    data = ":".join([_PREFIX[type(button)], *fields])
    if len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
        raise ValueError(f"callback data over {MAX_CALLBACK_DATA_BYTES} bytes: {data!r}")
    return data


def decode(data: str | None) -> CallbackButton:
    """Decode callback data made by :func:`encode`.

    Raises:
        InvalidCallbackData: anything else (empty, garbage, forged, over 64 bytes).
    """
    if not data or len(data.encode()) > MAX_CALLBACK_DATA_BYTES:
        raise InvalidCallbackData(data)
    for pattern, kind in _DECODERS:
        match = pattern.fullmatch(data)
        if match:
            groups = [int(g) if g.isdigit() and kind not in _TEXT_FIELDS else g
                      for g in match.groups()]
            if kind is SettingButton:  # the value stays text: "0" is a count, "30" seconds
                groups[2] = match[3]
            return kind(*groups)  # type: ignore[no-any-return]
    raise InvalidCallbackData(data)


# --- markup --------------------------------------------------------------------------------

class Markup(Protocol):
    """How a screen formats text: Telegram HTML or plain terminal text."""

    def escape(self, text: str) -> str:
        """Make plain text safe to embed."""
        ...

    def bold(self, text: str) -> str:
        """Bold plain text."""
        ...

    def italic(self, text: str) -> str:
        """Italic plain text."""
        ...

    def link(self, text: str, url: str) -> str:
        """A link with plain text ``text``."""
        ...

    def length(self, text: str) -> int:
        """The length of marked-up ``text`` as the reader sees it, in UTF-16 units."""
        ...

    def chunks(self, text: str, limit: int) -> list[str]:
        """Marked-up ``text`` split into texts of at most ``limit`` visible UTF-16 units."""
        ...


class Html:
    """Telegram HTML (Bot API "HTML style"): only ``<``, ``>``, ``&`` and ``"`` need escaping."""

    def escape(self, text: str) -> str:
        """Escape ``<``, ``>``, ``&`` and ``"`` as HTML entities."""
        return html.escape(text, quote=True)

    def bold(self, text: str) -> str:
        """``<b>`` around escaped text."""
        return f"<b>{self.escape(text)}</b>"

    def italic(self, text: str) -> str:
        """``<i>`` around escaped text."""
        return f"<i>{self.escape(text)}</i>"

    def link(self, text: str, url: str) -> str:
        """``<a href>`` with the URL and the text escaped."""
        return f'<a href="{self.escape(url)}">{self.escape(text)}</a>'

    def length(self, text: str) -> int:
        """The visible length of Telegram HTML, see :func:`html_length`."""
        return html_length(text)

    def chunks(self, text: str, limit: int) -> list[str]:
        """Telegram HTML split at line boundaries, see :func:`split_html`."""
        return split_html(text, limit)


class Plain:
    """Terminal text: nothing to escape, no formatting; links show their URL."""

    def escape(self, text: str) -> str:
        """Return text unchanged."""
        return text

    def bold(self, text: str) -> str:
        """Return text unchanged."""
        return text

    def italic(self, text: str) -> str:
        """Return text unchanged."""
        return text

    def link(self, text: str, url: str) -> str:
        """``text (url)``."""
        return f"{text} ({url})"

    def length(self, text: str) -> int:
        """UTF-16 units of the text itself."""
        return utf16_length(text)

    def chunks(self, text: str, limit: int) -> list[str]:
        """``[text]``: a terminal has no message length limit."""
        return [text]


HTML = Html()
PLAIN = Plain()


@dataclass(frozen=True)
class UrlButton:
    """An inline keyboard button that opens ``url``."""

    url: str


@dataclass(frozen=True)
class ShareButton:
    """An inline keyboard button that lets the user pick a chat and types "@<bot> ``query``"
    into its input field, so the bot's inline results come up there (Bot API
    ``InlineKeyboardButton.switch_inline_query``)."""

    query: str


@dataclass(frozen=True)
class Button:
    """An inline keyboard button: a label and callback data, a URL, or a share action."""

    label: str
    action: CallbackButton | UrlButton | ShareButton


@dataclass(frozen=True)
class Screen:
    """A message to show: text (in the markup it was rendered with) and a keyboard (rows)."""

    text: str
    keyboard: tuple[tuple[Button, ...], ...] = field(default=())


def clip(text: str, limit: int = 64) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis: for echoing what a user typed
    (a deep-link payload, a bank name) without overflowing a message."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def utf16_length(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram's text limits."""
    return len(text.encode("utf-16-le")) // 2


def clip_utf16(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-16 units, the cut marked with "…".

    Cuts between code points, so a surrogate pair (an emoji) is never halved. For Telegram's
    limits counted in UTF-16 units, such as a toast's 200 (:data:`MAX_TOAST_UTF16`).

    Raises:
        ValueError: ``limit`` is below 1 (no room for the ellipsis).
    """
    if limit < 1:
        raise ValueError(f"limit must be at least 1, got {limit}")
    if utf16_length(text) <= limit:
        return text
    kept, size = [], 1  # the ellipsis is one unit
    for char in text:
        size += utf16_length(char)
        if size > limit:
            break
        kept.append(char)
    return "".join(kept) + "…"


# --- long texts ------------------------------------------------------------------------------

_HTML_TOKEN = re.compile(r"<[^>]*>|&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z]+);|.", re.DOTALL)
"""A tag, a character reference, or one character (code point) of Telegram HTML."""
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")


def _token_length(token: str) -> int:
    """Visible UTF-16 units of an :data:`_HTML_TOKEN`: 0 for a tag, the decoded character for a
    character reference (``&amp;`` is one unit)."""
    if token[0] == "<" and len(token) > 1:
        return 0
    if token[0] == "&" and len(token) > 1:
        return utf16_length(html.unescape(token))
    return utf16_length(token)


def html_length(text: str) -> int:
    """The length of Telegram HTML after entity parsing, in UTF-16 units: tags count nothing,
    a character reference counts as the character it stands for.

    This is what the Bot API limits ("1-4096 characters after entities parsing",
    ``sendMessage``). It assumes well-formed markup as :class:`Html` makes it (every ``<`` in
    text escaped); Telegram also trims leading and trailing whitespace, which only shortens.
    """
    return sum(_token_length(token) for token in _HTML_TOKEN.findall(text))


def split_html(text: str, limit: int = MAX_MESSAGE_UTF16) -> list[str]:
    """Split Telegram HTML into messages of at most ``limit`` UTF-16 units after parsing.

    Texts are filled greedily with whole lines; the line break where one text ends is dropped.
    A line longer than ``limit`` on its own is cut between characters (code points). A tag or
    character reference is never cut: a tag still open where a text ends is closed there and
    opened again (with the same attributes) at the start of the next text, so every text is
    well-formed and keeps its formatting. Texts that would be blank are left out (Telegram
    refuses an empty message). Markup is expected as :class:`Html` makes it.

    Args:
        text: Telegram HTML (``parse_mode`` HTML).
        limit: Visible UTF-16 units per text; Bot API ``sendMessage`` allows 4096.

    Returns:
        The texts in order (one, unchanged, when ``text`` fits; none when it is blank).

    Raises:
        ValueError: ``limit`` is below 2 (an astral character needs two units).
    """
    if limit < 2:
        raise ValueError(f"limit must be at least 2, got {limit}")
    if html_length(text) <= limit:
        return [text] if text.strip() else []
    texts: list[str] = []
    open_tags: list[str] = []  # start tags open at the current point
    parts: list[str] = []  # the current text, starting with the tags it reopens
    size = 0  # visible units of the current text
    started = False  # whether the current text holds a line (so the next needs a line break)
    blank = True  # whether the current text is all whitespace so far

    def add(token: str, width: int) -> None:
        nonlocal size, blank
        parts.append(token)
        size += width
        if token[0] == "<" and len(token) > 1:
            if token.startswith("</"):
                if open_tags:
                    open_tags.pop()
            else:
                open_tags.append(token)
        elif blank and width and not html.unescape(token).isspace():
            blank = False

    def flush() -> None:
        nonlocal parts, size, started, blank
        if not blank:
            closing = (f"</{_TAG_NAME.match(tag)[1]}>"  # type: ignore[index]
                       for tag in reversed(open_tags))
            texts.append("".join(parts) + "".join(closing))
        parts, size, started, blank = list(open_tags), 0, False, True

    for line in text.split("\n"):
        tokens = _HTML_TOKEN.findall(line)
        widths = [_token_length(token) for token in tokens]
        width = sum(widths)
        if started and size + 1 + width > limit:
            flush()
        if width <= limit - size - started:
            if started:
                add("\n", 1)
            for token, token_width in zip(tokens, widths, strict=True):
                add(token, token_width)
            started = True
            continue
        for token, token_width in zip(tokens, widths, strict=True):  # a line over the limit
            if size + token_width > limit:
                flush()
            add(token, token_width)
        started = True
    flush()
    return texts


def as_screens(text: str, m: Markup, keyboard: tuple[tuple[Button, ...], ...] = (),
               limit: int = MAX_MESSAGE_UTF16) -> list[Screen]:
    """``text`` as one or more screens of at most ``limit`` visible UTF-16 units each (split
    by ``m.chunks``), the keyboard on the last one (it follows what the user read)."""
    texts = m.chunks(text, limit) or [text]
    return [Screen(part) for part in texts[:-1]] + [Screen(texts[-1], keyboard)]


def progress_bar(done: int, total: int, width: int = 8) -> str:
    """A bar like ``▰▰▰▱▱▱▱▱`` with ``done`` of ``total`` filled (scaled to ``width``)."""
    if total <= 0:
        return ""
    filled = round(width * done / total)
    return "▰" * filled + "▱" * (width - filled)


# --- screens -------------------------------------------------------------------------------

def _guide_row(bank: Bank, language: str) -> tuple[tuple[Button, ...], ...]:
    if bank.guide is None:
        return ()
    label = bank.guide.label.get(language, bank.default_language)
    return ((Button(f"📘 {label}", UrlButton(bank.guide.url)),),)


def intro(bank: Bank, t: Catalog, m: Markup, *, name: str | None = None) -> Screen:
    """The greeting and bank introduction sent before the first question."""
    lang = bank.language_for(t.language)
    lines = []
    if name is not None:
        lines += [m.escape(t("greeting", name=name)), ""]
    lines += [
        m.bold(bank.title.get(lang, bank.default_language)),
        m.escape(f"{t('level_line', level=t('level.' + bank.level))} · "
                 f"{t('question_count', count=len(bank.questions))}"),
        "",
        m.escape(bank.description.get(lang, bank.default_language)),
    ]
    return Screen("\n".join(lines), _guide_row(bank, lang))


def _question_lines(bank: Bank, v: QuestionView, t: Catalog, m: Markup, *,
                    marks: bool, closed: bool = False) -> list[str]:
    lang = bank.language_for(t.language)
    done = v.position + (1 if v.answered or closed else 0)
    lines = [
        m.bold(bank.title.get(lang, bank.default_language)),
        m.escape(f"{t('question_header', number=v.position + 1, total=v.total)}  "
                 f"{progress_bar(done, v.total)}"),
        "",
        m.bold(v.question.prompt.get(lang, bank.default_language)),
        "",
    ]
    for slot, option_index in enumerate(v.slots):
        text = m.escape(v.question.options[option_index].text.get(lang, bank.default_language))
        label = f"{LABELS[slot]}."
        if marks and slot == v.correct_slot:
            line = f"✅ {label} {text}"
        elif marks and slot == v.chosen_slot:
            line = f"❌ {label} {text} ({m.escape(t('your_answer'))})"
        else:
            line = f"{label} {text}"
        lines.append(line)
    return lines


def answer_rows(buttons: Sequence[Button]) -> tuple[tuple[Button, ...], ...]:
    """Answer buttons laid out in rows for a phone: one row of up to
    :data:`MAX_ANSWER_BUTTONS_PER_ROW`, else as few rows as that allows, as even as possible,
    the longer rows first (6 -> 3+3, 7 -> 4+3, 9 -> 5+4, 10 -> 5+5), so the labels stay in
    reading order."""
    count = len(buttons)
    rows = max(1, -(-count // MAX_ANSWER_BUTTONS_PER_ROW))
    size, longer = divmod(count, rows)
    layout, start = [], 0
    for row in range(rows):
        end = start + size + (1 if row < longer else 0)
        layout.append(tuple(buttons[start:end]))
        start = end
    return tuple(layout)


def question(bank: Bank, v: QuestionView, t: Catalog, m: Markup,
             make_button: Callable[[int], CallbackButton]) -> Screen:
    """A question with its options labelled A, B, ... (up to J), and one button per label in
    rows that fit a phone (:func:`answer_rows`).

    Args:
        make_button: Slot (0 = "A") -> the callback button for choosing it.
    """
    buttons = [Button(LABELS[slot], make_button(slot)) for slot in range(len(v.slots))]
    return Screen("\n".join(_question_lines(bank, v, t, m, marks=False)), answer_rows(buttons))


def attempt_question(bank: Bank, attempt: Attempt, t: Catalog, m: Markup) -> Screen:
    """The attempt's current question, with answer buttons for it.

    Raises:
        BankChanged: the attempt was planned on another bank version.
    """
    v = view(attempt, bank)
    return question(bank, v, t, m, lambda slot: AnswerButton(attempt.id, v.position, slot))


def explanation_lines(bank: Bank, v: QuestionView, t: Catalog, m: Markup) -> list[str]:
    """The verdict, the explanation and its source."""
    lang = bank.language_for(t.language)
    verdict = (t("feedback_correct") if v.is_correct
               else t("feedback_wrong", label=LABELS[v.correct_slot]))
    source = v.question.source
    return [
        m.bold(verdict),
        m.escape(v.question.explanation.get(lang, bank.default_language)),
        "",
        m.escape(t("source", source="")) + m.link(source.title, source.url),
    ]


def feedback(bank: Bank, attempt: Attempt, position: int, t: Catalog, m: Markup) -> Screen:
    """The answered question: the choice marked ✅/❌, the correct option, the explanation,
    and a button to go on (or to see the score after the last question)."""
    v = view(attempt, bank, position)
    lines = [*_question_lines(bank, v, t, m, marks=True), "", *explanation_lines(bank, v, t, m)]
    last = position + 1 >= attempt.total
    label = t("button_results") if last else t("button_next")
    return Screen("\n".join(lines), ((Button(label, NextButton(attempt.id, position)),),))


def outcome(bank: Bank, attempt: Attempt, t: Catalog, m: Markup,
            previous_best: ScorePoint | None = None, *, share: bool = False) -> list[Screen]:
    """The end of an attempt: the score, the missed questions, retake and review buttons.

    Args:
        previous_best: The user's best earlier attempt on the bank, if any: the score is
            compared with it ("5/8 → 7/8, your best!", or the best so far when not beaten).
        share: Add a "Share" button (:func:`share_row`: Telegram with inline mode on).

    Returns:
        One screen, or several of at most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units when
        the list of missed questions is long; the buttons are on the last.
    """
    lang = bank.language_for(t.language)
    res: Result = result(attempt)
    lines = [m.bold(f"🏁 {t('result_title')}"), m.bold(bank.title.get(lang, bank.default_language)),
             "", m.escape(t("result_score", score=res.score, total=res.total))]
    if previous_best is not None:
        if res.score * previous_best.total > previous_best.score * res.total:
            lines.append(m.bold(t("result_improved", before=previous_best.score,
                                  before_total=previous_best.total, score=res.score,
                                  total=res.total)))
        else:
            lines.append(m.escape(t("result_best", best=previous_best.score,
                                    best_total=previous_best.total)))
    if not res.missed:
        lines += ["", m.escape(t("result_perfect"))]
    else:
        lines += ["", m.escape(t("result_missed"))]
        for question_id in _in_bank(bank, res.missed):
            number = attempt.plan.question_order.index(question_id) + 1
            prompt = bank.question(question_id).prompt.get(lang, bank.default_language)
            lines.append(f"{number}. {m.escape(prompt)}")
    buttons = [Button(t("button_retake"), RetakeButton(bank.id))]
    if res.missed:
        buttons.append(Button(t("button_review"), ReviewButton(attempt.id)))
    rows = tuple((b,) for b in buttons) + (share_row(bank, t) if share else ())
    return as_screens("\n".join(lines), m, rows)


def _in_bank(bank: Bank, question_ids: Iterable[str]) -> tuple[str, ...]:
    """The ids the bank still has: an answered question removed from the bank without a version
    bump still counts in the score, but has no text left to show."""
    present = {question.id for question in bank.questions}
    return tuple(question_id for question_id in question_ids if question_id in present)


def review(bank: Bank, attempt: Attempt, t: Catalog, m: Markup) -> list[Screen]:
    """The missed questions with the correct answers and explanations, split into messages of at
    most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units (a question is kept in one message)."""
    missed = _in_bank(bank, result(attempt).missed)
    if not missed:
        return [Screen(m.escape(t("review_none")))]
    lang = bank.language_for(t.language)
    blocks = [m.bold(t("review_header"))]
    for question_id in missed:
        position = attempt.plan.question_order.index(question_id)
        v = view(attempt, bank, position)
        correct = v.question.options[v.slots[v.correct_slot]].text.get(lang, bank.default_language)
        blocks.append("\n".join([
            m.bold(f"{position + 1}. {v.question.prompt.get(lang, bank.default_language)}"),
            f"✅ {m.escape(correct)}",
            m.escape(v.question.explanation.get(lang, bank.default_language)),
            m.escape(t("source", source="")) + m.link(v.question.source.title,
                                                       v.question.source.url),
        ]))
    return [Screen(text) for text in pack(blocks, m=m)]


def pack(blocks: Iterable[str], limit: int = MAX_MESSAGE_UTF16, separator: str = "\n\n",
         m: Markup = HTML) -> list[str]:
    """Join blocks into as few texts as possible, each at most ``limit`` UTF-16 units as
    measured by ``m.length`` (for HTML: after entity parsing, as Telegram counts).

    A block that fits is never split across texts; a block over the limit on its own is split
    by ``m.chunks`` (at line boundaries, see :func:`split_html`). Blocks must be balanced markup
    (every tag closed), so lengths add up.
    """
    texts: list[str] = []
    sizes: list[int] = []
    gap = m.length(separator)
    for block in blocks:
        for part in m.chunks(block, limit):
            size = m.length(part)
            if texts and sizes[-1] + gap + size <= limit:
                texts[-1] += separator + part
                sizes[-1] += gap + size
            else:
                texts.append(part)
                sizes.append(size)
    return texts


def preview(bank: Bank, t: Catalog, m: Markup, *, share: bool = False) -> list[Screen]:
    """Title, level, description and the questions without their answers.

    Args:
        share: Add a "Share" button (:func:`share_row`: Telegram with inline mode on).

    Returns:
        One screen, or several of at most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units for a
        long bank; the guide and share buttons are on the last.
    """
    lang = bank.language_for(t.language)
    head = intro(bank, t, m)
    lines = [head.text, "", m.bold(t("preview_header"))]
    for number, q in enumerate(bank.questions, start=1):
        lines.append(f"{number}. {m.escape(q.prompt.get(lang, bank.default_language))}")
    lines += ["", m.italic(t("preview_footer"))]
    return as_screens("\n".join(lines), m,
                      head.keyboard + (share_row(bank, t) if share else ()))


def stats(records: Sequence[BankStats], banks: Mapping[str, Bank], t: Catalog,
          m: Markup) -> list[Screen]:
    """The user's attempts, best and last score and most-missed questions, per bank.

    Returns:
        One screen, or several of at most :data:`MAX_MESSAGE_UTF16` visible UTF-16 units when
        the lists are long.
    """
    if not records:
        return [Screen(m.escape(t("stats_none")))]
    lines = [m.bold(f"📊 {t('stats_header')}")]
    for record in records:
        bank = banks.get(record.bank_id)
        lang = bank.language_for(t.language) if bank else t.language
        title = bank.title.get(lang, bank.default_language) if bank else record.bank_id
        lines += ["", m.bold(title), m.escape(
            f"{t('stats_attempts', count=record.attempts)} · "
            f"{t('stats_scores', best=record.best, last=record.last, total=record.total)}")]
        missed = [(q, n) for q, n in record.most_missed
                  if bank is not None and any(x.id == q for x in bank.questions)]
        if missed and bank is not None:
            lines.append(m.escape(t("stats_most_missed")))
            for question_id, times in missed:
                prompt = bank.question(question_id).prompt.get(lang, bank.default_language)
                times_text = t("stats_missed_times", count=times)
                lines.append(f"• {m.escape(prompt)} ({m.escape(times_text)})")
    return as_screens("\n".join(lines), m)


def language_picker(current: str, t: Catalog, m: Markup) -> Screen:
    """A prompt with one button per supported language, named in its own script."""
    buttons = tuple(
        Button(("✓ " if code == current else "") + t.language_name(code), LanguageButton(code))
        for code in SUPPORTED)
    return Screen(m.escape(t("language_prompt")), (buttons,))


def bank_choice(banks: Iterable[Bank], t: Catalog, m: Markup, *, header: str) -> Screen:
    """``header`` and one button per bank: its title in the user's language, clipped to
    :data:`MAX_BUTTON_LABEL` characters; at most :data:`MAX_KEYBOARD_BUTTONS` banks (the others
    are still reachable with ``/quiz <id>``)."""
    rows = tuple((Button(clip(b.title.get(b.language_for(t.language), b.default_language),
                              MAX_BUTTON_LABEL), BankButton(b.id)),)
                 for b in itertools.islice(banks, MAX_KEYBOARD_BUTTONS))
    return Screen(m.escape(header), rows)


# --- group sessions ------------------------------------------------------------------------

def group_question(bank: Bank, session: GroupSession, t: Catalog, m: Markup, *,
                   starter_name: str | None = None, left: int | None = None) -> Screen:
    """A group session's open question, with one button per option (A-J, in rows that fit a
    phone: :func:`answer_rows`) and its clock: the window ("⏱ 30 s"), or with ``left`` the
    seconds left (the one mid-window edit, "⏱ 10 s left"); the first one carries the
    announcement (who started it, how many questions, seconds per question, the scoring)."""
    v = _session_view(bank, session, session.position)
    lines = _question_lines(bank, v, t, m, marks=False)
    header: list[str] = []
    if starter_name is not None:
        header = [m.escape(t("group_announce", name=starter_name)),
                  m.escape(f"{t('question_count', count=session.total)} · "
                           f"{t('group_seconds', count=round(session.question_seconds))}"),
                  m.escape(t(f"group_scoring_{session.scoring}")), ""]
    clock = (t("group_clock", count=round(session.question_seconds)) if left is None
             else t("group_clock_left", count=left))
    lines.insert(2, m.escape(clock))
    buttons = [Button(LABELS[slot], GroupAnswerButton(session.id, session.position, slot))
               for slot in range(len(v.slots))]
    return Screen("\n".join(header + lines), answer_rows(buttons))


def group_reveal(bank: Bank, session: GroupSession, position: int, counts: Sequence[int],
                 t: Catalog, m: Markup, *, bot_username: str | None = None) -> Screen:
    """A closed group question: the correct option, how many chose each option, the
    explanation and its source; with ``bot_username`` a URL button that opens the bot's private
    chat on this question, its answer and explanation in the member's own language
    (:func:`question_link`)."""
    v = _session_view(bank, session, position)
    lang = bank.language_for(t.language)
    lines = [*_question_lines(bank, v, t, m, marks=False, closed=True)[:4], ""]
    for slot, option_index in enumerate(v.slots):
        text = v.question.options[option_index].text.get(lang, bank.default_language)
        label = f"{LABELS[slot]}."
        count = f" — {counts[slot]}"
        if slot == v.correct_slot:
            lines.append(f"✅ {label} {m.escape(text)}{count}")
        else:
            lines.append(f"{label} {m.escape(text)}{count}")
    total = sum(counts)
    lines += ["", m.escape(f"👥 {t('group_answer_count', count=total)}"), "",
              m.escape(v.question.explanation.get(lang, bank.default_language)), "",
              m.escape(t("source", source="")) + m.link(v.question.source.title,
                                                         v.question.source.url)]
    keyboard: tuple[tuple[Button, ...], ...] = ()
    if bot_username:
        keyboard = ((Button(t("button_in_my_language"),
                            UrlButton(question_link(bot_username, session.id, position))),),)
    return Screen("\n".join(lines), keyboard)


MEDALS = ("🥇", "🥈", "🥉")


def group_leaderboard(bank: Bank, session: GroupSession, standings: Sequence[Standing],
                      t: Catalog, m: Markup, *, stopped_by: str | None = None) -> Screen:
    """The leaderboard: rank, name (escaped; no mention, so nobody is notified), score and
    total answer time, for the first :data:`LEADERBOARD_PLACES` places, then a line counting
    the others, and a "My place" button (:class:`PlaceButton`) whose answer tells each
    player their own place. ``stopped_by`` names who stopped the session early.

    Always one message, whatever the number of players and their names: names are clipped to
    :data:`MAX_NAME` characters (Telegram allows 64 + 64) and the title to :data:`MAX_TITLE`,
    so the text stays far below :data:`MAX_MESSAGE_UTF16` visible UTF-16 units (about 3,000
    at worst, with every character an astral one).
    """
    lang = bank.language_for(t.language)
    lines = []
    if stopped_by is not None:
        lines += [m.escape(t("group_stopped", name=clip(stopped_by, MAX_NAME))), ""]
    lines += [m.bold(t("group_leaderboard")),
              m.bold(clip(bank.title.get(lang, bank.default_language), MAX_TITLE)), ""]
    if not standings:
        lines.append(m.escape(t("group_no_players")))
    for standing in standings[:LEADERBOARD_PLACES]:
        medal = standing.rank <= len(MEDALS) and standing.score > 0  # no gold for 0 points
        place = MEDALS[standing.rank - 1] if medal else f"{standing.rank}."
        score = _standing_line(session, standing, t)
        name = t("deleted_user") if is_deleted(standing.user_id) else standing.name
        lines.append(f"{place} {m.bold(clip(name, MAX_NAME))} — {m.escape(score)}")
    more = len(standings) - LEADERBOARD_PLACES
    if more > 0:
        lines.append(m.escape(t("group_more_players", count=more)))
    keyboard = ((Button(t("button_my_place"), PlaceButton(session.id)),),) if standings else ()
    return Screen("\n".join(lines), keyboard)


def group_place(session: GroupSession, standings: Sequence[Standing], user_id: int,
                t: Catalog) -> str:
    """The answer to a "My place" tap: the player's rank of all players, score and total
    answer time (seconds), or that they did not play; plain text for a callback query's toast,
    at most :data:`MAX_TOAST_UTF16` UTF-16 units (Bot API ``answerCallbackQuery``)."""
    mine = next((s for s in standings if s.user_id == user_id), None)
    if mine is None:
        text = t("group_not_played")
    elif session.scoring == SPEED:
        text = t("group_your_place_points", rank=mine.rank, players=len(standings),
                 points=t.decimal(mine.score, 0), right=mine.right, total=session.total,
                 streak=mine.best_streak)
    else:
        text = t("group_your_place", rank=mine.rank, players=len(standings), score=mine.score,
                 total=session.total, seconds=t.decimal(mine.seconds))
    return clip_utf16(text, MAX_TOAST_UTF16)


def _standing_line(session: GroupSession, standing: Standing, t: Catalog) -> str:
    """A leaderboard line's figures: points, right answers and the longest streak (speed
    scoring), or right answers and total time (right-answers scoring)."""
    if session.scoring == SPEED:
        return t("group_points_line", points=t.decimal(standing.score, 0), right=standing.right,
                 total=session.total, streak=standing.best_streak)
    return t("group_score_line", score=standing.score, total=session.total,
             seconds=t.decimal(standing.seconds))


def _session_view(bank: Bank, session: GroupSession, position: int) -> QuestionView:
    question = bank.question(session.plan.question_order[position])
    slots = session.plan.option_orders[position]
    return QuestionView(question=question, position=position, total=session.total, slots=slots,
                        correct_slot=slots.index(question.correct_index))


def delete_data_question(t: Catalog, m: Markup) -> Screen:
    """/deletemydata's question: what would be deleted, with "delete" and "keep" buttons."""
    return Screen(m.escape(t("deletemydata_confirm")),
                  ((Button(t("button_delete_confirm"), DeleteDataButton(1)),
                    Button(t("button_delete_cancel"), DeleteDataButton(0))),))


# --- spaced review -------------------------------------------------------------------------

MANY_DUE = 100
"""Due counts from this one on are shown as "over 99" (they are counted only that far)."""


def _due_header(count: int, t: Catalog) -> str:
    return t("review_due_many") if count >= MANY_DUE else t("review_due", count=count)


def _review_view(it: ReviewItem, chosen_slot: int | None = None,
                 correct: bool | None = None) -> QuestionView:
    return QuestionView(question=it.question, position=0, total=1, slots=it.slots,
                        correct_slot=it.correct_slot, chosen_slot=chosen_slot,
                        answer_correct=correct)


def _review_lines(it: ReviewItem, v: QuestionView, t: Catalog, m: Markup,
                  marks: bool) -> list[str]:
    """The quiz's question lines, with the review header (how many are due) in place of the
    question number and progress bar."""
    lines = _question_lines(it.bank, v, t, m, marks=marks)
    lines[1] = m.escape(_due_header(it.due_count, t))
    return lines


def review_question(it: ReviewItem, t: Catalog, m: Markup, attempt_id: int = 0) -> Screen:
    """A due card's question in the quiz's format (title, header, prompt, options A-J with
    buttons), options in the order :func:`bot.quiz.learning.review_slots` chose for it."""
    buttons = [Button(LABELS[slot], CardAnswerButton(it.card.id, it.card.reps, slot, attempt_id))
               for slot in range(len(it.slots))]
    return Screen("\n".join(_review_lines(it, _review_view(it), t, m, marks=False)),
                  answer_rows(buttons))


def review_feedback(it: ReviewItem, slot: int, correct: bool, t: Catalog, m: Markup, *,
                    next_card: CardNextButton | None, next_in: float | None,
                    closing: bool = True) -> Screen:
    """A reviewed card: the choice marked ✅/❌, the correct option and the explanation, then
    a "next" button when more cards are due, else (with ``closing``) that all is done and when
    the next review is (``next_in`` seconds from now; None: not known)."""
    v = _review_view(it, slot, correct)
    lines = [*_review_lines(it, v, t, m, marks=True), "",
             *explanation_lines(it.bank, v, t, m)]
    if next_card is not None:
        return Screen("\n".join(lines), ((Button(t("button_review_next"), next_card),),))
    if not closing:
        return Screen("\n".join(lines))
    lines += ["", m.bold(t("review_all_done"))]
    if next_in is not None:
        lines.append(m.escape(t("review_next_in", when=t.relative(next_in))))
    return Screen("\n".join(lines))


def review_done(next_in: float | None, t: Catalog, m: Markup) -> Screen:
    """/review with nothing due: when the next review is (``next_in`` seconds from now), or
    that there are no cards yet (``next_in`` None)."""
    if next_in is None:
        return Screen(m.escape(t("review_none_yet")))
    return Screen(m.escape(t("review_nothing_due", when=t.relative(next_in))))


def reminder(count: int, t: Catalog, m: Markup) -> Screen:
    """The daily reminder: how many questions are due, and a button that starts the review."""
    text = t("reminder_many") if count >= MANY_DUE else t("reminder", count=count)
    return Screen(m.escape(text), ((Button(t("button_review_start"), StartReviewButton()),),))


def remind_status(on: bool, t: Catalog, m: Markup) -> Screen:
    """The answer to /remind: the reminder is now on (how it works) or off."""
    return Screen(m.escape(t("remind_on" if on else "remind_off")))


def stats_with_review(records: Sequence[BankStats], banks: Mapping[str, Bank], due: int,
                      t: Catalog, m: Markup) -> list[Screen]:
    """:func:`stats` with how many questions are due for review and, when any is, a button
    that starts the review (on the last screen)."""
    screens = stats(records, banks, t, m)
    if due <= 0:
        return screens
    line = m.escape(t("stats_due", count=due) if due < MANY_DUE else t("review_due_many"))
    last = screens[-1]
    extra = as_screens(f"{last.text}\n\n{line}", m,
                       ((Button(t("button_review_start"), StartReviewButton()),),))
    return screens[:-1] + extra


def known_text(progress: Progress, t: Catalog, m: Markup) -> str:
    """How well each question is known (FSRS retrievability, in %), least known first: the
    chart's second panel as text (for the terminal)."""
    lines = [m.bold(t("chart_known"))]
    for bank, question_id, value in sorted(progress.cards, key=lambda c: c[2]):
        lang = bank.language_for(t.language)
        prompt = bank.question(question_id).prompt.get(lang, bank.default_language)
        lines.append(f"{round(100 * value):3d}  {m.escape(prompt)}")
    return "\n".join(lines)


# --- teachers: deep links, settings, results, sharing ---------------------------------------

MAX_START_PAYLOAD = 64
"""Bot API deep linking: a ``start`` parameter is 1-64 characters of ``A-Z``, ``a-z``, ``0-9``,
``_`` and ``-`` (https://core.telegram.org/bots/features#deep-linking)."""

_PAYLOAD = re.compile(r"[A-Za-z0-9_-]{1,64}")
_QUESTION_PAYLOAD = re.compile(r"q_(0|[1-9][0-9]{0,17})_(0|[1-9][0-9]{0,3})")


def deep_link(bot_username: str, payload: str | None = None) -> str:
    """``https://t.me/<bot>?start=<payload>``: opens the bot's private chat, and on Start sends
    it ``/start <payload>``.

    Raises:
        ValueError: ``payload`` is not 1-64 characters of ``A-Za-z0-9_-``
            (:data:`MAX_START_PAYLOAD`).
    """
    if payload is None:
        return f"https://t.me/{bot_username}"
    if not _PAYLOAD.fullmatch(payload):
        raise ValueError(f"invalid deep-link payload: {payload!r}")
    return f"https://t.me/{bot_username}?start={payload}"


def question_link(bot_username: str, session_id: int, position: int) -> str:
    """The deep link of a group question's reveal (payload ``q_<session>_<position>``, at most
    25 characters; bank ids never contain ``_``, so it is never taken for one)."""
    return deep_link(bot_username, f"q_{session_id}_{position}")


def parse_question_payload(payload: str) -> tuple[int, int] | None:
    """``(session id, position)`` from a :func:`question_link` payload, else None."""
    match = _QUESTION_PAYLOAD.fullmatch(payload)
    return (int(match[1]), int(match[2])) if match else None


def group_deep_link(bot_username: str, payload: str) -> str:
    """``https://t.me/<bot>?startgroup=<payload>``: asks the user for a group, adds the bot to it
    if it is not there yet, and sends ``/start@<bot> <payload>`` there from the user
    (https://core.telegram.org/bots/features#deep-linking; Telegram's messages.startBot).

    Raises:
        ValueError: ``payload`` is not 1-64 characters of ``A-Za-z0-9_-``
            (:data:`MAX_START_PAYLOAD`).
    """
    if not _PAYLOAD.fullmatch(payload):
        raise ValueError(f"invalid deep-link payload: {payload!r}")
    return f"https://t.me/{bot_username}?startgroup={payload}"


def private_question(bank: Bank, session: GroupSession, position: int, t: Catalog,
                     m: Markup) -> Screen:
    """A group session's closed question for one member's private chat, in their language:
    the question, its options with the right one marked, the explanation and its source."""
    v = _session_view(bank, session, position)
    lang = bank.language_for(t.language)
    lines = [*_question_lines(bank, v, t, m, marks=False, closed=True)[:4], ""]
    for slot, option_index in enumerate(v.slots):
        text = m.escape(v.question.options[option_index].text.get(lang, bank.default_language))
        mark = "✅ " if slot == v.correct_slot else ""
        lines.append(f"{mark}{LABELS[slot]}. {text}")
    lines += ["", m.escape(v.question.explanation.get(lang, bank.default_language)), "",
              m.escape(t("source", source="")) + m.link(v.question.source.title,
                                                         v.question.source.url)]
    return Screen("\n".join(lines))


def settings_menu(chosen: GroupSettings, default_seconds: float, banks: Sequence[Bank],
                  language: str, t: Catalog, m: Markup) -> Screen:
    """A group's settings and the buttons to change them (each carries ``chosen.version``, so
    an older menu's buttons are stale). Current choices are ticked; the bank row is shown only
    when several banks are installed (at most 40 of them: the keyboard's 100 buttons).
    ``default_seconds``: the window when the group chose none."""
    seconds = chosen.question_seconds or round(default_seconds)
    bank_titles = {b.id: clip(b.title.get(b.language_for(t.language), b.default_language),
                              MAX_BUTTON_LABEL) for b in banks}
    bank_line = (bank_titles.get(chosen.bank_id, t("settings_bank_missing"))
                 if chosen.bank_id else t("settings_bank_ask"))
    lines = [m.bold(t("settings_title")), "",
             m.escape(t("settings_who", value=t(f"settings_who_{chosen.who_starts}"))),
             m.escape(t("settings_seconds", count=seconds)),
             m.escape(t("settings_scoring", value=t(f"settings_scoring_{chosen.scoring}"))),
             m.escape(t("settings_bank", value=bank_line)),
             m.escape(t("settings_language", value=t.language_name(language))),
             m.escape(t("settings_count", value=t("settings_count_all")
                        if chosen.question_count is None else str(chosen.question_count))),
             "", m.italic(t("settings_hint"))]

    def button(label: str, field_name: str, value: object, current: bool) -> Button:
        return Button(("✓ " if current else "") + label,
                      SettingButton(chosen.version, field_name, str(value)))

    rows: list[tuple[Button, ...]] = [
        tuple(button(t(f"settings_who_{who}"), "who", who, chosen.who_starts == who)
              for who in ("everyone", "admins")),
    ]
    choices = [button(t("settings_seconds_button", count=n), "seconds", n, n == seconds)
               for n in SECONDS_CHOICES]
    rows += [tuple(choices[:5]), tuple(choices[5:])]
    rows.append(tuple(button(t(f"settings_scoring_{s}"), "scoring", s, chosen.scoring == s)
                      for s in (SPEED, RIGHT)))
    if len(banks) > 1:
        rows += [(button(bank_titles[b.id], "bank", b.id, chosen.bank_id == b.id),)
                 for b in banks[:40]]
    rows.append(tuple(button(t.language_name(code), "language", code, code == language)
                      for code in SUPPORTED))
    rows.append(tuple(button(t("settings_count_all") if n == 0 else str(n), "count", n,
                             (chosen.question_count or 0) == n) for n in COUNT_CHOICES))
    return Screen("\n".join(lines), tuple(rows))


def results_summary(bank: Bank, session: GroupSession, questions: Sequence[QuestionSummary],
                    players: int, date: str, t: Catalog, m: Markup) -> list[Screen]:
    """The per-question summary sent with a session's CSV: per question its number, prompt
    (clipped to 120 characters), right answers of all answers and the mean answer time.
    ``date``: when the session started, formatted by the caller. Split into messages of at most
    :data:`MAX_MESSAGE_UTF16` visible UTF-16 units."""
    lang = bank.language_for(t.language)
    prompts = {q.id: q.prompt.get(lang, bank.default_language) for q in bank.questions}
    lines = [m.bold(t("results_title", title=clip(bank.title.get(lang, bank.default_language),
                                                  MAX_TITLE))),
             m.escape(t("results_meta", date=date, players=players, questions=len(questions))),
             ""]
    for q in questions:
        lines.append(m.escape(t("results_question_line", number=q.number,
                                prompt=clip(prompts.get(q.question_id, q.question_id), 120),
                                right=q.right, answers=q.answers,
                                seconds=t.decimal(q.mean_seconds))))
    return as_screens("\n".join(lines), m)


# --- sharing: inline mode ------------------------------------------------------------------

LIST_PAYLOAD = "list_quizzes"
"""The deep-link payload that asks the private chat for the list of quizzes (the button above
an inline query's empty results). Bank ids never contain ``_``, so it is never taken for one."""

MAX_RESULT_TITLE = 64
"""Characters of an inline result's title (a bank title, clipped with "…"): Telegram shows it
on one line and documents no limit; as :data:`MAX_BUTTON_LABEL`."""

MAX_RESULT_DESCRIPTION = 128
"""UTF-16 units of an inline result's description: Telegram's apps show two or three lines of
it under the title (no documented limit)."""

MAX_CARD_DESCRIPTION = 1024
"""UTF-16 units of the bank description on a shared card, so the card stays far below
:data:`MAX_MESSAGE_UTF16` (Bot API ``InputTextMessageContent``: 1-4096 characters) whatever the
bank's description."""

MAX_RESULTS_BUTTON = 64
"""UTF-16 units of the text of the button above inline results (Bot API
``InlineQueryResultsButton``; its predecessor ``switch_pm_text`` was 1-64 characters)."""


@dataclass(frozen=True)
class Article:
    """An inline query result that posts a bank's card (Bot API ``InlineQueryResultArticle``).

    Attributes:
        id: The result's id: the bank id (1-32 bytes; Telegram allows 1-64, unique per answer).
        title: Plain text, at most :data:`MAX_RESULT_TITLE` characters.
        description: Plain text, at most :data:`MAX_RESULT_DESCRIPTION` UTF-16 units.
        card: The message the result posts (HTML) with its buttons.
    """

    id: str
    title: str
    description: str
    card: Screen


def bank_link(bot_username: str, bank_id: str) -> str:
    """The deep link that starts ``bank_id`` in the bot's private chat (payload: the bank id,
    1-32 characters of ``a-z0-9-``, which always fits: :data:`bot.quiz.bank.ID_PATTERN`)."""
    return deep_link(bot_username, bank_id)


def group_bank_link(bot_username: str, bank_id: str) -> str:
    """The deep link that starts ``bank_id`` as a session in a group the user picks
    (:func:`group_deep_link`; the group's ``/start <bank id>`` obeys its settings)."""
    return group_deep_link(bot_username, bank_id)


def share_row(bank: Bank, t: Catalog) -> tuple[tuple[Button, ...], ...]:
    """A keyboard row with the "Share" button: pick a chat, and "@<bot> <bank id>" is typed
    there, which lists this bank as an inline result (:func:`inline_articles`)."""
    return ((Button(t("inline.button_share"), ShareButton(bank.id)),),)


def bank_card(bank: Bank, t: Catalog, m: Markup, bot_username: str, *,
              in_group: bool) -> Screen:
    """The card a chosen inline result posts: the bank's title, level, question count and
    description, with a "Start quiz" button (:func:`bank_link`) and, ``in_group``, a "Start in
    this group" button (:func:`group_bank_link`). The card is in the sharer's language."""
    lang = bank.language_for(t.language)
    description = clip_utf16(bank.description.get(lang, bank.default_language),
                             MAX_CARD_DESCRIPTION)
    hint = t("inline.card_hint_group" if in_group else "inline.card_hint", bot=bot_username)
    lines = [m.bold(bank.title.get(lang, bank.default_language)),
             m.escape(f"{t('level_line', level=t('level.' + bank.level))} · "
                      f"{t('question_count', count=len(bank.questions))}"),
             "", m.escape(description), "", m.italic(hint)]
    rows: list[tuple[Button, ...]] = [
        (Button(t("inline.button_start"), UrlButton(bank_link(bot_username, bank.id))),)]
    if in_group:
        rows.append((Button(t("inline.button_start_group"),
                            UrlButton(group_bank_link(bot_username, bank.id))),))
    return Screen("\n".join(lines), tuple(rows))


def inline_articles(banks: Iterable[Bank], t: Catalog, m: Markup, bot_username: str, *,
                    in_group: bool) -> list[Article]:
    """One :class:`Article` per bank: its title in the user's language, "level · questions ·
    description" as the description, and its :func:`bank_card`."""
    articles = []
    for bank in banks:
        lang = bank.language_for(t.language)
        summary = (f"{t('level.' + bank.level)} · "
                   f"{t('question_count', count=len(bank.questions))} · "
                   f"{bank.description.get(lang, bank.default_language)}")
        articles.append(Article(
            id=bank.id,
            title=clip(bank.title.get(lang, bank.default_language), MAX_RESULT_TITLE),
            description=clip_utf16(" ".join(summary.split()), MAX_RESULT_DESCRIPTION),
            card=bank_card(bank, t, m, bot_username, in_group=in_group)))
    return articles


def no_match_button(t: Catalog) -> str:
    """The text of the button above an inline query's empty results, which opens the private
    chat on the list of quizzes (:data:`LIST_PAYLOAD`)."""
    return clip_utf16(t("inline.no_match"), MAX_RESULTS_BUTTON)
