"""Tests for bot.app's wiring: the command menus and the registered command handlers agree."""

from __future__ import annotations

import datetime as dt
import gc

import pytest
from telegram import Chat, Message, Update, User
from telegram.constants import ChatType
from telegram.ext import Application, CommandHandler

from bot.app import build_application
from bot.commands import COMMANDS, GROUP_COMMANDS, HOMEWORK_COMMANDS, TEACHER_COMMANDS
from bot.config import Settings
from bot.lifecycle import YOUNG_GENERATION_THRESHOLD
from tests.support.botrun import RunningBot

ADMIN = 7
"""The sender of the test commands, an operator (``QUIZBOT_ADMINS``), so /reload is wired."""

OFF_MENU = {
    ChatType.PRIVATE: {
        "deletemydata",
        "reload",  # asked for by name (privacy); the operator's
        "skip",
        "done",
        "cancel",
    },  # /newquiz's steps, named in its prompts
    ChatType.SUPERGROUP: {"start"},  # a shared card's "Start in this group" link sends it
}
"""Commands handled in a chat but, on purpose, not offered in its menu."""

MENU = {
    ChatType.PRIVATE: COMMANDS,
    ChatType.SUPERGROUP: GROUP_COMMANDS + TEACHER_COMMANDS + HOMEWORK_COMMANDS,
}
"""The commands ``setMyCommands`` offers in each kind of chat (bot.commands.set_commands)."""


@pytest.fixture
def app(monkeypatch, banks) -> Application:  # type: ignore[type-arg]
    """The bot as built for a run (not started)."""
    monkeypatch.setenv("QUIZBOT_ADMINS", str(ADMIN))
    return build_application(Settings(token="123:TEST"), banks)


def handled_commands(app: Application, chat_type: str) -> set[str]:  # type: ignore[type-arg]
    """The commands some registered ``CommandHandler`` takes in a chat of ``chat_type`` (its
    filters accept a new message from :data:`ADMIN` there)."""
    chat = Chat(ADMIN if chat_type == ChatType.PRIVATE else -1001, chat_type)
    message = Message(
        1, dt.datetime.now(dt.UTC), chat, from_user=User(ADMIN, "Ada", False), text="/help"
    )
    update = Update(1, message=message)
    return {
        command
        for handlers in app.handlers.values()
        for handler in handlers
        if isinstance(handler, CommandHandler) and handler.filters.check_update(update)
        for command in handler.commands
    }


@pytest.mark.parametrize("chat_type", list(MENU))
def test_every_menu_command_has_a_handler(app, chat_type):
    """Each command of a chat's menu is handled in that kind of chat."""
    assert set(MENU[chat_type]) - handled_commands(app, chat_type) == set()


@pytest.mark.parametrize("chat_type", list(MENU))
def test_every_handled_command_is_on_the_menu(app, chat_type):
    """Each command handled in a kind of chat is on its menu, or off it on purpose."""
    unlisted = handled_commands(app, chat_type) - set(MENU[chat_type])
    assert unlisted == OFF_MENU[chat_type]


def test_group_and_supergroup_take_the_same_commands(app):
    """A basic group and a supergroup are wired alike (``filters.ChatType.GROUPS``)."""
    assert handled_commands(app, ChatType.GROUP) == handled_commands(app, ChatType.SUPERGROUP)


async def test_a_started_bot_freezes_what_start_up_made_and_a_stop_undoes_it(fake, tmp_path):
    """Once ready, start-up's objects are in the collector's permanent generation and the
    youngest generation is collected less often (``bot.lifecycle.settle_memory``); a stop gives both
    back, so a process that starts bots again and again (the tests) leaks nothing."""
    before = gc.get_threshold()
    runner = await RunningBot(fake, tmp_path / "quiz.sqlite3").start()
    try:
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == YOUNG_GENERATION_THRESHOLD
    finally:
        await runner.stop()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == before
