"""``python -m bot.i18n check``: are the gettext catalogs complete and up to date? (CI runs it.)"""

from __future__ import annotations

import argparse
import sys

from bot.i18n import check


def main(argv: list[str] | None = None) -> int:
    """Run a command of ``python -m bot.i18n``.

    Args:
        argv: The arguments (default: ``sys.argv[1:]``); the only command is ``check``.

    Returns:
        The exit status: 0 when the check passes, 1 when it finds problems.
    """
    parser = argparse.ArgumentParser(
        prog="python -m bot.i18n", description="quizbot's gettext catalogs"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "check",
        help="every catalog complete; messages.pot and the .mo files "
        "up to date (see bot/i18n/check.py)",
    )
    parser.parse_args(argv)
    return check.main()


if __name__ == "__main__":
    sys.exit(main())
