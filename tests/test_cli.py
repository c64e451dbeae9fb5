"""The quizbot command: validate, play, and run (a real process against the fake server)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys

import pytest

from bot import i18n
from bot.config import BUNDLED_BANKS
from bot.play import play
from bot.quiz.bank import load_banks
from bot.quiz.service import QuizService
from storage import SQLiteStore
from tests.bankedit import (
    NEW_OPTION,
    copy_bank,
    edit_bank,
    remove_question,
    replace_correct_option,
)
from tests.conftest import BANK_ID, Person, correct_label, start_bot_process, wrong_label

BROKEN = """\
id: broken
version: 1
default_language: en
languages: [en, hi]
level: hard
title: {en: T, hi: टी}
description: {en: D, hi: डी}
questions:
  - id: q1
    prompt: {en: "Which?"}
    options:
      - text: {en: a, hi: क}
        correct: true
      - text: {en: b, hi: ख}
        correct: true
      - text: {en: c, hi: ग}
      - text: {en: d, hi: घ}
    explanation: {en: E, hi: ई}
    source: {title: S, url: "https://example.org"}
"""


def quizbot(*args: str, env: dict[str, str] | None = None,
            stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the installed CLI entry point in a subprocess."""
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin, text=True,
                          capture_output=True, timeout=120, env={**os.environ, **(env or {})})


def test_validate_accepts_the_bundled_banks():
    """`quizbot validate banks` checks the bundled bank and exits 0."""
    proc = quizbot("validate", str(BUNDLED_BANKS))
    assert proc.returncode == 0, proc.stderr
    assert f"{BANK_ID} v1, 8 questions, languages en, hi, el" in proc.stdout


def test_validate_names_file_line_question_and_field(tmp_path):
    """A broken bank: exit 1 and every problem located."""
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    proc = quizbot("validate", str(path))
    assert proc.returncode == 1
    assert f"{path}:10: question 'q1', field 'prompt.hi': is missing" in proc.stderr
    assert f"{path}:11: question 'q1', field 'options': must have exactly one option" in (
        proc.stderr)


def test_run_without_token_is_a_clear_error(tmp_path):
    """`quizbot run` without TELEGRAM_BOT_TOKEN says how to set it."""
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    proc = subprocess.run([sys.executable, "-m", "bot", "run", "--db", str(tmp_path / "x.db")],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 2
    assert "TELEGRAM_BOT_TOKEN is not set" in proc.stderr


def test_run_refuses_an_invalid_bank(tmp_path):
    """The bot does not start when a bank is invalid."""
    (tmp_path / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    proc = quizbot("run", "--token", "1:x", "--banks", str(tmp_path),
                   "--db", str(tmp_path / "x.db"))
    assert proc.returncode == 1
    assert "field 'prompt.hi': is missing" in proc.stderr


@pytest.mark.parametrize("language", ["en", "hi", "el"])
async def test_play_the_whole_bank_in_the_terminal(tmp_path, language):
    """The terminal front end plays all 8 questions in the language, then scores them."""
    banks = load_banks([BUNDLED_BANKS])
    bank = banks[BANK_ID]
    t = i18n.catalog(language)
    shown: list[str] = []
    asked = 0

    async def ask(prompt: str) -> str:
        """Answer questions 3 and 6 wrongly, the rest rightly; Enter to go on."""
        nonlocal asked
        if prompt != t("play_prompt"):
            return ""
        asked += 1
        pick = wrong_label if asked in (3, 6) else correct_label
        return pick({"text": shown[-1]}, bank, language)

    store = await SQLiteStore.open(tmp_path / "play.sqlite3")
    try:
        result = await play(QuizService(store, banks), bank, language, ask=ask,
                            write=shown.append)
    finally:
        await store.close()
    assert result is not None and (result.score, result.total) == (6, 8)
    output = "\n".join(shown)
    for q in bank.questions:
        assert q.prompt.by_language[language] in output
        assert q.explanation.by_language[language] in output
    assert t("result_score", score=6, total=8) in output
    assert t("review_header") in output


def test_play_quits_and_resumes_through_the_real_command(tmp_path):
    """`quizbot play` over stdin: answer one, quit; the next run resumes at question 2."""
    env = {"QUIZBOT_DB": str(tmp_path / "p.sqlite3")}
    first = quizbot("play", "--lang", "el", env=env, stdin="B\n\nq\n")
    assert first.returncode == 0, first.stderr
    t = i18n.catalog("el")
    assert t("question_header", number=1, total=8) in first.stdout
    assert t("play_quit") in first.stdout
    second = quizbot("play", "--lang", "el", env=env, stdin="")
    assert t("resume", number=2, total=8) in second.stdout
    assert t("question_header", number=2, total=8) in second.stdout


async def test_quizbot_run_plays_each_language_and_survives_kill_9(fake, tmp_path, banks):
    """The real `quizbot run` process: three users in en, hi and el finish the quiz, with a
    `kill -9` in the middle; every acknowledged answer is kept; the token is never logged."""
    bank = banks[BANK_ID]
    db, log = tmp_path / "run.sqlite3", tmp_path / "bot.log"
    people = [Person(fake, 600 + i, name, code)
              for i, (name, code) in enumerate([("Ann", "en"), ("Anil", "hi"), ("Eleni", "el")])]
    languages = ["en", "hi", "el"]
    proc = await start_bot_process(fake, db, log)
    try:
        for person in people:
            await person.say("/start", replies=2)
        for number in range(1, 9):
            for person, language in zip(people, languages, strict=True):
                question = person.question_message()
                pick = wrong_label if number == 4 else correct_label
                feedback = await person.answer(pick(question, bank, language))
                await person.next(feedback)
            if number == 4:  # crash after acknowledged answers, then restart on the same db
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
                proc = await start_bot_process(fake, db, log)
        for person, language in zip(people, languages, strict=True):
            result = person.bot_messages()[-1]["text"]
            assert i18n.catalog(language)("result_score", score=7, total=8) in result
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
            await asyncio.wait_for(proc.wait(), timeout=30)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*), SUM(correct) FROM answers").fetchone() == (24, 21)
        assert conn.execute("SELECT COUNT(*) FROM attempts WHERE status = 'finished'"
                            ).fetchone() == (3,)
    text = log.read_text(errors="replace")
    assert "quizbot ready" in text
    assert fake.token not in text and fake.token.split(":")[1] not in text


def test_ctrl_c_in_play_exits_at_once(tmp_path):
    """Ctrl-C at the answer prompt ends `quizbot play` at once, without a traceback."""
    env = {**os.environ, "QUIZBOT_DB": str(tmp_path / "c.sqlite3")}
    proc = subprocess.Popen([sys.executable, "-m", "bot", "play"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    try:
        assert proc.stdout is not None
        seen = ""
        while "(A-D)" not in seen:  # wait for the first prompt
            seen += proc.stdout.read(1)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 130
        assert "Traceback" not in proc.stderr.read()  # type: ignore[union-attr]
    finally:
        proc.kill()


def test_storage_and_window_errors_are_one_line(tmp_path):
    """A database in a missing folder, and a bad question window, are one clear line each."""
    proc = quizbot("play", env={"QUIZBOT_DB": str(tmp_path / "no" / "such" / "q.sqlite3")})
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"quizbot: cannot open database {tmp_path / 'no' / 'such' / 'q.sqlite3'}: "
        f"folder {tmp_path / 'no' / 'such'} does not exist"]
    for bad in ("abc", "inf", "0.5", "nan"):
        proc = quizbot("run", "--token", "1:x", "--question-seconds", bad,
                       "--db", str(tmp_path / "x.db")) if bad != "abc" else quizbot(
            "run", "--token", "1:x", "--db", str(tmp_path / "x.db"),
            env={"QUIZBOT_QUESTION_SECONDS": bad})
        assert proc.returncode == 2, bad
        assert "must be a number of seconds from 1 to 3600" in proc.stderr
    assert quizbot("validate", str(BUNDLED_BANKS),
                   env={"QUIZBOT_QUESTION_SECONDS": "abc"}).returncode == 0


async def test_a_rejected_token_is_never_printed(fake, tmp_path):
    """When Telegram rejects the token, `quizbot run` says so without printing it."""
    env = {**os.environ, "TELEGRAM_BOT_TOKEN": "999999:WRONG-token-value",
           "TELEGRAM_BASE_URL": fake.base_url, "QUIZBOT_DB": str(tmp_path / "t.sqlite3")}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "run", env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    text = (out + err).decode()
    assert proc.returncode == 2, text
    assert "Telegram rejected the token" in text
    assert "WRONG-token-value" not in text


def test_an_unreachable_bot_api_is_one_clear_line(tmp_path):
    """With no Bot API to reach, `quizbot run` ends with a clear last line, sessions closed."""
    proc = quizbot("run", "--token", "1:x", "--base-url", "http://127.0.0.1:9/bot",
                   "--db", str(tmp_path / "u.sqlite3"))
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1].startswith(
        "quizbot: cannot reach the Bot API at http://127.0.0.1:9/bot")
    assert "Unclosed client session" not in proc.stderr


def test_play_resumes_after_the_bank_file_was_edited_without_a_version_bump(tmp_path):
    """`quizbot play` answers question 1; question 2 is then edited in the bank file (new
    correct option, same version): the next run shows it afresh with the notice instead of
    crashing, and the run after grades it against its new content in the order shown; a
    question removed while it is being asked is skipped."""
    path = copy_bank(tmp_path / "banks")
    env = {"QUIZBOT_DB": str(tmp_path / "p.sqlite3"), "QUIZBOT_BANKS": str(path)}
    t = i18n.catalog("el")
    first = quizbot("play", "--lang", "el", env=env, stdin="B\n\nq\n")
    assert first.returncode == 0, first.stderr

    edit_bank(path, replace_correct_option(1))
    second = quizbot("play", "--lang", "el", env=env, stdin="q\n")
    assert second.returncode == 0, second.stderr
    assert "Traceback" not in second.stderr
    assert t("resume", number=2, total=8) in second.stdout
    notice = second.stdout.index(t("question_updated"))
    assert notice < second.stdout.index(t("question_header", number=2, total=8))
    [label] = re.findall(rf"^([A-D])\. {re.escape(NEW_OPTION['el'])}$", second.stdout,
                         flags=re.MULTILINE)

    third = quizbot("play", "--lang", "el", env=env, stdin=f"{label}\n\nq\n")
    assert third.returncode == 0, third.stderr
    assert t("question_updated") not in third.stdout  # shown once, when it was re-planned
    assert f"{label}. {NEW_OPTION['el']}" in third.stdout  # the same order as shown before
    assert t("feedback_correct") in third.stdout
    assert t("question_header", number=3, total=8) in third.stdout

    edit_bank(path, remove_question(2))  # the question being asked: skipped
    fourth = quizbot("play", "--lang", "el", env=env, stdin="q\n")
    assert fourth.returncode == 0, fourth.stderr
    assert t("resume", number=3, total=7) in fourth.stdout
    fourth_prompt = load_banks([BUNDLED_BANKS])[BANK_ID].questions[3].prompt.by_language["el"]
    assert fourth_prompt in fourth.stdout
