"""The quizbot command: validate, play, and run (a real process against the fake server)."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from bot import i18n
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from bot.features.private.service import QuizService
from bot.terminal.play import play, print_plain
from storage import SQLiteStore
from tests.support.bankedit import (
    NEW_OPTION,
    copy_bank,
    edit_bank,
    remove_question,
    replace_correct_option,
)
from tests.support.banks import BANK_ID
from tests.support.person import Person
from tests.support.processes import start_bot_process
from tests.support.screens import correct_label, wrong_label

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
        correct: true
      - text: {en: d, hi: घ}
        correct: true
    explanation: {en: E, hi: ई}
    source: {title: S, url: "https://example.org"}
"""


def quizbot(
    *args: str, env: dict[str, str] | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """Run the installed CLI entry point in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        text=True,
        capture_output=True,
        timeout=120,
        # `play` wraps its output to the terminal's width (COLUMNS when it
        # is not a terminal): wide enough here that lines compare whole
        env={**os.environ, "COLUMNS": "1000", **(env or {})},
    )


def test_validate_accepts_the_bundled_banks():
    """`quizbot validate banks` checks the bundled bank and exits 0."""
    proc = quizbot("validate", str(BUNDLED_BANKS))
    assert proc.returncode == 0, proc.stderr
    assert f"{BANK_ID} v4, 8 questions, languages en, hi, el" in proc.stdout


def test_validate_names_file_line_question_and_field(tmp_path):
    """A broken bank: exit 1 and every problem located."""
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN, encoding="utf-8")
    proc = quizbot("validate", str(path))
    assert proc.returncode == 1
    assert f"{path}:10:13: question 'q1', field 'prompt.hi': is missing" in proc.stderr
    assert f"{path}:11:5: question 'q1', field 'options': has all 4 options marked" in (proc.stderr)


def test_run_without_token_is_a_clear_error(tmp_path):
    """`quizbot run` without TELEGRAM_BOT_TOKEN says how to set it."""
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run", "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert proc.returncode == 2
    assert "TELEGRAM_BOT_TOKEN is not set" in proc.stderr


def test_run_refuses_an_invalid_bank(tmp_path):
    """The bot does not start when a bank is invalid."""
    (tmp_path / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    proc = quizbot(
        "run", "--token", "1:x", "--banks", str(tmp_path), "--db", str(tmp_path / "x.db")
    )
    assert proc.returncode == 1
    assert "field 'prompt.hi': is missing" in proc.stderr


@pytest.mark.parametrize("language", i18n.SUPPORTED)
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
        if prompt != t("play_prompt_letters", last="D"):
            return ""
        asked += 1
        pick = wrong_label if asked in (3, 6) else correct_label
        return pick({"text": shown[-1]}, bank, language)

    store = await SQLiteStore.open(tmp_path / "play.sqlite3")
    try:
        result = await play(QuizService(store, banks), bank, language, ask=ask, write=shown.append)
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
    """`quizbot play` over stdin: answer one, quit (the advice names the --lang typed); the next
    run resumes at question 2."""
    env = {"QUIZBOT_DB": str(tmp_path / "p.sqlite3"), "LC_ALL": "C.UTF-8"}
    first = quizbot("play", "--lang", "el", env=env, stdin="B\n\nq\n")
    assert first.returncode == 0, first.stderr
    t = i18n.catalog("el")
    assert t("question_header", number=1, total=8) in first.stdout
    assert t("play_quit", command="quizbot play --lang el") in first.stdout
    second = quizbot("play", "--lang", "el", env=env, stdin="")
    assert t("resume", number=2, total=8) in second.stdout
    assert t("question_header", number=2, total=8) in second.stdout


async def test_quizbot_run_plays_each_language_and_survives_kill_9(fake, tmp_path, banks):
    """The real `quizbot run` process: three users in en, hi and el finish the quiz, with a
    `kill -9` in the middle; every acknowledged answer is kept; the token is never logged."""
    bank = banks[BANK_ID]
    db, log = tmp_path / "run.sqlite3", tmp_path / "bot.log"
    people = [
        Person(fake, 600 + i, name, code)
        for i, (name, code) in enumerate([("Ann", "en"), ("Anil", "hi"), ("Eleni", "el")])
    ]
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
        assert conn.execute(
            "SELECT COUNT(*) FROM attempts WHERE status = 'finished'"
        ).fetchone() == (3,)
    text = log.read_text(errors="replace")
    assert "quizbot ready" in text
    assert fake.token not in text and fake.token.split(":")[1] not in text


def test_ctrl_c_in_play_exits_at_once(tmp_path):
    """Ctrl-C at the answer prompt ends `quizbot play` at once, without a traceback."""
    env = {**os.environ, "QUIZBOT_DB": str(tmp_path / "c.sqlite3")}
    # as in a terminal's foreground: a shell starts a background job (`cmd &` without job
    # control, as CI may be run) with SIGINT ignored, and a child would inherit that
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "play"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
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
        f"quizbot: QUIZBOT_DB / --db is {str(tmp_path / 'no' / 'such' / 'q.sqlite3')!r}, but "
        f"the folder {tmp_path / 'no' / 'such'} does not exist: create it, or name a file in an "
        "existing folder"
    ]
    for bad in ("abc", "inf", "0.5", "nan"):
        proc = (
            quizbot(
                "run", "--token", "1:x", "--question-seconds", bad, "--db", str(tmp_path / "x.db")
            )
            if bad != "abc"
            else quizbot(
                "run",
                "--token",
                "1:x",
                "--db",
                str(tmp_path / "x.db"),
                env={"QUIZBOT_QUESTION_SECONDS": bad},
            )
        )
        assert proc.returncode == 2, bad
        assert "must be a number of seconds from 1 to 3600" in proc.stderr
    assert (
        quizbot("validate", str(BUNDLED_BANKS), env={"QUIZBOT_QUESTION_SECONDS": "abc"}).returncode
        == 0
    )


def run_env(**settings: str) -> dict[str, str]:
    """The environment for `quizbot run`: this one without TELEGRAM_* settings, plus
    ``settings``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TELEGRAM_")}
    return {**env, **settings}


async def run_until_exit(*args: str, env: dict[str, str]) -> tuple[int, str, str]:
    """Run `quizbot` with ``args`` to its end, without blocking the event loop (the fake server
    answers in it); return the exit status, standard output and standard error."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    out, err = await asyncio.wait_for(proc.communicate(), timeout=60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_a_rejected_token_is_one_line_that_never_prints_it(fake, tmp_path):
    """A token the Bot API answers 401 to: exit 2 and exactly one line on standard error, no
    PTB traceback, no unclosed session, no token."""
    token = "999999:WRONG-token-value-0123456789"
    code, out, err = await run_until_exit(
        "run",
        "--db",
        str(tmp_path / "t.sqlite3"),
        env=run_env(TELEGRAM_BOT_TOKEN=token, TELEGRAM_BASE_URL=fake.base_url),
    )
    assert code == 2, err
    assert err.splitlines() == [
        "quizbot: Telegram rejected the token: check TELEGRAM_BOT_TOKEN "
        "or the token file (@BotFather gives the token)"
    ]
    assert out == ""
    assert [call.status for call in fake.calls_to("getMe")] == [401]  # tried once: no retry
    assert token.split(":")[1] not in out + err
    assert not (tmp_path / "t.sqlite3").exists(), "storage is opened only once the token works"


def refused_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_unreachable_bot_api_is_one_clear_line(tmp_path):
    """With no Bot API listening (connection refused), `quizbot run` retries, then prints one
    line, nothing else (no PTB traceback, no unclosed session), and exits 1."""
    base_url = f"http://127.0.0.1:{refused_port()}/bot"
    proc = quizbot(
        "run",
        "--db",
        str(tmp_path / "u.sqlite3"),
        env=run_env(TELEGRAM_BOT_TOKEN="1:x", TELEGRAM_BASE_URL=base_url),
    )
    assert proc.returncode == 1
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"quizbot: cannot reach the Bot API at {base_url} (")
    assert "Connect call failed" in line
    assert proc.stdout == ""


def test_verbose_start_failure_keeps_the_details(tmp_path):
    """With -v the start's log lines (the retries) are shown, and the clear line ends them."""
    base_url = f"http://127.0.0.1:{refused_port()}/bot"
    proc = quizbot(
        "run",
        "-v",
        "--db",
        str(tmp_path / "u.sqlite3"),
        env=run_env(TELEGRAM_BOT_TOKEN="1:x", TELEGRAM_BASE_URL=base_url),
    )
    assert proc.returncode == 1
    assert "getMe (chat None) failed" in proc.stderr and "trying again" in proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("quizbot: cannot reach the Bot API")


SECRET = "7654321:AAHsecretSECRETsecret_-0123456789ab"


@pytest.mark.parametrize(
    "base_url",
    [
        "127.0.0.1:1/bot",
        "ftp://x/bot",
        "http://[::1/bot",
        "http://127.0.0.1:99999/bot",
        "http:///bot",
        f"https://api.telegram.org/bot{SECRET}/x?y",
    ],
)
def test_a_malformed_base_url_is_refused_without_the_token(tmp_path, base_url):
    """A base URL that is not http(s) with a host is refused before any request, in one line
    naming the setting; the token is in neither output, even when the URL holds it."""
    for env, args in [
        (run_env(TELEGRAM_BOT_TOKEN=SECRET, TELEGRAM_BASE_URL=base_url), ()),
        (run_env(TELEGRAM_BOT_TOKEN=SECRET), ("--base-url", base_url)),
    ]:
        proc = quizbot("run", "--db", str(tmp_path / "b.sqlite3"), *args, env=env)
        assert proc.returncode == 2, proc.stderr
        [line] = proc.stderr.splitlines()
        assert line.startswith(
            "quizbot: TELEGRAM_BASE_URL / --base-url must be an http or https URL with a host"
        ), line
        assert SECRET.split(":")[1] not in proc.stdout + proc.stderr
        assert not (tmp_path / "b.sqlite3").exists()


async def test_the_token_can_come_from_a_file(fake, tmp_path):
    """TELEGRAM_BOT_TOKEN_FILE: the token is read (surrounding whitespace stripped), the bot
    polls, and the log never shows it."""
    token_file = tmp_path / "token"
    token_file.write_text(f"  {fake.token}\n\n", encoding="utf-8")
    env = run_env(
        TELEGRAM_BOT_TOKEN_FILE=str(token_file),
        TELEGRAM_BASE_URL=fake.base_url,
        QUIZBOT_DB=str(tmp_path / "f.sqlite3"),
    )
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "run",
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        await fake.wait_for(
            lambda: fake.polling or proc.returncode is not None, timeout=30, recheck=0.05
        )
        assert proc.returncode is None
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
        out, err = await asyncio.wait_for(proc.communicate(), timeout=30)
    text = (out + err).decode()
    assert "quizbot ready" in text
    assert fake.token.split(":")[1] not in text


@pytest.mark.parametrize("case", ["missing", "folder", "empty", "both", "malformed"])
def test_token_problems_are_one_clear_line(tmp_path, case):
    """An unreadable or empty token file, two token settings, or a value that is no token: one
    line naming the setting, exit 2, and the value never quoted."""
    token_file = tmp_path / "token"
    if case == "empty":
        token_file.write_text(" \n", encoding="utf-8")
    elif case == "folder":
        token_file.mkdir()
    elif case == "malformed":
        token_file.write_text("1234 secretvalue\n", encoding="utf-8")
    env = run_env(TELEGRAM_BOT_TOKEN_FILE=str(token_file))
    if case == "both":
        env["TELEGRAM_BOT_TOKEN"] = SECRET
    proc = quizbot("run", "--db", str(tmp_path / "k.sqlite3"), env=env)
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    expected = {
        "missing": f"cannot read the token file {token_file} (TELEGRAM_BOT_TOKEN_FILE / "
        "--token-file): No such file or directory",
        "folder": f"cannot read the token file {token_file} (TELEGRAM_BOT_TOKEN_FILE / "
        "--token-file): Is a directory",
        "empty": f"the token file {token_file} (TELEGRAM_BOT_TOKEN_FILE / --token-file) is empty",
        "both": "TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_TOKEN_FILE are both set: set only one",
        "malformed": "the bot token is malformed: @BotFather gives digits, a colon, then "
        "letters, digits, '_' and '-' (the value is not shown here)",
    }[case]
    assert line == f"quizbot: {expected}"
    assert "secretvalue" not in proc.stderr and SECRET not in proc.stderr


def test_token_on_the_command_line_warns_and_is_redacted(tmp_path):
    """--token works but warns that `ps` shows it; the warning and errors do not repeat it."""
    base_url = f"http://127.0.0.1:{refused_port()}/bot"
    proc = quizbot(
        "run",
        "--token",
        SECRET,
        "--base-url",
        base_url,
        "--db",
        str(tmp_path / "w.sqlite3"),
        env=run_env(),
    )
    assert proc.returncode == 1
    warning, error = proc.stderr.splitlines()
    assert warning.startswith(
        "quizbot: warning: --token shows the token to every user of this "
        "machine (ps, /proc/<pid>/cmdline)"
    )
    assert error.startswith("quizbot: cannot reach the Bot API")
    assert SECRET.split(":")[1] not in proc.stderr


def test_an_escape_in_a_bank_never_reaches_the_terminal(tmp_path, banks, capsys):
    """`quizbot play` refuses a bank with ESC in an option (naming file, question and field),
    and its printer drops control characters from a bank built without the loader."""
    bank_file = tmp_path / "esc.yaml"
    text = BUNDLED_BANKS.joinpath(f"{BANK_ID}.yaml").read_text(encoding="utf-8")
    first_option = banks[BANK_ID].questions[0].options[0].text.by_language["en"]
    assert text.count(f'en: "{first_option}"') == 1
    bank_file.write_text(
        text.replace(f'en: "{first_option}"', f'en: "\\e[2J{first_option}"'), encoding="utf-8"
    )
    proc = quizbot(
        "play", "--banks", str(bank_file), "--db", str(tmp_path / "e.sqlite3"), stdin="A\n"
    )
    assert proc.returncode == 1
    assert "\x1b" not in proc.stdout + proc.stderr
    question_id = banks[BANK_ID].questions[0].id
    assert (
        f"question {question_id!r}, field 'option 1.text.en': contains the control character U+001B"
    ) in proc.stderr
    print_plain("a\x1b[31mred\x9b0m\tcell\nline\r")
    assert capsys.readouterr().out == "a[31mred0m\tcell\nline\n"


TELLING = """\
id: telling
version: 1
default_language: en
languages: [en]
level: easy
title: {en: T}
description: {en: D}
questions:
  - id: q1
    prompt: {en: "How many days has a leap year?"}
    options:
      - text: {en: "366 days, one more than a common year"}
        correct: true
      - text: {en: "365 days, as in a common year"}
      - text: {en: "364 days, fifty-two full weeks"}
      - text: {en: "360 days, twelve months of 30"}
    explanation: {en: "February gets a 29th day."}
    source: {title: S, url: "https://example.org"}
"""


def test_validate_warns_about_item_writing_and_strict_fails(tmp_path):
    """A valid bank whose correct option is by far the longest: `validate` warns and exits 0,
    `validate --strict` reports the same as an error and exits 1; each names file, line,
    column, question, language and field."""
    path = tmp_path / "telling.yaml"
    path.write_text(TELLING, encoding="utf-8")
    where = f"{path}:12:20: question 'q1', language 'en', field 'option 1.text.en': "
    proc = quizbot("validate", str(path))
    assert proc.returncode == 0, proc.stderr
    assert f"warning: {where}the correct option is the longest by far" in proc.stderr
    assert "[longest-correct]" in proc.stderr
    assert f"1 warning: {path}: telling v1, 1 question, languages en" in proc.stdout
    proc = quizbot("validate", "--strict", str(path))
    assert proc.returncode == 1
    assert f"error: {where}the correct option is the longest by far" in proc.stderr


def test_validate_counts_in_words(tmp_path):
    """Counts are written as English writes them: "1 problem", "2 problems", "3 warnings",
    "1 question" (never "1 questions" or "problem(s)")."""
    path = tmp_path / "telling.yaml"
    path.write_text(
        TELLING.replace(
            '{en: "365 days, as in a common year"}', '{en: "365 days, as in a common year", hi: x}'
        ),
        encoding="utf-8",
    )
    proc = quizbot("validate", str(path))
    assert proc.returncode == 1
    assert proc.stderr.startswith("1 problem:\n")
    path.write_text(
        TELLING.replace("version: 1", "version: 0").replace("level: easy", "level: expert"),
        encoding="utf-8",
    )
    assert quizbot("validate", str(path)).stderr.startswith("2 problems:\n")
    path.write_text(
        TELLING.replace(
            '      - text: {en: "360 days, twelve months of 30"}\n',
            "      - text: {en: None of the above}\n",
        ),
        encoding="utf-8",
    )
    proc = quizbot("validate", str(path))
    assert proc.returncode == 0, proc.stderr
    assert "3 warnings: " in proc.stdout and "1 question," in proc.stdout


def test_validate_strict_accepts_the_bundled_banks():
    """CI runs `quizbot validate --strict banks`: the bundled bank passes."""
    proc = quizbot("validate", "--strict", str(BUNDLED_BANKS))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert f"ok: {BUNDLED_BANKS / BANK_ID}.yaml: {BANK_ID} v4" in proc.stdout


def test_validate_reports_a_yaml_slip_with_column_question_and_hint(tmp_path):
    """An unquoted ': ' in a flow-style text: line, column, question, field and the hint to
    close the bracket or quote the value."""
    path = tmp_path / "slip.yaml"
    path.write_text(
        TELLING.replace('"365 days, as in a common year"', "365 days: as in a common year"),
        encoding="utf-8",
    )
    proc = quizbot("validate", str(path))
    assert proc.returncode == 1
    assert f"{path}:14:28: question 'q1', field 'option 2.text': bad YAML: " in proc.stderr
    assert (
        "close the bracket opened at line 14, column 15, or quote a value containing ',', "
        "':' or brackets"
    ) in proc.stderr


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
    [label] = re.findall(
        rf"^([A-D])\. {re.escape(NEW_OPTION['el'])}$", second.stdout, flags=re.MULTILINE
    )

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


def test_the_bot_runs_on_uvloop_unless_told_otherwise(monkeypatch):
    """``quizbot run``'s event loop is uvloop's (a dependency off Windows);
    ``QUIZBOT_EVENT_LOOP=asyncio`` gives asyncio's own."""
    import asyncio

    import uvloop

    from bot.__main__ import new_event_loop

    loop = new_event_loop()
    try:
        assert isinstance(loop, uvloop.Loop)
    finally:
        loop.close()
    monkeypatch.setenv("QUIZBOT_EVENT_LOOP", "asyncio")
    loop = new_event_loop()
    try:
        assert not isinstance(loop, uvloop.Loop) and isinstance(loop, asyncio.BaseEventLoop)
    finally:
        loop.close()


def test_operator_mistakes_end_in_one_line(tmp_path):
    """A user id that is no Telegram id is a usage error; a report or a bank written into a
    missing folder is one line naming the file (no traceback)."""
    bad = quizbot("delete-user", "0", "--db", str(tmp_path / "db.sqlite3"))
    assert bad.returncode == 2 and "not a Telegram user id: '0'" in bad.stderr
    huge = quizbot("delete-user", "9" * 30, "--db", str(tmp_path / "db.sqlite3"))
    assert huge.returncode == 2 and "Traceback" not in huge.stderr
    played = quizbot("play", "--db", str(tmp_path / "db.sqlite3"), stdin="q\n")
    assert played.returncode == 0, played.stderr
    missing = tmp_path / "nowhere" / "report.csv"
    done = quizbot("report", "--db", str(tmp_path / "db.sqlite3"), "--out", str(missing))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.strip() == f"quizbot: {missing}: No such file or directory"
    aiken = tmp_path / "q.txt"
    aiken.write_text("What is 2 + 2?\nA. 3\nB. 4\nANSWER: B\n", encoding="utf-8")
    out = tmp_path / "nowhere" / "bank.yaml"
    imported = quizbot("import", str(aiken), "--format", "aiken", "--out", str(out))
    assert imported.returncode == 1 and "Traceback" not in imported.stderr
    assert f"{out}: No such file or directory" in imported.stderr


@pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or not hasattr(signal, "pthread_sigmask"),
    reason="reads a thread's signal mask from Linux's /proc",
)
async def test_the_input_thread_leaves_ctrl_c_to_the_main_thread(monkeypatch):
    """The thread that waits in ``input()`` blocks SIGINT, so the kernel gives a Ctrl-C to the
    main thread, which wakes the event loop (a signal the kernel gave the input thread would
    leave the main thread asleep in the event loop's select until the next line)."""
    from bot.terminal.play import read_line

    waiting, release = threading.Event(), threading.Event()

    def fake_input(prompt: str) -> str:
        waiting.set()
        release.wait()
        return "a"

    monkeypatch.setattr("builtins.input", fake_input)
    reading = asyncio.ensure_future(read_line("(A-D) "))
    await asyncio.to_thread(waiting.wait)
    [thread] = [t for t in threading.enumerate() if t.name == "quizbot-input"]
    status = Path(f"/proc/self/task/{thread.native_id}/status").read_text()
    blocked = int(
        next(line for line in status.splitlines() if line.startswith("SigBlk:")).split()[1], 16
    )
    release.set()
    assert await reading == "a"
    assert blocked & (1 << (signal.SIGINT - 1))
