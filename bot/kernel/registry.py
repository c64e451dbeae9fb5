"""The one bank registry every service reaches banks through: the featured banks (the files of
``banks/``, held in memory and replaced at once on a reload) and the created quizzes (stored in
a :class:`~bot.kernel.library.QuizLibrary`, read on demand).

A created quiz's versions are immutable, so each parsed version is kept in an LRU cache by
(id, version) and never goes stale. What may change under a version (the latest version, the
operator's takedown, a deletion) is read from the quiz's record, kept for a short while
(:data:`RECORD_SECONDS`): a change made by this process is seen at once when its maker calls
:meth:`BankRegistry.forget`; one made elsewhere (``quizbot banks disable`` in another process,
another instance on PostgreSQL) within that while.

Rules (the source: issue 21, "attempts and group sessions planned on an older version finish
on it"):

- a featured bank is served at its loaded version only: an attempt planned on an older one
  meets :class:`~bot.kernel.engine.BankChanged`, as before created quizzes existed;
- a created quiz is served at any stored version, so an attempt or a group session finishes
  on the version it was planned on, while new ones start on the latest;
- a disabled (taken down) or deleted created quiz starts nothing (:class:`BankUnavailable`,
  an :class:`~bot.kernel.engine.UnknownBank`), and what is in progress on it ends as on a
  removed bank file: its next tap is refused as :class:`~bot.kernel.engine.BankChanged`, and
  the attempt is abandoned when next resumed. A takedown is for content that must not be
  shown any more, so it is not played to the end.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from cachetools import LRUCache, TTLCache

from bot.kernel.bank import Bank
from bot.kernel.engine import BankChanged, UnknownBank
from bot.kernel.library import QuizLibrary, QuizRecord

log = logging.getLogger(__name__)

BANK_CACHE = 1000
"""Parsed versions of created quizzes kept in memory (the least recently used go first)."""

RECORD_SECONDS = 30.0
"""Seconds a created quiz's record (latest version, disabled) is kept before it is read again:
how long a change made outside this process may take to be seen."""

Parse = Callable[[str, str], Bank]
"""Parses and validates a bank document: (YAML text, name for messages) -> the bank; raises on
an invalid document (``bot.bankload.parse_bank``, injected by the wiring)."""


class BankUnavailable(UnknownBank):
    """A created quiz that exists but may not be started: taken down by the operator."""


class BankRegistry:
    """Featured banks and created quizzes, by id.

    Args:
        featured: The banks of ``banks/`` by id, in display order.
        library: Where created quizzes are stored; None (the terminal without a database, the
            tests of featured banks): featured banks only.
        parse: Reads a stored version's document (required with ``library``).
        cache_size: Parsed created versions kept (:data:`BANK_CACHE`).
        record_seconds: How long a quiz's record is kept (:data:`RECORD_SECONDS`).
        timer: The clock of the record cache, in seconds (monotonic).
    """

    def __init__(
        self,
        featured: Mapping[str, Bank],
        library: QuizLibrary | None = None,
        *,
        parse: Parse | None = None,
        cache_size: int = BANK_CACHE,
        record_seconds: float = RECORD_SECONDS,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        if library is not None and parse is None:
            raise ValueError("a library of created quizzes needs a parse function")
        self._featured: Mapping[str, Bank] = MappingProxyType(dict(featured))
        self.library = library
        self._parse = parse
        self._banks: LRUCache[tuple[str, int], Bank] = LRUCache(cache_size)
        self._records: TTLCache[str, QuizRecord | None] = TTLCache(
            max(cache_size, 1), record_seconds, timer=timer
        )

    # --- featured banks (in memory: sync) ------------------------------------------------

    @property
    def featured(self) -> Mapping[str, Bank]:
        """The featured banks by id, in display order (read-only; :meth:`replace` swaps it)."""
        return self._featured

    @property
    def default_bank(self) -> Bank | None:
        """The only featured bank when exactly one is installed, else None (the user
        chooses)."""
        banks = self._featured
        return next(iter(banks.values())) if len(banks) == 1 else None

    def replace(self, featured: Mapping[str, Bank]) -> None:
        """Serve ``featured`` from now on (a reload): one swap, seen by every service at once.
        Attempts and sessions planned on a featured bank whose version changed, or that is
        gone, meet :class:`~bot.kernel.engine.BankChanged`. Created quizzes are not touched."""
        self._featured = MappingProxyType(dict(featured))

    def is_featured(self, bank_id: str) -> bool:
        """Whether ``bank_id`` is a featured bank now."""
        return bank_id in self._featured

    # --- any bank (may read the database: async) ---------------------------------------------

    def forget(self, quiz_id: str) -> None:
        """Drop the cached record of created quiz ``quiz_id``, so that its new version, its
        new visibility, its takedown or its deletion is seen by the next read. Whoever changes
        a created quiz in this process calls it after the change is stored (publishing a new
        version, a visibility change, a deletion, a takedown). Parsed versions stay cached:
        they never change; a deleted quiz's are unreachable once its record says it is gone."""
        self._records.pop(quiz_id, None)

    async def record(self, quiz_id: str) -> QuizRecord | None:
        """The stored record of created quiz ``quiz_id`` (disabled or not), None if there is
        none (or no library); kept :data:`RECORD_SECONDS`.

        Raises:
            StorageError: the library could not be read.
        """
        if self.library is None:
            return None
        try:
            return self._records[quiz_id]
        except KeyError:
            pass
        record = await self.library.quiz(quiz_id)
        self._records[quiz_id] = record
        return record

    async def bank(self, bank_id: str, version: int | None = None) -> Bank:
        """The bank ``bank_id``: the latest version (to start it), or exactly ``version`` (to
        go on with what was planned on it).

        Raises:
            UnknownBank: ``version`` is None and there is no such bank (a deleted quiz
                included); :class:`BankUnavailable` when it is a created quiz taken down.
            BankChanged: ``version`` is given and that version of the bank cannot be served
                (a featured bank at another version now, a created quiz taken down or
                deleted, a version not stored).
            StorageError: the library could not be read.
        """
        featured = self._featured.get(bank_id)
        if featured is not None:
            if version is not None and version != featured.version:
                raise BankChanged(bank_id)
            return featured
        record = await self.record(bank_id)
        if record is None:
            raise UnknownBank(bank_id) if version is None else BankChanged(bank_id)
        if record.disabled:
            raise BankUnavailable(bank_id) if version is None else BankChanged(bank_id)
        wanted = record.version if version is None else version
        bank = await self._version(record, wanted)
        if bank is None:
            raise UnknownBank(bank_id) if version is None else BankChanged(bank_id)
        return bank

    async def find(self, bank_id: str, version: int) -> Bank | None:
        """The bank an attempt or a session planned on ``version`` of ``bank_id`` goes on with,
        or None when it cannot (see :meth:`bank`): what :func:`bot.kernel.engine.check_bank`
        and the engine's checks take. A featured bank is returned at its loaded version
        (the engine compares versions, and re-plans an edit made without a version bump).

        Raises:
            StorageError: the library could not be read.
        """
        featured = self._featured.get(bank_id)
        if featured is not None:
            return featured
        try:
            return await self.bank(bank_id, version)
        except BankChanged:
            return None

    async def startable(self, bank_id: str) -> bool:
        """Whether :meth:`bank` would start ``bank_id`` (featured, or created and enabled).

        Raises:
            StorageError: the library could not be read.
        """
        try:
            await self.bank(bank_id)
        except UnknownBank:
            return False
        return True

    async def loaded(self, bank_ids: Sequence[str]) -> dict[str, Bank]:
        """The latest version of each of ``bank_ids`` that can be started, by id, in the
        order given; the others are left out (for review cards, /stats, progress).

        Raises:
            StorageError: the library could not be read.
        """
        found: dict[str, Bank] = {}
        for bank_id in bank_ids:
            try:
                found[bank_id] = await self.bank(bank_id)
            except UnknownBank:
                continue
        return found

    async def search(self, query: str, *, limit: int) -> list[QuizRecord]:
        """Public, enabled created quizzes whose title contains ``query`` (the library's
        :meth:`~bot.kernel.library.QuizLibrary.search_quizzes`: case-insensitive; all of them
        for ""), most recently updated first, at most ``limit``; none without a library. Their
        records are kept (:data:`RECORD_SECONDS`), so that :meth:`bank` of one reads no record
        again.

        Raises:
            StorageError: the library could not be read.
        """
        if self.library is None or limit <= 0:
            return []
        records = await self.library.search_quizzes(query, limit=limit)
        for record in records:
            self._records[record.id] = record
        return records

    async def _version(self, record: QuizRecord, version: int) -> Bank | None:
        """Version ``version`` of the created quiz ``record``, parsed (cached), or None when it
        is not stored or no longer parses (logged: it was valid when stored)."""
        key = (record.id, version)
        cached = self._banks.get(key)
        if cached is not None:
            return cached
        assert self.library is not None and self._parse is not None  # a record came from it
        stored = await self.library.quiz_version(record.id, version)
        if stored is None:
            return None
        try:
            # in a thread: a parse takes milliseconds of CPU, which the event loop (every
            # other update) would otherwise wait for
            bank = await asyncio.to_thread(
                self._parse, stored.document, f"quiz {record.id} v{version}"
            )
        except Exception:  # any refusal of the parser: unplayable, not fatal
            log.exception(
                "created quiz %s version %d no longer parses: not served", record.id, version
            )
            return None
        if bank.id != record.id or bank.version != version:
            log.error(
                "created quiz %s version %d is stored as bank %s version %d: not served",
                record.id,
                version,
                bank.id,
                bank.version,
            )
            return None
        self._banks[key] = bank
        return bank

    @staticmethod
    def of(banks: BankRegistry | Mapping[str, Bank]) -> BankRegistry:
        """``banks`` if it is a registry, else a registry of those featured banks alone (what a
        service made with a plain mapping of banks serves)."""
        return banks if isinstance(banks, BankRegistry) else BankRegistry(banks)
