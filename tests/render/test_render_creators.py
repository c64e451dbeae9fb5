"""The /newquiz screens (bot/features/newquiz/screens.py): texts as typed, buttons, the publish
card."""

from __future__ import annotations

from bot import i18n
from bot.features.newquiz import rules as creating
from bot.features.newquiz import screens as newquiz_screens
from bot.features.newquiz import steps
from bot.features.newquiz.draft import Step
from bot.features.newquiz.rules import PollSent
from bot.render import callbacks as render_callbacks
from bot.render import screen as render_screen
from bot.render.text import HTML

T = i18n.catalog("en")


def _collecting():
    draft, _ = steps.start("en", now=1.0)
    draft, _ = steps.take_text(draft, "<b>Quiz</b> & co", message_id=1)
    draft, _ = steps.skip(draft)
    return draft


def test_a_question_added_is_shown_as_typed_with_its_undo():
    """The confirmation escapes the creator's text and carries Undo naming the question."""
    draft, added = steps.take_text(
        _collecting(), "Is <i>this</i> **bold**?\n*yes\nno", message_id=2
    )
    assert isinstance(added, creating.Added)
    screen = newquiz_screens.newquiz_added(draft, added, T, HTML)
    assert "Is &lt;i&gt;this&lt;/i&gt; **bold**?" in screen.text
    assert T("newquiz.added_no_explanation") in screen.text
    [[undo]] = screen.keyboard
    assert undo.action == render_callbacks.UndoButton(draft.started, added.question.serial)


def test_the_right_option_question_checks_the_chosen_options():
    """Which options are right: a button per option, the chosen ones checked, then Done."""
    draft, asked = steps.take_poll(
        _collecting(), PollSent("Primes?", ("2", "4", "5"), True, None, "", True, 3)
    )
    assert isinstance(asked, creating.AskRight)
    serial = asked.pending.question.serial
    draft, asked = steps.choose(draft, serial, 2)
    assert isinstance(asked, creating.AskRight)
    screen = newquiz_screens.newquiz_ask_right(draft, asked.pending, T, HTML)
    assert "C. 5" in screen.text and T("newquiz.ask_right_several") in screen.text
    options, [done] = screen.keyboard
    assert [b.label for b in options] == ["A", "B", "✅ C"]
    assert done.action == render_callbacks.RightDoneButton(draft.started, serial)


def test_the_publish_card_links_and_shares():
    """The card has the deep link, Play, Share and "Start in a group"; no Share without
    inline mode; the first message removes the reply keyboard."""
    head, card = newquiz_screens.newquiz_published("c-abcdefghij", "<Q>", 3, "quizbot", T, HTML)
    assert head.remove_keyboard and "&lt;Q&gt;" in head.screen.text
    assert "https://t.me/quizbot?start=c-abcdefghij" in card.screen.text
    actions = [b.action for row in card.screen.keyboard for b in row]
    assert actions == [
        render_screen.UrlButton("https://t.me/quizbot?start=c-abcdefghij"),
        render_screen.ShareButton("c-abcdefghij"),
        render_screen.UrlButton("https://t.me/quizbot?startgroup=c-abcdefghij"),
    ]
    _, unshared = newquiz_screens.newquiz_published(
        "c-abcdefghij", "Q", 3, "quizbot", T, HTML, share=False
    )
    assert render_screen.ShareButton("c-abcdefghij") not in [
        b.action for row in unshared.screen.keyboard for b in row
    ]


def test_the_prompts_set_and_remove_the_poll_button():
    """The questions' prompt offers the quiz-poll button; the title's removes it."""
    questions = newquiz_screens.newquiz_prompt(Step.QUESTIONS, T, HTML)
    assert questions.poll_button == T("newquiz.button_poll")
    assert "*Athens" in questions.screen.text
    assert newquiz_screens.newquiz_prompt(Step.TITLE, T, HTML).remove_keyboard


def test_problems_by_question_number_and_every_problem_has_a_message():
    """Rejected problems are listed by question number; each draft problem has a message in
    every language."""
    screens = newquiz_screens.newquiz_rejected(
        [
            newquiz_screens.PublishProblem(2, "newquiz.problem.option_empty", {"number": 1}),
            newquiz_screens.PublishProblem(None, "newquiz.problem.no_questions", {}),
        ],
        T,
        HTML,
    )
    [screen] = screens
    lines = screen.text.splitlines()
    assert lines.index("• " + T("newquiz.problem.no_questions")) < lines.index(
        "• "
        + T(
            "newquiz.rejected_question",
            number=2,
            problem=T("newquiz.problem.option_empty", number=1),
        )
    )
    for language in i18n.SUPPORTED:
        t = i18n.catalog(language)
        for key in newquiz_screens.NEWQUIZ_PROBLEM_KEYS:
            assert key in t.messages, (language, key)


def test_an_empty_draft_is_not_counted_as_none_questions():
    """The reminder of a draft without questions says so in words, never "0 questions" (in
    Portuguese CLDR's "one" covers 0: "0 pergunta")."""
    draft = _collecting()
    for language in ("en", "pt"):
        t = i18n.catalog(language)
        screen = newquiz_screens.newquiz_draft_open(draft, t, HTML)
        assert screen.text == HTML.escape(t("newquiz.draft_open_empty", title="<b>Quiz</b> & co"))
        assert "0" not in screen.text
