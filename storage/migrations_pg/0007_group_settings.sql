-- Per-group settings (/settings, group admins only), applied to the group's next session, and
-- the scoring rule each session was played with (PostgreSQL twin of
-- migrations/0007_group_settings.sql).
CREATE TABLE group_settings (
    chat_id          BIGINT  PRIMARY KEY,
    who_starts       TEXT    NOT NULL DEFAULT 'everyone'
                     CHECK (who_starts IN ('everyone', 'admins')),
    question_seconds INTEGER CHECK (question_seconds BETWEEN 5 AND 300),  -- NULL: the bot's default
    scoring          TEXT    NOT NULL DEFAULT 'speed' CHECK (scoring IN ('speed', 'right')),
    bank_id          TEXT,              -- NULL: ask (or the only bank installed)
    question_count   INTEGER CHECK (question_count > 0),                  -- NULL: every question
    version          INTEGER NOT NULL DEFAULT 0,  -- +1 per change: older menus are stale
    updated_at       DOUBLE PRECISION NOT NULL
);

-- Sessions from before this migration were scored by right answers.
ALTER TABLE group_sessions ADD COLUMN scoring TEXT NOT NULL DEFAULT 'right'
    CHECK (scoring IN ('speed', 'right'));
