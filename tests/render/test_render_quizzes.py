"""The creator's screens (bot/features/myquizzes/screens.py) stay within Telegram's limits and show
the creator's texts as typed."""

from __future__ import annotations

from bot import i18n
from bot.bankload.problems import BankProblem
from bot.features.myquizzes import screens
from bot.kernel.library import QuizRecord, Visibility
from bot.render.limits import MAX_CAPTION_UTF16, MAX_MESSAGE_UTF16
from bot.render.screen import MAX_BUTTON_LABEL
from bot.render.text import HTML, html_length

EN, HI = i18n.catalog("en"), i18n.catalog("hi")


def record(n: int, title: str, *, disabled: bool = False) -> QuizRecord:
    return QuizRecord(f"c-{n:010d}", 7, 3, title, "en", 200, Visibility.PUBLIC, disabled, 0.0, 0.0)


def test_a_hundred_long_titles_fit_one_message_and_one_keyboard():
    """100 quizzes with 300-character titles: one message, a button each, labels clipped."""
    records = [record(n, f"<b>{n}</b> & " + "x" * 300) for n in range(100)]
    screen = screens.quiz_list(records, EN, HTML)
    assert html_length(screen.text) <= MAX_MESSAGE_UTF16
    labels = [b.label for row in screen.keyboard for b in row]
    assert len(labels) == 100 and all(len(label) <= MAX_BUTTON_LABEL for label in labels)
    assert "&lt;b&gt;0&lt;/b&gt; &amp; " in screen.text  # shown as typed, not as HTML


def test_a_taken_down_quiz_is_marked_and_has_no_play_button():
    """A disabled quiz is marked in the list and its screen has no Play or Share."""
    taken_down = record(1, "Gone", disabled=True)
    assert "⛔" in screens.quiz_list([taken_down], EN, HTML).text
    screen = screens.quiz_screen(taken_down, EN, HTML, "quizbot")
    labels = {b.label for row in screen.keyboard for b in row}
    assert EN("quizzes.button_play") not in labels and EN("quizzes.button_share") not in labels


def test_the_export_caption_fits_a_caption():
    """The export caption stays within 1,024 characters whatever the title."""
    caption = screens.export_caption(record(1, "t" * 5000), HI, HTML)
    assert html_length(caption) <= MAX_CAPTION_UTF16


def test_problems_are_listed_in_the_creators_language_then_counted():
    """Problems show in Hindi by question number, field (options counted from 1) and line;
    past 15 the rest are counted."""
    problems = [
        BankProblem(
            "quiz",
            10 + n,
            f"q{n}",
            "option 2.text.en",
            "is missing",
            key="problem.missing",
            question=n,
        )
        for n in range(1, 21)
    ]
    text = screens.problems_text(problems, HI, HTML)
    assert HI("quizzes.problems", count=20) in text
    assert "• प्रश्न 1, विकल्प 2.text.en (पंक्ति 11): नहीं दिया गया है" in text
    assert HI("quizzes.problems_more", count=5) in text
    assert text.count("•") == 15


def test_a_quiz_in_several_languages_says_which():
    """A quiz with several languages names them, each in itself, in the creator's language;
    a quiz in one language says nothing of it."""
    quiz = record(1, "Capitals")
    several = screens.quiz_screen(quiz, HI, HTML, "quizbot", languages=("en", "ru", "ar"))
    assert HI("quizzes.languages", languages="English, Русский, العربية") in several.text
    one = screens.quiz_screen(quiz, EN, HTML, "quizbot", languages=("en",))
    assert EN("quizzes.languages", languages="English").split(":")[0] not in one.text
