-- The first schema: users, attempts, answers (PostgreSQL twin of migrations/0001_initial.sql).
-- Times are seconds since the epoch (double precision), as in SQLite; JSON columns are text,
-- written and read by the same code as SQLite's.
CREATE TABLE users (
    user_id    BIGINT PRIMARY KEY,
    language   TEXT,                 -- chosen with /language; NULL: follow Telegram's language_code
    updated_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE attempts (
    attempt_id     BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        BIGINT  NOT NULL,
    bank_id        TEXT    NOT NULL,
    bank_version   INTEGER NOT NULL,
    question_order TEXT    NOT NULL,  -- JSON list of question ids
    option_orders  TEXT    NOT NULL,  -- JSON list (per question) of lists: bank option index per slot
    position       INTEGER NOT NULL DEFAULT 0,
    status         TEXT    NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'finished', 'abandoned')),
    started_at     DOUBLE PRECISION NOT NULL,
    ended_at       DOUBLE PRECISION
);

-- A user has at most one active attempt.
CREATE UNIQUE INDEX attempts_one_active ON attempts (user_id) WHERE status = 'active';
CREATE INDEX attempts_by_user ON attempts (user_id, status, ended_at);

CREATE TABLE answers (
    attempt_id   BIGINT  NOT NULL REFERENCES attempts (attempt_id),
    question_id  TEXT    NOT NULL,
    option_index INTEGER NOT NULL,    -- in the bank's option order, not the displayed slot
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    answered_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (attempt_id, question_id)  -- at most one answer per question per attempt
);
