"""Talk to the real bot by hand, with no Telegram account: the fake Bot API server and
``quizbot run`` against it, and you as one user typing messages and tapping buttons.

Run from the repository's root (docs/development.md, "Trying the bot by hand")::

    python -m tests.support.sandbox [--lang el] [--db PATH] [--banks PATH]

Every line you type is sent to the bot as a message from the user (``/start``, ``/quiz``, a
text), in their private chat or, after ``:group``, in a group where they are an administrator.
Lines starting with ``:`` are the sandbox's own:

- ``:tap N``: tap button N (counted from 1, row by row) of the bot's newest message with
  buttons in the chat (one sent or edited since your last line first; waiting for one only
  when the chat has none);
- ``:group`` / ``:private``: talk in the group / the private chat;
- ``:help``; ``:quit`` (or end of input).

What the bot sends, edits or answers (a toast) is printed as it comes, its buttons numbered, a
photo as its format, size and bytes, wrapped to the terminal's width. The bot's log, and its
database unless ``--db``, are in a temporary folder, named at the start and deleted at the end
(kept if the bot failed). Standard input may be a file or a pipe: each line is echoed and waits
for the bot's answer to the one before, so a script of lines is a repeatable session.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import itertools
import os
import shutil
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bot.terminal import play
from bot.terminal import text as termtext
from tests.support.fakebotapi import Call, FakeBotAPI
from tests.support.processes import start_bot_process

USER_ID = 501
"""The Telegram user id you type as."""

FIRST_NAME = "Alex"
"""Your first name, as Telegram gives it to the bot (its greetings use it)."""

GROUP_ID = -1001234567890
"""The group ``:group`` talks in (a supergroup: you its creator, the bot a member)."""

REPLY_SECONDS = 30.0
"""How long a line waits for the bot's answer before the next is read, in seconds: a bound
for a bot that never answers, not a pace."""

MESSAGE_METHODS = frozenset(
    {
        "sendMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "sendPhoto",
        "sendDocument",
        "sendPoll",
        "stopPoll",
    }
)
"""Bot API methods whose result is a message shown to the user."""

HELP = """\
Each line is a message from you to the bot (/start, /quiz, /help, a text), in the chat you are in.
  :tap N      tap button N (from 1, row by row) of the bot's newest message with buttons
              in this chat
  :group      talk in a group (you its creator, the bot a member); :private to go back
  :help       this; :quit (or Ctrl-D) ends the sandbox and the bot"""


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The message's inline buttons, row by row."""
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return list(itertools.chain.from_iterable(rows))


def shown(
    message: dict[str, Any], what: str, photo: str | None = None, columns: int | None = None
) -> str:
    """A bot message for the terminal: what happened to it, its text (``photo``, a note of its
    picture, before its caption) and numbered buttons (in lines of ``columns`` columns, a
    button's label never cut)."""
    text = message.get("text") or message.get("caption") or ""
    if photo is not None:
        text = f"{photo}\n{text}" if text else photo
    if "poll" in message:
        text = message["poll"]["question"] + "".join(
            f"\n  ( ) {option['text']}" for option in message["poll"]["options"]
        )
    lines = [f"bot {what} #{message['message_id']}:"]
    lines += [f"  {line}" for line in text.splitlines() or [""]]
    labels = [f"[{n}] {button['text']}" for n, button in enumerate(buttons(message), 1)]
    row = ""
    for label in labels:
        if row and columns is not None and termtext.width(f"  {row}  {label}") > columns:
            lines.append(f"  {row}")
            row = ""
        row = f"{row}  {label}" if row else label
    if row:
        lines.append(f"  {row}")
    return "\n".join(lines)


def photo_note(data: bytes | None) -> str:
    """A photo the bot sent (``data``: the picture), for the terminal: ``[photo: PNG,
    WIDTHxHEIGHT, N bytes]`` (a terminal cannot draw it)."""
    if data is None:
        return "[photo]"
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        return f"[photo: {image.format}, {image.width}×{image.height}, {len(data)} bytes]"


def columns() -> int:
    """The terminal's width in columns (``COLUMNS`` first, else the terminal's, else 80)."""
    return max(20, shutil.get_terminal_size().columns)


def say(text: str) -> None:
    """Print ``text`` wrapped to the terminal's width as ``quizbot play`` prints
    (:func:`bot.terminal.play.wrap`: continuation lines indented as their line, or under a list
    item's text; Persian and Arabic in visual order unless ``QUIZBOT_TERMINAL_BIDI=1``)."""
    print(play.wrap(text, columns()), flush=True)


class Sandbox:
    """One user at the keyboard, the fake server and what the bot said since the last look.

    Args:
        fake: The started fake Bot API server the bot polls.
        language: The user's Telegram language (``language_code``).
    """

    def __init__(self, fake: FakeBotAPI, language: str = "en") -> None:
        self.fake = fake
        self.chat_id = USER_ID
        self.seen = 0  # calls printed so far
        self.since = 0  # the call index at the last line typed
        self.pending: tuple[str, Any] | None = None  # what the bot has yet to answer
        fake.add_user(USER_ID, FIRST_NAME, language_code=language)
        fake.add_group(GROUP_ID, "Sandbox group", admins=[USER_ID], members=[fake.bot_id])

    def news(self) -> Iterator[str]:
        """What the bot did in the user's chats since the last call, for the terminal."""
        for call in self.fake.calls[self.seen :]:
            self.seen += 1
            if call.ok:
                yield from self._told(call)

    def _told(self, call: Call) -> Iterator[str]:
        chats = (USER_ID, GROUP_ID)
        if call.method == "answerCallbackQuery" and call.params.get("text"):
            yield f"bot toast: {call.params['text']}"
        elif call.method in MESSAGE_METHODS and isinstance(call.result, dict):
            chat_id = call.result.get("chat", {}).get("id")
            if chat_id in chats:
                with contextlib.suppress(KeyError):  # deleted since
                    message = self.fake.message(chat_id, call.result["message_id"])
                    what = "sent" if call.method.startswith("send") else "edited"
                    photo = None
                    if call.method == "sendPhoto":
                        photo = photo_note(
                            self.fake.photos.get((chat_id, call.result["message_id"]))
                        )
                    yield shown(message, what, photo, columns())
        elif call.method == "deleteMessage" and call.params.get("chat_id") in chats:
            yield f"bot deleted #{call.params.get('message_id')}"

    def answered(self) -> bool:
        """Whether the bot answered the last line: a message in the chat after a text, the
        callback answer and then a message after a tap (a tap answered with a toast only is
        answered once the toast came)."""
        if self.pending is None:
            return True
        kind, value = self.pending
        later = self.fake.calls[self.since :]
        in_chat = any(
            c.method in MESSAGE_METHODS and c.params.get("chat_id") == self.chat_id for c in later
        )
        if kind == "text":
            return in_chat
        answer = self.fake.callback_answers.get(value)
        return answer is not None and (in_chat or bool(answer.get("text")))

    def keyboard(self, fresh: bool = False) -> dict[str, Any] | None:
        """The bot's newest message with buttons to tap (callback buttons) in the chat, else
        None; with ``fresh``, only one sent or edited since the last line."""
        touched = {
            c.result.get("message_id")
            for c in self.fake.calls[self.since :]
            if c.ok
            and c.method in MESSAGE_METHODS
            and isinstance(c.result, dict)
            and c.result.get("chat", {}).get("id") == self.chat_id
        }
        for message in reversed(self.fake.messages(self.chat_id)):
            if (not fresh or message["message_id"] in touched) and any(
                "callback_data" in button for button in buttons(message)
            ):
                return message
        return None

    async def line(self, text: str) -> str | None:
        """Carry out one typed line; a message for the terminal, or None."""
        if text in (":group", ":private"):
            self.chat_id = GROUP_ID if text == ":group" else USER_ID
            return f"(now in the {'group' if text == ':group' else 'private chat'})"
        if text == ":help":
            return HELP.strip()
        if text.startswith(":tap"):
            return await self.tap(text.removeprefix(":tap").strip())
        if text.startswith(":"):
            return f"(unknown sandbox command {text!r}: see :help)"
        self.since = len(self.fake.calls)
        chat = None if self.chat_id == USER_ID else self.chat_id
        self.fake.send_message(USER_ID, text, chat_id=chat)
        self.pending = ("text", None)
        return None

    async def tap(self, number: str) -> str | None:
        """Tap button ``number`` of the newest message with buttons in the chat: one sent or
        edited since the last line if any (a keyboard that replaced an older one), else the
        newest before it, at once; waiting for one (:data:`REPLY_SECONDS`) only when the chat
        has none yet."""
        message = self.keyboard(fresh=True) or self.keyboard()
        if message is None:
            try:
                message = await self.fake.wait_for(self.keyboard, REPLY_SECONDS)
            except AssertionError:
                return "(no message with buttons in this chat)"
        choices = buttons(message)
        if not number.isdigit() or not 1 <= int(number) <= len(choices):
            return f"(tap a button from 1 to {len(choices)}: :tap N)"
        button = choices[int(number) - 1]
        if "callback_data" not in button:
            return f"(button {number} opens {button.get('url') or 'something else'}: not a tap)"
        self.since = len(self.fake.calls)
        update = self.fake.tap(
            USER_ID, self.chat_id, message["message_id"], button["callback_data"]
        )
        self.pending = ("tap", update["callback_query"]["id"])
        return None

    async def settle(self) -> None:
        """Wait until the bot answered the last line (at most :data:`REPLY_SECONDS`)."""
        with contextlib.suppress(AssertionError):
            await self.fake.wait_for(self.answered, REPLY_SECONDS)
        self.pending = None


def _read_lines(loop: asyncio.AbstractEventLoop, queue: asyncio.Queue[str | None]) -> None:
    """Feed standard input's lines to ``queue`` (None at its end), from a daemon thread, so
    that a line being typed never holds up the exit."""
    for raw in sys.stdin:
        loop.call_soon_threadsafe(queue.put_nowait, raw.rstrip("\n"))
    loop.call_soon_threadsafe(queue.put_nowait, None)


async def _printer(sandbox: Sandbox, done: asyncio.Event) -> None:
    """Print what the bot does as it comes (woken by the fake's signals), until ``done`` is
    set and the fake signalled once more (a cancellation could be lost in Python 3.11's
    ``asyncio.wait_for``, which the fake's waits use)."""
    while not done.is_set():
        await sandbox.fake.wait_for(
            lambda: done.is_set() or len(sandbox.fake.calls) > sandbox.seen, 10**9
        )
        for text in sandbox.news():
            say(text)


async def main(argv: list[str] | None = None) -> int:
    """Start the fake and the bot, run the session, stop both; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.support.sandbox", description=__doc__.split("\n\n", 1)[0]
    )
    parser.add_argument("--lang", default="en", help="your Telegram language (default en)")
    parser.add_argument("--db", type=Path, help="the bot's database (default: a new one)")
    parser.add_argument("--banks", help="bank files or folders (QUIZBOT_BANKS)")
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="quizbot-sandbox-"))
    fake = FakeBotAPI()
    await fake.start()
    sandbox = Sandbox(fake, args.lang)
    log = folder / "bot.log"
    env = {"QUIZBOT_BANKS": args.banks} if args.banks else {}
    proc = await start_bot_process(fake, args.db or folder / "quiz.sqlite3", log, env=env)
    say(
        f"quizbot is running against the fake Bot API at {fake.base_url}; its log: {log}\n"
        f"You are {FIRST_NAME}, user {USER_ID}; type /start, or :help."
    )
    echo = not sys.stdin.isatty()  # a script's lines, shown where they act
    done = asyncio.Event()
    printer = asyncio.create_task(_printer(sandbox, done))
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    threading.Thread(
        target=_read_lines, args=(asyncio.get_running_loop(), queue), daemon=True
    ).start()
    try:
        while (text := await queue.get()) is not None and text != ":quit":
            if not text.strip():
                continue
            if echo:
                say(f"> {text.strip()}")
            said = await sandbox.line(text.strip())
            if said:
                say(said)
            await sandbox.settle()
            for shown_text in sandbox.news():
                say(shown_text)
        await sandbox.settle()
        for shown_text in sandbox.news():
            say(shown_text)
    finally:
        done.set()
        fake.signal()
        await printer
        if proc.returncode is None:
            proc.send_signal(signal.SIGINT)
            await proc.wait()
        await fake.stop()
    if proc.returncode in (0, -signal.SIGINT):
        shutil.rmtree(folder, ignore_errors=True)
        return 0
    say(f"(the bot exited with status {proc.returncode}; its log: {log})")
    return 1


if __name__ == "__main__":
    status = 130
    with contextlib.suppress(KeyboardInterrupt):
        status = asyncio.run(main())
    sys.stdout.flush()
    # the reading thread may still wait on standard input: skip the interpreter's shutdown,
    # which would wait for stdin's lock
    os._exit(status)
