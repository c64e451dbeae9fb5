-- The webhook updates handled, so that one delivered again (same update_id: Telegram sends an
-- update again when its answer was lost), to this instance or another, is acknowledged and
-- dropped (storage/order.py). Logged (unlike pending_updates): the marks must outlive a restart
-- of the server. Kept HANDLED_SECONDS, pruned as marks are written.
CREATE TABLE handled_updates (
    bot_id     BIGINT           NOT NULL,  -- the bot's user id (update_ids are per bot)
    update_id  BIGINT           NOT NULL,  -- Telegram's update_id
    handled_at DOUBLE PRECISION NOT NULL,  -- the server's clock, epoch seconds
    PRIMARY KEY (bot_id, update_id)
);
CREATE INDEX handled_updates_by_time ON handled_updates (handled_at);
