-- The twin of migrations_pg/0008_pending_updates.sql, so that the two schemas keep the same
-- tables. Unused with SQLite: a SQLite file has one instance, whose update processor alone
-- keeps each user's updates in order (storage/order.py).
CREATE TABLE pending_updates (
    lock_key    INTEGER NOT NULL,
    update_id   INTEGER NOT NULL,
    asking      INTEGER NOT NULL,
    received_at REAL    NOT NULL,
    PRIMARY KEY (lock_key, update_id)
);
