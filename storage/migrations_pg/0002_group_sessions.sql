-- Group quiz sessions: one live quiz per group chat, every member answering each question once.
CREATE TABLE group_chats (
    chat_id      BIGINT PRIMARY KEY,
    language     TEXT    NOT NULL,
    set_by_admin INTEGER NOT NULL DEFAULT 0 CHECK (set_by_admin IN (0, 1)),
    updated_at   DOUBLE PRECISION NOT NULL
);

CREATE TABLE group_sessions (
    session_id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_id          BIGINT  NOT NULL,
    bank_id          TEXT    NOT NULL,
    bank_version     INTEGER NOT NULL,
    language         TEXT    NOT NULL,
    starter_id       BIGINT  NOT NULL,
    question_order   TEXT    NOT NULL,  -- JSON list of question ids
    option_orders    TEXT    NOT NULL,  -- JSON list of lists: bank option index per slot
    question_seconds DOUBLE PRECISION NOT NULL,
    position         INTEGER NOT NULL DEFAULT 0,
    message_id       BIGINT,            -- the open (or last closed) question's message
    deadline         DOUBLE PRECISION,  -- end of the open question's window; NULL: none open
    status           TEXT    NOT NULL DEFAULT 'active'
                     CHECK (status IN ('active', 'finished', 'stopped')),
    started_at       DOUBLE PRECISION NOT NULL,
    ended_at         DOUBLE PRECISION
);

-- One running session per chat.
CREATE UNIQUE INDEX group_sessions_one_active ON group_sessions (chat_id) WHERE status = 'active';

CREATE TABLE group_players (
    session_id BIGINT NOT NULL REFERENCES group_sessions (session_id),
    user_id    BIGINT NOT NULL,
    name       TEXT   NOT NULL,
    PRIMARY KEY (session_id, user_id)
);

CREATE TABLE group_answers (
    session_id   BIGINT  NOT NULL REFERENCES group_sessions (session_id),
    question_id  TEXT    NOT NULL,
    user_id      BIGINT  NOT NULL,
    option_index INTEGER NOT NULL,
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    elapsed      DOUBLE PRECISION NOT NULL,  -- seconds from the question being posted to the answer
    answered_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (session_id, question_id, user_id)  -- one answer per member per question
);

CREATE INDEX group_answers_by_user ON group_answers (user_id);
