"""quizbot: an async Telegram quiz bot."""
