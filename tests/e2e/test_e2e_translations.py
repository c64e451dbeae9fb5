"""End to end: "Add a language" in /myquizzes through the fake Bot API: Russian added to an
English quiz a question per message (a reply that does not match asked again, finished later
and resumed), then played in Russian; a translation cancelled midway leaves the quiz as it
was."""

from __future__ import annotations

from bot import i18n
from tests.e2e.test_e2e_myquizzes import CREATOR, PLAYER, button, made, record, tap_and_see
from tests.support.person import Person

EN = i18n.catalog("en")
RUSSIAN = EN.language_name("ru")
TITLE = "Столицы\nДве столицы."
FRANCE = "Какой город — столица Франции?\nПариж\nЛион\nНицца\n> Правительство там с 987 года."
ITALY = "Какой город — столица Италии?\nРим\nМилан\nТурин\n> Столицей он стал в 1871 году."


async def _picked(creator: Person, screen: dict, language: str) -> dict:
    """Tap "Add a language", then ``language`` (its name in itself); the first prompt."""
    _, picker = await tap_and_see(creator, screen, EN("translations.button_add"))
    assert EN("translations.pick", title="Capitals") in picker["text"]
    names = [b["text"] for row in picker["reply_markup"]["inline_keyboard"] for b in row]
    # every language but the quiz's own, then Back
    assert EN.language_name("en") not in names and len(names) == len(i18n.SUPPORTED)
    before = len(creator.bot_messages())
    await creator.tap(picker, button(picker, language))
    await creator.fake.wait_for(lambda: len(creator.bot_messages()) > before)
    return creator.bot_messages()[-1]


async def test_russian_added_to_an_english_quiz_then_played_in_russian(fake, running_bot):
    """The title and each question are asked in turn with the original to translate; a reply
    that does not match is asked again; a question skipped for now comes after the others;
    Finish later keeps what was given and lets the
    maker's messages be; the picker goes on where it stopped; the last text stores version 2
    with both languages, and a Russian player gets the quiz in Russian."""
    creator, screen = await made(fake, running_bot)
    quiz = await record(running_bot)
    first = await _picked(creator, screen, RUSSIAN)
    assert f"{RUSSIAN} · 1/3" in first["text"] and "Capitals\nTwo capitals." in first["text"]
    assert EN("translations.ask_title_description") in first["text"]
    (second,) = await creator.say(TITLE)
    assert f"{RUSSIAN} · 2/3" in second["text"]
    assert EN("translations.ask_question", number=1) in second["text"]
    assert "What is the capital of France?\nParis\nLyon\nNice\n> The seat" in second["text"]
    (misfit,) = await creator.say("Какой город — столица Франции?\nПариж\nЛион")
    assert misfit["text"] == EN("translations.misfit")
    before = len(creator.bot_messages())
    await creator.tap(second, button(second, EN("translations.button_skip")))
    await fake.wait_for(lambda: len(creator.bot_messages()) > before)
    skipped_to = creator.bot_messages()[-1]
    assert f"{RUSSIAN} · 3/3" in skipped_to["text"]  # question 1 skipped for now
    before = len(creator.bot_messages())
    await creator.tap(skipped_to, button(skipped_to, EN("translations.button_skip")))
    await fake.wait_for(lambda: len(creator.bot_messages()) > before)
    assert f"{RUSSIAN} · 2/3" in creator.bot_messages()[-1]["text"]  # then back to it
    (third,) = await creator.say(FRANCE.replace("\nПариж", "\n*Париж"))  # a copied mark
    assert f"{RUSSIAN} · 3/3" in third["text"]
    await creator.tap(third, button(third, EN("translations.button_later")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("translations.paused"))
    (hint,) = await creator.say("hello")  # not taken for question 2
    assert hint["text"] == EN("unknown_text")
    assert (await record(running_bot)).version == 1
    (listing,) = await creator.say("/myquizzes")
    _, screen = await tap_and_see(creator, listing, "1. Capitals")
    resumed = await _picked(creator, screen, "▶️ " + RUSSIAN)
    assert (
        f"{RUSSIAN} · 3/3" in resumed["text"] and "What is the capital of Italy?" in resumed["text"]
    )
    added, shown = await creator.say(ITALY, replies=2)
    assert added["text"] == EN("translations.added", language=RUSSIAN, title="Capitals", version=2)
    languages = ", ".join(EN.language_name(code) for code in ("en", "ru"))
    assert EN("quizzes.languages", languages=languages) in shown["text"]
    assert (await record(running_bot)).version == 2
    player = Person(fake, PLAYER, "Игрок", "ru")
    await player.say(f"/start {quiz.id}", replies=2)
    assert "Какой город — столица Франции?" in player.question_message()["text"]
    feedback = await player.answer("B")  # right or wrong, the explanation follows
    assert "Правительство там с 987 года." in feedback["text"]


async def test_a_translation_cancelled_midway_leaves_the_quiz_as_it_was(fake, running_bot):
    """Cancel (the button, or /cancel) drops the texts given; the quiz keeps its version,
    its one language and its document; the maker's next message is not read as a text."""
    creator, screen = await made(fake, running_bot)
    quiz = await record(running_bot)
    services = running_bot.app.bot_data.services
    _, before = await services.quizzes.export(CREATOR, quiz.id)
    await _picked(creator, screen, RUSSIAN)
    (asked,) = await creator.say(TITLE)
    await creator.tap(asked, button(asked, EN("translations.button_cancel")))
    await fake.wait_for(lambda: creator.bot_messages()[-1]["text"] == EN("translations.cancelled"))
    assert await services.translations.current(CREATOR) is None
    (listing,) = await creator.say("/myquizzes")
    _, screen = await tap_and_see(creator, listing, "1. Capitals")
    await _picked(creator, screen, RUSSIAN)  # starts over: the title again
    (cancelled,) = await creator.say("/cancel")
    assert cancelled["text"] == EN("translations.cancelled")
    (hint,) = await creator.say(FRANCE)
    assert hint["text"] != EN("translations.misfit")
    after = await record(running_bot)
    assert (after.version, after.language) == (1, "en")
    assert (await services.quizzes.export(CREATOR, quiz.id))[1] == before


async def test_a_translation_that_gives_an_answer_away_is_asked_again(fake, running_bot):
    """The quiz with the new language is checked as any version, the answer-leak check in that
    language too: an explanation naming another question's answer is refused, its question
    asked again, and the quiz stored once it is fixed."""
    creator, screen = await made(fake, running_bot)
    await _picked(creator, screen, RUSSIAN)
    await creator.say(TITLE)
    leaking = FRANCE.replace("Правительство там с 987 года.", "А столица Италии — Рим.")
    await creator.say(leaking)
    problems, again = await creator.say(ITALY, replies=2)
    assert EN("check.answer-leak", other=2) in problems["text"]
    assert problems["text"].endswith(EN("translations.fix"))
    assert f"{RUSSIAN} · 2/3" in again["text"]
    assert (await record(running_bot)).version == 1
    added, _ = await creator.say(FRANCE, replies=2)
    assert added["text"] == EN("translations.added", language=RUSSIAN, title="Capitals", version=2)
