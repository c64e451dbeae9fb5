"""`quizbot play` learns too: --review, --stats (text, --chart PATH), wrapping by display
width and grapheme clusters, Greek letters for A-D and ";" to quit."""

from __future__ import annotations

import sqlite3
import time

import wcwidth

from bot import i18n
from bot.bankload import load_banks
from bot.config import BUNDLED_BANKS
from bot.terminal.play import wrap
from bot.terminal.replies import read_label
from tests.cli.test_cli import quizbot
from tests.support.banks import BANK_ID


def flat(text: str) -> str:
    """``text`` with every run of whitespace one space (the terminal output is wrapped)."""
    return " ".join(text.split())


def test_wrap_breaks_at_words_by_display_width_never_inside_a_grapheme():
    """The bundled explanations wrap at words; a word wider than the line
    (``torch.utils.checkpoint`` at 20 columns) is cut into pieces that fit, nothing lost."""
    banks = load_banks([BUNDLED_BANKS])
    for language in ("hi", "el", "en"):
        text = "\n".join(q.explanation.by_language[language] for q in banks[BANK_ID].questions)
        for width in (80, 41, 20):
            wrapped = wrap(text, width)
            words = text.replace("\n", " ").split()
            pieces = wrapped.replace("\n", " ").split()
            assert "".join(pieces) == "".join(words)
            fitting = [word for word in words if wcwidth.width(word) <= width // 2]
            assert set(fitting) <= set(pieces)
            if all(wcwidth.width(word) <= width // 2 for word in words):
                assert pieces == words
            for line in wrapped.split("\n"):
                assert wcwidth.width(line) <= width
                first = line.lstrip()[:1]
                # no line starts with a combining mark (a Hindi vowel sign or virama)
                assert not first or wcwidth.width(first) > 0, repr(line)


def test_greek_letters_pick_options_and_latin_ones_too():
    assert [read_label(c, "ABCD") for c in "ΑΒΓΔαβγδABCDabcd"] == list("ABCD" * 4)
    assert read_label("Ε", "ABCD") is None and read_label("E", "ABCDE") == "E"
    assert read_label("x", "ABCD") is None


def test_play_review_and_stats_through_the_real_command(tmp_path):
    """Play with a Greek keyboard (Α-Δ, ";" quits), then --review (nothing due yet: when the
    next is, in Greek), --stats as text and a chart file."""
    env = {"QUIZBOT_DB": str(tmp_path / "p.sqlite3"), "COLUMNS": "40", "LC_ALL": "C.UTF-8"}
    t = i18n.catalog("el")
    played = quizbot("play", "--lang", "el", env=env, stdin="Β\n\n;\n")
    assert played.returncode == 0, played.stderr
    written = played.stdout  # without the prompts (input() shows them, unwrapped)
    for prompt in (t("play_prompt_letters", last="D"), t("play_continue")):
        written = written.replace(prompt, "")
    assert max(wcwidth.width(line) for line in written.splitlines()) <= 40
    assert flat(t("play_quit", command="quizbot play --lang el")) in flat(played.stdout)
    with sqlite3.connect(tmp_path / "p.sqlite3") as db:
        assert db.execute("SELECT COUNT(*) FROM cards").fetchone() == (1,)
    with sqlite3.connect(tmp_path / "p.sqlite3") as db:
        [(due,)] = db.execute("SELECT due FROM cards").fetchall()
    before = time.time()
    reviewed = quizbot("play", "--lang", "el", "--review", env=env, stdin="")
    assert reviewed.returncode == 0, reviewed.stderr
    if due - before > 20 * 60:  # answered right ("Β" may be either: the options are shuffled)
        expected = {
            flat(t("review_nothing_due", when=t.relative(due - at))) for at in (before, time.time())
        }
        assert any(text in flat(reviewed.stdout) for text in expected), reviewed.stdout
    else:  # missed: due for review at once
        assert flat(t("review_due", count=1)) in flat(reviewed.stdout)
    chart = tmp_path / "chart.png"
    shown = quizbot("play", "--lang", "el", "--stats", "--chart", str(chart), env=env, stdin="")
    assert shown.returncode == 0, shown.stderr
    assert flat(t("known_header")) in flat(shown.stdout)
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_play_review_serves_due_cards(tmp_path):
    """Cards due now (made from answers before the cards existed) are reviewed one by one: the
    first of two, answered, leaves one due (or both, when it was missed)."""
    import asyncio
    import random

    from bot.features.learning.rules import review_slots
    from bot.kernel.engine import LABELS, plan_attempt
    from storage import SQLiteStore

    path = tmp_path / "old.sqlite3"
    banks = load_banks([BUNDLED_BANKS])

    async def seed() -> None:
        store = await SQLiteStore.open(path, upto=5)
        attempt = await store.start_attempt(
            0, BANK_ID, banks[BANK_ID].version, plan_attempt(banks[BANK_ID], random.Random(3)), 1.0
        )
        await store.close()
        # answered as version 5 stored answers: the insert, which its trigger moved the attempt
        # on with
        with sqlite3.connect(path) as db:
            db.executemany(
                "INSERT INTO answers VALUES (?, ?, 0, 0, 1.0)",
                [(attempt.id, question) for question in attempt.plan.question_order[:2]],
            )
        db.close()

    async def wrong_label() -> str:
        """A letter that misses the first due card as the review will show it (its option
        order is seeded with the question's fingerprint: every language's text)."""
        store = await SQLiteStore.open(path)
        try:
            [card], _ = await store.due_cards(0, [BANK_ID], time.time(), 1, 1)
        finally:
            await store.close()
        question = banks[BANK_ID].question(card.question_id)
        slots = review_slots(card, question)
        return LABELS[next(s for s, i in enumerate(slots) if i != question.correct_index)]

    asyncio.run(seed())
    miss = asyncio.run(wrong_label())
    t = i18n.catalog("en")
    reviewed = quizbot(
        "play",
        "--lang",
        "en",
        "--review",
        env={"QUIZBOT_DB": str(path), "LC_ALL": "C.UTF-8"},
        stdin=f"{miss}\n\n",
    )
    assert reviewed.returncode == 0, reviewed.stderr
    out = flat(reviewed.stdout)
    # the wrong letter misses the first card: it comes back in the same sitting (a
    # relearning step), so the first question, its feedback and the next question (after
    # Enter, which is not taken for an answer) all count 2
    assert t("review_due", count=2) in out.partition("Your answer")[0]
    assert out.count(t("review_due", count=2)) == 3 and t("review_due", count=1) not in out
    assert flat(t("play_continue")) in out and "Please type" not in out
    # --lang en is the locale's own choice: the advice does not repeat it
    assert out.endswith(flat(t("play.review_quit", command="quizbot play")))
