"""A quiz in a private chat: start or resume, answer, "Next", the score (and the same rules for
``quizbot play``)."""
