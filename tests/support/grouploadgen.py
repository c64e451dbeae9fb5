"""A load generator for group quiz sessions, through the fake Bot API server.

``groups`` supergroups of ``members`` simulated people each. One member of every group sends
``/quiz@<bot>`` (all groups start within ``start_spread`` seconds); then, for every question the
bot posts in a group (a sendMessage with ``g:<session>:<position>:<slot>`` buttons), each member
of that group taps one random option at a random moment, uniformly ``tap_window`` seconds after
the question reached the server. The generator reacts to the bot only through
``FakeBotAPI.observers`` (each answered call); the simulated think times are scheduled with
``loop.call_later``.

It records every tap (when it was pushed, when and how its callback query was answered), every
question (when it was posted, when it was revealed and the per-option counts the reveal shows)
and whether each group got its leaderboard, and sums them up in a :class:`GroupLoadReport`:
sessions finished or stuck, in-time taps refused, answers lost or doubled between the
acknowledgements and the reveals, reveal lag after the deadline, acknowledgement latency.

Used by ``benchmarks/group_load.py`` and ``tests/e2e/test_group_load.py``.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bot import i18n
from bot.kernel.engine import LABELS
from tests.support.fakebotapi import Call, FakeBotAPI
from tests.support.loadgen import LANGUAGE_CODES, percentile

REVEAL_OPTION = re.compile(r"^(?:✅ )?([A-H])\. .* — (\d+)$", re.MULTILINE)
"""An option line of a group reveal (``render.group_reveal``): ``✅ A. text — 3``."""

LEADERBOARD_TITLES = frozenset(i18n.catalog(code)("group_leaderboard") for code in i18n.SUPPORTED)


def reveal_counts(text: str) -> list[int]:
    """The per-option counts of a group reveal's text (as the server shows it: no HTML), in
    label order A, B, ...

    Raises:
        ValueError: the text has no option lines with counts, or they are not A, B, ... in order.
    """
    found = REVEAL_OPTION.findall(text)
    if not found or [label for label, _ in found] != list(LABELS[: len(found)]):
        raise ValueError(f"not a group reveal: {text[:200]!r}")
    return [int(count) for _, count in found]


@dataclass
class Tap:
    """One member's tap on one question.

    Attributes:
        user_id: Who tapped.
        language: The tapper's UI language, as ``i18n.negotiate`` picks it.
        slot: The option tapped (0 = "A").
        query_id: The callback query's id.
        pushed: Monotonic seconds when the tap was queued at the server.
        answered: Server clock seconds when the query was answered (successfully), or None.
        text: The answer's toast text ("" for none), or None while unanswered.
    """

    user_id: int
    language: str
    slot: int
    query_id: str
    pushed: float
    answered: float | None = None
    text: str | None = None

    @property
    def acknowledged(self) -> bool:
        """Whether the toast said the answer was recorded."""
        return self.text == i18n.catalog(self.language)("group_recorded", label=LABELS[self.slot])

    @property
    def refused(self) -> bool:
        """Whether the toast said time was up."""
        return self.text == i18n.catalog(self.language)("group_too_late")


@dataclass
class Question:
    """One question message posted in a group.

    Attributes:
        chat_id: The group.
        message_id: The question's message.
        position: The question's position in the session (from its buttons).
        buttons: The callback data of its answer buttons, in slot order.
        posted: Server clock seconds when the sendMessage was carried out.
        revealed: Server clock seconds when the edit that removed the buttons was carried out.
        counts: The per-option counts the reveal shows (None before the reveal, or if the text
            could not be parsed).
        reveal_text: The reveal's text as the server shows it (None before the reveal).
        taps: The members' taps on it.
        skipped: Taps not made because the buttons were gone (revealed) at the tap's time.
    """

    chat_id: int
    message_id: int
    position: int
    buttons: list[str]
    posted: float
    revealed: float | None = None
    counts: list[int] | None = None
    reveal_text: str | None = None
    taps: list[Tap] = field(default_factory=list)
    skipped: int = 0


@dataclass
class Group:
    """One simulated group.

    Attributes:
        chat_id: Its (negative) chat id.
        members: Member user ids; the first one is the admin who starts the session.
        started: Monotonic seconds when /quiz was sent, or None before.
        questions: Question messages posted, in order.
        leaderboard: Server clock seconds when the leaderboard was posted, or None.
    """

    chat_id: int
    members: list[int]
    started: float | None = None
    questions: list[Question] = field(default_factory=list)
    leaderboard: float | None = None


@dataclass
class GroupLoadReport:
    """The outcome of a group load run (all times in seconds).

    Attributes:
        groups: Sessions started.
        members: Members per group.
        window: The bot's answer window per question.
        finished: Sessions whose leaderboard arrived.
        stuck: Sessions without a leaderboard by the end of the run.
        questions_posted: Question messages posted.
        questions_revealed: Question messages revealed.
        taps: Taps made.
        skipped_taps: Taps not made because the question was already revealed.
        acknowledged: Taps acknowledged as recorded.
        refused_in_time: Taps pushed inside the window (post time + window) answered "time is
            up" (taps are scheduled well inside it; one pushed late by a busy generator and
            refused counts in ``refused_late`` instead).
        refused_late: Taps pushed after the window that were answered "time is up".
        other_answers: Answered taps with any other toast, by text.
        unanswered_queries: Taps whose callback query was never answered successfully.
        lost: Acknowledged answers missing from the reveals' counts.
        doubled: Answers in the reveals' counts beyond those acknowledged.
        acknowledged_unrevealed: Acknowledged answers to questions never revealed.
        wrong_reveals: Reveals whose header names another question number than the one posted
            in that message (their counts are another question's, so they add to ``lost`` and
            ``doubled``).
        early_closes: Reveals more than ``early_margin`` before the deadline (post time +
            window) after every member's answer had been acknowledged.
        premature_closes: Reveals more than ``early_margin`` before the deadline while some
            member's answer had not been acknowledged yet.
        reveal_lags: Reveal time minus deadline, for the other reveals (slightly negative when
            the bot's window started before its question reached the server).
        ack_latencies: Tap pushed -> callback query answered at the server, per answered tap.
        seconds: Wall-clock duration of the run.
        cpu_seconds: The bot's CPU time over the run, when the caller measured it.
    """

    groups: int
    members: int
    window: float
    finished: int
    stuck: int
    questions_posted: int
    questions_revealed: int
    taps: int
    skipped_taps: int
    acknowledged: int
    refused_in_time: int
    refused_late: int
    other_answers: dict[str, int]
    unanswered_queries: int
    lost: int
    doubled: int
    acknowledged_unrevealed: int
    wrong_reveals: int
    early_closes: int
    premature_closes: int
    reveal_lags: list[float]
    ack_latencies: list[float]
    seconds: float
    cpu_seconds: float | None = None

    @property
    def cpu_per_tap(self) -> float | None:
        """The bot's CPU seconds per tap made, when measured."""
        if self.cpu_seconds is None or not self.taps:
            return None
        return self.cpu_seconds / self.taps

    def summary(self) -> dict[str, object]:
        """The figures as a flat dict (milliseconds for latencies, rounded) for JSON/tables."""

        def ms(values: list[float], q: float) -> float | None:
            return round(percentile(values, q) * 1000, 1) if values else None

        return {
            "groups": self.groups,
            "members": self.members,
            "window_s": self.window,
            "finished": self.finished,
            "stuck": self.stuck,
            "questions_posted": self.questions_posted,
            "questions_revealed": self.questions_revealed,
            "taps": self.taps,
            "skipped_taps": self.skipped_taps,
            "acknowledged": self.acknowledged,
            "refused_in_time": self.refused_in_time,
            "refused_late": self.refused_late,
            "other_answers": dict(self.other_answers),
            "unanswered_queries": self.unanswered_queries,
            "lost": self.lost,
            "doubled": self.doubled,
            "acknowledged_unrevealed": self.acknowledged_unrevealed,
            "wrong_reveals": self.wrong_reveals,
            "early_closes": self.early_closes,
            "premature_closes": self.premature_closes,
            "deadline_reveals": len(self.reveal_lags),
            "reveal_lag_p50_ms": ms(self.reveal_lags, 50),
            "reveal_lag_p95_ms": ms(self.reveal_lags, 95),
            "reveal_lag_max_ms": (
                round(max(self.reveal_lags) * 1000, 1) if self.reveal_lags else None
            ),
            "ack_p50_ms": ms(self.ack_latencies, 50),
            "ack_p95_ms": ms(self.ack_latencies, 95),
            "ack_p99_ms": ms(self.ack_latencies, 99),
            "seconds": round(self.seconds, 2),
            "cpu_seconds": None if self.cpu_seconds is None else round(self.cpu_seconds, 2),
            "cpu_ms_per_tap": (
                None if self.cpu_per_tap is None else round(self.cpu_per_tap * 1000, 3)
            ),
        }


class GroupLoadGenerator:
    """Plays group quiz sessions in ``groups`` supergroups against whatever bot polls ``fake``.

    Args:
        fake: The fake Bot API server the bot polls.
        groups: How many supergroups (one session each).
        members: Members per group (each taps every question once).
        tap_window: (lo, hi): each member taps uniformly in [lo, hi] seconds after the question
            reached the server; keep ``hi`` well below ``window`` so every tap is in time.
        window: The bot's answer window per question, in seconds (QUIZBOT_QUESTION_SECONDS).
        questions: Questions per session (the bank's size).
        start_spread: All sessions start within this many seconds.
        slack: Seconds to wait for leaderboards beyond ``start_spread + questions * window``
            before counting the remaining sessions as stuck.
        answer_grace: Seconds to wait at the end for callback queries still unanswered.
        early_margin: A reveal more than this many seconds before the deadline is an early
            close (or a premature one); later ones are deadline reveals.
        first_group_id: Group chat ids count down from here.
        first_user_id: Member user ids count up from here.
        seed: Seed for start times, options and tap times.

    Raises:
        ValueError: ``tap_window`` does not lie inside [0, window).
    """

    def __init__(
        self,
        fake: FakeBotAPI,
        *,
        groups: int,
        members: int,
        tap_window: tuple[float, float],
        window: float,
        questions: int = 8,
        start_spread: float = 5.0,
        slack: float = 30.0,
        answer_grace: float = 5.0,
        early_margin: float = 1.0,
        first_group_id: int = -1002000000000,
        first_user_id: int = 300_000,
        seed: int = 0,
    ) -> None:
        lo, hi = tap_window
        if not 0 <= lo <= hi < window:
            raise ValueError(f"tap_window {tap_window} must lie inside [0, {window})")
        self.fake = fake
        self.tap_window = (lo, hi)
        self.window = window
        self.questions = questions
        self.start_spread = start_spread
        self.slack = slack
        self.answer_grace = answer_grace
        self.early_margin = early_margin
        self._random = random.Random(seed)
        self.groups: dict[int, Group] = {}
        """The simulated groups by chat id (filled in as the run goes)."""
        self.languages: dict[int, str] = {}
        """Each member's UI language as the bot negotiates it."""
        self._questions: dict[tuple[int, int], Question] = {}
        self._taps: dict[str, Tap] = {}
        self._handles: list[asyncio.TimerHandle] = []
        self._unfinished = groups
        self._outstanding = 0
        self._done = asyncio.Event()
        self._drained = asyncio.Event()
        for number in range(groups):
            chat_id = first_group_id - number
            ids = [first_user_id + number * members + i for i in range(members)]
            for i, user_id in enumerate(ids):
                code = LANGUAGE_CODES[(number + i) % len(LANGUAGE_CODES)]
                fake.add_user(user_id, f"Member {number}-{i}", language_code=code)
                self.languages[user_id] = i18n.negotiate(code)
            fake.add_group(chat_id, f"Load group {number}", admins=ids[:1], members=ids[1:])
            self.groups[chat_id] = Group(chat_id, ids)

    # -- reacting to the bot ------------------------------------------------------------------

    def _observe(self, call: Call) -> None:
        """Note question posts, reveals, leaderboards and callback answers; schedule taps."""
        if call.status != 200:
            return
        if call.method == "answerCallbackQuery":
            tap = self._taps.get(str(call.params.get("callback_query_id")))
            if tap is not None and tap.answered is None:
                tap.answered, tap.text = call.at, str(call.params.get("text") or "")
                self._outstanding -= 1
                if self._outstanding == 0:
                    self._drained.set()
            return
        if call.method not in ("sendMessage", "editMessageText"):
            return
        message = call.result
        group = self.groups.get(message.get("chat", {}).get("id"))
        if group is None:
            return
        datas = [
            b.get("callback_data", "")
            for row in message.get("reply_markup", {}).get("inline_keyboard", [])
            for b in row
        ]
        if call.method == "sendMessage" and datas and all(d.startswith("g:") for d in datas):
            self._posted(group, message, datas, call.at)
        elif call.method == "sendMessage" and any(
            t in message.get("text", "") for t in LEADERBOARD_TITLES
        ):
            if group.leaderboard is None:
                group.leaderboard = call.at
                self._unfinished -= 1
                if self._unfinished == 0:
                    self._done.set()
        elif call.method == "editMessageText" and not any(d.startswith("g:") for d in datas):
            # the reveal: no answer buttons left (a link button may stay)
            question = self._questions.get((group.chat_id, message["message_id"]))
            if question is not None and question.revealed is None:
                question.revealed, question.reveal_text = call.at, message.get("text", "")
                try:
                    question.counts = reveal_counts(message.get("text", ""))
                except ValueError:
                    question.counts = None

    def _posted(self, group: Group, message: dict, datas: list[str], at: float) -> None:
        """A question appeared: every member taps one option within ``tap_window``."""
        question = Question(
            group.chat_id, message["message_id"], int(datas[0].split(":")[2]), datas, at
        )
        group.questions.append(question)
        self._questions[(group.chat_id, question.message_id)] = question
        loop = asyncio.get_running_loop()
        lo, hi = self.tap_window
        for user_id in group.members:
            slot = self._random.randrange(len(datas))
            when = at + self._random.uniform(lo, hi)
            self._handles.append(
                loop.call_at(
                    loop.time() + (when - time.monotonic()), self._tap, question, user_id, slot
                )
            )

    def _tap(self, question: Question, user_id: int, slot: int) -> None:
        if question.revealed is not None:  # the buttons are gone: nothing to tap
            question.skipped += 1
            return
        update = self.fake.tap(
            user_id,
            question.chat_id,
            question.message_id,
            question.buttons[slot],
            check_button=False,
        )
        query_id = update["callback_query"]["id"]
        tap = Tap(user_id, self.languages[user_id], slot, query_id, time.monotonic())
        question.taps.append(tap)
        self._taps[query_id] = tap
        self._outstanding += 1
        self._drained.clear()

    def _start(self, group: Group) -> None:
        group.started = time.monotonic()
        self.fake.send_message(
            group.members[0], f"/quiz@{self.fake.bot_username}", chat_id=group.chat_id
        )

    # -- the run --------------------------------------------------------------------------------

    async def run(self, cpu_clock: Callable[[], float] | None = None) -> GroupLoadReport:
        """Start every session, play until every leaderboard arrived (or the expected duration
        plus ``slack`` passed), and report.

        Args:
            cpu_clock: Returns the bot's CPU seconds so far (e.g. from /proc); read at the start
                and the end to fill in ``cpu_seconds``.
        """
        loop = asyncio.get_running_loop()
        self._done.clear()
        self._drained.set()
        self.fake.observers.append(self._observe)
        cpu_before = cpu_clock() if cpu_clock else None
        started = time.monotonic()
        try:
            for group in self.groups.values():
                self._handles.append(
                    loop.call_later(self._random.uniform(0, self.start_spread), self._start, group)
                )
            limit = self.start_spread + self.questions * self.window + self.slack
            try:
                await asyncio.wait_for(self._done.wait(), limit)
            except TimeoutError:
                pass
            ended = time.monotonic()
            for handle in self._handles:  # taps of questions still open when we gave up
                handle.cancel()
            try:
                await asyncio.wait_for(self._drained.wait(), self.answer_grace)
            except TimeoutError:
                pass
            cpu = cpu_clock() - cpu_before if cpu_clock and cpu_before is not None else None
        finally:
            self.fake.observers.remove(self._observe)
        return self._report(ended - started, cpu)

    def _report(self, seconds: float, cpu: float | None) -> GroupLoadReport:
        questions = [q for g in self.groups.values() for q in g.questions]
        taps = [t for q in questions for t in q.taps]
        members = len(next(iter(self.groups.values())).members) if self.groups else 0
        lost = doubled = unrevealed = early = premature = 0
        refused_in_time = refused_late = wrong = 0
        lags: list[float] = []
        for question in questions:
            for tap in question.taps:
                if tap.refused and tap.pushed <= question.posted + self.window:
                    refused_in_time += 1
                elif tap.refused:
                    refused_late += 1
            acked = [0] * len(question.buttons)
            for tap in question.taps:
                if tap.acknowledged:
                    acked[tap.slot] += 1
            if question.revealed is None:
                unrevealed += sum(acked)
                continue
            counts = question.counts or [0] * len(acked)
            headers = {
                i18n.catalog(code)(
                    "question_header", number=question.position + 1, total=self.questions
                )
                for code in i18n.SUPPORTED
            }
            if not any(h in (question.reveal_text or "") for h in headers):
                wrong += 1
            lost += sum(max(0, a - c) for a, c in zip(acked, counts, strict=False))
            doubled += sum(max(0, c - a) for a, c in zip(acked, counts, strict=False))
            deadline = question.posted + self.window
            all_in = (
                sum(
                    1
                    for t in question.taps
                    if t.answered is not None and t.answered <= question.revealed
                )
                == members
            )
            if question.revealed < deadline - self.early_margin:
                early += all_in
                premature += not all_in
            else:
                lags.append(question.revealed - deadline)
        others = Counter(
            t.text for t in taps if t.text is not None and not t.acknowledged and not t.refused
        )
        return GroupLoadReport(
            groups=len(self.groups),
            members=members,
            window=self.window,
            finished=sum(g.leaderboard is not None for g in self.groups.values()),
            stuck=sum(g.leaderboard is None for g in self.groups.values()),
            questions_posted=len(questions),
            questions_revealed=sum(q.revealed is not None for q in questions),
            taps=len(taps),
            skipped_taps=sum(q.skipped for q in questions),
            acknowledged=sum(t.acknowledged for t in taps),
            refused_in_time=refused_in_time,
            refused_late=refused_late,
            other_answers=dict(others),  # type: ignore[arg-type]
            unanswered_queries=sum(t.answered is None for t in taps),
            lost=lost,
            doubled=doubled,
            acknowledged_unrevealed=unrevealed,
            wrong_reveals=wrong,
            early_closes=early,
            premature_closes=premature,
            reveal_lags=lags,
            ack_latencies=[t.answered - t.pushed for t in taps if t.answered is not None],
            seconds=seconds,
            cpu_seconds=cpu,
        )
