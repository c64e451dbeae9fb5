"""Greek (el): the words quizbot reads and checks in Greek texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import Language, Numbered, Sheet

LANGUAGE = Language(
    code="el",
    stopwords=frozenset(
        """ο η το οι τα του της των τον την τους τις ενα ενας μια μιας ενος και ή η
        να σε στο στη στην στον στα στους στις στου στης απο με για ως προς κατα μετα χωρις
        δεν μη μην ειναι ηταν που ποιο ποια ποιος πως τι οτι αυτο αυτη αυτος αυτα αυτες
        αυτους αυτον αυτων κάθε καθε ολο ολα ολες ολοι μονο επισης αλλα ενω οπως οταν αν
        ομως""".split()
    ),
    above_phrases=(
        r"\b(?:ολα|ολες|ολοι) (?:τα|οι) (?:παραπανω|ανωτερω)\b",
        r"\b(?:κανενα|καμια|κανενας|τιποτα) (?:απο )?(?:τα |τις |τους )?(?:παραπανω|ανωτερω)\b",
    ),
    true_words=("Σωστό", "Σωστο", "Αληθές", "Αληθες"),
    false_words=("Λάθος", "Λαθος", "Ψευδές", "Ψευδες"),
    count_words=("από",),
    sheet=Sheet(
        question=("Ερώτηση",),
        answer=("Απάντηση", "Σωστή απάντηση"),
        explanation=("Εξήγηση", "Επεξήγηση"),
        picture=("Εικόνα",),
        kind=("Είδος", "Τύπος"),
        option=("Επιλογή",),
        true=("Σωστό", "Αληθές"),
        false=("Λάθος", "Ψευδές"),
        choice=("πολλαπλής επιλογής", "επιλογή"),
        true_false=("σωστό-λάθος", "σωστό/λάθος"),
        source=("Πηγή",),
        link=("Σύνδεσμος πηγής", "Σύνδεσμος"),
        shuffle=("Ανακάτεμα",),
        marks=("Μονάδες", "Βαθμοί"),
        waive=("Εξαιρέσεις",),
        settings=("Ρυθμίσεις",),
        title=("Τίτλος",),
        description=("Περιγραφή",),
        language=("Γλώσσα",),
        level=("Επίπεδο",),
        minutes=("Λεπτά",),
        penalty=("Ποινή",),
        draw=("Ερωτήσεις ανά προσπάθεια", "Κλήρωση"),
        guide=("Οδηγός",),
        guide_label=("Ετικέτα οδηγού",),
    ),
    numbered=Numbered(
        answer=("Απάντηση", "Απαντηση", "Σωστή απάντηση", "Σωστη απαντηση"),
        explanation=("Εξήγηση", "Εξηγηση", "Επεξήγηση", "Επεξηγηση"),
        letters=tuple("ΑΒΓΔΕΖΗΘΙΚΛΜ"),
        and_words=("και",),
    ),
)
