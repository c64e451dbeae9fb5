"""Item analysis (bot.kernel.analysis) and ``quizbot report`` over a stored database."""

from __future__ import annotations

import asyncio
import json
import math
import sqlite3
import statistics

import pytest

from bot import report
from bot.__main__ import main
from bot.kernel.analysis import Response, analyse
from storage import SQLiteStore

BANK = "deepspeed-megatron"


def r(
    sitting: int,
    question: str,
    correct: bool,
    option: int = 0,
    *,
    kind: str = "group",
    user: int = 0,
    language: str = "en",
) -> Response:
    return Response(kind, sitting, user or sitting, BANK, question, option, correct, language)


def test_point_biserial_matches_the_textbook_formula():
    """r_pb = (M1 - M0) / s * sqrt(p q) with the rest score (Crocker & Algina, 1986)."""
    pattern = {1: (1, 1, 1), 2: (1, 1, 0), 3: (1, 0, 0), 4: (0, 1, 0), 5: (0, 0, 0), 6: (1, 1, 1)}
    responses = [
        r(s, q, bool(v)) for s, vs in pattern.items() for q, v in zip("abc", vs, strict=True)
    ]
    a, *_ = analyse(responses, {(BANK, q): 4 for q in "abc"})
    right = [vs[0] for vs in pattern.values()]
    rest = [sum(vs) - vs[0] for vs in pattern.values()]
    ones = [x for x, y in zip(rest, right, strict=True) if y]
    zeros = [x for x, y in zip(rest, right, strict=True) if not y]
    p = len(ones) / len(right)
    expected = (
        (statistics.fmean(ones) - statistics.fmean(zeros))
        / statistics.pstdev(rest)
        * math.sqrt(p * (1 - p))
    )
    assert a.discrimination == pytest.approx(expected)
    assert (a.answers, a.difficulty) == (6, pytest.approx(4 / 6))
    assert a.options == [6, 0, 0, 0]
    assert "few_answers" in a.flags


def test_flags_easy_hard_negative_and_undefined_discrimination():
    # "easy": everyone right (discrimination undefined); "hard": one of 12; "odd": the
    # weaker players get it right, the stronger wrong
    responses = []
    for s in range(12):
        strong = s < 6
        responses += [
            r(s, "easy", True),
            r(s, "hard", s == 11, option=s % 4),
            r(s, "odd", not strong),
            r(s, "x", strong),
            r(s, "y", strong),
            r(s, "z", strong),
        ]
    stats = {i.question_id: i for i in analyse(responses, {(BANK, "hard"): 4})}
    assert stats["easy"].discrimination is None and stats["easy"].flags == ["too_easy"]
    assert "too_hard" in stats["hard"].flags and stats["hard"].options == [3, 3, 3, 3]
    assert stats["odd"].discrimination < 0 and "negative" in stats["odd"].flags
    assert stats["x"].flags == [] and stats["x"].discrimination > 0.5


async def fill_db(path) -> None:
    store = await SQLiteStore.open(path)
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO users (user_id, language, updated_at) VALUES (1, 'hi', 0)")
        db.execute(
            "INSERT INTO attempts (attempt_id, user_id, bank_id, bank_version,"
            " question_order, option_orders, started_at) VALUES"
            " (1, 1, ?, 2, '[]', '[]', 0)",
            (BANK,),
        )
        # stored before answers had a language: the user's /language choice stands in
        db.execute(
            "INSERT INTO answers (attempt_id, question_id, option_index, correct,"
            " answered_at) VALUES (1, 'zero-purpose', 1, 1, 100)"
        )
        for chat, session, day in ((-100, 1, 86400 * 2), (-200, 2, 86400 * 10)):
            db.execute(
                "INSERT INTO group_sessions (session_id, chat_id, bank_id, bank_version,"
                " language, starter_id, question_order, option_orders,"
                " question_seconds, started_at, status) VALUES"
                " (?, ?, ?, 2, 'el', 1, '[]', '[]', 30, ?, 'finished')",
                (session, chat, BANK, day),
            )
            for user, option in ((7, 1), (8, 0)):
                db.execute(
                    "INSERT INTO group_answers (session_id, question_id, user_id,"
                    " option_index, correct, elapsed, answered_at)"
                    " VALUES (?, 'zero-purpose', ?, ?, ?, 1.0, ?)",
                    (session, user, option, int(option == 0), day),
                )


def test_report_cli_filters_and_formats(tmp_path, capsys):
    db = tmp_path / "quiz.sqlite3"
    asyncio.run(fill_db(db))
    out = tmp_path / "report.json"
    assert main(["report", "--db", str(db), "--format", "json", "--out", str(out)]) == 0
    table = json.loads(out.read_text())
    assert [(row["language"], row["answers"]) for row in table] == [("el", 4), ("hi", 1)]
    assert table[0]["options"] == [2, 2, 0, 0] and table[0]["correct_option"] == 1
    assert table[0]["flags"] == ["few_answers"] and table[0]["difficulty"] == 0.5
    assert table[0]["question"].startswith("Πώς μειώνει το ZeRO")
    assert table[1]["question"].startswith("डेटा-पैरेलल ट्रेनिंग में DeepSpeed का ZeRO")
    assert main(["report", "--db", str(db), "--chat", "-200", "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("bank_id,question_id,question,language,answers,difficulty")
    assert len(lines) == 2 and ",el,2," in lines[1] and ",1|1|0|0," in lines[1]
    assert main(["report", "--db", str(db), "--since", "1970-01-05", "--format", "md"]) == 0
    md = capsys.readouterr().out.splitlines()
    assert md[0].startswith("| bank_id |") and len(md) == 3 and "| el | 2 |" in md[2]
    assert "| 1\\|1\\|0\\|0 | 1 | few_answers |" in md[2]  # a | in a cell escaped
    assert main(["report", "--db", str(db), "--bank", "other"]) == 1  # no such bank at all
    captured = capsys.readouterr()
    assert captured.out == "" and "no answers of bank 'other' are stored" in captured.err
    with pytest.raises(SystemExit):
        main(["report", "--db", str(db), "--since", "yesterday"])
    assert main(["report", "--db", str(tmp_path / "missing.sqlite3")]) == 1


async def test_a_created_quiz_without_answers_is_an_empty_report(tmp_path, capsys):
    """``--bank`` of a quiz created in Telegram that nobody has answered yet is an empty
    report (exit 0), not "no such bank"; an id that is neither installed nor created is."""
    from bot.kernel.library import QuizSummary, Visibility
    from tests.storage.test_library_storage import document

    db = tmp_path / "quiz.sqlite3"
    store = await SQLiteStore.open(db)
    try:
        await store.create_quiz(
            "c-unplayed00",
            7,
            document("c-unplayed00"),
            QuizSummary("Capitals", "en", 3),
            visibility=Visibility.LINK,
            now=100.0,
        )
    finally:
        await store.close()
    done = await asyncio.to_thread(main, ["report", "--db", str(db), "--bank", "c-unplayed00"])
    captured = capsys.readouterr()
    assert (done, captured.err) == (0, "")
    assert captured.out.splitlines() == [",".join(report.COLUMNS)]
    done = await asyncio.to_thread(main, ["report", "--db", str(db), "--bank", "c-nothere000"])
    assert done == 1 and "no quiz of that id was created" in capsys.readouterr().err


async def test_report_reads_the_database_quizbot_db_names(engine, banks):
    """The report opens QUIZBOT_DB on either engine (a SQLite file or a PostgreSQL URL); the
    answers it reads are those of ``item_responses``, tested on both in test_storage."""
    store = await engine.open()
    await store.close()
    assert await report.build(engine.target, banks, bank_id=None, chat_id=None, since=None) == []


def test_report_out_is_not_overwritten_without_force(tmp_path, capsys):
    """``--out`` refuses a file that exists (as ``import`` and ``backup`` do) and leaves it
    as it was; ``--force`` overwrites it."""
    db = tmp_path / "quiz.sqlite3"
    asyncio.run(fill_db(db))
    out = tmp_path / "report.csv"
    out.write_text("mine")
    assert main(["report", "--db", str(db), "--out", str(out)]) == 1
    assert "exists: pass --force to overwrite it" in capsys.readouterr().err
    assert out.read_text() == "mine"
    assert main(["report", "--db", str(db), "--out", str(out), "--force"]) == 0
    assert out.read_text().startswith("bank_id,question_id,question,")


def test_report_rows_follow_the_bank_order(banks):
    """Rows come in the bank's question order (then by language), whatever order the analysis
    gives them; a question no longer in the bank comes after the bank's, without text."""
    from bot.kernel.analysis import ItemStats

    bank = banks[BANK]
    ids = [q.id for q in bank.questions]
    items = [
        ItemStats(BANK, q, lang, 3, 0.5, None, [1, 1, 1, 0], [])
        for q in (*reversed(ids), "removed")
        for lang in ("hi", "el")
    ]
    table = report.rows(items, banks)
    assert [(row["question_id"], row["language"]) for row in table] == [
        (q, lang) for q in (*ids, "removed") for lang in ("el", "hi")
    ]
    assert table[0]["question"] == bank.questions[0].prompt.by_language["el"]
    assert table[-1]["question"] == ""


async def test_answers_keep_the_language_they_were_shown_in(engine, banks):
    """A private answer stores the language its question was shown in, a group answer the
    session's, so the report's language column names them (never "-"), on both engines."""
    import random

    from bot.features.groups.rules import GroupAnswer
    from bot.features.private.service import QuizService
    from bot.kernel.engine import plan_attempt

    store = await engine.open()
    try:
        quiz = QuizService(store, banks, rng=random.Random(1))
        attempt = await quiz.start(31, BANK)  # no /language choice stored for user 31
        attempt, answer = await quiz.grade(31, attempt.id, 0, 0)
        await quiz.record(attempt, answer, language="el")
        session = await store.start_session(
            -300,
            BANK,
            banks[BANK].version,
            "hi",
            31,
            plan_attempt(banks[BANK], random.Random(2)),
            30.0,
            1_000.0,
        )
        await store.open_question(session.id, 0, 1_030.0)
        question = session.plan.question_order[0]
        await store.record_group_answer(
            session.id, 0, GroupAnswer(32, question, 0, True, 1.0, 1_001.0), "B", "hi"
        )
        responses = await store.item_responses()
        assert sorted((r.kind, r.language) for r in responses) == [
            ("group", "hi"),
            ("private", "el"),
        ]
    finally:
        await store.close()
    table = await report.build(engine.target, banks, bank_id=None, chat_id=None, since=None)
    assert sorted(row["language"] for row in table) == ["el", "hi"]
