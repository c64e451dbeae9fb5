"""The private ``/start`` payloads' table (``bot.routes.START_LINKS``): which
feature opens each kind of deep link, in the order they are tried."""

from __future__ import annotations

import pytest

from bot import routes
from bot.features.groups import teachers
from bot.features.homework import handlers as homework
from bot.features.private import handlers
from bot.render import links as render_links


def opener(payload: str):
    """The link of :data:`~bot.routes.START_LINKS` that opens ``payload``."""
    return next(link for link in routes.START_LINKS if link.takes(payload))


@pytest.mark.parametrize(
    ("payload", "link"),
    [
        (render_links.question_link("quizbot", 12, 3).split("=", 1)[1], teachers.QUESTION_LINK),
        ("q_0_0", teachers.QUESTION_LINK),
        ("q_1_10000", handlers.BANK_LINK),  # a position out of range: taken for a bank id
        ("q_x_1", handlers.BANK_LINK),
        ("hwAbC-d_e", homework.HOMEWORK_LINK),
        ("hw", homework.HOMEWORK_LINK),
        ("hw-bank", homework.HOMEWORK_LINK),  # as it always was: "hw" begins a homework token
        (render_links.LIST_PAYLOAD, handlers.LIST_LINK),
        (render_links.LIST_PAYLOAD + "s", handlers.BANK_LINK),
        ("deepspeed-megatron", handlers.BANK_LINK),
        ("c-0a1b2c3d4e", handlers.BANK_LINK),  # a shared created quiz
        ("garbage!*", handlers.BANK_LINK),  # refused by name as an unknown bank
        ("é", handlers.BANK_LINK),
    ],
)
def test_each_payload_is_opened_by_its_feature(payload, link):
    """Each payload goes to the feature that made it; anything else is taken for a bank id."""
    assert opener(payload) is link


def test_the_bank_link_comes_last_and_takes_everything():
    """A bank's id is the fallback: last in the table, so no other link is shadowed."""
    assert routes.START_LINKS[-1] is handlers.BANK_LINK
    assert routes.START_LINKS.count(handlers.BANK_LINK) == 1
    assert all(handlers.BANK_LINK.takes(payload) for payload in ("", "x", "q_1_2", "hw1"))
