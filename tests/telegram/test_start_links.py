"""The private ``/start`` payloads' table (``bot.routes.START_LINKS``): which
feature opens each kind of deep link, in the order they are tried."""

from __future__ import annotations

import pytest

from bot import routes
from bot.features.exams import handlers as exams
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
        ("q_1_10000", exams.EXAM_LINK),  # a position out of range: taken for a bank id
        ("q_x_1", exams.EXAM_LINK),
        ("hwAbC-d_e", homework.HOMEWORK_LINK),
        ("hw", homework.HOMEWORK_LINK),
        ("hw-bank", homework.HOMEWORK_LINK),  # as it always was: "hw" begins a homework token
        (render_links.LIST_PAYLOAD, handlers.LIST_LINK),
        (render_links.LIST_PAYLOAD + "s", exams.EXAM_LINK),
        ("deepspeed-megatron", exams.EXAM_LINK),
        ("c-0a1b2c3d4e", exams.EXAM_LINK),  # a shared created quiz
        ("garbage!*", exams.EXAM_LINK),  # refused by name as an unknown bank
        ("é", exams.EXAM_LINK),
    ],
)
def test_each_payload_is_opened_by_its_feature(payload, link):
    """Each payload goes to the feature that made it; anything else is taken for a bank id."""
    assert opener(payload) is link


def test_the_bank_link_comes_last_and_takes_everything():
    """A bank's id is the fallback: last in the table, so no other link is shadowed (exam
    mode's link, which opens a bank as an exam or hands it to the private quiz's)."""
    assert routes.START_LINKS[-1] is exams.EXAM_LINK
    assert routes.START_LINKS.count(exams.EXAM_LINK) == 1
    assert handlers.BANK_LINK not in routes.START_LINKS
    for link in (exams.EXAM_LINK, handlers.BANK_LINK):
        assert all(link.takes(payload) for payload in ("", "x", "q_1_2", "hw1"))
