-- What a user was asked in a private chat and answers in a later update, which may reach
-- another instance (webhooks behind a load balancer): /deletemydata's one-time nonce (kind
-- 'delete') and the /myquizzes prompt waiting for the creator's next message (kind 'edit').
-- One of each kind per user: a newer question replaces the older one.
CREATE TABLE prompts (
    user_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    asked_at REAL NOT NULL,
    PRIMARY KEY (user_id, kind)
);
CREATE INDEX prompts_by_time ON prompts (asked_at);
