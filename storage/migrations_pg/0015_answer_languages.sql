-- The language each answer's question was shown in (a catalog code: en, hi, el), for the item
-- analysis of `quizbot report`: a private answer's is the language its quiz was shown in, a
-- group answer's the session's. NULL for answers stored before: the report falls back to the
-- user's /language choice (private) or the session's language (group).
ALTER TABLE answers ADD COLUMN language TEXT;
ALTER TABLE group_answers ADD COLUMN language TEXT;
