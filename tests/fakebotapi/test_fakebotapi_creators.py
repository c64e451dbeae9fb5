"""The fake Bot API's parts for quiz creators, through PTB's real Bot: polls users send or
forward (Bot API 9.6+ ``correct_option_ids``, a hidden answer), documents and photos users
send, getFile and the file download URL, replies, the bot's photos by upload, file id and
URL, captions, and reply keyboards with a quiz-poll button."""

from __future__ import annotations

import io

import aiohttp
import pytest
from telegram import (
    Bot,
    ForceReply,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputFile,
    KeyboardButton,
    KeyboardButtonPollType,
    Message,
    ReplyKeyboardMarkup,
    ReplyKeyboardRemove,
    Update,
)
from telegram.error import BadRequest

from tests.support.fakebotapi import FakeBotAPI
from tests.support.fakebotapi.files import sample_jpeg

USER, OTHER, GROUP = 42, 43, -1001234567890
MB = 1024 * 1024


@pytest.fixture
async def bot(fake: FakeBotAPI):
    fake.add_user(USER, "Ann", language_code="en")
    fake.add_user(OTHER, "Bo")
    fake.add_group(GROUP, "Class", admins=[USER])
    fake.send_message(USER, "/start")  # Ann opened the bot's private chat
    client = Bot(fake.token, base_url=fake.base_url, base_file_url=fake.base_file_url)
    await client.initialize()
    yield client
    await client.shutdown()


async def _received(bot: Bot) -> Message:
    """The message of the newest update, fetched with getUpdates (and confirmed)."""
    updates = await bot.get_updates(timeout=0)
    assert updates, "no update was queued"
    await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    message = updates[-1].message
    assert isinstance(message, Message)
    return message


def _png(width: int, height: int) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), (20, 120, 200)).save(out, format="PNG")
    return out.getvalue()


# -- polls users send ---------------------------------------------------------------------------


async def test_a_quiz_sent_to_the_private_chat_shows_its_right_options(bot: Bot, fake: FakeBotAPI):
    """A quiz made in the app and sent to the bot carries correct_option_ids and explanation."""
    fake.send_poll(
        USER, "2 + 2?", ["3", "4", "5"], correct_option_ids=(1,), explanation="Count <b>them</b>"
    )
    message = await _received(bot)
    poll = message.poll
    assert (poll.type, poll.question, [o.text for o in poll.options]) == (
        "quiz",
        "2 + 2?",
        ["3", "4", "5"],
    )
    assert poll.correct_option_ids == (1,) and poll.explanation == "Count <b>them</b>"
    assert not poll.is_closed and poll.is_anonymous and not poll.allows_multiple_answers
    assert poll.allows_revoting is False and poll.total_voter_count == 0
    assert [o.persistent_id for o in poll.options] == ["0", "1", "2"]
    assert message.forward_origin is None and message.from_user.id == USER
    raw = fake.message(USER, message.message_id)["poll"]
    assert "correct_option_id" not in raw  # Bot API 9.6 replaced it with the array


async def test_a_quiz_with_several_right_options_allows_multiple_answers(
    bot: Bot, fake: FakeBotAPI
):
    """Several correct_option_ids make a quiz that allows multiple answers."""
    fake.send_poll(USER, "Primes?", ["2", "4", "5", "9"], correct_option_ids=(0, 2))
    poll = (await _received(bot)).poll
    assert poll.correct_option_ids == (0, 2) and poll.allows_multiple_answers


async def test_a_regular_poll_has_no_right_option(bot: Bot, fake: FakeBotAPI):
    """A regular poll has no correct_option_ids nor explanation and allows revoting."""
    fake.send_poll(USER, "Lunch?", ["Pizza", "Soup"], type="regular")
    poll = (await _received(bot)).poll
    assert poll.type == "regular" and not poll.correct_option_ids
    assert poll.explanation is None and poll.allows_revoting
    assert "correct_option_ids" not in fake.messages(USER)[-1]["poll"]


async def test_a_forwarded_open_quiz_hides_its_answer(bot: Bot, fake: FakeBotAPI):
    """A forwarded open quiz has a user forward_origin and neither right options nor explanation."""
    fake.send_poll(
        USER,
        "Capital of Peru?",
        ["Lima", "Quito"],
        explanation="Lima",
        forward_from=OTHER,
        answer_visible=False,
    )
    message = await _received(bot)
    assert message.forward_origin.type == "user"
    assert message.forward_origin.sender_user.id == OTHER
    assert not message.poll.correct_option_ids and message.poll.explanation is None
    assert "correct_option_ids" not in fake.message(USER, message.message_id)["poll"]
    assert not message.poll.is_closed


async def test_a_forwarded_quiz_with_a_visible_answer_is_a_closed_one(bot: Bot, fake: FakeBotAPI):
    """A forwarded quiz whose answer the bot sees is closed; a channel is its origin."""
    fake.send_poll(
        USER,
        "H2O is?",
        ["Water", "Salt"],
        correct_option_ids=(0,),
        explanation="Two hydrogens",
        forward_from="channel",
    )
    message = await _received(bot)
    assert message.forward_origin.type == "channel"
    assert message.forward_origin.chat.type == "channel"
    assert message.poll.is_closed and message.poll.correct_option_ids == (0,)
    assert message.poll.explanation == "Two hydrogens"
    fake.send_poll(USER, "Hidden?", ["A", "B"], forward_from="hidden", answer_visible=False)
    assert (await _received(bot)).forward_origin.type == "hidden_user"


def test_polls_telegrams_apps_cannot_make_are_refused(fake: FakeBotAPI):
    """send_poll refuses polls beyond sendPoll's limits, or hiding an answer Telegram shows."""
    fake.add_user(USER, "Ann")
    fake.send_poll(USER, "Q" * 300, ["o" * 100] * 12)  # the limits themselves are fine
    refused = [
        dict(question="Q" * 301, options=["a", "b"]),
        dict(question="Q?", options=[str(n) for n in range(13)]),
        dict(question="Q?", options=["a", "o" * 101]),
        dict(question="Q?", options=["a", "b"], correct_option_ids=(2,)),
        dict(question="Q?", options=["a", "b"], correct_option_ids=()),
        dict(question="Q?", options=["a", "b"], explanation="x" * 201),
        dict(question="Q?", options=["a", "b"], explanation="1\n2\n3\n4"),
        dict(question="Q?", options=["a", "b"], type="regular", explanation="why"),
        dict(question="Q?", options=["a", "b"], answer_visible=False),  # not forwarded
    ]
    for kwargs in refused:
        with pytest.raises(ValueError):
            fake.send_poll(USER, **kwargs)


# -- documents, photos, getFile --------------------------------------------------------------


async def test_a_users_document_is_downloaded_through_getfile(bot: Bot, fake: FakeBotAPI):
    """A user's document has its name, MIME type and size; getFile and the URL serve its bytes."""
    data = b"title: Birds\nquestions: []\n"
    fake.send_document(USER, data, "birds.yaml", caption="/import mine")
    message = await _received(bot)
    document = message.document
    assert (document.file_name, document.mime_type, document.file_size) == (
        "birds.yaml",
        "application/x-yaml",
        len(data),
    )
    assert message.caption == "/import mine" and message.caption_entities[0].type == "bot_command"
    file = await bot.get_file(document.file_id)
    assert file.file_size == len(data) and file.file_unique_id == document.file_unique_id
    assert file.file_path.startswith(fake.base_file_url) and file.file_path.endswith(".yaml")
    assert bytes(await file.download_as_bytearray()) == data
    assert fake.downloads[-1][1] == 200


async def test_getfile_refuses_unknown_ids_and_files_over_20_mb(bot: Bot, fake: FakeBotAPI):
    """getFile answers "invalid file_id" for unknown ids and "file is too big" past 20 MB."""
    with pytest.raises(BadRequest, match=r"(?i)invalid file_id"):
        await bot.get_file("AgADBAADq6cxG")
    fake.send_document(USER, b"x" * (20 * MB), "big.csv", mime_type="text/csv")
    fake.send_document(USER, b"x" * (20 * MB + 1), "bigger.csv")
    fitting = (await _received(bot)).document  # the newest; take both from the history
    ids = [m["document"]["file_id"] for m in fake.messages(USER) if "document" in m]
    assert (await bot.get_file(ids[0])).file_size == 20 * MB
    with pytest.raises(BadRequest, match=r"(?i)file is too big"):
        await bot.get_file(fitting.file_id)


async def test_the_download_url_checks_the_token_and_the_path(bot: Bot, fake: FakeBotAPI):
    """The file URL serves a known path with the bot's token; 404 otherwise, 401 another token."""
    fake.send_document(USER, b"a,b\n", "q.csv")
    file = await bot.get_file((await _received(bot)).document.file_id)
    path = file.file_path.removeprefix(f"{fake.base_file_url}{fake.token}/")
    base = fake.base_file_url
    async with aiohttp.ClientSession() as session:
        for url, status in [
            (f"{base}{fake.token}/{path}", 200),
            (f"{base}{fake.token}/documents/nothing.csv", 404),
            (f"{base}999:OTHER/{path}", 401),
            (f"{base}not-a-token/{path}", 404),
        ]:
            async with session.get(url) as response:
                assert response.status == status, url
                if status == 200:
                    assert await response.read() == b"a,b\n"
                else:
                    assert (await response.json())["ok"] is False


async def test_a_users_photo_comes_in_several_sizes(bot: Bot, fake: FakeBotAPI):
    """A user's photo is several JPEG PhotoSizes, smallest first, each with its own file."""
    from PIL import Image

    fake.send_photo(USER, caption="Question 3's picture")
    message = await _received(bot)
    assert [(s.width, s.height) for s in message.photo] == [(90, 68), (320, 240), (640, 480)]
    assert len({s.file_unique_id for s in message.photo}) == 3
    assert message.caption == "Question 3's picture"
    largest = await bot.get_file(message.photo[-1].file_id)
    with Image.open(io.BytesIO(bytes(await largest.download_as_bytearray()))) as image:
        assert (image.format, image.size) == ("JPEG", (640, 480))
    fake.send_photo(USER, _png(60, 40))
    assert [(s.width, s.height) for s in (await _received(bot)).photo] == [(60, 40)]
    with pytest.raises(ValueError):
        fake.send_photo(USER, b"not a picture")


async def test_an_album_is_one_message_a_photo_sharing_a_media_group_id(bot: Bot, fake: FakeBotAPI):
    """An album of three photos is three message Updates, each its own picture, sharing one
    media_group_id (another album has another), the caption on the first only."""
    fake.send_album(USER, 3, caption="Which one?")
    updates = await bot.get_updates(timeout=0)
    await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0)
    messages = [update.message for update in updates[-3:]]
    assert len(messages) == 3 and all(isinstance(m, Message) for m in messages)
    assert len({m.media_group_id for m in messages}) == 1 and messages[0].media_group_id
    assert [m.caption for m in messages] == ["Which one?", None, None]
    assert len({m.photo[-1].file_unique_id for m in messages}) == 3
    fake.send_album(USER, 2)
    assert (await _received(bot)).media_group_id != messages[0].media_group_id
    with pytest.raises(ValueError):
        fake.send_album(USER, 11)


async def test_users_reply_to_the_bots_messages(bot: Bot, fake: FakeBotAPI):
    """Text, documents and photos can reply to a bot message (reply_to_message)."""
    fake.send_message(USER, "/newquiz")
    await _received(bot)
    asked = await bot.send_message(USER, "Send the explanation")
    fake.send_message(USER, "Because it is so.", reply_to=asked.message_id)
    assert (await _received(bot)).reply_to_message.message_id == asked.message_id
    fake.send_document(USER, b"x", "a.txt", reply_to=asked.message_id)
    assert (await _received(bot)).reply_to_message.text == "Send the explanation"
    fake.send_photo(USER, reply_to=asked.message_id)
    assert (await _received(bot)).reply_to_message.message_id == asked.message_id
    with pytest.raises(ValueError):
        fake.send_message(USER, "late", reply_to=999)


async def test_the_bots_uploads_are_gettable(bot: Bot, fake: FakeBotAPI):
    """Documents and photos the bot uploaded have files getFile and the URL serve."""
    sent = await bot.send_document(USER, InputFile(b"id,q\n", filename="export.csv"))
    file = await bot.get_file(sent.document.file_id)
    assert bytes(await file.download_as_bytearray()) == b"id,q\n"
    photo = await bot.send_photo(USER, _png(400, 300))
    assert [(s.width, s.height) for s in photo.photo] == [(90, 68), (320, 240), (400, 300)]
    assert fake.photos[(USER, photo.message_id)] == _png(400, 300)
    largest = await bot.get_file(photo.photo[-1].file_id)
    assert (await largest.download_as_bytearray()).startswith(b"\xff\xd8")  # a JPEG


# -- the bot's photos ------------------------------------------------------------------------


async def test_the_bot_resends_a_users_photo_by_file_id(bot: Bot, fake: FakeBotAPI):
    """sendPhoto with a user's photo file id sends the same PhotoSizes; unknown ids are refused."""
    fake.send_photo(USER)
    sizes = (await _received(bot)).photo
    again = await bot.send_photo(GROUP, sizes[-1].file_id, caption="Which bird?")
    assert [s.file_id for s in again.photo] == [s.file_id for s in sizes]
    assert fake.photos[(GROUP, again.message_id)] == fake.file_bytes(sizes[-1].file_id)
    with pytest.raises(BadRequest, match=r"(?i)wrong file identifier"):
        await bot.send_photo(USER, "AgACAgIAAxkBAAIunknown")
    fake.send_document(USER, b"x", "a.txt")
    document = (await _received(bot)).document
    with pytest.raises(BadRequest, match=r"(?i)can't use file of type Document as Photo"):
        await bot.send_photo(USER, document.file_id)


async def test_the_bot_sends_files_by_url(bot: Bot, fake: FakeBotAPI):
    """Photos and documents by HTTP URL come from web_files; a missing page, a non-picture or a
    document other than GIF, PDF or ZIP is refused; a sent document can be sent again."""
    fake.web_files["https://example.org/owl.png"] = _png(100, 80)
    fake.web_files["https://example.org/page.html"] = b"<html></html>"
    sent = await bot.send_photo(USER, "https://example.org/owl.png")
    assert (sent.photo[-1].width, sent.photo[-1].height) == (100, 80)
    with pytest.raises(BadRequest, match=r"(?i)failed to get HTTP URL content"):
        await bot.send_photo(USER, "https://example.org/missing.png")
    with pytest.raises(BadRequest, match=r"(?i)wrong type of the web page content"):
        await bot.send_photo(USER, "https://example.org/page.html")
    fake.web_files["https://example.org/rules.pdf"] = b"%PDF-1.4"
    pdf = await bot.send_document(USER, "https://example.org/rules.pdf")
    assert (pdf.document.file_name, pdf.document.mime_type) == ("rules.pdf", "application/pdf")
    again = await bot.send_document(GROUP, pdf.document.file_id)
    assert again.document == pdf.document
    fake.web_files["https://example.org/quiz.yaml"] = b"title: x"
    with pytest.raises(BadRequest, match=r"(?i)wrong type of the web page content"):
        await bot.send_document(USER, "https://example.org/quiz.yaml")  # GIF, PDF, ZIP only


async def test_photo_captions_keyboards_and_edits(bot: Bot, fake: FakeBotAPI):
    """A photo takes a 1,024-unit caption and an inline keyboard; its caption and keyboard
    can be edited, its text cannot."""
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
    with pytest.raises(BadRequest, match=r"(?i)caption is too long"):
        await bot.send_photo(
            USER, sample_jpeg(), caption="<b>x</b>" + "y" * 1024, parse_mode="HTML"
        )
    sent = await bot.send_photo(
        USER,
        sample_jpeg(),
        caption="<b>Q1</b> " + "y" * 1021,
        parse_mode="HTML",
        reply_markup=keyboard,
    )
    assert sent.caption_entities[0].type == "bold" and sent.reply_markup == keyboard
    with pytest.raises(BadRequest, match=r"(?i)there is no text in the message to edit"):
        await bot.edit_message_text("new", chat_id=USER, message_id=sent.message_id)
    edited = await bot.edit_message_caption(
        USER, sent.message_id, caption="Answered", reply_markup=keyboard
    )
    assert edited.caption == "Answered" and edited.reply_markup == keyboard
    with pytest.raises(BadRequest, match=r"(?i)message is not modified"):
        await bot.edit_message_caption(
            USER, sent.message_id, caption="Answered", reply_markup=keyboard
        )
    bare = await bot.edit_message_reply_markup(USER, sent.message_id)
    assert bare.reply_markup is None and bare.caption == "Answered"
    text = await bot.send_message(USER, "plain")
    with pytest.raises(BadRequest, match=r"(?i)there is no caption in the message to edit"):
        await bot.edit_message_caption(USER, text.message_id, caption="x")


# -- reply keyboards ---------------------------------------------------------------------------


def _quiz_keyboard(**kwargs: object) -> ReplyKeyboardMarkup:
    return ReplyKeyboardMarkup(
        [
            [KeyboardButton("Make a quiz question", request_poll=KeyboardButtonPollType("quiz"))],
            ["/done", "/undo"],
        ],
        **kwargs,
    )


async def test_a_quiz_poll_button_is_kept_and_pressed(bot: Bot, fake: FakeBotAPI):
    """A reply keyboard with a quiz-poll button is kept per message and shown; pressing it
    sends a quiz poll, a text button sends its text, a one-time keyboard hides."""
    sent = await bot.send_message(
        USER,
        "Send a question",
        reply_markup=_quiz_keyboard(
            one_time_keyboard=True, resize_keyboard=True, input_field_placeholder="A quiz poll"
        ),
    )
    assert sent.reply_markup is None  # a Message echoes inline keyboards only
    markup = fake.reply_markups[(USER, sent.message_id)]
    assert markup["keyboard"][0][0]["request_poll"] == {"type": "quiz"}
    assert markup["one_time_keyboard"] and markup["input_field_placeholder"] == "A quiz poll"
    assert fake.reply_keyboard(USER) == markup and not fake.keyboard_hidden(USER)
    fake.press(USER, "Make a quiz question", question="Owls hunt at?", options=["Night", "Noon"])
    poll = (await _received(bot)).poll
    assert poll.type == "quiz" and poll.correct_option_ids == (0,)
    assert fake.keyboard_hidden(USER)
    with pytest.raises(ValueError, match="only quiz polls"):
        fake.press(USER, "Make a quiz question", question="Q?", options=["a", "b"], type="regular")
    fake.press(USER, "/done")
    assert (await _received(bot)).text == "/done"
    with pytest.raises(ValueError, match="no button"):
        fake.press(USER, "Cancel")


async def test_reply_keyboard_remove_and_force_reply(bot: Bot, fake: FakeBotAPI):
    """ReplyKeyboardRemove takes the chat's keyboard away; ForceReply is kept with its message."""
    await bot.send_message(USER, "Go", reply_markup=_quiz_keyboard())
    removed = await bot.send_message(USER, "Done", reply_markup=ReplyKeyboardRemove())
    assert fake.reply_keyboard(USER) is None
    assert fake.reply_markups[(USER, removed.message_id)]["remove_keyboard"] is True
    with pytest.raises(ValueError, match="no reply keyboard"):
        fake.press(USER, "/done")
    forced = await bot.send_message(
        USER, "Title?", reply_markup=ForceReply(input_field_placeholder="Title")
    )
    assert fake.reply_markups[(USER, forced.message_id)]["force_reply"] is True


async def test_reply_keyboards_are_checked_as_telegram_checks_them(bot: Bot, fake: FakeBotAPI):
    """A poll button only in private chats, a non-empty button text, a 64-character placeholder
    and no reply keyboard on edits."""
    with pytest.raises(BadRequest, match=r"(?i)poll can be requested in private chats only"):
        await bot.send_message(GROUP, "Make one", reply_markup=_quiz_keyboard())
    assert await bot.send_message(GROUP, "Pick", reply_markup=ReplyKeyboardMarkup([["A", "B"]]))
    with pytest.raises(BadRequest, match=r"(?i)keyboard button text must be non-empty"):
        await bot.send_message(USER, "x", reply_markup=ReplyKeyboardMarkup([[""]]))
    with pytest.raises(BadRequest, match=r"(?i)input_field_placeholder"):
        await bot.send_message(
            USER, "x", reply_markup=_quiz_keyboard(input_field_placeholder="p" * 65)
        )
    assert await bot.send_message(
        USER, "x", reply_markup=_quiz_keyboard(input_field_placeholder="p" * 64)
    )
    photo = await bot.send_photo(USER, sample_jpeg(), reply_markup=_quiz_keyboard())
    assert fake.reply_keyboard(USER)["keyboard"][1] == [{"text": "/done"}, {"text": "/undo"}]
    with pytest.raises(BadRequest, match=r"(?i)inline keyboard expected"):
        await bot.edit_message_reply_markup(USER, photo.message_id, reply_markup=_quiz_keyboard())  # type: ignore[arg-type]


async def test_updates_decode_as_ptb_objects(bot: Bot, fake: FakeBotAPI):
    """The update dicts the driving methods return decode into PTB's objects as received."""
    update = fake.send_poll(USER, "Q?", ["a", "b"], correct_option_ids=(1,))
    decoded = Update.de_json(update, bot)
    assert decoded.message.poll.correct_option_ids == (1,)
    assert (await _received(bot)).poll.id == decoded.message.poll.id


# -- the bot's sendPoll ------------------------------------------------------------------------


async def test_the_bot_sends_a_quiz_poll(bot: Bot, fake: FakeBotAPI):
    """sendPoll makes a quiz showing its right options and HTML-parsed explanation."""
    sent = await bot.send_poll(
        USER,
        "Owls hunt at?",
        ["Night", "Noon", "Both"],
        type="quiz",
        correct_option_ids=[0, 2],
        explanation="<i>Mostly</i> night",
        explanation_parse_mode="HTML",
        is_anonymous=False,
    )
    poll = sent.poll
    assert poll.correct_option_ids == (0, 2) and poll.allows_multiple_answers
    assert poll.explanation == "Mostly night" and not poll.is_anonymous
    assert sent.from_user.id == fake.bot_id and poll.allows_revoting is False
    regular = await bot.send_poll(GROUP, "Lunch?", ["Pizza"])  # one option: Bot API 10.1
    assert regular.poll.type == "regular" and regular.poll.allows_revoting


async def test_send_poll_limits(bot: Bot, fake: FakeBotAPI):
    """sendPoll refuses what Telegram refuses: 300/100/200 characters, 1-12 options, right ids."""
    assert await bot.send_poll(
        USER,
        "Q" * 300,
        ["o" * 100] * 12,
        type="quiz",
        correct_option_ids=[11],
        explanation="e" * 200,
    )
    refused = [
        (dict(question="Q" * 301, options=["a", "b"]), "poll question length must not exceed 300"),
        (
            dict(question="Q?", options=[str(n) for n in range(13)]),
            "poll can't have more than 12 options",
        ),
        (dict(question="Q?", options=[]), "poll must have at least one answer option"),
        (dict(question="Q?", options=["a", "o" * 101]), "poll options length must not exceed 100"),
        (dict(question="Q?", options=["a", " "]), "text must be non-empty"),
        (
            dict(question="Q?", options=["a", "b"], type="quiz", correct_option_ids=[2]),
            "wrong correct option ID specified",
        ),
        (dict(question="Q?", options=["a", "b"], type="quiz"), "wrong correct option ID specified"),
        (
            dict(
                question="Q?",
                options=["a", "b"],
                type="quiz",
                correct_option_ids=[0],
                explanation="e" * 201,
            ),
            "explanation is too long",
        ),
    ]
    for kwargs, description in refused:
        with pytest.raises(BadRequest) as caught:
            await bot.send_poll(USER, **kwargs)
        assert description.lower() in caught.value.message.lower(), kwargs
    assert sum("poll" in m for m in fake.messages(USER)) == 1


# -- the objects against the Bot API description -----------------------------------------------


def _check_object(types: dict, name: str, value: dict) -> None:
    """``value`` has every required field of Bot API type ``name`` and no field it lacks."""
    fields = {f["name"]: f for f in types[name]["fields"]}
    missing = [f for f, spec in fields.items() if spec["required"] and f not in value]
    unknown = [f for f in value if f not in fields]
    assert not missing and not unknown, (name, missing, unknown)


async def test_objects_have_the_fields_the_bot_api_describes(bot: Bot, fake: FakeBotAPI):
    """Polls, options, origins, documents, photo sizes and files carry exactly the described
    fields (Bot API 10.0, the same as 10.1 for these types)."""
    import json

    from tests.support.fakebotapi import DEFAULT_SPEC

    types = json.loads(DEFAULT_SPEC.read_text(encoding="utf-8"))["types"]
    fake.send_poll(USER, "Q?", ["a", "b"], explanation="e", forward_from=OTHER)
    fake.send_poll(USER, "Q?", ["a", "b"], forward_from="channel", answer_visible=False)
    fake.send_poll(USER, "Q?", ["a", "b"], forward_from="hidden", type="regular")
    fake.send_document(USER, b"x", "a.csv")
    fake.send_photo(USER)
    await bot.send_poll(USER, "Q?", ["a", "b"], type="quiz", correct_option_ids=[1])
    origins = {
        "user": "MessageOriginUser",
        "channel": "MessageOriginChannel",
        "hidden_user": "MessageOriginHiddenUser",
    }
    for message in fake.messages(USER):
        if "poll" in message:
            _check_object(types, "Poll", message["poll"])
            for option in message["poll"]["options"]:
                _check_object(types, "PollOption", option)
        if "forward_origin" in message:
            _check_object(
                types, origins[message["forward_origin"]["type"]], message["forward_origin"]
            )
        if "document" in message:
            _check_object(types, "Document", message["document"])
            _check_object(
                types, "File", (await bot.get_file(message["document"]["file_id"])).to_dict()
            )
        for size in message.get("photo", []):
            _check_object(types, "PhotoSize", size)
