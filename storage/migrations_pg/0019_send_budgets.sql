-- One send budget for every instance of a bot sharing this database (bot/telegram/limits.py,
-- SendBudget; storage/postgres/sends.py): each batch of a job's sends reserves the next span
-- of the budget's time line (next_at: the server's clock, seconds since the epoch), so the
-- instances together keep to the rate one would. group_sends counts the jobs' sends to each
-- group in the last minute (Telegram's 20 a minute), the times of the sends as an array.
CREATE TABLE send_budgets (
    name TEXT PRIMARY KEY,
    next_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE group_sends (
    bot_id BIGINT NOT NULL,
    chat_id BIGINT NOT NULL,
    sent DOUBLE PRECISION[] NOT NULL,
    PRIMARY KEY (bot_id, chat_id)
);
