"""`quizbot run`'s start-up errors: one line naming the setting and its value (never the token):
a base URL without ``/bot`` or holding a token, a custom Bot API server answering 404. (A port in
use: ``tests/telegram/test_webhook.py``.)"""

from __future__ import annotations

import pytest
from aiohttp import web

from bot.config import ConfigError, Settings
from bot.redaction import PLACEHOLDER, Redactor, redact_tokens
from tests.cli.test_cli import SECRET, quizbot, run_env, run_until_exit
from tests.support.processes import free_port

OTHER = "1234567:AAEotherTOKENother_-0123456789abcd"  # an old token pasted into the URL


@pytest.mark.parametrize(
    "base_url",
    [
        "http://127.0.0.1:8081",
        "http://127.0.0.1:8081/",
        "https://api.telegram.org/bott",
        "http://h/tg/",
    ],
)
def test_a_base_url_without_bot_is_one_line_naming_it(tmp_path, base_url):
    """A base URL whose path does not end in /bot (the token would be appended to the host's
    port: PTB's "port can't be converted to integer"): exit 2, one line naming the setting and
    the value, before any request."""
    proc = quizbot(
        "run",
        "--db",
        str(tmp_path / "b.sqlite3"),
        env=run_env(TELEGRAM_BOT_TOKEN=SECRET, TELEGRAM_BASE_URL=base_url),
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.splitlines() == [
        "quizbot: TELEGRAM_BASE_URL / --base-url must end in /bot (the bot appends "
        "<token>/<method> to it), like http://127.0.0.1:8081/bot; or hold {token} where the "
        f"token goes; got {base_url!r}"
    ]
    assert not (tmp_path / "b.sqlite3").exists()


@pytest.mark.parametrize(
    "base_url",
    [
        f"http://127.0.0.1:8081/bot{SECRET}",
        f"http://127.0.0.1:8081/bot{SECRET}/",
        f"http://127.0.0.1:8081/bot{OTHER}",
        f"http://127.0.0.1:8081/x{SECRET.split(':')[1]}/bot",
    ],
)
def test_a_base_url_holding_a_token_is_refused_without_showing_it(tmp_path, base_url):
    """``TELEGRAM_BASE_URL=http://host/bot<token>`` (a common paste; the bot's token, or
    another): refused in one line naming the setting, the token shown as <token>, in neither
    output."""
    proc = quizbot(
        "run",
        "--db",
        str(tmp_path / "t.sqlite3"),
        env=run_env(TELEGRAM_BOT_TOKEN=SECRET, TELEGRAM_BASE_URL=base_url),
    )
    assert proc.returncode == 2, proc.stderr
    [line] = proc.stderr.splitlines()
    assert line.startswith(
        "quizbot: TELEGRAM_BASE_URL / --base-url holds a bot token: give the URL up to /bot"
    ), line
    assert PLACEHOLDER in line
    for secret in (SECRET.split(":")[1], OTHER.split(":")[1]):
        assert secret not in proc.stdout + proc.stderr


def test_the_token_placeholder_form_of_the_base_url_is_accepted():
    """PTB's ``{token}`` placeholder (``http://host/bot{token}/``) is a base URL of its own."""
    url = "http://127.0.0.1:8081/bot{token}"
    assert (
        Settings.from_env({"TELEGRAM_BASE_URL": url, "TELEGRAM_BOT_TOKEN": SECRET}).base_url == url
    )
    with pytest.raises(ConfigError, match="must end in /bot"):
        Settings.from_env({"TELEGRAM_BASE_URL": "http://127.0.0.1:8081/api"})


def test_token_shaped_text_is_redacted_whatever_token_is_configured():
    """The redactor hides the configured token and anything shaped like a token (an old one
    pasted into another setting), and leaves times, hosts and ports alone."""
    redact = Redactor(SECRET)
    text = f"GET http://h:8081/bot{OTHER}/getMe and bot{SECRET} at 12:34:56, host:8081"
    assert redact(text) == (
        f"GET http://h:8081/bot{PLACEHOLDER}/getMe and bot{PLACEHOLDER} at 12:34:56, host:8081"
    )
    assert redact_tokens(f"x{OTHER}y") == f"x{PLACEHOLDER}"  # the shape runs to the end


async def test_a_404_from_a_custom_server_is_not_blamed_on_the_token(tmp_path):
    """A custom TELEGRAM_BASE_URL where no Bot API answers (a web server answering 404 Not
    Found to getMe): exit 2, one line naming the setting and the URL, saying the token was not
    refused; a 401 from it is still the token's."""
    statuses: list[int] = [404]

    async def answer(request: web.Request) -> web.Response:
        status = statuses[0]
        return web.json_response(
            {
                "ok": False,
                "error_code": status,
                "description": "Not Found" if status == 404 else "Unauthorized",
            },
            status=status,
        )

    server = web.Application()
    server.router.add_route("*", "/{tail:.*}", answer)
    runner = web.AppRunner(server)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    base_url = f"http://127.0.0.1:{port}/bot"
    try:
        code, out, err = await run_until_exit(
            "run",
            "--db",
            str(tmp_path / "n.sqlite3"),
            env=run_env(TELEGRAM_BOT_TOKEN=SECRET, TELEGRAM_BASE_URL=base_url),
        )
        assert code == 2, err
        assert err.splitlines() == [
            f"quizbot: the Bot API at {base_url} (TELEGRAM_BASE_URL / --base-url) answered getMe "
            "with 'Not Found', not Unauthorized: no Bot API server answers at that URL (a local "
            "telegram-bot-api server's is http://HOST:8081/bot); the token was not refused"
        ]
        statuses[0] = 401
        code, out, err = await run_until_exit(
            "run",
            "--db",
            str(tmp_path / "n.sqlite3"),
            env=run_env(TELEGRAM_BOT_TOKEN=SECRET, TELEGRAM_BASE_URL=base_url),
        )
        assert code == 2, err
        assert err.splitlines()[-1].startswith("quizbot: Telegram rejected the token")
        assert SECRET.split(":")[1] not in out + err
    finally:
        await runner.cleanup()
