-- The webhook updates handled, so that one delivered again (same update_id: Telegram sends an
-- update again when its answer was lost) is acknowledged and dropped, across restarts
-- (storage/order.py). Kept HANDLED_SECONDS, pruned as marks are written.
CREATE TABLE handled_updates (
    bot_id     INTEGER NOT NULL,  -- the bot's user id (update_ids are per bot)
    update_id  INTEGER NOT NULL,  -- Telegram's update_id
    handled_at REAL    NOT NULL,  -- epoch seconds
    PRIMARY KEY (bot_id, update_id)
) WITHOUT ROWID;
CREATE INDEX handled_updates_by_time ON handled_updates (handled_at);
