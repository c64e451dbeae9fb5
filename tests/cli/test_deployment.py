"""The container files agree with the code: what ``compose.yaml`` sets is what the bot reads,
every secret it mounts is defined, the database URL names the PostgreSQL service, and the
``Dockerfile`` copies what the package is built from and runs as a non-root user. (No Docker
on the test machines: these read the files; building the image is for a machine with Docker.)
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_compose_environment_is_what_the_bot_reads(tmp_path):
    services = compose()["services"]
    env = dict(services["quizbot"]["environment"])
    token = tmp_path / "token"
    token.write_text("123:abc\n")
    settings = Settings.from_env({**env, "TELEGRAM_BOT_TOKEN_FILE": str(token)}, strict=True)
    assert settings.require_token() == "123:abc"
    assert str(settings.db) == env["QUIZBOT_DB"]
    assert settings.metrics is not None and settings.metrics.port == 9090
    # the URL's host is the database service; its user and database are the ones it creates
    match = re.fullmatch(r"postgresql://(\w+)@(\w+):5432/(\w+)", env["QUIZBOT_DB"])
    assert match is not None
    user, host, database = match.groups()
    db_env = services[host]["environment"]
    assert (db_env["POSTGRES_USER"], db_env["POSTGRES_DB"]) == (user, database)
    assert services["quizbot"]["depends_on"][host]["condition"] == "service_healthy"


def test_compose_secrets_are_defined_and_mounted_where_they_are_read():
    spec = compose()
    defined = set(spec["secrets"])
    for name, service in spec["services"].items():
        assert set(service.get("secrets", [])) <= defined, name
        for key, value in service.get("environment", {}).items():
            if str(value).startswith("/run/secrets/"):
                assert value.removeprefix("/run/secrets/") in service["secrets"], (name, key)
    quizbot = spec["services"]["quizbot"]
    assert "TELEGRAM_BOT_TOKEN" not in quizbot["environment"]  # only ever from a file
    assert {v.split(":")[0] for v in quizbot["volumes"]} <= set(spec["volumes"])


def test_dockerfile_builds_the_package_as_a_non_root_user():
    text = (ROOT / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\S+) \1$", text, re.M))
    assert {"bot", "storage", "banks"} <= copied  # the packages pyproject builds, and the banks
    assert "--require-hashes -r /app/requirements.lock" in text
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users and users[-1] not in ("root", "0")
    assert re.search(r"^VOLUME /data$", text, re.M)
    assert 'ENTRYPOINT ["quizbot"]' in text


def unit() -> dict[str, list[str]]:
    """``deploy/quizbot.service``'s settings: key -> values (in order), all sections."""
    settings: dict[str, list[str]] = {}
    for line in (ROOT / "deploy" / "quizbot.service").read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def seconds(value: str) -> float:
    """A duration as systemd and compose write it (``30s``, ``1min``, ``90``)."""
    match = re.fullmatch(r"(\d+)(s|min)?", value)
    assert match is not None, value
    return float(match[1]) * (60 if match[2] == "min" else 1)


def test_the_systemd_unit_runs_the_bot_with_the_settings_it_reads(tmp_path):
    """The example unit's environment is what the bot reads, and it runs `quizbot run` as its
    own user."""
    settings = unit()
    env = dict(value.split("=", 1) for value in settings["Environment"])
    token = tmp_path / "token"
    token.write_text("123:abc\n")
    read = Settings.from_env({**env, "TELEGRAM_BOT_TOKEN_FILE": str(token)}, strict=True)
    assert str(read.db) == env["QUIZBOT_DB"]
    assert read.metrics is not None
    assert env["TELEGRAM_BOT_TOKEN_FILE"].startswith("/etc/")  # never the token itself
    assert "TELEGRAM_BOT_TOKEN" not in env
    assert settings["ExecStart"][0].endswith("/quizbot run")
    assert settings["User"] == ["quizbot"]


def test_supervisors_restart_on_failure_and_wait_out_a_stop():
    """Both supervisors restart the bot when it exits non-zero (it does when it cannot go on:
    a database outage past its bound, the poller lease lost), stop it with SIGTERM, and wait
    longer than its bounded stop (``bot.lifecycle.MAX_STOP_SECONDS``) before killing it."""
    from bot.lifecycle import MAX_STOP_SECONDS
    from storage.outage import OUTAGE_ENV, outage_seconds

    settings = unit()
    assert settings["Restart"] in (["on-failure"], ["always"])
    assert settings["KillSignal"] == ["SIGTERM"]
    assert seconds(settings["TimeoutStopSec"][0]) > MAX_STOP_SECONDS
    quizbot = compose()["services"]["quizbot"]
    assert quizbot["restart"] in ("unless-stopped", "always", "on-failure")
    assert quizbot["stop_signal"] == "SIGTERM"
    assert seconds(quizbot["stop_grace_period"]) > MAX_STOP_SECONDS
    assert outage_seconds({OUTAGE_ENV: quizbot["environment"][OUTAGE_ENV]}) > 0
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^STOPSIGNAL SIGTERM$", text, re.M)
    assert re.search(r'^ENTRYPOINT \["quizbot"\]$', text, re.M)  # exec form: PID 1 gets it
