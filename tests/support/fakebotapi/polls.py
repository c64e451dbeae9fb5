"""Polls: quiz and regular polls users send or forward to the bot (as Bot API 9.6+ shows
them, with ``correct_option_ids``), and the bot's sendPoll.

What the bot sees of a quiz follows Poll.correct_option_ids: "Available only for polls in
quiz mode which are closed or were sent (not forwarded) by the bot or to the private chat
with the bot". Bot API 9.6 replaced ``correct_option_id`` with the array
``correct_option_ids``; Bot API 10.0 and 10.1 have no ``correct_option_id`` field, so the fake
sends none (PTB 22.8 derives its deprecated ``Poll.correct_option_id`` from the array).

A mixin of :class:`~tests.support.fakebotapi.FakeBotAPI`: its methods use the server's
state, set up in ``FakeBotAPI.__init__``."""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence
from typing import Any

from tests.support.fakebotapi.protocol import (
    _OPTION_EMPTY,
    MAX_EXPLANATION_LINE_FEEDS,
    MAX_POLL_EXPLANATION,
    MAX_POLL_OPTION,
    MAX_POLL_OPTIONS,
    MAX_POLL_QUESTION,
    ApiError,
    _bad,
    _flag,
    utf16_len,
)

FORWARD_CHANNEL = {
    "id": -1001987654321,
    "type": "channel",
    "title": "Quiz Channel",
    "username": "quiz_channel",
}
"""The channel a poll forwarded with ``forward_from="channel"`` comes from."""


class PollsMixin:
    """Polls users send or forward to the bot, and the bot's sendPoll."""

    def send_poll(
        self,
        user_id: int,
        question: str,
        options: Sequence[str],
        *,
        type: str = "quiz",
        correct_option_ids: Sequence[int] = (0,),
        explanation: str | None = None,
        allows_multiple_answers: bool = False,
        forward_from: int | str | None = None,
        answer_visible: bool = True,
        chat_id: int | None = None,
    ) -> dict:
        """A user sends (made in the app, e.g. with a request_poll button) or forwards a poll.

        The message Update carries a Poll as Telegram shows it to the bot: anonymous, no votes,
        options with a ``persistent_id``; a quiz allows no revoting, a regular poll does. A quiz
        shows ``correct_option_ids`` and its ``explanation`` only where Telegram shows them:
        sent (not forwarded) into the private chat with the bot, or closed. So a forwarded quiz
        with ``answer_visible`` is a closed one (``is_closed: true``); with ``answer_visible``
        False it is an open quiz whose answer Telegram hides: no correct ids, no explanation.
        A quiz with several right options allows multiple answers.

        Args:
            user_id: The sender (see :meth:`add_user`).
            question: 1-300 characters.
            options: 1-12 option texts of 1-100 characters each (sendPoll's limits, Bot API
                10.1).
            type: ``"quiz"`` or ``"regular"``; a regular poll ignores ``correct_option_ids``.
            correct_option_ids: A quiz's right options, 0-based, increasing, at least one.
            explanation: A quiz's explanation, 0-200 characters with at most 2 line feeds.
            allows_multiple_answers: Whether several options may be chosen.
            forward_from: None (the user's own poll), a user id (``forward_origin`` of type
                "user"), ``"hidden"`` (a user who hides their account: "hidden_user"),
                ``"channel"`` (:data:`FORWARD_CHANNEL`) or a channel registered with
                ``add_group(type="channel")`` (type "channel").
            answer_visible: Whether the bot sees the quiz's answer (see above).
            chat_id: A group; None for the user's private chat.

        Returns:
            The message Update.

        Raises:
            ValueError: a poll Telegram's apps cannot make (limits, a quiz without a right
                option, an explanation on a regular poll), a hidden answer where Telegram
                shows it, an unknown user or chat.
        """
        chat, user = self._user_in_chat(user_id, chat_id)
        question, options = question.strip(), [text.strip() for text in options]  # as apps do
        self._check_user_poll(question, options, type, correct_option_ids, explanation)
        forward = self._forward_origin(forward_from)
        shown = chat.type == "private" and forward is None  # Telegram shows the answer there
        if type == "quiz" and not answer_visible and shown:
            raise ValueError("a quiz sent to the bot's private chat always shows its answer")
        poll = self._poll_object(
            question,
            options,
            type=type,
            is_closed=type == "quiz" and answer_visible and not shown,
            allows_multiple_answers=allows_multiple_answers
            or (type == "quiz" and len(correct_option_ids) > 1),
            correct_option_ids=correct_option_ids if type == "quiz" and answer_visible else None,
            explanation=explanation if answer_visible else None,
        )
        fields: dict[str, Any] = {"from": user}
        if forward is not None:
            fields["forward_origin"] = forward
        fields["poll"] = poll
        message = self._store(chat, fields)
        return self.push_update({"message": copy.deepcopy(message)})

    def _poll_object(
        self,
        question: str,
        options: list[str],
        *,
        type: str,
        is_closed: bool,
        allows_multiple_answers: bool,
        correct_option_ids: Sequence[int] | None,
        explanation: str | None,
        is_anonymous: bool = True,
        allows_revoting: bool | None = None,
    ) -> dict[str, Any]:
        """A Poll dict with no votes yet."""
        poll: dict[str, Any] = {
            "id": str(next(self._poll_ids)),
            "question": question,
            "options": [
                {"persistent_id": str(index), "text": text, "voter_count": 0}
                for index, text in enumerate(options)
            ],
            "total_voter_count": 0,
            "is_closed": is_closed,
            "is_anonymous": is_anonymous,
            "type": type,
            "allows_multiple_answers": allows_multiple_answers,
            "allows_revoting": type != "quiz" if allows_revoting is None else allows_revoting,
            "members_only": False,
        }
        if correct_option_ids is not None:
            poll["correct_option_ids"] = list(correct_option_ids)
        if explanation:
            poll["explanation"] = explanation
        return poll

    @staticmethod
    def _check_user_poll(
        question: str,
        options: list[str],
        type: str,
        correct: Sequence[int],
        explanation: str | None,
    ) -> None:
        """ValueError for a poll Telegram's apps cannot make."""
        if type not in ("quiz", "regular"):
            raise ValueError('type must be "quiz" or "regular"')
        if not 1 <= utf16_len(question) <= MAX_POLL_QUESTION:
            raise ValueError(f"a poll question has 1-{MAX_POLL_QUESTION} characters")
        if not 1 <= len(options) <= MAX_POLL_OPTIONS:
            raise ValueError(f"a poll has 1-{MAX_POLL_OPTIONS} options")
        if any(not 1 <= utf16_len(text) <= MAX_POLL_OPTION for text in options):
            raise ValueError(f"a poll option has 1-{MAX_POLL_OPTION} characters")
        if type == "regular":
            if explanation is not None:
                raise ValueError("a regular poll has no explanation")
            return
        ids = list(correct)
        if not ids or ids != sorted(set(ids)) or ids[0] < 0 or ids[-1] >= len(options):
            raise ValueError("a quiz has increasing correct_option_ids among its options")
        if explanation is not None and (
            utf16_len(explanation) > MAX_POLL_EXPLANATION
            or explanation.count("\n") > MAX_EXPLANATION_LINE_FEEDS
        ):
            raise ValueError(
                f"an explanation has 0-{MAX_POLL_EXPLANATION} characters and at "
                f"most {MAX_EXPLANATION_LINE_FEEDS} line feeds"
            )

    def _forward_origin(self, forward_from: int | str | None) -> dict[str, Any] | None:
        """The MessageOrigin of a forwarded message, or None for the user's own."""
        if forward_from is None:
            return None
        date = int(time.time()) - 3600
        if forward_from == "hidden":
            return {"type": "hidden_user", "date": date, "sender_user_name": "Hidden Sender"}
        if forward_from == "channel" or (isinstance(forward_from, int) and forward_from < 0):
            channel = (
                FORWARD_CHANNEL
                if forward_from == "channel"
                else self._channel(int(forward_from)).chat
            )
            return {
                "type": "channel",
                "date": date,
                "chat": copy.deepcopy(channel),
                "message_id": 100 + next(self._forward_ids),
            }
        if isinstance(forward_from, int):
            return {
                "type": "user",
                "date": date,
                "sender_user": copy.deepcopy(self._user(forward_from)),
            }
        raise ValueError('forward_from is a user id, a channel id, "hidden" or "channel"')

    # -- the bot's sendPoll ------------------------------------------------------------------

    def _send_poll(self, p: dict) -> dict:  # noqa: C901 - one check per Bot API rule
        """sendPoll: a question of 1-300 characters, 1-12 options of 1-100 characters
        (strings or InputPollOption), type "regular" (default) or "quiz"; a quiz needs
        increasing ``correct_option_ids`` among its options and takes an explanation of 0-200
        characters with at most 2 line feeds after parsing (explanation_parse_mode HTML or
        explanation_entities). The sent poll shows its right options (the bot sent it);
        anonymous unless ``is_anonymous`` is false; revoting as sendPoll's defaults say. Reply
        markup and replies as for messages. Descriptions are TDLib's where known ("poll
        question length must not exceed 300", "poll can't have more than 12 options", ...).
        """
        chat = self._chat_of(p, sending=True)
        question = str(p["question"]).strip()
        if not question:
            raise ApiError(400, _OPTION_EMPTY)
        if utf16_len(question) > MAX_POLL_QUESTION:
            raise _bad(f"poll question length must not exceed {MAX_POLL_QUESTION}")
        raw_options = p.get("options")
        if not isinstance(raw_options, list) or not raw_options:
            raise _bad("poll must have at least one answer option")
        if len(raw_options) > MAX_POLL_OPTIONS:
            raise _bad(f"poll can't have more than {MAX_POLL_OPTIONS} options")
        options = []
        for option in raw_options:
            text = option.get("text") if isinstance(option, dict) else option
            if not isinstance(text, str):
                raise _bad("can't parse InputPollOption: Expected InputPollOption to be an Object")
            text = text.strip()
            if not text:
                raise ApiError(400, _OPTION_EMPTY)
            if utf16_len(text) > MAX_POLL_OPTION:
                raise _bad(f"poll options length must not exceed {MAX_POLL_OPTION}")
            options.append(text)
        kind = str(p.get("type") or "regular")
        if kind not in ("regular", "quiz"):
            raise _bad("unsupported poll type specified")
        correct: list[int] | None = None
        explanation = ""
        if kind == "quiz":
            ids = p.get("correct_option_ids")
            if (
                not isinstance(ids, list)
                or not ids
                or not all(isinstance(i, int) for i in ids)
                or ids != sorted(set(ids))
                or ids[0] < 0
                or ids[-1] >= len(options)
            ):
                raise _bad("wrong correct option ID specified")
            correct = ids
            if p.get("explanation") not in (None, ""):
                explanation, _ = self._text(
                    {
                        "text": p["explanation"],
                        "parse_mode": p.get("explanation_parse_mode"),
                        "entities": p.get("explanation_entities"),
                    },
                    allow_empty=True,
                )
                if (
                    utf16_len(explanation) > MAX_POLL_EXPLANATION
                    or explanation.count("\n") > MAX_EXPLANATION_LINE_FEEDS
                ):
                    raise _bad("explanation is too long")
        markup = self._send_markup(chat, p)
        reply_to = self._reply_to(chat, p)
        topic = self._thread(chat, p)
        self._check_flood(chat, "sendPoll")
        revoting = p.get("allows_revoting")
        poll = self._poll_object(
            question,
            options,
            type=kind,
            is_closed=_flag(p.get("is_closed")),
            allows_multiple_answers=_flag(p.get("allows_multiple_answers"))
            or (kind == "quiz" and len(correct or ()) > 1),
            correct_option_ids=correct,
            explanation=explanation or None,
            is_anonymous=p.get("is_anonymous") is None or _flag(p.get("is_anonymous")),
            allows_revoting=None if revoting is None else _flag(revoting),
        )
        fields: dict[str, Any] = {"from": self.bot_user, **topic, "poll": poll}
        if markup:
            fields["reply_markup"] = markup
        if reply_to:
            fields["reply_to_message"] = reply_to
        message = self._store(chat, fields)
        self._note_keyboard(chat, message, p)
        chat.activity.append(self._clock())
        return copy.deepcopy(message)
