"""The callback-data codec's wire format, kind by kind (bot/render/callbacks.py): what each kind
of button sends Telegram is pinned here byte for byte, since buttons already sent in chats
carry it; and callback data the bot did not make is refused the same way for every kind."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import pytest

from bot.render import callbacks as render_callbacks
from bot.render import codec

WIRE = [
    (render_callbacks.AnswerButton(42, 3, 1), "a:42:3:1"),
    (render_callbacks.NextButton(42, 3), "n:42:3"),
    (render_callbacks.RetakeButton("007"), "r:007"),
    (render_callbacks.ReviewButton(9), "v:9"),
    (render_callbacks.LanguageButton("el"), "l:el"),
    (render_callbacks.BankButton("quiz-1"), "b:quiz-1"),
    (render_callbacks.GroupAnswerButton(7, 0, 11), "g:7:0:11"),
    (render_callbacks.PlaceButton(7), "p:7"),
    (render_callbacks.DeleteDataButton(2, "0123456789012345"), "d:2:0123456789012345"),
    (render_callbacks.CardAnswerButton(5, 3, 2, 0), "c:5:3:2:0"),
    (render_callbacks.CardNextButton(5, 4, 12), "k:5:4:12"),
    (render_callbacks.StartReviewButton(), "w"),
    (render_callbacks.ShownButton(), "x"),
    (render_callbacks.SettingButton(3, "count", "10"), "s:3:count:10"),
    (render_callbacks.DraftButton(1, 1700000000000), "nd:1:1700000000000"),
    (render_callbacks.UndoButton(1700000000000, 4), "nu:1700000000000:4"),
    (render_callbacks.KeepOriginalButton(1700000000000, 4), "nk:1700000000000:4"),
    (render_callbacks.RightOptionButton(1700000000000, 4, 11), "no:1700000000000:4:11"),
    (render_callbacks.RightDoneButton(1700000000000, 4), "nc:1700000000000:4"),
    (render_callbacks.QuizButton("question", "c-0a1b2c3d4e", 6, 2), "m:question:c-0a1b2c3d4e:6:2"),
    (render_callbacks.SheetButton("c-0a1b2c3d4e", 6), "xl:c-0a1b2c3d4e:6"),
    (render_callbacks.HomeworkButton("by", 31, 86400), "h:by:31:86400"),
    (render_callbacks.AssignButton("2024", 0), "ha:2024:0"),
    (render_callbacks.TickButton(42, 3, 1, 5), "at:42:3:1:5"),
    (render_callbacks.SubmitButton(42, 3, 4095), "as:42:3:4095"),
    (render_callbacks.GroupTickButton(7, 2, 3), "gt:7:2:3"),
    (render_callbacks.GroupSubmitButton(7, 2), "gs:7:2"),
    (render_callbacks.CardTickButton(5, 999999, 11, 2048, 0), "ct:5:999999:11:2048:0"),
    (render_callbacks.CardSubmitButton(5, 0, 3, 8), "cs:5:0:3:8"),
    (render_callbacks.FlowButton("one_tap"), "af:one_tap"),
    (render_callbacks.DailyAnswerButton(12, 0), "da:12:0"),
    (
        render_callbacks.DailySettingButton(-1001234567890, "board", "0"),
        "ds:-1001234567890:board:0",
    ),
    (
        render_callbacks.DailyChannelButton(-1001234567890, "on", "1439", "-"),
        "dc:-1001234567890:on:1439:-",
    ),
    (render_callbacks.ExamStartButton("deepspeed-megatron"), "xs:deepspeed-megatron"),
    (render_callbacks.ExamAnswerButton(42, 3, 4), "xa:42:3:4"),
    (render_callbacks.ExamTickButton(42, 3, 2, 5), "xt:42:3:2:5"),
]
"""One button of every kind and its callback data, as the bot has always sent it (text fields
of digits only among them: they stay text)."""


def test_the_wire_examples_cover_every_kind():
    """A new kind of button gets its line in :data:`WIRE`."""
    assert [type(button) for button, _ in WIRE] == list(render_callbacks.BUTTON_KINDS)


@pytest.mark.parametrize(("button", "data"), WIRE, ids=[data for _, data in WIRE])
def test_every_kind_encodes_as_it_always_has_and_round_trips(button, data):
    """Each kind's encoding is byte for byte the pinned one; decoding it gives back an equal
    button with each field of its declared type, and its route's pattern takes it."""
    assert render_callbacks.encode(button) == data
    decoded = render_callbacks.decode(data)
    assert decoded == button and type(decoded) is type(button)
    assert [type(getattr(decoded, f.name)) for f in dataclasses.fields(decoded)] == [
        type(getattr(button, f.name)) for f in dataclasses.fields(button)
    ]
    assert render_callbacks.callback_pattern(type(button)).match(data)


def forgeries(data: str) -> list[str]:
    """Callback data a client could send in place of ``data``: each field emptied, made
    negative, padded with a zero, given a letter or a non-ASCII digit; a field added or
    dropped; the prefix in capitals."""
    prefix, *fields = data.split(":")
    forged = [f"{data}:1", f"{data}:", prefix.upper() + data[len(prefix) :], f"{data} "]
    if fields:
        forged.append(":".join([prefix, *fields[:-1]]))
    for i, field in enumerate(fields):
        for bad in ("", f"0{field}", f"{field}x", "-" + field.lstrip("-"), "\u0663", "X"):
            if bad != field:
                forged.append(":".join([prefix, *fields[:i], bad, *fields[i + 1 :]]))
    return forged


@pytest.mark.parametrize(("button", "data"), WIRE, ids=[data for _, data in WIRE])
def test_forged_data_of_every_kind_is_refused(button, data):
    """Callback data next to each kind's own raises :class:`~bot.render.codec.InvalidCallbackData`
    (the router answers it as invalid) unless it is exactly what some button would send (a
    bank id with a letter more, another slot): nothing is read loosely."""
    refused = 0
    for forged in forgeries(data):
        try:
            decoded = render_callbacks.decode(forged)
        except codec.InvalidCallbackData:
            refused += 1
            continue
        assert render_callbacks.encode(decoded) == forged, forged
    assert refused >= 3


@pytest.mark.parametrize(
    "data",
    [None, "", ":", "garbage", "zz:1", "é" * 40, "a" * 65, "b:" + "a" * 63, "x:1", "w:", "\x00"],
)
def test_garbage_is_refused(data):
    """Garbage, unknown prefixes and data over 64 bytes raise InvalidCallbackData."""
    with pytest.raises(codec.InvalidCallbackData):
        render_callbacks.decode(data)


def test_a_kind_whose_fields_the_codec_cannot_read_fails_at_once():
    """A kind with a field of a type the codec has no reader for, or whose pattern captures
    another number of fields than it declares, is refused when the codec reads it."""

    @dataclasses.dataclass(frozen=True)
    class FloatButton:
        PREFIX: ClassVar[str] = "zf"
        FIELDS: ClassVar[str | None] = r"([0-9.]+)"
        ratio: float

    @dataclasses.dataclass(frozen=True)
    class ShortButton:
        PREFIX: ClassVar[str] = "zs"
        FIELDS: ClassVar[str | None] = r"([0-9]+)"
        first: int
        second: int

    with pytest.raises(TypeError, match="FloatButton"):
        codec.field_readers(FloatButton)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ShortButton"):
        codec.field_readers(ShortButton)  # type: ignore[arg-type]
    assert codec.field_readers(render_callbacks.DailyChannelButton) == (int, str, str, str)
