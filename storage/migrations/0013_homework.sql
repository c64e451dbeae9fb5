-- Homework in a group (bot/quiz/homework.py): each assignment with its deadline and what was
-- shown, announced and reported; which private attempt is each member's homework and what
-- they were reminded of; and each group's or channel's time zone (bot/quiz/zones.py).
CREATE TABLE assignments (
    assignment_id  INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id        INTEGER NOT NULL,       -- the group (moved to a supergroup's new id)
    thread_id      INTEGER,                -- the forum topic, NULL: none
    token          TEXT    NOT NULL UNIQUE,  -- the deep-link payload (hw + 16 characters)
    bank_id        TEXT    NOT NULL,
    bank_version   INTEGER NOT NULL,       -- when it was set (members play the latest)
    language       TEXT    NOT NULL,       -- the group's, for its messages
    set_by         INTEGER NOT NULL,       -- the admin's user id; 0: anonymous or deleted
    set_by_name    TEXT    NOT NULL,
    created_at     REAL    NOT NULL,       -- epoch seconds
    deadline       REAL    NOT NULL,       -- epoch seconds (now, when closed early)
    status         TEXT    NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'closed', 'cancelled')),
    message_id     INTEGER,                -- the group message; NULL: not (re-)posted yet
    shown_finished INTEGER NOT NULL DEFAULT 0,  -- the finished count that message shows
    shown_at       REAL,                   -- its last post or edit
    closed_at      REAL,                   -- closed or cancelled
    announced_at   REAL,                   -- the group results claimed (sent at most once)
    reported_at    REAL                    -- the admin's report claimed (sent at most once)
);
CREATE INDEX assignments_by_chat ON assignments (chat_id, status, deadline);
-- The pass: open homework by deadline, closed homework whose messages are not all claimed.
CREATE INDEX assignments_open ON assignments (deadline) WHERE status = 'open';
CREATE INDEX assignments_unsent ON assignments (deadline)
    WHERE status = 'closed' AND reported_at IS NULL;

-- The link of members' attempts: one row per member who opened a homework.
CREATE TABLE homework_members (
    assignment_id INTEGER NOT NULL REFERENCES assignments (assignment_id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    attempt_id    INTEGER NOT NULL,        -- attempts.attempt_id: the one that counts once
                                           -- finished before the deadline
    name          TEXT    NOT NULL,        -- when they last opened it
    language      TEXT    NOT NULL,        -- their UI language then (reminders are in it)
    opened_at     REAL    NOT NULL,        -- the first time
    reminded      REAL,                    -- the nearest threshold reminded of (seconds
                                           -- before the deadline); NULL: none
    PRIMARY KEY (assignment_id, user_id)
);
CREATE INDEX homework_members_by_user ON homework_members (user_id);
CREATE INDEX homework_members_by_attempt ON homework_members (attempt_id);

-- A group's or channel's time zone (IANA name); none: UTC.
CREATE TABLE chat_time_zones (
    chat_id    INTEGER PRIMARY KEY,
    time_zone  TEXT    NOT NULL,
    updated_at REAL    NOT NULL            -- epoch seconds
);
