"""``quizbot banks list|export|disable|enable``: the operator sees and takes down the quizzes
creators made, through the real command on each engine; and backups carry created quizzes and
drafts."""

from __future__ import annotations

import sqlite3

from bot.kernel.library import QuizSummary, Visibility
from storage import SQLiteStore
from storage.backup import backup, restore
from storage.schema import migrations
from tests.cli.test_ops import quizbot
from tests.storage.test_library_storage import document


async def stored(engine):
    """Three created quizzes: one edited once, one kept without owner, one whose title holds
    a terminal escape sequence and a tab."""
    store = await engine.open()
    try:
        await store.create_quiz(
            "c-edited0000",
            7,
            document("c-edited0000"),
            QuizSummary("Capitals", "en", 3),
            visibility=Visibility.LINK,
            now=100.0,
        )
        await store.add_version(
            "c-edited0000",
            document("c-edited0000", 2, "Capitals II"),
            QuizSummary("Capitals II", "en", 4),
            now=150.0,
        )
        await store.create_quiz(
            "c-ownerless0",
            8,
            document("c-ownerless0"),
            QuizSummary("Ιστορία", "el", 2),
            visibility=Visibility.PUBLIC,
            now=200.0,
        )
        await store.release_quizzes(8)
        await store.create_quiz(
            "c-escapes000",
            9,
            document("c-escapes000"),
            QuizSummary("Red\x1b[31m\talert", "en", 1),
            visibility=Visibility.LINK,
            now=300.0,
        )
    finally:
        await store.close()


async def test_the_operator_lists_exports_disables_and_enables(engine, tmp_path):
    """list shows every quiz newest first (owner "-" once kept without it; control
    characters escaped); export writes the latest or a given version's document to stdout or
    a file; disable takes a quiz down and enable puts it back; an unknown quiz or version
    exits 1 with a message, changing nothing."""
    await stored(engine)
    db = engine.target
    listed = quizbot("banks", "list", db=db)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.splitlines() == [
        "id\towner\tversion\tquestions\tvisibility\tdisabled\ttitle",
        "c-escapes000\t9\t1\t1\tlink\tno\tRed\\x1b[31m\\talert",
        "c-ownerless0\t-\t1\t2\tpublic\tno\tΙστορία",
        "c-edited0000\t7\t2\t4\tlink\tno\tCapitals II",
    ]

    latest = quizbot("banks", "export", "c-edited0000", db=db)
    assert (latest.returncode, latest.stdout) == (0, document("c-edited0000", 2, "Capitals II"))
    first = quizbot("banks", "export", "c-edited0000", "--version", "1", db=db)
    assert (first.returncode, first.stdout) == (0, document("c-edited0000"))
    out = tmp_path / "exported.yaml"
    written = quizbot("banks", "export", "c-ownerless0", "-o", str(out), db=db)
    assert (written.returncode, written.stdout) == (0, "")
    assert out.read_text(encoding="utf-8") == document("c-ownerless0")

    down = quizbot("banks", "disable", "c-ownerless0", db=db)
    assert (down.returncode, down.stdout) == (0, "c-ownerless0: disabled\n")
    assert await engine.fetchval("SELECT disabled FROM quizzes WHERE id = ?", "c-ownerless0") == 1
    assert "c-ownerless0\t-\t1\t2\tpublic\tyes\t" in quizbot("banks", "list", db=db).stdout
    up = quizbot("banks", "enable", "c-ownerless0", db=db)
    assert (up.returncode, up.stdout) == (0, "c-ownerless0: enabled\n")
    assert await engine.fetchval("SELECT disabled FROM quizzes WHERE id = ?", "c-ownerless0") == 0

    for args in (
        ("disable", "c-nothere000"),
        ("export", "c-nothere000"),
        ("export", "c-edited0000", "--version", "3"),
    ):
        missing = quizbot("banks", *args, db=db)
        assert (
            missing.returncode == 1 and "is stored (see `quizbot banks list`)" in missing.stderr
        ), missing.stderr
    assert (await engine.fetchval("SELECT COUNT(*) FROM quizzes WHERE disabled = 1")) == 0


def test_the_operations_guide_shows_what_list_prints():
    """docs/operations.md says that ``list`` prints a header line first, and names the columns
    in their order."""
    from pathlib import Path

    from bot.banks_cli import COLUMNS

    guide = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text("utf-8")
    said = " ".join(guide.split("`list` prints", 1)[1].split(".", 1)[0].split())
    assert said.startswith(
        "a header line, `" + " ".join(COLUMNS) + "` separated by tabs, "
        "then one tab-separated line per quiz"
    ), said


def test_without_a_database_banks_says_so_and_creates_none(tmp_path):
    """On a SQLite path with no database, ``quizbot banks list`` exits 1 naming it and
    creates nothing there."""
    db = tmp_path / "none.sqlite3"
    done = quizbot("banks", "list", db=db)
    assert done.returncode == 1 and f"no database at {db}" in done.stderr
    assert not db.exists()


async def test_a_backup_carries_created_quizzes_and_drafts(tmp_path):
    """A backup of a live database holds its created quizzes, every version and the drafts;
    restored, the store reads them back."""
    db, copy = tmp_path / "quiz.sqlite3", tmp_path / "backup.sqlite3"
    store = await SQLiteStore.open(db)
    try:
        await store.create_quiz(
            "c-backedup00",
            7,
            document("c-backedup00"),
            QuizSummary("Capitals", "en", 3),
            visibility=Visibility.PUBLIC,
            now=1.0,
        )
        await store.add_version(
            "c-backedup00", document("c-backedup00", 2), QuizSummary("Capitals", "en", 3), now=2.0
        )
        await store.save_draft(7, {"title": "draft"}, now=3.0)
        backup(db, copy)
    finally:
        await store.close()
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT COUNT(*) FROM quiz_versions").fetchone() == (2,)
    restored_at = tmp_path / "restored.sqlite3"
    restore(copy, restored_at, known_version=len(migrations()))
    store = await SQLiteStore.open(restored_at)
    try:
        assert (await store.quiz("c-backedup00")).version == 2
        assert (await store.quiz_version("c-backedup00", 1)).document == document("c-backedup00")
        assert (await store.draft(7)).data == {"title": "draft"}
        assert [q.id for q in await store.search_quizzes("capit", limit=5)] == ["c-backedup00"]
    finally:
        await store.close()
