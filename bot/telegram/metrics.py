"""The bot's Prometheus counters (served by :mod:`bot.telegram.monitoring`), made before the
application so that its transports and update processor can count."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 15.0)
"""Tap-to-feedback histogram buckets, in seconds (Telegram drops a callback query's answer
after about 15 s)."""


class Metrics:
    """The bot's Prometheus metrics, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.updates = Counter(
            "quizbot_updates_handled", "Updates handled, by type", ["type"], registry=self.registry
        )
        self.answers = Counter(
            "quizbot_answers_recorded",
            "Answers recorded durably, private or group",
            ["chat"],
            registry=self.registry,
        )
        self.api_calls = Counter(
            "quizbot_bot_api_calls", "Bot API calls, by method", ["method"], registry=self.registry
        )
        self.api_errors = Counter(
            "quizbot_bot_api_errors",
            "Bot API calls that failed, by method and HTTP status ('network': no answer)",
            ["method", "status"],
            registry=self.registry,
        )
        self.rate_limited = Counter(
            "quizbot_bot_api_rate_limited",
            "Bot API calls answered 429 Too Many Requests, by method",
            ["method"],
            registry=self.registry,
        )
        self.feedback_latency = Histogram(
            "quizbot_tap_to_feedback_seconds",
            "From a button tap reaching the bot to the end of its handling, in seconds",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.group_sessions = Gauge(
            "quizbot_group_sessions_active",
            "Group quiz sessions running (read at each scrape)",
            registry=self.registry,
        )
