"""The creator's side of created quizzes: publish, update, list, edit, export, results, delete.

A created quiz is a bank (:mod:`bot.kernel.library`): every change is a new version whose
document passed the same rules as ``quizbot validate --strict``. The check, the parser and the
dumper are injected by the wiring (``bot.bankload.creators.check_document``,
``bot.bankload.parse_bank``, ``bot.bankload.dump.dump_bank``): the core parses no YAML. They
run in a thread: a 200-question quiz takes a while to check, and the event loop goes on.

Only the owner changes a quiz: any other user is refused (:class:`NotYourQuiz`) and nothing is
read further or written. After every stored change the bank registry is told to forget the
quiz (``forget``), so that the next start loads the new version.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
import re
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.features.myquizzes import translating
from bot.features.myquizzes.documents import fitted, free_id, summary, with_language
from bot.features.myquizzes.exam_presets import exam_choice
from bot.features.myquizzes.problems import (
    NotYourQuiz,
    Problem,
    QuizBusy,
    QuizGone,
    edited_concurrently,
    last_question,
    no_question,
    too_many_questions,
    too_many_quizzes,
)
from bot.features.myquizzes.results import QuizResults, Responses, summarize
from bot.kernel.bank import MAX_QUESTIONS, Bank
from bot.kernel.bankdata import bank_data
from bot.kernel.library import QuizIdTaken, QuizLibrary, QuizRecord, Visibility

MAX_QUIZZES = 100
"""Created quizzes per creator (issue 21's limit)."""
MAX_QUIZ_QUESTIONS = MAX_QUESTIONS
"""Questions per created quiz (200, :data:`bot.kernel.bank.MAX_QUESTIONS`)."""
ID_PREFIX = "c-"
ID_ALPHABET = string.ascii_lowercase + string.digits
ID_LENGTH = 10
"""A created quiz's id: ``c-`` and 10 random characters of a-z, 0-9 (36**10, about 3.7e15
ids): it fits :data:`bot.kernel.bank.ID_PATTERN` and deep links, and is never guessed."""
CREATED_ID = re.compile(re.escape(ID_PREFIX) + f"[{ID_ALPHABET}]{{{ID_LENGTH}}}")
"""What a created quiz's id looks like (:data:`ID_PREFIX` and :data:`ID_LENGTH` characters)."""

ID_TRIES = 5
"""Fresh ids drawn when one is taken, before giving up (a collision is all but impossible)."""
VERSION_TRIES = 3
"""Attempts at storing a new version when a concurrent edit moved the latest version on."""


Check = Callable[[str, str], Bank | Sequence[Problem]]
"""``check(document, file)``: the bank, or the problems of the document (strict rules)."""
Parse = Callable[[str, str], Bank]
"""``parse(document, file)``: the bank of a stored document (raises if it became invalid)."""
Dump = Callable[[Bank | Mapping[str, object]], str]
"""``dump(bank or bank data)``: the YAML document."""


@dataclass(frozen=True)
class Published:
    """A stored version.

    Attributes:
        record: The quiz as stored now.
        bank: The bank of the stored version.
        created: True for a new quiz, False for a new version of one.
    """

    record: QuizRecord
    bank: Bank
    created: bool


@dataclass(frozen=True)
class Rejected:
    """Nothing was stored: ``problems`` lists what to fix (at least one)."""

    problems: tuple[Problem, ...]


@dataclass(frozen=True)
class Owned:
    """One of the owner's quizzes with its latest version's bank."""

    record: QuizRecord
    bank: Bank


Outcome = Published | Rejected
"""What became of a change to a quiz (its refusals are raised: :class:`QuizGone`,
:class:`NotYourQuiz`, :class:`QuizBusy`)."""


@dataclass(frozen=True)
class Submitted:
    """What became of a document a creator sent (:meth:`QuizzesService.submit`).

    Attributes:
        result: The stored version, or the problems (nothing stored).
        not_yours: The document's id when it named someone else's quiz or a featured bank,
            so that a new quiz was made instead (None otherwise).
    """

    result: Published | Rejected
    not_yours: str | None = None


class QuizzesService:
    """Created quizzes, from their creator's side.

    A method on one of the owner's quizzes raises its refusal: :class:`QuizGone` (no such
    quiz), :class:`NotYourQuiz` (someone else's), and for a new version :class:`QuizBusy`
    (concurrent edits); nothing is changed then.

    Args:
        library: The stored quizzes.
        responses: The stored answers (for :meth:`results`).
        check: The strict check of a document (:data:`Check`).
        parse: The parser of a stored document (:data:`Parse`).
        dump: The dumper (:data:`Dump`).
        clock: Seconds since the epoch.
        forget: Called with a quiz's id after each stored change (the bank registry's
            ``forget``).
        rng: Draws the ids of new quizzes (a :class:`random.SystemRandom` by default).
        featured: Whether an id is a featured bank's (the operator's files).
    """

    def __init__(
        self,
        library: QuizLibrary,
        responses: Responses,
        *,
        check: Check,
        parse: Parse,
        dump: Dump,
        clock: Callable[[], float],
        forget: Callable[[str], object] = lambda quiz_id: None,
        rng: random.Random | None = None,
        featured: Callable[[str], bool] = lambda bank_id: False,
    ) -> None:
        self._library = library
        self._responses = responses
        self._check = check
        self._parse = parse
        self._dump = dump
        self._clock = clock
        self._forget = forget
        self._rng = rng or random.SystemRandom()
        self._featured = featured

    # --- publishing ---------------------------------------------------------------------

    def new_id(self) -> str:
        """A fresh random id: :data:`ID_PREFIX` and :data:`ID_LENGTH` characters."""
        return ID_PREFIX + "".join(self._rng.choice(ID_ALPHABET) for _ in range(ID_LENGTH))

    async def publish(
        self,
        owner_id: int,
        document: str | Mapping[str, object],
        *,
        language: str,
        visibility: Visibility = Visibility.LINK,
    ) -> Published | Rejected:
        """Store a new quiz of ``owner_id`` with ``document`` as its version 1.

        The document's ``id`` and ``version`` are replaced (a new id, version 1); bank data
        without ``default_language``/``languages`` gets ``language``. Nothing is stored unless
        the document passes the strict check and the creator has fewer than
        :data:`MAX_QUIZZES` quizzes.
        """
        if not isinstance(document, str):
            document = await asyncio.to_thread(self._dump, with_language(document, language))
        checked = await asyncio.to_thread(self._check, document, "quiz")
        if not isinstance(checked, Bank):
            return Rejected(tuple(checked))
        return await self._create(owner_id, checked, visibility)

    async def _create(
        self, owner_id: int, checked: Bank, visibility: Visibility
    ) -> Published | Rejected:
        """Store the checked bank as version 1 of a new quiz, under a fresh id."""
        if await self._library.count_quizzes(owner_id) >= MAX_QUIZZES:
            return Rejected((too_many_quizzes(MAX_QUIZZES),))
        data = bank_data(checked)
        for _ in range(ID_TRIES):
            quiz_id = self.new_id()
            data.update(id=quiz_id, version=1)
            text = await asyncio.to_thread(self._dump, data)
            bank = dataclasses.replace(checked, id=quiz_id, version=1)
            try:
                record = await self._library.create_quiz(
                    bank.id,
                    owner_id,
                    text,
                    summary(bank),
                    visibility=visibility,
                    now=self._clock(),
                )
            except QuizIdTaken:
                continue  # draw another id
            self._forget(bank.id)
            return Published(record, bank, created=True)
        raise QuizIdTaken(f"{ID_TRIES} random ids in a row were taken")

    async def submit(
        self, owner_id: int, document: str | Mapping[str, object], *, language: str
    ) -> Submitted:
        """A document sent by a creator: the next version of their quiz when its ``id`` is
        one of theirs, else a new quiz (bank data always makes a new one)."""
        if isinstance(document, str):
            checked = await asyncio.to_thread(self._check, document, "quiz")
            if not isinstance(checked, Bank):
                return Submitted(Rejected(tuple(checked)))
            record = await self._library.quiz(checked.id)
            if record is not None and record.owner_id == owner_id:
                try:
                    outcome = await self._store(owner_id, checked.id, checked=checked)
                except (QuizGone, NotYourQuiz, QuizBusy):  # edited elsewhere all along
                    outcome = Rejected((edited_concurrently(),))
                return Submitted(outcome)
            not_yours = checked.id if record is not None or self._featured(checked.id) else None
            return Submitted(await self._create(owner_id, checked, Visibility.LINK), not_yours)
        return Submitted(await self.publish(owner_id, document, language=language))

    async def update(
        self,
        owner_id: int,
        quiz_id: str,
        document: str | Mapping[str, object],
    ) -> Outcome:
        """Store ``document`` as the next version of the owner's quiz ``quiz_id`` (its ``id``
        and ``version`` are replaced by the quiz's); nothing is stored unless it passes the
        strict check.

        Raises:
            QuizGone, NotYourQuiz, QuizBusy: nothing was stored (:meth:`_store`).
        """
        if not isinstance(document, str):
            document = await asyncio.to_thread(self._dump, document)
        checked = await asyncio.to_thread(self._check, document, "quiz")
        if not isinstance(checked, Bank):
            await self._owned_record(owner_id, quiz_id)  # a refusal before the problems
            return Rejected(tuple(checked))
        return await self._store(owner_id, quiz_id, checked=checked)

    async def _store(
        self,
        owner_id: int,
        quiz_id: str,
        edit: Callable[[dict[str, Any]], dict[str, Any] | Rejected] | None = None,
        *,
        checked: Bank | None = None,
    ) -> Outcome:
        """Apply ``edit`` to the latest version's bank data (or take the ``checked`` bank as
        it is) and store the result as the next version; re-read and apply again when a
        concurrent edit got there first.

        Raises:
            QuizGone: no such quiz (or its latest version is gone).
            NotYourQuiz: the quiz is someone else's.
            QuizBusy: other edits moved the latest version on :data:`VERSION_TRIES` times.
        """
        for _ in range(VERSION_TRIES):
            record = await self._owned_record(owner_id, quiz_id)
            version = record.version + 1
            if checked is not None:  # a whole new document, checked already
                bank = dataclasses.replace(checked, id=quiz_id, version=version)
                text = await asyncio.to_thread(self._dump, bank)
            else:
                assert edit is not None
                latest = await self._library.quiz_version(quiz_id, record.version)
                if latest is None:
                    raise QuizGone(quiz_id)
                data = edit(
                    bank_data(await asyncio.to_thread(self._parse, latest.document, quiz_id))
                )
                if isinstance(data, Rejected):
                    return data
                data.update(id=quiz_id, version=version)
                text = await asyncio.to_thread(self._dump, data)
                found = await asyncio.to_thread(self._check, text, quiz_id)
                if not isinstance(found, Bank):
                    return Rejected(tuple(found))
                bank = found
            stored = await self._library.add_version(
                quiz_id, text, summary(bank), now=self._clock()
            )
            if stored is not None:
                self._forget(quiz_id)
                return Published(stored, bank, created=False)
        raise QuizBusy(quiz_id)

    # --- the owner's quizzes --------------------------------------------------------------

    async def quizzes(self, owner_id: int) -> list[QuizRecord]:
        """The owner's quizzes, most recently updated first (disabled ones included)."""
        return await self._library.quizzes_of(owner_id)

    async def _owned_record(self, owner_id: int, quiz_id: str) -> QuizRecord:
        """The owner's quiz as stored.

        Raises:
            QuizGone: no such quiz.
            NotYourQuiz: the quiz is someone else's.
        """
        record = await self._library.quiz(quiz_id)
        if record is None:
            raise QuizGone(quiz_id)
        if record.owner_id != owner_id:
            raise NotYourQuiz(quiz_id)
        return record

    async def quiz(self, owner_id: int, quiz_id: str) -> Owned:
        """The owner's quiz with its latest bank.

        Raises:
            QuizGone, NotYourQuiz: as :meth:`owned`.
        """
        record = await self._owned_record(owner_id, quiz_id)
        latest = await self._library.quiz_version(quiz_id, record.version)
        if latest is None:
            raise QuizGone(quiz_id)
        return Owned(record, await asyncio.to_thread(self._parse, latest.document, quiz_id))

    async def export(self, owner_id: int, quiz_id: str) -> tuple[QuizRecord, str]:
        """The owner's quiz and its latest document (the YAML a creator edits and sends
        back).

        Raises:
            QuizGone, NotYourQuiz: as :meth:`owned`.
        """
        record = await self._owned_record(owner_id, quiz_id)
        latest = await self._library.quiz_version(quiz_id, record.version)
        if latest is None:
            raise QuizGone(quiz_id)
        return record, latest.document

    async def owned(self, owner_id: int, quiz_id: str) -> QuizRecord:
        """The owner's quiz, without reading its questions (:meth:`quiz` reads them).

        Raises:
            QuizGone: no such quiz.
            NotYourQuiz: the quiz is someone else's.
        """
        return await self._owned_record(owner_id, quiz_id)

    async def set_visibility(
        self, owner_id: int, quiz_id: str, visibility: Visibility
    ) -> QuizRecord:
        """Make the owner's quiz link-only or public; the quiz as stored now.

        Raises:
            QuizGone, NotYourQuiz: as :meth:`owned` (nothing changed).
        """
        await self._owned_record(owner_id, quiz_id)
        if not await self._library.set_visibility(quiz_id, visibility, now=self._clock()):
            raise QuizGone(quiz_id)
        self._forget(quiz_id)
        changed = await self._library.quiz(quiz_id)
        if changed is None:
            raise QuizGone(quiz_id)
        return changed

    async def delete(self, owner_id: int, quiz_id: str) -> QuizRecord:
        """Delete the owner's quiz and its versions (answers on it stay); the deleted
        record.

        Raises:
            QuizGone, NotYourQuiz: as :meth:`owned` (nothing deleted).
        """
        record = await self._owned_record(owner_id, quiz_id)
        if not await self._library.delete_quiz(quiz_id):
            raise QuizGone(quiz_id)
        self._forget(quiz_id)
        return record

    # --- edits: each a new version ------------------------------------------------------------

    async def rename(self, owner_id: int, quiz_id: str, title: str) -> Outcome:
        """Set the title in the quiz's default language (other languages keep theirs)."""

        def edit(data: dict[str, Any]) -> dict[str, Any]:
            data["title"] = {**data["title"], data["default_language"]: title}
            return data

        return await self._store(owner_id, quiz_id, edit)

    async def add_question(
        self, owner_id: int, quiz_id: str, question: Mapping[str, Any]
    ) -> Outcome:
        """Append a question (bank data; texts in one language are given in every language
        of the quiz, for the creator to translate in an export; a free id is chosen)."""

        def edit(data: dict[str, Any]) -> dict[str, Any] | Rejected:
            questions = data["questions"]
            if len(questions) >= MAX_QUIZ_QUESTIONS:
                return Rejected((too_many_questions(MAX_QUIZ_QUESTIONS),))
            questions.append(fitted(question, data, free_id(questions)))
            return data

        return await self._store(owner_id, quiz_id, edit)

    async def replace_question(
        self, owner_id: int, quiz_id: str, number: int, question: Mapping[str, Any]
    ) -> Outcome:
        """Replace question ``number`` (1-based) by ``question``, under a new id (answers to
        the old question stay apart from the new one's)."""

        def edit(data: dict[str, Any]) -> dict[str, Any] | Rejected:
            questions = data["questions"]
            if not 1 <= number <= len(questions):
                return Rejected((no_question(number),))
            questions[number - 1] = fitted(question, data, free_id(questions))
            return data

        return await self._store(owner_id, quiz_id, edit)

    async def set_exam(self, owner_id: int, quiz_id: str, choice: int) -> Outcome:
        """Change the quiz's exam mode by the preset ``choice`` (:func:`exam_choice`): off, or
        one of its minutes, draws or markings (exam mode turned on with the other defaults);
        a new version."""

        def edit(data: dict[str, Any]) -> dict[str, Any]:
            chosen = exam_choice(data.get("exam"), choice, len(data["questions"]))
            data.pop("exam", None)
            if chosen is not None:
                questions = data.pop("questions")
                data["exam"] = chosen
                data["questions"] = questions  # the exam block before the questions, as documented
            return data

        return await self._store(owner_id, quiz_id, edit)

    async def move_question(self, owner_id: int, quiz_id: str, number: int, to: int) -> Outcome:
        """Move question ``number`` to place ``to`` (both 1-based)."""

        def edit(data: dict[str, Any]) -> dict[str, Any] | Rejected:
            questions = data["questions"]
            if not (1 <= number <= len(questions) and 1 <= to <= len(questions)):
                return Rejected((no_question(number if not 1 <= number <= len(questions) else to),))
            questions.insert(to - 1, questions.pop(number - 1))
            return data

        return await self._store(owner_id, quiz_id, edit)

    async def delete_question(self, owner_id: int, quiz_id: str, number: int) -> Outcome:
        """Delete question ``number`` (1-based); the last question cannot be deleted."""

        def edit(data: dict[str, Any]) -> dict[str, Any] | Rejected:
            questions = data["questions"]
            if not 1 <= number <= len(questions):
                return Rejected((no_question(number),))
            if len(questions) == 1:
                return Rejected((last_question(),))
            del questions[number - 1]
            return data

        return await self._store(owner_id, quiz_id, edit)

    async def add_language(
        self, owner_id: int, quiz_id: str, language: str, given: Mapping[str, Sequence[str]]
    ) -> Outcome:
        """Add ``language`` to the quiz with the texts ``given`` per question id
        (:func:`bot.features.myquizzes.translating.with_language`); checked as any version, the
        item-writing checks (the answer-leak one too) in that language as well. A quiz changed
        so that a text is missing is refused (``quizzes.toast_busy``)."""

        def edit(data: dict[str, Any]) -> dict[str, Any] | Rejected:
            if language in data["languages"]:
                return Rejected((edited_concurrently(),))
            added = translating.with_language(data, language, given)
            return Rejected((edited_concurrently(),)) if added is None else added

        return await self._store(owner_id, quiz_id, edit)

    # --- results ------------------------------------------------------------------------

    async def results(self, owner_id: int, quiz_id: str) -> tuple[Owned, QuizResults]:
        """The quiz's results over every stored answer, private and group, of any version
        (per question: the questions of the latest version).

        Raises:
            QuizGone, NotYourQuiz: as :meth:`quiz`.
        """
        owned = await self.quiz(owner_id, quiz_id)
        responses = await self._responses.item_responses(bank_id=quiz_id)
        return owned, summarize(owned.bank, responses)
