"""Settings: where the token comes from, and which base URLs are accepted."""

from __future__ import annotations

import pytest

from bot.config import WEBHOOK_SECRET_PATTERN, Address, ConfigError, Settings, parse_address


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8081/bot",
        "https://api.telegram.org/bot",
        "http://[::1]:8081/bot",
        "http://bot-api.internal/bot",
    ],
)
def test_http_and_https_base_urls_with_a_host_are_accepted(url):
    """Ordinary local and remote Bot API base URLs pass."""
    assert Settings.from_env({"TELEGRAM_BASE_URL": url}).base_url == url


def test_validate_and_play_ignore_what_only_the_bot_uses(tmp_path):
    """Not strict: a malformed base URL and an unreadable token file do not stop `validate`."""
    env = {"TELEGRAM_BASE_URL": "ftp://x/bot", "TELEGRAM_BOT_TOKEN_FILE": str(tmp_path / "no")}
    settings = Settings.from_env(env, strict=False)
    assert settings.token is None and settings.base_url == "ftp://x/bot"
    with pytest.raises(ConfigError, match="TELEGRAM_BASE_URL"):
        Settings.from_env({"TELEGRAM_BASE_URL": "ftp://x/bot"})


def test_flags_replace_both_token_settings(tmp_path):
    """--token-file (or --token) wins over TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_TOKEN_FILE."""
    token_file = tmp_path / "token"
    token_file.write_text("\t42:from-the-file \r\n", encoding="utf-8")
    env = {"TELEGRAM_BOT_TOKEN": "1:env", "TELEGRAM_BOT_TOKEN_FILE": str(tmp_path / "missing")}
    assert Settings.from_env(env, token_file=str(token_file)).token == "42:from-the-file"
    assert Settings.from_env(env, token="7:flag").token == "7:flag"
    assert Settings.from_env({"TELEGRAM_BOT_TOKEN_FILE": str(token_file)}).require_token() == (
        "42:from-the-file"
    )


def test_the_token_is_not_in_the_settings_repr():
    """Settings print without their token (in a traceback's locals, say)."""
    assert "secret" not in repr(Settings(token="1:secret-value"))


def test_webhook_settings_from_the_environment():
    """QUIZBOT_WEBHOOK_URL switches to a webhook; its path is served; QUIZBOT_LISTEN is parsed;
    without QUIZBOT_WEBHOOK_SECRET a random secret of Telegram's alphabet is made."""
    settings = Settings.from_env(
        {"QUIZBOT_WEBHOOK_URL": "https://example.org/tg", "QUIZBOT_LISTEN": "0.0.0.0:8443"}
    )
    assert (settings.webhook_url, settings.webhook_path) == ("https://example.org/tg", "/tg")
    assert (settings.listen.host, settings.listen.port) == ("0.0.0.0", 8443)
    assert WEBHOOK_SECRET_PATTERN.fullmatch(settings.webhook_secret or "")
    assert settings.webhook_secret not in repr(settings)
    given = Settings.from_env(
        {"QUIZBOT_WEBHOOK_URL": "https://example.org/", "QUIZBOT_WEBHOOK_SECRET": "abc_DEF-1"}
    )
    assert (given.webhook_secret, given.listen, given.webhook_path) == (
        "abc_DEF-1",
        Address("127.0.0.1", 8443),
        "/",
    )
    assert Settings.from_env({}).webhook_url is None


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"QUIZBOT_WEBHOOK_URL": "example.org/tg"}, "QUIZBOT_WEBHOOK_URL"),
        (
            {"QUIZBOT_WEBHOOK_URL": "https://x/", "QUIZBOT_WEBHOOK_SECRET": "has space"},
            "QUIZBOT_WEBHOOK_SECRET",
        ),
        ({"QUIZBOT_LISTEN": "0.0.0.0"}, "QUIZBOT_LISTEN"),
        ({"QUIZBOT_LISTEN": "[::1]:70000"}, "QUIZBOT_LISTEN"),
        ({"QUIZBOT_METRICS": "localhost"}, "QUIZBOT_METRICS"),
    ],
)
def test_malformed_webhook_and_metrics_settings_are_refused(env, message):
    """Each malformed setting is named; the secret is not quoted."""
    with pytest.raises(ConfigError, match=message) as caught:
        Settings.from_env(env)
    assert "has space" not in str(caught.value)


def test_addresses_and_the_skip_flag():
    """IPv6 in brackets, ':PORT' for every interface; QUIZBOT_SKIP_INVALID_BANKS=1 is on."""
    assert parse_address("[::1]:9090", "x") == Address("::1", 9090)
    assert str(parse_address(":9090", "x")) == "0.0.0.0:9090"
    assert Settings.from_env({"QUIZBOT_METRICS": "127.0.0.1:9090"}).metrics == Address(
        "127.0.0.1", 9090
    )
    assert Settings.from_env({"QUIZBOT_SKIP_INVALID_BANKS": "1"}).skip_invalid_banks
    assert not Settings.from_env({}).skip_invalid_banks


def test_a_postgresql_url_selects_postgresql_and_a_path_stays_sqlite():
    """QUIZBOT_DB: a postgresql:// or postgres:// URL is kept whole (a Path would fold its
    //); anything else is a SQLite file path."""
    from pathlib import Path

    for url in ("postgresql://quizbot@db.internal:5433/quiz", "postgres://u@/q?host=/run/pg"):
        assert Settings.from_env({"QUIZBOT_DB": url}).db == url
        assert Settings.from_env({}, db=url).db == url
    assert Settings.from_env({"QUIZBOT_DB": "data/quiz.sqlite3"}).db == Path("data/quiz.sqlite3")
    assert Settings.from_env({}).db == Path("quizbot.sqlite3")


def test_no_part_of_the_token_in_a_shortened_setting():
    """A bad setting that contains the token (a webhook path, a pasted token) is shown with the
    token replaced before the value is shortened: no tail of the secret survives."""
    token = "123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
    for env in (
        {"QUIZBOT_WEBHOOK_URL": f"https://example.org/{token}#x"},
        {"QUIZBOT_LISTEN": token},
        {"QUIZBOT_METRICS": token},
    ):
        with pytest.raises(ConfigError) as error:
            Settings.from_env({"TELEGRAM_BOT_TOKEN": token, **env})
        message = str(error.value)
        secret = token.split(":")[1]
        assert not any(secret[i : i + 6] in message for i in range(len(secret) - 5)), message


def test_the_file_url_follows_a_custom_base_url():
    """TELEGRAM_BASE_FILE_URL defaults to the base URL's host with /file/bot; set, it wins."""
    from bot.config import Settings

    assert Settings.from_env({}).file_url is None
    custom = Settings.from_env({"TELEGRAM_BASE_URL": "http://127.0.0.1:8081/bot"})
    assert custom.file_url == "http://127.0.0.1:8081/file/bot"
    both = Settings.from_env(
        {
            "TELEGRAM_BASE_URL": "http://127.0.0.1:8081/bot",
            "TELEGRAM_BASE_FILE_URL": "http://files.local/file/bot",
        }
    )
    assert both.file_url == "http://files.local/file/bot"
    with pytest.raises(ConfigError, match="TELEGRAM_BASE_FILE_URL"):
        Settings.from_env({"TELEGRAM_BASE_FILE_URL": "ftp://x"})


def test_the_jobs_send_budget_is_a_setting_within_telegrams_limit():
    """QUIZBOT_JOB_SENDS_PER_SECOND sets the jobs' one send budget (default 20 a second, which
    bounds the reminders a day); beyond Telegram's ~30 a second, or not a number, it is refused
    naming the setting."""
    from bot.config import DEFAULT_JOB_SENDS_PER_SECOND

    assert Settings.from_env({}).job_sends_per_second == DEFAULT_JOB_SENDS_PER_SECOND
    assert Settings.from_env({"QUIZBOT_JOB_SENDS_PER_SECOND": "25"}).job_sends_per_second == 25
    for bad in ("31", "0", "fast", "nan"):
        with pytest.raises(ConfigError, match="QUIZBOT_JOB_SENDS_PER_SECOND must be a number"):
            Settings.from_env({"QUIZBOT_JOB_SENDS_PER_SECOND": bad})


def test_paid_broadcasts_are_a_setting_that_raises_the_job_budgets_bound():
    """QUIZBOT_PAID_BROADCAST=1 turns paid broadcasts on (off by default): the jobs' budget may
    then go up to the Bot API's 1000 messages a second, and no further."""
    assert Settings.from_env({}).paid_broadcast is False
    paid = Settings.from_env({"QUIZBOT_PAID_BROADCAST": "1", "QUIZBOT_JOB_SENDS_PER_SECOND": "500"})
    assert paid.paid_broadcast and paid.job_sends_per_second == 500
    with pytest.raises(ConfigError, match="from 1 to 1000"):
        Settings.from_env({"QUIZBOT_PAID_BROADCAST": "1", "QUIZBOT_JOB_SENDS_PER_SECOND": "1001"})
    with pytest.raises(ConfigError, match="QUIZBOT_PAID_BROADCAST=1"):
        Settings.from_env({"QUIZBOT_JOB_SENDS_PER_SECOND": "500"})


def test_the_operations_guide_states_the_job_budget_and_reminders_a_day():
    """docs/operations.md gives the default budget and the messages a day it allows."""
    from pathlib import Path

    from bot.config import DEFAULT_JOB_SENDS_PER_SECOND, JOB_SENDS_RANGE, PAID_JOB_SENDS_RANGE

    docs = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    rate = DEFAULT_JOB_SENDS_PER_SECOND
    assert (
        f"| `QUIZBOT_JOB_SENDS_PER_SECOND` | (none) | `{rate:g}` |" in docs
        and f"{JOB_SENDS_RANGE[0]:g} to {JOB_SENDS_RANGE[1]:g}" in docs
    )
    assert f"({rate:g} a second: {round(rate * 86_400):,} messages a day" in docs
    low, high = PAID_JOB_SENDS_RANGE
    assert "| `QUIZBOT_PAID_BROADCAST` | (none) | off |" in docs and f"{low:g} to {high:g}" in docs
