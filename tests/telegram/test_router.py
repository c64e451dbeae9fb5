"""Tests for bot.routes: one CallbackQueryHandler per kind of button, by prefix."""

from __future__ import annotations

import pytest

from bot.render import callbacks as render_callbacks
from bot.routes import ROUTES, Chats
from tests.render.test_render import BUTTONS


def test_every_kind_of_button_has_a_route_and_no_kind_two_in_the_same_chats():
    """Each kind of button is routed, at most once per kind of chat (PTB takes the first
    matching handler: a second route for the same taps would never run)."""
    routed = [(route.kind, route.chats) for route in ROUTES]
    assert len(routed) == len(set(routed))
    assert {kind for kind, _ in routed} == set(render_callbacks.BUTTON_KINDS)
    for kind in render_callbacks.BUTTON_KINDS:
        chats = {c for k, c in routed if k is kind}
        assert Chats.ANY not in chats or len(chats) == 1, kind


def test_each_kind_owns_a_distinct_prefix():
    """Encoding, decoding and routing read one table: the kinds' prefixes, all distinct."""
    prefixes = [kind.PREFIX for kind in render_callbacks.BUTTON_KINDS]
    assert len(prefixes) == len(set(prefixes))


@pytest.mark.parametrize("button", [b for b in BUTTONS if not isinstance(b, str)], ids=repr)
def test_the_callback_data_of_a_button_matches_its_own_route_pattern_only(button):
    """The pattern a route's handler matches takes the buttons of its kind and no other."""
    data = render_callbacks.encode(button)
    matching = [
        kind
        for kind in render_callbacks.BUTTON_KINDS
        if render_callbacks.callback_pattern(kind).match(data) is not None
    ]
    assert matching == [type(button)]
    assert render_callbacks.decode(data) == button


@pytest.mark.parametrize("data", ["a:1:0:0\n", "a:1:0:0:", "w:", "ww", "l:en:", "x:1"])
def test_route_patterns_take_the_whole_callback_data(data):
    """PTB matches a handler's pattern at the start of the data (``re.match``): a route's
    pattern is anchored at the end too, so trailing junk is routed nowhere."""
    assert not any(
        render_callbacks.callback_pattern(kind).match(data)
        for kind in render_callbacks.BUTTON_KINDS
    )
