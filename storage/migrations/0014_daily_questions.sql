-- The question of the day (bot/quiz/daily.py): each group's or channel's schedule, each day's
-- post, the answers to it (one per user and post, by user id: taps on channel posts come
-- without a member list), and the chats the bot may post in, as its my_chat_member updates
-- told (what /daily in the private chat offers for a channel).
CREATE TABLE daily_schedules (
    chat_id    INTEGER PRIMARY KEY,
    chat_type  TEXT    NOT NULL,                -- Telegram's Chat.type: group, supergroup, channel
    thread_id  INTEGER,                         -- the forum topic; NULL: General or no forum
    bank_id    TEXT    NOT NULL,
    language   TEXT    NOT NULL,                -- the chat's language for the posts
    minute     INTEGER NOT NULL CHECK (minute BETWEEN 0 AND 1439),  -- local time of day
    run_out    TEXT    NOT NULL CHECK (run_out IN ('again', 'stop')),
    board_day  INTEGER CHECK (board_day BETWEEN 0 AND 6),  -- weekly leaderboard; NULL: none
    status     TEXT    NOT NULL CHECK (status IN ('on', 'off', 'done', 'lost')),
    round      INTEGER NOT NULL CHECK (round >= 0),     -- times the quiz started over
    position   INTEGER NOT NULL CHECK (position >= 0),  -- the next question's index
    next_at    REAL    NOT NULL,                -- epoch seconds of the next post
    set_by     INTEGER NOT NULL,                -- user id; 0 once they deleted their data
    updated_at REAL    NOT NULL
);
-- The daily pass: schedules that are on, by when their next post is due.
CREATE INDEX daily_schedules_due ON daily_schedules (next_at) WHERE status = 'on';

CREATE TABLE daily_posts (
    post_id      INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id      INTEGER NOT NULL,
    bank_id      TEXT    NOT NULL,
    bank_version INTEGER NOT NULL,
    question_id  TEXT    NOT NULL,
    slots        TEXT    NOT NULL,              -- JSON: the bank option index of each slot
    round        INTEGER NOT NULL,
    position     INTEGER NOT NULL,
    language     TEXT    NOT NULL,
    due_at       REAL    NOT NULL,              -- the scheduled time (one post per chat and time)
    closes_at    REAL    NOT NULL,              -- the next post's time: taps count until then
    message_id   INTEGER,                       -- NULL until sent
    status       TEXT    NOT NULL CHECK (status IN ('sending', 'open', 'revealed', 'failed')),
    UNIQUE (chat_id, due_at)
);
-- The reveals due: open posts by closing time; a chat's posts by time (the week's board).
CREATE INDEX daily_posts_open ON daily_posts (closes_at) WHERE status = 'open';

CREATE TABLE daily_answers (
    post_id      INTEGER NOT NULL REFERENCES daily_posts (post_id) ON DELETE CASCADE,
    user_id      INTEGER NOT NULL,
    name         TEXT    NOT NULL,              -- as Telegram gave it then (first and last name)
    option_index INTEGER NOT NULL,              -- the bank option chosen
    correct      INTEGER NOT NULL CHECK (correct IN (0, 1)),
    answered_at  REAL    NOT NULL,
    PRIMARY KEY (post_id, user_id)
) WITHOUT ROWID;
CREATE INDEX daily_answers_by_user ON daily_answers (user_id);

CREATE TABLE bot_chats (
    chat_id    INTEGER PRIMARY KEY,
    chat_type  TEXT    NOT NULL,
    title      TEXT    NOT NULL,
    status     TEXT    NOT NULL,                -- the bot's ChatMember status there
    can_post   INTEGER NOT NULL CHECK (can_post IN (0, 1)),
    added_by   INTEGER,                         -- who last changed the bot's membership
    updated_at REAL    NOT NULL
);
CREATE INDEX bot_chats_by_adder ON bot_chats (added_by, updated_at);
