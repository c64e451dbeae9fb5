-- The content fingerprint of every question of an attempt, taken when it starts (JSON object:
-- question id -> bot.quiz.bank.Question.fingerprint). NULL for attempts started before.
ALTER TABLE attempts ADD COLUMN fingerprints TEXT;
