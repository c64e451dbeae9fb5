-- Created quizzes (made by users in Telegram, bot/quiz/library.py): each quiz, owned by its
-- creator's user id, and every version of it as its bank document; and the creators' drafts,
-- one per user, so that a quiz in the making survives a restart.
CREATE TABLE quizzes (
    id         TEXT    PRIMARY KEY,            -- the bank id (c-xxxxxxxxxx), the deep link
    owner_id   INTEGER,                        -- NULL: the creator deleted their data, kept it
    version    INTEGER NOT NULL CHECK (version >= 1),  -- the latest version
    title      TEXT    NOT NULL,               -- in the default language, as typed
    title_key  TEXT    NOT NULL,               -- the title casefolded, for search
    language   TEXT    NOT NULL,               -- the default language
    questions  INTEGER NOT NULL CHECK (questions >= 0),  -- of the latest version
    visibility TEXT    NOT NULL DEFAULT 'link' CHECK (visibility IN ('link', 'public')),
    disabled   INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),  -- taken down
    created_at REAL    NOT NULL,               -- epoch seconds
    updated_at REAL    NOT NULL                -- epoch seconds, of the latest change
);
-- An owner's quizzes, most recently updated first (/myquizzes, the per-creator limit).
CREATE INDEX quizzes_by_owner ON quizzes (owner_id, updated_at);
-- Inline search: the public, enabled quizzes, most recently updated first; a search walks it
-- in order and stops at its limit.
CREATE INDEX quizzes_public ON quizzes (updated_at, id)
    WHERE visibility = 'public' AND disabled = 0;

CREATE TABLE quiz_versions (
    quiz_id    TEXT    NOT NULL REFERENCES quizzes (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL CHECK (version >= 1),
    document   TEXT    NOT NULL,               -- the bank YAML (banks/README.md)
    created_at REAL    NOT NULL,               -- epoch seconds
    PRIMARY KEY (quiz_id, version)
) WITHOUT ROWID;

CREATE TABLE drafts (
    user_id    INTEGER PRIMARY KEY,
    data       TEXT    NOT NULL,               -- JSON (its shape is bot/quiz/creating.py's)
    updated_at REAL    NOT NULL                -- epoch seconds; older than a week: dropped
);
CREATE INDEX drafts_by_time ON drafts (updated_at);
