"""The catalog a handler speaks in: a user's (their /language choice, else Telegram's
``language_code``, else English) or a group's (its language, else English), read through the
preferences service."""

from __future__ import annotations

from telegram import User

from bot import i18n
from bot.features.preferences.service import PreferencesService
from bot.i18n import Catalog
from bot.telegram.common import SHARED_SENDERS, Context, reach


async def user_catalog(preferences: PreferencesService, user: User | None) -> Catalog:
    """The user's catalog: their /language choice, else Telegram's language_code, else
    English; English for no user or a shared placeholder user."""
    if user is None or user.id in SHARED_SENDERS:
        return i18n.catalog(i18n.DEFAULT)
    chosen = await preferences.chosen_language(user.id)
    return i18n.catalog(chosen or i18n.negotiate(user.language_code))


async def catalog_for(context: Context, user: User | None) -> Catalog:
    """The user's catalog (see :func:`user_catalog`), from a callback's or a job's context."""
    return await user_catalog(reach(context, PreferencesService), user)


async def group_catalog(context: Context, chat_id: int) -> Catalog:
    """The group's catalog: its language if set, else English."""
    language = await reach(context, PreferencesService).group_language(chat_id)
    return i18n.catalog(language or i18n.DEFAULT)
