"""Bring what you have: quiz files (YAML, GIFT, Aiken, CSV) sent to the bot or converted by
``quizbot import``."""
