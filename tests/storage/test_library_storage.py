"""Storage of created quizzes and drafts (:class:`bot.kernel.library.QuizLibrary`,
:class:`bot.kernel.library.DraftStore`) against a real database, on each engine (a SQLite file,
and PostgreSQL: the ``engine`` fixture)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.kernel.library import QuizIdTaken, QuizSummary, Visibility
from storage.library import contains_pattern

PUBLIC, LINK = Visibility.PUBLIC, Visibility.LINK


def document(quiz_id: str, version: int = 1, title: str = "Capitals") -> str:
    """A bank document of ``quiz_id`` at ``version`` (what the creator-side service stores)."""
    return (
        f"id: {quiz_id}\nversion: {version}\ndefault_language: en\n"
        f"title: {{en: {title!r}}}\ndescription: {{en: made in Telegram}}\nquestions: []\n"
    )


def summary(title: str = "Capitals", questions: int = 3, language: str = "en") -> QuizSummary:
    return QuizSummary(title=title, language=language, questions=questions)


async def create(
    store,
    quiz_id: str,
    owner_id: int = 7,
    *,
    title: str = "Capitals",
    visibility: Visibility = LINK,
    now: float = 100.0,
):
    return await store.create_quiz(
        quiz_id,
        owner_id,
        document(quiz_id, title=title),
        summary(title),
        visibility=visibility,
        now=now,
    )


@pytest.fixture
async def store(engine):
    s = await engine.open()
    yield s
    await s.close()


async def test_a_new_quiz_is_stored_with_its_first_version(store):
    """create_quiz stores the record (version 1, owner, summary, visibility) and the document,
    both read back as stored."""
    made = await create(store, "c-abcdefghij", title="Capitals <b>&", visibility=PUBLIC)
    assert (
        made.id,
        made.owner_id,
        made.version,
        made.title,
        made.language,
        made.questions,
        made.visibility,
        made.disabled,
        made.created_at,
        made.updated_at,
    ) == ("c-abcdefghij", 7, 1, "Capitals <b>&", "en", 3, PUBLIC, False, 100.0, 100.0)
    assert await store.quiz("c-abcdefghij") == made
    stored = await store.quiz_version("c-abcdefghij")
    assert (stored.quiz_id, stored.version, stored.created_at) == ("c-abcdefghij", 1, 100.0)
    assert stored.document == document("c-abcdefghij", title="Capitals <b>&")
    assert await store.quiz("c-nothere00") is None
    assert await store.quiz_version("c-nothere00") is None


async def test_a_taken_id_is_refused_and_the_first_quiz_stays(store):
    """A second create_quiz with the same id raises QuizIdTaken and changes nothing, and a
    write in the same group commit is not failed with it."""
    first = await create(store, "c-samesame00")
    others = await asyncio.gather(
        create(store, "c-samesame00", owner_id=8, title="Other"),
        store.save_draft(8, {"title": "x"}, now=1.0),
        return_exceptions=True,
    )
    assert isinstance(others[0], QuizIdTaken) and others[1] is None
    assert await store.quiz("c-samesame00") == first
    assert (await store.quiz_version("c-samesame00")).document == document("c-samesame00")
    assert await store.draft(8) is not None


async def test_a_document_of_another_quiz_or_version_is_refused(store):
    """The stored document must name the quiz's id and the version being stored: a mismatch
    raises ValueError and stores nothing."""
    with pytest.raises(ValueError):
        await store.create_quiz(
            "c-aaaaaaaaaa", 7, document("c-bbbbbbbbbb"), summary(), visibility=LINK, now=1.0
        )
    with pytest.raises(ValueError):
        await store.create_quiz(
            "c-aaaaaaaaaa", 7, document("c-aaaaaaaaaa", 2), summary(), visibility=LINK, now=1.0
        )
    assert await store.all_quizzes() == []
    await create(store, "c-aaaaaaaaaa")
    with pytest.raises(ValueError):
        await store.add_version("c-aaaaaaaaaa", "id: c-aaaaaaaaaa\n", summary(), now=2.0)
    assert (await store.quiz("c-aaaaaaaaaa")).version == 1


async def test_each_edit_is_a_new_version_and_older_ones_are_kept(store):
    """add_version stores latest + 1 and moves the summary; every earlier version stays
    readable by number, the latest is the default."""
    await create(store, "c-versions00")
    second = await store.add_version(
        "c-versions00", document("c-versions00", 2, "Rivers"), summary("Rivers", 5, "el"), now=200.0
    )
    assert (
        second.version,
        second.title,
        second.language,
        second.questions,
        second.created_at,
        second.updated_at,
    ) == (2, "Rivers", "el", 5, 100.0, 200.0)
    third = await store.add_version(
        "c-versions00", document("c-versions00", 3, "Seas"), summary("Seas", 6), now=300.0
    )
    assert third.version == 3 and await store.quiz("c-versions00") == third
    for version, title in ((1, "Capitals"), (2, "Rivers"), (3, "Seas")):
        stored = await store.quiz_version("c-versions00", version)
        assert stored.document == document("c-versions00", version, title)
    assert (await store.quiz_version("c-versions00")).version == 3
    assert await store.quiz_version("c-versions00", 4) is None
    # a version that skips one, or of a quiz that is not there, is not stored
    assert (
        await store.add_version("c-versions00", document("c-versions00", 5), summary(), now=400.0)
        is None
    )
    assert (
        await store.add_version("c-nothere00", document("c-nothere00", 2), summary(), now=400.0)
        is None
    )
    assert (await store.quiz("c-versions00")).version == 3


async def test_of_two_concurrent_edits_of_one_version_one_is_stored(engine, store):
    """Two instances storing version 2 of one quiz at once: exactly one is stored, the other
    gets None (it reads again), and the stored document is the winner's."""
    await create(store, "c-race000000")
    other = await engine.open()
    try:
        results = await asyncio.gather(
            *(
                s.add_version(
                    "c-race000000", document("c-race000000", 2, title), summary(title), now=200.0
                )
                for s, title in ((store, "Mine"), (other, "Theirs"))
            )
        )
    finally:
        await other.close()
    stored = [r for r in results if r is not None]
    assert len(stored) == 1 and results.count(None) == 1
    assert (await store.quiz("c-race000000")).title == stored[0].title
    assert (await store.quiz_version("c-race000000", 2)).document == document(
        "c-race000000", 2, stored[0].title
    )


async def test_search_finds_public_enabled_quizzes_by_title_newest_first(store):
    """search_quizzes matches a part of the title in any case (Greek and Latin), only public
    and enabled quizzes, newest update first, at most ``limit``; "%" and "_" match
    themselves; an empty query lists every public quiz."""
    await create(store, "c-greek00000", title="ΜΑΘΗΜΑΤΙΚΑ Α΄", visibility=PUBLIC, now=1.0)
    await create(store, "c-latin00000", title="Basic Mathematics", visibility=PUBLIC, now=2.0)
    await create(store, "c-hidden0000", title="Mathematics, link only", now=3.0)
    await create(store, "c-down000000", title="Mathematics taken down", visibility=PUBLIC, now=4.0)
    await store.set_disabled("c-down000000", True, now=5.0)
    await create(store, "c-percent000", title="100% maths_fun", visibility=PUBLIC, now=6.0)

    def ids(found):
        return [q.id for q in found]

    assert ids(await store.search_quizzes("μαθη", limit=10)) == ["c-greek00000"]
    assert ids(await store.search_quizzes("MATHEM", limit=10)) == ["c-latin00000"]
    assert ids(await store.search_quizzes("math", limit=10)) == ["c-percent000", "c-latin00000"]
    assert ids(await store.search_quizzes("0% m", limit=10)) == ["c-percent000"]
    assert ids(await store.search_quizzes("s_f", limit=10)) == ["c-percent000"]
    assert ids(await store.search_quizzes("_", limit=10)) == ["c-percent000"]
    assert ids(await store.search_quizzes("", limit=10)) == [
        "c-percent000",
        "c-latin00000",
        "c-greek00000",
    ]
    assert ids(await store.search_quizzes("", limit=2)) == ["c-percent000", "c-latin00000"]
    assert await store.search_quizzes("", limit=0) == []
    # an edit moves a quiz up; making it public puts it in, link-only takes it out
    await store.add_version(
        "c-greek00000", document("c-greek00000", 2), summary("Γεωμετρία"), now=7.0
    )
    assert ids(await store.search_quizzes("", limit=1)) == ["c-greek00000"]
    assert ids(await store.search_quizzes("γεωμ", limit=5)) == ["c-greek00000"]
    await store.set_visibility("c-hidden0000", PUBLIC, now=8.0)
    await store.set_visibility("c-latin00000", LINK, now=8.0)
    assert ids(await store.search_quizzes("mathematics", limit=10)) == ["c-hidden0000"]


def test_a_search_pattern_escapes_like_wildcards():
    """The LIKE pattern casefolds the query and escapes its wildcards and the escape."""
    assert contains_pattern("A%b_\\Σ") == "%a\\%b\\_\\\\σ%"


async def test_a_search_walks_the_public_index_on_sqlite(tmp_path):
    """SQLite answers a search from the partial index of public, enabled quizzes, in its
    order (no table scan, no sort)."""
    path = tmp_path / "quiz.sqlite3"
    from storage import SQLiteStore

    store = await SQLiteStore.open(path)
    await store.close()
    with sqlite3.connect(path) as db:
        plan = " ".join(
            row[3]
            for row in db.execute(
                "EXPLAIN QUERY PLAN SELECT id FROM quizzes WHERE visibility = 'public'"
                " AND disabled = 0 AND title_key LIKE ? ESCAPE '\\'"
                " ORDER BY updated_at DESC, id DESC LIMIT ?",
                ("%a%", 10),
            )
        )
    assert "quizzes_public" in plan and "TEMP B-TREE" not in plan


async def test_owners_lists_counts_and_the_operators_list(store):
    """quizzes_of lists one owner's quizzes (disabled ones too) most recently updated first;
    count_quizzes counts them; all_quizzes lists everyone's, newest first."""
    await create(store, "c-one0000000", owner_id=7, now=1.0)
    await create(store, "c-two0000000", owner_id=7, now=2.0)
    await create(store, "c-three00000", owner_id=8, now=3.0)
    await store.set_disabled("c-one0000000", True, now=4.0)
    assert [q.id for q in await store.quizzes_of(7)] == ["c-one0000000", "c-two0000000"]
    assert (await store.quizzes_of(7))[0].disabled is True
    assert (
        await store.count_quizzes(7),
        await store.count_quizzes(8),
        await store.count_quizzes(9),
    ) == (2, 1, 0)
    assert [q.id for q in await store.all_quizzes()] == [
        "c-three00000",
        "c-two0000000",
        "c-one0000000",
    ]
    assert await store.quizzes_of(9) == []


async def test_visibility_and_disabling_change_only_that_quiz(store):
    """set_visibility and set_disabled change the quiz and its updated_at, and say False for
    a quiz that is not there; enabling puts a quiz back."""
    await create(store, "c-settings00")
    assert await store.set_visibility("c-settings00", PUBLIC, now=50.0)
    changed = await store.quiz("c-settings00")
    assert (changed.visibility, changed.updated_at, changed.created_at) == (PUBLIC, 50.0, 100.0)
    assert await store.set_disabled("c-settings00", True, now=60.0)
    assert (await store.quiz("c-settings00")).disabled is True
    assert await store.set_disabled("c-settings00", False, now=70.0)
    assert (await store.quiz("c-settings00")).disabled is False
    assert not await store.set_visibility("c-nothere00", PUBLIC, now=1.0)
    assert not await store.set_disabled("c-nothere00", True, now=1.0)


async def test_deleting_a_quiz_deletes_every_version(engine, store):
    """delete_quiz removes the quiz and all its versions (True), then says False."""
    await create(store, "c-delete0000")
    await store.add_version("c-delete0000", document("c-delete0000", 2), summary(), now=2.0)
    await create(store, "c-stays00000")
    assert await store.delete_quiz("c-delete0000")
    assert await store.quiz("c-delete0000") is None
    assert await store.quiz_version("c-delete0000", 1) is None
    assert (
        await engine.fetchval(
            "SELECT COUNT(*) FROM quiz_versions WHERE quiz_id = ?", "c-delete0000"
        )
        == 0
    )
    assert not await store.delete_quiz("c-delete0000")
    assert await store.quiz("c-stays00000") is not None


async def test_release_keeps_quizzes_without_owner_and_delete_of_removes_them(engine, store):
    """release_quizzes keeps an owner's quizzes (playable, versions kept) with no owner;
    delete_quizzes_of deletes an owner's quizzes and versions; both count, and touch no one
    else's."""
    await create(store, "c-kept000000", owner_id=7)
    await create(store, "c-kept000001", owner_id=7)
    await create(store, "c-gone000000", owner_id=8)
    await create(store, "c-other00000", owner_id=9)
    assert await store.release_quizzes(7) == 2
    kept = await store.quiz("c-kept000000")
    assert kept.owner_id is None and await store.quiz_version("c-kept000000") is not None
    assert await store.quizzes_of(7) == [] and await store.count_quizzes(7) == 0
    assert await store.delete_quizzes_of(8) == 1
    assert await store.quiz("c-gone000000") is None
    assert (
        await engine.fetchval(
            "SELECT COUNT(*) FROM quiz_versions WHERE quiz_id = ?", "c-gone000000"
        )
        == 0
    )
    assert (await store.release_quizzes(8), await store.delete_quizzes_of(8)) == (0, 0)
    assert (await store.quiz("c-other00000")).owner_id == 9


async def test_drafts_are_saved_replaced_dropped_and_expired(store):
    """A draft is read back as saved (JSON data, any script), a save replaces it, drop_draft
    deletes it once, and drop_drafts deletes those last changed before a time."""
    data = {
        "title": "Ερωτήσεις <i>",
        "questions": [{"text": "प्रश्न?", "options": ["a", "b"]}],
        "step": 2,
    }
    await store.save_draft(7, data, now=10.0)
    stored = await store.draft(7)
    assert (stored.user_id, stored.data, stored.updated_at) == (7, data, 10.0)
    await store.save_draft(7, {"title": "new"}, now=20.0)
    assert (await store.draft(7)).data == {"title": "new"}
    assert (await store.draft(7)).updated_at == 20.0
    assert await store.draft(8) is None
    assert await store.drop_draft(7) and not await store.drop_draft(7)
    await store.save_draft(1, {"n": 1}, now=100.0)
    await store.save_draft(2, {"n": 2}, now=200.0)
    await store.save_draft(3, {"n": 3}, now=300.0)
    assert await store.drop_drafts(before=250.0) == 2
    assert [await store.draft(u) is None for u in (1, 2, 3)] == [True, True, False]
    assert await store.drop_drafts(before=250.0) == 0


async def test_deleting_a_user_drops_their_draft_and_keeps_their_quizzes(store):
    """delete_user deletes the user's draft (counted) and no one else's; their created quizzes
    are left to the choice made in /deletemydata (release or delete)."""
    await store.save_draft(7, {"title": "mine"}, now=1.0)
    await store.save_draft(8, {"title": "theirs"}, now=1.0)
    await create(store, "c-mine000000", owner_id=7)
    deleted = await store.delete_user(7)
    assert deleted.drafts == 1
    assert await store.draft(7) is None and await store.draft(8) is not None
    assert (await store.quiz("c-mine000000")).owner_id == 7
    assert (await store.delete_user(7)).drafts == 0


async def test_upgrading_an_existing_database_adds_the_tables_and_keeps_its_data(engine):
    """A database at version 11 is migrated to 12: its attempts stay, and created quizzes and
    drafts can be stored."""
    from bot.kernel.engine import Plan

    old = await engine.open(upto=11)
    assert await old.schema_version() == 11
    attempt = await old.start_attempt(7, "bank", 1, Plan(("q1",), ((0, 1),)), now=1.0)
    await old.close()
    new = await engine.open()
    try:
        assert await new.schema_version() == len(engine.migrations()) >= 12
        assert await new.attempt(attempt.id) == attempt
        await create(new, "c-upgraded00")
        await new.save_draft(7, {"title": "x"}, now=2.0)
        assert (await new.quiz("c-upgraded00")).version == 1
        assert (await new.draft(7)).data == {"title": "x"}
    finally:
        await new.close()
