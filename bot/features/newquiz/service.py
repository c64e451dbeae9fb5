"""The /newquiz use cases: a creator's draft, read and stored through ``DraftStore`` around each
step of the draft machine (:mod:`bot.features.newquiz.steps`), and published at ``/done`` through
:class:`~bot.features.myquizzes.service.QuizzesService`.

Each method reads the creator's draft, applies one step and stores the result when it changed,
so a draft survives a restart; a draft left :data:`~bot.features.newquiz.rules.DRAFT_DAYS` days is
dropped (when read, and by :meth:`CreatorService.prune`). New questions are rate-limited per
creator (:data:`~bot.features.newquiz.rules.QUESTIONS_PER_MINUTE`, aiolimiter's leaky bucket): a
flood gets one polite answer, not one per message.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

from aiolimiter import AsyncLimiter
from cachetools import LRUCache

from bot.features.myquizzes.service import Published, Rejected
from bot.features.newquiz import draftbank, steps
from bot.features.newquiz import rules as creating
from bot.features.newquiz.draft import Draft, Step
from bot.features.newquiz.rules import Outcome, PollSent, Refused, Stale
from bot.kernel.library import DraftStore

log = logging.getLogger(__name__)

Publish = Callable[[int, Mapping[str, object], str], Awaitable[Published | Rejected]]
"""``publish(owner_id, bank data, language)``: :meth:`QuizzesService.publish`."""

LIMITERS = 10_000
"""Creators whose rate of new questions is tracked at once (the least recent are forgotten:
a forgotten bucket had long drained)."""


@dataclass(frozen=True)
class Opened:
    """A draft to show: a new one (``fresh``) or one gone on with, and what to ask."""

    draft: Draft
    outcome: creating.Prompt | creating.AskRight
    fresh: bool


@dataclass(frozen=True)
class DraftOpen:
    """/newquiz while a draft is open: ask whether to go on with it or start over."""

    draft: Draft


@dataclass(frozen=True)
class Changed:
    """One step applied: the draft as it is now, and the step's outcome."""

    draft: Draft
    outcome: Outcome


@dataclass(frozen=True)
class Flooded:
    """Too many new questions in a minute: nothing changed; ``first`` of the burst only is
    answered."""

    first: bool


@dataclass(frozen=True)
class NoDraft:
    """The creator has no draft (never made, published, cancelled or dropped)."""


StepResult = Changed | Flooded | NoDraft
"""What a step of the draft comes to."""


class CreatorService:
    """Drafts of quizzes, one per creator.

    Args:
        drafts: Where drafts are kept.
        publish: Stores a finished draft as a quiz (:data:`Publish`).
        clock: Seconds since the epoch.
        rate: (new questions, seconds) per creator.
    """

    def __init__(
        self,
        drafts: DraftStore,
        publish: Publish,
        *,
        clock: Callable[[], float],
        rate: tuple[float, float] = (creating.QUESTIONS_PER_MINUTE, 60.0),
    ) -> None:
        self._drafts = drafts
        self._publish = publish
        self._clock = clock
        self.rate = rate
        self._limiters: LRUCache[int, AsyncLimiter] = LRUCache(LIMITERS)
        self._flooded: LRUCache[int, None] = LRUCache(LIMITERS)

    async def draft(self, user_id: int) -> Draft | None:
        """The creator's open draft; None if there is none (one left too long, or unreadable,
        is dropped)."""
        stored = await self._drafts.draft(user_id)
        if stored is None:
            return None
        if steps.expired(stored.updated_at, self._clock()):
            await self._drafts.drop_draft(user_id)
            return None
        try:
            return Draft.from_data(stored.data)
        except ValueError:
            log.warning("draft of user %s unreadable: dropped", user_id, exc_info=True)
            await self._drafts.drop_draft(user_id)
            return None

    async def _save(self, user_id: int, draft: Draft) -> None:
        await self._drafts.save_draft(user_id, draft.to_data(), now=self._clock())

    async def new(self, user_id: int, language: str) -> Opened | DraftOpen:
        """/newquiz: a new draft in ``language``, unless one is open."""
        draft = await self.draft(user_id)
        if draft is not None:
            return DraftOpen(draft)
        return await self._fresh(user_id, language)

    async def _fresh(self, user_id: int, language: str) -> Opened:
        draft, prompt = steps.start(language, now=self._clock())
        await self._save(user_id, draft)
        return Opened(draft, prompt, fresh=True)

    async def restart(self, user_id: int, language: str, started: int) -> Opened | Stale:
        """ "Start over": drop the draft opened at ``started`` and open a new one (a stale
        button, of a draft replaced since, changes nothing)."""
        draft = await self.draft(user_id)
        if draft is not None and draft.started != started:
            return Stale()
        return await self._fresh(user_id, language)

    async def resume(self, user_id: int, started: int) -> Opened | Stale:
        """ "Continue" the draft opened at ``started``."""
        draft = await self.draft(user_id)
        if draft is None or draft.started != started:
            return Stale()
        return Opened(draft, steps.resume(draft), fresh=False)

    async def cancel(self, user_id: int) -> bool:
        """/cancel: drop the draft; False if there was none."""
        return await self._drafts.drop_draft(user_id)

    async def text(
        self,
        user_id: int,
        text: str,
        *,
        message_id: int,
        quotes: Sequence[str] = (),
        reply_to: int | None = None,
    ) -> StepResult:
        """A text message (a title, a description, a question, an explanation)."""
        return await self._apply(
            user_id,
            lambda d: steps.take_text(
                d, text, message_id=message_id, quotes=quotes, reply_to=reply_to
            ),
            adds=reply_to is None,
        )

    async def poll(self, user_id: int, poll: PollSent) -> StepResult:
        """A poll sent or forwarded."""
        return await self._apply(user_id, lambda d: steps.take_poll(d, poll), adds=True)

    async def photo(
        self,
        user_id: int,
        file_id: str,
        *,
        caption: str,
        message_id: int,
        quotes: Sequence[str] = (),
        album: str | None = None,
    ) -> StepResult:
        """A photo (with or without a question as its caption), of the album ``album`` (its
        ``media_group_id``) or alone."""
        return await self._apply(
            user_id,
            lambda d: steps.take_photo(
                d, file_id, caption=caption, message_id=message_id, quotes=quotes, album=album
            ),
            adds=bool(caption.strip()),
        )

    async def album_noted(self, user_id: int, album: str, message_id: int) -> None:
        """The bot's answer ``message_id`` stands for the album (edited as more photos come)."""
        draft = await self.draft(user_id)
        if draft is not None:
            changed = steps.album_noted(draft, album, message_id)
            if changed != draft:
                await self._save(user_id, changed)

    async def skip(self, user_id: int) -> StepResult:
        """/skip."""
        return await self._apply(user_id, steps.skip)

    async def choose(self, user_id: int, started: int, serial: int, option: int) -> StepResult:
        """A tap on an option of the pending poll ``serial`` of the draft opened at
        ``started`` (a button of another draft is stale)."""
        return await self._apply(
            user_id, lambda d: steps.choose(d, serial, option), started=started
        )

    async def confirm(self, user_id: int, started: int, serial: int) -> StepResult:
        """ "Done" under a pending poll of several right options."""
        return await self._apply(user_id, lambda d: steps.confirm(d, serial), started=started)

    async def undo(self, user_id: int, started: int, serial: int) -> StepResult:
        """Undo of question ``serial`` of the draft opened at ``started``."""
        return await self._apply(user_id, lambda d: steps.undo(d, serial), started=started)

    async def keep_original(self, user_id: int, started: int, serial: int) -> StepResult:
        """ "Keep the original" under question ``serial`` of the draft opened at ``started``."""
        return await self._apply(user_id, lambda d: steps.keep_original(d, serial), started=started)

    async def noted(self, user_id: int, serial: int, message_id: int) -> None:
        """The bot's confirmation ``message_id`` stands for question ``serial`` (a reply to it
        explains the question)."""
        draft = await self.draft(user_id)
        if draft is not None:
            await self._save(user_id, steps.noted(draft, serial, message_id))

    async def done(
        self, user_id: int, *, description: str
    ) -> Published | Rejected | Refused | NoDraft:
        """/done: publish the draft (``description`` stands in for a skipped one); the draft
        is dropped once the quiz is stored, and kept when it has problems to fix."""
        draft = await self.draft(user_id)
        if draft is None:
            return NoDraft()
        refused = steps.finish(draft)
        if refused is not None:
            return refused
        outcome = await self._publish(
            user_id, draftbank.bank_data(draft, description=description), draft.language
        )
        if isinstance(outcome, Published):
            await self._drafts.drop_draft(user_id)
        return outcome

    async def prune(self) -> int:
        """Drop the drafts left longer than :data:`~bot.features.newquiz.rules.DRAFT_DAYS` days;
        returns how many."""
        return await self._drafts.drop_drafts(before=self._clock() - creating.DRAFT_SECONDS)

    async def _apply(
        self,
        user_id: int,
        step: Callable[[Draft], tuple[Draft, Outcome]],
        *,
        adds: bool = False,
        started: int | None = None,
    ) -> StepResult:
        """Read the draft, apply ``step``, store the draft if it changed. With ``adds`` (the
        step may add a question), the creator's rate of new questions is checked first; with
        ``started`` (a button's), a draft opened at another time is not the button's: stale."""
        draft = await self.draft(user_id)
        if draft is None:
            return NoDraft()
        if started is not None and draft.started != started:
            return Changed(draft, Stale())
        limited = adds and draft.step is Step.QUESTIONS
        if limited and not self._has_capacity(user_id):
            first = user_id not in self._flooded
            self._flooded[user_id] = None
            return Flooded(first)
        changed, outcome = step(draft)
        if changed != draft:
            await self._save(user_id, changed)
        if limited and isinstance(outcome, creating.Added | creating.AskRight):
            await self._limiter(user_id).acquire()  # at once: capacity was checked
            self._flooded.pop(user_id, None)
        return Changed(changed, outcome)

    def _limiter(self, user_id: int) -> AsyncLimiter:
        limiter = self._limiters.get(user_id)
        if limiter is None:
            limiter = self._limiters[user_id] = AsyncLimiter(*self.rate)
        return limiter

    def _has_capacity(self, user_id: int) -> bool:
        return self._limiter(user_id).has_capacity()
