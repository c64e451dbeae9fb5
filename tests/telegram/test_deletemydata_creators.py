"""``/deletemydata`` for creators: the question names the user's draft and asks what becomes of
the quizzes they made (deleted too, or kept playable without their name); whoever made none is
asked as before. End to end through the fake Bot API, on a SQLite file; the choice and the
store's side on both engines."""

from __future__ import annotations

import sqlite3

from bot import i18n
from bot.features.privacy.service import CreatedQuizzes, Creations, PrivacyService
from bot.kernel.library import QuizSummary, Visibility
from storage import SQLiteStore
from tests.cli.test_ops import quizbot
from tests.support.botrun import RunningBot
from tests.support.created import quiz_document
from tests.support.person import Person
from tests.support.screens import buttons
from tests.telegram.test_deletemydata import button


def count(db, sql: str, *args: object) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute(sql, args).fetchone()[0])


async def make_quizzes(store, owner_id: int, ids: list[str]) -> None:
    for quiz_id in ids:
        await store.create_quiz(
            quiz_id,
            owner_id,
            quiz_document(quiz_id),
            QuizSummary("Capitals", "en", 3),
            visibility=Visibility.PUBLIC,
            now=100.0,
        )


async def test_creators_choose_to_delete_or_keep_their_quizzes(fake, tmp_path):
    """Ada (two quizzes and a draft) is asked about both and deletes her quizzes with her
    data: they and their versions are gone, with her draft, and her quiz's deep link, played
    by Cleo just before, no longer starts it; Bob keeps his: it stays playable with its
    versions, owned by nobody; a forged choice with a wrong nonce changes nothing; Cleo, who
    made nothing, gets the question of before with its two buttons."""
    db = tmp_path / "quiz.sqlite3"
    store = await SQLiteStore.open(db)
    try:
        await make_quizzes(store, 701, ["c-ada0000000", "c-ada0000001"])
        await make_quizzes(store, 702, ["c-bob0000000"])
        await store.save_draft(701, {"title": "half done"}, now=100.0)
    finally:
        await store.close()
    runner = await RunningBot(fake, db).start()
    try:
        en = i18n.catalog("en")
        ada, bob = Person(fake, 701, "Ada", "en"), Person(fake, 702, "Bob", "en")
        cleo = Person(fake, 703, "Cleo", "en")

        await cleo.say("/start c-ada0000000", replies=2)  # the bot has the quiz in memory
        assert "Question 1 of version 1?" in cleo.question_message()["text"]
        [question] = await ada.say("/deletemydata")
        assert question["text"] == "\n\n".join(
            (
                en("deletemydata_confirm"),
                en("deletemydata_draft"),
                en("deletemydata_quizzes", count=2),
            )
        )
        labels = [(b["text"], b["callback_data"][:4]) for b in buttons(question)]
        assert labels == [
            (en("button_delete_with_quizzes"), "d:2:"),
            (en("button_delete_keep_quizzes"), "d:3:"),
            (en("button_delete_cancel"), "d:0:"),
        ]
        query_id = await ada.tap(question, "d:2:0123456789abcdef", check_button=False)
        assert fake.callback_answers[query_id].get("text") == en("deletemydata_expired")
        assert count(db, "SELECT COUNT(*) FROM quizzes WHERE owner_id = 701") == 2
        await ada.tap(question, button(question, "d:2:"))
        done = "\n\n".join((en("deletemydata_done"), en("deletemydata_quizzes_deleted", count=2)))
        await fake.wait_for(lambda: fake.message(701, question["message_id"])["text"] == done)
        assert count(db, "SELECT COUNT(*) FROM quizzes WHERE id LIKE 'c-ada%'") == 0
        assert count(db, "SELECT COUNT(*) FROM quiz_versions WHERE quiz_id LIKE 'c-ada%'") == 0
        assert count(db, "SELECT COUNT(*) FROM drafts WHERE user_id = 701") == 0
        refused = await cleo.say("/start c-ada0000000")
        assert en("quiz_gone") in refused[0]["text"]  # deleted with its maker's data

        [asked] = await bob.say("/deletemydata")
        assert asked["text"] == "\n\n".join(
            (en("deletemydata_confirm"), en("deletemydata_quizzes", count=1))
        )
        await bob.tap(asked, button(asked, "d:3:"))
        kept = "\n\n".join((en("deletemydata_done"), en("deletemydata_quizzes_kept", count=1)))
        await fake.wait_for(lambda: fake.message(702, asked["message_id"])["text"] == kept)
        assert (
            count(
                db,
                "SELECT COUNT(*) FROM quizzes WHERE id = 'c-bob0000000'"
                " AND owner_id IS NULL AND disabled = 0",
            )
            == 1
        )
        assert count(db, "SELECT COUNT(*) FROM quiz_versions WHERE quiz_id = 'c-bob0000000'") == 1

        [plain] = await cleo.say("/deletemydata")
        assert plain["text"] == en("deletemydata_confirm")
        assert [b["callback_data"][:4] for b in buttons(plain)] == ["d:1:", "d:0:"]
    finally:
        await runner.stop()


async def test_the_service_settles_quizzes_as_chosen_and_tells_who_caches_them(engine):
    """PrivacyService.delete_user deletes the user's quizzes or keeps them without owner (the
    choice when none is made), telling each one's id to the caches, counts them in
    DeletedData, and the draft goes with the data."""
    store = await engine.open()
    try:
        told: list[str] = []
        privacy = PrivacyService(store, library=store, drafts=store, quiz_changed=(told.append,))
        await make_quizzes(store, 31, ["c-gone000000", "c-gone000001"])
        await make_quizzes(store, 32, ["c-kept000000"])
        await store.save_draft(31, {"step": 1}, now=1.0)
        assert await privacy.creations(31) == Creations(quizzes=2, draft=True)
        assert await privacy.creations(33) == Creations()
        deleted = await privacy.delete_user(31, CreatedQuizzes.DELETE)
        assert (deleted.quizzes_deleted, deleted.quizzes_kept, deleted.drafts) == (2, 0, 1)
        assert sorted(told) == ["c-gone000000", "c-gone000001"]
        assert await store.quiz("c-gone000000") is None
        kept = await privacy.delete_user(32)
        assert (kept.quizzes_deleted, kept.quizzes_kept) == (0, 1)
        assert (await store.quiz("c-kept000000")).owner_id is None
        assert sorted(told) == ["c-gone000000", "c-gone000001", "c-kept000000"]
    finally:
        await store.close()


async def test_quizbot_delete_user_keeps_or_deletes_the_created_quizzes(tmp_path):
    """``quizbot delete-user ID`` keeps the user's created quizzes without owner by default,
    and deletes them with ``--quizzes delete``; the draft goes either way; the line says
    how many."""
    db = tmp_path / "quiz.sqlite3"
    store = await SQLiteStore.open(db)
    try:
        await make_quizzes(store, 41, ["c-kept000000"])
        await make_quizzes(store, 42, ["c-gone000000"])
        await store.save_draft(41, {"step": 1}, now=1.0)
    finally:
        await store.close()
    kept = quizbot("delete-user", "41", db=db)
    assert (
        kept.returncode == 0
        and "0 created quizzes deleted, 1 kept without their owner" in kept.stdout
    ), kept.stderr
    gone = quizbot("delete-user", "42", "--quizzes", "delete", db=db)
    assert gone.returncode == 0 and "1 created quiz deleted, 0 kept" in gone.stdout
    assert (
        count(db, "SELECT COUNT(*) FROM quizzes WHERE id = 'c-kept000000' AND owner_id IS NULL")
        == 1
    )
    assert count(db, "SELECT COUNT(*) FROM quizzes WHERE id = 'c-gone000000'") == 0
    assert count(db, "SELECT COUNT(*) FROM drafts") == 0
