"""Reloading banks without a restart: the reload rules, /reload through the fake server, and
SIGHUP to the real `quizbot run` process."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot import i18n
from bot.bankload import load_banks
from bot.config import ConfigError
from bot.features.admin.handlers import admins_from_env, load_changes
from tests.support.botrun import RunningBot
from tests.support.optionbanks import write_bank
from tests.support.person import Person
from tests.support.processes import start_bot_process
from tests.support.screens import buttons

ADMIN, STRANGER = 5001, 5002
BROKEN_LINE = 2
BROKEN_AT = "2:10"  # line:column of the broken version field, as messages give it


def break_bank(path: Path) -> None:
    """Make a bank file unloadable at line :data:`BROKEN_LINE` (a version that is no number)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[BROKEN_LINE - 1].startswith("version:")
    lines[BROKEN_LINE - 1] = "version: two"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture
def folder(tmp_path) -> Path:
    """A bank folder with a 2-option and a 4-option bank, both version 1."""
    path = tmp_path / "banks"
    path.mkdir()
    write_bank(path, 2)
    write_bank(path, 4)
    return path


def test_a_reload_updates_adds_removes_and_keeps(folder):
    """A new version replaces its bank; a new file adds one; a deleted file removes its bank;
    a broken file keeps its previous version, with the problem's file and line."""
    current = load_banks([folder])
    write_bank(folder, 2, version=2)
    write_bank(folder, 10)
    break_bank(folder / "options-4.yaml")
    report = load_changes([folder], current)
    assert list(report.banks) == ["options-10", "options-2", "options-4"]
    assert report.banks["options-2"].version == 2
    assert report.banks["options-4"] is current["options-4"]
    assert [b.id for b in report.added] == ["options-10"]
    assert [(old.version, new.version) for old, new in report.updated] == [(1, 2)]
    assert [b.id for b in report.kept] == ["options-4"]
    [problem] = report.problems
    assert (problem.file, problem.line, problem.field) == (
        str(folder / "options-4.yaml"),
        BROKEN_LINE,
        "version",
    )

    (folder / "options-10.yaml").unlink()
    again = load_changes([folder], report.banks)
    assert [b.id for b in again.removed] == ["options-10"]
    assert again.unchanged == 1 and [b.id for b in again.kept] == ["options-4"]


def test_a_reload_with_no_files_left_keeps_everything(folder, tmp_path):
    """With every file gone, nothing is taken out of service: the bot needs a bank."""
    current = load_banks([folder])
    for path in folder.iterdir():
        path.unlink()
    report = load_changes([folder], current)
    assert report.banks == current
    assert "no bank files" in report.problems[0].message


def test_a_second_file_with_the_same_id_is_a_problem(folder):
    """A copy of a bank under another name does not replace it."""
    current = load_banks([folder])
    (folder / "zz-copy.yaml").write_text(
        (folder / "options-2.yaml").read_text("utf-8"), encoding="utf-8"
    )
    report = load_changes([folder], current)
    assert report.banks["options-2"].path == folder / "options-2.yaml"
    assert "also used by" in report.problems[0].message


@pytest.mark.parametrize(
    ("value", "ids"), [("", set()), ("5001", {5001}), (" 5001, 42 ,", {5001, 42})]
)
def test_admins_from_the_environment(value, ids):
    """QUIZBOT_ADMINS: comma-separated user ids; blank items are ignored."""
    assert admins_from_env({"QUIZBOT_ADMINS": value}) == ids


@pytest.mark.parametrize("value", ["alice", "-5", "0", "5001;42", "٣"])
def test_malformed_admins_are_a_config_error(value):
    """Anything but user ids is refused with the variable's name."""
    with pytest.raises(ConfigError, match="QUIZBOT_ADMINS"):
        admins_from_env({"QUIZBOT_ADMINS": value})


async def test_reload_command_for_the_operator_only(fake, tmp_path, folder, monkeypatch):
    """/reload from the operator reloads and answers what changed and what failed (file and
    line); a stale button on the old version is refused; /quiz serves the new one. From anyone
    else /reload gets the unknown-command hint, and no command menu lists it."""
    monkeypatch.setenv("QUIZBOT_ADMINS", f"{ADMIN}")
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", bank_paths=(folder,))
    await runner.start()
    try:
        operator = Person(fake, ADMIN, "Olga", "en")
        stranger = Person(fake, STRANGER, "Sam", "en")
        t = i18n.catalog("en")
        await stranger.say("/quiz options-2", replies=2)
        old_question = stranger.question_message()
        [reply] = await stranger.say("/reload")
        assert reply["text"] == t("unknown_text")

        write_bank(folder, 10, bank_id="options-2", version=2)
        break_bank(folder / "options-4.yaml")
        [reply] = await operator.say("/reload")
        text = reply["text"]
        assert t("reload_done", count=2) in text
        assert t("reload_updated", bank="options-2", old=1, new=2) in text
        assert t("reload_kept", bank="options-4", version=1) in text
        assert t("reload_failed", count=1) in text
        assert f"{folder / 'options-4.yaml'}:{BROKEN_AT}: field 'version'" in text

        data = next(b["callback_data"] for b in buttons(old_question))
        query_id = await stranger.tap(old_question, data)
        assert fake.callback_answers[query_id]["text"] == t("toast_bank_changed")
        await stranger.say("/quiz options-2", replies=2)
        assert len(buttons(stranger.question_message())) == 10
        await stranger.say("/quiz options-4", replies=2)  # the kept version still plays
        assert len(buttons(stranger.question_message())) == 4
    finally:
        await runner.stop()
    for call in fake.calls_to("setMyCommands"):
        assert "reload" not in str(call.params)


async def test_reload_of_a_change_without_a_version_bump_advises_the_operator(
    fake, tmp_path, folder, monkeypatch
):
    """A bank changed under the same version: the operator's /reload answer says so, in their
    language, with the advice to bump the version (it read "version 1 → 1", the advice only
    in the log)."""
    monkeypatch.setenv("QUIZBOT_ADMINS", f"{ADMIN}")
    runner = RunningBot(fake, tmp_path / "quiz.sqlite3", bank_paths=(folder,))
    await runner.start()
    try:
        operator = Person(fake, ADMIN, "Όλγα", "el")
        write_bank(folder, 10, bank_id="options-2")  # still version 1
        [reply] = await operator.say("/reload")
    finally:
        await runner.stop()
    t = i18n.catalog("el")
    assert t("reload_unbumped", bank="options-2", version=1) in reply["text"]
    assert "`version`" in t("reload_unbumped", bank="options-2", version=1)
    assert "1 → 1" not in reply["text"]


async def test_sighup_reloads_the_banks_of_quizbot_run(fake, tmp_path, folder, monkeypatch):
    """`kill -HUP` to the real `quizbot run`: a new version is served without a restart; then a
    broken file keeps the version in service and the log names file and line."""
    monkeypatch.setenv("QUIZBOT_BANKS", str(folder))
    log = tmp_path / "bot.log"
    proc = await start_bot_process(fake, tmp_path / "run.sqlite3", log)
    try:
        person = Person(fake, 5100, "Hana", "en")
        await person.say("/quiz options-2", replies=2)
        assert len(buttons(person.question_message())) == 2

        write_bank(folder, 10, bank_id="options-2", version=2)
        proc.send_signal(signal.SIGHUP)
        await fake.wait_for(
            lambda: "banks reloaded (SIGHUP)" in log.read_text(), timeout=20, recheck=0.05
        )
        await person.say("/quiz options-2", replies=2)
        assert len(buttons(person.question_message())) == 10

        break_bank(folder / "options-2.yaml")
        proc.send_signal(signal.SIGHUP)
        await fake.wait_for(
            lambda: log.read_text().count("banks reloaded (SIGHUP)") == 2, timeout=20, recheck=0.05
        )
        text = log.read_text()
        assert f"bank reload: {folder / 'options-2.yaml'}:{BROKEN_AT}: field 'version'" in text
        await person.say("/quiz options-2", replies=2)
        assert len(buttons(person.question_message())) == 10
        assert proc.returncode is None
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
            await asyncio.wait_for(proc.wait(), timeout=30)
