"""English (en): the words quizbot reads and checks in English texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import LATIN, Language, Numbered, Sheet

LANGUAGE = Language(
    code="en",
    stopwords=frozenset(
        """a an the of to in on at by for from with without and or but not no is are
        was were be been being it its this that these those as so than then into onto over under
        each every all any some one two does do did done what which who whom how why when where
        only also their there they them he she his her we you your i our us can may must will
        would should could such via per up down out off about across between more most less
        very just same other own""".split()
    ),
    above_phrases=(
        r"\ball of the above\b",
        r"\bnone of the above\b",
        r"\bboth of the above\b",
        r"\ball the above\b",
    ),
    true_words=("True",),
    false_words=("False",),
    count_words=("of", "out"),
    sheet=Sheet(
        question=("Question", "Prompt", "Q"),
        answer=("Answer", "Correct", "Correct answer", "Right answer", "Key"),
        explanation=("Explanation", "Feedback"),
        picture=("Picture", "Image", "Photo"),
        kind=("Kind", "Type"),
        option=("Option", "Choice"),
        true=("True", "T"),
        false=("False", "F"),
        choice=("choice", "multiple choice"),
        true_false=("true-false", "true/false", "true or false"),
        source=("Source",),
        link=("Source link", "Source URL", "Link"),
        shuffle=("Shuffle",),
        marks=("Marks", "Points", "Score"),
        waive=("Waive", "Waived checks"),
        settings=("Settings",),
        title=("Title",),
        description=("Description",),
        language=("Language",),
        level=("Level", "Difficulty"),
        minutes=("Minutes", "Time limit"),
        penalty=("Penalty",),
        draw=("Draw", "Questions drawn"),
        guide=("Guide", "Guide link"),
        guide_label=("Guide label", "Guide button"),
    ),
    numbered=Numbered(
        answer=("Answer", "Answers", "Correct answer", "Right answer", "Ans"),
        explanation=("Explanation", "Rationale", "Feedback"),
        letters=LATIN,
        and_words=("and",),
    ),
)
