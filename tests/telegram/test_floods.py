"""Floods: replies to groups that give way to the session, per-sender limits, end to end."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from bot import i18n
from bot.telegram.calls import session_calls
from bot.telegram.groupminute import GROUP_MAX_RATE
from bot.telegram.jobsends import job_calls
from bot.telegram.limits import SESSION_RESERVE, Dropped, QuizRateLimiter
from bot.telegram.ordering import MAX_QUEUED_PER_KEY, PerUserOrderedProcessor
from tests.support.botrun import RunningBot
from tests.support.fakebotapi import FakeBotAPI

GROUP = -1001234567890
WINDOW = 1.5  # seconds per question


class Recorder:
    """Bot API calls that succeed at once; records (endpoint, chat, text) in call order."""

    def __init__(self) -> None:
        self.made: list[tuple[str, object, object]] = []

    async def run(
        self,
        limiter: QuizRateLimiter,
        chat: object,
        text: str = "hi",
        endpoint: str = "sendMessage",
    ) -> bool:
        data = {"chat_id": chat, "text": text}

        async def callback() -> bool:
            self.made.append((endpoint, chat, text))
            return True

        return await limiter.process_request(callback, (), {}, endpoint, data, None)  # type: ignore[return-value]


async def test_a_repeated_reply_to_a_group_is_sent_once_and_a_session_call_always():
    """The same reply to one group twice within reply_seconds: the second is dropped; another
    text, another group, a private chat and the session's own call go out."""
    limiter, calls = QuizRateLimiter(reply_seconds=3600), Recorder()
    assert await calls.run(limiter, GROUP, "help")
    with pytest.raises(Dropped, match="same reply"):
        await calls.run(limiter, GROUP, "help")
    assert await calls.run(limiter, GROUP, "a session is running")
    assert await calls.run(limiter, -100777, "help")
    assert await calls.run(limiter, 42, "help")
    assert await calls.run(limiter, 42, "help")  # private chats: no such rule
    with session_calls():
        assert await calls.run(limiter, GROUP, "help")
    assert [c[1:] for c in calls.made] == [
        (GROUP, "help"),
        (GROUP, "a session is running"),
        (-100777, "help"),
        (42, "help"),
        (42, "help"),
        (GROUP, "help"),
    ]
    assert limiter.dropped == 1


async def test_a_jobs_messages_are_never_dropped_as_replies_and_topics_count_apart():
    """A job's sends (homework results in two forum topics, the same text twice; a question of
    the day during a flood wait) are all sent: the job waits the flood out rather than losing
    its message (issue 31, items 11 and 13). Replies in two topics of one group are two
    replies, the same text in one topic one."""
    limiter, calls = QuizRateLimiter(reply_seconds=3600), Recorder()
    with job_calls():
        assert await calls.run(limiter, GROUP, "results")
        assert await calls.run(limiter, GROUP, "results")
        limiter._hold(GROUP, 0.05)  # as a 429 with retry_after would
        assert await calls.run(limiter, GROUP, "question of the day")
    assert [text for _, _, text in calls.made] == ["results", "results", "question of the day"]

    async def reply(topic: int) -> bool:
        return await limiter.process_request(
            lambda: asyncio.sleep(0, True),
            (),
            {},
            "sendMessage",
            {"chat_id": GROUP, "text": "help", "message_thread_id": topic},
            None,
        )

    assert await reply(7) and await reply(8)
    with pytest.raises(Dropped, match="same reply"):
        await reply(7)


async def test_replies_leave_the_groups_last_messages_to_its_session():
    """Replies spend a group's budget only down to SESSION_RESERVE; the session's question,
    reveal and leaderboard still go out at once, without waiting for the budget to refill."""
    limiter, calls = QuizRateLimiter(reply_seconds=3600), Recorder()
    replies = GROUP_MAX_RATE - SESSION_RESERVE
    for i in range(replies):
        assert await calls.run(limiter, GROUP, f"reply {i}")
    with pytest.raises(Dropped, match="budget"):
        await calls.run(limiter, GROUP, "one reply too many")
    with pytest.raises(Dropped, match="budget"):  # edits outside a session are replies too
        await calls.run(limiter, GROUP, "an edit", endpoint="editMessageText")
    assert await calls.run(limiter, -100777, "a reply elsewhere") is True
    with session_calls():
        for step in ("question", "reveal", "leaderboard"):
            # at once: a wait for the budget to refill would take 3 s (20 a minute)
            assert await asyncio.wait_for(calls.run(limiter, GROUP, step), timeout=60)
    assert [c[2] for c in calls.made[-3:]] == ["question", "reveal", "leaderboard"]
    assert limiter.dropped == 2


async def test_once_the_session_is_over_a_command_gets_its_answer_from_the_reserve():
    """After a full session filled the group's minute, the session's reserve is no longer kept
    once its runner says it is over: /stop with no session gets its answer (issue 35, item 11:
    no reply at all); a session calling again takes its reserve back."""
    limiter, calls = QuizRateLimiter(reply_seconds=3600), Recorder()
    with session_calls():
        for i in range(GROUP_MAX_RATE - SESSION_RESERVE):
            assert await calls.run(limiter, GROUP, f"question {i}")
    with pytest.raises(Dropped, match="budget"):
        await calls.run(limiter, GROUP, "no session is running")
    limiter.session_over(GROUP)
    assert await calls.run(limiter, GROUP, "no session is running, said once more")
    with session_calls():
        assert await calls.run(limiter, GROUP, "a new session's question")
    with pytest.raises(Dropped, match="budget"):
        await calls.run(limiter, GROUP, "a reply while it runs")


async def test_a_reply_to_a_group_in_a_flood_wait_is_dropped_not_queued():
    """While a group is held by a 429, a reply to it is dropped at once; the session's call
    waits the flood out, giving its processing slot up meanwhile (the ``waiting`` hook)."""
    entered: list[str] = []

    @contextlib.asynccontextmanager
    async def waiting() -> AsyncIterator[None]:
        entered.append("released")
        yield
        entered.append("taken again")

    limiter = QuizRateLimiter(waiting=waiting, reply_seconds=3600)
    limiter._hold(GROUP, 0.2)  # as a 429 with retry_after would
    calls = Recorder()
    with pytest.raises(Dropped, match="flood wait"):
        await calls.run(limiter, GROUP, "help")
    assert entered == []  # dropped without waiting
    with session_calls():
        assert await calls.run(limiter, GROUP, "question")
    assert entered == ["released", "taken again"]
    assert calls.made == [("sendMessage", GROUP, "question")]


async def test_a_call_waiting_for_a_flood_wait_releases_its_slot():
    """With one processing slot: user A's reply waits out its chat's flood wait; user B's
    update runs meanwhile in the slot A gave up."""
    processor = PerUserOrderedProcessor(1)
    limiter = QuizRateLimiter(waiting=processor.released)
    limiter._hold(1, 3600)  # chat 1 is held for an hour
    calls, b_done = Recorder(), asyncio.Event()

    async def a() -> None:
        await calls.run(limiter, 1, "to A")

    async def b() -> None:
        await calls.run(limiter, 2, "to B")
        b_done.set()

    from tests.telegram.test_ordering import _update

    task_a = asyncio.create_task(processor.process_update(_update(1, 1, 1), a()))
    task_b = asyncio.create_task(processor.process_update(_update(2, 2, 2), b()))
    async with asyncio.timeout(10):
        await b_done.wait()
    assert calls.made == [("sendMessage", 2, "to B")] and not task_a.done()
    assert processor.slots_in_use == 0  # A waits without a slot
    task_a.cancel()
    await asyncio.gather(task_a, task_b, return_exceptions=True)
    assert processor.slots_in_use == 0


# --- end to end ----------------------------------------------------------------------------


def _bot_sends(fake: FakeBotAPI, chat_id: int, after: int = 0) -> list[tuple[int, str]]:
    """(index in fake.calls, text) of the bot's successful sendMessage calls to a chat."""
    return [
        (i, c.result["text"])
        for i, c in enumerate(fake.calls)
        if i >= after and c.method == "sendMessage" and c.ok and c.params.get("chat_id") == chat_id
    ]


async def _quiet(fake: FakeBotAPI, processor: PerUserOrderedProcessor, updates: int) -> None:
    """Wait until the processor has seen ``updates`` updates (since the bot started) and
    finished them all."""
    await fake.wait_for(
        lambda: processor.admitted + processor.refused >= updates and processor.keys_in_flight == 0,
        timeout=30,
        recheck=0.05,
    )


@pytest.fixture
async def flood_bot(fake, tmp_path) -> AsyncIterator[RunningBot]:
    """The bot with a short answer window; repeats and bursts never expire during a test
    (no wall-clock assumption: one burst, one copy of a reply)."""
    fake.group_limit_per_minute = 20  # Telegram's rule: more would be answered 429
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", question_seconds=WINDOW)
    await runner.start()
    assert runner.app is not None
    runner.app.bot.rate_limiter.reply_seconds = 3600  # type: ignore[union-attr]
    processor = runner.app.update_processor
    assert isinstance(processor, PerUserOrderedProcessor)
    processor.burst_seconds = 3600
    processor.user_rate = (20, 3600)  # 20 at once, no refill worth counting during the test
    yield runner
    await runner.stop()


async def test_a_help_flood_in_a_group_does_not_delay_the_next_question(fake, flood_bot):
    """A member sends /help 35 times while a session runs: the group gets one help reply
    (none queued behind or ahead of the session), the next question is posted at its deadline
    before any further reply, Telegram's 20 a minute is never exceeded, and the flood's other
    updates are dropped by the processor."""
    processor = flood_bot.app.update_processor
    t = i18n.catalog("en")
    for user_id in (901, 902):
        fake.add_user(user_id, f"M{user_id}", language_code="en")
    fake.add_group(GROUP, "Study group", admins=[901], members=[902])
    fake.send_message(901, "/quiz", chat_id=GROUP)
    first = await fake.wait_for(
        lambda: next((text for _, text in _bot_sends(fake, GROUP) if "1/8" in text), None),
        timeout=10,
    )
    assert first
    flood_from = len(fake.calls)
    for _ in range(35):
        fake.send_message(902, f"/help@{fake.bot_username}", chat_id=GROUP)
    await fake.wait_for(
        lambda: any("2/8" in text for _, text in _bot_sends(fake, GROUP)), timeout=10
    )
    await _quiet(fake, processor, 36)
    sends = _bot_sends(fake, GROUP, flood_from)
    question = next(i for i, text in sends if "2/8" in text)
    helps = [i for i, text in sends if text == t("group_help")]
    assert len(helps) <= 1  # one reply to the flood, at most
    assert all(i < question for i in helps[1:])  # nothing beyond the first came before it
    assert not [c for c in fake.calls if c.status == 429]
    assert processor.refused >= 35 - 20  # beyond the member's rate limit: dropped
    assert processor.peak_queued <= MAX_QUEUED_PER_KEY


async def test_one_user_sending_3000_starts_is_bounded_and_others_are_served(fake, flood_bot):
    """3,000 /start from one account: at most MAX_QUEUED_PER_KEY of them queue at once, at
    most the rate limit's 20 are handled, one "slow down" is sent; another user's /start is
    answered meanwhile, and the shutdown waits for the capped backlog only."""
    processor = flood_bot.app.update_processor
    t = i18n.catalog("en")
    fake.add_user(911, "Flooder", language_code="en")
    fake.add_user(912, "Other", language_code="en")
    for _ in range(3000):
        fake.send_message(911, "/start")
    fake.send_message(912, "/start")
    await fake.wait_for(lambda: len(_bot_sends(fake, 912)) == 2, timeout=30)
    await _quiet(fake, processor, 3001)
    to_flooder = [text for _, text in _bot_sends(fake, 911)]
    assert to_flooder.count(t("slow_down")) == 1
    handled = (len(to_flooder) - 1) // 2  # each /start handled sends two messages
    assert 1 <= handled <= 20
    assert processor.peak_queued <= MAX_QUEUED_PER_KEY
    assert processor.refused == 3000 - handled
    # a second wave while the bot shuts down: what it waits for is capped, not the backlog
    for _ in range(3000):
        fake.send_message(911, "/start")
    await fake.wait_for(lambda: fake.pending_updates() == 0, timeout=30)
    await flood_bot.stop()
    to_flooder = [text for _, text in _bot_sends(fake, 911)]
    assert to_flooder.count(t("slow_down")) == 1  # the same burst
    assert (len(to_flooder) - 1) // 2 <= 20  # what the bucket had left, at most
    assert processor.peak_queued <= MAX_QUEUED_PER_KEY


async def test_placeholder_senders_have_no_language_of_their_own():
    """The shared placeholder users (channel posts, linked-channel forwards, anonymous admins)
    get the default catalog; no language is read for them (it would be everyone's)."""
    from telegram import User

    from bot.features.preferences.catalogs import user_catalog

    class Service:
        async def chosen_language(self, user_id: int) -> str | None:
            raise AssertionError(f"language of {user_id} read")

    for user_id in (136817688, 777000, 1087968824):
        t = await user_catalog(Service(), User(user_id, "X", True, language_code="el"))  # type: ignore[arg-type]
        assert t.language == i18n.DEFAULT


async def test_every_jobs_sends_share_one_budget_and_replies_do_not_wait_for_it():
    """Two jobs sending at once (reminders and homework results, say) share the jobs' one
    budget: together they never exceed its rate in any window; a reply to a user meanwhile
    goes out at once; a job's read (getChatMember) spends nothing (issue 31, item 5)."""
    rate = 200.0  # sends a second: the bound's shape, at a pace a test can wait for
    limiter = QuizRateLimiter(reply_seconds=3600, job_sends_per_second=rate)
    loop = asyncio.get_running_loop()
    stamps: list[float] = []

    async def job(chat_base: int) -> None:
        with job_calls():
            for n in range(30):
                await limiter.process_request(
                    lambda: asyncio.sleep(0, stamps.append(loop.time()) or True),
                    (),
                    {},
                    "sendMessage",
                    {"chat_id": chat_base + n, "text": "due"},
                    None,
                )

    jobs = asyncio.gather(job(10_000), job(20_000))
    await asyncio.sleep(0)  # both jobs are under way
    assert await limiter.process_request(
        lambda: asyncio.sleep(0, True), (), {}, "sendMessage", {"chat_id": 42, "text": "hi"}, None
    )
    with job_calls():  # a read of a job: not paced
        await limiter.process_request(
            lambda: asyncio.sleep(0, True),
            (),
            {},
            "getChatMember",
            {"chat_id": GROUP, "user_id": 1},
            None,
        )
    sent_meanwhile = len(stamps)  # the reply and the read did not queue behind the sends
    await jobs
    assert sent_meanwhile < 3
    assert len(stamps) == 60
    window = 0.05  # seconds: at most rate * window sends in any such window, plus one
    assert all(
        sum(1 for t in stamps if start <= t < start + window) <= rate * window + 1
        for start in stamps
    )
    assert stamps[-1] - stamps[0] >= (len(stamps) - 1) / rate * 0.9
