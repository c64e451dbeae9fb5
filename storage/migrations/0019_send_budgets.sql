-- The twin of PostgreSQL's send_budgets and group_sends (several instances sharing one send
-- budget). They stay empty on SQLite: a SQLite database has one instance, whose budget is kept
-- in process (bot/telegram/limits.py, SendBudget); the tables keep the two schemas in step.
CREATE TABLE send_budgets (
    name TEXT PRIMARY KEY,
    next_at REAL NOT NULL
);
CREATE TABLE group_sends (
    bot_id INTEGER NOT NULL,
    chat_id INTEGER NOT NULL,
    sent TEXT NOT NULL,
    PRIMARY KEY (bot_id, chat_id)
);
