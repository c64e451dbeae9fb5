"""One user's updates in order across instances receiving one bot's webhooks on one PostgreSQL
(storage/order.py): the lock key, the turns between two instances, their failure modes, and
end to end two bots behind a load balancer that sends one user's taps to both."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import asyncpg
import pytest
from telegram import CallbackQuery, Chat, Message, Update, User
from telegram.ext import TypeHandler

from bot import i18n
from bot.telegram.ordering import PerUserOrderedProcessor
from storage import PostgresStore
from storage.leases import POLLER_NAMESPACE, SESSION_NAMESPACE, PostgresLeases
from storage.order import ORDER_NAMESPACE, PostgresUpdateOrder, order_key
from storage.postgres import MIGRATION_LOCK, PSEUDONYM_LOCK
from tests.storage.test_postgres_instances import until
from tests.support.balancer import Balancer
from tests.support.banks import BANK_ID
from tests.support.botrun import RunningBot
from tests.support.engines import READ_ONLY_OFF, READ_ONLY_ON
from tests.support.person import Person
from tests.support.processes import free_port
from tests.support.screens import buttons, correct_label

GROUP = -1001234567890


# --- the lock key ------------------------------------------------------------------------------


def test_the_order_key_is_deterministic_and_in_a_namespace_of_its_own():
    """The key of a (chat, sender) is the same in every process and version (these values are
    fixed here), fits an int4, tells a chat's members apart, and its namespace is none of the
    other advisory locks' (migration, pseudonyms, session leases, poller lease)."""
    assert order_key(GROUP, 42) == -567390862
    assert order_key(42, 42) == 1881314876
    assert order_key(None, 7) == -1199687648
    assert order_key(7, None) == -1009027626
    keys = {order_key(-100 - i // 100, i) for i in range(100_000)}
    assert len(keys) == 100_000  # no two of these share a lock
    assert all(-(2**31) <= k < 2**31 for k in keys)
    others = {MIGRATION_LOCK[0], PSEUDONYM_LOCK[0], SESSION_NAMESPACE, POLLER_NAMESPACE}
    assert ORDER_NAMESPACE not in others and -(2**31) <= ORDER_NAMESPACE < 2**31


@pytest.fixture
async def stores(pg_db) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two stores on one database (migrated): what two instances hold."""
    first = await PostgresStore.open(pg_db)
    second = await PostgresStore.open(pg_db)
    yield first, second
    await first.close()
    await second.close()


async def test_a_turn_never_blocks_a_session_lease_with_the_same_number(stores, pg_db):
    """The namespaces are apart in the server too: an instance holding the turn of key k does
    not keep another instance from the session lease k, nor from the poller lease of bot k."""
    order = stores[0].update_order()
    key = order_key(42, 42)
    assert 0 < key < 2**31  # the lease numbered like it has the same second key
    leases = PostgresLeases(pg_db)
    try:
        async with order.turn(42, 42, 1) as held:
            assert held
            assert await leases.claim(key)
            await asyncio.wait_for(leases.wait_poller(key, on_lost=lambda: None), 30)
    finally:
        await leases.close()


# --- what one instance tells the others ---------------------------------------------------------


async def test_a_users_change_reaches_the_other_instances_order_connection(stores):
    """A language choice, an answer flow and a deletion stored through one instance are told
    to the other's order connection (the user id, at the commit), before that connection's
    next turn is had; a new connection tells None (news may have been missed)."""
    a, b = stores
    order = b.update_order()
    told: list[int | None] = []
    order.on_user_changed = told.append
    await order.register(7, 7, 1)  # the connection is made: None
    async with order.turn(7, 7, 1):
        pass
    assert told == [None]
    await a.set_user_language(7, "el")
    await a.set_answer_flow(8, "one_tap", 1.0)
    await a.delete_user(9)
    await order.register(7, 7, 2)
    async with order.turn(7, 7, 2) as held:  # the turn's answer comes after the notifications
        assert held
        assert told == [None, 7, 8, 9]


async def test_an_early_close_is_asked_of_the_lease_holder_only(pg_db):
    """ask_early on an instance without the session's lease reaches the holder's on_early
    (session and position); an instance that does not hold it is not told."""
    holder, other, third = (PostgresLeases(pg_db) for _ in range(3))
    told: dict[str, list[tuple[int, int]]] = {"holder": [], "third": []}
    holder.on_early = lambda s, p: told["holder"].append((s, p))
    third.on_early = lambda s, p: told["third"].append((s, p))
    try:
        assert await holder.claim(5)
        assert not await third.claim(5)  # listening too, without the lease
        assert not await other.claim(5)
        await other.ask_early(5, 2)
        await until(lambda: _true(bool(told["holder"])))
        assert told == {"holder": [(5, 2)], "third": []}
    finally:
        for leases in (holder, other, third):
            await leases.close()


# --- turns between two instances ---------------------------------------------------------------


async def _pending(pg_db: str) -> list[int]:
    db = await asyncpg.connect(pg_db)
    try:
        return [
            r[0] for r in await db.fetch("SELECT update_id FROM pending_updates ORDER BY update_id")
        ]
    finally:
        await db.close()


async def test_a_turn_is_held_by_one_instance_at_a_time(stores, pg_db):
    """While one instance handles an update of a (chat, sender), the other's update of the same
    key waits (another key's does not); it goes on once the first turn ends."""
    a, b = (s.update_order() for s in stores)
    log: list[str] = []
    await a.register(GROUP, 42, 10)
    async with a.turn(GROUP, 42, 10) as held:
        assert held
        async with b.turn(GROUP, 43, 12) as other:  # another member of the group: at once
            assert other

        async def later() -> None:
            await b.register(GROUP, 42, 11)
            async with b.turn(GROUP, 42, 11) as turn:
                log.append(f"11 {turn}")

        task = asyncio.create_task(later())
        await until(lambda: _true(b.waiting == 1))
        assert log == []
        log.append("10 done")
    await task
    assert log == ["10 done", "11 True"]
    assert (a.gave_up, b.gave_up) == (0, 0)
    assert await _pending(pg_db) == []


async def _true(value: bool) -> bool:
    return value


async def test_a_later_update_waits_for_an_earlier_one_registered_on_another_instance(stores):
    """Nobody holds the key's lock, yet an update asking for its turn on one instance waits
    while a lower update_id of the key is registered (and next in line) on the other: the
    update that reached Telegram first is handled first, whichever instance asks first."""
    a, b = (s.update_order() for s in stores)
    log: list[int] = []
    await a.register(GROUP, 42, 20)
    await b.register(GROUP, 42, 21)

    async def handle(order: PostgresUpdateOrder, update_id: int) -> None:
        async with order.turn(GROUP, 42, update_id) as held:
            assert held
            log.append(update_id)

    later = asyncio.create_task(handle(b, 21))
    await until(lambda: _true(b.waiting == 1))
    assert log == []
    await handle(a, 20)
    await later
    assert log == [20, 21]


async def test_an_update_queued_behind_another_on_its_instance_is_not_waited_for(stores):
    """Arrival orders that cross cannot deadlock: on instance A update 105 came before 104, on
    B 106 before 103 (each queued behind the other locally). 105 is not held back by 104 or
    103, which are not next in line yet; 106 waits for 105, then 104 (now asking) goes before
    106; 103 comes last, behind 106 on its instance."""
    a, b = (s.update_order() for s in stores)
    for order, update_id in ((a, 105), (a, 104), (b, 106), (b, 103)):
        await order.register(GROUP, 42, update_id)
    log: list[int] = []

    async def handle(order: PostgresUpdateOrder, update_id: int) -> None:
        async with order.turn(GROUP, 42, update_id) as held:
            assert held
            log.append(update_id)

    async def instance(order: PostgresUpdateOrder, update_ids: tuple[int, int]) -> None:
        for update_id in update_ids:  # one after the other, as the local processor runs them
            await handle(order, update_id)

    on_b = asyncio.create_task(instance(b, (106, 103)))
    await until(lambda: _true(b.waiting == 1))  # 106 waits: 105 is registered and asking
    await asyncio.wait_for(instance(a, (105, 104)), 30)  # a safety net: not a bound under test
    await on_b
    assert log == [105, 104, 106, 103]
    assert (a.gave_up, b.gave_up) == (0, 0)


async def test_a_dead_instance_holds_a_key_back_no_longer_than_the_turn_wait(stores, pg_db):
    """An instance killed while handling an update of a key (its connection gone): the server
    frees its lock, so the other instance handles an earlier update of the key at once; a later
    one waits for the dead instance's registration only until it is ``turn_seconds`` old, then
    gets its turn."""
    a = stores[0].update_order()
    b = PostgresUpdateOrder(pg_db, turn_seconds=3.0, retry_seconds=0.1)
    await a.register(GROUP, 42, 30)
    turn = a.turn(GROUP, 42, 30)
    assert await turn.__aenter__()
    try:
        admin = await asyncpg.connect(pg_db)
        try:
            pid = await admin.fetchval(
                "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1"
                " AND objid = $2 AND granted",
                ORDER_NAMESPACE,
                order_key(GROUP, 42) % 2**32,
            )
            await admin.execute("SELECT pg_terminate_backend($1)", pid)
        finally:
            await admin.close()
        await b.register(GROUP, 42, 29)
        async with b.turn(GROUP, 42, 29) as held:
            assert held  # the dead instance's lock was freed
        entered: list[bool] = []

        async def later() -> None:
            await b.register(GROUP, 42, 31)
            async with b.turn(GROUP, 42, 31) as held:
                entered.append(held)

        task = asyncio.create_task(later())
        await until(lambda: _true(b.waiting == 1))  # 30 is registered, next in line, fresh
        assert entered == []
        await asyncio.wait_for(task, 30)  # a safety net, not a bound under test
        assert entered == [True] and b.gave_up == 0
    finally:
        await turn.__aexit__(None, None, None)
        await b.close()


async def test_without_the_database_registration_fails_and_turns_go_ahead(pg_url):
    """The database unreachable: registering raises StorageError (the webhook answers 500, so
    Telegram sends the update again); a turn is not had, and the update is handled anyway;
    forgetting and closing do not raise."""
    from bot.kernel.ports import StorageError

    order = PostgresUpdateOrder("postgresql://quizbot@/quizbot?host=/nonexistent-folder")
    with pytest.raises(StorageError):
        await order.register(GROUP, 42, 1)
    async with order.turn(GROUP, 42, 1) as held:
        assert not held
    await order.forget(GROUP, 42, 2)
    await order.close()
    assert order.gave_up == 1


def _tap(update_id: int, user_id: int, chat_id: int) -> Update:
    chat = Chat(chat_id, Chat.PRIVATE if chat_id == user_id else Chat.SUPERGROUP)
    message = Message(update_id, None, chat)  # type: ignore[arg-type]
    return Update(
        update_id,
        callback_query=CallbackQuery(
            str(update_id), User(user_id, "U", False), "ci", message=message, data="x"
        ),
    )


async def test_updates_dropped_by_the_flood_limits_are_unregistered(stores, pg_db):
    """The processor with an order: updates beyond a sender's queue cap are dropped and their
    registrations removed (nobody on another instance waits for them); the rest are handled in
    their turns and unregistered too; close removes what was registered and never handled."""
    order = stores[0].update_order()
    processor = PerUserOrderedProcessor(max_queued=2)
    processor.order = order
    release = asyncio.Event()
    handled: list[int] = []

    async def handle(update: Update) -> None:
        await release.wait()
        handled.append(update.update_id)

    updates = [_tap(i, 7, 7) for i in range(1, 6)]
    for update in updates:
        await order.register(7, 7, update.update_id)
    tasks = [asyncio.create_task(processor.process_update(u, handle(u))) for u in updates]
    await until(lambda: _true(processor.refused == 3))
    assert await _pending(pg_db) == [1, 2]
    release.set()
    await asyncio.gather(*tasks)
    assert handled == [1, 2]
    assert await _pending(pg_db) == []
    await order.register(7, 7, 9)  # queued when the bot stops: never handled
    await order.close()
    assert await _pending(pg_db) == []


# --- end to end: two bots behind one webhook URL ------------------------------------------------


@dataclass
class Instance(RunningBot):
    """The bot in webhook mode, listening on a port of its own, with Telegram told the
    balancer's URL (what every instance behind one load balancer does)."""

    public_url: str = ""

    @property
    def webhook_url(self) -> str | None:
        self._port = self._port or free_port()
        return self.public_url

    @property
    def local_url(self) -> str:
        return f"http://127.0.0.1:{self._port}/tg-hook"


@pytest.fixture
async def two_instances(fake, pg_db) -> AsyncIterator[tuple[Balancer, Instance, Instance]]:
    """Two bots on one PostgreSQL database behind one webhook URL."""
    balancer = await Balancer().start()
    instances = [
        Instance(fake, pg_db, mode="webhook", public_url=balancer.url)  # type: ignore[arg-type]
        for _ in range(2)
    ]
    try:
        for instance in instances:
            await instance.start()
        balancer.targets = [i.local_url for i in instances]
        yield balancer, instances[0], instances[1]
    finally:
        for instance in instances:
            await instance.stop()
        await balancer.stop()


@pytest.mark.parametrize("later", ["another option", "next"])
async def test_one_users_taps_reaching_two_instances_are_handled_in_update_order(
    fake, pg_db, banks, two_instances, later
):
    """A user taps a (wrong) option, then, while the instance that got that tap is still
    handling it, taps again: another option, or "next" (a tap delivered back to back). The
    balancer sends the second tap to the other instance, which waits for the first tap's turn:
    the first tap is recorded, the second is answered after it (already answered; or the next
    question). Without the order across instances the second tap is handled first (its option
    recorded, or "answer first")."""
    balancer, a, b = two_instances
    t = i18n.catalog("en")
    person = Person(fake, 901, "Ana", language_code="en")
    await person.say("/start", replies=2)
    question = person.question_message()
    right = correct_label(question, banks[BANK_ID], "en")
    wrong = next(label for label in "ABCD" if label != right)
    data = {b["text"]: b["callback_data"] for b in buttons(question)}
    attempt_id, position = data[wrong].split(":")[1:3]

    held: set[int] = set()
    entered, go = asyncio.Event(), asyncio.Event()

    async def gate(update: object, context: object) -> None:  # first in line on instance A
        if isinstance(update, Update) and update.update_id in held:
            entered.set()
            await go.wait()

    assert a.app is not None and b.app is not None
    a.app.add_handler(TypeHandler(Update, gate), group=-2)
    balancer.plan = [0]
    first = fake.tap(person.user_id, person.user_id, question["message_id"], data[wrong])
    held.add(first["update_id"])
    try:
        async with asyncio.timeout(30):
            await entered.wait()  # instance A is handling the first tap (in its turn)
        balancer.plan = [1]
        second = fake.tap(
            person.user_id,
            person.user_id,
            question["message_id"],
            data[right] if later == "another option" else f"n:{attempt_id}:{position}",
            check_button=False,
        )
        ids = [first["callback_query"]["id"], second["callback_query"]["id"]]
        order_b = b.app.update_processor.order  # type: ignore[attr-defined]
        # B waits for the first tap's turn, or (without the order) has handled the second tap
        await fake.wait_for(
            lambda: (order_b is not None and order_b.waiting) or ids[1] in fake.callback_answers,
            timeout=30,
        )
    finally:
        go.set()
    await fake.wait_for(lambda: all(i in fake.callback_answers for i in ids), timeout=30)

    assert balancer.routed[-2:] == [(first["update_id"], 0), (second["update_id"], 1)]
    assert fake.callback_answers[ids[0]].get("text") is None  # the first tap was recorded
    db = await asyncpg.connect(pg_db)
    try:
        answers = await db.fetch("SELECT correct FROM answers")
    finally:
        await db.close()
    assert [bool(r["correct"]) for r in answers] == [False]  # the first tap's option, once
    if later == "another option":
        assert fake.callback_answers[ids[1]]["text"] == t("toast_answered")
    else:
        assert fake.callback_answers[ids[1]].get("text") is None  # not "answer first"
        await fake.wait_for(
            lambda: t("question_header", number=2, total=8) in person.bot_messages()[-1]["text"],
            timeout=30,
        )
    # a turn ends (its pending row deleted) after its callback query was answered: both
    # instances done, without a Bot API call to wake the wait, so rechecked
    await fake.wait_for(
        lambda: (
            not (
                a.app.update_processor.updates_in_flight  # type: ignore[attr-defined]
                or b.app.update_processor.updates_in_flight
            )
        ),  # type: ignore[attr-defined]
        timeout=30,
        recheck=0.02,
    )
    assert await _pending(pg_db) == []


async def test_an_update_the_database_cannot_register_is_delivered_again(fake, pg_db, banks):
    """The database refuses writes when an update comes: its registration fails, the webhook
    answers 500 and nothing is handled; Telegram (the fake) sends it again, and once the
    database takes writes again it is registered, handled and answered once."""
    bot = RunningBot(fake, pg_db, mode="webhook")  # type: ignore[arg-type]
    await bot.start()
    admin = await asyncpg.connect(pg_db)
    try:
        await admin.execute(READ_ONLY_ON)
        person = Person(fake, 902, "Ben", language_code="en")
        update = fake.send_message(person.user_id, "/help")
        await fake.wait_for(
            lambda: (update["update_id"], 500) in fake.webhook_deliveries, timeout=30
        )
        assert person.bot_messages() == []
        await admin.execute(READ_ONLY_OFF)
        await fake.wait_for(lambda: person.bot_messages(), timeout=30)
        statuses = [s for u, s in fake.webhook_deliveries if u == update["update_id"]]
        assert statuses[0] == 500 and statuses[-1] == 200 and statuses.count(200) == 1
        assert len(person.bot_messages()) == 1
    finally:
        await admin.execute(READ_ONLY_OFF)
        await admin.close()
        await bot.stop()
    assert await _pending(pg_db) == []
