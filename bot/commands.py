"""The command menus Telegram shows (Bot API ``setMyCommands``): the private chat's, the group's
and its admins', in each language of the catalogs; their handlers are added by
:func:`bot.app.add_handlers`."""

from __future__ import annotations

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
)

from bot import i18n
from bot.telegram.common import QuizApplication

COMMANDS = (
    "start",
    "quiz",
    "review",
    "stats",
    "remind",
    "preview",
    "newquiz",
    "myquizzes",
    "template",
    "daily",
    "language",
    "settings",
    "stop",
    "help",
)
"""The private-chat commands registered with ``setMyCommands``, in menu order (their handlers:
:func:`add_handlers`)."""


GROUP_COMMANDS = ("quiz", "stop", "language", "help")
"""The group commands of :mod:`bot.features.groups.handlers`; with :data:`TEACHER_COMMANDS`, the
group commands registered with ``setMyCommands`` (scope: all group chats), in menu order."""


TEACHER_COMMANDS = ("settings", "results", "daily")
"""The group commands of :mod:`bot.features.groups.teachers` (admins)."""


HOMEWORK_COMMANDS = ("assign", "assignments", "timezone")
"""The group commands of :mod:`bot.features.homework.handlers`."""


async def set_commands(app: QuizApplication) -> None:
    """``setMyCommands`` for private and group chats: English by default, and per supported
    language (Telegram shows each user the list of their app's language)."""
    for language in (None, *i18n.SUPPORTED):
        t = i18n.catalog(language or i18n.DEFAULT)
        await app.bot.set_my_commands(
            [BotCommand(name, t(f"command_{name}")) for name in COMMANDS],
            scope=BotCommandScopeAllPrivateChats(),
            language_code=language,
        )
        await app.bot.set_my_commands(
            [
                BotCommand(name, t(f"command_group_{name}"))
                for name in (*GROUP_COMMANDS, *TEACHER_COMMANDS, *HOMEWORK_COMMANDS)
            ],
            scope=BotCommandScopeAllGroupChats(),
            language_code=language,
        )
