"""A load generator: simulated Telegram users playing a quiz through the fake Bot API server.

Each simulated user sends /start, then for every question: reads it (``think`` seconds), taps an
option, waits for the feedback edit, taps "next" and waits for the next question (a new message
or an edit of the old one: the baseline bot edits). It works with any bot whose question
messages carry buttons ``a:<id>:<position>:<slot>``, whose feedback carries ``n:<id>:<position>``,
and whose final message carries ``r:...``: quizbot and ``benchmarks/baseline_bot.py``.

Used by the benchmark (``benchmarks/run.py``) and by the fault and crash tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tests.support.fakebotapi import Call, FakeBotAPI

MAX_RETAP_WAIT = 24.0
"""The longest a user waits between two tries of the same step (seconds)."""

LANGUAGE_CODES: tuple[str | None, ...] = ("en", "hi", "el-GR", None)


@dataclass
class UserRun:
    """What one simulated user did and saw.

    Attributes:
        user_id: The Telegram user id.
        answers: Option taps whose feedback arrived.
        finished: Whether the final message arrived.
        stalled: Whether the user waited ``step_timeout`` for the bot in vain.
        feedback_seen: Positions whose feedback edit the server carried out.
        error: What went wrong, if anything.
    """

    user_id: int
    answers: int = 0
    finished: bool = False
    stalled: bool = False
    feedback_seen: list[int] = field(default_factory=list)
    error: str | None = None


@dataclass
class LoadReport:
    """The outcome of a load run.

    Attributes:
        users: Per-user results.
        latencies: Seconds from a tap being available to the bot until its feedback edit
            reached the server, one per answer.
        callback_latencies: Seconds from a tap being available until its callback query was
            answered, one per answered query.
        unanswered_queries: Callback queries never answered (successfully).
        late_queries: Callback queries answered after ``query_deadline`` seconds.
        started: Monotonic time of the first action.
        ended: Monotonic time when the last user finished (or stalled).
    """

    users: list[UserRun]
    latencies: list[float]
    callback_latencies: list[float]
    unanswered_queries: int
    late_queries: int
    started: float
    ended: float

    @property
    def answers(self) -> int:
        """Answers whose feedback arrived."""
        return sum(u.answers for u in self.users)

    @property
    def seconds(self) -> float:
        """Wall-clock seconds of the run."""
        return self.ended - self.started

    @property
    def stalled(self) -> int:
        """Users who got stuck."""
        return sum(u.stalled for u in self.users)

    @property
    def finished(self) -> int:
        """Users who got to the end."""
        return sum(u.finished for u in self.users)


def percentile(values: Iterable[float], q: float) -> float:
    """The ``q``-th percentile (0-100) by nearest rank; NaN for no values."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


class LoadGenerator:
    """Plays ``users`` simulated users concurrently against whatever bot polls ``fake``.

    Args:
        fake: The fake Bot API server the bot polls.
        users: How many users.
        questions: Questions per quiz (the bank's size).
        think: Seconds each user reads a question before tapping (randomised +-50%).
        first_user_id: User ids are consecutive from here.
        step_timeout: Seconds a user waits for the bot before counting as stalled.
        query_deadline: A callback query answered later than this (seconds) counts as late
            (Telegram rejects answers after about 15 s).
        retap_after: Seconds without a reply after which a user taps the same button (or sends
            /start) again, as people do (None: never). Lets users go on after a crash lost
            their tap, or a message the bot did not send twice because it may have arrived.
            Each further try of one step waits twice as long (up to :data:`MAX_RETAP_WAIT`).
        seed: Seed for option choices and reading times.
        one_tap: Play the one-tap flow: after an option tap, wait for the next question (or
            the score) instead of tapping "next" on the feedback.
    """

    def __init__(
        self,
        fake: FakeBotAPI,
        users: int,
        *,
        questions: int = 8,
        think: float = 0.0,
        first_user_id: int = 100_000,
        step_timeout: float = 30.0,
        query_deadline: float = 15.0,
        retap_after: float | None = None,
        seed: int = 0,
        one_tap: bool = False,
    ) -> None:
        self.fake = fake
        self.one_tap = one_tap
        self.user_ids = list(range(first_user_id, first_user_id + users))
        self.questions = questions
        self.think = think
        self.step_timeout = step_timeout
        self.query_deadline = query_deadline
        self.retap_after = retap_after
        self.retaps = 0
        self._random = random.Random(seed)
        self._wakeups: dict[int, asyncio.Event] = {}
        self.runs: list[UserRun] = []
        """Per-user records (filled in as the run goes)."""
        self._query_pushed: dict[str, float] = {}
        self._query_answered: dict[str, float] = {}
        self._answered = asyncio.Event()
        self._pending: dict[tuple[int, int], float] = {}  # (chat, message) -> tap pushed
        self._latencies: list[float] = []
        for number, user_id in enumerate(self.user_ids):
            fake.add_user(
                user_id,
                f"User {number}",
                language_code=LANGUAGE_CODES[number % len(LANGUAGE_CODES)],
            )

    def _observe(self, call: Call) -> None:
        """Wake the user whose chat a call touched; note callback query answers and edits."""
        if call.method == "answerCallbackQuery":
            if call.status == 200:
                query_id = str(call.params.get("callback_query_id"))
                self._query_answered.setdefault(query_id, call.at)
                self._answered.set()
            return
        chat_id = call.params.get("chat_id")
        if call.method == "editMessageText" and call.status in (0, 200):
            pushed = self._pending.pop((chat_id, call.params.get("message_id")), None)
            if pushed is not None:  # the feedback edit of an answer tap reached the server
                self._latencies.append(call.at - pushed)
        event = self._wakeups.get(chat_id)  # type: ignore[arg-type]
        if event is not None:
            event.set()

    async def _until(
        self,
        user_id: int,
        predicate: object,
        retap: tuple[dict, str] | Callable[[], object] | None = None,
    ) -> object:
        """Wait until ``predicate()`` is truthy, waking on every call about the user's chat;
        tap ``retap`` (message, data) again, or call it, every ``retap_after`` seconds meanwhile.

        Raises:
            TimeoutError: after ``step_timeout`` seconds.
        """
        event = self._wakeups[user_id]
        deadline = time.monotonic() + self.step_timeout
        wait = self.retap_after or float("inf")
        next_retap = time.monotonic() + wait
        while True:
            found = predicate()  # type: ignore[operator]
            if found:
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            if retap is not None and time.monotonic() >= next_retap:
                self.retaps += 1
                if callable(retap):
                    retap()
                else:
                    self._tap(user_id, *retap)
                # as a person does, each try waits longer: 200 users tapping every few
                # seconds at a bot slowed by a loaded machine would keep it slow
                wait = min(2 * wait, MAX_RETAP_WAIT)
                next_retap = time.monotonic() + wait
            event.clear()
            try:
                await asyncio.wait_for(event.wait(), min(remaining, 1.0))
            except TimeoutError:
                pass

    def _bot_messages(self, user_id: int) -> list[dict]:
        return [
            m
            for m in self.fake.peek_messages(user_id)
            if m.get("from", {}).get("id") == self.fake.bot_id
        ]

    def _with_button(self, user_id: int, prefix: str, position: int | None = None) -> dict | None:
        """The newest bot message with a button ``prefix...`` (for ``position`` if given)."""
        for message in reversed(self._bot_messages(user_id)):
            for row in message.get("reply_markup", {}).get("inline_keyboard", []):
                for button in row:
                    data = button.get("callback_data", "")
                    if data.startswith(prefix) and (
                        position is None or data.split(":")[2] == str(position)
                    ):
                        return message
        return None

    async def _play(self, run: UserRun) -> None:
        user_id = run.user_id
        self.fake.send_message(user_id, "/start")
        await self._until(
            user_id,
            lambda: self._with_button(user_id, "a:", 0),
            retap=lambda: self.fake.send_message(user_id, "/start"),
        )
        for position in range(self.questions):
            question = await self._until(
                user_id, lambda p=position: self._with_button(user_id, "a:", p)
            )
            assert isinstance(question, dict)
            if self.think:
                await asyncio.sleep(self.think * self._random.uniform(0.5, 1.5))
            answers = [
                b["callback_data"]
                for row in question["reply_markup"]["inline_keyboard"]
                for b in row
            ]
            data = self._random.choice(answers)
            self._tap(user_id, question, data)
            if self.one_tap:  # the feedback is edited in, and what follows sent below it
                await self._until(
                    user_id,
                    lambda p=position: (
                        self._with_button(user_id, "a:", p + 1)
                        if p + 1 < self.questions
                        else self._with_button(user_id, "r:")
                    ),
                    retap=(question, data),
                )
                run.answers += 1
                run.feedback_seen.append(position)
                continue
            feedback = await self._until(
                user_id,
                lambda p=position: self._with_button(user_id, "n:", p),
                retap=(question, data),
            )
            assert isinstance(feedback, dict)
            run.answers += 1
            run.feedback_seen.append(position)
            next_data = next(
                b["callback_data"]
                for row in feedback["reply_markup"]["inline_keyboard"]
                for b in row
                if b["callback_data"].startswith("n:")
            )
            self._tap(user_id, feedback, next_data)
            if position + 1 < self.questions:
                await self._until(
                    user_id,
                    lambda p=position + 1: self._with_button(user_id, "a:", p),
                    retap=(feedback, next_data),
                )
        if not self.one_tap:
            await self._until(
                user_id, lambda: self._with_button(user_id, "r:"), retap=(feedback, next_data)
            )
        run.finished = True

    def _tap(self, user_id: int, message: dict, data: str) -> str:
        update = self.fake.tap(user_id, user_id, message["message_id"], data, check_button=False)
        query_id = update["callback_query"]["id"]
        self._query_pushed[query_id] = time.monotonic()
        if data.startswith("a:"):
            self._pending.setdefault((user_id, message["message_id"]), self._query_pushed[query_id])
        return query_id

    async def _run_user(self, run: UserRun) -> None:
        try:
            await self._play(run)
        except TimeoutError:
            run.stalled = True
        except Exception as exc:  # report, don't hide: a broken user is a failed run
            run.error = repr(exc)
            run.stalled = True

    async def run(self) -> LoadReport:
        """Play every user to the end (or until stalled) and report."""
        self._wakeups = {user_id: asyncio.Event() for user_id in self.user_ids}
        self.fake.observers.append(self._observe)
        runs = self.runs = [UserRun(user_id) for user_id in self.user_ids]
        started = time.monotonic()
        self._answered = asyncio.Event()
        try:
            await asyncio.gather(*(self._run_user(run) for run in runs))
            ended = time.monotonic()
            # callback answers may still be on their way: wait for them (a query unanswered
            # after Telegram's deadline counts as unanswered)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.query_deadline):
                    while set(self._query_pushed) - set(self._query_answered):
                        self._answered.clear()
                        await self._answered.wait()
        finally:
            self.fake.observers.remove(self._observe)
        callback_latencies = [
            self._query_answered[q] - pushed
            for q, pushed in self._query_pushed.items()
            if q in self._query_answered
        ]
        unanswered = sum(1 for q in self._query_pushed if q not in self._query_answered)
        late = sum(1 for value in callback_latencies if value > self.query_deadline)
        return LoadReport(
            runs, self._latencies, callback_latencies, unanswered, late, started, ended
        )
