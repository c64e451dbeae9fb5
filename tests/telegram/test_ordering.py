"""Per-user order under concurrency: the update processor, and the bot end to end."""

from __future__ import annotations

import asyncio
import sqlite3

from telegram import CallbackQuery, Chat, InlineQuery, Message, MessageEntity, Update, User
from telegram.constants import ChatID

from bot import i18n
from bot.telegram.arrivals import sender_id
from bot.telegram.ordering import PerUserOrderedProcessor
from tests.support.banks import BANK_ID
from tests.support.person import Person
from tests.support.screens import buttons, correct_label


def _update(update_id: int, user_id: int, chat_id: int) -> Update:
    user = User(user_id, "U", False)
    chat = Chat(chat_id, Chat.PRIVATE if chat_id == user_id else Chat.SUPERGROUP)
    message = Message(update_id, None, chat)  # type: ignore[arg-type]
    return Update(
        update_id,
        callback_query=CallbackQuery(str(update_id), user, "ci", message=message, data="x"),
    )


class Gate:
    """Handlers that log when they start and end, each ending when the test opens its gate."""

    def __init__(self) -> None:
        self.log: list[tuple[str, int]] = []
        self.gates: dict[int, asyncio.Event] = {}
        self.changed = asyncio.Event()

    def open(self, update_id: int) -> None:
        """Let the handler of ``update_id`` end."""
        self.gates.setdefault(update_id, asyncio.Event()).set()

    async def handle(self, update: Update) -> None:
        self.log.append(("start", update.update_id))
        self.changed.set()
        await self.gates.setdefault(update.update_id, asyncio.Event()).wait()
        self.log.append(("end", update.update_id))
        self.changed.set()

    async def until(self, predicate) -> None:
        """Wait until ``predicate()`` holds (checked whenever a handler starts or ends)."""
        async with asyncio.timeout(10):
            while not predicate():
                self.changed.clear()
                await self.changed.wait()

    def started(self) -> list[int]:
        return [uid for kind, uid in self.log if kind == "start"]

    def ended(self) -> list[int]:
        return [uid for kind, uid in self.log if kind == "end"]


def feed(processor: PerUserOrderedProcessor, gate: Gate, updates: list[Update]) -> asyncio.Future:
    """Feed updates the way PTB does: a task per update, in order."""
    return asyncio.gather(
        *(asyncio.create_task(processor.process_update(u, gate.handle(u))) for u in updates)
    )


async def test_one_users_updates_run_one_after_the_other_in_order():
    """Five updates of one user in one chat never overlap and keep their order, even when a
    later one would be ready first."""
    processor, gate = PerUserOrderedProcessor(), Gate()
    for i in reversed(range(5)):
        gate.open(i)  # every gate open at once: only the processor orders them
    await feed(processor, gate, [_update(i, 7, 7) for i in range(5)])
    assert gate.log == [(kind, i) for i in range(5) for kind in ("start", "end")]
    assert processor.keys_in_flight == 0


async def test_different_users_and_group_members_overlap():
    """Updates of different users, and of different members of one group, run concurrently:
    all four start before any of them may end."""
    processor, gate = PerUserOrderedProcessor(), Gate()
    done = feed(
        processor,
        gate,
        [_update(1, 1, 1), _update(2, 2, 2), _update(3, 10, -100), _update(4, 11, -100)],
    )
    await gate.until(lambda: len(gate.started()) == 4)
    assert gate.ended() == []
    for i in range(1, 5):
        gate.open(i)
    await done
    assert processor.keys_in_flight == 0


async def test_a_slow_update_of_one_user_does_not_hold_up_another():
    """A user whose update is slow (slow database, slow Bot API) delays nobody else; the same
    user's next update waits for it."""
    processor, gate = PerUserOrderedProcessor(), Gate()
    gate.open(3)
    gate.open(2)
    done = feed(processor, gate, [_update(1, 1, 1), _update(2, 1, 1), _update(3, 2, 2)])
    await gate.until(lambda: 3 in gate.ended())
    assert gate.ended() == [3] and 2 not in gate.started()  # user 1's second update waits
    gate.open(1)
    await done
    assert gate.ended() == [3, 1, 2]


async def test_received_at_is_when_the_update_came_not_when_its_turn_came():
    """An update waiting behind its user's slow update keeps the time it arrived; the chat is
    settled for a moment only once every update that came before it is done."""
    clock = [100.0]
    processor, gate = PerUserOrderedProcessor(clock=lambda: clock[0]), Gate()
    first, second = _update(1, 10, -100), _update(2, 10, -100)
    seen: dict[int, float] = {}

    async def handle(update: Update) -> None:
        seen[update.update_id] = processor.received_at(update)
        await gate.handle(update)

    done = asyncio.gather(
        asyncio.create_task(processor.process_update(first, handle(first))),
        asyncio.create_task(processor.process_update(second, handle(second))),
    )
    await gate.until(lambda: gate.started() == [1])
    clock[0] = 105.0  # time passes while the second update waits for its turn
    assert not await processor.settled(-100, before=101.0, at_most=0.01)
    assert await processor.settled(-100, before=99.0, at_most=0.01)  # nothing came before 99
    assert await processor.settled(-555, before=200.0, at_most=0.01)  # another chat: idle
    waiting = asyncio.create_task(processor.settled(-100, before=101.0, at_most=10))
    gate.open(1)
    gate.open(2)
    await done
    assert await waiting
    assert seen == {1: 100.0, 2: 100.0}  # both stamped on arrival, not when handled


async def test_slow_bot_api_calls_of_one_user_do_not_hold_up_another(fake, running_bot):
    """End to end: every call about A's chat takes 1.5 s; B's quiz starts meanwhile."""
    a, b = Person(fake, 801, "Slow"), Person(fake, 802, "Fast")
    fake.delay_chat(a.user_id, 3.0)
    update = fake.send_message(a.user_id, "/start")
    await fake.wait_for(lambda: fake.fetched(update["update_id"]))  # the bot took A's /start
    await b.say("/start", replies=2)
    assert a.bot_messages() == []  # B was served while A's first call was still on its way
    await fake.wait_for(lambda: len(a.bot_messages()) == 2, timeout=15)


async def test_double_tap_and_quick_next_are_handled_in_order(fake, running_bot, banks):
    """An answer, the same answer again and "next", delivered back to back in one batch of
    updates: one answer recorded, the second tap refused, then the next question."""
    bank = banks[BANK_ID]
    person = Person(fake, 803, "Quick")
    await person.say("/start", replies=2)
    question = person.question_message()
    label = correct_label(question, bank, "en")
    data = next(b["callback_data"] for b in buttons(question) if b["text"] == label)
    attempt_id, position = data.split(":")[1:3]
    # pushed without yielding to the event loop: the bot's waiting getUpdates returns all three
    # in one batch, and PTB starts them concurrently
    taps = [
        fake.tap(person.user_id, person.user_id, question["message_id"], data),
        fake.tap(person.user_id, person.user_id, question["message_id"], data),
        fake.tap(
            person.user_id,
            person.user_id,
            question["message_id"],
            f"n:{attempt_id}:{position}",
            check_button=False,
        ),
    ]
    ids = [t["callback_query"]["id"] for t in taps]
    await fake.wait_for(lambda: all(i in fake.callback_answers for i in ids), timeout=10)
    t = i18n.catalog("en")
    assert fake.callback_answers[ids[0]].get("text") is None
    assert fake.callback_answers[ids[1]]["text"] == t("toast_answered")
    assert fake.callback_answers[ids[2]].get("text") is None  # "next" after the answer: fine
    await fake.wait_for(
        lambda: t("question_header", number=2, total=8) in person.bot_messages()[-1]["text"]
    )
    with sqlite3.connect(running_bot.db) as db:
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone() == (1,)
        assert db.execute("SELECT position FROM attempts").fetchone() == (1,)


# --- senders, floods and slots -------------------------------------------------------------


def _message_update(
    update_id: int,
    user_id: int,
    chat_id: int,
    text: str = "/help",
    *,
    sender_chat: Chat | None = None,
) -> Update:
    chat = Chat(chat_id, Chat.PRIVATE if chat_id == user_id else Chat.SUPERGROUP)
    entities = (
        (MessageEntity(MessageEntity.BOT_COMMAND, 0, len(text.split()[0])),)
        if text.startswith("/")
        else ()
    )
    message = Message(
        update_id,
        None,
        chat,
        from_user=User(user_id, "U", False),  # type: ignore[arg-type]
        text=text,
        entities=entities,
        sender_chat=sender_chat,
    )
    return Update(update_id, message=message)


def test_messages_sent_on_behalf_of_a_chat_are_keyed_by_that_chat():
    """Everyone posting as a channel arrives as user 136817688, a linked channel's forwards as
    777000, anonymous admins as 1087968824: the key is the sender chat, not that user."""
    group = -100
    one = _message_update(1, ChatID.FAKE_CHANNEL, group, sender_chat=Chat(-1001, Chat.CHANNEL))
    two = _message_update(2, ChatID.FAKE_CHANNEL, group, sender_chat=Chat(-1002, Chat.CHANNEL))
    forward = _message_update(3, ChatID.SERVICE_CHAT, group, sender_chat=Chat(-1001, "channel"))
    anonymous = _message_update(
        4, ChatID.ANONYMOUS_ADMIN, group, sender_chat=Chat(group, Chat.SUPERGROUP)
    )
    person = _message_update(5, 7, group)
    keys = [PerUserOrderedProcessor.key(u) for u in (one, two, forward, anonymous, person)]
    assert keys == [(group, -1001), (group, -1002), (group, -1001), (group, group), (group, 7)]
    assert sender_id(_update(6, 7, -100)) == 7  # a tap: the person who tapped


async def test_updates_beyond_the_queue_cap_are_dropped_with_one_notice():
    """One sender's updates in one chat beyond max_queued (in flight or waiting) are dropped
    unprocessed; the first dropped one of the burst is handed to on_refused, once."""
    refused: list[int] = []

    async def on_refused(update: Update) -> None:
        refused.append(update.update_id)

    processor = PerUserOrderedProcessor(max_queued=3, burst_seconds=3600, on_refused=on_refused)
    gate = Gate()
    done = feed(processor, gate, [_update(i, 7, 7) for i in range(10)])
    await gate.until(lambda: gate.started() == [0])
    other = asyncio.create_task(
        processor.process_update(_update(99, 8, 8), gate.handle(_update(99, 8, 8)))
    )  # another user is not held by user 7's cap
    await gate.until(lambda: 99 in gate.started())
    for i in (0, 1, 2, 99):
        gate.open(i)
    await asyncio.gather(done, other)
    assert [i for i in gate.ended() if i != 99] == [0, 1, 2]  # in order; 3..9 never ran
    assert sorted(gate.started()) == [0, 1, 2, 99]
    assert refused == [3]
    assert (processor.refused, processor.admitted, processor.peak_queued) == (7, 4, 3)
    assert processor.keys_in_flight == 0


async def test_every_dropped_tap_is_handed_on_to_be_answered():
    """Taps beyond the queue cap: the burst's first goes to on_refused (the "slow down"), each
    later one to on_dropped_tap (answered without a text), none is processed."""
    refused: list[int] = []
    dropped: list[int] = []

    async def on_refused(update: Update) -> None:
        refused.append(update.update_id)

    async def on_dropped_tap(update: Update) -> None:
        dropped.append(update.update_id)

    processor = PerUserOrderedProcessor(
        max_queued=2, burst_seconds=3600, on_refused=on_refused, on_dropped_tap=on_dropped_tap
    )
    gate = Gate()
    done = feed(processor, gate, [_update(i, 7, 7) for i in range(6)])
    await gate.until(lambda: gate.started() == [0])
    for i in (0, 1):
        gate.open(i)
    await done
    assert gate.ended() == [0, 1]
    assert (refused, dropped) == ([2], [3, 4, 5])


async def test_a_senders_rate_limit_counts_across_chats_and_spares_taps_and_chatter():
    """A sender's bucket is theirs wherever they write (commands in groups, private messages);
    taps (bounded by the queue cap) and group chatter that is no command pass untouched."""
    processor = PerUserOrderedProcessor(user_rate=(2, 3600), burst_seconds=3600)
    ran: list[int] = []

    async def run(update: Update) -> None:
        ran.append(update.update_id)

    updates = [
        _message_update(1, 7, 7, "/start"),
        _message_update(2, 7, -100, "/help"),
        _update(3, 7, 7),
        _message_update(4, 7, -100, "hello all"),
        _message_update(5, 7, 7, "/stats"),
        _message_update(6, 8, 8, "/start"),
    ]
    for update in updates:
        await processor.process_update(update, run(update))
    assert ran == [1, 2, 3, 4, 6]
    assert processor.refused == 1


async def test_a_released_slot_is_taken_again_and_given_back_once():
    """An update that releases its slot while it waits lets another update run in it, takes
    a slot again when the wait ends, and frees it exactly once at its end."""
    processor = PerUserOrderedProcessor(1)
    waiting, resume, b_ran = asyncio.Event(), asyncio.Event(), asyncio.Event()

    async def a() -> None:
        async with processor.released():
            waiting.set()
            await resume.wait()
        assert processor.slots_in_use == 1  # its slot again

    async def b() -> None:
        b_ran.set()

    task_a = asyncio.create_task(processor.process_update(_update(1, 1, 1), a()))
    await waiting.wait()
    async with processor.released():  # outside any update: nothing to release
        assert processor.slots_in_use == 0
    await processor.process_update(_update(2, 2, 2), b())
    assert b_ran.is_set()
    resume.set()
    await task_a
    assert processor.slots_in_use == 0


def test_the_processor_uses_ptbs_documented_extension_point():
    """PTB marks ``BaseUpdateProcessor.process_update`` final: the processor extends
    ``do_process_update`` only, so a PTB upgrade cannot silently bypass per-user ordering."""
    assert "process_update" not in PerUserOrderedProcessor.__dict__
    assert "do_process_update" in PerUserOrderedProcessor.__dict__
    processor = PerUserOrderedProcessor(7)
    assert processor.slots == 7


async def test_inline_queries_count_against_the_queue_cap_only():
    """Inline queries (one per keystroke while a user types "@bot ...") are spared the
    sender's rate limit, as taps are, but a sender's backlog of them is capped."""
    processor = PerUserOrderedProcessor(max_queued=2, user_rate=(1, 3600), burst_seconds=3600)
    gate = Gate()
    user = User(7, "U", False)
    updates = [Update(i, inline_query=InlineQuery(str(i), user, "q" * i, "")) for i in range(4)]
    done = feed(processor, gate, updates)
    await gate.until(lambda: gate.started() == [0])
    for i in range(4):
        gate.open(i)
    await done
    assert gate.ended() == [0, 1]  # the rate limit (1) would let one run, no cap all four
    assert (processor.refused, processor.admitted) == (2, 2)
