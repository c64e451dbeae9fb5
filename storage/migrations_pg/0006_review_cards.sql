-- Spaced review: one FSRS card per user and question (bot/quiz/learning.py), and each learner's
-- study hours and daily reminder (PostgreSQL twin of migrations/0006_review_cards.sql).
CREATE TABLE cards (
    card_id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     BIGINT  NOT NULL,
    bank_id     TEXT    NOT NULL,
    question_id TEXT    NOT NULL,
    state       INTEGER NOT NULL DEFAULT 1,  -- fsrs.State: 1 learning, 2 review, 3 relearning
    step        INTEGER,                     -- fsrs learning step
    stability   DOUBLE PRECISION,            -- days; NULL: never rated (made from old history)
    difficulty  DOUBLE PRECISION,
    due         DOUBLE PRECISION NOT NULL,   -- seconds since the epoch
    last_review DOUBLE PRECISION,
    reps        INTEGER NOT NULL DEFAULT 0,  -- ratings so far: a review tap names the count it saw
    lapses      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (user_id, bank_id, question_id)
);

-- /review finds a user's due cards, and the next due date, without a scan.
CREATE INDEX cards_due ON cards (user_id, due);

CREATE TABLE learners (
    user_id          BIGINT  PRIMARY KEY,
    remind           INTEGER NOT NULL DEFAULT 0 CHECK (remind IN (0, 1)),  -- /remind; off by default
    hours            TEXT    NOT NULL DEFAULT '[]',  -- JSON: 24 decayed answer counts by UTC hour
    next_remind_at   DOUBLE PRECISION,               -- seconds since the epoch; NULL: none planned
    last_reminded_at DOUBLE PRECISION,
    blocked          INTEGER NOT NULL DEFAULT 0 CHECK (blocked IN (0, 1)),  -- a 403 on a reminder
    language         TEXT    -- the UI language when /remind was sent (a reminder has no update)
);

-- The reminder pass reads the few learners whose reminder is due, in time order.
CREATE INDEX learners_reminders ON learners (next_remind_at) WHERE remind = 1 AND blocked = 0;

-- Questions answered before this migration become cards due now, never rated (FSRS treats them
-- as new): the first review rates them.
INSERT INTO cards (user_id, bank_id, question_id, due, last_review)
SELECT user_id, bank_id, question_id, MAX(answered_at), NULL FROM (
    SELECT a.user_id, a.bank_id, s.question_id, s.answered_at
      FROM answers s JOIN attempts a ON a.attempt_id = s.attempt_id
    UNION ALL
    SELECT x.user_id, g.bank_id, x.question_id, x.answered_at
      FROM group_answers x JOIN group_sessions g ON g.session_id = x.session_id
) AS answered GROUP BY user_id, bank_id, question_id;
