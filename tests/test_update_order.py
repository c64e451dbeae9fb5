"""One user's updates in order across instances receiving one bot's webhooks on one PostgreSQL
(storage/order.py): the lock key, the turns between two instances, their failure modes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage import PostgresStore
from storage.leases import POLLER_NAMESPACE, SESSION_NAMESPACE, PostgresLeases
from storage.order import ORDER_NAMESPACE, PostgresUpdateOrder, order_key
from storage.postgres import MIGRATION_LOCK, PSEUDONYM_LOCK
from tests.test_postgres_instances import until

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
    assert all(-2**31 <= k < 2**31 for k in keys)
    others = {MIGRATION_LOCK[0], PSEUDONYM_LOCK[0], SESSION_NAMESPACE, POLLER_NAMESPACE}
    assert ORDER_NAMESPACE not in others and -2**31 <= ORDER_NAMESPACE < 2**31


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


# --- turns between two instances ---------------------------------------------------------------

async def _pending(pg_db: str) -> list[int]:
    db = await asyncpg.connect(pg_db)
    try:
        return [r[0] for r in await db.fetch(
            "SELECT update_id FROM pending_updates ORDER BY update_id")]
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
                " AND objid = $2 AND granted", ORDER_NAMESPACE, order_key(GROUP, 42) % 2**32)
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
    from bot.quiz.ports import StorageError

    order = PostgresUpdateOrder("postgresql://quizbot@/quizbot?host=/nonexistent-folder")
    with pytest.raises(StorageError):
        await order.register(GROUP, 42, 1)
    async with order.turn(GROUP, 42, 1) as held:
        assert not held
    await order.forget(GROUP, 42, 2)
    await order.close()
    assert order.gave_up == 1
