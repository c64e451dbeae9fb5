"""Rendering: core values -> message text and inline keyboards; the callback-data codec.

Screens are built once for both front ends: :class:`Html` markup for Telegram (``parse_mode``
HTML, with ``<``, ``>`` and ``&`` escaped as the Bot API requires) and :class:`Plain` for the
terminal. A :class:`Screen` holds the text and the keyboard as plain data; ``bot.telegram``
turns it into an ``InlineKeyboardMarkup``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.i18n import SUPPORTED, Catalog
from bot.quiz.bank import Bank
from bot.quiz.engine import LABELS, Attempt, QuestionView, Result, result, view
from bot.quiz.group import GroupSession, Standing
from bot.quiz.ports import BankStats

MAX_CALLBACK_DATA_BYTES = 64
"""Bot API: ``InlineKeyboardButton.callback_data`` is 1-64 bytes."""

MAX_MESSAGE_UTF16 = 4096
"""Bot API: message text is 1-4096 characters after entity parsing, counted in UTF-16 units."""


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


CallbackButton = (AnswerButton | NextButton | RetakeButton | ReviewButton | LanguageButton
                  | BankButton | GroupAnswerButton)

_INT = r"(0|[1-9][0-9]{0,17})"
_ID = r"([a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?)"
_DECODERS: Sequence[tuple[re.Pattern[str], type]] = (
    (re.compile(rf"a:{_INT}:{_INT}:([0-7])"), AnswerButton),
    (re.compile(rf"n:{_INT}:{_INT}"), NextButton),
    (re.compile(rf"r:{_ID}"), RetakeButton),
    (re.compile(rf"v:{_INT}"), ReviewButton),
    (re.compile(r"l:([a-z]{2,3})"), LanguageButton),
    (re.compile(rf"b:{_ID}"), BankButton),
    (re.compile(rf"g:{_INT}:{_INT}:([0-7])"), GroupAnswerButton),
)
_PREFIX = {AnswerButton: "a", NextButton: "n", RetakeButton: "r", ReviewButton: "v",
           LanguageButton: "l", BankButton: "b", GroupAnswerButton: "g"}


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
            groups = [int(g) if g.isdigit() and kind not in (RetakeButton, BankButton)
                      else g for g in match.groups()]
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


HTML = Html()
PLAIN = Plain()


@dataclass(frozen=True)
class UrlButton:
    """An inline keyboard button that opens ``url``."""

    url: str


@dataclass(frozen=True)
class Button:
    """An inline keyboard button: a label and either callback data or a URL."""

    label: str
    action: CallbackButton | UrlButton


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


def question(bank: Bank, v: QuestionView, t: Catalog, m: Markup,
             make_button: Callable[[int], CallbackButton]) -> Screen:
    """A question with its options labelled A-D, and one button per label.

    Args:
        make_button: Slot (0 = "A") -> the callback button for choosing it.
    """
    buttons = tuple(Button(LABELS[slot], make_button(slot)) for slot in range(len(v.slots)))
    return Screen("\n".join(_question_lines(bank, v, t, m, marks=False)), (buttons,))


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


def outcome(bank: Bank, attempt: Attempt, t: Catalog, m: Markup) -> Screen:
    """The end of an attempt: the score, the missed questions, retake and review buttons."""
    lang = bank.language_for(t.language)
    res: Result = result(attempt)
    lines = [m.bold(f"🏁 {t('result_title')}"), m.bold(bank.title.get(lang, bank.default_language)),
             "", m.escape(t("result_score", score=res.score, total=res.total))]
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
    return Screen("\n".join(lines), tuple((b,) for b in buttons))


def _in_bank(bank: Bank, question_ids: Iterable[str]) -> tuple[str, ...]:
    """The ids the bank still has: an answered question removed from the bank without a version
    bump still counts in the score, but has no text left to show."""
    present = {question.id for question in bank.questions}
    return tuple(question_id for question_id in question_ids if question_id in present)


def review(bank: Bank, attempt: Attempt, t: Catalog, m: Markup) -> list[Screen]:
    """The missed questions with the correct answers and explanations, split into messages of at
    most :data:`MAX_MESSAGE_UTF16` UTF-16 units."""
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
    return [Screen(text) for text in pack(blocks)]


def pack(blocks: Iterable[str], limit: int = MAX_MESSAGE_UTF16,
         separator: str = "\n\n") -> list[str]:
    """Join blocks into as few texts as possible, each at most ``limit`` UTF-16 units.

    A block is never split (a block over the limit is a bug of the caller).
    """
    texts: list[str] = []
    for block in blocks:
        if texts and utf16_length(texts[-1] + separator + block) <= limit:
            texts[-1] += separator + block
        else:
            texts.append(block)
    return texts


def preview(bank: Bank, t: Catalog, m: Markup) -> Screen:
    """Title, level, description and the questions without their answers."""
    lang = bank.language_for(t.language)
    head = intro(bank, t, m)
    lines = [head.text, "", m.bold(t("preview_header"))]
    for number, q in enumerate(bank.questions, start=1):
        lines.append(f"{number}. {m.escape(q.prompt.get(lang, bank.default_language))}")
    lines += ["", m.italic(t("preview_footer"))]
    return Screen("\n".join(lines), head.keyboard)


def stats(records: Sequence[BankStats], banks: Mapping[str, Bank], t: Catalog,
          m: Markup) -> Screen:
    """The user's attempts, best and last score and most-missed questions, per bank."""
    if not records:
        return Screen(m.escape(t("stats_none")))
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
    return Screen("\n".join(lines))


def language_picker(current: str, t: Catalog, m: Markup) -> Screen:
    """A prompt with one button per supported language, named in its own script."""
    buttons = tuple(
        Button(("✓ " if code == current else "") + t.language_name(code), LanguageButton(code))
        for code in SUPPORTED)
    return Screen(m.escape(t("language_prompt")), (buttons,))


def bank_choice(banks: Iterable[Bank], t: Catalog, m: Markup, *, header: str) -> Screen:
    """``header`` and one button per bank (its title in the user's language)."""
    rows = tuple((Button(b.title.get(b.language_for(t.language), b.default_language),
                         BankButton(b.id)),) for b in banks)
    return Screen(m.escape(header), rows)


# --- group sessions ------------------------------------------------------------------------

def group_question(bank: Bank, session: GroupSession, t: Catalog, m: Markup, *,
                   starter_name: str | None = None) -> Screen:
    """A group session's open question, with A-D buttons; the first one carries the
    announcement (who started it, how many questions, seconds per question)."""
    v = _session_view(bank, session, session.position)
    lines = _question_lines(bank, v, t, m, marks=False)
    header: list[str] = []
    if starter_name is not None:
        header = [m.escape(t("group_announce", name=starter_name)),
                  m.escape(f"{t('question_count', count=session.total)} · "
                           f"{t('group_seconds', count=round(session.question_seconds))}"), ""]
    else:
        lines.insert(2, m.escape(t("group_seconds", count=round(session.question_seconds))))
    buttons = tuple(Button(LABELS[slot], GroupAnswerButton(session.id, session.position, slot))
                    for slot in range(len(v.slots)))
    return Screen("\n".join(header + lines), (buttons,))


def group_reveal(bank: Bank, session: GroupSession, position: int, counts: Sequence[int],
                 t: Catalog, m: Markup) -> Screen:
    """A closed group question: the correct option, how many chose each option, the
    explanation and its source (no buttons)."""
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
    return Screen("\n".join(lines))


MEDALS = ("🥇", "🥈", "🥉")


def group_leaderboard(bank: Bank, session: GroupSession, standings: Sequence[Standing],
                      t: Catalog, m: Markup, *, stopped_by: str | None = None) -> Screen:
    """The leaderboard: rank, name (escaped; no mention, so nobody is notified), score and
    total answer time. ``stopped_by`` names who stopped the session early."""
    lang = bank.language_for(t.language)
    lines = []
    if stopped_by is not None:
        lines += [m.escape(t("group_stopped", name=stopped_by)), ""]
    lines += [m.bold(t("group_leaderboard")), m.bold(bank.title.get(lang, bank.default_language)),
              ""]
    if not standings:
        lines.append(m.escape(t("group_no_players")))
    for standing in standings:
        medal = standing.rank <= len(MEDALS) and standing.score > 0  # no gold for 0 points
        place = MEDALS[standing.rank - 1] if medal else f"{standing.rank}."
        score = t("group_score_line", score=standing.score, total=session.total,
                  seconds=t.decimal(standing.seconds))
        lines.append(f"{place} {m.bold(standing.name)} — {m.escape(score)}")
    return Screen("\n".join(lines))


def _session_view(bank: Bank, session: GroupSession, position: int) -> QuestionView:
    question = bank.question(session.plan.question_order[position])
    slots = session.plan.option_orders[position]
    return QuestionView(question=question, position=position, total=session.total, slots=slots,
                        correct_slot=slots.index(question.correct_index))
