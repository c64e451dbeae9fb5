-- The first schema: users, attempts, answers.
CREATE TABLE users (
    user_id    INTEGER PRIMARY KEY,
    language   TEXT,                 -- chosen with /language; NULL: follow Telegram's language_code
    updated_at REAL NOT NULL
);

CREATE TABLE attempts (
    attempt_id     INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id        INTEGER NOT NULL,
    bank_id        TEXT    NOT NULL,
    bank_version   INTEGER NOT NULL,
    question_order TEXT    NOT NULL,  -- JSON list of question ids
    option_orders  TEXT    NOT NULL,  -- JSON list (per question) of lists: bank option index per slot
    position       INTEGER NOT NULL DEFAULT 0,
    status         TEXT    NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'finished', 'abandoned')),
    started_at     REAL    NOT NULL,
    ended_at       REAL
);

-- A user has at most one active attempt.
CREATE UNIQUE INDEX attempts_one_active ON attempts (user_id) WHERE status = 'active';
CREATE INDEX attempts_by_user ON attempts (user_id, status, ended_at);

CREATE TABLE answers (
    attempt_id   INTEGER NOT NULL REFERENCES attempts (attempt_id),
    question_id  TEXT    NOT NULL,
    option_index INTEGER NOT NULL,    -- in the bank's option order, not the displayed slot
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    answered_at  REAL    NOT NULL,
    PRIMARY KEY (attempt_id, question_id)  -- at most one answer per question per attempt
) WITHOUT ROWID;
