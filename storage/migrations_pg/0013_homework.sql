-- Homework in a group (bot/quiz/homework.py): each assignment with its deadline and what was
-- shown, announced and reported; which private attempt is each member's homework and what
-- they were reminded of; and each group's or channel's time zone (bot/quiz/zones.py)
-- (PostgreSQL twin of migrations/0013_homework.sql).
CREATE TABLE assignments (
    assignment_id  BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    chat_id        BIGINT  NOT NULL,         -- the group (moved to a supergroup's new id)
    thread_id      BIGINT,                   -- the forum topic, NULL: none
    token          TEXT    NOT NULL UNIQUE,  -- the deep-link payload (hw + 16 characters)
    bank_id        TEXT    NOT NULL,
    bank_version   INTEGER NOT NULL,         -- when it was set (members play the latest)
    language       TEXT    NOT NULL,         -- the group's, for its messages
    set_by         BIGINT  NOT NULL,         -- the admin's user id; 0: anonymous or deleted
    set_by_name    TEXT    NOT NULL,
    created_at     DOUBLE PRECISION NOT NULL,  -- epoch seconds
    deadline       DOUBLE PRECISION NOT NULL,  -- epoch seconds (now, when closed early)
    status         TEXT    NOT NULL DEFAULT 'open'
                   CHECK (status IN ('open', 'closed', 'cancelled')),
    message_id     BIGINT,                   -- the group message; NULL: not (re-)posted yet
    shown_finished INTEGER NOT NULL DEFAULT 0,  -- the finished count that message shows
    shown_at       DOUBLE PRECISION,         -- its last post or edit
    closed_at      DOUBLE PRECISION,         -- closed or cancelled
    announced_at   DOUBLE PRECISION,         -- the group results claimed (sent at most once)
    reported_at    DOUBLE PRECISION          -- the admin's report claimed (sent at most once)
);
CREATE INDEX assignments_by_chat ON assignments (chat_id, status, deadline);
-- The pass: open homework by deadline, closed homework whose messages are not all claimed.
CREATE INDEX assignments_open ON assignments (deadline) WHERE status = 'open';
CREATE INDEX assignments_unsent ON assignments (deadline)
    WHERE status = 'closed' AND reported_at IS NULL;

-- The link of members' attempts: one row per member who opened a homework.
CREATE TABLE homework_members (
    assignment_id BIGINT NOT NULL REFERENCES assignments (assignment_id) ON DELETE CASCADE,
    user_id       BIGINT NOT NULL,
    attempt_id    BIGINT NOT NULL,           -- attempts.attempt_id: the one that counts once
                                             -- finished before the deadline
    name          TEXT   NOT NULL,           -- when they last opened it
    language      TEXT   NOT NULL,           -- their UI language then (reminders are in it)
    opened_at     DOUBLE PRECISION NOT NULL,  -- the first time
    reminded      DOUBLE PRECISION,          -- the nearest threshold reminded of (seconds
                                             -- before the deadline); NULL: none
    PRIMARY KEY (assignment_id, user_id)
);
CREATE INDEX homework_members_by_user ON homework_members (user_id);
CREATE INDEX homework_members_by_attempt ON homework_members (attempt_id);

-- A group's or channel's time zone (IANA name); none: UTC.
CREATE TABLE chat_time_zones (
    chat_id    BIGINT PRIMARY KEY,
    time_zone  TEXT   NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL     -- epoch seconds
);
