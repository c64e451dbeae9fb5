"""Storage of homework and chats' time zones (:class:`bot.features.homework.ports.HomeworkStore`,
:class:`bot.features.homework.ports.TimeZoneStore`) against a real database, on each engine (a
SQLite file, and PostgreSQL: the ``engine`` fixture)."""

from __future__ import annotations

import asyncio

import pytest

from bot.features.homework.ports import NewAssignment, TokenTaken
from bot.features.homework.rules import CANCELLED, CLOSED, OPEN, REMINDERS, reminder_due
from bot.kernel.engine import Answer, Plan
from tests.support.engines import record

GROUP, SUPERGROUP = -100, -1001234567890
PLAN = Plan(("q1", "q2"), ((0, 1), (1, 0)))
HOUR, DAY = 3_600.0, 86_400.0


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


def new(
    token: str = "hwAAAAAAAAAAAAAAAA",
    *,
    chat_id: int = GROUP,
    deadline: float = 10 * DAY,
    set_by: int = 1,
) -> NewAssignment:
    return NewAssignment(chat_id, None, token, "bank", 3, "en", set_by, "Teacher <b>", deadline)


async def play(store, user_id: int, *, answers: int = 2, at: float = 100.0, right: bool = True):
    """Start an attempt of ``user_id`` at ``at`` and answer ``answers`` of its two questions
    (``right`` or not), one second apart; the attempt as stored."""
    attempt = await store.start_attempt(user_id, "bank", 3, PLAN, at)
    for n in range(answers):
        question = PLAN.question_order[n]
        outcome = await record(
            store, attempt, Answer(question, 0 if right else 1, right, at + n + 1)
        )
        assert outcome == "recorded"
        attempt = await store.attempt(attempt.id)
    return attempt


async def join(
    store,
    assignment,
    user_id: int,
    attempt,
    *,
    now: float = 100.0,
    name: str = "Ann",
    language: str = "en",
) -> None:
    assert await store.link_attempt(
        assignment.id, user_id, attempt.id, name=name, language=language, now=now, replacing=None
    )


async def test_an_assignment_is_stored_and_read_by_id_and_token(store):
    """create_assignment stores an open assignment with nothing posted; it reads back by id and
    by token, and unknown ones read as None."""
    made = await store.create_assignment(new(), now=5.0)
    assert (
        made.chat_id,
        made.token,
        made.bank_id,
        made.bank_version,
        made.language,
        made.set_by,
        made.set_by_name,
        made.created_at,
        made.deadline,
        made.status,
        made.message_id,
        made.shown_finished,
        made.finished,
    ) == (
        GROUP,
        "hwAAAAAAAAAAAAAAAA",
        "bank",
        3,
        "en",
        1,
        "Teacher <b>",
        5.0,
        10 * DAY,
        OPEN,
        None,
        0,
        0,
    )
    assert await store.assignment(made.id) == made
    assert await store.assignment_by_token(made.token) == made
    assert await store.assignment(made.id + 1) is None
    assert await store.assignment_by_token("hwBBBBBBBBBBBBBBBB") is None


async def test_a_taken_token_is_refused_and_the_first_assignment_stays(store):
    """A second assignment with the same token raises TokenTaken, while a write committed with
    it in the same group commit is stored."""
    first = await store.create_assignment(new(), now=5.0)
    taken, other = await asyncio.gather(
        store.create_assignment(new(chat_id=-200), now=6.0),
        store.create_assignment(new("hwCCCCCCCCCCCCCCCC"), now=6.0),
        return_exceptions=True,
    )
    assert isinstance(taken, TokenTaken)
    assert other.token == "hwCCCCCCCCCCCCCCCC"
    assert await store.assignment_by_token(first.token) == first


async def test_only_linked_attempts_finished_by_the_deadline_count(store):
    """The finished count and a member's ``counted`` come from their linked attempt: finished
    at or before the deadline counts; unfinished, finished late, or an unlinked attempt does
    not."""
    homework = await store.create_assignment(new(deadline=1_000.0), now=5.0)
    await join(store, homework, 1, await play(store, 1, at=100.0))  # finished at 102
    await join(store, homework, 2, await play(store, 2, answers=1))  # unfinished
    await join(store, homework, 3, await play(store, 3, at=999.0))  # finished at 1001
    await play(store, 4)  # never opened it
    assert (await store.assignment(homework.id)).finished == 1
    members = {m.user_id: m for m in await store.members(homework.id)}
    assert sorted(members) == [1, 2, 3]
    assert [members[u].counted for u in (1, 2, 3)] == [True, False, False]
    assert (members[1].finished_at, members[1].started_at, members[1].attempt_status) == (
        102.0,
        100.0,
        "finished",
    )
    assert members[2].attempt_status == "active"
    assert await store.member(homework.id, 4) is None


async def test_linking_is_a_compare_and_set_on_the_linked_attempt(store):
    """A member is linked once; a replacement must name the attempt it replaces; nothing links
    to homework that is no longer open."""
    homework = await store.create_assignment(new(), now=5.0)
    first = await play(store, 1, answers=0)
    await join(store, homework, 1, first, name="Ann")
    second = await play(store, 1, answers=0, at=200.0)
    assert not await store.link_attempt(
        homework.id, 1, second.id, name="Ann", language="en", now=200.0, replacing=None
    )
    assert not await store.link_attempt(
        homework.id, 1, second.id, name="Ann", language="en", now=200.0, replacing=second.id
    )
    assert await store.link_attempt(
        homework.id, 1, second.id, name="Ann B", language="el", now=200.0, replacing=first.id
    )
    member = await store.member(homework.id, 1)
    assert (member.attempt_id, member.name, member.language, member.opened_at) == (
        second.id,
        "Ann B",
        "el",
        100.0,
    )
    await store.refresh_member(homework.id, 1, name="Ann C", language="hi")
    assert (await store.member(homework.id, 1)).name == "Ann C"
    assert await store.cancel_assignment(homework.id, now=300.0) is not None
    third = await play(store, 2, answers=0)
    assert not await store.link_attempt(
        homework.id, 2, third.id, name="Bo", language="en", now=300.0, replacing=None
    )
    assert await store.member(homework.id, 2) is None


async def test_closing_announcing_and_reporting_are_each_claimed_once(store):
    """Due homework is listed for closing until closed; closed homework for its results until
    claimed, then for its report until claimed; each claim succeeds once."""
    due = await store.create_assignment(new(deadline=500.0), now=5.0)
    later = await store.create_assignment(new("hwDDDDDDDDDDDDDDDD", deadline=900.0), now=5.0)
    assert [a.id for a in await store.due_closing(600.0, limit=10)] == [due.id]
    assert await store.close_assignment(later.id, 600.0, due_by=600.0) is None  # not due
    closed = await store.close_assignment(due.id, 600.0, due_by=600.0)
    assert (closed.status, closed.closed_at, closed.deadline) == (CLOSED, 600.0, 500.0)
    assert await store.close_assignment(due.id, 601.0, due_by=601.0) is None
    assert await store.due_closing(600.0, limit=10) == []
    assert [a.id for a in await store.due_announcing(limit=10)] == [due.id]
    assert await store.due_reporting(limit=10) == []
    assert not await store.mark_reported(due.id, 602.0)  # the group's results come first
    assert await store.mark_announced(due.id, 602.0)
    assert not await store.mark_announced(due.id, 603.0)
    assert await store.due_announcing(limit=10) == []
    assert [a.id for a in await store.due_reporting(limit=10)] == [due.id]
    assert await store.mark_reported(due.id, 604.0)
    assert not await store.mark_reported(due.id, 605.0)
    assert await store.due_reporting(limit=10) == []
    stored = await store.assignment(due.id)
    assert (stored.announced_at, stored.reported_at) == (602.0, 604.0)


async def test_a_claimed_send_is_a_lease_until_it_is_settled(store):
    """A claim of results (or a report) not settled is claimable again only once it is stale
    (a process died after the claim, or the send's result is unknown); released (surely not
    sent) it is due at once; confirmed it is never due again, whatever the lease."""
    due = await store.create_assignment(new(deadline=500.0), now=5.0)
    await store.close_assignment(due.id, 600.0, due_by=600.0)
    assert await store.mark_announced(due.id, 602.0, stale_before=302.0)
    assert await store.due_announcing(limit=10, stale_before=601.0) == []
    assert not await store.mark_announced(due.id, 603.0, stale_before=601.0)
    assert [a.id for a in await store.due_announcing(limit=10, stale_before=902.0)] == [due.id]
    assert await store.mark_announced(due.id, 903.0, stale_before=902.0)  # the lease ran out
    assert await store.settle_send(due.id, "results", sent=False, now=904.0)  # released
    assert [a.id for a in await store.due_announcing(limit=10, stale_before=0.0)] == [due.id]
    assert await store.mark_announced(due.id, 905.0, stale_before=0.0)
    assert await store.settle_send(due.id, "results", sent=True, now=906.0)
    assert not await store.settle_send(due.id, "results", sent=False, now=907.0)
    assert await store.due_announcing(limit=10, stale_before=10**9) == []
    assert not await store.mark_announced(due.id, 10**9, stale_before=10**9)
    assert await store.mark_reported(due.id, 910.0, stale_before=610.0)
    assert not await store.mark_reported(due.id, 911.0, stale_before=610.0)
    assert [a.id for a in await store.due_reporting(limit=10, stale_before=1210.0)] == [due.id]
    assert await store.settle_send(due.id, "report", sent=True, now=912.0)
    assert await store.due_reporting(limit=10, stale_before=10**9) == []


async def test_an_early_close_moves_the_deadline_and_cancel_and_extend_need_it_open(store):
    """Closing early makes the close the deadline (later finishes do not count); cancel and
    extend change only open homework, and extend forgets who was reminded."""
    homework = await store.create_assignment(new(deadline=10 * DAY), now=5.0)
    await join(store, homework, 1, await play(store, 1, answers=1), now=50.0)
    assert await store.mark_reminded(homework.id, 1, DAY)
    extended = await store.extend_assignment(homework.id, 20 * DAY)
    assert extended.deadline == 20 * DAY
    assert (await store.member(homework.id, 1)).reminded is None
    closed = await store.close_assignment(homework.id, 700.0, due_by=None)
    assert (closed.status, closed.deadline, closed.closed_at) == (CLOSED, 700.0, 700.0)
    assert await store.extend_assignment(homework.id, 30 * DAY) is None
    assert await store.cancel_assignment(homework.id, 800.0) is None
    other = await store.create_assignment(new("hwEEEEEEEEEEEEEEEE"), now=5.0)
    cancelled = await store.cancel_assignment(other.id, 800.0)
    assert (cancelled.status, cancelled.closed_at) == (CANCELLED, 800.0)
    assert await store.close_assignment(other.id, 900.0, due_by=None) is None
    assert await store.due_announcing(limit=10) == [await store.assignment(homework.id)]


async def test_progress_is_due_when_the_count_changed_and_the_last_edit_is_old(store):
    """due_progress lists posted open homework whose finished count differs from the one shown
    and whose last edit is old enough; mark_progress is a compare-and-set on the last edit."""
    homework = await store.create_assignment(new(), now=5.0)
    assert await store.due_progress(1_000.0, min_seconds=60.0, limit=10) == []  # not posted
    assert await store.set_assignment_message(homework.id, 77, now=100.0)
    await join(store, homework, 1, await play(store, 1, at=110.0))
    assert await store.due_progress(150.0, min_seconds=60.0, limit=10) == []  # too soon
    [due] = await store.due_progress(160.0, min_seconds=60.0, limit=10)
    assert (due.message_id, due.shown_finished, due.finished, due.shown_at) == (77, 0, 1, 100.0)
    assert await store.mark_progress(homework.id, 1, 160.0, shown_at=100.0)
    assert not await store.mark_progress(homework.id, 1, 161.0, shown_at=100.0)
    assert await store.due_progress(10_000.0, min_seconds=60.0, limit=10) == []  # unchanged
    stored = await store.assignment(homework.id)
    assert (stored.shown_finished, stored.shown_at) == (1, 160.0)


async def test_reminders_are_read_as_the_core_rule_says_and_claimed_once(store):
    """due_reminders reads exactly the members :func:`reminder_due` gives a threshold to, at
    moments around both thresholds, and mark_reminded claims each threshold once."""
    deadline = 3 * DAY
    homework = await store.create_assignment(new(deadline=deadline), now=0.0)
    opened = {1: 100.0, 2: deadline - 20 * HOUR, 3: deadline - 0.5 * HOUR, 4: 100.0}
    for user_id, at in opened.items():
        await join(store, homework, user_id, await play(store, user_id, answers=0, at=at), now=at)
    await join(store, homework, 5, await play(store, 5, at=200.0), now=200.0)  # finished
    for now in (
        deadline - 30 * HOUR,
        deadline - 24 * HOUR,
        deadline - 2 * HOUR,
        deadline - HOUR,
        deadline - 0.1 * HOUR,
        deadline,
    ):
        read = await store.due_reminders(now, REMINDERS, limit=100)
        expected = {
            u for u, at in opened.items() if reminder_due(deadline, at, None, now) is not None
        }
        assert {member.user_id for _, member in read} == expected, now
    assert await store.mark_reminded(homework.id, 1, DAY)
    assert not await store.mark_reminded(homework.id, 1, DAY)
    read = await store.due_reminders(deadline - 2 * HOUR, REMINDERS, limit=100)
    assert {member.user_id for _, member in read} == {4}
    assert await store.mark_reminded(homework.id, 1, HOUR)
    assert not await store.mark_reminded(homework.id, 1, DAY)  # a farther one: passed
    read = await store.due_reminders(deadline - 0.5 * HOUR, REMINDERS, limit=100)
    assert {member.user_id for _, member in read} == {2, 4}


async def test_homework_answers_are_those_of_linked_attempts_before_the_deadline(store):
    """homework_answers gives each member's linked attempt's answers up to the deadline, with
    the attempt's start and its finish only if it counts."""
    homework = await store.create_assignment(new(deadline=1_000.0), now=5.0)
    await join(store, homework, 1, await play(store, 1, at=100.0, right=False), name="Ann")
    await join(
        store, homework, 2, await play(store, 2, at=998.5), now=150.0, name="Bo", language="el"
    )  # its second answer comes after the deadline
    await play(store, 3)
    answers = await store.homework_answers(homework.id)
    assert [
        (
            a.user_id,
            a.name,
            a.question_id,
            a.option_index,
            a.correct,
            a.answered_at,
            a.started_at,
            a.finished_at,
            a.language,
        )
        for a in answers
    ] == [
        (1, "Ann", "q1", 1, False, 101.0, 100.0, 102.0, "en"),
        (1, "Ann", "q2", 1, False, 102.0, 100.0, 102.0, "en"),
        (2, "Bo", "q1", 0, True, 999.5, 998.5, None, "el"),
    ]


async def test_time_zones_are_stored_and_move_with_the_group(store):
    """A chat's time zone reads back as set (None before), and a supergroup upgrade moves it
    with the group's settings; homework moves too, its group message forgotten."""
    assert await store.time_zone(GROUP) is None
    await store.set_time_zone(GROUP, "Europe/Athens", 1.0)
    await store.set_time_zone(GROUP, "Asia/Kolkata", 2.0)
    assert await store.time_zone(GROUP) == "Asia/Kolkata"
    homework = await store.create_assignment(new(), now=5.0)
    closed = await store.create_assignment(new("hwFFFFFFFFFFFFFFFF"), now=5.0)
    await store.close_assignment(closed.id, 6.0, due_by=None)
    await store.set_assignment_message(homework.id, 77, now=7.0)
    await store.move_chat(GROUP, SUPERGROUP)
    assert (await store.time_zone(GROUP), await store.time_zone(SUPERGROUP)) == (
        None,
        "Asia/Kolkata",
    )
    moved = await store.move_assignments(GROUP, SUPERGROUP)
    assert [(a.id, a.chat_id, a.message_id) for a in moved] == [(homework.id, SUPERGROUP, None)]
    assert await store.move_assignments(GROUP, SUPERGROUP) == []
    assert [a.id for a in await store.assignments_of(SUPERGROUP, limit=10)] == [
        homework.id,
        closed.id,
    ]
    assert await store.assignments_of(GROUP, limit=10) == []


async def test_assignments_of_lists_open_then_closed_without_cancelled(store):
    """assignments_of gives open homework by deadline, then closed homework latest first,
    leaves cancelled homework out, and stops at its limit."""
    made = [
        await store.create_assignment(new(f"hw{n:016d}", deadline=deadline), now=5.0)
        for n, deadline in enumerate((900.0, 500.0, 800.0, 300.0, 700.0))
    ]
    await store.close_assignment(made[3].id, 1.0, due_by=None)
    await store.close_assignment(made[2].id, 2.0, due_by=None)
    await store.cancel_assignment(made[4].id, 3.0)
    listed = await store.assignments_of(GROUP, limit=10)
    assert [a.id for a in listed] == [made[1].id, made[0].id, made[2].id, made[3].id]
    assert len(await store.assignments_of(GROUP, limit=2)) == 2


async def test_deleting_a_user_removes_their_homework_links_and_name(store):
    """delete_user deletes the member's link with their attempts and keeps the homework they
    set for its group without their id or name."""
    homework = await store.create_assignment(new(set_by=9), now=5.0)
    await join(store, homework, 1, await play(store, 1))
    await join(store, homework, 2, await play(store, 2))
    await store.delete_user(1)
    await store.delete_user(9)
    assert [m.user_id for m in await store.members(homework.id)] == [2]
    stored = await store.assignment(homework.id)
    assert (stored.set_by, stored.set_by_name, stored.finished) == (0, "", 1)


async def test_upgrading_a_database_adds_the_homework_tables_and_keeps_its_data(engine):
    """A database at version 12 is migrated to 13: its attempts stay, and homework and time
    zones can be stored."""
    old = await engine.open(upto=12)
    attempt = await old.start_attempt(7, "bank", 3, PLAN, 1.0)
    await old.close()
    upgraded = await engine.open()
    try:
        assert await upgraded.schema_version() == len(engine.migrations()) >= 13
        assert await upgraded.attempt(attempt.id) == attempt
        homework = await upgraded.create_assignment(new(), now=5.0)
        await join(upgraded, homework, 7, attempt)
        await upgraded.set_time_zone(GROUP, "UTC", 6.0)
        assert await upgraded.time_zone(GROUP) == "UTC"
    finally:
        await upgraded.close()


async def test_a_backup_keeps_homework_links_and_time_zones(tmp_path):
    """A SQLite backup of an open database holds its homework, the members' links and the
    chats' time zones, and the restored copy reads them back."""
    from storage import SQLiteStore
    from storage.backup import backup

    path, copy = tmp_path / "live.sqlite3", tmp_path / "copy.sqlite3"
    store = await SQLiteStore.open(path)
    try:
        homework = await store.create_assignment(new(), now=5.0)
        await join(store, homework, 1, await play(store, 1))
        await store.set_time_zone(GROUP, "Europe/Athens", 6.0)
        backup(path, copy)
    finally:
        await store.close()
    restored = await SQLiteStore.open(copy)
    try:
        assert (await restored.assignment(homework.id)).finished == 1
        assert [m.user_id for m in await restored.members(homework.id)] == [1]
        assert await restored.time_zone(GROUP) == "Europe/Athens"
    finally:
        await restored.close()


async def test_the_last_edit_of_a_group_message_is_due_after_the_results_and_claimed_once(store):
    """A closed homework's group message is due its last edit once its results were claimed,
    a cancelled one's at once; never without a message; each claimed once."""
    closed = await store.create_assignment(new(deadline=500.0), now=5.0)
    cancelled = await store.create_assignment(new("hwGGGGGGGGGGGGGGGG", deadline=900.0), now=5.0)
    unposted = await store.create_assignment(new("hwHHHHHHHHHHHHHHHH"), now=5.0)
    for made in (closed, cancelled):
        await store.set_assignment_message(made.id, 70 + made.id, now=6.0)
    await store.close_assignment(closed.id, 600.0, due_by=600.0)
    await store.cancel_assignment(cancelled.id, 600.0)
    await store.cancel_assignment(unposted.id, 600.0)
    assert [a.id for a in await store.due_finals(limit=10)] == [cancelled.id]
    assert not await store.mark_final(closed.id, 601.0)  # its results first
    await store.mark_announced(closed.id, 601.0)
    assert [a.id for a in await store.due_finals(limit=10)] == [closed.id, cancelled.id]
    assert await store.mark_final(closed.id, 602.0)
    assert not await store.mark_final(closed.id, 603.0)
    assert not await store.mark_final(unposted.id, 603.0)
    assert [a.id for a in await store.due_finals(limit=10)] == [cancelled.id]
    assert (await store.assignment(closed.id)).final_at == 602.0


def test_the_operations_guide_states_the_send_lease():
    """docs/operations.md says how long a homework send's claim holds: the code's lease."""
    from pathlib import Path

    from bot.features.homework.rules import SEND_LEASE

    docs = " ".join(
        (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text().split()
    )
    assert f"repeated after {SEND_LEASE / 60:g} minutes for homework results" in docs
