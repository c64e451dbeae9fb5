"""Reloading banks without a restart: ``/reload`` for the operator, and SIGHUP in ``quizbot run``.

Every bank file is loaded again on its own: a file that loads replaces its bank; a file that
fails keeps the bank it held in service (its problems are logged with file and line, and
``/reload`` answers them); a file that is gone takes its bank out of service. Attempts and group
sessions on a bank whose version changed are then refused as stale, as after a restart.

``/reload`` answers only the Telegram user ids in ``QUIZBOT_ADMINS``, in a private chat; for
everyone else it is an unknown command like any other (the same hint), so nothing reveals it,
and it is in no command menu.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from telegram import Update

from bot.bankload import BankError, BankProblem, bank_files, load_bank
from bot.config import ConfigError
from bot.features.preferences.catalogs import catalog_for
from bot.i18n import Catalog
from bot.kernel.bank import Bank
from bot.kernel.registry import BankRegistry
from bot.render import screen as render_screen
from bot.render import text as render_text
from bot.render.screen import Screen
from bot.render.text import HTML
from bot.telegram.common import Context, QuizApplication, app_of, reach_of, send

log = logging.getLogger(__name__)

ADMINS_VARIABLE = "QUIZBOT_ADMINS"


def admins_from_env(env: Mapping[str, str]) -> frozenset[int]:
    """The operator's Telegram user ids, from ``QUIZBOT_ADMINS`` (comma-separated; spaces and
    empty items are ignored; unset or empty: nobody).

    Raises:
        ConfigError: an item is not a positive integer (a user id).
    """
    ids = set()
    for item in env.get(ADMINS_VARIABLE, "").split(","):
        item = item.strip()
        if not item:
            continue
        if not item.isdigit() or not item.isascii() or int(item) < 1:
            raise ConfigError(
                f"{ADMINS_VARIABLE} must be Telegram user ids separated by "
                f"commas, like 12345,67890; got {render_text.clip(item, 20)!r}"
            )
        ids.add(int(item))
    return frozenset(ids)


@dataclass
class Reload:
    """What a reload did.

    Attributes:
        banks: The banks in service after it, in file order.
        added: Banks new in service.
        updated: (old, new) per bank whose file changed.
        removed: Banks taken out of service (their file is gone).
        kept: Banks whose file failed to load: their previous version stays in service.
        unchanged: How many banks are as they were.
        problems: Every problem found, with file and line.
    """

    banks: dict[str, Bank]
    added: list[Bank] = field(default_factory=list)
    updated: list[tuple[Bank, Bank]] = field(default_factory=list)
    removed: list[Bank] = field(default_factory=list)
    kept: list[Bank] = field(default_factory=list)
    unchanged: int = 0
    problems: list[BankProblem] = field(default_factory=list)


def load_changes(paths: Iterable[Path], current: Mapping[str, Bank]) -> Reload:
    """Load every bank file under ``paths`` again, keeping in service the current bank of each
    file that fails (blocking file reads: run it in a thread).

    Args:
        paths: Bank files or folders, as configured (``QUIZBOT_BANKS``).
        current: The banks in service, by id (each knows its file).

    Returns:
        The banks to serve and what changed. When no bank file is left at all, every current
        bank is kept (the bot needs at least one), with a problem saying so.
    """
    by_file: dict[str, list[Bank]] = {}
    for held in current.values():
        by_file.setdefault(str(held.path), []).append(held)
    report = Reload(banks={})
    files = bank_files(paths)
    for file in files:
        bank: Bank | None
        try:
            bank = load_bank(file)
        except BankError as exc:
            report.problems.extend(exc.problems)
            bank = None
        if bank is not None and bank.id in report.banks:
            report.problems.append(
                BankProblem(
                    str(file),
                    None,
                    None,
                    "id",
                    f"bank id {bank.id!r} is also used by {report.banks[bank.id].path}",
                )
            )
            bank = None
        if bank is None:
            for held in by_file.get(str(file), []):
                if held.id not in report.banks:
                    report.banks[held.id] = held
                    report.kept.append(held)
            continue
        report.banks[bank.id] = bank
        old = current.get(bank.id)
        if old is None:
            report.added.append(bank)
        elif old == bank:
            report.unchanged += 1
        else:
            report.updated.append((old, bank))
    if not report.banks:
        report.problems.append(
            BankProblem(
                ", ".join(map(str, paths)),
                None,
                None,
                "(file)",
                "no bank files (*.yaml) found; nothing changed",
            )
        )
        return Reload(banks=dict(current), kept=list(current.values()), problems=report.problems)
    report.removed = [bank for bank in current.values() if bank.id not in report.banks]
    return report


_pending: set[asyncio.Task[Reload | None]] = set()


async def reload(app: QuizApplication, reason: str) -> Reload | None:
    """Reload the featured banks of ``app`` and put them in service (the registry every service
    shares: one swap; created quizzes are not touched); log what changed
    and every problem (with file and line). One reload at a time.

    Args:
        reason: Who asked, for the log ("SIGHUP", "/reload by 123").

    Returns:
        What changed, or None before the services exist (the bot is still starting).
    """
    data = app.bot_data
    try:
        banks = reach_of(app, BankRegistry)
    except RuntimeError:
        log.warning("bank reload (%s) ignored: the bot is still starting", reason)
        return None
    async with data.reload_lock:
        settings = data.settings
        assert settings is not None  # set by build_application
        report = await asyncio.to_thread(load_changes, settings.banks, banks.featured)
        # one swap, seen by every service (review cards of a removed bank are not served)
        banks.replace(report.banks)
        data.banks = report.banks
    for problem in report.problems:
        log.error("bank reload: %s (the previous version stays in service)", problem)
    for old, new in report.updated:
        if old.version == new.version:
            log.warning(
                "bank reload: %s changed without a version bump (v%d): bump `version` "
                "when questions change",
                new.id,
                new.version,
            )
    log.info(
        "banks reloaded (%s): %d in service; added %s, updated %s, removed %s, kept %s, "
        "%d unchanged, %d problem(s)",
        reason,
        len(report.banks),
        [b.id for b in report.added] or "none",
        [f"{new.id} v{old.version}->v{new.version}" for old, new in report.updated] or "none",
        [b.id for b in report.removed] or "none",
        [b.id for b in report.kept] or "none",
        report.unchanged,
        len(report.problems),
    )
    return report


def reload_soon(app: QuizApplication, reason: str) -> None:
    """Start :func:`reload` as a task (from a signal handler), holding on to it until done."""
    task = asyncio.get_running_loop().create_task(reload(app, reason))
    _pending.add(task)
    task.add_done_callback(_pending.discard)


def reload_screens(report: Reload, t: Catalog) -> list[Screen]:
    """The answer to ``/reload``: the banks in service, what changed (a bank changed without a
    version bump with the advice to bump it, as the log has it), and every problem with its
    file and line; split into messages that fit Telegram's limit."""
    lines = [t("reload_done", count=len(report.banks))]
    lines += [t("reload_added", bank=b.id, version=b.version) for b in report.added]
    lines += [
        t("reload_updated", bank=new.id, old=old.version, new=new.version)
        if old.version != new.version
        else t("reload_unbumped", bank=new.id, version=new.version)
        for old, new in report.updated
    ]
    lines += [t("reload_removed", bank=b.id) for b in report.removed]
    lines += [t("reload_kept", bank=b.id, version=b.version) for b in report.kept]
    if report.unchanged:
        lines.append(t("reload_unchanged", count=report.unchanged))
    if report.problems:
        lines += ["", t("reload_failed", count=len(report.problems))]
        lines += [f"• {problem}" for problem in report.problems]
    return render_screen.as_screens("\n".join(map(HTML.escape, lines)), HTML)


async def cmd_reload(update: Update, context: Context) -> None:
    """/reload from an operator in a private chat (the handler's filter lets no one else in):
    reload the banks and answer what changed and what failed."""
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    t = await catalog_for(context, user)
    report = await reload(app_of(context), f"/reload by {user.id}")
    if report is None:
        return
    for screen in reload_screens(report, t):
        await send(context, chat.id, screen)
