"""`quizbot play` as a terminal shows it: widths as a terminal draws them (Devanagari, Greek,
emoji, CJK) and wrapping by them, the language from the environment as gettext reads it, the
end screen, no Telegram wording, asking before leaving another bank's quiz, the reset, and the
command line's --version and --chart."""

from __future__ import annotations

import dataclasses
import random
import re
import shlex
import sqlite3

import pytest
import yaml

from bot import i18n
from bot.bankload import load_banks, parse_bank
from bot.config import BUNDLED_BANKS
from bot.features.learning import screens as learning_screens
from bot.features.learning.service import LearningService
from bot.features.private.service import QuizService
from bot.kernel.languages import LANGUAGES
from bot.render import text as render_text
from bot.terminal import play
from bot.terminal import text as termtext
from bot.terminal.replies import is_yes, yes_word
from storage import SQLiteStore
from tests.cli.test_cli import quizbot
from tests.support.banks import BANK_ID
from tests.support.screens import correct_label, wrong_label


def flat(text: str) -> str:
    """``text`` with every run of whitespace one space (the terminal output is wrapped)."""
    return " ".join(text.split())


# --- widths and wrapping -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        ("का", 2),
        ("कि", 2),
        ("की", 2),
        ("को", 2),  # a spacing vowel sign (Mc) takes a column
        ("के", 1),
        ("कं", 1),
        ("कु", 1),  # a vowel sign above or below (Mn) none
        ("क्ष", 2),
        ("त्रि", 3),
        ("प्रश्न", 4),  # the virama takes none
        ("ά", 1),
        ("α\u0301", 1),
        ("Ελληνικά", 8),  # Greek, precomposed or combining
        ("😀", 2),
        ("👩\u200d💻", 2),
        ("❤\ufe0f", 2),
        ("❤", 1),
        ("🇬🇷", 2),
        ("👍🏽", 2),
        ("中文", 4),
        ("ｱ", 1),
        ("Ａ", 2),
        ("a\u200bb", 2),
    ],
)
def test_widths_are_the_columns_a_terminal_draws(text, columns):
    """Spacing vowel signs take one column, combining marks and format characters none,
    CJK, fullwidth forms and emoji (sequences included) two."""
    assert termtext.width(text) == columns


TEXTS = {
    "hi": "A. ऑप्टिमाइज़र स्टेट, ग्रेडिएंट और पैरामीटर को शार्ड करके GPU मेमोरी बचाना, ताकि "
    "हर प्रश्न का उत्तर सही क्रम में दिखे और कोई मात्रा अपने व्यंजन से अलग न हो",
    "el": "B. Η εξοικονόμηση μνήμης GPU με διαμέριση καταστάσεων βελτιστοποιητή, κλίσεων και "
    "παραμέτρων, χωρίς να χάνεται η αποδοτικότητα",
    "emoji": "✅ Σωστά! 🎉 Well done 👩\u200d💻 with emoji 🇬🇷 and hearts ❤\ufe0f between words "
    "that wrap 😀 over several lines",
    "cjk": "• 中文的文本没有空格所以必须在字素之间断行而不能超出终端的宽度范围之外",
}


@pytest.mark.parametrize("kind", sorted(TEXTS))
@pytest.mark.parametrize("columns", [40, 23, 12])
def test_wrapped_lines_fit_and_hang_under_the_item(kind, columns):
    """Every wrapped line fits the width as a terminal draws it, nothing is lost or split
    inside a grapheme cluster (no line starts with a mark), and continuation lines of an
    option or list item are indented under its text."""
    text = TEXTS[kind]
    lines = termtext.wrap(text, columns).split("\n")
    assert len(lines) > 1
    assert all(termtext.width(line) <= columns for line in lines), lines
    assert "".join("".join(lines).split()) == "".join(text.split())
    clusters = [c for line in lines for c in termtext.graphemes("".join(line.split()))]
    assert clusters == list(termtext.graphemes("".join(text.split())))  # none cut inside
    marker = text.split(" ")[0] + " "
    for line in lines[1:]:
        assert line.startswith(" " * termtext.width(marker)) and line.strip(), lines
        assert termtext.grapheme_width(next(termtext.graphemes(line.strip()))) > 0


@pytest.mark.parametrize("mark", ["✅", "❌"])
def test_a_marked_options_continuation_hangs_under_its_text(mark):
    """An answered option, "✅ C. text" or "❌ B. text": its continuation lines are indented
    under the option's text (6 columns, after the mark and the label), not under the label."""
    text = (
        f"{mark} C. Η εξοικονόμηση μνήμης GPU με διαμέριση καταστάσεων "
        "βελτιστοποιητή, κλίσεων και παραμέτρων (η απάντησή σου)"
    )
    lines = termtext.wrap(text, 60).split("\n")
    assert len(lines) > 1 and lines[1].startswith(" " * 6 + "βελτ"), lines
    assert all(line.startswith(" " * 6) and line[6] != " " for line in lines[1:]), lines


def test_a_link_is_never_cut_and_blank_lines_stay():
    """A link wider than the line keeps one line of its own (the terminal wraps it as one
    link); line breaks and blank lines are kept."""
    url = "https://www.microsoft.com/en-us/research/blog/deepspeed-extreme-scale-model-training"
    wrapped = termtext.wrap(f"Source: a blog post ({url})\n\nnext", 30).split("\n")
    assert f"({url})" in wrapped and wrapped[-2:] == ["", "next"]


def test_play_wraps_hindi_within_the_width_through_the_real_command(tmp_path):
    """`quizbot play --lang hi` at 40 columns: every line it writes fits, as a terminal draws
    Devanagari."""
    env = {"QUIZBOT_DB": str(tmp_path / "w.sqlite3"), "COLUMNS": "40"}
    t = i18n.catalog("hi")
    played = quizbot("play", "--lang", "hi", env=env, stdin="A\n\nq\n")
    assert played.returncode == 0, played.stderr
    written = played.stdout
    for prompt in (t("play_prompt_letters", last="D"), t("play_continue")):
        written = written.replace(prompt, "")  # input() shows them as they are
    assert max(termtext.width(line) for line in written.splitlines()) <= 40


KEPT = (
    "8.3 बिलियन",
    "8,3 δισ.",
    "15.1 PFLOP/s",
    "(Narayanan et al.,",
    "Huang et al.,",
    "quizbot play --review",
)


@pytest.mark.parametrize("language", i18n.SUPPORTED)
def test_numbers_names_and_commands_keep_together(language):
    """A number stays with its unit, a name with its "et al." and a command with its options
    on whatever line the wrapping puts them (issue 35, item 6: "8.3\\nबिलियन", "Narayanan
    et\\nal.", "quizbot\\nplay --review"); the stored texts keep plain spaces."""
    bank = load_banks([BUNDLED_BANKS])[BANK_ID]
    texts = [q.explanation.by_language[language] for q in bank.questions]
    texts.append(i18n.catalog(language)("play.review_pointer", command=play.COMMAND))
    kept = [phrase for phrase in KEPT if any(phrase in text for text in texts)]
    assert kept
    for columns in range(24, 101):
        for text in texts:
            lines = termtext.wrap(text, columns).split("\n")
            assert all(termtext.width(line) <= columns for line in lines), lines
            assert "".join("".join(lines).split()) == "".join(text.split())
            for phrase in kept:
                if phrase in text:
                    assert any(phrase in line for line in lines), (columns, phrase, lines)


def test_a_number_is_not_kept_with_a_bracket_or_a_link():
    """ "Table 1 (https://...)": the number stays on its line; the link may start the next."""
    url = "(https://arxiv.org/abs/2104.04473)"
    lines = termtext.wrap(f"abstract and Table 1 {url}", 30).split("\n")
    assert lines == ["abstract and Table 1", url]


@pytest.mark.parametrize("language", i18n.SUPPORTED)
def test_a_count_out_of_a_total_stays_on_one_line(language):
    """The resume message at 60 columns: "question 7 of 8" never leaves "8." alone at the
    start of a line ("7 of 8", "7 από 8", "7 de 8", "8 में से प्रश्न 7" are kept together), in
    every language and at every width from 30 columns."""
    text = i18n.catalog(language)("resume", number=7, total=8)
    words = text.split()
    at, *rest = (i for i, word in enumerate(words) if word.startswith(("7", "8")))
    end = rest[-1] if rest else at  # "7/8" (tr) is one word
    count = " ".join(words[at : end + 1]).rstrip(".।")
    for columns in range(30, 61):
        lines = termtext.wrap(text, columns).split("\n")
        assert any(count in line for line in lines), (columns, count, lines)


@pytest.mark.parametrize("language", i18n.SUPPORTED)
def test_a_count_stays_on_one_line_at_any_width(language):
    """The resume message at every width from 20 to 80 columns, after a word of one to five
    letters: "7 из 8" (Russian) and "7 dari 8" (Indonesian) are kept together as "7 of 8" is
    (before, "8." could start a line at 72 columns in Russian)."""
    text = i18n.catalog(language)("resume", number=7, total=8)
    words = text.split()
    at, *rest = (i for i, word in enumerate(words) if word.startswith(("7", "8")))
    count = " ".join(words[at : (rest[-1] if rest else at) + 1]).rstrip(".।")
    for prefix in ("", "a ", "ab ", "abc ", "abcd ", "abcde "):
        for columns in range(20, 81):
            lines = termtext.wrap(prefix + text, columns).split("\n")
            assert any(count in line for line in lines), (prefix, columns, count, lines)


@pytest.mark.parametrize("code", [code for code in i18n.SUPPORTED if LANGUAGES[code].count_words])
def test_each_language_s_count_words_keep_a_count_together(code):
    """Each "out of" word of a language (its module's ``count_words``) joins the two numbers
    around it: "7 из 8", "8 üzerinden 7"."""
    for word in LANGUAGES[code].count_words:
        assert termtext.kept_together(["x", "7", word, "8"]) == [["x"], ["7", word, "8"]]


def test_a_run_wider_than_the_line_still_breaks_at_its_spaces():
    """A command wider than the line breaks between its words rather than inside one."""
    command = "quizbot play --banks /home/learner/banks/physics.yaml --review"
    lines = termtext.wrap(f"Run {command} now.", 36).split("\n")
    assert all(termtext.width(line) <= 36 for line in lines), lines
    assert flat(" ".join(lines)) == f"Run {command} now."
    assert "/home/learner/banks/physics.yaml" in " ".join(lines).split()


def second_bank(tmp_path):
    """The bundled bank again, as a second bank "second-bank" in a file of its own."""
    data = yaml.safe_load((BUNDLED_BANKS / f"{BANK_ID}.yaml").read_text(encoding="utf-8"))
    data["id"] = "second-bank"
    path = tmp_path / "second.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize(("language", "columns"), [("en", 100), ("hi", 100), ("el", 60)])
def test_prompts_are_wrapped_to_the_terminal(tmp_path, language, columns):
    """The question about leaving an unfinished quiz and the --reset confirmation are wrapped
    like everything else: no line the terminal shows is wider than it (issue 35, item 6)."""
    env = {"QUIZBOT_DB": str(tmp_path / "p.sqlite3"), "COLUMNS": str(columns)}
    banks = ("--banks", str(BUNDLED_BANKS), str(second_bank(tmp_path)))
    t = i18n.catalog(language)
    started = quizbot(
        "play", *banks, "--lang", language, "--bank", BANK_ID, env=env, stdin="A\n\nq\n"
    )
    assert started.returncode == 0, started.stderr
    asked = quizbot(
        "play", *banks, "--lang", language, "--bank", "second-bank", env=env, stdin="\n"
    )
    reset = quizbot("play", "--lang", language, "--reset", env=env, stdin="\n")
    for shown, prompt in ((asked, "play.other_bank"), (reset, "play.reset_prompt")):
        assert shown.returncode == 0, shown.stderr
        end = t(prompt, yes=yes_word(t), name="X", new="X", number=2, total=8).split()[-1]
        assert end + " " in shown.stdout
        # the reply typed is not echoed from a pipe: the Enter a terminal shows is put back
        written = shown.stdout.replace(end + " ", end + "\n", 1)
        assert max(termtext.width(line) for line in written.splitlines()) <= columns, written


def test_a_prompt_keeps_its_trailing_space_and_loses_control_characters():
    """The wrapped prompt still ends where the reply is typed, after its space."""
    prompt = "Type \x1b[31myes to confirm that everything goes: "
    shown = play.prompt_text(prompt, 20)
    assert shown.endswith(": ") and "\x1b" not in shown
    assert all(termtext.width(line) <= 20 for line in shown.split("\n"))


# --- the language from the environment -----------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "language"),
    [
        ({}, "en"),
        ({"LANG": "el_GR.UTF-8"}, "el"),
        ({"LANG": "el_GR.UTF-8", "LC_MESSAGES": "hi_IN.UTF-8"}, "hi"),
        ({"LANG": "hi_IN.UTF-8", "LC_ALL": "el_GR.UTF-8"}, "el"),
        ({"LC_ALL": "en_US.UTF-8", "LANGUAGE": "hi:el"}, "hi"),  # LANGUAGE first
        ({"LANG": "en_US.UTF-8", "LANGUAGE": "de:fr:el"}, "el"),  # the first supported one
        ({"LC_ALL": "C", "LANGUAGE": "el"}, "en"),  # the C locale: LANGUAGE is ignored
        ({"LC_ALL": "", "LANG": "hi_IN", "LANGUAGE": ""}, "hi"),  # empty is unset
        ({"LANG": "de_DE.UTF-8"}, "en"),
    ],
)
def test_the_language_is_read_as_gettext_reads_it(environ, language):
    """LANGUAGE (a list) first unless the locale is C; then LC_ALL, LC_MESSAGES, LANG."""
    assert play.terminal_language(environ) == language


def test_lc_all_picks_the_language_of_the_real_command(tmp_path):
    """`quizbot play` without --lang speaks the language LC_ALL names over LANG's."""
    env = {
        "QUIZBOT_DB": str(tmp_path / "l.sqlite3"),
        "LANG": "en_US.UTF-8",
        "LC_ALL": "el_GR.UTF-8",
        "LANGUAGE": "",
    }
    played = quizbot("play", env=env, stdin="q\n")
    assert played.returncode == 0, played.stderr
    assert flat(i18n.catalog("el")("play_quit", command=play.COMMAND)) in flat(played.stdout)


# --- playing in process --------------------------------------------------------------------


class Terminal:
    """Scripted replies and the text written, for :func:`bot.terminal.play.play`."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = list(replies)
        self.prompts: list[str] = []
        self.written: list[str] = []

    async def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.replies:
            raise EOFError
        return self.replies.pop(0)

    def write(self, text: str) -> None:
        self.written.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.written)


@pytest.fixture
async def services(tmp_path, banks):
    """A quiz and a learning service over a fresh SQLite store, with a second bank."""
    first = banks[BANK_ID]
    second = dataclasses.replace(
        first,
        id="second-bank",
        title=dataclasses.replace(
            first.title, by_language={**first.title.by_language, "en": "The second bank"}
        ),
    )
    all_banks = {first.id: first, second.id: second}
    store = await SQLiteStore.open(tmp_path / "t.sqlite3")
    quiz = QuizService(store, all_banks, rng=random.Random(5))
    learning = LearningService(store, all_banks)
    quiz.on_answer = learning.answered
    yield quiz, learning, store, all_banks
    await store.close()


async def test_the_end_screen_compares_lists_each_miss_once_and_points_to_review(services):
    """A finished quiz ends with the score compared with the best earlier attempt, each
    missed question once (with its answer), and the command that reviews them; nothing in
    the terminal says "send /quiz"."""
    quiz, learning, _store, banks = services
    bank = banks[BANK_ID]
    t = i18n.catalog("en")
    runs = []
    for _ in range(2):
        terminal = Terminal(["A", ""] * len(bank.questions))
        result = await play.play(
            quiz, bank, "en", learning=learning, ask=terminal.ask, write=terminal.write
        )
        assert result is not None
        runs.append((terminal, result))
    (first, first_result), (second, second_result) = runs
    end = second.written[-1]
    assert t("result_score", score=second_result.score, total=8) in end
    better = second_result.score > first_result.score
    assert (
        t(
            "result_improved",
            before=first_result.score,
            before_total=8,
            score=second_result.score,
            total=8,
        )
        if better
        else t("result_best", best=first_result.score, best_total=8)
    ) in end
    assert (
        "→" not in first.written[-1]
        and t("result_best", best=0, best_total=8) not in first.written[-1]
    )  # a first attempt has nothing to compare with
    for terminal, result in runs:
        end = terminal.written[-1]
        assert result.missed  # "A" for every question misses some
        for question in bank.questions:
            prompt = question.prompt.by_language["en"]
            assert end.count(prompt) == (1 if question.id in result.missed else 0)
        assert end.endswith(t("play.review_pointer", command=play.COMMAND))
        assert "/quiz" not in terminal.text and "/review" not in terminal.text


async def test_review_right_after_a_quiz_serves_the_misses(services):
    """`play --review` right after a quiz serves the questions just missed at once; each
    feedback's header counts the questions left, then it says when the next review is."""
    quiz, learning, _store, banks = services
    bank = banks[BANK_ID]
    quizzed = Terminal(["A", ""] * len(bank.questions))
    result = await play.play(
        quiz, bank, "en", learning=learning, ask=quizzed.ask, write=quizzed.write
    )
    assert result is not None and result.missed
    t = i18n.catalog("en")
    count = len(result.missed)
    reviewing = Terminal([])

    async def answer_right(prompt: str) -> str:  # reads the question shown, as a learner
        reviewing.prompts.append(prompt)
        if prompt == t("play_continue"):
            return ""
        return correct_label({"text": reviewing.written[-1]}, bank, "en")

    reviewed = await play.review(learning, "en", ask=answer_right, write=reviewing.write)
    assert reviewed == count
    assert reviewing.prompts[1::2] == [t("play_continue")] * count  # after each feedback
    questions = reviewing.written[0::2]
    feedbacks = reviewing.written[1::2]
    missed = {bank.question(q).prompt.by_language["en"] for q in result.missed}
    for n, (question, feedback) in enumerate(zip(questions, feedbacks, strict=False)):
        assert t("review_due", count=count - n) in question  # the misses, at once
        assert any(prompt in question for prompt in missed)
        assert t("feedback_correct") in feedback
        left = count - n - 1  # the feedback counts what is left, as the next question does
        assert (t("review_due", count=left) if left else t("review_title")) in feedback
    assert (
        reviewing.written[-1]
        == "\n"
        + learning_screens.review_done(
            await learning.next_due(0) - learning.now(), t, render_text.PLAIN
        ).text
    )


async def test_review_waits_for_enter_after_feedback_and_quitting_names_review(services):
    """A review's feedback waits for Enter, as a quiz's does: the next question is not shown
    before it (at 80x24 it would scroll the marked options away) and an Enter typed out of
    habit is not taken for an answer; "q" there quits with the command that goes on reviewing
    (issue 35, item 5: it said "run quizbot play again", which resumes the quiz)."""
    quiz, learning, _store, banks = services
    bank = banks[BANK_ID]
    quizzed = Terminal(["A", ""] * len(bank.questions))
    result = await play.play(
        quiz, bank, "en", learning=learning, ask=quizzed.ask, write=quizzed.write
    )
    assert result is not None and len(result.missed) >= 2
    t = i18n.catalog("en")
    command = "quizbot play --db my.sqlite3"
    reviewing = Terminal([])
    asked: list[tuple[str, int]] = []  # each prompt, and how many blocks were written by then

    async def ask(prompt: str) -> str:
        asked.append((prompt, len(reviewing.written)))
        if prompt == t("play_continue"):
            return "" if len(asked) == 2 else "q"
        return correct_label({"text": reviewing.written[-1]}, bank, "en")

    reviewed = await play.review(learning, "en", ask=ask, write=reviewing.write, command=command)
    assert reviewed == 2
    assert [prompt for prompt, _ in asked][1::2] == [t("play_continue")] * 2
    assert asked[1][1] == 2 and t("feedback_correct") in reviewing.written[1]  # no question yet
    assert t("play_invalid_letters", last="D") not in reviewing.text
    assert reviewing.written[-1] == "\n" + t("play.review_quit", command=command)
    assert f"{command} --review" in reviewing.written[-1]


async def test_another_bank_asks_before_leaving_an_unfinished_quiz(services):
    """`play --bank other` with a quiz of another bank unfinished asks first: "no" (or end of
    input) keeps it and says how to go on with it; "yes" starts the other bank."""
    quiz, _learning, _store, banks = services
    first, second = banks[BANK_ID], banks["second-bank"]
    t = i18n.catalog("en")
    started = Terminal(["A", "", "q"])
    assert await play.play(quiz, first, "en", ask=started.ask, write=started.write) is None
    for replies in (["n"], []):
        asked = Terminal(replies)
        assert await play.play(quiz, second, "en", ask=asked.ask, write=asked.write) is None
        assert asked.prompts == [
            t(
                "play.other_bank",
                name=first.title.by_language["en"],
                new="The second bank",
                number=2,
                total=8,
                yes="yes",
            )
        ]
        assert asked.written == [
            t(
                "play.other_bank_kept",
                command=play.COMMAND,
                bank=BANK_ID,
                name=first.title.by_language["en"],
            )
        ]
        assert (await quiz.active(0)).bank_id == BANK_ID
    resumed = Terminal(["q"])  # no --bank: the unfinished quiz goes on
    await play.play(quiz, None, "en", ask=resumed.ask, write=resumed.write)
    assert resumed.written[0] == t("resume", number=2, total=8)
    moved = Terminal(["yes", "q"])
    await play.play(quiz, second, "en", ask=moved.ask, write=moved.write)
    assert (await quiz.active(0)).bank_id == "second-bank"


PICTURE_URL = "https://example.org/pictures/pipeline-bubble.png"
FILE_ID = "AgACAgIAAxkBAAIBQ2ZfileIdOfAPhotoOnTelegram"


@pytest.mark.parametrize("language", ["en", "hi", "el"])
async def test_a_questions_picture_is_named_in_the_quiz_and_in_review(tmp_path, language):
    """A question's picture, which a terminal cannot draw, is not dropped without a word: its
    link when it is a URL, else a note that only Telegram can show it, in the player's
    language, above the question in the quiz and in review (issue 35, item 3)."""
    langs = ("en", "hi", "el")
    data = {
        "id": "pictures",
        "version": 1,
        "default_language": "en",
        "languages": list(langs),
        "level": "easy",
        "title": dict.fromkeys(langs, "P"),
        "description": dict.fromkeys(langs, "D"),
        "questions": [
            {
                "id": qid,
                "prompt": dict.fromkeys(langs, prompt),
                **({"picture": picture} if picture else {}),
                "options": [
                    {
                        "text": dict.fromkeys(langs, name),
                        **({"correct": True} if name == "Yes" else {}),
                    }
                    for name in ("Yes", "No")
                ],
            }
            for qid, prompt, picture in (
                ("url", "Linked?", PICTURE_URL),
                ("id", "On Telegram?", FILE_ID),
                ("none", "Plain?", None),
            )
        ],
    }
    bank = parse_bank(yaml.safe_dump(data, allow_unicode=True))
    t = i18n.catalog(language)
    store = await SQLiteStore.open(tmp_path / "p.sqlite3")
    try:
        quiz = QuizService(store, {bank.id: bank}, rng=random.Random(2))
        learning = LearningService(store, {bank.id: bank})
        quiz.on_answer = learning.answered
        for mode in ("quiz", "review"):
            terminal = Terminal([])
            shown: list[str] = []  # the question answered at each letter prompt

            async def ask(
                prompt: str,
                terminal: Terminal = terminal,
                shown: list[str] = shown,
                mode: str = mode,
            ) -> str:
                if prompt == t("play_continue"):
                    return ""
                shown.append(terminal.written[-1])
                if len(shown) > 9:
                    raise EOFError  # never reached: each card is answered rightly once
                label = wrong_label if mode == "quiz" else correct_label
                return label({"text": terminal.written[-1]}, bank, language)

            if mode == "quiz":
                await play.play(quiz, bank, language, ask=ask, write=terminal.write)
            else:
                assert await play.review(learning, language, ask=ask, write=terminal.write) >= 3
            link, note = t("play.picture_link", url=PICTURE_URL), t("play.picture_not_shown")
            for picture_line, prompt in ((link, "Linked?"), (note, "On Telegram?")):
                at = terminal.written.index("\n" + picture_line)
                assert prompt in terminal.written[at + 1]  # right above its question
            assert terminal.text.count(link) == sum("Linked?" in q for q in shown) >= 1
            assert terminal.text.count(note) == sum("On Telegram?" in q for q in shown) >= 1
    finally:
        await store.close()


def test_the_end_screens_advice_runs_and_stats_names_a_bank_not_loaded(tmp_path):
    """After a quiz on a bank given with --banks, the end screen's advice is a command that
    works (it reviews that bank's misses); --stats without --banks says the bank is not
    loaded, in the player's language, rather than showing its bare id (issue 35, item 4)."""
    env = {"QUIZBOT_DB": str(tmp_path / "b.sqlite3"), "LC_ALL": "C.UTF-8"}  # English
    path = second_bank(tmp_path)
    t = i18n.catalog("en")
    played = quizbot("play", "--banks", str(path), "--lang", "en", env=env, stdin="A\n\n" * 8)
    assert played.returncode == 0, played.stderr
    assert t("result_perfect") not in played.stdout  # "A" throughout misses some
    advice = re.search(r"run (quizbot play .*--review)\.$", flat(played.stdout))
    assert advice is not None, played.stdout
    # --lang en is what the locale chooses anyway: not advised again
    assert advice[1] == f"quizbot play --banks {shlex.quote(str(path))} --review"
    reviewed = quizbot(*shlex.split(advice[1])[1:], env=env, stdin="")  # run as told
    assert reviewed.returncode == 0, reviewed.stderr
    assert "Review ·" in reviewed.stdout and "due" in reviewed.stdout  # the misses, served
    for language in ("en", "hi", "el"):
        shown = quizbot("play", "--stats", "--lang", language, env=env)
        assert shown.returncode == 0, shown.stderr
        note = i18n.catalog(language)("play.bank_not_loaded", bank="second-bank")
        assert flat(note) in flat(shown.stdout)
    titled = quizbot("play", "--banks", str(path), "--stats", "--lang", "en", env=env)
    assert "not loaded" not in titled.stdout and "DeepSpeed" in titled.stdout


def test_the_command_named_carries_the_options_typed():
    """The command the texts name keeps --db, --banks, --skip-invalid-banks and --lang as
    typed (quoted for the shell), and a PostgreSQL password is not shown."""
    from argparse import Namespace

    from bot.terminal.cli import play_command

    assert play_command(Namespace(db=None, banks=None, skip_invalid_banks=None)) == play.COMMAND
    typed = Namespace(db="my db.sqlite3", banks=["a.yaml", "b dir"], skip_invalid_banks=True)
    assert play_command(typed) == (
        "quizbot play --db 'my db.sqlite3' --banks a.yaml 'b dir' --skip-invalid-banks"
    )
    greek = Namespace(db=None, banks=None, skip_invalid_banks=None, lang="el")
    assert play_command(greek, environ={"LANG": "en_US.UTF-8"}) == "quizbot play --lang el"
    secret = Namespace(db="postgresql://quiz:s3cret@db/quiz", banks=None, skip_invalid_banks=None)
    assert "s3cret" not in play_command(secret)


def test_greek_and_hindi_yes_are_understood():
    """The confirmation takes the catalog's yes (Greek "ναι") as well as "y"."""
    t = i18n.catalog("el")
    assert is_yes("ναι", t) and is_yes("Y", t) and not is_yes("όχι", t)
    assert is_yes("हाँ", i18n.catalog("hi")) and not is_yes("", t)


async def test_terminal_messages_name_commands_to_run(services):
    """With no history, --stats and --review say what to run, in the terminal's words: the
    command that was run, with the options it was given."""
    quiz, learning, _store, _banks = services
    command = "quizbot play --db my.sqlite3"
    for language in ("en", "hi", "el"):
        t = i18n.catalog(language)
        shown = Terminal([])
        await play.stats(quiz, learning, language, write=shown.write, command=command)
        assert shown.written == [t("play.stats_none", command=command)]
        reviewed = Terminal([])
        assert await play.review(learning, language, write=reviewed.write, command=command) == 0
        assert reviewed.written == ["\n" + t("play.review_none_yet", command=command)]
        assert command in shown.text and command in reviewed.text
        assert "/quiz" not in shown.text + reviewed.text


# --- the command line ----------------------------------------------------------------------


def test_reset_asks_and_deletes_only_the_terminals_progress(tmp_path):
    """`play --reset` deletes nothing unless "yes" is typed; then the terminal player's
    attempts, answers and cards are gone, and a Telegram user's stay."""
    db = tmp_path / "r.sqlite3"
    env = {"QUIZBOT_DB": str(db)}
    assert quizbot("play", env=env, stdin="A\n\nq\n").returncode == 0
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO cards (user_id, bank_id, question_id, state, due, reps,"
            " lapses) VALUES (77, ?, 'q', 1, 0, 0, 0)",
            (BANK_ID,),
        )
    t = i18n.catalog("en")

    def counts() -> tuple[int, ...]:
        with sqlite3.connect(db) as conn:
            return tuple(
                conn.execute(f"SELECT COUNT(*) FROM {table} WHERE {column}").fetchone()[0]
                for table, column in (
                    ("attempts", "user_id = 0"),
                    ("cards", "user_id = 0"),
                    ("cards", "user_id = 77"),
                )
            )

    assert counts() == (1, 1, 1)
    for stdin in ("no\n", ""):
        kept = quizbot("play", "--reset", env=env, stdin=stdin)
        assert kept.returncode == 0, kept.stderr
        assert t("play.reset_kept") in kept.stdout and counts() == (1, 1, 1)
    done = quizbot("play", "--reset", env=env, stdin="yes\n")
    assert done.returncode == 0, done.stderr
    assert t("play.reset_prompt", yes="yes") in done.stdout
    assert t("play.reset_done") in done.stdout and counts() == (0, 0, 1)


def test_version_and_chart_without_stats():
    """`quizbot --version` prints the installed version; `play --chart` without --stats is a
    usage error (exit 2) that says why."""
    from importlib.metadata import version

    shown = quizbot("--version")
    assert shown.returncode == 0 and shown.stdout.strip() == f"quizbot {version('quizbot')}"
    refused = quizbot("play", "--chart", "x.png")
    assert refused.returncode == 2 and "--chart PATH goes with --stats" in refused.stderr
    assert "usage: quizbot play" in refused.stderr
    both = quizbot("play", "--review", "--stats")
    assert both.returncode == 2 and "not allowed with argument" in both.stderr


def test_commands_offer_only_the_options_that_mean_something_for_them():
    """Options of bank files and of creating a database are not offered where they mean
    nothing (backup, restore, delete-user, banks)."""
    for command in (("backup", "x"), ("restore", "x"), ("delete-user", "5"), ("banks", "list")):
        for option in ("--banks", "--skip-invalid-banks", "--create-db"):
            refused = quizbot(*command, option)
            assert refused.returncode == 2 and "unrecognized arguments" in refused.stderr
    assert "--create-db" in quizbot("play", "--help").stdout
    assert "--skip-invalid-banks" not in quizbot("report", "--help").stdout


@pytest.mark.parametrize("language", ["en", "hi", "el"])
async def test_true_false_takes_its_words_and_two_letters_get_their_own_note(tmp_path, language):
    """A true/false question takes T, true and the language's own True and False words as
    well as its letters; "AB" on a question with one right answer is told that it has one
    (issue 35, item 7: "Please type a letter from A to B" for T, the generic note for AB)."""
    data = {
        "id": "tf",
        "version": 1,
        "default_language": "en",
        "languages": ["en", "hi", "el"],
        "level": "easy",
        "title": {lang: "T" for lang in ("en", "hi", "el")},
        "description": {lang: "D" for lang in ("en", "hi", "el")},
        "questions": [
            {
                "id": "sky",
                "kind": "true-false",
                "answer": True,
                "prompt": {lang: "The sky is blue." for lang in ("en", "hi", "el")},
            },
            {
                "id": "sea",
                "kind": "true-false",
                "answer": False,
                "prompt": {lang: "The sea is dry." for lang in ("en", "hi", "el")},
            },
            {
                "id": "city",
                "prompt": {lang: "Capital?" for lang in ("en", "hi", "el")},
                "options": [
                    {
                        "text": {lang: name for lang in ("en", "hi", "el")},
                        **({"correct": True} if name == "Paris" else {}),
                    }
                    for name in ("Paris", "Lyon", "Nice")
                ],
            },
        ],
    }
    bank = parse_bank(yaml.safe_dump(data, allow_unicode=True))
    store = await SQLiteStore.open(tmp_path / "t.sqlite3")
    try:
        quiz = QuizService(store, {bank.id: bank}, rng=random.Random(1))
        t = i18n.catalog(language)
        terminal = Terminal([])
        replies = {
            "The sky is blue.": ["t"],
            "The sea is dry.": [t("option_false").lower()],
            "Capital?": ["AB", "A"],
        }

        async def ask(prompt: str) -> str:  # the questions come in the plan's order
            if prompt == t("play_continue"):
                return ""
            shown = next(q for block in reversed(terminal.written) for q in replies if q in block)
            return replies[shown].pop(0)

        result = await play.play(quiz, bank, language, ask=ask, write=terminal.write)
    finally:
        await store.close()
    assert result is not None and result.score >= 2  # both statements answered rightly
    assert t("play_invalid_letters", last="B") not in terminal.text
    assert t("play.one_letter", last="C") in terminal.text


def test_a_persian_or_arabic_keyboard_types_the_labels_without_switching_layout():
    """Abjad letters (الف/أ ب ج د, Arabic forms too) and the option's number in Latin, Persian
    or Arabic-Indic digits name A-D; "ض" (the q key there) quits; anything else is refused."""
    from bot.terminal.replies import QUIT, read_label, read_labels

    letters = ("الف", "ا", "أ", "ب", "ج", "د")
    assert [read_label(x, "ABCD") for x in letters] == ["A", "A", "A", "B", "C", "D"]
    assert [read_label(x, "ABCD") for x in ("1", "۲", "٣", "4")] == list("ABCD")
    assert read_label("5", "ABCD") is None and read_label("هـ", "ABCD") is None
    assert read_labels("الف، ج", "ABCD") == "AC" and read_labels("1 3", "ABCD") == "AC"
    assert "ض" in QUIT


def test_a_russian_keyboard_types_the_labels_that_look_latin():
    """Cyrillic look-alikes of the labels (А В С Е Н І К, either case) name them; other
    Cyrillic letters (б, г, ф: the alphabet's order, the keys' places) are refused rather than
    misread; "й" (the q key there) quits."""
    from bot.terminal.replies import QUIT, read_label, read_labels

    labels = "ABCDEFGHIJKL"
    assert [read_label(x, labels) for x in "АВСЕНІК"] == list("ABCEHIK")
    assert [read_label(x, labels) for x in "авсенік"] == list("ABCEHIK")
    assert [read_label(x, labels) for x in "бгфд"] == [None] * 4
    assert read_labels("а, с", "ABCD") == "AC" and read_labels("ВС", "ABCD") == "BC"
    assert "й".upper() in QUIT


def test_the_command_named_does_not_repeat_a_language_that_changes_nothing():
    """--lang is advised as the code it chose (pt-BR as pt), and not at all when the locale
    alone chooses that language, nor for an unknown code that fell back to it."""
    from argparse import Namespace

    from bot.terminal.cli import play_command

    def typed(lang: str) -> Namespace:
        return Namespace(db=None, banks=None, skip_invalid_banks=None, lang=lang)

    english, russian = {"LANG": "C.UTF-8"}, {"LANG": "ru_RU.UTF-8"}
    assert play_command(typed("xx"), environ=english) == "quizbot play"
    assert play_command(typed("ru-RU"), environ=russian) == "quizbot play"
    assert play_command(typed("pt-BR"), environ=english) == "quizbot play --lang pt"
    assert play_command(typed("ru"), environ=english) == "quizbot play --lang ru"
