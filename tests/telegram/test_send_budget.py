"""One send budget for every instance of the bot on one PostgreSQL (issue 31, item 5): the
jobs' sends of two instances together keep to the rate one instance would, against the fake
Bot API's broadcasting limit; replies go first; paid broadcasts; a group's minute counted
across instances."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import AsyncIterator

import pytest
from telegram.ext import ExtBot

from bot.telegram.calls import session_calls
from bot.telegram.groupminute import GROUP_MAX_RATE
from bot.telegram.jobsends import (
    BATCH_SECONDS,
    JOB_FIRST,
    JOB_LATER,
    JOB_SOON,
    TurnGate,
    job_calls,
)
from bot.telegram.limits import SESSION_RESERVE, Dropped, QuizRateLimiter
from storage.postgres.store import PostgresStore
from tests.support.fakebotapi import FakeBotAPI

RATE = 60.0
"""The jobs' budget in the tests, sends a second (Telegram's 20 of 30, three times faster)."""

LIMIT = 90
"""The fake's broadcasting limit, sends a second in all."""

USERS = range(5001, 5121)


@pytest.fixture
async def stores(pg_db: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two instances' stores on one database."""
    first = await PostgresStore.open(pg_db)
    second = await PostgresStore.open(pg_db)
    yield first, second
    await first.close()
    await second.close()


async def instance(
    fake: FakeBotAPI, store: PostgresStore | None, **limits: object
) -> ExtBot[QuizRateLimiter]:
    """A bot (PTB's HTTP stack, the quiz's rate limiter) on the fake, its budgets shared
    through ``store`` (None: its own)."""
    limiter = QuizRateLimiter(reply_seconds=3600, job_sends_per_second=RATE, **limits)  # type: ignore[arg-type]
    bot = ExtBot(fake.token, base_url=fake.base_url, rate_limiter=limiter)
    await bot.initialize()
    if store is not None:
        limiter.share(store.send_budget(bot.id), bot.id)
    return bot


def open_chats(fake: FakeBotAPI, users: range) -> None:
    for user_id in users:
        fake.add_user(user_id, f"U{user_id}")
        fake.send_message(user_id, "/start")  # opens the private chat


def most_in_a_second(times: list[float]) -> int:
    return max(sum(1 for t in times if start <= t < start + 1.0) for start in times)


async def test_two_instances_on_one_postgresql_keep_to_one_jobs_budget(fake, stores):
    """Two instances' jobs sending at once keep together to the jobs' rate (within one batch),
    under the fake's broadcasting limit: no 429; a reply meanwhile goes out at once."""
    fake.bot_limit_per_second = LIMIT
    open_chats(fake, USERS)
    bots = [await instance(fake, store) for store in stores]
    half = len(USERS) // 2
    granted: list[float] = []  # when the budget let each job's send go (the wall clock)
    for bot in bots:
        budget = bot.rate_limiter.jobs  # type: ignore[union-attr]
        acquire = budget.acquire

        async def recorded(*args, _acquire=acquire, **kwargs):
            await _acquire(*args, **kwargs)
            granted.append(time.time())

        budget.acquire = recorded

    async def job(bot: ExtBot[QuizRateLimiter], users: range) -> None:
        with job_calls():
            for user_id in users:
                await bot.send_message(user_id, "a review is due")

    sends = asyncio.gather(job(bots[0], USERS[:half]), job(bots[1], USERS[half:]))
    while not any(c.method == "sendMessage" for c in fake.calls):  # the jobs are under way
        await fake.wait_for_call("sendMessage")
    await bots[0].send_message(USERS[0], "your answer")  # a reply: no job budget to wait for
    jobs_before_reply = sum(1 for c in fake.calls if c.method == "sendMessage") - 1
    await sends
    for bot in bots:
        await bot.shutdown()
    times = [c.at for c in fake.calls if c.method == "sendMessage"]
    assert len(times) == len(USERS) + 1
    assert not [c for c in fake.calls if c.status == 429]
    assert jobs_before_reply < len(USERS) // 4
    # the budget's own times: a loaded machine may deliver requests in bunches, not grant them
    assert len(granted) == len(USERS)
    assert most_in_a_second(sorted(granted)) <= RATE + RATE * BATCH_SECONDS + 1 < LIMIT
    assert max(granted) - min(granted) >= (len(USERS) - RATE * BATCH_SECONDS) / RATE
    # claims are batched: fewer than one a send (how many fewer depends on how fast the
    # machine lets the sends come: a loaded one brings them one by one)
    assert sum(bot.rate_limiter.jobs.batches for bot in bots) < len(USERS)  # type: ignore[union-attr]


async def test_paid_broadcasts_go_beyond_the_free_limit_and_edits_do_not(fake, pg_db):
    """With paid broadcasts on, a job's sends go with allow_paid_broadcast at the paid rate
    (beyond the fake's free limit, no 429); its edits, which cannot be paid for, go without
    and keep within the free budget; a reply is never paid for."""
    fake.bot_limit_per_second = 20
    open_chats(fake, USERS[:60])
    bot = await instance(fake, None, paid_broadcast=True)
    granted: list[float] = []  # when the paid budget let each send go (the wall clock)
    acquire = bot.rate_limiter.paid.acquire  # type: ignore[union-attr]

    async def recorded(*args, **kwargs):
        await acquire(*args, **kwargs)
        granted.append(time.time())

    bot.rate_limiter.paid.acquire = recorded  # type: ignore[union-attr]
    with job_calls():
        messages = await asyncio.gather(*(bot.send_message(u, "due") for u in USERS[:60]))
        await bot.edit_message_text("done", USERS[0], messages[0].message_id)
    await bot.send_message(USERS[1], "your answer")
    await bot.shutdown()
    sends = [c for c in fake.calls if c.method in ("sendMessage", "editMessageText")]
    assert not [c for c in fake.calls if c.status == 429]
    assert [c.params.get("allow_paid_broadcast") for c in sends] == [True] * 60 + [None, None]
    # the budget's own times (a loaded machine may deliver the requests slower than it let
    # them go): the paid sends were let go faster than the free limit
    assert len(granted) == 60
    assert most_in_a_second(sorted(granted)) > fake.bot_limit_per_second


async def test_a_jobs_sends_to_one_private_chat_go_one_a_second(fake):
    """A job's sends to one private chat (a report's file and its analysis) go one a second,
    the fake's private limit: no 429; a reply to that chat meanwhile is not held."""
    fake.private_limit_per_second = 1
    open_chats(fake, USERS[:2])
    bot = await instance(fake, None)
    with job_calls():
        job = asyncio.gather(*(bot.send_message(USERS[0], f"part {n}") for n in range(3)))
        await fake.wait_for_call("sendMessage")
    await bot.send_message(USERS[1], "your answer")
    replied = len(fake.calls)
    await job
    await bot.shutdown()
    sends = [c for c in fake.calls if c.method == "sendMessage" and c.params["chat_id"] == USERS[0]]
    assert not [c for c in fake.calls if c.status == 429]
    assert replied < len(fake.calls)  # the reply did not wait for the job's turns
    assert all(b.at - a.at >= 0.99 for a, b in itertools.pairwise(sends))


async def test_a_groups_minute_is_counted_across_instances(stores):
    """Job sends to one group from two instances are counted together: beyond the limit in
    the window the next waits (for as long as the oldest takes to leave it), nothing counted;
    another group, or another bot, has its own count."""
    first, second = (store.send_budget(1000) for store in stores)
    group = -100555
    assert await first.take_group(group, 3, 60.0) == 0
    assert await second.take_group(group, 3, 60.0) == 0
    assert await first.take_group(group, 3, 60.0) == 0
    wait = await second.take_group(group, 3, 60.0)
    assert 59.0 < wait <= 60.0
    assert 59.0 < await first.take_group(group, 3, 60.0) <= wait  # the refusal counted nothing
    assert await second.take_group(-100556, 3, 60.0) == 0
    assert await stores[0].send_budget(2000).take_group(group, 3, 60.0) == 0


async def test_a_budgets_spans_never_overlap_across_instances(stores):
    """Spans taken of one budget by two instances follow one another on the server's time
    line: the n-th of n spans of s seconds begins about (n - 1) * s from now."""
    first, second = (store.send_budget(1000) for store in stores)
    starts = [await (first if n % 2 else second).take("1000:jobs", 0.5) for n in range(6)]
    assert starts[0] == pytest.approx(0.0, abs=0.05)
    for n, start in enumerate(starts):
        assert start == pytest.approx(0.5 * n, abs=0.2)
    assert await first.take("1000:paid", 0.5) == pytest.approx(0.0, abs=0.05)


async def test_the_question_of_the_day_goes_before_reminders_waiting_in_the_budget(fake):
    """Reminders (JOB_LATER) fill the jobs' budget; daily posts (JOB_FIRST) asked meanwhile
    take the next slots, before the reminders still waiting; each kind keeps its own order."""
    open_chats(fake, USERS[:40])
    groups = [-1001 - n for n in range(5)]
    bot = await instance(fake, None)

    async def send(user_or_group: int, text: str, turn: int) -> None:
        with job_calls(turn):
            await bot.send_message(user_or_group, text)

    granted: list[str] = []  # the order the budget let the sends go in (their tasks' names)
    budget = bot.rate_limiter.jobs  # type: ignore[union-attr]
    acquire = budget.acquire

    async def recorded(*args, **kwargs):
        await acquire(*args, **kwargs)
        granted.append(asyncio.current_task().get_name())

    budget.acquire = recorded
    reminders = [
        asyncio.create_task(send(u, f"reminder {u}", JOB_LATER), name=f"reminder {u}")
        for u in USERS[:40]
    ]
    await fake.wait_for_call("sendMessage")  # the reminders are under way
    for group in groups:
        fake.add_group(group, f"G{group}")
    gate = bot.rate_limiter.jobs._gate  # type: ignore[union-attr]
    async with gate.turn(JOB_FIRST):  # the budget held between two sends: the posts are asked
        waiting = gate.waiting  # the reminders still waiting
        posts = [
            asyncio.create_task(send(g, f"daily {g}", JOB_FIRST), name=f"daily {g}") for g in groups
        ]
        # each post on its way to the budget (a load may slow that down, not the order): one
        # turn of the loop at a time until all of them wait (the gate has no event to await)
        while gate.waiting < waiting + len(posts):  # noqa: ASYNC110 - sleep(0): a yield, no pause
            await asyncio.sleep(0)
    await asyncio.gather(*reminders, *posts)
    await bot.shutdown()
    texts = [c.params["text"] for c in fake.calls if c.method == "sendMessage"]
    assert sorted(texts) == sorted(granted)  # each sent once
    # in the budget's order (a loaded machine may deliver two requests the other way round):
    # the posts one after another, before the reminders still waiting, each kind in order
    first_post = granted.index(f"daily {groups[0]}")
    assert granted[first_post : first_post + 5] == [f"daily {g}" for g in groups]
    assert sum(1 for t in granted[first_post + 5 :] if t.startswith("reminder")) > 10
    assert [t for t in granted if t.startswith("reminder")] == [f"reminder {u}" for u in USERS[:40]]


async def test_a_turn_gate_lets_an_earlier_turn_go_first_and_survives_cancellation():
    """TurnGate: one holder; waiters of an earlier turn before later ones, each turn in order;
    a waiter cancelled before its turn leaves, the others still get theirs."""
    gate, order = TurnGate(), []

    async def take(name: str, turn: int) -> None:
        async with gate.turn(turn):
            order.append(name)

    async with gate.turn(JOB_SOON):  # held: everyone below waits
        tasks = {
            name: asyncio.create_task(take(name, turn))
            for name, turn in (
                ("late-1", JOB_LATER),
                ("soon", JOB_SOON),
                ("late-2", JOB_LATER),
                ("first", JOB_FIRST),
                ("gone", JOB_FIRST),
            )
        }
        await asyncio.sleep(0)  # one turn of the loop: each task runs up to its wait
        assert gate.waiting == 5
        tasks["gone"].cancel()
    await asyncio.gather(*tasks.values(), return_exceptions=True)
    assert order == ["first", "soon", "late-1", "late-2"]
    async with gate.turn(JOB_LATER):  # free again: at once
        order.append("again")
    assert order[-1] == "again"


async def test_replies_and_session_messages_to_a_group_are_counted_across_instances(fake, stores):
    """Two instances replying to one group share its minute: together they send what the
    minute leaves replies (the session's reserve kept), the rest dropped; the session's
    messages fill the reserve, across instances too, and one more waits for room rather than
    going past the minute (no 429 from the fake's limit)."""
    group = -1009876543210
    fake.add_group(group, "Class")
    fake.group_limit_per_minute = GROUP_MAX_RATE
    waited = asyncio.Event()

    @contextlib.asynccontextmanager
    async def waiting() -> AsyncIterator[None]:
        waited.set()
        yield

    bots = [await instance(fake, store, waiting=waiting) for store in stores]
    sent = dropped = 0
    for n in range(GROUP_MAX_RATE * 2):
        try:
            await bots[n % 2].send_message(group, f"reply {n}")
            sent += 1
        except Dropped:
            dropped += 1
    assert sent == GROUP_MAX_RATE - SESSION_RESERVE
    assert dropped == GROUP_MAX_RATE * 2 - sent
    with session_calls():
        for n in range(SESSION_RESERVE):
            await bots[n % 2].send_message(group, f"question {n}")
        assert not waited.is_set()
        late = asyncio.ensure_future(bots[1].send_message(group, "reveal"))
        await waited.wait()  # the minute is full across the instances: it waits for room
    late.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await late
    for bot in bots:
        await bot.shutdown()
    assert sum(1 for c in fake.calls if c.method == "sendMessage") == GROUP_MAX_RATE
    assert not [c for c in fake.calls if c.status == 429]


async def test_a_jobs_retry_takes_a_slot_of_the_budget_as_its_first_try_did(fake):
    """A job's call that failed with a 502 and is tried again spends the budget again:
    Telegram counts every message it is sent, so the tries of a job's sends and edits (the
    failed one included) are never closer together than the budget's rate allows."""
    open_chats(fake, USERS[:3])
    limiter = QuizRateLimiter(reply_seconds=3600, job_sends_per_second=2.0)
    bot = ExtBot(fake.token, base_url=fake.base_url, rate_limiter=limiter)
    await bot.initialize()
    posted = [await bot.send_message(user, "reminder") for user in USERS[:3]]
    fake.fail_next("editMessageText", error_code=502, description="Bad Gateway")
    with job_calls():
        await asyncio.gather(
            *(bot.edit_message_text("reminder, done", m.chat_id, m.message_id) for m in posted)
        )
    await bot.shutdown()
    tries = [c for c in fake.calls if c.method == "editMessageText"]
    assert [c.status for c in tries].count(502) == 1 and len(tries) == 4
    assert all(b.at - a.at >= 0.45 for a, b in itertools.pairwise(tries)), [c.at for c in tries]
