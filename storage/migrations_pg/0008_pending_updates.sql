-- Updates registered on receipt by an instance receiving webhooks, until they are handled: the
-- order of one (chat, sender)'s updates across instances (storage/order.py). Rows live for the
-- time an update takes to be handled; rows older than TURN_SECONDS hold nobody back. Unlogged:
-- no WAL (nothing to flush at each commit, nothing replicated); a server crash empties it,
-- which only forgets registrations that mattered while their instances lived.
CREATE UNLOGGED TABLE pending_updates (
    lock_key    INTEGER          NOT NULL,  -- storage.order.order_key(chat, sender)
    update_id   BIGINT           NOT NULL,  -- Telegram's update_id
    asking      BOOLEAN          NOT NULL,  -- at the head of its instance's queue for the key
    received_at DOUBLE PRECISION NOT NULL,  -- the server's clock, epoch seconds
    PRIMARY KEY (lock_key, update_id)
);
