"""Polling that handles each update once across crashes and failovers.

**What Telegram does.** getUpdates returns the updates whose ``update_id`` is at least its
``offset``; "an update is considered confirmed as soon as getUpdates is called with an offset
higher than its update_id", and a confirmed update is never sent again (Bot API, getUpdates).
PTB's updater asks, in each getUpdates, for the offset after the last update it fetched, and
quizbot sends that getUpdates as soon as the batch is queued (``bot.app.poll_pace``), before
the batch is handled. Left so, a process killed (``kill -9``, a lost machine) or a standby
taking the poller lease over (:mod:`storage.leases`) would lose the updates of the batch
that were still being handled (Telegram had dropped them), and, when the confirming
getUpdates had not reached Telegram yet, would get the updates it had handled again: a quiz
imported twice, a question added twice.

**What quizbot does** (:class:`PolledUpdates`):

- *Confirm only what was handled*: the getUpdates transport
  (:class:`bot.telegram.transport.AiohttpRequest`) asks for an offset no higher than the
  lowest update fetched and not yet handled (:meth:`PolledUpdates.offset`), and at most
  :data:`HOLD_BACK` below PTB's. Telegram sends the updates in hand again in each answer; they
  are dropped before PTB builds them (:meth:`PolledUpdates.fresh`). An answer with nothing new
  makes the next getUpdates wait (:meth:`PolledUpdates.pace`) until the lowest update in hand
  is handled, or :data:`STALE_SECONDS`, so that the poll does not spin on the updates in hand.
- *Mark what was handled*: each update's ``update_id`` is marked in ``handled_updates`` once
  its handler returned (the webhook's marks, :mod:`storage.handled`), in batches: one statement
  per write of the storage, however many updates were handled meanwhile (the store's writer,
  on either engine, commits it with the other writes queued:
  :class:`storage.handled.HandledMarks`). When polling starts (a restart, a standby taking
  over), the highest mark is read once; an update at or below it is looked up in its turn
  (its (chat, sender)'s updates are handled in order) and dropped when it is marked. Later
  updates cost no read. The marks left at a stop are written before the storage closes; an
  update cancelled by a stop that gave up waiting is neither confirmed nor marked, and comes
  again at the next start.

*Taps on the buttons of answering are not held* (:func:`held`, :data:`REPLAYABLE`): handled
twice they store nothing twice, lost they are tapped again, so they are confirmed by the next
getUpdates and cost no mark; a quiz's taps then never wait on a held poll, nor pay a write.

What stays possible: an update handled whose mark was not yet written (the process died in the
few milliseconds between) is handled again; an update still being handled when
:data:`HOLD_BACK` more were fetched after it (a very slow one under a flood of others) is
confirmed unhandled, and is lost if the process dies before it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from typing import Any

from bot.kernel.ports import StorageError
from bot.render import callbacks as render_callbacks
from bot.telegram.updateorder import HandledUpdates

log = logging.getLogger(__name__)

HOLD_BACK = 20
"""How far (in ``update_id``) the offset asked of Telegram stays at most below PTB's. Every
getUpdates answer carries the updates held back again, and getUpdates returns at most 100
updates (its ``limit``): most of them stay for new ones, so that slow updates do not keep
the bot from fetching the others', and a busy bot still takes its updates in large batches
(each getUpdates costs about what handling an update does). The updates in hand further back
are confirmed unhandled (see the module's docstring)."""

STALE_SECONDS = 0.02
"""The longest a getUpdates waits after an answer with nothing new in it (only updates in
hand), when the lowest of those is not handled sooner: how much later than at once an update
sent meanwhile is fetched, while one update takes long (a file being checked, a flood wait)."""


REPLAYABLE = frozenset(
    kind.PREFIX
    for kind in (
        render_callbacks.AnswerButton,
        render_callbacks.NextButton,
        render_callbacks.ShownButton,
        render_callbacks.TickButton,
        render_callbacks.SubmitButton,
        render_callbacks.GroupAnswerButton,
        render_callbacks.GroupTickButton,
        render_callbacks.GroupSubmitButton,
        render_callbacks.DailyAnswerButton,
    )
)
"""The buttons of answering (a quiz's options, ticks and Submit, "Next"; a group's, a day's
question's): a tap on one handled twice stores nothing twice (each answer is stored once, per
question and attempt, member or post, and a tap on a question answered already shows what was
recorded; a "Next" handled again after a restart may show its question once more), and one
lost in a crash is tapped again, as a tap without a reply is."""


def held(update: Any) -> bool:
    """Whether ``update`` (a PTB ``Update``) holds getUpdates' offset back while it is handled,
    and is marked handled: all but a tap on a button of answering (:data:`REPLAYABLE`) or an
    inline query. Holding those back made every getUpdates sent while a tap was handled come
    back at once with only that tap, and wait; and marking each cost the hot path a write: a
    quiz's taps, nearly always some in hand, each came later and cost more. Messages (commands,
    files, a draft's questions) and the other buttons (setting homework, publishing a quiz)
    are held: handled twice they would act twice."""
    if update.inline_query is not None:
        return False
    query = update.callback_query
    if query is None:
        return True
    return (query.data or "").split(":", 1)[0] not in REPLAYABLE


class PolledUpdates:
    """The updates fetched by polling and not yet handled; the offset that confirms the others
    only; the marks of the handled ones (see the module's docstring).

    Args:
        hold_back: See :data:`HOLD_BACK`.
        stale_seconds: See :data:`STALE_SECONDS`.
    """

    def __init__(self, *, hold_back: int = HOLD_BACK, stale_seconds: float = STALE_SECONDS) -> None:
        self.hold_back = hold_back
        self.stale_seconds = stale_seconds
        self._open: OrderedDict[int, None] = OrderedDict()  # fetched, not handled: ascending
        self._light: set[int] = set()  # fetched, not handled, not held (see held())
        self._asked = 0  # the offset PTB asked for in the last getUpdates
        self._stale = False  # the last answer had nothing new
        self._moved: asyncio.Event | None = None  # set when the lowest open update is handled
        self._store: HandledUpdates | None = None
        self._bot_id = 0
        self._marked_before = 0  # updates up to this id may have been handled before the start
        self._to_mark: list[int] = []
        self._marking: asyncio.Task[None] | None = None
        self.repeated = 0
        """How many updates were dropped as handled before this start."""

    @property
    def in_hand(self) -> int:
        """How many fetched updates are not handled yet (for tests and monitoring)."""
        return len(self._open)

    async def start(self, store: HandledUpdates, bot_id: int) -> None:
        """Mark the handled updates of bot ``bot_id`` in ``store`` from now on; read the highest
        mark (the updates up to it are looked up before they are handled). A failed read is
        logged, and nothing is looked up."""
        self._store, self._bot_id = store, bot_id
        try:
            last = await store.last_handled(bot_id)
        except StorageError as exc:
            log.warning(
                "could not read which updates were handled before this start (%s): "
                "an update handled just before it may be handled again",
                exc,
            )
            return
        self._marked_before = last or 0

    # --- the getUpdates transport's side -----------------------------------------------------

    def offset(self, asked: int) -> int:
        """The getUpdates ``offset`` to send for PTB's ``asked``: the lowest update not yet
        handled, when that is lower (and at most :attr:`hold_back` lower)."""
        self._asked = asked
        if asked <= 0 or not self._open:
            return asked
        lowest = next(iter(self._open))
        return max(min(asked, lowest), asked - self.hold_back)

    def fresh(self, updates: list[Any]) -> list[Any]:
        """getUpdates' answer (decoded) without the updates fetched before (below the offset
        PTB asked for: in hand, or handled and not yet confirmed)."""
        asked = self._asked
        if asked <= 0 or not updates or updates[0].get("update_id", asked) >= asked:
            self._stale = False
            return updates
        kept = [u for u in updates if u.get("update_id", asked) >= asked]
        self._stale = not kept
        return kept

    async def pace(self) -> None:
        """Awaited before each getUpdates: after an answer with nothing new, wait until the
        lowest update in hand is handled, or :attr:`stale_seconds`; else return at once."""
        if not self._stale:
            return
        self._stale = False
        if not self._open:
            return
        moved = self._moved = asyncio.Event()
        try:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.stale_seconds):
                    await moved.wait()
        finally:
            self._moved = None

    # --- the update queue's and the processor's side -----------------------------------------

    def queued(self, update_id: int, *, hold: bool = True) -> None:
        """Update ``update_id`` was fetched and queued: when ``hold``, not to be confirmed
        until it is :meth:`done`, then marked; else (see :func:`held`) confirmed by the next
        getUpdates as usual, and not marked."""
        if hold:
            self._open[update_id] = None
        else:
            self._light.add(update_id)

    async def handled_before(self, update_id: int) -> bool:
        """Whether update ``update_id`` was marked handled before this start (then it is counted
        and logged, and is to be dropped); False when it cannot tell (a repetition beats a
        loss)."""
        if update_id > self._marked_before or self._store is None:
            return False
        try:
            handled = await self._store.handled(self._bot_id, update_id)
        except StorageError as exc:
            log.warning(
                "update %s: could not check whether it was handled before this start "
                "(%s); handling it",
                update_id,
                exc,
            )
            return False
        if handled:
            self.repeated += 1
            log.info("update %s was handled before this start: dropped", update_id)
        return handled

    def done(self, update_id: int) -> None:
        """Update ``update_id`` was handled (or dropped, or failed): it may be confirmed, and it
        is marked (in the next batch of marks)."""
        if update_id in self._light:  # not held back: nothing to confirm nor mark
            self._light.discard(update_id)
            return
        if update_id in self._open:
            lowest = next(iter(self._open)) == update_id
            del self._open[update_id]
            if lowest and self._moved is not None:
                self._moved.set()
        else:
            return
        if self._store is None:
            return
        self._to_mark.append(update_id)
        if self._marking is None or self._marking.done():
            self._marking = asyncio.create_task(self._mark(), name="quizbot-marks")

    async def _mark(self) -> None:
        """Write the marks queued, batch after batch, until none is left."""
        assert self._store is not None
        while self._to_mark:
            batch, self._to_mark = self._to_mark, []
            try:
                await self._store.mark_many(self._bot_id, batch)
            except StorageError as exc:
                log.warning(
                    "%d handled update(s) could not be marked (%s): after a crash "
                    "they may be handled again",
                    len(batch),
                    exc,
                )
            except Exception:
                log.exception("%d handled update(s) could not be marked", len(batch))

    async def flush(self) -> None:
        """Wait until the marks queued are written (at a stop, before the storage closes)."""
        if self._marking is not None:
            await asyncio.shield(self._marking)
