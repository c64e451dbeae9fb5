-- The content fingerprint of every question of an attempt, taken when it starts (JSON object:
-- question id -> bot.quiz.bank.Question.fingerprint), to notice a bank edited without a version
-- bump. NULL for attempts started before: their questions count as unchanged, as before.
ALTER TABLE attempts ADD COLUMN fingerprints TEXT;
