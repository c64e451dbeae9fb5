"""End to end through the fake Bot API: a GIFT file with true/false and several-right
questions sent as a document becomes a quiz of those kinds; a quiz poll forwarded from a
channel, with its counter and signature, is cleaned for /newquiz and its original kept on a
tap."""

from __future__ import annotations

from bot import i18n
from bot.services import services_of
from tests.support.fakebotapi.polls import FORWARD_CHANNEL
from tests.support.person import Person
from tests.support.screens import buttons

T = i18n.catalog("en")

GIFT = """\
::sun::The sun is a star.{T}

::boil::Water boils at 50 degrees Celsius at sea level.{FALSE#It boils at 100.}

::langs::Which of these are programming languages?{
  ~%50%Python
  ~%50%Go
  ~%-100%HTML
  ####Python and Go are; HTML marks up documents.
}

::capital::What is the capital of France?{=Paris ~Lyon ~Nice}

::half::Which is even?{~4 ~%50%6 ~7}
"""


def _data(message: dict, prefix: str) -> list[str]:
    return [
        b["callback_data"]
        for b in buttons(message)
        if b.get("callback_data", "").startswith(prefix)
    ]


async def test_a_gift_file_with_true_false_and_several_right_makes_a_quiz_of_those_kinds(
    fake, running_bot
):
    """The quiz keeps the file's true/false and several-right questions as such; the
    question whose weights make no several-right question is counted as left out."""
    maker = Person(fake, 3401, "Ada")
    skipped, saved, _ = await maker.send_document(GIFT.encode(), "kinds.gift", replies=3)
    assert skipped["text"] == T("documents.skipped", count=1)
    assert saved["text"] == T(
        "quizzes.created", title=T("documents.imported_title", name="kinds"), count=4
    )
    quizzes = services_of(running_bot.app).quizzes
    (record,) = await quizzes.quizzes(maker.user_id)
    bank = (await quizzes.quiz(maker.user_id, record.id)).bank
    assert [q.id for q in bank.questions] == ["sun", "boil", "langs", "capital"]
    assert bank.question("sun").answer is True
    assert bank.question("boil").answer is False
    assert bank.question("boil").explanation.by_language["en"] == "It boils at 100."
    langs = bank.question("langs")
    assert langs.several and [o.correct for o in langs.options] == [True, True, False]
    assert bank.question("capital").answer is None and not bank.question("capital").several


async def test_a_forwarded_quiz_poll_is_cleaned_and_the_original_kept_on_a_tap(fake, running_bot):
    """A quiz poll forwarded from a channel with a counter and a signature is added without
    them, the maker is shown what was taken off, and "Keep the original" puts it back."""
    maker = Person(fake, 3402, "Ada")
    await maker.say("/newquiz")
    await maker.say("Geography")
    await maker.say("/skip")
    [added] = await maker.send_poll(
        "[12/100] What is the capital of France? @quiz_channel",
        ["Lyon", "Paris", "Nice"],
        correct_option_ids=(1,),
        forward_from="channel",
    )
    assert fake.messages(maker.user_id)[-2]["forward_origin"]["chat"] == FORWARD_CHANNEL
    assert added["text"].startswith(
        T("newquiz.added", number=1, prompt="What is the capital of France?")
    )
    assert T("polls.cleaned", removed="[12/100] … @quiz_channel") in added["text"]
    assert [b["text"] for b in buttons(added)] == [
        T("newquiz.button_undo"),
        T("polls.button_keep_original"),
    ]
    creators = services_of(running_bot.app).creators
    draft = await creators.draft(maker.user_id)
    assert draft is not None and draft.questions[0].prompt == "What is the capital of France?"

    [keep] = _data(added, "nk:")
    await maker.tap(added, keep)
    chat_id, message_id = added["chat"]["id"], added["message_id"]
    edited = await fake.wait_for(
        lambda: (lambda m: m if m != added else None)(fake.message(chat_id, message_id))
    )
    assert edited["text"] == "\n".join(
        (
            T("polls.original_kept", number=1),
            "[12/100] What is the capital of France? @quiz_channel",
        )
    )
    draft = await creators.draft(maker.user_id)
    assert draft is not None
    assert draft.questions[0].prompt == "[12/100] What is the capital of France? @quiz_channel"
    stale = await maker.tap(added, keep, check_button=False)  # its button is gone
    assert fake.callback_answers[stale]["text"] == T("newquiz.stale")


async def test_a_csv_file_with_several_right_and_true_false_makes_a_quiz_of_those_kinds(
    fake, running_bot
):
    """``correct`` ``A;C`` makes a several-right question, ``TRUE`` with no options a
    true/false one, in the sender's language."""
    maker = Person(fake, 3403, "Bruno", "pt")
    csv = (
        "id,prompt,A,B,C,correct\n"
        "primos,Quais são primos?,2,4,5,A;C\n"
        "sol,O Sol é uma estrela.,,,,TRUE\n"
    )
    await maker.send_document(csv.encode(), "ciencias.csv", replies=2)
    quizzes = services_of(running_bot.app).quizzes
    (record,) = await quizzes.quizzes(maker.user_id)
    bank = (await quizzes.quiz(maker.user_id, record.id)).bank
    assert bank.languages == ("pt",)
    assert [o.correct for o in bank.question("primos").options] == [True, False, True]
    assert bank.question("sol").answer is True


async def test_a_forwarded_open_quiz_says_what_was_taken_off_before_its_answer_is_chosen(
    fake, running_bot
):
    """An open quiz forwarded from a channel hides its answer: the question asking for it
    shows the cleaned question and what was taken off; the question added keeps the original
    to put back."""
    maker = Person(fake, 3404, "Ada")
    await maker.say("/newquiz")
    await maker.say("Geography")
    await maker.say("/skip")
    [ask] = await maker.send_poll(
        "Q7. Largest ocean? t.me/quiz_channel",
        ["Atlantic", "Pacific", "Indian"],
        correct_option_ids=(1,),
        forward_from="channel",
        answer_visible=False,
    )
    assert "\nLargest ocean?\n" in ask["text"]
    assert T("polls.cleaned", removed="Q7. … t.me/quiz_channel") in ask["text"]
    [_, right, _] = _data(ask, "no:")
    await maker.tap(ask, right)
    chat_id, message_id = ask["chat"]["id"], ask["message_id"]
    added = await fake.wait_for(
        lambda: (lambda m: m if m != ask else None)(fake.message(chat_id, message_id))
    )
    assert T("polls.cleaned", removed="Q7. … t.me/quiz_channel") in added["text"]
    assert _data(added, "nk:")
