"""End to end: /myquizzes through the fake Bot API: the list, a quiz's screen (Play, Share),
Export and re-import with a language added, the edits (rename, add, replace, move, delete a
question), results after plays, visibility, deletion, and buttons forged by someone else."""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.bankload import parse_bank
from bot.bankload.dump import dump_bank
from bot.kernel.library import Visibility
from tests.e2e.test_e2e_documents import quiz_data
from tests.support.person import Person
from tests.support.screens import buttons, correct_label, wrong_label

EN = i18n.catalog("en")
CREATOR, PLAYER, STRANGER = 701, 702, 703


def button(message: dict, label: str) -> str:
    """The callback data (or URL) of the button labelled ``label``."""
    found = next(b for b in buttons(message) if b["text"] == label)
    return found.get("callback_data") or found.get("url") or found["switch_inline_query"]


async def tap_and_see(person: Person, message: dict, label: str) -> tuple[str, dict]:
    """Tap ``label`` on ``message``; the toast (or None) and the message once it changed."""
    before = person.fake.message(message["chat"]["id"], message["message_id"])
    snapshot = (before.get("text"), before.get("reply_markup"))
    query = await person.tap(message, button(message, label))
    changed = await person.fake.wait_for(
        lambda: (lambda m: m if (m.get("text"), m.get("reply_markup")) != snapshot else None)(
            person.fake.message(message["chat"]["id"], message["message_id"])
        )
    )
    return person.fake.callback_answers[query].get("text"), changed


async def made(fake, running_bot, data: dict[str, Any] | None = None) -> tuple[Person, dict]:
    """The creator with one quiz sent as a file; the quiz's screen from /myquizzes."""
    creator = Person(fake, CREATOR, "Creator")
    await creator.send_document(dump_bank(data or quiz_data()).encode(), "q.yaml", replies=2)
    (listing,) = await creator.say("/myquizzes")
    _, screen = await tap_and_see(creator, listing, "1. Capitals")
    return creator, screen


async def record(running_bot):
    (found,) = await running_bot.app.bot_data.services.quizzes.quizzes(CREATOR)
    return found


async def test_the_list_and_a_quizs_screen(fake, running_bot):
    """/myquizzes is empty at first; then it lists the quiz, whose screen has Play (its deep
    link) and, with the bot's inline mode on, Share (inline mode with its id)."""
    fake.inline_mode = True  # (read by getMe at the start: restart)
    await running_bot.restart()
    creator = Person(fake, CREATOR, "Creator")
    (empty,) = await creator.say("/myquizzes")
    assert empty["text"] == EN("quizzes.list_empty")
    await creator.send_document(dump_bank(quiz_data()).encode(), "q.yaml", replies=2)
    (listing,) = await creator.say("/myquizzes")
    quiz = await record(running_bot)
    assert (
        EN(
            "quizzes.list_line",
            number=1,
            title="Capitals",
            questions=EN("quizzes.questions", count=2),
            visibility=EN("quizzes.visibility_link"),
        )
        in listing["text"]
    )
    _, screen = await tap_and_see(creator, listing, "1. Capitals")
    assert button(screen, EN("quizzes.button_play")) == (
        f"https://t.me/{fake.bot_username}?start={quiz.id}"
    )
    assert button(screen, EN("quizzes.button_share")) == quiz.id


async def test_export_then_a_language_added_is_version_2(fake, running_bot):
    """Export sends the quiz as a YAML document; sent back with Hindi added, it is version 2
    of the same quiz, playable in Hindi."""
    creator, screen = await made(fake, running_bot)
    quiz = await record(running_bot)
    before = len(creator.bot_messages())
    await creator.tap(screen, button(screen, EN("quizzes.button_export")))
    await fake.wait_for(lambda: any("document" in m for m in creator.bot_messages()[before:]))
    sent = next(m for m in creator.bot_messages()[before:] if "document" in m)
    assert sent["document"]["file_name"] == f"{quiz.id}.yaml"
    assert sent["caption"] == EN("quizzes.export_caption", title="Capitals", version=1)
    document = fake.documents[sent["document"]["file_id"]].decode()
    bank = parse_bank(document)
    assert (bank.id, bank.version, len(bank.questions)) == (quiz.id, 1, 2)
    hindi = document.replace("- en\n", "- en\n- hi\n")
    for line in document.splitlines():
        if line.lstrip().startswith("en: "):
            indent = line[: len(line) - len(line.lstrip())]
            hindi = hindi.replace(line + "\n", f"{line}\n{indent}hi: हिन्दी {line.strip()[4:]}\n", 1)
    saved, _ = await creator.send_document(hindi.encode(), f"{quiz.id}.yaml", replies=2)
    assert saved["text"] == EN("quizzes.updated", title="Capitals", version=2, count=2)
    updated = await record(running_bot)
    assert (updated.id, updated.version) == (quiz.id, 2)
    player = Person(fake, PLAYER, "Player", "hi")
    await player.say(f"/start {quiz.id}", replies=2)
    assert "हिन्दी What is the capital of France?" in player.question_message()["text"]


async def test_rename_move_and_delete_a_question(fake, running_bot):
    """Rename (a prompt, then the title), move a question up and delete one: each change is
    a new version, confirmed in place."""
    creator, screen = await made(fake, running_bot)
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    assert "1. What is the capital of France?" in editing["text"]
    await creator.tap(editing, button(editing, EN("quizzes.button_rename")))
    await fake.wait_for(
        lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_title", title="Capitals")
    )
    said, _ = await creator.say("Capitals <b>of</b> Europe", replies=2)
    assert said["text"] == EN("quizzes.renamed", title="Capitals <b>of</b> Europe", version=2)
    (listing,) = await creator.say("/myquizzes")
    _, screen = await tap_and_see(creator, listing, "1. Capitals <b>of</b> Europe")
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    _, question = await tap_and_see(creator, editing, "2")
    assert "What is the capital of Italy?" in question["text"]
    toast, moved = await tap_and_see(creator, question, EN("quizzes.button_up"))
    assert toast == EN("quizzes.question_moved", number=1, version=3)
    assert EN("quizzes.question_header", number=1, total=2) in moved["text"]
    toast, after = await tap_and_see(creator, moved, EN("quizzes.button_delete_question"))
    assert toast == EN("quizzes.question_deleted", number=1, version=4)
    assert "What is the capital of Italy?" not in after["text"]
    quiz = await record(running_bot)
    assert (quiz.version, quiz.questions, quiz.title) == (4, 1, "Capitals <b>of</b> Europe")


async def test_add_and_replace_a_question_by_text(fake, running_bot):
    """Add a question typed in the text format, then replace question 1 the same way; a
    message that is no question asks again, /cancel stops."""
    creator, screen = await made(fake, running_bot)
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    await creator.tap(editing, button(editing, EN("quizzes.button_add")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_question"))
    (again,) = await creator.say("just some words")
    assert again["text"] == EN("quizzes.bad_question")
    said, _ = await creator.say(
        "What is the capital of Spain?\nMadrid ✅\nSeville\nValencia\n"
        "> It has been the capital since 1561.",
        replies=2,
    )
    assert said["text"] == EN("quizzes.question_added", number=3, version=2)
    (listing,) = await creator.say("/myquizzes")
    _, screen = await tap_and_see(creator, listing, "1. Capitals")
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    assert "3. What is the capital of Spain?" in editing["text"]
    _, question = await tap_and_see(creator, editing, "1")
    await creator.tap(question, button(question, EN("quizzes.button_replace")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_question"))
    said, screen = await creator.say(
        "What is the capital of Portugal?\n*Lisbon\nPorto\n"
        "> Lisbon has been the capital since 1255.",
        replies=2,
    )
    assert said["text"] == EN("quizzes.question_replaced", number=1, version=3)
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    assert "1. What is the capital of Portugal?" in editing["text"]
    await creator.tap(editing, button(editing, EN("quizzes.button_add")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_question"))
    (cancelled,) = await creator.say("/cancel")
    assert cancelled["text"] == EN("quizzes.cancelled")
    quiz = await record(running_bot)
    assert (quiz.version, quiz.questions) == (3, 3)


async def test_results_after_plays(fake, running_bot):
    """Results count the attempts, players and average score of the plays through the deep
    link, and per question the share right and the wrong option chosen most."""
    creator, screen = await made(fake, running_bot)
    quiz = await record(running_bot)
    bank = (await running_bot.app.bot_data.services.quizzes.quiz(CREATOR, quiz.id)).bank
    _, empty = await tap_and_see(creator, screen, EN("quizzes.button_results"))
    assert (
        EN("quizzes.results_none", link=f"https://t.me/{fake.bot_username}?start={quiz.id}")
        in empty["text"]
    )
    for user_id, right in ((PLAYER, True), (STRANGER, False)):
        player = Person(fake, user_id, f"Player {user_id}")
        await player.say(f"/start {quiz.id}", replies=2)
        for _ in bank.questions:
            message = player.question_message()
            label = (correct_label if right else wrong_label)(message, bank, "en")
            feedback = await player.answer(label)
            await player.next(feedback)
    (listing,) = await creator.say("/myquizzes")
    _, screen = await tap_and_see(creator, listing, "1. Capitals")
    _, results = await tap_and_see(creator, screen, EN("quizzes.button_results"))
    assert (
        EN(
            "quizzes.results_totals",
            attempts=EN("quizzes.results_attempts", count=2),
            players=EN("quizzes.results_players", count=2),
            average="50",
        )
        in results["text"]
    )
    assert (
        EN(
            "quizzes.results_question",
            number=1,
            prompt="What is the capital of France?",
            right="50%",
            answers=EN("quizzes.results_answers", count=2),
        )
        in results["text"]
    )
    assert "most chosen wrong option" in results["text"]


async def test_visibility_and_delete(fake, running_bot):
    """Make public and back, then delete with a confirmation (Keep it changes nothing)."""
    creator, screen = await made(fake, running_bot)
    toast, screen = await tap_and_see(creator, screen, EN("quizzes.button_make_public"))
    assert toast == EN("quizzes.toast_public")
    assert (await record(running_bot)).visibility is Visibility.PUBLIC
    toast, screen = await tap_and_see(creator, screen, EN("quizzes.button_make_link"))
    assert (await record(running_bot)).visibility is Visibility.LINK
    _, confirm = await tap_and_see(creator, screen, EN("quizzes.button_delete"))
    assert confirm["text"].startswith(EN("quizzes.delete_confirm", title="Capitals")[:20])
    _, kept = await tap_and_see(creator, confirm, EN("quizzes.button_delete_keep"))
    assert await record(running_bot)
    _, confirm = await tap_and_see(creator, kept, EN("quizzes.button_delete"))
    _, gone = await tap_and_see(creator, confirm, EN("quizzes.button_delete_confirm"))
    assert gone["text"] == EN("quizzes.deleted", title="Capitals")
    assert await running_bot.app.bot_data.services.quizzes.quizzes(CREATOR) == []


async def test_forged_and_stale_buttons_change_nothing(fake, running_bot):
    """Someone else's tap on a management button (forged onto their own chat) gets a polite
    toast and changes nothing; a button of an older version is answered as stale."""
    creator, screen = await made(fake, running_bot)
    quiz = await record(running_bot)
    stranger = Person(fake, STRANGER, "Stranger")
    (theirs,) = await stranger.say("/myquizzes")
    for action in ("public", "confirm", "drop", "rename", "open", "export", "results"):
        query = await stranger.tap(theirs, f"m:{action}:{quiz.id}:1:1", check_button=False)
        assert fake.callback_answers[query]["text"] == EN("quizzes.toast_not_yours")
    assert not any("document" in m for m in stranger.bot_messages())
    unchanged = await record(running_bot)
    assert (unchanged.version, unchanged.visibility) == (1, Visibility.LINK)
    await running_bot.app.bot_data.services.quizzes.rename(CREATOR, quiz.id, "New title")
    toast, shown = await tap_and_see(creator, screen, EN("quizzes.button_make_public"))
    assert toast == EN("quizzes.toast_stale")
    assert "New title" in shown["text"]
    assert (await record(running_bot)).visibility is Visibility.LINK


async def test_a_prompt_for_a_quiz_deleted_meanwhile_is_answered_and_over(fake, running_bot):
    """A title sent after Rename for a quiz deleted meanwhile is answered with the refusal's
    toast text; the prompt is over."""
    creator, screen = await made(fake, running_bot)
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    await creator.tap(editing, button(editing, EN("quizzes.button_rename")))
    await fake.wait_for(
        lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_title", title="Capitals")
    )
    quizzes = running_bot.app.bot_data.services.quizzes
    await quizzes.delete(CREATOR, (await record(running_bot)).id)
    (said,) = await creator.say("Capitals of Europe")
    assert said["text"] == EN("quizzes.toast_gone")
    assert await running_bot.app.bot_data.services.quiz_edits.waiting(CREATOR) is None


async def test_add_a_question_by_a_quiz_poll(fake, running_bot):
    """A quiz poll sent after "Add a question" becomes the quiz's next question, with its right
    options and explanation; a poll whose answer is hidden is refused with a hint."""
    creator, screen = await made(fake, running_bot)
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    await creator.tap(editing, button(editing, EN("quizzes.button_add")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_question"))
    (hidden,) = await creator.send_poll(
        "Which are Baltic capitals?", ["Riga", "Oslo", "Vilnius"], type="regular"
    )
    assert hidden["text"] == EN("quizzes.poll_no_answer")
    said, _ = await creator.send_poll(
        "Which are Baltic capitals?",
        ["Riga", "Oslo", "Vilnius"],
        correct_option_ids=[0, 2],
        explanation="Oslo is Norway's capital.",
        replies=2,
    )
    assert said["text"] == EN("quizzes.question_added", number=3, version=2)
    quiz = await record(running_bot)
    bank = (await running_bot.app.bot_data.services.quizzes.quiz(CREATOR, quiz.id)).bank
    added = bank.questions[2]
    assert added.correct_indices == {0, 2}
    assert added.explanation.by_language["en"] == "Oslo is Norway's capital."


async def test_a_taken_down_quiz_is_shown_marked(fake, running_bot):
    """A quiz the operator disabled is marked in the list, and its screen has no Play."""
    creator, _ = await made(fake, running_bot)
    quiz = await record(running_bot)
    await running_bot.app.bot_data.services.store.set_disabled(quiz.id, True, now=2000.0)
    (listing,) = await creator.say("/myquizzes")
    assert EN("quizzes.disabled") in listing["text"]
    _, screen = await tap_and_see(creator, listing, "1. ⛔ Capitals")
    assert EN("quizzes.disabled_hint") in screen["text"]
    assert EN("quizzes.button_play") not in [b["text"] for b in buttons(screen)]


async def test_a_forwarded_poll_added_is_cleaned_and_its_original_kept_on_a_tap(fake, running_bot):
    """A quiz poll forwarded from a channel after "Add a question" is added without the
    channel's counter and signature, as /newquiz adds it (the one cleaning): the creator is shown
    what was taken off, and "Keep the original" puts it back as a new version; the button is
    stale after that."""
    creator, screen = await made(fake, running_bot)
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    await creator.tap(editing, button(editing, EN("quizzes.button_add")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_question"))
    forwarded = "[3/100] Which is the capital of Latvia? @quiz_channel"
    said, _ = await creator.send_poll(
        forwarded, ["Riga", "Oslo"], correct_option_ids=[0], forward_from="channel", replies=2
    )
    assert said["text"] == "\n".join(
        (
            EN("quizzes.question_added", number=3, version=2),
            EN("polls.cleaned", removed="[3/100] … @quiz_channel"),
        )
    )
    quizzes = running_bot.app.bot_data.services.quizzes
    quiz = await record(running_bot)
    bank = (await quizzes.quiz(CREATOR, quiz.id)).bank
    assert bank.questions[2].prompt.by_language["en"] == "Which is the capital of Latvia?"

    _, kept = await tap_and_see(creator, said, EN("polls.button_keep_original"))
    assert kept["text"] == "\n".join((EN("polls.original_kept", number=3), forwarded))
    quiz = await record(running_bot)
    bank = (await quizzes.quiz(CREATOR, quiz.id)).bank
    assert quiz.version == 3 and bank.questions[2].prompt.by_language["en"] == forwarded
    assert bank.questions[2].correct_indices == {0}
    keep = button(said, EN("polls.button_keep_original"))
    stale = await creator.tap(said, keep, check_button=False)  # its button is gone
    assert fake.callback_answers[stale]["text"] == EN("quizzes.toast_stale")
    assert (await record(running_bot)).version == 3


async def test_a_poll_of_ones_own_keeps_its_counter(fake, running_bot):
    """A quiz poll the creator sends themself (not forwarded) is added as it is: its "1."
    is theirs."""
    creator, screen = await made(fake, running_bot)
    _, editing = await tap_and_see(creator, screen, EN("quizzes.button_edit"))
    await creator.tap(editing, button(editing, EN("quizzes.button_add")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("quizzes.ask_question"))
    said, _ = await creator.send_poll(
        "1. Which is the capital of Latvia?", ["Riga", "Oslo"], correct_option_ids=[0], replies=2
    )
    assert said["text"] == EN("quizzes.question_added", number=3, version=2)
    assert not buttons(said)
